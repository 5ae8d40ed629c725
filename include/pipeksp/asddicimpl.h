/* Private data of PC asddic and the interfaces between its files (src/pc):
     asddic.c         the PC object: ops, options, view, the methods behind the API, log events
     asddictype.c     the public API: a getter for each setter, as PETSc's jacobi
     asddic_import.c  reading the local diagonal block: its layout, graph, and values into the factor
     asddic_order.c   orderings and colourings of the local graph
     asddic_factor.c  the factor's pattern, numeric IC(0) or SGS, the split L/U copies
     asddic_sweep.c   tuned triangular sweeps (default); asddic_sweep_ref.c the plain reference ones
     asddic_asdd.c    the ASDD correction sweeps around M and the set-up eigenvalue estimate
   The method: docs/algorithms.md section 3. */
#ifndef PIPEKSP_ASDDICIMPL_H
#define PIPEKSP_ASDDICIMPL_H

#include <pipeksp/pipekspimpl.h>
#include <petsc/private/pcimpl.h>

/* Richardson: w times the bound on lambda_max is kept at or below this (w itself at most 1). For even
   K, 1 - (1 - x)^K is positive on (0, 2): with the safety factor on the estimate, P_K stays SPD unless
   the estimate is low by more than 16%; closer to 2 keeps more of the undamped convergence. */
#define ASDDIC_DAMPING_TARGET 1.9
#define ASDDIC_ESTEIG_STEPS   10

/* What the setters accept (docs/options.md, the man pages; python/pipeksp/_asddic.py mirrors them).
   Steps and safety: the largest Ritz value theta of the estimate rises to lambda_max from below. P_K is
   SPD for every K while Richardson's w lambda_max < 2, w = 1.9/(safety theta), i.e. safety theta >
   0.95 lambda_max, and while Chebyshev's safety theta + emin > lambda_max. On the cube (nu 0.3, 0.49; ic,
   sgs; 1 and 4 ranks; 10^3 nodes) theta was at worst 0.41 lambda_max after 2 steps, 0.78 after 4, 0.885
   after 5, 0.91 after 6, 0.92 after 8 and 0.935 after 10; with safety 1.05 and 8 steps Chebyshev was
   indefinite there (emax + emin = 0.99 lambda_max). So the defaults are the floor: 10 steps, safety 1.1
   (1.03 lambda_max at worst). Beyond safety 10 the bound only scales P down (w ~ 1/safety), until the
   preconditioned norm falls below the absolute tolerance (1e100: CONVERGED_ATOL at iteration 0, x = 0).
   Bounds: lambda_max(M^{-1}A) >= a_ii/m_ii (the Rayleigh quotient of e_i), 1 for IC(0) (diag(M) = diag(A)),
   1/(1 + alpha) > 1e-6 with a shift (alpha < 1e6), 1/(1 + row length) for SGS: a smaller emax is below
   lambda_max, indefinite for even K. Beyond 1e6 the sweeps scale M^{-1} by less than 1e-6 (1.9/emax,
   1/theta), the absolute-tolerance trap again (1e160 did it). emax/emin at most 1e12 keeps Chebyshev's
   sigma - 1 = 2 emin/(emax - emin) at 4 digits or more in double precision.
   Damping: w lambda_max < 2 is needed for even K, with lambda_max >= 1 for IC(0); below 1e-6 as for emax. */
#define ASDDIC_ESTEIG_STEPS_MIN ASDDIC_ESTEIG_STEPS
#define ASDDIC_SAFETY_MIN       1.1
#define ASDDIC_SAFETY_MAX       10.0
#define ASDDIC_EMAX_MIN         1e-6
#define ASDDIC_EMAX_MAX         1e6
#define ASDDIC_ERATIO_MAX       1e12
#define ASDDIC_DAMPING_MIN      1e-6

/* How the set-up reads the local block: through MatGetRow (any type), or from the CSR arrays of
   SeqAIJ (point kernel), of SeqBAIJ (block kernel on its own block size), or of SeqBAIJ split into
   points (point kernel) */
typedef enum {
  PCASDDIC_LAYOUT_GETROW,
  PCASDDIC_LAYOUT_AIJ,
  PCASDDIC_LAYOUT_BAIJ,
  PCASDDIC_LAYOUT_BAIJ_POINT
} PCASDDICLayout;

/* Point or block kernel: AUTO (not set by the user: the matrix block size), POINT, MATRIX (set) */
typedef enum {
  PCASDDIC_BLOCK_AUTO,
  PCASDDIC_BLOCK_POINT,
  PCASDDIC_BLOCK_MATRIX
} PCASDDICBlock;

typedef struct {
  /* settings */
  PCASDDICOrderingType ordering;    /* in use (the default follows the threads until the user sets one) */
  PetscBool            orderingset; /* the user chose the ordering */
  PCASDDICLocalType    local;       /* ic: IC(0) of the diagonal block; sgs: symmetric Gauss-Seidel */
  PCASDDICSweepType    sweep;       /* richardson (damped) or chebyshev on [emin, emax] */
  PetscInt             colors;      /* K requested */
  PetscInt             localblocks; /* contiguous blocks of the rank's rows, couplings between them dropped */
  PCASDDICBlock        block;       /* point or block kernel */
  PetscInt             iterations;  /* ASDD sweeps, 1 = localized IC(0) */
  PCASDDICShiftType    shifttype;
  PetscInt             threads;
  PetscBool            check;    /* verify the colouring in PCSetUp */
  PCASDDICKernelType   kernel;   /* tuned (asddic_sweep.c) or reference (asddic_sweep_ref.c) sweeps */
  PetscBool            reorder;  /* settings changed: recompute the ordering at the next setup */
  PetscInt             eststeps; /* CG/Lanczos steps of the estimate; -1: 10 when needed, 0: none */
  PetscReal            safety;   /* emax used = safety * estimated lambda_max */
  PetscBool            eigsset;  /* the user fixed [emin, emax]: no estimate */
  PetscReal            emin_user, emax_user;
  PetscReal            omega_user; /* Richardson damping fixed by the user (0: from emax) */

  /* spectral safety (from the last setup, or from the first application after the matrix changed) */
  PetscReal        emin_est, emax_est; /* Lanczos estimates of the extreme eigenvalues of M^{-1}A */
  PetscReal        emin, emax;         /* the bounds the sweeps use */
  PetscReal        omega;              /* Richardson damping */
  PetscBool        chebyshev;          /* Chebyshev sweeps in use (requested, and bounds known) */
  PetscInt         estits;             /* steps the last estimate took (0: none) */
  PetscInt         nestimates;         /* estimates since the PC was created */
  PetscObjectState pmatstate;          /* pc->pmat's values the bounds are for (a reused PC re-estimates on a change) */
  PetscLogDouble   t_est, t_setup;     /* wall time of the last estimate and of the whole last setup */
  const char      *boundsfrom;         /* where emin/emax came from, for -pc_view */

  /* ordering (computed once per nonzero pattern) */
  PetscInt  bs, nb;       /* block size used by the factor and number of local block rows */
  PetscInt *perm, *iperm; /* perm[new] = old, iperm[old] = new (block rows) */
  PetscInt  ncolors;      /* colours actually used (>= K for cmrcm when K is too small for the graph) */
  PetscInt *colorptr;     /* rows of colour c: colorptr[c] .. colorptr[c+1]-1 (new numbering) */
  PetscBool independent;  /* colours are independent sets (cmrcm, mc): sweeps parallel inside a colour */
  PetscInt  nlevels;      /* RCM levels (rcm, cmrcm) */
  PetscInt  nparts;       /* local blocks in use: each one ordered and swept on its own, by one thread */
  PetscInt *partptr;      /* rows of block q: partptr[q] .. partptr[q+1]-1 (old and new numbering alike) */
  PetscInt  nsymbolic;    /* how many times the ordering was computed */

  /* the factor in the new numbering: one CSR of bs x bs blocks, lower part = unit L (stored without
     its diagonal), upper part = U; dinv = inverted diagonal blocks of U */
  PetscInt      *fi, *fj, *fdiag;
  MatScalar     *fa, *fa0, *dinv; /* fa0: the matrix values in the new numbering (kept for shifted retries) */
  PetscInt       nnzb;
  PetscInt      *li, *lj, *ui, *uj; /* the sweeps' copies: strict lower (L) and strict upper (U) parts, each contiguous */
  MatScalar     *la, *ua;
  PetscInt      *fmap, nfmap; /* entry k of the local block goes to fa0[fmap[k]]; k counts MatGetRow order,
                                or the raw value array of the CSR layouts */
  PCASDDICLayout layout;      /* how the local block is read */
  PetscInt       rawbs;       /* rows of one (block) row of the raw CSR: 1 for SeqAIJ, its bs for SeqBAIJ */
  PetscReal      alpha;       /* Manteuffel shift that made the factorization succeed (0: none needed) */
  PetscInt       nshifts;     /* retries of the last factorization */
  PetscBool      failed;      /* the factorization failed on some rank */
  PetscInt       baddiag;     /* global row of a diagonal entry that is not positive (-1: none), the same on every rank */
  PetscReal      baddiagval;  /* its value */
  PetscScalar   *work;        /* permuted work vector, nb*bs */
  Vec            t, w, d;     /* ASDD work vectors (d: Chebyshev direction) */
} PC_ASDDIC;

/* asddic.c: the log events (registered by the registrar, src/dlregispipeksp.c) */
PETSC_INTERN PetscLogEvent PCASDDIC_SetUp, PCASDDIC_Apply, PCASDDIC_Sweep, PCASDDIC_EstEig;

/* asddic_import.c */
PETSC_INTERN PetscErrorCode PCASDDICGetLayout_Private(Mat, PetscInt, PCASDDICLayout *, PetscInt *);
PETSC_INTERN PetscErrorCode PCASDDICLocalGraph_Private(Mat, PetscInt, PCASDDICLayout, PetscInt, PetscInt *, PetscInt **, PetscInt **);
PETSC_INTERN PetscErrorCode PCASDDICSortedTranspose_Private(PetscInt, const PetscInt *, PetscInt *);
PETSC_INTERN PetscErrorCode PCASDDICBuildFillMap_Private(PC_ASDDIC *, Mat);
PETSC_INTERN PetscErrorCode PCASDDICFillValues_Private(PC_ASDDIC *, Mat);

/* asddic_order.c */
PETSC_INTERN PetscErrorCode PCASDDICSplitGraph_Private(PC, PetscInt, PetscInt *, PetscInt *);
PETSC_INTERN PetscErrorCode PCASDDICOrder_Private(PC, PetscInt, const PetscInt *, const PetscInt *);

/* asddic_factor.c */
PETSC_INTERN PetscErrorCode PCASDDICFactorSymbolic_Private(PC_ASDDIC *, const PetscInt *, const PetscInt *);
PETSC_INTERN PetscErrorCode PCASDDICFactorNumeric_Private(PC_ASDDIC *, PetscReal, PetscBool *, PetscInt *);
PETSC_INTERN PetscErrorCode PCASDDICSplitSymbolic_Private(PC_ASDDIC *);
PETSC_INTERN PetscErrorCode PCASDDICSplitNumeric_Private(PC_ASDDIC *);
PETSC_INTERN PetscErrorCode PCASDDICFactor_Private(PC);

/* asddic_sweep.c, asddic_sweep_ref.c: z = M^{-1} r on the local arrays */
PETSC_INTERN PetscErrorCode PCASDDICSolveLocalTuned_Private(const PC_ASDDIC *, PetscInt, const PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode PCASDDICSolveLocalReference_Private(const PC_ASDDIC *, const PetscScalar *, PetscScalar *);

/* asddic_asdd.c */
/* threads of the sweeps on n local rows: -pc_asddic_threads, else the process's count for n rows */
PETSC_INTERN PetscInt       PCASDDICThreads_Private(const PC_ASDDIC *, PetscInt);
PETSC_INTERN PetscErrorCode PCASDDICLocal_Private(PC, Vec, Vec);
PETSC_INTERN PetscErrorCode PCASDDICSetUpSweeps_Private(PC);
PETSC_INTERN PetscErrorCode PCASDDICApply_Private(PC, Vec, Vec, PetscBool);

#endif
