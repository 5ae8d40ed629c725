/* Helpers shared by the C test programs (header-only: each program is one file). */
#ifndef PIPEKSPTEST_H
#define PIPEKSPTEST_H

#include <pipeksp.h>
#include <pipeksp/petsccompat.h>

/* What a cube solve is judged by */
typedef struct {
  PetscInt            its;
  PetscReal           res, err; /* true relative residual, max-norm relative error */
  PetscReal           rnorm;    /* the solver's last residual norm */
  KSPConvergedReason  reason;
  PipeKSPProgressType used;  /* -1 for PETSc's types */
  PipeKSPStats        stats; /* zero for PETSc's types */
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

/* What a solve from a zero guess is judged by on any operator: iterations, reason, our counters (ours: one
   of our types) and the true relative residual ||b - A x|| / ||b|| */
typedef struct {
  PetscInt           its;
  PetscReal          res;
  KSPConvergedReason reason;
  PipeKSPStats       st;
} TestSolve;

static inline PetscErrorCode TestSolveFromZero(KSP ksp, Mat A, Vec b, PetscBool ours, TestSolve *o)
{
  Vec       x, r;
  PetscReal rn, bn;

  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(A, &x, &r));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, &o->its));
  PetscCall(KSPGetConvergedReason(ksp, &o->reason));
  PetscCall(PetscMemzero(&o->st, sizeof(o->st)));
  if (ours) PetscCall(KSPPipeGetStats(ksp, &o->st));
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &rn));
  PetscCall(VecNorm(b, NORM_2, &bn));
  o->res = rn / bn;
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&r));
  PetscFunctionReturn(0);
}

/* PETSc's ex2: the 5-point Laplacian on m x n (-m, -n override the defaults given), b = A 1 */
static inline PetscErrorCode TestLap2D(PetscInt m, PetscInt n, Mat *A, Vec *b)
{
  PetscInt i, j, row, rs, re;
  Vec      u;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-m", &m, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, m * n, m * n, 5, NULL, 5, NULL, A));
  PetscCall(MatGetOwnershipRange(*A, &rs, &re));
  for (row = rs; row < re; row++) {
    i = row / n;
    j = row - i * n;
    if (i > 0) PetscCall(MatSetValue(*A, row, row - n, -1.0, ADD_VALUES));
    if (i < m - 1) PetscCall(MatSetValue(*A, row, row + n, -1.0, ADD_VALUES));
    if (j > 0) PetscCall(MatSetValue(*A, row, row - 1, -1.0, ADD_VALUES));
    if (j < n - 1) PetscCall(MatSetValue(*A, row, row + 1, -1.0, ADD_VALUES));
    PetscCall(MatSetValue(*A, row, row, 4.0, ADD_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatCreateVecs(*A, &u, b));
  PetscCall(VecSet(u, 1.0));
  PetscCall(MatMult(*A, u, *b));
  PetscCall(VecDestroy(&u));
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

/* the cube from the options database: its matrix, right-hand side and, with nonzero, a random initial guess */
static inline PetscErrorCode TestCubeSystem(PetscBool nonzero, PipeKSPCube *cube, Mat *A, Vec *b, Vec *x0)
{
  PetscFunctionBeginUser;
  PetscCall(PipeKSPCubeCreate(PETSC_COMM_WORLD, cube));
  PetscCall(PipeKSPCubeSetFromOptions(*cube));
  PetscCall(PipeKSPCubeSetUp(*cube));
  PetscCall(PipeKSPCubeGetMatrix(*cube, A));
  PetscCall(PipeKSPCubeGetRHS(*cube, b));
  *x0 = NULL;
  if (nonzero) {
    PetscRandom rnd;
    PetscCall(VecDuplicate(*b, x0));
    PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
    PetscCall(VecSetRandom(*x0, rnd));
    PetscCall(PetscRandomDestroy(&rnd));
  }
  PetscFunctionReturn(0);
}

/* -types t1,t2,..., by default our three single-depth solvers */
static inline PetscErrorCode TestTypesOption(char *types[], PetscInt *ntypes)
{
  PetscBool flg;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-types", types, ntypes, &flg));
  if (!flg) {
    *ntypes = 3;
    PetscCall(PetscStrallocpy(KSPPIPEGROPP, &types[0]));
    PetscCall(PetscStrallocpy(KSPPIPEGV, &types[1]));
    PetscCall(PetscStrallocpy(KSPCHRONGEAR, &types[2]));
  }
  PetscFunctionReturn(0);
}

#endif
