/* KSP pipeplcg: deep-pipelined CG, p(l)-CG (Cornelis, Cools and Vanroose, SISC 2018, arXiv:1801.04728;
   stable recurrences with auxiliary bases: Cools, Cornelis and Vanroose, IEEE TPDS 2019).

   Lanczos on B = M^{-1}A in the M inner product, v_0 = M^{-1}r_0 / beta. The method builds the shifted
   basis z_j = P_j(B) v_0 (j <= l), z_j = P_l(B) v_{j-l} (j >= l), P_k(t) = prod_{m<k} (t - sigma_m), with one
   SpMV and one PC application per iteration. Z = V G with G upper triangular, band 2l+1; the dot products
   that give column c of G are reduced while the next l iterations compute, so up to l reductions are in
   flight, each driven by the progress engine. From G come the Lanczos coefficients gamma_i, delta_i, and
   from them v_i (through the auxiliary bases P_k(B) V, k < l) and the CG iterate (LDL^T of the Lanczos
   tridiagonal). The shifts sigma are the Chebyshev roots of [lmin, lmax], an interval that contains the
   spectrum of B (estimated by a few CG iterations unless the user gives it): without them the basis is the
   monomial one and the method loses its accuracy as l grows. This file: options, view, create and the
   solve (the other pieces: pipeksp/pipeplcgimpl.h). */
#include <pipeksp/pipeplcgimpl.h>

/* the defaults of the options: CG iterations of the eigenvalue estimate, the factor of its interval
   (KSPPipePLCGSetEstimateFactor()) and the poll interval: a reduction's rounds advance only inside MPI calls,
   and a deep pipeline is for reductions of many rounds, so polls as frequent as a hop */
#define PLCG_EIG_ITS_DEFAULT  10
#define PLCG_POLL_INTERVAL_US 2.0
/* a Cholesky pivot of G within its rounding, of either sign: z_c is in the span of the earlier basis (an
   invariant Krylov space, a lucky breakdown). The pivot (z_c, z_c) - sum_k G(k,c)^2 assumes v_0 .. v_{c-1}
   orthogonal; at Simon's estimate omega of v_{c-1}'s loss (at least eps sqrt(N)) it is off by up to
   omega (sum_k |G(k,c)|)^2. Below PLCG_NOISE times that, at most PLCG_INVARIANT of (z_c, z_c) (and that
   bound where omega is not known: depth 1, past PLCG_OMEGA_N steps of a segment):
   1-D Laplacians whose b spans fewer dimensions than the rows (tests/ex25.c) left pivots up to 27 times that
   estimate, 1.5e-10 of (z_c, z_c); real directions of aniso2d with asddic (fuzzer seeds 61, 72) 2500 times
   it, 4.6e-10 and 8.5e-9 of (z_c, z_c) */
#define PLCG_INVARIANT PETSC_SQRT_MACHINE_EPSILON
#define PLCG_NOISE     100.0
/* auto replacement waits until the estimated gap is this fraction of the recursive residual */
#define PLCG_GAP_NEAR 1.0
/* Simon's estimate of the loss of orthogonality at which a segment still far from convergence goes to depth 1
   before G's square root fails (G's factorization assumes orthogonality) */
#define PLCG_OMEGA 1e-4
/* the basis has grown beyond the Chebyshev bound of its interval by this factor: the interval misses the
   spectrum and the recurrences amplify rounding by as much */
#define PLCG_GROWTH 1e3

static inline PetscScalar Gget(KSP_PLCG *d, PetscInt k, PetscInt c)
{
  if (k < 0 || k > c || c - k > 2 * d->lrun) return 0.0;
  return d->G[(c % PLCG_GC) * PLCG_GR + (c - k)];
}
static inline void Gset(KSP_PLCG *d, PetscInt k, PetscInt c, PetscScalar v)
{
  d->G[(c % PLCG_GC) * PLCG_GR + (c - k)] = v;
}
#define GAM(i)  d->gam[(i) % PLCG_NR]
#define DEL(i)  d->del[(i) % PLCG_NR]
#define ZETA(i) d->zeta[(i) % PLCG_NR]

/* ksp->work: z ring (nz), u ring (3), auxiliary bases q^(k) (3 each, k < l, q^(0) = v), p, for the
   unpreconditioned norm the M-images of the auxiliary bases (3 each), for a norm l iterations late the last
   l iterate updates and a spare (PLCGIterateAt()); KSPPipeSetUpWork_Private() adds the kept iterate after
   them */
static PetscInt NZ(PetscInt l)
{
  return PetscMax(3, l + 1);
}
static PetscInt NWork(PetscInt l, PetscBool mq, PetscBool late)
{
  return NZ(l) + 3 + 3 * l + 1 + (mq ? 3 * l : 0) + (late ? l + 1 : 0);
}

/* the norm of the residual arrives l iterations after its iterate (preconditioned, unpreconditioned) */
static PetscBool NormLate(KSP ksp)
{
  return (PetscBool)(ksp->normtype == KSP_NORM_PRECONDITIONED || ksp->normtype == KSP_NORM_UNPRECONDITIONED);
}

static PetscErrorCode KSPSetUp_PipePLCG(KSP ksp)
{
  KSP_PLCG *d  = (KSP_PLCG *)ksp->data;
  PetscBool mq = (PetscBool)(ksp->normtype == KSP_NORM_UNPRECONDITIONED);

  PetscFunctionBegin;
  PetscCall(KSPPipeSetUpWork_Private(ksp, NWork(PetscMax(d->l, 0), mq, NormLate(ksp)))); /* auto: depth 0's until the choice */
  d->nwork_l    = d->l;
  d->nwork_mq   = mq;
  d->nwork_late = NormLate(ksp);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x_k from x_n (n = d->happ updates, k >= the segment's start): x_n minus the updates k..n-1, into y */
static PetscErrorCode PLCGIterateAt(KSP ksp, PetscInt k, Vec y)
{
  KSP_PLCG   *d = (KSP_PLCG *)ksp->data;
  PetscScalar a[PLCG_MAXL];
  Vec         h[PLCG_MAXL];
  PetscInt    n = 0;

  PetscFunctionBegin;
  PetscCheck(k >= d->hbase && k <= d->happ && d->happ - k <= d->hl, PetscObjectComm((PetscObject)ksp), PETSC_ERR_PLIB, "iterate %" PetscInt_FMT " not kept (updates %" PetscInt_FMT "..%" PetscInt_FMT ")", k, d->hbase, d->happ);
  if (y != ksp->vec_sol) PetscCall(VecCopy(ksp->vec_sol, y));
  for (PetscInt j = k; j < d->happ; j++, n++) {
    a[n] = -d->hz[j % d->hl];
    h[n] = d->hist[j % d->hl];
  }
  if (n) PetscCall(VecMAXPY(y, n, a, h));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* KSPBuildSolution() (a monitor of the true residual, a convergence test of the user's): with the norm l
   iterations late, x is ahead of the iteration being tested, so the iterate of that iteration */
static PetscErrorCode KSPBuildSolution_PipePLCG(KSP ksp, Vec v, Vec *V)
{
  KSP_PLCG *d = (KSP_PLCG *)ksp->data;

  PetscFunctionBegin;
  if (!d->hon || ksp->its >= d->happ || ksp->its < d->hbase) {
    PetscCall(KSPBuildSolutionDefault(ksp, v, V));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (!v) v = d->hist[d->hl];
  PetscCall(PLCGIterateAt(ksp, ksp->its, v));
  if (V) *V = v;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* depth 1, chosen by auto or given: p(1)-CG with a zero shift, run as pipegv's recurrences (no shifts, no
   estimate). The shift buys no stability at depth 1 and can cost convergence (2862 iterations against cg's 1717
   on the nu 0.4999 cube at rtol 1e-12; up to 4x across the interval): only an interval given by the user
   (-ksp_pipe_eig_bounds) asks for the shifted p(1)-CG basis */
static inline PetscBool PLCGGVForm(const KSP_PLCG *d)
{
  return (PetscBool)(d->l == 1 && (d->lauto || !d->user_eig));
}

/* the shifts of depth l: Chebyshev roots of [lmin, lmax] */
static void Shifts(KSP_PLCG *d, PetscInt l)
{
  PetscInt k;
  for (k = 0; k < l; k++) d->sigma[k] = 0.5 * (d->lmax + d->lmin) + 0.5 * (d->lmax - d->lmin) * PetscCosReal(PETSC_PI * (2.0 * k + 1.0) / (2.0 * l));
}

/* the largest |P_l(t)| on [lmin, lmax] for the Chebyshev shifts: 2 ((lmax - lmin)/4)^l */
static PetscReal ChebBound(KSP_PLCG *d, PetscInt l)
{
  return 2.0 * PetscPowReal(0.25 * (d->lmax - d->lmin), (PetscReal)l);
}

/* the state of one solve that its steps share: the work vectors of the depth in use and the scalars that
   run from one step to the next */
typedef struct {
  Mat              A;
  Vec             *z, *u, *q, *mq, p, X;
  PetscInt         l, nz, base, upd_at_restart, nwnext, N; /* N: the global size, a Krylov space's largest dimension */
  PetscBool        mqneed, extra, natural, defer, gvform, lucky;
  KSPPipePLCGStart st;
  PetscScalar      loc[PIPEKSP_RED_MAX], loclo[PIPEKSP_RED_MAX], glob[PIPEKSP_RED_MAX], globlo[PIPEKSP_RED_MAX], eta; /* compensated: sum + lo */
  Vec              w[PIPEKSP_RED_MAX], ynext;
} PLCGRun;

/* the Cholesky step of G in long double (80 bits on x86; no wider than double where the compiler says so):
   its differences of dot products cancel, and their rounding delays p(l)-CG (docs/pipeplcg.md,
   "Compensated dot products"). O(l^2) scalars per iteration */
#if defined(PETSC_USE_REAL_DOUBLE) && !defined(PETSC_USE_COMPLEX)
typedef long double PLCGWide;
#else
typedef PetscScalar PLCGWide;
#endif

#define ZV(j)     z[(j) % nz]
#define UV(j)     u[(j) % 3]
#define QV(k, j)  q[3 * (k) + (j) % 3]
#define MQV(k, j) mq[3 * (k) + (j) % 3]

/* the start of a solve: the depth (auto's choice, or 1 on capped matrices or without an interval), the
   work vectors, the estimate, and the per-solve state of the policy and of the Ritz values */
static PetscErrorCode PLCGSolveBegin(KSP ksp, PLCGRun *r)
{
  KSP_PLCG *d    = (KSP_PLCG *)ksp->data;
  KSP_Pipe *pipe = &d->pipe;
  PetscInt  N;

  PetscFunctionBegin;
  /* its gap model is its own: p(l)-CG's rules on replacement and claims, until PLCGLower() hands the solve to
     Gropp's CG (set at every solve, so an error there leaves no trace) */
  pipe->guard.cgref = PETSC_FALSE;
  r->mqneed         = (PetscBool)(ksp->normtype == KSP_NORM_UNPRECONDITIONED);
  if (d->lauto) { /* measured at the first solve and for new matrices (pipeplcgauto.c) */
    PetscCall(KSPPipePLCGAutoChoose_Private(ksp, r->mqneed, PLCG_MAXL, &d->autod));
    d->l = d->autod.depth;
  }
  r->l = d->l;
  if (pipe->red->nslots) PetscCall(PipeKSPRedWaitAll_Private(pipe->red)); /* an earlier solve ended by an error */
  if (d->nwork_l != r->l || d->nwork_mq != r->mqneed || d->nwork_late != NormLate(ksp)) PetscCall(KSPSetUp_PipePLCG(ksp));
  r->z       = ksp->work;
  r->X       = ksp->vec_sol;
  r->natural = (PetscBool)(ksp->normtype == KSP_NORM_NATURAL || ksp->normtype == KSP_NORM_NONE);
  r->extra   = NormLate(ksp);                       /* the norm needs (v,v) or (Mv,Mv): one more scalar, l iterations later */
  d->hon     = PETSC_FALSE;                         /* PLCGLower() decides per segment */
  PetscCall(KSPPipeSolveStart_Private(ksp, &r->A)); /* per-solve counters (the estimate's reductions included) */
  d->lrun = r->l;
  PetscCall(KSPPipePLCGCapBegin_Private(ksp));
  d->estpcfail = PETSC_FALSE;
  r->gvform    = PLCGGVForm(d);                                                                               /* depth 1: pipegv's recurrences */
  if (!d->user_eig && r->l > 0 && d->lrun == r->l && !r->gvform) PetscCall(KSPPipePLCGEstimate_Private(ksp)); /* depth 0, Gropp's CG and pipegv's have no shifts */
  d->rn = d->rnmax = 0;
  d->lastmon       = -1;
  d->lastgv        = PETSC_FALSE;
  d->theta_solve   = 0.0;
  d->thetalo_solve = PETSC_MAX_REAL;
  d->nbreak        = 0;
  d->nupd_lucky    = PETSC_MIN_INT;
  d->early = d->brokeearly = PETSC_FALSE;
  PetscCall(VecGetSize(ksp->vec_rhs, &N));
  r->N     = N;
  d->ompsi = PETSC_MACHINE_EPSILON * PetscSqrtReal((PetscReal)N); /* omega of neighbouring vectors */
  if (d->estfailed && d->lrun > 1) {                              /* no interval for the shifts: depth 1 needs none */
    PetscCall(PetscInfo(ksp, "no usable estimate of the spectrum: depth 1 instead of %" PetscInt_FMT "\n", r->l));
    d->lrun = 1;
    if (!d->estpcfail) { /* a failed PC ends the solve as cg's would: no depth change */
      pipe->ndepth_solve++;
      pipe->ndepth_total++;
    }
  }
  {
    PetscBool clustered;

    PetscCall(KSPPipePLCGClustered_Private(ksp, &clustered));
    if (clustered) r->gvform = PETSC_TRUE; /* depth 1 as pipegv's recurrences */
  }
  d->xs = d->y2 = 0.0; /* x_0 = 0 or, for a given guess, not measured */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Gropp's CG for the rest of the solve, from the start's iteration (fresh: r and u formed); a handover (why) only
   after iterations of another method: from the solve's start Gropp's CG is the type's method at the depth it runs */
static PetscErrorCode PLCGGroppRest(KSP ksp, PLCGRun *r, PetscBool fresh, const char *why)
{
  PetscFunctionBegin;
  PetscCall(KSPPipeGroppContinue_Private(ksp, r->A, r->st.first ? 0 : KSPPipePLCGStartIts_Private(ksp, &r->st), fresh, r->st.first ? NULL : why));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* below depth 2 another method's iterations take over the rest of the solve (*done): depth 0 Gropp's CG
   (KSPPIPEPLCG's man page); depth 1
   (auto's or given) pipegv's (p(1)-CG with a zero shift is Ghysels and Vanroose's CG, without a shift to
   place); depth 1 reached by lowering Gropp's, which keeps cg's convergence where a shifted p(1)-CG basis
   can delay it several times over (docs/pipeplcg.md) */
static PetscErrorCode PLCGLower(KSP ksp, PLCGRun *r, PetscBool *done)
{
  KSP_PLCG *d    = (KSP_PLCG *)ksp->data;
  KSP_Pipe *pipe = &d->pipe;

  PetscFunctionBegin;
  *done  = PETSC_TRUE;
  d->hon = PETSC_FALSE; /* until a segment at depth >= 2 keeps them again */
  if (d->lrun == 0) {
    pipe->depth_end   = 0;
    pipe->guard.cgref = PETSC_TRUE; /* Gropp's rules, as below */
    PetscCall(PLCGGroppRest(ksp, r, PETSC_FALSE, "the pipeline depth lowered to 0 (depth 1 met a pivot <= 0 from the true residual)"));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (r->gvform && d->lrun == 1) {
    pipe->depth_end   = 1;
    d->lastgv         = PETSC_TRUE;
    pipe->guard.cgref = PETSC_TRUE; /* pipegv's recurrences, pipegv's rules: every claim checked cost 170 iterations where pipegv takes 127 (cg 110, rtol 1e-16) */
    PetscCall(KSPPipeGVContinue_Private(ksp, r->A, 0));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (d->lrun == 1 && d->l > 1) {
    pipe->depth_end = 1;
    if (d->early && !r->st.first) {
      /* an early segment's true residual may have grown: restart from the kept iterate when its energy is
         lower (one SpMV and one reduction, once) */
      PetscReal tn;

      PetscCall(KSPPipeTrueResidual_Private(ksp, r->A, ksp->work[0]));
      PetscCall(VecNorm(ksp->work[0], NORM_2, &tn));
      PetscCall(KSPPipeBestRecord_Private(ksp, tn));
      PetscCall(KSPPipeBestRestore_Private(ksp));
    }
    PetscCall(PetscInfo(ksp, "continuing with Gropp's CG (pipegropp, depth 1) at iteration %" PetscInt_FMT "\n", r->st.nupd));
    /* with Gropp's recurrences Gropp's rules: its gap drifts as cg's, so no replacement (each one here is a
       restart that perturbs the Lanczos process: 61 of them cost p(2)-CG cg's 1717 iterations at rtol 1e-12
       and still ended at -ksp_max_it 6000), and claims checked only beyond cg's gap */
    pipe->guard.cgref = PETSC_TRUE;
    if (r->st.handover) { /* the check that lowered the depth formed r and z = M^{-1} r of this x: Gropp's r and u */
      PetscCall(VecCopy(r->z[0], ksp->work[1]));
      PetscCall(VecCopy(r->u[0], ksp->work[0]));
    }
    PetscCall(PLCGGroppRest(ksp, r, r->st.handover, "the pipeline depth lowered to 1"));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  *done = PETSC_FALSE;
  /* x's updates are kept where something looks at the iterate of the iteration tested: a monitor, or a test
     other than the default (skip tests nothing) */
  d->hon = (PetscBool)(NormLate(ksp) && (ksp->numbermonitors > 0 || (ksp->converged != KSPConvergedDefault && ksp->converged != KSPConvergedSkip)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a (re)start from the true residual at the depth in use (the work vectors of depth l hold those of every
   lower depth, the kept iterate after them): r_0, z_0 = M^{-1} r_0 and the reduction of (r,z), (r,r), (z,z) */
static PetscErrorCode PLCGSegmentStart(KSP ksp, PLCGRun *r)
{
  KSP_PLCG *d = (KSP_PLCG *)ksp->data;
  Vec      *z, *u, *q, *mq;
  PetscInt  l, nz;

  PetscFunctionBegin;
  r->base = r->st.nupd;
  l = r->l = d->lrun;
  nz = r->nz = NZ(l);
  z          = r->z;
  u = r->u = z + nz;
  q = r->q = u + 3;
  r->p     = q[3 * l];
  mq = r->mq = r->mqneed ? q + 3 * l + 1 : NULL;
  d->hist    = q + 3 * l + 1 + (mq ? 3 * l : 0);
  d->hl      = l;
  d->hbase = d->happ = r->st.nupd;
  Shifts(d, l);
  d->pipe.depth_end = l;
  if (r->st.first) PetscCall(KSPPipeResidual_Private(ksp, r->A, UV(0)));
  else PetscCall(KSPPipeTrueResidual_Private(ksp, r->A, UV(0)));
  PetscCall(KSPPipePCApplyLoop_Private(ksp, UV(0), ZV(0)));
  r->w[0] = ZV(0);
  r->w[1] = UV(0);
  PetscCall(KSPPipePLCGLocalDots_Private(UV(0), 2, r->w, ZV(0), r->loc, r->loclo)); /* w = {z, r}: PLCG_RS_RZ, PLCG_RS_RR, then (z,z) PLCG_RS_ZZ */
  PetscCall(PipeKSPRedStartSlot_Private(d->pipe.red, PLCG_RS_N, r->loc, r->loclo, &d->slot[0]));
  PetscCall(VecCopy(ZV(0), QV(0, 0)));
  if (mq) PetscCall(VecCopy(UV(0), MQV(0, 0)));
  Gset(d, 0, 0, 1.0);
  KSPPipePLCGOmegaStart_Private(d);
  /* its wait is deferred to iteration l: the start-up iterations build P_j(B) z_0 unnormalised (linear in
     z_0), scaled by 1/beta when beta arrives. Not when checking a claimed convergence, which usually ends
     the solve: the l start-up iterations would be spent for nothing */
  r->defer = (PetscBool)!r->st.check;
  if (!r->defer) PetscCall(KSPPipePLCGStartPoint_Private(ksp, &r->st, 1, &ZV(0), 1, &UV(0), 1, q, mq));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a breakdown at step i that restarts the segment (KSPPipePLCGBreakdown_Private's rule) */
static PetscErrorCode PLCGBreak(KSP ksp, PLCGRun *r, const char *what, KSPConvergedReason why, PetscInt i, PetscBool lower, PetscBool fresh)
{
  KSP_PLCG *d = (KSP_PLCG *)ksp->data;
  PetscBool stop;

  PetscFunctionBegin;
  /* a pivot <= 0 after pivots > 0 is cg's change of sign of (p,Ap), x the iterate of the step (cg takes the
     solve's first sign: a first pivot < 0 is not its breakdown); the basis's own breakdowns are rounding */
  if (why == KSP_DIVERGED_INDEFINITE_MAT && r->st.nupd > 0) PetscCall(KSPPipeBreakRecord_Private(ksp, r->st.nupd, why, ksp->its == r->st.nupd ? ksp->rnorm : -1.0, PETSC_FALSE));
  KSPPipeLanczosDrop_Private(ksp, r->l);
  PetscCall(KSPPipePLCGBreakdown_Private(ksp, what, why, i, PetscAbsScalar(ZETA(i)), PetscAbsScalar(r->st.beta), lower, fresh, &stop));
  r->upd_at_restart = -1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the test of iteration k from its late norm, |zeta_k| ||v_k|| or |zeta_k| ||M v_k|| (yy: that vector's square,
   reduced with column k + l). *end: the segment ends (the test ended the solve, or a claim to check) */
static PetscErrorCode PLCGLateTest(KSP ksp, PLCGRun *r, PetscInt k, PetscScalar yy, PetscBool *end)
{
  KSP_PLCG *d = (KSP_PLCG *)ksp->data;

  PetscFunctionBegin;
  *end = PETSC_TRUE;
  PetscCall(KSPPipePLCGTest_Private(ksp, r->base + k, PetscAbsScalar(ZETA(k)) * PetscSqrtReal(PetscAbsScalar(yy))));
  if (ksp->reason && d->hon && ksp->converged != KSPConvergedDefault) {
    /* a test of the user's ended the solve at this iteration: its iterate, as cg's (the default test's
       convergence keeps the later one, checked against the true residual) */
    PetscCall(PLCGIterateAt(ksp, ksp->its, r->X));
    r->st.nupd = d->happ = ksp->its;
  }
  if ((r->st.check = KSPPipePLCGCheckClaim_Private(ksp))) {
    r->st.claimits = ksp->its;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (ksp->reason) PetscFunctionReturn(PETSC_SUCCESS);
  *end = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* where column c ends the deep basis (an invariant space, a square-root breakdown), iterations c-l+1 .. c-1
   stand, and their late norms are in the reductions of columns c+1 .. c+l-1, in flight: their tests, as cg
   tests and monitors every iteration. *end: as PLCGLateTest() */
static PetscErrorCode PLCGPendingTests(KSP ksp, PLCGRun *r, PetscInt c, PetscBool *end)
{
  KSP_PLCG *d = (KSP_PLCG *)ksp->data;
  PetscInt  l = r->l;

  PetscFunctionBegin;
  *end = PETSC_FALSE;
  for (PetscInt k = PetscMax(c - l + 1, 1); r->extra && k < c && !*end; k++) {
    PetscScalar g[PIPEKSP_RED_MAX], glo[PIPEKSP_RED_MAX];

    PetscCall(PipeKSPRedWaitSlot_Private(d->pipe.red, d->slot[(k + l) % (l + 1)], g, glo));
    PetscCall(PLCGLateTest(ksp, r, k, g[l + 1], end)); /* column k + l > l: y's square after the l + 1 dots */
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* column c = it - l + 1 of G, whose reduction started l iterations ago: its Cholesky step, the checks of
   the basis, the Lanczos coefficients gamma_i, delta_i (i = c - 1) and the orthogonality estimate. *brk:
   the segment ends (a breakdown, a test that ended the solve, a claim to check) */
static PetscErrorCode PLCGColumn(KSP ksp, PLCGRun *r, PetscInt it, PetscBool *brk)
{
  KSP_PLCG    *d    = (KSP_PLCG *)ksp->data;
  KSP_Pipe    *pipe = &d->pipe;
  PetscInt     l = r->l, c = it - l + 1, i = c - 1, k, m, mlo, off;
  PetscScalar *glob = r->glob, *lo = r->globlo, t, gi;
  PLCGWide     s;
  PetscBool    tiny, end;
  PetscReal    zz, rel, noise;

  PetscFunctionBegin;
  *brk = PETSC_TRUE;
  PetscCall(PipeKSPRedWaitSlot_Private(pipe->red, d->slot[c % (l + 1)], glob, lo));
  if (r->defer && c <= l) /* dots of the start-up iterations, of unnormalised vectors */
    for (m = 0; m <= c; m++) {
      glob[m] /= r->st.gamma0;
      lo[m] /= r->st.gamma0;
    }
  if (c > l) { /* g(k,c) = <P_l(B) v_{c-l}, v_k> = g(c-l, k+l) for k < c-l; g(c-l,c) reduced */
    for (k = PetscMax(0, c - 2 * l); k < c - l; k++) Gset(d, k, c, Gget(d, c - l, k + l));
    Gset(d, c - l, c, glob[0]);
    off = 1;
    mlo = c - l + 1;
  } else {
    off = 0;
    mlo = 0;
  }
  /* forward substitution with <z_c, z_m>, then G(c,c)^2: differences of dot products, in the wider type */
  for (m = mlo; m < c; m++) {
    s = (PLCGWide)glob[off + m - mlo] + lo[off + m - mlo];
    for (k = PetscMax(0, m - 2 * l); k < m; k++) s -= (PLCGWide)Gget(d, k, m) * Gget(d, k, c);
    Gset(d, m, c, (PetscScalar)(s / Gget(d, m, m)));
  }
  s = (PLCGWide)glob[off + c - mlo] + lo[off + c - mlo];
  for (k = PetscMax(0, c - 2 * l); k < c; k++) s -= (PLCGWide)Gget(d, k, c) * Gget(d, k, c);
  t = (PetscScalar)s;
  if (PetscIsInfOrNanScalar(t)) {
    PetscCall(PLCGBreak(ksp, r, "Inf or NaN in the basis", KSP_DIVERGED_NANORINF, i, PETSC_TRUE, (PetscBool)(i == 0)));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* v_c with c >= N is in the span of v_0 .. v_{c-1} whatever its rounding says: a Krylov space of R^N (a
     1-D Laplacian of 6 rows broke down as a square root of -1e-15 at column 6 and restarted: 11 iterations) */
  /* zz = (z_c, z_c); rel, the pivot over it, for -info; noise, the pivot's rounding (PLCG_NOISE) */
  zz    = PetscAbsScalar(glob[off + c - mlo]);
  noise = PLCG_INVARIANT * zz;
  if (d->omn == i) { /* omega known through step i - 1 of this segment */
    PetscReal gs = 0.0;

    for (k = PetscMax(0, c - 2 * l); k < c; k++) gs += PetscAbsScalar(Gget(d, k, c));
    noise = PetscMin(noise, PLCG_NOISE * PetscMax(d->omlast, d->ompsi) * gs * gs);
  }
  tiny = (PetscBool)(PetscAbsScalar(t) <= noise || c >= r->N);
  rel  = zz > 0 ? PetscRealPart(t) / zz : 0.0;
  if (r->extra && c > l) { /* tested before a breakdown of column c, which cannot matter to a converged r_{c-l} */
    PetscCall(PLCGLateTest(ksp, r, c - l, glob[off + c - mlo + 1], &end));
    if (end) PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (!tiny && !(PetscRealPart(t) > 0) && r->upd_at_restart == r->st.nupd) {
    /* the same breakdown with no step since the restart: the basis cannot be extended from this residual
       (an exact preconditioner), so take the step it allows, as in a lucky breakdown */
    PetscCall(PetscInfo(ksp, "square-root breakdown at column %" PetscInt_FMT " (%g) again, with no step since the restart: the space is taken as invariant\n", c, (double)PetscRealPart(t)));
    tiny = PETSC_TRUE;
  }
  if (tiny && l > 1 && r->st.nupd <= d->nupd_lucky + l) {
    /* invariant again within l steps: a basis collapsed onto its first vector (an interval far off the
       spectrum), not an invariant space */
    PetscCall(PLCGBreak(ksp, r, "invariant space again within l steps", KSP_DIVERGED_BREAKDOWN, i, PETSC_TRUE, PETSC_FALSE));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (tiny) { /* z_c in the span of the earlier basis, delta_{c-1} = 0: the last CG step, then the true residual decides */
    PetscCall(PetscInfo(ksp, "invariant Krylov space at column %" PetscInt_FMT " (depth %" PetscInt_FMT ", iterate %" PetscInt_FMT ", pivot %g of (z_c, z_c)): the last CG step, then a restart\n", c, l, r->st.nupd, (double)rel));
    r->lucky      = PETSC_TRUE;
    d->nupd_lucky = r->st.nupd;
    Gset(d, c, c, 0.0);
    PetscCall(PLCGPendingTests(ksp, r, c, &end));
    if (end) PetscFunctionReturn(PETSC_SUCCESS);
  } else if (!(PetscRealPart(t) > 0)) { /* the basis lost its rank in finite precision: restart */
    PetscCall(PetscInfo(ksp, "square-root breakdown at column %" PetscInt_FMT " (%g, %g of (z_c, z_c)): restart from the true residual\n", c, (double)PetscRealPart(t), (double)rel));
    PetscCall(PLCGPendingTests(ksp, r, c, &end)); /* the iterates up to c - 1 stand */
    if (end) PetscFunctionReturn(PETSC_SUCCESS);
    d->nrestarts++;
    r->upd_at_restart = r->st.nupd;
    KSPPipeLanczosDrop_Private(ksp, l);
    if (l > 1) {
      PetscBool stop;

      PetscCall(KSPPipePLCGBreakdown_Private(ksp, "square-root breakdown", KSP_DIVERGED_BREAKDOWN, i, PetscAbsScalar(ZETA(i)), PetscAbsScalar(r->st.beta), PETSC_FALSE, PETSC_FALSE, &stop));
      if (d->lrun != l) r->upd_at_restart = -1;
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (!r->lucky) Gset(d, c, c, PetscSqrtScalar(t));
  for (d->nzc = 0, k = PetscMax(0, c - 2 * l); k <= c; k++) d->nzc += PetscSqr(PetscAbsScalar(Gget(d, k, c)));
  d->nzc = PetscSqrtReal(d->nzc);
  if (l > 1 && c > l && !r->lucky && d->nzc > PLCG_GROWTH * ChebBound(d, l)) { /* ||P_l(B) v_{c-l}|| far above max |P_l| on the interval: the spectrum is outside it */
    PetscCall(PLCGBreak(ksp, r, "growth of the basis", KSP_DIVERGED_BREAKDOWN, i, PETSC_TRUE, PETSC_FALSE));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* gamma_i, delta_i from T G = G Bhat */
  gi = Gget(d, i, i);
  if (i < l) {
    GAM(i) = (Gget(d, i, i + 1) + d->sigma[i] * gi - (i > 0 ? DEL(i - 1) * Gget(d, i - 1, i) : 0.0)) / gi;
    DEL(i) = Gget(d, i + 1, i + 1) / gi;
  } else {
    GAM(i) = (gi * GAM(i - l) + Gget(d, i, i + 1) * DEL(i - l) - DEL(i - 1) * Gget(d, i - 1, i)) / gi;
    DEL(i) = Gget(d, i + 1, i + 1) * DEL(i - l) / gi;
  }
  if (PetscIsInfOrNanScalar(GAM(i)) || PetscIsInfOrNanScalar(DEL(i))) {
    PetscCall(PLCGBreak(ksp, r, "Inf or NaN in the Lanczos coefficients", KSP_DIVERGED_NANORINF, i, PETSC_TRUE, (PetscBool)(i == 0)));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  KSPPipePLCGRitzAdd_Private(d, i, GAM(i), DEL(i));
  if (i && !(PetscAbsScalar(ZETA(i)) > (d->lrun == 2 ? PLCG_EIG_FLOOR_DEPTH2 : PLCG_EIG_FLOOR) * pipe->guard.rn0)) KSPPipeLanczosClose_Private(ksp);
  KSPPipeLanczosAdd_Private(ksp, GAM(i), i ? DEL(i - 1) : 0.0);
  if (d->lrun > 1) {
    PetscReal om = KSPPipePLCGOmegaStep_Private(d, i, PetscRealPart(GAM(i)), PetscRealPart(DEL(i))), zi = PetscAbsScalar(ZETA(i));

    if (om > PLCG_OMEGA && pipe->guard.rn0 > 0 && zi > PLCG_EARLY * pipe->guard.rn0) {
      /* losing orthogonality while the solve has got nowhere: depth 1 now, as after an early breakdown,
         without the steps to that breakdown */
      PetscCall(PetscInfo(ksp, "loss of orthogonality estimated at %g at depth %" PetscInt_FMT ", step %" PetscInt_FMT " since the last true residual, natural residual %g (%g of r_0's): depth 1 for the rest of the solve\n", (double)om, d->lrun, i, (double)zi,
                          (double)(zi / pipe->guard.rn0)));
      pipe->nrestart_solve++;
      pipe->nrestart_total++;
      KSPPipePLCGLowerDepth_Private(d, 1, PETSC_TRUE);
      r->upd_at_restart = -1;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  *brk = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the CG iterate x_{i+1} = x_i + zeta_i p_i, i = it - l (LDL^T of the Lanczos tridiagonal), the fused step
   of the recurrences with the dots of the next column, the test, and the replacement rule. *brk: the segment
   ends (a breakdown, a test that ended the solve, a claim to check, a restart) */
static PetscErrorCode PLCGIterate(KSP ksp, PLCGRun *r, PetscInt it, PetscBool *brk)
{
  KSP_PLCG   *d    = (KSP_PLCG *)ksp->data;
  KSP_Pipe   *pipe = &d->pipe;
  Vec        *z = r->z, *u = r->u, *q = r->q, *mq = r->mq, p = r->p;
  PetscInt    l = r->l, nz = r->nz, i = it - l, k, m;
  PetscScalar lambda;

  PetscFunctionBegin;
  *brk = PETSC_TRUE;
  if (i == 0) {
    r->eta = GAM(0);
    PetscCall(VecCopy(QV(0, 0), p));
    PetscCall(VecScale(p, 1.0 / r->eta));
  } else {
    lambda  = DEL(i - 1) / r->eta;
    r->eta  = GAM(i) - lambda * DEL(i - 1);
    ZETA(i) = -lambda * ZETA(i - 1);
  }
  if (PetscIsInfOrNanScalar(r->eta)) {
    PetscCall(PLCGBreak(ksp, r, "Inf or NaN pivot", KSP_DIVERGED_NANORINF, i, PETSC_TRUE, (PetscBool)(i == 0)));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (!(PetscRealPart(r->eta) > 0)) { /* the pivot is cg's (p,Ap) up to a positive factor */
    char what[64];

    PetscCall(PetscSNPrintf(what, sizeof(what), "non-positive pivot %g", (double)PetscRealPart(r->eta)));
    PetscCall(PLCGBreak(ksp, r, what, KSP_DIVERGED_INDEFINITE_MAT, i, PETSC_FALSE, (PetscBool)(i == 0)));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (!r->lucky) {
    /* one pass: z and u = M z, the auxiliary bases q^(k) (q^(l)_i = z_{i+l}, q^(0) = v) and their M-images, p,
       and the dots of column it+1. After the pivot's checks: a breakdown discards them all */
    PetscScalar    g = GAM(i), dm = i > 0 ? DEL(i - 1) : 0.0, inv = 1.0 / DEL(i);
    KSPPipePLCGRec rc;
    PetscBool      i0 = (PetscBool)(i == 0);

    rc.nr = 0;
    KSPPipePLCGRecAdd_Private(&rc, ZV(it + 1), ZV(it + 1), ZV(it), i0 ? NULL : ZV(it - 1), -g);
    KSPPipePLCGRecAdd_Private(&rc, UV(it + 1), UV(it + 1), UV(it), i0 ? NULL : UV(it - 1), -g);
    for (k = 0; k < l; k++) {
      KSPPipePLCGRecAdd_Private(&rc, QV(k, i + 1), k + 1 < l ? QV(k + 1, i) : ZV(it), QV(k, i), i0 ? NULL : QV(k, i - 1), d->sigma[k] - g);
      if (mq) KSPPipePLCGRecAdd_Private(&rc, MQV(k, i + 1), k + 1 < l ? MQV(k + 1, i) : UV(it), MQV(k, i), i0 ? NULL : MQV(k, i - 1), d->sigma[k] - g);
    }
    r->nwnext         = 0;
    r->w[r->nwnext++] = QV(0, i + 1);
    for (m = it - l + 2; m <= it + 1; m++) r->w[r->nwnext++] = ZV(m);
    r->ynext = r->extra ? (mq ? MQV(0, i + 1) : QV(0, i + 1)) : NULL;
    PetscCall(KSPPipePLCGStep_Private(&rc, -dm, inv, (PetscBool)!i0, p, QV(0, i), 1.0 / r->eta, i > 0 ? -DEL(i - 1) / r->eta : 0.0, UV(it + 1), r->nwnext, r->w, r->ynext, r->loc, r->loclo));
  } else if (i > 0) PetscCall(VecAXPBY(p, 1.0 / r->eta, -DEL(i - 1) / r->eta, QV(0, i)));
  /* with the norm l columns late (extra) no update past -ksp_max_it: a capped solve returns cg's iterate of
     that iteration */
  if (!r->extra || r->st.nupd < KSPPipeMaxIt_Private(ksp)) {
    PetscCall(VecAXPY(r->X, ZETA(i), p));
    if (d->hon) {
      PetscCall(VecCopy(p, d->hist[r->st.nupd % l]));
      d->hz[r->st.nupd % l] = ZETA(i);
      d->happ               = r->st.nupd + 1;
    }
  }
  r->st.nupd++;
  ZETA(i + 1) = -DEL(i) / r->eta * ZETA(i); /* the natural norm of r_{i+1} is |zeta_{i+1}| */
  if (r->natural && !r->lucky) {
    PetscCall(KSPPipePLCGTest_Private(ksp, r->base + i + 1, ksp->normtype == KSP_NORM_NONE ? 0.0 : PetscAbsScalar(ZETA(i + 1))));
    if ((r->st.check = KSPPipePLCGCheckClaim_Private(ksp))) {
      r->st.claimits = ksp->its;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    if (ksp->reason) PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (r->lucky) { /* restart from the true residual, judged as a replacement: no gain twice is the floor */
    r->st.replacing = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  KSPPipePLCGGapStep_Private(ksp, i, PetscRealPart(r->eta), PetscRealPart(ZETA(i)), i > 0 ? PetscRealPart(ZETA(i - 1)) : 0.0, PetscRealPart(ZETA(i + 1)), i > 0 ? PetscRealPart(DEL(i - 1)) : 0.0);
  /* a fixed period, or auto: pipeguard.c's rule once the gap estimate is near the recursive residual. A
     replacement here is a restart that loses the Krylov space, so not earlier; not past -ksp_max_it, where x
     takes no more updates and the solve only waits for the norm of its last iterate */
  if (r->st.nupd <= KSPPipeMaxIt_Private(ksp) && (pipe->replace > 0 || (pipe->replace == PETSC_DECIDE && pipe->guard.gf > PLCG_GAP_NEAR * PetscAbsScalar(ZETA(i + 1))))) {
    PetscBool now;

    PetscCall(KSPPipeReplaceNow_Private(ksp, r->st.nupd, PetscAbsScalar(ZETA(i + 1)), &now));
    if (now) {
      r->st.replacing = PETSC_TRUE;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  *brk = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the iterations of one segment at depth l: each SpMV and PC application overlaps up to l reductions */
static PetscErrorCode PLCGSegment(KSP ksp, PLCGRun *r)
{
  KSP_PLCG *d = (KSP_PLCG *)ksp->data;
  Vec      *z = r->z, *u = r->u, *q = r->q, *mq = r->mq;
  PetscInt  l = r->l, nz = r->nz, it, m;
  PetscBool brk;

  PetscFunctionBegin;
  for (it = 0;; it++) {
    r->lucky = PETSC_FALSE;
    /* u_{it+1} = A z_it (- sigma_it u_it), z_{it+1} = M^{-1} u_{it+1} */
    PetscCall(KSPPipeApplyOperator_Private(ksp, r->A, ZV(it), UV(it + 1)));
    if (it < l) PetscCall(VecAXPY(UV(it + 1), -d->sigma[it], UV(it)));
    PetscCall(KSPPipePCApply_Private(ksp, UV(it + 1), ZV(it + 1)));
    if (it + 1 < l) { /* z_{it+1} = P_{it+1}(B) v_0 starts auxiliary basis it+1 */
      PetscCall(VecCopy(ZV(it + 1), QV(it + 1, 0)));
      if (mq) PetscCall(VecCopy(UV(it + 1), MQV(it + 1, 0)));
    }
    if (it == l && r->defer) {
      PetscCall(KSPPipePLCGStartPoint_Private(ksp, &r->st, nz, z, 3, u, l, q, mq));
      if (ksp->reason || d->lrun != l) break; /* a first (r,M^{-1}r) < 0 goes on at depth 0 */
    }
    if (it >= l) {
      PetscCall(PLCGColumn(ksp, r, it, &brk));
      if (brk) break;
      PetscCall(PLCGIterate(ksp, r, it, &brk));
      if (brk) break;
    }
    if (!r->lucky) { /* the dots of column it+1 (at it >= l the fused step computed them) and their reduction */
      PetscInt cn = it + 1;

      if (it < l) {
        r->nwnext = 0;
        r->ynext  = NULL;
        for (m = 0; m <= cn; m++) r->w[r->nwnext++] = ZV(m);
        PetscCall(KSPPipePLCGLocalDots_Private(UV(cn), r->nwnext, r->w, NULL, r->loc, r->loclo));
      }
      PetscCall(PipeKSPRedStartSlot_Private(d->pipe.red, (int)(r->nwnext + (r->ynext ? 1 : 0)), r->loc, r->loclo, &d->slot[cn % (l + 1)]));
    }
  }
  PetscCall(PipeKSPRedWaitAll_Private(d->pipe.red)); /* reductions still in flight belong to iterations not needed */
  PetscFunctionReturn(PETSC_SUCCESS);
}

#undef ZV
#undef UV
#undef QV
#undef MQV

/* the end of a solve: the Ritz values for the next one, the depth policy's record, x (cg's iterate; after a
   loss of stability the kept one when lower in energy) */
static PetscErrorCode PLCGSolveEnd(KSP ksp, PLCGRun *r)
{
  KSP_PLCG *d    = (KSP_PLCG *)ksp->data;
  KSP_Pipe *pipe = &d->pipe;

  PetscFunctionBegin;
  d->hon = PETSC_FALSE;                                   /* KSPBuildSolution() after the solve: x */
  PetscCall(KSPPipeSolveEnd_Private(ksp, r->A, r->z[0])); /* the reason and count the records below read */
  PetscCall(KSPPipePLCGRitzKeep_Private(ksp));
  if (d->lauto && ksp->reason > 0) d->autod.its = ksp->its; /* auto's next choice spreads per-solve work over them */
  PetscCall(KSPPipePLCGCapEnd_Private(ksp));
  if (d->estpcfail) pipe->depth_end = r->l;
  if (d->lrun < d->l) PetscCall(PetscInfo(ksp, "solve ended at depth %" PetscInt_FMT " of %" PetscInt_FMT " after %" PetscInt64_FMT " depth changes\n", d->lrun, d->l, pipe->ndepth_solve));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* segments from the true residual until the solve ends, each at the depth in use; below depth 2 another
   method's iterations finish the solve */
static PetscErrorCode PLCGSolve(KSP ksp)
{
  KSP_PLCG *d = (KSP_PLCG *)ksp->data;
  PLCGRun   r = {0};
  PetscBool done;

  PetscFunctionBegin;
  r.st             = (KSPPipePLCGStart){PETSC_TRUE, PETSC_FALSE, 0, PETSC_MAX_REAL, PETSC_FALSE, PETSC_MAX_REAL, 0, 0.0, 1.0, PETSC_FALSE};
  r.upd_at_restart = -1;
  PetscCall(PLCGSolveBegin(ksp, &r));
  for (;;) {
    PetscCall(PLCGLower(ksp, &r, &done));
    if (done) break;
    PetscCall(PLCGSegmentStart(ksp, &r));
    if (!r.defer && ksp->reason) break; /* its test ended the solve */
    if (d->lrun != r.l) continue;       /* its check lowered the depth: PLCGLower takes over */
    PetscCall(PLCGSegment(ksp, &r));
    if (ksp->reason) break;
  }
  PetscCall(PLCGSolveEnd(ksp, &r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the layouts checked first; an error inside leaves PC and b as a finished solve would (src/ksp/pipecommon.c) */
static PetscErrorCode KSPSolve_PipePLCG(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPPipeSolveEntry_Private(ksp, PLCGSolve));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPPipePLCGSetDepth_PLCG(KSP ksp, PetscInt l)
{
  KSP_PLCG *d = (KSP_PLCG *)ksp->data;

  PetscFunctionBegin;
  if (l == PETSC_DECIDE) { /* auto; already auto: the measurements stand until the matrices change (the choice is made at each solve) */
    if (!d->lauto) {
      d->lauto      = PETSC_TRUE;
      d->autod.done = PETSC_FALSE;
      d->l          = PETSC_DECIDE;
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(l >= 0 && l <= PLCG_MAXL, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "Pipeline depth %" PetscInt_FMT " must be 0..%d, or PETSC_DECIDE (auto)", l, PLCG_MAXL);
  d->capped = PETSC_FALSE; /* a depth set explicitly is tried, even the one that broke down */
  d->lauto  = PETSC_FALSE;
  d->l      = l;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPPipePLCGGetDepth_PLCG(KSP ksp, PetscInt *l)
{
  PetscFunctionBegin;
  *l = ((KSP_PLCG *)ksp->data)->l;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPPipePLCGSetEigenvalueBounds_PLCG(KSP ksp, PetscReal lmin, PetscReal lmax)
{
  KSP_PLCG *d = (KSP_PLCG *)ksp->data;

  PetscFunctionBegin;
  if (lmax == 0.0 && lmin == 0.0) { /* back to the estimate */
    d->user_eig   = PETSC_FALSE;
    d->nestimates = 0;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(KSPPipePLCGUsableBounds_Private(lmin, lmax), PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "Eigenvalue interval [%g, %g] of M^{-1}A must be finite with 0 <= lmin < lmax, %g <= lmax <= %g and lmax/lmin <= %g (0, 0: estimate it)", (double)lmin, (double)lmax, (double)PLCG_EIG_MIN, (double)PLCG_EIG_MAX, (double)PLCG_EIG_RATIO);
  d->user_eig  = PETSC_TRUE;
  d->estfailed = PETSC_FALSE;
  d->lmin      = lmin;
  d->lmax      = lmax;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPPipePLCGGetEigenvalueBounds_PLCG(KSP ksp, PetscReal *lmin, PetscReal *lmax)
{
  KSP_PLCG *d = (KSP_PLCG *)ksp->data;

  PetscFunctionBegin;
  if (lmin) *lmin = d->lmin;
  if (lmax) *lmax = d->lmax;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPPipePLCGSetEstimateIterations_PLCG(KSP ksp, PetscInt n)
{
  KSP_PLCG *d = (KSP_PLCG *)ksp->data;

  PetscFunctionBegin;
  PetscCheck(n >= PLCG_EIG_ITS_MIN, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "Eigenvalue estimate needs at least %d CG iterations, not %" PetscInt_FMT, PLCG_EIG_ITS_MIN, n);
  if (n != d->eig_its) d->nestimates = 0;
  d->eig_its = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPPipePLCGSetEstimateFactor_PLCG(KSP ksp, PetscReal f)
{
  KSP_PLCG *d = (KSP_PLCG *)ksp->data;

  PetscFunctionBegin;
  if (f == (PetscReal)PETSC_DEFAULT) f = PETSC_DECIDE;
  PetscCheck((f >= PLCG_FACTOR_MIN && f <= PLCG_FACTOR_MAX) || f == (PetscReal)PETSC_DECIDE, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "Eigenvalue estimate factor %g must be in [%g, %g], or PETSC_DECIDE (by the spectrum's top)", (double)f, (double)PLCG_FACTOR_MIN, (double)PLCG_FACTOR_MAX);
  if (f != d->eig_factor) d->nestimates = 0;
  d->eig_factor = f;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPPipePLCGSetEstimateReuse_PLCG(KSP ksp, PetscBool flg)
{
  PetscFunctionBegin;
  ((KSP_PLCG *)ksp->data)->eig_reuse = flg;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPPipePLCGGetEstimateReuse_PLCG(KSP ksp, PetscBool *flg)
{
  PetscFunctionBegin;
  *flg = ((KSP_PLCG *)ksp->data)->eig_reuse;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPSetFromOptions_PipePLCG(KSP ksp, PipeKSPOptionItems PetscOptionsObject)
{
  KSP_PLCG *d = (KSP_PLCG *)ksp->data;
  PetscInt  l, n = d->eig_its;
  char      sl[16];
  PetscReal f    = d->eig_factor;
  PetscReal b[2] = {d->user_eig ? d->lmin : 0.0, d->user_eig ? d->lmax : 0.0};
  PetscInt  nb   = 2;
  char      sb[64], sbnew[64];
  PetscBool flg, reuse = d->eig_reuse;

  PetscFunctionBegin;
  PetscCall(KSPSetFromOptions_Pipe(ksp, PetscOptionsObject));
  PetscOptionsHeadBegin(PetscOptionsObject, "KSP pipeplcg (deep pipelined CG) options");
  if (d->lauto) PetscCall(PetscStrncpy(sl, "auto", sizeof(sl)));
  else PetscCall(PetscSNPrintf(sl, sizeof(sl), "%" PetscInt_FMT, d->l));
  PetscCall(PetscOptionsString("-ksp_pipe_depth", "Pipeline depth l: reductions in flight, each overlapping l SpMVs and PC applications (auto, or 0..5; 0: Gropp's CG, no basis pipeline)", "KSPPipePLCGSetDepth", sl, sl, sizeof(sl), &flg));
  if (flg) {
    PetscBool isauto;

    PetscCall(PetscStrcasecmp(sl, "auto", &isauto));
    if (isauto) l = PETSC_DECIDE;
    else {
      char *end;

      /* a plain integer (-1 is PETSC_DECIDE to the setter: the option says auto in words) */
      l = (PetscInt)strtol(sl, &end, 10);
      PetscCheck(end != sl && !*end && l >= 0 && l <= PLCG_MAXL, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "-ksp_pipe_depth %s: must be auto or 0..%d", sl, PLCG_MAXL);
    }
    PetscCall(KSPPipePLCGSetDepth(ksp, l));
  }
  /* read as a string so that -help shows the pair (PETSc's real-array help shows only its first entry),
     then parsed by PETSc's own real-array reader */
  PetscCall(PetscSNPrintf(sb, sizeof(sb), "%g,%g", (double)b[0], (double)b[1]));
  PetscCall(PetscOptionsString("-ksp_pipe_eig_bounds", "lmin,lmax: interval of the spectrum of M^{-1}A for the Chebyshev shifts (default: estimated; 0,0 estimates)", "KSPPipePLCGSetEigenvalueBounds", sb, sbnew, sizeof(sbnew), &flg));
  if (flg) PetscCall(PetscOptionsGetRealArray(((PetscObject)ksp)->options, ((PetscObject)ksp)->prefix, "-ksp_pipe_eig_bounds", b, &nb, &flg));
  if (flg) {
    PetscCheck(nb == 2, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_SIZ, "-ksp_pipe_eig_bounds needs two values lmin,lmax");
    PetscCall(KSPPipePLCGSetEigenvalueBounds(ksp, b[0], b[1]));
  }
  PetscCall(PetscOptionsInt("-ksp_pipe_eig_its", "CG iterations of the eigenvalue estimate", "KSPPipePLCGSetEstimateIterations", n, &n, &flg));
  if (flg) PetscCall(KSPPipePLCGSetEstimateIterations(ksp, n));
  PetscCall(PetscOptionsReal("-ksp_pipe_eig_factor", "Estimated interval is [0, factor * largest Ritz value], factor in [0.1, 10] (-1 or DECIDE: 1 where the estimate finds the spectrum's top dense, 0.93 where sparse)", "KSPPipePLCGSetEstimateFactor", f, &f, &flg));
  if (flg) PetscCall(KSPPipePLCGSetEstimateFactor(ksp, f));
  PetscCall(PetscOptionsBool("-ksp_pipe_eig_reuse", "A changed operator takes its interval from the previous solve's Ritz values (no estimate)", "KSPPipePLCGSetEstimateReuse", d->eig_reuse, &reuse, &flg));
  if (flg) PetscCall(KSPPipePLCGSetEstimateReuse(ksp, reuse));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -ksp_view's line on auto replacement: here a replacement is a restart, and a claimed convergence is checked */
static PetscErrorCode KSPPipeViewAutoReplace_PipePLCG(KSP ksp, PetscViewer viewer)
{
  PetscFunctionBegin;
  /* run as pipegv, with its rule: depth 1 (known before a solve sets it), or a last solve on a clustered spectrum */
  if (PLCGGVForm((KSP_PLCG *)ksp->data) || ((KSP_PLCG *)ksp->data)->lastgv) {
    PetscCall(KSPPipeGuardViewReplaceRule_Private(viewer, PETSC_TRUE));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "residual replacement: auto (a restart from the true residual when the estimated gap reaches %g of the requested residual and the recursive residual, at least %d iterations after the last true residual; a convergence claimed by the recursive norm is checked against the true residual)\n", (double)PIPE_GAP_TARGET, PIPE_GAP_SPACING));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPView_PipePLCG(KSP ksp, PetscViewer viewer)
{
  KSP_PLCG *d = (KSP_PLCG *)ksp->data;
  PetscBool iascii;
  PetscInt  k;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(PETSC_SUCCESS);
  if (d->lauto) PetscCall(KSPPipePLCGAutoView_Private(&d->autod, viewer));
  if (d->l == 0) PetscCall(PetscViewerASCIIPrintf(viewer, "pipeline depth l = 0: no basis pipeline (Gropp's CG, cg's recurrences: two reductions per iteration, one overlapped with the PC application, the other with the SpMV)\n"));
  else if (PLCGGVForm(d))
    PetscCall(PetscViewerASCIIPrintf(viewer, "pipeline depth l = 1%s: p(1)-CG with a zero shift, run as pipegv's recurrences (one fused pass, no shifts, no estimate; -ksp_pipe_eig_bounds asks for shifts)\n", d->lauto ? " (auto's)" : ""));
  else if (d->l > 0) PetscCall(PetscViewerASCIIPrintf(viewer, "pipeline depth l = %" PetscInt_FMT " (up to %" PetscInt_FMT " reductions in flight)\n", d->l, d->l));
  if (d->l == 0 || PLCGGVForm(d)) { /* no shifts */
  } else if (d->user_eig) PetscCall(PetscViewerASCIIPrintf(viewer, "shifts: Chebyshev roots of [%g, %g] (given)\n", (double)d->lmin, (double)d->lmax));
  else if (d->fromritz)
    PetscCall(PetscViewerASCIIPrintf(viewer, "shifts: Chebyshev roots of [%g, %g] (%g x the smallest and %g x the largest Ritz value of the previous solve, %g and %g, whose operator had other values: no estimate)\n", (double)d->lmin, (double)d->lmax, (double)PLCG_RITZ_LOW, (double)KSPPipePLCGFactor_Private(d),
                                     (double)d->thetalo, (double)d->theta));
  else if (d->nestimates && d->estfailed) PetscCall(PetscViewerASCIIPrintf(viewer, "shifts: none (the estimate's CG broke down, or its interval is one the arithmetic cannot carry): the solves run at depth 1\n"));
  else if (d->nestimates)
    PetscCall(PetscViewerASCIIPrintf(viewer, "shifts: Chebyshev roots of [%g, %g] (estimated: %g x the largest Ritz value of %" PetscInt_FMT " CG iterations; extreme Ritz values %g, %g)\n", (double)d->lmin, (double)d->lmax, (double)KSPPipePLCGFactor_Private(d), d->eig_its,
                                     (double)d->emin, (double)d->emax));
  else if (d->eig_factor > 0) PetscCall(PetscViewerASCIIPrintf(viewer, "shifts: Chebyshev roots of [0, %g x the largest Ritz value of %" PetscInt_FMT " CG iterations] (estimated at the first solve)\n", (double)d->eig_factor, d->eig_its));
  else
    PetscCall(PetscViewerASCIIPrintf(viewer, "shifts: Chebyshev roots of [0, f x the largest Ritz value of %" PetscInt_FMT " CG iterations] (estimated at the first solve; f %g or %g by the top of the spectrum)\n", d->eig_its, (double)PLCG_FACTOR_DENSE, (double)PLCG_FACTOR_SPARSE));
  if (d->l > 0 && !PLCGGVForm(d) && d->nestimates && !d->estfailed && !d->fromritz && d->eig_factor <= 0 && !d->user_eig)
    PetscCall(PetscViewerASCIIPrintf(viewer, "shifts: the estimate found the top of the spectrum %s (n^2 x the weight of the largest Ritz value of its first n <= %d steps: %g; dense from %g to %g): f = %g\n", KSPPipePLCGTopDense_Private(d) ? "dense" : "sparse", PLCG_TOP_STEPS,
                                     (double)d->topw, (double)PLCG_TOP_DENSE, (double)PLCG_TOP_POINT, (double)KSPPipePLCGFactor_Private(d)));
  if (d->l > 0 && !PLCGGVForm(d) && (d->user_eig || d->nestimates || d->fromritz)) {
    Shifts(d, d->l);
    PetscCall(PetscViewerASCIIPrintf(viewer, "shifts:"));
    PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_FALSE));
    for (k = 0; k < d->l; k++) PetscCall(PetscViewerASCIIPrintf(viewer, " %g", (double)d->sigma[k]));
    PetscCall(PetscViewerASCIIPrintf(viewer, "\n"));
    PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_TRUE));
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "intervals: %" PetscInt_FMT " estimated, %" PetscInt_FMT " from the previous solve's Ritz values (-ksp_pipe_eig_reuse %s)\n", d->nestimates, d->nritz, d->eig_reuse ? "true" : "false"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "square-root breakdown restarts: %" PetscInt_FMT "\n", d->nrestarts));
  if (d->estfailed && !d->user_eig) PetscCall(PetscViewerASCIIPrintf(viewer, "the eigenvalue estimate failed: the solves run at depth 1 (Gropp's CG, pipegropp)\n"));
  if (d->nclustered) PetscCall(PetscViewerASCIIPrintf(viewer, "solves run at depth 1 (pipegv's recurrences) on a spectrum the estimate found clustered: %" PetscInt_FMT "\n", d->nclustered));
  if (d->capped && d->l > 1)
    PetscCall(PetscViewerASCIIPrintf(viewer, "depth 1 from the start on these matrices (%" PetscInt_FMT " solves so far): an earlier solve broke down early at depth >= 2; depth %" PetscInt_FMT " is tried again after %" PetscInt_FMT " more healthy solves (back-off %" PetscInt_FMT "), on new matrices, or when a depth is set\n", d->ncapped, d->l, d->capleft, d->capwait));
  if (d->nretry) PetscCall(PetscViewerASCIIPrintf(viewer, "retries of depth %" PetscInt_FMT " after early breakdowns: %" PetscInt_FMT "\n", d->l, d->nretry));
  PetscCall(KSPView_Pipe(ksp, viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPDestroy_PipePLCG(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipePLCGSetDepth_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipePLCGGetDepth_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipePLCGSetEigenvalueBounds_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipePLCGGetEigenvalueBounds_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipePLCGSetEstimateIterations_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipePLCGSetEstimateFactor_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipePLCGSetEstimateReuse_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipePLCGGetEstimateReuse_C", NULL));
  PetscCall(KSPDestroy_Pipe(ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   KSPPIPEPLCG - "pipeplcg": deep-pipelined preconditioned CG, p(l)-CG (Cornelis, Cools and Vanroose 2018),
   with the stable auxiliary-basis recurrences (Cools, Cornelis and Vanroose 2019). One SpMV, one
   preconditioner application and one non-blocking reduction per iteration; each reduction has l
   iterations to complete, so up to l are in flight, all driven by the progress engine.

   Options Database Keys:
+  -ksp_pipe_depth <l> - pipeline depth 0..5 (0: no basis pipeline, Gropp's CG), or auto (default): chosen at the first solve from measurements (`KSPPipePLCGSetDepth()`)
.  -ksp_pipe_eig_bounds <lmin,lmax> - interval of the spectrum of M^{-1}A for the Chebyshev shifts (default: estimated)
.  -ksp_pipe_eig_its <n> - CG iterations of the estimate (default 10)
.  -ksp_pipe_eig_factor <f> - estimated interval [0, f theta], theta the largest Ritz value, f in [0.1, 10] (default: 1 where the estimate finds the top of the spectrum dense, 0.93 where sparse)
.  -ksp_pipe_eig_reuse <bool> - a changed operator takes its interval from the previous solve's Ritz values, no estimate (default true)
.  -ksp_pipe_progress <none,poll,thread,auto,blocking> - how pending reductions progress (default auto)
.  -ksp_pipe_poll_interval <us> - microseconds of wall time between MPI_Test calls of the poll hook (default 2: no longer than a hop of the allreduce)
-  -ksp_pipe_replace <auto,n,0> - auto (default): restart from the true residual when the estimated gap between recursive and true residual reaches the requested residual and the recursive one, and check a convergence the recursive norm claims against the true residual; n: restart from the true residual every n iterations; 0: neither

   Notes:
   The shifts are the Chebyshev roots of [lmin, lmax]; by default [0, f theta], theta the largest Ritz value
   of a few CG iterations made at the first solve, f = 1 where the quadrature weight of theta shows the top of
   the spectrum dense (a Laplacian's) and 0.93 where sparse (elasticity with Jacobi); when the matrices then get
   new values, the previous solve's Ritz values give [0.9 theta_min, f theta_max] with no estimate
   (`KSPPipePLCGSetEstimateReuse()`). PETSc's
   `KSPPIPELCG` defaults to zero shifts (the monomial basis), which is what loses it accuracy for l > 1.

   The dot products of each iteration are compensated sums (two-sums on each rank, the ranks' pairs reduced in
   double-double), and the Cholesky step of the basis's Gram matrix runs in long double: their rounding had
   delayed the deep pipeline beyond cg (PETSc's ex56 at depth 3 and rtol 1e-12: 94 iterations, cg 72; now 73).

   Depth 0 is no basis pipeline: Gropp's CG (`KSPPIPEGROPP`), cg's recurrences with each of its two reductions
   overlapped with the PC application or the SpMV after it, for where there is little latency to hide (one
   node); it needs no shifts and gives cg's iterates where the single-reduction recurrences lose to cg's
   (wide spectra). With auto (`KSPPipePLCGSetDepth()` with
   `PETSC_DECIDE`) the first solve, and the first after the operators change, measures the latency of a
   blocking reduction, what one iteration's SpMV and PC hide of it, and the time of one SpMV, PC application
   and vector pass, the slowest rank's figures, and chooses the depth 0..3 of least modelled time per
   iteration, 1 or more only where an iteration hides some of the reduction (docs/pipeplcg.md); -ksp_view
   shows the figures and the choice, `KSPPipePLCGGetDepth()` returns it. Depth 1 (auto's or given) is p(1)-CG
   with a zero shift, run as pipegv's recurrences (no estimate); an interval given with -ksp_pipe_eig_bounds
   asks for the shifted p(1)-CG basis instead.

   All norm types are supported. The natural norm comes with the iterate; the preconditioned and
   unpreconditioned norms need one more dot product that arrives l iterations later, so the solve stops l
   iterations after the one it reports (x then holds that later, better iterate, checked against the true
   residual). Where a monitor or a convergence test other than the default looks, the last l updates of x are
   kept (l + 1 more vectors, always allocated for these norms): `KSPBuildSolution()` gives the iterate of
   the iteration being tested, and a test of the user's that ends the solve leaves cg's iterate of that
   iteration in x. The unpreconditioned norm also keeps M-images of the auxiliary bases (3l more vectors).

   A square-root breakdown (the basis lost rank in finite precision) restarts from the true residual
   (-info reports it, -ksp_view counts it); met again right after the restart, it is taken as an invariant
   Krylov space: the last CG step, then a restart.

   The solve never ends worse than cg: a breakdown of the deep recurrences far from convergence (a
   non-positive pivot, a square-root breakdown, Inf/NaN, a basis grown past its Chebyshev bound, an
   invariant space met again within l steps), or one that recurs, restarts from b - A x at a lower depth for
   the rest of the solve: depth 1 (Gropp's CG, pipegropp) at once after a breakdown with slow progress
   before the residual fell tenfold, one less otherwise; an estimate that fails runs depth 1 from the
   start. It ends only with a reason cg gives, and with cg's iterate (docs/algorithms.md, the cg contract). -info reports each
   change, -ksp_view and `KSPPipeGetStats()` (depth_changes, depth) the last solve's (docs/pipeplcg.md).
   Before it breaks, a segment still far from convergence whose Lanczos vectors are losing orthogonality
   (Simon's estimate from the tridiagonal p(l)-CG builds, above 1e-4) goes to depth 1 in the same way.
   After an early breakdown later solves on the same matrices (new values: a time step, a Newton step) and
   PC type start at depth 1, which pays latency where the deep basis would lose a segment again; new
   matrices, or another depth set, try the depth again.

   Level: intermediate

.seealso: `KSPPIPEGV`, `KSPPIPELCG`, `KSPPipePLCGSetDepth()`, `KSPPipePLCGSetEigenvalueBounds()`, `KSPPipePLCGSetEstimateReuse()`, `KSPPipeSetProgress()`
M*/
PETSC_INTERN PetscErrorCode KSPCreate_PipePLCG(KSP ksp)
{
  KSP_PLCG *d;

  PetscFunctionBegin;
  PetscCall(KSPPipeCreateCommon_Private(ksp, PETSC_FALSE));
  /* widen the common data (KSP_Pipe first) into ours */
  PetscCall(PetscNew(&d));
  d->pipe = *(KSP_Pipe *)ksp->data;
  PetscCall(PetscFree(ksp->data));
  ksp->data                   = (void *)d;
  d->pipe.replace             = PETSC_DECIDE; /* auto: a restart discards the Krylov space, so only where convergence is in doubt */
  d->pipe.ops.viewautoreplace = KSPPipeViewAutoReplace_PipePLCG;
  PetscCall(PipeKSPRedSetInterval_Private(d->pipe.red, PLCG_POLL_INTERVAL_US));
  /* auto: a pipeline only costs where there is no latency to hide (measured: docs/pipeplcg.md) */
  d->l                     = PETSC_DECIDE;
  d->lauto                 = PETSC_TRUE;
  d->eig_its               = PLCG_EIG_ITS_DEFAULT;
  d->eig_factor            = PETSC_DECIDE;
  d->eig_reuse             = PETSC_TRUE;
  ksp->ops->setup          = KSPSetUp_PipePLCG;
  ksp->ops->solve          = KSPSolve_PipePLCG;
  ksp->ops->setfromoptions = KSPSetFromOptions_PipePLCG;
  ksp->ops->view           = KSPView_PipePLCG;
  ksp->ops->destroy        = KSPDestroy_PipePLCG;
  ksp->ops->buildsolution  = KSPBuildSolution_PipePLCG;
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipePLCGSetDepth_C", KSPPipePLCGSetDepth_PLCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipePLCGGetDepth_C", KSPPipePLCGGetDepth_PLCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipePLCGSetEigenvalueBounds_C", KSPPipePLCGSetEigenvalueBounds_PLCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipePLCGGetEigenvalueBounds_C", KSPPipePLCGGetEigenvalueBounds_PLCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipePLCGSetEstimateIterations_C", KSPPipePLCGSetEstimateIterations_PLCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipePLCGSetEstimateFactor_C", KSPPipePLCGSetEstimateFactor_PLCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipePLCGSetEstimateReuse_C", KSPPipePLCGSetEstimateReuse_PLCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipePLCGGetEstimateReuse_C", KSPPipePLCGGetEstimateReuse_PLCG));
  PetscFunctionReturn(PETSC_SUCCESS);
}
