/* The registrar: the one file that knows every module. It registers the class id, the KSP and PC types
   and the log events, once; the modules below never call it. The cube generator, the SpMV and the
   reduction engine used before it stop with PETSC_ERR_ORDER (PipeKSPCheckInitialized()). */
#include <pipeksp/pipekspimpl.h>
#include <pipeksp/asddicimpl.h>

/* the constructors, known only here (as PETSc's registrars declare theirs) */
PETSC_INTERN PetscErrorCode KSPCreate_PipeGropp(KSP);
PETSC_INTERN PetscErrorCode KSPCreate_PipeGV(KSP);
PETSC_INTERN PetscErrorCode KSPCreate_ChronGear(KSP);
PETSC_INTERN PetscErrorCode KSPCreate_PipePLCG(KSP);
PETSC_INTERN PetscErrorCode PCCreate_ASDDIC(PC);

PetscClassId  PIPEKSP_CLASSID = 0; /* also the package's "initialized" flag */
PetscLogEvent PIPEKSP_RedStart, PIPEKSP_RedWait, PIPEKSP_RedPoll, PIPEKSP_Overlap;
PetscLogEvent PIPEKSP_MatMult, PIPEKSP_SpMVComm, PIPEKSP_SpMVInner, PIPEKSP_SpMVBound;
PetscLogEvent PIPEKSP_CubeAssembly, PIPEKSP_VecPass;

/*@C
  PipeKSPFinalizePackage - Drops what `PipeKSPInitializePackage()` set up; called by `PetscFinalize()`

  Not Collective

  Note:
  Resets the progress engine's and the thread settings' process state, so that a later
  `PetscInitialize()` starts from scratch.

  Level: developer

.seealso: `PipeKSPInitializePackage()`
@*/
PetscErrorCode PipeKSPFinalizePackage(void)
{
  PetscFunctionBegin;
  PetscCall(PipeKSPProgressReset_Private());
  PetscCall(PipeKSPThreadsReset_Private());
  PIPEKSP_CLASSID = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  PipeKSPInitializePackage - Registers the KSP types `KSPPIPEGROPP`, `KSPPIPEGV`, `KSPCHRONGEAR`,
  `KSPPIPEPLCG`, the PC type `PCASDDIC`, the "PipeKSP" class and its log events

  Not Collective

  Notes:
  Loading the library with -dll_append calls it (through PetscDLLibraryRegister_pipeksp()), and so does
  `import pipeksp` in petsc4py. A program that links the library directly calls it after
  `PetscInitialize()`: before it our KSP and PC types cannot be selected, and the cube generator,
  `PipeKSPMatMult()` and the reduction engine stop with `PETSC_ERR_ORDER`. Calling it again does nothing.

  Options Database Keys:
+ -info_exclude pipeksp - no `PetscInfo()` from the "PipeKSP" class
- -log_exclude pipeksp - no log events of the "PipeKSP" class (`-log_view` leaves out PipeMatMult and the others)

  Level: beginner

.seealso: `PipeKSPFinalizePackage()`, `KSPRegister()`, `PCRegister()`
@*/
PetscErrorCode PipeKSPInitializePackage(void)
{
  char      logList[256];
  PetscBool opt, pkg = PETSC_FALSE;

  PetscFunctionBegin;
  if (PIPEKSP_CLASSID) PetscFunctionReturn(PETSC_SUCCESS);
  /* KSP/PC must have their own registries in place before we add to them */
  PetscCall(KSPInitializePackage());
  PetscCall(PCInitializePackage());
  PetscCall(PetscClassIdRegister("PipeKSP", &PIPEKSP_CLASSID));
  PetscCall(KSPRegister(KSPPIPEGROPP, KSPCreate_PipeGropp));
  PetscCall(KSPRegister(KSPPIPEGV, KSPCreate_PipeGV));
  PetscCall(KSPRegister(KSPCHRONGEAR, KSPCreate_ChronGear));
  PetscCall(KSPRegister(KSPPIPEPLCG, KSPCreate_PipePLCG));
  PetscCall(PCRegister(PCASDDIC, PCCreate_ASDDIC));
  /* events, in the order -log_view has always shown them */
  PetscCall(PetscLogEventRegister("PipeRedStart", PIPEKSP_CLASSID, &PIPEKSP_RedStart));
  PetscCall(PetscLogEventRegister("PipeRedWait", PIPEKSP_CLASSID, &PIPEKSP_RedWait));
  PetscCall(PetscLogEventRegister("PipeRedPoll", PIPEKSP_CLASSID, &PIPEKSP_RedPoll));
  PetscCall(PetscLogEventRegister("PipeOverlap", PIPEKSP_CLASSID, &PIPEKSP_Overlap));
  PetscCall(PetscLogEventRegister("PipeMatMult", PIPEKSP_CLASSID, &PIPEKSP_MatMult));
  PetscCall(PetscLogEventRegister("ASDDICSetUp", PIPEKSP_CLASSID, &PCASDDIC_SetUp));
  PetscCall(PetscLogEventRegister("ASDDICApply", PIPEKSP_CLASSID, &PCASDDIC_Apply));
  PetscCall(PetscLogEventRegister("ASDDICSweep", PIPEKSP_CLASSID, &PCASDDIC_Sweep));
  PetscCall(PetscLogEventRegister("ASDDICEstEig", PIPEKSP_CLASSID, &PCASDDIC_EstEig));
  PetscCall(PetscLogEventRegister("CubeAssembly", PIPEKSP_CLASSID, &PIPEKSP_CubeAssembly));
  /* nested in PipeMatMult, logged by the master thread of the threaded SpMV only */
  PetscCall(PetscLogEventRegister("PipeSpMVComm", PIPEKSP_CLASSID, &PIPEKSP_SpMVComm));
  PetscCall(PetscLogEventRegister("PipeSpMVInner", PIPEKSP_CLASSID, &PIPEKSP_SpMVInner));
  PetscCall(PetscLogEventRegister("PipeSpMVBound", PIPEKSP_CLASSID, &PIPEKSP_SpMVBound));
  /* the threaded vector passes: the KSPs' fused updates and local dots, the jacobi apply, asddic's passes */
  PetscCall(PetscLogEventRegister("PipeVecPass", PIPEKSP_CLASSID, &PIPEKSP_VecPass));
  /* -info_exclude pipeksp and -log_exclude pipeksp, as PETSc's own packages honour theirs */
  PetscCall(PetscInfoProcessClass("pipeksp", 1, &PIPEKSP_CLASSID));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-log_exclude", logList, sizeof(logList), &opt));
  if (opt) PetscCall(PetscStrInList("pipeksp", logList, ',', &pkg));
  if (pkg) PetscCall(PetscLogEventExcludeClass(PIPEKSP_CLASSID));
  PetscCall(PetscRegisterFinalize(PipeKSPFinalizePackage));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Called by PETSc when the library is loaded with -dll_append (name from the file name). A library built
   for another PETSc (its own libpetsc loads beside the program's) refuses here, before any PETSc macro
   touches the other version's internals; a program linked with us has the right one by construction. */
PETSC_EXTERN PetscErrorCode PetscDLLibraryRegister_pipeksp(void)
{
  int64_t v[4] = {0, 0, 0, 0}; /* wide and zeroed: right whatever the other PETSc's PetscInt size */

  if (PetscGetVersionNumber((PetscInt *)&v[0], (PetscInt *)&v[1], (PetscInt *)&v[2], (PetscInt *)&v[3])) return PETSC_ERR_LIB;
  if (v[0] != PETSC_VERSION_MAJOR || v[1] != PETSC_VERSION_MINOR)
    return PetscError(PETSC_COMM_SELF, __LINE__, "PetscDLLibraryRegister_pipeksp", __FILE__, PETSC_ERR_LIB, PETSC_ERROR_INITIAL, "libpipeksp was built for PETSc %d.%d.%d, but this program runs PETSc %d.%d.%d: rebuild PipeKSP against it (cmake -DPETSC_DIR=...)", PETSC_VERSION_MAJOR, PETSC_VERSION_MINOR, PETSC_VERSION_SUBMINOR, (int)v[0], (int)v[1], (int)v[2]);
  PetscFunctionBegin;
  PetscCall(PipeKSPInitializePackage());
  PetscFunctionReturn(PETSC_SUCCESS);
}
