static char help[] = "Achieved memory bandwidth of one asddic local IC(0) solve (forward + backward sweep) on the\n\
GeoFEM/Cube matrix, against a STREAM triad measured in the same run.\n\
  -reps <n>       timed applies (default 20)\n\
  -stream_n <n>   STREAM array length in doubles per rank (default 8M: 3 x 64 MB, well beyond the caches)\n\
  -pc_asddic_threads <t> threads of the sweeps and of the triad\n\
  plus -cube_* and -pc_asddic_* options (default: 1 ASDD iteration, so one apply = one local solve).\n";

#include <pipeksp.h>

/* a[i] = b[i] + s c[i]; best of a few passes, bytes counted as STREAM does (3 x 8 per entry) */
static PetscErrorCode StreamTriad(PetscInt n, PetscInt nt, PetscReal *gbs)
{
  double        *a, *b, *c, best = 1e30;
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(PetscMalloc3(n, &a, n, &b, n, &c));
  (void)nt;
#pragma omp parallel for num_threads(nt) schedule(static)
  for (PetscInt i = 0; i < n; i++) { /* first touch by the threads that use the pages */
    a[i] = 0;
    b[i] = 1.0;
    c[i] = 2.0;
  }
  for (int rep = 0; rep < 5; rep++) {
    PetscCall(MPI_Barrier(PETSC_COMM_WORLD));
    PetscCall(PetscTime(&t0));
#pragma omp parallel for num_threads(nt) schedule(static)
    for (PetscInt i = 0; i < n; i++) a[i] = b[i] + 3.0 * c[i];
    PetscCall(MPI_Barrier(PETSC_COMM_WORLD));
    PetscCall(PetscTime(&t1));
    if (t1 - t0 < best) best = t1 - t0;
    b[rep] = a[n - 1 - rep]; /* keep the loop alive */
  }
  *gbs = 3.0 * 8.0 * n / best * 1e-9;
  PetscCall(PetscFree3(a, b, c));
  PetscFunctionReturn(0);
}

/* best time of reps SpMVs (PETSc's MatMult or our poll-point PipeKSPMatMult) */
static PetscErrorCode TimeSpMV(Mat A, Vec x, Vec y, PetscBool ours, PetscInt reps, PetscLogDouble *best)
{
  PetscLogDouble t0, t1;

  PetscFunctionBeginUser;
  *best = 1e30;
  PetscCall(ours ? PipeKSPMatMult(A, x, y) : MatMult(A, x, y)); /* warm up */
  for (PetscInt k = 0; k < reps; k++) {
    PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
    PetscCall(PetscTime(&t0));
    PetscCall(ours ? PipeKSPMatMult(A, x, y) : MatMult(A, x, y));
    PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
    PetscCall(PetscTime(&t1));
    *best = PetscMin(*best, t1 - t0);
  }
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PipeKSPCube    cube;
  Mat            A;
  PC             pc;
  Vec            r, z;
  PetscInt       reps = 20, sn = 8 * 1024 * 1024, nt = 1;
  PetscLogDouble bytes, t0, t1, best = 1e30, total = 0;
  PetscReal      stream = 0, gbs;
  PetscMPIInt    size;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PipeKSPInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reps", &reps, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-stream_n", &sn, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-pc_asddic_threads", &nt, NULL)); /* triad with as many threads as the sweeps */
  PetscCall(PipeKSPCubeCreate(PETSC_COMM_WORLD, &cube));
  PetscCall(PipeKSPCubeSetFromOptions(cube));
  PetscCall(PipeKSPCubeSetUp(cube));
  PetscCall(PipeKSPCubeGetMatrix(cube, &A));

  PetscCall(PCCreate(PETSC_COMM_WORLD, &pc));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(PCSetType(pc, PCASDDIC));
  PetscCall(PCASDDICSetIterations(pc, 1));
  PetscCall(PCSetFromOptions(pc));
  PetscCall(PCSetUp(pc));
  PetscCall(PCASDDICGetFactorInfo(pc, NULL, NULL, &bytes));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &bytes, 1, MPI_DOUBLE, MPI_SUM, PETSC_COMM_WORLD));
  PetscCall(MatCreateVecs(A, &r, &z));
  PetscCall(VecSet(r, 1.0));
  PetscCall(PCApply(pc, r, z)); /* warm up */
  for (PetscInt k = 0; k < reps; k++) {
    PetscCall(MPI_Barrier(PETSC_COMM_WORLD));
    PetscCall(PetscTime(&t0));
    PetscCall(PCApply(pc, r, z));
    PetscCall(MPI_Barrier(PETSC_COMM_WORLD));
    PetscCall(PetscTime(&t1));
    total += t1 - t0;
    if (t1 - t0 < best) best = t1 - t0;
  }
  PetscCall(StreamTriad(sn, nt, &stream));
  stream *= size; /* every rank ran the triad at the same time */
  {               /* SpMV: least traffic = values + block column indices + row pointers + x read + y written */
    MatInfo        info;
    PetscInt       bs, m;
    PetscLogDouble sbytes, tp, to;
    PetscCall(MatGetInfo(A, MAT_LOCAL, &info));
    PetscCall(MatGetBlockSize(A, &bs));
    PetscCall(MatGetLocalSize(A, &m, NULL));
    sbytes = 8.0 * info.nz_used + 4.0 * info.nz_used / (bs * bs) + 4.0 * (m / bs + 1) + 16.0 * m;
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &sbytes, 1, MPI_DOUBLE, MPI_SUM, PETSC_COMM_WORLD));
    PetscCall(TimeSpMV(A, r, z, PETSC_FALSE, reps, &tp));
    PetscCall(TimeSpMV(A, r, z, PETSC_TRUE, reps, &to));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "SpMV bytes %.3e: PETSc MatMult %.2f GB/s (ratio to triad %.2f), PipeKSPMatMult %.2f GB/s (ratio %.2f)\n", sbytes, sbytes / tp * 1e-9, sbytes / tp * 1e-9 / stream, sbytes / to * 1e-9, sbytes / to * 1e-9 / stream));
  }
  gbs = bytes / best * 1e-9;
  PetscCall(PCView(pc, PETSC_VIEWER_STDOUT_WORLD));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "threads per rank %" PetscInt_FMT "\n", nt));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "ranks %d  bytes/apply %.3e  best apply %.3e s (mean %.3e s)\n", size, bytes, best, total / reps));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "asddic local solve: %.2f GB/s   STREAM triad: %.2f GB/s   ratio %.2f\n", (double)gbs, (double)stream, (double)(gbs / stream)));
  PetscCall(VecDestroy(&r));
  PetscCall(VecDestroy(&z));
  PetscCall(PCDestroy(&pc));
  PetscCall(PipeKSPCubeDestroy(&cube));
  PetscCall(PetscFinalize());
  return 0;
}
