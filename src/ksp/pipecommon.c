/* Shared parts of pipegropp, pipegv and chrongear: options, view, set-up, the KSPPipe* API,
   convergence bookkeeping and the SpMV/PC wrappers with poll points. */
#include <pipeksp/pipecommon.h>
#include <pipeksp/threadsimpl.h>

static PetscErrorCode KSPPipeSetProgress_Pipe(KSP ksp, PipeKSPProgressType type)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  PetscCheck(type >= PIPEKSP_PROGRESS_NONE && type <= PIPEKSP_PROGRESS_BLOCKING, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "Unknown progress policy %d; use none, poll, thread, auto or blocking", (int)type);
  if (pipe->blocking_only) {
    if (type != PIPEKSP_PROGRESS_BLOCKING) PetscCall(PetscInfo(ksp, "%s has nothing to overlap; its single reduction stays blocking (ignoring %s)\n", ((PetscObject)ksp)->type_name, PipeKSPProgressTypes[type]));
    PetscFunctionReturn(0);
  }
  pipe->progress = type;
  if (pipe->red) PetscCall(PipeKSPRedSetType(pipe->red, type));
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPPipeGetProgress_Pipe(KSP ksp, PipeKSPProgressType *type)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  *type = (pipe->red && pipe->red->resolved) ? pipe->red->type : pipe->progress;
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPPipeSetPollInterval_Pipe(KSP ksp, PetscReal us)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  PetscCheck(us >= 0, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "Poll interval %g must be >= 0 microseconds (0 = MPI_Test at every poll point)", (double)us);
  pipe->interval = us;
  if (pipe->red) PetscCall(PipeKSPRedSetInterval(pipe->red, us));
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPPipeSetReplacePeriod_Pipe(KSP ksp, PetscInt n)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  PetscCheck(n >= 0, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "Residual replacement period %" PetscInt_FMT " must be >= 0 (0 turns replacement off)", n);
  pipe->replace = n;
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPPipeGetStats_Pipe(KSP ksp, PipeKSPStats *stats)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  if (pipe->red) *stats = pipe->red->stats;
  else PetscCall(PetscMemzero(stats, sizeof(*stats)));
  PetscFunctionReturn(0);
}

/* ---- public API (no-ops / errors on KSP types that are not ours, PETSc style) ---- */
PetscErrorCode KSPPipeSetProgress(KSP ksp, PipeKSPProgressType type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(ksp, type, 2);
  PetscTryMethod(ksp, "KSPPipeSetProgress_C", (KSP, PipeKSPProgressType), (ksp, type));
  PetscFunctionReturn(0);
}

PetscErrorCode KSPPipeGetProgress(KSP ksp, PipeKSPProgressType *type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidPointer(type, 2);
  PetscUseMethod(ksp, "KSPPipeGetProgress_C", (KSP, PipeKSPProgressType *), (ksp, type));
  PetscFunctionReturn(0);
}

PetscErrorCode KSPPipeSetPollInterval(KSP ksp, PetscReal us)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveReal(ksp, us, 2);
  PetscTryMethod(ksp, "KSPPipeSetPollInterval_C", (KSP, PetscReal), (ksp, us));
  PetscFunctionReturn(0);
}

PetscErrorCode KSPPipeSetReplacePeriod(KSP ksp, PetscInt n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveInt(ksp, n, 2);
  PetscTryMethod(ksp, "KSPPipeSetReplacePeriod_C", (KSP, PetscInt), (ksp, n));
  PetscFunctionReturn(0);
}

PetscErrorCode KSPPipeGetStats(KSP ksp, PipeKSPStats *stats)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidPointer(stats, 2);
  PetscUseMethod(ksp, "KSPPipeGetStats_C", (KSP, PipeKSPStats *), (ksp, stats));
  PetscFunctionReturn(0);
}

/* ---- KSP ops shared by the three types ---- */
PetscErrorCode KSPPipeCreateCommon(KSP ksp, PetscBool blocking_only)
{
  KSP_Pipe *pipe;

  PetscFunctionBegin;
  PetscCall(PipeKSPInitializePackage());
  PetscCall(PetscNew(&pipe));
  pipe->progress      = blocking_only ? PIPEKSP_PROGRESS_BLOCKING : PIPEKSP_PROGRESS_AUTO;
  pipe->interval      = 5.0;
  pipe->replace       = 50;
  pipe->blocking_only = blocking_only;
  ksp->data           = (void *)pipe;
  /* left preconditioning only; preconditioned norm is the default, as for PETSc's cg */
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_PRECONDITIONED, PC_LEFT, 3));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_UNPRECONDITIONED, PC_LEFT, 2));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_NATURAL, PC_LEFT, 2));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_NONE, PC_LEFT, 1));
  ksp->ops->destroy        = KSPDestroy_Pipe;
  ksp->ops->view           = KSPView_Pipe;
  ksp->ops->setfromoptions = KSPSetFromOptions_Pipe;
  ksp->ops->buildsolution  = KSPBuildSolutionDefault;
  ksp->ops->buildresidual  = KSPBuildResidualDefault;
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeSetProgress_C", KSPPipeSetProgress_Pipe));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeGetProgress_C", KSPPipeGetProgress_Pipe));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeSetPollInterval_C", KSPPipeSetPollInterval_Pipe));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeSetReplacePeriod_C", KSPPipeSetReplacePeriod_Pipe));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeGetStats_C", KSPPipeGetStats_Pipe));
  PetscFunctionReturn(0);
}

PetscErrorCode KSPSetUp_Pipe(KSP ksp, PetscInt nwork)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  PetscCheck(ksp->pc_side == PC_LEFT, PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "KSP %s supports only left preconditioning; remove -ksp_pc_side", ((PetscObject)ksp)->type_name);
  if (!pipe->red) PetscCall(PipeKSPRedCreate(PetscObjectComm((PetscObject)ksp), &pipe->red));
  PetscCall(PipeKSPRedSetType(pipe->red, pipe->progress));
  PetscCall(PipeKSPRedSetInterval(pipe->red, pipe->interval));
  PetscCall(PipeKSPRedSetUp(pipe->red));
  PetscCall(KSPSetWorkVecs(ksp, nwork));
  PetscFunctionReturn(0);
}

PetscErrorCode KSPDestroy_Pipe(KSP ksp)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  PetscCall(PipeKSPRedDestroy(&pipe->red));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeSetProgress_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeGetProgress_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeSetPollInterval_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeSetReplacePeriod_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeGetStats_C", NULL));
  PetscCall(KSPDestroyDefault(ksp));
  PetscFunctionReturn(0);
}

/* the operator's poll-point SpMV settings: read its options, or view them (chrongear multiplies
   with plain MatMult: nothing to read or show) */
static PetscErrorCode KSPPipeOperatorSpMV(KSP ksp, PetscErrorCode (*setfromoptions)(Mat), PetscViewer viewer)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;
  PetscBool set;
  Mat       A;

  PetscFunctionBegin;
  if (pipe->blocking_only) PetscFunctionReturn(0);
  PetscCall(KSPGetOperatorsSet(ksp, &set, NULL));
  if (!set) PetscFunctionReturn(0);
  PetscCall(KSPGetOperators(ksp, &A, NULL));
  if (setfromoptions) PetscCall(setfromoptions(A));
  if (viewer) PetscCall(PipeKSPMatViewSpMV(A, viewer));
  PetscFunctionReturn(0);
}

PetscErrorCode KSPSetFromOptions_Pipe(KSP ksp, PetscOptionItems *PetscOptionsObject)
{
  KSP_Pipe           *pipe = (KSP_Pipe *)ksp->data;
  PipeKSPProgressType type = pipe->progress;
  PetscReal           us   = pipe->interval;
  PetscInt            n    = pipe->replace;
  PetscBool           flg;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "KSP pipelined CG (PipeKSP) options");
  if (!pipe->blocking_only) {
    PetscCall(PetscOptionsEnum("-ksp_pipe_progress", "How pending reductions progress", "KSPPipeSetProgress", PipeKSPProgressTypes, (PetscEnum)type, (PetscEnum *)&type, &flg));
    if (flg) PetscCall(KSPPipeSetProgress(ksp, type));
    PetscCall(PetscOptionsReal("-ksp_pipe_poll_interval", "Microseconds of wall time between MPI_Test calls of the poll hook (0 = every poll)", "KSPPipeSetPollInterval", us, &us, &flg));
    if (flg) PetscCall(KSPPipeSetPollInterval(ksp, us));
  }
  PetscCall(PetscOptionsInt("-ksp_pipe_replace", "Recompute r = b - A x and the auxiliary vectors every n iterations (0 = never)", "KSPPipeSetReplacePeriod", n, &n, &flg));
  if (flg) PetscCall(KSPPipeSetReplacePeriod(ksp, n));
  PetscOptionsHeadEnd();
  PetscCall(KSPPipeOperatorSpMV(ksp, PipeKSPMatSetFromOptions, NULL)); /* -pipeksp_spmv_chunk */
  PetscCall(PipeKSPThreadsSetFromOptions(PetscObjectComm((PetscObject)ksp))); /* -pipeksp_threads, ... */
  PetscFunctionReturn(0);
}

PetscErrorCode KSPView_Pipe(KSP ksp, PetscViewer viewer)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;
  PetscBool iascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(0);
  if (pipe->replace) PetscCall(PetscViewerASCIIPrintf(viewer, "residual replacement every %" PetscInt_FMT " iterations (%" PetscInt_FMT " done)\n", pipe->replace, pipe->nreplaced));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "residual replacement off\n"));
  PetscCall(PipeKSPThreadsView(viewer));
  if (pipe->red) PetscCall(PipeKSPRedView(pipe->red, viewer));
  else {
    PetscCall(PetscViewerASCIIPrintf(viewer, "progress: %s (decided at set-up)\n", PipeKSPProgressTypes[pipe->progress]));
    PetscCall(PetscViewerASCIIPrintf(viewer, "poll interval: %g microseconds between MPI_Test calls\n", (double)pipe->interval));
  }
  PetscCall(KSPPipeOperatorSpMV(ksp, NULL, viewer));
  PetscFunctionReturn(0);
}

PetscErrorCode KSPPipeConvergenceTest(KSP ksp, PetscInt its, PetscReal dp)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectSAWsTakeAccess((PetscObject)ksp));
  ksp->its   = its;
  ksp->rnorm = dp;
  PetscCall(PetscObjectSAWsGrantAccess((PetscObject)ksp));
  PetscCall(KSPLogResidualHistory(ksp, dp));
  PetscCall(KSPMonitor(ksp, its, dp));
  PetscCall((*ksp->converged)(ksp, its, dp, &ksp->reason, ksp->cnvP));
  PetscFunctionReturn(0);
}

PetscErrorCode KSPPipeMatMult(KSP ksp, Mat A, Vec x, Vec y)
{
  PetscFunctionBegin;
  if (ksp->transpose_solve) PetscCall(KSP_MatMult(ksp, A, x, y));
  else PetscCall(PipeKSPMatMult(A, x, y));
  PetscFunctionReturn(0);
}

PetscErrorCode KSPPipePCApply(KSP ksp, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(PipeKSPProgressPoll());
  PetscCall(KSP_PCApply(ksp, x, y));
  PetscCall(PipeKSPProgressPoll());
  PetscFunctionReturn(0);
}

PetscErrorCode KSPPipeResidual(KSP ksp, Mat A, Vec r)
{
  PetscFunctionBegin;
  if (ksp->guess_zero) {
    PetscCall(VecSet(ksp->vec_sol, 0.0));
    PetscCall(VecCopy(ksp->vec_rhs, r));
  } else {
    PetscCall(KSP_MatMult(ksp, A, ksp->vec_sol, r));
    PetscCall(VecAYPX(r, -1.0, ksp->vec_rhs));
  }
  PetscFunctionReturn(0);
}

PetscBool KSPPipeReplaceNow(KSP ksp, PetscInt its)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  if (!pipe->replace || its % pipe->replace) return PETSC_FALSE;
  pipe->nreplaced++;
  return PETSC_TRUE;
}

PetscErrorCode KSPPipeLocalDots(Vec R, Vec U, Vec W, PetscScalar d[4])
{
  const PetscScalar *r, *u, *w = NULL;
  PetscInt           i, n;
  PetscScalar        ru = 0, wu = 0, rr = 0, uu = 0;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(R, &n));
  PetscCall(VecGetArrayRead(R, &r));
  PetscCall(VecGetArrayRead(U, &u));
  if (W) PetscCall(VecGetArrayRead(W, &w));
  if (PipeKSPVecBlocked()) { /* OpenMP build: the same loops over fixed blocks (src/ksp/pipeomp.c) */
    PetscCall(PipeKSPLocalDotsThreaded(n, r, u, w, d));
    ru = d[0], wu = d[1], rr = d[2], uu = d[3];
  } else if (w) { /* one pass: chrongear calls this every iteration */
    for (i = 0; i < n; i++) {
      ru += r[i] * PetscConj(u[i]);
      wu += w[i] * PetscConj(u[i]);
      rr += r[i] * PetscConj(r[i]);
      uu += u[i] * PetscConj(u[i]);
    }
  } else {
    for (i = 0; i < n; i++) {
      ru += r[i] * PetscConj(u[i]);
      rr += r[i] * PetscConj(r[i]);
      uu += u[i] * PetscConj(u[i]);
    }
  }
  PetscCall(VecRestoreArrayRead(R, &r));
  PetscCall(VecRestoreArrayRead(U, &u));
  if (W) PetscCall(VecRestoreArrayRead(W, &w));
  PetscCall(PetscLogFlops((W ? 8.0 : 6.0) * n));
  d[0] = ru;
  d[1] = wu;
  d[2] = rr;
  d[3] = uu;
  PetscFunctionReturn(0);
}

PetscReal KSPPipeNorm(KSP ksp, PetscScalar rr, PetscScalar uu, PetscScalar ru)
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

PetscErrorCode KSPPipeCheckGamma(KSP ksp, PetscScalar gamma)
{
  PetscFunctionBegin;
  if (PetscRealPart(gamma) < 0.0) {
    ksp->reason = KSP_DIVERGED_INDEFINITE_PC;
    PetscCall(PetscInfo(ksp, "diverging due to indefinite preconditioner, (r,M^{-1}r) = %g\n", (double)PetscRealPart(gamma)));
  } else if (gamma == 0.0) {
    ksp->reason = KSP_CONVERGED_ATOL; /* as PETSc's cg: M^{-1} r = 0 */
    PetscCall(PetscInfo(ksp, "converged due to (r,M^{-1}r) = 0\n"));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode KSPPipeCoefficients(KSP ksp, PetscBool first, PetscScalar gamma, PetscScalar delta, PetscScalar gammaold, PetscScalar alphaold, PetscScalar *alpha, PetscScalar *beta)
{
  PetscScalar den;

  PetscFunctionBegin;
  if (first) {
    *beta = 0.0;
    den   = delta;
  } else {
    if (gammaold == 0.0 || alphaold == 0.0) {
      ksp->reason = KSP_DIVERGED_BREAKDOWN;
      PetscCall(PetscInfo(ksp, "breakdown: zero gamma or alpha of the previous iteration\n"));
      PetscFunctionReturn(0);
    }
    *beta = gamma / gammaold;
    den   = delta - *beta * gamma / alphaold; /* = (p,Ap) */
  }
  if (PetscIsInfOrNanScalar(den)) {
    ksp->reason = KSP_DIVERGED_NANORINF;
    PetscFunctionReturn(0);
  }
  if (PetscRealPart(den) <= 0.0) {
    ksp->reason = KSP_DIVERGED_INDEFINITE_MAT;
    PetscCall(PetscInfo(ksp, "diverging due to indefinite matrix, (p,Ap) = %g\n", (double)PetscRealPart(den)));
    PetscFunctionReturn(0);
  }
  *alpha = gamma / den;
  PetscFunctionReturn(0);
}
