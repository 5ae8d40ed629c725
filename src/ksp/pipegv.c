/* KSP pipegv: pipelined CG of Ghysels and Vanroose (docs/algorithms.md, section 1). One non-blocking
   reduction per iteration (gamma, delta and the norm packed) overlapped with m = M^{-1} w and n = A m;
   the 8 AXPY-type updates and the next local dot products run in one fused pass over memory. */
#include <pipeksp/pipeguard.h>
#include <pipeksp/threadsimpl.h>

enum {
  GV_R,
  GV_U,
  GV_W,
  GV_M,
  GV_N,
  GV_Z,
  GV_Q,
  GV_S,
  GV_P,
  GV_NWORK
};
/* the one packed reduction: PipeKSPVecLocalDots_Private()'s four, then the sizes for the gap bounds */
enum {
  GV_RED_GAMMA = PIPEKSP_DOT_RU, /* (r,u) */
  GV_RED_DELTA = PIPEKSP_DOT_WU, /* (w,u) */
  GV_RED_RR    = PIPEKSP_DOT_RR,
  GV_RED_UU    = PIPEKSP_DOT_UU,
  GV_RED_XX    = PIPEKSP_NDOTS,
  GV_RED_PP,
  GV_RED_QQ,
  GV_RED_N
};

static PetscErrorCode KSPSetUp_PipeGV(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPPipeSetUpWork_Private(ksp, GV_NWORK));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The 8 updates (first: z = n, q = m, s = w, p = u), then the local dots of the next reduction from the
   fresh r, u, w while they are still in cache, and (x,x), (p,p), (q,q) for the gap bounds of the attainable
   accuracy. One block of the pass: the blocks run on the process's threads and their sums are added in block
   order, so results do not depend on the threads. Inside a block, GV_SUB rows at a time: the updates in a
   loop of their own, which the compiler vectorizes (distinct vectors, restrict), then the dots of those rows,
   still in L1, each summed row after row as before: the same bits as one loop doing both, which ran
   scalar (the sums' order forbids vectorizing it) at twice the time. */
#define GV_SUB 256
/* the formula's (p,Ap) refuted by its dot product twice, each within this many steps of the restart before: the
   recurrences cannot run on this operator (A M^{-1} A of 1e-200 entries underflows, and every formula step
   after a restart changed sign: 3269 iterations of steepest descent where cg takes 47), so Gropp's CG, which
   forms no such product, takes the rest of the solve */
#define GV_FORMULA_STEPS 2

typedef struct {
  PetscBool          first;
  PetscScalar        alpha, beta;
  PetscScalar       *x, *r, *u, *w, *z, *q, *s, *p;
  const PetscScalar *m, *nn;
} FusedCtx;

static inline void FusedRows(PetscBool first, PetscScalar alpha, PetscScalar beta, PetscInt i0, PetscInt i1, PetscScalar *PETSC_RESTRICT x, PetscScalar *PETSC_RESTRICT r, PetscScalar *PETSC_RESTRICT u, PetscScalar *PETSC_RESTRICT w, PetscScalar *PETSC_RESTRICT z, PetscScalar *PETSC_RESTRICT q, PetscScalar *PETSC_RESTRICT s, PetscScalar *PETSC_RESTRICT p, const PetscScalar *PETSC_RESTRICT m, const PetscScalar *PETSC_RESTRICT nn)
{
  if (first)
    for (PetscInt i = i0; i < i1; i++) {
      z[i] = nn[i];
      q[i] = m[i];
      s[i] = w[i];
      p[i] = u[i];
      x[i] += alpha * p[i];
      r[i] -= alpha * s[i];
      u[i] -= alpha * q[i];
      w[i] -= alpha * z[i];
    }
  else
    for (PetscInt i = i0; i < i1; i++) {
      z[i] = nn[i] + beta * z[i];
      q[i] = m[i] + beta * q[i];
      s[i] = w[i] + beta * s[i];
      p[i] = u[i] + beta * p[i];
      x[i] += alpha * p[i];
      r[i] -= alpha * s[i];
      u[i] -= alpha * q[i];
      w[i] -= alpha * z[i];
    }
}

static void FusedBlock(const void *ctx, PetscInt i0, PetscInt i1, PetscScalar *d)
{
  const FusedCtx    *c = (const FusedCtx *)ctx;
  const PetscScalar *x = c->x, *r = c->r, *u = c->u, *w = c->w, *q = c->q, *p = c->p;
  PetscScalar        ru = 0, wu = 0, rr = 0, uu = 0, xx = 0, pp = 0, qq = 0;

  for (PetscInt j0 = i0; j0 < i1; j0 += GV_SUB) {
    const PetscInt j1 = PetscMin(i1, j0 + GV_SUB);

    FusedRows(c->first, c->alpha, c->beta, j0, j1, c->x, c->r, c->u, c->w, c->z, c->q, c->s, c->p, c->m, c->nn);
    for (PetscInt i = j0; i < j1; i++) {
      ru += r[i] * PetscConj(u[i]);
      wu += w[i] * PetscConj(u[i]);
      rr += r[i] * PetscConj(r[i]);
      uu += u[i] * PetscConj(u[i]);
      xx += x[i] * PetscConj(x[i]);
      pp += p[i] * PetscConj(p[i]);
      qq += q[i] * PetscConj(q[i]);
    }
  }
  d[GV_RED_GAMMA] = ru;
  d[GV_RED_DELTA] = wu;
  d[GV_RED_RR]    = rr;
  d[GV_RED_UU]    = uu;
  d[GV_RED_XX]    = xx;
  d[GV_RED_PP]    = pp;
  d[GV_RED_QQ]    = qq;
}

static PetscErrorCode FusedUpdate(KSP ksp, PetscBool first, PetscScalar alpha, PetscScalar beta, PetscScalar d[GV_RED_N])
{
  Vec     *v = ksp->work;
  FusedCtx c = {first, alpha, beta, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
  PetscInt n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(ksp->vec_sol, &n));
  PetscCall(VecGetArray(ksp->vec_sol, &c.x));
  PetscCall(VecGetArray(v[GV_R], &c.r));
  PetscCall(VecGetArray(v[GV_U], &c.u));
  PetscCall(VecGetArray(v[GV_W], &c.w));
  PetscCall(VecGetArray(v[GV_Z], &c.z));
  PetscCall(VecGetArray(v[GV_Q], &c.q));
  PetscCall(VecGetArray(v[GV_S], &c.s));
  PetscCall(VecGetArray(v[GV_P], &c.p));
  PetscCall(VecGetArrayRead(v[GV_M], &c.m));
  PetscCall(VecGetArrayRead(v[GV_N], &c.nn));
  PetscCall(PipeKSPThreadedBlocks_Private(PipeKSPThreadsFor_Private(n), n, GV_RED_N, FusedBlock, &c, 30.0, d));
  PetscCall(VecRestoreArray(ksp->vec_sol, &c.x));
  PetscCall(VecRestoreArray(v[GV_R], &c.r));
  PetscCall(VecRestoreArray(v[GV_U], &c.u));
  PetscCall(VecRestoreArray(v[GV_W], &c.w));
  PetscCall(VecRestoreArray(v[GV_Z], &c.z));
  PetscCall(VecRestoreArray(v[GV_Q], &c.q));
  PetscCall(VecRestoreArray(v[GV_S], &c.s));
  PetscCall(VecRestoreArray(v[GV_P], &c.p));
  PetscCall(VecRestoreArrayRead(v[GV_M], &c.m));
  PetscCall(VecRestoreArrayRead(v[GV_N], &c.nn));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the local dots of a reduction from r, u, w computed afresh (start, replacement, restart) */
static PetscErrorCode FreshDots(KSP ksp, PetscScalar d[GV_RED_N])
{
  Vec *v = ksp->work;

  PetscFunctionBegin;
  PetscCall(PipeKSPVecLocalDots_Private(v[GV_R], v[GV_U], v[GV_W], PETSC_FALSE, d));
  PetscCall(PipeKSPVecLocalNormSq_Private(ksp->vec_sol, &d[GV_RED_XX]));
  PetscCall(PipeKSPVecLocalNormSq_Private(v[GV_P], &d[GV_RED_PP]));
  PetscCall(PipeKSPVecLocalNormSq_Private(v[GV_Q], &d[GV_RED_QQ]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the auxiliaries of r: u = M^{-1} r, w = A u */
static PetscErrorCode AuxFromR(KSP ksp, Mat A)
{
  Vec *v = ksp->work;

  PetscFunctionBegin;
  PetscCall(KSPPipePCApplyLoop_Private(ksp, v[GV_R], v[GV_U]));
  PetscCall(KSPPipeMatMult_Private(ksp, A, v[GV_U], v[GV_W]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* r = b - A x and its auxiliaries */
static PetscErrorCode TrueResidual(KSP ksp, Mat A)
{
  PetscFunctionBegin;
  PetscCall(KSPPipeTrueResidual_Private(ksp, A, ksp->work[GV_R]));
  PetscCall(AuxFromR(ksp, A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the iterations from iteration i on, the start's r, u, w in the work vectors */
static PetscErrorCode PipeGVIterate(KSP ksp, Mat A, PetscInt i)
{
  KSP_Pipe   *pipe = (KSP_Pipe *)ksp->data;
  PipeKSPRed  red;
  Vec        *v;
  PetscScalar loc[GV_RED_N], glob[GV_RED_N], gamma, delta;
  KSPPipeCoef coef = {0.0, 0.0, 0.0, 0.0, 0.0};
  PetscReal   rn, xn, un, pn, qn;
  PetscBool   restart, stop, replace, last, measured, refuted, end;
  PetscInt    lastref = -1; /* the iteration of the last refuted formula (-1: none) */

  PetscFunctionBegin;
  red = pipe->red;
  v   = ksp->work;
  PetscCall(FreshDots(ksp, loc));

  for (;;) {
    /* ONE reduction of gamma, delta, the norms (and the sizes for the gap bounds), overlapped with
       m = M^{-1} w and n = A m; not where this reduction's test will probably end the solve (then they
       would be thrown away: they come after the wait if it does not) */
    PetscCall(PipeKSPRedStart_Private(red, GV_RED_N, loc));
    last = KSPPipeLastLikely_Private(ksp, i);
    if (!last) {
      PetscCall(KSPPipePCApply_Private(ksp, v[GV_W], v[GV_M]));
      PetscCall(KSPPipeApplyOperator_Private(ksp, A, v[GV_M], v[GV_N]));
    }
    PetscCall(PipeKSPRedWait_Private(red, glob));
    gamma = glob[GV_RED_GAMMA];
    delta = glob[GV_RED_DELTA];
    KSPPipeCheckNorm_Private(ksp, glob[GV_RED_RR], glob[GV_RED_UU], gamma);
    KSPCheckDot(ksp, gamma);
    if (PetscIsInfOrNanScalar(delta)) {
      /* (r,M^{-1}r) and the norm finite, (w,u) not: the recurrences' A M^{-1} A overflowed (A of 1e200 entries, no
         PC: DIVERGED_NANORINF at iteration 0 where cg converges). Gropp's CG forms only A u and A p, as cg, and
         meets cg's overflow if there is one */
      const char *why = "(w,u) Inf or NaN where (r,M^{-1}r) is not";

      PetscCall(PetscInfo(ksp, "%s: Gropp's CG for the rest of the solve\n", why));
      PetscCall(KSPPipeGroppContinue_Private(ksp, A, i, PETSC_FALSE, why));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    rn         = PetscSqrtReal(PetscAbsScalar(glob[GV_RED_RR]));
    un         = PetscSqrtReal(PetscAbsScalar(glob[GV_RED_UU]));
    xn         = PetscSqrtReal(PetscAbsScalar(glob[GV_RED_XX]));
    pn         = PetscSqrtReal(PetscAbsScalar(glob[GV_RED_PP]));
    qn         = PetscSqrtReal(PetscAbsScalar(glob[GV_RED_QQ]));
    coef.delta = delta;
    PetscCall(KSPPipeTestIteration_Private(ksp, i, glob[GV_RED_RR], glob[GV_RED_UU], gamma, rn, xn, &coef, &stop, &restart));
    if (stop) break;
    if (restart) { /* round-off broke the recurrences: start them again from b - A x (m, n are free) */
      PetscCall(KSPPipeBreakCheckPAp_Private(ksp, A, coef.beta, v[GV_U], v[GV_P], v[GV_M], v[GV_N], &refuted));
      if (refuted && lastref >= 0 && i - lastref <= GV_FORMULA_STEPS) {
        PetscCall(PetscInfo(ksp, "the formula's (p,Ap) refuted again %" PetscInt_FMT " steps after the last: Gropp's CG for the rest of the solve\n", i - lastref));
        PetscCall(KSPPipeGroppContinue_Private(ksp, A, i, PETSC_FALSE, "the formula's (p,Ap) refuted twice in a few steps"));
        PetscFunctionReturn(PETSC_SUCCESS);
      }
      if (refuted) lastref = i;
      PetscCall(TrueResidual(ksp, A));
      PetscCall(FreshDots(ksp, loc));
      continue;
    }
    if (last) { /* not the last after all: this iteration's PC application and SpMV, not overlapped */
      PetscCall(PetscInfo(ksp, "iteration %" PetscInt_FMT " was probably the last, but did not converge: its PC application and SpMV after the wait\n", i));
      PetscCall(KSPPipePCApplyLoop_Private(ksp, v[GV_W], v[GV_M]));
      PetscCall(KSPPipeMatMult_Private(ksp, A, v[GV_M], v[GV_N]));
    }
    PetscCall(FusedUpdate(ksp, pipe->guard.restart, coef.alpha, coef.beta, loc));
    KSPPipeGapUpdate_Private(ksp, PETSC_TRUE, coef.alpha, pipe->guard.restart ? 0.0 : coef.beta, rn, xn, un, pipe->guard.restart ? un : pn, qn);
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
    /* m and n are free until the next iteration's PC application and SpMV: the gap measured in them */
    PetscCall(KSPPipeReplaceMeasured_Private(ksp, i, A, v[GV_R], v[GV_M], v[GV_N], rn, &replace, &measured));
    if (replace) { /* r = b - A x (measured: in m) and the auxiliaries from it and from p */
      if (measured) {
        PetscCall(VecCopy(v[GV_M], v[GV_R]));
        PetscCall(AuxFromR(ksp, A));
      } else PetscCall(TrueResidual(ksp, A));
      PetscCall(KSPPipeMatMult_Private(ksp, A, v[GV_P], v[GV_S]));
      PetscCall(KSPPipePCApplyLoop_Private(ksp, v[GV_S], v[GV_Q]));
      PetscCall(KSPPipeMatMult_Private(ksp, A, v[GV_Q], v[GV_Z]));
      PetscCall(FreshDots(ksp, loc));
      pipe->guard.truenow = PETSC_TRUE;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PipeGVSolve(KSP ksp)
{
  Mat  A;
  Vec *v = ksp->work;

  PetscFunctionBegin;
  PetscCall(KSPPipeSolveStart_Private(ksp, &A));
  PetscCall(KSPPipeResidual_Private(ksp, A, v[GV_R])); /* r = b - A x */
  PetscCall(AuxFromR(ksp, A));
  PetscCall(PipeGVIterate(ksp, A, 0));
  PetscCall(KSPPipeSolveEnd_Private(ksp, A, v[GV_M]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the layouts checked first; an error inside leaves PC and b as a finished solve would (src/ksp/pipecommon.c) */
static PetscErrorCode KSPSolve_PipeGV(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPPipeSolveEntry_Private(ksp, PipeGVSolve));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPPipeGVContinue_Private(KSP ksp, Mat A, PetscInt its)
{
  Vec *v = ksp->work;

  PetscFunctionBegin;
  PetscCheck(ksp->nwork >= GV_NWORK + PIPE_NKEEP, PetscObjectComm((PetscObject)ksp), PETSC_ERR_PLIB, "%" PetscInt_FMT " work vectors, pipegv needs %d and the kept iterate's", ksp->nwork, (int)GV_NWORK);
  PetscCall(KSPPipeContinueStart_Private(ksp, A, its, v[GV_R]));
  PetscCall(AuxFromR(ksp, A));
  PetscCall(PipeGVIterate(ksp, A, its));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   KSPPIPEGV - "pipegv": pipelined preconditioned CG (Ghysels and Vanroose 2014) with one
   non-blocking packed reduction per iteration overlapped with the preconditioner and the SpMV.

   Options Database Keys:
+  -ksp_pipe_progress <none,poll,thread,auto,blocking> - how pending reductions progress (default auto)
.  -ksp_pipe_poll_interval <us> - microseconds of wall time between MPI_Test calls of the poll hook (default 5; a thread team's master tests after every work item unless it is set)
-  -ksp_pipe_replace <auto,n,0> - recompute r = b - A x and the auxiliary vectors when the estimated gap to the true residual, then the measured one, reaches the residual asked for (auto, default; not where that gap is over 3% of b - A x and near the residual asked for), every n iterations, or never (0)

   Notes:
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

.seealso: `KSPPIPEGROPP`, `KSPCHRONGEAR`, `KSPPIPECG`, `KSPPipeSetProgress()`
M*/
/* pipegv's rule: its recurrences' gap grows beyond cg's, so auto replaces (also after a solve that Gropp's CG finished,
   KSPPipeKrylovEnd_Private(), whose gap updates are cg's) */
static PetscErrorCode KSPViewAutoReplace_PipeGV(KSP ksp, PetscViewer viewer)
{
  PetscFunctionBegin;
  PetscCall(KSPPipeGuardViewReplaceRule_Private(viewer, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PETSC_INTERN PetscErrorCode KSPCreate_PipeGV(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPPipeCreateCommon_Private(ksp, PETSC_FALSE));
  ((KSP_Pipe *)ksp->data)->ops.viewautoreplace = KSPViewAutoReplace_PipeGV;
  ksp->ops->setup                              = KSPSetUp_PipeGV;
  ksp->ops->solve                              = KSPSolve_PipeGV;
  PetscFunctionReturn(PETSC_SUCCESS);
}
