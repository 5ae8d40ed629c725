/* pipeksp_emu: reduction-latency emulator, an LD_PRELOAD PMPI shim.

   EMULATION, not a measurement: it makes every MPI_Allreduce / MPI_Iallreduce on a communicator of
   more than one rank cost what a recursive-doubling allreduce over P_sim nodes would cost, on top of
   the real (shared-memory) reduction, which is still done with PMPI so the data stay exact.

   Model (see bench/README.md):
     rounds R = ceil(log2 P_sim); hop i of reduction k lasts h = alpha + beta*bytes + jitter (an
     exponential draw with mean PIPEKSP_EMU_JITTER_US, from a counter-based RNG keyed by seed, the
     reduction's index on its communicator and i, so every rank draws the same noise for the same
     reduction).
     progress=library: the rounds advance on their own; model completion = start + sum of hops.
     progress=calls  : round 1 starts when MPI_Iallreduce is called; round i+1 starts at the earliest
       instant, at or after the end of round i, at which the rank is inside an intercepted MPI call
       (the interval [entry, exit] of any wrapper below). A short call (MPI_Test, MPI_Isend, ...)
       therefore advances at most one round; a blocking call (MPI_Wait*, MPI_Recv, ...) runs the
       remaining rounds back to back.
     A non-blocking reduction is complete when the model says so AND the real one is done; the user
     sees a generalized request (MPI_Grequest_start) that we complete at that moment.
     Blocking MPI_Allreduce returns at max(real completion, entry + sum of hops) (busy wait).
     Both variants start the model clock at the rank's own entry, so arrival skew overlaps the
     modelled latency in the same way for both.

   Environment: PIPEKSP_EMU_P (unset or 1: pure pass-through), PIPEKSP_EMU_ALPHA_US (default 2),
   PIPEKSP_EMU_BETA_NS_PER_BYTE (0), PIPEKSP_EMU_JITTER_US (0), PIPEKSP_EMU_SEED (1),
   PIPEKSP_EMU_PROGRESS=calls|library (calls), PIPEKSP_EMU_YIELD=0|1 (default: 1 when the node is
   oversubscribed: sched_yield() in busy waits), PIPEKSP_EMU_STATS=<file> (each rank appends one
   line of counters at MPI_Finalize), PIPEKSP_EMU_VERBOSE=1 (rank 0 prints the model at MPI_Init),
   PIPEKSP_EMU_CLOCK=wall|cpu|virtual|flops (virtual: for unit tests; cpu: process CPU time; flops: compute priced
   by the program; see now()), PIPEKSP_EMU_P2P=interval|point
   (how other MPI calls count, see leave()). */
#define _GNU_SOURCE
#include <mpi.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct emu_req {
  MPI_Request     greq; /* what the user holds */
  MPI_Request     real; /* the PMPI_Iallreduce doing the data */
  int             real_done;
  int             rounds, round; /* round = rounds completed so far */
  uint64_t        key;           /* RNG key of this reduction */
  double          bytes;
  double          t_start, t_done; /* t_done: end of the round in flight (library: end of all rounds) */
  double          t_model_done;    /* when the last round ended (0 while running) */
  double          model_total;     /* sum of hops (the latency with perfect progress) */
  double          wait_te;         /* entry time of the first wait on it (0: none yet) */
  struct emu_req *next;
} emu_req;

typedef struct {
  long long nb, nb_waited, nb_done_before_wait, ar, calls;
  double    nb_model, nb_exposed, nb_blocked, ar_model, ar_wall;
} emu_stats;

static int    g_on = 0, g_init = 0, g_calls = 1, g_p2p_point = 0, g_yield = 0, g_verbose = 0, g_rounds = 0;
static int    g_self  = 0; /* PIPEKSP_EMU_SELF=1: one-rank communicators are emulated too */
static long   g_P     = 1;
static double g_alpha = 2e-6, g_beta = 0, g_jitter = 0;
#define EMU_MAX_ALPHAS 64
static double          g_alphas[EMU_MAX_ALPHAS]; /* per-round hop latency (last one repeats) */
static int             g_nalphas  = 0;
static double          g_noise_us = 0, g_noise_prob = 0; /* OS noise: delay, per-rank chance per reduction */
static double          g_noise_hit  = 0;                 /* chance that some rank of P_sim is hit */
static uint64_t        g_seed       = 1;
static const char     *g_stats_file = NULL;
static pthread_mutex_t g_lock       = PTHREAD_MUTEX_INITIALIZER;
static emu_req        *g_pending    = NULL;
static volatile int    g_npending   = 0;
static emu_stats       g_st;
static int             g_keyval = MPI_KEYVAL_INVALID;

typedef struct {
  uint64_t count;   /* reductions issued on this communicator */
  int      emulate; /* intracommunicator of size > 1 */
} emu_comm;

/* PIPEKSP_EMU_CLOCK=virtual (unit tests): time stands still except where the program moves it
   (pipeksp_emu_clock_advance) or a wait jumps it to the model's next event; a discrete-event run of
   the model, exact and free of scheduling noise. The real reductions still run. */
static int    g_virtual = 0;
static double g_vclock  = 0;
/* PIPEKSP_EMU_CLOCK=cpu: the model's clock is the process's CPU time, so a rank that the OS deschedules
   (a loaded, shared machine) neither computes nor waits meanwhile: drivers that time in CPU time too
   (bench_cube -bench_clock cpu) then see the model's latencies whatever the load (bench/smpi/solve.sh) */
static int g_cpu = 0;
/* PIPEKSP_EMU_CLOCK=flops: the virtual clock, moved by the compute the program prices (a hook it registers with
   pipeksp_emu_set_compute: bench_cube -bench_clock flops prices PETSc's flop counter per event at the rates
   the SIMULATED solves use), by the model's waits, and read by MPI_Wtime: the host's speed drops out, so the
   emulator's model can be compared with SMPI's on equal compute (bench/smpi/solve.sh) */
static int g_flops            = 0;
static double (*g_take)(void) = NULL; /* seconds computed since its last call; called on its own thread only */
static pthread_t g_take_thread;

static inline double now(void)
{
  struct timespec ts;
  if (g_take && pthread_equal(pthread_self(), g_take_thread)) g_vclock += g_take();
  if (g_virtual) return g_vclock;
  clock_gettime(g_cpu ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline void relax(void)
{
  if (g_yield) sched_yield();
#if defined(__x86_64__) || defined(__i386__)
  else __builtin_ia32_pause();
#endif
}

static uint64_t splitmix64(uint64_t x)
{
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

/* uniform (0,1] draw from the counter-based generator: the same on every rank for the same (key, i, stream) */
static double draw(uint64_t key, int i, uint64_t stream)
{
  uint64_t c = key * 64 + (uint64_t)i; /* stream 0 (jitter) draws what it always drew */
  uint64_t r = splitmix64(g_seed ^ splitmix64(stream ? stream ^ splitmix64(c) : c));
  return ((double)(r >> 11) + 1.0) / 9007199254740993.0;
}

/* duration of hop i of the reduction with RNG key `key`: the round's latency (per round when
   PIPEKSP_EMU_ALPHA_US is a list, e.g. cheaper rounds inside a fat-tree leaf), jitter, and OS noise: with
   chance g_noise_hit some rank of the P_sim is descheduled for g_noise_us during this reduction; its
   partners wait for it in one round (drawn uniformly), and every later round inherits the delay */
static double hop(uint64_t key, int i, double bytes)
{
  double h = (g_nalphas ? g_alphas[i < g_nalphas ? i : g_nalphas - 1] : g_alpha) + g_beta * bytes;
  if (g_jitter > 0) h += -g_jitter * log(draw(key, i, 0));
  if (g_noise_hit > 0 && draw(key, 0, 1) <= g_noise_hit && (int)(draw(key, 0, 2) * g_rounds) == i) h += g_noise_us;
  return h;
}

static void fail(const char *var, const char *val, const char *what)
{
  fprintf(stderr, "pipeksp_emu: %s=\"%s\" is invalid: %s. Fix or unset it (unset PIPEKSP_EMU_P for pure pass-through).\n", var, val, what);
  PMPI_Abort(MPI_COMM_WORLD, 1);
  exit(1);
}

static double env_real(const char *var, double def, double lo)
{
  const char *s = getenv(var);
  char       *end;
  double      v;
  if (!s || !*s) return def;
  v = strtod(s, &end);
  if (*end || !(v >= lo) || !isfinite(v)) fail(var, s, lo > 0 ? "must be a number > 0" : "must be a number >= 0");
  return v;
}

/* read the environment; called once after PMPI_Init */
static void emu_configure(void)
{
  const char *s;
  char       *end;
  if (g_init) return;
  g_init = 1;
  memset(&g_st, 0, sizeof(g_st));
  s = getenv("PIPEKSP_EMU_P");
  if (!s || !*s) return;
  g_P = strtol(s, &end, 10);
  if (*end || g_P < 1 || g_P > (1L << 30)) fail("PIPEKSP_EMU_P", s, "must be an integer number of simulated nodes between 1 and 2^30");
  s = getenv("PIPEKSP_EMU_ALPHA_US");
  if (s && strchr(s, ',')) { /* per-round list: a0,a1,...; the last value holds for the later rounds */
    const char *q = s;
    while (*q && g_nalphas < EMU_MAX_ALPHAS) {
      double v = strtod(q, &end);
      if (end == q || !(v >= 0) || !isfinite(v) || (*end && *end != ',')) fail("PIPEKSP_EMU_ALPHA_US", s, "must be a number >= 0 or a comma-separated list of them (one per round)");
      g_alphas[g_nalphas++] = 1e-6 * v;
      q                     = *end ? end + 1 : end;
    }
    g_alpha = g_alphas[g_nalphas - 1];
  } else g_alpha = 1e-6 * env_real("PIPEKSP_EMU_ALPHA_US", 2.0, 0);
  g_beta       = 1e-9 * env_real("PIPEKSP_EMU_BETA_NS_PER_BYTE", 0.0, 0);
  g_jitter     = 1e-6 * env_real("PIPEKSP_EMU_JITTER_US", 0.0, 0);
  g_noise_us   = 1e-6 * env_real("PIPEKSP_EMU_NOISE_US", 0.0, 0);
  g_noise_prob = env_real("PIPEKSP_EMU_NOISE_PROB", 0.0, 0);
  if (g_noise_prob > 1) fail("PIPEKSP_EMU_NOISE_PROB", getenv("PIPEKSP_EMU_NOISE_PROB"), "must be a probability in [0, 1]");
  s = getenv("PIPEKSP_EMU_SEED");
  if (s && *s) {
    g_seed = strtoull(s, &end, 10);
    if (*end) fail("PIPEKSP_EMU_SEED", s, "must be a non-negative integer");
  }
  s = getenv("PIPEKSP_EMU_PROGRESS");
  if (!s || !*s || !strcmp(s, "calls")) g_calls = 1;
  else if (!strcmp(s, "library")) g_calls = 0;
  else fail("PIPEKSP_EMU_PROGRESS", s, "must be calls or library");
  s = getenv("PIPEKSP_EMU_YIELD");
  if (s && *s) g_yield = atoi(s) != 0;
  else { /* busy waits give the core away when ranks outnumber cores */ const char *ls   = getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
    long                                                                            ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    g_yield                                                                              = ls && ncpu > 0 && atol(ls) > ncpu;
  }
  s = getenv("PIPEKSP_EMU_P2P");
  if (!s || !*s || !strcmp(s, "interval")) g_p2p_point = 0;
  else if (!strcmp(s, "point")) g_p2p_point = 1;
  else fail("PIPEKSP_EMU_P2P", s, "must be interval or point");
  /* per-process latency: a one-rank run (e.g. 1 rank x 2 threads standing for one node of P_sim) pays the
     latency of a P_sim-process reduction on its one-rank communicators too; its PETSC_COMM_SELF reductions
     are then delayed as well, so use it where the solve has none per iteration (jacobi, asddic) */
  s = getenv("PIPEKSP_EMU_SELF");
  if (!s || !*s || !strcmp(s, "0")) g_self = 0;
  else if (!strcmp(s, "1")) g_self = 1;
  else fail("PIPEKSP_EMU_SELF", s, "must be 0 or 1");
  s = getenv("PIPEKSP_EMU_CLOCK");
  if (s && *s && strcmp(s, "virtual") && strcmp(s, "wall") && strcmp(s, "cpu") && strcmp(s, "flops")) fail("PIPEKSP_EMU_CLOCK", s, "must be wall, cpu, virtual or flops");
  g_flops      = s && !strcmp(s, "flops");
  g_virtual    = s && (!strcmp(s, "virtual") || g_flops);
  g_cpu        = s && !strcmp(s, "cpu");
  s            = getenv("PIPEKSP_EMU_VERBOSE");
  g_verbose    = s && atoi(s);
  g_stats_file = getenv("PIPEKSP_EMU_STATS");
  for (g_rounds = 0; (1L << g_rounds) < g_P; g_rounds++) { }
  g_on = g_rounds > 0;
  /* some rank of P_sim hit during one reduction: 1 - (1 - p)^P_sim */
  g_noise_hit = g_noise_us > 0 && g_noise_prob > 0 ? -expm1((double)g_P * log1p(-g_noise_prob)) : 0;
  if (g_noise_prob == 1) g_noise_hit = g_noise_us > 0 ? 1 : 0;
  if (g_verbose) {
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (!rank)
      fprintf(stderr, "pipeksp_emu: EMULATED allreduce latency: P_sim %ld, %d rounds, alpha %g us%s, beta %g ns/B, jitter mean %g us/hop, OS noise %g us with chance %g per reduction, seed %llu, progress %s, other MPI calls count as %s%s\n", g_P, g_rounds, 1e6 * g_alpha, g_nalphas ? " (last of a per-round list)" : "", 1e9 * g_beta, 1e6 * g_jitter, 1e6 * g_noise_us, g_noise_hit, (unsigned long long)g_seed, g_calls ? "calls" : "library", g_p2p_point ? "points" : "intervals", g_yield ? ", yielding busy waits" : "");
  }
}

static int comm_delete(MPI_Comm c, int kv, void *val, void *extra)
{
  free(val);
  return MPI_SUCCESS;
}

/* per-communicator state (cached as an attribute); NULL when the communicator is not emulated */
static emu_comm *comm_state(MPI_Comm comm)
{
  emu_comm *ec;
  int       flag = 0, inter = 0, size = 1;
  if (!g_on || comm == MPI_COMM_NULL) return NULL;
  pthread_mutex_lock(&g_lock);
  if (g_keyval == MPI_KEYVAL_INVALID) PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, comm_delete, &g_keyval, NULL);
  PMPI_Comm_get_attr(comm, g_keyval, &ec, &flag);
  if (!flag) {
    ec = (emu_comm *)calloc(1, sizeof(*ec));
    PMPI_Comm_test_inter(comm, &inter);
    PMPI_Comm_size(comm, &size);
    ec->emulate = !inter && (size > 1 || g_self);
    PMPI_Comm_set_attr(comm, g_keyval, ec);
  }
  pthread_mutex_unlock(&g_lock);
  return ec->emulate ? ec : NULL;
}

/* Move every pending reduction forward: the rank is (has been) inside MPI during [te, t]. Completes
   the generalized requests whose model and real reduction are both done. Caller holds no lock. */
static void advance(double te, double t)
{
  emu_req **pp;
  if (!g_npending) return;
  pthread_mutex_lock(&g_lock);
  pp = &g_pending;
  while (*pp) {
    emu_req *e = *pp;
    if (!e->real_done) {
      int f = 0;
      PMPI_Test(&e->real, &f, MPI_STATUS_IGNORE);
      e->real_done = f;
    }
    if (!e->t_model_done) {
      if (g_calls) {
        while (e->round < e->rounds && e->t_done <= t) {
          e->round++;
          if (e->round < e->rounds) e->t_done = (e->t_done > te ? e->t_done : te) + hop(e->key, e->round, e->bytes);
          else e->t_model_done = e->t_done;
        }
      } else if (e->t_done <= t) e->t_model_done = e->t_done;
    }
    if (e->t_model_done && e->real_done) {
      *pp = e->next;
      g_npending--;
      if (e->wait_te > 0) {
        g_st.nb_waited++;
        g_st.nb_exposed += e->t_model_done > e->wait_te ? e->t_model_done - e->wait_te : 0;
        g_st.nb_blocked += t - e->wait_te;
      } else g_st.nb_done_before_wait++;
      PMPI_Grequest_complete(e->greq); /* e may be freed by the user's wait from now on */
      continue;
    }
    pp = &e->next;
  }
  pthread_mutex_unlock(&g_lock);
}

static emu_req *find_locked(MPI_Request r)
{
  emu_req *e;
  if (r == MPI_REQUEST_NULL) return NULL;
  for (e = g_pending; e; e = e->next)
    if (e->greq == r) return e;
  return NULL;
}

/* one step of a busy wait inside MPI: wall clock: pause; virtual clock: jump to the end of the
   earliest round in flight */
static void idle_step(void)
{
  emu_req *e;
  double   t = -1;
  if (!g_virtual) {
    relax();
    return;
  }
  pthread_mutex_lock(&g_lock);
  for (e = g_pending; e; e = e->next)
    if (!e->t_model_done && (t < 0 || e->t_done < t)) t = e->t_done;
  if (t > g_vclock) g_vclock = t;
  pthread_mutex_unlock(&g_lock);
}

/* exported for tests under PIPEKSP_EMU_CLOCK=virtual: the rank "computes" for dt seconds */
double pipeksp_emu_clock(void)
{
  return now();
}
void pipeksp_emu_clock_advance(double dt)
{
  if (g_virtual && dt > 0) g_vclock += dt;
}

/* exported for benchmark drivers (found with dlsym) under PIPEKSP_EMU_CLOCK=flops: take() returns the seconds
   the calling thread computed since its last call; returns 0 when registered, -1 under another clock */
int pipeksp_emu_set_compute(double (*take)(void))
{
  if (!g_flops) return -1;
  g_take_thread = pthread_self();
  g_take        = take;
  return 0;
}

/* under the flop clock MPI_Wtime is the virtual clock, as SMPI's is simulated (pipeplcg's automatic depth and
   the driver time with it) */
double MPI_Wtime(void)
{
  static int warned = 0;
  if (g_flops && !g_take && !warned) {
    warned = 1;
    fprintf(stderr, "pipeksp_emu: PIPEKSP_EMU_CLOCK=flops, but the program prices no compute (pipeksp_emu_set_compute, e.g. bench_cube -bench_clock flops): only the model's waits move MPI_Wtime\n");
  }
  return g_flops ? now() : PMPI_Wtime();
}

/* exported for benchmark drivers (found with dlsym): on = 1 passes every call through, as P_sim 1 does, until
   called again with 0; for the latency-free reference solves of the same launch (bench_cube's
   -bench_latency_free). Call it between solves, on every rank, with no reduction pending */
void pipeksp_emu_set_latency_free(int on)
{
  g_on = on ? 0 : g_rounds > 0;
}

/* exported for benchmark drivers (found with dlsym): this rank's counters so far, times in seconds:
   s[0] non-blocking reductions, s[1] their modelled latency, s[2] its part exposed in waits on them,
   s[3] wall time blocked in those waits, s[4] blocking allreduces, s[5] their modelled latency,
   s[6] their wall time, s[7] rounds per reduction (0: emulation off) */
void pipeksp_emu_get_stats(double s[8])
{
  pthread_mutex_lock(&g_lock);
  s[0] = (double)g_st.nb;
  s[1] = g_st.nb_model;
  s[2] = g_st.nb_exposed;
  s[3] = g_st.nb_blocked;
  s[4] = (double)g_st.ar;
  s[5] = g_st.ar_model;
  s[6] = g_st.ar_wall;
  s[7] = g_on ? g_rounds : 0;
  pthread_mutex_unlock(&g_lock);
}

/* does the array hold one of our pending requests? marks the waits' entry time when te > 0 */
static int mark_pending(int n, MPI_Request reqs[], double te)
{
  int i, any = 0;
  if (!g_npending) return 0;
  pthread_mutex_lock(&g_lock);
  for (i = 0; i < n; i++) {
    emu_req *e = find_locked(reqs[i]);
    if (e) {
      any = 1;
      if (te > 0 && e->wait_te == 0) e->wait_te = te;
    }
  }
  pthread_mutex_unlock(&g_lock);
  return any;
}

/* generalized-request callbacks */
static int greq_query(void *extra, MPI_Status *st)
{
  PMPI_Status_set_elements(st, MPI_BYTE, 0);
  PMPI_Status_set_cancelled(st, 0);
  st->MPI_SOURCE = MPI_UNDEFINED;
  st->MPI_TAG    = MPI_UNDEFINED;
  st->MPI_ERROR  = MPI_SUCCESS;
  return MPI_SUCCESS;
}
static int greq_free(void *extra)
{
  free(extra);
  return MPI_SUCCESS;
}
static int greq_cancel(void *extra, int complete)
{
  return MPI_SUCCESS; /* a collective cannot be cancelled */
}

/* enter/leave bracket for every intercepted call */
#define EMU_ENTER() \
  double te_ = 0; \
  if (g_npending) { \
    te_ = now(); \
    advance(te_, te_); \
  }
#define EMU_LEAVE() leave(te_ ? te_ : now())

/* exit of a call that is not a wait on one of our reductions (halo exchange, other collectives):
   PIPEKSP_EMU_P2P=interval (default): the rank was inside MPI during [te, now]; =point: only the
   exit instant counts (blocked time in such calls is not used to progress reductions) */
static void leave(double te)
{
  double t;
  if (!g_npending) return;
  t = now();
  advance(g_p2p_point ? t : te, t);
}

/* ---------------- initialization / finalization ---------------- */
int MPI_Init(int *argc, char ***argv)
{
  int rc = PMPI_Init(argc, argv);
  emu_configure();
  return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
  int rc = PMPI_Init_thread(argc, argv, required, provided);
  emu_configure();
  return rc;
}

int MPI_Finalize(void)
{
  /* drain what the program left pending, then report */
  while (g_npending) {
    advance(now(), now());
    idle_step();
  }
  if (g_on && g_stats_file) {
    int   rank = 0, size = 1;
    FILE *f;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    f = fopen(g_stats_file, "a");
    if (f) {
      fprintf(f,
              "pipeksp_emu rank=%d size=%d P=%ld rounds=%d alpha_us=%g jitter_us=%g progress=%s nb=%lld nb_model_us=%.3f nb_exposed_us=%.3f nb_blocked_us=%.3f nb_waited=%lld nb_done_before_wait=%lld ar=%lld ar_model_us=%.3f "
              "ar_wall_us=%.3f\n",
              rank, size, g_P, g_rounds, 1e6 * g_alpha, 1e6 * g_jitter, g_calls ? "calls" : "library", g_st.nb, 1e6 * g_st.nb_model, 1e6 * g_st.nb_exposed, 1e6 * g_st.nb_blocked, g_st.nb_waited, g_st.nb_done_before_wait, g_st.ar, 1e6 * g_st.ar_model,
              1e6 * g_st.ar_wall);
      fclose(f);
    }
  }
  return PMPI_Finalize();
}

/* ---------------- reductions ---------------- */
int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
  emu_comm *ec = comm_state(comm);
  double    te, total = 0, bytes, t;
  int       rc, tsize = 0, i;
  uint64_t  key;
  if (!ec) {
    EMU_ENTER();
    rc = PMPI_Allreduce(sendbuf, recvbuf, count, dt, op, comm);
    EMU_LEAVE();
    return rc;
  }
  te = now();
  advance(te, te);
  PMPI_Type_size(dt, &tsize);
  bytes = (double)tsize * count;
  pthread_mutex_lock(&g_lock);
  key = ec->count++;
  pthread_mutex_unlock(&g_lock);
  for (i = 0; i < g_rounds; i++) total += hop(key, i, bytes);
  rc = PMPI_Allreduce(sendbuf, recvbuf, count, dt, op, comm);
  if (g_virtual && g_vclock < te + total) g_vclock = te + total;
  while ((t = now()) < te + total) {
    if (g_npending) advance(te, t);
    relax();
  }
  advance(te, t);
  pthread_mutex_lock(&g_lock);
  g_st.ar++;
  g_st.ar_model += total;
  g_st.ar_wall += t - te;
  pthread_mutex_unlock(&g_lock);
  return rc;
}

int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
  emu_comm *ec = comm_state(comm);
  emu_req  *e;
  double    te;
  int       rc, tsize = 0, i;
  if (!ec) {
    EMU_ENTER();
    rc = PMPI_Iallreduce(sendbuf, recvbuf, count, dt, op, comm, request);
    EMU_LEAVE();
    return rc;
  }
  te = now();
  advance(te, te);
  e  = (emu_req *)calloc(1, sizeof(*e));
  rc = PMPI_Iallreduce(sendbuf, recvbuf, count, dt, op, comm, &e->real);
  if (rc != MPI_SUCCESS) {
    free(e);
    return rc;
  }
  PMPI_Type_size(dt, &tsize);
  e->bytes   = (double)tsize * count;
  e->rounds  = g_rounds;
  e->t_start = te;
  pthread_mutex_lock(&g_lock);
  e->key = ec->count++;
  pthread_mutex_unlock(&g_lock);
  for (i = 0; i < e->rounds; i++) e->model_total += hop(e->key, i, e->bytes);
  e->t_done = g_calls ? te + hop(e->key, 0, e->bytes) : te + e->model_total; /* round 1 starts now */
  rc        = PMPI_Grequest_start(greq_query, greq_free, greq_cancel, e, &e->greq);
  if (rc != MPI_SUCCESS) {
    PMPI_Wait(&e->real, MPI_STATUS_IGNORE);
    free(e);
    return rc;
  }
  *request = e->greq;
  pthread_mutex_lock(&g_lock);
  e->next   = g_pending;
  g_pending = e;
  g_npending++;
  g_st.nb++;
  g_st.nb_model += e->model_total;
  pthread_mutex_unlock(&g_lock);
  advance(te, now());
  return MPI_SUCCESS;
}

/* ---------------- completion calls ---------------- */
static void settle(int n, MPI_Request reqs[]);

int MPI_Test(MPI_Request *req, int *flag, MPI_Status *st)
{
  EMU_ENTER();
  (void)te_;
  settle(1, req);
  return PMPI_Test(req, flag, st);
}

int MPI_Testall(int n, MPI_Request reqs[], int *flag, MPI_Status sts[])
{
  EMU_ENTER();
  (void)te_;
  settle(n, reqs);
  return PMPI_Testall(n, reqs, flag, sts);
}

int MPI_Testany(int n, MPI_Request reqs[], int *index, int *flag, MPI_Status *st)
{
  EMU_ENTER();
  (void)te_;
  settle(n, reqs);
  return PMPI_Testany(n, reqs, index, flag, st);
}

int MPI_Testsome(int n, MPI_Request reqs[], int *outcount, int indices[], MPI_Status sts[])
{
  EMU_ENTER();
  (void)te_;
  settle(n, reqs);
  return PMPI_Testsome(n, reqs, outcount, indices, sts);
}

int MPI_Request_get_status(MPI_Request req, int *flag, MPI_Status *st)
{
  EMU_ENTER();
  (void)te_;
  settle(1, &req);
  return PMPI_Request_get_status(req, flag, st);
}

/* the flop clock: a test of one of our requests whose model has finished spins (inside MPI, on the real clock,
   which costs no virtual time) until its real reduction is done too, so a partner's real lag does not change the
   answer (deterministic). Bounded: a program whose partner cannot arrive before this rank goes on (an asymmetric
   one) hears "not yet" after a second, as without the flop clock; a wait on the request blocks as MPI's does */
static void settle(int n, MPI_Request reqs[])
{
  struct timespec t0, t1;
  int             i, any = 0;
  if (!g_flops || !g_npending) return;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (i = 0; i < n; i++) {
    for (;;) {
      emu_req *e;
      int      f = 1;
      pthread_mutex_lock(&g_lock);
      e = find_locked(reqs[i]);
      if (e && e->t_model_done && !e->real_done) {
        f = 0;
        PMPI_Test(&e->real, &f, MPI_STATUS_IGNORE);
        e->real_done = f;
        any |= f;
      }
      pthread_mutex_unlock(&g_lock);
      if (f) break;
      clock_gettime(CLOCK_MONOTONIC, &t1);
      if ((double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec) > 1.0) return;
      relax();
    }
  }
  if (any) advance(now(), now());
}

/* spin (inside MPI) until none of reqs[] is one of our pending requests */
static void drive(int n, MPI_Request reqs[], double te)
{
  while (mark_pending(n, reqs, 0)) {
    advance(te, now());
    if (mark_pending(n, reqs, 0)) idle_step();
  }
}

int MPI_Wait(MPI_Request *req, MPI_Status *st)
{
  double te;
  int    rc;
  if (!g_npending) return PMPI_Wait(req, st);
  te = now();
  if (mark_pending(1, req, te)) drive(1, req, te);
  else advance(te, te);
  rc = PMPI_Wait(req, st);
  leave(te);
  return rc;
}

int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status sts[])
{
  double te;
  int    rc;
  if (!g_npending) return PMPI_Waitall(n, reqs, sts);
  te = now();
  if (mark_pending(n, reqs, te)) drive(n, reqs, te);
  else advance(te, te);
  rc = PMPI_Waitall(n, reqs, sts);
  leave(te);
  return rc;
}

/* Waitany/Waitsome: poll (inside MPI) until one request is done, so our requests can complete */
int MPI_Waitany(int n, MPI_Request reqs[], int *index, MPI_Status *st)
{
  double te;
  int    rc, flag = 0;
  if (!g_npending) return PMPI_Waitany(n, reqs, index, st);
  te = now();
  if (!mark_pending(n, reqs, te)) {
    advance(te, te);
    rc = PMPI_Waitany(n, reqs, index, st);
    leave(te);
    return rc;
  }
  for (;;) {
    advance(te, now());
    rc = PMPI_Testany(n, reqs, index, &flag, st);
    if (rc != MPI_SUCCESS || flag) return rc;
    idle_step();
  }
}

int MPI_Waitsome(int n, MPI_Request reqs[], int *outcount, int indices[], MPI_Status sts[])
{
  double te;
  int    rc;
  if (!g_npending) return PMPI_Waitsome(n, reqs, outcount, indices, sts);
  te = now();
  if (!mark_pending(n, reqs, te)) {
    advance(te, te);
    rc = PMPI_Waitsome(n, reqs, outcount, indices, sts);
    leave(te);
    return rc;
  }
  for (;;) {
    advance(te, now());
    rc = PMPI_Testsome(n, reqs, outcount, indices, sts);
    if (rc != MPI_SUCCESS || *outcount != 0) return rc; /* >0 done, MPI_UNDEFINED: all inactive */
    idle_step();
  }
}

/* freeing a pending non-blocking collective is erroneous (MPI-3 3.7.3); report it as MPI would */
int MPI_Request_free(MPI_Request *req)
{
  int found;
  EMU_ENTER();
  (void)te_;
  found = mark_pending(1, req, 0);
  if (found) {
    PMPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_REQUEST);
    return MPI_ERR_REQUEST;
  }
  return PMPI_Request_free(req);
}

/* ---------------- other "inside MPI" moments (the SpMV halo exchange and friends) ---------------- */
int MPI_Isend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm, MPI_Request *req)
{
  int rc;
  EMU_ENTER();
  rc = PMPI_Isend(buf, count, dt, dest, tag, comm, req);
  EMU_LEAVE();
  return rc;
}

int MPI_Irecv(void *buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm, MPI_Request *req)
{
  int rc;
  EMU_ENTER();
  rc = PMPI_Irecv(buf, count, dt, src, tag, comm, req);
  EMU_LEAVE();
  return rc;
}

int MPI_Send(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm)
{
  int rc;
  EMU_ENTER();
  rc = PMPI_Send(buf, count, dt, dest, tag, comm);
  EMU_LEAVE();
  return rc;
}

int MPI_Recv(void *buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm, MPI_Status *st)
{
  int rc;
  EMU_ENTER();
  rc = PMPI_Recv(buf, count, dt, src, tag, comm, st);
  EMU_LEAVE();
  return rc;
}

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype sdt, int dest, int stag, void *rbuf, int rcount, MPI_Datatype rdt, int src, int rtag, MPI_Comm comm, MPI_Status *st)
{
  int rc;
  EMU_ENTER();
  rc = PMPI_Sendrecv(sbuf, scount, sdt, dest, stag, rbuf, rcount, rdt, src, rtag, comm, st);
  EMU_LEAVE();
  return rc;
}

int MPI_Start(MPI_Request *req)
{
  int rc;
  EMU_ENTER();
  rc = PMPI_Start(req);
  EMU_LEAVE();
  return rc;
}

int MPI_Startall(int n, MPI_Request reqs[])
{
  int rc;
  EMU_ENTER();
  rc = PMPI_Startall(n, reqs);
  EMU_LEAVE();
  return rc;
}

int MPI_Iprobe(int src, int tag, MPI_Comm comm, int *flag, MPI_Status *st)
{
  EMU_ENTER();
  (void)te_;
  return PMPI_Iprobe(src, tag, comm, flag, st);
}

int MPI_Probe(int src, int tag, MPI_Comm comm, MPI_Status *st)
{
  int rc;
  EMU_ENTER();
  rc = PMPI_Probe(src, tag, comm, st);
  EMU_LEAVE();
  return rc;
}

int MPI_Barrier(MPI_Comm comm)
{
  int rc;
  EMU_ENTER();
  rc = PMPI_Barrier(comm);
  EMU_LEAVE();
  return rc;
}
