static char help[] = "Eigenvalue estimates as cg's: with KSPSetComputeEigenvalues(), each of ours (pipegropp, pipegv,\n\
chrongear, pipeplcg at depths 0-5 and auto) gives KSPComputeEigenvalues() and KSPComputeExtremeSingularValues()\n\
the Lanczos estimates cg gives on the GeoFEM/Cube with jacobi, in the same run:\n\
  - a converged solve (rtol 1e-10): the extremes within 1e-6 (top) and 1e-3 (bottom) of cg's, and every\n\
    estimate inside cg's extremes (a deep basis that breaks down leaves no Ritz value below the spectrum);\n\
  - a capped solve (10 iterations): every estimate within 1e-8 of cg's, as many as cg's;\n\
  - fewer slots than estimates (nmax 3): 3 estimates, no error;\n\
  - KSPCHEBYSHEV with one of ours as its eigenvalue estimator: cg's bounds and cg's iterations +-1 (before:\n\
    no estimates, bounds of -1.8e308 and -inf).\n\
Exits with an error when a check fails.\n\n";

#include "common/pipeksptest.h"

#define NCONF 11
static const char    *Types[NCONF]  = {KSPCG, KSPPIPEGROPP, KSPPIPEGV, KSPCHRONGEAR, KSPPIPEPLCG, KSPPIPEPLCG, KSPPIPEPLCG, KSPPIPEPLCG, KSPPIPEPLCG, KSPPIPEPLCG, KSPPIPEPLCG};
static const PetscInt Depths[NCONF] = {-2, -2, -2, -2, 0, 1, 2, 3, 4, 5, PETSC_DECIDE}; /* -2: no depth */

static PetscErrorCode Fail(PetscInt *fails, const char *what)
{
  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL %s\n", what));
  (*fails)++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetType(KSP ksp, PetscInt k)
{
  PetscFunctionBeginUser;
  PetscCall(KSPSetType(ksp, Types[k]));
  if (Depths[k] != -2) PetscCall(KSPPipePLCGSetDepth(ksp, Depths[k]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* solves with configuration k and returns the estimates: all of them (at most nmax), the extremes */
static PetscErrorCode Estimates(Mat A, Vec b, PetscInt k, PetscReal rtol, PetscInt maxit, PetscInt nmax, PetscReal *eig, PetscInt *neig, PetscReal *emin, PetscReal *emax, PetscInt *its)
{
  KSP        ksp;
  PC         pc;
  Vec        x;
  PetscReal *c;

  PetscFunctionBeginUser;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(SetType(ksp, k));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetTolerances(ksp, rtol, PETSC_DEFAULT, PETSC_DEFAULT, maxit));
  PetscCall(KSPSetComputeEigenvalues(ksp, PETSC_TRUE));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(PetscMalloc1(nmax, &c));
  PetscCall(KSPComputeEigenvalues(ksp, nmax, eig, c, neig));
  for (PetscInt j = 0; j < *neig; j++) PetscCheck(c[j] == 0.0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "an imaginary part");
  PetscCall(PetscFree(c));
  PetscCall(KSPComputeExtremeSingularValues(ksp, emax, emin));
  PetscCall(VecDestroy(&x));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* KSPCHEBYSHEV whose eigenvalue estimator is configuration k: iterations and the estimator's extremes */
static PetscErrorCode Chebyshev(Mat A, Vec b, PetscInt k, PetscInt *its, KSPConvergedReason *reason, PetscReal *emin, PetscReal *emax)
{
  KSP ksp, est;
  PC  pc;
  Vec x;

  PetscFunctionBeginUser;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCHEBYSHEV));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetTolerances(ksp, 1e-6, PETSC_DEFAULT, PETSC_DEFAULT, 5000));
  PetscCall(KSPChebyshevEstEigSet(ksp, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE));
  PetscCall(KSPChebyshevEstEigGetKSP(ksp, &est));
  PetscCall(SetType(est, k));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetConvergedReason(ksp, reason));
  PetscCall(KSPComputeExtremeSingularValues(est, emax, emin)); /* what chebyshev's bounds were made of */
  PetscCall(VecDestroy(&x));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PipeKSPCube        cube;
  Mat                A;
  Vec                b;
  PetscInt           fails = 0, n, ncg, its, itscg, nmax = 400;
  PetscReal         *eig, *eigcg, lo, hi, locg, hicg, cmin, cmax, cmincg, cmaxcg;
  KSPConvergedReason reason;
  char               msg[256], name[64];

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PipeKSPInitializePackage());
  PetscCall(TestCubeSystem(PETSC_FALSE, &cube, &A, &b, NULL));
  PetscCall(PetscMalloc2(nmax, &eig, nmax, &eigcg));
  for (PetscInt k = 1; k < NCONF; k++) {
    if (Depths[k] == -2) PetscCall(PetscSNPrintf(name, sizeof(name), "%s", Types[k]));
    else if (Depths[k] == PETSC_DECIDE) PetscCall(PetscSNPrintf(name, sizeof(name), "%s auto depth", Types[k]));
    else PetscCall(PetscSNPrintf(name, sizeof(name), "%s depth %" PetscInt_FMT, Types[k], Depths[k]));
    /* converged */
    PetscCall(Estimates(A, b, 0, 1e-10, 1000, nmax, eigcg, &ncg, &locg, &hicg, &itscg));
    PetscCall(Estimates(A, b, k, 1e-10, 1000, nmax, eig, &n, &lo, &hi, &its));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: rtol 1e-10, %" PetscInt_FMT " iterations (cg %" PetscInt_FMT "), %" PetscInt_FMT " estimates in [%.10g, %.10g] (cg %" PetscInt_FMT " in [%.10g, %.10g])\n", name, its, itscg, n, (double)lo, (double)hi, ncg, (double)locg, (double)hicg));
    PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s converged: %" PetscInt_FMT " estimates in [%g, %g], cg's [%g, %g]", name, n, (double)lo, (double)hi, (double)locg, (double)hicg));
    if (n < 1 || n > its || PetscAbsReal(hi - hicg) > 1e-6 * hicg || PetscAbsReal(lo - locg) > 1e-3 * locg) PetscCall(Fail(&fails, msg));
    for (PetscInt j = 0; j < n; j++)
      if (eig[j] < (1 - 1e-3) * locg || eig[j] > (1 + 1e-6) * hicg || (j && eig[j] < eig[j - 1])) {
        PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s converged: estimate %" PetscInt_FMT " of %" PetscInt_FMT ", %g, outside cg's [%g, %g] or out of order", name, j, n, (double)eig[j], (double)locg, (double)hicg));
        PetscCall(Fail(&fails, msg));
        break;
      }
    /* capped: cg's T_10 */
    PetscCall(Estimates(A, b, 0, 1e-10, 10, nmax, eigcg, &ncg, &locg, &hicg, &itscg));
    PetscCall(Estimates(A, b, k, 1e-10, 10, nmax, eig, &n, &lo, &hi, &its));
    PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s capped at 10: %" PetscInt_FMT " estimates, cg %" PetscInt_FMT, name, n, ncg));
    if (n != ncg || ncg != 10) PetscCall(Fail(&fails, msg));
    else
      for (PetscInt j = 0; j < n; j++)
        if (PetscAbsReal(eig[j] - eigcg[j]) > 1e-8 * hicg) {
          PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s capped at 10: estimate %" PetscInt_FMT " %.12g, cg's %.12g", name, j, (double)eig[j], (double)eigcg[j]));
          PetscCall(Fail(&fails, msg));
          break;
        }
    /* fewer slots than estimates */
    PetscCall(Estimates(A, b, k, 1e-10, 10, 3, eig, &n, &lo, &hi, &its));
    PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s, 3 slots: %" PetscInt_FMT " estimates", name, n));
    if (n != 3) PetscCall(Fail(&fails, msg));
    /* the estimator of KSPCHEBYSHEV */
    PetscCall(Chebyshev(A, b, 0, &itscg, &reason, &cmincg, &cmaxcg));
    PetscCall(Chebyshev(A, b, k, &its, &reason, &cmin, &cmax));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: chebyshev %" PetscInt_FMT " iterations, estimated [%.8g, %.8g] (cg as estimator: %" PetscInt_FMT ", [%.8g, %.8g])\n", name, its, (double)cmin, (double)cmax, itscg, (double)cmincg, (double)cmaxcg));
    PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s as chebyshev's estimator: %s, %" PetscInt_FMT " iterations, estimated [%g, %g]; cg's %" PetscInt_FMT ", [%g, %g]", name, KSPConvergedReasons[reason], its, (double)cmin, (double)cmax, itscg, (double)cmincg, (double)cmaxcg));
    if (reason <= 0 || PetscAbsInt(its - itscg) > 1 || PetscAbsReal(cmax - cmaxcg) > 1e-6 * cmaxcg || PetscAbsReal(cmin - cmincg) > 1e-6 * cmaxcg) PetscCall(Fail(&fails, msg));
  }
  PetscCall(PetscFree2(eig, eigcg));
  PetscCall(PipeKSPCubeDestroy(&cube));
  PetscCheck(!fails, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%" PetscInt_FMT " checks FAILED", fails);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "all checks passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   testset:
      args: -cube_n 7
      filter: grep -oE "all checks passed|FAIL"
      output_file: output/ex24_pass.out
      test:
         suffix: ksp_eigenvalues_np1
      test:
         suffix: ksp_eigenvalues_np2
         nsize: 2

TEST*/
