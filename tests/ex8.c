static const char help[] = "PipeKSPMatMult against MatMult on random sparse matrices (SeqAIJ/MPIAIJ/SeqBAIJ/MPIBAIJ, dense, shell).\n"
                           "  -nb <n>    block rows per rank (default 60)\n"
                           "  -pipeksp_spmv_chunk <rows> rows between poll points\n";

#include <pipeksp/spmvimpl.h>

#define TOL 1e-13 /* different summation order than PETSc's kernels is allowed, nothing more */

static PetscInt nfail = 0;

/* Random pattern: each block row gets the diagonal block and k random block columns anywhere in the
   matrix; every 7th block row stays empty (empty rows, compressed-row Ao). */
static PetscErrorCode BuildRandom(MPI_Comm comm, MatType type, PetscInt bs, PetscInt nb, PetscBool blockrows, PetscRandom rnd, Mat *A)
{
  PetscInt     rstart, Nb, k = 6, *cols, i, j;
  PetscScalar *vals;
  PetscReal    r;

  PetscFunctionBegin;
  PetscCall(MatCreate(comm, A));
  PetscCall(MatSetSizes(*A, nb * bs, nb * bs, PETSC_DETERMINE, PETSC_DETERMINE));
  PetscCall(MatSetType(*A, type));
  PetscCall(MatSetBlockSize(*A, bs));
  PetscCall(MatXAIJSetPreallocation(*A, bs, NULL, NULL, NULL, NULL));
  PetscCall(MatSeqAIJSetPreallocation(*A, (k + 1) * bs, NULL));
  PetscCall(MatMPIAIJSetPreallocation(*A, (k + 1) * bs, NULL, (k + 1) * bs, NULL));
  PetscCall(MatSeqBAIJSetPreallocation(*A, bs, k + 1, NULL));
  PetscCall(MatMPIBAIJSetPreallocation(*A, bs, k + 1, NULL, k + 1, NULL));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscCall(MatGetOwnershipRange(*A, &rstart, NULL));
  PetscCall(MatGetSize(*A, &Nb, NULL));
  rstart /= bs;
  Nb /= bs;
  PetscCall(PetscMalloc2(k + 1, &cols, (k + 1) * bs * bs, &vals));
  for (i = rstart; i < rstart + nb; i++) {
    if (i % 7 == 3) continue;
    cols[0] = i;
    for (j = 1; j <= k; j++) {
      PetscCall(PetscRandomGetValueReal(rnd, &r));
      cols[j] = PetscMin(Nb - 1, (PetscInt)(r * Nb));
      if (cols[j] == i) cols[j] = (i + 1) % Nb;
    }
    for (j = 0; j < (k + 1) * bs * bs; j++) PetscCall(PetscRandomGetValue(rnd, &vals[j]));
    if (blockrows) PetscCall(MatSetValuesBlocked(*A, 1, &i, k + 1, cols, vals, ADD_VALUES));
    else { /* scalar rows, independent patterns */
      for (j = 0; j <= k; j++) {
        PetscInt row = i * bs, col = cols[j] * bs;
        PetscCall(MatSetValues(*A, 1, &row, 1, &col, &vals[j], ADD_VALUES));
      }
    }
  }
  PetscCall(PetscFree2(cols, vals));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ||PipeKSPMatMult(A,x) - MatMult(A,x)||_inf / ||MatMult(A,x)||_inf, and the path taken */
static PetscErrorCode Compare(const char *name, Mat A, Vec x, PipeKSPSpMVPath expect, PetscInt minpolls)
{
  Vec             y1, y2;
  PetscReal       nrm, diff;
  PetscInt64      p0, p1;
  PipeKSPSpMVPath path;
  PetscMPIInt     bad, anybad;

  PetscFunctionBegin;
  PetscCall(MatCreateVecs(A, NULL, &y1));
  PetscCall(VecDuplicate(y1, &y2));
  PetscCall(VecSet(y1, 12345.0)); /* garbage that must be overwritten */
  PetscCall(PipeKSPMatMultGetPollPoints(&p0));
  PetscCall(PipeKSPMatMult(A, x, y1));
  PetscCall(PipeKSPMatMultGetPollPoints(&p1));
  PetscCall(PipeKSPMatMultGetLastPath(&path));
  PetscCall(MatMult(A, x, y2));
  PetscCall(VecNorm(y2, NORM_INFINITY, &nrm));
  PetscCall(VecAXPY(y1, -1.0, y2));
  PetscCall(VecNorm(y1, NORM_INFINITY, &diff));
  diff = nrm > 0 ? diff / nrm : diff;
  bad  = (path != expect ? 1 : 0) | (p1 - p0 < minpolls ? 2 : 0);
  PetscCall(MPIU_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_BOR, PetscObjectComm((PetscObject)A)));
  if (diff > TOL || anybad) nfail++;
  PetscCall(PetscPrintf(PetscObjectComm((PetscObject)A), "%-28s rel diff %8.1e  path %s  polls %s  -> %s\n", name, (double)diff, anybad & 1 ? "WRONG" : "ok", anybad & 2 ? "TOO FEW" : "ok", (diff > TOL || anybad) ? "FAIL" : "ok"));
  PetscCall(VecDestroy(&y1));
  PetscCall(VecDestroy(&y2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* polls the chunked product must make on this rank: one between chunks of the local rows
   (BAIJ: chunk/bs block rows; AIJ: whole row groups of up to 5 rows until >= chunk rows) */
static PetscInt MinPolls(PetscInt m, PetscInt bs, PetscBool baij, PetscInt chunk)
{
  PetscInt cb = baij ? PetscMax(1, chunk / bs) * bs : chunk + 4, nt = 1;

  if (PipeKSPGetThreads(&nt)) return 0;
  if (nt > 1) return m > cb ? 1 : 0; /* threaded: only the master polls, between the chunks it took */
  return m > cb ? (m + cb - 1) / cb - 1 : 0;
}

/* an error of the given code, raised on every rank */
static PetscErrorCode ExpectError(const char *name, Mat A, Vec x, Vec y, PetscErrorCode code)
{
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = PipeKSPMatMult(A, x, y);
  PetscCall(PetscPopErrorHandler());
  if (ierr != code) nfail++;
  PetscCall(PetscPrintf(PetscObjectComm((PetscObject)A), "%-28s error code %s -> %s\n", name, ierr == code ? "as expected" : "WRONG", ierr == code ? "ok" : "FAIL"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ShellMult(Mat S, Vec x, Vec y)
{
  Mat A;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(S, &A));
  PetscCall(MatMult(A, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  MPI_Comm        comm;
  PetscMPIInt     size, rank;
  PetscRandom     rnd;
  PetscInt        nb = 60, chunk = 256, m, t;
  Mat             A, S, D;
  Vec             x, x2, y, ybad;
  char            name[64];
  PipeKSPSpMVPath seqp[2], mpip[2];
  const PetscInt  bsl[] = {1, 2, 3, 5, 11};

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PipeKSPInitializePackage());
  comm = PETSC_COMM_WORLD;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-nb", &nb, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-pipeksp_spmv_chunk", &chunk, NULL));
  PetscCall(PetscRandomCreate(comm, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
  PetscCall(PetscRandomSetSeed(rnd, 17 + rank));
  PetscCall(PetscRandomSeed(rnd));
  seqp[0] = PIPEKSP_SPMV_SEQAIJ;
  seqp[1] = PIPEKSP_SPMV_SEQBAIJ;
  mpip[0] = PIPEKSP_SPMV_MPIAIJ;
  mpip[1] = PIPEKSP_SPMV_MPIBAIJ;

  for (t = 0; t < 2 * 5; t++) { /* {aij, baij} x block sizes */
    const PetscBool       baij = (PetscBool)(t / 5);
    const PetscInt        bs   = bsl[t % 5];
    const PipeKSPSpMVPath path = size == 1 ? seqp[baij] : mpip[baij];
    PetscInt              row, col;
    PetscScalar           v = 3.0;

    if (baij && bs == 1) continue;
    PetscCall(BuildRandom(comm, baij ? MATBAIJ : MATAIJ, bs, nb, (PetscBool)(bs > 1), rnd, &A));
    PetscCall(MatCreateVecs(A, &x, &y));
    PetscCall(VecSetRandom(x, rnd));
    PetscCall(MatGetLocalSize(A, &m, NULL));
    PetscCall(PetscSNPrintf(name, sizeof(name), "%s bs %" PetscInt_FMT, baij ? "baij" : "aij", bs));
    PetscCall(Compare(name, A, x, path, MinPolls(m, bs, baij, chunk)));
    /* cached pattern, new values */
    PetscCall(MatScale(A, -2.5));
    PetscCall(PetscSNPrintf(name, sizeof(name), "%s bs %" PetscInt_FMT " scaled", baij ? "baij" : "aij", bs));
    PetscCall(Compare(name, A, x, path, 0));
    /* x with its own layout object: checked collectively once */
    PetscCall(VecCreateMPI(comm, m, PETSC_DETERMINE, &x2));
    PetscCall(VecCopy(x, x2));
    PetscCall(PetscSNPrintf(name, sizeof(name), "%s bs %" PetscInt_FMT " own layout", baij ? "baij" : "aij", bs));
    PetscCall(Compare(name, A, x2, path, 0));
    PetscCall(VecDestroy(&x2));
    /* new nonzeros, some off-process: halo and row groups are rebuilt */
    row = (rank * nb + nb / 2) * bs;
    col = ((rank + 1) % size * nb + 1) * bs + bs - 1;
    PetscCall(MatSetValues(A, 1, &row, 1, &col, &v, ADD_VALUES));
    row = rank * nb * bs;
    col = ((rank + size - 1) % size * nb + nb - 1) * bs;
    PetscCall(MatSetValues(A, 1, &row, 1, &col, &v, ADD_VALUES));
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    PetscCall(PetscSNPrintf(name, sizeof(name), "%s bs %" PetscInt_FMT " new pattern", baij ? "baij" : "aij", bs));
    PetscCall(Compare(name, A, x, path, 0));
    if (!baij && bs == 3) { /* the same Mat changes type: aij -> baij */
      PetscCall(MatConvert(A, MATBAIJ, MAT_INPLACE_MATRIX, &A));
      PetscCall(Compare("aij bs 3 converted to baij", A, x, size == 1 ? PIPEKSP_SPMV_SEQBAIJ : PIPEKSP_SPMV_MPIBAIJ, 0));
      PetscCall(Compare("... and again", A, x, size == 1 ? PIPEKSP_SPMV_SEQBAIJ : PIPEKSP_SPMV_MPIBAIJ, 0));
    }
    if (baij && bs == 3) {
      /* fallback types */
      PetscCall(MatCreateShell(comm, m, m, PETSC_DETERMINE, PETSC_DETERMINE, A, &S));
      PetscCall(MatShellSetOperation(S, MATOP_MULT, (void (*)(void))ShellMult));
      PetscCall(Compare("shell", S, x, PIPEKSP_SPMV_FALLBACK, 2));
      PetscCall(MatDestroy(&S));
      PetscCall(MatConvert(A, MATDENSE, MAT_INITIAL_MATRIX, &D));
      PetscCall(Compare("dense", D, x, PIPEKSP_SPMV_FALLBACK, 2));
      PetscCall(MatDestroy(&D));
      /* bad input: in place, wrong global size, wrong local sizes */
      PetscCall(ExpectError("x == y", A, x, x, PETSC_ERR_ARG_IDN));
      PetscCall(VecCreateMPI(comm, PETSC_DECIDE, m * size + 1, &ybad));
      PetscCall(ExpectError("wrong global size", A, x, ybad, PETSC_ERR_ARG_SIZ));
      PetscCall(VecDestroy(&ybad));
      if (size > 1) { /* rank 0 gives one row to rank 1: only those two see it locally */
        PetscCall(VecCreateMPI(comm, m + (rank == 0 ? -1 : (rank == 1 ? 1 : 0)), PETSC_DETERMINE, &ybad));
        PetscCall(ExpectError("wrong local sizes", A, x, ybad, PETSC_ERR_ARG_SIZ));
        PetscCall(VecDestroy(&ybad));
      }
      PetscCall(Compare("baij bs 3 after errors", A, x, size == 1 ? PIPEKSP_SPMV_SEQBAIJ : PIPEKSP_SPMV_MPIBAIJ, 0));
    }
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&y));
    PetscCall(MatDestroy(&A));
  }
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscPrintf(comm, "%s: %" PetscInt_FMT " failure(s)\n", nfail ? "FAILED" : "PASSED", nfail));
  PetscCheck(!nfail, comm, PETSC_ERR_PLIB, "PipeKSPMatMult differs from MatMult");
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: matmult_np1
      filter: grep -oE "PASSED: 0 failure|FAILED|PETSC ERROR"
      output_file: output/ex8_matmult_np1.out

   test:
      suffix: matmult_np2
      nsize: 2
      filter: grep -oE "PASSED: 0 failure|FAILED|PETSC ERROR"
      output_file: output/ex8_matmult_np2.out

   test:
      suffix: matmult_np4
      nsize: 4
      filter: grep -oE "PASSED: 0 failure|FAILED|PETSC ERROR"
      output_file: output/ex8_matmult_np4.out

   test:
      suffix: matmult_np2_chunk7
      nsize: 2
      args: -nb 90 -pipeksp_spmv_chunk 7
      filter: grep -oE "PASSED: 0 failure|FAILED|PETSC ERROR"
      output_file: output/ex8_matmult_np2_chunk7.out

   test:
      suffix: threads_omp2_matmult_np2
      nsize: 2
      args: -pipeksp_threads_min_rows 0
      env: OMP_NUM_THREADS=2
      filter: grep -oE "PASSED: 0 failure|FAIL|ERROR|NOT below"
      output_file: output/ex8_threads_omp2_matmult_np2.out

   test:
      suffix: threads_omp2_matmult_np2_chunk7
      nsize: 2
      args: -pipeksp_threads_min_rows 0 -nb 90 -pipeksp_spmv_chunk 7
      env: OMP_NUM_THREADS=2
      filter: grep -oE "PASSED: 0 failure|FAIL|ERROR|NOT below"
      output_file: output/ex8_threads_omp2_matmult_np2_chunk7.out

TEST*/
