/* pipeplcg's policy: the convergence test and the check of a claimed convergence, its gap estimate, the
   (re)start points from the true residual with their progress rules, and the depth: lowered after a
   breakdown, capped at 1 on matrices whose earlier solve broke down early (docs/pipeplcg.md) */
#include <pipeksp/pipeplcgimpl.h>

/* at depth 1 (the shifted p(1)-CG basis of a user interval) the true residual confirms a claimed convergence
   up to this factor of the tolerance; at depth 2 or more only a true residual within the tolerance itself
   (KSPPipePLCGCheckClaim_Private()), and a refuted claim finishes the solve at depth 1 */
#define PLCG_CONFIRM 2.0
/* an estimated spectrum whose smallest Ritz value is above this fraction of the largest is clustered
   (KSPPipePLCGClustered_Private()) */
#define PLCG_CLUSTERED 0.5
/* a replacement whose residual is below this times the best is progress (any real gain: a restarted
   recurrence gains little per period of a short -ksp_pipe_replace); PIPE_GAIN is the rule for the checks */
#define PLCG_GAIN 0.99
/* breakdown restarts at one depth in one solve beyond which the depth is lowered even with fast progress:
   each restart discards the Krylov space, so more of them cost more than the lower depth's latency */
#define PLCG_BREAKS 3
/* after an early breakdown, solves on the same matrices run at depth 1; the deep pipeline is tried again after
   this many healthy ones, twice as many after each retry that broke down early again (back-off) */
#define PLCG_RETRY 3
/* a breakdown with the natural residual within this factor of rtol ||r_0|| is near convergence: a restart at
   the same depth usually finishes the solve; farther out the basis broke mid-solve and would again */
#define PLCG_NEAR 1e2

/* the convergence test of iteration its with norm dp; DIVERGED_ITS at max_it */
PetscErrorCode KSPPipePLCGTest_Private(KSP ksp, PetscInt its, PetscReal dp)
{
  PetscFunctionBegin;
  ((KSP_PLCG *)ksp->data)->lastmon = its;
  PetscCall(KSPPipeConvergenceTest_Private(ksp, its, dp));
  if (!ksp->reason && its >= KSPPipeMaxIt_Private(ksp)) ksp->reason = KSP_DIVERGED_ITS;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a convergence the recursive norm claims is checked against the true residual before the solve ends, by a
   restart whose first test uses b - A x. Returns true when the claim is to be checked.
   At depth 2 or more, always: the deep basis's rounding escapes the gap estimate, whose propagated local
   errors leave out the basis's own conditioning. Found by the fuzzer where the estimate had vouched: seed 28
   case 116 (random SPD, bjacobi, depth 5) claimed cg's 5 iterations with a true residual 5.4x the tolerance
   (14x cg's); seed 25 cases 3316 and 3519 (random SPD, jacobi, depth 5) 13x and 13x cg's; a clustered spectrum,
   M^{-1}A in [0.94, 1] (seed 25 case 1504, ex2 with hypre, since run at depth 1: KSPPipePLCGClustered_Private()),
   77x. The check costs one SpMV, PC application and reduction per
   solve (auto's model counts it), and only a true residual within the tolerance confirms the claim. At
   depth 1, the shifted p(1)-CG basis, the gap estimate vouches as for the other solvers. */
PetscBool KSPPipePLCGCheckClaim_Private(KSP ksp)
{
  KSP_PLCG *d    = (KSP_PLCG *)ksp->data;
  KSP_Pipe *pipe = &d->pipe;

  if (pipe->replace != PETSC_DECIDE || ksp->reason <= 0 || ksp->reason == KSP_CONVERGED_ITS) return PETSC_FALSE;
  /* depth 1: the gap estimate vouches for the claim below PIPE_GAP_CHECK of the claimed residual, both
     relative to their norms at the start (the estimate is in the natural norm) */
  if (d->lrun < 2 && pipe->guard.rn0 > 0 && pipe->guard.rnorm0 > 0 && pipe->guard.gf / pipe->guard.rn0 <= PIPE_GAP_CHECK * ksp->rnorm / pipe->guard.rnorm0) return PETSC_FALSE;
  ksp->reason = KSP_CONVERGED_ITERATING;
  return PETSC_TRUE;
}

/* the gap estimate. After a (re)start from the true residual: the rounding of b - A x */
static void PLCGGapReset(KSP ksp, KSP_PLCG *d, PetscReal beta)
{
  KSP_Pipe *pipe = &d->pipe;

  d->xs += PetscSqrtReal(d->y2); /* ||x_start||_M grows at most by ||x - x_start||_M = ||y|| */
  d->y2 = d->c2 = d->yc = 0.0;
  pipe->guard.gg = pipe->guard.gh = pipe->guard.gj = 0.0;
  pipe->guard.gf = pipe->guard.gf0 = PIPE_ROUND_RMS * (beta + d->lmax / KSPPipePLCGFactor_Private(d) * d->xs);
}

/* after x_{i+1} = x_i + zeta_i p_i: the shared gap bounds (pipeguard.c) with the CG quantities of
   p(l)-CG in the M-norm of the Lanczos space, where V is orthonormal: x += zeta_i p_i, p_i = v_i / eta_i -
   (delta_{i-1} / eta_i) p_{i-1}, r = zeta_{i+1} v_{i+1}, ||B|| = lmax / factor, and like pipelined CG's
   the basis is recursive (pipelined), its vectors of norm ||z||^(1/l) per level. ||p||_M = ||c||, p = V c,
   ||c_i||^2 = (1 + delta^2 ||c_{i-1}||^2) / eta^2; ||x||_M <= ||x_start||_M + ||y||, x - x_start = V y. */
void KSPPipePLCGGapStep_Private(KSP ksp, PetscInt i, PetscReal eta, PetscReal zeta, PetscReal zprev, PetscReal znext, PetscReal dm)
{
  KSP_PLCG *d    = (KSP_PLCG *)ksp->data;
  KSP_Pipe *pipe = &d->pipe;
  PetscReal an = pipe->guard.anorm, t, cprev = PetscSqrtReal(d->c2);

  if (i == 0) {
    d->c2 = 1.0 / (eta * eta);
    d->yc = 0.0;
  } else {
    t     = d->yc + zprev * d->c2; /* (y_i, c_{i-1}) */
    d->c2 = (1.0 + dm * dm * d->c2) / (eta * eta);
    d->yc = -dm / eta * t;
  }
  d->y2             = PetscMax(0.0, d->y2 + 2.0 * zeta * d->yc + zeta * zeta * d->c2);
  pipe->guard.anorm = d->lmax / KSPPipePLCGFactor_Private(d); /* ||B||_M, B = M^{-1} A */
  KSPPipeGapUpdate_Private(ksp, PETSC_FALSE, zeta, -dm / eta, PetscAbsReal(znext), d->xs + PetscSqrtReal(d->y2), 1.0 / PetscAbsReal(eta), i ? cprev : 0.0, PetscPowReal(PetscMax(d->nzc, PETSC_SMALL), 1.0 / d->lrun));
  pipe->guard.anorm = an;
}

/* the (re)start's reduction, (r,z), (r,r), (z,z) of the true residual: its convergence test (and the check
   of a claimed convergence), then v_0 = z/beta: the nz vectors z[], the nu u[] and the first vectors of the
   nq auxiliary bases (and of their M-images) are scaled by 1/beta */
PetscErrorCode KSPPipePLCGStartPoint_Private(KSP ksp, KSPPipePLCGStart *st, PetscInt nz, Vec z[], PetscInt nu, Vec u[], PetscInt nq, Vec q[], Vec mq[])
{
  KSP_PLCG   *d    = (KSP_PLCG *)ksp->data;
  KSP_Pipe   *pipe = &d->pipe;
  PetscScalar g0[PLCG_RS_N];
  PetscReal   dp, sc, tn;
  PetscInt    k;

  PetscFunctionBegin;
  PetscCall(PipeKSPRedWaitSlot_Private(pipe->red, d->slot[0], g0, NULL));
  dp = KSPPipeNorm_Private(ksp, g0[PLCG_RS_RR], g0[PLCG_RS_ZZ], g0[PLCG_RS_RZ]);
  if (PetscIsInfOrNanScalar(g0[PLCG_RS_RZ]) || PetscIsInfOrNanReal(dp)) PetscCall(PipeKSPRedWaitAll_Private(pipe->red));
  KSPPipeCheckNorm_Private(ksp, g0[PLCG_RS_RR], g0[PLCG_RS_ZZ], g0[PLCG_RS_RZ]);
  KSPCheckDot(ksp, g0[PLCG_RS_RZ]);
  tn = PetscSqrtReal(PetscAbsScalar(g0[PLCG_RS_RR])); /* ||b - A x||, the least one is the progress tests' reference */
  if (st->first && PetscRealPart(g0[PLCG_RS_RZ]) < 0) {
    /* the solve's first (r,M^{-1}r) < 0: cg takes the first sign (a negative definite PC converges), the basis
       cannot (it is scaled by the square root): Gropp's CG (depth 0), cg's recurrences, from x0; it tests
       iteration 0 itself */
    PetscCall(PetscInfo(ksp, "(r,M^{-1}r) = %g < 0 at the start: Gropp's CG (depth 0), which takes the first sign as cg\n", (double)PetscRealPart(g0[PLCG_RS_RZ])));
    KSPPipePLCGLowerDepth_Private(d, 0, PETSC_FALSE);
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (st->first) {
    PetscCall(KSPPipePLCGTest_Private(ksp, 0, dp));
    PetscCall(KSPPipeBestRecord_Private(ksp, tn)); /* x is never returned worse than the initial guess */
  } else {
    const PetscReal confirm = PLCG_CONFIRM * KSPPipeTolerance_Private(ksp);
    const PetscInt  its     = KSPPipePLCGStartIts_Private(ksp, st);
    const PetscReal rrec    = ksp->rnorm;       /* the last norm tested: the claimed one, a recursive one up to l steps late */
    const PetscReal best0   = pipe->guard.best; /* the replacement's progress is judged against the best before it */

    /* the true norm, not the claimed one, becomes the last one tested: after a refuted claim Gropp's CG took
       its first iteration for the last (KSPPipeLastLikely_Private()). The restart point is no new iteration
       where its norm was monitored; with a norm l iterations late a segment cut short (a replacement, a
       breakdown) never had it, and this test is its first: monitored, as cg's */
    if (!st->check && its > d->lastmon) PetscCall(KSPPipePLCGTest_Private(ksp, its, dp));
    else PetscCall(KSPPipeConvergenceTestUnmonitored_Private(ksp, its, dp));
    if (st->check && !ksp->reason && d->lrun < 2 && dp <= confirm) {
      /* the true residual is within PLCG_CONFIRM of the tolerance: the gap is no larger than the residual
         asked for, as cg's own gap at the end of a solve; a restart would only cost iterations */
      ksp->reason = ksp->rtol * pipe->guard.rnorm0 >= ksp->abstol ? KSP_CONVERGED_RTOL : KSP_CONVERGED_ATOL;
    }
    if (!ksp->reason) {
      PetscBool lost;

      /* the recursion ran PIPE_LOST times below a true residual at the floor: cg's goes on down to the tolerance and
         ends converged with x at its floor; a restart (after a refuted claim, a replacement, or a square-root
         breakdown, which is the basis's and no reason of cg's) would run that descent again from b - A x
         (docs/algorithms.md, "Tolerances below the floor"). Against the recursion, not the tolerance: a breakdown
         mid-descent, 150x cg's floor, is below PIPE_FLOOR_AT too */
      PetscCall(KSPPipeLostTouch_Private(ksp, rrec, dp, tn, &lost));
      if (lost) {
        PetscCall(KSPPipeFloorStop_Private(ksp, "the recursion ran far below a true residual at the floor"));
        if (ksp->reason) PetscCall(KSPPipeBestRestore_Private(ksp));
      }
    }
    if (st->check && ksp->reason > 0) ksp->its = st->claimits; /* confirmed, or stopped at the floor: the iteration that claimed it, as without the check */
    if (st->check && !ksp->reason) {                           /* the true residual does not confirm the claimed convergence */
      PetscCall(PetscInfo(ksp, "converged by the recursive norm, the true one is %g: restarted from it\n", (double)dp));
      pipe->nrestart_solve++;
      pipe->nrestart_total++;
      PetscCall(KSPPipeBestRecord_Private(ksp, tn)); /* the iterate goes with its residual: it may be the one returned */
      /* no better than at the last such check: the attainable accuracy, where cg would end converged */
      if (!(dp < PIPE_GAIN * st->lastcheck)) PetscCall(KSPPipeFloorStop_Private(ksp, "a restart from the true residual brought no progress"));
      if (ksp->reason) PetscCall(KSPPipeBestRestore_Private(ksp)); /* end with the kept iterate when better */
      st->lastcheck = dp;
      if (!ksp->reason && d->lrun >= 2 && its < KSPPipeMaxIt_Private(ksp)) { /* at the limit no depth runs again */
        /* the deep basis drifted from b - A x, near the end of the solve: Gropp's CG (depth 1) finishes it from
           the true residual, as after an early breakdown. Restarted at the same depth, seed 25 case 3316 claimed
           again and again: 95 iterations against cg's 11 (now 18). Also within PLCG_CONFIRM times the tolerance:
           there the same depth claims from its late norm, on x l steps on, whose true residual near the floor
           grows (seed 72 case 2700, depth 3: 1.5e-10, then 3.3e-10, then the floor stop at 22 iterations with
           11x cg's true residual; now 20 with 1.2x) */
        PetscCall(PetscInfo(ksp, "a claimed convergence the true residual refuted at depth %" PetscInt_FMT ": depth 1 for the rest of the solve\n", d->lrun));
        KSPPipePLCGLowerDepth_Private(d, 1, PETSC_FALSE);
        st->handover = PETSC_TRUE;
      }
    }
    st->check = PETSC_FALSE;
    if (st->replacing && !ksp->reason) {
      /* b - A x measured: compare with the kept iterate; PIPE_STALLS times in a row no better than the best is the
         attainable accuracy of the restarted recurrences: stop there (with the kept iterate), converged as cg
         would. Any real gain counts as progress: with a short -ksp_pipe_replace period a restarted
         recurrence gains little per period, far from the floor */
      if (tn < PLCG_GAIN * best0) pipe->guard.stalls = 0;
      else if (++pipe->guard.stalls >= PIPE_STALLS) PetscCall(KSPPipeFloorStop_Private(ksp, "residual replacements brought no progress"));
      PetscCall(KSPPipeBestRecord_Private(ksp, tn));
      if (ksp->reason) PetscCall(KSPPipeBestRestore_Private(ksp));
    } else PetscCall(KSPPipeBestRecord_Private(ksp, tn)); /* after a breakdown: kept when better */
    st->replacing = PETSC_FALSE;
    /* restarts take CG steps too (a lucky breakdown takes one and restarts): they count to -ksp_max_it,
       or an exact preconditioner with an unreachable tolerance restarted forever */
    if (!ksp->reason && its >= KSPPipeMaxIt_Private(ksp)) ksp->reason = KSP_DIVERGED_ITS;
  }
  st->first = PETSC_FALSE;
  if (ksp->reason) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(KSPPipeCheckGamma_Private(ksp, g0[PLCG_RS_RZ], PETSC_TRUE)); /* its Lanczos basis is scaled by sqrt((r,M^{-1}r)) */
  if (ksp->reason || st->handover) PetscFunctionReturn(PETSC_SUCCESS);   /* Gropp's CG starts from r, z as they are */
  st->beta   = PetscSqrtScalar(g0[PLCG_RS_RZ]);
  st->gamma0 = PetscRealPart(g0[PLCG_RS_RZ]);
  d->zeta[0] = st->beta;
  if (pipe->guard.rn0 < 0) pipe->guard.rn0 = PetscRealPart(st->beta); /* the gap target is relative to the natural norm of r_0 */
  PLCGGapReset(ksp, d, PetscRealPart(st->beta));
  pipe->guard.itrue = st->nupd;
  sc                = 1.0 / PetscRealPart(st->beta);
  for (k = 0; k < nz; k++) PetscCall(VecScale(z[k], sc));
  for (k = 0; k < nu; k++) PetscCall(VecScale(u[k], sc));
  for (k = 0; k < nq; k++) {
    PetscCall(VecScale(q[3 * k], sc));
    if (mq) PetscCall(VecScale(mq[3 * k], sc));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the depth lnew for the rest of the solve, after a restart from the true residual (early: from the best
   iterate measured, and later solves on these matrices start at depth 1) */
void KSPPipePLCGLowerDepth_Private(KSP_PLCG *d, PetscInt lnew, PetscBool early)
{
  d->lrun  = lnew;
  d->early = early;
  d->brokeearly |= early;
  d->nbreak = 1; /* a depth reached by lowering gets no slow retry: its deeper one broke the same way */
  d->pipe.ndepth_solve++;
  d->pipe.ndepth_total++;
}

/* a breakdown of the depth-lrun recurrences (what: which, for -info; why: cg's reason for it) at step i
   since the last true residual, whose natural residual norm zi is to be compared with beta's there.
   Restart from b - A x (the caller breaks out to the restart), at a lower depth for the rest of the solve
   when: lower (NaN or Inf, a basis grown past its bound: the depth's rounding, not the problem); fresh (a
   non-positive first pivot from the true residual, which depth 1 computes as cg does); far from convergence
   (zi above PLCG_NEAR rtol ||r_0||: the basis broke mid-solve) or after an earlier breakdown at this depth,
   with slow progress (below PIPE_GAIN per step, a restart is costly); this depth broke before in this solve
   and the iterations since made no progress (zi not below PIPE_GAIN beta); or it broke PLCG_BREAKS times.
   Far and slow, not lower, and early (zi above PLCG_EARLY ||r_0||): depth 1 at once; otherwise lrun - 1.
   At depth 1 a fresh non-positive pivot goes on at depth 0 (Gropp's CG, which takes a first sign as cg does);
   another fresh breakdown, or one that recurs without progress, is cg's: the reason stands and the solve
   ends (*stop). */
PetscErrorCode KSPPipePLCGBreakdown_Private(KSP ksp, const char *what, KSPConvergedReason why, PetscInt i, PetscReal zi, PetscReal beta, PetscBool lower, PetscBool fresh, PetscBool *stop)
{
  KSP_PLCG *d     = (KSP_PLCG *)ksp->data;
  KSP_Pipe *pipe  = &d->pipe;
  PetscBool again = (PetscBool)(d->nbreak > 0 && !(zi < PIPE_GAIN * beta));
  PetscBool far   = (PetscBool) !(pipe->guard.rn0 > 0 && zi <= PLCG_NEAR * ksp->rtol * pipe->guard.rn0);
  /* slow: the segment gained less than PIPE_GAIN per step, so convergence rests on the Krylov space that a
     restart discards; fast (a near-exact or nested KSP preconditioner) a restart costs a step or two */
  PetscBool slow = (PetscBool) !(zi <= beta * PetscPowReal(PIPE_GAIN, (PetscReal)i));

  PetscFunctionBegin;
  *stop = PETSC_FALSE;
  if (d->lrun == 1 && fresh && why == KSP_DIVERGED_INDEFINITE_MAT) {
    /* the first pivot from the true residual, cg's first (p,Ap) of this start, is <= 0: cg accepts a first
       sign (a negative definite A converges) and breaks down where it changes. Gropp's CG, cg's recurrences,
       from here meets cg's end (the shifted basis of a user's interval had ended at once, with x0) */
    PetscCall(PetscInfo(ksp, "%s at depth 1 from the true residual: Gropp's CG (depth 0) for the rest of the solve, whose breakdowns are cg's\n", what));
    pipe->nrestart_solve++;
    pipe->nrestart_total++;
    KSPPipePLCGLowerDepth_Private(d, 0, PETSC_FALSE);
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (d->lrun == 1 && (fresh || again || d->nbreak >= PLCG_BREAKS)) {
    PetscCall(PetscInfo(ksp, "%s at depth 1, %s: %s, as cg\n", what, fresh ? "from the true residual" : "again without progress", KSPConvergedReasons[why]));
    ksp->reason = why;
    *stop       = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  pipe->nrestart_solve++;
  pipe->nrestart_total++;
  if (d->lrun > 1 && (lower || fresh || again || (slow && (far || d->nbreak > 0)) || d->nbreak >= PLCG_BREAKS)) {
    /* early (far, slow, the residual not yet PLCG_EARLY of r_0's): the deep basis lost its orthogonality
       before the solve got anywhere, and every depth >= 2 lost it again later on the inputs measured, each
       restart discarding the Krylov space: straight to depth 1, one segment lost instead of up to l - 1
       (docs/pipeplcg.md). The depth's own rounding (lower) and later breakdowns step down by one */
    PetscBool early = (PetscBool)(slow && far && !lower && pipe->guard.rn0 > 0 && zi > PLCG_EARLY * pipe->guard.rn0);
    PetscInt  lnew  = early ? 1 : d->lrun - 1;

    PetscCall(PetscInfo(ksp, "%s at depth %" PetscInt_FMT ", step %" PetscInt_FMT " since the last true residual (%" PetscInt_FMT " earlier breakdowns at this depth; natural residual %g, %g of rtol ||r_0||): restart from the true residual at depth %" PetscInt_FMT " for the rest of the solve\n", what, d->lrun, i, d->nbreak, (double)zi,
                        pipe->guard.rn0 > 0 ? (double)(zi / (ksp->rtol * pipe->guard.rn0)) : -1.0, lnew));
    KSPPipePLCGLowerDepth_Private(d, lnew, early);
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscInfo(ksp, "%s at depth %" PetscInt_FMT ", step %" PetscInt_FMT " since the last true residual: restart from it\n", what, d->lrun, i));
  d->nbreak++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a spectrum of M^{-1}A the estimate finds clustered runs at depth 1 (*clustered: pipegv's recurrences, one
   reduction hidden behind the PC application and SpMV together; benign on a narrow spectrum, and cg's iterates
   on the cases below, as Gropp's CG gives them), not as a depth change: the
   shifts, on [0, f theta] by the estimate's largest Ritz value, lie below most of it, the basis comes out
   nearly parallel, its first columns are taken for an invariant space or break down, and the restarts from
   the true residual give other iterates than cg's. On seed 25 of the fuzzer (pipeplcg, 5,000 cases) six
   such solves converged at cg's count with 10-90x its true residual (hypre on lap3d, aniso2d and lap2d;
   asddic on aniso2d): now cg's iterates, and 17 failures became 12 with none new. Such a spectrum converges
   in a few iterations, where a deep pipeline's l start-up steps cost more than it hides. A spectrum taken
   for clustered that is not (10 Lanczos steps can miss its small end) runs as pipegv, auto's depth 1. A
   user's interval (-ksp_pipe_eig_bounds) is kept. */
PetscErrorCode KSPPipePLCGClustered_Private(KSP ksp, PetscBool *clustered)
{
  KSP_PLCG *d = (KSP_PLCG *)ksp->data;

  PetscFunctionBegin;
  *clustered = PETSC_FALSE;
  /* depth 1 already: asked for, capped, or after a failed estimate (PLCGSolveBegin() lowers it first) */
  if (d->lrun < 2 || d->user_eig || !(d->emax > 0 && d->emin > PLCG_CLUSTERED * d->emax)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscInfo(ksp, "the estimate [%g, %g] is clustered (smallest Ritz value above %g of the largest): depth 1 (pipegv's recurrences) instead of %" PetscInt_FMT "\n", (double)d->emin, (double)d->emax, (double)PLCG_CLUSTERED, d->lrun));
  *clustered = PETSC_TRUE;
  d->lrun    = 1;
  d->nclustered++;
  if (!d->fromritz) { /* no Lanczos coefficients at depth 1 refresh the interval: the estimate's stands in for the next solve's on new values */
    PetscCall(KSPPipePLCGOpKeyGet_Private(ksp, &d->ritz));
    d->theta   = d->emax;
    d->thetalo = d->emin;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* an early breakdown in an earlier solve on these matrices: depth 1, which needs no shifts, until the
   back-off lets the deep pipeline try again */
PetscErrorCode KSPPipePLCGCapBegin_Private(KSP ksp)
{
  KSP_PLCG        *d = (KSP_PLCG *)ksp->data;
  PetscInt         l = d->l;
  KSPPipePLCGOpKey cur;

  PetscFunctionBegin;
  if (!d->capped) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(KSPPipePLCGOpKeyGet_Private(ksp, &cur));
  d->capped = KSPPipePLCGOpKeySame_Private(&cur, &d->capkey, PETSC_FALSE);
  if (!d->capped) d->capwait = 0;
  else if (l > 1 && d->capleft > 0) {
    PetscCall(PetscInfo(ksp, "an earlier solve on these matrices broke down early at depth >= 2: depth 1 from the start (%" PetscInt_FMT " healthy solves before depth %" PetscInt_FMT " is tried again)\n", d->capleft, l));
    d->lrun = 1;
    d->ncapped++;
  } else if (l > 1) {
    PetscCall(PetscInfo(ksp, "depth %" PetscInt_FMT " tried again after %" PetscInt_FMT " healthy solves at depth 1\n", l, d->capwait));
    d->retrying = PETSC_TRUE;
    d->nretry++;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* at a solve's end: an early breakdown caps these matrices (the first time, or a retry that broke again:
   twice as long); a retry that held lifts the cap */
PetscErrorCode KSPPipePLCGCapEnd_Private(KSP ksp)
{
  KSP_PLCG *d = (KSP_PLCG *)ksp->data;

  PetscFunctionBegin;
  if (d->brokeearly) {
    d->capwait = d->capped && d->retrying ? 2 * d->capwait : PLCG_RETRY;
    d->capleft = d->capwait;
    PetscCall(KSPPipePLCGOpKeyGet_Private(ksp, &d->capkey));
    d->capped = PETSC_TRUE;
    PetscCall(PetscInfo(ksp, "early breakdown: the next %" PetscInt_FMT " healthy solves on these matrices start at depth 1\n", d->capwait));
  } else if (d->capped && d->retrying) d->capped = PETSC_FALSE;
  else if (d->capped && d->lrun == 1 && ksp->reason > 0 && !d->pipe.nrestart_solve) d->capleft--;
  d->retrying = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}
