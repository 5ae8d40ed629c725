/* The ASDD sweeps of asddic around the local kernel M (each rank's IC(0) or SGS on its own rows), and
   the set-up estimate of the extreme eigenvalues of M^{-1}A that keeps them positive definite.

   K sweeps of damped Richardson give P_K = [I - (I - w M^{-1}A)^K] A^{-1}: SPD iff
   1 - (1 - w lambda)^K > 0 for every eigenvalue lambda of M^{-1}A, which for even K needs
   w lambda < 2. IC(0) can have lambda > 2, and so can Nakajima's GeoFEM kernel, SGS, once M is block
   diagonal over several ranks (on one rank its lambda are in (0, 1]), so w comes from a Lanczos
   estimate of lambda_max, the way PETSc's KSPChebyshev gets its bounds. K
   Chebyshev sweeps on [emin, emax] give 1 - R_K(lambda) with R_K the scaled Chebyshev polynomial:
   below 1 on (0, emax + emin), so SPD with the same margin, and closer to A^{-1} for the same cost
   (Saad, Iterative Methods for Sparse Linear Systems, 2nd ed., Alg. 12.1); docs/algorithms.md section 3. */
#include <pipeksp/asddicimpl.h>
#include <pipeksp/threadsimpl.h>

#define ASDDIC_BISECT_MAX_IT      100      /* bisection steps on the Sturm count: far more than 1e-14 needs */
#define ASDDIC_BISECT_RTOL        1e-14    /* relative width at which an extreme eigenvalue is found */
#define ASDDIC_ESTEIG_RZ_RTOL     1e-28    /* r^T z below this times its start: the estimate's Krylov space is invariant */
#define ASDDIC_ESTEIG_SEED        0x5eedUL /* the estimate's start vector: reproducible for a given number of ranks */
#define ASDDIC_ESTEIG_SEED_STRIDE 7919UL   /* ... with another seed on each rank */
#define ASDDIC_EMIN_FRACTION      0.01     /* emin = this times emax when the estimate gives no lower bound */

PetscInt PCASDDICThreads_Private(const PC_ASDDIC *a, PetscInt n)
{
  return a->threads ? a->threads : PipeKSPThreadsFor_Private(n);
}

/* z = M^{-1} r: each rank's kernel on its own rows */
PetscErrorCode PCASDDICLocal_Private(PC pc, Vec r, Vec z)
{
  PC_ASDDIC         *a = (PC_ASDDIC *)pc->data;
  const PetscScalar *ra;
  PetscScalar       *za;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PCASDDIC_Sweep, pc, r, z, 0));
  PetscCall(VecGetArrayRead(r, &ra));
  PetscCall(VecGetArrayWrite(z, &za));
  if (a->kernel == PCASDDIC_KERNEL_REFERENCE) {
    PetscCall(PCASDDICSolveLocalReference_Private(a, ra, za));
    PetscCall(PetscLogFlops(2.0 * a->nnzb * a->bs * a->bs));
  } else PetscCall(PCASDDICSolveLocalTuned_Private(a, a->independent || a->nparts > 1 ? PCASDDICThreads_Private(a, a->nb * a->bs) : 1, ra, za)); /* threads share colours or local blocks; logs its flops */
  PetscCall(VecRestoreArrayWrite(z, &za));
  PetscCall(VecRestoreArrayRead(r, &ra));
  PetscCall(PetscLogEventEnd(PCASDDIC_Sweep, pc, r, z, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Eigenvalues of the symmetric tridiagonal (d, off-diagonal squares e2) below x (Sturm count) */
static PetscInt SturmCount(PetscInt n, const PetscReal *d, const PetscReal *e2, PetscReal x)
{
  PetscInt  c = 0;
  PetscReal q = 1;

  for (PetscInt i = 0; i < n; i++) {
    q = d[i] - x - (i ? e2[i - 1] / q : 0);
    if (q == 0) q = -PETSC_MACHINE_EPSILON * (PetscAbsReal(d[i]) + PetscAbsReal(x) + PETSC_MACHINE_EPSILON);
    if (q < 0) c++;
  }
  return c;
}

/* Smallest and largest eigenvalue of the tridiagonal by bisection inside its Gershgorin interval */
static void TridiagExtremes(PetscInt n, const PetscReal *d, const PetscReal *e2, PetscReal *emin, PetscReal *emax)
{
  PetscReal lo = PETSC_MAX_REAL, hi = PETSC_MIN_REAL;

  for (PetscInt i = 0; i < n; i++) {
    PetscReal r = (i ? PetscSqrtReal(e2[i - 1]) : 0) + (i + 1 < n ? PetscSqrtReal(e2[i]) : 0);
    lo          = PetscMin(lo, d[i] - r);
    hi          = PetscMax(hi, d[i] + r);
  }
  for (PetscInt target = 0; target < 2; target++) { /* 0: smallest (count >= 1), 1: largest (count >= n) */
    PetscReal l = lo, h = hi;
    for (PetscInt it = 0; it < ASDDIC_BISECT_MAX_IT && h - l > ASDDIC_BISECT_RTOL * PetscMax(PetscAbsReal(l), PetscAbsReal(h)); it++) {
      PetscReal m = 0.5 * (l + h);
      if (SturmCount(n, d, e2, m) >= (target ? n : 1)) h = m;
      else l = m;
    }
    if (target) *emax = 0.5 * (l + h);
    else *emin = 0.5 * (l + h);
  }
}

/* steps of CG on A u = b, b random, preconditioned by the local kernel: its coefficients give the
   Lanczos tridiagonal of M^{-1}A. Collective; stops early when the Krylov space is exhausted or a
   curvature is not positive (*its: the steps that count, 0 when none did). */
static PetscErrorCode EstimateEigenvalues(PC pc, PetscInt steps, PetscReal *emin, PetscReal *emax, PetscInt *its)
{
  PC_ASDDIC  *a = (PC_ASDDIC *)pc->data;
  Vec         r = a->t, z = a->w, p = a->d, q;
  PetscRandom rnd;
  PetscReal  *d, *e2, alpha, alphaold = 1, beta = 0, rz, rz0, rzold, pq;
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)pc), &rank));
  *its = 0;
  PetscCall(PetscMalloc2(steps, &d, steps, &e2));
  PetscCall(VecDuplicate(r, &q));
  PetscCall(PetscRandomCreate(PetscObjectComm((PetscObject)pc), &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
  /* a seed of each rank's own: with one seed for all, every rank drew the same entries, a start vector periodic
     over the ranks, whose Krylov space misses the modes that are not (the 2 x 2 Laplacian on 2 ranks: an
     eigenvector, the estimate [0.5, 0.5] where M^{-1}A has {0.5, 1.5}, Chebyshev sweeps on [0.5, 0.55] and an
     indefinite P; likewise periodic Laplacians with 2 rows a rank) */
  PetscCall(PetscRandomSetSeed(rnd, ASDDIC_ESTEIG_SEED + ASDDIC_ESTEIG_SEED_STRIDE * (unsigned long)rank));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(VecSetRandom(r, rnd));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PCASDDICLocal_Private(pc, r, z));
  PetscCall(VecDot(r, z, &rz));
  rz0 = rz;
  PetscCall(VecCopy(z, p));
  for (PetscInt k = 0; k < steps; k++) {
    PetscCall(PipeKSPMatMult(pc->pmat, p, q));
    PetscCall(VecDot(p, q, &pq));
    if (!(pq > 0) || !(rz > 0) || PetscIsInfOrNanReal(pq) || PetscIsInfOrNanReal(rz)) break;
    alpha = rz / pq;
    d[k]  = 1 / alpha + (k ? beta / alphaold : 0);
    *its  = k + 1;
    if (k + 1 == steps) break;
    PetscCall(VecAXPY(r, -alpha, q));
    PetscCall(PCASDDICLocal_Private(pc, r, z));
    rzold = rz;
    PetscCall(VecDot(r, z, &rz));
    if (!(rz > ASDDIC_ESTEIG_RZ_RTOL * rz0) || PetscIsInfOrNanReal(rz)) break; /* converged: the eigenvalues found are exact */
    beta  = rz / rzold;
    e2[k] = beta / (alpha * alpha);
    PetscCall(VecAYPX(p, beta, z));
    alphaold = alpha;
  }
  if (*its) TridiagExtremes(*its, d, e2, emin, emax);
  PetscCall(VecDestroy(&q));
  PetscCall(PetscFree2(d, e2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After the numeric factorization: the bounds [emin, emax] of M^{-1}A and the damping the sweeps use */
PetscErrorCode PCASDDICSetUpSweeps_Private(PC pc)
{
  PC_ASDDIC      *a = (PC_ASDDIC *)pc->data;
  PetscMPIInt     size;
  PetscBool       sgs1; /* sgs on one rank: lambda_max(M^{-1}A) <= 1 is known */
  const PetscBool cheb = a->sweep == PCASDDIC_SWEEP_CHEBYSHEV ? PETSC_TRUE : PETSC_FALSE;
  PetscInt        steps;
  PetscLogDouble  t0, t1;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)pc), &size));
  /* one rank: M - A = L D^{-1} L^T >= 0, so lambda_max(M^{-1}A) <= 1 for an SPD A. Over several ranks
     M is block diagonal and M - A holds the couplings between ranks, which are indefinite: the
     eigenvalues go above 1, even above 2 (nearly incompressible elasticity), as for IC(0). */
  sgs1        = (a->local == PCASDDIC_LOCAL_SGS && size == 1 && a->nparts <= 1) ? PETSC_TRUE : PETSC_FALSE; /* local blocks drop couplings as ranks do */
  a->estits   = 0;
  a->emin_est = a->emax_est = 0;
  a->emin = a->emax = 0;
  a->t_est          = 0;
  a->boundsfrom     = "none (undamped sweeps)";
  /* the estimate is needed for Chebyshev's interval and to damp Richardson (but around SGS on one
     rank); one sweep is M^{-1} itself whatever the bounds */
  steps = a->eststeps >= 0 ? a->eststeps : ((a->iterations > 1 && !a->eigsset && (cheb || (!sgs1 && a->omega_user == 0))) ? ASDDIC_ESTEIG_STEPS : 0);
  if (a->eigsset) {
    a->emin       = a->emin_user;
    a->emax       = a->emax_user;
    a->boundsfrom = "set by the user";
  } else if (steps > 0 && !a->failed) {
    PetscCall(PetscLogEventBegin(PCASDDIC_EstEig, pc, 0, 0, 0));
    PetscCall(PetscTime(&t0));
    PetscCall(EstimateEigenvalues(pc, steps, &a->emin_est, &a->emax_est, &a->estits));
    PetscCall(PetscTime(&t1));
    PetscCall(PetscLogEventEnd(PCASDDIC_EstEig, pc, 0, 0, 0));
    a->t_est = t1 - t0;
    a->nestimates++;
    if (a->estits > 0) {
      a->emin       = a->emin_est;
      a->emax       = a->safety * a->emax_est;
      a->boundsfrom = "estimated";
    } else PetscCall(PetscInfo(pc, "eigenvalue estimate of M^-1 A failed (A or M not positive definite on the random vector): sweeps undamped\n"));
  }
  if (sgs1 && !a->eigsset) {
    a->emax = 1;
    if (a->estits > 0) a->boundsfrom = "lambda_max <= 1 (SGS), lambda_min estimated";
    else a->boundsfrom = "lambda_max <= 1 (SGS)";
  }
  a->chebyshev = cheb;
  if (cheb && a->iterations > 1 && !a->failed) { /* a failed PC returns Inf anyway */
    if (!(a->emax > 0)) {
      PetscCheck(steps > 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_WRONGSTATE, "asddic: Chebyshev sweeps need bounds on the eigenvalues of M^-1 A: keep the estimate (-pc_asddic_esteig_steps > 0) or give -pc_asddic_eigenvalues emin,emax");
      a->chebyshev = PETSC_FALSE; /* the estimate broke down: A is not SPD; fall back to GeoFEM's sweeps */
      PetscCall(PetscInfo(pc, "no eigenvalue bounds for Chebyshev sweeps: undamped Richardson sweeps instead\n"));
    } else if (!(a->emin > 0 && a->emin < a->emax)) a->emin = ASDDIC_EMIN_FRACTION * a->emax; /* one Lanczos step: widen downwards */
  }
  if (a->omega_user > 0) a->omega = a->omega_user;
  else if (a->emax > 0) a->omega = PetscMin(1.0, ASDDIC_DAMPING_TARGET / a->emax);
  else a->omega = 1;
  if (a->estits) PetscCall(PetscInfo(pc, "eigenvalues of M^-1 A estimated by %" PetscInt_FMT " CG steps in %g s: [%g, %g]\n", a->estits, a->t_est, (double)a->emin_est, (double)a->emax_est));
  if (a->iterations > 1) {
    if (a->chebyshev) PetscCall(PetscInfo(pc, "%" PetscInt_FMT " Chebyshev sweeps on [%g, %g] (%s)\n", a->iterations, (double)a->emin, (double)a->emax, a->boundsfrom));
    else PetscCall(PetscInfo(pc, "%" PetscInt_FMT " Richardson sweeps, damping %g (%s%s)\n", a->iterations, (double)a->omega, a->omega_user > 0 ? "set by the user; bounds " : "bounds ", a->boundsfrom));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The sweeps' vector work as threaded passes: PETSc 3.18's Vec kernels run on one thread,
   and in a hybrid run their five passes per apply were serial. Each entry is computed as VecScale,
   VecCopy, VecAYPX(-1), VecAXPBY and VecAXPY compute it, and at every thread count, so the result does
   not depend on the threads. */
typedef struct {
  PetscScalar        c1, c2;
  const PetscScalar *x, *w;
  PetscScalar       *y, *d, *t;
} SweepCtx;

static void ChebStart(const void *ctx, PetscInt i0, PetscInt i1, PetscScalar *unused) /* y = c1 y, d = y */
{
  const SweepCtx *c = (const SweepCtx *)ctx;

  (void)unused;
  for (PetscInt i = i0; i < i1; i++) {
    c->y[i] = c->c1 * c->y[i];
    c->d[i] = c->y[i];
  }
}

static void SweepResidual(const void *ctx, PetscInt i0, PetscInt i1, PetscScalar *unused) /* t = x - t */
{
  const SweepCtx *c = (const SweepCtx *)ctx;

  (void)unused;
  for (PetscInt i = i0; i < i1; i++) c->t[i] = c->x[i] - c->t[i];
}

static void ChebUpdate(const void *ctx, PetscInt i0, PetscInt i1, PetscScalar *unused) /* d = c1 w + c2 d, y += d */
{
  const SweepCtx *c = (const SweepCtx *)ctx;

  (void)unused;
  for (PetscInt i = i0; i < i1; i++) {
    c->d[i] = c->c1 * c->w[i] + c->c2 * c->d[i];
    c->y[i] = c->y[i] + c->d[i];
  }
}

static PetscErrorCode SweepPass(PC pc, PipeKSPBlockFn fn, PetscScalar c1, PetscScalar c2, Vec x, Vec w, Vec y, Vec d, Vec t, PetscLogDouble flops)
{
  PC_ASDDIC *a = (PC_ASDDIC *)pc->data;
  SweepCtx   c = {c1, c2, NULL, NULL, NULL, NULL, NULL};
  PetscInt   n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(y ? y : t, &n));
  if (x) PetscCall(VecGetArrayRead(x, &c.x));
  if (w) PetscCall(VecGetArrayRead(w, &c.w));
  if (y) PetscCall(VecGetArray(y, &c.y));
  if (d) PetscCall(VecGetArray(d, &c.d));
  if (t) PetscCall(VecGetArray(t, &c.t));
  PetscCall(PipeKSPThreadedBlocks_Private(PCASDDICThreads_Private(a, n), n, 0, fn, &c, flops, NULL));
  if (t) PetscCall(VecRestoreArray(t, &c.t));
  if (d) PetscCall(VecRestoreArray(d, &c.d));
  if (y) PetscCall(VecRestoreArray(y, &c.y));
  if (w) PetscCall(VecRestoreArrayRead(w, &c.w));
  if (x) PetscCall(VecRestoreArrayRead(x, &c.x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = P_K x; transpose: the same polynomial with A^T (M is symmetric by construction) */
PetscErrorCode PCASDDICApply_Private(PC pc, Vec x, Vec y, PetscBool transpose)
{
  PC_ASDDIC *a = (PC_ASDDIC *)pc->data;
  Vec        t = a->t, w = a->w, d = a->d;
  PetscBool  symm = PETSC_FALSE, known = PETSC_FALSE;

  PetscFunctionBegin;
  if (transpose) {
    PetscCall(MatIsSymmetricKnown(pc->pmat, &known, &symm));
    if (known && symm) transpose = PETSC_FALSE;
  }
#define ASDDIC_MATMULT(u, v) (transpose ? MatMultTranspose(pc->pmat, u, v) : PipeKSPMatMult(pc->pmat, u, v))
  PetscCall(PCASDDICLocal_Private(pc, x, y));
  if (a->iterations == 1) PetscFunctionReturn(PETSC_SUCCESS);
  if (!a->chebyshev) {
    if (a->omega != 1) PetscCall(VecScale(y, a->omega));
    for (PetscInt it = 1; it < a->iterations; it++) {
      PetscCall(ASDDIC_MATMULT(y, t));
      PetscCall(SweepPass(pc, SweepResidual, 0, 0, x, NULL, NULL, NULL, t, 1));
      PetscCall(PCASDDICLocal_Private(pc, t, w));
      PetscCall(VecAXPY(y, a->omega, w));
    }
  } else {
    const PetscReal theta = 0.5 * (a->emax + a->emin), delta = 0.5 * (a->emax - a->emin), sigma = theta / delta;
    PetscReal       rho = 1 / sigma, rhonew;
    PetscCall(SweepPass(pc, ChebStart, 1 / theta, 0, NULL, NULL, y, d, NULL, 1));
    for (PetscInt it = 1; it < a->iterations; it++) {
      PetscCall(ASDDIC_MATMULT(y, t));
      PetscCall(SweepPass(pc, SweepResidual, 0, 0, x, NULL, NULL, NULL, t, 1));
      PetscCall(PCASDDICLocal_Private(pc, t, w));
      rhonew = 1 / (2 * sigma - rho);
      PetscCall(SweepPass(pc, ChebUpdate, 2 * rhonew / delta, rhonew * rho, NULL, w, y, d, NULL, 5));
      rho = rhonew;
    }
  }
#undef ASDDIC_MATMULT
  PetscFunctionReturn(PETSC_SUCCESS);
}
