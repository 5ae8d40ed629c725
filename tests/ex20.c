static char help[] = "asddic cannot be fooled. -test <name>:\n\
  notspd  the 2D Laplacian on an -n x -n grid, negated (-negdef, default: negative definite) or with every\n\
          -negate_every k-th diagonal entry negated; b = A x, x random. Each KSP of -types (default cg,pipegv)\n\
          with PC asddic (options from the command line) must end with DIVERGED_PC_FAILED and the PC with\n\
          FACTOR_NUMERIC_ZEROPIVOT, or converge with a true residual ||b - A x||/||b|| below 10 rtol\n\
          (-expect_solve: the latter, for the positive Laplacian); a CONVERGED reason with a larger true\n\
          residual is the garbage this test exists to catch\n\
  ranges  every setter refuses with PETSC_ERR_ARG_OUTOFRANGE the values that make P indefinite, infinite or\n\
          vanishing (safety, bounds, damping, estimate steps) and accepts the edges of the allowed ranges\n\
  spd     on the cube, with the options (the minimum estimate steps): the bound emax of the sweeps covers\n\
          0.95 lambda_max(M^-1 A) (Lanczos on the K = 1 PC, -lanczos_steps), the smallest Ritz value of P A\n\
          (Lanczos in the A inner product) is positive and (x, P x) > 0 on -nrandom random x\n";

#include "common/pipeksptest.h"

/* the 5-point Laplacian on n x n (Dirichlet), times sign; every negate-th diagonal entry negated (0: none) */
static PetscErrorCode Laplacian(PetscInt n, PetscReal sign, PetscInt negate, Mat *A)
{
  PetscInt rs, re;

  PetscFunctionBeginUser;
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n * n, n * n, 5, NULL, 2, NULL, A));
  PetscCall(MatGetOwnershipRange(*A, &rs, &re));
  for (PetscInt r = rs; r < re; r++) {
    const PetscInt i = r / n, j = r % n;
    PetscScalar    d = 4 * sign;
    if (negate > 0 && r % negate == 0) d = -d;
    PetscCall(MatSetValue(*A, r, r, d, INSERT_VALUES));
    if (i > 0) PetscCall(MatSetValue(*A, r, r - n, -sign, INSERT_VALUES));
    if (i < n - 1) PetscCall(MatSetValue(*A, r, r + n, -sign, INSERT_VALUES));
    if (j > 0) PetscCall(MatSetValue(*A, r, r - 1, -sign, INSERT_VALUES));
    if (j < n - 1) PetscCall(MatSetValue(*A, r, r + 1, -sign, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestNotSPD(void)
{
  char       *types[8];
  PetscInt    n = 20, negate = 0, ntypes = 8, bad = 0;
  PetscBool   negdef = PETSC_TRUE, expectsolve = PETSC_FALSE, flg;
  PetscReal   rtol = 1e-8;
  Mat         A;
  Vec         b, x, xt, r;
  PetscRandom rnd;

  PetscFunctionBeginUser;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "asddic on matrices that are not SPD", NULL);
  PetscCall(PetscOptionsInt("-n", "Grid points per direction", NULL, n, &n, NULL));
  PetscCall(PetscOptionsBool("-negdef", "Minus the Laplacian", NULL, negdef, &negdef, NULL));
  PetscCall(PetscOptionsInt("-negate_every", "Negate every k-th diagonal entry of the Laplacian (0: none)", NULL, negate, &negate, NULL));
  PetscCall(PetscOptionsBool("-expect_solve", "Every solve must converge (an SPD input)", NULL, expectsolve, &expectsolve, NULL));
  PetscCall(PetscOptionsReal("-rtol", "Relative tolerance", NULL, rtol, &rtol, NULL));
  PetscCall(PetscOptionsStringArray("-types", "KSP types", NULL, types, &ntypes, &flg));
  PetscOptionsEnd();
  if (!flg) {
    PetscCall(PetscStrallocpy(KSPCG, &types[0]));
    PetscCall(PetscStrallocpy("pipegv", &types[1]));
    ntypes = 2;
  }
  PetscCall(Laplacian(n, negdef ? -1.0 : 1.0, negate, &A));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecDuplicate(x, &xt));
  PetscCall(VecDuplicate(x, &r));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(VecSetRandom(xt, rnd));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(MatMult(A, xt, b));
  for (PetscInt t = 0; t < ntypes; t++) {
    KSP                ksp;
    PC                 pc;
    KSPConvergedReason reason;
    PCFailedReason     pcreason;
    PetscInt           its;
    PetscReal          res, nb;

    PetscCall(TestKSPASDDIC(A, types[t], rtol, 1000, &ksp, &pc));
    PetscCall(KSPSetFromOptions(ksp));
    PetscCall(KSPSolve(ksp, b, x));
    PetscCall(KSPGetConvergedReason(ksp, &reason));
    PetscCall(KSPGetIterationNumber(ksp, &its));
    PetscCall(PCGetFailedReason(pc, &pcreason));
    PetscCall(MatMult(A, x, r));
    PetscCall(VecAYPX(r, -1.0, b));
    PetscCall(VecNorm(r, NORM_2, &res));
    PetscCall(VecNorm(b, NORM_2, &nb));
    res /= nb;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %s after %" PetscInt_FMT " iterations, PC %s, true residual %.3g ||b||\n", types[t], KSPConvergedReasons[reason], its, PCFailedReasons[pcreason], (double)res));
    if (reason > 0 && !(res <= 10 * rtol)) {
      bad++;
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL %s: converged with a wrong x (true residual %.3g ||b||)\n", types[t], (double)res));
    } else if (reason < 0 && (expectsolve || reason != KSP_DIVERGED_PC_FAILED || pcreason != PC_FACTOR_NUMERIC_ZEROPIVOT)) {
      bad++;
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL %s: %s, PC %s\n", types[t], KSPConvergedReasons[reason], PCFailedReasons[pcreason]));
    } else if (expectsolve && reason <= 0) {
      bad++;
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL %s: did not converge\n", types[t]));
    }
    PetscCall(KSPDestroy(&ksp));
    PetscCall(PetscFree(types[t]));
  }
  if (!bad) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "all checks passed\n"));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&xt));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&r));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* e: the setter's error code; refused: whether it must be PETSC_ERR_ARG_OUTOFRANGE (else 0) */
static PetscErrorCode Expect(PetscErrorCode e, PetscBool refused, const char *what, PetscInt *bad)
{
  PetscFunctionBeginUser;
  if (refused ? e != PETSC_ERR_ARG_OUTOFRANGE : e != 0) {
    (*bad)++;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL %s: %s (error %d)\n", what, refused ? "not refused" : "refused", (int)e));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestRanges(void)
{
  PC              pc;
  PetscInt        bad = 0;
  PetscErrorCode  e;
  const PetscReal inf = PETSC_INFINITY;
  /* value, refused */
  const struct {
    PetscReal v;
    PetscBool no;
  } safety[] =
    {
      {1e100, PETSC_TRUE },
      {10.5,  PETSC_TRUE },
      {1.05,  PETSC_TRUE },
      {inf,   PETSC_TRUE },
      {1.1,   PETSC_FALSE},
      {10,    PETSC_FALSE},
      {2,     PETSC_FALSE}
  },
    damping[] = {{1e-300, PETSC_TRUE}, {5e-7, PETSC_TRUE}, {2, PETSC_TRUE}, {-0.5, PETSC_TRUE}, {1e-6, PETSC_FALSE}, {1.99, PETSC_FALSE}, {0, PETSC_FALSE}};
  const struct {
    PetscReal emin, emax;
    PetscBool no;
  } eigs[] = {
    {1e-3,   1e160,      PETSC_TRUE },
    {1e-300, 1e300,      PETSC_TRUE },
    {1,      inf,        PETSC_TRUE },
    {1e-9,   1e-7,       PETSC_TRUE },
    {1e-7,   1e6 * 1.01, PETSC_TRUE },
    {1e-7,   1e6,        PETSC_TRUE },
    {1e-6,   1e6,        PETSC_FALSE},
    {1e-18,  1e-6,       PETSC_FALSE},
    {0.1,    2,          PETSC_FALSE},
    {0,      0,          PETSC_FALSE}
  };
  const struct {
    PetscInt  v;
    PetscBool no;
  } steps[] = {
    {2,   PETSC_TRUE },
    {9,   PETSC_TRUE },
    {-2,  PETSC_TRUE },
    {10,  PETSC_FALSE},
    {-1,  PETSC_FALSE},
    {0,   PETSC_FALSE},
    {100, PETSC_FALSE}
  };
  char what[128];

  PetscFunctionBeginUser;
  PetscCall(PCCreate(PETSC_COMM_WORLD, &pc));
  PetscCall(PCSetType(pc, PCASDDIC));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  for (size_t i = 0; i < sizeof(safety) / sizeof(safety[0]); i++) {
    e = PCASDDICSetEstimateSafety(pc, safety[i].v);
    PetscCall(PetscSNPrintf(what, sizeof(what), "PCASDDICSetEstimateSafety(%g)", (double)safety[i].v));
    PetscCall(Expect(e, safety[i].no, what, &bad));
  }
  for (size_t i = 0; i < sizeof(damping) / sizeof(damping[0]); i++) {
    e = PCASDDICSetDamping(pc, damping[i].v);
    PetscCall(PetscSNPrintf(what, sizeof(what), "PCASDDICSetDamping(%g)", (double)damping[i].v));
    PetscCall(Expect(e, damping[i].no, what, &bad));
  }
  for (size_t i = 0; i < sizeof(eigs) / sizeof(eigs[0]); i++) {
    e = PCASDDICSetEigenvalues(pc, eigs[i].emin, eigs[i].emax);
    PetscCall(PetscSNPrintf(what, sizeof(what), "PCASDDICSetEigenvalues(%g, %g)", (double)eigs[i].emin, (double)eigs[i].emax));
    PetscCall(Expect(e, eigs[i].no, what, &bad));
  }
  for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
    e = PCASDDICSetEstimateSteps(pc, steps[i].v);
    PetscCall(PetscSNPrintf(what, sizeof(what), "PCASDDICSetEstimateSteps(%" PetscInt_FMT ")", steps[i].v));
    PetscCall(Expect(e, steps[i].no, what, &bad));
  }
  PetscCall(PetscPopErrorHandler());
  PetscCall(PCDestroy(&pc));
  if (!bad) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "all checks passed\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestSPD(void)
{
  PetscInt    lsteps = 200, nrandom = 50, neg = 0, bad = 0;
  PetscReal   lmin, lmax, rmin, rmax, emin, emax, omega;
  PipeKSPCube cube;
  Mat         A;
  Vec         b, x0;
  PC          pc;

  PetscFunctionBeginUser;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "asddic spd test", NULL);
  PetscCall(PetscOptionsInt("-lanczos_steps", "Lanczos steps of the checks", NULL, lsteps, &lsteps, NULL));
  PetscCall(PetscOptionsInt("-nrandom", "Random vectors", NULL, nrandom, &nrandom, NULL));
  PetscOptionsEnd();
  PetscCall(TestCubeSystem(PETSC_FALSE, &cube, &A, &b, &x0));
  /* lambda_max(M^-1 A): the same PC with K = 1 */
  PetscCall(TestPCASDDIC(A, NULL, &pc));
  PetscCall(PCASDDICSetIterations(pc, 1));
  PetscCall(PCSetUp(pc));
  PetscCall(TestLanczosPA(A, pc, lsteps, &lmin, &lmax));
  PetscCall(PCDestroy(&pc));
  /* the PC under test */
  PetscCall(TestPCASDDIC(A, NULL, &pc));
  PetscCall(PCSetUp(pc));
  PetscCall(PCASDDICGetEigenvalueBounds(pc, &emin, &emax, &omega));
  PetscCall(TestLanczosPA(A, pc, lsteps, &rmin, &rmax));
  PetscCall(TestPositiveOnRandom(A, pc, nrandom, &neg, NULL));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "lambda(M^-1 A) in [%.4g, %.4g]; sweeps' bounds [%.4g, %.4g], damping %.4g; Ritz values of P A in [%.4g, %.4g]\n", (double)lmin, (double)lmax, (double)emin, (double)emax, (double)omega, (double)rmin, (double)rmax));
  if (!(emax >= 0.95 * lmax)) {
    bad++;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL: the bound %g is below 0.95 lambda_max(M^-1 A) = %g\n", (double)emax, (double)(0.95 * lmax)));
  }
  if (!(rmin > 0) || neg) {
    bad++;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL: P is not positive definite (smallest Ritz value %g, (x, P x) <= 0 on %" PetscInt_FMT " of %" PetscInt_FMT " x)\n", (double)rmin, neg, nrandom));
  }
  if (!bad) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "all checks passed\n"));
  PetscCall(PCDestroy(&pc));
  PetscCall(PipeKSPCubeDestroy(&cube));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char test[64] = "notspd";

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PipeKSPInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-test", test, sizeof(test), NULL));
  if (!strcmp(test, "notspd")) PetscCall(TestNotSPD());
  else if (!strcmp(test, "ranges")) PetscCall(TestRanges());
  else if (!strcmp(test, "spd")) PetscCall(TestSPD());
  else SETERRQ(PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "unknown -test %s", test);
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   # "all checks passed" or what failed
   testset:
      env: OMP_NUM_THREADS=1
      filter: grep -oE "all checks passed|FAIL[ :]|bytes"
      output_file: output/ex20_pass.out
      test:
         suffix: pc_asddic_notspd_sgs
         args: -n 10 -pc_asddic_local sgs -types cg,pipegv,pipegropp,chrongear,pipeplcg
      test:
         suffix: pc_asddic_notspd_sgs_np2
         nsize: 2
         args: -n 10 -pc_asddic_local sgs -types cg,pipegv,pipegropp,chrongear,pipeplcg
      test:
         suffix: pc_asddic_notspd_ic_np2
         nsize: 2
         args: -n 10 -types cg,pipegv,pipeplcg
      test:
         suffix: pc_asddic_notspd_negdiag
         nsize: 2
         args: -n 10 -negdef 0 -negate_every 7 -types cg,pipegv
      test:
         suffix: pc_asddic_notspd_negdiag_sgs_shiftnone
         args: -n 10 -negdef 0 -negate_every 7 -pc_asddic_local sgs -pc_asddic_shift none -types cg,pipegv
      test:
         suffix: pc_asddic_laplacian_solves
         nsize: 2
         args: -n 10 -negdef 0 -expect_solve -types cg,pipegv,pipeplcg
      test:
         suffix: pc_asddic_ranges
         args: -test ranges
      test:
         suffix: pc_asddic_spd_min_steps
         args: -test spd -cube_n 10 -pc_asddic_esteig_steps 10 -malloc_debug -malloc_dump
      test:
         suffix: pc_asddic_spd_min_steps_sgs_np4
         nsize: 4
         args: -test spd -cube_n 10 -cube_nu 0.49 -pc_asddic_local sgs -pc_asddic_esteig_steps 10 -pc_asddic_esteig_safety 1.1
      test:
         suffix: pc_asddic_spd_min_steps_richardson_np4
         nsize: 4
         args: -test spd -cube_n 10 -cube_nu 0.49 -pc_asddic_local sgs -pc_asddic_esteig_steps 10 -pc_asddic_esteig_safety 1.1 -pc_asddic_sweep richardson
      test:
         suffix: pc_asddic_spd_check_fails_np4
         nsize: 4
         args: -test spd -cube_n 10 -cube_nu 0.49 -pc_asddic_local sgs -pc_asddic_eigenvalues 0.1,1 -pc_asddic_sweep richardson
         filter: grep -oE "all checks passed|FAIL: P is not positive definite|FAIL: the bound|bytes"
         output_file: output/ex20_pc_asddic_spd_check_fails_np4.out

   # refused: a non-SPD diagonal, settings outside the SPD ranges
   testset:
      nsize: 2
      args: -n 10
      env: OMP_NUM_THREADS=1
      test:
         suffix: pc_asddic_notspd_error
         args: -pc_asddic_local sgs -ksp_error_if_not_converged
         filter: Error: grep -oE "asddic: diagonal entry -4. of row [0-9]+ is not positive: the matrix is not SPD" | sed -E "s/row [0-9]+/row R/" | sort -u
      test:
         suffix: pc_asddic_refuse_safety
         args: -negdef 0 -pc_asddic_esteig_safety 1e100
         filter: Error: grep -oE "safety factor on the largest eigenvalue must be at least 1.1 and at most 10" | sort -u
      test:
         suffix: pc_asddic_refuse_eigenvalues
         args: -negdef 0 -pc_asddic_eigenvalues 1e-3,1e160
         filter: Error: grep -oE "emax in \[1e-06, 1e\+06\] and emax/emin at most 1e\+12" | sort -u
      test:
         suffix: pc_asddic_refuse_steps
         args: -negdef 0 -pc_asddic_esteig_steps 2
         filter: Error: grep -oE "estimate steps must be -1 \(automatic\), 0 \(none\) or at least 10" | sort -u
      test:
         suffix: pc_asddic_refuse_damping
         args: -negdef 0 -pc_asddic_damping 1e-300
         filter: Error: grep -oE "damping must be in \[1e-06, 2\)" | sort -u

TEST*/
