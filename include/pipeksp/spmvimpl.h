/* Private: test hooks of the poll-point SpMV (src/mat/matmult.c). Not installed. */
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

#endif
