/* pipeplcg's interval for the shifts: the Lanczos estimate of M^{-1}A's spectrum, the extreme Ritz values of
   a solve's own Lanczos coefficients (for the next solve on changed values) and Simon's estimate of the
   basis' loss of orthogonality (docs/pipeplcg.md) */
#include <pipeksp/pipeplcgimpl.h>
#include <petsc/private/pcimpl.h> /* the PC's failed reason on this rank */

/* Ritz values of a Lanczos tridiagonal T = tridiag(e, g, e) by Sturm-sequence bisection */
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

/* T = tridiag(e, g, e) of order n >= 1: Gershgorin's interval [lo, hi]; false when an entry is not finite */
static PetscBool TridiagGershgorin(PetscInt n, const PetscReal g[], const PetscReal e[], PetscReal *lo, PetscReal *hi)
{
  *lo = PETSC_MAX_REAL;
  *hi = -PETSC_MAX_REAL;
  for (PetscInt i = 0; i < n; i++) {
    PetscReal r = (i > 0 ? PetscAbsReal(e[i - 1]) : 0.0) + (i + 1 < n ? PetscAbsReal(e[i]) : 0.0);
    if (PetscIsInfOrNanReal(g[i]) || PetscIsInfOrNanReal(r)) return PETSC_FALSE;
    *lo = PetscMin(*lo, g[i] - r);
    *hi = PetscMax(*hi, g[i] + r);
  }
  return PETSC_TRUE;
}

/* the (k+1)-th smallest eigenvalue of T, by bisection in [lo, hi] (Gershgorin's): no LAPACK routine that a
   PETSc build may lack, and microseconds for the 64 x 64 tridiagonals kept */
static PetscReal TridiagEig(PetscInt n, const PetscReal g[], const PetscReal e[], PetscReal lo, PetscReal hi, PetscInt k)
{
  for (int it = 0; it < 200 && hi - lo > 1e-12 * PetscMax(PetscAbsReal(lo), PetscAbsReal(hi)); it++) {
    PetscReal mid = 0.5 * (lo + hi);
    if (SturmCount(n, g, e, mid) <= k) lo = mid;
    else hi = mid;
  }
  return hi;
}

/* T's smallest and largest eigenvalues; -1, -1 when an entry is not finite */
static void TridiagExtremeEigs(PetscInt n, const PetscReal g[], const PetscReal e[], PetscReal *emin, PetscReal *emax)
{
  PetscReal lo, hi;

  *emin = *emax = -1.0;
  if (!TridiagGershgorin(n, g, e, &lo, &hi)) return;
  *emin = TridiagEig(n, g, e, lo, hi, 0);
  *emax = TridiagEig(n, g, e, lo, hi, n - 1);
}

/* the weight of T's largest eigenvalue theta in the Gauss quadrature of the Lanczos start vector's spectral
   measure: the squared first component of its eigenvector, from the interlacing of T's eigenvalues theta_j
   and those mu_j of T without its first row and column (Golub and Welsch): prod_j (theta - mu_j) /
   prod_{j < n-1} (theta - theta_j), every factor in (0, 1]. 0 when it cannot be formed */
static PetscReal TridiagTopWeight(PetscInt n, const PetscReal g[], const PetscReal e[])
{
  PetscReal lo, hi, th, w = 1.0;

  if (n < 2 || !TridiagGershgorin(n, g, e, &lo, &hi)) return 0.0;
  th = TridiagEig(n, g, e, lo, hi, n - 1);
  for (PetscInt j = 0; j < n - 1; j++) {
    PetscReal num = th - TridiagEig(n - 1, g + 1, e + 1, lo, hi, j), den = th - TridiagEig(n, g, e, lo, hi, j);

    if (!(den > 0) || !(num >= 0)) return 0.0;
    w *= PetscMin(1.0, num / den);
  }
  return w;
}

/* f of the estimated interval [0, f theta]: the user's, or by the shape of the spectrum's top that the last
   estimate found (PLCG_TOP_DENSE); with an interval given, the sparse one (||B|| = lmax / f) */
PetscReal KSPPipePLCGFactor_Private(const KSP_PLCG *d)
{
  if (d->eig_factor > 0) return d->eig_factor;
  return !d->user_eig && KSPPipePLCGTopDense_Private(d) ? PLCG_FACTOR_DENSE : PLCG_FACTOR_SPARSE;
}

/* an interval the arithmetic can carry (PLCG_EIG_*) */
PetscBool KSPPipePLCGUsableBounds_Private(PetscReal lmin, PetscReal lmax)
{
  return (PetscBool)(!PetscIsInfOrNanReal(lmin) && !PetscIsInfOrNanReal(lmax) && lmin >= 0 && lmax > lmin && lmax >= PLCG_EIG_MIN && lmax <= PLCG_EIG_MAX && (lmin == 0 || lmax / lmin <= PLCG_EIG_RATIO));
}

/* [0, f theta_max]: theta_max from eig_its CG iterations (Lanczos) on a random right-hand side, with the
   solver's own operators and PC. Done again only when the matrices change.
   The start vector has no component in the operator's null space (MatGetNullSpace()): CG on a singular
   operator with one breaks down as an indefinite PC would. A failed estimate (the CG broke down, or an
   interval the arithmetic cannot carry) sets estfailed: the solves run at depth 1 as Gropp's CG (pipegropp),
   which need no interval, rather than on a guessed one.
   The CG is our own, not a KSPCG inside: its coefficients give the whole Lanczos tridiagonal, gamma_k =
   1/alpha_k + beta_{k-1}/alpha_{k-1}, delta_k = sqrt(beta_k)/alpha_k, whose top Ritz value's quadrature
   weight tells the shape of the spectrum's top (KSPPipePLCGFactor_Private()). *n: the steps completed;
   *why: cg's reason where the CG broke down as PETSc's cg would (an indefinite PC or matrix, Inf or NaN, a
   failed PC), 0 otherwise */
static PetscErrorCode PLCGLanczos(KSP ksp, Vec w[4], PetscInt its, PetscReal g[], PetscReal e[], PetscInt *n, KSPConvergedReason *why)
{
  Vec          r = w[0], z = w[1], p = w[2], q = w[3];
  PetscRandom  rnd;
  Mat          A;
  MatNullSpace nsp;
  PetscScalar  rz, rzn, pq;
  PetscReal    a, b = 0.0, ap = 0.0, bp = 0.0;

  PetscFunctionBegin;
  *n   = 0;
  *why = KSP_CONVERGED_ITERATING;
  PetscCall(PetscRandomCreate(PetscObjectComm((PetscObject)ksp), &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
  PetscCall(VecSetRandom(r, rnd));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PCGetOperators(ksp->pc, &A, NULL));
  PetscCall(MatGetNullSpace(A, &nsp));
  if (nsp) PetscCall(MatNullSpaceRemove(nsp, r));
  PetscCall(KSP_PCApply(ksp, r, z));
  PetscCall(VecDot(z, r, &rz));
  for (PetscInt k = 0; k < its; k++) {
    if (PetscIsInfOrNanScalar(rz)) {
      PetscInt fl = (PetscInt)ksp->pc->failedreason, any;

      /* as PETSc's cg: the PC's failure becomes every rank's */
      PetscCall(MPIU_Allreduce(&fl, &any, 1, MPIU_INT, MPI_MAX, PetscObjectComm((PetscObject)ksp)));
      if (any) PetscCall(PCSetFailedReason(ksp->pc, (PCFailedReason)any));
      *why = any ? KSP_DIVERGED_PC_FAILED : KSP_DIVERGED_NANORINF;
      break;
    }
    if (PetscRealPart(rz) < 0) {
      *why = KSP_DIVERGED_INDEFINITE_PC;
      break;
    }
    if (PetscRealPart(rz) == 0) break; /* an invariant Krylov space: the steps so far have every Ritz value */
    if (k == 0) PetscCall(VecCopy(z, p));
    else PetscCall(VecAYPX(p, b, z));
    PetscCall(KSP_MatMult(ksp, A, p, q));
    PetscCall(VecDot(q, p, &pq));
    if (PetscIsInfOrNanScalar(pq)) {
      *why = KSP_DIVERGED_NANORINF;
      break;
    }
    if (!(PetscRealPart(pq) > 0)) {
      *why = KSP_DIVERGED_INDEFINITE_MAT;
      break;
    }
    a = PetscRealPart(rz) / PetscRealPart(pq);
    PetscCall(VecAXPY(r, -a, q));
    PetscCall(KSP_PCApply(ksp, r, z));
    PetscCall(VecDot(z, r, &rzn));
    b    = PetscRealPart(rzn) / PetscRealPart(rz);
    g[k] = 1.0 / a + (k > 0 ? bp / ap : 0.0);
    e[k] = PetscSqrtReal(PetscMax(b, 0.0)) / a; /* a negative beta ends the next step: e[k] is then not used */
    *n   = k + 1;
    ap   = a;
    bp   = b;
    rz   = rzn;
  }
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
  KSP_PLCG          *d = (KSP_PLCG *)ksp->data;
  Vec               *w;
  PetscReal          emax = 0, emin = 0, f, *g, *e;
  PetscInt           n, k;
  KSPConvergedReason why;
  KSPPipePLCGOpKey   cur;
  PetscErrorCode     ierr;

  PetscFunctionBegin;
  PetscCall(KSPPipePLCGOpKeyGet_Private(ksp, &cur));
  if (d->nestimates && KSPPipePLCGOpKeySame_Private(&cur, &d->est, PETSC_TRUE)) PetscFunctionReturn(PETSC_SUCCESS);
  if (d->eig_reuse && d->theta > 0 && KSPPipePLCGOpKeySame_Private(&cur, &d->ritz, PETSC_FALSE) && KSPPipePLCGUsableBounds_Private(PLCG_RITZ_LOW * d->thetalo, KSPPipePLCGFactor_Private(d) * d->theta)) {
    /* the same matrices with new values (a time step, a Newton step) and the same PC type: the previous
       solve's largest Ritz value of M^{-1}A stands in for the estimate, with no SpMV or PC application; a
       spectrum that moved past it shows as basis growth and lowers the depth (KSPPipePLCGBreakdown_Private()), and this
       solve's Ritz values refresh it */
    d->est       = cur;
    d->emin      = d->thetalo;
    d->emax      = d->theta;
    d->lmin      = PLCG_RITZ_LOW * d->thetalo;
    d->lmax      = KSPPipePLCGFactor_Private(d) * d->theta;
    d->estfailed = PETSC_FALSE;
    d->fromritz  = PETSC_TRUE;
    d->nritz++;
    PetscCall(PetscInfo(ksp, "operator changed: shifts on [%g, %g] from the previous solve's extreme Ritz values %g, %g, no estimate\n", (double)d->lmin, (double)d->lmax, (double)d->thetalo, (double)d->theta));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(VecDuplicateVecs(ksp->vec_rhs, 4, &w));
  PetscCall(PetscMalloc2(d->eig_its, &g, d->eig_its, &e));
  /* an error (of the PC, say) leaves nothing behind */
  d->topw = 0.0;
  ierr    = PLCGLanczos(ksp, w, d->eig_its, g, e, &n, &why);
  k       = PetscMin(n, PLCG_TOP_STEPS); /* the first steps' tridiagonal: what the thresholds were measured on */
  if (!ierr && !why && n > 0) {
    TridiagExtremeEigs(n, g, e, &emin, &emax);
    d->topw = TridiagTopWeight(k, g, e) * (PetscReal)k * (PetscReal)k;
  }
  PetscCall(PetscFree2(g, e));
  PetscCall(VecDestroyVecs(4, &w));
  PetscCall(ierr);
  if (why) PetscCall(PetscInfo(ksp, "eigenvalue estimate: the CG ended with %s after %" PetscInt_FMT " iterations\n", KSPConvergedReasons[why], n));
  if (why == KSP_DIVERGED_PC_FAILED) { /* the PC failed, not the depth: no interval kept, the solve meets the failure as cg does */
    d->estpcfail = PETSC_TRUE;
    d->estfailed = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  d->nestimates++;
  d->fromritz  = PETSC_FALSE;
  d->est       = cur;
  d->emin      = emin;
  d->emax      = emax;
  f            = KSPPipePLCGFactor_Private(d);
  d->estfailed = (PetscBool)!KSPPipePLCGUsableBounds_Private(0.0, f * emax);
  if (d->estfailed) { /* indefinite or broken PC, or out of range: depth 1, whose solve reports a breakdown as cg */
    PetscCall(PetscInfo(ksp, "eigenvalue estimate failed (largest Ritz value %g): the solves run at depth 1 (shift %g)\n", (double)emax, 0.5));
    emax = 1.0 / f;
  }
  d->lmin = 0.0;
  d->lmax = f * emax;
  PetscCall(PetscInfo(ksp, "Lanczos estimate of M^{-1}A after %" PetscInt_FMT " CG iterations: [%g, %g], the top %s (n^2 x the weight of the largest Ritz value of the first n = %d steps: %g); shifts on [%g, %g]\n", n, (double)emin, (double)emax, KSPPipePLCGTopDense_Private(d) ? "dense" : "sparse", (int)k,
                      (double)d->topw, (double)d->lmin, (double)d->lmax));
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

/* a segment's start: Simon's recurrence from step 0, at depth 1 none (the pivot test then uses sqrt(eps)) */
void KSPPipePLCGOmegaStart_Private(KSP_PLCG *d)
{
  d->omn    = d->lrun > 1 ? 0 : -1;
  d->omlast = 0.0;
}

/* Simon's recurrence for omega_{j+1,k} ~ (v_{j+1}, v_k) from the tridiagonal of the segment (alpha_j =
   gamma_j, beta_{j+1} = delta_j), with a rounding term of alternating sign (the same on every rank): the
   largest |omega_{j+1,k}|, k < j; 0 beyond PLCG_OMEGA_N steps */
PetscReal KSPPipePLCGOmegaStep_Private(KSP_PLCG *d, PetscInt j, PetscReal alpha, PetscReal beta)
{
  PetscReal *prev, *cur, *nxt, t, mx = 0.0, eps = PETSC_MACHINE_EPSILON;
  PetscInt   k;

  if (j >= PLCG_OMEGA_N || beta == 0.0 || j != d->omn) {
    d->omn = -1; /* no estimate for the rest of the segment */
    return 0.0;
  }
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
  d->omlast  = mx;
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
