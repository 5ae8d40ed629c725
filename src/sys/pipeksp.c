/* Package registration: -dll_append entry point and PipeKSPInitializePackage(). */
#include <pipeksp/threadsimpl.h>

PetscClassId     PIPEKSP_CLASSID            = 0;
static PetscBool PipeKSPPackageInitialized = PETSC_FALSE;

PetscErrorCode PipeKSPFinalizePackage(void)
{
  PetscFunctionBegin;
  PipeKSPPackageInitialized = PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode PipeKSPInitializePackage(void)
{
  PetscFunctionBegin;
  if (PipeKSPPackageInitialized) PetscFunctionReturn(0);
  PipeKSPPackageInitialized = PETSC_TRUE;
  /* KSP/PC must have their own registries in place before we add to them */
  PetscCall(KSPInitializePackage());
  PetscCall(PCInitializePackage());
  PetscCall(PetscClassIdRegister("PipeKSP", &PIPEKSP_CLASSID));
  PetscCall(KSPRegister(KSPPIPEGROPP, KSPCreate_PipeGropp));
  PetscCall(KSPRegister(KSPPIPEGV, KSPCreate_PipeGV));
  PetscCall(KSPRegister(KSPCHRONGEAR, KSPCreate_ChronGear));
  PetscCall(KSPRegister(KSPPIPEPLCG, KSPCreate_PipePLCG));
  PetscCall(PCRegister(PCASDDIC, PCCreate_ASDDIC));
  PetscCall(PipeKSPProgressInitializePackage());
  PetscCall(PipeKSPMatMultInitializePackage());
  PetscCall(PipeKSPPCInitializePackage());
  PetscCall(PipeKSPCubeInitializePackage());
  PetscCall(PipeKSPThreadsInitializePackage());
  PetscCall(PetscRegisterFinalize(PipeKSPFinalizePackage));
  PetscFunctionReturn(0);
}

/* Called by PETSc when the library is loaded with -dll_append (name from the file name). */
PETSC_EXTERN PetscErrorCode PetscDLLibraryRegister_pipeksp(void)
{
  PetscFunctionBegin;
  PetscCall(PipeKSPInitializePackage());
  PetscFunctionReturn(0);
}
