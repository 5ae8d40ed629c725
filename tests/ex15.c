static char help[] = "pipeplcg's adaptive residual replacement (-ksp_pipe_replace auto) at work: an ill-conditioned\n\
diagonal (d_i from 1 to -kappa, evenly spaced; b_i = 1/2 + sin(1.7 i)/2), natural norm, no PC, at depths -depths.\n\
Without replacement the recursive residual claims a convergence that the true residual misses by more than\n\
2x (it stalls above rtol); with auto the replacement fires (KSPPipeGetStats) and the true residual is within\n\
10x rtol, with no restart needed to check a claimed convergence. cg is shown for reference.\n\
  -n <10000> -kappa <1e10> -rtol <1e-9> -depths <2,3>\n\n";

#include "common/pipeksptest.h"

static PetscErrorCode Run(Mat A, Vec b, const char *type, PetscInt l, const char *replace, PetscReal rtol, TestSolve *o)
{
  KSP       ksp;
  PC        pc;
  PetscBool ours;

  PetscFunctionBeginUser;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, type));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCNONE));
  PetscCall(KSPSetNormType(ksp, KSP_NORM_NATURAL));
  PetscCall(KSPSetTolerances(ksp, rtol, PETSC_DEFAULT, PETSC_DEFAULT, 20000));
  PetscCall(PetscStrcmp(type, KSPPIPEPLCG, &ours));
  if (ours) {
    PetscCall(KSPPipePLCGSetDepth(ksp, l));
    PetscCall(KSPPipeSetReplacePeriod(ksp, replace[0] == 'a' ? PETSC_DECIDE : 0));
  }
  PetscCall(TestSolveFromZero(ksp, A, b, ours, o));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-9s l=%" PetscInt_FMT " replace %-4s its %5" PetscInt_FMT "  true res %.3e (%.2f x rtol)  %-16s replacements %" PetscInt64_FMT ", restarts %" PetscInt64_FMT "\n", type, l, replace, o->its, (double)o->res, (double)(o->res / rtol), KSPConvergedReasons[o->reason],
                        o->st.replacements, o->st.restarts));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Mat       A;
  Vec       b;
  PetscInt  n = 10000, i, rs, re, depths[8] = {2, 3}, nd = 8, k, fails = 0;
  PetscReal kappa = 1e10, rtol = 1e-9;
  TestSolve cg, off, on;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PipeKSPInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-kappa", &kappa, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-rtol", &rtol, NULL));
  {
    PetscBool flg;
    PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-depths", depths, &nd, &flg));
    if (!flg) nd = 2;
  }
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n, n, 1, NULL, 0, NULL, &A));
  PetscCall(MatGetOwnershipRange(A, &rs, &re));
  for (i = rs; i < re; i++) PetscCall(MatSetValue(A, i, i, 1.0 + (kappa - 1.0) * i / (n - 1), INSERT_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatCreateVecs(A, NULL, &b));
  for (i = rs; i < re; i++) PetscCall(VecSetValue(b, i, 0.5 + 0.5 * PetscSinReal(1.7 * i), INSERT_VALUES));
  PetscCall(VecAssemblyBegin(b));
  PetscCall(VecAssemblyEnd(b));

  PetscCall(Run(A, b, KSPCG, 0, "-", rtol, &cg));
  for (k = 0; k < nd; k++) {
    PetscCall(Run(A, b, KSPPIPEPLCG, depths[k], "0", rtol, &off));
    PetscCall(Run(A, b, KSPPIPEPLCG, depths[k], "auto", rtol, &on));
    if (!(off.res > 2 * rtol)) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL l=%" PetscInt_FMT ": without replacement the true residual %.3e does not stall above 2x rtol (the problem no longer needs replacement)\n", depths[k], (double)off.res));
      fails++;
    }
    if (!(on.st.replacements > 0)) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL l=%" PetscInt_FMT ": auto made no residual replacement\n", depths[k]));
      fails++;
    }
    if (!(on.res <= 10 * rtol) || on.reason <= 0) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL l=%" PetscInt_FMT ": with auto replacement the true residual is %.3e > 10x rtol (%s)\n", depths[k], (double)on.res, KSPConvergedReasons[on.reason]));
      fails++;
    }
    if (on.st.restarts) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL l=%" PetscInt_FMT ": auto needed %" PetscInt64_FMT " restart(s) to check a claimed convergence: the replacements came too late\n", depths[k], on.st.restarts));
      fails++;
    }
  }
  if (!fails) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "all checks passed\n"));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return fails ? 1 : 0;
}

/*TEST

   test:
      suffix: plcg_replace_np1
      filter: grep -oE "all checks passed|FAIL"
      output_file: output/ex15_plcg_replace_np1.out

   # -malloc_debug 0 (leaks still checked): PETSc's heap check at every allocation made this run take 31 s of the harness's 60 s in ctest -j2 on a shared 2-core machine
   test:
      suffix: plcg_replace_np2
      args: -malloc_debug 0
      nsize: 2
      filter: grep -oE "all checks passed|FAIL"
      output_file: output/ex15_plcg_replace_np2.out

TEST*/
