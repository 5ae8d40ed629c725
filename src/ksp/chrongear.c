/* KSP chrongear: Chronopoulos-Gear CG (ALGORITHMS.md section 1, #2). One blocking reduction per
   iteration with gamma = (r,u), delta = (w,u) and the norm packed; the 4 updates share one pass. */
#include <pipeksp/pipecommon.h>
#include <pipeksp/threadsimpl.h>

enum { CG_R, CG_U, CG_W, CG_P, CG_S, CG_NWORK };

static PetscErrorCode KSPSetUp_ChronGear(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPSetUp_Pipe(ksp, CG_NWORK));
  PetscFunctionReturn(0);
}

/* p = u + beta p; s = w + beta s; x += alpha p; r -= alpha s (first: p = u, s = w) */
static PetscErrorCode FusedUpdate(KSP ksp, PetscBool first, PetscScalar alpha, PetscScalar beta)
{
  Vec               *v = ksp->work;
  PetscScalar       *x, *r, *p, *s;
  const PetscScalar *u, *w;
  PetscInt           i, n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(ksp->vec_sol, &n));
  PetscCall(VecGetArray(ksp->vec_sol, &x));
  PetscCall(VecGetArray(v[CG_R], &r));
  PetscCall(VecGetArray(v[CG_P], &p));
  PetscCall(VecGetArray(v[CG_S], &s));
  PetscCall(VecGetArrayRead(v[CG_U], &u));
  PetscCall(VecGetArrayRead(v[CG_W], &w));
  if (PipeKSPVecBlocked()) PetscCall(PipeKSPFusedChronGearThreaded(n, first, alpha, beta, x, r, p, s, u, w)); /* OpenMP build: fixed blocks, src/ksp/pipeomp.c */
  else
  for (i = 0; i < n; i++) {
    if (first) {
      p[i] = u[i];
      s[i] = w[i];
    } else {
      p[i] = u[i] + beta * p[i];
      s[i] = w[i] + beta * s[i];
    }
    x[i] += alpha * p[i];
    r[i] -= alpha * s[i];
  }
  PetscCall(VecRestoreArray(ksp->vec_sol, &x));
  PetscCall(VecRestoreArray(v[CG_R], &r));
  PetscCall(VecRestoreArray(v[CG_P], &p));
  PetscCall(VecRestoreArray(v[CG_S], &s));
  PetscCall(VecRestoreArrayRead(v[CG_U], &u));
  PetscCall(VecRestoreArrayRead(v[CG_W], &w));
  PetscCall(PetscLogFlops(8.0 * n));
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPSolve_ChronGear(KSP ksp)
{
  KSP_Pipe   *pipe = (KSP_Pipe *)ksp->data;
  PipeKSPRed  red;
  Mat         A, Pmat;
  Vec        *v, X, B;
  PetscScalar loc[4], glob[4], gamma, gammaold = 0.0, delta, alpha = 0.0, alphaold = 0.0, beta = 0.0;
  PetscReal   dp;
  PetscInt    i = 0;
  PetscBool   diagonalscale;

  PetscFunctionBegin;
  PetscCall(PCGetDiagonalScale(ksp->pc, &diagonalscale));
  PetscCheck(!diagonalscale, PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "Krylov method %s does not support diagonal scaling", ((PetscObject)ksp)->type_name);
  if (!pipe->red) PetscCall(KSPSetUp_ChronGear(ksp));
  red = pipe->red;
  v   = ksp->work;
  X   = ksp->vec_sol;
  B   = ksp->vec_rhs;
  PetscCall(PCGetOperators(ksp->pc, &A, &Pmat));

  ksp->its    = 0;
  ksp->reason = KSP_CONVERGED_ITERATING;
  PetscCall(KSPPipeResidual(ksp, A, v[CG_R])); /* r = b - A x */
  for (;;) {
    PetscCall(KSP_PCApply(ksp, v[CG_R], v[CG_U]));    /* u = M^{-1} r */
    PetscCall(KSP_MatMult(ksp, A, v[CG_U], v[CG_W])); /* w = A u */
    PetscCall(KSPPipeLocalDots(v[CG_R], v[CG_U], v[CG_W], loc));
    PetscCall(PipeKSPRedStart(red, 4, loc)); /* the one blocking reduction */
    PetscCall(PipeKSPRedWait(red, glob));
    gamma = glob[0];
    delta = glob[1];
    KSPCheckDot(ksp, gamma);
    KSPCheckDot(ksp, delta);
    dp = KSPPipeNorm(ksp, glob[2], glob[3], gamma);
    PetscCall(KSPPipeConvergenceTest(ksp, i, dp));
    if (ksp->reason) break;
    if (i >= ksp->max_it) {
      ksp->reason = KSP_DIVERGED_ITS;
      break;
    }
    PetscCall(KSPPipeCheckGamma(ksp, gamma));
    if (ksp->reason) break;
    PetscCall(KSPPipeCoefficients(ksp, (PetscBool)(i == 0), gamma, delta, gammaold, alphaold, &alpha, &beta));
    if (ksp->reason) break;
    PetscCall(FusedUpdate(ksp, (PetscBool)(i == 0), alpha, beta));
    gammaold = gamma;
    alphaold = alpha;
    i++;
    if (KSPPipeReplaceNow(ksp, i)) { /* true residual; s = A p keeps the recurrence consistent */
      PetscCall(KSP_MatMult(ksp, A, X, v[CG_R]));
      PetscCall(VecAYPX(v[CG_R], -1.0, B));
      PetscCall(KSP_MatMult(ksp, A, v[CG_P], v[CG_S]));
    }
  }
  PetscFunctionReturn(0);
}

/*MC
   KSPCHRONGEAR - "chrongear": Chronopoulos-Gear preconditioned CG, one blocking reduction per
   iteration (gamma, delta and the norm packed into one MPI_Allreduce).

   Options:
.  -ksp_pipe_replace <n> - recompute r = b - A x every n iterations (default 50, 0 = off)

   Level: intermediate

.seealso: `KSPPIPEGROPP`, `KSPPIPEGV`, `KSPCG`
M*/
PetscErrorCode KSPCreate_ChronGear(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPPipeCreateCommon(ksp, PETSC_TRUE));
  ksp->ops->setup = KSPSetUp_ChronGear;
  ksp->ops->solve = KSPSolve_ChronGear;
  PetscFunctionReturn(0);
}
