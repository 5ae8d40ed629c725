/* Private: the serial SpMV kernels, y = Ad x over a range of rows of a SeqAIJ/SeqBAIJ block, as inline
   functions shared by the single-thread product (src/mat/matmult.c) and the threaded one
   (src/mat/spmv_omp.c), so both compute every row with the same code in the same order. Not installed. */
#ifndef PIPEKSP_SPMVKERNELS_H
#define PIPEKSP_SPMVKERNELS_H

#include <pipeksp/pipekspimpl.h>

#if defined(__GNUC__)
  #define PIPEKSP_INLINE static inline __attribute__((always_inline))
#else
  #define PIPEKSP_INLINE static inline
#endif

#if PIPEKSP_BS_MAX != 8
  #error "PipeKSPSpMVKernelBAIJ unrolls the block sizes up to 8: extend its cases with PIPEKSP_BS_MAX"
#endif

#define PIPEKSP_SPMV_NODE_MAX 5 /* rows sharing one column list that AIJ multiplies together */

/* AIJ: one node of g consecutive rows that share the column list (so row k's values start at v + k n);
   inlined with a constant g so that the g sums stay in registers */
PIPEKSP_INLINE void PipeKSPSpMVAIJNode(const PetscInt g, PetscInt n, const PetscInt *idx, const PetscScalar *v, const PetscScalar *x, PetscScalar *y)
{
  PetscScalar s[PIPEKSP_SPMV_NODE_MAX] = {0, 0, 0, 0, 0};

  for (PetscInt j = 0; j < n; j++) {
    const PetscScalar xj = x[idx[j]];
    for (PetscInt k = 0; k < g; k++) s[k] += v[k * n + j] * xj;
  }
  for (PetscInt k = 0; k < g; k++) y[k] = s[k];
}

/* AIJ: nodes [k0, k1), node k covering rows r..r+nodes[k]-1 (at most PIPEKSP_SPMV_NODE_MAX) */
static inline void PipeKSPSpMVKernelAIJ(const PetscInt *nodes, PetscInt k0, PetscInt k1, PetscInt r, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, const PetscScalar *x, PetscScalar *y)
{
  for (PetscInt k = k0; k < k1; k++) {
    const PetscInt     sz = nodes[k], n = ai[r + 1] - ai[r];
    const PetscInt    *idx = aj + ai[r];
    const PetscScalar *v   = aa + ai[r];

    /* the next group's indices and values, assuming its shape is this one's */
    PetscPrefetchBlock(idx + sz * n, n, 0, PETSC_PREFETCH_HINT_NTA);
    PetscPrefetchBlock(v + sz * n, sz * n, 0, PETSC_PREFETCH_HINT_NTA);
    switch (sz) {
    case 1:
      PipeKSPSpMVAIJNode(1, n, idx, v, x, y + r);
      break;
    case 2:
      PipeKSPSpMVAIJNode(2, n, idx, v, x, y + r);
      break;
    case 3:
      PipeKSPSpMVAIJNode(3, n, idx, v, x, y + r);
      break;
    case 4:
      PipeKSPSpMVAIJNode(4, n, idx, v, x, y + r);
      break;
    default:
      PipeKSPSpMVAIJNode(PIPEKSP_SPMV_NODE_MAX, n, idx, v, x, y + r);
    }
    r += sz;
  }
}

/* BAIJ bs = 3 (the cube): blocks are stored column-major */
static inline void PipeKSPSpMVBAIJ3(PetscInt b0, PetscInt b1, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, const PetscScalar *x, PetscScalar *y)
{
  for (PetscInt i = b0; i < b1; i++) {
    const PetscInt     n   = ai[i + 1] - ai[i];
    const PetscInt    *idx = aj + ai[i];
    const PetscScalar *v   = aa + 9 * ai[i];
    PetscScalar        s1 = 0, s2 = 0, s3 = 0;

    /* the next block row, assuming its length is this one's (measured: ~5-10% on the cube) */
    PetscPrefetchBlock(idx + n, n, 0, PETSC_PREFETCH_HINT_NTA);
    PetscPrefetchBlock(v + 9 * n, 9 * n, 0, PETSC_PREFETCH_HINT_NTA);
    for (PetscInt j = 0; j < n; j++, v += 9) {
      const PetscScalar *xb = x + 3 * idx[j];
      const PetscScalar  x1 = xb[0], x2 = xb[1], x3 = xb[2];
      s1 += v[0] * x1 + v[3] * x2 + v[6] * x3;
      s2 += v[1] * x1 + v[4] * x2 + v[7] * x3;
      s3 += v[2] * x1 + v[5] * x2 + v[8] * x3;
    }
    y[3 * i]     = s1;
    y[3 * i + 1] = s2;
    y[3 * i + 2] = s3;
  }
}

/* BAIJ, any bs; inlined so that a constant bs (the small cases below) lets the compiler unroll the block.
   s holds bs partial sums. */
PIPEKSP_INLINE void PipeKSPSpMVBAIJBlock(const PetscInt bs, PetscInt b0, PetscInt b1, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, const PetscScalar *x, PetscScalar *y, PetscScalar *s)
{
  for (PetscInt i = b0; i < b1; i++) {
    const PetscInt     n   = ai[i + 1] - ai[i];
    const PetscInt    *idx = aj + ai[i];
    const PetscScalar *v   = aa + bs * bs * ai[i];

    for (PetscInt r = 0; r < bs; r++) s[r] = 0;
    for (PetscInt j = 0; j < n; j++, v += bs * bs) {
      const PetscScalar *xb = x + bs * idx[j];
      for (PetscInt cidx = 0; cidx < bs; cidx++)
        for (PetscInt r = 0; r < bs; r++) s[r] += v[cidx * bs + r] * xb[cidx];
    }
    for (PetscInt r = 0; r < bs; r++) y[bs * i + r] = s[r];
  }
}

/* BAIJ: block rows [b0, b1); work holds bs sums when bs > PIPEKSP_BS_MAX (NULL otherwise) */
static inline void PipeKSPSpMVKernelBAIJ(PetscInt bs, PetscScalar *work, PetscInt b0, PetscInt b1, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, const PetscScalar *x, PetscScalar *y)
{
  PetscScalar s[PIPEKSP_BS_MAX];

  switch (bs) {
  case 1:
    PipeKSPSpMVBAIJBlock(1, b0, b1, ai, aj, aa, x, y, s);
    break;
  case 2:
    PipeKSPSpMVBAIJBlock(2, b0, b1, ai, aj, aa, x, y, s);
    break;
  case 3:
    PipeKSPSpMVBAIJ3(b0, b1, ai, aj, aa, x, y);
    break;
  case 4:
    PipeKSPSpMVBAIJBlock(4, b0, b1, ai, aj, aa, x, y, s);
    break;
  case 5:
    PipeKSPSpMVBAIJBlock(5, b0, b1, ai, aj, aa, x, y, s);
    break;
  case 6:
    PipeKSPSpMVBAIJBlock(6, b0, b1, ai, aj, aa, x, y, s);
    break;
  case 7:
    PipeKSPSpMVBAIJBlock(7, b0, b1, ai, aj, aa, x, y, s);
    break;
  case 8:
    PipeKSPSpMVBAIJBlock(8, b0, b1, ai, aj, aa, x, y, s);
    break; /* PIPEKSP_BS_MAX */
  default:
    PipeKSPSpMVBAIJBlock(bs, b0, b1, ai, aj, aa, x, y, work);
  }
}

#endif
