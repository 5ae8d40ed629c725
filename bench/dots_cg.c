/* Iteration counts of CG variants on random diagonal spectra (kappa 10 to 1e10, no PC, 1 rank), the
   driver of bench/dots_cg.sh: what the rounding of the recurrences and their dot products costs against cg.
   Case k draws n in [50, 500), kappa = 10^(1 + 9 u), rtol = 10^(-2 - 12 u), the norm type, the diagonal
   (log-spaced in [1, kappa] at random rows) and a random b; each type solves it from x = 0 with
   -ksp_max_it 4000. Prints one line a case: n kappa rtol norm, then each type's iterations (negative where
   it did not converge). Types: any KSP; cgsr is cg with KSPCGUseSingleReduction(). Our types come from
   -dll_append. */
#include <pipeksp/petsccompat.h> /* PETSC_SUCCESS before PETSc 3.19 */

static PetscErrorCode Case(PetscRandom rnd, PetscInt ntypes, char *types[])
{
  PetscReal   u, kappa, rtol;
  PetscInt    n, rs, re, its;
  KSPNormType nt;
  Mat         A;
  Vec         b, x;

  PetscFunctionBeginUser;
  PetscCall(PetscRandomGetValueReal(rnd, &u));
  n = 50 + (PetscInt)(450 * u);
  PetscCall(PetscRandomGetValueReal(rnd, &u));
  kappa = PetscPowReal(10.0, 1 + 9 * u);
  PetscCall(PetscRandomGetValueReal(rnd, &u));
  rtol = PetscPowReal(10.0, -2 - 12 * u);
  PetscCall(PetscRandomGetValueReal(rnd, &u));
  nt = u < 1.0 / 3 ? KSP_NORM_NATURAL : (u < 2.0 / 3 ? KSP_NORM_PRECONDITIONED : KSP_NORM_UNPRECONDITIONED);
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n, n, 1, NULL, 0, NULL, &A));
  PetscCall(MatGetOwnershipRange(A, &rs, &re));
  for (PetscInt i = 0; i < n; i++) { /* every rank draws every row: the same matrix on any count */
    PetscCall(PetscRandomGetValueReal(rnd, &u));
    if (i >= rs && i < re) PetscCall(MatSetValue(A, i, i, PetscPowReal(kappa, u), INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatCreateVecs(A, &x, &b));
  for (PetscInt i = 0; i < n; i++) { /* as the diagonal: every rank draws every row, or the streams drift apart */
    PetscCall(PetscRandomGetValueReal(rnd, &u));
    if (i >= rs && i < re) PetscCall(VecSetValue(b, i, u, INSERT_VALUES));
  }
  PetscCall(VecAssemblyBegin(b));
  PetscCall(VecAssemblyEnd(b));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%d %g %g %s", (int)n, (double)kappa, (double)rtol, KSPNormTypes[nt]));
  for (PetscInt s = 0; s < ntypes; s++) {
    KSP                ksp;
    PC                 pc;
    KSPConvergedReason why;
    PetscBool          sr;

    PetscCall(PetscStrcmp(types[s], "cgsr", &sr));
    PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetType(pc, PCNONE));
    PetscCall(KSPSetType(ksp, sr ? KSPCG : types[s]));
    if (sr) PetscCall(KSPCGUseSingleReduction(ksp, PETSC_TRUE));
    PetscCall(KSPSetNormType(ksp, nt));
    PetscCall(KSPSetTolerances(ksp, rtol, 1e-50, PETSC_DEFAULT, 4000));
    PetscCall(VecSet(x, 0));
    PetscCall(KSPSolve(ksp, b, x));
    PetscCall(KSPGetIterationNumber(ksp, &its));
    PetscCall(KSPGetConvergedReason(ksp, &why));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %d", (int)(why > 0 ? its : -its)));
    PetscCall(KSPDestroy(&ksp));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n"));
  PetscCall(MatDestroy(&A));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscInt    ncases = 1200, seed = 11, ntypes = 8;
  char       *types[8];
  PetscRandom rnd;

  PetscCall(PetscInitialize(&argc, &argv, NULL, "dots_cg -ncases N -seed S -types cg,cgsr,chrongear,...\n"));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-ncases", &ncases, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-seed", &seed, NULL));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-types", types, &ntypes, NULL));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, (unsigned long)seed));
  PetscCall(PetscRandomSeed(rnd));
  for (PetscInt k = 0; k < ncases; k++) PetscCall(Case(rnd, ntypes, types));
  for (PetscInt s = 0; s < ntypes; s++) PetscCall(PetscFree(types[s]));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscFinalize());
  return 0;
}
