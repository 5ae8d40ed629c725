/* The convergence guards of the pipelined KSP types: the estimate of the gap between the recursive and
   the true residual, residual replacement, the restarts from the true residual after a breakdown or wild
   growth, the stop at the rounding floor, and the kept iterate (least energy) after a loss of stability. Their thresholds are the
   PIPE_* constants of pipeksp/pipecommon.h, shared with pipeplcg.c. */
#include <pipeksp/pipecommon.h>

/* the kept iterate, its true residual and a scratch vector: the work vectors KSPPipeSetUpWork_Private() adds
   after the type's own */
#define KeepX(ksp) ((ksp)->work[(ksp)->nwork - 1])
#define KeepR(ksp) ((ksp)->work[(ksp)->nwork - 2])
#define KeepD(ksp) ((ksp)->work[(ksp)->nwork - 3])

/* x, whose true residual r = b - A x was just formed, against the kept iterate xk (residual rk): by the energy
   phi(x) = x'Ax/2 - b'x, which differs from ||x - x*||_A^2/2 by a constant, the error CG minimises (a residual
   norm can grow while it falls). phi(x) - phi(xk) = -(x - xk)'(r + rk)/2, from the difference: accurate where
   the two energies agree to rounding, near convergence. x is kept when lower */
static PetscErrorCode KeepCompare(KSP ksp, Vec r)
{
  KSP_Pipe   *pipe = (KSP_Pipe *)ksp->data;
  Vec         y[2];
  PetscScalar d[2];

  PetscFunctionBegin;
  pipe->dphi = -1.0;
  if (pipe->haskeep) {
    PetscCall(VecWAXPY(KeepD(ksp), -1.0, KeepX(ksp), ksp->vec_sol));
    y[0] = r;
    y[1] = KeepR(ksp);
    PetscCall(VecMDot(KeepD(ksp), 2, y, d));
    pipe->dphi = -0.5 * PetscRealPart(d[0] + d[1]);
  }
  if (pipe->dphi <= 0) { /* lower (or the first): kept; NaN is not */
    PetscCall(VecCopy(ksp->vec_sol, KeepX(ksp)));
    PetscCall(VecCopy(r, KeepR(ksp)));
    pipe->haskeep = PETSC_TRUE;
    pipe->bestits = ksp->its;
  }
  PetscCall(PetscObjectStateGet((PetscObject)ksp->vec_sol, &pipe->phistate));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPPipeTrueResidual_Private(KSP ksp, Mat A, Vec r)
{
  PetscFunctionBegin;
  PetscCall(KSPPipeMatMult_Private(ksp, A, ksp->vec_sol, r));
  PetscCall(VecAYPX(r, -1.0, ksp->vec_rhs));
  PetscCall(KeepCompare(ksp, r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPPipeResidual_Private(KSP ksp, Mat A, Vec r)
{
  PetscFunctionBegin;
  if (ksp->guess_zero) {
    PetscCall(VecSet(ksp->vec_sol, 0.0));
    PetscCall(VecCopy(ksp->vec_rhs, r));
    PetscCall(KeepCompare(ksp, r));
  } else PetscCall(KSPPipeTrueResidual_Private(ksp, A, r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPPipeBestRecord_Private(KSP ksp, PetscReal tn)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  if (tn < pipe->best) pipe->best = tn;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPPipeBestRestore_Private(KSP ksp)
{
  KSP_Pipe        *pipe = (KSP_Pipe *)ksp->data;
  PetscObjectState state;

  PetscFunctionBegin;
  PetscCall(PetscObjectStateGet((PetscObject)ksp->vec_sol, &state));
  PetscCheck(state == pipe->phistate, PetscObjectComm((PetscObject)ksp), PETSC_ERR_PLIB, "x is compared with the kept iterate right after its true residual is formed, but x changed since");
  if (!pipe->haskeep || pipe->dphi <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscInfo(ksp, "x has the higher energy (by %g) than the iterate of iteration %" PetscInt_FMT ": returning to that one\n", (double)pipe->dphi, pipe->bestits));
  PetscCall(VecCopy(KeepX(ksp), ksp->vec_sol));
  pipe->dphi = -1.0;
  PetscCall(PetscObjectStateGet((PetscObject)ksp->vec_sol, &pipe->phistate));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPPipeSolveEnd_Private(KSP ksp, Mat A, Vec T)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  /* cg's contract: the last iterate, whatever the reason (an Inf or NaN too). Only where the solve lost
     stability (a restart from the true residual, a depth change) can an earlier iterate be better */
  if (ksp->reason == KSP_DIVERGED_NANORINF || (!pipe->nrestart_solve && !pipe->ndepth_solve) || !pipe->haskeep) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(KSPPipeTrueResidual_Private(ksp, A, T));
  PetscCall(KSPPipeBestRestore_Private(ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPPipeGuardReset_Private(KSP ksp, Mat A)
{
  KSP_Pipe        *pipe = (KSP_Pipe *)ksp->data;
  PetscObjectState state;

  PetscFunctionBegin;
  /* ||A||_inf >= ||A||_2 for symmetric A: scales the rounding errors of the SpMVs in the gap bounds */
  PetscCall(PetscObjectStateGet((PetscObject)A, &state));
  if (A != pipe->amat || state != pipe->astate) {
    PetscBool has;
    PetscCall(MatHasOperation(A, MATOP_NORM, &has));
    pipe->anorm = 0.0;
    if (has) PetscCall(MatNorm(A, NORM_INFINITY, &pipe->anorm));
    PetscCall(PetscObjectReference((PetscObject)A));
    PetscCall(MatDestroy(&pipe->amat));
    pipe->amat   = A;
    pipe->astate = state;
  }
  pipe->gf = pipe->gg = pipe->gh = pipe->gj = pipe->gf0 = pipe->gcf = pipe->gcg = 0.0;
  pipe->best                                                                    = PETSC_MAX_REAL;
  pipe->bestits                                                                 = 0;
  pipe->haskeep                                                                 = PETSC_FALSE;
  pipe->dphi                                                                    = -1.0;
  pipe->phistate                                                                = -1;
  pipe->restart                                                                 = PETSC_TRUE;
  pipe->truenow                                                                 = PETSC_TRUE;
  pipe->frombreak                                                               = PETSC_FALSE;
  pipe->breakreason                                                             = KSP_CONVERGED_ITERATING;
  pipe->gsign = pipe->dsign = 0.0;
  pipe->suspect             = PETSC_FALSE;
  pipe->rmin                = PETSC_MAX_REAL;
  pipe->dp1 = pipe->dp2 = -1.0; /* no norm of this solve yet: nothing to guess the last iteration from */
  pipe->rn0             = -1.0;
  pipe->stalls          = 0;
  pipe->itrue           = 0;
  PetscFunctionReturn(0);
}

/* a gap carried over by a recurrence adds to the next one as it is; the new rounding error of a step is
   independent of it and adds in quadrature, which keeps the estimate near the observed gap rather than
   the worst-case bound (Cools et al. note its pessimism) */
static inline PetscReal Q2(PetscReal a, PetscReal b)
{
  return PetscSqrtReal(a * a + b * b);
}

/* the gap estimate is PIPE_GAP_CG times cg's from the same steps (types whose recurrences are cg's pass
   always, pipeplcg keeps its own rules) */
static inline PetscBool BeyondCG(KSP_Pipe *pipe)
{
  return (PetscBool)(!pipe->cgref || pipe->gf > PIPE_GAP_CG * pipe->gcf);
}

void KSPPipeGapUpdate_Private(KSP ksp, PetscBool pipelined, PetscScalar alpha, PetscScalar beta, PetscReal rn, PetscReal xn, PetscReal un, PetscReal pn, PetscReal qn)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;
  PetscReal eps = PIPE_ROUND_RMS, an = pipe->anorm, a = PetscAbsScalar(alpha), b = PetscAbsScalar(beta);

  pipe->pipelined = pipelined;
  /* bounds from the recurrences, each step adding its local rounding error (Cools et al. 2018):
     s = w + beta s: g' = |beta| g + h;  r -= alpha s, x += alpha p: f' = f + |alpha| g';
     pipelined also z = n + beta z: j' = |beta| j and w -= alpha z: h' = h + |alpha| j' */
  if (pipelined) {
    pipe->gj = Q2(b * pipe->gj, 2 * eps * an * qn);
    pipe->gg = Q2(b * pipe->gg + pipe->gh, eps * an * (un + 2 * b * pn));
    pipe->gh = Q2(pipe->gh + a * pipe->gj, eps * an * (un + a * qn));
  } else {
    pipe->gh = eps * an * un; /* w = A u computed */
    pipe->gg = Q2(b * pipe->gg + pipe->gh, eps * an * (un + 2 * b * pn));
  }
  pipe->gf = Q2(pipe->gf + a * pipe->gg, eps * (rn + an * (xn + 2 * a * pn)));
  /* the same for cg's recurrences (s = A p computed each step): the drift cg's contract allows */
  pipe->gcg = eps * an * (un + 2 * b * pn);
  pipe->gcf = Q2(pipe->gcf + a * pipe->gcg, eps * (rn + an * (xn + 2 * a * pn)));
}

PetscErrorCode KSPPipeReplaceNow_Private(KSP ksp, PetscInt its, PetscReal rn, PetscBool *now)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  *now = PETSC_FALSE;
  if (pipe->replace == PETSC_DECIDE) {
    /* in the spirit of van der Vorst and Ye, but against the residual asked for: the gap only matters
       once it could reach the requested residual (with no norm: the floor), and only where a fresh
       residual is clearly better than the one left by the last replacement */
    PetscReal target = ksp->normtype == KSP_NORM_NONE ? 0.0 : PIPE_GAP_TARGET * ksp->rtol * pipe->rn0;
    /* a replacement costs more than the one true residual of the check at a claimed convergence, and
       perturbs the recurrences: within PIPE_GAP_SPACING iterations of the last true residual the check
       at convergence takes care of a gap */
    /* and not at all for recurrences whose gap grows as cg's (pipegropp, chrongear: cg replaces nothing, and
       replacements every 100 iterations cost pipegropp 3.5x cg's iterations at a tight tolerance) */
    *now = (PetscBool)(pipe->anorm > 0 && its - pipe->itrue >= PIPE_GAP_SPACING && pipe->gf > target && pipe->gf > PIPE_GAP_GROWTH * pipe->gf0 && (!pipe->cgref || pipe->pipelined));
  } else if (pipe->replace > 0) *now = (PetscBool) !(its % pipe->replace);
  if (*now) {
    pipe->nrep_solve++;
    pipe->nrep_total++;
    PetscCall(PetscInfo(ksp, "residual replacement at iteration %" PetscInt_FMT ": ||r|| %g, gap bound %g\n", its, (double)rn, (double)pipe->gf));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode KSPPipeReplaced_Private(KSP ksp, PetscReal tn, PetscReal xn)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  pipe->gf = pipe->gf0 = pipe->gcf = PIPE_ROUND_RMS * (tn + pipe->anorm * xn);
  pipe->gcg                        = 0.0;
  pipe->gg = pipe->gh = pipe->gj = 0.0;
  pipe->itrue                    = ksp->its;
  PetscCall(KSPPipeBestRecord_Private(ksp, tn));
  PetscFunctionReturn(0);
}

PetscErrorCode KSPPipeGuardAfterTest_Private(KSP ksp, PetscReal rn, PetscReal xn)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  if (pipe->rn0 < 0) pipe->rn0 = rn;
  if (pipe->truenow) {
    if (pipe->frombreak && !ksp->reason) {
      /* restarted from the true residual: PIPE_STALLS times in a row no better than PIPE_GAIN of the best
         measured means the attainable accuracy is reached, iterating on cannot help */
      if (!(rn < PIPE_GAIN * pipe->best)) pipe->stalls++;
      else pipe->stalls = 0;
      if (pipe->stalls >= PIPE_STALLS) {
        PetscCall(KSPPipeFloorStop_Private(ksp, "restarts from the true residual brought no progress"));
        if (ksp->reason) PetscFunctionReturn(0);
      }
    }
    PetscCall(KSPPipeReplaced_Private(ksp, rn, xn));
    pipe->truenow = pipe->frombreak = PETSC_FALSE;
    pipe->rmin                      = rn;
  }
  if (!pipe->restart) {
    if (ksp->reason == KSP_DIVERGED_DTOL) { /* cg's residual does not grow like that on an SPD problem */
      ksp->reason   = KSP_CONVERGED_ITERATING;
      pipe->suspect = PETSC_TRUE;
    } else if (ksp->reason > 0 && ksp->reason != KSP_CONVERGED_ITS && pipe->gf > PIPE_GAP_CHECK * rn && BeyondCG(pipe)) {
      /* converged by a recursive residual the gap estimate does not vouch for, and that drifted further than
         cg's would have (whose claim cg trusts): check with the true one */
      PetscCall(PetscInfo(ksp, "converged by the recursive residual %g, but the estimated gap is %g: checking the true residual\n", (double)rn, (double)pipe->gf));
      ksp->reason   = KSP_CONVERGED_ITERATING;
      pipe->suspect = PETSC_TRUE;
    } else if (!ksp->reason && !(rn <= PIPE_GROWTH * pipe->rmin)) pipe->suspect = PETSC_TRUE; /* wild growth */
    /* with no norm nothing claims convergence: below the gap estimate the recursive residual has lost
       touch with b - A x, so check the true one (and stop at the floor if it brought no progress) */
    else if (!ksp->reason && ksp->normtype == KSP_NORM_NONE && rn < pipe->gf) pipe->suspect = PETSC_TRUE;
  }
  pipe->rmin = PetscMin(pipe->rmin, rn);
  PetscFunctionReturn(0);
}

PetscErrorCode KSPPipeGuardBreakdown_Private(KSP ksp, PetscBool *restart)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  *restart = PETSC_FALSE;
  if ((KSPPipeIsBreakdown(ksp) || pipe->suspect) && !pipe->restart) {
    PetscCall(PetscInfo(ksp, "%s at iteration %" PetscInt_FMT " after recurrences: restarting from the true residual\n", pipe->suspect ? "residual growth" : KSPConvergedReasons[ksp->reason], ksp->its));
    pipe->breakreason = KSPPipeIsBreakdown(ksp) ? ksp->reason : KSP_CONVERGED_ITERATING;
    ksp->reason       = KSP_CONVERGED_ITERATING;
    pipe->restart = pipe->truenow = pipe->frombreak = PETSC_TRUE;
    pipe->nrestart_solve++;
    pipe->nrestart_total++;
    *restart = PETSC_TRUE;
  }
  pipe->suspect = PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode KSPPipeFloorStop_Private(KSP ksp, const char *why)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;
  PetscBool far  = PETSC_FALSE;
  PetscReal xn = 0, bn = 0;

  PetscFunctionBegin;
  /* the rounding floor is about eps (||A|| ||x|| + ||b||); far above it no progress is not the floor.
     Without ||A|| (a shell operator) the floor is unknown: taken as reached */
  if (pipe->anorm > 0) {
    PetscCall(VecNorm(ksp->vec_sol, NORM_2, &xn));
    PetscCall(VecNorm(ksp->vec_rhs, NORM_2, &bn));
    far = (PetscBool)(pipe->best > PIPE_FLOOR_FAR * (pipe->anorm * xn + bn));
  }
  /* a breakdown that comes back after restarts from b - A x, far above the floor, is the one cg meets:
     A or M is not SPD. cg ends with it, and so do we */
  if (far && pipe->breakreason != KSP_CONVERGED_ITERATING) {
    ksp->reason = pipe->breakreason;
    PetscCall(PetscInfo(ksp, "%s again after restarts from the true residual %g (||b|| %g): not rounding, A or M is not SPD\n", KSPConvergedReasons[ksp->reason], (double)pipe->best, (double)bn));
    PetscFunctionReturn(0);
  }
  /* cg's recursive residual keeps falling below the attainable accuracy until it meets the tolerance (or
     with no norm, until beta = 0): it ends converged with x at its floor. We end there now. Under
     KSPConvergedSkip cg never ends before the iteration limit, so neither do we: iterate on */
  if (ksp->converged == KSPConvergedSkip) {
    pipe->stalls = 0;
    PetscCall(PetscInfo(ksp, "at the attainable accuracy, true residual %g (%s); the convergence test is skip: iterating on\n", (double)pipe->best, why));
    PetscFunctionReturn(0);
  }
  if (far) { /* slow progress (short restarts), not the floor */
    pipe->stalls = 0;
    PetscCall(PetscInfo(ksp, "true residual %g (%s) is far above the rounding floor (||A|| %g, ||x|| %g, ||b|| %g): iterating on\n", (double)pipe->best, why, (double)pipe->anorm, (double)xn, (double)bn));
    PetscFunctionReturn(0);
  }
  if (ksp->normtype == KSP_NORM_NONE) ksp->reason = KSP_CONVERGED_ATOL;
  else ksp->reason = (ksp->rtol * pipe->rnorm0 >= ksp->abstol) ? KSP_CONVERGED_RTOL : KSP_CONVERGED_ATOL;
  PetscCall(PetscInfo(ksp, "stopping at the attainable accuracy, true residual %g (%s)\n", (double)pipe->best, why));
  PetscFunctionReturn(0);
}

PetscErrorCode KSPPipeContinueStart_Private(KSP ksp, Mat A, PetscInt its, Vec r)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  /* the recurrences start afresh from the true residual: the guards' state of a restart */
  pipe->restart = pipe->truenow = PETSC_TRUE;
  pipe->suspect                 = PETSC_FALSE;
  pipe->rmin                    = PETSC_MAX_REAL;
  pipe->gf = pipe->gg = pipe->gh = pipe->gj = 0.0;
  pipe->itrue                               = its;
  /* the caller's method needs M and A SPD: a (r, M^{-1} r) or (p, A p) below zero is a breakdown, as in cg,
     not the sign of a negative definite pair that the method alone would accept */
  pipe->gsign = pipe->dsign = 1.0;
  if (its == 0) PetscCall(KSPPipeResidual_Private(ksp, A, r));
  else PetscCall(KSPPipeTrueResidual_Private(ksp, A, r));
  PetscFunctionReturn(0);
}
