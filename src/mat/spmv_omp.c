/* The threaded poll-point SpMV for (MPI)AIJ and (MPI)BAIJ, after Nakajima and Hanawa (P2S2 2017):
   - the master thread starts the halo exchange (src/mat/halo.c; it packs the send buffers itself) and,
     while the messages are in flight, loops { test them; the reduction poll hook; one interior work
     item } until they are done; then it unpacks and joins the interior loop. Only the master calls
     MPI, so MPI_THREAD_FUNNELED is enough;
   - meanwhile the other threads multiply the pure-interior rows (no off-process column), in work
     items of about -pipeksp_spmv_chunk rows, under the chosen schedule;
   - after a barrier the boundary rows (diagonal and off-diagonal block) follow, split over the threads.
   The interior/boundary split and the work items are computed once per nonzero pattern and cached on
   the Mat. Every row is computed by one thread with the single-thread kernels (pipeksp/spmvkernels.h)
   in the single-thread order, so the product is bitwise the 1-thread one. */
#include <pipeksp/spmvimpl.h>
#include <pipeksp/spmvkernels.h>
#include <pipeksp/haloimpl.h>
#include <pipeksp/threadsimpl.h>
#include <petsc/private/petscimpl.h>
#if defined(PIPEKSP_HAVE_OPENMP)
  #include <omp.h>
#endif

/* ---------------- the threaded product ---------------- */

#define OMP_KEY     "PipeKSPMatMultOMP_ctx"
#define BOUND_GROUP 16 /* boundary nodes (block rows) per work item */

static PipeKSPSpMVThreadStats OMPStats;

#if defined(PIPEKSP_HAVE_OPENMP)

typedef struct {
  Mat              Ad, Ao;           /* not referenced: matmult.c's cache holds them */
  PetscObjectState adstate, aostate; /* nonzero states at set-up */
  PetscInt         nnodes, chunk, bs;
  /* interior work items: AIJ nodes [i0[i], i1[i]) from row ir[i]; BAIJ block rows [i0[i], i1[i]) */
  PetscInt nint, *i0, *i1, *ir;
  /* boundary nodes: AIJ node bk[j] from row br[j]; BAIJ block row bk[j] */
  PetscInt    nbnd, *bk, *br;
  PetscInt    rint, rbnd; /* rows in each part */
  PetscInt64 *share;      /* dynamic schedule: per thread (lo, hi) of its items, SHARE_STRIDE apart */
  PetscInt    nshare;     /* threads share[] has room for */
} OMPCtx;

static PetscErrorCode OMPCtxDestroy(PipeKSPCtxDestroyArg ptr)
{
  OMPCtx *c = (OMPCtx *)PipeKSPContainerCtx(ptr);

  PetscFunctionBegin;
  PetscCall(PetscFree3(c->i0, c->i1, c->ir));
  PetscCall(PetscFree2(c->bk, c->br));
  PetscCall(PetscFree(c->share));
  PetscCall(PetscFree(c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The interior/boundary split: a node (AIJ: group of rows sharing their columns; BAIJ: block row) is interior when
   none of its rows has an off-process column. Rebuilt when a block or its nonzero pattern changes. */
static PetscErrorCode OMPGetCtx(const PipeKSPSpMVParts *p, PetscInt chunk, OMPCtx **ctx)
{
  PetscContainer   cont;
  OMPCtx          *c = NULL;
  PetscObjectState ads, aos = 0;
  const PetscInt  *oi = NULL, *oj;
  PetscInt         m, no = 0, nn;
  PetscBool        done;

  PetscFunctionBegin;
  PetscCall(PetscObjectQuery((PetscObject)p->A, OMP_KEY, (PetscObject *)&cont));
  if (cont) PetscCall(PetscContainerGetPointer(cont, (void **)&c));
  else {
    PetscCall(PetscNew(&c));
    PetscCall(PetscContainerCreate(PETSC_COMM_SELF, &cont));
    PetscCall(PetscContainerSetPointer(cont, c));
    PetscCall(PipeKSPContainerSetDestroy(cont, OMPCtxDestroy));
    PetscCall(PetscObjectCompose((PetscObject)p->A, OMP_KEY, (PetscObject)cont));
    PetscCall(PetscContainerDestroy(&cont));
  }
  PetscCall(MatGetNonzeroState(p->Ad, &ads));
  if (p->Ao) PetscCall(MatGetNonzeroState(p->Ao, &aos));
  if (c->i0 && c->Ad == p->Ad && c->Ao == p->Ao && c->adstate == ads && c->aostate == aos && c->nnodes == p->nnodes && c->chunk == chunk && c->bs == p->bs) {
    *ctx = c;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscFree3(c->i0, c->i1, c->ir));
  PetscCall(PetscFree2(c->bk, c->br));
  c->Ad      = p->Ad;
  c->Ao      = p->Ao;
  c->adstate = ads;
  c->aostate = aos;
  c->nnodes  = p->nnodes;
  c->chunk   = chunk;
  c->bs      = p->bs;
  PetscCall(MatGetLocalSize(p->Ad, &m, NULL));
  if (p->Ao) {
    PetscCall(MatGetRowIJ(p->Ao, 0, PETSC_FALSE, p->aij ? PETSC_FALSE : PETSC_TRUE, &no, &oi, &oj, &done));
    PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "PipeKSPMatMult: cannot get the structure of the off-diagonal block");
  }
  nn = p->aij ? p->nnodes : m / p->bs; /* nodes, each item or boundary entry is at least one */
  PetscCall(PetscMalloc3(nn + 1, &c->i0, nn + 1, &c->i1, nn + 1, &c->ir));
  PetscCall(PetscMalloc2(nn + 1, &c->bk, nn + 1, &c->br));
  c->nint = c->nbnd = c->rint = c->rbnd = 0;
  {
    const PetscInt cb = p->aij ? chunk : PetscMax(1, chunk / p->bs); /* item length in nodes' rows / block rows */
    PetscInt       r = 0, open = -1, len = 0;                        /* open: the item being filled */

    for (PetscInt k = 0; k < nn; k++) {
      const PetscInt sz  = p->aij ? p->nodes[k] : 1; /* rows (AIJ) or block rows (BAIJ) of node k */
      PetscBool      bnd = PETSC_FALSE;

      for (PetscInt q = r; oi && q < r + sz && !bnd; q++) bnd = (PetscBool)(oi[q + 1] > oi[q]);
      if (bnd) {
        c->bk[c->nbnd]   = k;
        c->br[c->nbnd++] = r;
        c->rbnd += sz;
        open = -1;
      } else {
        if (open < 0 || len >= cb) {
          open        = c->nint++;
          c->i0[open] = k;
          c->ir[open] = r;
          len         = 0;
        }
        c->i1[open] = k + 1;
        len += sz;
        c->rint += sz;
      }
      r += sz;
    }
  }
  if (p->Ao) PetscCall(MatRestoreRowIJ(p->Ao, 0, PETSC_FALSE, p->aij ? PETSC_FALSE : PETSC_TRUE, &no, &oi, &oj, &done));
  PetscCall(PetscInfo(p->A, "threaded SpMV: %" PetscInt_FMT " interior work items (%" PetscInt_FMT " %srows, ~%" PetscInt_FMT " rows each), %" PetscInt_FMT " boundary %s (%" PetscInt_FMT " %srows)\n", c->nint, c->rint, p->aij ? "" : "block ", chunk, c->nbnd, p->aij ? "nodes" : "block rows", c->rbnd, p->aij ? "" : "block "));
  *ctx = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y[r0..r1) += Ao g; the same summation order as PETSc's MatMultAdd (rows without entries unchanged) */
static void BoundAIJ(PetscInt r0, PetscInt r1, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, const PetscScalar *g, PetscScalar *y)
{
  for (PetscInt r = r0; r < r1; r++) {
    const PetscInt     n   = ai[r + 1] - ai[r];
    const PetscInt    *idx = aj + ai[r];
    const PetscScalar *v   = aa + ai[r];
    PetscScalar        s   = y[r];
    for (PetscInt k = 0; k < n; k++) s += v[k] * g[idx[k]];
    y[r] = s;
  }
}

static inline void BoundBAIJ(const PetscInt bs, PetscInt r, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, const PetscScalar *g, PetscScalar *y)
{
  const PetscInt     n   = ai[r + 1] - ai[r];
  const PetscInt    *idx = aj + ai[r];
  const PetscScalar *v   = aa + bs * bs * ai[r];
  PetscScalar        s[PIPEKSP_BS_MAX];

  for (PetscInt q = 0; q < bs; q++) s[q] = y[bs * r + q];
  for (PetscInt k = 0; k < n; k++, v += bs * bs) {
    const PetscScalar *xb = g + bs * idx[k];
    for (PetscInt q = 0; q < bs; q++) { /* s += (v_q0 x0 + v_q1 x1 + ...): PETSc's bs <= 7 kernels' order */
      PetscScalar t = 0;
      for (PetscInt cidx = 0; cidx < bs; cidx++) t += v[cidx * bs + q] * xb[cidx];
      s[q] += t;
    }
  }
  for (PetscInt q = 0; q < bs; q++) y[bs * r + q] = s[q];
}

  /* The dynamic schedule. OpenMP's schedule(dynamic) hands the items out from one counter, so the threads
   alternate through the matrix; on the 65^3 cube that product was about 15 % slower than static shares
   (each thread's stream of the matrix breaks at every item and both cores' caches hold the same part of x).
   Here thread t owns a contiguous share of the items and claims them from its front; a thread whose share
   is empty claims from the back of the others' shares, so a master held up by its communication still has
   its rows taken over. A share is (lo, hi) in one 64-bit word, each on its own cache line; a claim is a
   compare-and-swap. */
  #define SHARE_STRIDE 16 /* 128 bytes between shares */
  #define SHARE_BITS   32 /* lo in the low half of a share's word, hi in the high half */

static inline PetscInt64 SharePack(PetscInt64 lo, PetscInt64 hi)
{
  return lo | (hi << SHARE_BITS);
}

/* the next item of share s, from its front (own) or its back (stolen); -1 when it is empty */
static inline PetscInt ShareClaim(PetscInt64 *s, PetscBool front)
{
  PetscInt64 w = __atomic_load_n(s, __ATOMIC_RELAXED);

  for (;;) {
    const PetscInt64 lo = w & (((PetscInt64)1 << SHARE_BITS) - 1), hi = w >> SHARE_BITS;
    if (lo >= hi) return -1;
    if (__atomic_compare_exchange_n(s, &w, front ? SharePack(lo + 1, hi) : SharePack(lo, hi - 1), PETSC_TRUE, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return (PetscInt)(front ? lo : hi - 1);
  }
}

/* thread t's next item under the dynamic schedule: its own share, then the others' in thread order
   (*stolen counts those) */
static inline PetscInt DynamicNext(PetscInt64 *share, int t, int nt, PetscInt64 *stolen)
{
  PetscInt i = ShareClaim(share + SHARE_STRIDE * t, PETSC_TRUE);

  if (i >= 0) return i;
  for (int v = 1; i < 0 && v < nt; v++) i = ShareClaim(share + SHARE_STRIDE * ((t + v) % nt), PETSC_FALSE);
  *stolen += i >= 0;
  return i;
}

typedef struct {
  const PipeKSPSpMVParts *p;
  const OMPCtx           *c;
  const PetscInt         *ai, *aj, *oi, *oj;
  const PetscScalar      *aa, *oa, *x;
  PetscScalar            *y;
} Prod;

/* bs <= PIPEKSP_BS_MAX here (PipeKSPMatMult() threads no other): the BAIJ kernel needs no work array */
static inline void InteriorItem(const Prod *P, PetscInt i)
{
  if (P->p->aij) PipeKSPSpMVKernelAIJ(P->p->nodes, P->c->i0[i], P->c->i1[i], P->c->ir[i], P->ai, P->aj, P->aa, P->x, P->y);
  else PipeKSPSpMVKernelBAIJ(P->p->bs, NULL, P->c->i0[i], P->c->i1[i], P->ai, P->aj, P->aa, P->x, P->y);
}

/* boundary nodes [j0, j1): the diagonal block as the single-thread kernel does it, then Ao */
static void BoundaryItems(const Prod *P, PetscInt j0, PetscInt j1, const PetscScalar *g)
{
  const PipeKSPSpMVParts *p = P->p;
  const OMPCtx           *c = P->c;

  for (PetscInt j = j0; j < j1; j++) {
    const PetscInt k = c->bk[j];
    if (p->aij) {
      PipeKSPSpMVKernelAIJ(p->nodes, k, k + 1, c->br[j], P->ai, P->aj, P->aa, P->x, P->y);
      BoundAIJ(c->br[j], c->br[j] + p->nodes[k], P->oi, P->oj, P->oa, g, P->y);
    } else {
      PipeKSPSpMVKernelBAIJ(p->bs, NULL, k, k + 1, P->ai, P->aj, P->aa, P->x, P->y);
      if (p->bs == 1) BoundAIJ(k, k + 1, P->oi, P->oj, P->oa, g, P->y);
      else if (p->bs == 3) BoundBAIJ(3, k, P->oi, P->oj, P->oa, g, P->y);
      else BoundBAIJ(p->bs, k, P->oi, P->oj, P->oa, g, P->y);
    }
  }
}

/* the master's communication steps, timed and logged as PipeSpMVComm */
typedef enum {
  COMM_BEGIN,
  COMM_TEST,
  COMM_END
} CommStep;

static PetscErrorCode MasterComm(const PipeKSPSpMVParts *p, Vec x, CommStep step, PetscBool *done, const PetscScalar **g)
{
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  PetscCall(PetscLogEventBegin(PIPEKSP_SpMVComm, 0, 0, 0, 0));
  switch (step) {
  case COMM_BEGIN:
    PetscCall(PipeKSPHaloBegin_Private(p->halo, x, p->ghost));
    PetscCall(PipeKSPHaloTest_Private(p->halo, done));
    break;
  case COMM_TEST:
    PetscCall(PipeKSPHaloTest_Private(p->halo, done));
    break;
  case COMM_END:
    PetscCall(PipeKSPHaloEnd_Private(p->halo, x, p->ghost));
    PetscCall(VecGetArrayRead(p->ghost, g));
    break;
  }
  PetscCall(PetscLogEventEnd(PIPEKSP_SpMVComm, 0, 0, 0, 0));
  PetscCall(PetscTime(&t1));
  OMPStats.comm_time += t1 - t0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* one step of the master between its work items and in its halo wait: test the halo messages while they
   are in flight, then poll the reductions; hpolls counts the polls made with messages still in flight */
static void MasterPoll(const PipeKSPSpMVParts *p, Vec x, PetscBool *pending, PetscErrorCode *herr, PetscErrorCode *perr, PetscInt64 *polls, PetscInt64 *hpolls)
{
  PetscBool hdone = PETSC_TRUE;

  if (*pending && !*herr) {
    *herr    = MasterComm(p, x, COMM_TEST, &hdone, NULL);
    *pending = (PetscBool)(!*herr && !hdone);
  }
  if (!*perr) *perr = PipeKSPProgressPollMaster_Private();
  (*polls)++;
  *hpolls += *pending;
}

PetscErrorCode PipeKSPMatMultThreaded_Private(const PipeKSPSpMVParts *p, Vec x, Vec y, PetscInt64 *polls)
{
  OMPCtx             *c;
  PetscInt            nt, n, nbo = 0, nbg;
  PetscInt64          mchunks = 0, mpolls = 0, hpolls = 0, claimed = 0, stolen = 0;
  PipeKSPScheduleType sched;
  const PetscInt     *ai, *aj, *oi = NULL, *oj = NULL;
  const PetscScalar  *aa, *oa = NULL, *xa, *g = NULL;
  PetscScalar        *ya;
  PetscBool           done;
  PetscErrorCode      herr = 0, perr = 0;
  omp_sched_t         oldkind;
  int                 oldchunk;
  PetscLogDouble      flops;
  Prod                P;

  PetscFunctionBegin;
  PetscCall(PipeKSPThreadsGet_Private(NULL, &sched));
  PetscCall(OMPGetCtx(p, p->chunk, &c));
  PetscCall(MatGetRowIJ(p->Ad, 0, PETSC_FALSE, p->aij ? PETSC_FALSE : PETSC_TRUE, &n, &ai, &aj, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "PipeKSPMatMult: cannot get the structure of the diagonal block");
  nt = PipeKSPThreadsFor_Private(p->aij ? n : n * p->bs);
  if (p->aij) PetscCall(MatSeqAIJGetArrayRead(p->Ad, &aa));
  else PetscCall(PipeKSPMatSeqBAIJGetArrayRead(p->Ad, &aa));
  if (p->Ao) {
    PetscCall(MatGetRowIJ(p->Ao, 0, PETSC_FALSE, p->aij ? PETSC_FALSE : PETSC_TRUE, &nbo, &oi, &oj, &done));
    PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "PipeKSPMatMult: cannot get the structure of the off-diagonal block");
    if (p->aij) PetscCall(MatSeqAIJGetArrayRead(p->Ao, &oa));
    else PetscCall(PipeKSPMatSeqBAIJGetArrayRead(p->Ao, &oa));
  }
  PetscCall(VecGetArrayRead(x, &xa));
  PetscCall(VecGetArray(y, &ya));
  P.p  = p;
  P.c  = c;
  P.ai = ai;
  P.aj = aj;
  P.aa = aa;
  P.oi = oi;
  P.oj = oj;
  P.oa = oa;
  P.x  = xa;
  P.y  = ya;
  nbg  = (c->nbnd + BOUND_GROUP - 1) / BOUND_GROUP;
  if (sched == PIPEKSP_SCHEDULE_DYNAMIC) {
    PetscCheck(c->nint < ((PetscInt64)1 << (SHARE_BITS - 1)), PETSC_COMM_SELF, PETSC_ERR_SUP, "PipeKSPMatMult: %" PetscInt_FMT " work items do not fit the dynamic schedule's %d bits; raise -pipeksp_spmv_chunk", c->nint, SHARE_BITS - 1);
    if (c->nshare < nt) {
      PetscCall(PetscFree(c->share));
      PetscCall(PetscCalloc1(SHARE_STRIDE * nt, &c->share));
      c->nshare = nt;
    }
    for (PetscInt t = 0; t < nt; t++) c->share[SHARE_STRIDE * t] = SharePack(c->nint * t / nt, c->nint * (t + 1) / nt);
  }
  omp_get_schedule(&oldkind, &oldchunk);
  omp_set_schedule(sched == PIPEKSP_SCHEDULE_STATIC ? omp_sched_static : (sched == PIPEKSP_SCHEDULE_GUIDED ? omp_sched_guided : omp_sched_dynamic), sched == PIPEKSP_SCHEDULE_STATIC ? 0 : 1);

  #pragma omp parallel num_threads(nt)
  {
    const int master  = omp_get_thread_num() == 0;
    PetscBool pending = PETSC_FALSE, hdone = PETSC_TRUE;

    /* the master starts the exchange (packing the sends) while the others begin the interior */
    if (master && p->halo) {
      herr    = MasterComm(p, x, COMM_BEGIN, &hdone, NULL);
      pending = (PetscBool)(!herr && !hdone);
    }
    if (master && !herr) herr = PetscLogEventBegin(PIPEKSP_SpMVInner, 0, 0, 0, 0);
    if (sched == PIPEKSP_SCHEDULE_DYNAMIC) {
      const int t = omp_get_thread_num(); /* all nt shares are visited: the team may have fewer threads */

      PetscInt64 mine = 0, other = 0;

      for (PetscInt i; (i = DynamicNext(c->share, t, (int)nt, &other)) >= 0;) {
        InteriorItem(&P, i);
        mine++;
        if (master) { /* between its items: the halo messages, then the reduction */
          mchunks++;
          MasterPoll(p, x, &pending, &herr, &perr, &mpolls, &hpolls);
        }
      }
  #pragma omp atomic
      claimed += mine;
  #pragma omp atomic
      stolen += other;
    } else {
  #pragma omp for schedule(runtime) nowait reduction(+ : claimed)
      for (PetscInt i = 0; i < c->nint; i++) {
        InteriorItem(&P, i);
        claimed++;
        if (master) {
          mchunks++;
          MasterPoll(p, x, &pending, &herr, &perr, &mpolls, &hpolls);
        }
      }
    }
    if (master) {
      /* its share is done (static: the others may still run theirs); wait for the halo, polling */
      while (pending && !herr) MasterPoll(p, x, &pending, &herr, &perr, &mpolls, &hpolls);
      if (!perr) perr = PipeKSPProgressPollMaster_Private();
      mpolls++;
      if (!herr) herr = PetscLogEventEnd(PIPEKSP_SpMVInner, 0, 0, 0, 0);
      if (p->halo && !herr) herr = MasterComm(p, x, COMM_END, NULL, &g);
    }
  #pragma omp barrier
    if (p->Ao && !herr) { /* herr is shared and was set before the barrier: all threads agree */
      if (master) herr = PetscLogEventBegin(PIPEKSP_SpMVBound, 0, 0, 0, 0);
  #pragma omp for schedule(runtime)
      for (PetscInt j = 0; j < nbg; j++) BoundaryItems(&P, j * BOUND_GROUP, PetscMin(c->nbnd, (j + 1) * BOUND_GROUP), g);
      if (master && !herr) herr = PetscLogEventEnd(PIPEKSP_SpMVBound, 0, 0, 0, 0);
    }
  }
  omp_set_schedule(oldkind, oldchunk);
  PetscCall(herr);
  PetscCall(perr);
  OMPStats.products++;
  OMPStats.chunks += c->nint;
  OMPStats.master_chunks += mchunks;
  OMPStats.claimed += claimed;
  OMPStats.stolen += stolen;
  OMPStats.halo_polls += hpolls;
  *polls += mpolls;
  if (p->aij) flops = 2.0 * ai[n] - n + (p->Ao ? 2.0 * oi[nbo] : 0);
  else flops = 2.0 * p->bs * p->bs * ai[n] - p->bs * n + (p->Ao ? 2.0 * p->bs * p->bs * oi[nbo] : 0);
  PetscCall(PetscLogFlops(flops));
  PetscCall(VecRestoreArray(y, &ya));
  PetscCall(VecRestoreArrayRead(x, &xa));
  if (p->Ao) {
    if (g) PetscCall(VecRestoreArrayRead(p->ghost, &g));
    if (p->aij) PetscCall(MatSeqAIJRestoreArrayRead(p->Ao, &oa));
    else PetscCall(PipeKSPMatSeqBAIJRestoreArrayRead(p->Ao, &oa));
    PetscCall(MatRestoreRowIJ(p->Ao, 0, PETSC_FALSE, p->aij ? PETSC_FALSE : PETSC_TRUE, &nbo, &oi, &oj, &done));
  }
  if (p->aij) PetscCall(MatSeqAIJRestoreArrayRead(p->Ad, &aa));
  else PetscCall(PipeKSPMatSeqBAIJRestoreArrayRead(p->Ad, &aa));
  PetscCall(MatRestoreRowIJ(p->Ad, 0, PETSC_FALSE, p->aij ? PETSC_FALSE : PETSC_TRUE, &n, &ai, &aj, &done));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#else
PetscErrorCode PipeKSPMatMultThreaded_Private(const PipeKSPSpMVParts *p, Vec x, Vec y, PetscInt64 *polls)
{
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "PipeKSP was built without OpenMP: no threaded SpMV");
}
#endif

PetscErrorCode PipeKSPSpMVGetThreadStats(PipeKSPSpMVThreadStats *s)
{
  PetscFunctionBegin;
  *s = OMPStats;
  PetscFunctionReturn(PETSC_SUCCESS);
}
