/* Private: the vector passes the pipelined KSPs share (src/sys/vecpass.c), run on the process's thread
   team through PipeKSPThreadedBlocks_Private(): the threaded Jacobi product and the local dot products
   that open a packed reduction. Not installed. */
#ifndef PIPEKSP_VECPASSIMPL_H
#define PIPEKSP_VECPASSIMPL_H

#include <pipeksp/pipekspimpl.h>

/* the local dot products PipeKSPVecLocalDots_Private() computes, in this order; the solvers' packed
   reductions start with them */
enum {
  PIPEKSP_DOT_RU, /* (r,u) = gamma */
  PIPEKSP_DOT_WU, /* (w,u) = delta (0 without w) */
  PIPEKSP_DOT_RR, /* (r,r) */
  PIPEKSP_DOT_UU, /* (u,u) */
  PIPEKSP_NDOTS
};
/* local (r,u), (w,u), (r,r), (u,u) in one threaded pass; W may be NULL (then (w,u) = 0); comp: (r,u) and (w,u)
   as compensated sums (chrongear's coefficients: docs/algorithms.md, section 5), else summed row after row */
PETSC_INTERN PetscErrorCode PipeKSPVecLocalDots_Private(Vec, Vec, Vec, PetscBool, PetscScalar[PIPEKSP_NDOTS]);
/* d = the four over rows [i0, i1), (r,u) and (w,u) compensated (src/sys/vecpasscomp.c); w may be NULL */
PETSC_INTERN void PipeKSPLocalDotsComp_Private(const PetscScalar *, const PetscScalar *, const PetscScalar *, PetscInt, PetscInt, PetscScalar[PIPEKSP_NDOTS]);
/* local (x,x), no reduction */
PETSC_INTERN PetscErrorCode PipeKSPVecLocalNormSq_Private(Vec, PetscScalar *);
/* y = d .* x on the thread team (PCApply_Jacobi's product, bitwise) */
PETSC_INTERN PetscErrorCode PipeKSPVecPointwiseMult_Private(Vec, Vec, Vec);

#endif
