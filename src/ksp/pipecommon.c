/* The shared base of the pipelined KSP types pipegropp, pipegv, chrongear and pipeplcg (as PETSc's cg.c
   for its family): create, set-up, reset, destroy, options and view, the methods behind the public
   KSPPipe* API (src/ksp/pipetype.c) and the start of a solve. */
#include <pipeksp/pipeguard.h>
#include <pipeksp/threadsimpl.h>
#include <petsc/private/pcimpl.h> /* PCPreSolve()'s nesting, undone after an error */

/* the progress settings live in the engine only: these go straight through to it */
static PetscErrorCode KSPPipeSetProgress_Pipe(KSP ksp, PipeKSPProgressType type)
{
  PetscFunctionBegin;
  PetscCall(PipeKSPRedSetType_Private(((KSP_Pipe *)ksp->data)->red, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPPipeGetProgress_Pipe(KSP ksp, PipeKSPProgressType *type)
{
  PetscFunctionBegin;
  PetscCall(PipeKSPRedGetType_Private(((KSP_Pipe *)ksp->data)->red, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPPipeSetPollInterval_Pipe(KSP ksp, PetscReal us)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  PetscCall(PipeKSPRedSetInterval_Private(pipe->red, us));
  pipe->red->interval_set = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPPipeSetReplacePeriod_Pipe(KSP ksp, PetscInt n)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  PetscCheck(n >= 0 || n == PETSC_DECIDE, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "Residual replacement period %" PetscInt_FMT " must be >= 0 (0 turns replacement off) or PETSC_DECIDE (auto)", n);
  pipe->replace = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPPipeGetReplacePeriod_Pipe(KSP ksp, PetscInt *n)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  *n = pipe->replace;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the engine counts over its life; a solve's counters are the difference from the snapshot at its start */
static PetscErrorCode StatsLastSolve(KSP_Pipe *pipe, PipeKSPStats *st)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(st, sizeof(*st)));
  st->handover_its = -1;
  if (!pipe->nsolves) PetscFunctionReturn(PETSC_SUCCESS);
  st->reductions       = pipe->red->stats.reductions - pipe->stats0.reductions;
  st->polls            = pipe->red->stats.polls - pipe->stats0.polls;
  st->done_before_wait = pipe->red->stats.done_before_wait - pipe->stats0.done_before_wait;
  st->wait_time        = pipe->red->stats.wait_time - pipe->stats0.wait_time;
  st->overlap_time     = pipe->red->stats.overlap_time - pipe->stats0.overlap_time;
  st->replacements     = pipe->nrep_solve;
  st->restarts         = pipe->nrestart_solve;
  st->depth_changes    = pipe->ndepth_solve;
  st->depth            = pipe->depth_end;
  st->waited_first     = pipe->nfirst_solve;
  st->handovers        = pipe->hand_its >= 0;
  st->handover_its     = pipe->hand_its;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPPipeGetStats_Pipe(KSP ksp, PipeKSPStats *stats)
{
  PetscFunctionBegin;
  PetscCall(StatsLastSolve((KSP_Pipe *)ksp->data, stats));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPPipeGetTotalStats_Pipe(KSP ksp, PipeKSPStats *stats, PetscInt *nsolves)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  if (stats) {
    *stats               = pipe->red->stats;
    stats->replacements  = pipe->nrep_total;
    stats->restarts      = pipe->nrestart_total;
    stats->depth_changes = pipe->ndepth_total;
    stats->depth         = pipe->depth_end;
    stats->waited_first  = pipe->nfirst_total;
    stats->handovers     = pipe->nhand_total;
    stats->handover_its  = pipe->hand_its;
  }
  if (nsolves) *nsolves = pipe->nsolves;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the view's line on auto replacement; a type whose rule differs sets its own (pipe->ops.viewautoreplace) */
/* ---- KSP ops shared by the four types ---- */
static PetscErrorCode KSPReset_Pipe(KSP);

PetscErrorCode KSPPipeCreateCommon_Private(KSP ksp, PetscBool blocking_only)
{
  KSP_Pipe *pipe;

  PetscFunctionBegin;
  PetscCall(PetscNew(&pipe));
  pipe->replace             = PETSC_DECIDE; /* auto */
  pipe->guard.cgref         = PETSC_TRUE;   /* pipeplcg sets its own at each solve */
  pipe->ops.viewautoreplace = KSPPipeGuardViewAutoReplace_Private;
  pipe->hand_its            = -1; /* no solve yet */
  ksp->data                 = (void *)pipe;
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
  PetscCall(KSPPipeLanczosCreate_Private(ksp));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeSetProgress_C", KSPPipeSetProgress_Pipe));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeGetProgress_C", KSPPipeGetProgress_Pipe));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeSetPollInterval_C", KSPPipeSetPollInterval_Pipe));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeSetReplacePeriod_C", KSPPipeSetReplacePeriod_Pipe));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeGetStats_C", KSPPipeGetStats_Pipe));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeGetTotalStats_C", KSPPipeGetTotalStats_Pipe));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeGetReplacePeriod_C", KSPPipeGetReplacePeriod_Pipe));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPPipeSetUpWork_Private(KSP ksp, PetscInt nwork)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  PetscCheck(ksp->pc_side == PC_LEFT, PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "KSP %s supports only left preconditioning; remove -ksp_pc_side", ((PetscObject)ksp)->type_name);
  PetscCall(PipeKSPThreadsGet_Private(NULL, NULL)); /* a bad -pipeksp_threads* option is refused here, before KSPSolve touches x */
  PetscCall(PipeKSPRedSetUp_Private(pipe->red));
  PetscCall(KSPSetWorkVecs(ksp, nwork + PIPE_NKEEP)); /* last: the kept iterate (src/ksp/pipeguard.c) */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* KSPReset: a reduction an error left pending is completed, so the policy can change afterwards */
static PetscErrorCode KSPReset_Pipe(KSP ksp)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  PetscCall(PipeKSPRedAbandon_Private(pipe->red));
  PetscCall(MatDestroy(&pipe->guard.amat));
  PetscCall(VecDestroy(&pipe->guard.xbreak));
  PetscCall(VecDestroy(&pipe->pcdiag));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPDestroy_Pipe(KSP ksp)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  PetscCall(PipeKSPRedDestroy_Private(&pipe->red));
  PetscCall(MatDestroy(&pipe->guard.amat));
  PetscCall(VecDestroy(&pipe->guard.xbreak));
  PetscCall(VecDestroy(&pipe->pcdiag));
  PetscCall(KSPPipeLanczosDestroy_Private(ksp));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeSetProgress_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeGetProgress_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeSetPollInterval_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeSetReplacePeriod_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeGetStats_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeGetTotalStats_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPipeGetReplacePeriod_C", NULL));
  PetscCall(KSPDestroyDefault(ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the operator's poll-point SpMV settings: read its options, or view them (chrongear too: its products
   run through the same SpMV, whose chunk is the threads' work item) */
static PetscErrorCode KSPPipeOperatorSpMV(KSP ksp, PetscErrorCode (*setfromoptions)(Mat), PetscViewer viewer)
{
  PetscBool set;
  Mat       A;

  PetscFunctionBegin;
  PetscCall(KSPGetOperatorsSet(ksp, &set, NULL));
  if (!set) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(KSPGetOperators(ksp, &A, NULL));
  if (setfromoptions) PetscCall(setfromoptions(A));
  if (viewer) PetscCall(PipeKSPMatViewSpMV(A, viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPSetFromOptions_Pipe(KSP ksp, PipeKSPOptionItems PetscOptionsObject)
{
  KSP_Pipe           *pipe          = (KSP_Pipe *)ksp->data;
  PipeKSPProgressType type          = pipe->red->requested;
  PetscReal           us            = pipe->red->interval_us;
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
      char     *end;
      long long n = strtoll(rep, &end, 10);
      PetscCheck(end != rep && *end == 0 && n >= 0 && n <= PETSC_MAX_INT, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_WRONG, "-ksp_pipe_replace %s: use auto, 0 (never) or a period n >= 1", rep);
      PetscCall(KSPPipeSetReplacePeriod(ksp, (PetscInt)n));
    }
  }
  PetscOptionsHeadEnd();
  PetscCall(KSPPipeOperatorSpMV(ksp, PipeKSPMatSetFromOptions, NULL));        /* -pipeksp_spmv_chunk */
  PetscCall(PipeKSPThreadsSetFromOptions(PetscObjectComm((PetscObject)ksp))); /* -pipeksp_threads, ... */
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPView_Pipe(KSP ksp, PetscViewer viewer)
{
  KSP_Pipe    *pipe = (KSP_Pipe *)ksp->data;
  PetscBool    iascii;
  PipeKSPStats st, tot;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(PETSC_SUCCESS);
  if (pipe->replace == PETSC_DECIDE) PetscCall(pipe->ops.viewautoreplace(ksp, viewer));
  else if (pipe->replace) PetscCall(PetscViewerASCIIPrintf(viewer, "residual replacement: every %" PetscInt_FMT " iterations\n", pipe->replace));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "residual replacement: off\n"));
  PetscCall(PipeKSPThreadsView(viewer));
  if (pipe->red->blocking_only) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "progress: blocking (one MPI_Allreduce per iteration, nothing to overlap; -ksp_pipe_progress and -ksp_pipe_poll_interval do not apply%s)\n", pipe->ignored_opts ? ", given but ignored" : ""));
  } else PetscCall(PipeKSPRedView_Private(pipe->red, viewer));
  if (pipe->nsolves) {
    PetscCall(StatsLastSolve(pipe, &st));
    PetscCall(KSPPipeGetTotalStats_Pipe(ksp, &tot, NULL));
    PetscCall(PetscViewerASCIIPrintf(viewer, "last solve: reductions %" PetscInt64_FMT ", MPI_Test polls %" PetscInt64_FMT ", done before wait %" PetscInt64_FMT ", wait %g s, overlapped compute %g s, residual replacements %" PetscInt64_FMT ", restarts %" PetscInt64_FMT "\n", st.reductions, st.polls, st.done_before_wait,
                                     (double)st.wait_time, (double)st.overlap_time, st.replacements, st.restarts));
    if (pipe->depth_end > 0) PetscCall(PetscViewerASCIIPrintf(viewer, "last solve: pipeline depth lowered %" PetscInt64_FMT " times, ended at depth %" PetscInt_FMT "\n", st.depth_changes, pipe->depth_end));
    if (pipe->hand_its >= 0)
      PetscCall(PetscViewerASCIIPrintf(viewer, "last solve: Gropp's CG (pipegropp's recurrences and replacement rule, two reductions per iteration%s) from the true residual at iteration %" PetscInt_FMT " on: %s\n", pipe->red->blocking_only ? ", blocking" : "",
                                       pipe->hand_its, pipe->hand_why));
    if (st.waited_first) PetscCall(PetscViewerASCIIPrintf(viewer, "last solve: %" PetscInt64_FMT " reductions waited for before their overlapped work (their test probably the last)\n", st.waited_first));
    if (pipe->nsolves > 1)
      PetscCall(PetscViewerASCIIPrintf(viewer, "all %" PetscInt_FMT " solves: reductions %" PetscInt64_FMT ", MPI_Test polls %" PetscInt64_FMT ", done before wait %" PetscInt64_FMT ", wait %g s, overlapped compute %g s, residual replacements %" PetscInt64_FMT ", restarts %" PetscInt64_FMT ", handovers to Gropp's CG %" PetscInt64_FMT "\n",
                                       pipe->nsolves, tot.reductions, tot.polls, tot.done_before_wait, (double)tot.wait_time, (double)tot.overlap_time, tot.replacements, tot.restarts, tot.handovers));
  }
  PetscCall(KSPPipeOperatorSpMV(ksp, NULL, viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
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
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PETSc's vector checks compare local sizes, so a layout off on some ranks errors there only and leaves the
   others in a reduction (cg hangs). Every rank holds every layout's ownership table: the same verdict on all.
   Work vectors that a set-up made from another x (a refused solve's) are made again from this one, in place:
   a solve may hold the array already */
static PetscErrorCode CheckLayouts(KSP ksp)
{
  KSP_Pipe   *pipe = (KSP_Pipe *)ksp->data;
  Mat         A;
  PetscLayout rmap, cmap, bmap, xmap, wmap;
  PetscBool   bok, xok, wok = PETSC_TRUE;

  PetscFunctionBegin;
  PetscCall(PCGetOperators(ksp->pc, &A, NULL));
  PetscCall(MatGetLayouts(A, &rmap, &cmap));
  PetscCall(VecGetLayout(ksp->vec_rhs, &bmap));
  PetscCall(VecGetLayout(ksp->vec_sol, &xmap));
  PetscCall(PetscLayoutCompare(bmap, rmap, &bok));
  PetscCall(PetscLayoutCompare(xmap, cmap, &xok));
  if (!bok || !xok) {
    PetscInt M, N, bN, xN;

    PetscCall(MatGetSize(A, &M, &N));
    PetscCall(VecGetSize(ksp->vec_rhs, &bN));
    PetscCall(VecGetSize(ksp->vec_sol, &xN));
    SETERRQ(PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_SIZ, "%s: the parallel layout of %s differs from the operator's (global %" PetscInt_FMT " x %" PetscInt_FMT ", b %" PetscInt_FMT ", x %" PetscInt_FMT "; or local sizes differ on some rank); create the vectors with MatCreateVecs()",
            ((PetscObject)ksp)->type_name, bok ? "x" : (xok ? "b" : "b and x"), M, N, bN, xN);
  }
  if (ksp->nwork) {
    PetscCall(VecGetLayout(ksp->work[0], &wmap));
    PetscCall(PetscLayoutCompare(wmap, xmap, &wok));
  }
  if (wok) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt i = 0; i < ksp->nwork; i++) {
    PetscCall(VecDestroy(&ksp->work[i]));
    PetscCall(VecDuplicate(ksp->vec_sol, &ksp->work[i]));
  }
  PetscCall(VecDestroy(&pipe->pcdiag));
  PetscCall(VecDestroy(&pipe->guard.xbreak));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A PETSc error inside a solve (the PC's, a refused layout) returns through KSPSolve() without its PCPostSolve()
   and VecLockReadPop() of b: the PC then refuses the second later error's solve and every one after ("Cannot
   embed PCPreSolve() more than twice"), and b stays read-only. Undo both, so PC, KSP and b stay usable. */
PetscErrorCode KSPPipeSolveEntry_Private(KSP ksp, PetscErrorCode (*solve)(KSP))
{
  PetscInt       pre = ksp->pc->presolvedone, lock = 0;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(VecLockGet(ksp->vec_rhs, &lock));
  ierr = CheckLayouts(ksp); /* before any vector operation of the type's (pipeplcg's auto measures with b) */
  if (!ierr) ierr = (*solve)(ksp);
  if (ierr) {
    PetscInt now = 0;

    ksp->pc->presolvedone = PetscMax(0, pre - 1);
    if (VecLockGet(ksp->vec_rhs, &now) == 0)
      for (; now > PetscMax(0, lock - 1); now--)
        if (VecLockReadPop(ksp->vec_rhs)) break;
  }
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPPipeSolveStart_Private(KSP ksp, Mat *A)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;
  PetscBool diagonalscale;

  PetscFunctionBegin;
  PetscCall(WorkUnlock(ksp));
  PetscCall(PipeKSPPCGetDiagonalScale(ksp->pc, &diagonalscale));
  PetscCheck(!diagonalscale, PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "Krylov method %s does not support diagonal scaling", ((PetscObject)ksp)->type_name);
  PetscCall(PCGetOperators(ksp->pc, A, NULL));
  PetscCall(PipeKSPRedAbandon_Private(pipe->red)); /* in case an error escaped a solve between start and wait */
  /* the engine counts over its life: a solve's counters are the difference from this snapshot */
  pipe->stats0         = pipe->red->stats;
  pipe->nrep_solve     = 0;
  pipe->nrestart_solve = 0;
  pipe->ndepth_solve   = 0;
  pipe->nfirst_solve   = 0;
  pipe->hand_its       = -1;
  pipe->hand_why       = NULL;
  pipe->nsolves++;
  PetscCall(KSPPipeGuardReset_Private(ksp, *A));
  PetscCall(KSPPipePCSetUp_Private(ksp));
  PetscCall(KSPPipeLanczosStart_Private(ksp));
  ksp->its    = 0;
  ksp->reason = KSP_CONVERGED_ITERATING;
  PetscFunctionReturn(PETSC_SUCCESS);
}
