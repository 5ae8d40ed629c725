/* pipeplcg's fused vector kernels: one pass over memory for a step of all its three-term recurrences with
   the dots of the next column, and the dots alone, with poll points between chunks */
#include <pipeksp/pipeplcgimpl.h>

/* entries between poll points in the vector loops: with up to l reductions in flight, every stretch of
   compute without an MPI call holds back their rounds (Open MPI progresses only inside MPI calls); the
   poll hook is throttled to the poll interval, so a dense set of points costs a clock read each */
#define PLCG_CHUNK 256

/* d[k] += sum_i u_i conj(w_k,i), k < nw, and *yy += sum_i |y_i|^2 (y may be NULL) over rows [i0, i1), each sum
   row after row. Up to 6 columns (depth 5's l + 1) the sums live in registers: an array of them went
   through memory on every row, and the store-to-load latency set the pace */
static inline void DotsRows(PetscInt nw, PetscInt i0, PetscInt i1, const PetscScalar *u, const PetscScalar *const w[], const PetscScalar *y, PetscScalar d[], PetscScalar *yy)
{
  PetscScalar        t = *yy, s0 = nw > 0 ? d[0] : 0, s1 = nw > 1 ? d[1] : 0, s2 = nw > 2 ? d[2] : 0, s3 = nw > 3 ? d[3] : 0, s4 = nw > 4 ? d[4] : 0, s5 = nw > 5 ? d[5] : 0;
  const PetscScalar *w0 = nw > 0 ? w[0] : NULL, *w1 = nw > 1 ? w[1] : NULL, *w2 = nw > 2 ? w[2] : NULL;
  const PetscScalar *w3 = nw > 3 ? w[3] : NULL, *w4 = nw > 4 ? w[4] : NULL, *w5 = nw > 5 ? w[5] : NULL;
  PetscInt           i, k;

  if (nw > 6) { /* not reached by the solver (nw <= l + 1): the plain loop */
    for (i = i0; i < i1; i++) {
      for (k = 0; k < nw; k++) d[k] += u[i] * PetscConj(w[k][i]);
      if (y) t += y[i] * PetscConj(y[i]);
    }
    *yy = t;
    return;
  }
#define PLCG_DOT(s, w) s += u[i] * PetscConj(w[i])
#define PLCG_DOTS_CASE(N, BODY) \
  case N: \
    for (i = i0; i < i1; i++) { \
      BODY; \
      if (y) t += y[i] * PetscConj(y[i]); \
    } \
    break
  switch (nw) {
    PLCG_DOTS_CASE(1, PLCG_DOT(s0, w0));
    PLCG_DOTS_CASE(2, PLCG_DOT(s0, w0); PLCG_DOT(s1, w1));
    PLCG_DOTS_CASE(3, PLCG_DOT(s0, w0); PLCG_DOT(s1, w1); PLCG_DOT(s2, w2));
    PLCG_DOTS_CASE(4, PLCG_DOT(s0, w0); PLCG_DOT(s1, w1); PLCG_DOT(s2, w2); PLCG_DOT(s3, w3));
    PLCG_DOTS_CASE(5, PLCG_DOT(s0, w0); PLCG_DOT(s1, w1); PLCG_DOT(s2, w2); PLCG_DOT(s3, w3); PLCG_DOT(s4, w4));
    PLCG_DOTS_CASE(6, PLCG_DOT(s0, w0); PLCG_DOT(s1, w1); PLCG_DOT(s2, w2); PLCG_DOT(s3, w3); PLCG_DOT(s4, w4); PLCG_DOT(s5, w5));
  default: /* nw = 0: (y, y) alone */
    if (y)
      for (i = i0; i < i1; i++) t += y[i] * PetscConj(y[i]);
  }
#undef PLCG_DOTS_CASE
#undef PLCG_DOT
  if (nw > 0) d[0] = s0;
  if (nw > 1) d[1] = s1;
  if (nw > 2) d[2] = s2;
  if (nw > 3) d[3] = s3;
  if (nw > 4) d[4] = s4;
  if (nw > 5) d[5] = s5;
  *yy = t;
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

PetscErrorCode KSPPipePLCGStep_Private(KSPPipePLCGRec *rc, PetscScalar b, PetscScalar s, PetscBool pupd, Vec P, Vec Q0, PetscScalar pa, PetscScalar pb, Vec u, PetscInt nw, Vec w[], Vec y, PetscScalar dots[])
{
  const PetscScalar *wu, *ww[PIPEKSP_RED_MAX], *wy = NULL, *q0 = NULL;
  PetscScalar       *pp = NULL, d[PIPEKSP_RED_MAX], yy = 0;
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
  for (k = 0; k < nw; k++) {
    PetscCall(VecGetArrayRead(w[k], &ww[k]));
    d[k] = 0;
  }
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
    DotsRows(nw, i0, i1, wu, ww, wy, d, &yy);
    PetscCall(PetscLogFlops(((rc->vp[0] ? 5.0 : 3.0) * nr + (pupd ? 3.0 : 0.0) + 2.0 * (nw + (y ? 1 : 0))) * (i1 - i0))); /* per chunk, before its poll (bench/smpi/solve_shim.c charges compute by it) */
    PetscCall(PipeKSPProgressPoll());
  }
  PetscCall(PetscLogEventEnd(PIPEKSP_VecPass, 0, 0, 0, 0));
  if (y) PetscCall(VecRestoreArrayRead(y, &wy));
  for (k = 0; k < nw; k++) {
    PetscCall(VecRestoreArrayRead(w[k], &ww[k]));
    dots[k] = d[k];
  }
  if (y) dots[nw] = yy;
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

/* local dots d[k] = (u, w[k]), k < nw, then (y, y) when y is given: one pass over memory */
PetscErrorCode KSPPipePLCGLocalDots_Private(Vec u, PetscInt nw, Vec w[], Vec y, PetscScalar dots[])
{
  const PetscScalar *a, *b[PIPEKSP_RED_MAX], *c = NULL;
  PetscScalar        s[PIPEKSP_RED_MAX], yy = 0;
  PetscInt           i0, k, n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(u, &n));
  PetscCall(VecGetArrayRead(u, &a));
  for (k = 0; k < nw; k++) {
    PetscCall(VecGetArrayRead(w[k], &b[k]));
    s[k] = 0;
  }
  if (y) PetscCall(VecGetArrayRead(y, &c));
  PetscCall(PetscLogEventBegin(PIPEKSP_VecPass, 0, 0, 0, 0));
  for (i0 = 0; i0 < n; i0 += PLCG_CHUNK) {
    PetscInt i1 = PetscMin(n, i0 + PLCG_CHUNK);
    DotsRows(nw, i0, i1, a, b, c, s, &yy);
    PetscCall(PetscLogFlops(2.0 * (i1 - i0) * (nw + (y ? 1 : 0)))); /* per chunk, as above */
    PetscCall(PipeKSPProgressPoll());
  }
  PetscCall(PetscLogEventEnd(PIPEKSP_VecPass, 0, 0, 0, 0));
  for (k = 0; k < nw; k++) {
    PetscCall(VecRestoreArrayRead(w[k], &b[k]));
    dots[k] = s[k];
  }
  if (y) {
    PetscCall(VecRestoreArrayRead(y, &c));
    dots[nw] = yy;
  }
  PetscCall(VecRestoreArrayRead(u, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}
