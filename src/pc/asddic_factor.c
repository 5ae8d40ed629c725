/* Numeric IC(0) (point or bs x bs block) on the permuted pattern, and the colour-parallel
   forward/backward sweeps of asddic. */
#include <pipeksp/asddicimpl.h>
#if defined(PIPEKSP_HAVE_OPENMP)
  #include <omp.h>
#endif

#define ASDDIC_INLINE static inline __attribute__((always_inline))

/* C -= A*B, bs x bs row-major */
ASDDIC_INLINE void BlkMultSub(PetscInt bs, const MatScalar *A, const MatScalar *B, MatScalar *C)
{
  for (PetscInt r = 0; r < bs; r++)
    for (PetscInt k = 0; k < bs; k++) {
      const MatScalar ark = A[r * bs + k];
      for (PetscInt c = 0; c < bs; c++) C[r * bs + c] -= ark * B[k * bs + c];
    }
}

/* C = A*B */
ASDDIC_INLINE void BlkMult(PetscInt bs, const MatScalar *A, const MatScalar *B, MatScalar *C)
{
  for (PetscInt i = 0; i < bs * bs; i++) C[i] = 0;
  for (PetscInt r = 0; r < bs; r++)
    for (PetscInt k = 0; k < bs; k++)
      for (PetscInt c = 0; c < bs; c++) C[r * bs + c] += A[r * bs + k] * B[k * bs + c];
}

/* Inverse of a block that must be SPD: Cholesky of its symmetric part; PETSC_FALSE on a
   non-positive (or NaN) pivot, whose value goes to *piv. wk: 2 bs^2. */
static PetscBool BlkInvSPD(PetscInt bs, const MatScalar *A, MatScalar *Ainv, MatScalar *wk, PetscReal *piv)
{
  MatScalar *L = wk, *Li = wk + bs * bs;

  for (PetscInt i = 0; i < 2 * bs * bs; i++) wk[i] = 0;
  for (PetscInt j = 0; j < bs; j++) {
    PetscReal d = PetscRealPart(A[j * bs + j]);
    for (PetscInt k = 0; k < j; k++) d -= PetscRealPart(L[j * bs + k] * L[j * bs + k]);
    if (!(d > 0) || PetscIsInfOrNanReal(d)) {
      *piv = d;
      return PETSC_FALSE;
    }
    L[j * bs + j] = PetscSqrtReal(d);
    for (PetscInt i = j + 1; i < bs; i++) {
      MatScalar s = 0.5 * (A[i * bs + j] + A[j * bs + i]);
      for (PetscInt k = 0; k < j; k++) s -= L[i * bs + k] * L[j * bs + k];
      L[i * bs + j] = s / L[j * bs + j];
    }
  }
  /* Li = L^{-1} (lower), Ainv = Li^T Li */
  for (PetscInt j = 0; j < bs; j++) {
    Li[j * bs + j] = 1.0 / L[j * bs + j];
    for (PetscInt i = j + 1; i < bs; i++) {
      MatScalar s = 0;
      for (PetscInt k = j; k < i; k++) s -= L[i * bs + k] * Li[k * bs + j];
      Li[i * bs + j] = s / L[i * bs + i];
    }
  }
  for (PetscInt r = 0; r < bs; r++)
    for (PetscInt c = 0; c < bs; c++) {
      MatScalar s = 0;
      for (PetscInt k = PetscMax(r, c); k < bs; k++) s += Li[k * bs + r] * Li[k * bs + c];
      Ainv[r * bs + c] = s;
    }
  *piv = 1;
  return PETSC_TRUE;
}

/* IKJ incomplete factorization with the pattern of the (symmetric) permuted matrix: for SPD input
   it is IC(0) in LDL^T form (L unit lower = U^T D^{-1}). The diagonal of a->fa0 is shifted by
   alpha*|a_ii| (Manteuffel) first. *ok: no non-positive pivot; *badrow: where it broke down. */
PetscErrorCode PCASDDICFactorNumeric_Private(PC_ASDDIC *a, PetscReal alpha, PetscBool *ok, PetscInt *badrow)
{
  const PetscInt  bs = a->bs, bs2 = bs * bs, nb = a->nb;
  const PetscInt *fi = a->fi, *fj = a->fj, *fdiag = a->fdiag;
  MatScalar      *fa = a->fa, *dinv = a->dinv, *tmp, *wk;
  PetscInt       *wmap;
  PetscReal       mean = 0, piv;

  PetscFunctionBegin;
  *ok     = PETSC_TRUE;
  *badrow = -1;
  PetscCall(PetscArraycpy(fa, a->fa0, a->nnzb * bs2));
  if (alpha > 0) {
    for (PetscInt i = 0; i < nb; i++)
      for (PetscInt r = 0; r < bs; r++) mean += PetscAbsScalar(fa[fdiag[i] * bs2 + r * bs + r]);
    mean = nb ? mean / (nb * bs) : 1;
    for (PetscInt i = 0; i < nb; i++)
      for (PetscInt r = 0; r < bs; r++) {
        MatScalar *d = &fa[fdiag[i] * bs2 + r * bs + r];
        *d += alpha * (PetscAbsScalar(*d) > 0 ? PetscAbsScalar(*d) : mean);
      }
  }
  PetscCall(PetscMalloc3(nb, &wmap, bs2, &tmp, 2 * bs2, &wk));
  for (PetscInt i = 0; i < nb; i++) wmap[i] = -1;
  for (PetscInt i = 0; i < nb && *ok; i++) {
    for (PetscInt p = fi[i]; p < fi[i + 1]; p++) wmap[fj[p]] = p;
    for (PetscInt p = fi[i]; p < fdiag[i]; p++) {
      const PetscInt k = fj[p];
      /* L_ik = A_ik D_k^{-1}, then A_ij -= L_ik U_kj for j > k in both patterns */
      BlkMult(bs, fa + p * bs2, dinv + k * bs2, tmp);
      PetscCall(PetscArraycpy(fa + p * bs2, tmp, bs2));
      for (PetscInt q = fdiag[k] + 1; q < fi[k + 1]; q++) {
        const PetscInt pj = wmap[fj[q]];
        if (pj >= 0) BlkMultSub(bs, fa + p * bs2, fa + q * bs2, fa + pj * bs2);
      }
    }
    if (bs == 1) {
      piv = PetscRealPart(fa[fdiag[i]]);
      if (!(piv > 0) || PetscIsInfOrNanReal(piv)) *ok = PETSC_FALSE;
      else dinv[i] = 1.0 / fa[fdiag[i]];
    } else if (!BlkInvSPD(bs, fa + fdiag[i] * bs2, dinv + i * bs2, wk, &piv)) *ok = PETSC_FALSE;
    if (!*ok) *badrow = i;
    for (PetscInt p = fi[i]; p < fi[i + 1]; p++) wmap[fj[p]] = -1;
  }
  PetscCall(PetscFree3(wmap, tmp, wk));
  PetscFunctionReturn(0);
}

/* One row of the forward sweep y_i = r_{perm(i)} - sum_{j<i} L_ij y_j */
ASDDIC_INLINE void FwdRow(PetscInt bs, PetscInt i, const PetscInt *fi, const PetscInt *fj, const PetscInt *fdiag, const MatScalar *fa, const PetscInt *perm, const PetscScalar *r, PetscScalar *y)
{
  PetscScalar     s[8];
  const PetscInt  bs2 = bs * bs;
  const PetscScalar *ri = r + perm[i] * bs;
  for (PetscInt c = 0; c < bs; c++) s[c] = ri[c];
  for (PetscInt p = fi[i]; p < fdiag[i]; p++) {
    const MatScalar   *v  = fa + p * bs2;
    const PetscScalar *yj = y + fj[p] * bs;
    for (PetscInt rr = 0; rr < bs; rr++)
      for (PetscInt c = 0; c < bs; c++) s[rr] -= v[rr * bs + c] * yj[c];
  }
  for (PetscInt c = 0; c < bs; c++) y[i * bs + c] = s[c];
}

/* One row of the backward sweep y_i = D_i^{-1} (y_i - sum_{j>i} U_ij y_j), z_{perm(i)} = y_i */
ASDDIC_INLINE void BwdRow(PetscInt bs, PetscInt i, const PetscInt *fi, const PetscInt *fj, const PetscInt *fdiag, const MatScalar *fa, const MatScalar *dinv, const PetscInt *perm, PetscScalar *y, PetscScalar *z)
{
  PetscScalar     s[8];
  const PetscInt  bs2 = bs * bs;
  const MatScalar *d  = dinv + i * bs2;
  PetscScalar     *zi = z + perm[i] * bs;
  for (PetscInt c = 0; c < bs; c++) s[c] = y[i * bs + c];
  for (PetscInt p = fdiag[i] + 1; p < fi[i + 1]; p++) {
    const MatScalar   *v  = fa + p * bs2;
    const PetscScalar *yj = y + fj[p] * bs;
    for (PetscInt rr = 0; rr < bs; rr++)
      for (PetscInt c = 0; c < bs; c++) s[rr] -= v[rr * bs + c] * yj[c];
  }
  for (PetscInt rr = 0; rr < bs; rr++) {
    PetscScalar t = 0;
    for (PetscInt c = 0; c < bs; c++) t += d[rr * bs + c] * s[c];
    y[i * bs + rr] = t;
    zi[rr]         = t;
  }
}

/* Both sweeps; colour by colour, rows of one colour shared by the threads (they are not coupled).
   The progress hook runs on the master thread between colours. BS is a constant for the common
   sizes so that the compiler unrolls the block kernels. */
#define ASDDIC_SWEEP(NAME, BS) \
  static PetscErrorCode NAME(const PC_ASDDIC *a, PetscInt bsarg, PetscInt nt, const PetscScalar *r, PetscScalar *z) \
  { \
    const PetscInt   bs = (BS) ? (BS) : bsarg, nc = a->ncolors; \
    const PetscInt  *fi = a->fi, *fj = a->fj, *fdiag = a->fdiag, *perm = a->perm, *cp = a->colorptr; \
    const MatScalar *fa = a->fa, *dinv = a->dinv; \
    PetscScalar     *y  = a->work; \
    PetscErrorCode   perr = 0; \
    if (nt <= 1) { /* no parallel region: lets the compiler keep everything in registers */ \
      for (PetscInt i = 0; i < cp[nc]; i++) FwdRow(bs, i, fi, fj, fdiag, fa, perm, r, y); \
      for (PetscInt i = cp[nc] - 1; i >= 0; i--) BwdRow(bs, i, fi, fj, fdiag, fa, dinv, perm, y, z); \
      return PipeKSPProgressPoll(); \
    } \
    _Pragma("omp parallel num_threads(nt)") \
    { \
      for (PetscInt c = 0; c < nc; c++) { \
        _Pragma("omp for schedule(static)") \
        for (PetscInt i = cp[c]; i < cp[c + 1]; i++) FwdRow(bs, i, fi, fj, fdiag, fa, perm, r, y); \
        _Pragma("omp master") \
        { \
          PetscErrorCode e = PipeKSPProgressPoll(); \
          if (e) perr = e; \
        } \
      } \
      for (PetscInt c = nc - 1; c >= 0; c--) { \
        _Pragma("omp for schedule(static)") \
        for (PetscInt i = cp[c + 1] - 1; i >= cp[c]; i--) BwdRow(bs, i, fi, fj, fdiag, fa, dinv, perm, y, z); \
        _Pragma("omp master") \
        { \
          PetscErrorCode e = PipeKSPProgressPoll(); \
          if (e) perr = e; \
        } \
      } \
    } \
    return perr; \
  }

ASDDIC_SWEEP(Sweep1, 1)
ASDDIC_SWEEP(Sweep2, 2)
ASDDIC_SWEEP(Sweep3, 3)
ASDDIC_SWEEP(SweepN, 0)

/* z = M_loc^{-1} r on local arrays in the matrix's (unpermuted) local numbering */
PetscErrorCode PCASDDICSolveLocal_Private(PC_ASDDIC *a, const PetscScalar *r, PetscScalar *z)
{
  PetscInt nt = a->independent ? a->threads : 1;

  PetscFunctionBegin;
  switch (a->bs) {
  case 1:
    PetscCall(Sweep1(a, 1, nt, r, z));
    break;
  case 2:
    PetscCall(Sweep2(a, 2, nt, r, z));
    break;
  case 3:
    PetscCall(Sweep3(a, 3, nt, r, z));
    break;
  default:
    PetscCall(SweepN(a, a->bs, nt, r, z));
  }
  PetscFunctionReturn(0);
}
