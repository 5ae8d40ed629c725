/* Private: the hybrid MPI+OpenMP hot path (src/sys/threads.c, src/mat/spmv_omp.c; the KSPs' fused passes run through PipeKSPThreadedBlocks_Private()).
   One thread count and one SpMV schedule per process, shared by the SpMV, the KSP vector kernels and
   asddic's sweeps. Not installed. */
#ifndef PIPEKSP_THREADSIMPL_H
#define PIPEKSP_THREADSIMPL_H

#include <pipeksp/pipekspimpl.h>

/* entries per block of the threaded vector kernels: partial sums are per block, not per thread, and
   added in block order, so a dot is the same for any thread count >= 2 and any schedule */
#define PIPEKSP_VEC_BLOCK 2048
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
   iterates. */
typedef void (*PipeKSPBlockFn)(const void *ctx, PetscInt i0, PetscInt i1, PetscScalar *d);
PETSC_INTERN PetscErrorCode PipeKSPThreadedBlocks_Private(PetscInt nt, PetscInt n, PetscInt nd, PipeKSPBlockFn fn, const void *ctx, PetscScalar *d);

/* What the threaded SpMV needs from PipeKSPMatMult's cache (src/mat/matmult.c). Ao, halo and ghost
   are NULL for Seq matrices; nodes (AIJ only) are matmult.c's groups of rows with equal columns. */
typedef struct {
  Mat             A, Ad, Ao;
  VecScatter      halo;
  Vec             ghost;
  PetscBool       aij;
  PetscInt        bs;
  PetscInt        chunk; /* rows per work item: the matrix's poll-point chunk */
  PetscInt        nnodes;
  const PetscInt *nodes;
} PipeKSPSpMVParts;
/* The halo exchange of every MPI product (src/mat/spmv_omp.c): hand-written point-to-point messages
   built from the scatter's PetscSF, so the threaded master can test them between its work items; the
   single-thread product uses it too, so ranks on either path always exchange the same messages.
   Begin is collective; End waits, then unpacks (bitwise VecScatterBegin/End's values). */
PETSC_INTERN PetscErrorCode PipeKSPHaloBegin_Private(VecScatter, Vec, Vec);
PETSC_INTERN PetscErrorCode PipeKSPHaloEnd_Private(VecScatter, Vec, Vec);
/* *polls is increased by the poll points the master thread issued */
PETSC_INTERN PetscErrorCode PipeKSPMatMultThreaded_Private(const PipeKSPSpMVParts *, Vec, Vec, PetscInt64 *);
/* the serial kernels of matmult.c over a range: AIJ nodes [k0,k1) starting at row r; BAIJ block rows
   [b0,b1) for bs <= 8 */
PETSC_INTERN void PipeKSPSpMVKernelAIJ_Private(const PetscInt *, PetscInt, PetscInt, PetscInt, const PetscInt *, const PetscInt *, const PetscScalar *, const PetscScalar *, PetscScalar *);
PETSC_INTERN void PipeKSPSpMVKernelBAIJ_Private(PetscInt, PetscInt, PetscInt, const PetscInt *, const PetscInt *, const PetscScalar *, const PetscScalar *, PetscScalar *);

/* Counters of the threaded SpMV in this process (exported for tests and the bench). */
typedef struct {
  PetscInt64     products;      /* threaded products */
  PetscInt64     chunks;        /* interior work items */
  PetscInt64     master_chunks; /* of which the master thread took */
  PetscInt64     claimed;       /* interior work items run, by all threads: equals chunks when each ran once */
  PetscInt64     stolen;        /* of which were claimed from another thread's share (dynamic schedule) */
  PetscInt64     halo_polls;    /* master polls while its halo messages were in flight */
  PetscLogDouble comm_time;     /* master: halo start + wait, seconds */
} PipeKSPSpMVThreadStats;
PETSC_EXTERN PetscErrorCode PipeKSPSpMVGetThreadStats(PipeKSPSpMVThreadStats *);

#endif
