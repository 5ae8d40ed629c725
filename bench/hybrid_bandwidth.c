static char help[] = "SpMV bandwidth of PipeKSPMatMult with 1 and 2 threads against a STREAM triad with the same threads,\n\
all in one process and interleaved: every round times, in an order rotated round by round, the triad and\n\
the SpMV with 1 thread, the same with 2 threads, and PETSc's MatMult (single-threaded in PETSc 3.18).\n\
Prints the median and IQR over rounds of GB/s and of the per-round ratio SpMV / triad.\n\
  -rounds <n>    rounds (default 15)\n\
  -reps <n>      products (or triads) per timing, best taken (default 3)\n\
  -stream_n <n>  triad length in doubles (default 8M: 3 x 64 MB)\n\
  plus -cube_* options (e.g. -cube_n 65 -cube_mat_type baij).\n";

#include <pipeksp.h>
#if defined(_OPENMP)
  #include <omp.h>
#endif

static double *A_, *B_, *C_;

static PetscErrorCode Triad(PetscInt n, PetscInt nt, PetscInt reps, double *gbs)
{
  PetscLogDouble t0, t1, best = 1e30;

  PetscFunctionBegin;
  (void)nt;
  for (PetscInt r = 0; r < reps; r++) {
    PetscCall(PetscTime(&t0));
#pragma omp parallel for num_threads(nt) schedule(static)
    for (PetscInt i = 0; i < n; i++) A_[i] = B_[i] + 3.0 * C_[i];
    PetscCall(PetscTime(&t1));
    best  = PetscMin(best, t1 - t0);
    B_[r] = A_[n - 1 - r];
  }
  *gbs = 24.0 * n / best * 1e-9;
  PetscFunctionReturn(0);
}

static PetscErrorCode SpMV(Mat A, Vec x, Vec y, PetscInt nt, PetscBool ours, PetscInt reps, double bytes, double *gbs)
{
  PetscLogDouble t0, t1, best = 1e30;

  PetscFunctionBegin;
  PetscCall(PipeKSPSetThreads(nt));
  PetscCall(ours ? PipeKSPMatMult(A, x, y) : MatMult(A, x, y)); /* warm (and the threaded set-up) */
  for (PetscInt r = 0; r < reps; r++) {
    PetscCall(PetscTime(&t0));
    PetscCall(ours ? PipeKSPMatMult(A, x, y) : MatMult(A, x, y));
    PetscCall(PetscTime(&t1));
    best = PetscMin(best, t1 - t0);
  }
  *gbs = bytes / best * 1e-9;
  PetscFunctionReturn(0);
}

static int Cmp(const void *a, const void *b)
{
  double d = *(const double *)a - *(const double *)b;
  return d < 0 ? -1 : (d > 0 ? 1 : 0);
}

/* median and IQR (linear interpolation between order statistics) */
static void Stats(double *v, PetscInt n, double *med, double *iqr)
{
  double q[3];
  qsort(v, (size_t)n, sizeof(double), Cmp);
  for (int k = 0; k < 3; k++) {
    double   pos = (k + 1) * 0.25 * (n - 1);
    PetscInt lo  = (PetscInt)pos;
    double   f   = pos - lo;
    q[k]         = lo + 1 < n ? v[lo] * (1 - f) + v[lo + 1] * f : v[lo];
  }
  *med = q[1];
  *iqr = q[2] - q[0];
}

int main(int argc, char **argv)
{
  PipeKSPCube cube;
  Mat         A;
  Vec         x, y;
  PetscInt    rounds = 15, reps = 3, sn = 8 * 1024 * 1024, bs, m;
  PetscMPIInt size;
  MatInfo     info;
  MatType     mtype;
  double      bytes, *res[5], *rat[3], med, iqr;
  const char *names[5] = {"triad 1 thread", "triad 2 threads", "PipeKSPMatMult 1 thread", "PipeKSPMatMult 2 threads", "PETSc MatMult"};

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PipeKSPInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCheck(size == 1, PETSC_COMM_WORLD, PETSC_ERR_SUP, "Run on one rank: the threads are what is compared");
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-rounds", &rounds, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reps", &reps, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-stream_n", &sn, NULL));
  PetscCall(PipeKSPCubeCreate(PETSC_COMM_WORLD, &cube));
  PetscCall(PipeKSPCubeSetFromOptions(cube));
  PetscCall(PipeKSPCubeSetUp(cube));
  PetscCall(PipeKSPCubeGetMatrix(cube, &A));
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(VecSet(x, 1.0));
  /* least traffic: values, (block) column indices, row pointers, x read once, y written */
  PetscCall(MatGetInfo(A, MAT_LOCAL, &info));
  PetscCall(MatGetBlockSize(A, &bs));
  PetscCall(MatGetLocalSize(A, &m, NULL));
  bytes = 8.0 * info.nz_used + 4.0 * info.nz_used / (bs * bs) + 4.0 * (m / bs + 1) + 16.0 * m;
  PetscCall(MatGetType(A, &mtype));
  PetscCall(PetscMalloc3(sn, &A_, sn, &B_, sn, &C_));
#pragma omp parallel for num_threads(2) schedule(static)
  for (PetscInt i = 0; i < sn; i++) {
    A_[i] = 0;
    B_[i] = 1;
    C_[i] = 2;
  }
  for (int k = 0; k < 5; k++) PetscCall(PetscMalloc1(rounds, &res[k]));
  for (int k = 0; k < 3; k++) PetscCall(PetscMalloc1(rounds, &rat[k]));
  for (PetscInt r = 0; r < rounds; r++) {
    for (int j = 0; j < 5; j++) {
      int k = (int)((j + r) % 5);
      if (k == 0) PetscCall(Triad(sn, 1, reps, &res[0][r]));
      if (k == 1) PetscCall(Triad(sn, 2, reps, &res[1][r]));
      if (k == 2) PetscCall(SpMV(A, x, y, 1, PETSC_TRUE, reps, bytes, &res[2][r]));
      if (k == 3) PetscCall(SpMV(A, x, y, 2, PETSC_TRUE, reps, bytes, &res[3][r]));
      if (k == 4) PetscCall(SpMV(A, x, y, 1, PETSC_FALSE, reps, bytes, &res[4][r]));
    }
    rat[0][r] = res[2][r] / res[0][r];
    rat[1][r] = res[3][r] / res[1][r];
    rat[2][r] = res[4][r] / res[0][r];
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "matrix %s bs %" PetscInt_FMT ", %" PetscInt_FMT " rows, SpMV least traffic %.3e bytes; %" PetscInt_FMT " rounds, best of %" PetscInt_FMT " per timing\n", mtype, bs, m, bytes, rounds, reps));
  for (int k = 0; k < 5; k++) {
    Stats(res[k], rounds, &med, &iqr);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-26s %7.2f GB/s  [IQR %5.2f]\n", names[k], med, iqr));
  }
  Stats(rat[0], rounds, &med, &iqr);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  ratio PipeKSPMatMult / triad, 1 thread:  %.2f [IQR %.2f]\n", med, iqr));
  Stats(rat[1], rounds, &med, &iqr);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  ratio PipeKSPMatMult / triad, 2 threads: %.2f [IQR %.2f]\n", med, iqr));
  Stats(rat[2], rounds, &med, &iqr);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  ratio PETSc MatMult / triad (1 thread):  %.2f [IQR %.2f]\n", med, iqr));
  for (int k = 0; k < 5; k++) PetscCall(PetscFree(res[k]));
  for (int k = 0; k < 3; k++) PetscCall(PetscFree(rat[k]));
  PetscCall(PetscFree3(A_, B_, C_));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(PipeKSPCubeDestroy(&cube));
  PetscCall(PetscFinalize());
  return 0;
}
