/* KSP pipegropp: Gropp's CG (ALGORITHMS.md section 1, #3). Two non-blocking reductions per
   iteration: delta = (p,s) overlapped with q = M^{-1} s, and gamma = (r,u) plus the norm overlapped
   with w = A u. The vector updates and the local dot products share one pass over memory. */
#include <pipeksp/pipecommon.h>
#include <pipeksp/threadsimpl.h>

static PetscErrorCode KSPSetUp_PipeGropp(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPSetUp_Pipe(ksp, 6));
  PetscFunctionReturn(0);
}

/* local (r,u), (r,r), (u,u): the layout of the second reduction */
static PetscErrorCode LocalDots3(Vec R, Vec U, PetscScalar d[3])
{
  PetscScalar d4[4];

  PetscFunctionBegin;
  PetscCall(KSPPipeLocalDots(R, U, NULL, d4));
  d[0] = d4[0];
  d[1] = d4[2];
  d[2] = d4[3];
  PetscFunctionReturn(0);
}

/* local (p,s) */
static PetscErrorCode LocalDot(Vec P, Vec S, PetscScalar *d)
{
  const PetscScalar *p, *s;
  PetscInt           i, n;
  PetscScalar        ps = 0;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(P, &n));
  PetscCall(VecGetArrayRead(P, &p));
  PetscCall(VecGetArrayRead(S, &s));
  for (i = 0; i < n; i++) ps += s[i] * PetscConj(p[i]);
  PetscCall(VecRestoreArrayRead(P, &p));
  PetscCall(VecRestoreArrayRead(S, &s));
  *d = ps;
  PetscFunctionReturn(0);
}

/* x += a p; r -= a s; u -= a q; and the local (r,u), (r,r), (u,u) of the new r, u */
static PetscErrorCode FusedUpdate1(PetscScalar a, Vec X, Vec R, Vec U, Vec P, Vec S, Vec Q, PetscScalar d[3])
{
  PetscScalar       *x, *r, *u;
  const PetscScalar *p, *s, *q;
  PetscInt           i, n;
  PetscScalar        ru = 0, rr = 0, uu = 0;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(X, &n));
  PetscCall(VecGetArray(X, &x));
  PetscCall(VecGetArray(R, &r));
  PetscCall(VecGetArray(U, &u));
  PetscCall(VecGetArrayRead(P, &p));
  PetscCall(VecGetArrayRead(S, &s));
  PetscCall(VecGetArrayRead(Q, &q));
  if (PipeKSPVecBlocked()) { /* OpenMP build: the same loop over fixed blocks (src/ksp/pipeomp.c) */
    PetscCall(PipeKSPFusedGropp1Threaded(n, a, x, r, u, p, s, q, d));
    ru = d[0], rr = d[1], uu = d[2];
  } else
  for (i = 0; i < n; i++) {
    x[i] += a * p[i];
    r[i] -= a * s[i];
    u[i] -= a * q[i];
    ru += r[i] * PetscConj(u[i]);
    rr += r[i] * PetscConj(r[i]);
    uu += u[i] * PetscConj(u[i]);
  }
  PetscCall(VecRestoreArray(X, &x));
  PetscCall(VecRestoreArray(R, &r));
  PetscCall(VecRestoreArray(U, &u));
  PetscCall(VecRestoreArrayRead(P, &p));
  PetscCall(VecRestoreArrayRead(S, &s));
  PetscCall(VecRestoreArrayRead(Q, &q));
  PetscCall(PetscLogFlops(18.0 * n));
  d[0] = ru;
  d[1] = rr;
  d[2] = uu;
  PetscFunctionReturn(0);
}

/* p = u + b p; s = w + b s (b = 0 on the first pass: plain copies); returns the local (p,s) */
static PetscErrorCode FusedUpdate2(PetscBool first, PetscScalar b, Vec P, Vec S, Vec U, Vec W, PetscScalar *d)
{
  PetscScalar       *p, *s;
  const PetscScalar *u, *w;
  PetscInt           i, n;
  PetscScalar        ps = 0;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(P, &n));
  PetscCall(VecGetArray(P, &p));
  PetscCall(VecGetArray(S, &s));
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(VecGetArrayRead(W, &w));
  if (PipeKSPVecBlocked()) PetscCall(PipeKSPFusedGropp2Threaded(n, first, b, p, s, u, w, &ps)); /* OpenMP build: fixed blocks, src/ksp/pipeomp.c */
  else if (first) {
    for (i = 0; i < n; i++) {
      p[i] = u[i];
      s[i] = w[i];
      ps += s[i] * PetscConj(p[i]);
    }
  } else {
    for (i = 0; i < n; i++) {
      p[i] = u[i] + b * p[i];
      s[i] = w[i] + b * s[i];
      ps += s[i] * PetscConj(p[i]);
    }
  }
  PetscCall(VecRestoreArray(P, &p));
  PetscCall(VecRestoreArray(S, &s));
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(VecRestoreArrayRead(W, &w));
  PetscCall(PetscLogFlops(6.0 * n));
  *d = ps;
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPSolve_PipeGropp(KSP ksp)
{
  KSP_Pipe   *pipe = (KSP_Pipe *)ksp->data;
  PipeKSPRed  red;
  Mat         A, Pmat;
  Vec         X, B, R, U, W, P, S, Q;
  PetscScalar loc[3], glob[3], gamma, gammanew, delta, alpha, beta;
  PetscReal   dp;
  PetscInt    its = 0;
  PetscBool   diagonalscale, withgamma = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PCGetDiagonalScale(ksp->pc, &diagonalscale));
  PetscCheck(!diagonalscale, PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "Krylov method %s does not support diagonal scaling", ((PetscObject)ksp)->type_name);
  if (!pipe->red) PetscCall(KSPSetUp_PipeGropp(ksp));
  red = pipe->red;
  X   = ksp->vec_sol;
  B   = ksp->vec_rhs;
  R   = ksp->work[0];
  U   = ksp->work[1];
  W   = ksp->work[2];
  P   = ksp->work[3];
  S   = ksp->work[4];
  Q   = ksp->work[5];
  PetscCall(PCGetOperators(ksp->pc, &A, &Pmat));

  ksp->its    = 0;
  ksp->reason = KSP_CONVERGED_ITERATING;
  PetscCall(KSPPipeResidual(ksp, A, R)); /* r = b - A x */
  PetscCall(KSP_PCApply(ksp, R, U));     /* u = M^{-1} r */
  PetscCall(LocalDots3(R, U, loc));
  PetscCall(PipeKSPRedStart(red, 3, loc)); /* gamma and the norm, overlapped with w = A u */
  PetscCall(KSPPipeMatMult(ksp, A, U, W));
  PetscCall(PipeKSPRedWait(red, glob));
  gamma = glob[0];
  KSPCheckDot(ksp, gamma);
  dp = KSPPipeNorm(ksp, glob[1], glob[2], gamma);
  PetscCall(KSPPipeConvergenceTest(ksp, 0, dp));
  if (ksp->reason) PetscFunctionReturn(0);
  PetscCall(KSPPipeCheckGamma(ksp, gamma));
  if (ksp->reason) PetscFunctionReturn(0);
  PetscCall(FusedUpdate2(PETSC_TRUE, 0.0, P, S, U, W, &loc[0])); /* p = u, s = w, local (p,s) */

  while (its < ksp->max_it) {
    int nred = 1;
    /* R1: delta = (p,s) [and gamma after a replacement], overlapped with q = M^{-1} s */
    if (withgamma) nred = 2;
    PetscCall(PipeKSPRedStart(red, nred, loc));
    PetscCall(KSPPipePCApply(ksp, S, Q));
    PetscCall(PipeKSPRedWait(red, glob));
    delta = glob[0];
    KSPCheckDot(ksp, delta);
    if (withgamma) {
      gamma = glob[1];
      KSPCheckDot(ksp, gamma);
      withgamma = PETSC_FALSE;
      if (PetscRealPart(gamma) <= 0.0) {
        ksp->reason = PetscRealPart(gamma) < 0.0 ? KSP_DIVERGED_INDEFINITE_PC : KSP_CONVERGED_ATOL; /* 0: exact solution */
        PetscCall(PetscInfo(ksp, "after residual replacement (r,M^{-1}r) = %g\n", (double)PetscRealPart(gamma)));
        break;
      }
    }
    if (PetscRealPart(delta) <= 0.0) {
      ksp->reason = KSP_DIVERGED_INDEFINITE_MAT;
      PetscCall(PetscInfo(ksp, "diverging due to indefinite matrix, (p,Ap) = %g\n", (double)PetscRealPart(delta)));
      break;
    }
    alpha = gamma / delta;

    /* x += alpha p; r -= alpha s; u -= alpha q; local gamma' and norm in the same pass */
    PetscCall(FusedUpdate1(alpha, X, R, U, P, S, Q, loc));
    /* R2: gamma' and the norm, overlapped with w = A u */
    PetscCall(PipeKSPRedStart(red, 3, loc));
    PetscCall(KSPPipeMatMult(ksp, A, U, W));
    PetscCall(PipeKSPRedWait(red, glob));
    gammanew = glob[0];
    KSPCheckDot(ksp, gammanew);
    its++;
    dp = KSPPipeNorm(ksp, glob[1], glob[2], gammanew);
    PetscCall(KSPPipeConvergenceTest(ksp, its, dp));
    if (ksp->reason) break;
    PetscCall(KSPPipeCheckGamma(ksp, gammanew));
    if (ksp->reason) break;
    beta  = gammanew / gamma;
    gamma = gammanew;
    /* p = u + beta p; s = w + beta s; local delta = (p,s) for the next R1 */
    PetscCall(FusedUpdate2(PETSC_FALSE, beta, P, S, U, W, &loc[0]));

    if (KSPPipeReplaceNow(ksp, its)) { /* true residual and auxiliaries; gamma rides in the next R1 */
      PetscCall(KSP_MatMult(ksp, A, X, R));
      PetscCall(VecAYPX(R, -1.0, B));
      PetscCall(KSP_PCApply(ksp, R, U));
      PetscCall(KSP_MatMult(ksp, A, P, S));
      PetscCall(LocalDot(P, S, &loc[0]));
      {
        PetscScalar d4[4];
        PetscCall(KSPPipeLocalDots(R, U, NULL, d4));
        loc[1] = d4[0];
      }
      withgamma = PETSC_TRUE;
    }
  }
  if (!ksp->reason) ksp->reason = KSP_DIVERGED_ITS;
  PetscFunctionReturn(0);
}

/*MC
   KSPPIPEGROPP - "pipegropp": Gropp's preconditioned CG with two non-blocking reductions per
   iteration, (p,s) overlapped with the preconditioner and (r,u) plus the norm overlapped with the SpMV.

   Options:
+  -ksp_pipe_progress <none,poll,thread,auto,blocking> - how pending reductions progress (default auto)
.  -ksp_pipe_poll_interval <us> - microseconds of wall time between MPI_Test calls of the poll hook
-  -ksp_pipe_replace <n> - recompute r = b - A x every n iterations (default 50, 0 = off)

   Level: intermediate

.seealso: `KSPPIPEGV`, `KSPCHRONGEAR`, `KSPGROPPCG`, `KSPPipeSetProgress()`
M*/
PetscErrorCode KSPCreate_PipeGropp(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPPipeCreateCommon(ksp, PETSC_FALSE));
  ksp->ops->setup = KSPSetUp_PipeGropp;
  ksp->ops->solve = KSPSolve_PipeGropp;
  PetscFunctionReturn(0);
}
