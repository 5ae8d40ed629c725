/* Private: the halo exchange of PipeKSPMatMult()'s MPI products (src/mat/halo.c). Not installed. */
#ifndef PIPEKSP_HALOIMPL_H
#define PIPEKSP_HALOIMPL_H

#include <pipeksp/pipekspimpl.h>

/* ghost = x over the halo scatter, in point-to-point messages built from the scatter's PetscSF, so the
   threaded master can test them between its work items; the single-thread product uses it too, so ranks
   on either path always exchange the same messages. Begin is collective; Test is not; End waits, then
   unpacks (bitwise VecScatterBegin/End's values). */
PETSC_INTERN PetscErrorCode PipeKSPHaloBegin_Private(VecScatter, Vec, Vec);
PETSC_INTERN PetscErrorCode PipeKSPHaloTest_Private(VecScatter, PetscBool *);
PETSC_INTERN PetscErrorCode PipeKSPHaloEnd_Private(VecScatter, Vec, Vec);

#endif
