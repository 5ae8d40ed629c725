/* PC asddic: localized IC(0) of each rank's diagonal block in CM-RCM order, wrapped in ASDD
   (additive Schwarz) correction sweeps, as in GeoFEM (ALGORITHMS.md section 3). */
#include <pipeksp/asddicimpl.h>
#include <pipeksp/threadsimpl.h>
#if defined(PIPEKSP_HAVE_OPENMP)
  #include <omp.h>
#endif

const char *const PipeKSPOrderingTypes[] = {"cmrcm", "rcm", "mc", "natural", "PipeKSPOrderingType", "PIPEKSP_ORDERING_", NULL};
static const char *const PCASDDICShiftTypes[] = {"none", "diagonal", "PCASDDICShiftType", "ASDDIC_SHIFT_", NULL};

static PetscLogEvent ASDDIC_SetUp, ASDDIC_Apply, ASDDIC_Sweep;
static PetscBool     ASDDICPackageInitialized = PETSC_FALSE;

/* Default K = 20: on the cube (bench/asddic_colors.sh, 25^3 nodes, block IC(0)) CG needs 143/125/106/94
   iterations for K = 2/10/20/50 against 77 with one colour per level and 69 for RCM; K = 20 takes
   most of that gain while each colour still holds ~n/20 rows for the threads. A 27-point (Q1
   hexahedra) graph needs at least 8 colours, so K < 8 gives 8 or more. */
#define ASDDIC_DEFAULT_COLORS 20

static PetscErrorCode PCReset_ASDDIC(PC pc)
{
  PC_ASDDIC *a = (PC_ASDDIC *)pc->data;

  PetscFunctionBegin;
  PetscCall(PetscFree2(a->perm, a->iperm));
  PetscCall(PetscFree(a->colorptr));
  PetscCall(PetscFree3(a->fi, a->fj, a->fdiag));
  PetscCall(PetscFree4(a->fa, a->fa0, a->dinv, a->work));
  PetscCall(PetscFree(a->fmap));
  PetscCall(PetscFree4(a->li, a->lj, a->ui, a->uj));
  PetscCall(PetscFree2(a->la, a->ua));
  a->nfmap = 0;
  PetscCall(VecDestroy(&a->t));
  PetscCall(VecDestroy(&a->w));
  a->nb      = 0;
  a->ncolors = 0;
  PetscFunctionReturn(0);
}

/* The CSR structure of Ad for the fast paths, in blocks of the matrix for SeqBAIJ */
static PetscErrorCode RawGetIJ(Mat Ad, PetscInt kind, PetscInt *n, const PetscInt **ia, const PetscInt **ja)
{
  PetscBool done;

  PetscFunctionBegin;
  PetscCall(MatGetRowIJ(Ad, 0, PETSC_FALSE, kind >= 2 ? PETSC_TRUE : PETSC_FALSE, n, ia, ja, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "asddic: cannot read the row structure of the local block");
  PetscFunctionReturn(0);
}

static PetscErrorCode RawRestoreIJ(Mat Ad, PetscInt kind, PetscInt *n, const PetscInt **ia, const PetscInt **ja)
{
  PetscBool done;

  PetscFunctionBegin;
  PetscCall(MatRestoreRowIJ(Ad, 0, PETSC_FALSE, kind >= 2 ? PETSC_TRUE : PETSC_FALSE, n, ia, ja, &done));
  PetscFunctionReturn(0);
}

/* Which of the layouts the factor can read directly: SeqAIJ with point IC(0) (1), SeqBAIJ with block
   IC(0) on its own block size (2) or with point IC(0) (3); anything else goes through MatGetRow (0). */
static PetscErrorCode RawKind(Mat Ad, PetscInt bs, PetscInt *kind, PetscInt *rawbs)
{
  PetscBool aij, baij;
  PetscInt  mbs;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)Ad, MATSEQAIJ, &aij));
  PetscCall(PetscObjectTypeCompare((PetscObject)Ad, MATSEQBAIJ, &baij));
  PetscCall(MatGetBlockSize(Ad, &mbs));
  *kind  = (aij && bs == 1) ? 1 : (baij && bs == mbs) ? 2 : (baij && bs == 1) ? 3 : 0;
  *rawbs = (*kind == 1) ? 1 : mbs;
  if (*kind) { /* the structure must come back uncompressed: one row per (block) row of the matrix */
    PetscInt        n, m;
    const PetscInt *ia, *ja;
    const PetscInt  k = *kind;
    PetscCall(MatGetLocalSize(Ad, &m, NULL));
    PetscCall(RawGetIJ(Ad, k, &n, &ia, &ja));
    if (n != m / *rawbs) *kind = 0;
    PetscCall(RawRestoreIJ(Ad, k, &n, &ia, &ja));
  }
  PetscFunctionReturn(0);
}

/* Rows of a structurally symmetric CSR graph sorted in place: its transpose is the same graph, and
   building the transpose row by row lists every row's columns in increasing order. */
static PetscErrorCode SortedTranspose(PetscInt n, const PetscInt *xi, PetscInt *xj)
{
  PetscInt *pos, *t;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(n, &pos, xi[n] + 1, &t));
  PetscCall(PetscArraycpy(pos, xi, n));
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt p = xi[i]; p < xi[i + 1]; p++) t[pos[xj[p]]++] = i;
  for (PetscInt i = 0; i < n; i++) PetscCheck(pos[i] == xi[i + 1], PETSC_COMM_SELF, PETSC_ERR_PLIB, "asddic: graph row %" PetscInt_FMT " is not symmetric", i);
  PetscCall(PetscArraycpy(xj, t, xi[n]));
  PetscCall(PetscFree2(pos, t));
  PetscFunctionReturn(0);
}

/* Unique block columns of each block row but the diagonal, through MatGetRow (any matrix type) */
static PetscErrorCode UniqueBlockColumns(Mat Ad, PetscInt bs, PetscInt nb, PetscInt *mk, PetscInt *ti, PetscInt **tjout)
{
  PetscInt *tj;

  PetscFunctionBegin;
  for (PetscInt pass = 0; pass < 2; pass++) { /* count, then fill */
    for (PetscInt ib = 0; ib < nb; ib++) mk[ib] = -1;
    for (PetscInt ib = 0, p = 0; ib < nb; ib++) {
      if (!pass) ti[ib + 1] = ti[ib];
      for (PetscInt r = ib * bs; r < (ib + 1) * bs; r++) {
        PetscInt        nc;
        const PetscInt *cols;
        PetscCall(MatGetRow(Ad, r, &nc, &cols, NULL));
        for (PetscInt k = 0; k < nc; k++) {
          const PetscInt cb = cols[k] / bs;
          if (mk[cb] != ib && cb != ib) {
            mk[cb] = ib;
            if (pass) tj[p++] = cb;
            else ti[ib + 1]++;
          }
        }
        PetscCall(MatRestoreRow(Ad, r, &nc, &cols, NULL));
      }
    }
    if (!pass) PetscCall(PetscMalloc1(ti[nb] + 1, &tj));
  }
  *tjout = tj;
  PetscFunctionReturn(0);
}

/* The ordering and the factor's pattern from the local diagonal block Ad (block rows of size bs) */
static PetscErrorCode PCASDDICSymbolic(PC pc, Mat Ad, PetscInt bs, PetscInt rawkind, PetscInt rawbs)
{
  PC_ASDDIC *a = (PC_ASDDIC *)pc->data;
  PetscInt   m, nb, *mk, *cnt, *xadj, *adj, *tj, *ti, nz;

  PetscFunctionBegin;
  PetscCall(PCReset_ASDDIC(pc));
  PetscCall(MatGetLocalSize(Ad, &m, NULL));
  nb    = m / bs;
  a->bs = bs;
  a->nb = nb;
  a->rawkind = rawkind;
  a->rawbs   = rawbs;
  /* unique block columns of each block row but the diagonal (ti/tj): read directly, or via a marker */
  PetscCall(PetscMalloc2(nb, &mk, nb + 1, &ti));
  ti[0] = 0;
  if (a->rawkind) {
    PetscInt        n;
    const PetscInt *ia, *ja;
    const PetscInt  e = rawbs / bs; /* factor rows per raw row: > 1 when point IC(0) reads a SeqBAIJ */
    PetscCall(RawGetIJ(Ad, a->rawkind, &n, &ia, &ja));
    PetscCall(PetscMalloc1(ia[n] * e * e + 1, &tj));
    for (PetscInt ib = 0; ib < nb; ib++) {
      const PetscInt rb = ib / e; /* the matrix's row (block) holding factor row ib */
      ti[ib + 1]        = ti[ib];
      for (PetscInt p = ia[rb]; p < ia[rb + 1]; p++)
        for (PetscInt c = 0; c < e; c++)
          if (ja[p] * e + c != ib) tj[ti[ib + 1]++] = ja[p] * e + c;
    }
    PetscCall(RawRestoreIJ(Ad, a->rawkind, &n, &ia, &ja));
  } else PetscCall(UniqueBlockColumns(Ad, bs, nb, mk, ti, &tj));

  /* symmetrized graph without self loops, the pattern of A + A^T: both directions of every edge,
     duplicates dropped with the marker, then rows sorted by a transpose (O(nnz), no sorting) */
  PetscCall(PetscCalloc1(nb + 1, &cnt));
  for (PetscInt ib = 0; ib < nb; ib++)
    for (PetscInt p = ti[ib]; p < ti[ib + 1]; p++) {
      cnt[ib + 1]++;
      cnt[tj[p] + 1]++;
    }
  for (PetscInt ib = 0; ib < nb; ib++) cnt[ib + 1] += cnt[ib];
  PetscCall(PetscMalloc2(nb + 1, &xadj, cnt[nb] + 1, &adj));
  PetscCall(PetscArraycpy(xadj, cnt, nb + 1));
  for (PetscInt ib = 0; ib < nb; ib++)
    for (PetscInt p = ti[ib]; p < ti[ib + 1]; p++) {
      adj[cnt[ib]++]     = tj[p];
      adj[cnt[tj[p]]++] = ib;
    }
  nz = 0;
  for (PetscInt ib = 0; ib < nb; ib++) mk[ib] = -1;
  for (PetscInt ib = 0; ib < nb; ib++) {
    PetscInt start = nz;
    for (PetscInt p = xadj[ib]; p < xadj[ib + 1]; p++)
      if (mk[adj[p]] != ib) {
        mk[adj[p]] = ib;
        adj[nz++]  = adj[p];
      }
    xadj[ib] = start;
  }
  xadj[nb] = nz;
  PetscCall(SortedTranspose(nb, xadj, adj));
  PetscCall(PetscFree(cnt));
  PetscCall(PetscFree2(mk, ti));
  PetscCall(PetscFree(tj));

  /* ordering */
  PetscCall(PetscMalloc2(nb, &a->perm, nb, &a->iperm));
  PetscCall(PipeKSPOrderGraph(nb, xadj, adj, a->ordering, a->colors, a->perm, &a->ncolors, &a->colorptr, &a->independent, &a->nlevels));
  for (PetscInt i = 0; i < nb; i++) a->iperm[a->perm[i]] = i;
  if (a->check && a->independent) { /* every colour an independent set of the graph */
    PetscInt *col, bad = 0;
    PetscCall(PetscMalloc1(nb, &col));
    for (PetscInt c = 0; c < a->ncolors; c++)
      for (PetscInt i = a->colorptr[c]; i < a->colorptr[c + 1]; i++) col[a->perm[i]] = c;
    for (PetscInt ib = 0; ib < nb; ib++)
      for (PetscInt p = xadj[ib]; p < xadj[ib + 1]; p++) bad += (col[adj[p]] == col[ib]);
    PetscCall(PetscFree(col));
    PetscCheck(!bad, PETSC_COMM_SELF, PETSC_ERR_PLIB, "asddic: %" PetscInt_FMT " couplings inside a colour: the colouring is not a set of independent sets", bad / 2);
    PetscCall(PetscInfo(pc, "colouring checked: %" PetscInt_FMT " colours, all independent sets\n", a->ncolors));
  }

  /* pattern of the factor in the new numbering: symmetric graph plus the diagonal, sorted rows */
  PetscCall(PetscMalloc3(nb + 1, &a->fi, nz + nb, &a->fj, nb, &a->fdiag));
  a->fi[0] = 0;
  for (PetscInt i = 0; i < nb; i++) {
    PetscInt ib = a->perm[i], *row = a->fj + a->fi[i], len = 0;
    row[len++] = i;
    for (PetscInt p = xadj[ib]; p < xadj[ib + 1]; p++) row[len++] = a->iperm[adj[p]];
    a->fi[i + 1] = a->fi[i] + len;
  }
  PetscCall(SortedTranspose(nb, a->fi, a->fj));
  for (PetscInt i = 0; i < nb; i++)
    for (PetscInt p = a->fi[i]; p < a->fi[i + 1]; p++)
      if (a->fj[p] == i) a->fdiag[i] = p;
  a->nnzb = a->fi[nb];
  PetscCall(PetscFree2(xadj, adj));
  PetscCall(PetscMalloc4(a->nnzb * bs * bs, &a->fa, a->nnzb * bs * bs, &a->fa0, nb * bs * bs, &a->dinv, nb * bs, &a->work));
  PetscCall(MatCreateVecs(pc->pmat, &a->t, NULL));
  PetscCall(VecDuplicate(a->t, &a->w));
  a->nsymbolic++;
  a->reorder = PETSC_FALSE;
  PetscCall(PetscInfo(pc, "ordering %s: %" PetscInt_FMT " block rows (bs %" PetscInt_FMT "), %" PetscInt_FMT " colours, %" PetscInt_FMT " levels; matrix read %s\n", PipeKSPOrderingTypes[a->ordering], nb, bs, a->ncolors, a->nlevels,
                      a->rawkind == 1 ? "as SeqAIJ arrays" : a->rawkind == 2 ? "as SeqBAIJ blocks" : a->rawkind == 3 ? "as SeqBAIJ blocks split into points" : "through MatGetRow"));
  PetscFunctionReturn(0);
}

/* Where each entry of Ad lands in the permuted factor (once per pattern). The fast paths index the
   raw value arrays: SeqAIJ in CSR order, SeqBAIJ block by block, each block column-major. */
static PetscErrorCode PCASDDICBuildFillMap(PC_ASDDIC *a, Mat Ad)
{
  const PetscInt bs = a->bs, bs2 = bs * bs;
  PetscInt       k = 0, cap, *pos;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(a->nb, &pos));
  if (a->rawkind) {
    PetscInt        n;
    const PetscInt *ia, *ja;
    const PetscInt  rb = a->rawbs, rb2 = rb * rb, e = rb / bs; /* e factor (block) rows per raw row */
    PetscCall(RawGetIJ(Ad, a->rawkind, &n, &ia, &ja));
    k = ia[n] * rb2;
    PetscCall(PetscMalloc1(k + 1, &a->fmap));
    /* entry (R, C) of raw block p sits at p*rb2 + C*rb + R (column-major; 1x1 for SeqAIJ); it belongs
       to factor row iperm[ib*e + R/bs], factor column iperm[ja[p]*e + C/bs], at (R%bs, C%bs) there */
    for (PetscInt ib = 0; ib < n; ib++)
      for (PetscInt fr = 0; fr < e; fr++) {
        const PetscInt i = a->iperm[ib * e + fr];
        for (PetscInt p = a->fi[i]; p < a->fi[i + 1]; p++) pos[a->fj[p]] = p;
        for (PetscInt p = ia[ib]; p < ia[ib + 1]; p++)
          for (PetscInt C = 0; C < rb; C++) {
            const PetscInt base = pos[a->iperm[ja[p] * e + C / bs]] * bs2 + C % bs;
            for (PetscInt r = 0; r < bs; r++) a->fmap[p * rb2 + C * rb + fr * bs + r] = base + r * bs;
          }
      }
    PetscCall(RawRestoreIJ(Ad, a->rawkind, &n, &ia, &ja));
  } else {
    MatInfo info;
    PetscCall(MatGetInfo(Ad, MAT_LOCAL, &info));
    cap = (PetscInt)info.nz_used + 1;
    PetscCall(PetscMalloc1(cap, &a->fmap));
    for (PetscInt r = 0; r < a->nb * bs; r++) {
      PetscInt        nc, i = a->iperm[r / bs];
      const PetscInt *cols;
      if (r % bs == 0) /* pos[new block column] = its slot in factor row i */
        for (PetscInt p = a->fi[i]; p < a->fi[i + 1]; p++) pos[a->fj[p]] = p;
      PetscCall(MatGetRow(Ad, r, &nc, &cols, NULL));
      if (k + nc > cap) { /* nz_used was an underestimate */
        PetscInt *t;
        cap = 2 * (k + nc);
        PetscCall(PetscMalloc1(cap, &t));
        PetscCall(PetscArraycpy(t, a->fmap, k));
        PetscCall(PetscFree(a->fmap));
        a->fmap = t;
      }
      for (PetscInt j = 0; j < nc; j++) a->fmap[k++] = pos[a->iperm[cols[j] / bs]] * bs2 + (r % bs) * bs + cols[j] % bs;
      PetscCall(MatRestoreRow(Ad, r, &nc, &cols, NULL));
    }
  }
  PetscCall(PetscFree(pos));
  a->nfmap = k;
  PetscFunctionReturn(0);
}

/* Copies the values of Ad into the permuted pattern (a->fa0) */
static PetscErrorCode PCASDDICFillValues(PC_ASDDIC *a, Mat Ad)
{
  PetscInt k = 0;

  PetscFunctionBegin;
  PetscCall(PetscArrayzero(a->fa0, a->nnzb * a->bs * a->bs));
  if (a->rawkind) {
    PetscInt           n;
    const PetscInt    *ia, *ja;
    const PetscScalar *aa;
    PetscScalar       *ab;
    PetscCall(RawGetIJ(Ad, a->rawkind, &n, &ia, &ja));
    k = ia[n] * a->rawbs * a->rawbs;
    PetscCall(RawRestoreIJ(Ad, a->rawkind, &n, &ia, &ja));
    PetscCheck(k == a->nfmap, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "asddic: the nonzero pattern changed although SAME_NONZERO_PATTERN was given: use DIFFERENT_NONZERO_PATTERN");
    if (a->rawkind == 1) {
      PetscCall(MatSeqAIJGetArrayRead(Ad, &aa));
      for (PetscInt j = 0; j < k; j++) a->fa0[a->fmap[j]] = aa[j];
      PetscCall(MatSeqAIJRestoreArrayRead(Ad, &aa));
    } else {
      PetscCall(MatSeqBAIJGetArray(Ad, &ab));
      for (PetscInt j = 0; j < k; j++) a->fa0[a->fmap[j]] = ab[j];
      PetscCall(MatSeqBAIJRestoreArray(Ad, &ab));
    }
    PetscFunctionReturn(0);
  }
  for (PetscInt r = 0; r < a->nb * a->bs; r++) {
    PetscInt           nc;
    const PetscScalar *vals;
    PetscCall(MatGetRow(Ad, r, &nc, NULL, &vals));
    PetscCheck(k + nc <= a->nfmap, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "asddic: the nonzero pattern changed although SAME_NONZERO_PATTERN was given: use DIFFERENT_NONZERO_PATTERN");
    for (PetscInt j = 0; j < nc; j++) a->fa0[a->fmap[k + j]] = vals[j];
    k += nc;
    PetscCall(MatRestoreRow(Ad, r, &nc, NULL, &vals));
  }
  PetscCheck(k == a->nfmap, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "asddic: the nonzero pattern changed although SAME_NONZERO_PATTERN was given: use DIFFERENT_NONZERO_PATTERN");
  PetscFunctionReturn(0);
}

static PetscErrorCode PCSetUp_ASDDIC(PC pc)
{
  PC_ASDDIC  *a = (PC_ASDDIC *)pc->data;
  Mat         Ad, Aconv = NULL;
  PetscInt    m, bsmat, bs, badrow = -1, fail[2], rawkind = 0, rawbs = 1;
  PetscBool   sbaij, ok;
  PetscReal   alpha = 0;
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(ASDDIC_SetUp, pc, 0, 0, 0));
  PetscCall(MPI_Comm_rank(PetscObjectComm((PetscObject)pc), &rank));
  PetscCall(PCSetFailedReason(pc, PC_NOERROR));
  PetscCall(MatGetDiagonalBlock(pc->pmat, &Ad));
  PetscCall(PetscObjectTypeCompare((PetscObject)Ad, MATSEQSBAIJ, &sbaij));
  if (sbaij) { /* upper triangle only: expand once per setup to the full block */
    PetscCall(MatConvert(Ad, MATSEQAIJ, MAT_INITIAL_MATRIX, &Aconv));
    Ad = Aconv;
  }
  PetscCall(MatGetLocalSize(Ad, &m, NULL));
  PetscCall(MatGetBlockSize(pc->pmat, &bsmat));
  bs = (a->block == 0) ? 1 : bsmat;
  PetscCheck(bs <= 8, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "asddic: block IC(0) supports block sizes up to 8, the matrix has %" PetscInt_FMT ": use -pc_asddic_block 0 for point IC(0)", bs);
  PetscCheck(m % bs == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "asddic: local size %" PetscInt_FMT " is not a multiple of the block size %" PetscInt_FMT, m, bs);
  PetscCall(RawKind(Ad, bs, &rawkind, &rawbs));
  if (!pc->setupcalled || pc->flag != SAME_NONZERO_PATTERN || a->reorder || a->bs != bs || a->nb * bs != m || rawkind != a->rawkind) {
    PetscCall(PCASDDICSymbolic(pc, Ad, bs, rawkind, rawbs));
    PetscCall(PCASDDICBuildFillMap(a, Ad));
    PetscCall(PCASDDICSplitSymbolic_Private(a));
  }
  PetscCall(PCASDDICFillValues(a, Ad));
  PetscCall(MatDestroy(&Aconv));

  /* numeric IC(0); on breakdown retry with a growing Manteuffel shift A + alpha diag(A) */
  a->nshifts = 0;
  PetscCall(PCASDDICFactorNumeric_Private(a, 0, &ok, &badrow));
  if (!ok && a->shifttype == ASDDIC_SHIFT_DIAGONAL) {
    for (alpha = 1e-3; !ok && alpha < 1e6; alpha *= 2) {
      PetscCall(PetscInfo(pc, "IC(0) broke down at local block row %" PetscInt_FMT ": retrying with diagonal shift alpha = %g\n", badrow, (double)alpha));
      a->nshifts++;
      PetscCall(PCASDDICFactorNumeric_Private(a, alpha, &ok, &badrow));
      if (ok) break;
    }
  }
  if (ok) PetscCall(PCASDDICSplitNumeric_Private(a));
  a->alpha = ok ? alpha : 0;
  if (a->alpha > 0) PetscCall(PetscInfo(pc, "IC(0) succeeded with diagonal shift alpha = %g after %" PetscInt_FMT " retries\n", (double)a->alpha, a->nshifts));
  /* every rank learns whether some rank failed, so errors and PC_FAILED are collective */
  fail[0] = ok ? 0 : 1;
  fail[1] = ok ? -1 : (PetscInt)rank;
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, fail, 2, MPIU_INT, MPI_MAX, PetscObjectComm((PetscObject)pc)));
  a->failed = fail[0] ? PETSC_TRUE : PETSC_FALSE;
  if (a->failed) {
    PetscCall(PetscInfo(pc, "IC(0) of the diagonal block failed (rank %" PetscInt_FMT ", shift %s)\n", fail[1], PCASDDICShiftTypes[a->shifttype]));
    PetscCall(PCSetFailedReason(pc, PC_FACTOR_NUMERIC_ZEROPIVOT));
    PetscCheck(!pc->erroriffailure, PetscObjectComm((PetscObject)pc), PETSC_ERR_MAT_CH_ZRPVT,
               "asddic: IC(0) of the local diagonal block hit a non-positive pivot on rank %" PetscInt_FMT " (shift %s): the matrix is not SPD or IC(0) is unstable for it; use -pc_asddic_shift diagonal, or a different preconditioner", fail[1], PCASDDICShiftTypes[a->shifttype]);
  }
  PetscCall(PetscLogEventEnd(ASDDIC_SetUp, pc, 0, 0, 0));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCASDDICLocal(PC pc, Vec r, Vec z)
{
  PC_ASDDIC         *a = (PC_ASDDIC *)pc->data;
  const PetscScalar *ra;
  PetscScalar       *za;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(ASDDIC_Sweep, pc, r, z, 0));
  PetscCall(VecGetArrayRead(r, &ra));
  PetscCall(VecGetArrayWrite(z, &za));
  PetscCall(PCASDDICSolveLocal_Private(a, ra, za));
  PetscCall(VecRestoreArrayWrite(z, &za));
  PetscCall(VecRestoreArrayRead(r, &ra));
  PetscCall(PetscLogFlops(2.0 * a->nnzb * a->bs * a->bs));
  PetscCall(PetscLogEventEnd(ASDDIC_Sweep, pc, r, z, 0));
  PetscFunctionReturn(0);
}

/* No PCApplySymmetricLeft/Right: for n > 1 the operator is a polynomial in M^{-1}A times M^{-1} and
   has no cheap symmetric split; for n = 1 it would be L^{-1} and D^{-1/2}-scaled factors, not wired up.
   z = M^{-1} r; then (n-1) times z += M^{-1}(r - A z). The operator M^{-1} sum_k (ib - A M^{-1})^k is
   symmetric when M is; it is positive definite for odd n, and for even n when the eigenvalues of
   M^{-1} A stay below 2. */
static PetscErrorCode PCApply_ASDDIC(PC pc, Vec x, Vec y)
{
  PC_ASDDIC *a = (PC_ASDDIC *)pc->data;

  PetscFunctionBegin;
  if (a->failed) { /* KSP sees Inf and stops with DIVERGED_PC_FAILED */
    PetscCall(VecSetInf(y));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscLogEventBegin(ASDDIC_Apply, pc, x, y, 0));
  PetscCall(PCASDDICLocal(pc, x, y));
  for (PetscInt it = 1; it < a->iterations; it++) {
    PetscCall(PipeKSPMatMult(pc->pmat, y, a->t));
    PetscCall(VecAYPX(a->t, -1.0, x));
    PetscCall(PCASDDICLocal(pc, a->t, a->w));
    PetscCall(VecAXPY(y, 1.0, a->w));
  }
  PetscCall(PetscLogEventEnd(ASDDIC_Apply, pc, x, y, 0));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCDestroy_ASDDIC(PC pc)
{
  PetscFunctionBegin;
  PetscCall(PCReset_ASDDIC(pc));
  PetscCall(PetscFree(pc->data));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCSetFromOptions_ASDDIC(PC pc, PetscOptionItems *PetscOptionsObject)
{
  PC_ASDDIC          *a = (PC_ASDDIC *)pc->data;
  PipeKSPOrderingType ord = a->ordering;
  PetscInt            K = a->colors, n = a->iterations, nt = a->threads ? a->threads : PipeKSPThreadsNum();
  PetscBool           blk = a->block ? PETSC_TRUE : PETSC_FALSE, flg;
  PCASDDICShiftType   sh  = a->shifttype;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "ASDD IC(0) options");
  PetscCall(PetscOptionsEnum("-pc_asddic_ordering", "Local ordering of the IC(0) factor", "PCASDDICSetOrdering", PipeKSPOrderingTypes, (PetscEnum)ord, (PetscEnum *)&ord, &flg));
  if (flg) PetscCall(PCASDDICSetOrdering(pc, ord));
  PetscCall(PetscOptionsInt("-pc_asddic_colors", "Colours K of CM-RCM (level l gets colour l mod K)", "PCASDDICSetColors", K, &K, &flg));
  if (flg) PetscCall(PCASDDICSetColors(pc, K));
  PetscCall(PetscOptionsBool("-pc_asddic_block", "Block IC(0) on the matrix block size (default on when bs > 1)", "PCASDDICSetBlock", blk, &blk, &flg));
  if (flg) PetscCall(PCASDDICSetBlock(pc, blk));
  PetscCall(PetscOptionsInt("-pc_asddic_iterations", "ASDD sweeps (1 = localized IC(0))", "PCASDDICSetIterations", n, &n, &flg));
  if (flg) PetscCall(PCASDDICSetIterations(pc, n));
  PetscCall(PetscOptionsEnum("-pc_asddic_shift", "On a non-positive pivot: none (PC fails) or diagonal (retry with A + alpha diag(A))", "PCASDDICSetShiftType", PCASDDICShiftTypes, (PetscEnum)sh, (PetscEnum *)&sh, NULL));
  a->shifttype = sh;
  PetscCall(PetscOptionsInt("-pc_asddic_threads", "OpenMP threads of the colour sweeps (default: -pipeksp_threads, the process's one thread count)", "PCASDDICSetThreads", nt, &nt, &flg));
  if (flg) PetscCall(PCASDDICSetThreads(pc, nt));
  PetscCall(PetscOptionsBool("-pc_asddic_check", "Verify in PCSetUp that every colour is an independent set", NULL, a->check, &a->check, NULL));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(0);
}

static PetscErrorCode PCView_ASDDIC(PC pc, PetscViewer viewer)
{
  PC_ASDDIC  *a = (PC_ASDDIC *)pc->data;
  PetscBool   iascii;
  PetscReal   alpha = a->alpha;
  PetscInt    cmin = a->ncolors, cmax = a->ncolors;
  MPI_Comm    comm = PetscObjectComm((PetscObject)pc);

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(0);
  if (pc->setupcalled) {
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &alpha, 1, MPIU_REAL, MPIU_MAX, comm));
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &cmin, 1, MPIU_INT, MPI_MIN, comm));
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &cmax, 1, MPIU_INT, MPI_MAX, comm));
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "  localized IC(0) of each rank's diagonal block, %s\n", a->block == 0 ? "point" : (a->block > 0 ? "block (matrix block size)" : "block when the matrix block size > 1")));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  ordering %s, colours K = %" PetscInt_FMT "\n", PipeKSPOrderingTypes[a->ordering], a->colors));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  ASDD iterations %" PetscInt_FMT "%s\n", a->iterations, a->iterations == 1 ? " (plain localized IC(0))" : ""));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  shift on non-positive pivot: %s\n", PCASDDICShiftTypes[a->shifttype]));
#if defined(PIPEKSP_HAVE_OPENMP)
  PetscCall(PetscViewerASCIIPrintf(viewer, "  threads %" PetscInt_FMT " (OpenMP, %s)\n", a->threads ? a->threads : PipeKSPThreadsNum(), a->threads ? "-pc_asddic_threads" : "-pipeksp_threads"));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(PipeKSPThreadsView(viewer));
  PetscCall(PetscViewerASCIIPopTab(viewer));
#else
  PetscCall(PetscViewerASCIIPrintf(viewer, "  threads 1 (built without OpenMP)\n"));
#endif
  if (pc->setupcalled) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "  factor block size %" PetscInt_FMT ", colours used %" PetscInt_FMT " to %" PetscInt_FMT " over ranks%s\n", a->bs, cmin, cmax, a->independent ? " (independent sets, sweeps parallel inside a colour)" : " (sequential sweeps)"));
    if (alpha > 0) PetscCall(PetscViewerASCIIPrintf(viewer, "  diagonal shift alpha = %g (largest over ranks)\n", (double)alpha));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "  no diagonal shift needed\n"));
    if (a->failed) PetscCall(PetscViewerASCIIPrintf(viewer, "  FACTORIZATION FAILED (non-positive pivot)\n"));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  ordering computed %" PetscInt_FMT " time(s)\n", a->nsymbolic));
    PetscCall(PetscViewerASCIIPushSynchronized(viewer));
    PetscCall(PetscViewerASCIISynchronizedPrintf(viewer, "    [%d] %" PetscInt_FMT " block rows, %" PetscInt_FMT " blocks in the factor, %" PetscInt_FMT " colours, %" PetscInt_FMT " levels\n", (int)PetscGlobalRank, a->nb, a->nnzb, a->ncolors, a->nlevels));
    PetscCall(PetscViewerFlush(viewer));
    PetscCall(PetscViewerASCIIPopSynchronized(viewer));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode PCCreate_ASDDIC(PC pc)
{
  PC_ASDDIC *a = NULL;

  PetscFunctionBegin;
  PetscCall(PipeKSPPCInitializePackage());
  PetscCall(PetscNew(&a));
  a->ordering   = PIPEKSP_ORDERING_CMRCM;
  a->colors     = ASDDIC_DEFAULT_COLORS;
  a->block      = -1;
  a->iterations = 2;
  a->shifttype  = ASDDIC_SHIFT_DIAGONAL;
  a->threads    = 0; /* 0: the process's -pipeksp_threads, one team for the SpMV, the KSP and the sweeps */
  pc->data                 = (void *)a;
  pc->ops->setup           = PCSetUp_ASDDIC;
  pc->ops->apply           = PCApply_ASDDIC;
  pc->ops->reset           = PCReset_ASDDIC;
  pc->ops->destroy         = PCDestroy_ASDDIC;
  pc->ops->setfromoptions  = PCSetFromOptions_ASDDIC;
  pc->ops->view            = PCView_ASDDIC;
  PetscFunctionReturn(0);
}

/* ---- settings and inspection (no-ops / errors on other PC types) ---- */
static PetscErrorCode PCASDDICGet(PC pc, PC_ASDDIC **a)
{
  PetscBool flg;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCASDDIC, &flg));
  *a = flg ? (PC_ASDDIC *)pc->data : NULL;
  PetscFunctionReturn(0);
}

PetscErrorCode PCASDDICSetOrdering(PC pc, PipeKSPOrderingType type)
{
  PC_ASDDIC *a = NULL;

  PetscFunctionBegin;
  PetscCall(PCASDDICGet(pc, &a));
  PetscCheck(type >= PIPEKSP_ORDERING_CMRCM && type <= PIPEKSP_ORDERING_NATURAL, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "asddic: unknown ordering %d: use cmrcm, rcm, mc or natural", (int)type);
  if (a && a->ordering != type) {
    a->ordering = type;
    a->reorder  = PETSC_TRUE;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode PCASDDICSetColors(PC pc, PetscInt K)
{
  PC_ASDDIC *a = NULL;

  PetscFunctionBegin;
  PetscCall(PCASDDICGet(pc, &a));
  PetscCheck(K >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "asddic: the number of colours must be at least 1, got %" PetscInt_FMT ": use -pc_asddic_colors K with K >= 1", K);
  if (a && a->colors != K) {
    a->colors  = K;
    a->reorder = PETSC_TRUE;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode PCASDDICSetIterations(PC pc, PetscInt n)
{
  PC_ASDDIC *a = NULL;

  PetscFunctionBegin;
  PetscCall(PCASDDICGet(pc, &a));
  PetscCheck(n >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "asddic: the number of ASDD iterations must be at least 1 (1 = plain localized IC(0)), got %" PetscInt_FMT ": use -pc_asddic_iterations n with n >= 1", n);
  if (a) a->iterations = n;
  PetscFunctionReturn(0);
}

PetscErrorCode PCASDDICSetBlock(PC pc, PetscBool blk)
{
  PC_ASDDIC *a = NULL;

  PetscFunctionBegin;
  PetscCall(PCASDDICGet(pc, &a));
  if (a && a->block != (blk ? 1 : 0)) {
    a->block   = blk ? 1 : 0;
    a->reorder = PETSC_TRUE;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode PCASDDICSetThreads(PC pc, PetscInt nt)
{
  PC_ASDDIC *a = NULL;

  PetscFunctionBegin;
  PetscCall(PCASDDICGet(pc, &a));
  PetscCheck(nt >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "asddic: the number of threads must be at least 1, got %" PetscInt_FMT, nt);
#if defined(PIPEKSP_HAVE_OPENMP)
  if (a) a->threads = nt;
#else
  if (a) a->threads = 1;
#endif
  PetscFunctionReturn(0);
}

PetscErrorCode PCASDDICGetColoring(PC pc, PetscInt *bs, PetscInt *nblocks, PetscInt *ncolors, const PetscInt **colorptr, const PetscInt **perm, PetscBool *independent)
{
  PC_ASDDIC *a = NULL;

  PetscFunctionBegin;
  PetscCall(PCASDDICGet(pc, &a));
  PetscCheck(a, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_WRONG, "PCASDDICGetColoring() needs a PC of type asddic");
  PetscCheck(pc->setupcalled && a->perm, PetscObjectComm((PetscObject)pc), PETSC_ERR_ORDER, "PCASDDICGetColoring(): call PCSetUp() first");
  if (bs) *bs = a->bs;
  if (nblocks) *nblocks = a->nb;
  if (ncolors) *ncolors = a->ncolors;
  if (colorptr) *colorptr = a->colorptr;
  if (perm) *perm = a->perm;
  if (independent) *independent = a->independent;
  PetscFunctionReturn(0);
}

PetscErrorCode PCASDDICGetFactorInfo(PC pc, PetscReal *alpha, PetscInt *nsymbolic, PetscLogDouble *bytes)
{
  PC_ASDDIC *a = NULL;

  PetscFunctionBegin;
  PetscCall(PCASDDICGet(pc, &a));
  PetscCheck(a, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_WRONG, "PCASDDICGetFactorInfo() needs a PC of type asddic");
  if (alpha) *alpha = a->alpha;
  if (nsymbolic) *nsymbolic = a->nsymbolic;
  if (bytes) { /* least memory traffic of one local solve: L and U values and indices once, dinv, perm, r, z, work twice */
    PetscInt bs2 = a->bs * a->bs;
    *bytes = (PetscLogDouble)(a->nnzb - a->nb) * bs2 * sizeof(MatScalar) + (PetscLogDouble)(a->nnzb - a->nb) * sizeof(PetscInt) + 2.0 * (a->nb + 1) * sizeof(PetscInt) + (PetscLogDouble)a->nb * bs2 * sizeof(MatScalar) +
             (PetscLogDouble)a->nb * sizeof(PetscInt) + 4.0 * a->nb * a->bs * sizeof(PetscScalar);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode PipeKSPPCFinalizePackage(void)
{
  PetscFunctionBegin;
  ASDDICPackageInitialized = PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode PipeKSPPCInitializePackage(void)
{
  PetscFunctionBegin;
  if (ASDDICPackageInitialized) PetscFunctionReturn(0);
  ASDDICPackageInitialized = PETSC_TRUE;
  if (!PIPEKSP_CLASSID) PetscCall(PipeKSPInitializePackage());
  PetscCall(PetscLogEventRegister("ASDDICSetUp", PIPEKSP_CLASSID, &ASDDIC_SetUp));
  PetscCall(PetscLogEventRegister("ASDDICApply", PIPEKSP_CLASSID, &ASDDIC_Apply));
  PetscCall(PetscLogEventRegister("ASDDICSweep", PIPEKSP_CLASSID, &ASDDIC_Sweep));
  PetscCall(PetscRegisterFinalize(PipeKSPPCFinalizePackage));
  PetscFunctionReturn(0);
}
