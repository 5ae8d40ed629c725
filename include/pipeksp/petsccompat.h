/* Private: one source for PETSc 3.18 through 3.26. Each name below is the newest PETSc's spelling or a
   PipeKSP name for what changed; older versions get it mapped from petscversion.h, so no file tests the
   version itself. Nothing here copies PETSc code. */
#ifndef PIPEKSP_PETSCCOMPAT_H
#define PIPEKSP_PETSCCOMPAT_H

#include <petscversion.h>
#include <petscksp.h>
#include <petsc/private/petscimpl.h>

#if PETSC_VERSION_LT(3, 18, 0)
  #error "PipeKSP needs PETSc 3.18 or newer"
#endif

/* PetscErrorCode became an enum with a named success in 3.19 */
#if PETSC_VERSION_LT(3, 19, 0)
  #define PETSC_SUCCESS 0
#endif

/* 3.26's petscsys.h no longer includes <xmmintrin.h>, which PETSC_PREFETCH_HINT_* expand into */
#if defined(PETSC_HAVE_XMMINTRIN_H)
  #include <xmmintrin.h>
#endif

/* The argument of XXXSetFromOptions(): a pointer to a struct up to 3.22, a pointer type itself from 3.23 */
#if PETSC_VERSION_LT(3, 23, 0)
typedef PetscOptionItems *PipeKSPOptionItems;
#else
typedef PetscOptionItems PipeKSPOptionItems;
#endif

/* Pointer checks: one macro since 3.20 */
#if PETSC_VERSION_LT(3, 20, 0)
  #define PetscAssertPointer(h, arg) PetscValidPointer(h, arg)
#endif

/* A container's destroy callback gets the context up to 3.22 and its address from 3.23 (PetscCtxDestroyFn:
   void ** in 3.23-3.24, PetscCtxRt = void * from 3.25). Write callbacks as
   PetscErrorCode f(PipeKSPCtxDestroyArg arg) and read the context with PipeKSPContainerCtx(arg). */
#if PETSC_VERSION_LT(3, 23, 0)
typedef void *PipeKSPCtxDestroyArg;
  #define PipeKSPContainerSetDestroy(c, f) PetscContainerSetUserDestroy(c, f)
  #define PipeKSPContainerCtx(arg)         (arg)
#else
  #if PETSC_VERSION_LT(3, 25, 0)
typedef void           **PipeKSPCtxDestroyArg;
  #else
typedef void *PipeKSPCtxDestroyArg;
  #endif
  #define PipeKSPContainerSetDestroy(c, f) PetscContainerSetCtxDestroy(c, f)
  #define PipeKSPContainerCtx(arg)         (*(void **)(arg))
#endif

/* Viewer from the options database: renamed in 3.22 */
#if PETSC_VERSION_LT(3, 22, 0)
  #define PetscOptionsCreateViewer(comm, op, pre, name, v, fmt, set) PetscOptionsGetViewer(comm, op, pre, name, v, fmt, set)
#endif

/* Fill a vector with Inf: VecFlag(v, 1) from 3.22 */
#if PETSC_VERSION_LT(3, 22, 0)
  #define PipeKSPVecSetInf(v) VecSetInf(v)
#else
  #define PipeKSPVecSetInf(v) VecFlag(v, 1)
#endif

/* The MPI datatype of a PetscBool: an enum (int) up to 3.23, a one-byte C bool from 3.24 */
#if PETSC_VERSION_LT(3, 24, 0)
  #define PIPEKSP_MPI_BOOL MPIU_BOOL
#else
  #define PIPEKSP_MPI_BOOL MPI_C_BOOL
#endif

/* PetscErrorMessage()'s message argument: char ** up to 3.24, const char ** from 3.25 */
#if PETSC_VERSION_LT(3, 25, 0)
typedef char *PipeKSPErrorText;
#else
typedef const char      *PipeKSPErrorText;
#endif

/* Whether the PC scales the system diagonally; the feature was removed in 3.26 (nothing to refuse) */
static inline PetscErrorCode PipeKSPPCGetDiagonalScale(PC pc, PetscBool *flg)
{
#if PETSC_VERSION_LT(3, 26, 0)
  return PCGetDiagonalScale(pc, flg);
#else
  (void)pc;
  *flg = PETSC_FALSE;
  return PETSC_SUCCESS;
#endif
}

/* Read-only access to a SeqBAIJ's values, which has no Read variant. From 3.26 MatSeqBAIJRestoreArray()
   counts as a change of the values: a new object state, so every PC would set up again and every cached
   product start afresh at each use. Our uses only read, so the state is put back as it was. */
static inline PetscErrorCode PipeKSPMatSeqBAIJGetArrayRead(Mat A, const PetscScalar **a)
{
  return MatSeqBAIJGetArray(A, (PetscScalar **)a);
}

static inline PetscErrorCode PipeKSPMatSeqBAIJRestoreArrayRead(Mat A, const PetscScalar **a)
{
  PetscObjectState state;

  PetscFunctionBegin;
  PetscCall(PetscObjectStateGet((PetscObject)A, &state));
  PetscCall(MatSeqBAIJRestoreArray(A, (PetscScalar **)a));
  PetscCall(PetscObjectStateSet((PetscObject)A, state));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#endif
