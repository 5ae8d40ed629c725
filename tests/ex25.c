static char help[] = "pipeplcg where the Krylov space ends: a 1-D Laplacian of -n rows (6 and 40 by default) with a\n\
random b, where cg converges at step n or sooner (on several ranks b spans an invariant space of fewer\n\
dimensions), without a PC and with jacobi, at depths 1-5 and the preconditioned, unpreconditioned and natural\n\
norms, against cg in the same run: cg's reason, cg's iterations at depths 1-3 (4-5: within 1.5 cg + l), a true\n\
residual within 10x cg's or the tolerance, a monitor called once at every iteration 0..its, in order, with\n\
cg's norm where cg's is above 1e-8 of its first, and capped at cg's count cg's reason. Before: the l late norms\n\
of an invariant space or a square-root breakdown were never tested; a basis of n + 1 vectors of R^n restarted\n\
(79 iterations for cg's 40 at depth 2); an invariant space below n, whose pivot rounding left at -1e-13 of its\n\
column's dot product, restarted at depth 1 (21 for cg's 11 on 15 rows and 2 ranks). With no norm and a user's\n\
test that stops at 2n, every type: the test called once per iteration (before: again at each restart's\n\
iteration), and cg's count and reason (before: stopped at the floor), or sooner at b - A x = 0 exactly.\n\
Exits with an error when a check fails.\n\n";

#include "common/pipeksptest.h"

#define MAXIT 256

typedef struct {
  PetscInt  n;
  PetscReal norm[MAXIT + 1];
  PetscInt  calls[MAXIT + 1];
  PetscBool order; /* every call at the iteration after the last one's */
  PetscInt  last;
} Trace;

static PetscErrorCode Record(KSP ksp, PetscInt it, PetscReal rn, void *ctx)
{
  Trace *t = (Trace *)ctx;

  PetscFunctionBeginUser;
  if (it != t->last + 1) t->order = PETSC_FALSE;
  t->last = it;
  if (it >= 0 && it <= MAXIT) {
    t->calls[it]++;
    t->norm[it] = rn;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* with no norm: counts the calls per iteration and stops at iteration stop, as a smoother's fixed count */
typedef struct {
  PetscInt calls[MAXIT + 1], stop;
} Count;

static PetscErrorCode CountTest(KSP ksp, PetscInt it, PetscReal rn, KSPConvergedReason *reason, void *ctx)
{
  Count *c = (Count *)ctx;

  PetscFunctionBeginUser;
  if (it >= 0 && it <= MAXIT) c->calls[it]++;
  *reason = it >= c->stop ? KSP_CONVERGED_ITS : KSP_CONVERGED_ITERATING;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* test: a user's convergence test instead of the default one (NULL: none) */
static PetscErrorCode Solve(Mat A, Vec b, const char *type, PetscInt depth, const char *pc, KSPNormType nt, PetscInt maxit, Count *test, Trace *t, PetscInt *its, KSPConvergedReason *reason, PetscReal *res)
{
  KSP ksp;
  PC  p;
  Vec x;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(t, sizeof(*t)));
  t->order = PETSC_TRUE;
  t->last  = -1;
  PetscCall(VecDuplicate(b, &x));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, type));
  PetscCall(KSPGetPC(ksp, &p));
  PetscCall(PCSetType(p, pc));
  PetscCall(KSPSetNormType(ksp, nt));
  PetscCall(KSPSetTolerances(ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, maxit));
  if (depth >= 0) PetscCall(KSPPipePLCGSetDepth(ksp, depth));
  PetscCall(KSPMonitorSet(ksp, Record, t, NULL));
  if (test) PetscCall(KSPSetConvergenceTest(ksp, CountTest, test, NULL));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetConvergedReason(ksp, reason));
  PetscCall(TestRelResidual(A, b, x, res));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ours with no norm and a test of the user's that stops at 2n (past the Krylov space's end, where the recursive
   residual is rounding and the guards restart from the true one): the test called once per iteration, as cg
   (before, again at each restart's iteration), and cg's count and reason: no test sees the floor there, so none
   ends the solve at it (before: CONVERGED_ATOL at 8-11 for cg's CONVERGED_ITS at 12); or sooner where a restart
   found b - A x = 0 exactly, which ends CONVERGED_ATOL as cg's (r, M^{-1} r) = 0 would (a recursive 0 is checked
   there: on 2 rows pipegropp, chrongear and pipeplcg's depth 2 ended CONVERGED_ATOL at 3 with b - A x = 1e-17) */
static PetscErrorCode NoNormOnce(Mat A, Vec b, PetscInt n, const char *type, PetscInt depth, PetscInt *itscg, KSPConvergedReason *rcg, PetscInt *fails)
{
  Count              c;
  Trace              t;
  PetscInt           its, twice = 0;
  KSPConvergedReason reason;
  PetscReal          res;
  PetscBool          ok, exact;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(&c, sizeof(c)));
  c.stop = PetscMin(2 * n, MAXIT);
  PetscCall(Solve(A, b, type, depth, PCNONE, KSP_NORM_NONE, MAXIT, &c, &t, &its, &reason, &res));
  for (PetscInt k = 0; k <= MAXIT; k++) twice += c.calls[k] > 1;
  if (depth < 0 && !strcmp(type, KSPCG)) { /* the oracle */
    *itscg = its;
    *rcg   = reason;
  }
  /* or, sooner, an x with b - A x = 0 exactly (a restart from the true residual found it): (r, M^{-1} r) = 0,
     where cg ends CONVERGED_ATOL too */
  exact = (PetscBool)(reason == KSP_CONVERGED_ATOL && res == 0 && its <= *itscg);
  ok    = (PetscBool)(!twice && ((its == *itscg && reason == *rcg) || exact));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s n %3" PetscInt_FMT " no norm, a user's test to %" PetscInt_FMT ": %s depth %" PetscInt_FMT ", %" PetscInt_FMT " its %s%s (cg %" PetscInt_FMT " %s), %" PetscInt_FMT " iterations tested more than once\n", ok ? "ok  " : "FAIL", n, c.stop, type, depth, its, KSPConvergedReasons[reason], exact ? " at b - A x = 0" : "", *itscg, KSPConvergedReasons[*rcg], twice));
  if (!ok) (*fails)++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Lap1D(PetscInt n, Mat *A, Vec *b)
{
  PetscRandom rnd;

  PetscFunctionBeginUser;
  PetscCall(TestLap1D(n, 0.0, 0.0, A));
  PetscCall(MatCreateVecs(*A, NULL, b));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 25));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(VecSetRandom(*b, rnd)); /* the same seed on every rank: each rank's part is the same stream, so on P ranks
                                       b repeats and spans an invariant space of fewer dimensions (11 of 15 on 2) */
  PetscCall(PetscRandomDestroy(&rnd));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscInt          ns[8] = {6, 40}, nn = 8, fails = 0;
  const char       *pcs[] = {PCNONE, PCJACOBI};
  const KSPNormType nts[] = {KSP_NORM_PRECONDITIONED, KSP_NORM_UNPRECONDITIONED, KSP_NORM_NATURAL};
  Trace             tcg, t;
  PetscBool         set;
  PetscInt          solves = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PipeKSPInitializePackage());
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-n", ns, &nn, &set));
  if (!set) nn = 2; /* unset, PETSc returns a count of 0 */
  for (PetscInt in = 0; in < nn; in++) {
    Mat A;
    Vec b;

    PetscCall(Lap1D(ns[in], &A, &b));
    for (PetscInt ip = 0; ip < 2; ip++)
      for (PetscInt inorm = 0; inorm < 3; inorm++) {
        PetscInt           itscg, its;
        KSPConvergedReason rcg, r;
        PetscReal          rescg = 0, res;

        PetscCall(Solve(A, b, KSPCG, -1, pcs[ip], nts[inorm], MAXIT, NULL, &tcg, &itscg, &rcg, &rescg));
        for (PetscInt l = 1; l <= 5; l++) {
          PetscBool ok, count, once = PETSC_TRUE, near = PETSC_TRUE;

          PetscInt           itsc;
          KSPConvergedReason rc;
          PetscReal          resc;

          /* capped at cg's count: cg's reason still (the claim there is checked before the limit ends it) */
          PetscCall(Solve(A, b, KSPPIPEPLCG, l, pcs[ip], nts[inorm], itscg, NULL, &t, &itsc, &rc, &resc));
          PetscCall(Solve(A, b, KSPPIPEPLCG, l, pcs[ip], nts[inorm], MAXIT, NULL, &t, &its, &r, &res));
          for (PetscInt k = 0; k <= PetscMin(its, MAXIT); k++) {
            if (t.calls[k] != 1) once = PETSC_FALSE;
            if (k <= itscg && tcg.norm[k] > 1e-8 * tcg.norm[0] && PetscAbsReal(t.norm[k] - tcg.norm[k]) > 1e-6 * tcg.norm[k]) near = PETSC_FALSE;
          }
          /* depths 4-5: within their bound, 1.5 cg + l (their deep basis's last iterates are less accurate) */
          count = (PetscBool)(l <= 3 ? its == itscg : its <= 1.5 * itscg + l);
          ok    = (PetscBool)(r == rcg && (its == itscg ? rc == rcg && itsc == itscg : PETSC_TRUE) && count && (res <= 10 * rescg || res <= 1e-10) && once && t.order && t.last == its && near);
          PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s n %3" PetscInt_FMT " %-6s %-16s depth %" PetscInt_FMT ": %3" PetscInt_FMT " its %s (cg %3" PetscInt_FMT " %s; capped there: %s), true residual %.2e (cg %.2e), monitor %s%s%s\n", ok ? "ok  " : "FAIL", ns[in], pcs[ip], KSPNormTypes[nts[inorm]], l, its, KSPConvergedReasons[r], itscg, KSPConvergedReasons[rcg], KSPConvergedReasons[rc], (double)res, (double)rescg, once && t.order && t.last == its ? "once per iteration" : "MISSED or repeated iterations", near ? "" : ", norms off cg's", ""));
          if (!ok) fails++;
          solves++;
        }
      }
    {
      PetscInt           itscg;
      KSPConvergedReason rcg;

      PetscCall(NoNormOnce(A, b, ns[in], KSPCG, -1, &itscg, &rcg, &fails));
      PetscCall(NoNormOnce(A, b, ns[in], KSPPIPEGV, -1, &itscg, &rcg, &fails));
      PetscCall(NoNormOnce(A, b, ns[in], KSPPIPEGROPP, -1, &itscg, &rcg, &fails));
      PetscCall(NoNormOnce(A, b, ns[in], KSPCHRONGEAR, -1, &itscg, &rcg, &fails));
      for (PetscInt l = 1; l <= 5; l++) PetscCall(NoNormOnce(A, b, ns[in], KSPPIPEPLCG, l, &itscg, &rcg, &fails));
    }
    PetscCall(MatDestroy(&A));
    PetscCall(VecDestroy(&b));
  }
  PetscCheck(!fails, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%" PetscInt_FMT " checks FAILED", fails);
  PetscCheck(solves == 30 * nn, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "FAIL: %" PetscInt_FMT " solves compared, not %" PetscInt_FMT, solves, 30 * nn);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "all checks passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   testset:
      filter: grep -oE "all checks passed|FAIL"
      output_file: output/ex25_pass.out
      test:
         suffix: plcg_krylov_end_np1
      test:
         suffix: plcg_krylov_end_np2
         nsize: 2
      test:
         suffix: plcg_krylov_tiny_np1
         args: -n 2,3,4
      test:
         suffix: plcg_krylov_invariant_np2
         nsize: 2
         args: -n 15,23,31
      test:
         suffix: plcg_krylov_invariant_np3
         nsize: 3
         args: -n 5,9,12,23
      test:
         suffix: plcg_krylov_invariant_np4
         nsize: 4
         args: -n 5,7,15,20,23

TEST*/
