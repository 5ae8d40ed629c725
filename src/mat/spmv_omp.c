/* Threaded poll-point SpMV for (MPI)AIJ and (MPI)BAIJ, after Nakajima and Hanawa (P2S2 2017):
   - the master thread starts and completes the halo exchange (it packs the send buffers) and calls the
     reduction poll hook before and after its wait, so MPI_THREAD_FUNNELED is enough;
   - meanwhile the other threads multiply the diagonal block (which needs no ghost value) in row chunks
     under the chosen schedule; with dynamic the master joins as soon as its messages are done and
     polls between the chunks it takes;
   - then the boundary rows (those with off-process columns) add the off-diagonal block, split over
     the threads.
   Unlike the paper's single CSR we keep PETSc's diagonal/off-diagonal split, so the local part of the
   boundary rows is also overlapped with the halo; the boundary row list and the chunk table are
   computed once per nonzero pattern and cached on the Mat. */
#include <pipeksp/threadsimpl.h>
#include <petsc/private/petscimpl.h>
#if defined(PIPEKSP_HAVE_OPENMP)
  #include <omp.h>
#endif

#define OMP_KEY "PipeKSPMatMultOMP_ctx"

static PipeKSPSpMVThreadStats OMPStats;

#if defined(PIPEKSP_HAVE_OPENMP)

typedef struct {
  Mat              Ad, Ao;          /* not referenced: matmult.c's cache holds them */
  PetscObjectState adstate, aostate; /* nonzero states at set-up */
  PetscInt         nnodes, chunk, bs;
  PetscInt         nch, *kc, *rc;    /* interior work items: nodes kc[i].. (AIJ) starting at row rc[i] */
  PetscInt         nbound, *bound;   /* (block) rows with off-process columns */
} OMPCtx;

static PetscErrorCode OMPCtxDestroy(void *ptr)
{
  OMPCtx *c = (OMPCtx *)ptr;

  PetscFunctionBegin;
  PetscCall(PetscFree2(c->kc, c->rc));
  PetscCall(PetscFree(c->bound));
  PetscCall(PetscFree(c));
  PetscFunctionReturn(0);
}

/* Chunk table and boundary rows: rebuilt when a block or its nonzero pattern changes. */
static PetscErrorCode OMPGetCtx(const PipeKSPSpMVParts *p, PetscInt chunk, OMPCtx **ctx)
{
  PetscContainer   cont;
  OMPCtx          *c = NULL;
  PetscObjectState ads, aos = 0;

  PetscFunctionBegin;
  PetscCall(PetscObjectQuery((PetscObject)p->A, OMP_KEY, (PetscObject *)&cont));
  if (cont) PetscCall(PetscContainerGetPointer(cont, (void **)&c));
  else {
    PetscCall(PetscNew(&c));
    PetscCall(PetscContainerCreate(PETSC_COMM_SELF, &cont));
    PetscCall(PetscContainerSetPointer(cont, c));
    PetscCall(PetscContainerSetUserDestroy(cont, OMPCtxDestroy));
    PetscCall(PetscObjectCompose((PetscObject)p->A, OMP_KEY, (PetscObject)cont));
    PetscCall(PetscContainerDestroy(&cont));
  }
  PetscCall(MatGetNonzeroState(p->Ad, &ads));
  if (p->Ao) PetscCall(MatGetNonzeroState(p->Ao, &aos));
  if (c->kc && c->Ad == p->Ad && c->Ao == p->Ao && c->adstate == ads && c->aostate == aos && c->nnodes == p->nnodes && c->chunk == chunk && c->bs == p->bs) {
    *ctx = c;
    PetscFunctionReturn(0);
  }
  PetscCall(PetscFree2(c->kc, c->rc));
  PetscCall(PetscFree(c->bound));
  c->Ad = p->Ad;
  c->Ao = p->Ao;
  c->adstate = ads;
  c->aostate = aos;
  c->nnodes  = p->nnodes;
  c->chunk   = chunk;
  c->bs      = p->bs;
  {
    PetscInt m;
    PetscCall(MatGetLocalSize(p->Ad, &m, NULL));
    if (p->aij) {
      PetscInt k = 0, r = 0, i = 0;
      PetscCall(PetscMalloc2(p->nnodes + 1, &c->kc, p->nnodes + 1, &c->rc));
      while (k < p->nnodes) {
        PetscInt r1 = r;
        c->kc[i] = k;
        c->rc[i] = r;
        while (k < p->nnodes && r1 - r < chunk) r1 += p->nodes[k++];
        r = r1;
        i++;
      }
      c->kc[i] = k;
      c->rc[i] = r;
      c->nch   = i;
    } else { /* BAIJ: item i is block rows rc[i] .. rc[i+1]-1 */
      const PetscInt nb = m / p->bs, cb = PetscMax(1, chunk / p->bs);
      c->nch = (nb + cb - 1) / cb;
      PetscCall(PetscMalloc2(1, &c->kc, c->nch + 1, &c->rc));
      for (PetscInt i = 0; i <= c->nch; i++) c->rc[i] = PetscMin(nb, i * cb);
    }
  }
  c->nbound = 0;
  if (p->Ao) {
    const PetscInt *ai, *aj;
    PetscInt        n;
    PetscBool       done;

    PetscCall(MatGetRowIJ(p->Ao, 0, PETSC_FALSE, p->aij ? PETSC_FALSE : PETSC_TRUE, &n, &ai, &aj, &done));
    PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "PipeKSPMatMult: cannot get the structure of the off-diagonal block");
    for (PetscInt r = 0; r < n; r++) c->nbound += ai[r + 1] > ai[r];
    PetscCall(PetscMalloc1(c->nbound, &c->bound));
    c->nbound = 0;
    for (PetscInt r = 0; r < n; r++)
      if (ai[r + 1] > ai[r]) c->bound[c->nbound++] = r;
    PetscCall(MatRestoreRowIJ(p->Ao, 0, PETSC_FALSE, p->aij ? PETSC_FALSE : PETSC_TRUE, &n, &ai, &aj, &done));
  }
  PetscCall(PetscInfo(p->A, "threaded SpMV: %" PetscInt_FMT " interior work items of ~%" PetscInt_FMT " rows, %" PetscInt_FMT " boundary (block) rows\n", c->nch, chunk, c->nbound));
  *ctx = c;
  PetscFunctionReturn(0);
}

/* y[rows of the boundary list [j0,j1)] += Ao g; same summation order as PETSc's MatMultAdd */
static void BoundAIJ(const PetscInt *bound, PetscInt j0, PetscInt j1, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, const PetscScalar *g, PetscScalar *y)
{
  for (PetscInt j = j0; j < j1; j++) {
    const PetscInt     r = bound[j], n = ai[r + 1] - ai[r];
    const PetscInt    *idx = aj + ai[r];
    const PetscScalar *v   = aa + ai[r];
    PetscScalar        s   = y[r];
    for (PetscInt k = 0; k < n; k++) s += v[k] * g[idx[k]];
    y[r] = s;
  }
}

static inline void BoundBAIJ(const PetscInt bs, const PetscInt *bound, PetscInt j0, PetscInt j1, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, const PetscScalar *g, PetscScalar *y)
{
  for (PetscInt j = j0; j < j1; j++) {
    const PetscInt     r = bound[j], n = ai[r + 1] - ai[r];
    const PetscInt    *idx = aj + ai[r];
    const PetscScalar *v   = aa + bs * bs * ai[r];
    PetscScalar        s[8];
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
}

static void BoundRows(PetscInt bs, PetscBool aij, const PetscInt *bound, PetscInt j0, PetscInt j1, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, const PetscScalar *g, PetscScalar *y)
{
  if (aij || bs == 1) BoundAIJ(bound, j0, j1, ai, aj, aa, g, y);
  else if (bs == 3) BoundBAIJ(3, bound, j0, j1, ai, aj, aa, g, y);
  else BoundBAIJ(bs, bound, j0, j1, ai, aj, aa, g, y);
}

/* master thread: the whole halo exchange, with polls of the pending reduction around the wait
   (Open MPI also advances the reduction while it blocks in the wait) */
static PetscErrorCode MasterHalo(const PipeKSPSpMVParts *p, Vec x, const PetscScalar **g, PetscInt64 *polls)
{
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  PetscCall(PetscLogEventBegin(PIPEKSP_SpMVComm, 0, 0, 0, 0));
  PetscCall(VecScatterBegin(p->halo, x, p->ghost, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(PipeKSPProgressPoll());
  PetscCall(VecScatterEnd(p->halo, x, p->ghost, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(PipeKSPProgressPoll());
  *polls += 2;
  PetscCall(VecGetArrayRead(p->ghost, g));
  PetscCall(PetscLogEventEnd(PIPEKSP_SpMVComm, 0, 0, 0, 0));
  PetscCall(PetscTime(&t1));
  OMPStats.comm_time += t1 - t0;
  PetscFunctionReturn(0);
}

PetscErrorCode PipeKSPMatMultThreaded(const PipeKSPSpMVParts *p, Vec x, Vec y, PetscInt64 *polls)
{
  OMPCtx             *c;
  PetscInt            nt, chunk, n, nbo = 0;
  PetscInt64          mchunks = 0, mpolls = 0;
  PipeKSPScheduleType sched;
  const PetscInt     *ai, *aj, *oi = NULL, *oj = NULL;
  const PetscScalar  *aa, *oa = NULL, *xa, *g = NULL;
  PetscScalar        *ya;
  PetscBool           done;
  PetscErrorCode      herr = 0, perr = 0;
  omp_sched_t         oldkind;
  int                 oldchunk;
  PetscLogDouble      flops;

  PetscFunctionBegin;
  PetscCall(PipeKSPThreadsGet(NULL, &sched));
  chunk = p->chunk;
  PetscCall(OMPGetCtx(p, chunk, &c));
  PetscCall(MatGetRowIJ(p->Ad, 0, PETSC_FALSE, p->aij ? PETSC_FALSE : PETSC_TRUE, &n, &ai, &aj, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "PipeKSPMatMult: cannot get the structure of the diagonal block");
  nt = PipeKSPThreadsFor(p->aij ? n : n * p->bs);
  if (p->aij) PetscCall(MatSeqAIJGetArrayRead(p->Ad, &aa));
  else PetscCall(MatSeqBAIJGetArray(p->Ad, (PetscScalar **)&aa));
  if (p->Ao) {
    PetscCall(MatGetRowIJ(p->Ao, 0, PETSC_FALSE, p->aij ? PETSC_FALSE : PETSC_TRUE, &nbo, &oi, &oj, &done));
    PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "PipeKSPMatMult: cannot get the structure of the off-diagonal block");
    if (p->aij) PetscCall(MatSeqAIJGetArrayRead(p->Ao, &oa));
    else PetscCall(MatSeqBAIJGetArray(p->Ao, (PetscScalar **)&oa));
  }
  PetscCall(VecGetArrayRead(x, &xa));
  PetscCall(VecGetArray(y, &ya));
  omp_get_schedule(&oldkind, &oldchunk);
  omp_set_schedule(sched == PIPEKSP_SCHEDULE_STATIC ? omp_sched_static : (sched == PIPEKSP_SCHEDULE_GUIDED ? omp_sched_guided : omp_sched_dynamic), sched == PIPEKSP_SCHEDULE_STATIC ? 0 : 1);

  #pragma omp parallel num_threads(nt)
  {
    const int master = omp_get_thread_num() == 0;

    if (master && p->halo) herr = MasterHalo(p, x, &g, &mpolls);
    if (master && !herr) herr = PetscLogEventBegin(PIPEKSP_SpMVInner, 0, 0, 0, 0);
    #pragma omp for schedule(runtime) nowait
    for (PetscInt i = 0; i < c->nch; i++) {
      if (p->aij) PipeKSPSpMVKernelAIJ(p->nodes, c->kc[i], c->kc[i + 1], c->rc[i], ai, aj, aa, xa, ya);
      else PipeKSPSpMVKernelBAIJ(p->bs, c->rc[i], c->rc[i + 1], ai, aj, aa, xa, ya);
      if (master) {
        mchunks++;
        if (!perr) perr = PipeKSPProgressPoll();
      }
    }
    if (master) { /* one more poll once the master's interior work is done */
      if (!perr) perr = PipeKSPProgressPoll();
      mpolls += mchunks + 1;
      if (!herr) herr = PetscLogEventEnd(PIPEKSP_SpMVInner, 0, 0, 0, 0);
    }
    #pragma omp barrier
    if (p->Ao && !herr) { /* herr is shared and was set before the barrier: all threads agree */
      if (master) herr = PetscLogEventBegin(PIPEKSP_SpMVBound, 0, 0, 0, 0);
      #pragma omp for schedule(static)
      for (PetscInt j = 0; j < c->nbound; j += 16) BoundRows(p->bs, p->aij, c->bound, j, PetscMin(c->nbound, j + 16), oi, oj, oa, g, ya);
      if (master && !herr) herr = PetscLogEventEnd(PIPEKSP_SpMVBound, 0, 0, 0, 0);
    }
  }
  omp_set_schedule(oldkind, oldchunk);
  PetscCall(herr);
  PetscCall(perr);
  OMPStats.products++;
  OMPStats.chunks += c->nch;
  OMPStats.master_chunks += mchunks;
  *polls += mpolls;
  if (p->aij) flops = 2.0 * ai[n] - n + (p->Ao ? 2.0 * oi[nbo] : 0);
  else flops = 2.0 * p->bs * p->bs * ai[n] - p->bs * n + (p->Ao ? 2.0 * p->bs * p->bs * oi[nbo] : 0);
  PetscCall(PetscLogFlops(flops));
  PetscCall(VecRestoreArray(y, &ya));
  PetscCall(VecRestoreArrayRead(x, &xa));
  if (p->Ao) {
    PetscCall(VecRestoreArrayRead(p->ghost, &g));
    if (p->aij) PetscCall(MatSeqAIJRestoreArrayRead(p->Ao, &oa));
    else PetscCall(MatSeqBAIJRestoreArray(p->Ao, (PetscScalar **)&oa));
    PetscCall(MatRestoreRowIJ(p->Ao, 0, PETSC_FALSE, p->aij ? PETSC_FALSE : PETSC_TRUE, &nbo, &oi, &oj, &done));
  }
  if (p->aij) PetscCall(MatSeqAIJRestoreArrayRead(p->Ad, &aa));
  else PetscCall(MatSeqBAIJRestoreArray(p->Ad, (PetscScalar **)&aa));
  PetscCall(MatRestoreRowIJ(p->Ad, 0, PETSC_FALSE, p->aij ? PETSC_FALSE : PETSC_TRUE, &n, &ai, &aj, &done));
  PetscFunctionReturn(0);
}
#else
PetscErrorCode PipeKSPMatMultThreaded(const PipeKSPSpMVParts *p, Vec x, Vec y, PetscInt64 *polls)
{
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "PipeKSP was built without OpenMP: no threaded SpMV");
}
#endif

PetscErrorCode PipeKSPSpMVGetThreadStats(PipeKSPSpMVThreadStats *s)
{
  PetscFunctionBegin;
  *s = OMPStats;
  PetscFunctionReturn(0);
}
