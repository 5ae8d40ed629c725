/* Internal declarations shared between the pieces of libpipeksp (not installed for users). */
#ifndef PIPEKSPIMPL_H
#define PIPEKSPIMPL_H

#include <pipeksp.h>

/* Constructors registered by PipeKSPInitializePackage() */
PETSC_INTERN PetscErrorCode KSPCreate_PipeGropp(KSP);
PETSC_INTERN PetscErrorCode KSPCreate_PipeGV(KSP);
PETSC_INTERN PetscErrorCode KSPCreate_ChronGear(KSP);
PETSC_INTERN PetscErrorCode KSPCreate_PipePLCG(KSP);
PETSC_INTERN PetscErrorCode PCCreate_ASDDIC(PC);

/* Per-module package set-up (log events, classids); each is idempotent */
PETSC_INTERN PetscErrorCode PipeKSPProgressInitializePackage(void);
PETSC_INTERN PetscErrorCode PipeKSPMatMultInitializePackage(void);
PETSC_INTERN PetscErrorCode PipeKSPPCInitializePackage(void);
PETSC_INTERN PetscErrorCode PipeKSPCubeInitializePackage(void);

/* The PetscClassId all our log events hang off ("PipeKSP" in -log_view) */
PETSC_INTERN PetscClassId PIPEKSP_CLASSID;

#endif
