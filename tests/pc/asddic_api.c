static char help[] = "asddic's public API on PCs of other types, as PETSc's composed methods behave:\n\
  - every PCASDDICSet*() is a no-op on a jacobi PC (its type and its own settings stay), but still refuses\n\
    an argument out of range;\n\
  - every PCASDDICGet*() is an error there (PETSC_ERR_SUP), also after a PC was asddic and changed type\n\
    (the methods are removed with the type);\n\
  - on an asddic PC the setters reach it (a value set comes back from the getter).\n";

#include <pipeksp.h>
#include <pipeksp/petsccompat.h> /* PETSC_SUCCESS before PETSc 3.19 */

static PetscInt Fails = 0;

static PetscErrorCode Check(PetscBool ok, const char *what)
{
  PetscFunctionBeginUser;
  if (!ok) {
    Fails++;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL: %s\n", what));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* every getter fails with PETSC_ERR_SUP on pc (errors caught, not printed) */
static PetscErrorCode CheckGettersRefused(PC pc, const char *when)
{
  PetscInt       k, bs;
  PetscReal      emin, alpha;
  PetscErrorCode e[4];
  char           what[256];

  PetscFunctionBeginUser;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  e[0] = PCASDDICGetLocalBlocks(pc, &k);
  e[1] = PCASDDICGetEigenvalueBounds(pc, &emin, NULL, NULL);
  e[2] = PCASDDICGetColoring(pc, &bs, NULL, NULL, NULL, NULL, NULL);
  e[3] = PCASDDICGetFactorInfo(pc, &alpha, NULL, NULL);
  PetscCall(PetscPopErrorHandler());
  for (int i = 0; i < 4; i++) {
    PetscCall(PetscSNPrintf(what, sizeof(what), "getter %d %s: error %d, expected PETSC_ERR_SUP", i, when, (int)e[i]));
    PetscCall(Check((PetscBool)(e[i] == PETSC_ERR_SUP), what));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PC             pc;
  PCType         type;
  PCJacobiType   jt;
  PetscBool      isjac;
  PetscInt       k;
  PetscErrorCode e;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PipeKSPInitializePackage());
  PetscCall(PCCreate(PETSC_COMM_WORLD, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(PCJacobiSetType(pc, PC_JACOBI_ROWMAX));

  /* setters: no-ops */
  PetscCall(PCASDDICSetOrdering(pc, PCASDDIC_ORDERING_MC));
  PetscCall(PCASDDICSetColors(pc, 3));
  PetscCall(PCASDDICSetLocalBlocks(pc, 4));
  PetscCall(PCASDDICSetIterations(pc, 3));
  PetscCall(PCASDDICSetBlock(pc, PETSC_FALSE));
  PetscCall(PCASDDICSetThreads(pc, 2));
  PetscCall(PCASDDICSetShiftType(pc, PCASDDIC_SHIFT_NONE));
  PetscCall(PCASDDICSetCheck(pc, PETSC_TRUE));
  PetscCall(PCASDDICSetLocalType(pc, PCASDDIC_LOCAL_SGS));
  PetscCall(PCASDDICSetSweepType(pc, PCASDDIC_SWEEP_RICHARDSON));
  PetscCall(PCASDDICSetEigenvalues(pc, 0.1, 2.0));
  PetscCall(PCASDDICSetEstimateSteps(pc, 10));
  PetscCall(PCASDDICSetEstimateSafety(pc, 1.5));
  PetscCall(PCASDDICSetDamping(pc, 0.5));
  PetscCall(PCASDDICSetKernelType(pc, PCASDDIC_KERNEL_REFERENCE));
  PetscCall(PCGetType(pc, &type));
  PetscCall(PetscStrcmp(type, PCJACOBI, &isjac));
  PetscCall(PCJacobiGetType(pc, &jt));
  PetscCall(Check((PetscBool)(isjac && jt == PC_JACOBI_ROWMAX), "the setters changed a jacobi PC"));
  /* an argument out of range is refused on any type */
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  e = PCASDDICSetColors(pc, 0);
  PetscCall(PetscPopErrorHandler());
  PetscCall(Check((PetscBool)(e == PETSC_ERR_ARG_OUTOFRANGE), "PCASDDICSetColors(pc, 0) on jacobi was not refused"));
  PetscCall(CheckGettersRefused(pc, "on jacobi"));

  /* on asddic the methods are there; after a change of type they are gone */
  PetscCall(PCSetType(pc, PCASDDIC));
  PetscCall(PCASDDICSetLocalBlocks(pc, 3));
  PetscCall(PCASDDICGetLocalBlocks(pc, &k));
  PetscCall(Check((PetscBool)(k == 3), "PCASDDICGetLocalBlocks did not return the blocks set"));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(CheckGettersRefused(pc, "on jacobi after asddic"));
  PetscCall(PCDestroy(&pc));
  if (!Fails) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "all checks passed\n"));
  PetscCall(PetscFinalize());
  return Fails ? 1 : 0;
}
