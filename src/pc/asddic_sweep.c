/* The tuned triangular sweeps of asddic's local kernel M = (I + L)(D + U) on the split factor (la, ua):
   rows unrolled for block sizes 1, 2 and 3, colours shared by OpenMP threads (the rows of one colour
   are not coupled), the progress hook polled between colours. asddic_sweep_ref.c holds the plain
   version, -pc_asddic_kernel reference, that these must match to round-off. */
#include <pipeksp/asddicimpl.h>
#include <pipeksp/threadsimpl.h>
#if defined(PIPEKSP_HAVE_OPENMP)
  #include <omp.h>
#endif

#define ASDDIC_INLINE static inline __attribute__((always_inline))

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
ASDDIC_INLINE void FwdRow1(PetscInt i, const PetscInt *li, const PetscInt *lj, const MatScalar *la, const PetscInt *perm, const PetscScalar *r, PetscScalar *y)
{
  PetscScalar s0 = r[perm[i]], s1 = 0;
  PetscInt    p = li[i], e = li[i + 1];
  for (; p + 1 < e; p += 2) {
    s0 -= la[p] * y[lj[p]];
    s1 -= la[p + 1] * y[lj[p + 1]];
  }
  if (p < e) s0 -= la[p] * y[lj[p]];
  y[i] = s0 + s1;
}

ASDDIC_INLINE void BwdRow1(PetscInt i, PetscInt p, PetscInt e, const PetscInt *uj, const MatScalar *ua, const MatScalar *dinv, const PetscInt *perm, PetscScalar *y, PetscScalar *z)
{
  PetscScalar s0 = y[i], s1 = 0;
  for (; p + 1 < e; p += 2) {
    s0 -= ua[p] * y[uj[p]];
    s1 -= ua[p + 1] * y[uj[p + 1]];
  }
  if (p < e) s0 -= ua[p] * y[uj[p]];
  y[i] = dinv[i] * (s0 + s1);
  z[perm[i]] = y[i];
}

ASDDIC_INLINE void FwdRow3(PetscInt i, const PetscInt *li, const PetscInt *lj, const MatScalar *la, const PetscInt *perm, const PetscScalar *r, PetscScalar *y)
{
  const PetscScalar *ri = r + 3 * perm[i];
  PetscScalar        s0 = ri[0], s1 = ri[1], s2 = ri[2];
  for (PetscInt p = li[i]; p < li[i + 1]; p++) {
    const MatScalar   *v  = la + 9 * p;
    const PetscScalar *yj = y + 3 * lj[p];
    const PetscScalar  x0 = yj[0], x1 = yj[1], x2 = yj[2];
    s0 -= v[0] * x0 + v[1] * x1 + v[2] * x2;
    s1 -= v[3] * x0 + v[4] * x1 + v[5] * x2;
    s2 -= v[6] * x0 + v[7] * x1 + v[8] * x2;
  }
  y[3 * i]     = s0;
  y[3 * i + 1] = s1;
  y[3 * i + 2] = s2;
}

ASDDIC_INLINE void BwdRow3(PetscInt i, PetscInt pb, PetscInt pe, const PetscInt *uj, const MatScalar *ua, const MatScalar *dinv, const PetscInt *perm, PetscScalar *y, PetscScalar *z)
{
  PetscScalar      s0 = y[3 * i], s1 = y[3 * i + 1], s2 = y[3 * i + 2], *zi = z + 3 * perm[i];
  const MatScalar *d  = dinv + 9 * i;
  for (PetscInt p = pb; p < pe; p++) {
    const MatScalar   *v  = ua + 9 * p;
    const PetscScalar *yj = y + 3 * uj[p];
    const PetscScalar  x0 = yj[0], x1 = yj[1], x2 = yj[2];
    s0 -= v[0] * x0 + v[1] * x1 + v[2] * x2;
    s1 -= v[3] * x0 + v[4] * x1 + v[5] * x2;
    s2 -= v[6] * x0 + v[7] * x1 + v[8] * x2;
  }
  zi[0] = y[3 * i]     = d[0] * s0 + d[1] * s1 + d[2] * s2;
  zi[1] = y[3 * i + 1] = d[3] * s0 + d[4] * s1 + d[5] * s2;
  zi[2] = y[3 * i + 2] = d[6] * s0 + d[7] * s1 + d[8] * s2;
}

/* The rows lo..hi-1 of one sweep, forward (r -> work) or backward (work -> z); bs is a literal at the
   call sites below, so the branches fold and the block loops unroll. */
ASDDIC_INLINE void FwdRange(PetscInt bs, const PC_ASDDIC *a, PetscInt lo, PetscInt hi, const PetscScalar *r)
{
  const PetscInt  *li = a->li, *lj = a->lj, *perm = a->perm;
  const MatScalar *la = a->la;
  PetscScalar     *y  = a->work;

  for (PetscInt i = lo; i < hi; i++) {
    if (bs == 1) FwdRow1(i, li, lj, la, perm, r, y);
    else if (bs == 3) FwdRow3(i, li, lj, la, perm, r, y);
    else FwdRow(bs, i, li, lj, la, perm, r, y);
  }
}

/* U rows are stored last row first: row i is slot nb-1-i of ui/uj/ua */
ASDDIC_INLINE void BwdRange(PetscInt bs, const PC_ASDDIC *a, PetscInt lo, PetscInt hi, PetscScalar *z)
{
  const PetscInt  *ui = a->ui, *uj = a->uj, *perm = a->perm, nbm1 = a->nb - 1;
  const MatScalar *ua = a->ua, *dinv = a->dinv;
  PetscScalar     *y  = a->work;

  for (PetscInt i = hi - 1; i >= lo; i--) {
    if (bs == 1) BwdRow1(i, ui[nbm1 - i], ui[nbm1 - i + 1], uj, ua, dinv, perm, y, z);
    else if (bs == 3) BwdRow3(i, ui[nbm1 - i], ui[nbm1 - i + 1], uj, ua, dinv, perm, y, z);
    else BwdRow(bs, i, ui[nbm1 - i], ui[nbm1 - i + 1], uj, ua, dinv, perm, y, z);
  }
}

typedef void (*FwdFn)(const PC_ASDDIC *, PetscInt, PetscInt, const PetscScalar *);
typedef void (*BwdFn)(const PC_ASDDIC *, PetscInt, PetscInt, PetscScalar *);

static void Fwd1(const PC_ASDDIC *a, PetscInt lo, PetscInt hi, const PetscScalar *r) { FwdRange(1, a, lo, hi, r); }
static void Fwd2(const PC_ASDDIC *a, PetscInt lo, PetscInt hi, const PetscScalar *r) { FwdRange(2, a, lo, hi, r); }
static void Fwd3(const PC_ASDDIC *a, PetscInt lo, PetscInt hi, const PetscScalar *r) { FwdRange(3, a, lo, hi, r); }
static void FwdN(const PC_ASDDIC *a, PetscInt lo, PetscInt hi, const PetscScalar *r) { FwdRange(a->bs, a, lo, hi, r); }
static void Bwd1(const PC_ASDDIC *a, PetscInt lo, PetscInt hi, PetscScalar *z) { BwdRange(1, a, lo, hi, z); }
static void Bwd2(const PC_ASDDIC *a, PetscInt lo, PetscInt hi, PetscScalar *z) { BwdRange(2, a, lo, hi, z); }
static void Bwd3(const PC_ASDDIC *a, PetscInt lo, PetscInt hi, PetscScalar *z) { BwdRange(3, a, lo, hi, z); }
static void BwdN(const PC_ASDDIC *a, PetscInt lo, PetscInt hi, PetscScalar *z) { BwdRange(a->bs, a, lo, hi, z); }

/* z = M^{-1} r on local arrays in the matrix's (unpermuted) local numbering. With nt threads, colour
   by colour, each thread takes a contiguous share of the colour's rows; the master thread polls the
   progress hook between colours. */
PetscErrorCode PCASDDICSolveLocalTuned_Private(const PC_ASDDIC *a, PetscInt nt, const PetscScalar *r, PetscScalar *z)
{
  const PetscInt nc = a->ncolors, *cp = a->colorptr;
  FwdFn          fwd = a->bs == 1 ? Fwd1 : a->bs == 2 ? Fwd2 : a->bs == 3 ? Fwd3 : FwdN;
  BwdFn          bwd = a->bs == 1 ? Bwd1 : a->bs == 2 ? Bwd2 : a->bs == 3 ? Bwd3 : BwdN;
  PetscErrorCode perr = 0;

  PetscFunctionBegin;
#if defined(PIPEKSP_HAVE_OPENMP)
  if (nt > 1) {
  #pragma omp parallel num_threads(nt)
    {
      const PetscInt t = omp_get_thread_num(), T = omp_get_num_threads();
      for (PetscInt c = 0; c < nc; c++) {
        const PetscInt n = cp[c + 1] - cp[c];
        fwd(a, cp[c] + n * t / T, cp[c] + n * (t + 1) / T, r);
  #pragma omp barrier
  #pragma omp master
        {
          PetscErrorCode e = PipeKSPProgressPoll();
          if (e) perr = e;
        }
      }
      for (PetscInt c = nc - 1; c >= 0; c--) {
        const PetscInt n = cp[c + 1] - cp[c];
        bwd(a, cp[c] + n * t / T, cp[c] + n * (t + 1) / T, z);
  #pragma omp barrier
  #pragma omp master
        {
          PetscErrorCode e = PipeKSPProgressPoll();
          if (e) perr = e;
        }
      }
    }
    PetscCall(perr);
    PetscFunctionReturn(0);
  }
#endif
  (void)nt;
  fwd(a, 0, cp[nc], r);
  bwd(a, 0, cp[nc], z);
  PetscCall(PipeKSPProgressPoll());
  PetscFunctionReturn(0);
}
