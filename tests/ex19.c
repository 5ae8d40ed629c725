static char help[] = "Our products and set-ups only read the operator: repeated solves with asddic on the cube (BAIJ or\n\
AIJ) leave the Mat's object state as it was, and the PC and KSP set up once per operator, not once per\n\
application. PETSc 3.26's MatSeqBAIJRestoreArray() marks the values changed; a read through it without\n\
putting the state back made every application a new operator (asddic set up again at every apply).\n\
  -solves <n>: solves per operator (default 3)\n";

#include "common/pipeksptest.h"
#include <petsc/private/kspimpl.h>
#include <petsc/private/pcimpl.h>

/* times the event ran in the main stage (PCSetUp() logs only a real set-up, not a call that finds
   nothing changed) */
static PetscErrorCode EventCount(PetscLogEvent e, PetscInt *n)
{
  PetscEventPerfInfo info;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventGetPerfInfo(0, e, &info));
  *n = info.count;
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  const char *types[] = {"cg", "pipegv", "pipegropp", "chrongear", "pipeplcg"};
  PetscInt    solves = 3, fails = 0;
  PipeKSPCube cube;
  Mat         A;
  Vec         b, x;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PipeKSPInitializePackage());
  PetscCall(PetscLogDefaultBegin());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-solves", &solves, NULL));
  PetscCall(TestCubeSystem(PETSC_FALSE, &cube, &A, &b, &x)); /* A and b are the cube's */
  PetscCall(VecDuplicate(b, &x));
  for (int t = 0; t < 5; t++) {
    KSP              ksp;
    PC               pc;
    PetscInt         pc0 = 0, pc1 = 0, ksp0 = 0, ksp1 = 0, its = 0;
    PetscObjectState s0, s1;
    PetscReal        err = 0;

    PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
    PetscCall(KSPSetType(ksp, types[t]));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetType(pc, "asddic"));
    PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
    PetscCall(KSPSetFromOptions(ksp));
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscCall(EventCount(PC_SetUp, &pc0));
    PetscCall(EventCount(KSP_SetUp, &ksp0));
    /* two operators: the cube's, then its values scaled (a new state: one more set-up each) */
    for (int op = 0; op < 2; op++) {
      if (op) PetscCall(MatScale(A, 2.0));
      PetscCall(PetscObjectStateGet((PetscObject)A, &s0));
      for (PetscInt s = 0; s < solves; s++) {
        PetscCall(VecZeroEntries(x));
        PetscCall(KSPSolve(ksp, b, x));
        PetscCall(KSPGetIterationNumber(ksp, &its));
      }
      PetscCall(PetscObjectStateGet((PetscObject)A, &s1));
      if (s1 != s0) {
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL: %s: %d solves changed the operator's state from %d to %d\n", types[t], (int)solves, (int)s0, (int)s1));
        fails++;
      }
      if (op) PetscCall(MatScale(A, 0.5));
    }
    /* x solves 2A x = b: twice the exact solution's error scale is the check */
    PetscCall(VecScale(x, 2.0));
    PetscCall(PipeKSPCubeComputeError(cube, x, &err));
    PetscCall(EventCount(PC_SetUp, &pc1));
    PetscCall(EventCount(KSP_SetUp, &ksp1));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-10s %d solves on each of 2 operators: %d PC set-ups, %d KSP set-ups, %d iterations, error %.1e\n", types[t], (int)solves, (int)(pc1 - pc0), (int)(ksp1 - ksp0), (int)its, (double)err));
    /* (pipeplcg's KSP set-ups include its estimate's inner CG) */
    if (pc1 - pc0 != 2 || !(err < 1e-5)) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL: %s: PC set up %d times for 2 operators (or error %.1e)\n", types[t], (int)(pc1 - pc0), (double)err));
      fails++;
    }
    PetscCall(KSPDestroy(&ksp));
  }
  if (!fails) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "all checks passed\n"));
  PetscCall(VecDestroy(&x));
  PetscCall(PipeKSPCubeDestroy(&cube));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: ksp_state_baij_np1
      args: -cube_n 6 -cube_mat_type baij
      filter: grep -oE "all checks passed|FAIL.*"
      output_file: output/ex19_ksp_state.out

   test:
      suffix: ksp_state_baij_np2
      nsize: 2
      args: -cube_n 6 -cube_mat_type baij
      filter: grep -oE "all checks passed|FAIL.*"
      output_file: output/ex19_ksp_state.out

   test:
      suffix: ksp_state_aij_np2
      nsize: 2
      args: -cube_n 6 -cube_mat_type aij
      filter: grep -oE "all checks passed|FAIL.*"
      output_file: output/ex19_ksp_state.out

   test:
      suffix: threads_omp2_ksp_state_baij_np1
      env: OMP_NUM_THREADS=2
      args: -cube_n 6 -cube_mat_type baij -pipeksp_threads_min_rows 1
      filter: grep -oE "all checks passed|FAIL.*"
      output_file: output/ex19_ksp_state.out

TEST*/
