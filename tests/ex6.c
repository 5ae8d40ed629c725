static char help[] = "The thread progress policy's wait ends when the reduction does, not when the helper thread's poll\n\
interval has passed: solves pipegropp and pipegv on the cube with -ksp_pipe_poll_interval 0, 1e6 and 1e30\n\
microseconds and checks the policy ran and the iterations are those of interval 0. The helper tests a reduction\n\
when handed it, then sleeps one interval unless the wait wakes it: with 1e30 a wait that did not wake it would\n\
never end, so the harness's time limit fails the run (the MPI_Test counts show the helper ran). -timing\n\
(bench/threadwait.sh) also checks each solve's wall time against interval 0's (3x + 0.5 s).\n\n";

#include <pipeksp.h>

int main(int argc, char **argv)
{
  PipeKSPCube    cube;
  Mat            A;
  Vec            b, x;
  const char    *types[]     = {KSPPIPEGROPP, KSPPIPEGV};
  PetscReal      intervals[] = {0.0, 1e6, 1e30};
  PetscInt       t, k, its0 = 0, fails = 0;
  PetscLogDouble t0     = 0;
  PetscBool      timing = PETSC_FALSE;

  PETSC_MPI_THREAD_REQUIRED = MPI_THREAD_MULTIPLE;
  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PipeKSPInitializePackage());
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-timing", &timing, NULL));
  PetscCall(PipeKSPCubeCreate(PETSC_COMM_WORLD, &cube));
  PetscCall(PipeKSPCubeSetFromOptions(cube));
  PetscCall(PipeKSPCubeSetUp(cube));
  PetscCall(PipeKSPCubeGetMatrix(cube, &A));
  PetscCall(PipeKSPCubeGetRHS(cube, &b));
  PetscCall(VecDuplicate(b, &x));
  for (t = 0; t < 2; t++) {
    for (k = 0; k < 3; k++) {
      KSP                 ksp;
      PetscInt            its;
      PetscLogDouble      ts, te;
      PipeKSPProgressType used;
      PipeKSPStats        st;

      PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
      PetscCall(KSPSetOperators(ksp, A, A));
      PetscCall(KSPSetType(ksp, types[t]));
      PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 1000));
      PetscCall(KSPSetFromOptions(ksp));
      PetscCall(KSPPipeSetProgress(ksp, PIPEKSP_PROGRESS_THREAD));
      PetscCall(KSPPipeSetPollInterval(ksp, intervals[k]));
      PetscCall(KSPSetUp(ksp));
      PetscCall(VecSet(x, 0.0));
      PetscCall(PetscTime(&ts));
      PetscCall(KSPSolve(ksp, b, x));
      PetscCall(PetscTime(&te));
      PetscCall(KSPGetIterationNumber(ksp, &its));
      PetscCall(KSPPipeGetProgress(ksp, &used));
      PetscCall(KSPPipeGetStats(ksp, &st));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-9s thread (ran %s) interval %8.0e us: %4" PetscInt_FMT " iterations, %" PetscInt64_FMT " reductions, %" PetscInt64_FMT " helper tests on rank 0, %.3f s\n", types[t], PipeKSPProgressTypes[used], (double)intervals[k], its, st.reductions, st.polls, te - ts));
      if (used != PIPEKSP_PROGRESS_THREAD) {
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  FAIL: the thread policy fell back to %s\n", PipeKSPProgressTypes[used]));
        fails++;
      }
      if (!k) {
        its0 = its;
        t0   = te - ts;
      } else {
        if (its != its0) {
          PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  FAIL: %" PetscInt_FMT " iterations vs %" PetscInt_FMT " with interval 0\n", its, its0));
          fails++;
        }
        if (timing && te - ts > 3 * t0 + 0.5) {
          PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  FAIL: %.3f s vs %.3f s with interval 0\n", te - ts, t0));
          fails++;
        }
      }
      PetscCall(KSPDestroy(&ksp));
    }
  }
  PetscCall(VecDestroy(&x));
  PetscCall(PipeKSPCubeDestroy(&cube));
  PetscCheck(!fails, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%" PetscInt_FMT " check(s) failed", fails);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "all checks passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: ksp_threadwait_np2
      nsize: 2
      args: -cube_n 8 -pc_type jacobi
      filter: grep -oE "all checks passed|FAIL|ERROR"
      output_file: output/ex6_ksp_threadwait_np2.out

TEST*/
