/* Private: pipeplcg, the deep-pipelined p(l)-CG (as PETSc's cgimpl.h for cg): its data and the pieces in
   src/ksp:
     pipeplcg.c         options, view, create and the solve, in named steps
     pipeplcgeig.c      the eigenvalue estimate, the Ritz values and the orthogonality estimate
     pipeplcgkernels.c  the fused vector kernels
     pipeplcgpolicy.c   the depth, gap, restart and breakdown policy
     pipeplcgauto.c     the automatic depth
     pipeplcgtype.c     the public KSPPipePLCG* API
   docs/pipeplcg.md has the method and the measurements behind the constants. */
#ifndef PIPEKSP_PIPEPLCGIMPL_H
#define PIPEKSP_PIPEPLCGIMPL_H

#include <pipeksp/pipeguard.h>

#define PLCG_MAXL        5
#define PLCG_GC          (PLCG_MAXL + 2)     /* columns of G kept */
#define PLCG_GR          (2 * PLCG_MAXL + 1) /* band of one column */
#define PLCG_NR          (2 * PLCG_MAXL + 2) /* ring of the scalar recurrences */
#define PLCG_EIG_ITS_MIN 2                   /* the estimate's least CG iterations: two Ritz values make an interval */
/* usable intervals of the shifts: P_l(B) has entries up to lmax^l, l <= 5, so lmax in [1e-50, 1e50] keeps the
   basis and its dots (lmax^(2l)) inside double precision's range; lmax/lmin above 1e15 (about 1/eps) puts lmin
   below the rounding of lmax */
#define PLCG_EIG_MIN   1e-50
#define PLCG_EIG_MAX   1e50
#define PLCG_EIG_RATIO 1e15
/* a breakdown far from convergence, the natural residual still above this fraction of r_0's, is early: the
   depth goes to 1 at once */
#define PLCG_EARLY 0.1
/* the eigenvalue estimates (KSPComputeEigenvalues()) take a segment's Lanczos coefficients only while its
   natural residual stays above this fraction of r_0's: below, the deep basis's coefficients lose their digits
   before its iterate does, and gave Ritz values far below the spectrum (fuzzer seed 57 cases 392, 4157, 4861,
   depth 4: 0.068 where cg's lowest was 0.179; the cube 6^3 with gamg at depth 4, 20 iterations: 0.038 against
   cg's 0.354, from steps below 1e-8 of r_0's natural norm), where cg's Lanczos process stays inside it */
#define PLCG_EIG_FLOOR 1e-8
/* the same at depth 2, whose basis loses fewer digits: at 1e-8 a lap3d of 1331 with bjacobi at rtol 1.8e-12 kept 18 of
   its 29 steps, a largest Ritz value of 1.381 for cg's 1.400 (fuzzer seed 89 case 1725); at 1e-13 seeds 57, 88 and
   89 (5,000 cases each) show no estimate outside cg's */
#define PLCG_EIG_FLOOR_DEPTH2 1e-13
/* steps of a segment whose Lanczos coefficients are kept: for the Ritz values (the largest has converged to a
   few digits long before 64 steps) and for the orthogonality estimate */
#define PLCG_RITZ_N   64
#define PLCG_OMEGA_N  256
#define PLCG_RITZ_LOW 0.9 /* lmin = PLCG_RITZ_LOW theta_min from a solve's Ritz values (pipeplcgeig.c) */
/* the estimated interval [0, f theta] (KSPPipePLCGSetEstimateFactor() with PETSC_DECIDE, the default): f by
   the shape of the spectrum's top, which the estimate reads from the quadrature weight w of the largest Ritz
   value of its first PLCG_TOP_STEPS steps (n = PLCG_TOP_STEPS or fewer): the share of the random start vector
   near the top. n^2 w stays about constant in n for a density that is positive up to lambda_max (a
   Laplacian's); an isolated outlier converges to its own share, about 1 / N of N unknowns (the elasticity
   cube's top with Jacobi); an eigenvalue of large multiplicity (a near-exact PC's 1) keeps w near its share.
   Hence a fixed n: larger ones move both ends. Measured in docs/pipeplcg.md ("Shifts") */
#define PLCG_TOP_STEPS     10
#define PLCG_TOP_DENSE     1.0  /* n^2 w at or above it, */
#define PLCG_TOP_POINT     25.0 /* and at most this (above: a point mass): the top is dense */
#define PLCG_FACTOR_DENSE  1.0  /* a dense top: the shifts reach the largest Ritz value */
#define PLCG_FACTOR_SPARSE 0.93 /* a sparse top: they stop below it, at the bulk of the spectrum */
/* the factors a user may give: theta lies in the spectrum, and an interval ten times off either way leaves
   the basis no better than the monomial one */
#define PLCG_FACTOR_MIN 0.1
#define PLCG_FACTOR_MAX 10.0

/* pipeplcg's automatic depth (-ksp_pipe_depth auto, src/ksp/pipeplcgauto.c): what was measured, on the
   matrices of which ids, and the depth chosen */
#define PIPEKSP_PLCG_AUTO_MAXL 5
typedef struct {
  PetscBool     done; /* measured for the operators below */
  PetscObjectId aid, pid;
  PetscInt      nchoices;                         /* measurements made (the first solve, then each new matrix) */
  PetscReal     lat;                              /* seconds: blocking reduction of the packed size, median, max over ranks */
  PetscReal     hide;                             /* seconds of it that one iteration's SpMV and PC hide on the solver's engine */
  PetscReal     spmv;                             /* seconds: one SpMV + one PC application, median, max over ranks */
  PetscReal     vec;                              /* seconds: one pass of the 3-term recurrence over a vector, median, max over ranks */
  PetscReal     cost[PIPEKSP_PLCG_AUTO_MAXL + 1]; /* modelled seconds per iteration of each depth */
  PetscInt      depth;                            /* the choice */
  PetscInt      its;                              /* iterations of the last converged solve (0: none yet) */
  PetscInt      nswitch;                          /* choices changed by it since the measurement */
} KSPPipePLCGAuto;
/* at a solve's start: measure (when not done for these operators) and choose the depth 0..maxl, with what a
   depth adds per solve spread over the last solve's iterations (a->its); the extra vector passes per
   iteration of a depth are the caller's (mq: the unpreconditioned norm's M-images) */
PETSC_INTERN PetscErrorCode KSPPipePLCGAutoChoose_Private(KSP, PetscBool, PetscInt, KSPPipePLCGAuto *);
/* -ksp_view's lines on the choice */
PETSC_INTERN PetscErrorCode KSPPipePLCGAutoView_Private(KSPPipePLCGAuto *, PetscViewer);

/* what an interval was measured on: the matrices (ids, and states for their values) and the PC type (another
   type is another M^{-1}A) */
typedef struct {
  PetscObjectId    aid, pid;
  PetscObjectState as, ps;
  char             pc[64];
} KSPPipePLCGOpKey;

typedef struct {
  KSP_Pipe        pipe;  /* first: the shared base (src/ksp/pipe*.c read ksp->data as KSP_Pipe) */
  PetscInt        l;     /* depth the solves start at (0: Gropp's CG); auto: the choice, PETSC_DECIDE before */
  PetscBool       lauto; /* -ksp_pipe_depth auto: l is chosen at the first solve (pipeplcgauto.c) */
  KSPPipePLCGAuto autod;
  PetscReal       lmin, lmax; /* interval of the shifts in use */
  PetscBool       user_eig;   /* interval given by the user: no estimate */
  PetscInt        eig_its;    /* CG iterations of the estimate */
  PetscReal       eig_factor; /* lmax = eig_factor * largest Ritz value; PETSC_DECIDE: by the spectrum's top */
  PetscReal       topw;       /* the last estimate's n^2 w (PLCG_TOP_DENSE); 0: none */
  PetscReal       emin, emax; /* last estimate */
  PetscInt        nestimates; /* estimates done */
  /* shifts of a changed operator from the previous solve's Ritz values (KSPPipePLCGSetEstimateReuse()) */
  PetscBool        eig_reuse;
  PetscReal        theta, thetalo;                   /* extreme Ritz values of the last solve that had enough steps (0: none) */
  KSPPipePLCGOpKey ritz;                             /* its operators (the values aside) */
  PetscInt         nritz;                            /* intervals taken from Ritz values (all solves) */
  PetscBool        fromritz;                         /* the interval in use came from them */
  PetscReal        rg[PLCG_RITZ_N], re[PLCG_RITZ_N]; /* gamma, delta of the current segment */
  PetscInt         rn, rnmax;                        /* its length; the longest in this solve */
  PetscReal        theta_solve, thetalo_solve;       /* extreme Ritz values of this solve's closed segments */
  KSPPipePLCGOpKey est;                              /* operators of the interval in use */
  PetscInt         nrestarts;                        /* breakdown restarts (all solves) */
  PetscBool        estfailed;                        /* the last estimate failed: solves run at depth 1 */
  PetscInt         lrun;                             /* depth in use: l, lowered by breakdowns for the rest of the solve */
  PetscInt         nbreak;                           /* breakdown restarts at depth lrun in this solve */
  PetscInt         nupd_lucky;                       /* iterate updates at the last invariant-space (lucky) restart */
  PetscBool        early;                            /* an early breakdown sent the depth to 1: restart from the kept iterate */
  PetscBool        brokeearly;                       /* ... at some point of this solve */
  /* Simon's omega recurrence over the current segment: its alpha (gamma), beta (delta) and three rows */
  PetscReal oma[PLCG_OMEGA_N], omb[PLCG_OMEGA_N + 1], omw[3][PLCG_OMEGA_N + 2], ompsi;
  PetscInt  omn;    /* the step expected next (a step not in sequence is skipped, as KSPPipePLCGRitzAdd_Private() does); -1: none for the rest of the segment */
  PetscReal omlast; /* the last step's largest |omega_{j+1,k}| (0 before the first) */
  /* an early breakdown says the deep basis cannot carry this operator's spectrum: later solves on the same
     matrices (new values: a time step, a Newton step) start at depth 1 instead of losing that segment again,
     until PLCG_RETRY (then twice as many) healthy solves have passed */
  PetscBool        capped;     /* later solves on capkey's matrices start at depth 1 */
  KSPPipePLCGOpKey capkey;     /* the matrices and PC type of the early breakdown (the values aside) */
  PetscInt         ncapped;    /* solves started at depth 1 for it (all solves) */
  PetscInt         capwait;    /* healthy solves at depth 1 before the deep pipeline is tried again (doubles per failed retry) */
  PetscInt         capleft;    /* ... still to come */
  PetscInt         nretry;     /* retries of the deep pipeline on capped matrices (all solves) */
  PetscBool        retrying;   /* this solve retries it */
  PetscBool        estpcfail;  /* the estimate's inner CG met a PC failure: the solve's, not a depth change */
  PetscInt         nclustered; /* solves run at depth 1 on a clustered spectrum (all solves) */
  PetscBool        lastgv;     /* the last solve ran pipegv's recurrences (-ksp_view names their replacement rule) */
  PetscReal        sigma[PLCG_MAXL];
  PetscInt         nwork_l; /* layout of ksp->work */
  PetscBool        nwork_mq, nwork_late;
  /* with the norm l iterations late, x runs l - 1 updates ahead of the iteration tested: the updates since
     then, for that iteration's iterate (a monitor of the true residual, a convergence test of the user's,
     which also gets it as the solution: cg's iterate) */
  PetscBool   hon;             /* kept in this segment: the norm is late and a monitor or another test looks */
  Vec        *hist;            /* hl directions and a spare (in ksp->work) */
  PetscScalar hz[PLCG_MAXL];   /* their step lengths */
  PetscInt    hl, hbase, happ; /* ring size (the depth); x = x_hbase at the segment's start, x_happ now */
  /* scalars of one solve */
  PetscScalar G[PLCG_GC * PLCG_GR];
  PetscScalar gam[PLCG_NR], del[PLCG_NR], zeta[PLCG_NR];
  int         slot[PLCG_MAXL + 1]; /* engine slot of the reduction of column c, at c % (l+1) */
  PetscInt    lastmon;             /* the last iteration tested with the monitors */
  /* gap estimate (auto replacement), all in the M-norm of the Lanczos space since the last (re)start */
  PetscReal nzc;    /* ||z_c||_M = ||G(:,c)|| of the last column */
  PetscReal y2;     /* ||y||^2, x - x_start = V y */
  PetscReal c2, yc; /* ||c||^2 and (y, c), p = V c */
  PetscReal xs;     /* bound on ||x_start||_M */
} KSP_PLCG;

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
  PetscBool   handover;  /* its check lowered the depth to 1: r and z = M^{-1} r of x, unscaled, for Gropp's CG */
} KSPPipePLCGStart;

/* the packed (re)start reduction of the true residual r and z = M^{-1} r */
enum {
  PLCG_RS_RZ,
  PLCG_RS_RR,
  PLCG_RS_ZZ,
  PLCG_RS_N
};

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
} KSPPipePLCGRec;

/* the iteration of x at a (re)start: x took no update past -ksp_max_it (a norm l iterations late) */
static inline PetscInt KSPPipePLCGStartIts_Private(KSP ksp, const KSPPipePLCGStart *st)
{
  return PetscMin(st->nupd, KSPPipeMaxIt_Private(ksp));
}

/* the last estimate found the top of the spectrum dense (PLCG_TOP_DENSE) */
static inline PetscBool KSPPipePLCGTopDense_Private(const KSP_PLCG *d)
{
  return (PetscBool)(d->topw >= PLCG_TOP_DENSE && d->topw <= PLCG_TOP_POINT);
}

/* pipeplcgeig.c */
PETSC_INTERN PetscBool      KSPPipePLCGUsableBounds_Private(PetscReal, PetscReal);
PETSC_INTERN PetscErrorCode KSPPipePLCGOpKeyGet_Private(KSP, KSPPipePLCGOpKey *);
PETSC_INTERN PetscBool      KSPPipePLCGOpKeySame_Private(const KSPPipePLCGOpKey *, const KSPPipePLCGOpKey *, PetscBool);
/* the interval of the shifts for the solve's operators: kept, from the last solve's Ritz values, or estimated */
PETSC_INTERN PetscErrorCode KSPPipePLCGEstimate_Private(KSP);
PETSC_INTERN PetscReal      KSPPipePLCGFactor_Private(const KSP_PLCG *);
PETSC_INTERN void           KSPPipePLCGRitzAdd_Private(KSP_PLCG *, PetscInt, PetscScalar, PetscScalar);
PETSC_INTERN void           KSPPipePLCGOmegaStart_Private(KSP_PLCG *);
PETSC_INTERN PetscReal      KSPPipePLCGOmegaStep_Private(KSP_PLCG *, PetscInt, PetscReal, PetscReal);
PETSC_INTERN PetscErrorCode KSPPipePLCGRitzKeep_Private(KSP);

/* pipeplcgkernels.c */
PETSC_INTERN void           KSPPipePLCGRecAdd_Private(KSPPipePLCGRec *, Vec, Vec, Vec, Vec, PetscScalar);
PETSC_INTERN PetscErrorCode KSPPipePLCGStep_Private(KSPPipePLCGRec *, PetscScalar, PetscScalar, PetscBool, Vec, Vec, PetscScalar, PetscScalar, Vec, PetscInt, Vec[], Vec, PetscScalar[], PetscScalar[]);
PETSC_INTERN PetscErrorCode KSPPipePLCGLocalDots_Private(Vec, PetscInt, Vec[], Vec, PetscScalar[], PetscScalar[]);

/* pipeplcgpolicy.c */
PETSC_INTERN PetscErrorCode KSPPipePLCGTest_Private(KSP, PetscInt, PetscReal);
PETSC_INTERN PetscBool      KSPPipePLCGCheckClaim_Private(KSP);
PETSC_INTERN void           KSPPipePLCGGapStep_Private(KSP, PetscInt, PetscReal, PetscReal, PetscReal, PetscReal, PetscReal);
PETSC_INTERN PetscErrorCode KSPPipePLCGStartPoint_Private(KSP, KSPPipePLCGStart *, PetscInt, Vec[], PetscInt, Vec[], PetscInt, Vec[], Vec[]);
PETSC_INTERN void           KSPPipePLCGLowerDepth_Private(KSP_PLCG *, PetscInt, PetscBool);
PETSC_INTERN PetscErrorCode KSPPipePLCGBreakdown_Private(KSP, const char *, KSPConvergedReason, PetscInt, PetscReal, PetscReal, PetscBool, PetscBool, PetscBool *);
/* at a solve's start, after the estimate: depth 1 (pipegv's recurrences) on a spectrum the estimate finds clustered */
PETSC_INTERN PetscErrorCode KSPPipePLCGClustered_Private(KSP, PetscBool *);
/* at a solve's start and end: depth 1 on matrices whose earlier solve broke down early, and the back-off */
PETSC_INTERN PetscErrorCode KSPPipePLCGCapBegin_Private(KSP);
PETSC_INTERN PetscErrorCode KSPPipePLCGCapEnd_Private(KSP);

#endif
