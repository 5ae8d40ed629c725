/* placeholder: replaced by the real implementation */
#include <pipeksp/pipekspimpl.h>
PetscErrorCode KSPCreate_ChronGear(KSP ksp) { SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "placeholder"); }
