/* Differential fuzzer with PETSc's cg as the oracle (docs/algorithms.md, "The cg contract").

   Case k of seed S draws, from its own generator (the same on every rank), a matrix family and size, a PC,
   the norm type, tolerances, the iteration limit, the initial guess, the convergence test variant, the
   progress policy, pipeplcg's depth and a use (plain, inside PCKSP, as a fixed-count multigrid smoother).
   It solves with cg and with each of ours in the same process and checks the contract:
     - the same class of reason (converged, iteration limit, breakdown), except where the iteration bound
       lets ours need more than a limit that cg met within;
     - both converged: ours' true residual within 10x cg's (or its rounding floor), iterations within the
       bound (1.15 cg + l at depths <= 3, 1.5 cg + l at 4-5); where cg's own claim was false (its true
       residual above twice the norm it claimed: a tolerance below its attainable accuracy) only the accuracy;
     - both capped, or ours converged at the iteration where cg was capped (which side of the tolerance that
       iteration's norm falls on is rounding): ours' A-norm error within 1.1x cg's;
     - plain use with cg's iterations and no restart: the extreme eigenvalue estimates (KSPComputeExtremeSingularValues(),
       cg's T_its) near cg's (EIG_TOP_RTOL, EIG_BOTTOM_FACTOR);
     - nested: the outer iterations within 10% (and one) of those with cg inside; where rounding alone moves
       cg's own count out of that band (cg on t b for six t), the outer true residual within 10x cg's (or the outer
       tolerance met) instead.
   Each failure prints one line, "FUZZFAIL family=... reproduce: mpiexec -n P pipefuzz -seed S -case k ...".
   Every case prints "FUZZCASE k family=... verdict=ok|fail seconds=... cg=REASON:its" for tests/fuzz/fuzz.py's table
   (and cg's end, which a reproducer's run must match: tests/fuzz/reproduce_check.py).

   -seed S, then -case k (-ncases n: cases k..k+n-1) or -caselist k1,k2,...; -solvers pipegv,...; -v: each solve's
   outcome. Every solve takes the options of the prefix fz_ (-fz_ksp_view, -fz_ksp_monitor_true_residual).
   -replace n: KSPPipeSetReplacePeriod(n) on ours (0: never; default auto), to tell a replacement's cost.
   -few_distinct: half the plain diag cases get 2-16 distinct eigenvalues and no PC (family diagfew, open).
   -below_floor: half the plain cases with a norm get an rtol from 1e-20 to 1e-15, below cg's floor, where cg's
   recursion claims what its true residual does not reach: judged by the at-floor check (FLOOR_ITS_FACTOR).
   -table: the capped and nested tables instead (Table()). A solver pipeplcg:l is pipeplcg at depth l.
   -solvers may also name PETSc's own CG variants (groppcg, pipecg; cgsr: cg with -ksp_cg_single_reduction):
   the same contract on them measures what finite precision alone costs a CG variant against cg (a calibration
   of the oracle, not part of make test). */
#include <petscksp.h>
#include <petscdmda.h>
#include "../common/pipeksptest.h"

/* splitmix64: a case's draws depend on (seed, case) only, on every rank and platform */
typedef struct {
  unsigned long long s;
} Rng;

static unsigned long long RngNext(Rng *r)
{
  unsigned long long z = (r->s += 0x9e3779b97f4a7c15ULL);
  z                    = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z                    = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
static PetscReal RngUnit(Rng *r)
{
  return (PetscReal)((RngNext(r) >> 11) * (1.0 / 9007199254740992.0));
}
static PetscInt RngInt(Rng *r, PetscInt lo, PetscInt hi) /* [lo, hi] */
{
  return lo + (PetscInt)(RngNext(r) % (unsigned long long)(hi - lo + 1));
}
static PetscReal RngLog(Rng *r, PetscReal lo, PetscReal hi) /* log-uniform in [lo, hi] */
{
  return PetscExpReal(PetscLogReal(lo) + RngUnit(r) * (PetscLogReal(hi) - PetscLogReal(lo)));
}

typedef enum {
  FAM_CUBE,
  FAM_LAP2D,
  FAM_LAP3D,
  FAM_ANISO,
  FAM_DIAG,
  FAM_RANDSPD,
  FAM_EX2,
  FAM_NEUMANN,
  FAM_N
} Family;
static const char *const famname[] = {"cube", "lap2d", "lap3d", "aniso2d", "diag", "randspd", "ex2", "neumann"};

typedef enum {
  USE_PLAIN,
  USE_PCKSP,
  USE_MG
} Use;
static const char *const usename[] = {"plain", "pcksp", "mg"};

typedef struct {
  Family              fam;
  PetscInt            n, bs;  /* size parameter, block size */
  PetscReal           param;  /* nu, anisotropy, condition number */
  char                pc[32]; /* none, jacobi, bjacobi, asddic, gamg, hypre */
  KSPNormType         norm;
  PetscReal           rtol, atol;
  PetscInt            maxit;
  PetscBool           x0rand, uirn;
  PipeKSPProgressType prog;
  PetscInt            depth; /* pipeplcg: 0..5, -1 auto */
  Use                 use;
  PetscInt            inner; /* nested: the inner KSP's (or smoother's) fixed count */
  PetscInt            few;   /* diag: 0, or the number of distinct eigenvalues */
} Case;

/* the family as the tables count it: diag with few distinct eigenvalues apart */
static const char *FamName(const Case *c)
{
  return c->few ? "diagfew" : famname[c->fam];
}

static PetscInt  replace_period = PETSC_DECIDE; /* -replace */
static PetscBool few_distinct   = PETSC_FALSE;  /* -few_distinct: the diagfew variant of diag (off in ctest's seed: open) */
static PetscBool below_floor    = PETSC_FALSE;  /* -below_floor: tolerances below cg's floor */
#define BELOW_FLOOR_RTOL 1e-15                  /* its range's top (the standard draws stop at 1e-14) */
static char flags[64] = "";                     /* the draw's options, for the reproducer */

static const char *const normname[] = {"none", "preconditioned", "unpreconditioned", "natural"};

static PetscErrorCode DrawCase(PetscInt seed, PetscInt k, PetscMPIInt size, Case *c)
{
  Rng       r = {(unsigned long long)seed * 1000003ULL + (unsigned long long)k};
  PetscInt  u;
  PetscBool hypre = PETSC_FALSE;

  PetscFunctionBeginUser;
  for (int i = 0; i < 3; i++) (void)RngNext(&r);
  c->fam   = (Family)RngInt(&r, 0, FAM_N - 1);
  c->bs    = 1;
  c->param = 0;
  switch (c->fam) {
  case FAM_CUBE:
    c->n     = RngInt(&r, 4, 8);
    c->param = 0.3 + RngUnit(&r) * (0.4999 - 0.3);
    c->bs    = 3;
    break;
  case FAM_LAP2D:
  case FAM_EX2:
  case FAM_NEUMANN:
    c->n = RngInt(&r, 8, 48);
    break;
  case FAM_ANISO:
    c->n     = RngInt(&r, 8, 40);
    c->param = RngLog(&r, 1e-4, 1.0);
    break;
  case FAM_LAP3D:
    c->n = RngInt(&r, 5, 14);
    break;
  case FAM_DIAG:
    c->n     = RngInt(&r, 50, 500);
    c->param = RngLog(&r, 10.0, 1e10);
    break;
  case FAM_RANDSPD:
    c->bs    = RngInt(&r, 1, 3);
    c->n     = RngInt(&r, 30, 400);
    c->param = RngLog(&r, 1e-6, 1.0); /* diagonal dominance margin */
    break;
  default:
    break;
  }
  PetscCall(PetscHasExternalPackage("hypre", &hypre));
  u = RngInt(&r, 0, hypre ? 5 : 4);
  PetscCall(PetscStrncpy(c->pc, (const char *[]){"none", "jacobi", "bjacobi", "asddic", "gamg", "hypre"}[u], sizeof(c->pc)));
  if (c->fam == FAM_DIAG && (!strcmp(c->pc, "gamg") || !strcmp(c->pc, "hypre"))) PetscCall(PetscStrncpy(c->pc, "jacobi", sizeof(c->pc))); /* no graph to coarsen */
  if (c->fam == FAM_NEUMANN && !strcmp(c->pc, "asddic")) PetscCall(PetscStrncpy(c->pc, "jacobi", sizeof(c->pc)));                         /* IC of a singular matrix */
  c->norm = (KSPNormType)RngInt(&r, 0, 3);
  if (c->norm == KSP_NORM_NONE && RngUnit(&r) < 0.5) c->norm = KSP_NORM_PRECONDITIONED; /* rarer: it only caps */
  c->rtol  = RngLog(&r, 1e-14, 1e-2);
  c->atol  = RngUnit(&r) < 0.2 ? RngLog(&r, 1e-12, 1e-3) : 1e-50;
  u        = RngInt(&r, 0, 3);
  c->maxit = u == 0 ? RngInt(&r, 1, 10) : u == 1 ? RngInt(&r, 11, 200) : 3000;
  if (c->norm == KSP_NORM_NONE) c->maxit = RngInt(&r, 1, 60);
  c->x0rand = (PetscBool)(RngUnit(&r) < 0.3);
  c->uirn   = (PetscBool)(c->x0rand && RngUnit(&r) < 0.5);
  c->prog   = (PipeKSPProgressType)RngInt(&r, 0, 4);
  c->depth  = RngInt(&r, -1, 5);
  u         = RngInt(&r, 0, 9);
  c->use    = u < 8 ? USE_PLAIN : u == 8 ? USE_PCKSP : USE_MG;
  c->inner  = RngInt(&r, 2, 6);
  if (c->use == USE_MG) PetscCall(PetscStrncpy(c->pc, "gamg", sizeof(c->pc)));
  if (c->use == USE_PCKSP && !strcmp(c->pc, "none")) PetscCall(PetscStrncpy(c->pc, "jacobi", sizeof(c->pc)));
  if (c->use != USE_PLAIN) {
    c->norm  = KSP_NORM_UNPRECONDITIONED; /* the outer fgmres's */
    c->rtol  = RngLog(&r, 1e-10, 1e-4);
    c->maxit = 500;
    c->atol  = 1e-50;
  }
  if (c->fam == FAM_NEUMANN && c->use == USE_MG) c->use = USE_PLAIN;
  /* drawn last, so that every draw above is what earlier versions drew: a diagonal spectrum of few distinct
     values, where cg ends at their count in exact arithmetic (an invariant Krylov space below N: pipeplcg's
     pivots there are rounding, docs/pipeplcg.md), without a PC, which would make it exact */
  c->few = 0;
  if (few_distinct && c->fam == FAM_DIAG && c->use == USE_PLAIN && RngUnit(&r) < 0.5) {
    c->few = RngInt(&r, 2, 16);
    PetscCall(PetscStrncpy(c->pc, "none", sizeof(c->pc)));
  }
  if (below_floor && c->use == USE_PLAIN && c->norm != KSP_NORM_NONE && RngUnit(&r) < 0.5) {
    c->rtol = RngLog(&r, 1e-20, BELOW_FLOOR_RTOL);
    c->atol = 1e-50; /* or the tolerance is not below the floor */
  }
  (void)size;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the matrix of a case, its block size, and a null space where it has one */
static PetscErrorCode BuildMatrix(const Case *c, Rng *r, Mat *A)
{
  PetscInt rs, re, row, N;

  PetscFunctionBeginUser;
  if (c->fam == FAM_CUBE) {
    PipeKSPCube cube;
    Mat         Ac;

    PetscCall(PipeKSPCubeCreate(PETSC_COMM_WORLD, &cube));
    PetscCall(PipeKSPCubeSetSizes(cube, c->n, c->n, c->n));
    PetscCall(PipeKSPCubeSetMaterial(cube, 1.0, c->param));
    if (!strcmp(c->pc, "gamg") || !strcmp(c->pc, "hypre") || c->use == USE_MG) PetscCall(PipeKSPCubeSetMatType(cube, MATAIJ)); /* neither takes MPIBAIJ */
    PetscCall(PipeKSPCubeSetUp(cube));
    PetscCall(PipeKSPCubeGetMatrix(cube, &Ac));
    PetscCall(MatDuplicate(Ac, MAT_COPY_VALUES, A));
    PetscCall(PipeKSPCubeDestroy(&cube));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (c->fam == FAM_EX2) {
    Vec b;
    PetscCall(TestLap2D(c->n, c->n, A, &b));
    PetscCall(VecDestroy(&b));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  N = c->fam == FAM_LAP3D ? c->n * c->n * c->n : (c->fam == FAM_DIAG ? c->n : (c->fam == FAM_RANDSPD ? c->n * c->bs : c->n * c->n));
  PetscCall(MatCreate(PETSC_COMM_WORLD, A));
  PetscCall(MatSetSizes(*A, PETSC_DECIDE, PETSC_DECIDE, N, N));
  PetscCall(MatSetType(*A, MATAIJ));
  if (c->fam == FAM_RANDSPD) {
    /* a block layout: the local sizes are multiples of bs */
    PetscMPIInt size, rank;
    PetscInt    nb = c->n, loc;
    PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
    PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
    loc = nb / size + (rank < nb % size ? 1 : 0);
    PetscCall(MatSetSizes(*A, loc * c->bs, loc * c->bs, N, N));
    PetscCall(MatSetBlockSize(*A, c->bs));
  }
  PetscCall(MatSeqAIJSetPreallocation(*A, 64, NULL));
  PetscCall(MatMPIAIJSetPreallocation(*A, 64, NULL, 64, NULL));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscCall(MatGetOwnershipRange(*A, &rs, &re));
  if (c->fam == FAM_DIAG) {
    /* eigenvalues log-spaced in [1, kappa] (or few distinct ones there) with a random order across the rows */
    for (row = 0; row < N; row++) {
      PetscReal t = RngUnit(r), v = PetscPowReal(c->param, c->few ? PetscFloorReal(t * c->few) / (c->few - 1) : t);
      if (row >= rs && row < re) PetscCall(MatSetValue(*A, row, row, v, INSERT_VALUES));
    }
  } else if (c->fam == FAM_RANDSPD) {
    /* a random symmetric sparse pattern (each block row to about 4 others, dense bs x bs blocks), negative
       weights, and the diagonal the row's absolute sum plus a small margin: SPD, poorly conditioned */
    PetscInt   nb = c->n, bs = c->bs, nedge = 4 * nb;
    PetscReal *diag;
    PetscCall(PetscCalloc1(N, &diag));
    for (PetscInt e = 0; e < nedge; e++) {
      PetscInt bi = RngInt(r, 0, nb - 1), bj = RngInt(r, 0, nb - 1);
      if (bi == bj) continue;
      for (PetscInt a = 0; a < bs; a++)
        for (PetscInt b2 = 0; b2 < bs; b2++) {
          PetscReal w = -(0.1 + RngUnit(r));
          PetscInt  i = bi * bs + a, j = bj * bs + b2;
          if (i >= rs && i < re) PetscCall(MatSetValue(*A, i, j, w, ADD_VALUES));
          if (j >= rs && j < re) PetscCall(MatSetValue(*A, j, i, w, ADD_VALUES));
          diag[i] += PetscAbsReal(w);
          diag[j] += PetscAbsReal(w);
        }
    }
    for (row = 0; row < N; row++) {
      PetscReal v = diag[row] * (1.0 + c->param) + c->param;
      (void)RngUnit(r);
      if (row >= rs && row < re) PetscCall(MatSetValue(*A, row, row, v, ADD_VALUES));
    }
    PetscCall(PetscFree(diag));
  } else {
    PetscInt  n  = c->n;
    PetscReal ey = c->fam == FAM_ANISO ? c->param : 1.0;
    for (row = rs; row < re; row++) {
      PetscReal dg = 0;
      if (c->fam == FAM_LAP3D) {
        PetscInt i = row / (n * n), j = (row / n) % n, k = row % n;
        if (i > 0) PetscCall(MatSetValue(*A, row, row - n * n, -1.0, INSERT_VALUES));
        if (i < n - 1) PetscCall(MatSetValue(*A, row, row + n * n, -1.0, INSERT_VALUES));
        if (j > 0) PetscCall(MatSetValue(*A, row, row - n, -1.0, INSERT_VALUES));
        if (j < n - 1) PetscCall(MatSetValue(*A, row, row + n, -1.0, INSERT_VALUES));
        if (k > 0) PetscCall(MatSetValue(*A, row, row - 1, -1.0, INSERT_VALUES));
        if (k < n - 1) PetscCall(MatSetValue(*A, row, row + 1, -1.0, INSERT_VALUES));
        dg = 6.0;
      } else {
        PetscInt  i = row / n, j = row % n;
        PetscBool neu = (PetscBool)(c->fam == FAM_NEUMANN);
        if (i > 0) {
          PetscCall(MatSetValue(*A, row, row - n, -ey, INSERT_VALUES));
          dg += ey;
        } else if (!neu) dg += ey;
        if (i < n - 1) {
          PetscCall(MatSetValue(*A, row, row + n, -ey, INSERT_VALUES));
          dg += ey;
        } else if (!neu) dg += ey;
        if (j > 0) {
          PetscCall(MatSetValue(*A, row, row - 1, -1.0, INSERT_VALUES));
          dg += 1;
        } else if (!neu) dg += 1;
        if (j < n - 1) {
          PetscCall(MatSetValue(*A, row, row + 1, -1.0, INSERT_VALUES));
          dg += 1;
        } else if (!neu) dg += 1;
      }
      PetscCall(MatSetValue(*A, row, row, dg, INSERT_VALUES));
    }
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatSetOption(*A, MAT_SYMMETRIC, PETSC_TRUE));
  if (c->fam == FAM_NEUMANN) {
    MatNullSpace nsp;
    PetscCall(MatNullSpaceCreate(PETSC_COMM_WORLD, PETSC_TRUE, 0, NULL, &nsp));
    PetscCall(MatSetNullSpace(*A, nsp));
    PetscCall(MatNullSpaceDestroy(&nsp));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  const char        *name;
  PetscInt           depth; /* ours: the pipeline's l for the bound (pipeplcg: the one it started at, given or chosen by auto; others 1, chrongear 0) */
  PetscInt           its, outer;
  KSPConvergedReason reason;
  PetscReal          res, aerr;      /* ||b - A x|| / ||b||, ||x - x*||_A / ||x*||_A */
  PetscReal          rnorm, tnorm;   /* the norm the solver monitored at its end, and the same norm of b - A x */
  PetscReal          rn0;            /* nested: ||b - A x0||, the outer tolerance's reference */
  PetscReal          resmin;         /* cg with no norm: the least ||b - A x|| / ||b|| of its iterates (else res) */
  PetscInt           itsp;           /* cg nested: its outer iterations on the case times t (the farthest from its
                                      over RoundingScales), where only the rounding differs (-1: not run) */
  PetscInt           dend, dchanges; /* pipeplcg (plain use): the depth it ended at, the times it lowered it */
  PetscBool          haseig;         /* plain use, cg or ours: the extreme Lanczos estimates, and ours' restarts */
  PetscReal          emin, emax;
  PetscInt64         restarts;
} Result;

/* cg with no norm does not stop at its rounding floor: it iterates on in rounding noise, which can grow its
   residual again before a breakdown ends it. This monitor keeps the least true residual it reached. */
typedef struct {
  Vec        t, v;
  PetscReal  bn;
  PetscReal *min;
} LeastRes;

static PetscErrorCode LeastResMonitor(KSP ksp, PetscInt it, PetscReal rn, void *ctx)
{
  LeastRes *m = (LeastRes *)ctx;
  Vec       r;
  PetscReal n;

  PetscFunctionBeginUser;
  (void)it;
  (void)rn;
  PetscCall(KSPBuildResidual(ksp, m->t, m->v, &r));
  PetscCall(VecNorm(r, NORM_2, &n));
  *m->min = PetscMin(*m->min, m->bn > 0 ? n / m->bn : n);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetPC(const Case *c, PC pc)
{
  PetscFunctionBeginUser;
  if (!strcmp(c->pc, "bjacobi")) {
    PetscCall(PCSetType(pc, PCBJACOBI));
  } else if (!strcmp(c->pc, "hypre")) {
    PetscCall(PCSetType(pc, "hypre"));
  } else PetscCall(PCSetType(pc, c->pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the solver's own settings on ksp (type name: cg or one of ours) */
static PetscErrorCode SetSolver(const Case *c, KSP ksp, const char *type)
{
  PetscBool ours;

  PetscFunctionBeginUser;
  if (!strcmp(type, "cgsr")) { /* PETSc's cg with one reduction per iteration (chrongear's recurrences) */
    PetscCall(KSPSetType(ksp, KSPCG));
    PetscCall(KSPCGUseSingleReduction(ksp, PETSC_TRUE));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (!strncmp(type, "pipeplcg:", 9)) { /* pipeplcg at the depth named */
    PetscCall(KSPSetType(ksp, "pipeplcg"));
    PetscCall(KSPPipeSetProgress(ksp, c->prog));
    PetscCall(KSPPipePLCGSetDepth(ksp, (PetscInt)atoi(type + 9)));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(KSPSetType(ksp, type));
  ours = (PetscBool)(!strcmp(type, "pipegropp") || !strcmp(type, "pipegv") || !strcmp(type, "pipeplcg") || !strcmp(type, "chrongear")); /* not PETSc's pipecg */
  if (ours && strcmp(type, "chrongear")) PetscCall(KSPPipeSetProgress(ksp, c->prog));
  if (!strcmp(type, "pipeplcg")) PetscCall(KSPPipePLCGSetDepth(ksp, c->depth < 0 ? PETSC_DECIDE : c->depth));
  if (ours && replace_period != PETSC_DECIDE) PetscCall(KSPPipeSetReplacePeriod(ksp, replace_period));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* v without its part in A's null space, where A has one */
static PetscErrorCode RemoveNullSpace(Mat A, Vec v)
{
  MatNullSpace nsp;

  PetscFunctionBeginUser;
  PetscCall(MatGetNullSpace(A, &nsp));
  if (nsp) PetscCall(MatNullSpaceRemove(nsp, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Solve(const Case *c, Mat A, Vec b, Vec xs, Vec x0, const char *type, Result *res)
{
  KSP       ksp;
  PC        pc;
  Vec       x, r;
  PetscReal bn, rn, en, xsn;

  PetscFunctionBeginUser;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPGetPC(ksp, &pc));
  if (c->use == USE_PLAIN) {
    PetscCall(SetSolver(c, ksp, type));
    PetscCall(SetPC(c, pc));
    PetscCall(KSPSetComputeEigenvalues(ksp, PETSC_TRUE)); /* cg records its T, ours too (no effect on the iterates) */
    PetscCall(KSPSetNormType(ksp, c->norm));
    PetscCall(KSPSetTolerances(ksp, c->rtol, c->atol, PETSC_DEFAULT, c->maxit));
    if (c->uirn) PetscCall(KSPConvergedDefaultSetUIRNorm(ksp));
  } else {
    /* the outer fgmres sees ours (or cg) as a variable preconditioner */
    PetscCall(KSPSetType(ksp, KSPFGMRES));
    PetscCall(KSPSetTolerances(ksp, c->rtol, c->atol, PETSC_DEFAULT, c->maxit));
    if (c->use == USE_PCKSP) {
      KSP inner;
      PC  ipc;
      PetscCall(PCSetType(pc, PCKSP));
      PetscCall(PCKSPGetKSP(pc, &inner));
      PetscCall(SetSolver(c, inner, type));
      PetscCall(KSPGetPC(inner, &ipc));
      PetscCall(SetPC(c, ipc));
      PetscCall(KSPSetTolerances(inner, 1e-12, 1e-50, PETSC_DEFAULT, c->inner));
    } else {
      PetscInt nl, l;
      PetscCall(PCSetType(pc, PCGAMG));
      PetscCall(PCSetUp(pc));
      PetscCall(PCMGGetLevels(pc, &nl));
      for (l = 1; l < nl; l++) {
        KSP smooth;
        PC  spc;
        PetscCall(PCMGGetSmoother(pc, l, &smooth));
        PetscCall(SetSolver(c, smooth, type));
        PetscCall(KSPGetPC(smooth, &spc));
        PetscCall(PCSetType(spc, PCJACOBI));
        PetscCall(KSPSetNormType(smooth, KSP_NORM_NONE));
        PetscCall(KSPSetConvergenceTest(smooth, KSPConvergedSkip, NULL, NULL));
        PetscCall(KSPSetTolerances(smooth, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT, c->inner));
      }
    }
  }
  PetscCall(VecDuplicate(b, &x));
  PetscCall(VecDuplicate(b, &r));
  if (c->use != USE_PLAIN) { /* ||b - A x0||, the outer tolerance's reference */
    if (c->x0rand) {
      PetscCall(MatMult(A, x0, r));
      PetscCall(VecAYPX(r, -1.0, b));
    } else PetscCall(VecCopy(b, r));
    PetscCall(VecNorm(r, NORM_2, &res->rn0));
  }
  if (c->x0rand) {
    PetscCall(VecCopy(x0, x));
    PetscCall(KSPSetInitialGuessNonzero(ksp, PETSC_TRUE));
  }
  res->resmin    = PETSC_MAX_REAL;
  LeastRes least = {NULL, NULL, 0, &res->resmin};
  if (!strcmp(type, "cg") && c->use == USE_PLAIN && (c->norm == KSP_NORM_NONE || c->rtol <= BELOW_FLOOR_RTOL)) {
    PetscCall(VecDuplicate(b, &least.t));
    PetscCall(VecDuplicate(b, &least.v));
    PetscCall(VecNorm(b, NORM_2, &least.bn));
    PetscCall(KSPMonitorSet(ksp, LeastResMonitor, &least, NULL));
  }
  /* options of the prefix fz_ (-fz_ksp_monitor_true_residual, -fz_ksp_view: a reproducer's look inside), and in every
     run, -v or not: a PC's set-from-options sets defaults of its own (gamg squares the graph on its first level
     then, and not without it: seed 93 case 204, where cg took 17 iterations in the run and 141 under -v) */
  PetscCall(KSPSetOptionsPrefix(ksp, "fz_"));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(VecDestroy(&least.t));
  PetscCall(VecDestroy(&least.v));
  PetscCall(KSPGetIterationNumber(ksp, &res->its));
  PetscCall(KSPGetConvergedReason(ksp, &res->reason));
  res->name     = type;
  res->depth    = 1;
  res->dend     = -1;
  res->dchanges = 0;
  res->restarts = 0;
  /* only where cg ended at its test (CONVERGED_RTOL) or its limit: after a breakdown, or at (r,M^{-1}r) = 0
     (CONVERGED_ATOL, whose norm may be that 0, so the norm cannot tell), PETSc 3.18's cg counts a diagonal entry
     of T it has not set (uninitialised memory, different on each rank), and its tql1 can loop forever on it
     (seed 57 cases 1450, 1454, 1466 in one process; seed 59 case 4933, CONVERGED_ATOL at a norm of 0: one rank
     hung there) */
  res->haseig = (PetscBool)(c->use == USE_PLAIN && (res->reason == KSP_CONVERGED_RTOL || res->reason == KSP_DIVERGED_ITS) && (!strcmp(type, "cg") || !strncmp(type, "pipe", 4) || !strcmp(type, "chrongear")) && strcmp(type, "pipecg"));
  if (res->haseig) PetscCall(KSPComputeExtremeSingularValues(ksp, &res->emax, &res->emin));
  if (res->haseig && strcmp(type, "cg")) {
    PipeKSPStats st;
    PetscCall(KSPPipeGetStats(ksp, &st));
    res->restarts = st.restarts + st.depth_changes;
  }
  if (!strcmp(type, "chrongear") || !strcmp(type, "cgsr")) res->depth = 0;
  if (!strncmp(type, "pipeplcg:", 9)) res->depth = PetscMax(1, atoi(type + 9));
  if (!strcmp(type, "pipeplcg") && c->use == USE_PLAIN) {
    PipeKSPStats st;
    PetscInt     l;
    PetscCall(KSPPipeGetStats(ksp, &st));
    PetscCall(KSPPipePLCGGetDepth(ksp, &l)); /* auto: the depth it chose (a breakdown lowers only the solve's) */
    res->depth    = PetscMax(l, 1);
    res->dend     = (PetscInt)st.depth;
    res->dchanges = (PetscInt)st.depth_changes;
  }
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &rn));
  PetscCall(VecNorm(b, NORM_2, &bn));
  res->res = bn > 0 ? rn / bn : rn;
  /* the monitored norm of the true residual (plain use): where it is well above the recursive one a solver
     claimed, the tolerance was below what its recurrences can attain */
  PetscCall(KSPGetResidualNorm(ksp, &res->rnorm));
  res->tnorm  = rn;
  res->resmin = PetscMin(res->resmin, res->res);
  if (c->use == USE_PLAIN && (c->norm == KSP_NORM_PRECONDITIONED || c->norm == KSP_NORM_NATURAL)) {
    Vec         z;
    PetscScalar rz;
    PetscCall(VecDuplicate(r, &z));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCApply(pc, r, z));
    if (c->norm == KSP_NORM_PRECONDITIONED) PetscCall(VecNorm(z, NORM_2, &res->tnorm));
    else {
      PetscCall(VecDot(r, z, &rz));
      res->tnorm = PetscSqrtReal(PetscAbsScalar(rz));
    }
    PetscCall(VecDestroy(&z));
  }
  /* ||x - x*||_A on A's range: x keeps x0's null-space part, which A does not see, and e'Ae with it in e is the
     rounding of A applied to that part (seed 91 case 3806: 1.84e-10 for 8.29e-12 on the range) */
  PetscCall(VecAXPY(x, -1.0, xs));
  PetscCall(RemoveNullSpace(A, x));
  PetscCall(MatMult(A, x, r));
  PetscCall(VecDot(x, r, &en));
  PetscCall(MatMult(A, xs, r));
  PetscCall(VecDot(xs, r, &xsn));
  res->aerr = PetscSqrtReal(PetscAbsReal(en) / PetscAbsReal(xsn));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&r));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef enum {
  CL_CONVERGED,
  CL_ITS,
  CL_BREAKDOWN,
  CL_OTHER
} ReasonClass;

static ReasonClass Classify(KSPConvergedReason r)
{
  if (r > 0) return CL_CONVERGED;
  if (r == KSP_DIVERGED_ITS) return CL_ITS;
  if (r == KSP_DIVERGED_INDEFINITE_PC || r == KSP_DIVERGED_INDEFINITE_MAT || r == KSP_DIVERGED_BREAKDOWN) return CL_BREAKDOWN;
  return CL_OTHER;
}

/* cg also runs on the case times each t (not powers of two, which would round alike): for every nested case,
   and for a plain one where ours miss cg's count, A-norm error or true residual. Two samples (3, 7) were too few: seed 18 case
   1032's outer count is 70 with cg, 70 and 78 on 3 b and 7 b, and 61-92 over ten scales */
static const PetscReal RoundingScales[] = {3.0, 7.0, 11.0, 13.0, 0.3, 0.7};

/* the iterations ours may take for cg's its at depth l */
static PetscReal Bound(PetscInt its, PetscInt l)
{
  return (l <= 3 ? 1.15 : 1.5) * its + l;
}

static void CaseLine(const Case *c, char *buf, size_t len)
{
  PetscSNPrintf(buf, len, "family=%s n=%" PetscInt_FMT " bs=%" PetscInt_FMT " param=%.4g pc=%s norm=%s rtol=%.3g atol=%.3g maxit=%" PetscInt_FMT " x0=%s uirn=%d progress=%s depth=%" PetscInt_FMT " use=%s inner=%" PetscInt_FMT " few=%" PetscInt_FMT, FamName(c), c->n, c->bs,
                (double)c->param, c->pc, normname[c->norm], (double)c->rtol, (double)c->atol, c->maxit, c->x0rand ? "random" : "zero", (int)c->uirn, PipeKSPProgressTypes[c->prog], c->depth, usename[c->use], c->inner, c->few);
}

/* the kind of a miss that cg's spread on t b judges: a count, an A-norm error, or a true residual (NULL: none
   of those, e.g. another class of reason) */
static const char *SpreadKind(const char *msg)
{
  const char *spread = strstr(msg, "; cg on t b:"), *kinds[] = {"iterations, cg", "more than 10x", "at cg's floor", "A-norm"};

  for (size_t k = 0; k < PETSC_STATIC_ARRAY_LENGTH(kinds); k++) {
    const char *at = strstr(msg, kinds[k]);
    if (at && (!spread || at < spread)) return kinds[k];
  }
  return NULL;
}

/* a miss that is a known open item, reported as FUZZXFAIL and counted apart, not hidden: the iterations or the
   capped A-norm error of p(l)-CG's deep basis (pipeplcg at depths >= 2), and the iterations at a tolerance of
   1e-12 or tighter, where a rounding decides how long any CG variant's Lanczos process is delayed */
static PetscBool KnownOpen(const Case *c, const Result *o, const char *msg)
{
  const char *kind = SpreadKind(msg); /* the miss itself, not the text of cg's spread after it */
  PetscBool   its = (PetscBool)(kind && !strcmp(kind, "iterations, cg")), anorm = (PetscBool)(kind && !strcmp(kind, "A-norm"));
  if (!strncmp(o->name, "pipeplcg", 8) && o->depth >= 2 && (its || anorm || strstr(msg, "iterations where cg took"))) return PETSC_TRUE;
  return (PetscBool)(its && c->rtol <= 1e-12);
}

/* the eigenvalue estimates' agreement with cg's: the top relative, the bottom within a factor */
#define EIG_TOP_RTOL      1e-2
#define EIG_BOTTOM_FACTOR 2.0

/* at cg's floor (its claim above its true residual) and an rtol below it (-below_floor), ours converge within
   FLOOR_ITS_FACTOR cg's iterations, plus FLOOR_ITS_EXTRA and the depth (as tests/ex4.c's -below_floor_factor, whose
   bound has no depth) */
#define FLOOR_ITS_FACTOR 1.4
#define FLOOR_ITS_EXTRA  10

static PetscReal FloorBound(PetscInt its, PetscInt l)
{
  return FLOOR_ITS_FACTOR * its + FLOOR_ITS_EXTRA + l;
}

/* the contract for ours (o) against cg (g); msg: why not */
static PetscBool Check(const Case *c, const Result *g, const Result *o, PetscInt N, char *msg, size_t len)
{
  ReasonClass cg = Classify(g->reason), co = Classify(o->reason);
  PetscReal   floor = 100 * PETSC_MACHINE_EPSILON * PetscSqrtReal((PetscReal)N); /* a relative residual rounding can give */

  msg[0] = 0;
  if (c->use != USE_PLAIN) {
    PetscReal lim = 1.1 * g->its + 1;
    if (co != CL_CONVERGED && cg == CL_CONVERGED) {
      PetscSNPrintf(msg, len, "outer %s with %s inside, converged with cg", KSPConvergedReasons[o->reason], o->name);
      return PETSC_FALSE;
    }
    if (cg == CL_CONVERGED && g->itsp >= 0 && PetscAbsInt(g->itsp - g->its) > 0.1 * g->its + 1) {
      /* rounding alone moves cg's own outer count out of the band (an inner solve far from converged, whose
         rounding the outer Krylov method amplifies): the count is no oracle there, nor how far cg's last step
         overshot the tolerance; the outer accuracy is: within 10x cg's, or the tolerance asked for met */
      if (o->res <= 10 * PetscMax(g->res, floor) || o->tnorm <= 2 * PetscMax(c->rtol * o->rn0, c->atol)) return PETSC_TRUE;
      PetscSNPrintf(msg, len, "outer true residual %.3g with %s inside, %.3g with cg (whose outer iterations rounding alone moves from %" PetscInt_FMT " to %" PetscInt_FMT ")", (double)o->res, o->name, (double)g->res, g->its, g->itsp);
      return PETSC_FALSE;
    }
    if (cg == CL_CONVERGED && (o->its > lim || o->its < g->its / 1.1 - 1)) {
      PetscSNPrintf(msg, len, "outer iterations %" PetscInt_FMT " with %s inside, %" PetscInt_FMT " with cg", o->its, o->name, g->its);
      return PETSC_FALSE;
    }
    return PETSC_TRUE;
  }
  if (cg == CL_CONVERGED && c->norm != KSP_NORM_NONE && g->tnorm > 2 * g->rnorm) {
    /* cg's own claim was false: its true residual is above twice the norm it claimed, the tolerance below
       what its recurrences attain. Its iteration count is no oracle there (a rounding decides it); its
       accuracy is: ours converged or capped, no worse than 10x cg's true residual */
    if ((co == CL_CONVERGED || co == CL_ITS) && o->res <= 10 * PetscMax(g->res, floor)) {
      /* below the floor cg's count is its recursion's descent to the tolerance: ours converge at the floor sooner
         or within a margin of it (a restart there loses the Krylov space) */
      if (co != CL_CONVERGED || c->rtol > BELOW_FLOOR_RTOL || o->its <= FloorBound(g->its, o->depth)) return PETSC_TRUE;
      PetscSNPrintf(msg, len, "at cg's floor: %s needed %" PetscInt_FMT " iterations where cg took %" PetscInt_FMT " (bound %.1f)", o->name, o->its, g->its, (double)FloorBound(g->its, o->depth));
      return PETSC_FALSE;
    }
    PetscSNPrintf(msg, len, "at cg's floor: %s ended %s after %" PetscInt_FMT " with true residual %.3g, cg %s after %" PetscInt_FMT " with %.3g", o->name, KSPConvergedReasons[o->reason], o->its, (double)o->res, KSPConvergedReasons[g->reason], g->its,
                  (double)g->res);
    return PETSC_FALSE;
  }
  if (cg == CL_BREAKDOWN && (co == CL_ITS || co == CL_CONVERGED) && g->res <= 1e3 * floor && o->res <= 10 * PetscMax(g->res, floor)) return PETSC_TRUE; /* cg broke down at its rounding floor (a singular M or A there), ours reached its accuracy */
  /* with no norm cg runs into its floor and ends past it by chance (the limit, beta = 0, a rounding sign flip,
     or (p, Ap) <= 0 once the noise it iterates on has grown its residual again: Neumann with hypre, where
     cg's residual went from 2e-16 back up to 1e-8); ours stop at the floor with cg's beta = 0 reason: the
     same end when cg reached the floor (resmin) and ours' accuracy is cg's */
  if (c->norm == KSP_NORM_NONE && co == CL_CONVERGED && (cg == CL_ITS || cg == CL_BREAKDOWN) && o->res <= 10 * PetscMax(g->res, floor) && g->resmin <= 1e3 * floor) return PETSC_TRUE;
  /* so does a tolerance below the floor (-below_floor) that cg's recursion had not met when a (p, Ap) <= 0 of its
     noise ended it (Neumann with gamg at rtol 7e-20: cg DIVERGED_INDEFINITE_MAT at 77, its true residual grown from
     the floor to 1e-8): ours converged at cg's least */
  if (c->rtol <= BELOW_FLOOR_RTOL && co == CL_CONVERGED && cg == CL_BREAKDOWN && g->resmin <= 1e3 * floor && o->res <= 10 * PetscMax(g->resmin, floor)) return PETSC_TRUE;
  /* converged at the last iteration cg ran, where cg was capped: which side of the tolerance that iteration's
     norm falls on is rounding (seed 25 case 2327: cg 3.26e-10, PETSc's single-reduction cg 2.80e-10, chrongear
     2.63e-10 against a tolerance between the last two); the same iteration, so judged as capped, below */
  if (cg != co && !(cg == CL_ITS && co == CL_CONVERGED && o->its == g->its)) {
    /* near the limit the bound lets ours need more than cg: capped where cg converged within it */
    if (cg == CL_CONVERGED && co == CL_ITS && c->maxit < Bound(g->its, o->depth)) return PETSC_TRUE;
    if (cg == CL_CONVERGED && co == CL_ITS) { /* capped with the limit at or past the bound: a count miss */
      PetscSNPrintf(msg, len, "%s capped at %" PetscInt_FMT " iterations, cg %" PetscInt_FMT " (bound %.1f at depth %" PetscInt_FMT ")", o->name, o->its, g->its, (double)Bound(g->its, o->depth), o->depth);
      return PETSC_FALSE;
    }
    PetscSNPrintf(msg, len, "%s ended %s after %" PetscInt_FMT ", cg %s after %" PetscInt_FMT, o->name, KSPConvergedReasons[o->reason], o->its, KSPConvergedReasons[g->reason], g->its);
    return PETSC_FALSE;
  }
  if (cg == CL_CONVERGED) {
    if (o->its > Bound(g->its, o->depth)) {
      PetscSNPrintf(msg, len, "%s took %" PetscInt_FMT " iterations, cg %" PetscInt_FMT " (bound %.1f at depth %" PetscInt_FMT ")", o->name, o->its, g->its, (double)Bound(g->its, o->depth), o->depth);
      return PETSC_FALSE;
    }
    if (o->res > 10 * PetscMax(g->res, floor)) {
      PetscSNPrintf(msg, len, "%s true residual %.3g, cg %.3g (more than 10x)", o->name, (double)o->res, (double)g->res);
      return PETSC_FALSE;
    }
  }
  if (cg == CL_ITS && o->aerr > 1.1 * g->aerr + floor) {
    PetscSNPrintf(msg, len, "%s %s %" PetscInt_FMT " with A-norm error %.3g, cg %.3g (ratio %.3g)", o->name, co == CL_ITS ? "capped at" : "converged at cg's limit", o->its, (double)o->aerr, (double)g->aerr, (double)(o->aerr / g->aerr));
    return PETSC_FALSE;
  }
  /* the eigenvalue estimates: with cg's iterations and no restart, cg's T_its. Its top Ritz value converges
     first and rounding moves it little; the bottom one converges last, and on wide spectra without a PC the
     recurrences' rounding moves it by up to 20% (seed 57: pipegv 441 where cg has 368), so only a factor of two
     there, a Ritz value outside the spectrum (a deep basis's lost orthogonality). Not where cg's residual
     reached the floor: T's later entries are rounding in both (seed 61 case 828, capped at 32 with norm none
     past a residual of 1e-17: cg's top 1.84, groppcg's and ours 4.21) */
  if (o->haseig && g->haseig && o->its == g->its && o->its >= 2 && !o->restarts && g->resmin > floor && g->emax > 0 && g->emin > 0 && (PetscAbsReal(o->emax - g->emax) > EIG_TOP_RTOL * g->emax || !(o->emin >= g->emin / EIG_BOTTOM_FACTOR && o->emin <= EIG_BOTTOM_FACTOR * g->emin))) {
    PetscSNPrintf(msg, len, "%s eigenvalue estimates [%.6g, %.6g] at %" PetscInt_FMT " its; cg's [%.6g, %.6g]", o->name, (double)o->emin, (double)o->emax, o->its, (double)g->emin, (double)g->emax);
    return PETSC_FALSE;
  }
  return PETSC_TRUE;
}

/* -table: the capped solves (-ksp_max_it 1..10) on the cube and ex2, the A-norm error of each of ours over
   cg's (goal <= 1.1), and the nested uses (inside PCKSP with -ksp_max_it 5, as 3-step smoothers of gamg): the
   outer iterations over cg's inside (goal within 10%). A FAIL line for each miss. */
static PetscErrorCode Table(char **list, PetscInt nsol)
{
  const Family fams[2] = {FAM_CUBE, FAM_EX2};
  PetscInt     fails   = 0;

  PetscFunctionBeginUser;
  for (PetscInt f = 0; f < 2; f++) {
    Case c;
    Rng  r = {7};
    Mat  A;
    Vec  xs, b, x0;

    PetscCall(PetscMemzero(&c, sizeof(c)));
    c.fam   = fams[f];
    c.n     = f == 0 ? 7 : 24;
    c.param = 0.3;
    c.norm  = KSP_NORM_PRECONDITIONED;
    c.rtol  = 1e-12;
    c.atol  = 1e-50;
    c.prog  = PIPEKSP_PROGRESS_AUTO;
    c.depth = -1;
    PetscCall(PetscStrncpy(c.pc, "jacobi", sizeof(c.pc)));
    c.use = USE_MG; /* an AIJ cube, which gamg takes */
    PetscCall(BuildMatrix(&c, &r, &A));
    PetscCall(MatCreateVecs(A, &xs, &b));
    PetscCall(VecDuplicate(b, &x0));
    PetscCall(VecSet(xs, 1.0));
    PetscCall(MatMult(A, xs, b));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "capped solves on %s (jacobi): A-norm error of ours / cg's at -ksp_max_it k\n%-10s", famname[c.fam], "k"));
    for (PetscInt s2 = 0; s2 < nsol; s2++) PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %10s", list[s2]));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n"));
    for (PetscInt k = 1; k <= 10; k++) {
      Result g, o;
      c.maxit = k;
      c.use   = USE_PLAIN;
      PetscCall(Solve(&c, A, b, xs, x0, "cg", &g));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-10" PetscInt_FMT, k));
      for (PetscInt s2 = 0; s2 < nsol; s2++) {
        PetscReal q;
        PetscCall(Solve(&c, A, b, xs, x0, list[s2], &o));
        q = o.aerr / g.aerr;
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %10.4f", (double)q));
        if (!(q <= 1.1)) fails++;
      }
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n"));
    }
    for (Use u = USE_PCKSP; u <= USE_MG; u++) {
      Result g, o;
      c.use   = u;
      c.inner = u == USE_PCKSP ? 5 : 3;
      c.rtol  = 1e-8;
      c.maxit = 500;
      PetscCall(Solve(&c, A, b, xs, x0, "cg", &g));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "nested %s (%" PetscInt_FMT " inner steps) on %s: outer iterations with cg inside %" PetscInt_FMT ";", usename[u], c.inner, famname[c.fam], g.its));
      for (PetscInt s2 = 0; s2 < nsol; s2++) {
        PetscCall(Solve(&c, A, b, xs, x0, list[s2], &o));
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %s %" PetscInt_FMT, list[s2], o.its));
        if (o.reason <= 0 || PetscAbsReal((PetscReal)(o.its - g.its)) > 0.1 * g.its + 1) fails++;
      }
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n"));
    }
    PetscCall(VecDestroy(&xs));
    PetscCall(VecDestroy(&b));
    PetscCall(VecDestroy(&x0));
    PetscCall(MatDestroy(&A));
  }
  if (fails) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL: %" PetscInt_FMT " entries outside the goal (A-norm ratio <= 1.1, outer iterations within 10%% + 1)\n", fails));
  else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "all checks passed\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the case times t (t b, t x*, t x0, t atol: the same iterates times t in exact arithmetic, other roundings)
   solved with type; w: three work vectors like b */
static PetscErrorCode SolveScaled(const Case *c, PetscReal t, Mat A, Vec b, Vec xs, Vec x0, const char *type, Vec w[3], Result *res)
{
  Case ct = *c;

  PetscFunctionBeginUser;
  ct.atol *= t;
  PetscCall(VecAXPBY(w[0], t, 0.0, b));
  PetscCall(VecAXPBY(w[1], t, 0.0, xs));
  PetscCall(VecAXPBY(w[2], t, 0.0, x0));
  PetscCall(Solve(&ct, A, w[0], w[1], w[2], type, res));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* cg on the case times each t of RoundingScales (SolveScaled()). g->itsp: the outer count farthest from cg's
   (nested). gmax (plain, if given):
   cg's result with the largest iteration count, A-norm error and true residual over g and those of the runs
   that end in g's reason class, the farthest cg's own rounding goes (no eigenvalue estimates: g's are of g's
   count) */
static PetscErrorCode CgScaled(const Case *c, Mat A, Vec b, Vec xs, Vec x0, Result *g, Result *gmax)
{
  Vec *w;

  PetscFunctionBeginUser;
  if (gmax) {
    *gmax        = *g;
    gmax->haseig = PETSC_FALSE; /* g's estimates are of g's count, not of the spread's (seed 65 case 4048: ours at
                                   62 its, within the spread, were held to cg's Ritz values at 48) */
  }
  PetscCall(VecDuplicateVecs(b, 3, &w));
  for (PetscInt it = 0; it < (PetscInt)PETSC_STATIC_ARRAY_LENGTH(RoundingScales); it++) {
    Result gt;

    PetscCall(SolveScaled(c, RoundingScales[it], A, b, xs, x0, "cg", w, &gt));
    if (g->itsp < 0 || PetscAbsInt(gt.its - g->its) > PetscAbsInt(g->itsp - g->its)) g->itsp = gt.its;
    if (gmax && Classify(gt.reason) == Classify(g->reason)) {
      gmax->its  = PetscMax(gmax->its, gt.its);
      gmax->aerr = PetscMax(gmax->aerr, gt.aerr);
      gmax->res  = PetscMax(gmax->res, gt.res);
    }
  }
  PetscCall(VecDestroyVecs(3, &w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PETSc's implementation cp of the method on the case times each t of RoundingScales, as cg's spread above
   (cc: the case as cp runs it): *tmiss, the first t where it misses the contract against gref (cg's spread)
   with a miss of our miss's kind (SpreadKind()), 0: none. Such a miss of ours is the method's
   rounding as well (issue_cases.py tspread) */
static PetscErrorCode CounterpartScaled(const Case *c, const Case *cc, Mat A, Vec b, Vec xs, Vec x0, const char *cp, const Result *gref, PetscInt depth, PetscInt N, const char *kind, PetscReal *tmiss)
{
  Vec *w;
  char m[512];

  PetscFunctionBeginUser;
  *tmiss = 0;
  PetscCall(VecDuplicateVecs(b, 3, &w));
  for (PetscInt it = 0; it < (PetscInt)PETSC_STATIC_ARRAY_LENGTH(RoundingScales) && !*tmiss; it++) {
    Result pr;

    PetscCall(SolveScaled(cc, RoundingScales[it], A, b, xs, x0, cp, w, &pr));
    pr.depth = depth;
    if (!Check(c, gref, &pr, N, m, sizeof(m)) && strstr(m, kind)) *tmiss = RoundingScales[it];
  }
  PetscCall(VecDestroyVecs(3, &w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PETSc's own implementation of the method one of ours ran (NULL: none): pipegv's recurrences are pipecg's,
   chrongear's cg -ksp_cg_single_reduction's, pipegropp's groppcg's; pipeplcg's those of the depth it ran
   throughout, when 0 (Gropp's) or 1 (pipegv's; no user interval in the fuzzer). A miss that PETSc's
   implementation shares is the method's rounding, not ours; one it does not share is a defect of ours */
static const char *Counterpart(const Result *o)
{
  if (!strcmp(o->name, "pipegv")) return "pipecg";
  if (!strcmp(o->name, "chrongear")) return "cgsr";
  if (!strcmp(o->name, "pipegropp")) return "groppcg";
  if (!strncmp(o->name, "pipeplcg", 8) && o->dchanges == 0 && (o->dend == 0 || o->dend == 1)) return o->dend == 0 ? "groppcg" : "pipecg";
  return NULL;
}

int main(int argc, char **argv)
{
  PetscInt    seed = 1, first = 0, ncases = 1, nsol = 0, ks[1024], nk = 1024;
  PetscBool   haslist;
  char        solvers[256] = "pipegropp,pipegv,chrongear,pipeplcg", *list[8], *tok;
  PetscBool   verbose      = PETSC_FALSE;
  PetscMPIInt size;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(PipeKSPInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-seed", &seed, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-case", &first, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-ncases", &ncases, NULL));
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-caselist", ks, &nk, &haslist));
  if (!haslist) {
    nk = PetscMin(ncases, 1024);
    for (PetscInt i = 0; i < nk; i++) ks[i] = first + i;
  }
  PetscCall(PetscOptionsGetString(NULL, NULL, "-solvers", solvers, sizeof(solvers), NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-v", &verbose, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-replace", &replace_period, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-few_distinct", &few_distinct, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-below_floor", &below_floor, NULL));
  PetscCall(PetscSNPrintf(flags, sizeof(flags), "%s%s", few_distinct ? " -few_distinct" : "", below_floor ? " -below_floor" : ""));
  for (tok = strtok(solvers, ","); tok && nsol < 8; tok = strtok(NULL, ",")) list[nsol++] = tok;
  {
    PetscBool table = PETSC_FALSE;
    PetscCall(PetscOptionsGetBool(NULL, NULL, "-table", &table, NULL));
    if (table) {
      PetscCall(Table(list, nsol));
      PetscCall(PetscFinalize());
      return 0;
    }
  }

  for (PetscInt ik = 0; ik < nk; ik++) {
    PetscInt       k = ks[ik];
    Case           c;
    Rng            r;
    Mat            A;
    Vec            xs, b, x0;
    Result         g, o;
    PetscRandom    rnd;
    PetscLogDouble t0, t1;
    char           line[512], msg[512];
    PetscBool      ok = PETSC_TRUE, pass, spread = PETSC_FALSE;
    PetscInt       N, nx = 0;
    Result         gmax;

    PetscCall(PetscTime(&t0));
    PetscCall(DrawCase(seed, k, size, &c));
    r.s = (unsigned long long)seed * 7919ULL + (unsigned long long)k;
    PetscCall(BuildMatrix(&c, &r, &A));
    PetscCall(MatGetSize(A, &N, NULL));
    PetscCall(MatCreateVecs(A, &xs, &b));
    PetscCall(VecDuplicate(b, &x0));
    PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
    PetscCall(PetscRandomSetSeed(rnd, (unsigned long)(seed * 31 + k)));
    PetscCall(PetscRandomSeed(rnd));
    PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
    PetscCall(VecSetRandom(xs, rnd));
    PetscCall(VecSetRandom(x0, rnd));
    PetscCall(PetscRandomDestroy(&rnd));
    PetscCall(RemoveNullSpace(A, xs));
    PetscCall(MatMult(A, xs, b));
    CaseLine(&c, line, sizeof(line));
    PetscCall(Solve(&c, A, b, xs, x0, "cg", &g));
    g.itsp = -1;
    if (c.use != USE_PLAIN) PetscCall(CgScaled(&c, A, b, xs, x0, &g, NULL));
    if (verbose) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  cg: %s its %" PetscInt_FMT " res %.3g (least %.3g) aerr %.3g\n", KSPConvergedReasons[g.reason], g.its, (double)g.res, (double)g.resmin, (double)g.aerr));
    if (verbose && g.itsp >= 0) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  cg on t b (RoundingScales): %" PetscInt_FMT " outer iterations (the farthest)\n", g.itsp));
    for (PetscInt s = 0; s < nsol; s++) {
      PetscCall(Solve(&c, A, b, xs, x0, list[s], &o));
      if (verbose) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %s: %s its %" PetscInt_FMT " res %.3g aerr %.3g depth %" PetscInt_FMT "\n", list[s], KSPConvergedReasons[o.reason], o.its, (double)o.res, (double)o.aerr, o.depth));
      pass = Check(&c, &g, &o, N, msg, sizeof(msg));
      if (!pass && c.use == USE_PLAIN && SpreadKind(msg)) {
        /* a miss in count, A-norm error or true residual: against cg's own rounding (cg on t b, the farthest
           count, A-norm error and true residual of the same class of reason), computed once per case. A cg that
           converges at an invariant space ends far below the tolerance (seed 70 case 2294 with -few_distinct:
           1.8e-16 at 4, where chrongear met the tolerance at 3 with 2.07e-10) */
        char m2[512];
        if (!spread) {
          PetscCall(CgScaled(&c, A, b, xs, x0, &g, &gmax));
          spread = PETSC_TRUE;
          if (verbose) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  cg on t b (RoundingScales): up to %" PetscInt_FMT " iterations, A-norm error up to %.3g, true residual up to %.3g\n", gmax.its, (double)gmax.aerr, (double)gmax.res));
        }
        if (Check(&c, &gmax, &o, N, m2, sizeof(m2))) {
          PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FUZZSPREAD family=%s solver=%s %s, within cg's own on t b (up to %" PetscInt_FMT " iterations, A-norm error %.3g, true residual %.3g) | reproduce: mpiexec -n %d pipefuzz -seed %" PetscInt_FMT " -case %" PetscInt_FMT " -solvers %s%s -v\n", FamName(&c), list[s], msg,
                                gmax.its, (double)gmax.aerr, (double)gmax.res, size, seed, k, list[s], flags));
          msg[0] = 0;
        } else {
          size_t l = strlen(msg);

          if (verbose) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  against cg's spread: %s\n", m2));
          PetscCall(PetscSNPrintf(msg + l, sizeof(msg) - l, "; cg on t b: up to %" PetscInt_FMT " iterations, A-norm error %.3g, true residual %.3g", gmax.its, (double)gmax.aerr, (double)gmax.res));
        }
      }
      if (msg[0] && KnownOpen(&c, &o, msg)) {
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FUZZXFAIL family=%s solver=%s %s | %s | reproduce: mpiexec -n %d pipefuzz -seed %" PetscInt_FMT " -case %" PetscInt_FMT " -solvers %s%s -v\n", FamName(&c), list[s], msg, line, size, seed, k, list[s], flags));
        nx++;
      } else if (msg[0]) {
        const char *cp     = c.use == USE_PLAIN ? Counterpart(&o) : NULL;
        char        sh[96] = "";

        ok = PETSC_FALSE;
        if (cp) { /* the same contract for PETSc's implementation of the method, against cg and its spread */
          Result      pr;
          char        m2[512];
          Case        cc   = c;
          const char *kind = SpreadKind(msg);

          if (!strcmp(cp, "pipecg") && cc.maxit > 0) cc.maxit--; /* PETSc's pipecg runs -ksp_max_it + 1 iterations */
          PetscCall(Solve(&cc, A, b, xs, x0, cp, &pr));
          if (verbose) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %s (PETSc's %s's method): %s its %" PetscInt_FMT " res %.3g aerr %.3g\n", cp, list[s], KSPConvergedReasons[pr.reason], pr.its, (double)pr.res, (double)pr.aerr));
          pr.depth = o.depth;
          if (!Check(&c, spread ? &gmax : &g, &pr, N, m2, sizeof(m2))) PetscCall(PetscSNPrintf(sh, sizeof(sh), " shared=%s", cp));
          else if (spread && kind) {
            /* our miss is of a kind the spread judges (computed once a case, maybe for another solver's miss) */
            PetscReal tmiss;

            PetscCall(CounterpartScaled(&c, &cc, A, b, xs, x0, cp, &gmax, o.depth, N, kind, &tmiss));
            if (tmiss > 0) PetscCall(PetscSNPrintf(sh, sizeof(sh), " shared=%s(on %g b)", cp, (double)tmiss));
          }
        }
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FUZZFAIL family=%s solver=%s%s %s | %s | reproduce: mpiexec -n %d pipefuzz -seed %" PetscInt_FMT " -case %" PetscInt_FMT " -solvers %s%s -v\n", FamName(&c), list[s], sh, msg, line, size, seed, k, list[s], flags));
      }
    }
    PetscCall(PetscTime(&t1));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FUZZCASE %" PetscInt_FMT " family=%s pc=%s use=%s np=%d verdict=%s xfail=%" PetscInt_FMT " seconds=%.3f cg=%s:%" PetscInt_FMT "\n", k, FamName(&c), c.pc, usename[c.use], size, ok ? "ok" : "fail", nx, (double)(t1 - t0), KSPConvergedReasons[g.reason], g.its));
    PetscCall(VecDestroy(&xs));
    PetscCall(VecDestroy(&b));
    PetscCall(VecDestroy(&x0));
    PetscCall(MatDestroy(&A));
  }
  PetscCall(PetscFinalize());
  return 0;
}
