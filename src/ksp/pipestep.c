/* The scalar side of one iteration of the pipelined KSP types: the monitored norm and the convergence
   test, cg's breakdown tests on the signs of (r,M^{-1}r) and (p,Ap), the CG coefficients of the
   single-reduction recurrences, and KSPPipeTestIteration_Private() that runs them with the guards
   (src/ksp/pipeguard.c) after each reduction. */
#include <pipeksp/pipeguard.h>

PetscErrorCode KSPPipeConvergenceTest_Private(KSP ksp, PetscInt its, PetscReal dp)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  if (!its) {
    pipe->guard.rnorm0 = dp;
    pipe->guard.dp1 = pipe->guard.dp2 = -1.0;
  }
  PetscCall(PetscObjectSAWsTakeAccess((PetscObject)ksp));
  ksp->its   = its;
  ksp->rnorm = dp;
  PetscCall(PetscObjectSAWsGrantAccess((PetscObject)ksp));
  /* once per iteration, as cg: an iteration tested again (the true residual of a restart or of a claim's check)
     was monitored and logged already (a monitor saw iteration 6 twice, and the history had its + 2 entries) */
  if (its != pipe->guard.itmon) {
    PetscCall(KSPLogResidualHistory(ksp, dp));
    PetscCall(KSPMonitor(ksp, its, dp));
    pipe->guard.itmon = its;
  }
  PetscCall(KSPPipeConvergenceTestUnmonitored_Private(ksp, its, dp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPPipeConvergenceTestUnmonitored_Private(KSP ksp, PetscInt its, PetscReal dp)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  ksp->its   = its;
  ksp->rnorm = dp;
  if (pipe->guard.hasbreak && pipe->guard.rnbreak < 0 && its == pipe->guard.itsbreak) pipe->guard.rnbreak = dp; /* the recorded breakdown's norm */
  /* with no norm a test sees (its, 0) only: the same iteration tested again (a restart's true residual) gets
     the verdict it had, where a user's test was called once more after each restart */
  if (ksp->normtype == KSP_NORM_NONE && its == pipe->guard.ittest) ksp->reason = pipe->guard.itverdict;
  else {
    PetscCall((*ksp->converged)(ksp, its, dp, &ksp->reason, ksp->cnvP));
    pipe->guard.ittest    = its;
    pipe->guard.itverdict = ksp->reason;
  }
  pipe->guard.dp2 = pipe->guard.dp1; /* KSPPipeLastLikely_Private() guesses from the last two */
  pipe->guard.dp1 = dp;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscBool KSPPipeLastLikely_Private(KSP ksp, PetscInt its)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;
  PetscBool last;

  if (its >= KSPPipeMaxIt_Private(ksp)) last = PETSC_TRUE;
  /* another test than PETSc's default, or no norm: nothing to predict with */
  else if (ksp->converged != KSPConvergedDefault || ksp->normtype == KSP_NORM_NONE || !(pipe->guard.dp2 > 0 && pipe->guard.dp1 >= 0)) last = PETSC_FALSE;
  else {
    PetscReal rho = PetscMin(1.0, pipe->guard.dp1 / pipe->guard.dp2);

    /* the default test's tolerance ttol, set at this solve's iteration 0 (||b|| for a nonzero guess) */
    last = (PetscBool)(rho * pipe->guard.dp1 < ksp->ttol);
  }
  if (last) { /* the caller waits first: counted (waited_first) */
    pipe->nfirst_solve++;
    pipe->nfirst_total++;
  }
  return last;
}

PetscReal KSPPipeNorm_Private(KSP ksp, PetscScalar rr, PetscScalar uu, PetscScalar ru)
{
  switch (ksp->normtype) {
  case KSP_NORM_PRECONDITIONED:
    return PetscSqrtReal(PetscAbsScalar(uu));
  case KSP_NORM_UNPRECONDITIONED:
    return PetscSqrtReal(PetscAbsScalar(rr));
  case KSP_NORM_NATURAL:
    return PetscSqrtReal(PetscAbsScalar(ru));
  default:
    return 0.0;
  }
}

/* cg breaks down when (r,M^{-1}r) or (p,Ap) changes sign during a solve: a negative definite M or A
   (or both) gives the same iterates as the positive one. The first value sets the sign; a value of
   the other sign (or a zero (p,Ap)) is the breakdown and does not change the sign kept */
PetscBool KSPPipeSignChanged_Private(PetscReal *sign, PetscScalar v)
{
  const PetscReal r = PetscRealPart(v);

  if (r == 0.0 || *sign * r < 0.0) return PETSC_TRUE;
  *sign = r > 0.0 ? 1.0 : -1.0;
  return PETSC_FALSE;
}

PetscErrorCode KSPPipeCheckGamma_Private(KSP ksp, PetscScalar gamma, PetscBool strict)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  if (gamma == 0.0) {
    ksp->reason = KSP_CONVERGED_ATOL; /* as PETSc's cg: M^{-1} r = 0 */
    PetscCall(PetscInfo(ksp, "converged due to (r,M^{-1}r) = 0\n"));
  } else if (strict ? PetscRealPart(gamma) < 0.0 : KSPPipeSignChanged_Private(&pipe->guard.gsign, gamma)) {
    ksp->reason = KSP_DIVERGED_INDEFINITE_PC;
    PetscCall(PetscInfo(ksp, "diverging due to indefinite preconditioner, (r,M^{-1}r) = %g%s\n", (double)PetscRealPart(gamma), strict ? "" : " after values of the other sign"));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPPipeCoefficients_Private(KSP ksp, PetscBool first, PetscScalar gamma, PetscScalar delta, PetscScalar gammaold, PetscScalar alphaold, PetscScalar *alpha, PetscScalar *beta)
{
  PetscScalar den;

  PetscFunctionBegin;
  if (first) {
    *beta = 0.0;
    den   = delta;
  } else {
    if (gammaold == 0.0 || alphaold == 0.0) {
      ksp->reason = KSP_DIVERGED_BREAKDOWN;
      *alpha = *beta = 0.0; /* no step, where the guards iterate on from it */
      PetscCall(PetscInfo(ksp, "breakdown: zero gamma or alpha of the previous iteration\n"));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    *beta = gamma / gammaold;
    den   = delta - *beta * gamma / alphaold; /* = (p,Ap) */
  }
  if (PetscIsInfOrNanScalar(den)) {
    ksp->reason = KSP_DIVERGED_NANORINF;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* this step's alpha also where the sign check fails: a breakdown of rounding noise at the floor that the guards
     iterate on from takes this step, not the last one's */
  *alpha = den != 0.0 ? gamma / den : 0.0;
  if (KSPPipeSignChanged_Private(&((KSP_Pipe *)ksp->data)->guard.dsign, den)) {
    ksp->reason = KSP_DIVERGED_INDEFINITE_MAT;
    PetscCall(PetscInfo(ksp, "diverging due to indefinite matrix, (p,Ap) = %g after values of the other sign (or 0)\n", (double)PetscRealPart(den)));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the two halves of KSPPipeTestIteration_Private(): the norm, the test, the guards and the limit (*stop when
   ksp->reason ends the solve); then gamma's sign, the coefficients and the breakdown guard */
static PetscErrorCode TestNorm(KSP ksp, PetscInt its, PetscScalar rr, PetscScalar uu, PetscScalar gamma, PetscReal rn, PetscReal xn, PetscBool *stop)
{
  PetscFunctionBegin;
  PetscCall(KSPPipeConvergenceTest_Private(ksp, its, KSPPipeNorm_Private(ksp, rr, uu, gamma)));
  PetscCall(KSPPipeGuardAfterTest_Private(ksp, rn, xn));
  /* at the limit a claim the gap estimate does not vouch for is checked first: the restart tests the true
     residual at this iteration and ends there either way (a 1-D Laplacian of 6 rows capped at 6 ended
     DIVERGED_ITS where cg and the true residual converge) */
  if (!ksp->reason && its >= KSPPipeMaxIt_Private(ksp) && !((KSP_Pipe *)ksp->data)->guard.suspect) ksp->reason = KSP_DIVERGED_ITS;
  *stop = (PetscBool)(ksp->reason != KSP_CONVERGED_ITERATING);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestCoefficients(KSP ksp, PetscScalar gamma, KSPPipeCoef *coef, PetscBool *stop, PetscBool *restart)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  *stop = *restart = PETSC_FALSE;
  if (gamma == 0.0 && !pipe->guard.restart && KSPPipeTestCounts_Private(ksp)) {
    /* a recursive 0 under a test that counts iterations: b - A x decides (a 1-D Laplacian of 2 rows, no norm, a
       user's test to 4: ours ended CONVERGED_ATOL at 3 with b - A x = 1e-17, cg CONVERGED_ITS at 4) */
    PetscCall(PetscInfo(ksp, "(r,M^{-1}r) = 0 from the recurrences, under a test that counts iterations: checking the true residual\n"));
    pipe->guard.suspect = PETSC_TRUE;
    PetscCall(KSPPipeGuardBreakdown_Private(ksp, restart));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(KSPPipeCheckGamma_Private(ksp, gamma, PETSC_FALSE));
  if (ksp->reason == KSP_CONVERGED_ATOL) { /* gamma = 0 */
    *stop = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (coef && !ksp->reason) PetscCall(KSPPipeCoefficients_Private(ksp, pipe->guard.restart, gamma, coef->delta, coef->gammaold, coef->alphaold, &coef->alpha, &coef->beta));
  if (ksp->reason == KSP_DIVERGED_NANORINF) { /* no restart can mend an Inf or NaN in the data */
    *stop = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(KSPPipeGuardBreakdown_Private(ksp, restart));
  if (ksp->reason) *stop = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPPipeTestIteration_Private(KSP ksp, PetscInt its, PetscScalar rr, PetscScalar uu, PetscScalar gamma, PetscReal rn, PetscReal xn, KSPPipeCoef *coef, PetscBool *stop, PetscBool *restart)
{
  PetscFunctionBegin;
  *restart = PETSC_FALSE;
  PetscCall(TestNorm(ksp, its, rr, uu, gamma, rn, xn, stop));
  if (!*stop) PetscCall(TestCoefficients(ksp, gamma, coef, stop, restart));
  PetscFunctionReturn(PETSC_SUCCESS);
}
