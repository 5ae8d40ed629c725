/* placeholder: replaced by the real implementation */
#include <pipeksp/pipekspimpl.h>
PetscErrorCode PipeKSPMatMult(Mat A, Vec x, Vec y) { PetscFunctionBegin; PetscCall(PipeKSPProgressPoll()); PetscCall(MatMult(A, x, y)); PetscCall(PipeKSPProgressPoll()); PetscFunctionReturn(0); }
PetscErrorCode PipeKSPMatMultInitializePackage(void) { return 0; }
