/* Integer options checked against PetscInt's range before PETSc reads them: PetscOptionsInt() and
   PetscOptionsGetInt() convert with a cast (PETSc 3.18 to 3.26), so -cube_n 4294967301 became 5. */
#include <pipeksp/pipekspimpl.h>
#include <errno.h>
#include <stdlib.h>

PetscErrorCode PipeKSPOptionsCheckInt_Private(MPI_Comm comm, PetscOptions options, const char prefix[], const char name[])
{
  char      buf[256], *end;
  PetscBool set;
  long long v;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetString(options, prefix, name, buf, sizeof(buf), &set));
  if (!set || !buf[0]) PetscFunctionReturn(PETSC_SUCCESS);
  errno = 0;
  v     = strtoll(buf, &end, 0);
  /* what does not parse as a whole integer is left to PETSc's own error */
  if (end == buf || *end) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(errno != ERANGE && v >= PETSC_MIN_INT && v <= PETSC_MAX_INT, comm, PETSC_ERR_ARG_OUTOFRANGE, "-%s%s %s does not fit in a PetscInt (%" PetscInt_FMT " to %" PetscInt_FMT ")", prefix ? prefix : "", name + 1, buf, PETSC_MIN_INT, PETSC_MAX_INT);
  PetscFunctionReturn(PETSC_SUCCESS);
}
