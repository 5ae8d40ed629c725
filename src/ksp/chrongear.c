/* KSP chrongear: Chronopoulos-Gear CG (docs/algorithms.md, section 1). One blocking reduction per
   iteration with gamma = (r,u), delta = (w,u) and the norm packed; the 4 updates share one pass. */
#include <pipeksp/pipeguard.h>
#include <pipeksp/threadsimpl.h>

enum {
  CG_R,
  CG_U,
  CG_W,
  CG_P,
  CG_S,
  CG_NWORK
};
/* the one packed reduction: PipeKSPVecLocalDots_Private()'s four, then the sizes for the gap bounds, which the
   fused update computes (in this order) */
enum {
  CG_RED_GAMMA = PIPEKSP_DOT_RU, /* (r,u) */
  CG_RED_DELTA = PIPEKSP_DOT_WU, /* (w,u) */
  CG_RED_RR    = PIPEKSP_DOT_RR,
  CG_RED_UU    = PIPEKSP_DOT_UU,
  CG_RED_XX    = PIPEKSP_NDOTS,
  CG_RED_PP,
  CG_RED_N
};
#define CG_FUSED_N (CG_RED_N - CG_RED_XX) /* what the fused update computes: (x,x), (p,p) */

static PetscErrorCode KSPSetUp_ChronGear(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPPipeSetUpWork_Private(ksp, CG_NWORK + 1)); /* and Gropp's sixth: its CG takes over at the Krylov space's end */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* p = u + beta p; s = w + beta s; x += alpha p; r -= alpha s (first: p = u, s = w); local (x,x) and
   (p,p) for the gap bounds, carried by the next reduction. One block of the pass: the blocks run on the
   process's threads and their sums are added in block order, so results do not depend on the threads. */
typedef struct {
  PetscBool          first;
  PetscScalar        alpha, beta;
  PetscScalar       *x, *r, *p, *s;
  const PetscScalar *u, *w;
} FusedCtx;

static void FusedBlock(const void *ctx, PetscInt i0, PetscInt i1, PetscScalar *d)
{
  const FusedCtx   *c     = (const FusedCtx *)ctx;
  const PetscScalar alpha = c->alpha, beta = c->beta, *u = c->u, *w = c->w;
  PetscScalar      *x = c->x, *r = c->r, *p = c->p, *s = c->s, xx = 0, pp = 0;

  for (PetscInt i = i0; i < i1; i++) {
    if (c->first) {
      p[i] = u[i];
      s[i] = w[i];
    } else {
      p[i] = u[i] + beta * p[i];
      s[i] = w[i] + beta * s[i];
    }
    x[i] += alpha * p[i];
    r[i] -= alpha * s[i];
    xx += x[i] * PetscConj(x[i]);
    pp += p[i] * PetscConj(p[i]);
  }
  d[CG_RED_XX - CG_RED_XX] = xx; /* d is the reduction's buffer from CG_RED_XX on */
  d[CG_RED_PP - CG_RED_XX] = pp;
}

/* writes loc[CG_RED_XX], loc[CG_RED_PP] */
static PetscErrorCode FusedUpdate(KSP ksp, PetscBool first, PetscScalar alpha, PetscScalar beta, PetscScalar loc[CG_RED_N])
{
  Vec     *v = ksp->work;
  FusedCtx c = {first, alpha, beta, NULL, NULL, NULL, NULL, NULL, NULL};
  PetscInt n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(ksp->vec_sol, &n));
  PetscCall(VecGetArray(ksp->vec_sol, &c.x));
  PetscCall(VecGetArray(v[CG_R], &c.r));
  PetscCall(VecGetArray(v[CG_P], &c.p));
  PetscCall(VecGetArray(v[CG_S], &c.s));
  PetscCall(VecGetArrayRead(v[CG_U], &c.u));
  PetscCall(VecGetArrayRead(v[CG_W], &c.w));
  PetscCall(PipeKSPThreadedBlocks_Private(PipeKSPThreadsFor_Private(n), n, CG_FUSED_N, FusedBlock, &c, 12.0, &loc[CG_RED_XX]));
  PetscCall(VecRestoreArray(ksp->vec_sol, &c.x));
  PetscCall(VecRestoreArray(v[CG_R], &c.r));
  PetscCall(VecRestoreArray(v[CG_P], &c.p));
  PetscCall(VecRestoreArray(v[CG_S], &c.s));
  PetscCall(VecRestoreArrayRead(v[CG_U], &c.u));
  PetscCall(VecRestoreArrayRead(v[CG_W], &c.w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the iterations from iteration i on, the start's r = b - A x in the work vectors */
static PetscErrorCode ChronGearIterate(KSP ksp, Mat A, PetscInt i)
{
  KSP_Pipe   *pipe = (KSP_Pipe *)ksp->data;
  PipeKSPRed  red;
  Vec        *v, X;
  PetscScalar loc[CG_RED_N], glob[CG_RED_N], gamma, delta;
  KSPPipeCoef coef = {0.0, 0.0, 0.0, 0.0, 0.0};
  PetscReal   rn, un, xn, pn;
  PetscBool   restart, stop, replace, end;

  PetscFunctionBegin;
  red = pipe->red;
  v   = ksp->work;
  X   = ksp->vec_sol;
  PetscCall(PipeKSPVecLocalNormSq_Private(X, &loc[CG_RED_XX]));
  loc[CG_RED_PP] = 0.0;
  for (;;) {
    PetscCall(KSPPipePCApplyLoop_Private(ksp, v[CG_R], v[CG_U])); /* u = M^{-1} r */
    PetscCall(KSPPipeMatMult_Private(ksp, A, v[CG_U], v[CG_W]));  /* w = A u */
    PetscCall(PipeKSPVecLocalDots_Private(v[CG_R], v[CG_U], v[CG_W], PETSC_TRUE, loc));
    /* the one blocking reduction */
    PetscCall(PipeKSPRedStart_Private(red, CG_RED_N, loc));
    PetscCall(PipeKSPRedWait_Private(red, glob));
    gamma = glob[CG_RED_GAMMA];
    delta = glob[CG_RED_DELTA];
    KSPPipeCheckNorm_Private(ksp, glob[CG_RED_RR], glob[CG_RED_UU], gamma);
    KSPCheckDot(ksp, gamma);
    KSPCheckDot(ksp, delta);
    un         = PetscSqrtReal(PetscAbsScalar(glob[CG_RED_UU]));
    rn         = PetscSqrtReal(PetscAbsScalar(glob[CG_RED_RR]));
    xn         = PetscSqrtReal(PetscAbsScalar(glob[CG_RED_XX]));
    pn         = PetscSqrtReal(PetscAbsScalar(glob[CG_RED_PP]));
    coef.delta = delta;
    PetscCall(KSPPipeTestIteration_Private(ksp, i, glob[CG_RED_RR], glob[CG_RED_UU], gamma, rn, xn, &coef, &stop, &restart));
    if (stop) break;
    if (restart) { /* round-off broke the recurrences: start them again from b - A x (s, w are free) */
      PetscCall(KSPPipeBreakCheckPAp_Private(ksp, A, coef.beta, v[CG_U], v[CG_P], v[CG_S], v[CG_W], NULL));
      PetscCall(KSPPipeTrueResidual_Private(ksp, A, v[CG_R]));
      continue;
    }
    PetscCall(FusedUpdate(ksp, pipe->guard.restart, coef.alpha, coef.beta, loc));
    KSPPipeGapUpdate_Private(ksp, PETSC_FALSE, coef.alpha, pipe->guard.restart ? 0.0 : coef.beta, rn, xn, un, pipe->guard.restart ? un : pn, 0.0);
    KSPPipeLanczosCG_Private(ksp, coef.alpha, pipe->guard.restart ? 0.0 : coef.beta);
    pipe->guard.restart = PETSC_FALSE;
    coef.gammaold       = gamma;
    coef.alphaold       = coef.alpha;
    i++;
    PetscCall(KSPPipeKrylovEnd_Private(ksp, i, &end));
    if (end) { /* at the Krylov space's end: Gropp's CG for the rest */
      PetscCall(KSPPipeGroppContinue_Private(ksp, A, i, PETSC_FALSE, PIPE_KRYLOV_END_WHY));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    PetscCall(KSPPipeReplaceNow_Private(ksp, i, rn, &replace));
    if (replace) { /* true residual; s = A p keeps the recurrence consistent */
      PetscCall(KSPPipeTrueResidual_Private(ksp, A, v[CG_R]));
      PetscCall(KSPPipeMatMult_Private(ksp, A, v[CG_P], v[CG_S]));
      pipe->guard.truenow = PETSC_TRUE;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ChronGearSolve(KSP ksp)
{
  Mat A;

  PetscFunctionBegin;
  PetscCall(KSPPipeSolveStart_Private(ksp, &A));
  PetscCall(KSPPipeResidual_Private(ksp, A, ksp->work[CG_R])); /* r = b - A x */
  PetscCall(ChronGearIterate(ksp, A, 0));
  PetscCall(KSPPipeSolveEnd_Private(ksp, A, ksp->work[CG_U]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the layouts checked first; an error inside leaves PC and b as a finished solve would (src/ksp/pipecommon.c) */
static PetscErrorCode KSPSolve_ChronGear(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPPipeSolveEntry_Private(ksp, ChronGearSolve));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   KSPCHRONGEAR - "chrongear": Chronopoulos-Gear preconditioned CG, one blocking reduction per
   iteration (gamma, delta and the norm packed into one MPI_Allreduce).

   Options Database Keys:
+  -ksp_pipe_replace <auto,n,0> - recompute r = b - A x every n iterations, or never (0, and auto, the default: these recurrences drift as cg's)
-  -ksp_pipe_progress, -ksp_pipe_poll_interval - validated, but do not apply: the one reduction is blocking (-ksp_view says so)

   Notes:
   This is the method behind PETSc's -ksp_cg_single_reduction (`KSPCGUseSingleReduction()`). What this
   type adds: residual replacement (-ksp_pipe_replace), the residual norm carried in the same reduction
   instead of a separate one, and the per-solve counters of `KSPPipeGetStats()` shown by -ksp_view.

   At the attainable accuracy, a breakdown of the recurrences is checked against the true residual: the
   solver restarts from it, and ends converged, as cg would, when that brings no progress. A breakdown that
   comes back after such restarts far above the rounding floor ends with its reason, as cg's. Under
   `KSPConvergedSkip`, or with a tolerance of 0 (-ksp_rtol 0 -ksp_atol 0), the solver iterates on to the
   iteration limit, as cg does. The x returned
   is the last iterate, as cg's (with -ksp_max_it k, the k-th); only after a restart it is the iterate
   of least energy x'Ax/2 - b'x among those whose true residual the solver formed; at a breakdown that the
   restarts confirm, the iterate and iteration of the first one, where cg ends (docs/algorithms.md). A solve
   still far from its tolerance at iteration N, the global size, where CG ends in exact arithmetic, goes on
   with Gropp's CG (`KSPPIPEGROPP`) from the true residual: rounding rules it there, and these recurrences
   lose more to it than cg's.

   Level: intermediate

.seealso: `KSPPIPEGROPP`, `KSPPIPEGV`, `KSPCG`
M*/
PETSC_INTERN PetscErrorCode KSPCreate_ChronGear(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPPipeCreateCommon_Private(ksp, PETSC_TRUE));
  ksp->ops->setup = KSPSetUp_ChronGear;
  ksp->ops->solve = KSPSolve_ChronGear;
  PetscFunctionReturn(PETSC_SUCCESS);
}
