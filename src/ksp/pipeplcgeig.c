/* pipeplcg's interval for the shifts: the Lanczos estimate of M^{-1}A's spectrum, the extreme Ritz values of
   a solve's own Lanczos coefficients (for the next solve on changed values) and Simon's estimate of the
   basis' loss of orthogonality (docs/pipeplcg.md) */
#include <pipeksp/pipeplcgimpl.h>

/* The extreme Ritz values of a Lanczos tridiagonal by Sturm-sequence bisection: no LAPACK routine that a
   PETSc build may lack, and microseconds for the 64 x 64 tridiagonals kept */
/* eigenvalues of T below x: the sign changes of the LDL^T pivots of T - x I */
static PetscInt SturmCount(PetscInt n, const PetscReal g[], const PetscReal e[], PetscReal x)
{
  PetscReal q   = g[0] - x;
  PetscInt  cnt = q < 0;

  for (PetscInt i = 1; i < n; i++) {
    if (q == 0) q = PETSC_MACHINE_EPSILON * (PetscAbsReal(e[i - 1]) + PETSC_SMALL);
    q = g[i] - x - e[i - 1] * e[i - 1] / q;
    cnt += q < 0;
  }
  return cnt;
}

/* T = tridiag(e, g, e) of order n >= 1: its smallest and largest eigenvalues; -1, -1 when an entry is not
   finite */
static void TridiagExtremeEigs(PetscInt n, const PetscReal g[], const PetscReal e[], PetscReal *emin, PetscReal *emax)
{
  PetscReal lo = PETSC_MAX_REAL, hi = -PETSC_MAX_REAL;

  *emin = *emax = -1.0;
  for (PetscInt i = 0; i < n; i++) { /* Gershgorin's interval */
    PetscReal r = (i > 0 ? PetscAbsReal(e[i - 1]) : 0.0) + (i + 1 < n ? PetscAbsReal(e[i]) : 0.0);
    if (PetscIsInfOrNanReal(g[i]) || PetscIsInfOrNanReal(r)) return;
    lo = PetscMin(lo, g[i] - r);
    hi = PetscMax(hi, g[i] + r);
  }
  for (int m = 0; m < 2; m++) { /* m = 0: the eigenvalue with n - 1 below it; m = 1: the one with none */
    PetscReal a = lo, b = hi;
    for (int k = 0; k < 200 && b - a > 1e-12 * PetscMax(PetscAbsReal(a), PetscAbsReal(b)); k++) {
      PetscReal mid = 0.5 * (a + b);
      if (SturmCount(n, g, e, mid) < (m ? 1 : n)) a = mid;
      else b = mid;
    }
    if (m) *emin = b;
    else *emax = b;
  }
}

/* an interval the arithmetic can carry (PLCG_EIG_*) */
PetscBool KSPPipePLCGUsableBounds_Private(PetscReal lmin, PetscReal lmax)
{
  return (PetscBool)(!PetscIsInfOrNanReal(lmin) && !PetscIsInfOrNanReal(lmax) && lmin >= 0 && lmax > lmin && lmax >= PLCG_EIG_MIN && lmax <= PLCG_EIG_MAX && (lmin == 0 || lmax / lmin <= PLCG_EIG_RATIO));
}

/* [0, f theta_max]: theta_max from eig_its CG iterations (Lanczos) on a random right-hand side, with the
   solver's own operators and PC; f just below 1 keeps the basis well conditioned once the top Ritz value
   has converged (docs/pipeplcg.md). Done again only when the matrices change.
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
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPPipePLCGOpKeyGet_Private(KSP ksp, KSPPipePLCGOpKey *k)
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
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the same matrix objects and PC type (values: also the same states) */
PetscBool KSPPipePLCGOpKeySame_Private(const KSPPipePLCGOpKey *a, const KSPPipePLCGOpKey *b, PetscBool values)
{
  PetscBool same = (PetscBool)(a->aid == b->aid && a->pid == b->pid && !strcmp(a->pc, b->pc));
  return (PetscBool)(same && (!values || (a->as == b->as && a->ps == b->ps)));
}

PetscErrorCode KSPPipePLCGEstimate_Private(KSP ksp)
{
  KSP_PLCG        *d = (KSP_PLCG *)ksp->data;
  KSP              inner;
  Vec              rhs, sol;
  PetscReal        emax = 0, emin = 0;
  KSPPipePLCGOpKey cur;
  PetscErrorCode   ierr;

  PetscFunctionBegin;
  PetscCall(KSPPipePLCGOpKeyGet_Private(ksp, &cur));
  if (d->nestimates && KSPPipePLCGOpKeySame_Private(&cur, &d->est, PETSC_TRUE)) PetscFunctionReturn(PETSC_SUCCESS);
  if (d->eig_reuse && d->theta > 0 && KSPPipePLCGOpKeySame_Private(&cur, &d->ritz, PETSC_FALSE) && KSPPipePLCGUsableBounds_Private(PLCG_RITZ_LOW * d->thetalo, d->eig_factor * d->theta)) {
    /* the same matrices with new values (a time step, a Newton step) and the same PC type: the previous
       solve's largest Ritz value of M^{-1}A stands in for the estimate, with no SpMV or PC application; a
       spectrum that moved past it shows as basis growth and lowers the depth (KSPPipePLCGBreakdown_Private()), and this
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
    PetscFunctionReturn(PETSC_SUCCESS);
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
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  d->nestimates++;
  d->fromritz  = PETSC_FALSE;
  d->est       = cur;
  d->emin      = emin;
  d->emax      = emax;
  d->estfailed = (PetscBool)!KSPPipePLCGUsableBounds_Private(0.0, d->eig_factor * emax);
  if (d->estfailed) { /* indefinite or broken PC, or out of range: depth 1, whose solve reports a breakdown as cg */
    PetscCall(PetscInfo(ksp, "eigenvalue estimate failed (largest Ritz value %g): the solves run at depth 1 (shift %g)\n", (double)emax, 0.5));
    emax = 1.0 / d->eig_factor;
  }
  d->lmin = 0.0;
  d->lmax = d->eig_factor * emax;
  PetscCall(PetscInfo(ksp, "Lanczos estimate of M^{-1}A after %" PetscInt_FMT " CG iterations: [%g, %g]; shifts on [%g, %g]\n", d->eig_its, (double)emin, (double)emax, (double)d->lmin, (double)d->lmax));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* closes the segment of Lanczos coefficients since the last (re)start: its largest Ritz value joins the
   solve's (each segment's Ritz values lie in the spectrum of M^{-1}A, so the largest of them is the best
   lower bound of its top) */
static void PLCGRitzClose(KSP_PLCG *d)
{
  if (d->rn >= 2) {
    PetscReal lo, hi;

    TridiagExtremeEigs(d->rn, d->rg, d->re, &lo, &hi);
    d->theta_solve   = PetscMax(d->theta_solve, hi);
    d->thetalo_solve = PetscMin(d->thetalo_solve, lo);
  }
  d->rnmax = PetscMax(d->rnmax, d->rn);
  d->rn    = 0;
}

/* gamma_i, delta_i of the Lanczos tridiagonal, i counted from the segment's start */
void KSPPipePLCGRitzAdd_Private(KSP_PLCG *d, PetscInt i, PetscScalar g, PetscScalar dl)
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
PetscReal KSPPipePLCGOmegaStep_Private(KSP_PLCG *d, PetscInt j, PetscReal alpha, PetscReal beta)
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
   preconditioner's few Ritz values already span what the solve needed) */
PetscErrorCode KSPPipePLCGRitzKeep_Private(KSP ksp)
{
  KSP_PLCG *d = (KSP_PLCG *)ksp->data;

  PetscFunctionBegin;
  PLCGRitzClose(d);
  if (d->user_eig || !(d->theta_solve > 0) || d->rnmax < (ksp->reason > 0 ? PLCG_EIG_ITS_MIN : d->eig_its)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(KSPPipePLCGOpKeyGet_Private(ksp, &d->ritz));
  d->theta   = d->theta_solve;
  d->thetalo = PetscMax(0.0, d->thetalo_solve);
  PetscFunctionReturn(PETSC_SUCCESS);
}
