/* Numeric IC(0) or symmetric Gauss-Seidel (point or bs x bs block) on the permuted pattern, and the
   colour-parallel forward/backward sweeps of asddic. */
#include <pipeksp/asddicimpl.h>
#include <pipeksp/threadsimpl.h>
#if defined(PIPEKSP_HAVE_OPENMP)
  #include <omp.h>
#endif

#define ASDDIC_INLINE static inline __attribute__((always_inline))
#if defined(__GNUC__)
  #define ASDDIC_PREFETCH(p) __builtin_prefetch(p)
#else
  #define ASDDIC_PREFETCH(p) ((void)0)
#endif

/* C -= A*B, bs x bs row-major */
ASDDIC_INLINE void BlkMultSub(PetscInt bs, const MatScalar *A, const MatScalar *B, MatScalar *C)
{
  for (PetscInt r = 0; r < bs; r++)
    for (PetscInt k = 0; k < bs; k++) {
      const MatScalar ark = A[r * bs + k];
      for (PetscInt c = 0; c < bs; c++) C[r * bs + c] -= ark * B[k * bs + c];
    }
}

/* C = A^T B */
ASDDIC_INLINE void BlkTMult(PetscInt bs, const MatScalar *A, const MatScalar *B, MatScalar *C)
{
  for (PetscInt i = 0; i < bs * bs; i++) C[i] = 0;
  for (PetscInt k = 0; k < bs; k++)
    for (PetscInt r = 0; r < bs; r++) {
      const MatScalar akr = A[k * bs + r];
      for (PetscInt c = 0; c < bs; c++) C[r * bs + c] += akr * B[k * bs + c];
    }
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

/* Up-looking IC(0) in LDL^T form on the symmetric pattern: row i of U (j >= i) gets
   A_ij - sum_k U_ki^T D_k^{-1} U_kj over the rows k < i that couple to i, and L_ik = U_ki^T D_k^{-1}.
   Only the upper parts are updated, half the work of a general ILU, and the factor is symmetric by
   construction. cur[k] walks row k's upper part: rows i reach k in increasing order, so the entry
   of column i in row k is always the next one. BS is a literal at the call sites (unrolled kernels).
   Without update (sgs) the same loop gives symmetric Gauss-Seidel, M = (D + L) D^{-1} (D + U): U and D
   are A's own blocks and L_ik = A_ki^T D_k^{-1}, the same sweeps apply it. */
ASDDIC_INLINE PetscBool FactorRows(PetscInt bs, PetscBool update, PC_ASDDIC *a, PetscInt *wmap, PetscInt *cur, MatScalar *W, MatScalar *wk, PetscInt *badrow, PetscReal *badpiv)
{
  const PetscInt  bs2 = bs * bs, nb = a->nb;
  const PetscInt *fi = a->fi, *fj = a->fj, *fdiag = a->fdiag;
  MatScalar      *fa = a->fa, *dinv = a->dinv;

  for (PetscInt k = 0; k < nb; k++) cur[k] = fdiag[k] + 1;
  for (PetscInt i = 0; i < nb; i++) {
    PetscReal piv;
    for (PetscInt p = fdiag[i]; p < fi[i + 1]; p++) wmap[fj[p]] = p;
    for (PetscInt p = fi[i]; p < fdiag[i]; p++) {
      const PetscInt k = fj[p], qi = cur[k]++;
      if (p + 1 < fdiag[i]) { /* the next row k is far away in a colour ordering: fetch it early */
        const PetscInt qn = cur[fj[p + 1]];
        ASDDIC_PREFETCH(fj + qn);
        ASDDIC_PREFETCH(fa + qn * bs2);
        ASDDIC_PREFETCH(fa + qn * bs2 + 8);
      }
      if (fj[qi] != i) { /* the pattern is not symmetric: cannot happen for the graph built in PCSetUp */
        *badrow = i;
        *badpiv = PETSC_MIN_REAL;
        return PETSC_FALSE;
      }
      BlkTMult(bs, fa + qi * bs2, dinv + k * bs2, W); /* L_ik = U_ki^T D_k^{-1} */
      if (update)
        for (PetscInt q = qi; q < fi[k + 1]; q++) {
          const PetscInt pj = wmap[fj[q]];
          if (pj >= 0) BlkMultSub(bs, W, fa + q * bs2, fa + pj * bs2);
        }
      for (PetscInt c = 0; c < bs2; c++) fa[p * bs2 + c] = W[c];
    }
    for (PetscInt p = fdiag[i]; p < fi[i + 1]; p++) wmap[fj[p]] = -1;
    if (bs == 1) {
      piv = PetscRealPart(fa[fdiag[i]]);
      if (!(piv > 0) || PetscIsInfOrNanReal(piv)) {
        *badrow = i;
        *badpiv = piv;
        return PETSC_FALSE;
      }
      dinv[i] = 1.0 / fa[fdiag[i]];
    } else if (!BlkInvSPD(bs, fa + fdiag[i] * bs2, dinv + i * bs2, wk, &piv)) {
      *badrow = i;
      *badpiv = piv;
      return PETSC_FALSE;
    }
  }
  return PETSC_TRUE;
}

/* IC(0) (or SGS, a->local) of a->fa0 (shifted by alpha*|a_ii|, Manteuffel, when alpha > 0) into
   a->fa and a->dinv. *ok: no non-positive pivot; *badrow: where it broke down. */
PetscErrorCode PCASDDICFactorNumeric_Private(PC_ASDDIC *a, PetscReal alpha, PetscBool *ok, PetscInt *badrow)
{
  const PetscInt  bs = a->bs, bs2 = bs * bs, nb = a->nb;
  const PetscInt *fdiag = a->fdiag;
  MatScalar      *fa = a->fa, *W, *wk;
  PetscInt       *wmap, *cur;
  PetscReal       mean = 0, piv = 0;

  PetscFunctionBegin;
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
  PetscCall(PetscMalloc4(nb, &wmap, nb, &cur, bs2, &W, 2 * bs2, &wk));
  for (PetscInt i = 0; i < nb; i++) wmap[i] = -1;
  if (a->local == PCASDDIC_LOCAL_SGS) *ok = FactorRows(bs, PETSC_FALSE, a, wmap, cur, W, wk, badrow, &piv);
  else switch (bs) {
    case 1:
      *ok = FactorRows(1, PETSC_TRUE, a, wmap, cur, W, wk, badrow, &piv);
      break;
    case 3:
      *ok = FactorRows(3, PETSC_TRUE, a, wmap, cur, W, wk, badrow, &piv);
      break;
    default:
      *ok = FactorRows(bs, PETSC_TRUE, a, wmap, cur, W, wk, badrow, &piv);
    }
  PetscCall(PetscFree4(wmap, cur, W, wk));
  PetscCheck(piv != PETSC_MIN_REAL, PETSC_COMM_SELF, PETSC_ERR_PLIB, "asddic: the factor's pattern is not symmetric at block row %" PetscInt_FMT, *badrow);
  PetscFunctionReturn(0);
}

/* The sweeps read L and U from separate contiguous arrays (no skipping over the other half of each row) */
PetscErrorCode PCASDDICSplitSymbolic_Private(PC_ASDDIC *a)
{
  PetscInt nL = 0, nU = 0, bs2 = a->bs * a->bs;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < a->nb; i++) {
    nL += a->fdiag[i] - a->fi[i];
    nU += a->fi[i + 1] - a->fdiag[i] - 1;
  }
  PetscCall(PetscMalloc4(a->nb + 1, &a->li, nL + 1, &a->lj, a->nb + 1, &a->ui, nU + 1, &a->uj));
  PetscCall(PetscMalloc2(nL * bs2 + 1, &a->la, nU * bs2 + 1, &a->ua));
  /* U rows are stored last row first (slot k = nb-1-i), so that the backward sweep streams forward in memory */
  a->li[0] = a->ui[0] = 0;
  for (PetscInt i = 0; i < a->nb; i++) {
    PetscInt nl = a->fdiag[i] - a->fi[i];
    PetscCall(PetscArraycpy(a->lj + a->li[i], a->fj + a->fi[i], nl));
    a->li[i + 1] = a->li[i] + nl;
  }
  for (PetscInt k = 0; k < a->nb; k++) {
    PetscInt i = a->nb - 1 - k, nu = a->fi[i + 1] - a->fdiag[i] - 1;
    PetscCall(PetscArraycpy(a->uj + a->ui[k], a->fj + a->fdiag[i] + 1, nu));
    a->ui[k + 1] = a->ui[k] + nu;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode PCASDDICSplitNumeric_Private(PC_ASDDIC *a)
{
  PetscInt bs2 = a->bs * a->bs;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < a->nb; i++) {
    PetscCall(PetscArraycpy(a->la + a->li[i] * bs2, a->fa + a->fi[i] * bs2, (a->li[i + 1] - a->li[i]) * bs2));
    PetscInt k = a->nb - 1 - i;
    PetscCall(PetscArraycpy(a->ua + a->ui[k] * bs2, a->fa + (a->fdiag[i] + 1) * bs2, (a->ui[k + 1] - a->ui[k]) * bs2));
  }
  PetscFunctionReturn(0);
}

/* One row of the forward sweep y_i = r_{perm(i)} - sum_{j<i} L_ij y_j */
ASDDIC_INLINE void FwdRow(PetscInt bs, PetscInt i, const PetscInt *li, const PetscInt *lj, const MatScalar *la, const PetscInt *perm, const PetscScalar *r, PetscScalar *y)
{
  PetscScalar     s[8];
  const PetscInt  bs2 = bs * bs;
  const PetscScalar *ri = r + perm[i] * bs;
  for (PetscInt c = 0; c < bs; c++) s[c] = ri[c];
  for (PetscInt p = li[i]; p < li[i + 1]; p++) {
    const MatScalar   *v  = la + p * bs2;
    const PetscScalar *yj = y + lj[p] * bs;
    for (PetscInt rr = 0; rr < bs; rr++)
      for (PetscInt c = 0; c < bs; c++) s[rr] -= v[rr * bs + c] * yj[c];
  }
  for (PetscInt c = 0; c < bs; c++) y[i * bs + c] = s[c];
}

/* One row of the backward sweep y_i = D_i^{-1} (y_i - sum_{j>i} U_ij y_j), z_{perm(i)} = y_i */
ASDDIC_INLINE void BwdRow(PetscInt bs, PetscInt i, PetscInt pb, PetscInt pe, const PetscInt *uj, const MatScalar *ua, const MatScalar *dinv, const PetscInt *perm, PetscScalar *y, PetscScalar *z)
{
  PetscScalar     s[8];
  const PetscInt  bs2 = bs * bs;
  const MatScalar *d  = dinv + i * bs2;
  PetscScalar     *zi = z + perm[i] * bs;
  for (PetscInt c = 0; c < bs; c++) s[c] = y[i * bs + c];
  for (PetscInt p = pb; p < pe; p++) {
    const MatScalar   *v  = ua + p * bs2;
    const PetscScalar *yj = y + uj[p] * bs;
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

/* Hand-unrolled rows for bs = 1 and 3: scalar accumulators stay in registers */
ASDDIC_INLINE void FwdRow1(PetscInt i, const PetscInt *fi, const PetscInt *fj, const MatScalar *fa, const PetscInt *perm, const PetscScalar *r, PetscScalar *y)
{
  PetscScalar s0 = r[perm[i]], s1 = 0;
  PetscInt    p = fi[i], e = fi[i + 1];
  for (; p + 1 < e; p += 2) {
    s0 -= fa[p] * y[fj[p]];
    s1 -= fa[p + 1] * y[fj[p + 1]];
  }
  if (p < e) s0 -= fa[p] * y[fj[p]];
  y[i] = s0 + s1;
}

ASDDIC_INLINE void BwdRow1(PetscInt i, PetscInt p, PetscInt e, const PetscInt *fj, const MatScalar *fa, const MatScalar *dinv, const PetscInt *perm, PetscScalar *y, PetscScalar *z)
{
  PetscScalar s0 = y[i], s1 = 0;
  for (; p + 1 < e; p += 2) {
    s0 -= fa[p] * y[fj[p]];
    s1 -= fa[p + 1] * y[fj[p + 1]];
  }
  if (p < e) s0 -= fa[p] * y[fj[p]];
  y[i] = dinv[i] * (s0 + s1);
  z[perm[i]] = y[i];
}

ASDDIC_INLINE void FwdRow3(PetscInt i, const PetscInt *fi, const PetscInt *fj, const MatScalar *fa, const PetscInt *perm, const PetscScalar *r, PetscScalar *y)
{
  const PetscScalar *ri = r + 3 * perm[i];
  PetscScalar        s0 = ri[0], s1 = ri[1], s2 = ri[2];
  for (PetscInt p = fi[i]; p < fi[i + 1]; p++) {
    const MatScalar   *v  = fa + 9 * p;
    const PetscScalar *yj = y + 3 * fj[p];
    const PetscScalar  x0 = yj[0], x1 = yj[1], x2 = yj[2];
    s0 -= v[0] * x0 + v[1] * x1 + v[2] * x2;
    s1 -= v[3] * x0 + v[4] * x1 + v[5] * x2;
    s2 -= v[6] * x0 + v[7] * x1 + v[8] * x2;
  }
  y[3 * i]     = s0;
  y[3 * i + 1] = s1;
  y[3 * i + 2] = s2;
}

ASDDIC_INLINE void BwdRow3(PetscInt i, PetscInt pb, PetscInt pe, const PetscInt *fj, const MatScalar *fa, const MatScalar *dinv, const PetscInt *perm, PetscScalar *y, PetscScalar *z)
{
  PetscScalar      s0 = y[3 * i], s1 = y[3 * i + 1], s2 = y[3 * i + 2], *zi = z + 3 * perm[i];
  const MatScalar *d  = dinv + 9 * i;
  for (PetscInt p = pb; p < pe; p++) {
    const MatScalar   *v  = fa + 9 * p;
    const PetscScalar *yj = y + 3 * fj[p];
    const PetscScalar  x0 = yj[0], x1 = yj[1], x2 = yj[2];
    s0 -= v[0] * x0 + v[1] * x1 + v[2] * x2;
    s1 -= v[3] * x0 + v[4] * x1 + v[5] * x2;
    s2 -= v[6] * x0 + v[7] * x1 + v[8] * x2;
  }
  zi[0] = y[3 * i]     = d[0] * s0 + d[1] * s1 + d[2] * s2;
  zi[1] = y[3 * i + 1] = d[3] * s0 + d[4] * s1 + d[5] * s2;
  zi[2] = y[3 * i + 2] = d[6] * s0 + d[7] * s1 + d[8] * s2;
}

/* Both sweeps; colour by colour, rows of one colour shared by the threads (they are not coupled).
   The progress hook runs on the master thread between colours. BS is a constant for the common
   sizes so that the compiler unrolls the block kernels. */
#define ASDDIC_SWEEP(NAME, BS) \
  static PetscErrorCode NAME(const PC_ASDDIC *a, PetscInt bsarg, PetscInt nt, const PetscScalar *r, PetscScalar *z) \
  { \
    const PetscInt   bs = (BS) ? (BS) : bsarg, nc = a->ncolors, nbm1 = a->nb - 1; \
    (void)bs; \
    const PetscInt  *li = a->li, *lj = a->lj, *ui = a->ui, *uj = a->uj, *perm = a->perm, *cp = a->colorptr; \
    const MatScalar *la = a->la, *ua = a->ua, *dinv = a->dinv; \
    PetscScalar     *y  = a->work; \
    PetscErrorCode   perr = 0; \
    if (nt <= 1) { /* no parallel region: lets the compiler keep everything in registers */ \
      for (PetscInt i = 0; i < cp[nc]; i++) FWD(bs, i, li, lj, la, perm, r, y); \
      for (PetscInt i = cp[nc] - 1; i >= 0; i--) BWD(bs, i, ui[nbm1 - i], ui[nbm1 - i + 1], uj, ua, dinv, perm, y, z); \
      return PipeKSPProgressPoll(); \
    } \
    _Pragma("omp parallel num_threads(nt)") \
    { \
      for (PetscInt c = 0; c < nc; c++) { \
        _Pragma("omp for schedule(static)") \
        for (PetscInt i = cp[c]; i < cp[c + 1]; i++) FWD(bs, i, li, lj, la, perm, r, y); \
        _Pragma("omp master") \
        { \
          PetscErrorCode e = PipeKSPProgressPoll(); \
          if (e) perr = e; \
        } \
      } \
      for (PetscInt c = nc - 1; c >= 0; c--) { \
        _Pragma("omp for schedule(static)") \
        for (PetscInt i = cp[c + 1] - 1; i >= cp[c]; i--) BWD(bs, i, ui[nbm1 - i], ui[nbm1 - i + 1], uj, ua, dinv, perm, y, z); \
        _Pragma("omp master") \
        { \
          PetscErrorCode e = PipeKSPProgressPoll(); \
          if (e) perr = e; \
        } \
      } \
    } \
    return perr; \
  }

#define FWD(bs, ...) FwdRow1(__VA_ARGS__)
#define BWD(bs, ...) BwdRow1(__VA_ARGS__)
ASDDIC_SWEEP(Sweep1, 1)
#undef FWD
#undef BWD
#define FWD(bs, ...) FwdRow3(__VA_ARGS__)
#define BWD(bs, ...) BwdRow3(__VA_ARGS__)
ASDDIC_SWEEP(Sweep3, 3)
#undef FWD
#undef BWD
#define FWD FwdRow
#define BWD BwdRow
ASDDIC_SWEEP(Sweep2, 2)
ASDDIC_SWEEP(SweepN, 0)
#undef FWD
#undef BWD

/* z = M_loc^{-1} r on local arrays in the matrix's (unpermuted) local numbering */
PetscErrorCode PCASDDICSolveLocal_Private(PC_ASDDIC *a, const PetscScalar *r, PetscScalar *z)
{
  PetscInt nt = a->independent ? (a->threads ? a->threads : PipeKSPThreadsFor(a->nb * a->bs)) : 1;

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
