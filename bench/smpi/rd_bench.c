/* Micro-benchmark for the validation of the reduction-latency emulator against SimGrid/SMPI.

   One allreduce of 16 bytes is started, the rank computes T microseconds split into k+1 equal pieces with
   one test of the reduction between pieces (k tests), then waits; we report the time spent in the wait.

   Two builds of this one file:
   - SMPI (-DRD_SMPI, smpicc): a user-level recursive-doubling allreduce over MPI_Isend/MPI_Irecv that
     advances ONE round per test or wait call, as Open MPI's libnbc does (SMPI's own MPI_Iallreduce posts all
     messages at once: "perfect progress", and P^2 messages for the simulator). Compute is simulated
     (smpi_execute_flops at the platform's host speed), so the run is exact and noise-free.
   - emulator (mpicc, LD_PRELOAD libpipeksp_emu.so, PIPEKSP_EMU_CLOCK=virtual): MPI_Iallreduce + MPI_Test;
     the emulator models the P_sim rounds; compute advances its virtual clock.
   Options: -T <us> (50), -ks <list> (0,1,2,4,8,16), -trials <n> (2), -speed <flop/s> (1e9; SMPI: the
   platform's host speed). Output (rank 0): "calib R <rounds> total_us <t>" from a T = 0, k = 0 run (all rounds
   back to back: the latency of the whole reduction), then one line "P k T wait_us" per k, the wait of the
   last trial, maximum over ranks. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef RD_SMPI
  #include <dlfcn.h>
#endif

static int    rank, size, R;
static double speed = 1e9;
#ifdef RD_SMPI
static double round_end[64]; /* when each round ended inside the last wait (rank 0 prints them) */
#endif

#ifdef RD_SMPI
static void compute(double us)
{
  if (us > 0) smpi_execute_flops(us * 1e-6 * speed);
}
static double now(void)
{
  return MPI_Wtime();
}
/* user-level recursive doubling, one round per progress call */
typedef struct {
  int         round;
  MPI_Request rq[2];
  double      buf[2], sbuf[2], rbuf[2];
} RD;
static void post(RD *rd)
{
  int partner = rank ^ (1 << rd->round);
  rd->sbuf[0] = rd->buf[0];
  rd->sbuf[1] = rd->buf[1];
  MPI_Irecv(rd->rbuf, 2, MPI_DOUBLE, partner, rd->round, MPI_COMM_WORLD, &rd->rq[0]);
  MPI_Isend(rd->sbuf, 2, MPI_DOUBLE, partner, rd->round, MPI_COMM_WORLD, &rd->rq[1]);
}
static void finish_round(RD *rd)
{
  rd->buf[0] += rd->rbuf[0];
  rd->buf[1] += rd->rbuf[1];
  if (++rd->round < R) post(rd);
}
static void start(RD *rd)
{
  rd->round  = 0;
  rd->buf[0] = 1.0;
  rd->buf[1] = rank;
  if (R) post(rd);
}
static void test(RD *rd)
{
  int flag = 0;
  if (rd->round >= R) return;
  MPI_Testall(2, rd->rq, &flag, MPI_STATUSES_IGNORE);
  if (flag) finish_round(rd);
}
static void wait(RD *rd)
{
  while (rd->round < R) {
    MPI_Waitall(2, rd->rq, MPI_STATUSES_IGNORE);
    round_end[rd->round] = now();
    finish_round(rd);
  }
}
static int check(RD *rd)
{
  return rd->buf[0] == size && rd->buf[1] == 0.5 * size * (size - 1);
}
#else
static void (*emu_advance)(double);
static double (*emu_clock)(void);
static void compute(double us)
{
  if (us > 0) emu_advance(us * 1e-6);
}
static double now(void)
{
  return emu_clock();
}
typedef struct {
  MPI_Request req;
  double      in[2], out[2];
} RD;
static void start(RD *rd)
{
  rd->in[0] = 1.0;
  rd->in[1] = rank;
  MPI_Iallreduce(rd->in, rd->out, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &rd->req);
}
static void test(RD *rd)
{
  int flag;
  MPI_Test(&rd->req, &flag, MPI_STATUS_IGNORE);
}
static void wait(RD *rd)
{
  MPI_Wait(&rd->req, MPI_STATUS_IGNORE);
}
static int check(RD *rd)
{
  return rd->out[0] == size && rd->out[1] == 0.5 * size * (size - 1);
}
#endif

/* one trial: start, k tests spread over T us of compute, wait; returns the wait (seconds), max over ranks */
static double trial(double T, int k, int *ok)
{
  RD     rd;
  double t0, w, wmax      = 0;
  int    j, good, allgood = 0;
  MPI_Barrier(MPI_COMM_WORLD);
#ifdef RD_SMPI
  { /* ranks leave a barrier at different times: start together at a common simulated instant instead */
    double t = now(), tmax = 0;
    MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    t = tmax + 1e-3 - now(); /* the allreduce itself ends at different times: a margin of 1 ms */
    if (t > 0) smpi_execute_flops(t * speed);
  }
#endif
  start(&rd);
  for (j = 0; j <= k; j++) {
    compute(T / (k + 1));
    if (j < k) test(&rd);
  }
  t0 = now();
  wait(&rd);
  w    = now() - t0;
  good = check(&rd);
  MPI_Allreduce(&w, &wmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&good, &allgood, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  *ok = allgood;
  return wmax;
}

int main(int argc, char **argv)
{
  double T = 50, w = 0;
  int    ks[32] = {0, 1, 2, 4, 8, 16}, nk = 6, trials = 2, i, t, ok = 1, P;
  char  *s;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-T") && i + 1 < argc) T = atof(argv[++i]);
    else if (!strcmp(argv[i], "-trials") && i + 1 < argc) trials = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-speed") && i + 1 < argc) speed = atof(argv[++i]);
    else if (!strcmp(argv[i], "-ks") && i + 1 < argc) {
      char *tok = strtok(argv[++i], ",");
      for (nk = 0; tok && nk < 32; tok = strtok(NULL, ",")) ks[nk++] = atoi(tok);
    }
  }
#ifdef RD_SMPI
  P = size;
  for (R = 0; (1 << R) < size; R++) { }
  if ((1 << R) != size) {
    if (!rank) fprintf(stderr, "rd_bench: %d ranks is not a power of two\n", size);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
#else
  emu_advance = (void (*)(double))dlsym(RTLD_DEFAULT, "pipeksp_emu_clock_advance");
  emu_clock   = (double (*)(void))dlsym(RTLD_DEFAULT, "pipeksp_emu_clock");
  s           = getenv("PIPEKSP_EMU_CLOCK");
  if (!emu_advance || !emu_clock || !s || strcmp(s, "virtual")) {
    if (!rank) fprintf(stderr, "rd_bench: run under the emulator with PIPEKSP_EMU_CLOCK=virtual (LD_PRELOAD=libpipeksp_emu.so)\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  s = getenv("PIPEKSP_EMU_P");
  P = s ? atoi(s) : size;
  for (R = 0; (1 << R) < P; R++) { }
#endif
  (void)s;
  for (t = 0; t < trials; t++) w = trial(0, 0, &ok);
  if (!rank) printf("calib P %d R %d total_us %.4f\n", P, R, 1e6 * w);
#ifdef RD_SMPI
  if (!rank) { /* the latency of each round when nothing overlaps: the per-hop alphas the platform implies */
    printf("alphas_us ");
    for (i = 0; i < R; i++) printf("%s%.4f", i ? "," : "", 1e6 * (round_end[i] - (i ? round_end[i - 1] : round_end[R - 1] - w)));
    printf("\n");
  }
#endif
  for (i = 0; i < nk; i++) {
    int good = 1;
    for (t = 0; t < trials; t++) w = trial(T, ks[i], &good);
    ok = ok && good;
    if (!rank) printf("P %d k %d T %g wait_us %.4f\n", P, ks[i], T, 1e6 * w);
  }
  if (!rank && !ok) printf("FAILED: wrong allreduce result\n");
  MPI_Finalize();
  return ok ? 0 : 1;
}
