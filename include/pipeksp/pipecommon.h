/* Private: pieces shared by the KSP types pipegropp, pipegv and chrongear (src/ksp/pipecommon.c). */
#ifndef PIPEKSP_PIPECOMMON_H
#define PIPEKSP_PIPECOMMON_H

#include <pipeksp/progressimpl.h>
#include <petsc/private/kspimpl.h>

typedef struct {
  PipeKSPRed          red;           /* the engine, created with the KSP; it holds the progress settings */
  PetscInt            replace;       /* residual replacement period, 0 = off, PETSC_DECIDE = auto */
  PetscBool           ignored_opts;  /* chrongear: -ksp_pipe_progress/-ksp_pipe_poll_interval were given */
  /* counters: engine totals at the start of the last solve, replacements, solves */
  PipeKSPStats        stats0;
  PetscInt64          nrep_solve, nrep_total, nrestart_solve, nrestart_total;
  PetscInt            nsolves;
  /* attainable accuracy (auto replacement, floor detection): running bounds on the gaps between the
     recursive vectors and what they stand for, f = b - A x - r, g = A p - s, h = A u - w, j = A q - z */
  PetscReal           anorm;         /* ||A||_inf, recomputed when the operator changes */
  PetscObjectState    astate;
  Mat                 amat;
  PetscReal           gf, gg, gh, gj, gf0, gfprev, rprev;
  PetscInt            itrue;         /* iteration of the last true residual (replacement, restart, start) */
  /* the best iterate whose true residual the solver has measured */
  PetscReal           best;          /* its true residual norm ||b - A x|| */
  PetscInt            bestits;
  PetscReal           rnorm0;        /* the monitored norm at iteration 0 */
  PetscReal           rn0;           /* ||r|| (2-norm) at iteration 0 */
  /* safeguards of the current solve */
  PetscBool           restart;       /* the next step starts the recurrences afresh (beta = 0) */
  PetscBool           truenow;       /* the next reduction's ||r|| is of the true residual b - A x */
  PetscBool           frombreak;     /* ... after a restart caused by a breakdown */
  PetscBool           suspect;       /* the recursive residual grew wildly: restart */
  PetscReal           rmin;          /* least recursive ||r|| since the last true one */
  PetscInt            stalls;        /* restarts in a row that brought no progress */
  KSPConvergedReason  breakreason;   /* the breakdown behind the last restart (ITERATING: none) */
  PetscReal           gsign, dsign;  /* signs of the solve's accepted (r,M^{-1}r) and (p,Ap), 0 before the
                                        first: as in cg, a change of sign is the breakdown, not a sign */
  /* PCJACOBI on a thread team: its diagonal, read at each solve's start, applied threaded (NULL: the
     PC's own apply) */
  Vec                 pcdiag;
} KSP_Pipe;

PETSC_INTERN PetscErrorCode KSPPipeCreateCommon_Private(KSP, PetscBool);
PETSC_INTERN PetscErrorCode KSPPipeSetUpWork_Private(KSP, PetscInt);
PETSC_INTERN PetscErrorCode KSPDestroy_Pipe(KSP);
PETSC_INTERN PetscErrorCode KSPSetFromOptions_Pipe(KSP, PipeKSPOptionItems);
PETSC_INTERN PetscErrorCode KSPView_Pipe(KSP, PetscViewer);
/* log, monitor and test convergence of residual norm dp at iteration its */
PETSC_INTERN PetscErrorCode KSPPipeConvergenceTest_Private(KSP, PetscInt, PetscReal);
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
/* r = b - A x (or r = b for a zero guess, setting x = 0) */
PETSC_INTERN PetscErrorCode KSPPipeResidual_Private(KSP, Mat, Vec);
/* the start of a solve: refuses diagonal scaling as PETSc's cg, returns the operator, leaves the engine
   clean, resets the per-solve counters, ||A||, the gap bounds and the iteration state */
PETSC_INTERN PetscErrorCode KSPPipeSolveStart_Private(KSP, Mat *);
/* end of a solve: x is never worse than the best measured iterate (one SpMV, one norm) */
PETSC_INTERN PetscErrorCode KSPPipeSolveEnd_Private(KSP, Mat, Vec);
/* after the reduction of iteration its: propagate the gap bounds with the step's alpha, beta and the
   norms of r, x, u, p, q (q = 0 where w = A u is computed, not recursive); pipelined: w recursive */
PETSC_INTERN void KSPPipeGapUpdate_Private(KSP, PetscBool, PetscScalar, PetscScalar, PetscReal, PetscReal, PetscReal, PetscReal, PetscReal);
/* true when iteration its ends with a residual replacement (fixed period or auto), given ||r|| */
PETSC_INTERN PetscBool KSPPipeReplaceNow_Private(KSP, PetscInt, PetscReal);
/* after a replacement: the measured true ||b - A x|| (x in X) resets the bounds and the best iterate */
PETSC_INTERN PetscErrorCode KSPPipeReplaced_Private(KSP, PetscReal, PetscReal);
/* after the convergence test of a reduction with recursive ||r|| = rn, ||x|| = xn: records a true
   residual, stops at the floor when a restart brought no progress, flags wild growth */
PETSC_INTERN PetscErrorCode KSPPipeGuardAfterTest_Private(KSP, PetscReal, PetscReal);
/* after the coefficients: a breakdown (or wild growth) of recurrences that ran since the last true
   residual is round-off: clears the reason and asks for a restart from b - A x (*restart). Right
   after a restart the quantities come from true vectors and the reason stands, as cg's would. */
PETSC_INTERN PetscErrorCode KSPPipeGuardBreakdown_Private(KSP, PetscBool *);
/* no progress from restarts: stop at the attainable accuracy with the reason cg reports when its recursive
   residual gets there; far above the rounding floor end with the breakdown behind the restarts, or
   iterate on if none caused them */
PETSC_INTERN PetscErrorCode KSPPipeFloorStop_Private(KSP, const char *);

/* the local dot products KSPPipeLocalDots_Private() computes, in this order; the solvers' packed reductions
   start with them */
enum {
  PIPE_DOT_RU, /* (r,u) = gamma */
  PIPE_DOT_WU, /* (w,u) = delta (0 without w) */
  PIPE_DOT_RR, /* (r,r) */
  PIPE_DOT_UU, /* (u,u) */
  PIPE_NDOTS
};
/* local (r,u), (w,u), (r,r), (u,u); W may be NULL (then (w,u) = 0) */
PETSC_INTERN PetscErrorCode KSPPipeLocalDots_Private(Vec, Vec, Vec, PetscScalar[PIPE_NDOTS]);
/* local (x,x), no reduction */
PETSC_INTERN PetscErrorCode KSPPipeLocalNormSq_Private(Vec, PetscScalar *);
/* the norm the KSP monitors, from the global (r,r), (u,u) and (r,u) */
PETSC_INTERN PetscReal KSPPipeNorm_Private(KSP, PetscScalar, PetscScalar, PetscScalar);
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
/* true when the reason set by the coefficients / gamma check is a breakdown to verify */
#define KSPPipeIsBreakdown(ksp) ((ksp)->reason == KSP_DIVERGED_INDEFINITE_MAT || (ksp)->reason == KSP_DIVERGED_INDEFINITE_PC || (ksp)->reason == KSP_DIVERGED_BREAKDOWN)

#endif
