/* pipeplcg's fused vector kernels: one pass over memory for a step of all its three-term recurrences with
   the dots of the next column, and the dots alone, with poll points between chunks */
#include <pipeksp/pipeplcgimpl.h>
#include <pipeksp/compsumimpl.h>

/* entries between poll points in the vector loops: with up to l reductions in flight, every stretch of
   compute without an MPI call holds back their rounds (Open MPI progresses only inside MPI calls); the
   poll hook is throttled to the poll interval, so a dense set of points costs a clock read each */
#define PLCG_CHUNK 256

/* The dots are compensated sums (include/pipeksp/compsumimpl.h): p(l)-CG's Gram matrix holds dot products
   that cancel to a small fraction of the vectors' norms, and their rounding in recursive summation delays it
   beyond cg (docs/pipeplcg.md, "Compensated dot products"). -log_view counts PIPEKSP_DOT_FLOPS an entry: the
   SMPI shim charges compute by them */

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
  PipeKSPAcc         acc[PIPEKSP_RED_MAX + 1];
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
    PipeKSPAccDotsRows(nw, i0, i1, wu, ww, wy, acc);
    PetscCall(PetscLogFlops(((rc->vp[0] ? 5.0 : 3.0) * nr + (pupd ? 3.0 : 0.0) + PIPEKSP_DOT_FLOPS * (nw + (y ? 1 : 0))) * (i1 - i0))); /* per chunk, before its poll (bench/smpi/solve_shim.c charges compute by it) */
    PetscCall(PipeKSPProgressPoll());
  }
  PetscCall(PetscLogEventEnd(PIPEKSP_VecPass, 0, 0, 0, 0));
  if (y) PetscCall(VecRestoreArrayRead(y, &wy));
  for (k = 0; k < nw; k++) {
    PetscCall(VecRestoreArrayRead(w[k], &ww[k]));
    PipeKSPAccSum(&acc[k], &dots[k], &lo[k]);
  }
  if (y) PipeKSPAccSum(&acc[nw], &dots[nw], &lo[nw]);
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
  PipeKSPAcc         acc[PIPEKSP_RED_MAX + 1];
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
    PipeKSPAccDotsRows(nw, i0, i1, a, b, c, acc);
    PetscCall(PetscLogFlops(PIPEKSP_DOT_FLOPS * (i1 - i0) * (nw + (y ? 1 : 0)))); /* per chunk, as above */
    PetscCall(PipeKSPProgressPoll());
  }
  PetscCall(PetscLogEventEnd(PIPEKSP_VecPass, 0, 0, 0, 0));
  for (k = 0; k < nw; k++) {
    PetscCall(VecRestoreArrayRead(w[k], &b[k]));
    PipeKSPAccSum(&acc[k], &dots[k], &lo[k]);
  }
  if (y) {
    PetscCall(VecRestoreArrayRead(y, &c));
    PipeKSPAccSum(&acc[nw], &dots[nw], &lo[nw]);
  }
  PetscCall(VecRestoreArrayRead(u, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}
