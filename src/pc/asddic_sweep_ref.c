/* The reference triangular sweeps of asddic's local kernel, -pc_asddic_kernel reference: z = M^{-1} r
   with M = P^T (I + L)(D + U) P, read from the factor as it was computed (fi, fj, fa, fdiag, dinv),
   one row after the other, any block size. Kept plain to be read and to check the tuned sweeps of
   asddic_sweep.c against (the same result to round-off). */
#include <pipeksp/asddicimpl.h>

PetscErrorCode PCASDDICSolveLocalReference_Private(const PC_ASDDIC *a, const PetscScalar *r, PetscScalar *z)
{
  const PetscInt   bs = a->bs, bs2 = bs * bs, nb = a->nb;
  const PetscInt  *fi = a->fi, *fj = a->fj, *fdiag = a->fdiag, *perm = a->perm;
  const MatScalar *fa = a->fa, *dinv = a->dinv;
  PetscScalar     *y = a->work, s[PIPEKSP_BS_MAX]; /* bs <= PIPEKSP_BS_MAX, checked in PCSetUp */

  PetscFunctionBegin;
  /* forward: (I + L) y = P r; the strictly lower blocks of row i come before fdiag[i] */
  for (PetscInt i = 0; i < nb; i++) {
    for (PetscInt c = 0; c < bs; c++) s[c] = r[perm[i] * bs + c];
    for (PetscInt p = fi[i]; p < fdiag[i]; p++)
      for (PetscInt rr = 0; rr < bs; rr++)
        for (PetscInt c = 0; c < bs; c++) s[rr] -= fa[p * bs2 + rr * bs + c] * y[fj[p] * bs + c];
    for (PetscInt c = 0; c < bs; c++) y[i * bs + c] = s[c];
  }
  /* backward: (D + U) y = y, then z = P^T y; the strictly upper blocks of row i come after fdiag[i] */
  for (PetscInt i = nb - 1; i >= 0; i--) {
    for (PetscInt c = 0; c < bs; c++) s[c] = y[i * bs + c];
    for (PetscInt p = fdiag[i] + 1; p < fi[i + 1]; p++)
      for (PetscInt rr = 0; rr < bs; rr++)
        for (PetscInt c = 0; c < bs; c++) s[rr] -= fa[p * bs2 + rr * bs + c] * y[fj[p] * bs + c];
    for (PetscInt rr = 0; rr < bs; rr++) {
      PetscScalar t = 0;
      for (PetscInt c = 0; c < bs; c++) t += dinv[i * bs2 + rr * bs + c] * s[c];
      y[i * bs + rr]       = t;
      z[perm[i] * bs + rr] = t;
    }
  }
  PetscCall(PipeKSPProgressPoll()); /* as the tuned sweeps do: pending reductions advance here too */
  PetscFunctionReturn(PETSC_SUCCESS);
}
