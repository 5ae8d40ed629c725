/* Using a module before PipeKSPInitializePackage() is a clear PETSC_ERR_ORDER error, not a log on an
   unregistered event; after initialization the same calls work. */
#include <pipeksp.h>

int main(int argc, char **argv)
{
  PipeKSPCube    cube = NULL;
  PetscErrorCode ierr;
  Mat            A;
  Vec            x, y;

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = PipeKSPCubeCreate(PETSC_COMM_WORLD, &cube);
  PetscCheck(ierr == PETSC_ERR_ORDER && !cube, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "PipeKSPCubeCreate before initialization returned %d, expected PETSC_ERR_ORDER", (int)ierr);
  PetscCall(MatCreateConstantDiagonal(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, 4, 4, 2.0, &A));
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(VecSet(x, 1.0));
  ierr = PipeKSPMatMult(A, x, y);
  PetscCheck(ierr == PETSC_ERR_ORDER, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "PipeKSPMatMult before initialization returned %d, expected PETSC_ERR_ORDER", (int)ierr);
  PetscCall(PetscPopErrorHandler());

  PetscCall(PipeKSPInitializePackage());
  PetscCall(PipeKSPMatMult(A, x, y));
  PetscCall(PipeKSPCubeCreate(PETSC_COMM_WORLD, &cube));
  PetscCall(PipeKSPCubeSetSizes(cube, 3, 3, 3));
  PetscCall(PipeKSPCubeSetUp(cube));
  PetscCall(PipeKSPCubeDestroy(&cube));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "uninitialized use errors OK\n"));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: cube_uninitialized_2
      nsize: 2
      filter: grep -oE "uninitialized use errors OK"
      output_file: output/ex2_cube_uninitialized_2.out

TEST*/
