/* Checks bench/smpi/solve_shim.c under SMPI without PETSc (PETSc's few calls are stubbed here): built with
   smpicc and the shim's -Wl,--wrap list by tests/smpi/shim_check.sh. SIMULATED time throughout.
   1. Deterministic compute: flops "logged" (the stub's counter) are charged at the next MPI call at the
      default cost per flop of the rates file (PIPEKSP_SMPI_RATES): 1e6 flops at 1e-9 s = 1 ms exactly.
   2. MPI_Iallreduce, one round per MPI call: results (SUM of 2 doubles, MAX, two in flight, Testsome and
      Waitall on a mix); with compute and no MPI call before the wait, the wait pays the rounds after the
      first (>= (R-1)/2 x the latency of one round), also with a user-defined commutative operation (as
      pipeplcg's pair sums); with a test between pieces of compute longer than a round, the wait pays less
      than a tenth of that.
   3. MPI_Scan / MPI_Exscan results (recursive doubling), also at a size that is not a power of two.
   Prints "shim_check PASSED" or FAIL lines (rank 0). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* PETSc's calls the shim makes, stubbed */
static double flops = 0;
int           PetscGetFlops(double *f)
{
  *f = flops;
  return 0;
}
int PetscLogEventGetName(int e, const char *n[])
{
  (void)e;
  *n = "NoSuchEvent";
  return 0;
}
int PetscLogLegacyCallbacksBegin(void *a, void *b, void *c, void *d)
{
  (void)a, (void)b, (void)c, (void)d;
  return 0;
}
int PetscInitialize(int *a, char ***b, const char *c, const char *d)
{
  (void)a, (void)b, (void)c, (void)d;
  return 0;
}

static int  rank, size, fails = 0;
static void check(int ok, const char *what)
{
  int all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!all) {
    if (!rank) printf("FAIL: %s (P=%d)\n", what, size);
    fails++;
  }
}

/* a user-defined commutative operation on pairs of doubles, as pipeplcg's compensated sums */
static void PairAdd(void *in, void *inout, int *len, MPI_Datatype *type)
{
  const double *a = (const double *)in;
  double       *b = (double *)inout;
  int           k;
  (void)type;
  for (k = 0; k < 2 * *len; k++) b[k] += a[k];
}

/* one reduction: start, n pieces of c seconds of compute with a test between pieces (tests = 1) or none,
   then wait; returns the wait (maximum over ranks). user: of one pair with a user-defined operation */
static double trial(int n, double c, int tests, int user, int *ok)
{
  double       in[2] = {1, rank}, out[2], t0, w, wmax;
  MPI_Request  r;
  MPI_Datatype pair;
  MPI_Op       op;
  int          flag = 0, i;
  MPI_Barrier(MPI_COMM_WORLD);
  if (user) {
    MPI_Type_contiguous(2, MPI_DOUBLE, &pair);
    MPI_Type_commit(&pair);
    MPI_Op_create(PairAdd, 1, &op);
    MPI_Iallreduce(in, out, 1, pair, op, MPI_COMM_WORLD, &r);
  } else MPI_Iallreduce(in, out, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &r);
  for (i = 0; i < n; i++) {
    flops += c * 1e9; /* 1e-9 s per flop: the default of the rates file */
    if (tests && !flag) MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
  }
  t0 = MPI_Wtime(); /* charges the compute not yet charged */
  if (!flag) MPI_Wait(&r, MPI_STATUS_IGNORE);
  w   = MPI_Wtime() - t0;
  *ok = out[0] == size && out[1] == 0.5 * size * (size - 1);
  if (user) {
    MPI_Op_free(&op);
    MPI_Type_free(&pair);
  }
  MPI_Allreduce(&w, &wmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return wmax;
}

int main(int argc, char **argv)
{
  int    R, ok, k, pow2;
  double t0, t1, lat, wnone, wpoll, wuser;

  MPI_Init(&argc, &argv);
  PetscInitialize(&argc, &argv, NULL, NULL); /* the shim's wrapper: reads the rates file */
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (R = 0; (1 << R) < size; R++) { }
  pow2 = (1 << R) == size;

  /* 1. compute is charged from the flop counter */
  t0 = MPI_Wtime();
  flops += 1e6;
  t1 = MPI_Wtime();
  check(t1 - t0 > 0.999e-3 && t1 - t0 < 1.001e-3, "1e6 flops at 1e-9 s/flop must cost 1 ms of simulated time");

  /* 2. results: two reductions in flight, completed by MPI_Test, MPI_Wait, MPI_Testsome and MPI_Waitall */
  for (k = 0; k < 3; k++) {
    double      a[2] = {1, rank}, b = rank, ra[2], rb;
    MPI_Request rq[2];
    int         flag = 0, i, oc, idx[2];
    MPI_Iallreduce(a, ra, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &rq[0]);
    MPI_Iallreduce(&b, &rb, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD, &rq[1]);
    for (i = 0; i < 3 * k && !flag; i++) {
      flops += 1e3;
      MPI_Test(&rq[0], &flag, MPI_STATUS_IGNORE);
    }
    if (k == 2) {
      flops += 1e4;
      MPI_Testsome(2, rq, &oc, idx, MPI_STATUSES_IGNORE);
      MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    } else {
      if (!flag) MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
      MPI_Wait(&rq[1], MPI_STATUS_IGNORE);
    }
    check(ra[0] == size && ra[1] == 0.5 * size * (size - 1) && rb == size - 1 && rq[0] == MPI_REQUEST_NULL && rq[1] == MPI_REQUEST_NULL, "MPI_Iallreduce results and requests");
  }

  /* 2. a user-defined operation at every size (at one that is not a power of two the shim reduces it
     blocking: SMPI's own MPI_Iallreduce returned the local values) */
  trial(0, 0, 0, 1, &ok);
  check(ok, "MPI_Iallreduce result (a user-defined operation)");

  /* 2. the progress rule */
  if (pow2 && R >= 2) {
    lat   = trial(0, 0, 0, 0, &ok) / R; /* all rounds back to back: the latency of one round */
    wnone = trial(8, 10 * lat, 0, 0, &ok);
    check(ok, "MPI_Iallreduce result (no tests)");
    wpoll = trial(8, 10 * lat, 1, 0, &ok);
    check(ok, "MPI_Iallreduce result (tests)");
    wuser = trial(8, 10 * lat, 0, 1, &ok);
    check(ok, "MPI_Iallreduce result (a user-defined operation)");
    check(wuser >= 0.5 * (R - 1) * lat, "a user-defined commutative operation must take the one-round-per-call path too");
    if (!rank) printf("P=%d: %d rounds of %.3f us; wait after 80 rounds of compute: no tests %.3f us, a test every 10 rounds %.3f us\n", size, R, 1e6 * lat, 1e6 * wnone, 1e6 * wpoll);
    check(wnone >= 0.5 * (R - 1) * lat, "without MPI calls the rounds after the first must wait for the wait");
    check(wpoll < 0.1 * wnone, "tests between pieces of compute must advance the rounds");
  }

  /* 3. scans */
  {
    int s = rank + 1, sc = 0, ex = -1;
    MPI_Scan(&s, &sc, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Exscan(&s, &ex, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    check(sc == (rank + 1) * (rank + 2) / 2, "MPI_Scan");
    check(!rank || ex == rank * (rank + 1) / 2, "MPI_Exscan");
  }
  if (!rank && !fails) printf("shim_check PASSED (P=%d)\n", size);
  MPI_Finalize();
  return fails ? 1 : 0;
}
