/* The public KSPPipe* API of the pipelined KSP types (as PETSc's cgtype.c): the setters and getters
   with their man pages. Each calls the method its type composed (src/ksp/pipecommon.c); on other KSP
   types a setter is a no-op and a getter an error, PETSc style. */
#include <pipeksp/pipeimpl.h>

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
  PetscFunctionReturn(PETSC_SUCCESS);
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
  PetscFunctionReturn(PETSC_SUCCESS);
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
  PetscFunctionReturn(PETSC_SUCCESS);
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
  PetscFunctionReturn(PETSC_SUCCESS);
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
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   KSPPipeGetStats - Gets the counters of the last `KSPSolve()` of a `KSPPIPEGROPP`, `KSPPIPEGV` or `KSPCHRONGEAR`

   Not Collective

   Input Parameter:
.  ksp - the Krylov solver

   Output Parameter:
.  stats - reductions started, poll-hook `MPI_Test()` calls, reductions complete before their wait, seconds
           blocked in waits, seconds of overlapped compute, residual replacements and restarts (after a
           breakdown of the recurrences, or to check a convergence claimed by the recursive residual), and
           whether and from which iteration Gropp's CG ran the rest of the solve (handovers, handover_its), all
           of the last solve only (all zero before the first solve, handover_its -1)

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
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   KSPPipeGetTotalStats - Gets the counters of a `KSPPIPEGROPP`, `KSPPIPEGV` or `KSPCHRONGEAR` summed over all its solves

   Not Collective

   Input Parameter:
.  ksp - the Krylov solver

   Output Parameters:
+  stats - the sums of the per-solve counters of `KSPPipeGetStats()` over all solves, except depth and handover_its,
           the last solve's (may be NULL)
-  nsolves - the number of solves (may be NULL)

   Level: intermediate

.seealso: `KSPPipeGetStats()`, `PipeKSPStats`
@*/
PetscErrorCode KSPPipeGetTotalStats(KSP ksp, PipeKSPStats *stats, PetscInt *nsolves)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscUseMethod(ksp, "KSPPipeGetTotalStats_C", (KSP, PipeKSPStats *, PetscInt *), (ksp, stats, nsolves));
  PetscFunctionReturn(PETSC_SUCCESS);
}
