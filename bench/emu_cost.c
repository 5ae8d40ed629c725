/* The cost of one MPI_Test on a pending MPI_Iallreduce, as the solvers' poll points pay it: Open MPI's own,
   and with the reduction-latency emulator preloaded (tools/emulator, whose wrapper adds its bookkeeping to
   every intercepted call). Plain MPI, no PETSc. Rank 0 starts the reduction and tests it in a loop; the
   other ranks join only after a delay, so the request stays pending for the whole window (Open MPI) or the
   emulated latency keeps it pending (emulator). Prints ns per call, median over trials.
   usage: mpiexec -n 2 emu_cost [trials] [window_us] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
  int       rank, size, trials = argc > 1 ? atoi(argv[1]) : 200;
  double    window    = 1e-6 * (argc > 2 ? atof(argv[2]) : 200.0), *ns;
  long long calls_all = 0;

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2 || trials < 1 || !(window > 0)) {
    if (!rank) fprintf(stderr, "emu_cost: needs 2+ ranks, trials >= 1, window_us > 0\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  ns = (double *)malloc(sizeof(double) * trials);
  for (int t = 0; t < trials; t++) {
    double      in = rank, out = 0, t0, t1;
    long long   calls = 0;
    int         flag  = 0;
    MPI_Request req;

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank) { /* join late: rank 0's request stays pending for the window */
      t0 = MPI_Wtime();
      while (MPI_Wtime() - t0 < window) { }
      MPI_Iallreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
      continue;
    }
    MPI_Iallreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req);
    t0 = MPI_Wtime();
    t1 = t0;
    /* only calls that find the request pending count, inside the window where it surely is */
    while (t1 - t0 < 0.8 * window) {
      MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
      if (flag) break;
      calls++;
      t1 = MPI_Wtime();
    }
    ns[t] = calls ? 1e9 * (t1 - t0) / calls : 0;
    calls_all += calls;
    if (!flag) MPI_Wait(&req, MPI_STATUS_IGNORE);
  }
  if (!rank) {
    qsort(ns, trials, sizeof(double), cmp);
    printf("MPI_Test on a pending MPI_Iallreduce: %.1f ns per call (median of %d trials, IQR %.1f-%.1f, %lld calls)\n", ns[trials / 2], trials, ns[trials / 4], ns[(3 * trials) / 4], calls_all);
  }
  free(ns);
  MPI_Finalize();
  return 0;
}
