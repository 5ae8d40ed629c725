/* pipeplcg's fused vector kernels: one pass over memory for a step of all its three-term recurrences with
   the dots of the next column, and the dots alone, with poll points between chunks */
#include <pipeksp/pipeplcgimpl.h>
#if defined(__FAST_MATH__) /* the dots' two-sums */
  #error "PipeKSP's compensated sums need IEEE arithmetic: build this file without -ffast-math"
#endif

/* entries between poll points in the vector loops: with up to l reductions in flight, every stretch of
   compute without an MPI call holds back their rounds (Open MPI progresses only inside MPI calls); the
   poll hook is throttled to the poll interval, so a dense set of points costs a clock read each */
#define PLCG_CHUNK 256

/* The dots are compensated sums (PipeKSPTwoSum()): p(l)-CG's Gram matrix holds dot products that cancel to
   a small fraction of the vectors' norms, and their rounding in recursive summation (about sqrt(n) eps ||u||
   ||w||) delays it beyond cg (docs/pipeplcg.md, "Compensated dot products"). Each sum runs in PLCG_LANES
   lanes of GCC's vector types (rows i, i + 4, ... in lane 0, and so on), so that the two-sum's six extra
   additions per product vectorise: in scalars the pass took 1.5 times as long as recursive summation.
   -log_view counts the 8 flops of each entry (a product, the two-sum and its error's sum): the SMPI shim
   charges compute by them */
#if defined(__GNUC__) && defined(PETSC_USE_REAL_DOUBLE) && !defined(PETSC_USE_COMPLEX)
  #define PLCG_LANES 4
typedef double PLCGVec __attribute__((vector_size(PLCG_LANES * sizeof(double))));
  #define PLCGConj(v) (v)
#else
  #define PLCG_LANES  1
typedef PetscScalar PLCGVec;
  #define PLCGConj(v) PetscConj(v)
#endif
typedef struct {
  PLCGVec s, c; /* per lane: the sum and its rounding errors */
} PLCGAcc;
#define PLCG_DOT_FLOPS 8.0

#define PLCGLoad(v, x) memcpy(&(v), (x), sizeof(PLCGVec)) /* unaligned */

/* acc[k] += sum_i u_i conj(w_k,i), k < nw, then acc[nw] += sum_i |y_i|^2 (y may be NULL), over rows [i0, i1).
   Up to 6 columns (depth 5's l + 1) the sums live in registers (a case per count): an array of them indexed
   at run time went through memory on every row, and the store-to-load latency set the pace */
static inline void DotsRows(PetscInt nw, PetscInt i0, PetscInt i1, const PetscScalar *u, const PetscScalar *const w[], const PetscScalar *y, PLCGAcc acc[])
{
  PetscInt i = i0, k;

#define PLCG_DOTS_VEC(N) \
  do { \
    PLCGAcc a[7]; \
    for (k = 0; k <= N; k++) a[k] = acc[k]; \
    for (; i + PLCG_LANES <= i1; i += PLCG_LANES) { \
      PLCGVec uu, x; \
      PLCGLoad(uu, u + i); \
      for (k = 0; k < N; k++) { \
        PLCGLoad(x, w[k] + i); \
        x = uu * PLCGConj(x); \
        PIPEKSP_TWOSUM(PLCGVec, a[k].s, a[k].c, x); \
      } \
      if (y) { \
        PLCGLoad(x, y + i); \
        x = x * PLCGConj(x); \
        PIPEKSP_TWOSUM(PLCGVec, a[N].s, a[N].c, x); \
      } \
    } \
    for (k = 0; k <= N; k++) acc[k] = a[k]; \
  } while (0)
  switch (nw) {
  case 0:
    PLCG_DOTS_VEC(0);
    break;
  case 1:
    PLCG_DOTS_VEC(1);
    break;
  case 2:
    PLCG_DOTS_VEC(2);
    break;
  case 3:
    PLCG_DOTS_VEC(3);
    break;
  case 4:
    PLCG_DOTS_VEC(4);
    break;
  case 5:
    PLCG_DOTS_VEC(5);
    break;
  case 6:
    PLCG_DOTS_VEC(6);
    break;
  default: /* not reached by the solver (nw <= l + 1): the rows below, one at a time */
    break;
  }
#undef PLCG_DOTS_VEC
  for (; i < i1; i++) { /* the rows left over (or all of them), in lane 0 */
    PetscScalar x[PLCG_LANES] = {0};
    PLCGVec     v;

    for (k = 0; k <= nw; k++) {
      if (k < nw) x[0] = u[i] * PetscConj(w[k][i]);
      else if (y) x[0] = y[i] * PetscConj(y[i]);
      else break;
      memcpy(&v, x, sizeof(v)); /* lanes 1.. stay 0 */
      PIPEKSP_TWOSUM(PLCGVec, acc[k].s, acc[k].c, v);
    }
  }
}

/* the compensated sum acc as hi + lo: the lanes added by two-sum, their errors after */
static inline void AccSum(const PLCGAcc *acc, PetscScalar *hi, PetscScalar *lo)
{
  PetscScalar s[PLCG_LANES], c[PLCG_LANES], sum = 0, err = 0;
  PetscInt    q;

  memcpy(s, &acc->s, sizeof(s));
  memcpy(c, &acc->c, sizeof(c));
  for (q = 0; q < PLCG_LANES; q++) {
    PipeKSPTwoSum(&sum, &err, s[q]);
    err += c[q];
  }
  *hi = sum;
  *lo = err;
}

void KSPPipePLCGRecAdd_Private(KSPPipePLCGRec *rc, Vec out, Vec src, Vec cur, Vec prev, PetscScalar a)
{
  rc->vo[rc->nr] = out;
  rc->vx[rc->nr] = src;
  rc->vc[rc->nr] = cur;
  rc->vp[rc->nr] = prev;
  rc->a[rc->nr]  = a;
  rc->nr++;
}

PetscErrorCode KSPPipePLCGStep_Private(KSPPipePLCGRec *rc, PetscScalar b, PetscScalar s, PetscBool pupd, Vec P, Vec Q0, PetscScalar pa, PetscScalar pb, Vec u, PetscInt nw, Vec w[], Vec y, PetscScalar dots[], PetscScalar lo[])
{
  const PetscScalar *wu, *ww[PIPEKSP_RED_MAX], *wy = NULL, *q0 = NULL;
  PetscScalar       *pp = NULL;
  PLCGAcc            acc[PIPEKSP_RED_MAX + 1];
  const PetscInt     nr = rc->nr;
  PetscInt           i, i0, j, k, n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(rc->vo[0], &n));
  for (j = 0; j < nr; j++) {
    PetscCall(VecGetArray(rc->vo[j], &rc->o[j]));
    if (rc->vx[j] != rc->vo[j]) PetscCall(VecGetArrayRead(rc->vx[j], &rc->x[j]));
    else rc->x[j] = rc->o[j];
    PetscCall(VecGetArrayRead(rc->vc[j], &rc->c[j]));
    rc->p[j] = NULL;
    if (rc->vp[j]) PetscCall(VecGetArrayRead(rc->vp[j], &rc->p[j]));
  }
  if (pupd) {
    PetscCall(VecGetArray(P, &pp));
    PetscCall(VecGetArrayRead(Q0, &q0));
  }
  PetscCall(VecGetArrayRead(u, &wu));
  for (k = 0; k < nw; k++) PetscCall(VecGetArrayRead(w[k], &ww[k]));
  PetscCall(PetscMemzero(acc, sizeof(acc)));
  if (y) PetscCall(VecGetArrayRead(y, &wy));
  PetscCall(PetscLogEventBegin(PIPEKSP_VecPass, 0, 0, 0, 0)); /* the pass's flops at its own rate (-log_view, the SMPI shim) */
  for (i0 = 0; i0 < n; i0 += PLCG_CHUNK) {                    /* poll points: the rounds of the reductions in flight advance */
    PetscInt i1 = PetscMin(n, i0 + PLCG_CHUNK);
    for (j = 0; j < nr; j++) {
      PetscScalar       *o = rc->o[j], aj = rc->a[j];
      const PetscScalar *x = rc->x[j], *c = rc->c[j], *pv = rc->p[j];
      if (pv)
        for (i = i0; i < i1; i++) o[i] = s * (x[i] + aj * c[i] + b * pv[i]);
      else
        for (i = i0; i < i1; i++) o[i] = s * (x[i] + aj * c[i]);
    }
    if (pupd) /* VecAXPBY()'s arithmetic */
      for (i = i0; i < i1; i++) pp[i] = pa * q0[i] + pb * pp[i];
    DotsRows(nw, i0, i1, wu, ww, wy, acc);
    PetscCall(PetscLogFlops(((rc->vp[0] ? 5.0 : 3.0) * nr + (pupd ? 3.0 : 0.0) + PLCG_DOT_FLOPS * (nw + (y ? 1 : 0))) * (i1 - i0))); /* per chunk, before its poll (bench/smpi/solve_shim.c charges compute by it) */
    PetscCall(PipeKSPProgressPoll());
  }
  PetscCall(PetscLogEventEnd(PIPEKSP_VecPass, 0, 0, 0, 0));
  if (y) PetscCall(VecRestoreArrayRead(y, &wy));
  for (k = 0; k < nw; k++) {
    PetscCall(VecRestoreArrayRead(w[k], &ww[k]));
    AccSum(&acc[k], &dots[k], &lo[k]);
  }
  if (y) AccSum(&acc[nw], &dots[nw], &lo[nw]);
  PetscCall(VecRestoreArrayRead(u, &wu));
  if (pupd) {
    PetscCall(VecRestoreArrayRead(Q0, &q0));
    PetscCall(VecRestoreArray(P, &pp));
  }
  for (j = nr - 1; j >= 0; j--) {
    if (rc->vp[j]) PetscCall(VecRestoreArrayRead(rc->vp[j], &rc->p[j]));
    PetscCall(VecRestoreArrayRead(rc->vc[j], &rc->c[j]));
    if (rc->vx[j] != rc->vo[j]) PetscCall(VecRestoreArrayRead(rc->vx[j], &rc->x[j]));
    PetscCall(VecRestoreArray(rc->vo[j], &rc->o[j]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* local dots d[k] = (u, w[k]), k < nw, then (y, y) when y is given, compensated (dots[k] + lo[k]): one pass
   over memory */
PetscErrorCode KSPPipePLCGLocalDots_Private(Vec u, PetscInt nw, Vec w[], Vec y, PetscScalar dots[], PetscScalar lo[])
{
  const PetscScalar *a, *b[PIPEKSP_RED_MAX], *c = NULL;
  PLCGAcc            acc[PIPEKSP_RED_MAX + 1];
  PetscInt           i0, k, n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(u, &n));
  PetscCall(VecGetArrayRead(u, &a));
  for (k = 0; k < nw; k++) PetscCall(VecGetArrayRead(w[k], &b[k]));
  PetscCall(PetscMemzero(acc, sizeof(acc)));
  if (y) PetscCall(VecGetArrayRead(y, &c));
  PetscCall(PetscLogEventBegin(PIPEKSP_VecPass, 0, 0, 0, 0));
  for (i0 = 0; i0 < n; i0 += PLCG_CHUNK) {
    PetscInt i1 = PetscMin(n, i0 + PLCG_CHUNK);
    DotsRows(nw, i0, i1, a, b, c, acc);
    PetscCall(PetscLogFlops(PLCG_DOT_FLOPS * (i1 - i0) * (nw + (y ? 1 : 0)))); /* per chunk, as above */
    PetscCall(PipeKSPProgressPoll());
  }
  PetscCall(PetscLogEventEnd(PIPEKSP_VecPass, 0, 0, 0, 0));
  for (k = 0; k < nw; k++) {
    PetscCall(VecRestoreArrayRead(w[k], &b[k]));
    AccSum(&acc[k], &dots[k], &lo[k]);
  }
  if (y) {
    PetscCall(VecRestoreArrayRead(y, &c));
    AccSum(&acc[nw], &dots[nw], &lo[nw]);
  }
  PetscCall(VecRestoreArrayRead(u, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}
