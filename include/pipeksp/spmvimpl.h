/* Private: the poll-point SpMV's internals: what the single-thread product (src/mat/matmult.c) hands the
   threaded one (src/mat/spmv_omp.c), and the test hooks of both. Not installed. */
#ifndef PIPEKSP_SPMVIMPL_H
#define PIPEKSP_SPMVIMPL_H

#include <pipeksp/pipekspimpl.h>

/* Which path PipeKSPMatMult() took for a matrix on its last call */
typedef enum {
  PIPEKSP_SPMV_FALLBACK = 0, /* MatMult() with polls around it */
  PIPEKSP_SPMV_SEQAIJ,
  PIPEKSP_SPMV_SEQBAIJ,
  PIPEKSP_SPMV_MPIAIJ,
  PIPEKSP_SPMV_MPIBAIJ
} PipeKSPSpMVPath;

/* Poll points PipeKSPMatMult() has issued in this process so far (exported for tests). */
PETSC_EXTERN PetscErrorCode PipeKSPMatMultGetPollPoints(PetscInt64 *);
/* Path taken by the last PipeKSPMatMult() call in this process (exported for tests). */
PETSC_EXTERN PetscErrorCode PipeKSPMatMultGetLastPath(PipeKSPSpMVPath *);

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
/* The threaded product (src/mat/spmv_omp.c); *polls is increased by the poll points the master thread
   issued */
PETSC_INTERN PetscErrorCode PipeKSPMatMultThreaded_Private(const PipeKSPSpMVParts *, Vec, Vec, PetscInt64 *);
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
