static const char help[] = "PipeKSPMatMult against MatMult on the GeoFEM/Cube matrix: equality and timing.\n"
                           "  -cube_n <n> -cube_mat_type <baij|aij>   the cube (see PipeKSPCubeSetFromOptions)\n"
                           "  -reps <r>    products per timed batch (default 50)\n"
                           "  -trials <t>  batches of each kind, alternating; the fastest batch counts (default 5)\n";

#include <pipeksp/spmvimpl.h>

int main(int argc, char **argv)
{
  PipeKSPCube     cube;
  Mat             A;
  Vec             x, y1, y2;
  PetscInt        reps = 50, trials = 5, N;
  PetscReal       nrm, diff;
  PetscLogDouble  t0, t1, tmat = 1e300, tpipe = 1e300;
  PetscRandom     rnd;
  MatType         type;
  PipeKSPSpMVPath path;
  PetscMPIInt     size;
  PetscInt64      p0, p1;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PipeKSPInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reps", &reps, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-trials", &trials, NULL));
  PetscCall(PipeKSPCubeCreate(PETSC_COMM_WORLD, &cube));
  PetscCall(PipeKSPCubeSetFromOptions(cube));
  PetscCall(PipeKSPCubeSetUp(cube));
  PetscCall(PipeKSPCubeGetMatrix(cube, &A));
  PetscCall(MatGetType(A, &type));
  PetscCall(MatGetSize(A, &N, NULL));
  PetscCall(MatCreateVecs(A, &x, &y1));
  PetscCall(VecDuplicate(y1, &y2));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(VecSetRandom(x, rnd));

  PetscCall(PipeKSPMatMultGetPollPoints(&p0));
  PetscCall(PipeKSPMatMult(A, x, y1));
  PetscCall(PipeKSPMatMultGetPollPoints(&p1));
  PetscCall(PipeKSPMatMultGetLastPath(&path));
  PetscCall(MatMult(A, x, y2));
  PetscCall(VecNorm(y2, NORM_INFINITY, &nrm));
  PetscCall(VecAXPY(y1, -1.0, y2));
  PetscCall(VecNorm(y1, NORM_INFINITY, &diff));
  diff /= nrm;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "cube %s, %" PetscInt_FMT " unknowns, %d rank(s): rel diff %.1e, split path %s, polls on rank 0 per product %" PetscInt64_FMT "\n", type, N, size, (double)diff, path != PIPEKSP_SPMV_FALLBACK ? "yes" : "NO", p1 - p0));

  for (PetscInt t = 0; t < trials; t++) {
    PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
    PetscCall(PetscTime(&t0));
    for (PetscInt r = 0; r < reps; r++) PetscCall(MatMult(A, x, y2));
    PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
    PetscCall(PetscTime(&t1));
    tmat = PetscMin(tmat, t1 - t0);
    PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
    PetscCall(PetscTime(&t0));
    for (PetscInt r = 0; r < reps; r++) PetscCall(PipeKSPMatMult(A, x, y1));
    PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
    PetscCall(PetscTime(&t1));
    tpipe = PetscMin(tpipe, t1 - t0);
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "time per product: MatMult %.3e s, PipeKSPMatMult %.3e s, ratio %.3f\n", tmat / reps, tpipe / reps, tpipe / tmat));

  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y1));
  PetscCall(VecDestroy(&y2));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PipeKSPCubeDestroy(&cube));
  PetscCheck(diff <= 1e-13 && path != PIPEKSP_SPMV_FALLBACK, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "PipeKSPMatMult differs from MatMult on the cube (or did not split)");
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: matmult_cube_baij_np1
      args: -cube_n 12 -cube_mat_type baij -reps 5 -trials 2
      filter: grep -oE "split path yes|PETSC ERROR"
      output_file: output/ex9_matmult_cube_baij_np1.out

   test:
      suffix: matmult_cube_baij_np2
      nsize: 2
      args: -cube_n 12 -cube_mat_type baij -reps 5 -trials 2
      filter: grep -oE "split path yes|PETSC ERROR"
      output_file: output/ex9_matmult_cube_baij_np2.out

   test:
      suffix: matmult_cube_aij_np1
      args: -cube_n 12 -cube_mat_type aij -reps 5 -trials 2
      filter: grep -oE "split path yes|PETSC ERROR"
      output_file: output/ex9_matmult_cube_aij_np1.out

   test:
      suffix: matmult_cube_aij_np2
      nsize: 2
      args: -cube_n 12 -cube_mat_type aij -reps 5 -trials 2
      filter: grep -oE "split path yes|PETSC ERROR"
      output_file: output/ex9_matmult_cube_aij_np2.out

   test:
      suffix: threads_omp2_matmult_cube_baij_np1
      args: -pipeksp_threads_min_rows 0 -cube_n 12 -cube_mat_type baij -reps 5 -trials 2
      env: OMP_NUM_THREADS=2
      filter: grep -oE "split path yes|FAIL|ERROR|NOT below"
      output_file: output/ex9_threads_omp2_matmult_cube_baij_np1.out

TEST*/
