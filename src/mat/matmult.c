/* PipeKSPMatMult: y = A x with poll points for the progress engine, on one thread (the threaded product
   it hands over to is src/mat/spmv_omp.c; the kernels both use are pipeksp/spmvkernels.h).

   SeqAIJ/SeqBAIJ/MPIAIJ/MPIBAIJ run our own split of the product, the way PETSc's MPIAIJ MatMult
   is split: start the halo scatter, multiply the diagonal block in row chunks calling
   PipeKSPProgressPoll() between chunks, finish the scatter, add the off-diagonal block (PETSc's own
   MatMultAdd on the compressed-row Ao). Every other type gets MatMult() with polls around it.
   What depends on the sparsity pattern (halo scatter, row groups) is cached on the Mat in a
   PetscContainer and rebuilt when the type or the nonzero state changes.
   Logging: the split product is logged as PETSc's MatMult (so -log_view's MatMult row counts every
   SpMV, as with cg) with our PipeMatMult nested inside it. */
#include <pipeksp/spmvimpl.h>
#include <pipeksp/spmvkernels.h>
#include <pipeksp/haloimpl.h>
#include <pipeksp/threadsimpl.h>
#include <petsc/private/petscimpl.h>
#include <petsc/private/matimpl.h>
#include <string.h>

#define SPMV_KEY       "PipeKSPMatMult_ctx"
#define SPMV_CHUNK_DEF 256 /* rows between polls (docs/algorithms.md: 100-500) */

static PetscInt64      SpMVPolls    = 0;
static PipeKSPSpMVPath SpMVLastPath = PIPEKSP_SPMV_FALLBACK;

typedef struct {
  Mat              owner; /* the Mat this cache was composed on (not referenced: no cycle) */
  PipeKSPSpMVPath  path;
  char             type[64]; /* MatType the cache was built for */
  PetscObjectState state;    /* A's object state when last validated: changes only collectively */
  PetscObjectState nzstate;  /* A's nonzero state at set-up */
  Mat              Ad, Ao;   /* MPI paths: the blocks, referenced so their addresses stay unique */
  PetscInt         nghost;   /* columns of Ao at set-up */
  PetscInt         bs, mb;   /* block size (1 for AIJ), local block rows */
  PetscInt         chunk;    /* scalar rows per chunk (PipeKSPMatSetSpMVChunk, -pipeksp_spmv_chunk) */
  PetscBool        chunkset; /* chunk came from the setter or the options: no lazy options read */
  /* AIJ: groups of consecutive rows with identical columns, rebuilt when Ad's pattern changes */
  Mat              nodes_of;
  PetscObjectState nodes_nzstate;
  PetscInt         nnodes, *nodes;
  PetscScalar     *work; /* bs sums for BAIJ with bs > PIPEKSP_BS_MAX */
  VecScatter       halo; /* x -> ghost (the columns of Ao) */
  Vec              ghost, yseq;
  PetscLayout      xmap, ymap; /* layouts of x and y other than A's, found congruent with them */
} SpMVCtx;

static PetscErrorCode SpMVThreaded(SpMVCtx *, Mat, Vec, Vec);

static inline PetscErrorCode SpMVPoll(void)
{
  SpMVPolls++;
  return PipeKSPProgressPoll();
}

static PetscErrorCode SpMVReset(SpMVCtx *c)
{
  PetscFunctionBegin;
  PetscCall(MatDestroy(&c->Ad));
  PetscCall(MatDestroy(&c->Ao));
  PetscCall(PetscFree(c->nodes));
  PetscCall(PetscFree(c->work));
  PetscCall(VecScatterDestroy(&c->halo));
  PetscCall(VecDestroy(&c->ghost));
  PetscCall(VecDestroy(&c->yseq));
  c->nodes_of = NULL;
  c->nnodes   = 0;
  c->type[0]  = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpMVCtxDestroy(PipeKSPCtxDestroyArg ptr)
{
  SpMVCtx *c = (SpMVCtx *)PipeKSPContainerCtx(ptr);

  PetscFunctionBegin;
  PetscCall(SpMVReset(c));
  PetscCall(PetscLayoutDestroy(&c->xmap));
  PetscCall(PetscLayoutDestroy(&c->ymap));
  PetscCall(PetscFree(c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The cache composed on A; a new one when there is none or it came with a copied object list. */
static PetscErrorCode SpMVGetCtx(Mat A, SpMVCtx **ctx)
{
  PetscContainer cont;
  SpMVCtx       *c = NULL;

  PetscFunctionBegin;
  PetscCall(PetscObjectQuery((PetscObject)A, SPMV_KEY, (PetscObject *)&cont));
  if (cont) PetscCall(PetscContainerGetPointer(cont, (void **)&c));
  if (!c || c->owner != A) {
    PetscCall(PetscNew(&c));
    c->owner = A;
    c->chunk = SPMV_CHUNK_DEF;
    PetscCall(PetscContainerCreate(PETSC_COMM_SELF, &cont));
    PetscCall(PetscContainerSetPointer(cont, c));
    PetscCall(PipeKSPContainerSetDestroy(cont, SpMVCtxDestroy));
    PetscCall(PetscObjectCompose((PetscObject)A, SPMV_KEY, (PetscObject)cont));
    PetscCall(PetscContainerDestroy(&cont));
  }
  *ctx = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Sizes, checked without communication: a layout's ownership ranges are the same on every rank, so every
   rank reaches the same verdict (no reduction in the product: a blocking one would stall the pending
   reductions that the product is meant to overlap). Vectors of other layout objects that are congruent
   with A's are remembered, one for x and one for y. */
static PetscErrorCode SpMVCheckLayouts(Mat A, SpMVCtx *c, Vec x, Vec y)
{
  PetscLayout rmap, cmap, xm, ym;
  PetscInt    M, N, m, n, xN, yN, xn, yn;
  PetscBool   xok, yok;

  PetscFunctionBegin;
  PetscCall(MatGetLayouts(A, &rmap, &cmap));
  PetscCall(VecGetLayout(x, &xm));
  PetscCall(VecGetLayout(y, &ym));
  if ((xm == cmap || xm == c->xmap) && (ym == rmap || ym == c->ymap)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatGetSize(A, &M, &N));
  PetscCall(MatGetLocalSize(A, &m, &n));
  PetscCall(VecGetSize(x, &xN));
  PetscCall(VecGetSize(y, &yN));
  PetscCall(VecGetLocalSize(x, &xn));
  PetscCall(VecGetLocalSize(y, &yn));
  PetscCheck(xN == N, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_SIZ, "PipeKSPMatMult: Mat has %" PetscInt_FMT " columns but x has global size %" PetscInt_FMT "; create x with MatCreateVecs(A,&x,NULL)", N, xN);
  PetscCheck(yN == M, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_SIZ, "PipeKSPMatMult: Mat has %" PetscInt_FMT " rows but y has global size %" PetscInt_FMT "; create y with MatCreateVecs(A,NULL,&y)", M, yN);
  PetscCall(PetscLayoutCompare(xm, cmap, &xok));
  PetscCall(PetscLayoutCompare(ym, rmap, &yok));
  PetscCheck(xok && yok, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_SIZ, "PipeKSPMatMult: the parallel layouts of x and/or y differ from the Mat's on some rank (here: Mat local %" PetscInt_FMT " x %" PetscInt_FMT ", x local %" PetscInt_FMT ", y local %" PetscInt_FMT "); create the vectors with MatCreateVecs()", m, n, xn, yn);
  if (xm != cmap && xm != c->xmap) {
    PetscCall(PetscLayoutDestroy(&c->xmap));
    PetscCall(PetscLayoutReference(xm, &c->xmap));
  }
  if (ym != rmap && ym != c->ymap) {
    PetscCall(PetscLayoutDestroy(&c->ymap));
    PetscCall(PetscLayoutReference(ym, &c->ymap));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* AIJ row groups: up to PIPEKSP_SPMV_NODE_MAX consecutive rows with the same column list share one pass
   over the column indices and x (what PETSc's inode kernels do; the cube has groups of 3). */
static PetscErrorCode SpMVBuildNodes(SpMVCtx *c, Mat Ad)
{
  const PetscInt *ai, *aj;
  PetscInt        m, r = 0;
  PetscBool       done;

  PetscFunctionBegin;
  PetscCall(PetscFree(c->nodes));
  PetscCall(MatGetRowIJ(Ad, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "PipeKSPMatMult: cannot get the CSR structure of the diagonal block");
  PetscCall(PetscMalloc1(m + 1, &c->nodes));
  c->nnodes = 0;
  while (r < m) {
    const PetscInt len = ai[r + 1] - ai[r];
    PetscInt       sz  = 1;
    while (sz < PIPEKSP_SPMV_NODE_MAX && r + sz < m && ai[r + sz + 1] - ai[r + sz] == len && !memcmp(aj + ai[r], aj + ai[r + sz], len * sizeof(PetscInt))) sz++;
    c->nodes[c->nnodes++] = sz;
    r += sz;
  }
  PetscCall(MatRestoreRowIJ(Ad, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  c->nodes_of = Ad;
  PetscCall(MatGetNonzeroState(Ad, &c->nodes_nzstate));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpMVEnsureNodes(SpMVCtx *c, Mat Ad)
{
  PetscObjectState st;

  PetscFunctionBegin;
  if (c->nodes_of == Ad && c->nodes) {
    PetscCall(MatGetNonzeroState(Ad, &st));
    if (st == c->nodes_nzstate) PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(SpMVBuildNodes(c, Ad));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Collective on A: everything that depends on the type and the nonzero pattern. */
static PetscErrorCode SpMVSetUp(Mat A, SpMVCtx *c, PipeKSPSpMVPath path, MatType type, Vec x)
{
  const PetscInt *colmap;
  PetscInt        m, nghost;
  IS              is;

  PetscFunctionBegin;
  PetscCall(SpMVReset(c));
  c->path = path;
  PetscCall(PetscStrncpy(c->type, type, sizeof(c->type)));
  PetscCall(MatGetNonzeroState(A, &c->nzstate));
  c->bs = 1;
  if (path == PIPEKSP_SPMV_SEQBAIJ || path == PIPEKSP_SPMV_MPIBAIJ) PetscCall(MatGetBlockSize(A, &c->bs));
  if (c->bs > PIPEKSP_BS_MAX) PetscCall(PetscMalloc1(c->bs, &c->work));
  PetscCall(MatGetLocalSize(A, &m, NULL));
  c->mb = m / c->bs;
  if (path == PIPEKSP_SPMV_MPIAIJ || path == PIPEKSP_SPMV_MPIBAIJ) {
    if (path == PIPEKSP_SPMV_MPIAIJ) PetscCall(MatMPIAIJGetSeqAIJ(A, &c->Ad, &c->Ao, &colmap));
    else PetscCall(MatMPIBAIJGetSeqBAIJ(A, &c->Ad, &c->Ao, &colmap));
    PetscCall(PetscObjectReference((PetscObject)c->Ad));
    PetscCall(PetscObjectReference((PetscObject)c->Ao));
    PetscCall(MatGetLocalSize(c->Ao, NULL, &nghost));
    c->nghost = nghost;
    /* colmap holds the global (block) column of each Ao (block) column */
    if (c->bs == 1) PetscCall(ISCreateGeneral(PETSC_COMM_SELF, nghost, colmap, PETSC_COPY_VALUES, &is));
    else PetscCall(ISCreateBlock(PETSC_COMM_SELF, c->bs, nghost / c->bs, colmap, PETSC_COPY_VALUES, &is));
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, nghost, &c->ghost));
    PetscCall(VecSetBlockSize(c->ghost, c->bs));
    PetscCall(VecScatterCreate(x, is, c->ghost, NULL, &c->halo));
    PetscCall(ISDestroy(&is));
    PetscCall(VecCreateSeqWithArray(PETSC_COMM_SELF, c->bs, m, NULL, &c->yseq));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After a change of A's object state (collective: assembly, MatScale, ...): does the cache still fit?
   The nonzero state alone misses a rebuilt off-diagonal block (MPIBAIJ), so the blocks themselves
   are compared locally and the verdict reduced, keeping the rebuild collective. */
static PetscErrorCode SpMVValidate(Mat A, SpMVCtx *c, PipeKSPSpMVPath path, MatType type, Vec x, PetscObjectState state)
{
  PetscObjectState nzstate;
  PetscMPIInt      stale = 0, anystale = 0, size;

  PetscFunctionBegin;
  PetscCall(MatGetNonzeroState(A, &nzstate));
  if (c->path != path || strcmp(c->type, type) || nzstate != c->nzstate) stale = 1;
  else if (path == PIPEKSP_SPMV_MPIAIJ || path == PIPEKSP_SPMV_MPIBAIJ) {
    Mat             Ad, Ao;
    const PetscInt *colmap;
    PetscInt        nghost;

    if (path == PIPEKSP_SPMV_MPIAIJ) PetscCall(MatMPIAIJGetSeqAIJ(A, &Ad, &Ao, &colmap));
    else PetscCall(MatMPIBAIJGetSeqBAIJ(A, &Ad, &Ao, &colmap));
    PetscCall(MatGetLocalSize(Ao, NULL, &nghost));
    if (Ad != c->Ad || Ao != c->Ao || nghost != c->nghost) stale = 1;
  }
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
  if (size > 1) PetscCall(MPIU_Allreduce(&stale, &anystale, 1, MPI_INT, MPI_MAX, PetscObjectComm((PetscObject)A)));
  else anystale = stale;
  if (anystale) PetscCall(SpMVSetUp(A, c, path, type, x));
  c->state = state;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = Ad x in chunks of about c->chunk rows, polling between chunks */
static PetscErrorCode SpMVDiag(SpMVCtx *c, Mat Ad, const PetscScalar *x, PetscScalar *y)
{
  const PetscInt *ai, *aj;
  PetscInt        n;
  PetscBool       done;

  PetscFunctionBegin;
  if (c->bs == 1 && (c->path == PIPEKSP_SPMV_SEQAIJ || c->path == PIPEKSP_SPMV_MPIAIJ)) {
    const PetscScalar *aa;
    PetscInt           k = 0, r = 0;

    PetscCall(SpMVEnsureNodes(c, Ad));
    PetscCall(MatGetRowIJ(Ad, 0, PETSC_FALSE, PETSC_FALSE, &n, &ai, &aj, &done));
    PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "PipeKSPMatMult: cannot get the CSR structure of the diagonal block");
    PetscCall(MatSeqAIJGetArrayRead(Ad, &aa));
    while (k < c->nnodes) {
      PetscInt k1 = k, r1 = r;
      while (k1 < c->nnodes && r1 - r < c->chunk) r1 += c->nodes[k1++];
      PipeKSPSpMVKernelAIJ(c->nodes, k, k1, r, ai, aj, aa, x, y);
      /* flops per chunk, before its poll: a simulator that charges compute by the flop counter (the SMPI
         driver, bench/smpi/solve_shim.c) then places the poll after the rows it follows */
      PetscCall(PetscLogFlops(2.0 * (ai[r1] - ai[r]) - (r1 - r)));
      k = k1;
      r = r1;
      if (k < c->nnodes) PetscCall(SpMVPoll());
    }
    PetscCall(MatSeqAIJRestoreArrayRead(Ad, &aa));
    PetscCall(MatRestoreRowIJ(Ad, 0, PETSC_FALSE, PETSC_FALSE, &n, &ai, &aj, &done));
  } else {
    const PetscScalar *aa;
    const PetscInt     cb = PetscMax(1, c->chunk / c->bs);

    PetscCall(MatGetRowIJ(Ad, 0, PETSC_FALSE, PETSC_TRUE, &n, &ai, &aj, &done));
    PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "PipeKSPMatMult: cannot get the block CSR structure of the diagonal block");
    PetscCall(PipeKSPMatSeqBAIJGetArrayRead(Ad, &aa));
    for (PetscInt b0 = 0; b0 < n; b0 += cb) {
      const PetscInt b1 = PetscMin(n, b0 + cb);
      PipeKSPSpMVKernelBAIJ(c->bs, c->work, b0, b1, ai, aj, aa, x, y);
      PetscCall(PetscLogFlops(2.0 * c->bs * c->bs * (ai[b1] - ai[b0]) - c->bs * (b1 - b0))); /* per chunk, as above */
      if (b1 < n) PetscCall(SpMVPoll());
    }
    PetscCall(PipeKSPMatSeqBAIJRestoreArrayRead(Ad, &aa));
    PetscCall(MatRestoreRowIJ(Ad, 0, PETSC_FALSE, PETSC_TRUE, &n, &ai, &aj, &done));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PipeKSPMatMult - y = A x with poll points for the progress engine (PipeKSPProgressPoll())

  Collective

  Input Parameters:
+ A - the matrix: SeqAIJ/MPIAIJ/SeqBAIJ/MPIBAIJ run a split product with polls between row chunks
      of the diagonal block (option -pipeksp_spmv_chunk <rows>, read when the pattern is first seen);
      any other type is multiplied by MatMult() with polls before and after
- x - input vector (layout of A's columns)

  Output Parameter:
. y - output vector, must differ from x

  Note:
  The split product is formed from the matrix's entries, chosen by the type's name: a multiply installed
  on such a matrix with `MatSetOperation()` (MATOP_MULT) is not called. Use a `MATSHELL` for an operator
  of your own. The pipelined KSPs make all their products with the operator through this function
  (`MatMultTranspose()` in transposed solves).

  Level: developer

.seealso: `PipeKSPProgressPoll()`, `PipeKSPMatSetSpMVChunk()`, `PipeKSPMatViewSpMV()`
@*/
PetscErrorCode PipeKSPMatMult(Mat A, Vec x, Vec y)
{
  MatType          type;
  PipeKSPSpMVPath  path = PIPEKSP_SPMV_FALLBACK;
  PetscBool        flg, assembled;
  SpMVCtx         *c = NULL;
  PetscObjectState state;

  PetscFunctionBegin;
  PetscCheck(A && ((PetscObject)A)->classid == MAT_CLASSID, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "PipeKSPMatMult: argument 1 must be a Mat");
  PetscCheck(x && ((PetscObject)x)->classid == VEC_CLASSID, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "PipeKSPMatMult: argument 2 must be a Vec");
  PetscCheck(y && ((PetscObject)y)->classid == VEC_CLASSID, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "PipeKSPMatMult: argument 3 must be a Vec");
  PetscCheck(x != y, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_IDN, "PipeKSPMatMult: x and y must be different vectors (y = A x cannot be done in place); use a work vector");
  PetscCall(PipeKSPCheckInitialized(PetscObjectComm((PetscObject)A)));
  PetscCall(PipeKSPThreadsGet_Private(NULL, NULL)); /* a bad -pipeksp_threads* option is refused here */
  PetscCall(MatGetType(A, &type));
  if (type) {
    const MatType   types[] = {MATSEQBAIJ, MATMPIBAIJ, MATSEQAIJ, MATMPIAIJ};
    PipeKSPSpMVPath paths[] = {PIPEKSP_SPMV_SEQBAIJ, PIPEKSP_SPMV_MPIBAIJ, PIPEKSP_SPMV_SEQAIJ, PIPEKSP_SPMV_MPIAIJ};

    for (size_t t = 0; t < sizeof(types) / sizeof(types[0]) && path == PIPEKSP_SPMV_FALLBACK; t++) {
      PetscCall(PetscObjectTypeCompare((PetscObject)A, types[t], &flg));
      if (flg) path = paths[t];
    }
  }
  if (path != PIPEKSP_SPMV_FALLBACK) {
    PetscCall(MatAssembled(A, &assembled));
    if (!assembled) path = PIPEKSP_SPMV_FALLBACK; /* MatMult() gives the error users know */
  }
  SpMVLastPath = path;
  if (path == PIPEKSP_SPMV_FALLBACK) {
    PetscCall(SpMVPoll());
    PetscCall(MatMult(A, x, y));
    PetscCall(SpMVPoll());
    PetscFunctionReturn(PETSC_SUCCESS);
  }

  PetscCall(SpMVGetCtx(A, &c));
  /* a matrix whose options no KSP read (asddic's pmat, direct calls): read them at the first product */
  if (!c->chunkset) PetscCall(PipeKSPMatSetFromOptions(A));
  PetscCall(SpMVCheckLayouts(A, c, x, y));
  /* logged as MatMult too, so -log_view's MatMult row counts our SpMVs like cg's (PETSc counts a
     MatMult nested in a running one, e.g. a shell wrapping us, once); PipeMatMult nested inside */
  PetscCall(PetscLogEventBegin(MAT_Mult, A, x, y, 0));
  PetscCall(PetscLogEventBegin(PIPEKSP_MatMult, A, x, y, 0));
  PetscCall(PetscObjectStateGet((PetscObject)A, &state));
  if (c->path != path || state != c->state) PetscCall(SpMVValidate(A, c, path, type, x, state));

  if (c->bs <= PIPEKSP_BS_MAX && PipeKSPThreadsFor_Private(c->mb * c->bs) > 1) PetscCall(SpMVThreaded(c, A, x, y)); /* hybrid: src/mat/spmv_omp.c */
  else if (path == PIPEKSP_SPMV_SEQAIJ || path == PIPEKSP_SPMV_SEQBAIJ) {
    const PetscScalar *xa;
    PetscScalar       *ya;

    PetscCall(VecGetArrayRead(x, &xa));
    PetscCall(VecGetArray(y, &ya));
    PetscCall(SpMVDiag(c, A, xa, ya));
    PetscCall(VecRestoreArray(y, &ya));
    PetscCall(VecRestoreArrayRead(x, &xa));
  } else {
    const PetscScalar *xa;
    PetscScalar       *ya;
    Mat                Ad, Ao;

    Ad = c->Ad; /* validated against A's blocks since A's last state change */
    Ao = c->Ao;
    PetscCall(PipeKSPHaloBegin_Private(c->halo, x, c->ghost)); /* the threaded ranks' exchange (halo.c) */
    PetscCall(VecGetArrayRead(x, &xa));
    PetscCall(VecGetArray(y, &ya));
    PetscCall(SpMVDiag(c, Ad, xa, ya));
    PetscCall(VecRestoreArrayRead(x, &xa));
    PetscCall(PipeKSPHaloEnd_Private(c->halo, x, c->ghost));
    PetscCall(VecPlaceArray(c->yseq, ya));
    /* the kernel itself, as PETSc's MatMult_MPIAIJ does: no extra MatMultAdd in -log_view */
    PetscUseTypeMethod(Ao, multadd, c->ghost, c->yseq, c->yseq);
    PetscCall(VecResetArray(c->yseq));
    PetscCall(VecRestoreArray(y, &ya));
  }
  PetscCall(PetscLogEventEnd(PIPEKSP_MatMult, A, x, y, 0));
  PetscCall(PetscLogEventEnd(MAT_Mult, A, x, y, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PipeKSPMatSetSpMVChunk - Sets how many rows of the diagonal block `PipeKSPMatMult()` multiplies
  between two poll points (`PipeKSPProgressPoll()`) on this matrix

  Logically Collective

  Input Parameters:
+ A    - the matrix (any type; only SeqAIJ/MPIAIJ/SeqBAIJ/MPIBAIJ products are split into chunks)
- rows - scalar rows per chunk, >= 1 (rounded down to whole blocks for BAIJ, at least one block)

  Options Database Key:
. -pipeksp_spmv_chunk <rows> - under the matrix's options prefix; default 256

  Notes:
  Small chunks poll often, which lets a pending reduction advance sooner; each poll costs a clock
  read (and, once the poll interval has passed, an `MPI_Test`). 100-500 rows keep both small.
  The value is used from the next product on. `-ksp_view` of the pipelined solvers prints it.

  Level: advanced

.seealso: `PipeKSPMatGetSpMVChunk()`, `PipeKSPMatSetFromOptions()`, `PipeKSPMatMult()`, `KSPPipeSetPollInterval()`
@*/
PetscErrorCode PipeKSPMatSetSpMVChunk(Mat A, PetscInt rows)
{
  SpMVCtx *c;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscValidLogicalCollectiveInt(A, rows, 2);
  PetscCheck(rows >= 1, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_OUTOFRANGE, "-pipeksp_spmv_chunk %" PetscInt_FMT ": the number of rows between poll points must be >= 1", rows);
  PetscCall(SpMVGetCtx(A, &c));
  c->chunk    = rows;
  c->chunkset = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PipeKSPMatGetSpMVChunk - Gets how many rows `PipeKSPMatMult()` multiplies between two poll points

  Not Collective

  Input Parameter:
. A - the matrix

  Output Parameter:
. rows - scalar rows per chunk (256 unless set)

  Level: advanced

.seealso: `PipeKSPMatSetSpMVChunk()`
@*/
PetscErrorCode PipeKSPMatGetSpMVChunk(Mat A, PetscInt *rows)
{
  PetscContainer cont;
  SpMVCtx       *c = NULL;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscAssertPointer(rows, 2);
  PetscCall(PetscObjectQuery((PetscObject)A, SPMV_KEY, (PetscObject *)&cont));
  if (cont) PetscCall(PetscContainerGetPointer(cont, (void **)&c));
  *rows = c && c->owner == A ? c->chunk : SPMV_CHUNK_DEF;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PipeKSPMatSetFromOptions - Reads the options of `PipeKSPMatMult()` for this matrix (shown by -help)

  Collective

  Input Parameter:
. A - the matrix; options are read under its prefix

  Options Database Key:
. -pipeksp_spmv_chunk <rows> - rows of the diagonal block multiplied between two poll points (`PipeKSPMatSetSpMVChunk()`)

  Notes:
  `KSPSetFromOptions()` of pipegropp, pipegv and chrongear calls it on the operator. A matrix that
  reaches `PipeKSPMatMult()` without that (a preconditioner's matrix, a direct call) has its options
  read at its first product, unless `PipeKSPMatSetSpMVChunk()` was called.

  Level: advanced

.seealso: `PipeKSPMatSetSpMVChunk()`, `PipeKSPMatMult()`
@*/
PetscErrorCode PipeKSPMatSetFromOptions(Mat A)
{
  SpMVCtx  *c;
  PetscInt  rows;
  PetscBool flg;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscCall(SpMVGetCtx(A, &c));
  rows = c->chunk;
  /* a title of its own: PETSc prints the "Matrix (Mat)" section once per prefix, before we come */
  PetscOptionsBegin(PetscObjectComm((PetscObject)A), ((PetscObject)A)->prefix, "PipeKSP poll-point SpMV (PipeKSPMatMult) options", "Mat");
  PetscCall(PipeKSPOptionsInt("-pipeksp_spmv_chunk", "Rows of the diagonal block multiplied between two poll points of PipeKSPMatMult()", "PipeKSPMatSetSpMVChunk", rows, &rows, &flg));
  PetscOptionsEnd();
  if (flg) PetscCall(PipeKSPMatSetSpMVChunk(A, rows));
  c->chunkset = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PipeKSPMatViewSpMV - Prints how `PipeKSPMatMult()` multiplies this matrix (path and chunk size)

  Collective

  Input Parameters:
+ A      - the matrix
- viewer - an ASCII viewer

  Level: advanced

.seealso: `PipeKSPMatSetSpMVChunk()`, `PipeKSPMatMult()`
@*/
PetscErrorCode PipeKSPMatViewSpMV(Mat A, PetscViewer viewer)
{
  PetscInt  rows;
  PetscBool iascii, split = PETSC_FALSE;
  MatType   type;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscValidHeaderSpecific(viewer, PETSC_VIEWER_CLASSID, 2);
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatGetType(A, &type));
  if (type) PetscCall(PetscObjectTypeCompareAny((PetscObject)A, &split, MATSEQAIJ, MATMPIAIJ, MATSEQBAIJ, MATMPIBAIJ, ""));
  PetscCall(PipeKSPMatGetSpMVChunk(A, &rows));
  if (split) PetscCall(PetscViewerASCIIPrintf(viewer, "SpMV: split product, a poll point every %" PetscInt_FMT " rows of the diagonal block (-pipeksp_spmv_chunk)\n", rows));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "SpMV: MatMult() of type %s with poll points before and after\n", type ? type : "(not set)"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the threaded product (src/mat/spmv_omp.c) on this cache's blocks and halo */
static PetscErrorCode SpMVThreaded(SpMVCtx *c, Mat A, Vec x, Vec y)
{
  const PetscBool  mpi = (PetscBool)(c->path == PIPEKSP_SPMV_MPIAIJ || c->path == PIPEKSP_SPMV_MPIBAIJ);
  PipeKSPSpMVParts p;

  PetscFunctionBegin;
  p.A     = A;
  p.Ad    = mpi ? c->Ad : A;
  p.Ao    = mpi ? c->Ao : NULL;
  p.halo  = mpi ? c->halo : NULL;
  p.ghost = mpi ? c->ghost : NULL;
  p.aij   = (PetscBool)(c->path == PIPEKSP_SPMV_SEQAIJ || c->path == PIPEKSP_SPMV_MPIAIJ);
  p.bs    = c->bs;
  p.chunk = c->chunk;
  if (p.aij) PetscCall(SpMVEnsureNodes(c, p.Ad));
  p.nnodes = p.aij ? c->nnodes : 0;
  p.nodes  = p.aij ? c->nodes : NULL;
  PetscCall(PipeKSPMatMultThreaded_Private(&p, x, y, &SpMVPolls));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PipeKSPMatMultGetPollPoints(PetscInt64 *n)
{
  PetscFunctionBegin;
  *n = SpMVPolls;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PipeKSPMatMultGetLastPath(PipeKSPSpMVPath *p)
{
  PetscFunctionBegin;
  *p = SpMVLastPath;
  PetscFunctionReturn(PETSC_SUCCESS);
}
