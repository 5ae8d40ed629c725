static char help[] = "Breakdowns end where cg ends. On PETSc's ex2 Laplacian (20 x 20) made indefinite, A - s I, with no PC\n\
and with jacobi, and on the Laplacian with an indefinite PCSHELL (a part of the entries scaled by -1/2), in\n\
every norm, each of ours ends with cg's reason, at cg's iteration and with cg's iterate: pipegropp, pipegv,\n\
chrongear, pipeplcg (auto, depths 0-3, and depth 1 on a user's interval: there with the indefinite PC only the\n\
reason and the iteration), with no limit and with -ksp_max_it one past cg's breakdown (which cuts our\n\
restarts short; pipeplcg's deep basis may then end at the limit). Before, a breakdown restarted from\n\
the true residual and the solve ended at a later one with that iterate (A - 0.1 I: iteration 9 and an\n\
iterate 5.8 times cg's off, where cg ends at 3); cg's count is one past the last iteration tested, ours was\n\
not; and pipeplcg on a user's interval ended at once with x0 when the first pivot or (r,M^{-1}r) was\n\
negative, where a negative definite A or PC converges with cg: now as cg.\n\
Exits with an error when a check fails.\n\n";

#include "common/pipeksptest.h"

static TestMixedPC Mixed = {0.0, -0.5}; /* the indefinite PC: a share frac of the entries scaled by -1/2 */

typedef struct {
  const char *type;
  PetscInt    depth; /* pipeplcg: -1 auto; -2 not pipeplcg */
  PetscBool   interval;
} Solver;

/* deep (may be NULL): the solve ran pipeplcg's deep basis (it ended at depth 2 or more, or lowered its depth) */
static PetscErrorCode Solve(Mat A, Vec b, const Solver *s, const char *pc, KSPNormType nt, PetscInt maxit, Vec x, PetscInt *its, KSPConvergedReason *reason, PetscBool *deep)
{
  KSP ksp;
  PC  p;

  PetscFunctionBeginUser;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, s->type));
  PetscCall(KSPSetNormType(ksp, nt));
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, maxit));
  PetscCall(KSPGetPC(ksp, &p));
  if (!strcmp(pc, "mixed")) PetscCall(TestPCSetMixed(p, &Mixed));
  else PetscCall(PCSetType(p, pc));
  if (s->depth > -2) PetscCall(KSPPipePLCGSetDepth(ksp, s->depth == -1 ? PETSC_DECIDE : s->depth));
  if (s->interval) PetscCall(KSPPipePLCGSetEigenvalueBounds(ksp, 0.1, 8.0));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetConvergedReason(ksp, reason));
  if (deep) {
    PipeKSPStats st = {0};

    if (s->depth > -2) PetscCall(KSPPipeGetStats(ksp, &st));
    *deep = (PetscBool)(st.depth >= 2 || st.depth_changes > 0);
  }
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  const Solver ours[] = {
    {KSPPIPEGROPP, -2, PETSC_FALSE},
    {KSPPIPEGV,    -2, PETSC_FALSE},
    {KSPCHRONGEAR, -2, PETSC_FALSE},
    {KSPPIPEPLCG,  -1, PETSC_FALSE},
    {KSPPIPEPLCG,  0,  PETSC_FALSE},
    {KSPPIPEPLCG,  1,  PETSC_FALSE},
    {KSPPIPEPLCG,  2,  PETSC_FALSE},
    {KSPPIPEPLCG,  3,  PETSC_FALSE},
    {KSPPIPEPLCG,  1,  PETSC_TRUE }
  };
  const Solver       cg       = {KSPCG, -2, PETSC_FALSE};
  const KSPNormType  norms[]  = {KSP_NORM_PRECONDITIONED, KSP_NORM_UNPRECONDITIONED, KSP_NORM_NATURAL};
  const PetscReal    shifts[] = {0.1, 0.5, 2.0, 3.0}, fracs[] = {0.1, 0.25};
  const char        *pcs[] = {"none", "jacobi"};
  Mat                L, A;
  Vec                b, x, xcg;
  PetscInt           fails = 0, ncase = 0, its, itscg;
  KSPConvergedReason reason, rcg;
  PetscReal          d, n;
  PetscBool          deep;
  char               what[256];

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PipeKSPInitializePackage());
  PetscCall(TestLap2D(20, 20, &L, &b));
  PetscCall(VecSet(b, 1.0));
  PetscCall(MatCreateVecs(L, &x, &xcg));
  /* cases: the shifted Laplacians with each PC, then the Laplacian with the indefinite PC */
  for (PetscInt c = 0; c < 4 * 2 + 2; c++) {
    const char *pc = c < 8 ? pcs[c % 2] : "mixed";

    PetscCall(MatDuplicate(L, MAT_COPY_VALUES, &A));
    if (c < 8) PetscCall(MatShift(A, -shifts[c / 2]));
    else Mixed.frac = fracs[c - 8];
    for (PetscInt m = 0; m < 3; m++) {
      PetscCall(Solve(A, b, &cg, pc, norms[m], 500, xcg, &itscg, &rcg, NULL));
      PetscCall(VecNorm(xcg, NORM_2, &n));
      PetscCall(PetscSNPrintf(what, sizeof(what), "%s %g, %s, %s norm", c < 8 ? "A - s I, s =" : "indefinite PC on", c < 8 ? (double)shifts[c / 2] : (double)Mixed.frac, pc, KSPNormTypes[norms[m]]));
      /* the case is one only where cg breaks down */
      if (rcg != KSP_DIVERGED_INDEFINITE_MAT && rcg != KSP_DIVERGED_INDEFINITE_PC) {
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL %s: cg ends %s, not a breakdown\n", what, KSPConvergedReasons[rcg]));
        fails++;
        continue;
      }
      /* also with the limit right after cg's breakdown, which cuts our restarts short (cg ends the same) */
      for (size_t k = 0; k < 2 * PETSC_STATIC_ARRAY_LENGTH(ours); k++) {
        const PetscInt maxit = k % 2 ? itscg + 1 : 500;

        PetscCall(Solve(A, b, &ours[k / 2], pc, norms[m], maxit, x, &its, &reason, &deep));
        PetscCall(VecAXPY(x, -1.0, xcg));
        PetscCall(VecNorm(x, NORM_2, &d));
        ncase++;
        /* pipeplcg on a user's interval with the indefinite PC: the shifted basis's square-root breakdown one
           step before cg's restarts from the iterate before, which moves the last one (docs/algorithms.md) */
        if (reason == rcg && its == itscg && (d <= 1e-6 * n || (ours[k / 2].interval && c >= 8))) continue;
        /* pipeplcg's deep basis (depth >= 2 set or chosen by auto, or a user's interval) whose breakdown the
           limit cut short: rounding can flip its pivots far from the floor, so it ends at the limit
           (docs/algorithms.md) */
        if (maxit < 500 && (deep || ours[k / 2].interval) && reason == KSP_DIVERGED_ITS && its == maxit) continue;
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL %s, -ksp_max_it %" PetscInt_FMT ", %s depth %" PetscInt_FMT "%s: %s at %" PetscInt_FMT ", ||x - x_cg|| / ||x_cg|| %g; cg %s at %" PetscInt_FMT "\n", what, maxit, ours[k / 2].type, ours[k / 2].depth,
                              ours[k / 2].interval ? " on [0.1, 8]" : "", KSPConvergedReasons[reason], its, (double)(d / n), KSPConvergedReasons[rcg], itscg));
        fails++;
      }
    }
    PetscCall(MatDestroy(&A));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%" PetscInt_FMT " breakdowns compared with cg's\n", ncase));
  /* a negative definite A (L - 10 I) or PC (all entries scaled by -1/2) is no breakdown for cg, which takes
     the first sign: pipeplcg on a user's interval converges as cg (before: DIVERGED_INDEFINITE_MAT or _PC at once) */
  for (PetscInt c = 0; c < 2; c++) {
    const Solver deep[] = {
      {KSPPIPEPLCG, 1, PETSC_TRUE},
      {KSPPIPEPLCG, 2, PETSC_TRUE},
      {KSPPIPEPLCG, 3, PETSC_TRUE}
    };

    PetscCall(MatDuplicate(L, MAT_COPY_VALUES, &A));
    if (!c) PetscCall(MatShift(A, -10.0));
    Mixed.frac = 1.0;
    PetscCall(Solve(A, b, &cg, c ? "mixed" : "none", KSP_NORM_PRECONDITIONED, 500, xcg, &itscg, &rcg, NULL));
    PetscCall(VecNorm(xcg, NORM_2, &n));
    for (size_t k = 0; k < PETSC_STATIC_ARRAY_LENGTH(deep); k++) {
      PetscCall(Solve(A, b, &deep[k], c ? "mixed" : "none", KSP_NORM_PRECONDITIONED, 500, x, &its, &reason, NULL));
      PetscCall(VecAXPY(x, -1.0, xcg));
      PetscCall(VecNorm(x, NORM_2, &d));
      if (rcg > 0 && reason == rcg && its == itscg && d <= 1e-6 * n) continue;
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL negative definite %s, pipeplcg depth %" PetscInt_FMT " on [0.1, 8]: %s at %" PetscInt_FMT ", ||x - x_cg|| / ||x_cg|| %g; cg %s at %" PetscInt_FMT "\n", c ? "PC" : "A", deep[k].depth, KSPConvergedReasons[reason], its, (double)(d / n), KSPConvergedReasons[rcg], itscg));
      fails++;
    }
    PetscCall(MatDestroy(&A));
  }
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&xcg));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&L));
  PetscCheck(!fails, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%" PetscInt_FMT " check(s) failed", fails);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "all checks passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      requires: !complex
      suffix: ksp_breakdown_as_cg_np1
      filter: grep -oE "all checks passed|FAIL"
      output_file: output/ex23_breakdown_as_cg.out

   test:
      requires: !complex
      suffix: ksp_breakdown_as_cg_np2
      nsize: 2
      filter: grep -oE "all checks passed|FAIL"
      output_file: output/ex23_breakdown_as_cg.out

   test:
      requires: !complex
      suffix: ksp_breakdown_as_cg_np4
      nsize: 4
      filter: grep -oE "all checks passed|FAIL"
      output_file: output/ex23_breakdown_as_cg.out

TEST*/
