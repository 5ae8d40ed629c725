/* The hybrid MPI+OpenMP settings: one thread count per process (-pipeksp_threads) shared by the
   threaded SpMV, the pipelined KSPs' fused vector kernels and asddic's colour sweeps, and the SpMV's
   interior schedule (-pipeksp_spmv_schedule; its work items are the matrix's -pipeksp_spmv_chunk rows,
   PipeKSPMatSetSpMVChunk()). Plus the deterministic blocked
   reduction the vector kernels use. */
#include <pipeksp/threadsimpl.h>
#include <petsc/private/petscimpl.h>
#if defined(PIPEKSP_HAVE_OPENMP)
  #include <omp.h>
#endif
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

const char *const PipeKSPScheduleTypes[] = {"static", "dynamic", "guided", "PipeKSPScheduleType", "PIPEKSP_SCHEDULE_", NULL};

/* below this many local rows a parallel region costs more than it saves: about 5000 rows when the
   threads have their own cores (2-core VM: 2 threads 0.6-1.0x the time of one at 6591 rows, 0.9-2x at
   3993), and far more when ranks x threads oversubscribe the cores */
#define THR_MINROWS_OWN  5000
#define THR_MINROWS_OVER 20000

static struct {
  PetscBool           read; /* options read once on first use (PipeKSPThreadsSetFromOptions re-reads) */
  PetscInt            nt;
  PipeKSPScheduleType sched;
  PetscInt            minrows;
  PetscScalar        *part; /* per-block partial sums of PipeKSPThreadedBlocks_Private() */
  PetscInt            npart;
} Thr = {PETSC_FALSE, 1, PIPEKSP_SCHEDULE_DYNAMIC, -1, NULL, 0}; /* minrows -1: the default below */

/* ranks of this job on this node, from the launcher's environment (0: unknown) */
static PetscInt LocalRanks(void)
{
  const char *v    = getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
  int         size = 0;

  if (!v) v = getenv("MPI_LOCALNRANKS"); /* MPICH's hydra */
  if (v) return (PetscInt)atoi(v);
  if (PetscInitializeCalled && !MPI_Comm_size(PETSC_COMM_WORLD, &size) && size == 1) return 1; /* alone: a singleton run */
  return 0;
}

/* -pipeksp_threads_min_rows, or its default: THR_MINROWS_OWN when the threads have cores of their own,
   else (or when that is unknown) THR_MINROWS_OVER. A process bound to fewer cores than the node's
   (omp_get_num_procs() counts those it may use) needs nt of them; an unbound one shares the node's
   cores with the node's other ranks */
static PetscInt MinRows(void)
{
  static PetscInt local = -1, procs = 1, online = 1; /* read once: every threaded kernel calls this */
  PetscBool       own;

  if (Thr.minrows >= 0) return Thr.minrows;
  if (local < 0) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);

    local  = LocalRanks();
    online = n > 0 ? (PetscInt)n : 1;
#if defined(PIPEKSP_HAVE_OPENMP)
    procs = omp_get_num_procs();
#endif
  }
  own = (PetscBool)(procs < online ? Thr.nt <= procs : (local > 0 && local * Thr.nt <= procs));
  return own ? THR_MINROWS_OWN : THR_MINROWS_OVER;
}

/* called by PipeKSPFinalizePackage(): the next PetscInitialize() reads the options again */
PetscErrorCode PipeKSPThreadsReset_Private(void)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(Thr.part));
  Thr.npart   = 0;
  Thr.read    = PETSC_FALSE;
  Thr.minrows = -1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* OMP_NUM_THREADS when set (its first entry): MPI ranks usually fill the cores already. A value that is
   not a positive integer gives 1, as unset does (libgomp would take all the cores instead) */
static PetscErrorCode DefaultThreads(PetscInt *nt)
{
  const char *env = getenv("OMP_NUM_THREADS");
  char       *end;
  long        v;

  PetscFunctionBegin;
  *nt = 1;
#if defined(PIPEKSP_HAVE_OPENMP)
  if (!env) PetscFunctionReturn(PETSC_SUCCESS);
  errno = 0;
  v     = strtol(env, &end, 10);
  while (isspace((unsigned char)*end)) end++;
  if (end == env || (*end && *end != ',') || (!errno && v < 1) || (errno && errno != ERANGE)) {
    PetscCall(PetscInfo(NULL, "OMP_NUM_THREADS=\"%s\" is not a positive number of threads: 1 thread\n", env));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(!errno && v <= PIPEKSP_THREADS_MAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "OMP_NUM_THREADS=%s: PipeKSP takes at most %d threads per process; set -pipeksp_threads", env, PIPEKSP_THREADS_MAX);
  *nt = (PetscInt)v;
#else
  (void)env;
  (void)end;
  (void)v;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the options, without -help output (first use outside any SetFromOptions) */
static PetscErrorCode ThreadsReadOptionsOnce(void)
{
  PetscInt  nt = Thr.nt, minrows = 0, sched;
  PetscBool flg, found;
  char      name[64];

  PetscFunctionBegin;
  Thr.read  = PETSC_TRUE; /* first: the setters below read the options only while it is false */
  Thr.nt    = 1;
  Thr.sched = PIPEKSP_SCHEDULE_DYNAMIC; /* the defaults again: an earlier, refused read may have set one */
  PetscCall(PipeKSPOptionsGetInt(NULL, NULL, "-pipeksp_threads", &nt, &flg));
  if (flg) PetscCall(PipeKSPSetThreads(nt));
  else PetscCall(DefaultThreads(&Thr.nt)); /* the option overrides OMP_NUM_THREADS, even one refused */
  /* not PetscOptionsGetEnum(), which leaks a value it refuses: a bad one is refused at every entry point */
  PetscCall(PetscOptionsGetString(NULL, NULL, "-pipeksp_spmv_schedule", name, sizeof(name), &flg));
  if (flg) {
    PetscCall(PetscEListFind(3, PipeKSPScheduleTypes, name, &sched, &found));
    PetscCheck(found, PETSC_COMM_SELF, PETSC_ERR_ARG_UNKNOWN_TYPE, "-pipeksp_spmv_schedule %s: unknown schedule; use static, dynamic or guided", name);
    PetscCall(PipeKSPSetSpMVSchedule((PipeKSPScheduleType)sched));
  }
  PetscCall(PipeKSPOptionsGetInt(NULL, NULL, "-pipeksp_threads_min_rows", &minrows, &flg));
  if (flg) PetscCall(PipeKSPSetThreadsMinRows(minrows));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A bad value is refused again at every entry point (PipeKSPThreadsGet_Private()) until it is fixed,
   rather than once and then run on the defaults. */
static PetscErrorCode ThreadsReadOptions(void)
{
  PetscErrorCode ierr = ThreadsReadOptionsOnce();

  PetscFunctionBegin;
  if (ierr) Thr.read = PETSC_FALSE;
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscInt PipeKSPThreadsFor_Private(PetscInt n)
{
  const PetscInt nt = PipeKSPThreadsNum_Private();
  return nt > 1 && n >= MinRows() ? nt : 1;
}

/* No error channel: the entry points (PipeKSPMatMult(), the KSPs' and asddic's set-up) call
   PipeKSPThreadsGet_Private() first, which reports a bad option. */
PetscInt PipeKSPThreadsNum_Private(void)
{
#if defined(PIPEKSP_HAVE_OPENMP)
  if (!Thr.read && ThreadsReadOptions()) return 1;
  return Thr.nt;
#else
  return 1;
#endif
}

PetscErrorCode PipeKSPThreadsGet_Private(PetscInt *nt, PipeKSPScheduleType *sched)
{
  PetscFunctionBegin;
  if (!Thr.read) PetscCall(ThreadsReadOptions());
  if (nt) *nt = PipeKSPThreadsNum_Private();
  if (sched) *sched = Thr.sched;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PipeKSPThreadsSetFromOptions - reads the hybrid MPI+OpenMP options of this process

  Collective

  Input Parameter:
. comm - communicator for the options block (-help output)

  Options Database Keys:
+ -pipeksp_threads <t> - OpenMP threads of the SpMV, the pipelined KSPs' vector kernels and asddic's sweeps (0: the default, OMP_NUM_THREADS, else 1)
. -pipeksp_spmv_schedule <static,dynamic,guided> - how the SpMV's interior row chunks go to the threads (default dynamic)
- -pipeksp_threads_min_rows <n> - fewer local rows than this run on one thread (default 5000 when the threads have cores of their own, else 20000: see `PipeKSPSetThreadsMinRows()`)

  Note:
  pipegropp, pipegv and chrongear call this from KSPSetFromOptions(); settings are read lazily otherwise.
  Then a bad value is refused by the first `PipeKSPMatMult()`, `KSPSetUp()` of our KSPs or `PCSetUp()` of
  `PCASDDIC`, on every rank, and again by each later one until it is fixed.

  Level: intermediate

.seealso: `PipeKSPSetThreads()`, `PipeKSPSetSpMVSchedule()`, `PipeKSPThreadsView()`
@*/
PetscErrorCode PipeKSPThreadsSetFromOptions(MPI_Comm comm)
{
  PetscInt            nt;
  PipeKSPScheduleType sched;
  PetscBool           flg;

  PetscFunctionBegin;
  PetscCall(PipeKSPThreadsGet_Private(&nt, &sched));
  PetscOptionsBegin(comm, NULL, "PipeKSP hybrid MPI+OpenMP options", "KSP");
  PetscCall(PipeKSPOptionsInt("-pipeksp_threads", "OpenMP threads of the SpMV, the pipelined KSPs' vector kernels and asddic's sweeps (0: the default, OMP_NUM_THREADS, else 1)", "PipeKSPSetThreads", nt, &nt, &flg));
  if (flg) PetscCall(PipeKSPSetThreads(nt));
  PetscCall(PetscOptionsEnum("-pipeksp_spmv_schedule", "Schedule of the threaded SpMV's interior row chunks", "PipeKSPSetSpMVSchedule", PipeKSPScheduleTypes, (PetscEnum)sched, (PetscEnum *)&sched, &flg));
  if (flg) PetscCall(PipeKSPSetSpMVSchedule(sched));
  PetscCall(PipeKSPOptionsInt("-pipeksp_threads_min_rows", "Local rows below which the SpMV, the vector kernels and asddic's sweeps run on one thread", "PipeKSPSetThreadsMinRows", MinRows(), &nt, &flg));
  if (flg) PetscCall(PipeKSPSetThreadsMinRows(nt));
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PipeKSPSetThreads - sets the OpenMP threads of PipeKSP's hot path in this process

  Not Collective

  Input Parameter:
. nt - threads (1 to 4096); 1 keeps the single-threaded kernels; 0 the default below. Ignored (1) when built without OpenMP

  Options Database Key:
. -pipeksp_threads <t> - the same

  The default is the first entry of the environment variable OMP_NUM_THREADS when that is a positive
  number, else 1 (libgomp would take every core instead); above 4096 it is an error.

  Note:
  In a hybrid run the master thread does all MPI of the SpMV (halo exchange and the reduction poll
  hook), so MPI_THREAD_FUNNELED is enough. asddic's colour sweeps use the same count unless
  PCASDDICSetThreads() overrides it.

  Level: intermediate

.seealso: `PipeKSPGetThreads()`, `PipeKSPSetSpMVSchedule()`
@*/
PetscErrorCode PipeKSPSetThreads(PetscInt nt)
{
  PetscFunctionBegin;
  PetscCheck(nt >= 0 && nt <= PIPEKSP_THREADS_MAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-pipeksp_threads %" PetscInt_FMT ": the number of threads must be 1 to %d, or 0 for the default", nt, PIPEKSP_THREADS_MAX);
  if (!Thr.read) PetscCall(ThreadsReadOptions()); /* first, so that this call wins over them */
  if (!nt) PetscCall(DefaultThreads(&nt));        /* 0 as with -pc_asddic_threads 0: the default, whatever the KSP */
#if defined(PIPEKSP_HAVE_OPENMP)
  Thr.nt = nt;
#else
  if (nt > 1) PetscCall(PetscInfo(NULL, "PipeKSP built without OpenMP: %" PetscInt_FMT " threads requested, 1 used\n", nt));
  Thr.nt = 1;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PipeKSPGetThreads - the OpenMP threads of PipeKSP's hot path in this process

  Not Collective

  Output Parameter:
. nt - threads (1 when built without OpenMP)

  Level: intermediate

.seealso: `PipeKSPSetThreads()`
@*/
PetscErrorCode PipeKSPGetThreads(PetscInt *nt)
{
  PetscFunctionBegin;
  PetscAssertPointer(nt, 1);
  PetscCall(PipeKSPThreadsGet_Private(nt, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PipeKSPSetSpMVSchedule - how the threaded SpMV hands its interior row chunks to the threads

  Not Collective

  Input Parameter:
. sched - PIPEKSP_SCHEDULE_DYNAMIC (default: every thread claims the work items of its own contiguous
          share, then those left in the others' shares, from their ends; the master's rows are taken over
          while it communicates), PIPEKSP_SCHEDULE_STATIC (OpenMP's equal shares; the master's share waits
          for its communication) or PIPEKSP_SCHEDULE_GUIDED (OpenMP's)

  Options Database Key:
. -pipeksp_spmv_schedule <static,dynamic,guided> - the schedule

  Note:
  A work item is the matrix's poll-point chunk, `PipeKSPMatSetSpMVChunk()` (-pipeksp_spmv_chunk, 256 rows).
  The dynamic schedule is not OpenMP's schedule(dynamic): that one hands out the items from one counter, so
  the threads alternate through the matrix, and on a 65^3 cube it was about 15% slower than static shares.

  Level: intermediate

.seealso: `PipeKSPSetThreads()`, `PipeKSPGetSpMVSchedule()`, `PipeKSPMatSetSpMVChunk()`
@*/
PetscErrorCode PipeKSPSetSpMVSchedule(PipeKSPScheduleType sched)
{
  PetscFunctionBegin;
  PetscCheck(sched >= PIPEKSP_SCHEDULE_STATIC && sched <= PIPEKSP_SCHEDULE_GUIDED, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Unknown SpMV schedule %d; use static, dynamic or guided", (int)sched);
  if (!Thr.read) PetscCall(ThreadsReadOptions());
  Thr.sched = sched;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PipeKSPSetThreadsMinRows - the least number of local rows for which the hot path uses its threads

  Not Collective

  Input Parameter:
. n - rows (>= 0); a SpMV, vector kernel or asddic sweep on fewer local rows runs on one thread.
      Results do not change: every kernel gives bitwise the same result on any thread count. Default:
      5000 when the threads have cores of their own: a process bound to some of the node's cores
      (`omp_get_num_procs()` below the online cores) needs one per thread, an unbound one needs the
      node's ranks (from Open MPI's or MPICH's launcher; a singleton is one) times threads to fit in the
      node's cores. Else, or when the launcher does not say, 20000

  Options Database Key:
. -pipeksp_threads_min_rows <n> - the same

  Note:
  A parallel region on a small block costs more than it saves, and much more when ranks times threads
  exceed the cores (waiting threads spin or sleep in the region's barriers).

  Level: advanced

.seealso: `PipeKSPSetThreads()`
@*/
PetscErrorCode PipeKSPSetThreadsMinRows(PetscInt n)
{
  PetscFunctionBegin;
  PetscCheck(n >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-pipeksp_threads_min_rows %" PetscInt_FMT " must be >= 0", n);
  if (!Thr.read) PetscCall(ThreadsReadOptions());
  Thr.minrows = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PipeKSPGetSpMVSchedule - the threaded SpMV's schedule

  Not Collective

  Output Parameter:
. sched - the schedule

  Level: intermediate

.seealso: `PipeKSPSetSpMVSchedule()`
@*/
PetscErrorCode PipeKSPGetSpMVSchedule(PipeKSPScheduleType *sched)
{
  PetscFunctionBegin;
  PetscCall(PipeKSPThreadsGet_Private(NULL, sched));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PipeKSPThreadsView - prints the hybrid settings: threads, SpMV schedule, least rows for threads

  Collective on the viewer

  Input Parameter:
. viewer - an ASCII viewer (others are ignored)

  Level: intermediate

.seealso: `PipeKSPSetThreads()`, `PipeKSPSetSpMVSchedule()`
@*/
PetscErrorCode PipeKSPThreadsView(PetscViewer viewer)
{
  PetscBool           iascii;
  PetscInt            nt    = 1;
  PipeKSPScheduleType sched = PIPEKSP_SCHEDULE_DYNAMIC;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PipeKSPThreadsGet_Private(&nt, &sched));
#if defined(PIPEKSP_HAVE_OPENMP)
  if (nt > 1)
    PetscCall(PetscViewerASCIIPrintf(viewer, "threads %" PetscInt_FMT " (OpenMP): SpMV interior schedule %s over work items of -pipeksp_spmv_chunk rows; master thread does the halo exchange and the polls; one thread below %" PetscInt_FMT " local rows\n", nt, PipeKSPScheduleTypes[sched], MinRows()));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "threads 1 (OpenMP available: -pipeksp_threads); SpMV schedule %s when threaded\n", PipeKSPScheduleTypes[sched]));
#else
  PetscCall(PetscViewerASCIIPrintf(viewer, "threads 1 (built without OpenMP)\n"));
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Fixed-size blocks, not per-thread shares: the partial sums and their order depend only on n. */
PetscErrorCode PipeKSPThreadedBlocks_Private(PetscInt nt, PetscInt n, PetscInt nd, PipeKSPBlockFn fn, const void *ctx, PetscLogDouble flops, PetscScalar *d)
{
  const PetscInt nb = (n + PIPEKSP_VEC_BLOCK - 1) / PIPEKSP_VEC_BLOCK;
  PetscScalar   *part;

  PetscFunctionBegin;
  if (nd > 0 && nb * nd > Thr.npart) {
    PetscCall(PetscFree(Thr.part));
    PetscCall(PetscMalloc1(nb * nd, &Thr.part));
    Thr.npart = nb * nd;
  }
  part = Thr.part;
  (void)nt;
  PetscCall(PetscLogEventBegin(PIPEKSP_VecPass, 0, 0, 0, 0));
#if defined(PIPEKSP_HAVE_OPENMP)
  #pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
#endif
  for (PetscInt b = 0; b < nb; b++) {
    const PetscInt i0 = b * PIPEKSP_VEC_BLOCK, i1 = PetscMin(n, i0 + PIPEKSP_VEC_BLOCK);
    fn(ctx, i0, i1, nd ? part + b * nd : NULL);
  }
  for (PetscInt k = 0; k < nd; k++) d[k] = 0;
  for (PetscInt b = 0; b < nb; b++)
    for (PetscInt k = 0; k < nd; k++) d[k] += part[b * nd + k];
  PetscCall(PetscLogFlops(flops * n));
  PetscCall(PetscLogEventEnd(PIPEKSP_VecPass, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
