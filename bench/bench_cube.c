static char help[] = "Benchmark driver: several solver configurations on ONE GeoFEM/Cube problem in ONE run, interleaved\n\
over repetitions, so every ratio compares solves that shared the machine state.\n\
  -bench_config <file> : one configuration per line, \"label|options\" (options as for a KSP with no prefix,\n\
                         e.g. \"pipegv-poll|-ksp_type pipegv -ksp_pipe_progress poll -pc_type asddic\")\n\
  -bench_reps <n>      : repetitions (default 5)\n\
  -bench_tag <text>    : first CSV column(s) of every line (e.g. \"asddic,4096\")\n\
  -bench_check <tol>   : max-norm relative error vs the exact solution that counts as correct (1e-3)\n\
  -bench_order <shuffle|rotate|fixed> : order of the configurations in each repetition (shuffle)\n\
  -bench_seed <s>      : seed of the shuffle (1); printed with every repetition's order\n\
  -bench_warmup <n>    : untimed solves of every configuration before the first timed one (1)\n\
  -bench_base <label>  : configuration the paired ratios compare with (default: the first)\n\
  -bench_clock <wall|cpu|flops> : what a solve's seconds are (wall): cpu is the process's CPU time, which a rank\n\
                         descheduled on a loaded machine does not accrue (busy waits in MPI still count;\n\
                         the threads of a hybrid configuration add up: time those in wall); flops is the\n\
                         emulator's flop clock (PIPEKSP_EMU_CLOCK=flops, PETSc 3.20 or newer): PETSc's flop\n\
                         counter priced per event at the rates of PIPEKSP_SMPI_RATES, as the SIMULATED solves are\n\
  -log_view            : one stage per configuration, its timed solves only (the warm-up's are in the main stage)\n\
  A configuration's options may also hold -pipeksp_threads <t> and -pipeksp_spmv_schedule <s> (its own\n\
  thread count and schedule; the others keep the launch's) and -bench_ranks 1: it then runs on rank 0\n\
  alone (PETSC_COMM_SELF, its own copy of the cube) while the other ranks sleep, so a hybrid layout\n\
  (1 rank x t threads) and flat MPI (all ranks x 1 thread) share one launch, the same cores and the same\n\
  minutes. Launch with --bind-to none so that rank 0's threads may use the sleeping ranks' cores.\n\
  (-da_processors_* options that do not fit one rank fail those configurations.)\n\
  A configuration's -bench_latency_free: under the emulator (LD_PRELOAD), its solves run with no emulated\n\
  latency (pipeksp_emu_set_latency_free()), the latency-free limit measured in the same launch and repetitions\n\
  -bench_window <k1>,<k2> : time per iteration between the monitors of iterations k1 and k2 (clock reads at the\n\
                         same point of both iterations), not over the whole solve: steady iterations of a capped\n\
                         solve (-ksp_max_it above k2, e.g. large P under SMPI) without its start and end\n\
  -bench_settle_ms <ms> : after a solve on rank 0 alone, rank 0 sleeps this long before the next\n\
                         configuration (20), so that its idle OpenMP threads stop spinning first\n\
  plus -cube_* options. Prints one CSV line per solve: tag,label,rep,its,seconds,seconds_per_it,\n\
  red_model_s,red_exposed_s,hidden,ok,pos (red_*: reduction latency the emulator modelled / left exposed,\n\
  summed over ranks; hidden = 1 - exposed/model, -1 without the emulator; pos: place of the solve in its\n\
  repetition). Lines starting with # give the seed, each repetition's order, and at the end every\n\
  configuration's median and IQR of seconds per iteration, its paired ratio to the base (median and IQR\n\
  over repetitions of the ratio of its solve to the base's solve of the same repetition), and the check\n\
  that configurations with identical options agree within the noise band. A configuration whose set-up fails is reported as FAILED and skipped.\n";

#include <pipeksp.h>
#include <pipeksp/petsccompat.h>
#include <dlfcn.h>
#include <time.h>
#include "smpi/flop_price.h"

#define MAXCFG 32

typedef void (*EmuStatsFn)(double *);
typedef void (*EmuFreeFn)(int);
typedef int (*EmuComputeFn)(double (*)(void));

/* -bench_clock flops: the emulator's clock moves by the compute priced from PETSc's flop counter */
static PetscErrorCode FlopClockStart(void)
{
  PetscFunctionBegin;
#if PETSC_VERSION_GE(3, 20, 0) && !defined(PIPEKSP_SMPI)
  EmuComputeFn set  = (EmuComputeFn)dlsym(RTLD_DEFAULT, "pipeksp_emu_set_compute");
  int          read = 0;

  PetscCheck(set && set(PipeFlopPriceTake) == 0, PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT, "-bench_clock flops needs the emulator (LD_PRELOAD libpipeksp_emu.so) with PIPEKSP_EMU_CLOCK=flops");
  PetscCall((PetscErrorCode)PipeFlopPriceStart(&read));
  PetscCheck(read, PETSC_COMM_WORLD, PETSC_ERR_FILE_OPEN, "-bench_clock flops prices the flops at the costs of PIPEKSP_SMPI_RATES, which %s (bench/smpi/rates.txt, bench/smpi/rates.sh)", getenv("PIPEKSP_SMPI_RATES") ? "cannot be read" : "is not set");
#else
  SETERRQ(PETSC_COMM_WORLD, PETSC_ERR_SUP, "-bench_clock flops needs PETSc 3.20 or newer (PetscLogLegacyCallbacksBegin), natively");
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef enum {
  ORDER_SHUFFLE,
  ORDER_ROTATE,
  ORDER_FIXED
} BenchOrder;
static const char *const BenchOrders[] = {"shuffle", "rotate", "fixed", "BenchOrder", "ORDER_", NULL};

typedef enum {
  CLOCK_WALL,
  CLOCK_CPU,
  CLOCK_FLOPS
} BenchClock;
static const char *const BenchClocks[] = {"wall", "cpu", "flops", "BenchClock", "CLOCK_", NULL};

static double Now(BenchClock clk)
{
  struct timespec ts;

  if (clk != CLOCK_CPU) return MPI_Wtime(); /* the emulator's virtual clock under flops */
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* -bench_window: the clock at the monitors of iterations k[0] and k[1] of the running solve (one solve at a time) */
typedef struct {
  BenchClock clk;
  PetscInt   k[2];
  double     t[2];
} BenchMark;

static PetscErrorCode BenchMonitor(KSP ksp, PetscInt it, PetscReal rn, void *ctx)
{
  BenchMark *m = (BenchMark *)ctx;

  (void)ksp;
  (void)rn;
  for (int j = 0; j < 2; j++)
    if (it == m->k[j] && m->t[j] < 0) m->t[j] = Now(m->clk); /* a restart point is monitored once */
  return PETSC_SUCCESS;
}

static unsigned long long SplitMix(unsigned long long *s)
{
  unsigned long long z = (*s += 0x9E3779B97F4A7C15ULL);
  z                    = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z                    = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/* order of repetition r: the same on every rank (same seed), so the collective solves match.
   Neighbours change from one repetition to the next, so no configuration always follows the same one
   (a -thread solve leaves its helper thread's core state behind, a slow neighbour its cache misses). */
static void BenchPermutation(BenchOrder order, PetscInt r, PetscInt n, unsigned long long *state, PetscInt *perm)
{
  PetscInt i;
  for (i = 0; i < n; i++) perm[i] = order == ORDER_ROTATE ? (i + r) % n : i;
  if (order == ORDER_SHUFFLE)
    for (i = n - 1; i > 0; i--) { /* Fisher-Yates */
      PetscInt j = (PetscInt)(SplitMix(state) % (unsigned long long)(i + 1)), t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    }
}

static int CmpReal(const void *a, const void *b)
{
  PetscReal x = *(const PetscReal *)a, y = *(const PetscReal *)b;
  return x < y ? -1 : x > y;
}

/* quartile q (0.25, 0.5, 0.75) of v[0..n-1], linear interpolation between order statistics; sorts v */
static PetscReal Quartile(PetscReal *v, PetscInt n, PetscReal q)
{
  PetscReal h = q * (PetscReal)(n - 1);
  PetscInt  k = (PetscInt)h;
  qsort(v, (size_t)n, sizeof(PetscReal), CmpReal);
  return k + 1 < n ? v[k] + (h - (PetscReal)k) * (v[k + 1] - v[k]) : v[n - 1];
}

/* "-ksp_type cg -pc_type asddic" -> "-b3_ksp_type cg -b3_pc_type asddic" */
static PetscErrorCode PrefixOptions(const char *opts, const char *prefix, char *out, size_t len)
{
  const char *p = opts;
  size_t      k = 0;

  PetscFunctionBegin;
  out[0] = 0;
  while (*p) {
    if (*p == '-' && (p == opts || p[-1] == ' ' || p[-1] == '\t') && ((p[1] >= 'a' && p[1] <= 'z') || (p[1] >= 'A' && p[1] <= 'Z'))) {
      size_t pl = strlen(prefix);
      PetscCheck(k + pl + 2 < len, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Configuration options too long: %s", opts);
      out[k++] = '-';
      memcpy(out + k, prefix, pl);
      k += pl;
      p++;
      continue;
    }
    PetscCheck(k + 2 < len, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Configuration options too long: %s", opts);
    out[k++] = *p++;
  }
  out[k] = 0;
  PetscFunctionReturn(0);
}

/* wait for every rank without spinning: the ranks that sit out a configuration run on rank 0 alone must
   leave their cores to its threads (Open MPI's MPI_Barrier busy-polls) */
static PetscErrorCode SleepyBarrier(MPI_Comm comm)
{
  MPI_Request     req;
  int             done = 0;
  struct timespec ts   = {0, 1000000}; /* 1 ms: a wake-up costs the solving threads a few us of a core */

  PetscFunctionBegin;
  PetscCallMPI(MPI_Ibarrier(comm, &req));
  for (;;) {
    PetscCallMPI(MPI_Test(&req, &done, MPI_STATUS_IGNORE));
    if (done) break;
    nanosleep(&ts, NULL);
  }
  PetscFunctionReturn(0);
}

/* rank 0's own copy of the cube for the configurations run on it alone: the same sizes, material, load
   and matrix type, on PETSC_COMM_SELF (a launch's -da_processors_* that do not fit one rank make it
   fail, and those configurations are reported FAILED on every rank) */
static PetscErrorCode SelfCube(PipeKSPCube cube, Mat A, PipeKSPCube *scube)
{
  PetscInt  nx, ny, nz;
  PetscReal E, nu, load;
  PetscBool sb, b;

  PetscFunctionBegin;
  PetscCall(PipeKSPCubeGetInfo(cube, &nx, &ny, &nz, &E, &nu, &load));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)A, &sb, MATSEQSBAIJ, MATMPISBAIJ, ""));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)A, &b, MATSEQBAIJ, MATMPIBAIJ, ""));
  PetscCall(PipeKSPCubeCreate(PETSC_COMM_SELF, scube));
  PetscCall(PipeKSPCubeSetSizes(*scube, nx, ny, nz));
  PetscCall(PipeKSPCubeSetMaterial(*scube, E, nu));
  PetscCall(PipeKSPCubeSetLoad(*scube, load));
  PetscCall(PipeKSPCubeSetMatType(*scube, sb ? MATSBAIJ : b ? MATBAIJ : MATAIJ));
  PetscCall(PipeKSPCubeSetUp(*scube));
  PetscFunctionReturn(0);
}

/* the process's hybrid settings for one configuration (the library keeps one count per process) */
static PetscErrorCode SetLayout(PetscInt nt, PipeKSPScheduleType sched)
{
  PetscFunctionBegin;
  PetscCall(PipeKSPSetThreads(nt));
  PetscCall(PipeKSPSetSpMVSchedule(sched));
  PetscFunctionReturn(0);
}

/* the valid entries (> 0) of v[0..n-1] into w; returns their count */
static PetscInt Valid(const PetscReal *v, PetscInt n, PetscReal *w)
{
  PetscInt k = 0;
  for (PetscInt i = 0; i < n; i++)
    if (v[i] > 0) w[k++] = v[i];
  return k;
}

int main(int argc, char **argv)
{
  PipeKSPCube         cube, scube = NULL;
  Mat                 A, sA       = NULL;
  Vec                 b, x, sb = NULL, sx = NULL;
  KSP                 ksp[MAXCFG];
  PetscLogStage       stage[MAXCFG];
  char                cfgfile[PETSC_MAX_PATH_LEN], tag[256] = "", label[MAXCFG][64], line[2048], popts[4096], prefix[16], opts[MAXCFG][2048], base[64] = "";
  PetscBool           flg, failed[MAXCFG], alone[MAXCFG], selftried = PETSC_FALSE, selffailed = PETSC_FALSE, based = PETSC_FALSE;
  PetscInt            reps = 5, ncfg = 0, r, i, k, warmup = 1, perm[MAXCFG], nt0 = 1, cthreads[MAXCFG], ib = 0;
  PetscInt            seed = 1, settle = 20;
  BenchMark           mark = {CLOCK_WALL};
  PetscInt            nwin = 2;
  PetscBool           win  = PETSC_FALSE;
  PipeKSPScheduleType csched[MAXCFG];
  PipeKSPScheduleType sched0 = PIPEKSP_SCHEDULE_DYNAMIC;
  BenchOrder          order  = ORDER_SHUFFLE;
  BenchClock          clk    = CLOCK_WALL;
  unsigned long long  state;
  PetscReal          *spi, *w; /* spi[cfg * reps + rep]: seconds per iteration on rank 0, 0 where none */
  PetscReal           check = 1e-3;
  EmuStatsFn          emustats;
  EmuFreeFn           emufree;
  PetscBool           lfree[MAXCFG];
  PetscMPIInt         rank, size;
  FILE               *fp;

#if !defined(PIPEKSP_SMPI)
  /* the thread progress policy needs MPI_THREAD_MULTIPLE (SMPI has no thread support: not run there) */
  PETSC_MPI_THREAD_REQUIRED = MPI_THREAD_MULTIPLE;
#endif
  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PipeKSPInitializePackage());
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-bench_config", cfgfile, sizeof(cfgfile), &flg));
  PetscCheck(flg, PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT, "Give the configurations with -bench_config <file> (lines \"label|options\")");
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-bench_reps", &reps, NULL));
  PetscCheck(reps >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-bench_reps %" PetscInt_FMT " must be >= 1", reps);
  PetscCall(PetscOptionsGetString(NULL, NULL, "-bench_tag", tag, sizeof(tag), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-bench_base", base, sizeof(base), NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-bench_check", &check, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-bench_seed", &seed, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-bench_warmup", &warmup, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-bench_settle_ms", &settle, NULL));
  PetscCheck(settle >= 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-bench_settle_ms %" PetscInt_FMT " must be >= 0", settle);
  PetscCheck(warmup >= 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-bench_warmup %" PetscInt_FMT " must be >= 0", warmup);
  PetscCall(PetscOptionsGetEnum(NULL, NULL, "-bench_order", BenchOrders, (PetscEnum *)&order, NULL));
  PetscCall(PetscOptionsGetEnum(NULL, NULL, "-bench_clock", BenchClocks, (PetscEnum *)&clk, NULL));
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-bench_window", mark.k, &nwin, &win));
  PetscCheck(!win || (nwin == 2 && mark.k[0] >= 0 && mark.k[1] > mark.k[0]), PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-bench_window needs two iterations k1,k2 with 0 <= k1 < k2");
  if (clk == CLOCK_FLOPS) PetscCall(FlopClockStart());
  mark.clk  = clk;
  mark.t[0] = mark.t[1] = -1.0; /* no solve has passed k1, k2 */
  state                 = (unsigned long long)seed;
  emustats              = (EmuStatsFn)dlsym(RTLD_DEFAULT, "pipeksp_emu_get_stats");
  emufree               = (EmuFreeFn)dlsym(RTLD_DEFAULT, "pipeksp_emu_set_latency_free");
  /* the launch's hybrid settings, which configurations without their own get back */
  PetscCall(PipeKSPThreadsSetFromOptions(PETSC_COMM_WORLD));
  PetscCall(PipeKSPGetThreads(&nt0));
  PetscCall(PipeKSPGetSpMVSchedule(&sched0));

  PetscCall(PipeKSPCubeCreate(PETSC_COMM_WORLD, &cube));
  PetscCall(PipeKSPCubeSetFromOptions(cube));
  PetscCall(PipeKSPCubeSetUp(cube));
  PetscCall(PipeKSPCubeGetMatrix(cube, &A));
  PetscCall(PipeKSPCubeGetRHS(cube, &b));
  PetscCall(VecDuplicate(b, &x));

  /* every rank reads the file (same file system); errors are collective */
  fp = fopen(cfgfile, "r");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot open -bench_config %s", cfgfile);
  while (fgets(line, sizeof(line), fp)) {
    char     *bar = strchr(line, '|'), *nl = strchr(line, '\n');
    PetscInt  ranks = 0;
    PetscBool same;

    if (nl) *nl = 0;
    if (!bar || line[0] == '#') continue;
    PetscCheck(ncfg < MAXCFG, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "At most %d configurations in %s", MAXCFG, cfgfile);
    *bar = 0;
    PetscCall(PetscStrncpy(label[ncfg], line, sizeof(label[ncfg])));
    PetscCall(PetscStrncpy(opts[ncfg], bar + 1, sizeof(opts[ncfg])));
    PetscCall(PetscStrcmp(label[ncfg], base, &same));
    if (same) {
      ib    = ncfg;
      based = PETSC_TRUE;
    }
    PetscCall(PetscSNPrintf(prefix, sizeof(prefix), "b%" PetscInt_FMT "_", ncfg));
    PetscCall(PrefixOptions(bar + 1, prefix, popts, sizeof(popts)));
    PetscCall(PetscOptionsInsertString(NULL, popts));
    /* the configuration's own layout */
    cthreads[ncfg] = nt0;
    csched[ncfg]   = sched0;
    PetscCall(PetscOptionsGetInt(NULL, prefix, "-pipeksp_threads", &cthreads[ncfg], NULL));
    PetscCall(PetscOptionsGetEnum(NULL, prefix, "-pipeksp_spmv_schedule", PipeKSPScheduleTypes, (PetscEnum *)&csched[ncfg], NULL));
    PetscCall(PetscOptionsGetInt(NULL, prefix, "-bench_ranks", &ranks, NULL));
    lfree[ncfg] = PETSC_FALSE;
    PetscCall(PetscOptionsGetBool(NULL, prefix, "-bench_latency_free", &lfree[ncfg], NULL));
    PetscCheck(ranks == 0 || ranks == 1 || ranks == size, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "%s: -bench_ranks %" PetscInt_FMT " must be 1 or all %d ranks", label[ncfg], ranks, size);
    alone[ncfg] = (PetscBool)(ranks == 1 && size > 1);
    ksp[ncfg]   = NULL;
    if (alone[ncfg] && !selftried) { /* rank 0's own copy of the whole cube; its failure is collective */
      selftried = PETSC_TRUE;
      if (!rank) {
        PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
        selffailed = SelfCube(cube, A, &scube) ? PETSC_TRUE : PETSC_FALSE;
        PetscCall(PetscPopErrorHandler());
        if (selffailed) PetscCall(PipeKSPCubeDestroy(&scube));
        else {
          PetscCall(PipeKSPCubeGetMatrix(scube, &sA));
          PetscCall(PipeKSPCubeGetRHS(scube, &sb));
          PetscCall(VecDuplicate(sb, &sx));
        }
      }
      PetscCallMPI(MPI_Bcast(&selffailed, 1, PIPEKSP_MPI_BOOL, 0, PETSC_COMM_WORLD));
    }
    failed[ncfg] = (PetscBool)(alone[ncfg] && selffailed);
    if (!failed[ncfg] && (!alone[ncfg] || !rank)) {
      PetscCall(KSPCreate(alone[ncfg] ? PETSC_COMM_SELF : PETSC_COMM_WORLD, &ksp[ncfg]));
      PetscCall(KSPSetOptionsPrefix(ksp[ncfg], prefix));
      PetscCall(KSPSetOperators(ksp[ncfg], alone[ncfg] ? sA : A, alone[ncfg] ? sA : A));
      /* a solver that cannot be set up (e.g. not built yet) is skipped, not fatal */
      PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
      /* the configuration's threads after SetFromOptions, which reads the launch's -pipeksp_threads: the
         set-up (asddic's default ordering) must see the count the solves will run with */
      failed[ncfg] = (KSPSetFromOptions(ksp[ncfg]) || SetLayout(cthreads[ncfg], csched[ncfg]) || KSPSetUp(ksp[ncfg]) || (win && KSPMonitorSet(ksp[ncfg], BenchMonitor, &mark, NULL))) ? PETSC_TRUE : PETSC_FALSE;
      PetscCall(PetscPopErrorHandler());
    }
    if (alone[ncfg]) PetscCallMPI(MPI_Bcast(&failed[ncfg], 1, PIPEKSP_MPI_BOOL, 0, PETSC_COMM_WORLD));
    if (failed[ncfg]) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s,%s,FAILED set-up\n", tag, label[ncfg]));
    PetscCall(PetscLogStageRegister(label[ncfg], &stage[ncfg]));
    ncfg++;
  }
  fclose(fp);
  PetscCheck(!base[0] || based, PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT, "-bench_base %s: no configuration has that label", base);
  PetscCall(PetscCalloc2(ncfg * reps + 1, &spi, reps + 1, &w));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "# order %s, seed %" PetscInt_FMT ", %" PetscInt_FMT " untimed warm-up solve(s) of every configuration first, %s clock\n", BenchOrders[order], seed, warmup, BenchClocks[clk]));
  for (i = 0; i < ncfg; i++)
    if (alone[i]) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "# %s: rank 0 alone, %" PetscInt_FMT " thread(s), schedule %s; the other %d rank(s) sleep\n", label[i], cthreads[i], PipeKSPScheduleTypes[csched[i]], size - 1));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "# tag,label,rep,its,seconds,seconds_per_it,red_model_s,red_exposed_s,hidden,ok,pos\n"));

  /* repetition -1 .. -warmup: warm-up (caches, first-touch pages, the auto policy's probe, thread start) */
  for (r = -warmup; r < reps; r++) {
    BenchPermutation(order, r < 0 ? 0 : r, ncfg, &state, perm);
    if (r >= 0) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "# rep %" PetscInt_FMT " order:", r));
      for (k = 0; k < ncfg; k++) PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %s", label[perm[k]]));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n"));
    }
    for (k = 0; k < ncfg; k++) {
      double             s0[8] = {0}, s1[8] = {0}, loc[2], glob[2] = {0, 0}, t0 = 0, t1 = 0, tloc, tmax = 0;
      PetscInt           its    = 0;
      PetscReal          err    = 0;
      KSPConvergedReason reason = KSP_CONVERGED_ITERATING;
      PetscErrorCode     ierr   = 0;
      PetscBool          solver;

      i = perm[k];
      if (failed[i]) continue;
      solver = (PetscBool)(!alone[i] || !rank);
      PetscCall(SetLayout(cthreads[i], csched[i]));
      if (solver) PetscCall(VecZeroEntries(alone[i] ? sx : x));
      PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
      if (lfree[i] && emufree) emufree(1);
      if (emustats) emustats(s0);
      if (r >= 0) PetscCall(PetscLogStagePush(stage[i])); /* a stage holds the timed solves only: -log_view's counts per solve */
      if (solver) {
        mark.t[0] = mark.t[1] = -1.0;
        t0                    = Now(clk);
        PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
        ierr = KSPSolve(ksp[i], alone[i] ? sb : b, alone[i] ? sx : x);
        PetscCall(PetscPopErrorHandler());
        t1 = Now(clk);
      }
      if (r >= 0) PetscCall(PetscLogStagePop());
      if (lfree[i] && emufree) emufree(0); /* no reduction of the solve is pending after it */
      if (alone[i]) {
        if (!rank && settle) { /* libgomp's idle threads spin for about 7 ms here: not into the next solve */
          struct timespec ts = {(time_t)(settle / 1000), (long)(settle % 1000) * 1000000L};
          nanosleep(&ts, NULL);
        }
        PetscCall(SleepyBarrier(PETSC_COMM_WORLD));
        PetscCallMPI(MPI_Bcast(&ierr, 1, MPI_INT, 0, PETSC_COMM_WORLD));
      }
      if (ierr) {
        failed[i] = PETSC_TRUE;
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s,%s,FAILED solve (error %d)\n", tag, label[i], (int)ierr));
        continue;
      }
      if (r < 0) continue;
      if (emustats) emustats(s1);
      tloc = t1 - t0;
      if (win) tloc = mark.t[1] >= 0 ? mark.t[1] - mark.t[0] : 0.0; /* every rank reaches k2, or none does */
      /* blocking reductions expose all their latency; non-blocking ones what the waits paid */
      loc[0] = (s1[1] - s0[1]) + (s1[5] - s0[5]);
      loc[1] = (s1[2] - s0[2]) + (s1[5] - s0[5]);
      /* MPI_Reduce: not emulated, so the bookkeeping adds no latency */
      PetscCallMPI(MPI_Reduce(&tloc, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, PETSC_COMM_WORLD));
      PetscCallMPI(MPI_Reduce(loc, glob, 2, MPI_DOUBLE, MPI_SUM, 0, PETSC_COMM_WORLD));
      if (solver) {
        PetscCall(KSPGetIterationNumber(ksp[i], &its));
        PetscCall(KSPGetConvergedReason(ksp[i], &reason));
        PetscCall(PipeKSPCubeComputeError(alone[i] ? scube : cube, alone[i] ? sx : x, &err));
      }
      if (win) its = its >= mark.k[1] ? mark.k[1] - mark.k[0] : 0; /* the iterations timed */
      if (its) spi[i * reps + r] = tmax / its;
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s,%s,%" PetscInt_FMT ",%" PetscInt_FMT ",%.6e,%.6e,%.6e,%.6e,%.4f,%d,%" PetscInt_FMT "\n", tag, label[i], r, its, tmax, its ? tmax / its : 0.0, glob[0], glob[1], emustats && glob[0] > 0 ? 1.0 - glob[1] / glob[0] : -1.0, reason > 0 && err <= check ? 1 : 0, k));
    }
  }
  PetscCall(SetLayout(nt0, sched0));

  /* the noise band of each configuration, the paired ratios, and configurations with identical options
     must agree within the band */
  if (!rank) {
    PetscReal q1[MAXCFG], med[MAXCFG], q3[MAXCFG];
    PetscInt  nv[MAXCFG];
    for (i = 0; i < ncfg; i++) {
      q1[i] = med[i] = q3[i] = 0;
      nv[i]                  = Valid(spi + i * reps, reps, w);
      if (!nv[i]) continue;
      q1[i]  = Quartile(w, nv[i], 0.25);
      med[i] = Quartile(w, nv[i], 0.5);
      q3[i]  = Quartile(w, nv[i], 0.75);
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "# %s,%s: median %.1f us/it, IQR %.1f us/it (%.1f%%), %" PetscInt_FMT " repetitions\n", tag, label[i], 1e6 * med[i], 1e6 * (q3[i] - q1[i]), med[i] > 0 ? 100 * (q3[i] - q1[i]) / med[i] : 0.0, nv[i]));
    }
    /* the ratio of two solves of one repetition, seconds apart: the machine's drift over the run cancels */
    for (i = 0; i < ncfg; i++) {
      PetscInt  m = 0;
      PetscReal p1, p3;
      if (i == ib) continue;
      for (r = 0; r < reps; r++)
        if (spi[i * reps + r] > 0 && spi[ib * reps + r] > 0) w[m++] = spi[i * reps + r] / spi[ib * reps + r];
      if (!m) continue;
      p1 = Quartile(w, m, 0.25);
      p3 = Quartile(w, m, 0.75);
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "# paired %s,%s/%s: median %.4f, IQR %.4f [%.4f, %.4f], %" PetscInt_FMT " repetitions\n", tag, label[i], label[ib], Quartile(w, m, 0.5), p3 - p1, p1, p3, m));
    }
    for (i = 0; i < ncfg; i++)
      for (k = i + 1; k < ncfg; k++) {
        PetscBool same;
        PetscReal band, ratio;
        PetscCall(PetscStrcmp(opts[i], opts[k], &same));
        if (!same || !nv[i] || !nv[k] || med[i] <= 0) continue;
        /* band: the larger relative IQR of the two (at least 1%: a quiet machine gives tiny IQRs) */
        band  = PetscMax(0.01, PetscMax((q3[i] - q1[i]) / med[i], (q3[k] - q1[k]) / med[k]));
        ratio = med[k] / med[i];
        PetscCall(PetscPrintf(PETSC_COMM_SELF, "# identical %s,%s = %s: medians %.1f and %.1f us/it, ratio %.3f, noise band +-%.3f: %s\n", tag, label[i], label[k], 1e6 * med[i], 1e6 * med[k], ratio, band,
                              PetscAbsReal(ratio - 1) > band ? "DISAGREE (the machine changed during the run: do not trust its ratios)"
                              : band > 0.25                  ? "agree, but the band is wider than 0.25 (a loaded machine): only large differences count"
                                                             : "agree"));
      }
  }
  /* pipeplcg's depth (with -ksp_pipe_depth auto: the one it chose) */
  for (i = 0; i < ncfg; i++) {
    PetscBool plcg = PETSC_FALSE;
    PetscInt  l;
    if (rank || failed[i]) continue; /* rank 0 holds every configuration's KSP */
    PetscCall(PetscObjectTypeCompare((PetscObject)ksp[i], KSPPIPEPLCG, &plcg));
    if (!plcg) continue;
    PetscCall(KSPPipePLCGGetDepth(ksp[i], &l));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "# depth %s,%s: %" PetscInt_FMT "\n", tag, label[i], l));
  }
  PetscCall(PetscFree2(spi, w));
  for (i = 0; i < ncfg; i++) PetscCall(KSPDestroy(&ksp[i]));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&sx));
  PetscCall(PipeKSPCubeDestroy(&cube));
  PetscCall(PipeKSPCubeDestroy(&scube));
  PetscCall(PetscFinalize());
  return 0;
}
