/* The operator and preconditioner applications of the pipelined KSP types: the SpMV and the PC with
   poll points (an error inside work overlapped with a pending reduction completes the reduction before
   it goes up), the residual b - A x, and PCJACOBI applied on the thread team. */
#include <pipeksp/pipeimpl.h>
#include <petsc/private/pcimpl.h>
#include <pipeksp/threadsimpl.h>

/* An error inside work overlapped with a pending reduction must not leave the request pending: the
   engine completes it before the error goes up, so the KSP stays usable. */
static PetscErrorCode KSPPipeOverlapError(KSP ksp, PetscErrorCode ierr)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  PetscCall(PipeKSPRedAbandon_Private(pipe->red));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPPipeMatMult_Private(KSP ksp, Mat A, Vec x, Vec y)
{
  PetscFunctionBegin;
  if (ksp->transpose_solve) PetscCall(KSP_MatMult(ksp, A, x, y));
  else PetscCall(PipeKSPMatMult(A, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPPipeApplyOperator_Private(KSP ksp, Mat A, Vec x, Vec y)
{
  PetscErrorCode ierr;

  PetscFunctionBegin;
  ierr = KSPPipeMatMult_Private(ksp, A, x, y);
  if (ierr) PetscCall(KSPPipeOverlapError(ksp, ierr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PETSc 3.18's PCJACOBI multiplies on one thread: in a hybrid run that is a serial pass over three
   vectors per iteration. Its diagonal d is read once per solve as M^{-1} 1 (exact for every Jacobi
   variant, and the PC does not change inside a solve), and y = d .* x runs on the thread team */
PetscErrorCode KSPPipePCSetUp_Private(KSP ksp)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;
  PetscInt  n, nd = -1;
  PetscBool jac;
  Vec       ones;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(ksp->vec_rhs, &n));
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp->pc, PCJACOBI, &jac));
  if (!jac || PipeKSPThreadsFor_Private(n) < 2) {
    PetscCall(VecDestroy(&pipe->pcdiag));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (pipe->pcdiag) PetscCall(VecGetLocalSize(pipe->pcdiag, &nd));
  if (nd != n) {
    PetscCall(VecDestroy(&pipe->pcdiag));
    PetscCall(VecDuplicate(ksp->vec_rhs, &pipe->pcdiag));
  }
  /* a work vector holds nothing yet at the start of a solve (every pipe KSP has set up its work
     vectors by then): a new vector per solve would cost an allocation, and with a DMDA's vectors a
     blocking reduction (the new layout's sizes) */
  ones = ksp->work[0];
  PetscCall(VecSet(ones, 1.0));
  PetscCall(PCApply(ksp->pc, ones, pipe->pcdiag));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPPipePCApplyLoop_Private(KSP ksp, Vec x, Vec y)
{
  KSP_Pipe *pipe = (KSP_Pipe *)ksp->data;

  PetscFunctionBegin;
  if (!pipe->pcdiag) {
    PetscCall(KSP_PCApply(ksp, x, y));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscLogEventBegin(PC_Apply, ksp->pc, x, y, 0));
  PetscCall(PipeKSPVecPointwiseMult_Private(pipe->pcdiag, x, y));
  PetscCall(PetscLogEventEnd(PC_Apply, ksp->pc, x, y, 0));
  /* the rest of KSP_PCApply(): the operator's null space out of the preconditioned vector */
  if (ksp->transpose_solve) PetscCall(KSP_RemoveNullSpaceTranspose(ksp, y));
  else PetscCall(KSP_RemoveNullSpace(ksp, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPPipePCApply_Private(KSP ksp, Vec x, Vec y)
{
  PetscErrorCode ierr;

  PetscFunctionBegin;
  ierr = PipeKSPProgressPoll();
  if (!ierr) ierr = KSPPipePCApplyLoop_Private(ksp, x, y);
  if (!ierr) ierr = PipeKSPProgressPoll();
  if (ierr) PetscCall(KSPPipeOverlapError(ksp, ierr));
  PetscFunctionReturn(PETSC_SUCCESS);
}
