/* Private: the base shared by the four pipelined KSP types pipegropp, pipegv, chrongear and pipeplcg (as
   PETSc's cgimpl.h for its family): the data each type's own starts with and the pieces in src/ksp:
     pipecommon.c  create, set-up, reset, destroy, options, view, the start of a solve
     pipetype.c    the public KSPPipe* API
     pipeguard.c   the convergence guards (pipeksp/pipeguard.h): gap estimate, replacement, restarts, floor,
                   kept iterate, the end of a solve
     pipestep.c    one iteration's scalars: norm, convergence test, breakdown tests, CG coefficients
     pipeapply.c   the operator and PC applications with poll points
     pipeeig.c     the solve's Lanczos tridiagonal: KSPComputeEigenvalues() and singular values as cg's
   Calls run one way: the types -> pipecommon.c -> pipeguard.c -> pipeapply.c. The vector passes they share
   run on the thread team (src/sys/vecpass.c, pipeksp/vecpassimpl.h). */
#ifndef PIPEKSP_PIPEIMPL_H
#define PIPEKSP_PIPEIMPL_H

#include <pipeksp/progressimpl.h>
#include <pipeksp/vecpassimpl.h>
#include <petsc/private/kspimpl.h>

/* work vectors after a type's own: the kept iterate, its true residual, a difference (pipeguard.c) */
#define PIPE_NKEEP 3

/* the state of the convergence guards; only pipeguard.c, pipestep.c and the types' solves touch it */
typedef struct {
  /* attainable accuracy (auto replacement, floor detection): running bounds on the gaps between the
     recursive vectors and what they stand for, f = b - A x - r, g = A p - s, h = A u - w, j = A q - z */
  PetscReal        anorm; /* ||A||_inf, recomputed when the operator changes */
  PetscObjectState astate;
  Mat              amat;
  PetscReal        gf, gg, gh, gj, gf0; /* gf0: the bound a true residual leaves */
  PetscReal        gcf, gcg;            /* the bounds on f and g of cg's recurrences over the same steps */
  PetscBool        cgref;               /* claim checks only where gf exceeds cg's, replacement only for pipelined
                                           recurrences (not pipeplcg: its own rules) */
  PetscBool        pipelined;           /* the last gap update was of pipelined recurrences (pipegv's) */
  PetscInt         itrue;               /* iteration of the last true residual (replacement, restart, start) */
  /* the kept iterate: of the iterates whose true residual the solver formed, the one of least energy
     phi(x) = x'Ax/2 - b'x (the A-norm of the error up to a constant, which CG minimises), with its true
     residual (work vectors KSPPipeSetUpWork_Private() adds, which only pipeguard.c touches). It is returned
     only after a loss of stability (a restart or a depth change), docs/algorithms.md */
  PetscReal          best;     /* the least true residual norm ||b - A x|| measured (progress tests) */
  PetscBool          haskeep;  /* an iterate is kept */
  PetscInt           bestits;  /* its iteration */
  PetscReal          dphi;     /* phi(x) - phi(kept) at x's last true residual (< 0: x became the kept one) */
  PetscObjectState   phistate; /* x's state then: dphi is of this x only */
  PetscReal          rnorm0;   /* the monitored norm at iteration 0 */
  PetscInt           itmon;    /* the last iteration monitored and logged (-1: none this solve) */
  PetscInt           ittest;   /* the last iteration tested (-1: none this solve) and the test's verdict there */
  KSPConvergedReason itverdict;
  PetscReal          dp1, dp2; /* the monitored norms of the last two tests (-1: none), for KSPPipeLastLikely_Private() */
  PetscReal          rn0;      /* ||r|| (2-norm) at iteration 0 */
  /* safeguards of the current solve */
  PetscBool          restart;      /* the next step starts the recurrences afresh (beta = 0) */
  PetscBool          truenow;      /* the next reduction's ||r|| is of the true residual b - A x */
  PetscBool          frombreak;    /* ... after a restart caused by a breakdown */
  PetscBool          suspect;      /* restart from the true residual: the recursive one grew wildly, stagnated, claims what the gap
                                        estimate does not vouch for, or is 0 under a counting test */
  PetscBool          checkclaim;   /* a replacement was refused for a gap near the residual asked for: the next claim is
                                        checked against the true residual whatever cg's estimate says */
  PetscReal          rmin;         /* least recursive ||r|| since the last true one */
  PetscReal          rprev;        /* the last ||r|| tested (recursive, or true at a restart) */
  PetscInt           nflat;        /* tests in a row that changed it by less than PIPE_FLAT */
  PetscInt           stalls;       /* restarts in a row that brought no progress */
  KSPConvergedReason breakreason;  /* the breakdown behind the last restart (ITERATING: none) */
  PetscReal          gsign, dsign; /* signs of the solve's accepted (r,M^{-1}r) and (p,Ap), 0 before the
                                        first: as in cg, a change of sign is the breakdown, not a sign */
  /* the solve's first breakdown that restarted it: cg ends there, so a breakdown that the restarts confirm
     returns its iterate, iteration, norm and reason (KSPPipeSolveEnd_Private()) */
  PetscBool          hasbreak;
  Vec                xbreak; /* created at such a breakdown, freed at the next solve's start */
  PetscInt           itsbreak;
  PetscReal          rnbreak; /* < 0 until the norm of that iteration is tested (a norm l iterations late) */
  KSPConvergedReason whybreak;
  PetscBool          cgbreak; /* of cg's recurrences (not pipeplcg's deep basis, whose pivots rounding can flip) */
} KSPPipeGuard;

/* the Lanczos tridiagonal of the last solve (pipeeig.c), kept only under KSPSetComputeEigenvalues() or
   KSPSetComputeSingularValues(): diagonal d, e[j] the coupling of entries j-1 and j (0 where the
   recurrences started again); every rank holds the same values */
typedef struct {
  PetscReal  *d, *e;
  PetscInt    n, cap;
  PetscInt    seg;      /* the first entry of the current segment */
  PetscBool   closed;   /* the current segment takes no more entries (KSPPipeLanczosClose_Private()) */
  PetscScalar alphaold; /* the CG step of the entry before (KSPPipeLanczosCG_Private()) */
} KSPPipeLanczos;

/* the operations a type may specialise (PETSc's ops idiom); KSPPipeCreateCommon_Private() sets the defaults */
typedef struct {
  PetscErrorCode (*viewautoreplace)(KSP, PetscViewer); /* -ksp_view's line on auto residual replacement */
} KSPPipeOps;

typedef struct {
  KSPPipeOps ops;
  PipeKSPRed red;          /* the engine, created with the KSP; it holds the progress settings */
  PetscInt   replace;      /* residual replacement period, 0 = off, PETSC_DECIDE = auto */
  PetscBool  ignored_opts; /* chrongear: -ksp_pipe_progress/-ksp_pipe_poll_interval were given */
  /* counters: engine totals at the start of the last solve, replacements, solves */
  PipeKSPStats stats0;
  PetscInt64   nrep_solve, nrep_total, nrestart_solve, nrestart_total;
  PetscInt64   nfirst_solve, nfirst_total; /* reductions waited for first (KSPPipeLastLikely_Private()) */
  PetscInt     nsolves;
  /* pipeplcg: depth changes (last solve, all solves) and the depth the last solve ended at (0: no depth) */
  PetscInt64 ndepth_solve, ndepth_total;
  PetscInt   depth_end;
  /* Gropp's CG took over the rest of a solve (KSPPipeGroppContinue_Private()): solves that did, and the last
     solve's iteration (-1: none) and why (-ksp_view) */
  PetscInt64     nhand_total;
  PetscInt       hand_its;
  const char    *hand_why;
  KSPPipeGuard   guard;   /* the convergence guards' state (pipeguard.c) */
  KSPPipeLanczos lanczos; /* the eigenvalue estimates' tridiagonal (pipeeig.c) */
  /* PCJACOBI on a thread team: its diagonal, read at each solve's start, applied threaded (NULL: the
     PC's own apply) */
  Vec pcdiag;
} KSP_Pipe;

/* the iteration limit as cg's, whose loop is a do-while: -ksp_max_it 0 runs one iteration
   (KSPPipeSolveEnd_Private() sets the reason) */
static inline PetscInt KSPPipeMaxIt_Private(KSP ksp)
{
  return PetscMax(ksp->max_it, 1);
}

PETSC_INTERN PetscErrorCode KSPPipeCreateCommon_Private(KSP, PetscBool);
/* checks the PC side and the thread options, sets up the engine, and KSPSetWorkVecs() with the type's
   nwork vectors plus PIPE_NKEEP for the kept iterate, last */
PETSC_INTERN PetscErrorCode KSPPipeSetUpWork_Private(KSP, PetscInt);
PETSC_INTERN PetscErrorCode KSPDestroy_Pipe(KSP);
PETSC_INTERN PetscErrorCode KSPSetFromOptions_Pipe(KSP, PipeKSPOptionItems);
PETSC_INTERN PetscErrorCode KSPView_Pipe(KSP, PetscViewer);
/* log, monitor and test convergence of residual norm dp at iteration its */
PETSC_INTERN PetscErrorCode KSPPipeConvergenceTest_Private(KSP, PetscInt, PetscReal);
/* the test alone, for a norm already monitored (a restart point of pipeplcg): dp becomes the last norm
   tested, which KSPPipeLastLikely_Private() guesses from */
PETSC_INTERN PetscErrorCode KSPPipeConvergenceTestUnmonitored_Private(KSP, PetscInt, PetscReal);
/* y = A x with poll points (plain MatMultTranspose for transpose solves), completing the pending
   reduction on an error */
PETSC_INTERN PetscErrorCode KSPPipeApplyOperator_Private(KSP, Mat, Vec, Vec);
/* y = A x outside the overlapped work (start, restarts, replacements, the final check): the same
   threaded SpMV, so a hybrid run multiplies on all its threads everywhere (MatMultTranspose for
   transpose solves, as KSP_MatMult) */
PETSC_INTERN PetscErrorCode KSPPipeMatMult_Private(KSP, Mat, Vec, Vec);
/* y = M^{-1} x with polls around it (the PC may poll inside too) */
PETSC_INTERN PetscErrorCode KSPPipePCApply_Private(KSP, Vec, Vec);
/* y = M^{-1} x, no polls: KSP_PCApply(), or for PCJACOBI on a thread team y = d .* x threaded */
PETSC_INTERN PetscErrorCode KSPPipePCApplyLoop_Private(KSP, Vec, Vec);
/* at a solve's start: PCJACOBI on a thread team reads its diagonal d = M^{-1} 1 for the threaded apply */
PETSC_INTERN PetscErrorCode KSPPipePCSetUp_Private(KSP);
/* KSPSolve_X of every type: b and x in the operator's parallel layout, or an error on every rank (work vectors a
   set-up made from another x's layout are made again, in place), then solve; after an error in either it
   undoes KSPSolve()'s PCPreSolve() count and lock on b */
PETSC_INTERN PetscErrorCode KSPPipeSolveEntry_Private(KSP, PetscErrorCode (*)(KSP));
/* the start of a solve: refuses diagonal scaling as PETSc's cg, returns the operator, leaves the engine
   clean, resets the per-solve counters, ||A||, the gap bounds and the iteration state */
PETSC_INTERN PetscErrorCode KSPPipeSolveStart_Private(KSP, Mat *);
/* pipegropp's iterations from the current x at iteration its (0: the solve's start, x = 0 for a zero
   guess), in a solve that another type started (pipeplcg at depth 0, or lowered to depth 1; pipegv and chrongear at
   KSPPipeKrylovEnd_Private(), pipegv at a breakdown of its own recurrences): no
   KSPPipeSolveStart/End_Private(); needs pipegropp's 6 work vectors before the kept iterate's. fresh: the
   caller has put r = b - A x and u = M^{-1} r of the current x in the first two; why: a static string for
   -ksp_view, which names the handover */
PETSC_INTERN PetscErrorCode KSPPipeGroppContinue_Private(KSP, Mat, PetscInt, PetscBool, const char *);

/* pipegv's iterations likewise (pipeplcg at the depth 1 that auto chose: p(1)-CG with a zero shift, in
   Ghysels and Vanroose's single fused pass): needs pipegv's 9 work vectors before the kept iterate's */
PETSC_INTERN PetscErrorCode KSPPipeGVContinue_Private(KSP, Mat, PetscInt);

/* the Lanczos tridiagonal (pipeeig.c): sets the KSP's eigenvalue operations; at a solve's start, empties it
   (room for the iteration limit when eigenvalues or singular values are asked for); one step of CG
   coefficients alpha, beta (beta = 0: the recurrences start again); one entry of a Lanczos process's own
   coefficients (pipeplcg: gamma_i, and delta_{i-1}, the coupling to the entry before, 0 at its start);
   drops the current segment's last k entries (a deep basis's, computed as it lost its rank); takes no more
   entries until the next segment (one that starts with a coupling of 0); frees it */
PETSC_INTERN PetscErrorCode KSPPipeLanczosCreate_Private(KSP);
PETSC_INTERN PetscErrorCode KSPPipeLanczosStart_Private(KSP);
PETSC_INTERN void           KSPPipeLanczosCG_Private(KSP, PetscScalar, PetscScalar);
PETSC_INTERN void           KSPPipeLanczosAdd_Private(KSP, PetscScalar, PetscScalar);
PETSC_INTERN void           KSPPipeLanczosDrop_Private(KSP, PetscInt);
PETSC_INTERN void           KSPPipeLanczosClose_Private(KSP);
PETSC_INTERN PetscErrorCode KSPPipeLanczosDestroy_Private(KSP);

/* the norm the KSP monitors, from the global (r,r), (u,u) and (r,u) */
PETSC_INTERN PetscReal KSPPipeNorm_Private(KSP, PetscScalar, PetscScalar, PetscScalar);
/* cg's KSPCheckNorm() ahead of its KSPCheckDot() on gamma = (r,M^{-1}r): with a 2-norm (the preconditioned or
   unpreconditioned norm type) an Inf or NaN norm ends the solve as the residual norm reported, and a finite
   one is the norm reported where gamma is Inf or NaN (cg tests that norm before it forms gamma; KSPCheckDot()
   alone left the norm before, 0 at iteration 0). Returns from the caller, as KSPCheckNorm() */
#define KSPPipeCheckNorm_Private(ksp, rr, uu, gamma) \
  do { \
    if ((ksp)->normtype == KSP_NORM_PRECONDITIONED || (ksp)->normtype == KSP_NORM_UNPRECONDITIONED) { \
      const PetscReal dp_ = KSPPipeNorm_Private(ksp, rr, uu, 0.0); \
      KSPCheckNorm(ksp, dp_); \
      if (PetscIsInfOrNanScalar(gamma)) (ksp)->rnorm = dp_; \
    } \
  } while (0)
/* sets ksp->reason when gamma = (r,M^{-1}r) ends the solve: = 0 exact solution; of the other sign than
   the solve's earlier ones indefinite PC, as cg (strict: any gamma < 0, for a method that needs M > 0) */
PETSC_INTERN PetscErrorCode KSPPipeCheckGamma_Private(KSP, PetscScalar, PetscBool);
/* v of the other sign than *sign (the sign of the solve's earlier values, kept there; 0 before the
   first), or 0: cg's breakdown test for (r,M^{-1}r) and (p,Ap) */
PETSC_INTERN PetscBool KSPPipeSignChanged_Private(PetscReal *, PetscScalar);
/* CG coefficients from gamma and delta = (u,Au) of the single-reduction recurrences
   (Chronopoulos-Gear, Ghysels-Vanroose); sets ksp->reason on a breakdown */
PETSC_INTERN PetscErrorCode KSPPipeCoefficients_Private(KSP, PetscBool, PetscScalar, PetscScalar, PetscScalar, PetscScalar, PetscScalar *, PetscScalar *);
/* the CG coefficients of one iteration: delta, the previous gamma and alpha in; alpha, beta out */
typedef struct {
  PetscScalar delta, gammaold, alphaold, alpha, beta;
} KSPPipeCoef;
/* after an iteration's reduction: the norm and convergence test, the guards, the iteration limit, gamma's
   sign, the coefficients (when coef is given) and the breakdown guard; *stop when ksp->reason ends the
   solve, *restart when the recurrences start again from b - A x */
PETSC_INTERN PetscErrorCode KSPPipeTestIteration_Private(KSP, PetscInt, PetscScalar, PetscScalar, PetscScalar, PetscReal, PetscReal, KSPPipeCoef *, PetscBool *, PetscBool *);
/* whether the test of iteration its will probably end the solve (the iteration limit, or the default test's
   tolerance reached by the last contraction of the monitored norm once more): a pipelined KSP then waits for
   that reduction before the work it overlaps (pipegv: PC application and SpMV; pipegropp: the SpMV), which
   would only be thrown away; counts the waits (waited_first) */
PETSC_INTERN PetscBool KSPPipeLastLikely_Private(KSP, PetscInt);
#endif
