static char help[] = "PC asddic: the tuned triangular sweeps (-pc_asddic_kernel tuned) and the reference ones\n\
(-pc_asddic_kernel reference) give the same M^{-1} b to 1e-12 relative and the same cg iterations, for\n\
every local kernel (ic, sgs), ordering (rcm, cmrcm and mc on 2 threads) and block size the tuned sweeps\n\
specialise (point, 3x3 blocks of the cube as baij, aij and sbaij) or not (2x2 and 5x5 blocks).\n\
Options: -cube_n <n> (the cube), -grid_n <n> (the 2D grid of the block matrices).\n";

#include "common/pipeksptest.h"

static PetscInt Failures = 0;

/* A = L (x) K: L the 5-point Laplacian on an n x n grid, K = I + 0.4 ones(bs) / bs, both SPD */
static PetscErrorCode KronMatrix(PetscInt n, PetscInt bs, Mat *A)
{
  PetscInt     rstart, rend;
  PetscScalar *K, *V;

  PetscFunctionBegin;
  PetscCall(MatCreateBAIJ(PETSC_COMM_WORLD, bs, PETSC_DECIDE, PETSC_DECIDE, n * n * bs, n * n * bs, 5, NULL, 4, NULL, A));
  PetscCall(PetscMalloc2(bs * bs, &K, bs * bs, &V));
  for (PetscInt i = 0; i < bs * bs; i++) K[i] = 0.4 / bs + (i % (bs + 1) == 0 ? 1.0 : 0.0);
  PetscCall(MatGetOwnershipRange(*A, &rstart, &rend));
  for (PetscInt row = rstart / bs; row < rend / bs; row++) {
    const PetscInt x = row % n, y = row / n, nb[4] = {x > 0 ? row - 1 : -1, x < n - 1 ? row + 1 : -1, y > 0 ? row - n : -1, y < n - 1 ? row + n : -1};
    for (PetscInt i = 0; i < bs * bs; i++) V[i] = 4 * K[i];
    PetscCall(MatSetValuesBlocked(*A, 1, &row, 1, &row, V, INSERT_VALUES));
    for (PetscInt i = 0; i < bs * bs; i++) V[i] = -K[i];
    for (PetscInt k = 0; k < 4; k++)
      if (nb[k] >= 0) PetscCall(MatSetValuesBlocked(*A, 1, &row, 1, &nb[k], V, INSERT_VALUES));
  }
  PetscCall(PetscFree2(K, V));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatSetOption(*A, MAT_SYMMETRIC, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One kernel: M^{-1} b into z and the cg iterations to 1e-8 */
static PetscErrorCode RunKernel(Mat A, Vec b, PCASDDICKernelType kernel, PCASDDICOrderingType ord, PCASDDICLocalType loc, PetscBool block, Vec z, PetscInt *its)
{
  KSP                ksp;
  PC                 pc;
  Vec                x;
  KSPConvergedReason reason;

  PetscFunctionBegin;
  PetscCall(TestKSPASDDIC(A, KSPCG, 1e-8, 2000, &ksp, &pc));
  PetscCall(PCASDDICSetKernelType(pc, kernel));
  PetscCall(PCASDDICSetOrdering(pc, ord));
  PetscCall(PCASDDICSetLocalType(pc, loc));
  PetscCall(PCASDDICSetBlock(pc, block));
  PetscCall(PCASDDICSetThreads(pc, ord == PCASDDIC_ORDERING_RCM ? 1 : 2)); /* colourings: threads share a colour */
  PetscCall(KSPSetUp(ksp));
  PetscCall(PCApply(pc, b, z));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  if (reason <= 0) *its = -1;
  PetscCall(VecDestroy(&x));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Compare(const char *name, Mat A, Vec b, PetscBool block)
{
  const PCASDDICOrderingType ords[] = {PCASDDIC_ORDERING_RCM, PCASDDIC_ORDERING_CMRCM, PCASDDIC_ORDERING_MC};
  const PCASDDICLocalType    locs[] = {PCASDDIC_LOCAL_IC, PCASDDIC_LOCAL_SGS};
  Vec                        zt, zr;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(b, &zt));
  PetscCall(VecDuplicate(b, &zr));
  for (PetscInt o = 0; o < 3; o++)
    for (PetscInt l = 0; l < 2; l++) {
      PetscInt  itt, itr;
      PetscReal nd, nr;
      PetscCall(RunKernel(A, b, PCASDDIC_KERNEL_TUNED, ords[o], locs[l], block, zt, &itt));
      PetscCall(RunKernel(A, b, PCASDDIC_KERNEL_REFERENCE, ords[o], locs[l], block, zr, &itr));
      PetscCall(VecNorm(zr, NORM_2, &nr));
      PetscCall(VecAXPY(zt, -1.0, zr));
      PetscCall(VecNorm(zt, NORM_2, &nd));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-12s %-6s %-4s iterations tuned %3" PetscInt_FMT " reference %3" PetscInt_FMT ", M^-1 b relative difference %.1e%s\n", name, PCASDDICOrderingTypes[ords[o]], PCASDDICLocalTypes[locs[l]], itt, itr, (double)(nd / nr), (itt == itr && itt > 0 && nd <= 1e-12 * nr) ? "" : "  FAILED"));
      if (!(itt == itr && itt > 0 && nd <= 1e-12 * nr)) Failures++;
    }
  PetscCall(VecDestroy(&zt));
  PetscCall(VecDestroy(&zr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PipeKSPCube cube;
  Mat         A, B;
  Vec         b;
  PetscInt    gridn   = 12;
  const char *types[] = {MATBAIJ, MATAIJ, MATSBAIJ};

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PipeKSPInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-grid_n", &gridn, NULL));
  PetscCall(TestCubeSystem(PETSC_FALSE, &cube, &A, &b, NULL));
  PetscCall(MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE)); /* PETSc 3.26 converts to SBAIJ only when known */
  for (PetscInt t = 0; t < 3; t++) {                     /* 3x3 blocks, read as SeqBAIJ blocks, through MatGetRow, from SeqSBAIJ */
    char name[32];
    PetscCall(MatConvert(A, types[t], MAT_INITIAL_MATRIX, &B));
    PetscCall(PetscSNPrintf(name, sizeof(name), "cube %s", types[t]));
    PetscCall(Compare(name, B, b, PETSC_TRUE));
    if (t == 1) PetscCall(Compare("cube point", B, b, PETSC_FALSE)); /* SeqAIJ arrays, point kernel */
    PetscCall(MatDestroy(&B));
  }
  for (PetscInt bs = 2; bs <= 5; bs += 3) {
    char name[32];
    Vec  c;
    PetscCall(KronMatrix(gridn, bs, &B));
    PetscCall(MatCreateVecs(B, NULL, &c));
    PetscCall(VecSet(c, 1.0));
    PetscCall(PetscSNPrintf(name, sizeof(name), "kron bs %" PetscInt_FMT, bs));
    PetscCall(Compare(name, B, c, PETSC_TRUE));
    PetscCall(VecDestroy(&c));
    PetscCall(MatDestroy(&B));
  }
  if (!Failures) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "all checks passed\n"));
  PetscCall(PipeKSPCubeDestroy(&cube));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: pc_asddic_kernels_np1
      args: -cube_n 7
      env: OMP_NUM_THREADS=1
      filter: grep -oE "all checks passed|FAILED"
      output_file: output/ex12_pc_asddic_kernels_np1.out

   # -malloc_debug 0 (leaks still checked): PETSc's heap check at every allocation made this run take 34 s of the harness's 60 s in ctest -j2 on a shared 2-core machine
   test:
      suffix: pc_asddic_kernels_np2
      timeoutfactor: 3 # 60 s is tight on 2 cores under ctest -j2; a hang still fails
      nsize: 2
      args: -cube_n 7 -malloc_debug 0
      env: OMP_NUM_THREADS=1
      filter: grep -oE "all checks passed|FAILED"
      output_file: output/ex12_pc_asddic_kernels_np2.out

TEST*/
