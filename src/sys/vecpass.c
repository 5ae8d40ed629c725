/* The vector passes the pipelined KSPs share, on the process's thread team: the Jacobi product
   y = d .* x and the local dot products, compensated, that open a packed reduction. Blocks are summed in block order
   (PipeKSPThreadedBlocks_Private()), so the results do not depend on the thread count. */
#include <pipeksp/vecpassimpl.h>
#include <pipeksp/threadsimpl.h>
#include <pipeksp/compsumimpl.h>

typedef struct {
  const PetscScalar *r, *u, *w;
} DotsCtx;

/* (r,u) and (w,u), which CG's coefficients come from, compensated (compsumimpl.h); the norms' (r,r), (u,u)
   plain (compensating them too took chrongear's solve 1.16 times as long) */
static void DotsBlock(const void *ctx, PetscInt i0, PetscInt i1, PetscScalar *d)
{
  const DotsCtx     *c    = (const DotsCtx *)ctx;
  const PetscScalar *w[2] = {c->r, c->w}, *r = c->r, *u = c->u;
  PipeKSPAcc         acc[3] = {PIPEKSP_ACC_ZERO, PIPEKSP_ACC_ZERO, PIPEKSP_ACC_ZERO};
  const PetscScalar *xs[2]  = {r, u};
  PetscScalar        nn[2]  = {0, 0};

  PipeKSPAccDotsFew(c->w ? 2 : 1, i0, i1, u, w, acc); /* (u,r), (u,w) */
  PipeKSPPlainDots(2, i0, i1, xs, xs, nn);            /* (r,r), (u,u) */
  d[PIPEKSP_DOT_RU] = PetscConj(PipeKSPAccValue(&acc[0]));
  d[PIPEKSP_DOT_WU] = c->w ? PetscConj(PipeKSPAccValue(&acc[1])) : 0.0;
  d[PIPEKSP_DOT_RR] = nn[0];
  d[PIPEKSP_DOT_UU] = nn[1];
}

PetscErrorCode PipeKSPVecLocalDots_Private(Vec R, Vec U, Vec W, PetscScalar d[PIPEKSP_NDOTS])
{
  DotsCtx  c = {NULL, NULL, NULL};
  PetscInt n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(R, &n));
  PetscCall(VecGetArrayRead(R, &c.r));
  PetscCall(VecGetArrayRead(U, &c.u));
  if (W) PetscCall(VecGetArrayRead(W, &c.w));
  PetscCall(PipeKSPThreadedBlocks_Private(PipeKSPThreadsFor_Private(n), n, PIPEKSP_NDOTS, DotsBlock, &c, (W ? 2 : 1) * PIPEKSP_DOT_FLOPS + 4.0, d));
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
