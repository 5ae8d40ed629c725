/* The vector passes the pipelined KSPs share, on the process's thread team: the Jacobi product
   y = d .* x and the local dot products that open a packed reduction (chrongear's compensated). Blocks are
   summed in block order (PipeKSPThreadedBlocks_Private()), so the results do not depend on the thread count. */
#include <pipeksp/vecpassimpl.h>
#include <pipeksp/threadsimpl.h>
#include <pipeksp/compsumimpl.h> /* PIPEKSP_DOT_FLOPS */

typedef struct {
  const PetscScalar *r, *u, *w;
  PetscBool          comp;
} DotsCtx;

/* compensated (chrongear): PipeKSPLocalDotsComp_Private() (src/sys/vecpasscomp.c, built for exact two-sums);
   else all four summed row after row */
static void DotsBlock(const void *ctx, PetscInt i0, PetscInt i1, PetscScalar *d)
{
  const DotsCtx     *c = (const DotsCtx *)ctx;
  const PetscScalar *r = c->r, *u = c->u, *w = c->w;
  PetscScalar        ru = 0, wu = 0, rr = 0, uu = 0;

  if (c->comp) {
    PipeKSPLocalDotsComp_Private(r, u, w, i0, i1, d);
    return;
  }
  for (PetscInt i = i0; i < i1; i++) {
    ru += r[i] * PetscConj(u[i]);
    rr += r[i] * PetscConj(r[i]);
    uu += u[i] * PetscConj(u[i]);
  }
  if (w)
    for (PetscInt i = i0; i < i1; i++) wu += w[i] * PetscConj(u[i]);
  d[PIPEKSP_DOT_RU] = ru;
  d[PIPEKSP_DOT_WU] = wu;
  d[PIPEKSP_DOT_RR] = rr;
  d[PIPEKSP_DOT_UU] = uu;
}

PetscErrorCode PipeKSPVecLocalDots_Private(Vec R, Vec U, Vec W, PetscBool comp, PetscScalar d[PIPEKSP_NDOTS])
{
  DotsCtx  c = {NULL, NULL, NULL, comp};
  PetscInt n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(R, &n));
  PetscCall(VecGetArrayRead(R, &c.r));
  PetscCall(VecGetArrayRead(U, &c.u));
  if (W) PetscCall(VecGetArrayRead(W, &c.w));
  PetscCall(PipeKSPThreadedBlocks_Private(PipeKSPThreadsFor_Private(n), n, PIPEKSP_NDOTS, DotsBlock, &c, comp ? (W ? 2 : 1) * PIPEKSP_DOT_FLOPS + 4.0 : (W ? 8.0 : 6.0), d));
  PetscCall(VecRestoreArrayRead(R, &c.r));
  PetscCall(VecRestoreArrayRead(U, &c.u));
  if (W) PetscCall(VecRestoreArrayRead(W, &c.w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PipeKSPVecLocalNormSq_Private(Vec X, PetscScalar *d)
{
  const PetscScalar *x;
  PetscInt           i, n;
  PetscScalar        xx = 0;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(X, &n));
  PetscCall(VecGetArrayRead(X, &x));
  for (i = 0; i < n; i++) xx += x[i] * PetscConj(x[i]);
  PetscCall(VecRestoreArrayRead(X, &x));
  *d = xx;
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  const PetscScalar *d, *x;
  PetscScalar       *y;
} DiagCtx;

static void DiagBlock(const void *ctx, PetscInt i0, PetscInt i1, PetscScalar *unused)
{
  const DiagCtx *c = (const DiagCtx *)ctx;

  (void)unused;
  for (PetscInt i = i0; i < i1; i++) c->y[i] = c->x[i] * c->d[i]; /* PCApply_Jacobi's product, bitwise */
}

PetscErrorCode PipeKSPVecPointwiseMult_Private(Vec D, Vec X, Vec Y)
{
  DiagCtx  c;
  PetscInt n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(X, &n));
  PetscCall(VecGetArrayRead(D, &c.d));
  PetscCall(VecGetArrayRead(X, &c.x));
  PetscCall(VecGetArrayWrite(Y, &c.y));
  PetscCall(PipeKSPThreadedBlocks_Private(PipeKSPThreadsFor_Private(n), n, 0, DiagBlock, &c, 1.0, NULL));
  PetscCall(VecRestoreArrayWrite(Y, &c.y));
  PetscCall(VecRestoreArrayRead(X, &c.x));
  PetscCall(VecRestoreArrayRead(D, &c.d));
  PetscFunctionReturn(PETSC_SUCCESS);
}
