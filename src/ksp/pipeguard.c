/* The convergence guards of the pipelined KSP types: the estimate of the gap between the recursive and
   the true residual, residual replacement, the restarts from the true residual after a breakdown or wild
   growth, the stop at the rounding floor, the kept iterate (least energy) after a loss of stability, the
   end of a solve and -ksp_view's line on auto replacement. This file owns pipeksp/pipeguard.h: the
   thresholds (PIPE_*, which pipeplcg applies too) and the calls; it calls only pipeapply.c. */
#include <pipeksp/pipeguard.h>

/* the reason set by the coefficients or the gamma check is a breakdown to verify */
static inline PetscBool IsBreakdown(KSP ksp)
{
  return (PetscBool)(ksp->reason == KSP_DIVERGED_INDEFINITE_MAT || ksp->reason == KSP_DIVERGED_INDEFINITE_PC || ksp->reason == KSP_DIVERGED_BREAKDOWN);
}

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
  pipe->guard.dphi = -1.0;
  if (pipe->guard.haskeep) {
    Mat          A;
    MatNullSpace nsp;

    PetscCall(VecWAXPY(KeepD(ksp), -1.0, KeepX(ksp), ksp->vec_sol));
    /* phi does not see the operator's null space, but the rounding of r does: at the floor, a null-space
       part of x - xk times r's rounding outweighs the energies' difference */
    PetscCall(KSPGetOperators(ksp, &A, NULL));
    PetscCall(MatGetNullSpace(A, &nsp));
    if (nsp) PetscCall(MatNullSpaceRemove(nsp, KeepD(ksp)));
    y[0] = r;
    y[1] = KeepR(ksp);
    PetscCall(VecMDot(KeepD(ksp), 2, y, d));
    pipe->guard.dphi = -0.5 * PetscRealPart(d[0] + d[1]);
    /* a negative definite A (the solve accepted (p,Ap) < 0, as cg does): the error's norm is that of -A, and
       the lower error the higher phi (kept by phi, a converged x had been swapped for x0) */
    if (pipe->guard.dsign < 0) pipe->guard.dphi = -pipe->guard.dphi;
  }
  if (pipe->guard.dphi <= 0) { /* lower (or the first): kept; NaN is not */
    PetscCall(VecCopy(ksp->vec_sol, KeepX(ksp)));
    PetscCall(VecCopy(r, KeepR(ksp)));
    pipe->guard.haskeep = PETSC_TRUE;
    pipe->guard.bestits = ksp->its;
  }
  PetscCall(PetscObjectStateGet((PetscObject)ksp->vec_sol, &pipe->guard.phistate));
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
  if (tn < pipe->guard.best) pipe->guard.best = tn;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPPipeBestRestore_Private(KSP ksp)
{
  KSP_Pipe        *pipe = (KSP_Pipe *)ksp->data;
  PetscObjectState state;

  PetscFunctionBegin;
  PetscCall(PetscObjectStateGet((PetscObject)ksp->vec_sol, &state));
  PetscCheck(state == pipe->guard.phistate, PetscObjectComm((PetscObject)ksp), PETSC_ERR_PLIB, "x is compared with the kept iterate right after its true residual is formed, but x changed since");
  if (!pipe->guard.haskeep || pipe->guard.dphi <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscInfo(ksp, "x has the higher energy (by %g) than the iterate of iteration %" PetscInt_FMT ": returning to that one\n", (double)pipe->guard.dphi, pipe->guard.bestits));
  PetscCall(VecCopy(KeepX(ksp), ksp->vec_sol));
  pipe->guard.dphi = -1.0;
  PetscCall(PetscObjectStateGet((PetscObject)ksp->vec_sol, &pipe->guard.phistate));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FloorFar(KSP, PetscReal, PetscBool *, PetscReal *, PetscReal *);

PetscErrorCode KSPPipeSolveEnd_Private(KSP ksp, Mat A, Vec T)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;
  PetscBool breakdown;

  PetscFunctionBegin;
  if (ksp->reason == KSP_DIVERGED_ITS && pipe->guard.hasbreak && pipe->guard.cgbreak && ksp->normtype != KSP_NORM_NONE && pipe->guard.rnbreak > PIPE_BREAK_FAR * KSPPipeTolerance_Private(ksp)) {
    PetscBool far;

    /* far from the tolerance stands for far from the floor, unless the tolerance is below the floor (-ksp_rtol 0
       -ksp_atol 0, a fixed count of iterations): then the true residual formed at the restart must be far from
       it too (a recursive (r,M^{-1}r) of -5e-35 with jacobi on the cube had ended DIVERGED_INDEFINITE_PC) */
    PetscCall(FloorFar(ksp, PIPE_FLOOR_NEAR, &far, NULL, NULL));
    if (far) {
      PetscCall(PetscInfo(ksp, "the limit came before the breakdown of iteration %" PetscInt_FMT " came back, far from the tolerance (norm %g): cg's end there\n", pipe->guard.itsbreak, (double)pipe->guard.rnbreak));
      ksp->reason = pipe->guard.whybreak;
    } else PetscCall(PetscInfo(ksp, "the limit came before the breakdown of iteration %" PetscInt_FMT " came back, at the rounding floor (true residual %g): rounding, cg's limit\n", pipe->guard.itsbreak, (double)pipe->guard.best));
  }
  breakdown = IsBreakdown(ksp);
  if (breakdown) {
    /* cg ends at the first breakdown it meets: a confirmed one (it came back after the restarts from the true
       residual) returns the iterate, iteration, norm and reason of the first; cg counts the iteration of its
       test, one past the last one tested */
    if (pipe->guard.hasbreak) {
      PetscCall(VecCopy(pipe->guard.xbreak, ksp->vec_sol));
      ksp->its    = pipe->guard.itsbreak;
      ksp->reason = pipe->guard.whybreak;
      if (pipe->guard.rnbreak >= 0) ksp->rnorm = pipe->guard.rnbreak;
    }
    ksp->its++;
    /* past the limit (pipeplcg's norm l iterations late meets it before the limit's test; x took no update
       past the limit) cg stops at the limit */
    if (ksp->its > KSPPipeMaxIt_Private(ksp)) {
      ksp->its    = KSPPipeMaxIt_Private(ksp);
      ksp->reason = KSP_DIVERGED_ITS;
    }
  }
  /* -ksp_max_it 0: cg's one iteration ends DIVERGED_ITS whatever its test or breakdown said (cg's loop
     exit sets it), and only an Inf or NaN, or a PC failure, returns before */
  if (!ksp->max_it && ksp->its > 0 && ksp->reason != KSP_DIVERGED_NANORINF && ksp->reason != KSP_DIVERGED_PC_FAILED) ksp->reason = KSP_DIVERGED_ITS;
  if (breakdown) PetscFunctionReturn(PETSC_SUCCESS); /* no energy is compared: A or M is not SPD */
  /* cg's contract: the last iterate, whatever the reason (an Inf or NaN too). Only where the solve lost
     stability (a restart from the true residual, a depth change) can an earlier iterate be better */
  if (ksp->reason == KSP_DIVERGED_NANORINF || (!pipe->nrestart_solve && !pipe->ndepth_solve) || !pipe->guard.haskeep) PetscFunctionReturn(PETSC_SUCCESS);
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
  if (A != pipe->guard.amat || state != pipe->guard.astate) {
    PetscBool has;
    PetscCall(MatHasOperation(A, MATOP_NORM, &has));
    pipe->guard.anorm = 0.0;
    if (has) PetscCall(MatNorm(A, NORM_INFINITY, &pipe->guard.anorm));
    PetscCall(PetscObjectReference((PetscObject)A));
    PetscCall(MatDestroy(&pipe->guard.amat));
    pipe->guard.amat   = A;
    pipe->guard.astate = state;
  }
  pipe->guard.gf = pipe->guard.gg = pipe->guard.gh = pipe->guard.gj = pipe->guard.gf0 = pipe->guard.gcf = pipe->guard.gcg = 0.0;
  pipe->guard.best                                                                                                        = PETSC_MAX_REAL;
  pipe->guard.bestits                                                                                                     = 0;
  pipe->guard.haskeep                                                                                                     = PETSC_FALSE;
  pipe->guard.hasbreak                                                                                                    = PETSC_FALSE;
  PetscCall(VecDestroy(&pipe->guard.xbreak));
  pipe->guard.dphi        = -1.0;
  pipe->guard.phistate    = -1;
  pipe->guard.restart     = PETSC_TRUE;
  pipe->guard.truenow     = PETSC_TRUE;
  pipe->guard.frombreak   = PETSC_FALSE;
  pipe->guard.breakreason = KSP_CONVERGED_ITERATING;
  pipe->guard.gsign = pipe->guard.dsign = 0.0;
  pipe->guard.suspect                   = PETSC_FALSE;
  pipe->guard.checkclaim                = PETSC_FALSE;
  pipe->guard.rmin                      = PETSC_MAX_REAL;
  pipe->guard.rprev                     = -1.0;
  pipe->guard.nflat                     = 0;
  pipe->guard.dp1 = pipe->guard.dp2 = -1.0; /* no norm of this solve yet: nothing to guess the last iteration from */
  pipe->guard.rn0                   = -1.0;
  pipe->guard.itmon                 = -1;
  pipe->guard.ittest                = -1;
  pipe->guard.stalls                = 0;
  pipe->guard.itrue                 = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
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
  return (PetscBool)(!pipe->guard.cgref || pipe->guard.gf > PIPE_GAP_CG * pipe->guard.gcf);
}

void KSPPipeGapUpdate_Private(KSP ksp, PetscBool pipelined, PetscScalar alpha, PetscScalar beta, PetscReal rn, PetscReal xn, PetscReal un, PetscReal pn, PetscReal qn)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;
  PetscReal eps = PIPE_ROUND_RMS, an = pipe->guard.anorm, a = PetscAbsScalar(alpha), b = PetscAbsScalar(beta);

  pipe->guard.pipelined = pipelined;
  /* bounds from the recurrences, each step adding its local rounding error (Cools et al. 2018):
     s = w + beta s: g' = |beta| g + h;  r -= alpha s, x += alpha p: f' = f + |alpha| g';
     pipelined also z = n + beta z: j' = |beta| j and w -= alpha z: h' = h + |alpha| j' */
  if (pipelined) {
    pipe->guard.gj = Q2(b * pipe->guard.gj, 2 * eps * an * qn);
    pipe->guard.gg = Q2(b * pipe->guard.gg + pipe->guard.gh, eps * an * (un + 2 * b * pn));
    pipe->guard.gh = Q2(pipe->guard.gh + a * pipe->guard.gj, eps * an * (un + a * qn));
  } else {
    pipe->guard.gh = eps * an * un; /* w = A u computed */
    pipe->guard.gg = Q2(b * pipe->guard.gg + pipe->guard.gh, eps * an * (un + 2 * b * pn));
  }
  pipe->guard.gf = Q2(pipe->guard.gf + a * pipe->guard.gg, eps * (rn + an * (xn + 2 * a * pn)));
  /* the same for cg's recurrences (s = A p computed each step): the drift cg's contract allows */
  pipe->guard.gcg = eps * an * (un + 2 * b * pn);
  pipe->guard.gcf = Q2(pipe->guard.gcf + a * pipe->guard.gcg, eps * (rn + an * (xn + 2 * a * pn)));
}

/* the gap a replacement is for: PIPE_GAP_TARGET of the residual asked for (with no norm: the floor) */
static PetscReal ReplaceTarget(KSP ksp)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  return ksp->normtype == KSP_NORM_NONE ? 0.0 : PIPE_GAP_TARGET * ksp->rtol * pipe->guard.rn0;
}

/* whether iteration its ends with a residual replacement, by the fixed period or the auto rule */
static PetscBool ReplaceAsked(KSP ksp, PetscInt its)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  if (pipe->replace == PETSC_DECIDE) {
    /* in the spirit of van der Vorst and Ye, but against the residual asked for: the gap only matters
       once it could reach the requested residual (with no norm: the floor), and only where a fresh
       residual is clearly better than the one left by the last replacement */
    PetscReal target = ReplaceTarget(ksp);
    /* a replacement costs more than the one true residual of the check at a claimed convergence, and
       perturbs the recurrences: within PIPE_GAP_SPACING iterations of the last true residual the check
       at convergence takes care of a gap */
    /* and not at all for recurrences whose gap grows as cg's (pipegropp, chrongear: cg replaces nothing, and
       replacements every 100 iterations cost pipegropp 3.5x cg's iterations at a tight tolerance) */
    return (PetscBool)(pipe->guard.anorm > 0 && its - pipe->guard.itrue >= PIPE_GAP_SPACING && pipe->guard.gf > target && pipe->guard.gf > PIPE_GAP_GROWTH * pipe->guard.gf0 && (!pipe->guard.cgref || pipe->guard.pipelined));
  }
  return (PetscBool)(pipe->replace > 0 && !(its % pipe->replace));
}

/* the replacement decided on: counted and reported here only */
static PetscErrorCode ReplaceCount(KSP ksp, PetscInt its, PetscReal rn)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  pipe->nrep_solve++;
  pipe->nrep_total++;
  PetscCall(PetscInfo(ksp, "residual replacement at iteration %" PetscInt_FMT ": ||r|| %g, gap bound %g\n", its, (double)rn, (double)pipe->guard.gf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPPipeReplaceNow_Private(KSP ksp, PetscInt its, PetscReal rn, PetscBool *now)
{
  PetscFunctionBegin;
  *now = ReplaceAsked(ksp, its);
  if (*now) PetscCall(ReplaceCount(ksp, its, rn));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPPipeReplaceMeasured_Private(KSP ksp, PetscInt its, Mat A, Vec r, Vec t, Vec d, PetscReal rn, PetscBool *now, PetscBool *measured)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;
  PetscReal gap, tn, target = ReplaceTarget(ksp);

  PetscFunctionBegin;
  *now      = ReplaceAsked(ksp, its);
  *measured = PETSC_FALSE;
  /* the bound proposes, the gap measured decides, against the same target (none with no norm or rtol 0:
     the bound's proposal stands) */
  if (*now && pipe->replace == PETSC_DECIDE && target > 0) {
    PetscCall(KSPPipeTrueResidual_Private(ksp, A, t));
    PetscCall(VecWAXPY(d, -1.0, r, t));
    PetscCall(VecNormBegin(d, NORM_2, &gap)); /* one reduction for both */
    PetscCall(VecNormBegin(t, NORM_2, &tn));
    PetscCall(VecNormEnd(d, NORM_2, &gap));
    PetscCall(VecNormEnd(t, NORM_2, &tn));
    *measured              = PETSC_TRUE;
    const PetscBool nearby = (PetscBool)(tn > target && gap > PIPE_GAP_PERTURB * tn && gap < PIPE_GAP_NEAR * target);

    if (gap < target || nearby) {
      /* the bound ran ahead of the gap, or the gap is a large part of b - A x near the residual asked for: no
         replacement until the bound has grown PIPE_GAP_GROWTH times more (it stays a bound: a convergence it does
         not vouch for is still checked against the true residual) */
      *now                   = PETSC_FALSE;
      pipe->guard.gf0        = pipe->guard.gf;
      pipe->guard.itrue      = ksp->its;
      pipe->guard.checkclaim = (PetscBool)(pipe->guard.checkclaim || nearby); /* the check is what stands in for it */
      PetscCall(PetscInfo(ksp, "no residual replacement at iteration %" PetscInt_FMT ": the gap bound %g asked for one, the gap measured is %g, %.2g of ||b - A x|| and %.2g times the residual asked for\n", its, (double)pipe->guard.gf, (double)gap, (double)(tn > 0 ? gap / tn : 0), (double)(gap / target)));
    }
  }
  if (*now) PetscCall(ReplaceCount(ksp, its, rn));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPPipeReplaced_Private(KSP ksp, PetscReal tn, PetscReal xn)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  pipe->guard.gf = pipe->guard.gf0 = pipe->guard.gcf = PIPE_ROUND_RMS * (tn + pipe->guard.anorm * xn);
  pipe->guard.gcg                                    = 0.0;
  pipe->guard.gg = pipe->guard.gh = pipe->guard.gj = 0.0;
  pipe->guard.itrue                                = ksp->its;
  pipe->guard.checkclaim                           = PETSC_FALSE;
  PetscCall(KSPPipeBestRecord_Private(ksp, tn));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPPipeGuardAfterTest_Private(KSP ksp, PetscReal rn, PetscReal xn)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  if (pipe->guard.rn0 < 0) pipe->guard.rn0 = rn;
  if (pipe->guard.truenow) {
    const char *floor = NULL; /* why the solve is at the floor, if it is */

    if (pipe->guard.frombreak && !ksp->reason) {
      /* restarted from the true residual: PIPE_STALLS times in a row no better than PIPE_GAIN of the best
         measured means the attainable accuracy is reached, iterating on cannot help */
      if (!(rn < PIPE_GAIN * pipe->guard.best)) pipe->guard.stalls++;
      else pipe->guard.stalls = 0;
      if (pipe->guard.stalls >= PIPE_STALLS) floor = "restarts from the true residual brought no progress";
    }
    /* a replacement, or a restart of drift (not of a breakdown), whose recurrences had lost touch with b - A x */
    if (!floor && !ksp->reason && !(pipe->guard.frombreak && pipe->guard.breakreason != KSP_CONVERGED_ITERATING)) {
      PetscBool lost;

      PetscCall(KSPPipeLostTouch_Private(ksp, pipe->guard.rmin, rn, rn, &lost));
      if (lost) floor = "the recurrences before the restart had lost touch with it";
    }
    if (floor) {
      PetscCall(KSPPipeFloorStop_Private(ksp, floor));
      if (ksp->reason) PetscFunctionReturn(PETSC_SUCCESS);
    }
    PetscCall(KSPPipeReplaced_Private(ksp, rn, xn));
    pipe->guard.truenow = pipe->guard.frombreak = PETSC_FALSE;
    pipe->guard.rmin                            = rn;
  }
  /* tests in a row whose recursive residual moved by less than PIPE_FLAT, this one included (0 after a restart) */
  pipe->guard.nflat = (!pipe->guard.restart && PetscAbsReal(rn - pipe->guard.rprev) < PIPE_FLAT * rn) ? pipe->guard.nflat + 1 : 0;
  pipe->guard.rprev = rn;
  if (!pipe->guard.restart) {
    if (ksp->reason == KSP_DIVERGED_DTOL) { /* cg's residual does not grow like that on an SPD problem */
      ksp->reason         = KSP_CONVERGED_ITERATING;
      pipe->guard.suspect = PETSC_TRUE;
    } else if (ksp->reason > 0 && ksp->reason != KSP_CONVERGED_ITS && pipe->guard.gf > PIPE_GAP_CHECK * rn && (BeyondCG(pipe) || pipe->guard.checkclaim)) {
      /* converged by a recursive residual the gap estimate does not vouch for, and that drifted further than
         cg's would have (whose claim cg trusts): check with the true one */
      PetscCall(PetscInfo(ksp, "converged by the recursive residual %g, but the estimated gap is %g: checking the true residual\n", (double)rn, (double)pipe->guard.gf));
      ksp->reason         = KSP_CONVERGED_ITERATING;
      pipe->guard.suspect = PETSC_TRUE;
    } else if (!ksp->reason && !(rn <= PIPE_GROWTH * pipe->guard.rmin)) pipe->guard.suspect = PETSC_TRUE; /* wild growth */
    /* with no norm nothing claims convergence: below the gap estimate the recursive residual has lost
       touch with b - A x, so check the true one (and stop at the floor if it brought no progress) */
    else if (!ksp->reason && ksp->normtype == KSP_NORM_NONE && rn < pipe->guard.gf) pipe->guard.suspect = PETSC_TRUE;
    else if (!ksp->reason && rn < pipe->guard.gf && pipe->guard.nflat >= PIPE_FLAT_ITS && ksp->its < KSPPipeMaxIt_Private(ksp)) pipe->guard.suspect = PETSC_TRUE; /* stagnated */
  }
  pipe->guard.rmin = PetscMin(pipe->guard.rmin, rn);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* *far: the least true residual measured is above f (||A|| ||x|| + ||b||), the rounding floor being about eps
   times it. Without ||A|| (a shell operator) the floor is unknown: taken as reached. ||x||, ||b|| in xn, bn if
   asked */
static PetscErrorCode FloorFar(KSP ksp, PetscReal f, PetscBool *far, PetscReal *xn, PetscReal *bn)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;
  PetscReal x = 0, b = 0;

  PetscFunctionBegin;
  *far = PETSC_FALSE;
  if (pipe->guard.anorm > 0) {
    PetscCall(VecNorm(ksp->vec_sol, NORM_2, &x));
    PetscCall(VecNorm(ksp->vec_rhs, NORM_2, &b));
    /* a 2-norm past 1e154 overflows in the sum of squares: sqrt(N) ||.||_inf bounds it (an x of 1e200 entries, A of
       1e-200: an infinite floor had taken a true residual of 0.13 ||b|| for the attainable accuracy) */
    if (PetscIsInfReal(x) || PetscIsInfReal(b)) {
      PetscInt  n;
      PetscReal xi, bi;

      PetscCall(VecGetSize(ksp->vec_sol, &n));
      PetscCall(VecNorm(ksp->vec_sol, NORM_INFINITY, &xi));
      PetscCall(VecNorm(ksp->vec_rhs, NORM_INFINITY, &bi));
      if (PetscIsInfReal(x)) x = PetscSqrtReal((PetscReal)n) * xi;
      if (PetscIsInfReal(b)) b = PetscSqrtReal((PetscReal)n) * bi;
    }
    *far = (PetscBool)(pipe->guard.best > f * (pipe->guard.anorm * x + b));
  }
  if (xn) *xn = x;
  if (bn) *bn = b;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPPipeBreakRecord_Private(KSP ksp, PetscInt its, KSPConvergedReason why, PetscReal rn, PetscBool cgrec)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  if (pipe->guard.hasbreak) PetscFunctionReturn(PETSC_SUCCESS); /* cg ends at the first */
  if (!pipe->guard.xbreak) PetscCall(VecDuplicate(ksp->vec_sol, &pipe->guard.xbreak));
  PetscCall(VecCopy(ksp->vec_sol, pipe->guard.xbreak));
  pipe->guard.itsbreak = its;
  pipe->guard.rnbreak  = rn;
  pipe->guard.whybreak = why;
  pipe->guard.cgbreak  = cgrec;
  pipe->guard.hasbreak = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The formula cancels more as the condition number grows, and a (p,Ap) of the other sign from it can be its
   rounding on an SPD A; a dot product with an SPD A changes sign only by its own rounding (the case, and what
   did not work instead: docs/algorithms.md, section 5) */
PetscErrorCode KSPPipeBreakCheckPAp_Private(KSP ksp, Mat A, PetscScalar beta, Vec u, Vec p, Vec t, Vec at, PetscBool *refuted)
{
  KSP_Pipe   *pipe = (KSP_Pipe *)ksp->data;
  PetscScalar pap;

  PetscFunctionBegin;
  if (refuted) *refuted = PETSC_FALSE;
  /* only the record of this iteration's (p,Ap), made at this restart (a second restart at the same iteration
     is not taken), against an accepted sign (the formula's first (p,Ap) after a (re)start is (u,Au), a dot
     product) */
  if (!pipe->guard.hasbreak || !pipe->guard.cgbreak || pipe->guard.whybreak != KSP_DIVERGED_INDEFINITE_MAT || pipe->guard.itsbreak != ksp->its || pipe->guard.dsign == 0.0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecCopy(u, t));
  if (beta != 0.0) PetscCall(VecAXPY(t, beta, p));
  PetscCall(KSPPipeMatMult_Private(ksp, A, t, at));
  PetscCall(VecDot(at, t, &pap));
  if (PetscRealPart(pap) * pipe->guard.dsign > 0.0) {
    PetscCall(PetscInfo(ksp, "(p,Ap) of the recurrences changed sign at iteration %" PetscInt_FMT ", its dot product %g did not: their rounding, not cg's breakdown\n", ksp->its, (double)PetscRealPart(pap)));
    pipe->guard.hasbreak    = PETSC_FALSE;
    pipe->guard.breakreason = KSP_CONVERGED_ITERATING; /* a restart of drift, as after residual growth */
    if (refuted) *refuted = PETSC_TRUE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPPipeGuardBreakdown_Private(KSP ksp, PetscBool *restart)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  *restart = PETSC_FALSE;
  if ((IsBreakdown(ksp) || pipe->guard.suspect) && !pipe->guard.restart) {
    PetscCall(PetscInfo(ksp, "%s at iteration %" PetscInt_FMT " after recurrences: restarting from the true residual\n",
                        pipe->guard.suspect ? "a recursive residual in doubt (wild growth, stagnation below the gap estimate, a claim the gap estimate does not vouch for, or a 0 under a counting test)" : KSPConvergedReasons[ksp->reason], ksp->its));
    pipe->guard.breakreason = IsBreakdown(ksp) ? ksp->reason : KSP_CONVERGED_ITERATING;
    if (IsBreakdown(ksp)) PetscCall(KSPPipeBreakRecord_Private(ksp, ksp->its, ksp->reason, ksp->rnorm, PETSC_TRUE));
    ksp->reason         = KSP_CONVERGED_ITERATING;
    pipe->guard.restart = pipe->guard.truenow = pipe->guard.frombreak = PETSC_TRUE;
    pipe->nrestart_solve++;
    pipe->nrestart_total++;
    *restart = PETSC_TRUE;
  } else if (IsBreakdown(ksp) && pipe->nrestart_solve > 0 && ksp->converged != KSPConvergedSkip) {
    PetscBool far;

    /* right after a restart, from a true residual at the rounding floor: (r,M^{-1}r) or (p,Ap) of rounding
       noise, which a PC that is SPD only to rounding (hypre on a singular operator) can make negative. cg's
       recursive residual, below the floor, does not meet it there: not the input's breakdown, the floor */
    PetscCall(FloorFar(ksp, PIPE_FLOOR_NEAR, &far, NULL, NULL));
    if (!far) {
      PetscCall(PetscInfo(ksp, "%s right after a restart from a true residual at the rounding floor (%g): rounding\n", KSPConvergedReasons[ksp->reason], (double)pipe->guard.best));
      ksp->reason = KSP_CONVERGED_ITERATING;
      PetscCall(KSPPipeFloorStop_Private(ksp, "a breakdown of rounding noise at the floor"));
    }
  }
  pipe->guard.suspect = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPPipeLostTouch_Private(KSP ksp, PetscReal rrec, PetscReal rn, PetscReal tn, PetscBool *lost)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;
  PetscBool far  = PETSC_TRUE;

  PetscFunctionBegin;
  *lost = PETSC_FALSE;
  /* only with a known floor (||A||), for an x that is the best measured, and before the limit (where cg's recursion
     claimed nothing) */
  if (!(rrec < PIPE_LOST * rn && pipe->guard.anorm > 0 && ksp->its < KSPPipeMaxIt_Private(ksp))) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(KSPPipeBestRecord_Private(ksp, tn));
  if (tn <= pipe->guard.best) PetscCall(FloorFar(ksp, PIPE_FLOOR_AT, &far, NULL, NULL));
  *lost = (PetscBool)!far;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPPipeKrylovEnd_Private(KSP ksp, PetscInt its, PetscBool *end)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;
  PetscInt  N;

  PetscFunctionBegin;
  PetscCall(VecGetSize(ksp->vec_rhs, &N));
  /* with no norm nothing tells how near: the handover. A restarted CG needs up to N iterations of its own: with fewer
     left before the limit it cannot pay off (a diagonal of 108 capped at 116: 1.28x cg's A-norm error after it) */
  *end = (PetscBool)(its == N && its + N <= KSPPipeMaxIt_Private(ksp) && (ksp->normtype == KSP_NORM_NONE || !(ksp->rnorm <= PIPE_KRYLOV_NEAR * KSPPipeTolerance_Private(ksp))));
  if (*end)
    PetscCall(
      PetscInfo(ksp, "iteration %" PetscInt_FMT " is the global size, where CG ends in exact arithmetic: Gropp's CG from the true residual for the rest of the solve (||r|| %g, ||r_0|| %g, tolerance %g)\n", its, (double)ksp->rnorm, (double)pipe->guard.rn0, (double)KSPPipeTolerance_Private(ksp)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPPipeFloorStop_Private(KSP ksp, const char *why)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;
  PetscBool far;
  PetscReal xn, bn;

  PetscFunctionBegin;
  PetscCall(FloorFar(ksp, PIPE_FLOOR_FAR, &far, &xn, &bn));
  /* a breakdown that comes back after restarts from b - A x, far above the floor, is the one cg meets:
     A or M is not SPD. cg ends with it, and so do we */
  if (far && pipe->guard.breakreason != KSP_CONVERGED_ITERATING) {
    ksp->reason = pipe->guard.breakreason;
    PetscCall(PetscInfo(ksp, "%s again after restarts from the true residual %g (||b|| %g): not rounding, A or M is not SPD\n", KSPConvergedReasons[ksp->reason], (double)pipe->guard.best, (double)bn));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* cg's recursive residual keeps falling below the attainable accuracy until it meets the tolerance (or
     with no norm, until beta = 0 or a (p, Ap) <= 0 of its noise, which the fuzzer sees it meet): it ends
     converged with x at its floor. We end there now. Under KSPConvergedSkip cg never ends before the iteration
     limit, so neither do we: iterate on. Nor before a user's test with no norm ends it: it sees only (its, 0)
     and counts the iterations (a user's test to 12 on a 1-D Laplacian of 6 rows: CONVERGED_ATOL at 8-11 here
     before, cg's CONVERGED_ITS at 12; iterating on with the default test lost 14 of seed 61's lines to cg's
     beta = 0 ends) */
  if (KSPPipeTestCounts_Private(ksp)) {
    pipe->guard.stalls = 0;
    PetscCall(PetscInfo(ksp, "at the attainable accuracy, true residual %g (%s); the convergence test is skip, or one of the user's with no norm: iterating on\n", (double)pipe->guard.best, why));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* nor with a tolerance of 0 and a norm (-ksp_rtol 0 -ksp_atol 0: a fixed count of iterations), which cg's
     recursive residual does not meet */
  if (ksp->normtype != KSP_NORM_NONE && KSPPipeTolerance_Private(ksp) <= 0) {
    pipe->guard.stalls = 0;
    PetscCall(PetscInfo(ksp, "at the attainable accuracy, true residual %g (%s); the tolerance is 0: iterating on\n", (double)pipe->guard.best, why));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (far) { /* slow progress (short restarts), not the floor */
    pipe->guard.stalls = 0;
    PetscCall(PetscInfo(ksp, "true residual %g (%s) is far above the rounding floor (||A|| %g, ||x|| %g, ||b|| %g): iterating on\n", (double)pipe->guard.best, why, (double)pipe->guard.anorm, (double)xn, (double)bn));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (ksp->normtype == KSP_NORM_NONE) ksp->reason = KSP_CONVERGED_ATOL;
  else ksp->reason = (ksp->rtol * pipe->guard.rnorm0 >= ksp->abstol) ? KSP_CONVERGED_RTOL : KSP_CONVERGED_ATOL;
  PetscCall(PetscInfo(ksp, "stopping at the attainable accuracy, true residual %g (%s; ||A|| %g, ||x|| %g, ||b|| %g)\n", (double)pipe->guard.best, why, (double)pipe->guard.anorm, (double)xn, (double)bn));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPPipeContinueStart_Private(KSP ksp, Mat A, PetscInt its, Vec r)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  /* the recurrences start afresh from the true residual: the guards' state of a restart */
  pipe->guard.restart = pipe->guard.truenow = PETSC_TRUE;
  pipe->guard.suspect                       = PETSC_FALSE;
  pipe->guard.rmin                          = PETSC_MAX_REAL;
  pipe->guard.gf = pipe->guard.gg = pipe->guard.gh = pipe->guard.gj = 0.0;
  pipe->guard.itrue                                                 = its;
  /* after the caller's iterations, which need M and A SPD, a (r, M^{-1} r) or (p, A p) below zero is a change of
     sign, cg's breakdown. From iteration 0 no sign is accepted yet: the first one is, as in cg (a negative
     definite PC, or a first (r, M^{-1} r) below zero at -ksp_max_it 1, where cg stops at the limit) */
  if (its > 0) { /* signs a caller accepted stand (pipegv on a negative definite A at KSPPipeKrylovEnd_Private()) */
    if (pipe->guard.gsign == 0.0) pipe->guard.gsign = 1.0;
    if (pipe->guard.dsign == 0.0) pipe->guard.dsign = 1.0;
  }
  if (!r) PetscFunctionReturn(PETSC_SUCCESS); /* the caller has it */
  if (its == 0) PetscCall(KSPPipeResidual_Private(ksp, A, r));
  else PetscCall(KSPPipeTrueResidual_Private(ksp, A, r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPPipeGuardViewAutoReplace_Private(KSP ksp, PetscViewer viewer)
{
  PetscFunctionBegin;
  (void)ksp;
  PetscCall(KSPPipeGuardViewReplaceRule_Private(viewer, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPPipeGuardViewReplaceRule_Private(PetscViewer viewer, PetscBool pipelined)
{
  PetscFunctionBegin;
  if (!pipelined)
    PetscCall(PetscViewerASCIIPrintf(viewer, "residual replacement: auto, which is none here: these recurrences drift as cg's, which replaces nothing (a claimed convergence is checked against the true residual where the gap estimate exceeds %g x cg's)\n", (double)PIPE_GAP_CG));
  else
    PetscCall(PetscViewerASCIIPrintf(viewer, "residual replacement: auto (when the estimated gap between recursive and true residual reaches %g of the requested residual, at least %d iterations after the last true residual, and the gap measured then does too, unless it is over %g of b - A x and within %g x the requested residual)\n", (double)PIPE_GAP_TARGET, PIPE_GAP_SPACING, (double)PIPE_GAP_PERTURB, (double)PIPE_GAP_NEAR));
  PetscFunctionReturn(PETSC_SUCCESS);
}
