/* Private: the convergence guards of the pipelined KSP types (src/ksp/pipeguard.c owns this header): their
   thresholds, which pipeplcg applies too, the predicates and the calls a type's solve makes. The guards'
   state is the KSPPipeGuard in KSP_Pipe (pipeksp/pipeimpl.h). */
#ifndef PIPEKSP_PIPEGUARD_H
#define PIPEKSP_PIPEGUARD_H

#include <pipeksp/pipeimpl.h>

/* the size of one rounding error in the gap estimate: the root mean square of an error uniform in
   [-u, u], u = eps/2, as in probabilistic rounding error analysis (Higham and Mary 2019), rather than
   the worst case eps. Measured on the cube and ex2 with jacobi, asddic and bjacobi+icc, the estimate
   still runs 3-8x above the gap ||b - A x - r||. */
#define PIPE_ROUND_RMS (PETSC_MACHINE_EPSILON / 3.4641016151377544)
/* auto replacement: when the estimated gap has reached this fraction of the requested residual
   rtol ||r_0||: below it the gap cannot limit the accuracy asked for (the estimate runs a few times above
   the measured gap, and a convergence it does not vouch for is checked against the true residual) */
#define PIPE_GAP_TARGET 1.0
/* ... is PIPE_GAP_GROWTH times what a replacement leaves, and no sooner than PIPE_GAP_SPACING iterations
   after the last true residual (replacement or restart) */
#define PIPE_GAP_GROWTH 10.0
/* the check of a claimed convergence acts only where the gap estimate is PIPE_GAP_CG times the one of cg's
   recurrences over the same steps: up to there the drift is what cg's contract allows */
#define PIPE_GAP_CG      4.0
#define PIPE_GAP_SPACING 50
/* a replacement the auto rule asks for changes r by the gap, and the Lanczos process it perturbs can lose its
   convergence (a diagonal with kappa 5e7: 1901 iterations against cg's 181 after one such replacement, 521
   without). So the gap is measured first (one SpMV and one reduction), and the replacement made only where
   it has reached the residual asked for: the bound runs ahead of the gap (fuzzer seeds 33 and 35, pipegv,
   6,000 cases: replacing from a tenth of it up, 4 more failures, each a replacement far from convergence,
   at 5e-5 of ||r||, that cost up to 70 iterations where PETSc's pipecg, which replaces nothing, passed) */
/* ... and not where the gap measured is both above PIPE_GAP_PERTURB of ||b - A x|| and within PIPE_GAP_NEAR
   times the residual asked for: a replacement moves r by the gap, which then perturbs the recurrences as a
   restart would, and the check at the claim costs less (a diagonal, kappa 1.3e5, no PC, fuzzer seed 74 case
   46, 3 ranks: a gap of 0.33 ||b - A x|| and 1.5 times the residual asked for, 300 more iterations; seed 54
   case 3070, 3 ranks, 152). A gap far above the residual asked for is replaced all the same: refused, the recursive residual
   wandered for 60 iterations before its claim (seed 54 case 1335, 2,000 times it: 147 iterations for 91) */
#define PIPE_GAP_PERTURB 3e-2
#define PIPE_GAP_NEAR    10.0
/* the estimated gap, relative to the recursive residual, above which a convergence claimed by the
   recursive residual is checked against the true one */
#define PIPE_GAP_CHECK 1e-2
/* a restart from the true residual is progress when its residual is below PIPE_GAIN times the best one
   measured before; PIPE_STALLS restarts in a row without progress are the attainable accuracy */
#define PIPE_GAIN   0.5
#define PIPE_STALLS 2
/* recurrences that ran below PIPE_LOST times the true residual their restart found, at the floor (below PIPE_FLOOR_AT
   (||A|| ||x|| + ||b||)), had lost touch with b - A x: cg's recursion goes on down to a tolerance below the floor
   and ends converged there, so the solve stops at once (the cube 7^3 at -ksp_rtol 1e-20 on 2 ranks: pipegv 197
   iterations, now 142; cg 113). cg's floor is about eps ||A|| ||x||; PIPE_FLOOR_NEAR's 1e4 eps stopped pipegv with
   no replacement on 4 ranks at 7e-10 ||b||, where a restart reaches 3e-14 */
#define PIPE_LOST     1e-3
#define PIPE_FLOOR_AT (1e2 * PETSC_MACHINE_EPSILON)
/* a recursive residual below the gap estimate that moves by less than PIPE_FLAT of itself at PIPE_FLAT_ITS tests in a
   row has stagnated on its rounding: check the true one (Gropp's recursive M^{-1} r on the cube with bjacobi at
   -ksp_rtol 1e-20 stood at 3.8068e-16 for 2,900 iterations and ended DIVERGED_ITS, where cg converged at 66) */
#define PIPE_FLAT     1e-3
#define PIPE_FLAT_ITS 5
/* a recursive residual above PIPE_GROWTH times its least since the last true one has grown wildly: restart.
   cg's own residual grows by up to the square root of the condition (its A-norm error falls): 4e3 on a
   diagonal of 13 distinct eigenvalues in [1, 6.7e9] (fuzzer seed 70 case 2879, -few_distinct), where
   pipegropp's passed 1e4, restarted and took 58 iterations for cg's 38. A blow-up of rounding grows
   geometrically and passes 1e6 a few steps later (seed 61, 15,000 solves: the same lines at 1e4, 1e6 and
   with no limit, but for one known-open line fewer with none). Above a condition of about 1e12 cg's own
   growth can pass it again: a restart then costs iterations, not accuracy */
#define PIPE_GROWTH 1e6
/* a best true residual above PIPE_FLOOR_FAR (||A|| ||x|| + ||b||) is far above the rounding floor */
#define PIPE_FLOOR_FAR PETSC_SQRT_MACHINE_EPSILON
/* a breakdown right after a restart from a true residual below PIPE_FLOOR_NEAR (||A|| ||x|| + ||b||) is one of
   rounding noise: the solve stops at the floor (KSPPipeFloorStop_Private()) instead of reporting it */
#define PIPE_FLOOR_NEAR (1e4 * PETSC_MACHINE_EPSILON)
/* a breakdown of cg's recurrences whose monitored norm is above this times the tolerance is far from the
   rounding floor: rounding does not flip the sign of a dot product (p,Ap) or (r,M^{-1}r) there, so one that
   -ksp_max_it cut off before its restarts confirmed it is still cg's (KSPPipeSolveEnd_Private()); the
   single-reduction formula's (p,Ap) only where its dot product agrees (KSPPipeBreakCheckPAp_Private()). Not
   a pivot of pipeplcg's deep basis: fuzzer seed 47 case 2868 (a diagonal, SPD, depth 4) met one of rounding
   far from the floor */
#define PIPE_BREAK_FAR 1e2

/* the residual norm PETSc's default test asks for in this solve: max(rtol ||r_0||, abstol) (0: a fixed count
   of iterations, -ksp_rtol 0 -ksp_atol 0) */
static inline PetscReal KSPPipeTolerance_Private(KSP ksp)
{
  return PetscMax(ksp->rtol * ((KSP_Pipe *)ksp->data)->guard.rnorm0, ksp->abstol);
}

/* the convergence test sees no norm it could end on and counts iterations: KSPConvergedSkip, or a user's test
   with no norm (it sees (its, 0)). Only its verdict or the limit ends cg there, or cg's recursive (r,M^{-1}r) of
   exactly 0. Ours do not stop at the floor, and end at a recursive 0 only where b - A x is 0 too: a 0 of
   their recurrences is not cg's (where cg's is rounding too, ours iterate on and cg stops) */
static inline PetscBool KSPPipeTestCounts_Private(KSP ksp)
{
  return (PetscBool)(ksp->converged == KSPConvergedSkip || (ksp->normtype == KSP_NORM_NONE && ksp->converged != KSPConvergedDefault));
}

/* r = b - A x (or r = b for a zero guess, setting x = 0) */
PETSC_INTERN PetscErrorCode KSPPipeResidual_Private(KSP, Mat, Vec);
/* at a solve's start: ||A|| when A changed, the gap bounds, the kept iterate and the guards' state */
PETSC_INTERN PetscErrorCode KSPPipeGuardReset_Private(KSP, Mat);
/* end of a solve: x is the last iterate, as cg's; only after a loss of stability the kept iterate when its
   energy is lower (one SpMV into the work vector T, one reduction); at a confirmed breakdown the first one's
   iterate, iteration and reason (KSPPipeBreakRecord_Private()); -ksp_max_it 0 as cg's */
PETSC_INTERN PetscErrorCode KSPPipeSolveEnd_Private(KSP, Mat, Vec);
/* a breakdown why that the solve restarts from, with x the iterate of iteration its and rn that iteration's
   norm (< 0: tested later, KSPPipeConvergenceTestUnmonitored_Private() fills it in); cgrec: met by cg's own
   recurrences (Gropp's, pipegv's, chrongear's). The first is kept, cg's end if the restarts confirm it
   (KSPPipeSolveEnd_Private()) */
PETSC_INTERN PetscErrorCode KSPPipeBreakRecord_Private(KSP, PetscInt, KSPConvergedReason, PetscReal, PetscBool);
/* at the restart after a (p,Ap) of the other sign from the single-reduction formula (p,Ap) = (u,Au) - beta^2
   (p_old,Ap_old) of pipegv and chrongear: the dot product of p = u + beta p_old (into t) with A p (into at)
   tells the input's breakdown from the formula's rounding, whose record is dropped (the restart then one of
   drift, as after residual growth); *refuted (may be NULL): the dot product refuted the formula's sign */
PETSC_INTERN PetscErrorCode KSPPipeBreakCheckPAp_Private(KSP, Mat, PetscScalar, Vec, Vec, Vec, Vec, PetscBool *);
/* r = b - A x, and x against the kept iterate (one SpMV, one reduction of two dots) */
PETSC_INTERN PetscErrorCode KSPPipeTrueResidual_Private(KSP, Mat, Vec);
/* the true residual norm tn measured: the least one is the progress tests' reference */
PETSC_INTERN PetscErrorCode KSPPipeBestRecord_Private(KSP, PetscReal);
/* x = the kept iterate, when x's energy (at x's last true residual, formed since x last changed) is above it */
PETSC_INTERN PetscErrorCode KSPPipeBestRestore_Private(KSP);
/* after the reduction of iteration its: propagate the gap bounds with the step's alpha, beta and the
   norms of r, x, u, p, q (q = 0 where w = A u is computed, not recursive); pipelined: w recursive */
PETSC_INTERN void KSPPipeGapUpdate_Private(KSP, PetscBool, PetscScalar, PetscScalar, PetscReal, PetscReal, PetscReal, PetscReal, PetscReal);
/* *now: iteration its ends with a residual replacement (fixed period or auto), given ||r|| */
PETSC_INTERN PetscErrorCode KSPPipeReplaceNow_Private(KSP, PetscInt, PetscReal, PetscBool *);
/* KSPPipeReplaceNow_Private(), but an auto replacement measures the gap first (with a norm): t = b - A x
   (*measured), d = t - r (both work vectors); *now only where the gap ||d|| has reached the residual asked for */
PETSC_INTERN PetscErrorCode KSPPipeReplaceMeasured_Private(KSP, PetscInt, Mat, Vec, Vec, Vec, PetscReal, PetscBool *, PetscBool *);
/* after a replacement: the measured true ||b - A x|| (x in X) resets the bounds and the least true residual */
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
/* *lost: a restart's true residual rn (in rrec's norm; tn = ||b - A x||) at the floor, PIPE_LOST times above the
   recursive residual rrec before it: the recurrences had lost touch with b - A x. Records tn as the best if it is */
PETSC_INTERN PetscErrorCode KSPPipeLostTouch_Private(KSP, PetscReal, PetscReal, PetscReal, PetscBool *);

/* *end: iteration its is the global size N, where CG ends in exact arithmetic, N or more before the limit, and the norm last
   tested is still above PIPE_KRYLOV_NEAR times the tolerance (always with no norm). A solve still running there is
   ruled by rounding, where the single-reduction recurrences (pipegv's, chrongear's) lose more than cg's: the caller
   hands the rest to Gropp's CG from the true residual (KSPPipeGroppContinue_Private()). Nearer the tolerance that
   restart would throw away the last iterations' Krylov space (docs/algorithms.md, "Past the end of the Krylov
   space") */
#define PIPE_KRYLOV_NEAR    1e2
#define PIPE_KRYLOV_END_WHY "the global size reached, where CG ends in exact arithmetic, far from the tolerance or with no norm to tell" /* -ksp_view */
PETSC_INTERN PetscErrorCode KSPPipeKrylovEnd_Private(KSP, PetscInt, PetscBool *);

/* the start of another method's iterations inside a solve that pipeplcg began (the Continue functions
   below): the guards' state of a restart, for a method that needs M and A SPD, and r = b - A x (at its 0,
   the solve's start, as KSPPipeResidual_Private()); r NULL: the caller has it in place */
PETSC_INTERN PetscErrorCode KSPPipeContinueStart_Private(KSP, Mat, PetscInt, Vec);
/* -ksp_view's line on auto residual replacement of pipegropp and chrongear, whose recurrences drift as cg's (KSPPipeOps;
   pipegv and pipeplcg set their own) */
PETSC_INTERN PetscErrorCode KSPPipeGuardViewAutoReplace_Private(KSP, PetscViewer);
/* the auto rule's line for recurrences that drift as cg's or, pipelined, further */
PETSC_INTERN PetscErrorCode KSPPipeGuardViewReplaceRule_Private(PetscViewer, PetscBool);

#endif
