static char help[] = "Breakdowns of pipeplcg at depths 1-3 and every progress policy: an indefinite matrix and a NaN in b\n\
must end with KSP_DIVERGED_INDEFINITE_MAT and KSP_DIVERGED_NANORINF (what PETSc's cg gives), never NaN in\n\
x; a negative definite preconditioner (PCSHELL returning -x) or matrix (-D) converges to the solution, as with\n\
cg (the estimate meets the sign and the solve runs Gropp's CG from the start; before, the first ended\n\
DIVERGED_INDEFINITE_PC and the second returned x = 0 as converged); the same KSP then solves an SPD system.\n\
Bad settings are errors. Exits with an error when a check fails.\n\n";

#include "common/pipeksptest.h"

static PetscErrorCode NegApply(PC pc, Vec x, Vec y)
{
  PetscFunctionBeginUser;
  PetscCall(VecCopy(x, y));
  PetscCall(VecScale(y, -1.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a PC that fails at its 6th application: the error unwinds a solve with reductions in flight */
static PetscInt       napply = 0;
static PetscErrorCode FailApply(PC pc, Vec x, Vec y)
{
  PetscFunctionBeginUser;
  PetscCheck(++napply != 6, PETSC_COMM_SELF, PETSC_ERR_USER, "planned PC failure");
  PetscCall(VecCopy(x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RunCase(PetscInt depth, const char *pol, PetscInt c, KSPConvergedReason expect, PetscInt *fails)
{
  const PetscInt      n       = 60;
  const char         *names[] = {"indefinite matrix", "negative def. PC", "NaN in b", "negative def. A"};
  Mat                 A, S;
  Vec                 b, x;
  KSP                 ksp;
  PC                  pc;
  KSPConvergedReason  reason;
  PetscReal           xnorm;
  PipeKSPProgressType t;
  PetscBool           flg;

  PetscFunctionBeginUser;
  PetscCall(TestDiagMatrix(n, (PetscBool)(c == 0), &A));
  if (c == 3) PetscCall(MatScale(A, -1.0));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecSet(b, 1.0));
  if (c == 2) {
    PetscScalar nan = PETSC_MAX_REAL;
    nan             = nan * 10.0 - nan * 10.0;
    PetscCall(VecSetValue(b, n - 1, nan, INSERT_VALUES));
    PetscCall(VecAssemblyBegin(b));
    PetscCall(VecAssemblyEnd(b));
  }
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPPIPEPLCG));
  PetscCall(KSPPipePLCGSetDepth(ksp, depth));
  PetscCall(PetscEnumFind(PipeKSPProgressTypes, pol, (PetscEnum *)&t, &flg));
  PetscCall(KSPPipeSetProgress(ksp, t));
  PetscCall(KSPGetPC(ksp, &pc));
  if (c == 1) {
    PetscCall(PCSetType(pc, PCSHELL));
    PetscCall(PCShellSetApply(pc, NegApply));
  } else PetscCall(PCSetType(pc, PCNONE)); /* jacobi would make M^{-1}A = I */
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(VecNorm(x, NORM_2, &xnorm));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "l=%" PetscInt_FMT " %-8s %-18s -> %s\n", depth, pol, names[c], KSPConvergedReasons[reason]));
  if (reason != expect) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  FAIL: expected %s\n", KSPConvergedReasons[expect]));
    (*fails)++;
  }
  if (c != 2 && PetscIsInfOrNanReal(xnorm)) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  FAIL: x holds Inf/NaN\n"));
    (*fails)++;
  }
  if (reason > 0) {                       /* converged: to the solution, ||b - A x|| / ||b|| within 10 rtol (the norm is ||r|| or ||M^{-1} r|| = ||r||) */
    PetscReal res = PETSC_MAX_REAL, rtol; /* set by TestRelResidual() */

    PetscCall(KSPGetTolerances(ksp, &rtol, NULL, NULL, NULL));
    PetscCall(TestRelResidual(A, b, x, &res));
    if (!(res <= 10 * rtol)) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  FAIL: converged with ||b - A x|| / ||b|| = %g\n", (double)res));
      (*fails)++;
    }
  }
  /* the same KSP stays usable: an SPD system with jacobi */
  PetscCall(TestDiagMatrix(n, PETSC_FALSE, &S));
  PetscCall(VecSet(b, 1.0));
  PetscCall(KSPSetOperators(ksp, S, S));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  if (reason <= 0) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  FAIL: reuse after the breakdown: %s\n", KSPConvergedReasons[reason]));
    (*fails)++;
  }
  PetscCall(MatDestroy(&S));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a setter that refuses must raise an error (collective, clear message) */
static PetscErrorCode Refused(PetscErrorCode ierr, const char *what, PetscInt *fails)
{
  PetscFunctionBeginUser;
  if (!ierr) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  FAIL: %s was accepted\n", what));
    (*fails)++;
  } else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "refused: %s\n", what));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* an error in the middle of a solve (reductions pending): the KSP must solve the next system */
static PetscErrorCode ErrorThenReuse(PetscInt depth, const char *pol, PetscInt *fails)
{
  Mat                 A;
  Vec                 b, x;
  KSP                 ksp;
  PC                  pc;
  PetscErrorCode      ierr;
  KSPConvergedReason  reason;
  PipeKSPProgressType t;
  PetscBool           flg;

  PetscFunctionBeginUser;
  PetscCall(TestDiagMatrix(60, PETSC_FALSE, &A));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecSet(b, 1.0));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPPIPEPLCG));
  PetscCall(KSPPipePLCGSetDepth(ksp, depth));
  PetscCall(KSPPipePLCGSetEigenvalueBounds(ksp, 0.0, 60.0)); /* no estimate: the failure hits the solve itself */
  PetscCall(PetscEnumFind(PipeKSPProgressTypes, pol, (PetscEnum *)&t, &flg));
  PetscCall(KSPPipeSetProgress(ksp, t));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCSHELL));
  PetscCall(PCShellSetApply(pc, FailApply));
  napply = 0;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = KSPSolve(ksp, b, x);
  PetscCall(PetscPopErrorHandler());
  if (!ierr) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  FAIL: the planned PC failure did not reach the caller\n"));
    (*fails)++;
  }
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "l=%" PetscInt_FMT " %-8s error in the solve, then -> %s\n", depth, pol, KSPConvergedReasons[reason]));
  if (reason <= 0) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  FAIL: solve after the error: %s\n", KSPConvergedReasons[reason]));
    (*fails)++;
  }
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  const char *pols[] = {"none", "poll", "thread", "blocking"};
  PetscInt    l, p, fails = 0;
  KSP         ksp;

  PETSC_MPI_THREAD_REQUIRED = MPI_THREAD_MULTIPLE; /* the thread policy really runs its helper thread */
  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PipeKSPInitializePackage());
  for (l = 1; l <= 3; l++)
    for (p = 0; p < 4; p++) {
      PetscCall(RunCase(l, pols[p], 0, KSP_DIVERGED_INDEFINITE_MAT, &fails));
      PetscCall(RunCase(l, pols[p], 1, KSP_CONVERGED_RTOL, &fails));
      PetscCall(RunCase(l, pols[p], 2, KSP_DIVERGED_NANORINF, &fails));
      PetscCall(RunCase(l, pols[p], 3, KSP_CONVERGED_RTOL, &fails));
      PetscCall(ErrorThenReuse(l, pols[p], &fails));
    }
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetType(ksp, KSPPIPEPLCG));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  PetscCall(Refused(KSPPipePLCGSetDepth(ksp, -3), "depth -3", &fails)); /* 0 is Gropp's CG, -1 PETSC_DECIDE (auto) */
  PetscCall(Refused(KSPPipePLCGSetDepth(ksp, 6), "depth 6", &fails));
  PetscCall(Refused(KSPPipePLCGSetEigenvalueBounds(ksp, 2.0, 1.0), "interval [2, 1]", &fails));
  PetscCall(Refused(KSPPipePLCGSetEigenvalueBounds(ksp, -1.0, 1.0), "interval [-1, 1]", &fails));
  PetscCall(Refused(KSPPipePLCGSetEstimateIterations(ksp, 1), "1 estimate iteration", &fails));
  PetscCall(Refused(KSPPipePLCGSetEstimateFactor(ksp, 0.0), "estimate factor 0", &fails));
  /* out of range or not finite: they had given -ksp_view NaN shifts */
  PetscCall(Refused(KSPPipePLCGSetEstimateFactor(ksp, 0.05), "estimate factor 0.05", &fails));
  PetscCall(Refused(KSPPipePLCGSetEstimateFactor(ksp, 1e300), "estimate factor 1e300", &fails));
  PetscCall(Refused(KSPPipePLCGSetEstimateFactor(ksp, PETSC_INFINITY), "estimate factor inf", &fails));
  PetscCall(Refused(KSPPipePLCGSetEstimateFactor(ksp, -PETSC_INFINITY), "estimate factor -inf", &fails));
  PetscCall(PetscPopErrorHandler());
  PetscCall(KSPDestroy(&ksp));
  PetscCheck(!fails, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%" PetscInt_FMT " check(s) failed", fails);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "all checks passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: plcg_breakdown_np1
      filter: grep -oE "all checks passed|FAIL"
      output_file: output/ex14_plcg_breakdown_np1.out

   test:
      suffix: plcg_breakdown_np2
      nsize: 2
      filter: grep -oE "all checks passed|FAIL"
      output_file: output/ex14_plcg_breakdown_np2.out

TEST*/
