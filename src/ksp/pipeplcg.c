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
   monomial one and the method loses its accuracy as l grows. This file: the solver, its options and view;
   the public KSPPipePLCG* API is in pipeplcgtype.c. */
#include <pipeksp/pipecommon.h>
#include <petsc/private/pcimpl.h> /* PCPreSolve()'s nesting, undone after an error */

#define PLCG_MAXL 5
#define PLCG_GC   (PLCG_MAXL + 2)     /* columns of G kept */
#define PLCG_GR   (2 * PLCG_MAXL + 1) /* band of one column */
#define PLCG_NR   (2 * PLCG_MAXL + 2) /* ring of the scalar recurrences */
/* entries between poll points in the vector loops: with up to l reductions in flight, every stretch of
   compute without an MPI call holds back their rounds (Open MPI progresses only inside MPI calls); the
   poll hook is throttled to the poll interval, so a dense set of points costs a clock read each */
#define PLCG_CHUNK 256
/* the defaults of the options: depth, CG iterations of the eigenvalue estimate, the factor of its interval
   (KSPPipePLCGSetEstimateFactor()), and the poll interval: a reduction's rounds advance only inside MPI
   calls, and a deep pipeline is for reductions of many rounds, so polls as frequent as a hop
   (docs/pipeplcg.md) */
#define PLCG_EIG_ITS_DEFAULT    10
#define PLCG_EIG_ITS_MIN        2 /* two Ritz values: an interval */
#define PLCG_EIG_FACTOR_DEFAULT 0.93
#define PLCG_POLL_INTERVAL_US   2.0
/* a Cholesky pivot of G below this times its column's dot product: z_c is in the span of the earlier basis
   (an invariant Krylov space, a lucky breakdown) */
#define PLCG_TINY (64 * PETSC_MACHINE_EPSILON)
/* the true residual confirms a claimed convergence up to this factor of the tolerance */
#define PLCG_CONFIRM 2.0
/* a replacement whose residual is below this times the best is progress (any real gain: a restarted
   recurrence gains little per period of a short -ksp_pipe_replace); PIPE_GAIN is the rule for the checks */
#define PLCG_GAIN 0.99
/* auto replacement waits until the estimated gap is this fraction of the recursive residual */
#define PLCG_GAP_NEAR 1.0
/* usable intervals of the shifts (KSPPipePLCGSetEigenvalueBounds(), the estimate): P_l(B) has entries up to
   lmax^l, l <= 5, so lmax in [1e-50, 1e50] keeps the basis and its dot products (lmax^(2l)) inside double
   precision's range with room; lmax/lmin above 1e15 (about 1/eps) puts lmin below the rounding of lmax */
#define PLCG_EIG_MIN   1e-50
#define PLCG_EIG_MAX   1e50
#define PLCG_EIG_RATIO 1e15
/* breakdown restarts at one depth in one solve beyond which the depth is lowered even with fast progress:
   each restart discards the Krylov space, so more of them cost more than the lower depth's latency */
#define PLCG_BREAKS 3
/* after an early breakdown, solves on the same matrices run at depth 1; the deep pipeline is tried again after
   this many healthy ones, twice as many after each retry that broke down early again (back-off) */
#define PLCG_RETRY 3
/* a breakdown with the natural residual within this factor of rtol ||r_0|| is near convergence: a restart at
   the same depth usually finishes the solve (an isolated breakdown of a healthy run, as on PETSc's ex2 at
   depths 3-5). Farther out, the basis broke in mid-solve and would again: the depth is lowered at once */
#define PLCG_NEAR 1e2
/* a breakdown far from convergence with the natural residual still above this fraction of r_0's is early:
   the depth goes to 1 at once (PLCGBreakdown()) */
#define PLCG_EARLY 0.1
/* Simon's estimate of the Lanczos vectors' loss of orthogonality, max |omega|, at which a segment still
   far from convergence (natural residual above PLCG_EARLY of r_0's) goes to depth 1 before its square root
   fails: G's factorization assumes that orthogonality. It passed 1e-4 2-12 steps (depth 2: 35) before the
   breakdowns of the hostile cubes, and stayed at 1e-10 on ex2 and the asddic cube (docs/pipeplcg.md); a
   segment longer than PLCG_OMEGA_N steps is not watched */
#define PLCG_OMEGA   1e-4
#define PLCG_OMEGA_N 256
/* the basis has grown beyond the Chebyshev bound of its interval by this factor: the interval misses the
   spectrum (wrong bounds) and the recurrences amplify rounding by as much: lower the depth */
#define PLCG_GROWTH 1e3
/* Lanczos coefficients of one segment (since a (re)start) kept for the Ritz values that give the next
   changed operator its shifts: the largest Ritz value has converged to a few digits long before 64 steps */
#define PLCG_RITZ_N 64
/* ... and the interval [PLCG_RITZ_LOW theta_min, eig_factor theta_max] from them: the smallest Ritz value is
   above the bottom of the spectrum, by little where cg converges fast (AMG: hypre's spectrum in [0.6, 1],
   where lmin = 0 gave square-root breakdowns and restarts at depth 2) and where it is near 0 anyway */
#define PLCG_RITZ_LOW 0.9

/* what an interval was measured on: the matrices (ids, and states for their values) and the PC type (another
   type is another M^{-1}A) */
typedef struct {
  PetscObjectId    aid, pid;
  PetscObjectState as, ps;
  char             pc[64];
} PLCGOpKey;

typedef struct {
  KSP_Pipe        pipe;  /* first: the shared base (src/ksp/pipe*.c read ksp->data as KSP_Pipe) */
  PetscInt        l;     /* depth the solves start at (0: chrongear's recurrences); auto: the choice, PETSC_DECIDE before */
  PetscBool       lauto; /* -ksp_pipe_depth auto: l is chosen at the first solve (pipeplcgauto.c) */
  KSPPipePLCGAuto autod;
  PetscReal       lmin, lmax; /* interval of the shifts in use */
  PetscBool       user_eig;   /* interval given by the user: no estimate */
  PetscInt        eig_its;    /* CG iterations of the estimate */
  PetscReal       eig_factor; /* lmax = eig_factor * largest Ritz value */
  PetscReal       emin, emax; /* last estimate */
  PetscInt        nestimates; /* estimates done */
  /* shifts of a changed operator from the previous solve's Ritz values (KSPPipePLCGSetEstimateReuse()) */
  PetscBool eig_reuse;
  PetscReal theta, thetalo;                   /* extreme Ritz values of the last solve that had enough steps (0: none) */
  PLCGOpKey ritz;                             /* its operators (the values aside) */
  PetscInt  nritz;                            /* intervals taken from Ritz values (all solves) */
  PetscBool fromritz;                         /* the interval in use came from them */
  PetscReal rg[PLCG_RITZ_N], re[PLCG_RITZ_N]; /* gamma, delta of the current segment */
  PetscInt  rn, rnmax;                        /* its length; the longest in this solve */
  PetscReal theta_solve, thetalo_solve;       /* extreme Ritz values of this solve's closed segments */
  PLCGOpKey est;                              /* operators of the interval in use */
  PetscInt  nrestarts;                        /* breakdown restarts (all solves) */
  PetscBool estfailed;                        /* the last estimate failed: solves run at depth 1 */
  PetscInt  lrun;                             /* depth in use: l, lowered by breakdowns for the rest of the solve */
  PetscInt  nbreak;                           /* breakdown restarts at depth lrun in this solve */
  PetscInt  nupd_lucky;                       /* iterate updates at the last invariant-space (lucky) restart */
  PetscBool early;                            /* an early breakdown sent the depth to 1: restart from the kept iterate */
  PetscBool brokeearly;                       /* ... at some point of this solve */
  /* Simon's omega recurrence over the current segment: its alpha (gamma), beta (delta) and three rows */
  PetscReal oma[PLCG_OMEGA_N], omb[PLCG_OMEGA_N + 1], omw[3][PLCG_OMEGA_N + 2], ompsi;
  PetscInt  omn; /* the step expected next (a step not in sequence is skipped, as PLCGRitzAdd() does) */
  /* an early breakdown says the deep basis cannot carry this operator's spectrum: later solves on the same
     matrices (new values: a time step, a Newton step) start at depth 1 instead of losing that segment again,
     until PLCG_RETRY (then twice as many) healthy solves have passed */
  PetscBool capped;    /* later solves on capkey's matrices start at depth 1 */
  PLCGOpKey capkey;    /* the matrices and PC type of the early breakdown (the values aside) */
  PetscInt  ncapped;   /* solves started at depth 1 for it (all solves) */
  PetscInt  capwait;   /* healthy solves at depth 1 before the deep pipeline is tried again (doubles per failed retry) */
  PetscInt  capleft;   /* ... still to come */
  PetscInt  nretry;    /* retries of the deep pipeline on capped matrices (all solves) */
  PetscBool retrying;  /* this solve retries it */
  PetscBool estpcfail; /* the estimate's inner CG met a PC failure: the solve's, not a depth change */
  PetscReal sigma[PLCG_MAXL];
  PetscInt  nwork_l; /* layout of ksp->work */
  PetscBool nwork_mq;
  /* scalars of one solve */
  PetscScalar G[PLCG_GC * PLCG_GR];
  PetscScalar gam[PLCG_NR], del[PLCG_NR], zeta[PLCG_NR];
  int         slot[PLCG_MAXL + 1]; /* engine slot of the reduction of column c, at c % (l+1) */
  /* gap estimate (auto replacement), all in the M-norm of the Lanczos space since the last (re)start */
  PetscReal nzc;    /* ||z_c||_M = ||G(:,c)|| of the last column */
  PetscReal y2;     /* ||y||^2, x - x_start = V y */
  PetscReal c2, yc; /* ||c||^2 and (y, c), p = V c */
  PetscReal xs;     /* bound on ||x_start||_M */
} KSP_PLCG;

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
   unpreconditioned norm the M-images of the auxiliary bases (3 each); KSPPipeSetUpWork_Private() adds the
   kept iterate after them */
static PetscInt NZ(PetscInt l)
{
  return PetscMax(3, l + 1);
}
static PetscInt NWork(PetscInt l, PetscBool mq)
{
  return NZ(l) + 3 + 3 * l + 1 + (mq ? 3 * l : 0);
}

static PetscErrorCode KSPSetUp_PipePLCG(KSP ksp)
{
  KSP_PLCG *d  = (KSP_PLCG *)ksp->data;
  PetscBool mq = (PetscBool)(ksp->normtype == KSP_NORM_UNPRECONDITIONED);

  PetscFunctionBegin;
  PetscCall(KSPPipeSetUpWork_Private(ksp, NWork(PetscMax(d->l, 0), mq))); /* auto: depth 0's until the choice */
  d->nwork_l  = d->l;
  d->nwork_mq = mq;
  PetscFunctionReturn(0);
}

/* auto chose depth 1: p(1)-CG with a zero shift, run as pipegv's recurrences (no shifts, no estimate) */
static inline PetscBool PLCGGVForm(const KSP_PLCG *d)
{
  return (PetscBool)(d->lauto && d->l == 1);
}

/* the shifts of depth l: Chebyshev roots of [lmin, lmax] */
static void Shifts(KSP_PLCG *d, PetscInt l)
{
  PetscInt k;
  for (k = 0; k < l; k++) d->sigma[k] = 0.5 * (d->lmax + d->lmin) + 0.5 * (d->lmax - d->lmin) * PetscCosReal(PETSC_PI * (2.0 * k + 1.0) / (2.0 * l));
}

/* an interval the arithmetic can carry (PLCG_EIG_*) */
static PetscBool UsableBounds(PetscReal lmin, PetscReal lmax)
{
  return (PetscBool)(!PetscIsInfOrNanReal(lmin) && !PetscIsInfOrNanReal(lmax) && lmin >= 0 && lmax > lmin && lmax >= PLCG_EIG_MIN && lmax <= PLCG_EIG_MAX && (lmin == 0 || lmax / lmin <= PLCG_EIG_RATIO));
}

/* the largest |P_l(t)| on [lmin, lmax] for the Chebyshev shifts: 2 ((lmax - lmin)/4)^l */
static PetscReal ChebBound(KSP_PLCG *d, PetscInt l)
{
  return 2.0 * PetscPowReal(0.25 * (d->lmax - d->lmin), (PetscReal)l);
}

/* [0, f theta_max]: theta_max from eig_its CG iterations (Lanczos) on a random right-hand side, with the
   solver's own operators and PC; f = 0.93 by default. Measured (cube jacobi n = 8..12 on 1-8 ranks, ex56,
   ex2; depths 3-5): with f = 1.0-1.1 square-root breakdowns (and restarts, up to +50% iterations) were
   frequent, with f = 0.9-0.95 rare; an upper shift just below the top of the spectrum keeps the basis
   well conditioned once the top Ritz value has converged. Done again only when the matrices change.
   The start vector has no component in the operator's null space (MatGetNullSpace()): CG on a singular
   operator with one breaks down as an indefinite PC would. A failed estimate (the inner CG broke down, or
   an interval the arithmetic cannot carry) sets estfailed: the solves run at depth 1 as Gropp's CG (pipegropp),
   which need no interval, rather than on a guessed one. */
static PetscErrorCode PLCGEstimateInner(KSP ksp, KSP inner, Vec rhs, Vec sol, PetscReal *emax, PetscReal *emin)
{
  PetscRandom        rnd;
  Mat                A;
  MatNullSpace       nsp;
  KSPConvergedReason ir;
  PetscInt           iits;

  PetscFunctionBegin;
  PetscCall(PetscRandomCreate(PetscObjectComm((PetscObject)ksp), &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
  PetscCall(VecSetRandom(rhs, rnd));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PCGetOperators(ksp->pc, &A, NULL));
  PetscCall(MatGetNullSpace(A, &nsp));
  if (nsp) PetscCall(MatNullSpaceRemove(nsp, rhs));
  PetscCall(KSPSolve(inner, rhs, sol));
  /* a CG that broke down (indefinite A or M) leaves its Lanczos entries partly unset: no estimate */
  PetscCall(KSPGetConvergedReason(inner, &ir));
  PetscCall(KSPGetIterationNumber(inner, &iits));
  ((KSP_PLCG *)ksp->data)->estpcfail = (PetscBool)(ir == KSP_DIVERGED_PC_FAILED);
  if ((ir > 0 || ir == KSP_DIVERGED_ITS) && iits > 0) PetscCall(KSPComputeExtremeSingularValues(inner, emax, emin));
  else PetscCall(PetscInfo(ksp, "eigenvalue estimate: the inner CG ended with %s after %" PetscInt_FMT " iterations\n", KSPConvergedReasons[ir], iits));
  PetscFunctionReturn(0);
}

static PetscErrorCode PLCGOpKeyGet(KSP ksp, PLCGOpKey *k)
{
  Mat    A, P;
  PCType pct;

  PetscFunctionBegin;
  PetscCall(PCGetOperators(ksp->pc, &A, &P));
  PetscCall(PetscObjectGetId((PetscObject)A, &k->aid));
  PetscCall(PetscObjectGetId((PetscObject)P, &k->pid));
  PetscCall(PetscObjectStateGet((PetscObject)A, &k->as));
  PetscCall(PetscObjectStateGet((PetscObject)P, &k->ps));
  PetscCall(PCGetType(ksp->pc, &pct));
  PetscCall(PetscStrncpy(k->pc, pct ? pct : "", sizeof(k->pc)));
  PetscFunctionReturn(0);
}

/* the same matrix objects and PC type (values: also the same states) */
static PetscBool PLCGOpKeySame(const PLCGOpKey *a, const PLCGOpKey *b, PetscBool values)
{
  PetscBool same = (PetscBool)(a->aid == b->aid && a->pid == b->pid && !strcmp(a->pc, b->pc));
  return (PetscBool)(same && (!values || (a->as == b->as && a->ps == b->ps)));
}

static PetscErrorCode PLCGEstimate(KSP ksp, KSP_PLCG *d)
{
  KSP            inner;
  Vec            rhs, sol;
  PetscReal      emax = 0, emin = 0;
  PLCGOpKey      cur;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PLCGOpKeyGet(ksp, &cur));
  if (d->nestimates && PLCGOpKeySame(&cur, &d->est, PETSC_TRUE)) PetscFunctionReturn(0);
  if (d->eig_reuse && d->theta > 0 && PLCGOpKeySame(&cur, &d->ritz, PETSC_FALSE) && UsableBounds(PLCG_RITZ_LOW * d->thetalo, d->eig_factor * d->theta)) {
    /* the same matrices with new values (a time step, a Newton step) and the same PC type: the previous
       solve's largest Ritz value of M^{-1}A stands in for the estimate, with no SpMV or PC application; a
       spectrum that moved past it shows as basis growth and lowers the depth (PLCGBreakdown()), and this
       solve's Ritz values refresh it */
    d->est       = cur;
    d->emin      = d->thetalo;
    d->emax      = d->theta;
    d->lmin      = PLCG_RITZ_LOW * d->thetalo;
    d->lmax      = d->eig_factor * d->theta;
    d->estfailed = PETSC_FALSE;
    d->fromritz  = PETSC_TRUE;
    d->nritz++;
    PetscCall(PetscInfo(ksp, "operator changed: shifts on [%g, %g] from the previous solve's extreme Ritz values %g, %g, no estimate\n", (double)d->lmin, (double)d->lmax, (double)d->thetalo, (double)d->theta));
    PetscFunctionReturn(0);
  }
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)ksp), &inner));
  { /* a prefix of its own: the outer solve's options (-ksp_converged_reason, -ksp_monitor) are not for it */
    const char *pre;
    PetscCall(KSPGetOptionsPrefix(ksp, &pre));
    PetscCall(KSPSetOptionsPrefix(inner, pre));
    PetscCall(KSPAppendOptionsPrefix(inner, "pipe_eig_"));
  }
  PetscCall(KSPSetType(inner, KSPCG));
  PetscCall(KSPSetPC(inner, ksp->pc));
  PetscCall(KSPSetComputeSingularValues(inner, PETSC_TRUE));
  PetscCall(KSPSetTolerances(inner, 1e-30, 1e-300, PETSC_DEFAULT, d->eig_its));
  PetscCall(KSPSetNormType(inner, KSP_NORM_NONE));
  PetscCall(KSPSetConvergenceTest(inner, KSPConvergedSkip, NULL, NULL));
  PetscCall(VecDuplicate(ksp->vec_rhs, &rhs));
  PetscCall(VecDuplicate(ksp->vec_rhs, &sol));
  /* an error (of the PC, say) leaves nothing behind: the inner KSP and its vectors go; the PC's PCPreSolve()
     nesting is undone by KSPSolve_PipePLCG() */
  ierr = PLCGEstimateInner(ksp, inner, rhs, sol, &emax, &emin);
  PetscCall(VecDestroy(&rhs));
  PetscCall(VecDestroy(&sol));
  PetscCall(KSPDestroy(&inner));
  PetscCall(ierr);
  if (d->estpcfail) { /* the PC failed, not the depth: no interval kept, the solve meets the failure as cg does */
    PetscCall(PetscInfo(ksp, "eigenvalue estimate: the PC failed\n"));
    d->estfailed = PETSC_TRUE;
    PetscFunctionReturn(0);
  }
  d->nestimates++;
  d->fromritz  = PETSC_FALSE;
  d->est       = cur;
  d->emin      = emin;
  d->emax      = emax;
  d->estfailed = (PetscBool)!UsableBounds(0.0, d->eig_factor * emax);
  if (d->estfailed) { /* indefinite or broken PC, or out of range: depth 1, whose solve reports a breakdown as cg */
    PetscCall(PetscInfo(ksp, "eigenvalue estimate failed (largest Ritz value %g): the solves run at depth 1 (shift %g)\n", (double)emax, 0.5));
    emax = 1.0 / d->eig_factor;
  }
  d->lmin = 0.0;
  d->lmax = d->eig_factor * emax;
  PetscCall(PetscInfo(ksp, "Lanczos estimate of M^{-1}A after %" PetscInt_FMT " CG iterations: [%g, %g]; shifts on [%g, %g]\n", d->eig_its, (double)emin, (double)emax, (double)d->lmin, (double)d->lmax));
  PetscFunctionReturn(0);
}

/* d[k] += sum_i u_i conj(w_k,i), k < nw, and *yy += sum_i |y_i|^2 (y may be NULL) over rows [i0, i1), each sum
   row after row. Up to 6 columns (depth 5's l + 1) the sums live in registers: an array of them, indexed in a
   loop over k, went through memory on every row, and its store-to-load latency, not the arithmetic, set the
   pace of the pass (about twice this time) */
static inline void DotsRows(PetscInt nw, PetscInt i0, PetscInt i1, const PetscScalar *u, const PetscScalar *const w[], const PetscScalar *y, PetscScalar d[], PetscScalar *yy)
{
  PetscScalar        t = *yy, s0 = nw > 0 ? d[0] : 0, s1 = nw > 1 ? d[1] : 0, s2 = nw > 2 ? d[2] : 0, s3 = nw > 3 ? d[3] : 0, s4 = nw > 4 ? d[4] : 0, s5 = nw > 5 ? d[5] : 0;
  const PetscScalar *w0 = nw > 0 ? w[0] : NULL, *w1 = nw > 1 ? w[1] : NULL, *w2 = nw > 2 ? w[2] : NULL;
  const PetscScalar *w3 = nw > 3 ? w[3] : NULL, *w4 = nw > 4 ? w[4] : NULL, *w5 = nw > 5 ? w[5] : NULL;
  PetscInt           i, k;

  if (nw > 6) { /* not reached by the solver (nw <= l + 1): the plain loop */
    for (i = i0; i < i1; i++) {
      for (k = 0; k < nw; k++) d[k] += u[i] * PetscConj(w[k][i]);
      if (y) t += y[i] * PetscConj(y[i]);
    }
    *yy = t;
    return;
  }
#define PLCG_DOT(s, w) s += u[i] * PetscConj(w[i])
#define PLCG_DOTS_CASE(N, BODY) \
  case N: \
    for (i = i0; i < i1; i++) { \
      BODY; \
      if (y) t += y[i] * PetscConj(y[i]); \
    } \
    break
  switch (nw) {
    PLCG_DOTS_CASE(1, PLCG_DOT(s0, w0));
    PLCG_DOTS_CASE(2, PLCG_DOT(s0, w0); PLCG_DOT(s1, w1));
    PLCG_DOTS_CASE(3, PLCG_DOT(s0, w0); PLCG_DOT(s1, w1); PLCG_DOT(s2, w2));
    PLCG_DOTS_CASE(4, PLCG_DOT(s0, w0); PLCG_DOT(s1, w1); PLCG_DOT(s2, w2); PLCG_DOT(s3, w3));
    PLCG_DOTS_CASE(5, PLCG_DOT(s0, w0); PLCG_DOT(s1, w1); PLCG_DOT(s2, w2); PLCG_DOT(s3, w3); PLCG_DOT(s4, w4));
    PLCG_DOTS_CASE(6, PLCG_DOT(s0, w0); PLCG_DOT(s1, w1); PLCG_DOT(s2, w2); PLCG_DOT(s3, w3); PLCG_DOT(s4, w4); PLCG_DOT(s5, w5));
  default: /* nw = 0: (y, y) alone */
    if (y)
      for (i = i0; i < i1; i++) t += y[i] * PetscConj(y[i]);
  }
#undef PLCG_DOTS_CASE
#undef PLCG_DOT
  if (nw > 0) d[0] = s0;
  if (nw > 1) d[1] = s1;
  if (nw > 2) d[2] = s2;
  if (nw > 3) d[3] = s3;
  if (nw > 4) d[4] = s4;
  if (nw > 5) d[5] = s5;
  *yy = t;
}

/* One step of the three-term recurrences of the main loop, out_j = s (src_j + a_j cur_j + b prev_j) for the
   bases z, u = M z, the auxiliary q^(k) and their M-images (prev NULL at i = 0; out_j may be src_j), then
   p = pa q^(0)_i + pb p when pupd, then the local dots of the next column from the fresh values: (u, w[k]),
   k < nw, and (y, y) when y is given. One pass over memory instead of 2 + 2l recurrence passes, the update
   of p and the dots' pass, which read again what the step before had just written: entry by entry the same
   arithmetic in the same order, so the results are those of the separate passes, bit for bit. */
typedef struct {
  PetscInt           nr;                                           /* recurrences */
  Vec                vo[2 + 2 * PLCG_MAXL], vx[2 + 2 * PLCG_MAXL]; /* out, src */
  Vec                vc[2 + 2 * PLCG_MAXL], vp[2 + 2 * PLCG_MAXL]; /* cur, prev (or NULL) */
  PetscScalar        a[2 + 2 * PLCG_MAXL];                         /* coefficient of cur */
  PetscScalar       *o[2 + 2 * PLCG_MAXL];
  const PetscScalar *x[2 + 2 * PLCG_MAXL], *c[2 + 2 * PLCG_MAXL], *p[2 + 2 * PLCG_MAXL];
} PLCGRec;

static void PLCGRecAdd(PLCGRec *rc, Vec out, Vec src, Vec cur, Vec prev, PetscScalar a)
{
  rc->vo[rc->nr] = out;
  rc->vx[rc->nr] = src;
  rc->vc[rc->nr] = cur;
  rc->vp[rc->nr] = prev;
  rc->a[rc->nr]  = a;
  rc->nr++;
}

static PetscErrorCode PLCGStep(PLCGRec *rc, PetscScalar b, PetscScalar s, PetscBool pupd, Vec P, Vec Q0, PetscScalar pa, PetscScalar pb, Vec u, PetscInt nw, Vec w[], Vec y, PetscScalar dots[])
{
  const PetscScalar *wu, *ww[PIPEKSP_RED_MAX], *wy = NULL, *q0 = NULL;
  PetscScalar       *pp = NULL, d[PIPEKSP_RED_MAX], yy = 0;
  const PetscInt     nr = rc->nr;
  PetscInt           i, i0, j, k, n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(rc->vo[0], &n));
  for (j = 0; j < nr; j++) {
    PetscCall(VecGetArray(rc->vo[j], &rc->o[j]));
    if (rc->vx[j] != rc->vo[j]) PetscCall(VecGetArrayRead(rc->vx[j], &rc->x[j]));
    else rc->x[j] = rc->o[j];
    PetscCall(VecGetArrayRead(rc->vc[j], &rc->c[j]));
    rc->p[j] = NULL;
    if (rc->vp[j]) PetscCall(VecGetArrayRead(rc->vp[j], &rc->p[j]));
  }
  if (pupd) {
    PetscCall(VecGetArray(P, &pp));
    PetscCall(VecGetArrayRead(Q0, &q0));
  }
  PetscCall(VecGetArrayRead(u, &wu));
  for (k = 0; k < nw; k++) {
    PetscCall(VecGetArrayRead(w[k], &ww[k]));
    d[k] = 0;
  }
  if (y) PetscCall(VecGetArrayRead(y, &wy));
  for (i0 = 0; i0 < n; i0 += PLCG_CHUNK) { /* poll points: the rounds of the reductions in flight advance */
    PetscInt i1 = PetscMin(n, i0 + PLCG_CHUNK);
    for (j = 0; j < nr; j++) {
      PetscScalar       *o = rc->o[j], aj = rc->a[j];
      const PetscScalar *x = rc->x[j], *c = rc->c[j], *pv = rc->p[j];
      if (pv)
        for (i = i0; i < i1; i++) o[i] = s * (x[i] + aj * c[i] + b * pv[i]);
      else
        for (i = i0; i < i1; i++) o[i] = s * (x[i] + aj * c[i]);
    }
    if (pupd) /* VecAXPBY()'s arithmetic */
      for (i = i0; i < i1; i++) pp[i] = pa * q0[i] + pb * pp[i];
    DotsRows(nw, i0, i1, wu, ww, wy, d, &yy);
    PetscCall(PetscLogFlops(((rc->vp[0] ? 5.0 : 3.0) * nr + (pupd ? 3.0 : 0.0) + 2.0 * (nw + (y ? 1 : 0))) * (i1 - i0))); /* per chunk, before its poll (bench/smpi/solve_shim.c charges compute by it) */
    PetscCall(PipeKSPProgressPoll());
  }
  if (y) PetscCall(VecRestoreArrayRead(y, &wy));
  for (k = 0; k < nw; k++) {
    PetscCall(VecRestoreArrayRead(w[k], &ww[k]));
    dots[k] = d[k];
  }
  if (y) dots[nw] = yy;
  PetscCall(VecRestoreArrayRead(u, &wu));
  if (pupd) {
    PetscCall(VecRestoreArrayRead(Q0, &q0));
    PetscCall(VecRestoreArray(P, &pp));
  }
  for (j = nr - 1; j >= 0; j--) {
    if (rc->vp[j]) PetscCall(VecRestoreArrayRead(rc->vp[j], &rc->p[j]));
    PetscCall(VecRestoreArrayRead(rc->vc[j], &rc->c[j]));
    if (rc->vx[j] != rc->vo[j]) PetscCall(VecRestoreArrayRead(rc->vx[j], &rc->x[j]));
    PetscCall(VecRestoreArray(rc->vo[j], &rc->o[j]));
  }
  PetscFunctionReturn(0);
}

/* local dots d[k] = (u, w[k]), k < nw, then (y, y) when y is given: one pass over memory */
static PetscErrorCode LocalDots(Vec u, PetscInt nw, Vec w[], Vec y, PetscScalar dots[])
{
  const PetscScalar *a, *b[PIPEKSP_RED_MAX], *c = NULL;
  PetscScalar        s[PIPEKSP_RED_MAX], yy = 0;
  PetscInt           i0, k, n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(u, &n));
  PetscCall(VecGetArrayRead(u, &a));
  for (k = 0; k < nw; k++) {
    PetscCall(VecGetArrayRead(w[k], &b[k]));
    s[k] = 0;
  }
  if (y) PetscCall(VecGetArrayRead(y, &c));
  for (i0 = 0; i0 < n; i0 += PLCG_CHUNK) {
    PetscInt i1 = PetscMin(n, i0 + PLCG_CHUNK);
    DotsRows(nw, i0, i1, a, b, c, s, &yy);
    PetscCall(PetscLogFlops(2.0 * (i1 - i0) * (nw + (y ? 1 : 0)))); /* per chunk, as above */
    PetscCall(PipeKSPProgressPoll());
  }
  for (k = 0; k < nw; k++) {
    PetscCall(VecRestoreArrayRead(w[k], &b[k]));
    dots[k] = s[k];
  }
  if (y) {
    PetscCall(VecRestoreArrayRead(y, &c));
    dots[nw] = yy;
  }
  PetscCall(VecRestoreArrayRead(u, &a));
  PetscFunctionReturn(0);
}

/* the convergence test of iteration its with norm dp; DIVERGED_ITS at max_it */
static PetscErrorCode PLCGTest(KSP ksp, PetscInt its, PetscReal dp)
{
  PetscFunctionBegin;
  PetscCall(KSPPipeConvergenceTest_Private(ksp, its, dp));
  if (!ksp->reason && its >= ksp->max_it) ksp->reason = KSP_DIVERGED_ITS;
  PetscFunctionReturn(0);
}

/* auto: a convergence the recursive norm claims is checked against the true residual before the solve
   ends (the gap between the two grows with the depth and the basis), by a restart whose first test uses
   b - A x. Returns true when the claim is to be checked. */
static PetscBool PLCGCheckClaim(KSP ksp)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  if (pipe->replace != PETSC_DECIDE || ksp->reason <= 0 || ksp->reason == KSP_CONVERGED_ITS) return PETSC_FALSE;
  /* the gap estimate vouches for the claim: below PIPE_GAP_CHECK of the claimed residual, both relative to
     their norms at the start (the estimate is in the natural norm) */
  if (pipe->rn0 > 0 && pipe->rnorm0 > 0 && pipe->gf / pipe->rn0 <= PIPE_GAP_CHECK * ksp->rnorm / pipe->rnorm0) return PETSC_FALSE;
  ksp->reason = KSP_CONVERGED_ITERATING;
  return PETSC_TRUE;
}

/* the gap estimate. After a (re)start from the true residual: the rounding of b - A x */
static void PLCGGapReset(KSP ksp, KSP_PLCG *d, PetscReal beta)
{
  KSP_Pipe *pipe = &d->pipe;

  d->xs += PetscSqrtReal(d->y2); /* ||x_start||_M grows at most by ||x - x_start||_M = ||y|| */
  d->y2 = d->c2 = d->yc = 0.0;
  pipe->gg = pipe->gh = pipe->gj = 0.0;
  pipe->gf = pipe->gf0 = PIPE_ROUND_RMS * (beta + d->lmax / d->eig_factor * d->xs);
}

/* after x_{i+1} = x_i + zeta_i p_i: the shared gap bounds (pipeguard.c) with the CG quantities of
   p(l)-CG in the M-norm of the Lanczos space, where V is orthonormal: x += zeta_i p_i, p_i = v_i / eta_i -
   (delta_{i-1} / eta_i) p_{i-1}, r = zeta_{i+1} v_{i+1}, ||B|| = lmax / factor, and like pipelined CG's
   the basis is recursive (pipelined), its vectors of norm ||z||^(1/l) per level. ||p||_M = ||c||, p = V c,
   ||c_i||^2 = (1 + delta^2 ||c_{i-1}||^2) / eta^2; ||x||_M <= ||x_start||_M + ||y||, x - x_start = V y. */
static void PLCGGapStep(KSP ksp, KSP_PLCG *d, PetscInt i, PetscReal eta, PetscReal zeta, PetscReal zprev, PetscReal znext, PetscReal dm)
{
  KSP_Pipe *pipe = &d->pipe;
  PetscReal an = pipe->anorm, t, cprev = PetscSqrtReal(d->c2);

  if (i == 0) {
    d->c2 = 1.0 / (eta * eta);
    d->yc = 0.0;
  } else {
    t     = d->yc + zprev * d->c2; /* (y_i, c_{i-1}) */
    d->c2 = (1.0 + dm * dm * d->c2) / (eta * eta);
    d->yc = -dm / eta * t;
  }
  d->y2       = PetscMax(0.0, d->y2 + 2.0 * zeta * d->yc + zeta * zeta * d->c2);
  pipe->anorm = d->lmax / d->eig_factor; /* ||B||_M, B = M^{-1} A */
  KSPPipeGapUpdate_Private(ksp, PETSC_FALSE, zeta, -dm / eta, PetscAbsReal(znext), d->xs + PetscSqrtReal(d->y2), 1.0 / PetscAbsReal(eta), i ? cprev : 0.0, PetscPowReal(PetscMax(d->nzc, PETSC_SMALL), 1.0 / d->lrun));
  pipe->anorm = an;
}

/* state of the (re)start points of one solve */
typedef struct {
  PetscBool   first;     /* the solve's first start: its test is iteration 0's */
  PetscBool   check;     /* this restart checks a convergence claimed by the recursive norm */
  PetscInt    claimits;  /* ... of this iteration */
  PetscReal   lastcheck; /* true norm at the last such check */
  PetscBool   replacing; /* this restart is a residual replacement (or follows a lucky breakdown) */
  PetscReal   lastrep;   /* true norm at the last one */
  PetscInt    nupd;      /* iterate updates so far */
  PetscScalar beta;      /* sqrt((r,z)) of the (re)start */
  PetscReal   gamma0;    /* (r,z) */
} PLCGStart;

/* the packed (re)start reduction of the true residual r and z = M^{-1} r */
enum {
  RS_RZ,
  RS_RR,
  RS_ZZ,
  RS_N
};

/* the (re)start's reduction, (r,z), (r,r), (z,z) of the true residual: its convergence test (and the check
   of a claimed convergence), then v_0 = z/beta: the nz vectors z[], the nu u[] and the first vectors of the
   nq auxiliary bases (and of their M-images) are scaled by 1/beta */
static PetscErrorCode PLCGStartPoint(KSP ksp, PLCGStart *st, PetscInt nz, Vec z[], PetscInt nu, Vec u[], PetscInt nq, Vec q[], Vec mq[])
{
  KSP_PLCG   *d    = (KSP_PLCG *)ksp->data;
  KSP_Pipe   *pipe = &d->pipe;
  PetscScalar g0[RS_N];
  PetscReal   dp, sc, tn;
  PetscInt    k;

  PetscFunctionBegin;
  PetscCall(PipeKSPRedWaitSlot_Private(pipe->red, d->slot[0], g0));
  if (PetscIsInfOrNanScalar(g0[RS_RZ])) PetscCall(PipeKSPRedWaitAll_Private(pipe->red));
  KSPCheckDot(ksp, g0[RS_RZ]);
  dp = KSPPipeNorm_Private(ksp, g0[RS_RR], g0[RS_ZZ], g0[RS_RZ]);
  tn = PetscSqrtReal(PetscAbsScalar(g0[RS_RR])); /* ||b - A x||, the least one is the progress tests' reference */
  if (st->first) {
    PetscCall(PLCGTest(ksp, 0, dp));
    PetscCall(KSPPipeBestRecord_Private(ksp, tn)); /* x is never returned worse than the initial guess */
  } else {                                         /* the restart point is no new iteration: test, do not monitor it twice */
    ksp->its   = st->nupd;
    ksp->rnorm = dp;
    PetscCall((*ksp->converged)(ksp, st->nupd, dp, &ksp->reason, ksp->cnvP));
    if (st->check && !ksp->reason && dp <= PLCG_CONFIRM * PetscMax(ksp->rtol * pipe->rnorm0, ksp->abstol)) {
      /* the true residual is within PLCG_CONFIRM of the tolerance: the gap is no larger than the residual
         asked for, as cg's own gap at the end of a solve; a restart would only cost iterations */
      ksp->reason = ksp->rtol * pipe->rnorm0 >= ksp->abstol ? KSP_CONVERGED_RTOL : KSP_CONVERGED_ATOL;
    }
    if (st->check && ksp->reason > 0) ksp->its = st->claimits; /* confirmed: the iteration that claimed it, as without the check */
    if (st->check && !ksp->reason) {                           /* the true residual does not confirm the claimed convergence */
      PetscCall(PetscInfo(ksp, "converged by the recursive norm, the true one is %g: restarted from it\n", (double)dp));
      pipe->nrestart_solve++;
      pipe->nrestart_total++;
      PetscCall(KSPPipeBestRecord_Private(ksp, tn)); /* the iterate goes with its residual: it may be the one returned */
      /* no better than at the last such check: the attainable accuracy, where cg would end converged */
      if (!(dp < PIPE_GAIN * st->lastcheck)) PetscCall(KSPPipeFloorStop_Private(ksp, "a restart from the true residual brought no progress"));
      if (ksp->reason) PetscCall(KSPPipeBestRestore_Private(ksp)); /* end with the kept iterate when better */
      st->lastcheck = dp;
    }
    st->check = PETSC_FALSE;
    if (st->replacing && !ksp->reason) {
      /* b - A x measured: compare with the kept iterate; PIPE_STALLS times in a row no better than the best is the
         attainable accuracy of the restarted recurrences: stop there (with the kept iterate), converged as cg
         would. Any real gain counts as progress: with a short -ksp_pipe_replace period a restarted
         recurrence gains little per period, far from the floor */
      if (tn < PLCG_GAIN * pipe->best) pipe->stalls = 0;
      else if (++pipe->stalls >= PIPE_STALLS) PetscCall(KSPPipeFloorStop_Private(ksp, "residual replacements brought no progress"));
      PetscCall(KSPPipeBestRecord_Private(ksp, tn));
      if (ksp->reason) PetscCall(KSPPipeBestRestore_Private(ksp));
    } else PetscCall(KSPPipeBestRecord_Private(ksp, tn)); /* after a breakdown: kept when better */
    st->replacing = PETSC_FALSE;
    /* restarts take CG steps too (a lucky breakdown takes one and restarts): they count to -ksp_max_it,
       or an exact preconditioner with an unreachable tolerance restarted forever */
    if (!ksp->reason && st->nupd >= ksp->max_it) ksp->reason = KSP_DIVERGED_ITS;
  }
  st->first = PETSC_FALSE;
  if (ksp->reason) PetscFunctionReturn(0);
  PetscCall(KSPPipeCheckGamma_Private(ksp, g0[RS_RZ], PETSC_TRUE)); /* its Lanczos basis is scaled by sqrt((r,M^{-1}r)) */
  if (ksp->reason) PetscFunctionReturn(0);
  st->beta   = PetscSqrtScalar(g0[RS_RZ]);
  st->gamma0 = PetscRealPart(g0[RS_RZ]);
  d->zeta[0] = st->beta;
  if (pipe->rn0 < 0) pipe->rn0 = PetscRealPart(st->beta); /* the gap target is relative to the natural norm of r_0 */
  PLCGGapReset(ksp, d, PetscRealPart(st->beta));
  pipe->itrue = st->nupd;
  sc          = 1.0 / PetscRealPart(st->beta);
  for (k = 0; k < nz; k++) PetscCall(VecScale(z[k], sc));
  for (k = 0; k < nu; k++) PetscCall(VecScale(u[k], sc));
  for (k = 0; k < nq; k++) {
    PetscCall(VecScale(q[3 * k], sc));
    if (mq) PetscCall(VecScale(mq[3 * k], sc));
  }
  PetscFunctionReturn(0);
}

/* the depth lnew for the rest of the solve, after a restart from the true residual (early: from the best
   iterate measured, and later solves on these matrices start at depth 1) */
static void PLCGLowerDepth(KSP_PLCG *d, PetscInt lnew, PetscBool early)
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
   At depth 1 a fresh breakdown, or one that recurs without progress, is cg's: the reason stands and the
   solve ends (*stop). */
static PetscErrorCode PLCGBreakdown(KSP ksp, KSP_PLCG *d, const char *what, KSPConvergedReason why, PetscInt i, PetscReal zi, PetscReal beta, PetscBool lower, PetscBool fresh, PetscBool *stop)
{
  KSP_Pipe *pipe  = &d->pipe;
  PetscBool again = (PetscBool)(d->nbreak > 0 && !(zi < PIPE_GAIN * beta));
  PetscBool far   = (PetscBool) !(pipe->rn0 > 0 && zi <= PLCG_NEAR * ksp->rtol * pipe->rn0);
  /* slow: the segment gained less than PIPE_GAIN per step, so convergence rests on the Krylov space that a
     restart discards; fast (a near-exact or nested KSP preconditioner) a restart costs a step or two */
  PetscBool slow = (PetscBool) !(zi <= beta * PetscPowReal(PIPE_GAIN, (PetscReal)i));

  PetscFunctionBegin;
  *stop = PETSC_FALSE;
  if (d->lrun == 1 && (fresh || again || d->nbreak >= PLCG_BREAKS)) {
    PetscCall(PetscInfo(ksp, "%s at depth 1, %s: %s, as cg\n", what, fresh ? "from the true residual" : "again without progress", KSPConvergedReasons[why]));
    ksp->reason = why;
    *stop       = PETSC_TRUE;
    PetscFunctionReturn(0);
  }
  pipe->nrestart_solve++;
  pipe->nrestart_total++;
  if (d->lrun > 1 && (lower || fresh || again || (slow && (far || d->nbreak > 0)) || d->nbreak >= PLCG_BREAKS)) {
    /* early (far, slow, the residual not yet PLCG_EARLY of r_0's): the deep basis lost its orthogonality
       before the solve got anywhere, and every depth >= 2 lost it again later on the inputs measured, each
       restart discarding the Krylov space: straight to depth 1, one segment lost instead of up to l - 1
       (docs/pipeplcg.md). The depth's own rounding (lower) and later breakdowns step down by one */
    PetscBool early = (PetscBool)(slow && far && !lower && pipe->rn0 > 0 && zi > PLCG_EARLY * pipe->rn0);
    PetscInt  lnew  = early ? 1 : d->lrun - 1;

    PetscCall(PetscInfo(ksp, "%s at depth %" PetscInt_FMT ", step %" PetscInt_FMT " since the last true residual (%" PetscInt_FMT " earlier breakdowns at this depth; natural residual %g, %g of rtol ||r_0||): restart from the true residual at depth %" PetscInt_FMT " for the rest of the solve\n", what, d->lrun, i, d->nbreak, (double)zi,
                        pipe->rn0 > 0 ? (double)(zi / (ksp->rtol * pipe->rn0)) : -1.0, lnew));
    PLCGLowerDepth(d, lnew, early);
    PetscFunctionReturn(0);
  }
  PetscCall(PetscInfo(ksp, "%s at depth %" PetscInt_FMT ", step %" PetscInt_FMT " since the last true residual: restart from it\n", what, d->lrun, i));
  d->nbreak++;
  PetscFunctionReturn(0);
}

/* closes the segment of Lanczos coefficients since the last (re)start: its largest Ritz value joins the
   solve's (each segment's Ritz values lie in the spectrum of M^{-1}A, so the largest of them is the best
   lower bound of its top) */
static void PLCGRitzClose(KSP_PLCG *d)
{
  if (d->rn >= 2) {
    PetscReal lo, hi;

    KSPPipeTridiagExtremeEigs_Private(d->rn, d->rg, d->re, &lo, &hi);
    d->theta_solve   = PetscMax(d->theta_solve, hi);
    d->thetalo_solve = PetscMin(d->thetalo_solve, lo);
  }
  d->rnmax = PetscMax(d->rnmax, d->rn);
  d->rn    = 0;
}

/* gamma_i, delta_i of the Lanczos tridiagonal, i counted from the segment's start */
static void PLCGRitzAdd(KSP_PLCG *d, PetscInt i, PetscScalar g, PetscScalar dl)
{
  if (i == 0) PLCGRitzClose(d);
  if (i < PLCG_RITZ_N && i == d->rn) {
    d->rg[i] = PetscRealPart(g);
    d->re[i] = PetscRealPart(dl);
    d->rn    = i + 1;
  }
}

/* Simon's recurrence for omega_{j+1,k} ~ (v_{j+1}, v_k) from the tridiagonal of the segment (alpha_j =
   gamma_j, beta_{j+1} = delta_j), with a rounding term of alternating sign (the same on every rank): the
   largest |omega_{j+1,k}|, k < j; 0 beyond PLCG_OMEGA_N steps */
static PetscReal PLCGOmegaStep(KSP_PLCG *d, PetscInt j, PetscReal alpha, PetscReal beta)
{
  PetscReal *prev, *cur, *nxt, t, mx = 0.0, eps = PETSC_MACHINE_EPSILON;
  PetscInt   k;

  if (j == 0) d->omn = 0;
  if (j >= PLCG_OMEGA_N || beta == 0.0 || j != d->omn) return 0.0;
  d->omn = j + 1;
  if (j == 0) {
    d->omb[0]    = 0.0;
    d->omw[0][0] = 1.0; /* row 0 */
  }
  d->oma[j]     = alpha;
  d->omb[j + 1] = beta;
  cur           = d->omw[j % 3];
  prev          = d->omw[(j + 2) % 3];
  nxt           = d->omw[(j + 1) % 3];
  for (k = 0; k < j; k++) {
    t = d->omb[k + 1] * cur[k + 1] + (d->oma[k] - d->oma[j]) * cur[k] + (k > 0 ? d->omb[k] * cur[k - 1] : 0.0) - (j > 0 ? d->omb[j] * prev[k] : 0.0);
    t += ((j + k) % 2 ? 0.3 : -0.3) * eps * (d->omb[k + 1] + d->omb[j + 1]);
    nxt[k] = t / d->omb[j + 1];
    mx     = PetscMax(mx, PetscAbsReal(nxt[k]));
  }
  nxt[j]     = d->ompsi;
  nxt[j + 1] = 1.0;
  return mx;
}

/* at the end of a solve: its largest Ritz value becomes the interval of the next solve whose operator has
   changed, when a segment ran at least the estimate's number of steps or the solve converged (a fast
   preconditioner, hypre's 6-9 iterations: its few Ritz values already span what the solve needed) */
static PetscErrorCode PLCGRitzKeep(KSP ksp, KSP_PLCG *d)
{
  PetscFunctionBegin;
  PLCGRitzClose(d);
  if (d->user_eig || !(d->theta_solve > 0) || d->rnmax < (ksp->reason > 0 ? PLCG_EIG_ITS_MIN : d->eig_its)) PetscFunctionReturn(0);
  PetscCall(PLCGOpKeyGet(ksp, &d->ritz));
  d->theta   = d->theta_solve;
  d->thetalo = PetscMax(0.0, d->thetalo_solve);
  PetscFunctionReturn(0);
}

static PetscErrorCode PLCGSolve(KSP ksp)
{
  KSP_PLCG   *d    = (KSP_PLCG *)ksp->data;
  KSP_Pipe   *pipe = &d->pipe;
  PipeKSPRed  red;
  Mat         A;
  Vec        *z, *u, *q, *mq, p, X;
  PetscInt    l, nz, it, c, i, k, m, upd_at_restart = -1, nwnext = 0;
  PetscBool   mqneed, extra, natural, defer, stop, gvform;
  PLCGStart   st = {PETSC_TRUE, PETSC_FALSE, 0, PETSC_MAX_REAL, PETSC_FALSE, PETSC_MAX_REAL, 0, 0.0, 1.0};
  PetscScalar loc[PIPEKSP_RED_MAX], glob[PIPEKSP_RED_MAX], eta = 0, lambda;
  PetscReal   dp;
  Vec         w[PIPEKSP_RED_MAX], ynext = NULL;

  PetscFunctionBegin;
  mqneed = (PetscBool)(ksp->normtype == KSP_NORM_UNPRECONDITIONED);
  if (d->lauto) { /* measured at the first solve and for new matrices (pipeplcgauto.c) */
    PetscCall(KSPPipePLCGAutoChoose_Private(ksp, mqneed, PLCG_MAXL, &d->autod));
    d->l = d->autod.depth;
  }
  l = d->l;
  if (pipe->red->nslots) PetscCall(PipeKSPRedWaitAll_Private(pipe->red)); /* an earlier solve ended by an error */
  if (d->nwork_l != l || d->nwork_mq != mqneed) PetscCall(KSPSetUp_PipePLCG(ksp));
  red     = pipe->red;
  z       = ksp->work;
  X       = ksp->vec_sol;
  natural = (PetscBool)(ksp->normtype == KSP_NORM_NATURAL || ksp->normtype == KSP_NORM_NONE);
  extra   = (PetscBool)!natural;                 /* the norm needs (v,v) or (Mv,Mv): one more scalar, l iterations later */
  PetscCall(KSPPipeSolveStart_Private(ksp, &A)); /* per-solve counters (the estimate's reductions included) */
  d->lrun = l;
  if (d->capped) { /* an early breakdown in an earlier solve on these matrices: depth 1, which needs no shifts */
    PLCGOpKey cur;

    PetscCall(PLCGOpKeyGet(ksp, &cur));
    d->capped = PLCGOpKeySame(&cur, &d->capkey, PETSC_FALSE);
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
  }
  d->estpcfail = PETSC_FALSE;
  gvform       = PLCGGVForm(d);                                                          /* auto's depth 1: pipegv's recurrences */
  if (!d->user_eig && l > 0 && d->lrun == l && !gvform) PetscCall(PLCGEstimate(ksp, d)); /* depth 0, Gropp's CG and pipegv's have no shifts */
  d->rn = d->rnmax = 0;
  d->theta_solve   = 0.0;
  d->thetalo_solve = PETSC_MAX_REAL;
  d->nbreak        = 0;
  d->nupd_lucky    = PETSC_MIN_INT;
  d->early = d->brokeearly = PETSC_FALSE;
  {
    PetscInt N;
    PetscCall(VecGetSize(ksp->vec_rhs, &N));
    d->ompsi = PETSC_MACHINE_EPSILON * PetscSqrtReal((PetscReal)N); /* omega of neighbouring vectors */
  }
  if (d->estfailed && d->lrun > 1) { /* no interval for the shifts: depth 1 needs none */
    PetscCall(PetscInfo(ksp, "no usable estimate of the spectrum: depth 1 instead of %" PetscInt_FMT "\n", l));
    d->lrun = 1;
    if (!d->estpcfail) { /* a failed PC ends the solve as cg's would: no depth change */
      pipe->ndepth_solve++;
      pipe->ndepth_total++;
    }
  }
#define ZV(j)     z[(j) % nz]
#define UV(j)     u[(j) % 3]
#define QV(k, j)  q[3 * (k) + (j) % 3]
#define MQV(k, j) mq[3 * (k) + (j) % 3]

  d->xs = d->y2 = 0.0; /* x_0 = 0 or, for a given guess, not measured */
  for (;;) {           /* (re)start: from the true residual, at the depth in use (the work vectors of depth l hold those
                of every lower depth, the kept iterate after them) */
    PetscInt base = st.nupd;

    if (d->lrun == 0) { /* no pipelining: chrongear's blocking reductions, the norm's first (nothing lower to fall back on) */
      pipe->depth_end = 0;
      PetscCall(KSPPipeChronGearContinue_Private(ksp, A, 0, PETSC_TRUE));
      break;
    }
    if (gvform && d->lrun == 1) {
      /* auto chose depth 1: p(1)-CG with a zero shift, which is Ghysels and Vanroose's pipelined CG, run as
         pipegv runs it (one fused pass, no estimate): per solve one PC application and two SpMVs fewer than
         p(1)-CG with the unpreconditioned norm, whose norm arrives an iteration late, and no shift to place
         (a shift across the interval took p(1)-CG 1151-4577 iterations on the nu = 0.4999 cube, pipegv 1164) */
      pipe->depth_end = 1;
      PetscCall(KSPPipeGVContinue_Private(ksp, A, 0));
      break;
    }
    if (d->lrun == 1 && d->l > 1) {
      /* deeper recurrences broke (or no interval for the shifts): depth 1 as Gropp's CG (pipegropp: each of
         its two reductions hidden behind the PC or the SpMV), which keeps cg's convergence where p(1)-CG's
         shifted basis can delay it several times over (the cube with nu = 0.4999 and jacobi: 1151-4577
         iterations for shifts across the interval, cg 1120) and pipegv's recurrences by 4-12% (pipegv 1164
         there, 362 against cg's 324 on the nu = 0.49 cube with asddic on 8 ranks; pipegropp 1116 and 343):
         Gropp's (p, A p) is a dot product, not a recurrence */
      pipe->depth_end = 1;
      if (d->early && !st.first) {
        /* from the kept iterate (least energy), the segment's last among them: an early segment whose true
           residual grew (the nu = 0.4999 cube: cg restarted from it needed more iterations than the segment
           had taken) gives way to the start (docs/pipeplcg.md). One SpMV and one reduction, once */
        PetscReal tn;

        PetscCall(KSPPipeTrueResidual_Private(ksp, A, ksp->work[0]));
        PetscCall(VecNorm(ksp->work[0], NORM_2, &tn));
        PetscCall(KSPPipeBestRecord_Private(ksp, tn));
        PetscCall(KSPPipeBestRestore_Private(ksp)); /* when the kept iterate's energy is lower */
      }
      PetscCall(PetscInfo(ksp, "continuing with Gropp's CG (pipegropp, depth 1) at iteration %" PetscInt_FMT "\n", st.nupd));
      PetscCall(KSPPipeGroppContinue_Private(ksp, A, st.first ? 0 : st.nupd));
      break;
    }
    l  = d->lrun;
    nz = NZ(l);
    u  = z + nz;
    q  = u + 3;
    p  = q[3 * l];
    mq = mqneed ? q + 3 * l + 1 : NULL;
    Shifts(d, l);
    pipe->depth_end = l;

    if (st.first) PetscCall(KSPPipeResidual_Private(ksp, A, UV(0)));
    else {
      PetscCall(KSPPipeTrueResidual_Private(ksp, A, UV(0)));
    }
    PetscCall(KSPPipePCApplyLoop_Private(ksp, UV(0), ZV(0)));
    w[0] = ZV(0);
    w[1] = UV(0);
    PetscCall(LocalDots(UV(0), 2, w, ZV(0), loc)); /* w = {z, r}: RS_RZ, RS_RR, then (z,z) RS_ZZ */
    PetscCall(PipeKSPRedStartSlot_Private(red, RS_N, loc, &d->slot[0]));
    PetscCall(VecCopy(ZV(0), QV(0, 0)));
    if (mq) PetscCall(VecCopy(UV(0), MQV(0, 0)));
    Gset(d, 0, 0, 1.0);
    /* the wait of this reduction is deferred to the first one of the pipeline (iteration l): the start-up
       iterations need no scalar, they build P_j(B) z_0 unnormalised (linear in z_0), scaled by 1/beta when
       beta arrives. Not when checking a claimed convergence: that usually ends the solve, and the l
       start-up iterations would be spent for nothing */
    defer = (PetscBool)!st.check;
    if (!defer) {
      PetscCall(PLCGStartPoint(ksp, &st, 1, &ZV(0), 1, &UV(0), 1, q, mq));
      if (ksp->reason) break;
    }

    for (it = 0;; it++) {
      PetscBool restart = PETSC_FALSE, lucky = PETSC_FALSE;

      /* u_{it+1} = A z_it (- sigma_it u_it), z_{it+1} = M^{-1} u_{it+1}: overlaps up to l reductions */
      PetscCall(KSPPipeApplyOperator_Private(ksp, A, ZV(it), UV(it + 1)));
      if (it < l) PetscCall(VecAXPY(UV(it + 1), -d->sigma[it], UV(it)));
      PetscCall(KSPPipePCApply_Private(ksp, UV(it + 1), ZV(it + 1)));
      if (it + 1 < l) { /* z_{it+1} = P_{it+1}(B) v_0 starts auxiliary basis it+1 */
        PetscCall(VecCopy(ZV(it + 1), QV(it + 1, 0)));
        if (mq) PetscCall(VecCopy(UV(it + 1), MQV(it + 1, 0)));
      }

      if (it == l && defer) {
        PetscCall(PLCGStartPoint(ksp, &st, nz, z, 3, u, l, q, mq));
        if (ksp->reason) break;
      }
      if (it >= l) {
        PetscScalar t, s, gi;
        PetscInt    mlo, off;
        PetscBool   tiny;

        c = it - l + 1; /* column of G whose reduction started l iterations ago */
        i = c - 1;
        PetscCall(PipeKSPRedWaitSlot_Private(red, d->slot[c % (l + 1)], glob));
        if (defer && c <= l) /* dots of the start-up iterations, of unnormalised vectors */
          for (m = 0; m <= c; m++) glob[m] /= st.gamma0;
        if (c > l) { /* g(k,c) = <P_l(B) v_{c-l}, v_k> = g(c-l, k+l) for k < c-l; g(c-l,c) reduced */
          for (k = PetscMax(0, c - 2 * l); k < c - l; k++) Gset(d, k, c, Gget(d, c - l, k + l));
          Gset(d, c - l, c, glob[0]);
          off = 1;
          mlo = c - l + 1;
        } else {
          off = 0;
          mlo = 0;
        }
        for (m = mlo; m < c; m++) { /* forward substitution with <z_c, z_m> */
          s = glob[off + m - mlo];
          for (k = PetscMax(0, m - 2 * l); k < m; k++) s -= Gget(d, k, m) * Gget(d, k, c);
          Gset(d, m, c, s / Gget(d, m, m));
        }
        t = glob[off + c - mlo];
        for (k = PetscMax(0, c - 2 * l); k < c; k++) t -= Gget(d, k, c) * Gget(d, k, c);
        if (PetscIsInfOrNanScalar(t)) {
          PetscCall(PLCGBreakdown(ksp, d, "Inf or NaN in the basis", KSP_DIVERGED_NANORINF, i, PetscAbsScalar(ZETA(i)), PetscAbsScalar(st.beta), PETSC_TRUE, (PetscBool)(i == 0), &stop));
          upd_at_restart = -1;
          break;
        }
        tiny = (PetscBool)(PetscAbsScalar(t) <= PLCG_TINY * PetscAbsScalar(glob[off + c - mlo]));
        if (extra && c > l && !tiny) { /* norm of r_{c-l}: |zeta| times ||v|| or ||M v||; tested before a
                                        breakdown of column c, which cannot matter to a converged r_{c-l} */
          PetscInt j = base + c - l;
          dp         = PetscAbsScalar(ZETA(c - l)) * PetscSqrtReal(PetscAbsScalar(glob[off + c - mlo + 1]));
          PetscCall(PLCGTest(ksp, j, dp));
          if ((st.check = PLCGCheckClaim(ksp))) {
            st.claimits = ksp->its;
            break;
          }
          if (ksp->reason) break;
        }
        if (!tiny && !(PetscRealPart(t) > 0) && upd_at_restart == st.nupd) {
          /* the same breakdown right after a restart, with no step between: the basis cannot be extended
             from this residual (an exact preconditioner makes the space invariant up to rounding that the
             test above does not see as tiny). Take the step the basis allows, as in a lucky breakdown */
          PetscCall(PetscInfo(ksp, "square-root breakdown at column %" PetscInt_FMT " (%g) again, with no step since the restart: the space is taken as invariant\n", c, (double)PetscRealPart(t)));
          tiny = PETSC_TRUE;
        }
        if (tiny && l > 1 && st.nupd <= d->nupd_lucky + l) {
          /* again within l steps of the last one, which did not end the solve: not an invariant space but a
             basis that has collapsed onto its first vector (an interval far off the spectrum): a step or two
             per restart, hundreds of restarts before. Lower the depth */
          PetscCall(PLCGBreakdown(ksp, d, "invariant space again within l steps", KSP_DIVERGED_BREAKDOWN, i, PetscAbsScalar(ZETA(i)), PetscAbsScalar(st.beta), PETSC_TRUE, PETSC_FALSE, &stop));
          upd_at_restart = -1;
          break;
        }
        if (tiny) {
          /* z_c in the span of the earlier basis: the Krylov space is invariant, delta_{c-1} = 0. Take the
             last CG step (it needs gamma_{c-1} only), then restart: the true residual decides. */
          PetscCall(PetscInfo(ksp, "invariant Krylov space at column %" PetscInt_FMT " (depth %" PetscInt_FMT ", iterate %" PetscInt_FMT "): the last CG step, then a restart\n", c, l, st.nupd));
          lucky         = PETSC_TRUE;
          d->nupd_lucky = st.nupd;
          Gset(d, c, c, 0.0);
        } else if (!(PetscRealPart(t) > 0)) { /* the basis lost its rank in finite precision: restart */
          PetscCall(PetscInfo(ksp, "square-root breakdown at column %" PetscInt_FMT " (%g): restart from the true residual\n", c, (double)PetscRealPart(t)));
          d->nrestarts++;
          upd_at_restart = st.nupd;
          if (l > 1) { /* again without progress: a lower depth (the same breakdown right after the restart is
                          an invariant space, above) */
            PetscCall(PLCGBreakdown(ksp, d, "square-root breakdown", KSP_DIVERGED_BREAKDOWN, i, PetscAbsScalar(ZETA(i)), PetscAbsScalar(st.beta), PETSC_FALSE, PETSC_FALSE, &stop));
            if (d->lrun != l) upd_at_restart = -1;
          }
          break; /* restart */
        }
        if (!lucky) Gset(d, c, c, PetscSqrtScalar(t));
        for (d->nzc = 0, k = PetscMax(0, c - 2 * l); k <= c; k++) d->nzc += PetscSqr(PetscAbsScalar(Gget(d, k, c)));
        d->nzc = PetscSqrtReal(d->nzc);
        if (l > 1 && c > l && !lucky && d->nzc > PLCG_GROWTH * ChebBound(d, l)) {
          /* ||z_c|| = ||P_l(B) v_{c-l}|| far above max |P_l| on the interval: the spectrum is outside it */
          PetscCall(PLCGBreakdown(ksp, d, "growth of the basis", KSP_DIVERGED_BREAKDOWN, i, PetscAbsScalar(ZETA(i)), PetscAbsScalar(st.beta), PETSC_TRUE, PETSC_FALSE, &stop));
          upd_at_restart = -1;
          break;
        }
        /* Lanczos coefficients gamma_i, delta_i from T G = G Bhat */
        gi = Gget(d, i, i);
        if (i < l) {
          GAM(i) = (Gget(d, i, i + 1) + d->sigma[i] * gi - (i > 0 ? DEL(i - 1) * Gget(d, i - 1, i) : 0.0)) / gi;
          DEL(i) = Gget(d, i + 1, i + 1) / gi;
        } else {
          GAM(i) = (gi * GAM(i - l) + Gget(d, i, i + 1) * DEL(i - l) - DEL(i - 1) * Gget(d, i - 1, i)) / gi;
          DEL(i) = Gget(d, i + 1, i + 1) * DEL(i - l) / gi;
        }
        if (PetscIsInfOrNanScalar(GAM(i)) || PetscIsInfOrNanScalar(DEL(i))) {
          PetscCall(PLCGBreakdown(ksp, d, "Inf or NaN in the Lanczos coefficients", KSP_DIVERGED_NANORINF, i, PetscAbsScalar(ZETA(i)), PetscAbsScalar(st.beta), PETSC_TRUE, (PetscBool)(i == 0), &stop));
          upd_at_restart = -1;
          break;
        }
        PLCGRitzAdd(d, i, GAM(i), DEL(i));
        if (d->lrun > 1) {
          PetscReal om = PLCGOmegaStep(d, i, PetscRealPart(GAM(i)), PetscRealPart(DEL(i))), zi = PetscAbsScalar(ZETA(i));

          if (om > PLCG_OMEGA && pipe->rn0 > 0 && zi > PLCG_EARLY * pipe->rn0) {
            /* the basis is losing orthogonality while the solve has got nowhere: depth 1 now, as after an
               early breakdown (from the kept iterate), but the steps to that breakdown sooner */
            PetscCall(PetscInfo(ksp, "loss of orthogonality estimated at %g at depth %" PetscInt_FMT ", step %" PetscInt_FMT " since the last true residual, natural residual %g (%g of r_0's): depth 1 for the rest of the solve\n", (double)om, d->lrun, i, (double)zi,
                                (double)(zi / pipe->rn0)));
            pipe->nrestart_solve++;
            pipe->nrestart_total++;
            PLCGLowerDepth(d, 1, PETSC_TRUE);
            upd_at_restart = -1;
            break;
          }
        }
      }

      /* the CG iterate: x_{i+1} = x_i + zeta_i p_i (LDL^T of the Lanczos tridiagonal), tested before the
         next reduction starts: a converged solve starts none that it would only wait for */
      if (it >= l) {
        i = it - l;
        if (i == 0) {
          eta = GAM(0);
          PetscCall(VecCopy(QV(0, 0), p));
          PetscCall(VecScale(p, 1.0 / eta));
        } else {
          lambda  = DEL(i - 1) / eta;
          eta     = GAM(i) - lambda * DEL(i - 1);
          ZETA(i) = -lambda * ZETA(i - 1);
        }
        if (PetscIsInfOrNanScalar(eta)) {
          PetscCall(PLCGBreakdown(ksp, d, "Inf or NaN pivot", KSP_DIVERGED_NANORINF, i, PetscAbsScalar(ZETA(i)), PetscAbsScalar(st.beta), PETSC_TRUE, (PetscBool)(i == 0), &stop));
          upd_at_restart = -1;
          break;
        }
        if (!(PetscRealPart(eta) > 0)) { /* the pivot is cg's (p,Ap) up to a positive factor: from the true
                                            residual at depth 1 (and recurring there) cg's breakdown */
          char what[64];
          PetscCall(PetscSNPrintf(what, sizeof(what), "non-positive pivot %g", (double)PetscRealPart(eta)));
          PetscCall(PLCGBreakdown(ksp, d, what, KSP_DIVERGED_INDEFINITE_MAT, i, PetscAbsScalar(ZETA(i)), PetscAbsScalar(st.beta), PETSC_FALSE, (PetscBool)(i == 0), &stop));
          upd_at_restart = -1;
          break;
        }
        if (!lucky) {
          /* one pass (PLCGStep()): z_{it+1} = (B z_it - gamma z_it - delta_{i-1} z_{it-1}) / delta_i, the same
             for u = M z; the auxiliary bases q^(k)_{i+1} = (q^(k+1)_i + (sigma_k - gamma) q^(k)_i - delta_{i-1}
             q^(k)_{i-1}) / delta_i, q^(l)_i = z_{i+l}, q^(0) = v (and their M-images); p; the dots of column
             it+1, which start its reduction below. After the pivot's checks: a breakdown restarts from b - A x
             and discards them all */
          PetscScalar g = GAM(i), dm = i > 0 ? DEL(i - 1) : 0.0, inv = 1.0 / DEL(i);
          PLCGRec     rc;
          PetscBool   i0 = (PetscBool)(i == 0);

          rc.nr = 0;
          PLCGRecAdd(&rc, ZV(it + 1), ZV(it + 1), ZV(it), i0 ? NULL : ZV(it - 1), -g);
          PLCGRecAdd(&rc, UV(it + 1), UV(it + 1), UV(it), i0 ? NULL : UV(it - 1), -g);
          for (k = 0; k < l; k++) {
            PLCGRecAdd(&rc, QV(k, i + 1), k + 1 < l ? QV(k + 1, i) : ZV(it), QV(k, i), i0 ? NULL : QV(k, i - 1), d->sigma[k] - g);
            if (mq) PLCGRecAdd(&rc, MQV(k, i + 1), k + 1 < l ? MQV(k + 1, i) : UV(it), MQV(k, i), i0 ? NULL : MQV(k, i - 1), d->sigma[k] - g);
          }
          nwnext      = 0;
          w[nwnext++] = QV(0, i + 1);
          for (m = it - l + 2; m <= it + 1; m++) w[nwnext++] = ZV(m);
          ynext = extra ? (mq ? MQV(0, i + 1) : QV(0, i + 1)) : NULL;
          PetscCall(PLCGStep(&rc, -dm, inv, (PetscBool)!i0, p, QV(0, i), 1.0 / eta, i > 0 ? -DEL(i - 1) / eta : 0.0, UV(it + 1), nwnext, w, ynext, loc));
        } else if (i > 0) PetscCall(VecAXPBY(p, 1.0 / eta, -DEL(i - 1) / eta, QV(0, i)));
        /* with the norm l columns late (extra) the tests lag the updates: no update past -ksp_max_it, so that
           a capped solve returns cg's iterate of that iteration, not a later one (its count would not show) */
        if (!extra || st.nupd < ksp->max_it) PetscCall(VecAXPY(X, ZETA(i), p));
        st.nupd++;
        ZETA(i + 1) = -DEL(i) / eta * ZETA(i); /* the natural norm of r_{i+1} is |zeta_{i+1}| */
        if (natural && !lucky) {
          PetscCall(PLCGTest(ksp, base + i + 1, ksp->normtype == KSP_NORM_NONE ? 0.0 : PetscAbsScalar(ZETA(i + 1))));
          if ((st.check = PLCGCheckClaim(ksp))) {
            st.claimits = ksp->its;
            break;
          }
          if (ksp->reason) break;
        }
        if (lucky) { /* restart from the true residual, judged as a replacement: no gain twice is the floor */
          st.replacing = PETSC_TRUE;
          break;
        }
        PLCGGapStep(ksp, d, i, PetscRealPart(eta), PetscRealPart(ZETA(i)), i > 0 ? PetscRealPart(ZETA(i - 1)) : 0.0, PetscRealPart(ZETA(i + 1)), i > 0 ? PetscRealPart(DEL(i - 1)) : 0.0);
        /* a fixed period, or auto: the gap estimate has reached the residual asked for (pipeguard.c's rule)
           and PLCG_GAP_NEAR of the recursive residual, which is about to lose touch with the true one. Here a
           replacement is a restart (the pipeline is rebuilt from b - A x, the Krylov space is lost), so not
           earlier: restarts spent while the residual is still far above the gap only slow convergence. */
        if (pipe->replace > 0 || (pipe->replace == PETSC_DECIDE && pipe->gf > PLCG_GAP_NEAR * PetscAbsScalar(ZETA(i + 1)))) {
          PetscBool now;

          PetscCall(KSPPipeReplaceNow_Private(ksp, st.nupd, PetscAbsScalar(ZETA(i + 1)), &now));
          if (now) restart = st.replacing = PETSC_TRUE;
        }
      }
      if (restart) break;

      /* dot products of column it+1 */
      if (!lucky) {
        PetscInt cn = it + 1;
        if (it < l) { /* at it >= l, PLCGStep() computed them */
          nwnext = 0;
          ynext  = NULL;
          for (m = 0; m <= cn; m++) w[nwnext++] = ZV(m);
          PetscCall(LocalDots(UV(cn), nwnext, w, NULL, loc));
        }
        PetscCall(PipeKSPRedStartSlot_Private(red, (int)(nwnext + (ynext ? 1 : 0)), loc, &d->slot[cn % (l + 1)]));
      }
    }
    PetscCall(PipeKSPRedWaitAll_Private(red)); /* reductions still in flight belong to iterations not needed */
    if (ksp->reason) break;
  }
#undef ZV
#undef UV
#undef QV
#undef MQV
  PetscCall(PLCGRitzKeep(ksp, d));
  if (d->lauto && ksp->reason > 0) d->autod.its = ksp->its; /* auto's next choice spreads per-solve work over them */
  if (d->brokeearly) {                                      /* the first time, or a retry that broke again: wait twice as long */
    d->capwait = d->capped && d->retrying ? 2 * d->capwait : PLCG_RETRY;
    d->capleft = d->capwait;
    PetscCall(PLCGOpKeyGet(ksp, &d->capkey));
    d->capped = PETSC_TRUE;
    PetscCall(PetscInfo(ksp, "early breakdown: the next %" PetscInt_FMT " healthy solves on these matrices start at depth 1\n", d->capwait));
  } else if (d->capped && d->retrying) d->capped = PETSC_FALSE; /* the retry held: the deep pipeline is back */
  else if (d->capped && d->lrun == 1 && ksp->reason > 0 && !pipe->nrestart_solve) d->capleft--;
  d->retrying = PETSC_FALSE;
  if (d->estpcfail) pipe->depth_end = l;
  if (d->lrun < d->l) PetscCall(PetscInfo(ksp, "solve ended at depth %" PetscInt_FMT " of %" PetscInt_FMT " after %" PetscInt64_FMT " depth changes\n", d->lrun, d->l, pipe->ndepth_solve));
  PetscCall(KSPPipeSolveEnd_Private(ksp, A, z[0])); /* cg's iterate; after a loss of stability the kept one when lower in energy */
  PetscFunctionReturn(0);
}

/* A PETSc error inside (of the PC, in the estimate or the iterations) returns through KSPSolve() without its
   PCPostSolve() and VecLockReadPop() of b, and the estimate's inner KSPSolve() without its own: the PC then
   refuses every later solve ("Cannot embed PCPreSolve() more than twice"). Undo both nestings here, so that
   PC and KSP stay usable after the error. */
static PetscErrorCode KSPSolve_PipePLCG(KSP ksp)
{
  PetscInt       pre = ksp->pc->presolvedone, lock = 0;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(VecLockGet(ksp->vec_rhs, &lock));
  ierr = PLCGSolve(ksp);
  if (ierr) {
    PetscInt now = 0;

    ksp->pc->presolvedone = PetscMax(0, pre - 1);
    if (VecLockGet(ksp->vec_rhs, &now) == 0)
      for (; now > PetscMax(0, lock - 1); now--)
        if (VecLockReadPop(ksp->vec_rhs)) break;
  }
  PetscCall(ierr);
  PetscFunctionReturn(0);
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
    PetscFunctionReturn(0);
  }
  PetscCheck(l >= 0 && l <= PLCG_MAXL, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "Pipeline depth %" PetscInt_FMT " must be 0..%d, or PETSC_DECIDE (auto)", l, PLCG_MAXL);
  d->capped = PETSC_FALSE; /* a depth set explicitly is tried, even the one that broke down */
  d->lauto  = PETSC_FALSE;
  d->l      = l;
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPPipePLCGGetDepth_PLCG(KSP ksp, PetscInt *l)
{
  PetscFunctionBegin;
  *l = ((KSP_PLCG *)ksp->data)->l;
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPPipePLCGSetEigenvalueBounds_PLCG(KSP ksp, PetscReal lmin, PetscReal lmax)
{
  KSP_PLCG *d = (KSP_PLCG *)ksp->data;

  PetscFunctionBegin;
  if (lmax == 0.0 && lmin == 0.0) { /* back to the estimate */
    d->user_eig   = PETSC_FALSE;
    d->nestimates = 0;
    PetscFunctionReturn(0);
  }
  PetscCheck(UsableBounds(lmin, lmax), PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "Eigenvalue interval [%g, %g] of M^{-1}A must be finite with 0 <= lmin < lmax, %g <= lmax <= %g and lmax/lmin <= %g (0, 0: estimate it)", (double)lmin, (double)lmax, (double)PLCG_EIG_MIN, (double)PLCG_EIG_MAX, (double)PLCG_EIG_RATIO);
  d->user_eig  = PETSC_TRUE;
  d->estfailed = PETSC_FALSE;
  d->lmin      = lmin;
  d->lmax      = lmax;
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPPipePLCGGetEigenvalueBounds_PLCG(KSP ksp, PetscReal *lmin, PetscReal *lmax)
{
  KSP_PLCG *d = (KSP_PLCG *)ksp->data;

  PetscFunctionBegin;
  if (lmin) *lmin = d->lmin;
  if (lmax) *lmax = d->lmax;
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPPipePLCGSetEstimateIterations_PLCG(KSP ksp, PetscInt n)
{
  KSP_PLCG *d = (KSP_PLCG *)ksp->data;

  PetscFunctionBegin;
  PetscCheck(n >= PLCG_EIG_ITS_MIN, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "Eigenvalue estimate needs at least %d CG iterations, not %" PetscInt_FMT, PLCG_EIG_ITS_MIN, n);
  if (n != d->eig_its) d->nestimates = 0;
  d->eig_its = n;
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPPipePLCGSetEstimateFactor_PLCG(KSP ksp, PetscReal f)
{
  KSP_PLCG *d = (KSP_PLCG *)ksp->data;

  PetscFunctionBegin;
  PetscCheck(f > 0, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "Eigenvalue estimate factor %g must be > 0", (double)f);
  if (f != d->eig_factor) d->nestimates = 0;
  d->eig_factor = f;
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPPipePLCGSetEstimateReuse_PLCG(KSP ksp, PetscBool flg)
{
  PetscFunctionBegin;
  ((KSP_PLCG *)ksp->data)->eig_reuse = flg;
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPPipePLCGGetEstimateReuse_PLCG(KSP ksp, PetscBool *flg)
{
  PetscFunctionBegin;
  *flg = ((KSP_PLCG *)ksp->data)->eig_reuse;
  PetscFunctionReturn(0);
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
  PetscCall(PetscOptionsString("-ksp_pipe_depth", "Pipeline depth l: reductions in flight, each overlapping l SpMVs and PC applications (auto, or 0..5; 0: no pipelining)", "KSPPipePLCGSetDepth", sl, sl, sizeof(sl), &flg));
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
  PetscCall(PetscOptionsReal("-ksp_pipe_eig_factor", "Estimated interval is [0, factor * largest Ritz value]", "KSPPipePLCGSetEstimateFactor", f, &f, &flg));
  if (flg) PetscCall(KSPPipePLCGSetEstimateFactor(ksp, f));
  PetscCall(PetscOptionsBool("-ksp_pipe_eig_reuse", "A changed operator takes its interval from the previous solve's Ritz values (no estimate)", "KSPPipePLCGSetEstimateReuse", d->eig_reuse, &reuse, &flg));
  if (flg) PetscCall(KSPPipePLCGSetEstimateReuse(ksp, reuse));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(0);
}

/* -ksp_view's line on auto replacement: here a replacement is a restart, and a claimed convergence is checked */
static PetscErrorCode KSPPipeViewAutoReplace_PipePLCG(KSP ksp, PetscViewer viewer)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "residual replacement: auto (a restart from the true residual when the estimated gap reaches %g of the requested residual and the recursive residual, at least %d iterations after the last true residual; a convergence claimed by the recursive norm is checked against the true residual)\n", (double)PIPE_GAP_TARGET, PIPE_GAP_SPACING));
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPView_PipePLCG(KSP ksp, PetscViewer viewer)
{
  KSP_PLCG *d = (KSP_PLCG *)ksp->data;
  PetscBool iascii;
  PetscInt  k;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(0);
  if (d->lauto) PetscCall(KSPPipePLCGAutoView_Private(&d->autod, viewer));
  if (d->l == 0)
    PetscCall(PetscViewerASCIIPrintf(viewer, "pipeline depth l = 0: no pipelining (chrongear's recurrences, %s)\n", ksp->normtype == KSP_NORM_NONE ? "one blocking reduction per iteration (no norm to reduce first)" : "two blocking reductions per iteration: the norm's first"));
  else if (PLCGGVForm(d)) PetscCall(PetscViewerASCIIPrintf(viewer, "pipeline depth l = 1, auto's: p(1)-CG with a zero shift, run as pipegv's recurrences (one fused pass, no shifts, no estimate)\n"));
  else if (d->l > 0) PetscCall(PetscViewerASCIIPrintf(viewer, "pipeline depth l = %" PetscInt_FMT " (up to %" PetscInt_FMT " reductions in flight)\n", d->l, d->l));
  if (d->l == 0 || PLCGGVForm(d)) { /* no shifts */
  } else if (d->user_eig) PetscCall(PetscViewerASCIIPrintf(viewer, "shifts: Chebyshev roots of [%g, %g] (given)\n", (double)d->lmin, (double)d->lmax));
  else if (d->fromritz)
    PetscCall(PetscViewerASCIIPrintf(viewer, "shifts: Chebyshev roots of [%g, %g] (%g x the smallest and %g x the largest Ritz value of the previous solve, %g and %g, whose operator had other values: no estimate)\n", (double)d->lmin, (double)d->lmax, (double)PLCG_RITZ_LOW,
                                     (double)d->eig_factor, (double)d->thetalo, (double)d->theta));
  else if (d->nestimates)
    PetscCall(PetscViewerASCIIPrintf(viewer, "shifts: Chebyshev roots of [%g, %g] (estimated: %g x the largest Ritz value of %" PetscInt_FMT " CG iterations; extreme Ritz values %g, %g)\n", (double)d->lmin, (double)d->lmax, (double)d->eig_factor, d->eig_its,
                                     (double)d->emin, (double)d->emax));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "shifts: Chebyshev roots of [0, %g x the largest Ritz value of %" PetscInt_FMT " CG iterations] (estimated at the first solve)\n", (double)d->eig_factor, d->eig_its));
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
  if (d->capped && d->l > 1)
    PetscCall(PetscViewerASCIIPrintf(viewer, "depth 1 from the start on these matrices (%" PetscInt_FMT " solves so far): an earlier solve broke down early at depth >= 2; depth %" PetscInt_FMT " is tried again after %" PetscInt_FMT " more healthy solves (back-off %" PetscInt_FMT "), on new matrices, or when a depth is set\n", d->ncapped, d->l, d->capleft, d->capwait));
  if (d->nretry) PetscCall(PetscViewerASCIIPrintf(viewer, "retries of depth %" PetscInt_FMT " after early breakdowns: %" PetscInt_FMT "\n", d->l, d->nretry));
  PetscCall(KSPView_Pipe(ksp, viewer));
  PetscFunctionReturn(0);
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
  PetscFunctionReturn(0);
}

/*MC
   KSPPIPEPLCG - "pipeplcg": deep-pipelined preconditioned CG, p(l)-CG (Cornelis, Cools and Vanroose 2018),
   with the stable auxiliary-basis recurrences (Cools, Cornelis and Vanroose 2019). One SpMV, one
   preconditioner application and one non-blocking reduction per iteration; each reduction has l
   iterations to complete, so up to l are in flight, all driven by the progress engine.

   Options Database Keys:
+  -ksp_pipe_depth <l> - pipeline depth 0..5 (0: no pipelining), or auto (default): chosen at the first solve from measurements (`KSPPipePLCGSetDepth()`)
.  -ksp_pipe_eig_bounds <lmin,lmax> - interval of the spectrum of M^{-1}A for the Chebyshev shifts (default: estimated)
.  -ksp_pipe_eig_its <n> - CG iterations of the estimate (default 10)
.  -ksp_pipe_eig_factor <f> - estimated interval [0, f theta], theta the largest Ritz value (default 0.93)
.  -ksp_pipe_eig_reuse <bool> - a changed operator takes its interval from the previous solve's Ritz values, no estimate (default true)
.  -ksp_pipe_progress <none,poll,thread,auto,blocking> - how pending reductions progress (default auto)
.  -ksp_pipe_poll_interval <us> - microseconds of wall time between MPI_Test calls of the poll hook (default 2: no longer than a hop of the allreduce)
-  -ksp_pipe_replace <auto,n,0> - auto (default): restart from the true residual when the estimated gap between recursive and true residual reaches the requested residual and the recursive one, and check a convergence the recursive norm claims against the true residual; n: restart from the true residual every n iterations; 0: neither

   Notes:
   The shifts are the Chebyshev roots of [lmin, lmax]; by default [0, 0.93 theta], theta the largest Ritz value
   of a few CG iterations made at the first solve; when the matrices then get new values, the previous solve's
   Ritz values give [0.9 theta_min, 0.93 theta_max] with no estimate (`KSPPipePLCGSetEstimateReuse()`). PETSc's
   `KSPPIPELCG` defaults to zero shifts (the monomial basis), which is what loses it accuracy for l > 1.

   Depth 0 is no pipelining: chrongear's recurrences, two blocking reductions per iteration (the norm's
   first, so the converging iteration applies no SpMV: cg's counts), for where there is no latency to hide
   (one node); it needs no shifts. With auto (`KSPPipePLCGSetDepth()` with
   `PETSC_DECIDE`) the first solve, and the first after the operators change, measures the latency of a
   blocking reduction, what one iteration's SpMV and PC hide of it, and the time of one SpMV, PC application
   and vector pass, the slowest rank's figures, and chooses the depth 0..3 of least modelled time per
   iteration (docs/pipeplcg.md); -ksp_view shows the figures and the choice, `KSPPipePLCGGetDepth()`
   returns it. Auto's depth 1 is p(1)-CG with a zero shift, run as pipegv's recurrences (no estimate).

   All norm types are supported. The natural norm comes with the iterate; the preconditioned and
   unpreconditioned norms need one more dot product that arrives l iterations later, so the solve stops l
   iterations after the one it reports (x then holds that later, better iterate). The unpreconditioned norm
   also keeps M-images of the auxiliary bases (3l more vectors).

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
  d->pipe.cgref               = PETSC_FALSE;  /* its gap model is its own: its rules on replacement and claims stand */
  d->pipe.ops.viewautoreplace = KSPPipeViewAutoReplace_PipePLCG;
  PetscCall(PipeKSPRedSetInterval_Private(d->pipe.red, PLCG_POLL_INTERVAL_US));
  /* auto (bench/plcg_auto.sh, quiet VM, 2026-11-26: within 1.031 of the best fixed depth at P_sim 1, 4,096 and
     131,072 with asddic and bjacobi+icc, and up to 16% faster than depth 2, whose pipeline only costs where
     there is no latency to hide) */
  d->l                     = PETSC_DECIDE;
  d->lauto                 = PETSC_TRUE;
  d->eig_its               = PLCG_EIG_ITS_DEFAULT;
  d->eig_factor            = PLCG_EIG_FACTOR_DEFAULT;
  d->eig_reuse             = PETSC_TRUE;
  ksp->ops->setup          = KSPSetUp_PipePLCG;
  ksp->ops->solve          = KSPSolve_PipePLCG;
  ksp->ops->setfromoptions = KSPSetFromOptions_PipePLCG;
  ksp->ops->view           = KSPView_PipePLCG;
  ksp->ops->destroy        = KSPDestroy_PipePLCG;
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipePLCGSetDepth_C", KSPPipePLCGSetDepth_PLCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipePLCGGetDepth_C", KSPPipePLCGGetDepth_PLCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipePLCGSetEigenvalueBounds_C", KSPPipePLCGSetEigenvalueBounds_PLCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipePLCGGetEigenvalueBounds_C", KSPPipePLCGGetEigenvalueBounds_PLCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipePLCGSetEstimateIterations_C", KSPPipePLCGSetEstimateIterations_PLCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipePLCGSetEstimateFactor_C", KSPPipePLCGSetEstimateFactor_PLCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipePLCGSetEstimateReuse_C", KSPPipePLCGSetEstimateReuse_PLCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipePLCGGetEstimateReuse_C", KSPPipePLCGGetEstimateReuse_PLCG));
  PetscFunctionReturn(0);
}
