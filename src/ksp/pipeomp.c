/* Threaded fused vector updates and local dots of pipegv, pipegropp and chrongear. Each kernel is
   the serial loop of its KSP run over fixed blocks of PIPEKSP_VEC_BLOCK entries on -pipeksp_threads
   threads; the per-block partial sums are added in block order, so the results do not depend on the
   thread count (1 included) or the schedule. */
#include <pipeksp/threadsimpl.h>
#include <pipeksp/pipecommon.h>

/* ---- pipegv: the 8 updates and the 4 local dots of the next reduction ---- */
typedef struct {
  PetscBool          first;
  PetscScalar        alpha, beta;
  PetscScalar       *x, *r, *u, *w, *z, *q, *s, *p;
  const PetscScalar *m, *nn;
} GVCtx;

static void GVBlock(const void *ctx, PetscInt i0, PetscInt i1, PetscScalar *d)
{
  const GVCtx       *c = (const GVCtx *)ctx;
  const PetscScalar  alpha = c->alpha, beta = c->beta, *m = c->m, *nn = c->nn;
  PetscScalar       *x = c->x, *r = c->r, *u = c->u, *w = c->w, *z = c->z, *q = c->q, *s = c->s, *p = c->p;
  PetscScalar        ru = 0, wu = 0, rr = 0, uu = 0;

  for (PetscInt i = i0; i < i1; i++) {
    if (c->first) {
      z[i] = nn[i];
      q[i] = m[i];
      s[i] = w[i];
      p[i] = u[i];
    } else {
      z[i] = nn[i] + beta * z[i];
      q[i] = m[i] + beta * q[i];
      s[i] = w[i] + beta * s[i];
      p[i] = u[i] + beta * p[i];
    }
    x[i] += alpha * p[i];
    r[i] -= alpha * s[i];
    u[i] -= alpha * q[i];
    w[i] -= alpha * z[i];
    ru += r[i] * PetscConj(u[i]);
    wu += w[i] * PetscConj(u[i]);
    rr += r[i] * PetscConj(r[i]);
    uu += u[i] * PetscConj(u[i]);
  }
  d[0] = ru;
  d[1] = wu;
  d[2] = rr;
  d[3] = uu;
}

PetscErrorCode PipeKSPFusedGVThreaded(PetscInt n, PetscBool first, PetscScalar alpha, PetscScalar beta, PetscScalar *x, PetscScalar *r, PetscScalar *u, PetscScalar *w, PetscScalar *z, PetscScalar *q, PetscScalar *s, PetscScalar *p, const PetscScalar *m, const PetscScalar *nn, PetscScalar d[4])
{
  GVCtx c = {first, alpha, beta, x, r, u, w, z, q, s, p, m, nn};

  PetscFunctionBegin;
  PetscCall(PipeKSPThreadedBlocks(PipeKSPThreadsFor(n), n, 4, GVBlock, &c, d));
  PetscFunctionReturn(0);
}

/* ---- local (r,u), (w,u), (r,r), (u,u); w may be NULL ---- */
typedef struct {
  const PetscScalar *r, *u, *w;
} DotsCtx;

static void DotsBlock(const void *ctx, PetscInt i0, PetscInt i1, PetscScalar *d)
{
  const DotsCtx     *c = (const DotsCtx *)ctx;
  const PetscScalar *r = c->r, *u = c->u, *w = c->w;
  PetscScalar        ru = 0, wu = 0, rr = 0, uu = 0;

  if (w) {
    for (PetscInt i = i0; i < i1; i++) {
      ru += r[i] * PetscConj(u[i]);
      wu += w[i] * PetscConj(u[i]);
      rr += r[i] * PetscConj(r[i]);
      uu += u[i] * PetscConj(u[i]);
    }
  } else {
    for (PetscInt i = i0; i < i1; i++) {
      ru += r[i] * PetscConj(u[i]);
      rr += r[i] * PetscConj(r[i]);
      uu += u[i] * PetscConj(u[i]);
    }
  }
  d[0] = ru;
  d[1] = wu;
  d[2] = rr;
  d[3] = uu;
}

PetscErrorCode PipeKSPLocalDotsThreaded(PetscInt n, const PetscScalar *r, const PetscScalar *u, const PetscScalar *w, PetscScalar d[4])
{
  DotsCtx c = {r, u, w};

  PetscFunctionBegin;
  PetscCall(PipeKSPThreadedBlocks(PipeKSPThreadsFor(n), n, 4, DotsBlock, &c, d));
  PetscFunctionReturn(0);
}

/* ---- pipegropp: x += a p; r -= a s; u -= a q; local (r,u), (r,r), (u,u) ---- */
typedef struct {
  PetscScalar        a;
  PetscScalar       *x, *r, *u;
  const PetscScalar *p, *s, *q;
} Gropp1Ctx;

static void Gropp1Block(const void *ctx, PetscInt i0, PetscInt i1, PetscScalar *d)
{
  const Gropp1Ctx   *c = (const Gropp1Ctx *)ctx;
  const PetscScalar  a = c->a, *p = c->p, *s = c->s, *q = c->q;
  PetscScalar       *x = c->x, *r = c->r, *u = c->u, ru = 0, rr = 0, uu = 0;

  for (PetscInt i = i0; i < i1; i++) {
    x[i] += a * p[i];
    r[i] -= a * s[i];
    u[i] -= a * q[i];
    ru += r[i] * PetscConj(u[i]);
    rr += r[i] * PetscConj(r[i]);
    uu += u[i] * PetscConj(u[i]);
  }
  d[0] = ru;
  d[1] = rr;
  d[2] = uu;
}

PetscErrorCode PipeKSPFusedGropp1Threaded(PetscInt n, PetscScalar a, PetscScalar *x, PetscScalar *r, PetscScalar *u, const PetscScalar *p, const PetscScalar *s, const PetscScalar *q, PetscScalar d[3])
{
  Gropp1Ctx c = {a, x, r, u, p, s, q};

  PetscFunctionBegin;
  PetscCall(PipeKSPThreadedBlocks(PipeKSPThreadsFor(n), n, 3, Gropp1Block, &c, d));
  PetscFunctionReturn(0);
}

/* ---- pipegropp: p = u + b p; s = w + b s (first: copies); local (p,s) ---- */
typedef struct {
  PetscBool          first;
  PetscScalar        b;
  PetscScalar       *p, *s;
  const PetscScalar *u, *w;
} Gropp2Ctx;

static void Gropp2Block(const void *ctx, PetscInt i0, PetscInt i1, PetscScalar *d)
{
  const Gropp2Ctx   *c = (const Gropp2Ctx *)ctx;
  const PetscScalar  b = c->b, *u = c->u, *w = c->w;
  PetscScalar       *p = c->p, *s = c->s, ps = 0;

  if (c->first) {
    for (PetscInt i = i0; i < i1; i++) {
      p[i] = u[i];
      s[i] = w[i];
      ps += s[i] * PetscConj(p[i]);
    }
  } else {
    for (PetscInt i = i0; i < i1; i++) {
      p[i] = u[i] + b * p[i];
      s[i] = w[i] + b * s[i];
      ps += s[i] * PetscConj(p[i]);
    }
  }
  d[0] = ps;
}

PetscErrorCode PipeKSPFusedGropp2Threaded(PetscInt n, PetscBool first, PetscScalar b, PetscScalar *p, PetscScalar *s, const PetscScalar *u, const PetscScalar *w, PetscScalar *d)
{
  Gropp2Ctx c = {first, b, p, s, u, w};

  PetscFunctionBegin;
  PetscCall(PipeKSPThreadedBlocks(PipeKSPThreadsFor(n), n, 1, Gropp2Block, &c, d));
  PetscFunctionReturn(0);
}

/* ---- chrongear: p = u + beta p; s = w + beta s; x += alpha p; r -= alpha s (no dots) ---- */
typedef struct {
  PetscBool          first;
  PetscScalar        alpha, beta;
  PetscScalar       *x, *r, *p, *s;
  const PetscScalar *u, *w;
} CGCtx;

static void CGBlock(const void *ctx, PetscInt i0, PetscInt i1, PetscScalar *d)
{
  const CGCtx       *c = (const CGCtx *)ctx;
  const PetscScalar  alpha = c->alpha, beta = c->beta, *u = c->u, *w = c->w;
  PetscScalar       *x = c->x, *r = c->r, *p = c->p, *s = c->s;

  for (PetscInt i = i0; i < i1; i++) {
    if (c->first) {
      p[i] = u[i];
      s[i] = w[i];
    } else {
      p[i] = u[i] + beta * p[i];
      s[i] = w[i] + beta * s[i];
    }
    x[i] += alpha * p[i];
    r[i] -= alpha * s[i];
  }
}

PetscErrorCode PipeKSPFusedChronGearThreaded(PetscInt n, PetscBool first, PetscScalar alpha, PetscScalar beta, PetscScalar *x, PetscScalar *r, PetscScalar *p, PetscScalar *s, const PetscScalar *u, const PetscScalar *w)
{
  CGCtx c = {first, alpha, beta, x, r, p, s, u, w};

  PetscFunctionBegin;
  PetscCall(PipeKSPThreadedBlocks(PipeKSPThreadsFor(n), n, 0, CGBlock, &c, NULL));
  PetscFunctionReturn(0);
}
