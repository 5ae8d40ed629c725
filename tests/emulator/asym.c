/* A legal program whose ranks meet a reduction at different points: rank 0 starts an MPI_Iallreduce, computes
   past the model's rounds and then tests it between sends that rank 1 must receive before it joins. Under the
   flop clock (PIPEKSP_EMU_CLOCK=flops) a test of a reduction the model has finished waits a bounded while for
   the real one; it must not wait for good (a hang before 2026-11-27's fix). Prints "asymmetric check passed". */
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
  int         rank, size, x = 1, y = 0, m = 7, i, flag = 0;
  MPI_Request r;
  void (*compute)(double) = (void (*)(double))dlsym(RTLD_DEFAULT, "pipeksp_emu_clock_advance");

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0) {
    MPI_Iallreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
    for (i = 0; i < 12; i++) {
      if (compute) compute(1e-3); /* longer than the model's rounds */
      MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
      MPI_Send(&m, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    }
    if (!flag) MPI_Wait(&r, MPI_STATUS_IGNORE);
  } else {
    if (rank == 1)
      for (i = 0; i < 12; i++) MPI_Recv(&m, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Iallreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  }
  if (rank == 0) printf("%s\n", y == size && !compute ? "FAILED: no emulator" : y == size ? "asymmetric check passed" : "asymmetric check FAILED: wrong sum");
  MPI_Finalize();
  return 0;
}
