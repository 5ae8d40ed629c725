/* Internal declarations shared between the pieces of libpipeksp (not installed for users). */
#ifndef PIPEKSPIMPL_H
#define PIPEKSPIMPL_H

#include <pipeksp.h>
#include <pipeksp/petsccompat.h>

/* largest block size of the unrolled block kernels (the SpMV's, asddic's block IC(0)): their partial
   sums live in stack arrays of this length */
#define PIPEKSP_BS_MAX 8

/* process state the registrar's PipeKSPFinalizePackage() resets */
PETSC_INTERN PetscErrorCode PipeKSPProgressReset_Private(void);
PETSC_INTERN PetscErrorCode PipeKSPThreadsReset_Private(void);

/* The PetscClassId all our log events hang off ("PipeKSP" in -log_view); 0 until
   PipeKSPInitializePackage() */
PETSC_INTERN PetscClassId PIPEKSP_CLASSID;
/* Log events, all registered by the registrar */
PETSC_INTERN PetscLogEvent PIPEKSP_RedStart, PIPEKSP_RedWait, PIPEKSP_RedPoll, PIPEKSP_Overlap;
PETSC_INTERN PetscLogEvent PIPEKSP_MatMult, PIPEKSP_SpMVComm, PIPEKSP_SpMVInner, PIPEKSP_SpMVBound;
PETSC_INTERN PetscLogEvent PIPEKSP_CubeAssembly, PIPEKSP_VecPass;

/* Integer options: refused with the option's name when the value does not fit in PetscInt, instead of
   wrapped around by PETSc's conversion (src/sys/options.c). PipeKSPOptionsInt() stands for PetscOptionsInt()
   inside PetscOptionsBegin()/End(), PipeKSPOptionsGetInt() for PetscOptionsGetInt(). */
PETSC_INTERN PetscErrorCode PipeKSPOptionsCheckInt_Private(MPI_Comm, PetscOptions, const char[], const char[]);
#define PipeKSPOptionsInt(opt, text, man, cur, val, set) \
  (PipeKSPOptionsCheckInt_Private(PetscOptionsObject->comm, PetscOptionsObject->options, PetscOptionsObject->prefix, opt) ? PETSC_ERR_ARG_OUTOFRANGE : PetscOptionsInt(opt, text, man, cur, val, set))
#define PipeKSPOptionsGetInt(options, prefix, name, val, set) (PipeKSPOptionsCheckInt_Private(PETSC_COMM_SELF, options, prefix, name) ? PETSC_ERR_ARG_OUTOFRANGE : PetscOptionsGetInt(options, prefix, name, val, set))

/* Entry check of the modules' constructors: a clear error instead of unregistered log events */
#define PipeKSPCheckInitialized(comm) \
  (PIPEKSP_CLASSID ? PETSC_SUCCESS : PetscError((comm), __LINE__, PETSC_FUNCTION_NAME, __FILE__, PETSC_ERR_ORDER, PETSC_ERROR_INITIAL, "PipeKSP is not initialized: call PipeKSPInitializePackage() after PetscInitialize(), or load the library with -dll_append"))

#endif
