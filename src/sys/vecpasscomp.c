/* chrongear's local dot products with its coefficients' two as compensated sums (include/pipeksp/compsumimpl.h;
   why, and what it buys: docs/algorithms.md, section 5). A file of its own, built without FMA contraction
   (CMakeLists.txt) as the two-sums need, so that vecpass.c's plain sums keep their build's arithmetic. */
#include <pipeksp/vecpassimpl.h>
#include <pipeksp/compsumimpl.h>

void PipeKSPLocalDotsComp_Private(const PetscScalar *r, const PetscScalar *u, const PetscScalar *w, PetscInt i0, PetscInt i1, PetscScalar d[PIPEKSP_NDOTS])
{
  const PetscScalar *ws[2] = {r, w}, *xs[2] = {r, u};
  PipeKSPAcc         acc[2] = {PIPEKSP_ACC_ZERO, PIPEKSP_ACC_ZERO};
  PetscScalar        nn[2]  = {0, 0};

  PipeKSPAccDotsFew(w ? 2 : 1, i0, i1, u, ws, acc); /* (u,r), (u,w) */
  PipeKSPPlainDots(2, i0, i1, xs, xs, nn);          /* (r,r), (u,u): compensated too, chrongear's solve took 1.16 times as long */
  d[PIPEKSP_DOT_RU] = PetscConj(PipeKSPAccValue(&acc[0]));
  d[PIPEKSP_DOT_WU] = w ? PetscConj(PipeKSPAccValue(&acc[1])) : 0.0;
  d[PIPEKSP_DOT_RR] = nn[0];
  d[PIPEKSP_DOT_UU] = nn[1];
}
