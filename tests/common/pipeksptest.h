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

/* the true relative residual ||b - A x|| / ||b|| */
static inline PetscErrorCode TestRelResidual(Mat A, Vec b, Vec x, PetscReal *res)
{
  Vec       r;
  PetscReal rn, bn;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(b, &r));
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &rn));
  PetscCall(VecNorm(b, NORM_2, &bn));
  *res = rn / bn;
  PetscCall(VecDestroy(&r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Fills res after KSPSolve(ksp, b, x) on the cube; ours: ksp is one of our types */
static inline PetscErrorCode TestResultCollect(KSP ksp, PetscBool ours, PipeKSPCube cube, Mat A, Vec b, Vec x, TestResult *res)
{
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
  PetscCall(TestRelResidual(A, b, x, &res->res));
  PetscCall(PipeKSPCubeComputeError(cube, x, &res->err));
  PetscFunctionReturn(PETSC_SUCCESS);
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
  Vec x;

  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(A, &x, NULL));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, &o->its));
  PetscCall(KSPGetConvergedReason(ksp, &o->reason));
  PetscCall(PetscMemzero(&o->st, sizeof(o->st)));
  if (ours) PetscCall(KSPPipeGetStats(ksp, &o->st));
  PetscCall(TestRelResidual(A, b, x, &o->res));
  PetscCall(VecDestroy(&x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a PCSHELL applying y = D x, D = diag(s on the first frac of the rows, 1 on the rest): indefinite for s < 0 and
   0 < frac < 1, negative definite for frac = 1 (cg's breakdowns of (r, M^{-1} r), and its sign) */
typedef struct {
  PetscReal frac, s;
} TestMixedPC;

static inline PetscErrorCode TestMixedApply(PC pc, Vec x, Vec y)
{
  TestMixedPC *m;
  PetscInt     rs, re, n;
  PetscScalar *a;

  PetscFunctionBeginUser;
  PetscCall(PCShellGetContext(pc, &m));
  PetscCall(VecCopy(x, y));
  PetscCall(VecGetSize(y, &n));
  PetscCall(VecGetOwnershipRange(y, &rs, &re));
  PetscCall(VecGetArray(y, &a));
  for (PetscInt i = rs; i < re; i++)
    if (i < m->frac * n) a[i - rs] *= m->s;
  PetscCall(VecRestoreArray(y, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static inline PetscErrorCode TestPCSetMixed(PC pc, TestMixedPC *m)
{
  PetscFunctionBeginUser;
  PetscCall(PCSetType(pc, PCSHELL));
  PetscCall(PCShellSetContext(pc, m));
  PetscCall(PCShellSetApply(pc, TestMixedApply));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the 1-D Laplacian of n rows, its diagonal 2 + shift + wobble (i % 7) (wobble: distinct eigenvalues apart) */
static inline PetscErrorCode TestLap1D(PetscInt n, PetscReal shift, PetscReal wobble, Mat *A)
{
  PetscInt i, rs, re;

  PetscFunctionBeginUser;
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n, n, 3, NULL, 2, NULL, A));
  PetscCall(MatGetOwnershipRange(*A, &rs, &re));
  for (i = rs; i < re; i++) {
    if (i > 0) PetscCall(MatSetValue(*A, i, i - 1, -1.0, INSERT_VALUES));
    if (i < n - 1) PetscCall(MatSetValue(*A, i, i + 1, -1.0, INSERT_VALUES));
    PetscCall(MatSetValue(*A, i, i, 2.0 + shift + wobble * (i % 7), INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
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
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the smallest and largest eigenvalues of the symmetric tridiagonal with diagonal d and off-diagonal e:
   bisection on the Sturm count inside the Gershgorin interval */
static inline PetscInt TestSturmBelow(PetscInt n, const PetscReal *d, const PetscReal *e, PetscReal x)
{
  PetscInt  c = 0;
  PetscReal q = 1;
  for (PetscInt i = 0; i < n; i++) {
    q = d[i] - x - (i ? e[i - 1] * e[i - 1] / q : 0);
    if (q == 0) q = -1e-300;
    c += q < 0;
  }
  return c;
}

static inline void TestTridiagExtremes(PetscInt n, const PetscReal *d, const PetscReal *e, PetscReal *lmin, PetscReal *lmax)
{
  PetscReal lo = 1e300, hi = -1e300;
  for (PetscInt i = 0; i < n; i++) {
    PetscReal r = (i ? PetscAbsReal(e[i - 1]) : 0) + (i + 1 < n ? PetscAbsReal(e[i]) : 0);
    lo          = PetscMin(lo, d[i] - r);
    hi          = PetscMax(hi, d[i] + r);
  }
  for (PetscInt w = 0; w < 2; w++) {
    PetscReal l = lo, h = hi;
    for (PetscInt it = 0; it < 200; it++) {
      PetscReal m = 0.5 * (l + h);
      if (TestSturmBelow(n, d, e, m) >= (w ? n : 1)) h = m;
      else l = m;
    }
    if (w) *lmax = h;
    else *lmin = l;
  }
}

/* Lanczos on P A (pc's M^-1 times A), self-adjoint in the A inner product, from a random start: its Ritz
   values bound the spectrum from inside, and a negative one proves P indefinite (P A is congruent to
   A^1/2 P A^1/2). Stops early when the A-norm of the next vector is not positive */
static inline PetscErrorCode TestLanczosPA(Mat A, PC pc, PetscInt steps, PetscReal *rmin, PetscReal *rmax)
{
  Vec         v, vold, w, Av, Aw;
  PetscRandom rnd;
  PetscReal  *d, *e, beta = 0;
  PetscScalar s;
  PetscInt    n = 0;

  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(A, &v, &w));
  PetscCall(VecDuplicate(v, &vold));
  PetscCall(VecDuplicate(v, &Av));
  PetscCall(VecDuplicate(v, &Aw));
  PetscCall(PetscMalloc2(steps, &d, steps, &e));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
  PetscCall(VecSetRandom(v, rnd));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecSet(vold, 0));
  PetscCall(MatMult(A, v, Av));
  PetscCall(VecDot(v, Av, &s));
  PetscCall(VecScale(v, 1 / PetscSqrtReal(PetscRealPart(s))));
  PetscCall(VecScale(Av, 1 / PetscSqrtReal(PetscRealPart(s))));
  for (PetscInt k = 0; k < steps; k++) {
    PetscCall(PCApply(pc, Av, w)); /* w = P A v */
    PetscCall(VecDot(w, Av, &s));  /* alpha = <w, v>_A */
    d[k] = PetscRealPart(s);
    n    = k + 1;
    PetscCall(VecAXPBYPCZ(w, -d[k], -beta, 1.0, v, vold));
    PetscCall(MatMult(A, w, Aw));
    PetscCall(VecDot(w, Aw, &s));
    if (!(PetscRealPart(s) > 0)) break;
    beta = PetscSqrtReal(PetscRealPart(s));
    e[k] = beta;
    PetscCall(VecCopy(v, vold));
    PetscCall(VecAXPBY(v, 1 / beta, 0.0, w));
    PetscCall(VecAXPBY(Av, 1 / beta, 0.0, Aw));
  }
  TestTridiagExtremes(n, d, e, rmin, rmax);
  PetscCall(PetscFree2(d, e));
  PetscCall(VecDestroy(&v));
  PetscCall(VecDestroy(&w));
  PetscCall(VecDestroy(&vold));
  PetscCall(VecDestroy(&Av));
  PetscCall(VecDestroy(&Aw));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* (x, P x) on nrandom random x in [-1, 1], half of them rough (A times random): how many are not positive,
   and the smallest (x, P x) / (x, x) (worst may be NULL) */
static inline PetscErrorCode TestPositiveOnRandom(Mat A, PC pc, PetscInt nrandom, PetscInt *neg, PetscReal *worst)
{
  Vec         x, Px;
  PetscRandom rnd;

  PetscFunctionBeginUser;
  *neg = 0;
  if (worst) *worst = PETSC_MAX_REAL;
  PetscCall(MatCreateVecs(A, &x, &Px));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
  for (PetscInt i = 0; i < nrandom; i++) {
    PetscScalar s;
    PetscReal   nx;
    PetscCall(VecSetRandom(x, rnd));
    if (i % 2) { /* half of them rough: A times random */
      PetscCall(MatMult(A, x, Px));
      PetscCall(VecCopy(Px, x));
    }
    PetscCall(PCApply(pc, x, Px));
    PetscCall(VecDot(x, Px, &s));
    PetscCall(VecNorm(x, NORM_2, &nx));
    if (worst) *worst = PetscMin(*worst, PetscRealPart(s) / (nx * nx));
    *neg += !(PetscRealPart(s) > 0);
  }
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&Px));
  PetscFunctionReturn(PETSC_SUCCESS);
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
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the cube from the options database: its matrix, right-hand side and, with nonzero, a random initial guess
   (x0 may be NULL without nonzero) */
static inline PetscErrorCode TestCubeSystem(PetscBool nonzero, PipeKSPCube *cube, Mat *A, Vec *b, Vec *x0)
{
  PetscFunctionBeginUser;
  PetscCall(PipeKSPCubeCreate(PETSC_COMM_WORLD, cube));
  PetscCall(PipeKSPCubeSetFromOptions(*cube));
  PetscCall(PipeKSPCubeSetUp(*cube));
  PetscCall(PipeKSPCubeGetMatrix(*cube, A));
  PetscCall(PipeKSPCubeGetRHS(*cube, b));
  if (x0) *x0 = NULL;
  if (nonzero) {
    PetscRandom rnd;
    PetscCall(VecDuplicate(*b, x0));
    PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
    PetscCall(VecSetRandom(*x0, rnd));
    PetscCall(PetscRandomDestroy(&rnd));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The KSP+asddic set-up of the PC tests: a KSP of the given type on A with rtol and maxit, and its PC
   asddic; the caller adds its settings, then KSPSetFromOptions() */
static inline PetscErrorCode TestKSPASDDIC(Mat A, KSPType type, PetscReal rtol, PetscInt maxit, KSP *ksp, PC *pc)
{
  PetscFunctionBeginUser;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, ksp));
  PetscCall(KSPSetOperators(*ksp, A, A));
  PetscCall(KSPSetType(*ksp, type));
  PetscCall(KSPSetTolerances(*ksp, rtol, PETSC_DEFAULT, PETSC_DEFAULT, maxit));
  PetscCall(KSPGetPC(*ksp, pc));
  PetscCall(PCSetType(*pc, PCASDDIC));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* asddic alone on A, with the options under prefix (NULL: none), not set up */
static inline PetscErrorCode TestPCASDDIC(Mat A, const char *prefix, PC *pc)
{
  PetscFunctionBeginUser;
  PetscCall(PCCreate(PETSC_COMM_WORLD, pc));
  if (prefix) PetscCall(PCSetOptionsPrefix(*pc, prefix));
  PetscCall(PCSetOperators(*pc, A, A));
  PetscCall(PCSetType(*pc, PCASDDIC));
  PetscCall(PCSetFromOptions(*pc));
  PetscFunctionReturn(PETSC_SUCCESS);
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
  PetscFunctionReturn(PETSC_SUCCESS);
}

#endif
