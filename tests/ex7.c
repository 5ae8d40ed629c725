static char help[] = "One KSP of each of our types solves, its operator changes (new values in the same Mat, then a\n\
new size after KSPReset()) and it solves again: each solve must match a fresh KSP's, iterations and true\n\
residual, so KSPSetUp()/KSPSolve() redo what a changed operator needs. Then vectors whose parallel layout is\n\
not the operator's (the same global size, local sizes off on some ranks; or a global size off), as the first\n\
solve and after a good one, twice: PETSC_ERR_ARG_SIZ on every rank (PETSc's local-size checks err on some ranks\n\
only, and cg hangs there), a nonzero guess x untouched, b writable, and after a KSPSetUp() that still sees the\n\
refused x, the next solve of the right vectors takes a fresh KSP's iterations.\n";

#include "common/pipeksptest.h"
static PetscErrorCode Solve(KSP ksp, Mat A, PetscInt *its, PetscReal *res)
{
  Vec b, x, r;
  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecDuplicate(b, &r));
  PetscCall(VecSet(b, 1.0));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, res));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&r));
  PetscFunctionReturn(PETSC_SUCCESS);
}
/* a vector of global size N whose local sizes are the operator's with one row moved from the last rank to the
   first (shift 1; 1 row more on the first rank with shift 2: global size N + 1) */
static PetscErrorCode OffLayout(Mat A, PetscInt shift, Vec *w)
{
  PetscMPIInt rank, size;
  PetscInt    m, N;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(MatGetLocalSize(A, &m, NULL));
  PetscCall(MatGetSize(A, &N, NULL));
  if (shift == 1 && size > 1) m += (rank == 0) - (rank == size - 1);
  else m += (rank == 0);
  PetscCall(VecCreateMPI(PETSC_COMM_WORLD, m, shift == 1 ? N : N + 1, w));
  PetscCall(VecSet(*w, 7.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a solve of vectors in another layout: an error of the size class on every rank and x kept; then the same
   KSP solves the right vectors as a fresh one does (first: the refused solve is the KSP's first) */
static PetscErrorCode BadLayouts(const char *type, PetscInt shift, PetscBool first, PetscInt *fails)
{
  Mat            A;
  KSP            ksp, f;
  Vec            w, v;
  PetscErrorCode ierr;
  PetscInt       i0, i1, j1, all = 0, mine;
  PetscReal      r0, r1, s1, vmin, vmax;

  PetscFunctionBeginUser;
  PetscCall(TestLap1D(48, 0.0, 0.01, &A));
  PetscCall(OffLayout(A, shift, &w));
  PetscCall(VecDuplicate(w, &v));
  PetscCall(VecSet(v, 7.0));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetType(ksp, type));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  if (!first) PetscCall(Solve(ksp, A, &i0, &r0));
  PetscCall(KSPSetInitialGuessNonzero(ksp, PETSC_TRUE)); /* with a zero guess PETSc zeroes x before the type runs */
  mine = 1;
  for (PetscInt k = 0; k < 2; k++) { /* twice: each error must undo KSPSolve()'s PCPreSolve() and its lock on b */
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = KSPSolve(ksp, w, v);
    PetscCall(PetscPopErrorHandler());
    mine = mine && ierr == PETSC_ERR_ARG_SIZ;
  }
  PetscCall(KSPSetInitialGuessNonzero(ksp, PETSC_FALSE));
  PetscCall(VecScale(w, 1.0)); /* b writable again */
  PetscCall(KSPSetUp(ksp));    /* a set-up that still sees the refused x: the next solve makes its work vectors again */
  PetscCallMPI(MPI_Allreduce(&mine, &all, 1, MPIU_INT, MPI_MIN, PETSC_COMM_WORLD));
  PetscCall(VecMin(v, NULL, &vmin));
  PetscCall(VecMax(v, NULL, &vmax));
  PetscCall(Solve(ksp, A, &i1, &r1));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &f));
  PetscCall(KSPSetType(f, type));
  PetscCall(KSPSetFromOptions(f));
  PetscCall(Solve(f, A, &j1, &s1));
  PetscCall(KSPDestroy(&f));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-10s layout off (%s, %s): size error on every rank %s, x kept %s; then %d its (%.2e), fresh KSP %d its (%.2e)\n", type, shift == 1 ? "local sizes" : "global size", first ? "first solve" : "after a solve", all ? "yes" : "NO", vmin == 7 && vmax == 7 ? "yes" : "NO", (int)i1, (double)r1, (int)j1, (double)s1));
  if (!all || vmin != 7 || vmax != 7 || i1 != j1 || r1 != s1) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  FAIL: %s on vectors in another layout\n", type));
    (*fails)++;
  }
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&w));
  PetscCall(VecDestroy(&v));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  const char *types[] = {"pipegv", "pipegropp", "chrongear", "pipeplcg"};
  PetscInt    fails   = 0;
  PetscMPIInt size;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PipeKSPInitializePackage());
  for (int t = 0; t < 4; t++) {
    Mat       A1, A2, A3;
    KSP       ksp, f;
    PetscInt  i1, i2, i3, j2, j3;
    PetscReal r1, r2, r3, s2, s3, lo2 = 0, hi2 = 0;
    PetscBool plcg;
    PetscCall(TestLap1D(200, 0.0, 0.01, &A1));
    PetscCall(TestLap1D(200, 0.0, 0.01, &A2));
    PetscCall(TestLap1D(300, 0.05, 0.01, &A3));
    PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
    PetscCall(KSPSetType(ksp, types[t]));
    PetscCall(KSPSetFromOptions(ksp));
    PetscCall(Solve(ksp, A1, &i1, &r1));
    PetscCall(MatShift(A1, 0.3)); /* same Mat, new values */
    PetscCall(Solve(ksp, A1, &i2, &r2));
    /* pipeplcg's changed-values solve takes its shifts from the first solve's Ritz values (no estimate, by
       design): the fresh KSP below gets that interval, so everything else must match bit for bit */
    plcg = (PetscBool)(t == 3);
    if (plcg) PetscCall(KSPPipePLCGGetEigenvalueBounds(ksp, &lo2, &hi2));
    PetscCall(KSPReset(ksp));
    PetscCall(Solve(ksp, A3, &i3, &r3));
    PetscCall(MatShift(A2, 0.3));
    PetscCall(KSPCreate(PETSC_COMM_WORLD, &f));
    PetscCall(KSPSetType(f, types[t]));
    PetscCall(KSPSetFromOptions(f));
    if (plcg) PetscCall(KSPPipePLCGSetEigenvalueBounds(f, lo2, hi2));
    PetscCall(Solve(f, A2, &j2, &s2));
    PetscCall(KSPDestroy(&f));
    PetscCall(KSPCreate(PETSC_COMM_WORLD, &f));
    PetscCall(KSPSetType(f, types[t]));
    PetscCall(KSPSetFromOptions(f));
    PetscCall(Solve(f, A3, &j3, &s3));
    PetscCall(KSPDestroy(&f));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-10s first %d its (%.2e); changed values %d its (%.2e), fresh KSP %d its (%.2e); after reset, new size %d its (%.2e), fresh %d (%.2e)\n", types[t], (int)i1, (double)r1, (int)i2, (double)r2, (int)j2, (double)s2, (int)i3, (double)r3, (int)j3, (double)s3));
    if (i2 != j2 || r2 != s2 || i3 != j3 || r3 != s3 || !(r1 < 1e-3)) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  FAIL: %s after an operator change differs from a fresh KSP\n", types[t]));
      fails++;
    }
    PetscCall(KSPDestroy(&ksp));
    PetscCall(MatDestroy(&A1));
    PetscCall(MatDestroy(&A2));
    PetscCall(MatDestroy(&A3));
  }
  for (int t = 0; t < 4; t++)
    for (PetscInt shift = 1; shift <= 2; shift++)
      for (int first = 0; first < 2; first++)
        if (shift == 2 || size > 1) PetscCall(BadLayouts(types[t], shift, (PetscBool)first, &fails));
  if (!fails) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "all checks passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   # pipeplcg at depth 2: auto, its default, chooses from timings, which the fresh KSP may measure otherwise
   test:
      suffix: ksp_reuse_np2
      nsize: 2
      args: -pc_type jacobi -ksp_pipe_depth 2
      filter: grep -oE "all checks passed|FAIL|ERROR"
      output_file: output/ex7_ksp_reuse_np2.out

   # 3 ranks: a layout with one row moved from rank 2 to rank 0 leaves rank 1's local size right
   test:
      suffix: ksp_reuse_np3
      nsize: 3
      args: -pc_type jacobi -ksp_pipe_depth 2
      filter: grep -oE "all checks passed|FAIL|ERROR"
      output_file: output/ex7_ksp_reuse_np2.out

TEST*/
