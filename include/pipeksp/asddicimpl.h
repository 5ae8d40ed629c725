/* Private data of PC asddic (src/pc/asddic*.c). */
#ifndef PIPEKSP_ASDDICIMPL_H
#define PIPEKSP_ASDDICIMPL_H

#include <pipeksp/pipekspimpl.h>
#include <petsc/private/pcimpl.h>

/* Richardson: w times the bound on lambda_max is kept at or below this (w itself at most 1). For even
   K, 1 - (1 - x)^K is positive on (0, 2): with the safety factor 1.1, P_K stays SPD unless the
   estimate is low by more than 16% (10 Lanczos steps were within 4% on the cube); closer to 2 keeps
   more of the undamped convergence (lower bound of 1.5 cost up to 15% more iterations at nu = 0.3). */
#define ASDDIC_DAMPING_TARGET 1.9
#define ASDDIC_ESTEIG_STEPS   10

typedef struct {
  /* settings */
  PipeKSPOrderingType ordering;   /* in use (the default follows the threads until the user sets one) */
  PetscBool           orderingset; /* the user chose the ordering */
  PCASDDICLocalType   local;       /* ic: IC(0) of the diagonal block; sgs: symmetric Gauss-Seidel */
  PCASDDICSweepType   sweep;       /* richardson (damped) or chebyshev on [emin, emax] */
  PetscInt            colors;     /* K requested */
  PetscInt            block;      /* -1: auto (on when bs > 1), 0: point, 1: block */
  PetscInt            iterations; /* ASDD sweeps, 1 = localized IC(0) */
  PCASDDICShiftType   shifttype;
  PetscInt            threads;
  PetscBool           check;      /* verify the colouring in PCSetUp */
  PCASDDICKernelType  kernel;     /* tuned (asddic_sweep.c) or reference (asddic_sweep_ref.c) sweeps */
  PetscBool           reorder;    /* settings changed: recompute the ordering at the next setup */
  PetscInt            eststeps;   /* CG/Lanczos steps of the estimate; -1: 10 when needed, 0: none */
  PetscReal           safety;     /* emax used = safety * estimated lambda_max */
  PetscBool           eigsset;    /* the user fixed [emin, emax]: no estimate */
  PetscReal           emin_user, emax_user;
  PetscReal           omega_user; /* Richardson damping fixed by the user (0: from emax) */

  /* spectral safety (from the last setup) */
  PetscReal      emin_est, emax_est; /* Lanczos estimates of the extreme eigenvalues of M^{-1}A */
  PetscReal      emin, emax;         /* the bounds the sweeps use */
  PetscReal      omega;              /* Richardson damping */
  PetscBool      chebyshev;          /* Chebyshev sweeps in use (requested, and bounds known) */
  PetscInt       estits;             /* steps the last estimate took (0: none) */
  PetscInt       nestimates;         /* estimates since the PC was created */
  PetscLogDouble t_est, t_setup;     /* wall time of the last estimate and of the whole last setup */
  const char    *boundsfrom;         /* where emin/emax came from, for -pc_view */

  /* ordering (computed once per nonzero pattern) */
  PetscInt  bs, nb;      /* block size used by the factor and number of local block rows */
  PetscInt *perm, *iperm; /* perm[new] = old, iperm[old] = new (block rows) */
  PetscInt  ncolors;     /* colours actually used (>= K for cmrcm when K is too small for the graph) */
  PetscInt *colorptr;    /* rows of colour c: colorptr[c] .. colorptr[c+1]-1 (new numbering) */
  PetscBool independent; /* colours are independent sets (cmrcm, mc): sweeps parallel inside a colour */
  PetscInt  nlevels;     /* RCM levels (rcm, cmrcm) */
  PetscInt  nsymbolic;   /* how many times the ordering was computed */

  /* the factor in the new numbering: one CSR of bs x bs blocks, lower part = unit L (stored without
     its diagonal), upper part = U; dinv = inverted diagonal blocks of U */
  PetscInt    *fi, *fj, *fdiag;
  MatScalar   *fa, *fa0, *dinv; /* fa0: the matrix values in the new numbering (kept for shifted retries) */
  PetscInt     nnzb;
  PetscInt    *li, *lj, *ui, *uj; /* the sweeps' copies: strict lower (L) and strict upper (U) parts, each contiguous */
  MatScalar   *la, *ua;
  PetscInt    *fmap, nfmap; /* entry k of the local block goes to fa0[fmap[k]]; k counts MatGetRow order,
                               or the raw value array for the fast paths (rawkind) */
  PetscInt     rawkind;     /* 0: MatGetRow; 1: SeqAIJ CSR read directly (point); 2: SeqBAIJ block CSR
                               (block IC); 3: SeqBAIJ block CSR expanded to points (point IC) */
  PetscInt     rawbs;       /* rows of one (block) row of the raw CSR: 1 for SeqAIJ, its bs for SeqBAIJ */
  PetscReal    alpha;   /* Manteuffel shift that made the factorization succeed (0: none needed) */
  PetscInt     nshifts; /* retries of the last factorization */
  PetscBool    failed;  /* the factorization failed on some rank */
  PetscScalar *work;    /* permuted work vector, nb*bs */
  Vec          t, w, d; /* ASDD work vectors (d: Chebyshev direction) */
} PC_ASDDIC;

/* asddic_import.c: the local block's graph and values */
PETSC_INTERN PetscErrorCode PCASDDICRawKind_Private(Mat, PetscInt, PetscInt *, PetscInt *);
PETSC_INTERN PetscErrorCode PCASDDICLocalGraph_Private(Mat, PetscInt, PetscInt, PetscInt, PetscInt *, PetscInt **, PetscInt **);
PETSC_INTERN PetscErrorCode PCASDDICSortedTranspose_Private(PetscInt, const PetscInt *, PetscInt *);
PETSC_INTERN PetscErrorCode PCASDDICBuildFillMap_Private(PC_ASDDIC *, Mat);
PETSC_INTERN PetscErrorCode PCASDDICFillValues_Private(PC_ASDDIC *, Mat);
PETSC_INTERN PetscErrorCode PipeKSPOrderGraph(PetscInt, const PetscInt *, const PetscInt *, PipeKSPOrderingType, PetscInt, PetscInt *, PetscInt *, PetscInt **, PetscBool *, PetscInt *);
PETSC_INTERN PetscErrorCode PCASDDICFactorNumeric_Private(PC_ASDDIC *, PetscReal, PetscBool *, PetscInt *);
PETSC_INTERN PetscErrorCode PCASDDICSetUpSweeps_Private(PC);
PETSC_INTERN PetscErrorCode PCASDDICApply_Private(PC, Vec, Vec, PetscBool);
PETSC_INTERN PetscErrorCode PCASDDICLocal_Private(PC, Vec, Vec);
PETSC_INTERN PetscLogEvent  ASDDIC_EstEig;
PETSC_INTERN PetscErrorCode PCASDDICSolveLocalTuned_Private(const PC_ASDDIC *, PetscInt, const PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode PCASDDICSolveLocalReference_Private(const PC_ASDDIC *, const PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode PCASDDICSplitSymbolic_Private(PC_ASDDIC *);
PETSC_INTERN PetscErrorCode PCASDDICSplitNumeric_Private(PC_ASDDIC *);

#endif
