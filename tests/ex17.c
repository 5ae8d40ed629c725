static char help[] = "A bad hybrid option on the command line (-pipeksp_threads, -pipeksp_spmv_schedule,\n\
-pipeksp_threads_min_rows) that no SetFromOptions has read must be refused where threads are first chosen:\n\
PipeKSPMatMult(), KSPSetUp()/KSPSolve() of pipegv, PCSetUp() of asddic. Every rank gets the error, at every\n\
call until the option is fixed, and neither y nor x is touched. Once the option is removed the same objects\n\
work: the product equals MatMult() and the solve converges to the exact solution. Before, the first read\n\
swallowed the error and the process ran on one thread.\n\n";

#include "common/pipeksptest.h"

static PetscInt Fails = 0;

static PetscErrorCode Check(PetscBool ok, const char *what)
{
  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %s\n", ok ? "ok" : "FAIL", what));
  if (!ok) Fails++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* true on every rank when ierr is nonzero on every rank */
static PetscErrorCode AllFailed(PetscErrorCode ierr, PetscBool *all)
{
  PetscMPIInt mine = ierr ? 1 : 0, every;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Allreduce(&mine, &every, 1, MPI_INT, MPI_MIN, PETSC_COMM_WORLD));
  *all = every ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* true when every entry of v is c */
static PetscErrorCode AllEqual(Vec v, PetscScalar c, PetscBool *same)
{
  PetscReal lo, hi;

  PetscFunctionBeginUser;
  PetscCall(VecMin(v, NULL, &lo));
  PetscCall(VecMax(v, NULL, &hi));
  *same = (lo == PetscRealPart(c) && hi == PetscRealPart(c)) ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  const char *opts[3] = {"-pipeksp_threads", "-pipeksp_spmv_schedule", "-pipeksp_threads_min_rows"};
  PipeKSPCube cube;
  Mat         A;
  Vec         b, x, y, y2;
  KSP         ksp;
  PC          pc, ic;
  PetscBool   all, same, bad = PETSC_FALSE, flg;
  TestResult  res;
  PetscReal   diff;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PipeKSPInitializePackage());
  for (int k = 0; k < 3; k++) {
    PetscCall(PetscOptionsHasName(NULL, NULL, opts[k], &flg));
    bad = (PetscBool)(bad || flg);
  }
  PetscCheck(bad, PETSC_COMM_WORLD, PETSC_ERR_USER, "give one bad hybrid option, e.g. -pipeksp_threads -1");
  PetscCall(TestCubeSystem(PETSC_FALSE, &cube, &A, &b, &x));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(VecDuplicate(b, &y));
  PetscCall(VecDuplicate(b, &y2));

  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetType(ksp, KSPPIPEGV));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetTolerances(ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, 2000));

  PetscCall(PCCreate(PETSC_COMM_WORLD, &ic));
  PetscCall(PCSetType(ic, PCASDDIC));
  PetscCall(PCSetOperators(ic, A, A));

  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  for (int rep = 0; rep < 2; rep++) { /* refused again, not once */
    PetscErrorCode ierr;

    PetscCall(VecSet(y, 7.0));
    ierr = PipeKSPMatMult(A, b, y);
    PetscCall(AllFailed(ierr, &all));
    PetscCall(AllEqual(y, 7.0, &same));
    PetscCall(Check((PetscBool)(all && same), "PipeKSPMatMult refuses the option on every rank and leaves y"));

    PetscCall(VecSet(x, 3.0));
    ierr = KSPSolve(ksp, b, x);
    PetscCall(AllFailed(ierr, &all));
    PetscCall(AllEqual(x, 3.0, &same));
    PetscCall(Check((PetscBool)(all && same), "KSPSolve of pipegv refuses the option on every rank and leaves x"));

    ierr = PCSetUp(ic);
    PetscCall(AllFailed(ierr, &all));
    PetscCall(Check(all, "PCSetUp of asddic refuses the option on every rank"));
  }
  PetscCall(PetscPopErrorHandler());

  for (int k = 0; k < 3; k++) PetscCall(PetscOptionsClearValue(NULL, opts[k]));
  {
    PipeKSPScheduleType sched;

    PetscCall(PipeKSPGetSpMVSchedule(&sched)); /* a good option that a refused read applied must not stay */
    PetscCall(Check((PetscBool)(sched == PIPEKSP_SCHEDULE_DYNAMIC), "with the options removed, the schedule is the default"));
  }
  PetscCall(PipeKSPMatMult(A, b, y));
  PetscCall(MatMult(A, b, y2));
  PetscCall(VecAXPY(y2, -1.0, y));
  PetscCall(VecNorm(y2, NORM_INFINITY, &diff));
  PetscCall(Check((PetscBool)(diff == 0), "with the option removed, PipeKSPMatMult equals MatMult"));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(TestResultCollect(ksp, PETSC_TRUE, cube, A, b, x, &res));
  PetscCall(Check((PetscBool)(res.reason > 0 && res.err < 1e-6), "then the same KSP converges to the exact solution"));
  {
    PetscScalar bz;

    PetscCall(PCSetUp(ic));
    PetscCall(PCApply(ic, b, y));
    PetscCall(VecDot(b, y, &bz));
    PetscCall(Check((PetscBool)(PetscRealPart(bz) > 0 && !PetscIsInfOrNanScalar(bz)), "and the same asddic PC sets up and applies, with (b, M^-1 b) > 0"));
  }

  PetscCall(KSPDestroy(&ksp));
  PetscCall(PCDestroy(&ic));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&y2));
  PetscCall(PipeKSPCubeDestroy(&cube));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, Fails ? "FAILED: %" PetscInt_FMT " check(s)\n" : "PASSED: %" PetscInt_FMT " failures\n", Fails));
  PetscCall(PetscFinalize());
  return Fails ? 1 : 0;
}

/*TEST

   testset:
      args: -cube_n 6
      filter: grep -oE "PASSED: 0 failures|FAIL"
      output_file: output/ex17_threads_bad.out
      test:
         suffix: threads_bad_nt_np1
         args: -pipeksp_threads -1
      test:
         suffix: threads_bad_nt_np2
         nsize: 2
         args: -pipeksp_threads -1
      test:
         suffix: threads_bad_schedule_np2
         nsize: 2
         args: -pipeksp_spmv_schedule bogus
      test:
         suffix: threads_bad_minrows_np4
         nsize: 4
         args: -pipeksp_threads_min_rows -3
      test:
         suffix: threads_bad_minrows_static_np2
         nsize: 2
         args: -pipeksp_spmv_schedule static -pipeksp_threads_min_rows -3

TEST*/
