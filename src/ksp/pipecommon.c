/* Shared parts of pipegropp, pipegv and chrongear: options, view, set-up, the KSPPipe* API,
   convergence bookkeeping and the SpMV/PC wrappers with poll points. */
#include <pipeksp/pipecommon.h>
#include <petsc/private/pcimpl.h>
#include <pipeksp/threadsimpl.h>

/* auto replacement: when the estimated gap has reached this fraction of the requested residual
   rtol ||r_0||: below it the gap cannot limit the accuracy asked for (the estimate runs a few times above
   the measured gap, and a convergence it does not vouch for is checked against the true residual) */
#define PIPE_GAP_TARGET 1.0
/* ... is 10x what a replacement leaves, and no sooner than this many iterations after the last true
   residual (replacement or restart) */
#define PIPE_GAP_SPACING 50
/* the estimated gap, relative to the recursive residual, above which a convergence claimed by the
   recursive residual is checked against the true one */
#define PIPE_GAP_CHECK 1e-2
/* the size of one rounding error in the gap estimate: the root mean square of an error uniform in
   [-u, u], u = eps/2, as in probabilistic rounding error analysis (Higham and Mary 2019), rather than
   the worst case eps. Measured on the cube and ex2 with jacobi, asddic and bjacobi+icc, the estimate
   still runs 3-8x above the gap ||b - A x - r||. */
#define PIPE_ROUND_RMS (PETSC_MACHINE_EPSILON / 3.4641016151377544)

/* the progress settings live in the engine only: these go straight through to it */
static PetscErrorCode KSPPipeSetProgress_Pipe(KSP ksp, PipeKSPProgressType type)
{
  PetscFunctionBegin;
  PetscCall(PipeKSPRedSetType_Private(((KSP_Pipe *)ksp->data)->red, type));
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPPipeGetProgress_Pipe(KSP ksp, PipeKSPProgressType *type)
{
  PetscFunctionBegin;
  PetscCall(PipeKSPRedGetType_Private(((KSP_Pipe *)ksp->data)->red, type));
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPPipeSetPollInterval_Pipe(KSP ksp, PetscReal us)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  PetscCall(PipeKSPRedSetInterval_Private(pipe->red, us));
  pipe->red->interval_set = PETSC_TRUE;
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPPipeSetReplacePeriod_Pipe(KSP ksp, PetscInt n)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  PetscCheck(n >= 0 || n == PETSC_DECIDE, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "Residual replacement period %" PetscInt_FMT " must be >= 0 (0 turns replacement off) or PETSC_DECIDE (auto)", n);
  pipe->replace = n;
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPPipeGetReplacePeriod_Pipe(KSP ksp, PetscInt *n)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  *n = pipe->replace;
  PetscFunctionReturn(0);
}

/* the engine counts over its life; a solve's counters are the difference from the snapshot at its start */
static void StatsLastSolve(KSP_Pipe *pipe, PipeKSPStats *st)
{
  PetscMemzero(st, sizeof(*st));
  if (!pipe->nsolves) return;
  st->reductions       = pipe->red->stats.reductions - pipe->stats0.reductions;
  st->polls            = pipe->red->stats.polls - pipe->stats0.polls;
  st->done_before_wait = pipe->red->stats.done_before_wait - pipe->stats0.done_before_wait;
  st->wait_time        = pipe->red->stats.wait_time - pipe->stats0.wait_time;
  st->overlap_time     = pipe->red->stats.overlap_time - pipe->stats0.overlap_time;
  st->replacements     = pipe->nrep_solve;
  st->restarts         = pipe->nrestart_solve;
}

static PetscErrorCode KSPPipeGetStats_Pipe(KSP ksp, PipeKSPStats *stats)
{
  PetscFunctionBegin;
  StatsLastSolve((KSP_Pipe *)ksp->data, stats);
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPPipeGetTotalStats_Pipe(KSP ksp, PipeKSPStats *stats, PetscInt *nsolves)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  if (stats) {
    *stats              = pipe->red->stats;
    stats->replacements = pipe->nrep_total;
    stats->restarts     = pipe->nrestart_total;
  }
  if (nsolves) *nsolves = pipe->nsolves;
  PetscFunctionReturn(0);
}

/* ---- public API (no-ops / errors on KSP types that are not ours, PETSc style) ---- */
/*@
   KSPPipeSetProgress - Sets how a `KSPPIPEGROPP`, `KSPPIPEGV` or `KSPPIPEPLCG` makes its nonblocking reductions progress

   Logically Collective

   Input Parameters:
+  ksp  - the Krylov solver
-  type - the policy, see `PipeKSPProgressType` (default auto)

   Options Database Key:
.  -ksp_pipe_progress <none,poll,thread,auto,blocking> - the policy

   Note:
   A no-op on other `KSP` types; `KSPCHRONGEAR` has one blocking reduction and ignores it. Open MPI 4 has no asynchronous progress, so without poll (or thread) a
   pending reduction advances only at its wait.

   Level: intermediate

.seealso: `KSPPipeGetProgress()`, `KSPPipeSetPollInterval()`, `PipeKSPProgressPoll()`, `PipeKSPProgressType`
@*/
PetscErrorCode KSPPipeSetProgress(KSP ksp, PipeKSPProgressType type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(ksp, type, 2);
  PetscTryMethod(ksp, "KSPPipeSetProgress_C", (KSP, PipeKSPProgressType), (ksp, type));
  PetscFunctionReturn(0);
}

/*@
   KSPPipeGetProgress - Gets the progress policy of a `KSPPIPEGROPP`, `KSPPIPEGV`, `KSPCHRONGEAR` or `KSPPIPEPLCG`

   Not Collective

   Input Parameter:
.  ksp - the Krylov solver

   Output Parameter:
.  type - the policy set (auto stays auto)

   Level: intermediate

.seealso: `KSPPipeSetProgress()`, `PipeKSPProgressType`
@*/
PetscErrorCode KSPPipeGetProgress(KSP ksp, PipeKSPProgressType *type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscAssertPointer(type, 2);
  PetscUseMethod(ksp, "KSPPipeGetProgress_C", (KSP, PipeKSPProgressType *), (ksp, type));
  PetscFunctionReturn(0);
}

/*@
   KSPPipeSetPollInterval - Sets the least wall time between two `MPI_Test()` calls of the poll hook

   Logically Collective

   Input Parameters:
+  ksp - the Krylov solver
-  us  - microseconds (0: test at every poll point)

   Options Database Key:
.  -ksp_pipe_poll_interval <us> - the interval

   Notes:
   A no-op on other `KSP` types; applies to the poll policy (and the helper thread's tests) only.

   The default is 5 microseconds (2 for `KSPPIPEPLCG`) between poll points of one-thread work. The master
   thread of a thread team (the threaded SpMV and `PCASDDIC`'s threaded sweeps, `-pipeksp_threads` > 1) is
   not throttled by default: it tests after each of its work items while the other threads compute, so a
   small local problem still advances the reduction by a round per item, and on every pass of its wait for
   the halo messages once it has no item left. Once set, the interval applies to the master thread too.

   Level: advanced

.seealso: `KSPPipeSetProgress()`, `PipeKSPProgressPoll()`
@*/
PetscErrorCode KSPPipeSetPollInterval(KSP ksp, PetscReal us)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveReal(ksp, us, 2);
  PetscTryMethod(ksp, "KSPPipeSetPollInterval_C", (KSP, PetscReal), (ksp, us));
  PetscFunctionReturn(0);
}

/*@
   KSPPipeSetReplacePeriod - Sets when a `KSPPIPEGROPP`, `KSPPIPEGV` or `KSPCHRONGEAR` replaces its recursive residual by b - A x

   Logically Collective

   Input Parameters:
+  ksp - the Krylov solver
-  n   - every n iterations, 0 for never, or `PETSC_DECIDE` for auto (the default: when the estimated gap
         between the recursive and the true residual says so)

   Options Database Key:
.  -ksp_pipe_replace <auto,n,0> - the period

   Note:
   A no-op on other `KSP` types. Replacement keeps the attainable accuracy of the pipelined recurrences
   close to `KSPCG`'s (Cools et al., SIAM J. Matrix Anal. Appl. 2018); see docs/algorithms.md.

   Level: intermediate

.seealso: `KSPPipeGetReplacePeriod()`, `KSPPipeGetStats()`
@*/
PetscErrorCode KSPPipeSetReplacePeriod(KSP ksp, PetscInt n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveInt(ksp, n, 2);
  PetscTryMethod(ksp, "KSPPipeSetReplacePeriod_C", (KSP, PetscInt), (ksp, n));
  PetscFunctionReturn(0);
}

/*@
   KSPPipeGetReplacePeriod - Gets the residual replacement period of a `KSPPIPEGROPP`, `KSPPIPEGV` or `KSPCHRONGEAR`

   Not Collective

   Input Parameter:
.  ksp - the Krylov solver

   Output Parameter:
.  n - the period, 0 when replacement is off, `PETSC_DECIDE` for auto

   Level: intermediate

.seealso: `KSPPipeSetReplacePeriod()`
@*/
PetscErrorCode KSPPipeGetReplacePeriod(KSP ksp, PetscInt *n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscAssertPointer(n, 2);
  PetscUseMethod(ksp, "KSPPipeGetReplacePeriod_C", (KSP, PetscInt *), (ksp, n));
  PetscFunctionReturn(0);
}

/*@
   KSPPipeGetStats - Gets the counters of the last `KSPSolve()` of a `KSPPIPEGROPP`, `KSPPIPEGV` or `KSPCHRONGEAR`

   Not Collective

   Input Parameter:
.  ksp - the Krylov solver

   Output Parameter:
.  stats - reductions started, poll-hook `MPI_Test()` calls, reductions complete before their wait, seconds
           blocked in waits, seconds of overlapped compute, residual replacements and restarts (after a
           breakdown of the recurrences, or to check a convergence claimed by the recursive residual), all
           of the last solve only (all zero before the first solve)

   Notes:
   The counters are per solve: a second `KSPSolve()` starts them from zero. `KSPPipeGetTotalStats()` gives
   the sums over all solves of this `KSP`. `-ksp_view` shows both.

   Level: intermediate

.seealso: `KSPPipeGetTotalStats()`, `KSPPipeSetProgress()`, `PipeKSPStats`
@*/
PetscErrorCode KSPPipeGetStats(KSP ksp, PipeKSPStats *stats)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscAssertPointer(stats, 2);
  PetscUseMethod(ksp, "KSPPipeGetStats_C", (KSP, PipeKSPStats *), (ksp, stats));
  PetscFunctionReturn(0);
}

/*@
   KSPPipeGetTotalStats - Gets the counters of a `KSPPIPEGROPP`, `KSPPIPEGV` or `KSPCHRONGEAR` summed over all its solves

   Not Collective

   Input Parameter:
.  ksp - the Krylov solver

   Output Parameters:
+  stats - the sums of the per-solve counters of `KSPPipeGetStats()` over all solves (may be NULL)
-  nsolves - the number of solves (may be NULL)

   Level: intermediate

.seealso: `KSPPipeGetStats()`, `PipeKSPStats`
@*/
PetscErrorCode KSPPipeGetTotalStats(KSP ksp, PipeKSPStats *stats, PetscInt *nsolves)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscUseMethod(ksp, "KSPPipeGetTotalStats_C", (KSP, PipeKSPStats *, PetscInt *), (ksp, stats, nsolves));
  PetscFunctionReturn(0);
}

/* ---- KSP ops shared by the three types ---- */
static PetscErrorCode KSPReset_Pipe(KSP);

PetscErrorCode KSPPipeCreateCommon_Private(KSP ksp, PetscBool blocking_only)
{
  KSP_Pipe *pipe;

  PetscFunctionBegin;
  PetscCall(PetscNew(&pipe));
  pipe->replace = PETSC_DECIDE; /* auto */
  ksp->data     = (void *)pipe;
  /* the engine from the start: it is the one holder of the progress settings */
  PetscCall(PipeKSPRedCreate_Private(PetscObjectComm((PetscObject)ksp), blocking_only, &pipe->red));
  /* left preconditioning only; preconditioned norm is the default, as for PETSc's cg */
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_PRECONDITIONED, PC_LEFT, 3));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_UNPRECONDITIONED, PC_LEFT, 2));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_NATURAL, PC_LEFT, 2));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_NONE, PC_LEFT, 1));
  ksp->ops->destroy        = KSPDestroy_Pipe;
  ksp->ops->reset          = KSPReset_Pipe;
  ksp->ops->view           = KSPView_Pipe;
  ksp->ops->setfromoptions = KSPSetFromOptions_Pipe;
  ksp->ops->buildsolution  = KSPBuildSolutionDefault;
  ksp->ops->buildresidual  = KSPBuildResidualDefault;
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeSetProgress_C", KSPPipeSetProgress_Pipe));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeGetProgress_C", KSPPipeGetProgress_Pipe));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeSetPollInterval_C", KSPPipeSetPollInterval_Pipe));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeSetReplacePeriod_C", KSPPipeSetReplacePeriod_Pipe));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeGetStats_C", KSPPipeGetStats_Pipe));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeGetTotalStats_C", KSPPipeGetTotalStats_Pipe));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeGetReplacePeriod_C", KSPPipeGetReplacePeriod_Pipe));
  PetscFunctionReturn(0);
}

PetscErrorCode KSPPipeSetUpWork_Private(KSP ksp, PetscInt nwork)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  PetscCheck(ksp->pc_side == PC_LEFT, PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "KSP %s supports only left preconditioning; remove -ksp_pc_side", ((PetscObject)ksp)->type_name);
  PetscCall(PipeKSPThreadsGet_Private(NULL, NULL)); /* a bad -pipeksp_threads* option is refused here, before KSPSolve touches x */
  PetscCall(PipeKSPRedSetUp_Private(pipe->red));
  PetscCall(KSPSetWorkVecs(ksp, nwork));
  PetscFunctionReturn(0);
}

/* KSPReset: a reduction an error left pending is completed, so the policy can change afterwards */
static PetscErrorCode KSPReset_Pipe(KSP ksp)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  PetscCall(PipeKSPRedAbandon_Private(pipe->red));
  PetscCall(MatDestroy(&pipe->amat));
  PetscCall(VecDestroy(&pipe->pcdiag));
  PetscFunctionReturn(0);
}

PetscErrorCode KSPDestroy_Pipe(KSP ksp)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  PetscCall(PipeKSPRedDestroy_Private(&pipe->red));
  PetscCall(MatDestroy(&pipe->amat));
  PetscCall(VecDestroy(&pipe->pcdiag));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeSetProgress_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeGetProgress_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeSetPollInterval_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeSetReplacePeriod_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeGetStats_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeGetTotalStats_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeGetReplacePeriod_C", NULL));
  PetscCall(KSPDestroyDefault(ksp));
  PetscFunctionReturn(0);
}

/* the operator's poll-point SpMV settings: read its options, or view them (chrongear too: its products
   run through the same SpMV, whose chunk is the threads' work item) */
static PetscErrorCode KSPPipeOperatorSpMV(KSP ksp, PetscErrorCode (*setfromoptions)(Mat), PetscViewer viewer)
{
  PetscBool set;
  Mat       A;

  PetscFunctionBegin;
  PetscCall(KSPGetOperatorsSet(ksp, &set, NULL));
  if (!set) PetscFunctionReturn(0);
  PetscCall(KSPGetOperators(ksp, &A, NULL));
  if (setfromoptions) PetscCall(setfromoptions(A));
  if (viewer) PetscCall(PipeKSPMatViewSpMV(A, viewer));
  PetscFunctionReturn(0);
}

PetscErrorCode KSPSetFromOptions_Pipe(KSP ksp, PipeKSPOptionItems PetscOptionsObject)
{
  KSP_Pipe           *pipe = (KSP_Pipe *)ksp->data;
  PipeKSPProgressType type = pipe->red->requested;
  PetscReal           us   = pipe->red->interval_us;
  PetscBool           blocking_only = pipe->red->blocking_only;
  char                rep[32];
  PetscBool           flg, flg2;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "KSP pipelined CG (PipeKSP) options");
  /* validated on every type; chrongear has nothing to overlap, so it notes them as not applying */
  PetscCall(PetscOptionsEnum("-ksp_pipe_progress", blocking_only ? "How pending reductions progress (does not apply: one blocking reduction)" : "How pending reductions progress", "KSPPipeSetProgress", PipeKSPProgressTypes, (PetscEnum)type, (PetscEnum *)&type, &flg));
  if (flg) PetscCall(KSPPipeSetProgress(ksp, type));
  PetscCall(PetscOptionsReal("-ksp_pipe_poll_interval", blocking_only ? "Microseconds between MPI_Test calls of the poll hook (does not apply: one blocking reduction)" : "Microseconds of wall time between MPI_Test calls of the poll hook (0 = every poll; unset, a thread team's master tests after every work item)", "KSPPipeSetPollInterval", us, &us, &flg2));
  if (flg2) PetscCall(KSPPipeSetPollInterval(ksp, us));
  if (blocking_only && (flg || flg2)) pipe->ignored_opts = PETSC_TRUE;
  if (pipe->replace == PETSC_DECIDE) PetscCall(PetscStrncpy(rep, "auto", sizeof(rep)));
  else PetscCall(PetscSNPrintf(rep, sizeof(rep), "%" PetscInt_FMT, pipe->replace));
  PetscCall(PetscOptionsString("-ksp_pipe_replace", "Residual replacement: auto (from the estimated gap between recursive and true residual), n (every n iterations) or 0 (never)", "KSPPipeSetReplacePeriod", rep, rep, sizeof(rep), &flg));
  if (flg) {
    PetscBool isauto;
    PetscCall(PetscStrcasecmp(rep, "auto", &isauto));
    if (isauto) PetscCall(KSPPipeSetReplacePeriod(ksp, PETSC_DECIDE));
    else {
      char    *end;
      long long n = strtoll(rep, &end, 10);
      PetscCheck(end != rep && *end == 0 && n >= 0 && n <= PETSC_MAX_INT, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_WRONG, "-ksp_pipe_replace %s: use auto, 0 (never) or a period n >= 1", rep);
      PetscCall(KSPPipeSetReplacePeriod(ksp, (PetscInt)n));
    }
  }
  PetscOptionsHeadEnd();
  PetscCall(KSPPipeOperatorSpMV(ksp, PipeKSPMatSetFromOptions, NULL)); /* -pipeksp_spmv_chunk */
  PetscCall(PipeKSPThreadsSetFromOptions(PetscObjectComm((PetscObject)ksp))); /* -pipeksp_threads, ... */
  PetscFunctionReturn(0);
}

PetscErrorCode KSPView_Pipe(KSP ksp, PetscViewer viewer)
{
  KSP_Pipe    *pipe = (KSP_Pipe *)ksp->data;
  PetscBool    iascii, plcg;
  PipeKSPStats st, tot;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(0);
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp, "pipeplcg", &plcg));
  if (pipe->replace == PETSC_DECIDE && plcg) PetscCall(PetscViewerASCIIPrintf(viewer, "residual replacement: auto (a restart from the true residual when the estimated gap reaches %g of the requested residual and the recursive residual, at least %d iterations after the last true residual; a convergence claimed by the recursive norm is checked against the true residual)\n", (double)PIPE_GAP_TARGET, PIPE_GAP_SPACING));
  else if (pipe->replace == PETSC_DECIDE) PetscCall(PetscViewerASCIIPrintf(viewer, "residual replacement: auto (when the estimated gap between recursive and true residual reaches %g of the requested residual, at least %d iterations after the last true residual)\n", (double)PIPE_GAP_TARGET, PIPE_GAP_SPACING));
  else if (pipe->replace) PetscCall(PetscViewerASCIIPrintf(viewer, "residual replacement: every %" PetscInt_FMT " iterations\n", pipe->replace));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "residual replacement: off\n"));
  PetscCall(PipeKSPThreadsView(viewer));
  if (pipe->red->blocking_only) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "progress: blocking (one MPI_Allreduce per iteration, nothing to overlap; -ksp_pipe_progress and -ksp_pipe_poll_interval do not apply%s)\n", pipe->ignored_opts ? ", given but ignored" : ""));
  } else PetscCall(PipeKSPRedView_Private(pipe->red, viewer));
  if (pipe->nsolves) {
    StatsLastSolve(pipe, &st);
    PetscCall(KSPPipeGetTotalStats_Pipe(ksp, &tot, NULL));
    PetscCall(PetscViewerASCIIPrintf(viewer, "last solve: reductions %" PetscInt64_FMT ", MPI_Test polls %" PetscInt64_FMT ", done before wait %" PetscInt64_FMT ", wait %g s, overlapped compute %g s, residual replacements %" PetscInt64_FMT ", restarts %" PetscInt64_FMT "\n", st.reductions, st.polls, st.done_before_wait, (double)st.wait_time, (double)st.overlap_time, st.replacements, st.restarts));
    if (pipe->nsolves > 1) PetscCall(PetscViewerASCIIPrintf(viewer, "all %" PetscInt_FMT " solves: reductions %" PetscInt64_FMT ", MPI_Test polls %" PetscInt64_FMT ", done before wait %" PetscInt64_FMT ", wait %g s, overlapped compute %g s, residual replacements %" PetscInt64_FMT ", restarts %" PetscInt64_FMT "\n", pipe->nsolves, tot.reductions, tot.polls, tot.done_before_wait, (double)tot.wait_time, (double)tot.overlap_time, tot.replacements, tot.restarts));
  }
  PetscCall(KSPPipeOperatorSpMV(ksp, NULL, viewer));
  PetscFunctionReturn(0);
}

PetscErrorCode KSPPipeConvergenceTest_Private(KSP ksp, PetscInt its, PetscReal dp)
{
  PetscFunctionBegin;
  if (!its) ((KSP_Pipe *)ksp->data)->rnorm0 = dp;
  PetscCall(PetscObjectSAWsTakeAccess((PetscObject)ksp));
  ksp->its   = its;
  ksp->rnorm = dp;
  PetscCall(PetscObjectSAWsGrantAccess((PetscObject)ksp));
  PetscCall(KSPLogResidualHistory(ksp, dp));
  PetscCall(KSPMonitor(ksp, its, dp));
  PetscCall((*ksp->converged)(ksp, its, dp, &ksp->reason, ksp->cnvP));
  PetscFunctionReturn(0);
}

/* An error inside work overlapped with a pending reduction must not leave the request pending: the
   engine completes it before the error goes up, so the KSP stays usable. */
static PetscErrorCode KSPPipeOverlapError(KSP ksp, PetscErrorCode ierr)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  PetscCall(PipeKSPRedAbandon_Private(pipe->red));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

PetscErrorCode KSPPipeMatMult_Private(KSP ksp, Mat A, Vec x, Vec y)
{
  PetscFunctionBegin;
  if (ksp->transpose_solve) PetscCall(KSP_MatMult(ksp, A, x, y));
  else PetscCall(PipeKSPMatMult(A, x, y));
  PetscFunctionReturn(0);
}

PetscErrorCode KSPPipeApplyOperator_Private(KSP ksp, Mat A, Vec x, Vec y)
{
  PetscErrorCode ierr;

  PetscFunctionBegin;
  ierr = KSPPipeMatMult_Private(ksp, A, x, y);
  if (ierr) PetscCall(KSPPipeOverlapError(ksp, ierr));
  PetscFunctionReturn(0);
}

typedef struct {
  const PetscScalar *d, *x;
  PetscScalar       *y;
} DiagCtx;

static void DiagBlock(const void *ctx, PetscInt i0, PetscInt i1, PetscScalar *unused)
{
  const DiagCtx *c = (const DiagCtx *)ctx;

  (void)unused;
  for (PetscInt i = i0; i < i1; i++) c->y[i] = c->x[i] * c->d[i]; /* PCApply_Jacobi's product, bitwise */
}

/* PETSc 3.18's PCJACOBI multiplies on one thread: in a hybrid run that is a serial pass over three
   vectors per iteration. Its diagonal d is read once per solve as M^{-1} 1 (exact for every Jacobi
   variant, and the PC does not change inside a solve), and y = d .* x runs on the thread team */
static PetscErrorCode DiagSetUp(KSP ksp)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;
  PetscInt  n, nd = -1;
  PetscBool jac;
  Vec       ones;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(ksp->vec_rhs, &n));
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp->pc, PCJACOBI, &jac));
  if (!jac || PipeKSPThreadsFor_Private(n) < 2) {
    PetscCall(VecDestroy(&pipe->pcdiag));
    PetscFunctionReturn(0);
  }
  if (pipe->pcdiag) PetscCall(VecGetLocalSize(pipe->pcdiag, &nd));
  if (nd != n) {
    PetscCall(VecDestroy(&pipe->pcdiag));
    PetscCall(VecDuplicate(ksp->vec_rhs, &pipe->pcdiag));
  }
  /* a work vector holds nothing yet at the start of a solve (every pipe KSP has set up its work
     vectors by then): a new vector per solve would cost an allocation, and with a DMDA's vectors a
     blocking reduction (the new layout's sizes) */
  ones = ksp->work[0];
  PetscCall(VecSet(ones, 1.0));
  PetscCall(PCApply(ksp->pc, ones, pipe->pcdiag));
  PetscFunctionReturn(0);
}

PetscErrorCode KSPPipePCApplyLoop_Private(KSP ksp, Vec x, Vec y)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;
  DiagCtx   c;
  PetscInt  n;

  PetscFunctionBegin;
  if (!pipe->pcdiag) {
    PetscCall(KSP_PCApply(ksp, x, y));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscLogEventBegin(PC_Apply, ksp->pc, x, y, 0));
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecGetArrayRead(pipe->pcdiag, &c.d));
  PetscCall(VecGetArrayRead(x, &c.x));
  PetscCall(VecGetArrayWrite(y, &c.y));
  PetscCall(PipeKSPThreadedBlocks_Private(PipeKSPThreadsFor_Private(n), n, 0, DiagBlock, &c, NULL));
  PetscCall(VecRestoreArrayWrite(y, &c.y));
  PetscCall(VecRestoreArrayRead(x, &c.x));
  PetscCall(VecRestoreArrayRead(pipe->pcdiag, &c.d));
  PetscCall(PetscLogFlops((PetscLogDouble)n));
  PetscCall(PetscLogEventEnd(PC_Apply, ksp->pc, x, y, 0));
  /* the rest of KSP_PCApply(): the operator's null space out of the preconditioned vector */
  if (ksp->transpose_solve) PetscCall(KSP_RemoveNullSpaceTranspose(ksp, y));
  else PetscCall(KSP_RemoveNullSpace(ksp, y));
  PetscFunctionReturn(0);
}

PetscErrorCode KSPPipePCApply_Private(KSP ksp, Vec x, Vec y)
{
  PetscErrorCode ierr;

  PetscFunctionBegin;
  ierr = PipeKSPProgressPoll();
  if (!ierr) ierr = KSPPipePCApplyLoop_Private(ksp, x, y);
  if (!ierr) ierr = PipeKSPProgressPoll();
  if (ierr) PetscCall(KSPPipeOverlapError(ksp, ierr));
  PetscFunctionReturn(0);
}

PetscErrorCode KSPPipeResidual_Private(KSP ksp, Mat A, Vec r)
{
  PetscFunctionBegin;
  if (ksp->guess_zero) {
    PetscCall(VecSet(ksp->vec_sol, 0.0));
    PetscCall(VecCopy(ksp->vec_rhs, r));
  } else {
    PetscCall(KSPPipeMatMult_Private(ksp, A, ksp->vec_sol, r));
    PetscCall(VecAYPX(r, -1.0, ksp->vec_rhs));
  }
  PetscFunctionReturn(0);
}

/* the per-solve counters and recurrence state; ||A|| for the gap bounds when A changed */
static PetscErrorCode SolveBegin(KSP ksp, Mat A)
{
  KSP_Pipe        *pipe = (KSP_Pipe *)ksp->data;
  PetscObjectState state;

  PetscFunctionBegin;
  PetscCall(PipeKSPRedAbandon_Private(pipe->red)); /* in case an error escaped a solve between start and wait */
  pipe->stats0     = pipe->red->stats;
  pipe->nrep_solve     = 0;
  pipe->nrestart_solve = 0;
  pipe->nsolves++;
  /* ||A||_inf >= ||A||_2 for symmetric A: scales the rounding errors of the SpMVs in the gap bounds */
  PetscCall(PetscObjectStateGet((PetscObject)A, &state));
  if (A != pipe->amat || state != pipe->astate) {
    PetscBool has;
    PetscCall(MatHasOperation(A, MATOP_NORM, &has));
    pipe->anorm = 0.0;
    if (has) PetscCall(MatNorm(A, NORM_INFINITY, &pipe->anorm));
    PetscCall(PetscObjectReference((PetscObject)A));
    PetscCall(MatDestroy(&pipe->amat));
    pipe->amat   = A;
    pipe->astate = state;
  }
  pipe->gf = pipe->gg = pipe->gh = pipe->gj = pipe->gf0 = pipe->gfprev = 0.0;
  pipe->rprev     = PETSC_MAX_REAL;
  pipe->best      = PETSC_MAX_REAL;
  pipe->bestits   = 0;
  pipe->restart   = PETSC_TRUE;
  pipe->truenow   = PETSC_TRUE;
  pipe->frombreak = PETSC_FALSE;
  pipe->breakreason = KSP_CONVERGED_ITERATING;
  pipe->gsign = pipe->dsign = 0.0;
  pipe->suspect   = PETSC_FALSE;
  pipe->rmin      = PETSC_MAX_REAL;
  pipe->rn0       = -1.0;
  pipe->stalls    = 0;
  pipe->itrue     = 0;
  PetscFunctionReturn(0);
}

/* A PETSc call that fails inside (a PC or a matrix raising an error) returns before it pops the read lock it
   pushed on its input, and from PETSc 3.22 optimized builds lock too. We never lock our work vectors, so a
   lock found on one when a solve starts is such a leftover of an earlier solve's error: release it. */
static PetscErrorCode WorkUnlock(KSP ksp)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < ksp->nwork; i++) {
    PetscInt state;

    PetscCall(VecLockGet(ksp->work[i], &state));
    for (; state > 0; state--) PetscCall(VecLockReadPop(ksp->work[i]));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode KSPPipeSolveStart_Private(KSP ksp, Mat *A)
{
  PetscBool diagonalscale;

  PetscFunctionBegin;
  PetscCall(WorkUnlock(ksp));
  PetscCall(PipeKSPPCGetDiagonalScale(ksp->pc, &diagonalscale));
  PetscCheck(!diagonalscale, PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "Krylov method %s does not support diagonal scaling", ((PetscObject)ksp)->type_name);
  PetscCall(PCGetOperators(ksp->pc, A, NULL));
  PetscCall(SolveBegin(ksp, *A));
  PetscCall(DiagSetUp(ksp));
  ksp->its    = 0;
  ksp->reason = KSP_CONVERGED_ITERATING;
  PetscFunctionReturn(0);
}

PetscErrorCode KSPPipeGuardAfterTest_Private(KSP ksp, PetscReal rn, PetscReal xn)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  if (pipe->rn0 < 0) pipe->rn0 = rn;
  if (pipe->truenow) {
    if (pipe->frombreak && !ksp->reason) {
      /* restarted from the true residual: twice in a row no better than one measured before means the
         attainable accuracy is reached, iterating on cannot help */
      if (!(rn < 0.5 * pipe->best)) pipe->stalls++;
      else pipe->stalls = 0;
      if (pipe->stalls >= 2) {
        PetscCall(KSPPipeFloorStop_Private(ksp, "restarts from the true residual brought no progress"));
        if (ksp->reason) PetscFunctionReturn(0);
      }
    }
    PetscCall(KSPPipeReplaced_Private(ksp, rn, xn));
    pipe->truenow = pipe->frombreak = PETSC_FALSE;
    pipe->rmin    = rn;
  }
  if (!pipe->restart) {
    if (ksp->reason == KSP_DIVERGED_DTOL) { /* cg's residual does not grow like that on an SPD problem */
      ksp->reason   = KSP_CONVERGED_ITERATING;
      pipe->suspect = PETSC_TRUE;
    } else if (ksp->reason > 0 && ksp->reason != KSP_CONVERGED_ITS && pipe->gf > PIPE_GAP_CHECK * rn) {
      /* converged by a recursive residual the gap estimate does not vouch for: check with the true one */
      PetscCall(PetscInfo(ksp, "converged by the recursive residual %g, but the estimated gap is %g: checking the true residual\n", (double)rn, (double)pipe->gf));
      ksp->reason   = KSP_CONVERGED_ITERATING;
      pipe->suspect = PETSC_TRUE;
    } else if (!ksp->reason && !(rn <= 1e4 * pipe->rmin)) pipe->suspect = PETSC_TRUE; /* wild growth */
    /* with no norm nothing claims convergence: below the gap estimate the recursive residual has lost
       touch with b - A x, so check the true one (and stop at the floor if it brought no progress) */
    else if (!ksp->reason && ksp->normtype == KSP_NORM_NONE && rn < pipe->gf) pipe->suspect = PETSC_TRUE;
  }
  pipe->rmin = PetscMin(pipe->rmin, rn);
  PetscFunctionReturn(0);
}

PetscErrorCode KSPPipeGuardBreakdown_Private(KSP ksp, PetscBool *restart)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  *restart = PETSC_FALSE;
  if ((KSPPipeIsBreakdown(ksp) || pipe->suspect) && !pipe->restart) {
    PetscCall(PetscInfo(ksp, "%s at iteration %" PetscInt_FMT " after recurrences: restarting from the true residual\n", pipe->suspect ? "residual growth" : KSPConvergedReasons[ksp->reason], ksp->its));
    pipe->breakreason = KSPPipeIsBreakdown(ksp) ? ksp->reason : KSP_CONVERGED_ITERATING;
    ksp->reason   = KSP_CONVERGED_ITERATING;
    pipe->restart = pipe->truenow = pipe->frombreak = PETSC_TRUE;
    pipe->nrestart_solve++;
    pipe->nrestart_total++;
    *restart = PETSC_TRUE;
  }
  pipe->suspect = PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode KSPPipeSolveEnd_Private(KSP ksp, Mat A, Vec T)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;
  Vec       xbest = ksp->work[ksp->nwork - 1];
  PetscReal tn;

  PetscFunctionBegin;
  if (pipe->best == PETSC_MAX_REAL || ksp->reason == KSP_DIVERGED_NANORINF) PetscFunctionReturn(0);
  PetscCall(KSPPipeMatMult_Private(ksp, A, ksp->vec_sol, T));
  PetscCall(VecAYPX(T, -1.0, ksp->vec_rhs));
  PetscCall(VecNorm(T, NORM_2, &tn));
  if (!(tn <= pipe->best)) { /* NaN too */
    PetscCall(PetscInfo(ksp, "final x has true residual %g, the iterate of iteration %" PetscInt_FMT " had %g: returning that one\n", (double)tn, pipe->bestits, (double)pipe->best));
    PetscCall(VecCopy(xbest, ksp->vec_sol));
  }
  PetscFunctionReturn(0);
}

/* a gap carried over by a recurrence adds to the next one as it is; the new rounding error of a step is
   independent of it and adds in quadrature, which keeps the estimate near the observed gap rather than
   the worst-case bound (Cools et al. note its pessimism) */
static inline PetscReal Q2(PetscReal a, PetscReal b)
{
  return PetscSqrtReal(a * a + b * b);
}

void KSPPipeGapUpdate_Private(KSP ksp, PetscBool pipelined, PetscScalar alpha, PetscScalar beta, PetscReal rn, PetscReal xn, PetscReal un, PetscReal pn, PetscReal qn)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;
  PetscReal eps = PIPE_ROUND_RMS, an = pipe->anorm, a = PetscAbsScalar(alpha), b = PetscAbsScalar(beta);

  /* bounds from the recurrences, each step adding its local rounding error (Cools et al. 2018):
     s = w + beta s: g' = |beta| g + h;  r -= alpha s, x += alpha p: f' = f + |alpha| g';
     pipelined also z = n + beta z: j' = |beta| j and w -= alpha z: h' = h + |alpha| j' */
  if (pipelined) {
    pipe->gj = Q2(b * pipe->gj, 2 * eps * an * qn);
    pipe->gg = Q2(b * pipe->gg + pipe->gh, eps * an * (un + 2 * b * pn));
    pipe->gh = Q2(pipe->gh + a * pipe->gj, eps * an * (un + a * qn));
  } else {
    pipe->gh = eps * an * un; /* w = A u computed */
    pipe->gg = Q2(b * pipe->gg + pipe->gh, eps * an * (un + 2 * b * pn));
  }
  pipe->gf = Q2(pipe->gf + a * pipe->gg, eps * (rn + an * (xn + 2 * a * pn)));
}

PetscBool KSPPipeReplaceNow_Private(KSP ksp, PetscInt its, PetscReal rn)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;
  PetscBool now  = PETSC_FALSE;

  if (pipe->replace == PETSC_DECIDE) {
    /* in the spirit of van der Vorst and Ye, but against the residual asked for: the gap only matters
       once it could reach the requested residual (with no norm: the floor), and only where a fresh
       residual is clearly better than the one left by the last replacement */
    PetscReal target = ksp->normtype == KSP_NORM_NONE ? 0.0 : PIPE_GAP_TARGET * ksp->rtol * pipe->rn0;
    /* a replacement costs more than the one true residual of the check at a claimed convergence, and
       perturbs the recurrences: within PIPE_GAP_SPACING iterations of the last true residual the check
       at convergence takes care of a gap */
    now = (PetscBool)(pipe->anorm > 0 && its - pipe->itrue >= PIPE_GAP_SPACING && pipe->gf > target && pipe->gf > 10 * pipe->gf0);
  } else if (pipe->replace > 0) now = (PetscBool)!(its % pipe->replace);
  if (now) {
    pipe->nrep_solve++;
    pipe->nrep_total++;
    PetscInfo(ksp, "residual replacement at iteration %" PetscInt_FMT ": ||r|| %g, gap bound %g\n", its, (double)rn, (double)pipe->gf);
  }
  return now;
}

PetscErrorCode KSPPipeReplaced_Private(KSP ksp, PetscReal tn, PetscReal xn)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  pipe->gf = pipe->gf0 = pipe->gfprev = PIPE_ROUND_RMS * (tn + pipe->anorm * xn);
  pipe->gg = pipe->gh = pipe->gj = 0.0;
  pipe->rprev = tn;
  pipe->itrue = ksp->its;
  if (tn < pipe->best) {
    pipe->best    = tn;
    pipe->bestits = ksp->its;
    PetscCall(VecCopy(ksp->vec_sol, ksp->work[ksp->nwork - 1]));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode KSPPipeFloorStop_Private(KSP ksp, const char *why)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;
  PetscBool far  = PETSC_FALSE;
  PetscReal xn = 0, bn = 0;

  PetscFunctionBegin;
  /* the rounding floor is about eps (||A|| ||x|| + ||b||); far above it no progress is not the floor.
     Without ||A|| (a shell operator) the floor is unknown: taken as reached */
  if (pipe->anorm > 0) {
    PetscCall(VecNorm(ksp->vec_sol, NORM_2, &xn));
    PetscCall(VecNorm(ksp->vec_rhs, NORM_2, &bn));
    far = (PetscBool)(pipe->best > PETSC_SQRT_MACHINE_EPSILON * (pipe->anorm * xn + bn));
  }
  /* a breakdown that comes back after restarts from b - A x, far above the floor, is the one cg meets:
     A or M is not SPD. cg ends with it, and so do we */
  if (far && pipe->breakreason != KSP_CONVERGED_ITERATING) {
    ksp->reason = pipe->breakreason;
    PetscCall(PetscInfo(ksp, "%s again after restarts from the true residual %g (||b|| %g): not rounding, A or M is not SPD\n", KSPConvergedReasons[ksp->reason], (double)pipe->best, (double)bn));
    PetscFunctionReturn(0);
  }
  /* cg's recursive residual keeps falling below the attainable accuracy until it meets the tolerance (or
     with no norm, until beta = 0): it ends converged with x at its floor. We end there now. Under
     KSPConvergedSkip cg never ends before the iteration limit, so neither do we: iterate on */
  if (ksp->converged == KSPConvergedSkip) {
    pipe->stalls = 0;
    PetscCall(PetscInfo(ksp, "at the attainable accuracy, true residual %g (%s); the convergence test is skip: iterating on\n", (double)pipe->best, why));
    PetscFunctionReturn(0);
  }
  if (far) { /* slow progress (short restarts), not the floor */
    pipe->stalls = 0;
    PetscCall(PetscInfo(ksp, "true residual %g (%s) is far above the rounding floor (||A|| %g, ||x|| %g, ||b|| %g): iterating on\n", (double)pipe->best, why, (double)pipe->anorm, (double)xn, (double)bn));
    PetscFunctionReturn(0);
  }
  if (ksp->normtype == KSP_NORM_NONE) ksp->reason = KSP_CONVERGED_ATOL;
  else ksp->reason = (ksp->rtol * pipe->rnorm0 >= ksp->abstol) ? KSP_CONVERGED_RTOL : KSP_CONVERGED_ATOL;
  PetscCall(PetscInfo(ksp, "stopping at the attainable accuracy, true residual %g (%s)\n", (double)pipe->best, why));
  PetscFunctionReturn(0);
}

/* local (r,u), (w,u), (r,r), (u,u) in one pass (w may be NULL: then (w,u) = 0), in blocks on the
   process's threads, added in block order */
typedef struct {
  const PetscScalar *r, *u, *w;
} DotsCtx;

static void DotsBlock(const void *ctx, PetscInt i0, PetscInt i1, PetscScalar *d)
{
  const DotsCtx     *c = (const DotsCtx *)ctx;
  const PetscScalar *r = c->r, *u = c->u, *w = c->w;
  PetscScalar        ru = 0, wu = 0, rr = 0, uu = 0;

  for (PetscInt i = i0; i < i1; i++) {
    ru += r[i] * PetscConj(u[i]);
    rr += r[i] * PetscConj(r[i]);
    uu += u[i] * PetscConj(u[i]);
  }
  if (w)
    for (PetscInt i = i0; i < i1; i++) wu += w[i] * PetscConj(u[i]);
  d[PIPE_DOT_RU] = ru;
  d[PIPE_DOT_WU] = wu;
  d[PIPE_DOT_RR] = rr;
  d[PIPE_DOT_UU] = uu;
}

PetscErrorCode KSPPipeLocalDots_Private(Vec R, Vec U, Vec W, PetscScalar d[PIPE_NDOTS])
{
  DotsCtx  c = {NULL, NULL, NULL};
  PetscInt n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(R, &n));
  PetscCall(VecGetArrayRead(R, &c.r));
  PetscCall(VecGetArrayRead(U, &c.u));
  if (W) PetscCall(VecGetArrayRead(W, &c.w));
  PetscCall(PipeKSPThreadedBlocks_Private(PipeKSPThreadsFor_Private(n), n, PIPE_NDOTS, DotsBlock, &c, d));
  PetscCall(VecRestoreArrayRead(R, &c.r));
  PetscCall(VecRestoreArrayRead(U, &c.u));
  if (W) PetscCall(VecRestoreArrayRead(W, &c.w));
  PetscCall(PetscLogFlops((W ? 8.0 : 6.0) * n));
  PetscFunctionReturn(0);
}

PetscErrorCode KSPPipeLocalNormSq_Private(Vec X, PetscScalar *d)
{
  const PetscScalar *x;
  PetscInt           i, n;
  PetscScalar        xx = 0;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(X, &n));
  PetscCall(VecGetArrayRead(X, &x));
  for (i = 0; i < n; i++) xx += x[i] * PetscConj(x[i]);
  PetscCall(VecRestoreArrayRead(X, &x));
  *d = xx;
  PetscFunctionReturn(0);
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
  } else if (strict ? PetscRealPart(gamma) < 0.0 : KSPPipeSignChanged_Private(&pipe->gsign, gamma)) {
    ksp->reason = KSP_DIVERGED_INDEFINITE_PC;
    PetscCall(PetscInfo(ksp, "diverging due to indefinite preconditioner, (r,M^{-1}r) = %g%s\n", (double)PetscRealPart(gamma), strict ? "" : " after values of the other sign"));
  }
  PetscFunctionReturn(0);
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
  if (KSPPipeSignChanged_Private(&((KSP_Pipe *)ksp->data)->dsign, den)) {
    ksp->reason = KSP_DIVERGED_INDEFINITE_MAT;
    PetscCall(PetscInfo(ksp, "diverging due to indefinite matrix, (p,Ap) = %g after values of the other sign (or 0)\n", (double)PetscRealPart(den)));
    PetscFunctionReturn(0);
  }
  *alpha = gamma / den;
  PetscFunctionReturn(0);
}

PetscErrorCode KSPPipeTestIteration_Private(KSP ksp, PetscInt its, PetscScalar rr, PetscScalar uu, PetscScalar gamma, PetscReal rn, PetscReal xn, KSPPipeCoef *coef, PetscBool *stop, PetscBool *restart)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  *stop = *restart = PETSC_FALSE;
  PetscCall(KSPPipeConvergenceTest_Private(ksp, its, KSPPipeNorm_Private(ksp, rr, uu, gamma)));
  PetscCall(KSPPipeGuardAfterTest_Private(ksp, rn, xn));
  if (!ksp->reason && its >= ksp->max_it) ksp->reason = KSP_DIVERGED_ITS;
  if (ksp->reason) {
    *stop = PETSC_TRUE;
    PetscFunctionReturn(0);
  }
  PetscCall(KSPPipeCheckGamma_Private(ksp, gamma, PETSC_FALSE));
  if (ksp->reason == KSP_CONVERGED_ATOL) { /* gamma = 0 */
    *stop = PETSC_TRUE;
    PetscFunctionReturn(0);
  }
  if (coef && !ksp->reason) PetscCall(KSPPipeCoefficients_Private(ksp, pipe->restart, gamma, coef->delta, coef->gammaold, coef->alphaold, &coef->alpha, &coef->beta));
  if (ksp->reason == KSP_DIVERGED_NANORINF) { /* no restart can mend an Inf or NaN in the data */
    *stop = PETSC_TRUE;
    PetscFunctionReturn(0);
  }
  PetscCall(KSPPipeGuardBreakdown_Private(ksp, restart));
  if (ksp->reason) *stop = PETSC_TRUE;
  PetscFunctionReturn(0);
}
