/* Helpers shared by the C test programs (header-only: each program is one file). */
#ifndef PIPEKSPTEST_H
#define PIPEKSPTEST_H

#include <pipeksp.h>

/* What a cube solve is judged by */
typedef struct {
  PetscInt            its;
  PetscReal           res, err; /* true relative residual, max-norm relative error */
  PetscReal           rnorm;    /* the solver's last residual norm */
  KSPConvergedReason  reason;
  PipeKSPProgressType used;     /* -1 for PETSc's types */
  PipeKSPStats        stats;    /* zero for PETSc's types */
} TestResult;

/* Fills res after KSPSolve(ksp, b, x) on the cube; ours: ksp is one of our types */
static inline PetscErrorCode TestResultCollect(KSP ksp, PetscBool ours, PipeKSPCube cube, Mat A, Vec b, Vec x, TestResult *res)
{
  Vec       r;
  PetscReal bnorm, rnorm;

  PetscFunctionBeginUser;
  PetscCall(KSPGetIterationNumber(ksp, &res->its));
  PetscCall(KSPGetConvergedReason(ksp, &res->reason));
  PetscCall(KSPGetResidualNorm(ksp, &res->rnorm));
  res->used = (PipeKSPProgressType)-1;
  PetscCall(PetscMemzero(&res->stats, sizeof(res->stats)));
  if (ours) {
    PetscCall(KSPPipeGetProgress(ksp, &res->used));
    PetscCall(KSPPipeGetStats(ksp, &res->stats));
  }
  PetscCall(VecDuplicate(b, &r));
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &rnorm));
  PetscCall(VecNorm(b, NORM_2, &bnorm));
  res->res = rnorm / bnorm;
  PetscCall(PipeKSPCubeComputeError(cube, x, &res->err));
  PetscCall(VecDestroy(&r));
  PetscFunctionReturn(0);
}

/* diag(d) with d_i = i+1, the upper half negated when indefinite */
static inline PetscErrorCode TestDiagMatrix(PetscInt n, PetscBool indefinite, Mat *A)
{
  PetscInt i, rs, re;

  PetscFunctionBeginUser;
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n, n, 1, NULL, 0, NULL, A));
  PetscCall(MatGetOwnershipRange(*A, &rs, &re));
  for (i = rs; i < re; i++) PetscCall(MatSetValue(*A, i, i, (indefinite && i >= n / 2) ? -(PetscScalar)(i + 1) : (PetscScalar)(i + 1), INSERT_VALUES));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

#endif
