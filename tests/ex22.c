static char help[] = "pipeplcg at depths 2-5 with a norm that arrives l iterations after its iterate (the preconditioned\n\
and unpreconditioned norms), on the GeoFEM/Cube with jacobi, against cg in the same run:\n\
  - a convergence test of the user's that stops at iteration k: iteration k, cg's norm there, and cg's\n\
    k-th iterate as the solution (before: the iterate of iteration k + l - 1);\n\
  - a monitor that forms b - A x with KSPBuildSolution() at every iteration: cg's true residuals\n\
    (before: those of l - 1 iterations later);\n\
  - -ksp_pipe_replace 2 (a restart every 2 iterations, before any norm of the segment arrives) with\n\
    -ksp_max_it 5: DIVERGED_ITS at iteration 5, the monitor called at iteration 5 and at none beyond (before:\n\
    iteration 6, and only iteration 0 monitored).\n\
Exits with an error when a check fails.\n\n";

#include "common/pipeksptest.h"

#define MAXIT 64

typedef struct {
  PetscInt  stop;          /* the user's test stops here */
  PetscReal tres[MAXIT];   /* the monitor's ||b - A x_k|| */
  PetscInt  nmon, lastmon; /* monitor calls, the last iteration seen */
  Mat       A;
  Vec       b, w, r;
} Ctx;

static PetscErrorCode StopAt(KSP ksp, PetscInt it, PetscReal rn, KSPConvergedReason *reason, void *ctx)
{
  PetscFunctionBeginUser;
  *reason = it >= ((Ctx *)ctx)->stop ? KSP_CONVERGED_ITS : KSP_CONVERGED_ITERATING;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TrueMonitor(KSP ksp, PetscInt it, PetscReal rn, void *ctx)
{
  Ctx *c = (Ctx *)ctx;
  Vec  x;

  PetscFunctionBeginUser;
  PetscCall(KSPBuildSolution(ksp, c->w, &x));
  PetscCall(MatMult(c->A, x, c->r));
  PetscCall(VecAYPX(c->r, -1.0, c->b));
  if (it < MAXIT) PetscCall(VecNorm(c->r, NORM_2, &c->tres[it]));
  c->nmon++;
  c->lastmon = it;
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  PetscInt           its;
  PetscReal          rnorm;
  KSPConvergedReason reason;
} Out;

/* one solve from zero: depth < 0 is cg; stop > 0 the user's test, monitor the true-residual monitor */
static PetscErrorCode Solve(Ctx *c, KSPNormType nt, PetscInt depth, PetscInt stop, PetscBool monitor, PetscInt replace, PetscInt maxit, Vec x, Out *o)
{
  KSP ksp;
  PC  pc;

  PetscFunctionBeginUser;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, c->A, c->A));
  PetscCall(KSPSetType(ksp, depth < 0 ? KSPCG : KSPPIPEPLCG));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetNormType(ksp, nt));
  PetscCall(KSPSetTolerances(ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, maxit));
  if (depth >= 0) PetscCall(KSPPipePLCGSetDepth(ksp, depth));
  if (depth >= 0 && replace) PetscCall(KSPPipeSetReplacePeriod(ksp, replace));
  c->stop    = stop;
  c->nmon    = 0;
  c->lastmon = -1;
  if (stop > 0) PetscCall(KSPSetConvergenceTest(ksp, StopAt, c, NULL));
  if (monitor) PetscCall(KSPMonitorSet(ksp, TrueMonitor, c, NULL));
  PetscCall(VecSet(x, 0.0));
  PetscCall(KSPSolve(ksp, c->b, x));
  PetscCall(KSPGetIterationNumber(ksp, &o->its));
  PetscCall(KSPGetResidualNorm(ksp, &o->rnorm));
  PetscCall(KSPGetConvergedReason(ksp, &o->reason));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Fail(PetscInt *fails, const char *what)
{
  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL %s\n", what));
  (*fails)++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PipeKSPCube       cube;
  Ctx               c = {0};
  Vec               x, xcg, x0 = NULL;
  PetscInt          fails   = 0, l, s, k;
  const PetscInt    stops[] = {1, 2, 4, 7};
  const KSPNormType nts[]   = {KSP_NORM_PRECONDITIONED, KSP_NORM_UNPRECONDITIONED};
  PetscReal         cgres[MAXIT], d, nx;
  Out               o, g;
  char              msg[256];

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PipeKSPInitializePackage());
  PetscCall(TestCubeSystem(PETSC_FALSE, &cube, &c.A, &c.b, &x0));
  PetscCall(VecDuplicate(c.b, &x));
  PetscCall(VecDuplicate(c.b, &xcg));
  PetscCall(VecDuplicate(c.b, &c.w));
  PetscCall(VecDuplicate(c.b, &c.r));
  for (PetscInt n = 0; n < 2; n++) {
    /* the user's test: cg's iteration, norm and iterate */
    for (s = 0; s < 4; s++) {
      PetscCall(Solve(&c, nts[n], -1, stops[s], PETSC_FALSE, 0, 100, xcg, &g));
      PetscCall(VecNorm(xcg, NORM_2, &nx));
      for (l = 2; l <= 5; l++) {
        PetscCall(Solve(&c, nts[n], l, stops[s], PETSC_FALSE, 0, 100, x, &o));
        PetscCall(VecAXPY(x, -1.0, xcg));
        PetscCall(VecNorm(x, NORM_2, &d));
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s l=%" PetscInt_FMT " stop %" PetscInt_FMT ": its %" PetscInt_FMT " (cg %" PetscInt_FMT ") norm %.6e (cg %.6e) |x - x_cg|/|x_cg| %.2e\n", KSPNormTypes[nts[n]], l, stops[s], o.its, g.its, (double)o.rnorm,
                              (double)g.rnorm, (double)(d / nx)));
        PetscCall(PetscSNPrintf(msg, sizeof(msg), "user's test at %" PetscInt_FMT ", %s, depth %" PetscInt_FMT ": its %" PetscInt_FMT ", norm %g, x %g from cg's", stops[s], KSPNormTypes[nts[n]], l, o.its, (double)o.rnorm, (double)(d / nx)));
        if (o.reason != g.reason || o.its != g.its || PetscAbsReal(o.rnorm - g.rnorm) > 1e-6 * g.rnorm || d > 1e-6 * nx) PetscCall(Fail(&fails, msg));
      }
    }
    /* the true-residual monitor under the default test, capped at 12 iterations */
    PetscCall(Solve(&c, nts[n], -1, 0, PETSC_TRUE, 0, 12, xcg, &g));
    for (k = 0; k <= c.lastmon; k++) cgres[k] = c.tres[k];
    for (l = 2; l <= 5; l++) {
      PetscCall(Solve(&c, nts[n], l, 0, PETSC_TRUE, 0, 12, x, &o));
      PetscCheck(c.lastmon == 12, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the monitor's last iteration %" PetscInt_FMT ", not 12", c.lastmon);
      for (k = 0; k <= 12; k++) {
        if (PetscAbsReal(c.tres[k] - cgres[k]) <= 1e-6 * cgres[k]) continue;
        PetscCall(PetscSNPrintf(msg, sizeof(msg), "monitor, %s, depth %" PetscInt_FMT ", iteration %" PetscInt_FMT ": ||b - A x|| %g, cg's %g", KSPNormTypes[nts[n]], l, k, (double)c.tres[k], (double)cgres[k]));
        PetscCall(Fail(&fails, msg));
      }
    }
    /* a replacement period shorter than the norm's delay, capped at 5 */
    for (l = 2; l <= 3; l++) {
      PetscCall(Solve(&c, nts[n], l, 0, PETSC_TRUE, 2, 5, x, &o));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s l=%" PetscInt_FMT " replace 2, max_it 5: %s at %" PetscInt_FMT ", last monitored %" PetscInt_FMT "\n", KSPNormTypes[nts[n]], l, KSPConvergedReasons[o.reason], o.its, c.lastmon));
      PetscCall(PetscSNPrintf(msg, sizeof(msg), "replace 2, max_it 5, %s, depth %" PetscInt_FMT ": %s at %" PetscInt_FMT ", last monitored %" PetscInt_FMT, KSPNormTypes[nts[n]], l, KSPConvergedReasons[o.reason], o.its, c.lastmon));
      if (o.reason != KSP_DIVERGED_ITS || o.its != 5 || c.lastmon != 5) PetscCall(Fail(&fails, msg));
    }
  }
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&xcg));
  PetscCall(VecDestroy(&c.w));
  PetscCall(VecDestroy(&c.r));
  PetscCall(PipeKSPCubeDestroy(&cube)); /* and its A and b */
  PetscCheck(!fails, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%" PetscInt_FMT " check(s) failed", fails);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "all checks passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: plcg_late_norm_np1
      filter: grep -oE "all checks passed|FAIL"
      output_file: output/ex22_plcg_late_norm_np1.out

   test:
      suffix: plcg_late_norm_np2
      nsize: 2
      filter: grep -oE "all checks passed|FAIL"
      output_file: output/ex22_plcg_late_norm_np2.out

TEST*/
