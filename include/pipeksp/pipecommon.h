/* Private: pieces shared by the KSP types pipegropp, pipegv and chrongear (src/ksp/pipecommon.c). */
#ifndef PIPEKSP_PIPECOMMON_H
#define PIPEKSP_PIPECOMMON_H

#include <pipeksp/progressimpl.h>
#include <petsc/private/kspimpl.h>

typedef struct {
  PipeKSPRed          red;           /* created at set-up on the KSP's communicator */
  PipeKSPProgressType progress;      /* requested policy */
  PetscReal           interval;      /* poll interval, microseconds */
  PetscInt            replace;       /* residual replacement period, 0 = off */
  PetscInt            nreplaced;     /* replacements done (all solves) */
  PetscBool           blocking_only; /* chrongear: nothing to overlap, always MPI_Allreduce */
} KSP_Pipe;

PETSC_INTERN PetscErrorCode KSPPipeCreateCommon(KSP, PetscBool);
PETSC_INTERN PetscErrorCode KSPSetUp_Pipe(KSP, PetscInt);
PETSC_INTERN PetscErrorCode KSPDestroy_Pipe(KSP);
PETSC_INTERN PetscErrorCode KSPSetFromOptions_Pipe(KSP, PetscOptionItems *);
PETSC_INTERN PetscErrorCode KSPView_Pipe(KSP, PetscViewer);
/* log, monitor and test convergence of residual norm dp at iteration its */
PETSC_INTERN PetscErrorCode KSPPipeConvergenceTest(KSP, PetscInt, PetscReal);
/* y = A x with poll points (plain MatMultTranspose for transpose solves) */
PETSC_INTERN PetscErrorCode KSPPipeMatMult(KSP, Mat, Vec, Vec);
/* y = M^{-1} x with polls around it (the PC may poll inside too) */
PETSC_INTERN PetscErrorCode KSPPipePCApply(KSP, Vec, Vec);
/* r = b - A x (or r = b for a zero guess, setting x = 0) */
PETSC_INTERN PetscErrorCode KSPPipeResidual(KSP, Mat, Vec);
/* true when iteration its ends with a residual replacement */
PETSC_INTERN PetscBool KSPPipeReplaceNow(KSP, PetscInt);
/* local (r,u), (w,u), (r,r), (u,u); W may be NULL (then d[1] = 0) */
PETSC_INTERN PetscErrorCode KSPPipeLocalDots(Vec, Vec, Vec, PetscScalar[4]);
/* the norm the KSP monitors, from the global (r,r), (u,u) and (r,u) */
PETSC_INTERN PetscReal KSPPipeNorm(KSP, PetscScalar, PetscScalar, PetscScalar);
/* sets ksp->reason when gamma = (r,M^{-1}r) ends the solve: < 0 indefinite PC, = 0 exact solution */
PETSC_INTERN PetscErrorCode KSPPipeCheckGamma(KSP, PetscScalar);
/* CG coefficients from gamma and delta = (u,Au) of the single-reduction recurrences
   (Chronopoulos-Gear, Ghysels-Vanroose); sets ksp->reason on a breakdown */
PETSC_INTERN PetscErrorCode KSPPipeCoefficients(KSP, PetscBool, PetscScalar, PetscScalar, PetscScalar, PetscScalar, PetscScalar *, PetscScalar *);

#endif
