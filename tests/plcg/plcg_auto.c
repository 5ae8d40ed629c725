static char help[] = "pipeplcg at depth 0 (Gropp's CG) and -ksp_pipe_depth auto against cg in the same run: on one SPD\n\
problem (-problem cube: the GeoFEM/Cube, -cube_n; lap2d: PETSc's ex2 on -m x -n, b = A 1), with the PC and\n\
tolerance of the options, each from x = 0. Checks for depth 0 and auto: cg's reason, a true residual within\n\
10x cg's, iterations within 1.15 cg's + 2; the depth auto chose, read through\n\
KSPPipePLCGGetDepth(), within -expect_auto lo,hi (PETSC_DECIDE before the first solve; a measurement of time,\n\
so a choice outside is measured again by a fresh KSP, up to -auto_tries 3 in all; where every try had a rank\n\
holding its core under 9/10 of the solve, other jobs were timed: SKIPPED, not FAIL); depth 0 applies the PC\n\
as often as cg (the preconditioned and natural norms) and the SpMV at most once more (the SpMV overlapped with\n\
the last test's reduction, where the test was not predicted to end the solve), exactly as often with\n\
-expect_spmv_equal (where the prediction holds), in cg's iterations; auto's depth 1 runs pipegv's recurrences:\n\
pipegv's iterations, ending at depth 1 with no eigenvalue estimate; auto chooses\n\
after the operator values change (kept: measured again only for new matrices) and a fixed depth turns auto off.\n\
  -problem refuse : KSPPipePLCGSetDepth() and -ksp_pipe_depth refuse depths outside 0..5 (6, -1, 7, x) with an\n\
                    error naming the range, and accept auto, 0 and 5\n\
Exits with an error when a check fails.\n\n";

#include "../common/pipeksptest.h"
#include <time.h>

#define HELD_QUIET 0.9 /* a try whose ranks each held their core this share of the solve was timed alone */

/* this process's CPU seconds: beside the wall clock, how long the rank held its core (MPI's waits busy-poll) */
static double CPUSeconds(void)
{
  struct timespec ts;

  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* PC applications and SpMVs (PCApply, MatMult events) of the solves so far */
static PetscErrorCode Counts(PetscInt n[2])
{
  PetscLogEvent      e;
  PetscEventPerfInfo info;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventGetId("PCApply", &e));
  PetscCall(PetscLogEventGetPerfInfo(0, e, &info));
  n[0] = info.count;
  PetscCall(PetscLogEventGetId("MatMult", &e));
  PetscCall(PetscLogEventGetPerfInfo(0, e, &info));
  n[1] = info.count;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* apps: the PC applications and SpMVs of the first solve (auto's include its measurements: compared for depth 0 only) */
/* held: the least share of the first solve's wall time any rank held its core */
static PetscErrorCode Run(Mat A, Vec b, const char *type, PetscInt l, TestSolve *o, PetscInt *chosen, PetscInt apps[2], double *held)
{
  KSP       ksp;
  PetscBool ours;
  PetscInt  before = 0, c0[2], c1[2];
  double    w0, u0, h;

  PetscFunctionBeginUser;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, type));
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 20000));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(PetscStrcmp(type, KSPPIPEPLCG, &ours));
  if (ours) {
    PetscCall(KSPPipePLCGSetDepth(ksp, l));
    PetscCall(KSPPipePLCGGetDepth(ksp, &before));
  }
  PetscCall(KSPSetUp(ksp));
  PetscCall(KSPSetUpOnBlocks(ksp)); /* the PC's set-up (asddic's estimate) outside the counts */
  PetscCall(Counts(c0));
  w0 = MPI_Wtime();
  u0 = CPUSeconds();
  PetscCall(TestSolveFromZero(ksp, A, b, ours, o));
  h = (CPUSeconds() - u0) / PetscMax(MPI_Wtime() - w0, 1e-9);
  PetscCallMPI(MPI_Allreduce(&h, held, 1, MPI_DOUBLE, MPI_MIN, PETSC_COMM_WORLD));
  PetscCall(Counts(c1));
  apps[0] = c1[0] - c0[0];
  apps[1] = c1[1] - c0[1] - 1; /* TestSolveFromZero's own check of x */
  if (ours) PetscCall(KSPPipePLCGGetDepth(ksp, chosen));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-9s l=%-4s its %5" PetscInt_FMT "  true res %.3e  %-22s depth before the solve %" PetscInt_FMT ", after %" PetscInt_FMT ", ended at %" PetscInt64_FMT "\n", type, l == PETSC_DECIDE ? "auto" : (l == 0 ? "0" : "-"), o->its,
                        (double)o->res, KSPConvergedReasons[o->reason], before, ours ? *chosen : 0, o->st.depth));
  if (ours && l == PETSC_DECIDE) PetscCheck(before == PETSC_DECIDE, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "FAIL: auto's depth is %" PetscInt_FMT " before the first solve, not PETSC_DECIDE", before);
  if (ours && l == PETSC_DECIDE) { /* new values in the same matrices keep the choice (measured again only for new matrices) */
    PetscInt  again;
    TestSolve o2;
    PetscCall(MatScale(A, 2.0));
    PetscCall(VecScale(b, 2.0));
    PetscCall(TestSolveFromZero(ksp, A, b, ours, &o2));
    PetscCall(MatScale(A, 0.5));
    PetscCall(VecScale(b, 0.5));
    PetscCall(KSPPipePLCGGetDepth(ksp, &again));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "          auto after the operator changed: depth %" PetscInt_FMT ", its %" PetscInt_FMT ", %s\n", again, o2.its, KSPConvergedReasons[o2.reason]));
    PetscCheck(again >= 0 && again <= 5 && o2.reason == o->reason, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "FAIL: auto after the operator changed: depth %" PetscInt_FMT ", %s", again, KSPConvergedReasons[o2.reason]);
    PetscCall(KSPPipePLCGSetDepth(ksp, 3)); /* a fixed depth turns auto off */
    PetscCall(KSPPipePLCGGetDepth(ksp, &again));
    PetscCheck(again == 3, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "FAIL: depth %" PetscInt_FMT " after KSPPipePLCGSetDepth(3)", again);
  }
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* one refusal or acceptance: the setter (val NULL: depth l) or -ksp_pipe_depth val; a refusal must name the range */
static PetscErrorCode Refuse(const char *val, PetscInt l, PetscBool ok, PetscInt *fails)
{
  KSP              ksp;
  PetscErrorCode   ierr;
  PetscInt         got = -100;
  PipeKSPErrorText msg = NULL;
  const char      *text;
  char            *hit   = NULL;
  PetscBool        named = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetType(ksp, KSPPIPEPLCG));
  PetscCall(KSPSetOptionsPrefix(ksp, "r_"));
  if (val) PetscCall(PetscOptionsSetValue(NULL, "-r_ksp_pipe_depth", val));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = val ? KSPSetFromOptions(ksp) : KSPPipePLCGSetDepth(ksp, l);
  PetscCall(PetscPopErrorHandler());
  if (ierr) {
    PetscCall(PetscErrorMessage(ierr, &text, &msg));
    if (msg) PetscCall(PetscStrstr(msg, "0..5", &hit));
    named = (PetscBool)(hit != NULL);
  } else PetscCall(KSPPipePLCGGetDepth(ksp, &got));
  if (val) PetscCall(PetscOptionsClearValue(NULL, "-r_ksp_pipe_depth"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s %s%s: %s%s\n", val ? "-ksp_pipe_depth" : "KSPPipePLCGSetDepth", val ? val : "", val ? "" : (l == PETSC_DECIDE ? "PETSC_DECIDE" : "(int)"), ierr ? "refused: " : "accepted", ierr ? (msg ? msg : "?") : ""));
  if (ok != !ierr || (ierr && !named)) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL: %s %s\n", ierr ? "refused" : "accepted", ierr && !named ? "without naming the range 0..5" : ""));
    (*fails)++;
  }
  if (!ierr && val && !strcmp(val, "auto") && got != PETSC_DECIDE) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL: -ksp_pipe_depth auto gives depth %" PetscInt_FMT ", not PETSC_DECIDE\n", got));
    (*fails)++;
  }
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Mat         A;
  Vec         b;
  PipeKSPCube cube        = NULL;
  char        problem[32] = "cube";
  PetscInt    expect[2] = {0, 5}, ne = 2, fails = 0, chosen = 0, k, tries = 3, t;
  PetscBool   quiet, skip = PETSC_FALSE;
  double      held;
  PetscBool   spmveq = PETSC_FALSE;
  TestSolve   cg, gv, o;
  PetscInt    acg[2], ao[2];
  PetscInt    depths[2] = {0, PETSC_DECIDE};

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscLogDefaultBegin()); /* the PCApply and MatMult counts */
  PetscCall(PipeKSPInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-problem", problem, sizeof(problem), NULL));
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-expect_auto", expect, &ne, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-expect_spmv_equal", &spmveq, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-auto_tries", &tries, NULL));
  if (!strcmp(problem, "refuse")) {
    PetscCall(Refuse("6", 0, PETSC_FALSE, &fails));
    PetscCall(Refuse("-1", 0, PETSC_FALSE, &fails));
    PetscCall(Refuse("x", 0, PETSC_FALSE, &fails));
    PetscCall(Refuse(NULL, 6, PETSC_FALSE, &fails));
    PetscCall(Refuse(NULL, -3, PETSC_FALSE, &fails));
    PetscCall(Refuse("auto", 0, PETSC_TRUE, &fails));
    PetscCall(Refuse("0", 0, PETSC_TRUE, &fails));
    PetscCall(Refuse("5", 0, PETSC_TRUE, &fails));
    PetscCall(Refuse(NULL, PETSC_DECIDE, PETSC_TRUE, &fails));
    if (!fails) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "all checks passed\n"));
    PetscCall(PetscFinalize());
    return fails ? 1 : 0;
  }
  if (!strcmp(problem, "cube")) {
    Vec x0;
    PetscCall(TestCubeSystem(PETSC_FALSE, &cube, &A, &b, &x0));
  } else if (!strcmp(problem, "lap2d")) PetscCall(TestLap2D(20, 20, &A, &b));
  else SETERRQ(PETSC_COMM_WORLD, PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown -problem %s", problem);

  PetscCall(Run(A, b, KSPCG, 0, &cg, NULL, acg, &held));
  PetscCall(Run(A, b, KSPPIPEGV, 0, &gv, NULL, ao, &held));
  PetscCheck(cg.reason > 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "Reference cg did not converge: %s", KSPConvergedReasons[cg.reason]);
  for (k = 0; k < 2; k++) {
    PetscInt    l    = depths[k];
    const char *name = l == PETSC_DECIDE ? "auto" : "0";

    /* auto's depth is a measurement of time: a rank descheduled while it times (another job on the 2 cores)
       measures a latency that is not there, so a depth outside the range is measured again by a fresh KSP */
    quiet = PETSC_FALSE;
    for (t = 0; t < (l == PETSC_DECIDE ? tries : 1); t++) {
      PetscCall(Run(A, b, KSPPIPEPLCG, l, &o, &chosen, ao, &held));
      if (l != PETSC_DECIDE || (chosen >= expect[0] && chosen <= expect[ne > 1 ? 1 : 0])) break;
      if (held >= HELD_QUIET) quiet = PETSC_TRUE;
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "          try %" PetscInt_FMT " of %" PetscInt_FMT ": auto chose depth %" PetscInt_FMT ", outside %" PetscInt_FMT "..%" PetscInt_FMT "; the least-served rank held its core %.0f%% of the solve\n", t + 1, tries, chosen, expect[0], expect[ne > 1 ? 1 : 0], 100 * held));
    }
    if (o.reason != cg.reason) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL l=%s: %s, cg %s\n", name, KSPConvergedReasons[o.reason], KSPConvergedReasons[cg.reason]));
      fails++;
    }
    if (!(o.res <= 10 * cg.res)) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL l=%s: true residual %.3e > 10x cg's %.3e\n", name, (double)o.res, (double)cg.res));
      fails++;
    }
    if (!(o.its <= 1.15 * cg.its + 2)) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL l=%s: %" PetscInt_FMT " iterations > 1.15 x cg's %" PetscInt_FMT " + 2\n", name, o.its, cg.its));
      fails++;
    }
    if (l == 0 && !(ao[0] == acg[0] && acg[1] <= ao[1] && ao[1] <= acg[1] + (spmveq ? 0 : 1) && o.its == cg.its)) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL l=0: %" PetscInt_FMT " PC applications and %" PetscInt_FMT " SpMVs in %" PetscInt_FMT " iterations, cg %" PetscInt_FMT " and %" PetscInt_FMT " in %" PetscInt_FMT "\n", ao[0], ao[1], o.its, acg[0], acg[1], cg.its));
      fails++;
    }
    if (l == PETSC_DECIDE && chosen == 1 && !(o.its == gv.its && o.st.depth == 1 && o.st.depth_changes == 0)) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL auto chose 1: %" PetscInt_FMT " iterations (pipegv %" PetscInt_FMT "), ended at depth %" PetscInt64_FMT " after %" PetscInt64_FMT " changes\n", o.its, gv.its, o.st.depth, o.st.depth_changes));
      fails++;
    }
    if (l == 0 && !(chosen == 0 && o.st.depth == 0 && o.st.depth_changes == 0)) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL l=0: depth %" PetscInt_FMT ", the solve ended at %" PetscInt64_FMT " after %" PetscInt64_FMT " changes\n", chosen, o.st.depth, o.st.depth_changes));
      fails++;
    }
    if (l == PETSC_DECIDE && !(chosen >= expect[0] && chosen <= expect[ne > 1 ? 1 : 0]) && !quiet) {
      /* every try was timed on shared cores: the choice measured the other jobs, not the emulated machine */
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "SKIPPED auto's choice: in each of %" PetscInt_FMT " tries a rank held its core less than %.0f%% of the solve (other jobs on the cores)\n", tries, 100 * HELD_QUIET));
      skip = PETSC_TRUE;
    } else if (l == PETSC_DECIDE && !(chosen >= expect[0] && chosen <= expect[ne > 1 ? 1 : 0])) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL auto: chose depth %" PetscInt_FMT ", expected %" PetscInt_FMT "..%" PetscInt_FMT "\n", chosen, expect[0], expect[ne > 1 ? 1 : 0]));
      fails++;
    }
  }
  if (!fails && !skip) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "all checks passed\n"));
  if (cube) PetscCall(PipeKSPCubeDestroy(&cube));
  else {
    PetscCall(VecDestroy(&b));
    PetscCall(MatDestroy(&A));
  }
  PetscCall(PetscFinalize());
  return fails ? 1 : 0;
}
