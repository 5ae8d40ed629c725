/* chrongear's local dot products with its coefficients' two as compensated sums (include/pipeksp/compsumimpl.h;
   why, and what it buys: docs/algorithms.md, section 5). A file of its own, built without FMA contraction
   (CMakeLists.txt) as the two-sums need, so that vecpass.c's plain sums keep their build's arithmetic. */
#include <pipeksp/vecpassimpl.h>
#include <pipeksp/compsumimpl.h>

/* rr, uu += (r,r), (u,u) over rows [i0, i1): plain sums in native lanes, so that they vectorise (a recursive
   sum is a chain of additions a row) */
static inline void NormsSq(const PetscScalar *r, const PetscScalar *u, PetscInt i0, PetscInt i1, PetscScalar *rr, PetscScalar *uu)
{
  PipeKSPNat  a = {0}, b = {0};
  PetscScalar l[PIPEKSP_NLANES];
  PetscInt    i = i0;

  for (; i + PIPEKSP_NLANES <= i1; i += PIPEKSP_NLANES) {
    PipeKSPNat x;

    PipeKSPNatLoad(x, r + i);
    a += x * PipeKSPNatConj(x);
    PipeKSPNatLoad(x, u + i);
    b += x * PipeKSPNatConj(x);
  }
  memcpy(l, &a, sizeof(l));
  for (PetscInt q = 0; q < PIPEKSP_NLANES; q++) *rr += l[q];
  for (PetscInt j = i; j < i1; j++) *rr += r[j] * PetscConj(r[j]);
  memcpy(l, &b, sizeof(l));
  for (PetscInt q = 0; q < PIPEKSP_NLANES; q++) *uu += l[q];
  for (PetscInt j = i; j < i1; j++) *uu += u[j] * PetscConj(u[j]);
}

void PipeKSPLocalDotsComp_Private(const PetscScalar *r, const PetscScalar *u, const PetscScalar *w, PetscInt i0, PetscInt i1, PetscScalar d[PIPEKSP_NDOTS])
{
  const PetscScalar *ws[2]  = {r, w};
  PipeKSPAcc         acc[2] = {PIPEKSP_ACC_ZERO, PIPEKSP_ACC_ZERO};
  PetscScalar        rr = 0, uu = 0;

  PipeKSPAccDotsFew(w ? 2 : 1, i0, i1, u, ws, acc); /* (u,r), (u,w) */
  NormsSq(r, u, i0, i1, &rr, &uu);                  /* compensated too, chrongear's solve took 1.16 times as long */
  d[PIPEKSP_DOT_RU] = PetscConj(PipeKSPAccValue(&acc[0]));
  d[PIPEKSP_DOT_WU] = w ? PetscConj(PipeKSPAccValue(&acc[1])) : 0.0;
  d[PIPEKSP_DOT_RR] = rr;
  d[PIPEKSP_DOT_UU] = uu;
}
