static char help[] = "The leak check of the test harness can fail: with -leak (the default) this program never\n\
destroys a Vec, and its entry must fail through config/leakcheck.sh although its filter keeps only the verdict,\n\
which is right (tests/harness/tests.cmake asserts that); with -leak 0 it destroys the Vec and passes.\n";

#include <petscvec.h>

int main(int argc, char **argv)
{
  Vec       v;
  PetscBool leak = PETSC_TRUE;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-leak", &leak, NULL));
  PetscCall(VecCreateMPI(PETSC_COMM_WORLD, 100, PETSC_DETERMINE, &v));
  PetscCall(VecSet(v, 1.0));
  if (!leak) PetscCall(VecDestroy(&v));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "all checks passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   # fails on purpose: the test passes only if the leak check reports this entry's leak
   test:
      suffix: harness_leak
      nsize: 2
      filter: grep -oE "all checks passed|FAIL|ERROR"
      output_file: output/ex18_harness.out

   test:
      suffix: harness_noleak
      nsize: 2
      args: -leak 0
      filter: grep -oE "all checks passed|FAIL|ERROR"
      output_file: output/ex18_harness.out

TEST*/
