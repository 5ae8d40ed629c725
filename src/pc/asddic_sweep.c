/* The tuned triangular sweeps of asddic's local kernel M = (I + L)(D + U) on the split factor (la, ua):
   rows unrolled for block sizes 1, 2 and 3, colours shared by OpenMP threads (the rows of one colour
   are not coupled), the progress hook polled between colours. asddic_sweep_ref.c holds the plain
   version, -pc_asddic_kernel reference, that these must match to round-off. */
#include <pipeksp/asddicimpl.h>
#include <pipeksp/threadsimpl.h>
#if defined(PIPEKSP_HAVE_OPENMP)
  #include <omp.h>
#endif

#define ASDDIC_INLINE    static inline __attribute__((always_inline))
#define ASDDIC_POLL_ROWS 2048 /* block rows of a local block the master sweeps between two polls */

/* s -= sum_p V_p y_{cols[p]} over the blocks pb..pe-1 of one row: the block row product both sweeps
   share. Point rows use two accumulators (returns their sum), 3x3 rows keep s in registers. */
ASDDIC_INLINE PetscScalar RowSub1(PetscScalar s0, PetscInt p, PetscInt pe, const PetscInt *cols, const MatScalar *vals, const PetscScalar *y)
{
  PetscScalar s1 = 0;
  for (; p + 1 < pe; p += 2) {
    s0 -= vals[p] * y[cols[p]];
    s1 -= vals[p + 1] * y[cols[p + 1]];
  }
  if (p < pe) s0 -= vals[p] * y[cols[p]];
  return s0 + s1;
}

ASDDIC_INLINE void RowSub3(PetscInt pb, PetscInt pe, const PetscInt *cols, const MatScalar *vals, const PetscScalar *y, PetscScalar *s)
{
  PetscScalar s0 = s[0], s1 = s[1], s2 = s[2];
  for (PetscInt p = pb; p < pe; p++) {
    const MatScalar   *v  = vals + 9 * p;
    const PetscScalar *yj = y + 3 * cols[p];
    const PetscScalar  x0 = yj[0], x1 = yj[1], x2 = yj[2];
    s0 -= v[0] * x0 + v[1] * x1 + v[2] * x2;
    s1 -= v[3] * x0 + v[4] * x1 + v[5] * x2;
    s2 -= v[6] * x0 + v[7] * x1 + v[8] * x2;
  }
  s[0] = s0;
  s[1] = s1;
  s[2] = s2;
}

ASDDIC_INLINE void RowSub(PetscInt bs, PetscInt pb, PetscInt pe, const PetscInt *cols, const MatScalar *vals, const PetscScalar *y, PetscScalar *s)
{
  const PetscInt bs2 = bs * bs;

  if (bs == 3) {
    RowSub3(pb, pe, cols, vals, y, s);
    return;
  }
  for (PetscInt p = pb; p < pe; p++) {
    const MatScalar   *v  = vals + p * bs2;
    const PetscScalar *yj = y + cols[p] * bs;
    for (PetscInt rr = 0; rr < bs; rr++)
      for (PetscInt c = 0; c < bs; c++) s[rr] -= v[rr * bs + c] * yj[c];
  }
}

/* One row of the forward sweep y_i = r_{perm(i)} - sum_{j<i} L_ij y_j */
ASDDIC_INLINE void FwdRow(PetscInt bs, PetscInt i, const PetscInt *li, const PetscInt *lj, const MatScalar *la, const PetscInt *perm, const PetscScalar *r, PetscScalar *y)
{
  PetscScalar s[PIPEKSP_BS_MAX];

  if (bs == 1) {
    y[i] = RowSub1(r[perm[i]], li[i], li[i + 1], lj, la, y);
    return;
  }
  for (PetscInt c = 0; c < bs; c++) s[c] = r[perm[i] * bs + c];
  RowSub(bs, li[i], li[i + 1], lj, la, y, s);
  for (PetscInt c = 0; c < bs; c++) y[i * bs + c] = s[c];
}

/* One row of the backward sweep y_i = D_i^{-1} (y_i - sum_{j>i} U_ij y_j), z_{perm(i)} = y_i */
ASDDIC_INLINE void BwdRow(PetscInt bs, PetscInt i, PetscInt pb, PetscInt pe, const PetscInt *uj, const MatScalar *ua, const MatScalar *dinv, const PetscInt *perm, PetscScalar *y, PetscScalar *z)
{
  PetscScalar      s[PIPEKSP_BS_MAX];
  const MatScalar *d = dinv + i * bs * bs;

  if (bs == 1) {
    y[i]       = dinv[i] * RowSub1(y[i], pb, pe, uj, ua, y);
    z[perm[i]] = y[i];
    return;
  }
  for (PetscInt c = 0; c < bs; c++) s[c] = y[i * bs + c];
  RowSub(bs, pb, pe, uj, ua, y, s);
  for (PetscInt rr = 0; rr < bs; rr++) {
    PetscScalar t = d[rr * bs] * s[0];
    for (PetscInt c = 1; c < bs; c++) t += d[rr * bs + c] * s[c];
    y[i * bs + rr]       = t;
    z[perm[i] * bs + rr] = t;
  }
}

/* The rows lo..hi-1 of one sweep, forward (r -> work) or backward (work -> z); bs is a literal at the
   call sites below, so the branches fold and the block loops unroll. */
ASDDIC_INLINE void FwdRange(PetscInt bs, const PC_ASDDIC *a, PetscInt lo, PetscInt hi, const PetscScalar *r)
{
  const PetscInt  *li = a->li, *lj = a->lj, *perm = a->perm;
  const MatScalar *la = a->la;
  PetscScalar     *y  = a->work;

  for (PetscInt i = lo; i < hi; i++) FwdRow(bs, i, li, lj, la, perm, r, y);
}

/* U rows are stored last row first: row i is slot nb-1-i of ui/uj/ua */
ASDDIC_INLINE void BwdRange(PetscInt bs, const PC_ASDDIC *a, PetscInt lo, PetscInt hi, PetscScalar *z)
{
  const PetscInt  *ui = a->ui, *uj = a->uj, *perm = a->perm, nbm1 = a->nb - 1;
  const MatScalar *ua = a->ua, *dinv = a->dinv;
  PetscScalar     *y = a->work;

  for (PetscInt i = hi - 1; i >= lo; i--) BwdRow(bs, i, ui[nbm1 - i], ui[nbm1 - i + 1], uj, ua, dinv, perm, y, z);
}

typedef void (*FwdFn)(const PC_ASDDIC *, PetscInt, PetscInt, const PetscScalar *);
typedef void (*BwdFn)(const PC_ASDDIC *, PetscInt, PetscInt, PetscScalar *);

static void Fwd1(const PC_ASDDIC *a, PetscInt lo, PetscInt hi, const PetscScalar *r)
{
  FwdRange(1, a, lo, hi, r);
}
static void Fwd2(const PC_ASDDIC *a, PetscInt lo, PetscInt hi, const PetscScalar *r)
{
  FwdRange(2, a, lo, hi, r);
}
static void Fwd3(const PC_ASDDIC *a, PetscInt lo, PetscInt hi, const PetscScalar *r)
{
  FwdRange(3, a, lo, hi, r);
}
static void FwdN(const PC_ASDDIC *a, PetscInt lo, PetscInt hi, const PetscScalar *r)
{
  FwdRange(a->bs, a, lo, hi, r);
}
static void Bwd1(const PC_ASDDIC *a, PetscInt lo, PetscInt hi, PetscScalar *z)
{
  BwdRange(1, a, lo, hi, z);
}
static void Bwd2(const PC_ASDDIC *a, PetscInt lo, PetscInt hi, PetscScalar *z)
{
  BwdRange(2, a, lo, hi, z);
}
static void Bwd3(const PC_ASDDIC *a, PetscInt lo, PetscInt hi, PetscScalar *z)
{
  BwdRange(3, a, lo, hi, z);
}
static void BwdN(const PC_ASDDIC *a, PetscInt lo, PetscInt hi, PetscScalar *z)
{
  BwdRange(a->bs, a, lo, hi, z);
}

/* z = M^{-1} r on local arrays in the matrix's (unpermuted) local numbering. With nt threads, colour
   by colour, each thread takes a contiguous share of the colour's rows; the master thread polls the
   progress hook between colours. */
PetscErrorCode PCASDDICSolveLocalTuned_Private(const PC_ASDDIC *a, PetscInt nt, const PetscScalar *r, PetscScalar *z)
{
  const PetscInt nc = a->ncolors, *cp = a->colorptr;
  FwdFn          fwd  = a->bs == 1 ? Fwd1 : a->bs == 2 ? Fwd2 : a->bs == 3 ? Fwd3 : FwdN;
  BwdFn          bwd  = a->bs == 1 ? Bwd1 : a->bs == 2 ? Bwd2 : a->bs == 3 ? Bwd3 : BwdN;
  PetscErrorCode perr = 0;
  /* the sweep's flops (2 per stored entry), logged before the poll that follows them where one thread
     sweeps (a simulator that charges compute by the flop counter then places each poll after its rows,
     bench/smpi/solve_shim.c), at the end with a thread team */
  const PetscLogDouble ftot = 2.0 * a->nnzb * a->bs * a->bs;

  PetscFunctionBegin;
  if (a->nparts > 1) { /* local blocks: each thread sweeps whole blocks, forward then backward, no barrier */
    const PetscInt np = a->nparts, *pp = a->partptr;

    (void)nt;
#if defined(PIPEKSP_HAVE_OPENMP)
  #pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
#endif
    for (PetscInt q = 0; q < np; q++) {
#if defined(PIPEKSP_HAVE_OPENMP)
      const PetscBool master = (PetscBool)(omp_get_thread_num() == 0);
#else
      const PetscBool master = PETSC_TRUE;
#endif
      /* the master polls every ASDDIC_POLL_ROWS rows, as between colours */
      const PetscInt step = master ? ASDDIC_POLL_ROWS : pp[q + 1] - pp[q] + 1;
      for (PetscInt lo = pp[q]; lo < pp[q + 1]; lo += step) {
        fwd(a, lo, PetscMin(pp[q + 1], lo + step), r);
        if (nt <= 1) perr = perr ? perr : PetscLogFlops(0.5 * ftot * (PetscMin(pp[q + 1], lo + step) - lo) / pp[np]);
        if (master) {
          PetscErrorCode e = nt > 1 ? PipeKSPProgressPollMaster_Private() : PipeKSPProgressPoll();
          if (e) perr = e;
        }
      }
      for (PetscInt hi = pp[q + 1]; hi > pp[q]; hi -= step) {
        bwd(a, PetscMax(pp[q], hi - step), hi, z);
        if (nt <= 1) perr = perr ? perr : PetscLogFlops(0.5 * ftot * (hi - PetscMax(pp[q], hi - step)) / pp[np]);
        if (master) {
          PetscErrorCode e = nt > 1 ? PipeKSPProgressPollMaster_Private() : PipeKSPProgressPoll();
          if (e) perr = e;
        }
      }
    }
    PetscCall(perr);
    if (nt > 1) PetscCall(PetscLogFlops(ftot));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#if defined(PIPEKSP_HAVE_OPENMP)
  if (nt > 1) {
  #pragma omp parallel num_threads(nt)
    {
      const PetscInt t = omp_get_thread_num(), T = omp_get_num_threads();
      for (PetscInt k = 0; k < 2 * nc; k++) { /* colours 0..nc-1 forward, then nc-1..0 backward */
        const PetscInt c = k < nc ? k : 2 * nc - 1 - k, n = cp[c + 1] - cp[c], lo = cp[c] + n * t / T, hi = cp[c] + n * (t + 1) / T;
        if (k < nc) fwd(a, lo, hi, r);
        else bwd(a, lo, hi, z);
  #pragma omp barrier
  #pragma omp master
        {
          PetscErrorCode e = PipeKSPProgressPollMaster_Private();
          if (e) perr = e;
        }
      }
    }
    PetscCall(perr);
    PetscCall(PetscLogFlops(ftot));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#endif
  (void)nt;
  fwd(a, 0, cp[nc], r);
  bwd(a, 0, cp[nc], z);
  PetscCall(PetscLogFlops(ftot));
  PetscCall(PipeKSPProgressPoll());
  PetscFunctionReturn(PETSC_SUCCESS);
}
