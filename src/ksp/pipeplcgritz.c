/* The extreme Ritz values of a Lanczos tridiagonal, for pipeplcg's shifts from its own solves (the Lanczos
   coefficients come free with p(l)-CG, so a solve with a changed operator needs no extra SpMVs and PC
   applications for its interval). Sturm-sequence bisection: no LAPACK routine that a PETSc build may lack,
   and a handful of microseconds for the 64 x 64 tridiagonals kept. */
#include <pipeksp/pipecommon.h>

/* eigenvalues of T below x: the sign changes of the LDL^T pivots of T - x I */
static PetscInt SturmCount(PetscInt n, const PetscReal g[], const PetscReal e[], PetscReal x)
{
  PetscReal q   = g[0] - x;
  PetscInt  cnt = q < 0;

  for (PetscInt i = 1; i < n; i++) {
    if (q == 0) q = PETSC_MACHINE_EPSILON * (PetscAbsReal(e[i - 1]) + PETSC_SMALL);
    q = g[i] - x - e[i - 1] * e[i - 1] / q;
    cnt += q < 0;
  }
  return cnt;
}

/* T = tridiag(e, g, e) of order n >= 1: its smallest and largest eigenvalues; -1, -1 when an entry is not
   finite */
void KSPPipeTridiagExtremeEigs_Private(PetscInt n, const PetscReal g[], const PetscReal e[], PetscReal *emin, PetscReal *emax)
{
  PetscReal lo = PETSC_MAX_REAL, hi = -PETSC_MAX_REAL;

  *emin = *emax = -1.0;
  for (PetscInt i = 0; i < n; i++) { /* Gershgorin's interval */
    PetscReal r = (i > 0 ? PetscAbsReal(e[i - 1]) : 0.0) + (i + 1 < n ? PetscAbsReal(e[i]) : 0.0);
    if (PetscIsInfOrNanReal(g[i]) || PetscIsInfOrNanReal(r)) return;
    lo = PetscMin(lo, g[i] - r);
    hi = PetscMax(hi, g[i] + r);
  }
  for (int m = 0; m < 2; m++) { /* m = 0: the eigenvalue with n - 1 below it; m = 1: the one with none */
    PetscReal a = lo, b = hi;
    for (int k = 0; k < 200 && b - a > 1e-12 * PetscMax(PetscAbsReal(a), PetscAbsReal(b)); k++) {
      PetscReal mid = 0.5 * (a + b);
      if (SturmCount(n, g, e, mid) < (m ? 1 : n)) a = mid;
      else b = mid;
    }
    if (m) *emin = b;
    else *emax = b;
  }
}
