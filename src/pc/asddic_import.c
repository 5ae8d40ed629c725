/* Reading the local diagonal block of asddic's matrix: its graph in block rows, and its values into
   the permuted factor pattern. SeqAIJ and SeqBAIJ are read from their CSR arrays; any other type
   through MatGetRow. */
#include <pipeksp/asddicimpl.h>

/* The CSR structure of Ad for the fast paths, in blocks of the matrix for SeqBAIJ */
static PetscErrorCode RawGetIJ(Mat Ad, PCASDDICLayout kind, PetscInt *n, const PetscInt **ia, const PetscInt **ja)
{
  PetscBool done;

  PetscFunctionBegin;
  PetscCall(MatGetRowIJ(Ad, 0, PETSC_FALSE, kind != PCASDDIC_LAYOUT_AIJ ? PETSC_TRUE : PETSC_FALSE, n, ia, ja, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "asddic: cannot read the row structure of the local block");
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RawRestoreIJ(Mat Ad, PCASDDICLayout kind, PetscInt *n, const PetscInt **ia, const PetscInt **ja)
{
  PetscBool done;

  PetscFunctionBegin;
  PetscCall(MatRestoreRowIJ(Ad, 0, PETSC_FALSE, kind != PCASDDIC_LAYOUT_AIJ ? PETSC_TRUE : PETSC_FALSE, n, ia, ja, &done));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Which layout the set-up reads: the CSR arrays of SeqAIJ with point IC(0), of SeqBAIJ with block
   IC(0) on its own block size or with point IC(0); anything else through MatGetRow */
PetscErrorCode PCASDDICGetLayout_Private(Mat Ad, PetscInt bs, PCASDDICLayout *kind, PetscInt *rawbs)
{
  PetscBool aij, baij;
  PetscInt  mbs;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)Ad, MATSEQAIJ, &aij));
  PetscCall(PetscObjectTypeCompare((PetscObject)Ad, MATSEQBAIJ, &baij));
  PetscCall(MatGetBlockSize(Ad, &mbs));
  *kind  = (aij && bs == 1) ? PCASDDIC_LAYOUT_AIJ : (baij && bs == mbs) ? PCASDDIC_LAYOUT_BAIJ : (baij && bs == 1) ? PCASDDIC_LAYOUT_BAIJ_POINT : PCASDDIC_LAYOUT_GETROW;
  *rawbs = (*kind == PCASDDIC_LAYOUT_AIJ) ? 1 : mbs;
  if (*kind != PCASDDIC_LAYOUT_GETROW) { /* the structure must come back uncompressed: one row per (block) row of the matrix */
    PetscInt             n, m;
    const PetscInt      *ia, *ja;
    const PCASDDICLayout k = *kind;
    PetscCall(MatGetLocalSize(Ad, &m, NULL));
    PetscCall(RawGetIJ(Ad, k, &n, &ia, &ja));
    if (n != m / *rawbs) *kind = PCASDDIC_LAYOUT_GETROW;
    PetscCall(RawRestoreIJ(Ad, k, &n, &ia, &ja));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rows of a structurally symmetric CSR graph sorted in place: its transpose is the same graph, and
   building the transpose row by row lists every row's columns in increasing order. */
PetscErrorCode PCASDDICSortedTranspose_Private(PetscInt n, const PetscInt *xi, PetscInt *xj)
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
  PetscFunctionReturn(PETSC_SUCCESS);
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
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The graph of the local block Ad in block rows of size bs: symmetrized (the pattern of A + A^T),
   without self loops, rows sorted; xadj/adj are allocated here (PetscFree2). */
PetscErrorCode PCASDDICLocalGraph_Private(Mat Ad, PetscInt bs, PCASDDICLayout layout, PetscInt rawbs, PetscInt *nbout, PetscInt **xadjout, PetscInt **adjout)
{
  PetscInt m, nb, *mk, *cnt, *xadj, *adj, *tj, *ti, nz;

  PetscFunctionBegin;
  PetscCall(MatGetLocalSize(Ad, &m, NULL));
  nb = m / bs;
  /* unique block columns of each block row but the diagonal (ti/tj): read directly, or via a marker */
  PetscCall(PetscMalloc2(nb, &mk, nb + 1, &ti));
  ti[0] = 0;
  if (layout != PCASDDIC_LAYOUT_GETROW) {
    PetscInt        n;
    const PetscInt *ia, *ja;
    const PetscInt  e = rawbs / bs; /* factor rows per raw row: > 1 when point IC(0) reads a SeqBAIJ */
    PetscCall(RawGetIJ(Ad, layout, &n, &ia, &ja));
    PetscCall(PetscMalloc1(ia[n] * e * e + 1, &tj));
    for (PetscInt ib = 0; ib < nb; ib++) {
      const PetscInt rb = ib / e; /* the matrix's row (block) holding factor row ib */
      ti[ib + 1]        = ti[ib];
      for (PetscInt p = ia[rb]; p < ia[rb + 1]; p++)
        for (PetscInt c = 0; c < e; c++)
          if (ja[p] * e + c != ib) tj[ti[ib + 1]++] = ja[p] * e + c;
    }
    PetscCall(RawRestoreIJ(Ad, layout, &n, &ia, &ja));
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
      adj[cnt[ib]++]    = tj[p];
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
  PetscCall(PCASDDICSortedTranspose_Private(nb, xadj, adj));
  PetscCall(PetscFree(cnt));
  PetscCall(PetscFree2(mk, ti));
  PetscCall(PetscFree(tj));

  *nbout   = nb;
  *xadjout = xadj;
  *adjout  = adj;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Where each entry of Ad lands in the permuted factor (once per pattern). The fast paths index the
   raw value arrays: SeqAIJ in CSR order, SeqBAIJ block by block, each block column-major. */
PetscErrorCode PCASDDICBuildFillMap_Private(PC_ASDDIC *a, Mat Ad)
{
  const PetscInt bs = a->bs, bs2 = bs * bs, drop = a->nnzb; /* drop: fa0's scratch block */
  PetscInt       k = 0, cap, *pos, *part;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(a->nb, &pos, a->nb, &part));
  /* the local block of each (new) row: an entry between blocks lands in the scratch block */
  for (PetscInt q = 0; q < a->nparts; q++)
    for (PetscInt i = a->partptr[q]; i < a->partptr[q + 1]; i++) part[i] = q;
#define SLOT(i, j) (part[i] == part[j] ? pos[j] : drop)
  if (a->layout != PCASDDIC_LAYOUT_GETROW) {
    PetscInt        n;
    const PetscInt *ia, *ja;
    const PetscInt  rb = a->rawbs, rb2 = rb * rb, e = rb / bs; /* e factor (block) rows per raw row */
    PetscCall(RawGetIJ(Ad, a->layout, &n, &ia, &ja));
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
            const PetscInt base = SLOT(i, a->iperm[ja[p] * e + C / bs]) * bs2 + C % bs;
            for (PetscInt r = 0; r < bs; r++) a->fmap[p * rb2 + C * rb + fr * bs + r] = base + r * bs;
          }
      }
    PetscCall(RawRestoreIJ(Ad, a->layout, &n, &ia, &ja));
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
      for (PetscInt j = 0; j < nc; j++) a->fmap[k++] = SLOT(i, a->iperm[cols[j] / bs]) * bs2 + (r % bs) * bs + cols[j] % bs;
      PetscCall(MatRestoreRow(Ad, r, &nc, &cols, NULL));
    }
  }
#undef SLOT
  PetscCall(PetscFree2(pos, part));
  a->nfmap = k;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Copies the values of Ad into the permuted pattern (a->fa0) */
PetscErrorCode PCASDDICFillValues_Private(PC_ASDDIC *a, Mat Ad)
{
  PetscInt k = 0;

  PetscFunctionBegin;
  PetscCall(PetscArrayzero(a->fa0, a->nnzb * a->bs * a->bs));
  if (a->layout != PCASDDIC_LAYOUT_GETROW) {
    PetscInt           n;
    const PetscInt    *ia, *ja;
    const PetscScalar *aa, *ab;
    PetscCall(RawGetIJ(Ad, a->layout, &n, &ia, &ja));
    k = ia[n] * a->rawbs * a->rawbs;
    PetscCall(RawRestoreIJ(Ad, a->layout, &n, &ia, &ja));
    PetscCheck(k == a->nfmap, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "asddic: the nonzero pattern changed although SAME_NONZERO_PATTERN was given: use DIFFERENT_NONZERO_PATTERN");
    if (a->layout == PCASDDIC_LAYOUT_AIJ) {
      PetscCall(MatSeqAIJGetArrayRead(Ad, &aa));
      for (PetscInt j = 0; j < k; j++) a->fa0[a->fmap[j]] = aa[j];
      PetscCall(MatSeqAIJRestoreArrayRead(Ad, &aa));
    } else {
      PetscCall(PipeKSPMatSeqBAIJGetArrayRead(Ad, &ab));
      for (PetscInt j = 0; j < k; j++) a->fa0[a->fmap[j]] = ab[j];
      PetscCall(PipeKSPMatSeqBAIJRestoreArrayRead(Ad, &ab));
    }
    PetscFunctionReturn(PETSC_SUCCESS);
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
  PetscFunctionReturn(PETSC_SUCCESS);
}
