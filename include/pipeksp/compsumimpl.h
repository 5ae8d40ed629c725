/* Private: compensated sums (Knuth's two-sum) and the local dot products built on them: pipeplcg's fused
   kernels (src/ksp/pipeplcgkernels.c, in PIPEKSP_LANES lanes), the dots that open chrongear's reductions
   (src/sys/vecpass.c, in native lanes) and the engine's compensated reduction (src/sys/progress.c). Not
   installed.

   Why compensated: CG's coefficients come from dot products, and their rounding in recursive summation
   (about sqrt(n) eps ||x|| ||y||) delays the Lanczos process; where they pay for their cost and where not is
   measured in docs/algorithms.md, section 5 (bench/dots_cg.sh). */
#ifndef PIPEKSP_COMPSUMIMPL_H
#define PIPEKSP_COMPSUMIMPL_H

#include <petscsys.h>
#include <string.h>
#if defined(__FAST_MATH__)
  #error "PipeKSP's compensated sums need IEEE arithmetic: build the files that include compsumimpl.h without -ffast-math"
#endif

/* s + c += x, with the rounding error of s + x kept in c (Knuth's two-sum: exact in IEEE arithmetic,
   componentwise for complex scalars and for GCC's vector types). T: the type of s, c and x. The files that
   expand it are built without contraction into FMA and without fast math (CMakeLists.txt, and the check
   above), either of which would break the exactness */
#define PIPEKSP_TWOSUM(T, s, c, x) \
  do { \
    T t_ = (s) + (x), b_ = t_ - (s); \
    (c) += ((s) - (t_ - b_)) + ((x)-b_); \
    (s) = t_; \
  } while (0)

static inline void PipeKSPTwoSum(PetscScalar *s, PetscScalar *c, PetscScalar x)
{
  PIPEKSP_TWOSUM(PetscScalar, *s, *c, x);
}

/* each sum runs in PIPEKSP_LANES lanes (rows i, i + 4, ... in lane 0, and so on), so that the two-sum's six
   extra additions per product vectorise: in scalars a pass took 1.5 times as long as recursive summation.
   -log_view counts the PIPEKSP_DOT_FLOPS of each entry (a product, the two-sum and its error's sum) */
#if defined(__GNUC__) && defined(PETSC_USE_REAL_DOUBLE) && !defined(PETSC_USE_COMPLEX)
  #define PIPEKSP_LANES 4
typedef double PipeKSPLanes __attribute__((vector_size(PIPEKSP_LANES * sizeof(double))));
  #define PipeKSPLanesConj(v) (v)
#else
  #define PIPEKSP_LANES       1
typedef PetscScalar PipeKSPLanes;
  #define PipeKSPLanesConj(v) PetscConj(v)
#endif
#define PIPEKSP_DOT_FLOPS      8.0
#define PipeKSPLanesLoad(v, x) memcpy(&(v), (x), sizeof(PipeKSPLanes)) /* unaligned */

typedef struct {
  PipeKSPLanes s, c; /* per lane: the sum and its rounding errors */
} PipeKSPAcc;
#if PIPEKSP_LANES > 1
  #define PIPEKSP_ACC_ZERO \
    { \
      {0}, \
      { \
        0 \
      } \
    }
#else
  #define PIPEKSP_ACC_ZERO \
    { \
      0, 0 \
    }
#endif

/* the compensated sum acc as hi + lo: the lanes added by two-sum, their errors after */
static inline void PipeKSPAccSum(const PipeKSPAcc *acc, PetscScalar *hi, PetscScalar *lo)
{
  PetscScalar s[PIPEKSP_LANES], c[PIPEKSP_LANES], sum = 0, err = 0;

  memcpy(s, &acc->s, sizeof(s));
  memcpy(c, &acc->c, sizeof(c));
  for (PetscInt q = 0; q < PIPEKSP_LANES; q++) {
    PipeKSPTwoSum(&sum, &err, s[q]);
    err += c[q];
  }
  *hi = sum;
  *lo = err;
}

/* acc += x_i y_i (the rows left over from the lanes in lane 0) */
static inline void PipeKSPAccAddRow(PipeKSPAcc *acc, PetscScalar xy)
{
  PetscScalar  x[PIPEKSP_LANES] = {0};
  PipeKSPLanes v;

  x[0] = xy;
  memcpy(&v, x, sizeof(v)); /* lanes 1.. stay 0 */
  PIPEKSP_TWOSUM(PipeKSPLanes, acc->s, acc->c, v);
}

/* acc[k] += sum_i u_i conj(w_k,i), k < nw, then acc[nw] += sum_i |y_i|^2 (y may be NULL), over rows [i0, i1),
   all in one loop: the sums' two-sum chains are independent, so they overlap (one chain at a time, a pass of
   four dots took chrongear's 200 iterations on ex2 600^2 1.29 times as long). Up to 6 columns (pipeplcg's
   depth 5's l + 1) the sums live in registers (a case per count): an array of them indexed at run time went
   through memory on every row, and the store-to-load latency set the pace */
static inline void PipeKSPAccDotsRows(PetscInt nw, PetscInt i0, PetscInt i1, const PetscScalar *u, const PetscScalar *const w[], const PetscScalar *y, PipeKSPAcc acc[])
{
  PetscInt i = i0, k;

#define PIPEKSP_DOTS_VEC(N) \
  do { \
    PipeKSPAcc a[7]; \
    for (k = 0; k <= N; k++) a[k] = acc[k]; \
    for (; i + PIPEKSP_LANES <= i1; i += PIPEKSP_LANES) { \
      PipeKSPLanes uu, x; \
      PipeKSPLanesLoad(uu, u + i); \
      for (k = 0; k < N; k++) { \
        PipeKSPLanesLoad(x, w[k] + i); \
        x = uu * PipeKSPLanesConj(x); \
        PIPEKSP_TWOSUM(PipeKSPLanes, a[k].s, a[k].c, x); \
      } \
      if (y) { \
        PipeKSPLanesLoad(x, y + i); \
        x = x * PipeKSPLanesConj(x); \
        PIPEKSP_TWOSUM(PipeKSPLanes, a[N].s, a[N].c, x); \
      } \
    } \
    for (k = 0; k <= N; k++) acc[k] = a[k]; \
  } while (0)
  switch (nw) {
  case 0:
    PIPEKSP_DOTS_VEC(0);
    break;
  case 1:
    PIPEKSP_DOTS_VEC(1);
    break;
  case 2:
    PIPEKSP_DOTS_VEC(2);
    break;
  case 3:
    PIPEKSP_DOTS_VEC(3);
    break;
  case 4:
    PIPEKSP_DOTS_VEC(4);
    break;
  case 5:
    PIPEKSP_DOTS_VEC(5);
    break;
  case 6:
    PIPEKSP_DOTS_VEC(6);
    break;
  default: /* not reached by the solver (nw <= l + 1): the rows below, one at a time */
    break;
  }
#undef PIPEKSP_DOTS_VEC
  for (; i < i1; i++) { /* the rows left over (or all of them), in lane 0 */
    for (k = 0; k < nw; k++) PipeKSPAccAddRow(&acc[k], u[i] * PetscConj(w[k][i]));
    if (y) PipeKSPAccAddRow(&acc[nw], y[i] * PetscConj(y[i]));
  }
}

/* chrongear's kernels (PipeKSPAccDotsFew(), src/sys/vecpasscomp.c) run in the target's native vector width,
   PIPEKSP_NLANES: GCC lowers the 4 lanes above to SSE2 poorly where AVX is off (Debian's default flags), and
   there plain sums in them cost 4 times as much as in 2 lanes; pipeplcg's kernels keep the 4 lanes their
   figures were measured with (docs/pipeplcg.md) */
#if defined(__GNUC__) && defined(PETSC_USE_REAL_DOUBLE) && !defined(PETSC_USE_COMPLEX)
  #if defined(__AVX__)
    #define PIPEKSP_NLANES 4
  #else
    #define PIPEKSP_NLANES 2
  #endif
typedef double PipeKSPNat __attribute__((vector_size(PIPEKSP_NLANES * sizeof(double))));
  #define PipeKSPNatConj(v) (v)
#else
  #define PIPEKSP_NLANES    1
typedef PetscScalar PipeKSPNat;
  #define PipeKSPNatConj(v) PetscConj(v)
#endif
#define PipeKSPNatLoad(v, x) memcpy(&(v), (x), sizeof(PipeKSPNat)) /* unaligned */

/* acc += the compensated sum (s, c) in native lanes */
static inline void PipeKSPAccAddNat(PipeKSPAcc *acc, PipeKSPNat s, PipeKSPNat c)
{
  PetscScalar ls[PIPEKSP_NLANES], lc[PIPEKSP_NLANES], hi = 0, lo = 0;

  memcpy(ls, &s, sizeof(ls));
  memcpy(lc, &c, sizeof(lc));
  for (PetscInt q = 0; q < PIPEKSP_NLANES; q++) {
    PipeKSPTwoSum(&hi, &lo, ls[q]);
    lo += lc[q];
  }
  PipeKSPAccAddRow(acc, hi);
  PipeKSPAccAddRow(acc, lo);
}

/* acc[k] += sum_i u_i conj(w_k,i), k < nw <= 2, over rows [i0, i1), compensated as PipeKSPAccDotsRows() (without
   y), in native lanes and four sums a dot on consecutive lane-vectors, added at the end: with one or two
   dots the two-sum's chain of additions would set the pace. 1 <= nw <= 2; acc holds nw sums. About 2 cycles
   a row a dot in SSE2's 2 lanes: the two-sum's seven operations */
static inline void PipeKSPAccDotsFew(PetscInt nw, PetscInt i0, PetscInt i1, const PetscScalar *u, const PetscScalar *const w[], PipeKSPAcc acc[])
{
  PipeKSPNat s[2][4], c[2][4];
  PetscInt   i = i0, k, j;

  memset(s, 0, sizeof(s));
  memset(c, 0, sizeof(c));
#define PIPEKSP_DOTS_FEW(N) \
  for (; i + 4 * PIPEKSP_NLANES <= i1; i += 4 * PIPEKSP_NLANES) \
    for (j = 0; j < 4; j++) { \
      PipeKSPNat uv, x; \
      PipeKSPNatLoad(uv, u + i + j * PIPEKSP_NLANES); \
      for (k = 0; k < N; k++) { \
        PipeKSPNatLoad(x, w[k] + i + j * PIPEKSP_NLANES); \
        x = uv * PipeKSPNatConj(x); \
        PIPEKSP_TWOSUM(PipeKSPNat, s[k][j], c[k][j], x); \
      } \
    }
  if (nw == 1) PIPEKSP_DOTS_FEW(1)
  else PIPEKSP_DOTS_FEW(2)
#undef PIPEKSP_DOTS_FEW
  for (k = 0; k < nw; k++)
    for (j = 0; j < 4; j++) PipeKSPAccAddNat(&acc[k], s[k][j], c[k][j]);
  for (; i < i1; i++)
    for (k = 0; k < nw; k++) PipeKSPAccAddRow(&acc[k], u[i] * PetscConj(w[k][i]));
}

/* the compensated sum rounded to one scalar */
static inline PetscScalar PipeKSPAccValue(const PipeKSPAcc *acc)
{
  PetscScalar hi, lo;

  PipeKSPAccSum(acc, &hi, &lo);
  return hi + lo;
}

#endif
