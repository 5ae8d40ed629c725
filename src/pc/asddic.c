/* placeholder: replaced by the real implementation */
#include <pipeksp/pipekspimpl.h>
PetscErrorCode PCCreate_ASDDIC(PC pc) { SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "placeholder"); }
PetscErrorCode PipeKSPPCInitializePackage(void) { return 0; }
