/* The halo exchange of every MPI product of PipeKSPMatMult() (single-thread and threaded): hand-written
   point-to-point messages built from the halo scatter's PetscSF, so a thread can test them between its
   work items (PETSc 3.18's VecScatterEnd blocks and has no test call). The neighbour lists come from the
   SF (root ranks: whom we receive from; leaf ranks: whom we send to, with our entries in the order the
   receiver expects), built once per scatter and cached on it. Both products use this exchange, so ranks
   on different paths (thread counts differ per process) always exchange the same messages; when no rank
   of the communicator runs more than one thread it is PETSc's VecScatter. */
#include <pipeksp/haloimpl.h>
#include <pipeksp/threadsimpl.h>
#include <petsc/private/petscimpl.h>
#include <petscsf.h>

#define HALO_KEY "PipeKSPHalo_ctx"

typedef struct {
  PetscBool    usesf; /* an SF type without rank lists (e.g. -sf_type window): PETSc's scatter */
  MPI_Comm     comm;
  PetscMPIInt  tag;
  PetscInt     u;      /* scalars per SF entry: 1, or the block size of a blocked scatter */
  PetscInt     nr, ns; /* ranks we receive from / send to (not ourselves) */
  PetscMPIInt *rrank, *srank;
  PetscInt    *roff, *soff; /* entries of rank i: [roff[i], roff[i+1]) of ridx, same for s */
  PetscInt    *ridx, *sidx; /* ghost entries to fill / x entries to send, in message order */
  PetscInt     nself, *selfsrc, *selfdst;
  PetscScalar *rbuf, *sbuf;
  MPI_Request *req; /* nr receives, then ns sends */
  PetscBool    active, done;
} HaloCtx;

static PetscErrorCode HaloCtxDestroy(PipeKSPCtxDestroyArg ptr)
{
  HaloCtx *h = (HaloCtx *)PipeKSPContainerCtx(ptr);

  PetscFunctionBegin;
  if (h->active) PetscCallMPI(MPI_Waitall((PetscMPIInt)(h->nr + h->ns), h->req, MPI_STATUSES_IGNORE));
  PetscCall(PetscFree4(h->rrank, h->roff, h->ridx, h->rbuf));
  PetscCall(PetscFree4(h->srank, h->soff, h->sidx, h->sbuf));
  PetscCall(PetscFree2(h->selfsrc, h->selfdst));
  PetscCall(PetscFree(h->req));
  PetscCall(PetscFree(h));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* neighbour lists of the scatter x -> ghost, cached on it. Collective the first time (all ranks reach
   it in the same product). */
static PetscErrorCode HaloGetCtx(VecScatter halo, Vec x, Vec ghost, HaloCtx **ctx)
{
  PetscContainer     cont;
  HaloCtx           *h;
  PetscInt           nroots, nleaves, nx, ng, nranks, ndranks, niranks, nidranks;
  const PetscMPIInt *ranks, *iranks;
  const PetscInt    *roffset, *rmine, *rremote, *ioffset, *irootloc;
  PetscMPIInt        rank;
  PetscBool          basic, neighbor;

  PetscFunctionBegin;
  PetscCall(PetscObjectQuery((PetscObject)halo, HALO_KEY, (PetscObject *)&cont));
  if (cont) {
    PetscCall(PetscContainerGetPointer(cont, (void **)ctx));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(x, PETSC_COMM_SELF, PETSC_ERR_ORDER, "PipeKSP halo: exchange not begun");
  PetscCall(PetscNew(&h));
  PetscCall(PetscContainerCreate(PETSC_COMM_SELF, &cont));
  PetscCall(PetscContainerSetPointer(cont, h));
  PetscCall(PipeKSPContainerSetDestroy(cont, HaloCtxDestroy));
  PetscCall(PetscObjectCompose((PetscObject)halo, HALO_KEY, (PetscObject)cont));
  PetscCall(PetscContainerDestroy(&cont));
  *ctx = h;
  /* the rank lists exist for the point-to-point SF types (the type is the same on every rank) */
  PetscCall(PetscObjectTypeCompare((PetscObject)halo, PETSCSFBASIC, &basic));
  PetscCall(PetscObjectTypeCompare((PetscObject)halo, PETSCSFNEIGHBOR, &neighbor));
  if (!basic && !neighbor) {
    h->usesf = PETSC_TRUE;
    PetscCall(PetscInfo(NULL, "PipeKSP halo: SF type %s has no rank lists: PETSc's VecScatter (no polls inside its wait)\n", ((PetscObject)halo)->type_name));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  { /* flat MPI (one thread on every rank) keeps PETSc's scatter, so that path is unchanged; the choice is
       collective because both ends of every message must take the same one */
    PetscMPIInt mine = PipeKSPThreadsNum_Private() > 1, any;

    PetscCallMPI(MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, PetscObjectComm((PetscObject)halo)));
    if (!any) {
      h->usesf = PETSC_TRUE;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  PetscCall(PetscSFSetUp(halo));
  h->comm = PetscObjectComm((PetscObject)halo);
  PetscCall(PetscObjectGetNewTag((PetscObject)halo, &h->tag));
  PetscCallMPI(MPI_Comm_rank(h->comm, &rank));
  PetscCall(PetscSFGetGraph(halo, &nroots, &nleaves, NULL, NULL));
  PetscCall(VecGetLocalSize(x, &nx));
  PetscCall(VecGetLocalSize(ghost, &ng));
  /* a blocked scatter has one SF entry per block */
  h->u = nroots > 0 ? nx / nroots : (nleaves > 0 ? ng / nleaves : 1);
  PetscCheck(h->u >= 1 && nroots * h->u == nx && nleaves * h->u <= ng, PETSC_COMM_SELF, PETSC_ERR_PLIB, "PipeKSP halo: scatter graph (%" PetscInt_FMT " roots, %" PetscInt_FMT " leaves) does not fit x (%" PetscInt_FMT ") and the ghosts (%" PetscInt_FMT ")", nroots, nleaves, nx, ng);
  PetscCall(PetscSFGetRootRanks(halo, &nranks, &ranks, &roffset, &rmine, &rremote));
  PetscCall(PetscSFGetLeafRanks(halo, &niranks, &iranks, &ioffset, &irootloc));
  ndranks = nidranks = 0;
  for (PetscInt i = 0; i < nranks; i++) ndranks += ranks[i] == rank;
  for (PetscInt i = 0; i < niranks; i++) nidranks += iranks[i] == rank;
  h->nr = nranks - ndranks;
  h->ns = niranks - nidranks;
  {
    PetscInt nrecv = 0, nsend = 0, nself = 0, k;
    for (PetscInt i = 0; i < nranks; i++) {
      if (ranks[i] == rank) nself += roffset[i + 1] - roffset[i];
      else nrecv += roffset[i + 1] - roffset[i];
    }
    for (PetscInt i = 0; i < niranks; i++)
      if (iranks[i] != rank) nsend += ioffset[i + 1] - ioffset[i];
    PetscCall(PetscMalloc4(h->nr, &h->rrank, h->nr + 1, &h->roff, nrecv, &h->ridx, nrecv * h->u, &h->rbuf));
    PetscCall(PetscMalloc4(h->ns, &h->srank, h->ns + 1, &h->soff, nsend, &h->sidx, nsend * h->u, &h->sbuf));
    PetscCall(PetscMalloc2(nself, &h->selfsrc, nself, &h->selfdst));
    PetscCall(PetscMalloc1(h->nr + h->ns, &h->req));
    h->roff[0] = h->soff[0] = 0;
    h->nr = h->ns = 0;
    for (PetscInt i = 0; i < nranks; i++) {
      for (PetscInt j = roffset[i]; j < roffset[i + 1]; j++) {
        if (ranks[i] == rank) { /* our own entries: copied, no message */
          h->selfdst[h->nself]   = rmine[j];
          h->selfsrc[h->nself++] = rremote[j];
        } else h->ridx[h->roff[h->nr] + j - roffset[i]] = rmine[j];
      }
      if (ranks[i] != rank) {
        h->rrank[h->nr]    = ranks[i];
        h->roff[h->nr + 1] = h->roff[h->nr] + roffset[i + 1] - roffset[i];
        h->nr++;
      }
    }
    for (PetscInt i = 0; i < niranks; i++) {
      if (iranks[i] == rank) continue;
      for (k = ioffset[i]; k < ioffset[i + 1]; k++) h->sidx[h->soff[h->ns] + k - ioffset[i]] = irootloc[k];
      h->srank[h->ns]    = iranks[i];
      h->soff[h->ns + 1] = h->soff[h->ns] + ioffset[i + 1] - ioffset[i];
      h->ns++;
    }
  }
  PetscCall(PetscInfo(NULL, "PipeKSP halo: %" PetscInt_FMT " receives, %" PetscInt_FMT " sends, %" PetscInt_FMT " scalars per entry\n", h->nr, h->ns, h->u));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  PipeKSPHaloBegin_Private - starts ghost = x over the halo scatter: posts the receives, packs x's entries and
  posts the sends. Collective on the scatter's communicator (every rank of an MPI matrix's product).
*/
PetscErrorCode PipeKSPHaloBegin_Private(VecScatter halo, Vec x, Vec ghost)
{
  HaloCtx           *h;
  const PetscScalar *xa;

  PetscFunctionBegin;
  PetscCall(HaloGetCtx(halo, x, ghost, &h));
  if (h->usesf) {
    PetscCall(VecScatterBegin(halo, x, ghost, INSERT_VALUES, SCATTER_FORWARD));
    h->active = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (h->active) { /* an earlier product stopped by an error: finish its messages first */
    PetscCallMPI(MPI_Waitall((PetscMPIInt)(h->nr + h->ns), h->req, MPI_STATUSES_IGNORE));
    h->active = PETSC_FALSE;
  }
  for (PetscInt i = 0; i < h->nr; i++) PetscCallMPI(MPI_Irecv(h->rbuf + h->u * h->roff[i], (PetscMPIInt)(h->u * (h->roff[i + 1] - h->roff[i])), MPIU_SCALAR, h->rrank[i], h->tag, h->comm, &h->req[i]));
  PetscCall(VecGetArrayRead(x, &xa));
  for (PetscInt i = 0; i < h->ns; i++) {
    PetscScalar *b = h->sbuf + h->u * h->soff[i];
    for (PetscInt k = h->soff[i]; k < h->soff[i + 1]; k++)
      for (PetscInt q = 0; q < h->u; q++) *b++ = xa[h->u * h->sidx[k] + q];
    PetscCallMPI(MPI_Isend(h->sbuf + h->u * h->soff[i], (PetscMPIInt)(h->u * (h->soff[i + 1] - h->soff[i])), MPIU_SCALAR, h->srank[i], h->tag, h->comm, &h->req[h->nr + i]));
  }
  if (h->nself) {
    PetscScalar *g;
    PetscCall(VecGetArray(ghost, &g));
    for (PetscInt k = 0; k < h->nself; k++)
      for (PetscInt q = 0; q < h->u; q++) g[h->u * h->selfdst[k] + q] = xa[h->u * h->selfsrc[k] + q];
    PetscCall(VecRestoreArray(ghost, &g));
  }
  PetscCall(VecRestoreArrayRead(x, &xa));
  h->active = PETSC_TRUE;
  h->done   = (PetscBool)(h->nr + h->ns == 0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  PipeKSPHaloTest_Private - have all messages of the exchange begun on this scatter arrived (and the sends
  left)? Not collective.
*/
PetscErrorCode PipeKSPHaloTest_Private(VecScatter halo, PetscBool *done)
{
  HaloCtx    *h;
  PetscMPIInt flg;

  PetscFunctionBegin;
  PetscCall(HaloGetCtx(halo, NULL, NULL, &h)); /* cached by Begin */
  if (h->usesf || h->done) {
    *done = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCallMPI(MPI_Testall((PetscMPIInt)(h->nr + h->ns), h->req, &flg, MPI_STATUSES_IGNORE));
  h->done = *done = (PetscBool) !!flg;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  PipeKSPHaloEnd_Private - completes the exchange started by PipeKSPHaloBegin_Private() (waits if needed) and unpacks
  the ghost values. Not collective. The values are copies: bitwise those of VecScatterBegin/End.
*/
PetscErrorCode PipeKSPHaloEnd_Private(VecScatter halo, Vec x, Vec ghost)
{
  HaloCtx     *h;
  PetscScalar *g;

  PetscFunctionBegin;
  PetscCall(HaloGetCtx(halo, NULL, NULL, &h));
  PetscCheck(h->active, PETSC_COMM_SELF, PETSC_ERR_ORDER, "PipeKSP halo: end without begin");
  h->active = PETSC_FALSE;
  if (h->usesf) {
    PetscCall(VecScatterEnd(halo, x, ghost, INSERT_VALUES, SCATTER_FORWARD));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (!h->done) PetscCallMPI(MPI_Waitall((PetscMPIInt)(h->nr + h->ns), h->req, MPI_STATUSES_IGNORE));
  h->done = PETSC_TRUE;
  if (!h->nr) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecGetArray(ghost, &g));
  for (PetscInt k = 0; k < h->roff[h->nr]; k++)
    for (PetscInt q = 0; q < h->u; q++) g[h->u * h->ridx[k] + q] = h->rbuf[h->u * k + q];
  PetscCall(VecRestoreArray(ghost, &g));
  PetscFunctionReturn(PETSC_SUCCESS);
}
