/* Private: the threads API of the hybrid MPI+OpenMP hot path (src/sys/threads.c): one thread count and
   one SpMV schedule per process, shared by the SpMV (src/mat/spmv_omp.c), the KSP vector kernels (their
   fused passes run through PipeKSPThreadedBlocks_Private()) and asddic's sweeps. Not installed. */
#ifndef PIPEKSP_THREADSIMPL_H
#define PIPEKSP_THREADSIMPL_H

#include <pipeksp/pipekspimpl.h>

/* entries per block of the threaded vector kernels: partial sums are per block, not per thread, and
   added in block order, so a dot is the same for any thread count >= 2 and any schedule */
#define PIPEKSP_VEC_BLOCK   2048
#define PIPEKSP_THREADS_MAX 4096 /* threads per process: far above any node, below what would exhaust one */

/* threads the hot path uses now (1 without OpenMP); reads the options on first use */
PETSC_INTERN PetscInt PipeKSPThreadsNum_Private(void);
/* threads for a kernel on n local rows: 1 below -pipeksp_threads_min_rows */
PETSC_INTERN PetscInt PipeKSPThreadsFor_Private(PetscInt);
/* the settings read together: threads and SpMV schedule */
PETSC_INTERN PetscErrorCode PipeKSPThreadsGet_Private(PetscInt *, PipeKSPScheduleType *);
/* the poll hook on a team's master thread, between its work items and in its halo wait (src/sys/progress.c) */
PETSC_INTERN PetscErrorCode PipeKSPProgressPollMaster_Private(void);

/* d[0..nd-1] = sum over blocks b (in order) of the partial sums fn() returns for entries
   [b*PIPEKSP_VEC_BLOCK, ...) of [0, n); blocks run on nt threads. The KSPs' fused passes always run
   through it (1 thread, and builds without OpenMP, too), so every thread count gives bitwise the same
   iterates. It runs inside the PipeVecPass event and logs the pass's flops (flops per entry times n) there, so
   that -log_view and the SMPI shim's cost per event (bench/smpi/solve_shim.c) see the pass's own rate. */
typedef void (*PipeKSPBlockFn)(const void *ctx, PetscInt i0, PetscInt i1, PetscScalar *d);
PETSC_INTERN PetscErrorCode PipeKSPThreadedBlocks_Private(PetscInt nt, PetscInt n, PetscInt nd, PipeKSPBlockFn fn, const void *ctx, PetscLogDouble flops, PetscScalar *d);

#endif
