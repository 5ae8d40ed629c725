/* The reduction/progress engine (docs/algorithms.md, section 2): packed MPI_Iallreduce requests (one,
   or up to PIPEKSP_RED_SLOTS for deep pipelines), driven forward by a policy: none, poll
   (PipeKSPProgressPoll() from inside SpMV/PC), thread (a helper thread calling MPI_Test), auto
   (measured at set-up) or blocking (MPI_Allreduce). */
#include <pipeksp/progressimpl.h>
#include <pipeksp/compsumimpl.h> /* PairSum()'s two-sums */
#include <pipeksp/threadsimpl.h>
#include <time.h>
#include <sched.h>

/* a pthread call of the main thread: an error code other than 0 is a PETSc error (the helper thread cannot
   raise one: it keeps its MPI error for the main thread, see thr_rc) */
#define CallPthread(call) PetscCheck(!(call), PETSC_COMM_SELF, PETSC_ERR_SYS, "%s failed", #call)

const char *const PipeKSPProgressTypes[] = {"none", "poll", "thread", "auto", "blocking", "PipeKSPProgressType", "PIPEKSP_PROGRESS_", NULL};

/* Which engine the poll hook drives: the stack of engines with reductions in flight, threaded through
   the engines (PipeKSPRed.below), top = innermost. Nesting happens when a pipelined KSP runs inside the
   PC (or the operator) of another one: the outer engine has a request pending while the inner solve
   starts its own.
   - Push: RedStart(), when an engine with a non-blocking policy starts its first pending request
     (nslots 0 -> 1).
   - Pop: RedFinish(), when its last pending request completes (nslots 1 -> 0). Wait, WaitSlot, WaitAll,
     Abandon (an error) and Destroy all complete requests through RedFinish(), so every push is popped.
     The engine is removed wherever it stands: an error that unwinds the outer solve first leaves the
     inner engine on the stack until its own KSP drains it (KSPReset, its next solve, KSPDestroy).
   - The hook tests all pending requests of the top engine only (one MPI_Testsome): the innermost solve's
     work is what runs, and its reductions are the ones it will wait for next. An outer engine's requests
     are tested again once the inner's are done (and any MPI call, the inner's tests included, lets Open
     MPI advance every pending request).
   The stack belongs to the thread that calls the solvers (the helper threads of the thread policy test
   their own engine's slots and never touch it). */
static PipeKSPRed RedTop = NULL;

static int RedDepth(void)
{
  int d = 0;

  for (PipeKSPRed p = RedTop; p; p = p->below) d++;
  return d;
}

/* -info reports every push and pop with the depth after it: the nesting test reads these lines */
static PetscErrorCode RedPush(PipeKSPRed r)
{
  PetscFunctionBegin;
  r->below = RedTop;
  RedTop   = r;
  PetscCall(PetscInfo(NULL, "reduction stack: push %p, depth %d\n", (void *)r, RedDepth()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RedPop(PipeKSPRed r)
{
  PipeKSPRed *p;
  const char *where = NULL;

  PetscFunctionBegin;
  for (p = &RedTop; *p; p = &(*p)->below)
    if (*p == r) {
      where = (p == &RedTop) ? "top" : "below the top";
      *p    = r->below;
      break;
    }
  r->below = NULL;
  if (where) PetscCall(PetscInfo(NULL, "reduction stack: pop %p (%s), depth %d\n", (void *)r, where, RedDepth()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* called by PipeKSPFinalizePackage() */
PetscErrorCode PipeKSPProgressReset_Private(void)
{
  PetscFunctionBegin;
  RedTop = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MPI's clock: where MPI's time is not the host's (SMPI, the emulator's flop clock) the poll interval follows it */
static inline double WallTime(void)
{
  return MPI_Wtime();
}

/* seconds and nanoseconds of us microseconds, clamped so that any interval (1e30 included) fits time_t */
static struct timespec MicroToTimespec(double us)
{
  struct timespec ts;
  if (!(us < 1e15)) us = 1e15; /* ~30 years; also catches inf */
  ts.tv_sec  = (time_t)(us * 1e-6);
  ts.tv_nsec = (long)((us - 1e6 * (double)ts.tv_sec) * 1e3);
  if (ts.tv_nsec < 0) ts.tv_nsec = 0;
  if (ts.tv_nsec > 999999999L) ts.tv_nsec = 999999999L;
  return ts;
}

static void SleepMicro(double us)
{
  struct timespec ts;
  if (us <= 0) {
    sched_yield();
    return;
  }
  ts = MicroToTimespec(us);
  nanosleep(&ts, NULL);
}

/* MPI_Testsome over the pending, not yet complete slots (one call into MPI whatever the depth);
   marks the finished ones complete. *all: every pending slot is complete. */
static int RedTestSlots(PipeKSPRed r, int *all)
{
  MPI_Request reqs[PIPEKSP_RED_SLOTS];
  int         map[PIPEKSP_RED_SLOTS], idx[PIPEKSP_RED_SLOTS], n = 0, outc = 0, i, rc;

  for (i = 0; i < PIPEKSP_RED_SLOTS; i++)
    if (r->slot[i].pending && !r->slot[i].complete) {
      map[n]    = i;
      reqs[n++] = r->slot[i].req;
    }
  *all = 1;
  if (!n) return MPI_SUCCESS;
  rc = MPI_Testsome(n, reqs, &outc, idx, MPI_STATUSES_IGNORE);
  if (rc != MPI_SUCCESS) return rc;
  for (i = 0; i < n; i++) r->slot[map[i]].req = reqs[i];
  if (outc == MPI_UNDEFINED) outc = 0;
  for (i = 0; i < outc; i++) r->slot[map[idx[i]]].complete = PETSC_TRUE;
  r->nopen -= outc;
  *all = (outc == n);
  return MPI_SUCCESS;
}

/* one test of the top engine's pending requests, at most once per interval (none on a team's master
   unless the user set one) */
static PetscErrorCode ProgressPoll(PetscBool master)
{
  PipeKSPRed r = RedTop;
  double     now, us;
  int        all = 0;

  if (!r || r->type != PIPEKSP_PROGRESS_POLL || !r->nopen) return PETSC_SUCCESS;
  us  = (master && !r->interval_set) ? 0 : r->interval_us;
  now = WallTime();
  if (us > 0 && (now - r->last_test) * 1e6 < us) return PETSC_SUCCESS;
  PetscFunctionBegin;
  r->last_test = now;
  PetscCall(PetscLogEventBegin(PIPEKSP_RedPoll, 0, 0, 0, 0));
  PetscCallMPI(RedTestSlots(r, &all)); /* all pending requests of the engine, one MPI_Testsome */
  PetscCall(PetscLogEventEnd(PIPEKSP_RedPoll, 0, 0, 0, 0));
  r->stats.polls++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PipeKSPProgressPoll - the poll hook. Call it from inside work that overlaps a reduction (SpMV row
   chunks, PC colours). Costs a pointer test when nothing is pending or the policy is not poll; otherwise
   it calls MPI_Test at most once per poll interval (-ksp_pipe_poll_interval, microseconds of wall time).

   Not Collective

   Notes:
   `PipeKSPMatMult()` and `PCASDDIC` call it between row chunks and colours; a user's own `PCSHELL` or
   `MATSHELL` may call it too. (The master thread of their thread teams uses an internal variant that the
   default interval does not throttle, see `KSPPipeSetPollInterval()`.)

   It tests the pending reductions of the innermost solve that has any (a pipelined `KSP` may run inside
   the `PC` of another one: the inner solve's reductions are tested while it runs, the outer's again
   once it has ended).

   Level: developer

.seealso: `KSPPipeSetProgress()`, `KSPPipeSetPollInterval()`, `PipeKSPMatMult()`
@*/
PetscErrorCode PipeKSPProgressPoll(void)
{
  return ProgressPoll(PETSC_FALSE);
}

/* The poll hook of the master thread of a team (threaded SpMV, asddic's threaded sweeps), called between
   its work items and on each pass of its halo wait. By default it is not throttled: the other threads keep
   computing while it tests, and a work item (a chunk of rows) already spaces the tests, so a small local
   problem still makes a round of the reduction per item. An interval set by the user applies here too. */
PetscErrorCode PipeKSPProgressPollMaster_Private(void)
{
  return ProgressPoll(PETSC_TRUE);
}

/* Helper thread: sleeps on the condition variable until a request is handed over, then tests it
   every poll interval until it completes or the main thread takes it back (at the wait). Between
   tests it waits on the condition variable with a timeout, so the main thread's take-back wakes it at
   once whatever the interval. */
static void *PipeKSPRedThreadMain(void *ctx)
{
  PipeKSPRed r = (PipeKSPRed)ctx;

  pthread_mutex_lock(&r->mtx);
  for (;;) {
    while (!r->thr_quit && !r->thr_work) pthread_cond_wait(&r->cv, &r->mtx);
    if (r->thr_quit) break;
    r->thr_busy = 1;
    for (;;) {
      int flag = 0, rc;
      pthread_mutex_unlock(&r->mtx);
      rc = RedTestSlots(r, &flag);
      pthread_mutex_lock(&r->mtx);
      r->thr_tests++;
      if (rc != MPI_SUCCESS && r->thr_rc == MPI_SUCCESS) r->thr_rc = rc; /* no PETSc error from this thread */
      if (flag || r->thr_stop || r->thr_quit || rc != MPI_SUCCESS) break;
      if (r->interval_us > 0) {
        struct timespec now, dt = MicroToTimespec(r->interval_us);
        clock_gettime(CLOCK_MONOTONIC, &now);
        now.tv_sec += dt.tv_sec;
        now.tv_nsec += dt.tv_nsec;
        if (now.tv_nsec >= 1000000000L) {
          now.tv_sec++;
          now.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&r->cv, &r->mtx, &now);
      } else {
        pthread_mutex_unlock(&r->mtx);
        sched_yield();
        pthread_mutex_lock(&r->mtx);
      }
      if (r->thr_stop || r->thr_quit) break;
    }
    r->thr_work = 0;
    r->thr_busy = 0;
    pthread_cond_broadcast(&r->cv);
  }
  pthread_mutex_unlock(&r->mtx);
  return NULL;
}

/* MPI's reduction of (hi, lo) pairs: inout += in in double-double arithmetic (the highs and the lows each
   added by two-sum, PipeKSPTwoSum(), their errors carried down; an error of order eps^2 of the operands),
   the result normalised (hi is the rounded sum). Commutative exactly: a two-sum's error term is unique */
static void MPIAPI PairSum(void *in, void *inout, int *len, MPI_Datatype *type)
{
  const PetscScalar *a = (const PetscScalar *)in;
  PetscScalar       *b = (PetscScalar *)inout;
  int                k;

  (void)type;
  for (k = 0; k < *len; k++) {
    PetscScalar s = b[2 * k], e = 0.0, t = b[2 * k + 1], f = 0.0, hi, lo = 0.0;

    PipeKSPTwoSum(&s, &e, a[2 * k]);     /* s + e = the highs' sum */
    PipeKSPTwoSum(&t, &f, a[2 * k + 1]); /* t + f = the lows' sum */
    hi = s;                              /* each step a two-sum, not a fast one: after cancellation the smaller part may be the larger */
    PipeKSPTwoSum(&hi, &lo, e + t);
    s = hi;
    e = 0.0;
    PipeKSPTwoSum(&s, &e, lo + f);
    b[2 * k]     = s;
    b[2 * k + 1] = e;
  }
}

/* The engine holds its settings from the start (its owner's setters and options write them here, and
   nowhere else): requested policy auto, 5 microseconds between tests. blocking_only: the owner has
   nothing to overlap; the policy stays blocking whatever is asked (chrongear). */
PetscErrorCode PipeKSPRedCreate_Private(MPI_Comm comm, PetscBool blocking_only, PipeKSPRed *red)
{
  PipeKSPRed r;

  PetscFunctionBegin;
  PetscCall(PipeKSPCheckInitialized(comm));
  PetscCall(PetscNew(&r));
  /* a private communicator: our non-blocking collectives never interleave with other libraries' */
  PetscCallMPI(MPI_Comm_dup(comm, &r->comm));
  PetscCallMPI(MPI_Comm_size(r->comm, &r->size));
  PetscCallMPI(MPI_Type_contiguous(2, MPIU_SCALAR, &r->pair));
  PetscCallMPI(MPI_Type_commit(&r->pair));
  PetscCallMPI(MPI_Op_create(PairSum, 1, &r->pairsum));
  r->blocking_only = blocking_only;
  r->requested     = blocking_only ? PIPEKSP_PROGRESS_BLOCKING : PIPEKSP_PROGRESS_AUTO;
  r->type          = PIPEKSP_PROGRESS_NONE;
  r->interval_us   = 5.0;
  r->single        = -1;
  *red             = r;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PipeKSPRedStopThread(PipeKSPRed r)
{
  PetscFunctionBegin;
  if (!r->thr_started) PetscFunctionReturn(PETSC_SUCCESS);
  CallPthread(pthread_mutex_lock(&r->mtx));
  r->thr_quit = 1;
  CallPthread(pthread_cond_broadcast(&r->cv));
  CallPthread(pthread_mutex_unlock(&r->mtx));
  CallPthread(pthread_join(r->thr, NULL));
  CallPthread(pthread_mutex_destroy(&r->mtx));
  CallPthread(pthread_cond_destroy(&r->cv));
  r->thr_started = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PipeKSPRedDestroy_Private(PipeKSPRed *red)
{
  PipeKSPRed r = *red;

  PetscFunctionBegin;
  if (!r) PetscFunctionReturn(PETSC_SUCCESS);
  /* an error unwound a solve between start and wait: both take the requests back from the helper first */
  PetscCall(PipeKSPRedAbandon_Private(r));
  PetscCall(PipeKSPRedStopThread(r));
  PetscCallMPI(MPI_Op_free(&r->pairsum));
  PetscCallMPI(MPI_Type_free(&r->pair));
  PetscCallMPI(MPI_Comm_free(&r->comm));
  PetscCall(PetscFree(*red));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The policy asked for; decided (auto measured, thread checked) at the next set-up or start. An engine
   created blocking_only checks the value and keeps blocking. */
PetscErrorCode PipeKSPRedSetType_Private(PipeKSPRed r, PipeKSPProgressType type)
{
  PetscFunctionBegin;
  PetscCheck(type >= PIPEKSP_PROGRESS_NONE && type <= PIPEKSP_PROGRESS_BLOCKING, r->comm, PETSC_ERR_ARG_OUTOFRANGE, "Unknown progress policy %d; use none, poll, thread, auto or blocking", (int)type);
  if (r->blocking_only) {
    if (type != PIPEKSP_PROGRESS_BLOCKING) PetscCall(PetscInfo(NULL, "PipeKSP: nothing to overlap; the single reduction stays blocking (ignoring %s)\n", PipeKSPProgressTypes[type]));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(!r->nslots, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Cannot change the progress policy while a reduction is pending");
  if (type != r->requested) r->resolved = PETSC_FALSE;
  r->requested = type;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* what runs once decided, else what was asked for */
PetscErrorCode PipeKSPRedGetType_Private(PipeKSPRed r, PipeKSPProgressType *type)
{
  PetscFunctionBegin;
  *type = r->resolved ? r->type : r->requested;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PipeKSPRedSetInterval_Private(PipeKSPRed r, PetscReal us)
{
  PetscFunctionBegin;
  PetscCheck(us >= 0, r->comm, PETSC_ERR_ARG_OUTOFRANGE, "Poll interval %g must be >= 0 microseconds (0 = MPI_Test at every poll point)", (double)us);
  r->interval_us = us;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* auto: does a pending Iallreduce finish without our help? Start one, stay out of MPI for ~2 ms,
   then a single MPI_Test. All ranks must agree, so the verdict is reduced (MIN). */
static PetscErrorCode PipeKSPRedMeasureProgress(PipeKSPRed r, PetscBool *progresses)
{
  double      in = 1.0, out = 0.0;
  MPI_Request req;
  int         flag = 0, all = 0;

  PetscFunctionBegin;
  if (r->size == 1) {
    *progresses = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCallMPI(MPI_Barrier(r->comm));
  PetscCallMPI(MPI_Iallreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, r->comm, &req));
  SleepMicro(2000.0);
  PetscCallMPI(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
  PetscCallMPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  PetscCallMPI(MPI_Allreduce(&flag, &all, 1, MPI_INT, MPI_MIN, r->comm));
  *progresses = all ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PipeKSPRedSetUp_Private(PipeKSPRed r)
{
  PetscFunctionBegin;
  if (r->resolved) PetscFunctionReturn(PETSC_SUCCESS);
  r->note[0] = 0;
  switch (r->requested) {
  case PIPEKSP_PROGRESS_AUTO: {
    PetscBool progresses = PETSC_FALSE;
    PetscCall(PipeKSPRedMeasureProgress(r, &progresses));
    r->type = progresses ? PIPEKSP_PROGRESS_NONE : PIPEKSP_PROGRESS_POLL;
    PetscCall(PetscSNPrintf(r->note, sizeof(r->note), "auto -> %s (%s)", PipeKSPProgressTypes[r->type], r->size == 1 ? "one rank" : (progresses ? "MPI progressed a pending reduction on its own" : "MPI did not progress a pending reduction on its own")));
    PetscCall(PetscInfo(NULL, "PipeKSP progress %s\n", r->note));
  } break;
  case PIPEKSP_PROGRESS_THREAD: {
    int provided;
    PetscCallMPI(MPI_Query_thread(&provided));
    if (provided < MPI_THREAD_MULTIPLE) {
      r->type = PIPEKSP_PROGRESS_POLL;
      PetscCall(PetscSNPrintf(r->note, sizeof(r->note), "thread -> poll (MPI lacks MPI_THREAD_MULTIPLE; set PETSC_MPI_THREAD_REQUIRED)"));
      PetscCall(PetscInfo(NULL, "PipeKSP progress thread needs MPI_THREAD_MULTIPLE (MPI provides level %d); falling back to poll\n", provided));
    } else {
      r->type = PIPEKSP_PROGRESS_THREAD;
      if (!r->thr_started) {
        r->thr_quit = r->thr_work = r->thr_busy = r->thr_stop = 0;
        r->thr_rc                                             = MPI_SUCCESS;
        CallPthread(pthread_mutex_init(&r->mtx, NULL));
        {
          pthread_condattr_t attr; /* timed waits on the monotonic clock, not the wall clock, which may jump */
          CallPthread(pthread_condattr_init(&attr));
          CallPthread(pthread_condattr_setclock(&attr, CLOCK_MONOTONIC));
          CallPthread(pthread_cond_init(&r->cv, &attr));
          CallPthread(pthread_condattr_destroy(&attr));
        }
        PetscCheck(!pthread_create(&r->thr, NULL, PipeKSPRedThreadMain, r), PETSC_COMM_SELF, PETSC_ERR_SYS, "pthread_create failed for the progress thread");
        r->thr_started = PETSC_TRUE;
      }
    }
  } break;
  default:
    r->type = r->requested;
  }
  if (r->type != PIPEKSP_PROGRESS_THREAD) PetscCall(PipeKSPRedStopThread(r));
  r->resolved = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PipeKSPRedView_Private(PipeKSPRed r, PetscViewer viewer)
{
  PetscFunctionBegin;
  if (r->resolved && r->note[0]) PetscCall(PetscViewerASCIIPrintf(viewer, "progress: %s [%s]\n", PipeKSPProgressTypes[r->type], r->note));
  else if (r->resolved) PetscCall(PetscViewerASCIIPrintf(viewer, "progress: %s\n", PipeKSPProgressTypes[r->type]));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "progress: %s (decided at the first solve)\n", PipeKSPProgressTypes[r->requested]));
  if (r->type == PIPEKSP_PROGRESS_POLL || r->type == PIPEKSP_PROGRESS_THREAD || !r->resolved) {
    if (r->interval_set || r->type == PIPEKSP_PROGRESS_THREAD) PetscCall(PetscViewerASCIIPrintf(viewer, "poll interval: %g microseconds between MPI_Test calls\n", (double)r->interval_us));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "poll interval: %g microseconds between MPI_Test calls (default; a thread team's master tests after every work item)\n", (double)r->interval_us));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- requests: up to PIPEKSP_RED_SLOTS reductions in flight. One implementation serves both APIs:
   PipeKSPRedStart_Private()/Wait() is one slot that the engine remembers (pipegropp, pipegv, chrongear);
   PipeKSPRedStartSlot_Private()/WaitSlot() name their slots (p(l)-CG keeps up to l + 1 in flight). ---- */

/* thread policy: take the pending slots back from the helper thread before touching them; an MPI error
   of its tests goes up from here */
static PetscErrorCode RedThreadTakeBack(PipeKSPRed r)
{
  int rc;

  PetscFunctionBegin;
  if (!r->thr_started) PetscFunctionReturn(PETSC_SUCCESS);
  CallPthread(pthread_mutex_lock(&r->mtx));
  if (!r->thr_busy) r->thr_work = 0;
  else {
    r->thr_stop = 1;
    CallPthread(pthread_cond_broadcast(&r->cv)); /* wake it from its timed wait at once */
    while (r->thr_busy) CallPthread(pthread_cond_wait(&r->cv, &r->mtx));
  }
  r->thr_stop = 0;
  r->stats.polls += r->thr_tests;
  r->thr_tests = 0;
  rc           = r->thr_rc;
  r->thr_rc    = MPI_SUCCESS;
  CallPthread(pthread_mutex_unlock(&r->mtx));
  PetscCallMPI(rc);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* thread policy: hand every pending, incomplete slot to the helper thread */
static PetscErrorCode RedThreadHandOver(PipeKSPRed r)
{
  int i, any = 0;

  PetscFunctionBegin;
  if (!r->thr_started) PetscFunctionReturn(PETSC_SUCCESS);
  for (i = 0; i < PIPEKSP_RED_SLOTS; i++)
    if (r->slot[i].pending && !r->slot[i].complete) any = 1;
  if (!any) PetscFunctionReturn(PETSC_SUCCESS);
  CallPthread(pthread_mutex_lock(&r->mtx));
  r->thr_stop = 0;
  r->thr_work = 1;
  CallPthread(pthread_cond_broadcast(&r->cv));
  CallPthread(pthread_mutex_unlock(&r->mtx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* start the reduction (SUM) of n local scalars in a free slot; with lo the n sums are compensated, local[k]
   + lo[k], and reduced as pairs */
static PetscErrorCode RedStart(PipeKSPRed r, int n, const PetscScalar local[], const PetscScalar lo[], int *slot)
{
  PipeKSPRedSlot *s = NULL;
  int             i, k;

  PetscFunctionBegin;
  PetscCheck(n > 0 && n <= PIPEKSP_RED_MAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Reduction of %d scalars: must be 1..%d", n, PIPEKSP_RED_MAX);
  if (r->type == PIPEKSP_PROGRESS_THREAD && r->nslots) PetscCall(RedThreadTakeBack(r)); /* before touching any slot */
  for (i = 0; i < PIPEKSP_RED_SLOTS; i++)
    if (!r->slot[i].pending) break;
  PetscCheck(i < PIPEKSP_RED_SLOTS, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "More than %d reductions in flight on one engine", PIPEKSP_RED_SLOTS);
  if (!r->resolved) PetscCall(PipeKSPRedSetUp_Private(r));
  s = &r->slot[i];
  if (lo)
    for (k = 0; k < n; k++) {
      s->lbuf[2 * k]     = local[k];
      s->lbuf[2 * k + 1] = lo[k];
    }
  else PetscCall(PetscArraycpy(s->lbuf, local, n));
  s->n        = n;
  s->pairs    = (PetscBool)(lo != NULL);
  s->complete = PETSC_FALSE;
  s->pending  = PETSC_TRUE;
  s->req      = MPI_REQUEST_NULL;
  *slot       = i;
  r->stats.reductions++;
  if (r->type == PIPEKSP_PROGRESS_BLOCKING) {
    double t0 = WallTime();
    PetscCall(PetscLogEventBegin(PIPEKSP_RedWait, 0, 0, 0, 0));
    if (lo) PetscCallMPI(MPI_Allreduce(s->lbuf, s->gbuf, n, r->pair, r->pairsum, r->comm));
    else PetscCallMPI(MPI_Allreduce(s->lbuf, s->gbuf, n, MPIU_SCALAR, MPIU_SUM, r->comm));
    PetscCall(PetscLogEventEnd(PIPEKSP_RedWait, 0, 0, 0, 0));
    r->stats.wait_time += WallTime() - t0;
    s->complete = PETSC_TRUE;
    r->nslots++;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscLogEventBegin(PIPEKSP_RedStart, 0, 0, 0, 0));
  if (lo) PetscCallMPI(MPI_Iallreduce(s->lbuf, s->gbuf, n, r->pair, r->pairsum, r->comm, &s->req));
  else PetscCallMPI(MPI_Iallreduce(s->lbuf, s->gbuf, n, MPIU_SCALAR, MPIU_SUM, r->comm, &s->req));
  PetscCall(PetscLogEventEnd(PIPEKSP_RedStart, 0, 0, 0, 0));
  s->tstart = WallTime();
  r->nopen++;
  if (!r->nslots) { /* the engine becomes the one the poll hook serves */
    r->last_test = s->tstart;
    PetscCall(RedPush(r));
    PetscCall(PetscLogEventBegin(PIPEKSP_Overlap, 0, 0, 0, 0));
  }
  r->nslots++;
  if (r->type == PIPEKSP_PROGRESS_THREAD) PetscCall(RedThreadHandOver(r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* complete the reduction in slot and copy its results to global[] (if not NULL; of compensated sums the
   rounded sums, their remainders to lo[] if not NULL); counted: it adds to the overlap/wait counters (not
   for one an error left behind) */
static PetscErrorCode RedFinish(PipeKSPRed r, int slot, PetscScalar global[], PetscScalar lo[], PetscBool counted)
{
  PipeKSPRedSlot *s    = &r->slot[slot];
  int             flag = 0;
  double          t0;

  PetscFunctionBegin;
  if (r->type != PIPEKSP_PROGRESS_BLOCKING) {
    t0 = WallTime();
    if (r->nslots == 1) PetscCall(PetscLogEventEnd(PIPEKSP_Overlap, 0, 0, 0, 0));
    /* every wait is logged, blocked or not, so that the event always shows in -log_view */
    PetscCall(PetscLogEventBegin(PIPEKSP_RedWait, 0, 0, 0, 0));
    if (counted) r->stats.overlap_time += t0 - s->tstart;
    if (r->type == PIPEKSP_PROGRESS_THREAD) PetscCall(RedThreadTakeBack(r));
    if (!s->complete) PetscCallMPI(MPI_Test(&s->req, &flag, MPI_STATUS_IGNORE));
    if (s->complete || flag) {
      if (counted) r->stats.done_before_wait++;
    } else {
      PetscCallMPI(MPI_Wait(&s->req, MPI_STATUS_IGNORE));
      if (counted) r->stats.wait_time += WallTime() - t0;
    }
    if (!s->complete) r->nopen--;
    PetscCall(PetscLogEventEnd(PIPEKSP_RedWait, 0, 0, 0, 0));
  }
  s->pending  = PETSC_FALSE;
  s->complete = PETSC_FALSE;
  r->nslots--;
  if (r->type != PIPEKSP_PROGRESS_BLOCKING) {
    if (!r->nslots) PetscCall(RedPop(r));
    else if (r->type == PIPEKSP_PROGRESS_THREAD) PetscCall(RedThreadHandOver(r));
  }
  if (s->pairs) {
    int k;

    for (k = 0; k < s->n; k++) { /* one rank's pairs come back as given: normalise */
      PetscScalar hi = s->gbuf[2 * k], c = 0.0;

      PipeKSPTwoSum(&hi, &c, s->gbuf[2 * k + 1]);
      if (global) global[k] = hi;
      if (lo) lo[k] = c;
    }
  } else if (global) PetscCall(PetscArraycpy(global, s->gbuf, s->n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* complete every pending reduction, results dropped */
static PetscErrorCode RedDrain(PipeKSPRed r, PetscBool counted)
{
  int i;

  PetscFunctionBegin;
  for (i = 0; i < PIPEKSP_RED_SLOTS; i++)
    if (r->slot[i].pending) PetscCall(RedFinish(r, i, NULL, NULL, counted));
  r->single = -1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Start the reduction (SUM) of n local scalars; the result comes from PipeKSPRedWait_Private(). One at a time. */
PetscErrorCode PipeKSPRedStart_Private(PipeKSPRed r, int n, const PetscScalar local[])
{
  PetscFunctionBegin;
  PetscCheck(!r->nslots, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "A reduction is already pending on this engine");
  PetscCall(RedStart(r, n, local, NULL, &r->single));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PipeKSPRedWait_Private(PipeKSPRed r, PetscScalar global[])
{
  int slot = r->single;

  PetscFunctionBegin;
  PetscCheck(slot >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "No reduction pending on this engine");
  r->single = -1;
  PetscCall(RedFinish(r, slot, global, NULL, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PipeKSPRedStartSlot_Private - start the reduction (SUM) of n compensated local sums, local[k] + lo[k],
   while others may still be in flight; *slot names it for PipeKSPRedWaitSlot_Private(). */
PetscErrorCode PipeKSPRedStartSlot_Private(PipeKSPRed r, int n, const PetscScalar local[], const PetscScalar lo[], int *slot)
{
  PetscFunctionBegin;
  PetscCheck(r->single < 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "A single reduction is pending on this engine");
  PetscCheck(lo, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Slot reductions are compensated: the low parts are required");
  PetscCall(RedStart(r, n, local, lo, slot));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PipeKSPRedWaitSlot_Private - complete the reduction started in slot: its n sums rounded to global[], what
   the rounding left out to lo[] (if not NULL). */
PetscErrorCode PipeKSPRedWaitSlot_Private(PipeKSPRed r, int slot, PetscScalar global[], PetscScalar lo[])
{
  PetscFunctionBegin;
  PetscCheck(slot >= 0 && slot < PIPEKSP_RED_SLOTS && slot != r->single && r->slot[slot].pending, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "No reduction pending in slot %d", slot);
  PetscCall(RedFinish(r, slot, global, lo, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PipeKSPRedWaitAll_Private - complete every pending reduction (results dropped): early exits. */
PetscErrorCode PipeKSPRedWaitAll_Private(PipeKSPRed r)
{
  PetscFunctionBegin;
  PetscCall(RedDrain(r, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After an error unwound a solve between start and wait: take the requests back from the helper,
   complete them (every rank started them, so the waits return) and leave the engine idle and
   reusable. A no-op when nothing is pending. */
PetscErrorCode PipeKSPRedAbandon_Private(PipeKSPRed r)
{
  PetscFunctionBegin;
  if (!r || !r->nslots) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RedDrain(r, PETSC_FALSE));
  PetscCall(PetscInfo(NULL, "PipeKSP: completed a reduction left pending by an error\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}
