/* SMPI side of `make bench-smpi-solve` (bench/smpi/solve.sh): linked into the SMPI build of bench_cube with
   -Wl,--wrap=<each MPI call below>, so that every call of PETSc, PipeKSP and the driver goes through it.
   Nothing here is used by the native builds.

   1. Deterministic compute (run with --cfg=smpi/simulate-computation:no). SMPI does not time the host: the
      compute between two MPI calls costs what PETSc's flop counter says it did, times a cost per flop for
      the innermost PETSc event that logged it ("rates": seconds per flop measured once on this machine by
      bench/smpi/rates.sh, e.g. MatMult, MatSolve, VecAXPY, PipeVecPass; flop_price.c, which the emulator's
      flop clock shares). The flops logged are priced at every PETSc event boundary (legacy log callbacks) and run (smpi_execute_flops at the platform's 1 Gf/s) at
      the entry of every wrapped MPI call and at every clock read (the poll interval of PipeKSP reads the
      clock), so a poll point inside a kernel sees the compute done before it (PipeKSP's chunked kernels log
      their flops per chunk).
   2. MPI_Iallreduce as Open MPI 4.1 without asynchronous progress: a recursive-doubling allreduce over
      MPI_Isend/MPI_Irecv that advances ONE round per MPI call (as bench/smpi/rd_bench.c and the emulator's
      progress=calls with halo calls as points): the start posts round 1; every completion call, send,
      receive, start, probe and barrier tests each pending reduction's current round once (at entry, and at
      exit for blocking calls); a wait on the reduction runs the rest back to back. Power-of-two
      communicators and predefined operations only; anything else falls back to SMPI's own.
   3. MPI_Scan / MPI_Exscan by recursive doubling (SMPI's are linear in P; MatPreallocate scans).
   4. The cost of MPI_Test: PIPEKSP_SMPI_TEST_S seconds per MPI_Test/Testall/Testany/Testsome/Iprobe call of
      the program (bench/emu_cost.sh measures 65 ns here), with smpi/test:0 and smpi/iprobe:0.
   Environment: PIPEKSP_SMPI_RATES (file of "event seconds_per_flop" lines; "*" the default),
   PIPEKSP_SMPI_SPEED (the platform's host speed, flop/s, 1e9), PIPEKSP_SMPI_TEST_S (0). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "flop_price.h"

#define RD_TAG 0x5e5e0
#define SC_TAG 0x5e5f0
#define MAXRD  64

/* ---------------------------------------------------------------- deterministic compute (flop_price.c) */
static double speed = 1e9, test_s = 0;
static int    env_read = 0;

static void ReadEnv(void)
{
  const char *s = getenv("PIPEKSP_SMPI_SPEED"), *ts = getenv("PIPEKSP_SMPI_TEST_S");

  env_read = 1;
  if (s) speed = atof(s);
  if (ts) test_s = atof(ts);
}

/* run the compute priced since the last charge: the simulated compute runs (one simcall) only where it can be
   observed, at an MPI call or a clock read; event boundaries only price, which keeps the simulated time and
   saves most simcalls (wall time) */
static void Charge(void)
{
  double s = PipeFlopPriceTake();

  if (!env_read) ReadEnv();
  if (s > 0) smpi_execute_flops(s * speed);
}

/* the cost of one MPI_Test-like call of the program (PIPEKSP_SMPI_TEST_S seconds; run with smpi/test:0, whose
   own cost grows with each failed test unless smpi/grow-injected-times:no, and is paid per request of a
   Testall: the shim's internal tests are free, as in Open MPI, where one progress call covers them) */
static void TestCost(void)
{
  if (!env_read) ReadEnv();
  if (test_s > 0) smpi_execute_flops(test_s * speed);
}

/* the driver's PetscInitialize: then the pricing of every event (flop_price.c) */
int __real_PetscInitialize(int *, char ***, const char[], const char[]);
int __wrap_PetscInitialize(int *argc, char ***argv, const char file[], const char help[])
{
  int ierr = __real_PetscInitialize(argc, argv, file, help);
  if (ierr) return ierr;
  if (!env_read) ReadEnv();
  return PipeFlopPriceStart(NULL); /* set-up before this point is not charged */
}

int __real_smpi_clock_gettime(clockid_t, struct timespec *);
int __wrap_smpi_clock_gettime(clockid_t c, struct timespec *t)
{
  Charge();
  return __real_smpi_clock_gettime(c, t);
}
double __real_MPI_Wtime(void);
double __wrap_MPI_Wtime(void)
{
  Charge();
  return __real_MPI_Wtime();
}

/* ---------------------------------------------------------------- one-round-per-call MPI_Iallreduce */
int __real_MPI_Iallreduce(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm, MPI_Request *);
int __real_MPI_Test(MPI_Request *, int *, MPI_Status *);
int __real_MPI_Testall(int, MPI_Request *, int *, MPI_Status *);
int __real_MPI_Testany(int, MPI_Request *, int *, int *, MPI_Status *);
int __real_MPI_Testsome(int, MPI_Request *, int *, int *, MPI_Status *);
int __real_MPI_Wait(MPI_Request *, MPI_Status *);
int __real_MPI_Waitall(int, MPI_Request *, MPI_Status *);
int __real_MPI_Waitany(int, MPI_Request *, int *, MPI_Status *);
int __real_MPI_Waitsome(int, MPI_Request *, int *, int *, MPI_Status *);

typedef struct {
  int          used, round, R, rank, count, done;
  MPI_Datatype type;
  MPI_Op       op;
  MPI_Comm     comm;
  MPI_Request  rq[2];
  void        *acc, *sbuf, *rbuf;
} RD;
static RD  rds[MAXRD];
static int nrd_pending = 0;

static int IsOurs(MPI_Request r)
{
  return r && (char *)r >= (char *)rds && (char *)r < (char *)(rds + MAXRD);
}

static int Predefined(MPI_Op op)
{
  return op == MPI_SUM || op == MPI_MAX || op == MPI_MIN || op == MPI_PROD || op == MPI_LAND || op == MPI_BAND || op == MPI_LOR || op == MPI_BOR || op == MPI_LXOR || op == MPI_BXOR;
}

/* the recursive doubling below combines in its own order: any operation that commutes (pipeplcg's
   compensated pair sums are a user-defined one) */
static int Commutes(MPI_Op op)
{
  int c = 0;

  if (Predefined(op)) return 1;
  MPI_Op_commutative(op, &c);
  return c;
}

static void RDPost(RD *rd)
{
  int partner = rd->rank ^ (1 << rd->round), sz;
  MPI_Type_size(rd->type, &sz);
  memcpy(rd->sbuf, rd->acc, (size_t)sz * rd->count);
  PMPI_Irecv(rd->rbuf, rd->count, rd->type, partner, RD_TAG + rd->round, rd->comm, &rd->rq[0]);
  PMPI_Isend(rd->sbuf, rd->count, rd->type, partner, RD_TAG + rd->round, rd->comm, &rd->rq[1]);
}
static void RDFinishRound(RD *rd)
{
  MPI_Reduce_local(rd->rbuf, rd->acc, rd->count, rd->type, rd->op);
  if (++rd->round < rd->R) RDPost(rd);
  else {
    rd->done = 1;
    nrd_pending--;
  }
}
/* one test of the current round of every pending reduction */
static void ProgressAll(void)
{
  int i, flag;
  if (!nrd_pending) return;
  for (i = 0; i < MAXRD; i++)
    if (rds[i].used && !rds[i].done) {
      flag = 0;
      __real_MPI_Testall(2, rds[i].rq, &flag, MPI_STATUSES_IGNORE);
      if (flag) RDFinishRound(&rds[i]);
    }
}
static void RDWait(RD *rd)
{
  while (!rd->done) {
    __real_MPI_Waitall(2, rd->rq, MPI_STATUSES_IGNORE);
    RDFinishRound(rd);
  }
}
/* complete a finished reduction: its result to the user's buffer, the request to NULL */
static void RDRelease(MPI_Request *r, MPI_Status *st)
{
  RD *rd = (RD *)*r;
  free(rd->sbuf);
  free(rd->rbuf);
  rd->used = 0;
  *r       = MPI_REQUEST_NULL;
  if (st && st != MPI_STATUS_IGNORE) memset(st, 0, sizeof(*st));
}

int __wrap_MPI_Iallreduce(const void *s, void *r, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
  int size, rank, R, i, sz;
  RD *rd = NULL;

  Charge();
  ProgressAll();
  PMPI_Comm_size(comm, &size);
  PMPI_Comm_rank(comm, &rank);
  for (R = 0; (1 << R) < size; R++) { }
  for (i = 0; i < MAXRD; i++)
    if (!rds[i].used) {
      rd = &rds[i];
      break;
    }
  if (!rd || !Commutes(op)) return __real_MPI_Iallreduce(s, r, count, type, op, comm, req);
  if (size < 2 || (1 << R) != size) {
    int rc;

    if (Predefined(op)) return __real_MPI_Iallreduce(s, r, count, type, op, comm, req);
    /* SMPI's own MPI_Iallreduce (SimGrid 3.32) returns the local values under a user-defined operation
       (tests/smpi/shim_check.c): a blocking one, complete at once */
    rc = PMPI_Allreduce(s, r, count, type, op, comm);
    memset(rd, 0, sizeof(*rd));
    rd->used = rd->done = 1;
    *req                = (MPI_Request)(void *)rd;
    return rc;
  }
  MPI_Type_size(type, &sz);
  if (s != MPI_IN_PLACE) memcpy(r, s, (size_t)sz * count);
  memset(rd, 0, sizeof(*rd));
  rd->used  = 1;
  rd->R     = R;
  rd->rank  = rank;
  rd->count = count;
  rd->type  = type;
  rd->op    = op;
  rd->comm  = comm;
  rd->acc   = r; /* accumulates in the user's buffer, which MPI forbids the user to touch meanwhile */
  rd->sbuf  = malloc((size_t)sz * count);
  rd->rbuf  = malloc((size_t)sz * count);
  nrd_pending++;
  RDPost(rd);
  *req = (MPI_Request)(void *)rd;
  return MPI_SUCCESS;
}

int __wrap_MPI_Test(MPI_Request *r, int *flag, MPI_Status *st)
{
  Charge();
  TestCost();
  ProgressAll();
  if (IsOurs(*r)) {
    *flag = ((RD *)*r)->done;
    if (*flag) RDRelease(r, st);
    return MPI_SUCCESS;
  }
  return __real_MPI_Test(r, flag, st);
}
int __wrap_MPI_Wait(MPI_Request *r, MPI_Status *st)
{
  int rc;
  Charge();
  ProgressAll();
  if (IsOurs(*r)) {
    RDWait((RD *)*r);
    RDRelease(r, st);
    return MPI_SUCCESS;
  }
  rc = __real_MPI_Wait(r, st);
  ProgressAll();
  return rc;
}
static int AnyOurs(int n, MPI_Request *r)
{
  for (int i = 0; i < n; i++)
    if (IsOurs(r[i])) return 1;
  return 0;
}
int __wrap_MPI_Testall(int n, MPI_Request *r, int *flag, MPI_Status *st)
{
  int i, f, all = 1;
  Charge();
  TestCost();
  ProgressAll();
  if (!AnyOurs(n, r)) return __real_MPI_Testall(n, r, flag, st);
  for (i = 0; i < n; i++) /* all-or-nothing is not kept for mixed arrays (PETSc and PipeKSP do not mix) */
    if (r[i] != MPI_REQUEST_NULL) {
      if (IsOurs(r[i])) all = all && ((RD *)r[i])->done;
      else {
        __real_MPI_Test(&r[i], &f, st && st != MPI_STATUSES_IGNORE ? &st[i] : MPI_STATUS_IGNORE);
        all = all && f;
      }
    }
  if (all)
    for (i = 0; i < n; i++)
      if (IsOurs(r[i])) RDRelease(&r[i], st && st != MPI_STATUSES_IGNORE ? &st[i] : MPI_STATUS_IGNORE);
  *flag = all;
  return MPI_SUCCESS;
}
int __wrap_MPI_Testsome(int n, MPI_Request *r, int *outc, int *idx, MPI_Status *st)
{
  int i, f, k = 0, active = 0;
  Charge();
  TestCost();
  ProgressAll();
  if (!AnyOurs(n, r)) return __real_MPI_Testsome(n, r, outc, idx, st);
  for (i = 0; i < n; i++) {
    if (r[i] == MPI_REQUEST_NULL) continue;
    active++;
    if (IsOurs(r[i])) {
      if (((RD *)r[i])->done) {
        RDRelease(&r[i], NULL);
        f = 1;
      } else f = 0;
    } else __real_MPI_Test(&r[i], &f, MPI_STATUS_IGNORE);
    if (f) {
      if (st && st != MPI_STATUSES_IGNORE) memset(&st[k], 0, sizeof(st[k]));
      idx[k++] = i;
    }
  }
  *outc = active ? k : MPI_UNDEFINED;
  return MPI_SUCCESS;
}
int __wrap_MPI_Testany(int n, MPI_Request *r, int *index, int *flag, MPI_Status *st)
{
  int i, active = 0;
  Charge();
  TestCost();
  ProgressAll();
  if (!AnyOurs(n, r)) return __real_MPI_Testany(n, r, index, flag, st);
  *flag  = 0;
  *index = MPI_UNDEFINED;
  for (i = 0; i < n; i++) {
    if (r[i] == MPI_REQUEST_NULL) continue;
    active++;
    if (IsOurs(r[i]) ? ((RD *)r[i])->done : 0) {
      RDRelease(&r[i], st);
      *flag  = 1;
      *index = i;
      return MPI_SUCCESS;
    }
    if (!IsOurs(r[i])) {
      __real_MPI_Test(&r[i], flag, st);
      if (*flag) {
        *index = i;
        return MPI_SUCCESS;
      }
    }
  }
  if (!active) *flag = 1;
  return MPI_SUCCESS;
}
int __wrap_MPI_Waitall(int n, MPI_Request *r, MPI_Status *st)
{
  int i, rc = MPI_SUCCESS;
  Charge();
  ProgressAll();
  if (!AnyOurs(n, r)) {
    rc = __real_MPI_Waitall(n, r, st);
    ProgressAll();
    return rc;
  }
  for (i = 0; i < n; i++) {
    MPI_Status *s = st && st != MPI_STATUSES_IGNORE ? &st[i] : MPI_STATUS_IGNORE;
    if (r[i] == MPI_REQUEST_NULL) continue;
    if (IsOurs(r[i])) {
      RDWait((RD *)r[i]);
      RDRelease(&r[i], s);
    } else rc = __real_MPI_Wait(&r[i], s);
  }
  return rc;
}
int __wrap_MPI_Waitany(int n, MPI_Request *r, int *index, MPI_Status *st)
{
  int rc;
  Charge();
  ProgressAll();
  if (AnyOurs(n, r)) {
    for (int i = 0; i < n; i++)
      if (IsOurs(r[i])) {
        RDWait((RD *)r[i]);
        RDRelease(&r[i], st);
        *index = i;
        return MPI_SUCCESS;
      }
  }
  rc = __real_MPI_Waitany(n, r, index, st);
  ProgressAll();
  return rc;
}
int __wrap_MPI_Waitsome(int n, MPI_Request *r, int *outc, int *idx, MPI_Status *st)
{
  int rc;
  Charge();
  ProgressAll();
  if (AnyOurs(n, r)) {
    for (int i = 0; i < n; i++)
      if (IsOurs(r[i])) {
        RDWait((RD *)r[i]);
        RDRelease(&r[i], st && st != MPI_STATUSES_IGNORE ? &st[0] : MPI_STATUS_IGNORE);
        idx[0] = i;
        *outc  = 1;
        return MPI_SUCCESS;
      }
  }
  rc = __real_MPI_Waitsome(n, r, outc, idx, st);
  ProgressAll();
  return rc;
}
int __wrap_MPI_Request_free(MPI_Request *r)
{
  if (IsOurs(*r)) {
    fprintf(stderr, "solve_shim: MPI_Request_free on a pending MPI_Iallreduce is not supported\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return PMPI_Request_free(r);
}

/* ---------------------------------------------------------------- calls that count as "inside MPI" */
#define ENTRY_ONLY(name, proto, args) \
  int __real_##name proto; \
  int __wrap_##name proto \
  { \
    Charge(); \
    ProgressAll(); \
    return __real_##name args; \
  }
#define ENTRY_EXIT(name, proto, args) \
  int __real_##name proto; \
  int __wrap_##name proto \
  { \
    int rc; \
    Charge(); \
    ProgressAll(); \
    rc = __real_##name args; \
    ProgressAll(); \
    return rc; \
  }
ENTRY_ONLY(MPI_Isend, (const void *b, int c, MPI_Datatype t, int d, int g, MPI_Comm m, MPI_Request *q), (b, c, t, d, g, m, q))
ENTRY_ONLY(MPI_Irecv, (void *b, int c, MPI_Datatype t, int d, int g, MPI_Comm m, MPI_Request *q), (b, c, t, d, g, m, q))
ENTRY_ONLY(MPI_Start, (MPI_Request * q), (q))
ENTRY_ONLY(MPI_Startall, (int n, MPI_Request *q), (n, q))
int __real_MPI_Iprobe(int, int, MPI_Comm, int *, MPI_Status *);
int __wrap_MPI_Iprobe(int s, int g, MPI_Comm m, int *f, MPI_Status *st)
{
  Charge();
  TestCost();
  ProgressAll();
  return __real_MPI_Iprobe(s, g, m, f, st);
}
ENTRY_EXIT(MPI_Send, (const void *b, int c, MPI_Datatype t, int d, int g, MPI_Comm m), (b, c, t, d, g, m))
ENTRY_EXIT(MPI_Recv, (void *b, int c, MPI_Datatype t, int d, int g, MPI_Comm m, MPI_Status *st), (b, c, t, d, g, m, st))
ENTRY_EXIT(MPI_Sendrecv, (const void *sb, int sc, MPI_Datatype st_, int d, int sg, void *rb, int rc_, MPI_Datatype rt, int s, int rg, MPI_Comm m, MPI_Status *st), (sb, sc, st_, d, sg, rb, rc_, rt, s, rg, m, st))
ENTRY_EXIT(MPI_Probe, (int s, int g, MPI_Comm m, MPI_Status *st), (s, g, m, st))
ENTRY_EXIT(MPI_Barrier, (MPI_Comm m), (m))
ENTRY_EXIT(MPI_Allreduce, (const void *s, void *r, int c, MPI_Datatype t, MPI_Op o, MPI_Comm m), (s, r, c, t, o, m))
ENTRY_EXIT(MPI_Reduce, (const void *s, void *r, int c, MPI_Datatype t, MPI_Op o, int root, MPI_Comm m), (s, r, c, t, o, root, m))
ENTRY_EXIT(MPI_Bcast, (void *b, int c, MPI_Datatype t, int root, MPI_Comm m), (b, c, t, root, m))
ENTRY_EXIT(MPI_Allgather, (const void *s, int sc, MPI_Datatype st, void *r, int rc_, MPI_Datatype rt, MPI_Comm m), (s, sc, st, r, rc_, rt, m))

/* ---------------------------------------------------------------- recursive-doubling scans */
static int Scan(const void *s, void *r, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm, int ex)
{
  int   size, rank, sz, mask, have = 0;
  char *part, *tmp;

  PMPI_Comm_size(comm, &size);
  PMPI_Comm_rank(comm, &rank);
  MPI_Type_size(type, &sz);
  part = malloc((size_t)sz * count + 1);
  tmp  = malloc((size_t)sz * count + 1);
  memcpy(part, s == MPI_IN_PLACE ? r : s, (size_t)sz * count);
  if (!ex) have = 1, memcpy(r, part, (size_t)sz * count);
  for (mask = 1; mask < size; mask <<= 1) {
    int dst = rank ^ mask;
    if (dst >= size) continue;
    PMPI_Sendrecv(part, count, type, dst, SC_TAG, tmp, count, type, dst, SC_TAG, comm, MPI_STATUS_IGNORE);
    if (rank > dst) { /* tmp holds a lower prefix: into the result and the partial */
      if (have) MPI_Reduce_local(tmp, r, count, type, op);
      else memcpy(r, tmp, (size_t)sz * count), have = 1;
    }
    MPI_Reduce_local(tmp, part, count, type, op); /* predefined operations commute */
  }
  free(part);
  free(tmp);
  return MPI_SUCCESS;
}
int __real_MPI_Scan(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm);
int __real_MPI_Exscan(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm);
int __wrap_MPI_Scan(const void *s, void *r, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  Charge();
  ProgressAll();
  if (!Predefined(op)) return __real_MPI_Scan(s, r, count, type, op, comm);
  return Scan(s, r, count, type, op, comm, 0);
}
int __wrap_MPI_Exscan(const void *s, void *r, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  Charge();
  ProgressAll();
  if (!Predefined(op)) return __real_MPI_Exscan(s, r, count, type, op, comm);
  return Scan(s, r, count, type, op, comm, 1);
}
