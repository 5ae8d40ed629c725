/* placeholder: replaced by the real implementation */
#include <pipeksp/pipekspimpl.h>
const char *const PipeKSPProgressTypes[] = {"none","poll","thread","auto","blocking","PipeKSPProgressType","PIPEKSP_PROGRESS_",NULL};
PetscErrorCode PipeKSPProgressPoll(void) { return 0; }
PetscErrorCode PipeKSPProgressInitializePackage(void) { return 0; }
