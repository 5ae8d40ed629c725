/* KSP pipegropp: Gropp's CG (docs/algorithms.md, section 1). Two non-blocking reductions per
   iteration: delta = (p,s) overlapped with q = M^{-1} s, and gamma = (r,u) plus the norm overlapped
   with w = A u (after it where its test will probably end the solve: docs/options.md). The vector updates
   and the local dot products share one pass over memory. */
#include <pipeksp/pipeguard.h>
#include <pipeksp/threadsimpl.h>

/* the two packed reductions of an iteration, named slots:
   R2: gamma = (r,u) and the norms, overlapped with w = A u */
enum {
  GR_R2_GAMMA,
  GR_R2_RR,
  GR_R2_UU,
  GR_R2_XX,
  GR_R2_N
};
/* R1: delta = (p,s), (p,p), and after a residual replacement also gamma, (r,r), (x,x) of the true
   residual, overlapped with q = M^{-1} s */
enum {
  GR_R1_DELTA,
  GR_R1_PP,
  GR_R1_GAMMA,
  GR_R1_RR,
  GR_R1_XX,
  GR_R1_N
};
#define GR_R1_SHORT GR_R1_GAMMA /* R1 without a replacement: delta and (p,p) */

static PetscErrorCode KSPSetUp_PipeGropp(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPPipeSetUpWork_Private(ksp, 6)); /* r, u, w, p, s, q */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* local (r,u), (r,r), (u,u), (x,x): R2 */
static PetscErrorCode LocalDots4(Vec R, Vec U, Vec X, PetscScalar d[GR_R2_N])
{
  PetscScalar d4[PIPEKSP_NDOTS];

  PetscFunctionBegin;
  PetscCall(PipeKSPVecLocalDots_Private(R, U, NULL, PETSC_FALSE, d4));
  d[GR_R2_GAMMA] = d4[PIPEKSP_DOT_RU];
  d[GR_R2_RR]    = d4[PIPEKSP_DOT_RR];
  d[GR_R2_UU]    = d4[PIPEKSP_DOT_UU];
  PetscCall(PipeKSPVecLocalNormSq_Private(X, &d[GR_R2_XX]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* local (p,s) */
static PetscErrorCode LocalDot(Vec P, Vec S, PetscScalar *d)
{
  const PetscScalar *p, *s;
  PetscInt           i, n;
  PetscScalar        ps = 0;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(P, &n));
  PetscCall(VecGetArrayRead(P, &p));
  PetscCall(VecGetArrayRead(S, &s));
  for (i = 0; i < n; i++) ps += s[i] * PetscConj(p[i]);
  PetscCall(VecRestoreArrayRead(P, &p));
  PetscCall(VecRestoreArrayRead(S, &s));
  *d = ps;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The two fused passes below run in blocks on the process's threads; the blocks' sums are added in
   block order, so results do not depend on the threads. */

/* x += a p; r -= a s; u -= a q; and the local (r,u), (r,r), (u,u), (x,x) of the new r, u, x */
typedef struct {
  PetscScalar        a;
  PetscScalar       *x, *r, *u;
  const PetscScalar *p, *s, *q;
} Fused1Ctx;

static void Fused1Block(const void *ctx, PetscInt i0, PetscInt i1, PetscScalar *d)
{
  const Fused1Ctx  *c = (const Fused1Ctx *)ctx;
  const PetscScalar a = c->a, *p = c->p, *s = c->s, *q = c->q;
  PetscScalar      *x = c->x, *r = c->r, *u = c->u, ru = 0, rr = 0, uu = 0, xx = 0;

  for (PetscInt i = i0; i < i1; i++) {
    x[i] += a * p[i];
    r[i] -= a * s[i];
    u[i] -= a * q[i];
    ru += r[i] * PetscConj(u[i]);
    rr += r[i] * PetscConj(r[i]);
    uu += u[i] * PetscConj(u[i]);
    xx += x[i] * PetscConj(x[i]);
  }
  d[GR_R2_GAMMA] = ru;
  d[GR_R2_RR]    = rr;
  d[GR_R2_UU]    = uu;
  d[GR_R2_XX]    = xx;
}

static PetscErrorCode FusedUpdate1(PetscScalar a, Vec X, Vec R, Vec U, Vec P, Vec S, Vec Q, PetscScalar d[GR_R2_N])
{
  Fused1Ctx c = {a, NULL, NULL, NULL, NULL, NULL, NULL};
  PetscInt  n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(X, &n));
  PetscCall(VecGetArray(X, &c.x));
  PetscCall(VecGetArray(R, &c.r));
  PetscCall(VecGetArray(U, &c.u));
  PetscCall(VecGetArrayRead(P, &c.p));
  PetscCall(VecGetArrayRead(S, &c.s));
  PetscCall(VecGetArrayRead(Q, &c.q));
  PetscCall(PipeKSPThreadedBlocks_Private(PipeKSPThreadsFor_Private(n), n, GR_R2_N, Fused1Block, &c, 20.0, d));
  PetscCall(VecRestoreArray(X, &c.x));
  PetscCall(VecRestoreArray(R, &c.r));
  PetscCall(VecRestoreArray(U, &c.u));
  PetscCall(VecRestoreArrayRead(P, &c.p));
  PetscCall(VecRestoreArrayRead(S, &c.s));
  PetscCall(VecRestoreArrayRead(Q, &c.q));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* p = u + b p; s = w + b s (first pass: plain copies); the local (p,s), (p,p) */
typedef struct {
  PetscBool          first;
  PetscScalar        b;
  PetscScalar       *p, *s;
  const PetscScalar *u, *w;
} Fused2Ctx;

static void Fused2Block(const void *ctx, PetscInt i0, PetscInt i1, PetscScalar *d)
{
  const Fused2Ctx  *c = (const Fused2Ctx *)ctx;
  const PetscScalar b = c->first ? 0.0 : c->b, *u = c->u, *w = c->w;
  PetscScalar      *p = c->p, *s = c->s, ps = 0, pp = 0;

  for (PetscInt i = i0; i < i1; i++) {
    if (c->first) { /* copies: p may hold garbage (NaN * 0 would stay NaN) */
      p[i] = u[i];
      s[i] = w[i];
    } else {
      p[i] = u[i] + b * p[i];
      s[i] = w[i] + b * s[i];
    }
    ps += s[i] * PetscConj(p[i]);
    pp += p[i] * PetscConj(p[i]);
  }
  d[GR_R1_DELTA] = ps;
  d[GR_R1_PP]    = pp;
}

/* writes R1's first GR_R1_SHORT slots */
static PetscErrorCode FusedUpdate2(PetscBool first, PetscScalar b, Vec P, Vec S, Vec U, Vec W, PetscScalar d[GR_R1_N])
{
  Fused2Ctx c = {first, b, NULL, NULL, NULL, NULL};
  PetscInt  n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(P, &n));
  PetscCall(VecGetArray(P, &c.p));
  PetscCall(VecGetArray(S, &c.s));
  PetscCall(VecGetArrayRead(U, &c.u));
  PetscCall(VecGetArrayRead(W, &c.w));
  PetscCall(PipeKSPThreadedBlocks_Private(PipeKSPThreadsFor_Private(n), n, GR_R1_SHORT, Fused2Block, &c, 8.0, d));
  PetscCall(VecRestoreArray(P, &c.p));
  PetscCall(VecRestoreArray(S, &c.s));
  PetscCall(VecRestoreArrayRead(U, &c.u));
  PetscCall(VecRestoreArrayRead(W, &c.w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the iterations from iteration its on, from the current x, with r = b - A x and u = M^{-1} r in place */
static PetscErrorCode PipeGroppIterate(KSP ksp, Mat A, PetscInt its)
{
  KSP_Pipe   *pipe = (KSP_Pipe *)ksp->data;
  PipeKSPRed  red;
  Vec         X, R, U, W, P, S, Q;
  PetscScalar loc1[GR_R1_N], loc2[GR_R2_N], glob[GR_R1_N], gamma = 0.0, gammanew, delta, alpha, beta = 0.0;
  PetscReal   rn, un, xn, pn;
  PetscBool   withgamma = PETSC_FALSE, restart, stop, replace, last;

  PetscFunctionBegin;
  red = pipe->red;
  X   = ksp->vec_sol;
  R   = ksp->work[0];
  U   = ksp->work[1];
  W   = ksp->work[2];
  P   = ksp->work[3];
  S   = ksp->work[4];
  Q   = ksp->work[5];
  PetscCall(LocalDots4(R, U, X, loc2));

  for (;;) {
    /* R2: gamma = (r,u) and the norms, overlapped with w = A u; not where this reduction's test will probably
       end the solve (the SpMV would be thrown away: cg's count of SpMVs), then after the wait if it does not */
    PetscCall(PipeKSPRedStart_Private(red, GR_R2_N, loc2));
    last = KSPPipeLastLikely_Private(ksp, its);
    if (!last) PetscCall(KSPPipeApplyOperator_Private(ksp, A, U, W));
    PetscCall(PipeKSPRedWait_Private(red, glob));
    gammanew = glob[GR_R2_GAMMA];
    KSPPipeCheckNorm_Private(ksp, glob[GR_R2_RR], glob[GR_R2_UU], gammanew);
    KSPCheckDot(ksp, gammanew);
    rn = PetscSqrtReal(PetscAbsScalar(glob[GR_R2_RR]));
    un = PetscSqrtReal(PetscAbsScalar(glob[GR_R2_UU]));
    xn = PetscSqrtReal(PetscAbsScalar(glob[GR_R2_XX]));
    PetscCall(KSPPipeTestIteration_Private(ksp, its, glob[GR_R2_RR], glob[GR_R2_UU], gammanew, rn, xn, NULL, &stop, &restart));
    if (stop) break;
    if (restart) { /* round-off broke the recurrences: start them again from b - A x */
      PetscCall(KSPPipeTrueResidual_Private(ksp, A, R));
      PetscCall(KSPPipePCApplyLoop_Private(ksp, R, U));
      PetscCall(LocalDots4(R, U, X, loc2));
      continue;
    }
    if (last) { /* not the last after all: this iteration's SpMV, not overlapped */
      PetscCall(PetscInfo(ksp, "iteration %" PetscInt_FMT " was probably the last, but did not converge: its SpMV after the wait\n", its));
      PetscCall(KSPPipeMatMult_Private(ksp, A, U, W));
    }
    beta  = pipe->guard.restart ? 0.0 : gammanew / gamma;
    gamma = gammanew;
    /* p = u + beta p; s = w + beta s; local delta = (p,s) and (p,p) for the next R1 */
    PetscCall(FusedUpdate2(pipe->guard.restart, beta, P, S, U, W, loc1));
    replace = PETSC_FALSE;
    if (its) PetscCall(KSPPipeReplaceNow_Private(ksp, its, rn, &replace));
    if (replace) { /* true residual and auxiliaries; gamma rides in R1 */
      PetscScalar d4[GR_R2_N];
      PetscCall(KSPPipeTrueResidual_Private(ksp, A, R));
      PetscCall(KSPPipePCApplyLoop_Private(ksp, R, U));
      PetscCall(KSPPipeMatMult_Private(ksp, A, P, S));
      PetscCall(LocalDot(P, S, &loc1[GR_R1_DELTA]));
      PetscCall(LocalDots4(R, U, X, d4));
      loc1[GR_R1_GAMMA] = d4[GR_R2_GAMMA];
      loc1[GR_R1_RR]    = d4[GR_R2_RR];
      loc1[GR_R1_XX]    = d4[GR_R2_XX];
      withgamma         = PETSC_TRUE;
    }

    /* R1: delta = (p,s), (p,p) [and gamma, ||r||, ||x|| after a replacement], overlapped with q = M^{-1} s */
    PetscCall(PipeKSPRedStart_Private(red, withgamma ? GR_R1_N : GR_R1_SHORT, loc1));
    PetscCall(KSPPipePCApply_Private(ksp, S, Q));
    PetscCall(PipeKSPRedWait_Private(red, glob));
    delta = glob[GR_R1_DELTA];
    KSPCheckDot(ksp, delta);
    pn = PetscSqrtReal(PetscAbsScalar(glob[GR_R1_PP]));
    if (withgamma) {
      gamma = glob[GR_R1_GAMMA];
      KSPCheckDot(ksp, gamma);
      withgamma = PETSC_FALSE;
      rn        = PetscSqrtReal(PetscAbsScalar(glob[GR_R1_RR]));
      PetscCall(KSPPipeReplaced_Private(ksp, rn, PetscSqrtReal(PetscAbsScalar(glob[GR_R1_XX]))));
      PetscCall(KSPPipeCheckGamma_Private(ksp, gamma, PETSC_FALSE)); /* 0: exact solution; a change of sign: indefinite PC */
      if (ksp->reason) {
        PetscCall(PetscInfo(ksp, "after residual replacement (r,M^{-1}r) = %g\n", (double)PetscRealPart(gamma)));
        break;
      }
    }
    if (KSPPipeSignChanged_Private(&pipe->guard.dsign, delta)) {
      ksp->reason = KSP_DIVERGED_INDEFINITE_MAT;
      PetscCall(PetscInfo(ksp, "(p,Ap) = %g after values of the other sign (or 0)\n", (double)PetscRealPart(delta)));
      PetscCall(KSPPipeGuardBreakdown_Private(ksp, &restart));
      if (ksp->reason) break;
      PetscCall(KSPPipeTrueResidual_Private(ksp, A, R));
      PetscCall(KSPPipePCApplyLoop_Private(ksp, R, U));
      PetscCall(LocalDots4(R, U, X, loc2));
      continue;
    }
    alpha = gamma / delta;
    KSPPipeGapUpdate_Private(ksp, PETSC_FALSE, alpha, beta, rn, xn, un, pn, 0.0);
    KSPPipeLanczosCG_Private(ksp, alpha, beta);
    pipe->guard.restart = PETSC_FALSE;

    /* x += alpha p; r -= alpha s; u -= alpha q; local gamma', the norms and (x,x) in the same pass */
    PetscCall(FusedUpdate1(alpha, X, R, U, P, S, Q, loc2));
    its++;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PipeGroppSolve(KSP ksp)
{
  Mat A;

  PetscFunctionBegin;
  PetscCall(KSPPipeSolveStart_Private(ksp, &A));
  PetscCall(KSPPipeResidual_Private(ksp, A, ksp->work[0]));               /* r = b - A x */
  PetscCall(KSPPipePCApplyLoop_Private(ksp, ksp->work[0], ksp->work[1])); /* u = M^{-1} r */
  PetscCall(PipeGroppIterate(ksp, A, 0));
  PetscCall(KSPPipeSolveEnd_Private(ksp, A, ksp->work[2]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the layouts checked first; an error inside leaves PC and b as a finished solve would (src/ksp/pipecommon.c) */
static PetscErrorCode KSPSolve_PipeGropp(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPPipeSolveEntry_Private(ksp, PipeGroppSolve));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPPipeGroppContinue_Private(KSP ksp, Mat A, PetscInt its, PetscBool fresh, const char *why)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;
  Vec      *v    = ksp->work;

  PetscFunctionBegin;
  PetscCheck(ksp->nwork >= 6 + PIPE_NKEEP, PetscObjectComm((PetscObject)ksp), PETSC_ERR_PLIB, "%" PetscInt_FMT " work vectors, pipegropp needs 6 and the kept iterate's", ksp->nwork);
  if (why) { /* not pipeplcg's depth 0, where Gropp's CG is the type's method */
    pipe->nhand_total++;
    pipe->hand_its = its;
    pipe->hand_why = why;
  }
  PetscCall(KSPPipeContinueStart_Private(ksp, A, its, fresh ? NULL : v[0]));
  if (!fresh) PetscCall(KSPPipePCApplyLoop_Private(ksp, v[0], v[1]));
  PetscCall(PipeGroppIterate(ksp, A, its));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   KSPPIPEGROPP - "pipegropp": Gropp's preconditioned CG with two non-blocking reductions per
   iteration, (p,s) overlapped with the preconditioner and (r,u) plus the norm overlapped with the SpMV.

   Options Database Keys:
+  -ksp_pipe_progress <none,poll,thread,auto,blocking> - how pending reductions progress (default auto)
.  -ksp_pipe_poll_interval <us> - microseconds of wall time between MPI_Test calls of the poll hook (default 5; a thread team's master tests after every work item unless it is set)
-  -ksp_pipe_replace <auto,n,0> - recompute r = b - A x every n iterations, or never (0, and auto, the default: these recurrences drift as cg's)

   Notes:
   At the attainable accuracy, a breakdown of the recurrences is checked against the true residual: the
   solver restarts from it, and ends converged, as cg would, when that brings no progress. A breakdown that
   comes back after such restarts far above the rounding floor ends with its reason, as cg's. Under
   `KSPConvergedSkip`, or with a tolerance of 0 (-ksp_rtol 0 -ksp_atol 0), the solver iterates on to the
   iteration limit, as cg does. Where the test of an
   iteration will probably end the solve, its SpMV waits until after that test: cg's count of SpMVs. The x returned
   is the last iterate, as cg's (with -ksp_max_it k, the k-th); only after a restart it is the iterate
   of least energy x'Ax/2 - b'x among those whose true residual the solver formed; at a breakdown that the
   restarts confirm, the iterate and iteration of the first one, where cg ends (docs/algorithms.md).

   Level: intermediate

.seealso: `KSPPIPEGV`, `KSPCHRONGEAR`, `KSPGROPPCG`, `KSPPipeSetProgress()`
M*/
PETSC_INTERN PetscErrorCode KSPCreate_PipeGropp(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPPipeCreateCommon_Private(ksp, PETSC_FALSE));
  ksp->ops->setup = KSPSetUp_PipeGropp;
  ksp->ops->solve = KSPSolve_PipeGropp;
  PetscFunctionReturn(PETSC_SUCCESS);
}
