/* The local kernel of asddic (docs/algorithms.md section 3): the pattern of the factor in the new
   numbering, numeric IC(0) or symmetric Gauss-Seidel (point or bs x bs block), and the split of the
   factor into the L and U copies the tuned sweeps read. */
#include <pipeksp/asddicimpl.h>

#define ASDDIC_SHIFT_FIRST  1e-3 /* the first diagonal shift alpha after a breakdown (PCASDDICSetShiftType()) */
#define ASDDIC_SHIFT_GROWTH 2    /* alpha's factor from one retry to the next */
#define ASDDIC_SHIFT_MAX    1e6  /* no retry with an alpha beyond: the PC fails */
/* a pivot at or below this times its row's diagonal entry is a breakdown, as PETSc's factorizations treat
   one below their zero-pivot tolerance (MatFactorInfo's zeropivot, 100 eps): past it M^{-1} has entries
   near 1/eps times A^{-1}'s */
#define ASDDIC_ZEROPIVOT    (100 * PETSC_MACHINE_EPSILON)
#define ASDDIC_LINE_SCALARS 8 /* MatScalars of a 64-byte cache line: a block's second line is prefetched too */

#define ASDDIC_INLINE static inline __attribute__((always_inline))
#if defined(__GNUC__)
  #define ASDDIC_PREFETCH(p) __builtin_prefetch(p)
#else
  #define ASDDIC_PREFETCH(p) ((void)0)
#endif

/* C -= A*B, bs x bs row-major */
ASDDIC_INLINE void BlkMultSub(PetscInt bs, const MatScalar *A, const MatScalar *B, MatScalar *C)
{
  for (PetscInt r = 0; r < bs; r++)
    for (PetscInt k = 0; k < bs; k++) {
      const MatScalar ark = A[r * bs + k];
      for (PetscInt c = 0; c < bs; c++) C[r * bs + c] -= ark * B[k * bs + c];
    }
}

/* C = A^T B */
ASDDIC_INLINE void BlkTMult(PetscInt bs, const MatScalar *A, const MatScalar *B, MatScalar *C)
{
  for (PetscInt i = 0; i < bs * bs; i++) C[i] = 0;
  for (PetscInt k = 0; k < bs; k++)
    for (PetscInt r = 0; r < bs; r++) {
      const MatScalar akr = A[k * bs + r];
      for (PetscInt c = 0; c < bs; c++) C[r * bs + c] += akr * B[k * bs + c];
    }
}

/* Inverse of a block that must be SPD: Cholesky of its symmetric part; PETSC_FALSE on a pivot at or
   below ASDDIC_ZEROPIVOT times the matrix's diagonal entry A0_jj (or NaN), whose value goes to *piv. wk: 2 bs^2. Not PETSc's
   PetscKernel_A_gets_inverse_A_3 (LU with pivoting): it does not see a negative pivot, IC(0)'s breakdown. */
static PetscBool BlkInvSPD(PetscInt bs, const MatScalar *A, const MatScalar *A0, MatScalar *Ainv, MatScalar *wk, PetscReal *piv)
{
  MatScalar *L = wk, *Li = wk + bs * bs;

  for (PetscInt i = 0; i < 2 * bs * bs; i++) wk[i] = 0;
  for (PetscInt j = 0; j < bs; j++) {
    PetscReal d = PetscRealPart(A[j * bs + j]);
    for (PetscInt k = 0; k < j; k++) d -= PetscRealPart(L[j * bs + k] * L[j * bs + k]);
    if (!(d > ASDDIC_ZEROPIVOT * PetscRealPart(A0[j * bs + j])) || PetscIsInfOrNanReal(d)) {
      *piv = d;
      return PETSC_FALSE;
    }
    L[j * bs + j] = PetscSqrtReal(d);
    for (PetscInt i = j + 1; i < bs; i++) {
      MatScalar s = 0.5 * (A[i * bs + j] + A[j * bs + i]);
      for (PetscInt k = 0; k < j; k++) s -= L[i * bs + k] * L[j * bs + k];
      L[i * bs + j] = s / L[j * bs + j];
    }
  }
  /* Li = L^{-1} (lower), Ainv = Li^T Li */
  for (PetscInt j = 0; j < bs; j++) {
    Li[j * bs + j] = 1.0 / L[j * bs + j];
    for (PetscInt i = j + 1; i < bs; i++) {
      MatScalar s = 0;
      for (PetscInt k = j; k < i; k++) s -= L[i * bs + k] * Li[k * bs + j];
      Li[i * bs + j] = s / L[i * bs + i];
    }
  }
  for (PetscInt r = 0; r < bs; r++)
    for (PetscInt c = 0; c < bs; c++) {
      MatScalar s = 0;
      for (PetscInt k = PetscMax(r, c); k < bs; k++) s += Li[k * bs + r] * Li[k * bs + c];
      Ainv[r * bs + c] = s;
    }
  *piv = 1;
  return PETSC_TRUE;
}

/* Pattern of the factor in the new numbering: the symmetric graph (xadj, adj) plus the diagonal,
   sorted rows; allocates the factor's arrays */
PetscErrorCode PCASDDICFactorSymbolic_Private(PC_ASDDIC *a, const PetscInt *xadj, const PetscInt *adj)
{
  const PetscInt nb = a->nb, bs = a->bs;

  PetscFunctionBegin;
  PetscCall(PetscMalloc3(nb + 1, &a->fi, xadj[nb] + nb, &a->fj, nb, &a->fdiag));
  a->fi[0] = 0;
  for (PetscInt i = 0; i < nb; i++) {
    PetscInt ib = a->perm[i], *row = a->fj + a->fi[i], len = 0;
    row[len++] = i;
    for (PetscInt p = xadj[ib]; p < xadj[ib + 1]; p++) row[len++] = a->iperm[adj[p]];
    a->fi[i + 1] = a->fi[i] + len;
  }
  PetscCall(PCASDDICSortedTranspose_Private(nb, a->fi, a->fj));
  for (PetscInt i = 0; i < nb; i++)
    for (PetscInt p = a->fi[i]; p < a->fi[i + 1]; p++)
      if (a->fj[p] == i) a->fdiag[i] = p;
  a->nnzb = a->fi[nb];
  /* fa0 has one more block: where the matrix entries between local blocks go, never read */
  PetscCall(PetscMalloc4(a->nnzb * bs * bs, &a->fa, (a->nnzb + 1) * bs * bs, &a->fa0, nb * bs * bs, &a->dinv, nb * bs, &a->work));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Up-looking IC(0) in LDL^T form on the symmetric pattern: row i of U (j >= i) gets
   A_ij - sum_k U_ki^T D_k^{-1} U_kj over the rows k < i that couple to i, and L_ik = U_ki^T D_k^{-1}.
   Only the upper parts are updated, half the work of a general ILU, and the factor is symmetric by
   construction. cur[k] walks row k's upper part: rows i reach k in increasing order, so the entry
   of column i in row k is always the next one. BS is a literal at the call sites (unrolled kernels).
   Without update (sgs) the same loop gives symmetric Gauss-Seidel, M = (D + L) D^{-1} (D + U): U and D
   are A's own blocks and L_ik = A_ki^T D_k^{-1}, the same sweeps apply it. */
ASDDIC_INLINE PetscBool FactorRows(PetscInt bs, PetscBool update, PC_ASDDIC *a, PetscInt *wmap, PetscInt *cur, MatScalar *W, MatScalar *wk, PetscInt *badrow, PetscReal *badpiv)
{
  const PetscInt  bs2 = bs * bs, nb = a->nb;
  const PetscInt *fi = a->fi, *fj = a->fj, *fdiag = a->fdiag;
  MatScalar      *fa = a->fa, *dinv = a->dinv;

  for (PetscInt k = 0; k < nb; k++) cur[k] = fdiag[k] + 1;
  for (PetscInt i = 0; i < nb; i++) {
    PetscReal piv;
    for (PetscInt p = fdiag[i]; p < fi[i + 1]; p++) wmap[fj[p]] = p;
    for (PetscInt p = fi[i]; p < fdiag[i]; p++) {
      const PetscInt k = fj[p], qi = cur[k]++;
      if (p + 1 < fdiag[i]) { /* the next row k is far away in a colour ordering: fetch it early */
        const PetscInt qn = cur[fj[p + 1]];
        ASDDIC_PREFETCH(fj + qn);
        ASDDIC_PREFETCH(fa + qn * bs2);
        ASDDIC_PREFETCH(fa + qn * bs2 + ASDDIC_LINE_SCALARS);
      }
      if (fj[qi] != i) { /* the pattern is not symmetric: cannot happen for the graph built in PCSetUp */
        *badrow = i;
        *badpiv = PETSC_MIN_REAL;
        return PETSC_FALSE;
      }
      BlkTMult(bs, fa + qi * bs2, dinv + k * bs2, W); /* L_ik = U_ki^T D_k^{-1} */
      if (update)
        for (PetscInt q = qi; q < fi[k + 1]; q++) {
          const PetscInt pj = wmap[fj[q]];
          if (pj >= 0) BlkMultSub(bs, W, fa + q * bs2, fa + pj * bs2);
        }
      for (PetscInt c = 0; c < bs2; c++) fa[p * bs2 + c] = W[c];
    }
    for (PetscInt p = fdiag[i]; p < fi[i + 1]; p++) wmap[fj[p]] = -1;
    if (bs == 1) {
      piv = PetscRealPart(fa[fdiag[i]]);
      if (!(piv > ASDDIC_ZEROPIVOT * PetscRealPart(a->fa0[fdiag[i]])) || PetscIsInfOrNanReal(piv)) {
        *badrow = i;
        *badpiv = piv;
        return PETSC_FALSE;
      }
      dinv[i] = 1.0 / fa[fdiag[i]];
    } else if (!BlkInvSPD(bs, fa + fdiag[i] * bs2, a->fa0 + fdiag[i] * bs2, dinv + i * bs2, wk, &piv)) {
      *badrow = i;
      *badpiv = piv;
      return PETSC_FALSE;
    }
  }
  return PETSC_TRUE;
}

/* IC(0) (or SGS, a->local) of a->fa0 (shifted by alpha*a_ii, Manteuffel, when alpha > 0) into
   a->fa and a->dinv. *ok: no non-positive pivot; *badrow: where it broke down. */
PetscErrorCode PCASDDICFactorNumeric_Private(PC_ASDDIC *a, PetscReal alpha, PetscBool *ok, PetscInt *badrow)
{
  const PetscInt  bs = a->bs, bs2 = bs * bs, nb = a->nb;
  const PetscInt *fdiag = a->fdiag;
  MatScalar      *fa    = a->fa, *W, *wk;
  PetscInt       *wmap, *cur;
  PetscReal       piv = 0;

  PetscFunctionBegin;
  *badrow = -1;
  PetscCall(PetscArraycpy(fa, a->fa0, a->nnzb * bs2));
  if (alpha > 0) /* the diagonal is positive (PCASDDICFactor_Private checked it): (1 + alpha) a_ii */
    for (PetscInt i = 0; i < nb; i++)
      for (PetscInt r = 0; r < bs; r++) fa[fdiag[i] * bs2 + r * bs + r] += alpha * fa[fdiag[i] * bs2 + r * bs + r];
  PetscCall(PetscMalloc4(nb, &wmap, nb, &cur, bs2, &W, 2 * bs2, &wk));
  for (PetscInt i = 0; i < nb; i++) wmap[i] = -1;
  if (a->local == PCASDDIC_LOCAL_SGS) *ok = FactorRows(bs, PETSC_FALSE, a, wmap, cur, W, wk, badrow, &piv);
  else switch (bs) {
    case 1:
      *ok = FactorRows(1, PETSC_TRUE, a, wmap, cur, W, wk, badrow, &piv);
      break;
    case 3:
      *ok = FactorRows(3, PETSC_TRUE, a, wmap, cur, W, wk, badrow, &piv);
      break;
    default:
      *ok = FactorRows(bs, PETSC_TRUE, a, wmap, cur, W, wk, badrow, &piv);
    }
  PetscCall(PetscFree4(wmap, cur, W, wk));
  PetscCheck(piv != PETSC_MIN_REAL, PETSC_COMM_SELF, PETSC_ERR_PLIB, "asddic: the factor's pattern is not symmetric at block row %" PetscInt_FMT, *badrow);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The sweeps read L and U from separate contiguous arrays (no skipping over the other half of each row) */
PetscErrorCode PCASDDICSplitSymbolic_Private(PC_ASDDIC *a)
{
  PetscInt nL = 0, nU = 0, bs2 = a->bs * a->bs;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < a->nb; i++) {
    nL += a->fdiag[i] - a->fi[i];
    nU += a->fi[i + 1] - a->fdiag[i] - 1;
  }
  PetscCall(PetscMalloc4(a->nb + 1, &a->li, nL + 1, &a->lj, a->nb + 1, &a->ui, nU + 1, &a->uj));
  PetscCall(PetscMalloc2(nL * bs2 + 1, &a->la, nU * bs2 + 1, &a->ua));
  /* U rows are stored last row first (slot k = nb-1-i), so that the backward sweep streams forward in memory */
  a->li[0] = a->ui[0] = 0;
  for (PetscInt i = 0; i < a->nb; i++) {
    PetscInt nl = a->fdiag[i] - a->fi[i];
    PetscCall(PetscArraycpy(a->lj + a->li[i], a->fj + a->fi[i], nl));
    a->li[i + 1] = a->li[i] + nl;
  }
  for (PetscInt k = 0; k < a->nb; k++) {
    PetscInt i = a->nb - 1 - k, nu = a->fi[i + 1] - a->fdiag[i] - 1;
    PetscCall(PetscArraycpy(a->uj + a->ui[k], a->fj + a->fdiag[i] + 1, nu));
    a->ui[k + 1] = a->ui[k] + nu;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PCASDDICSplitNumeric_Private(PC_ASDDIC *a)
{
  PetscInt bs2 = a->bs * a->bs;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < a->nb; i++) {
    PetscCall(PetscArraycpy(a->la + a->li[i] * bs2, a->fa + a->fi[i] * bs2, (a->li[i + 1] - a->li[i]) * bs2));
    PetscInt k = a->nb - 1 - i;
    PetscCall(PetscArraycpy(a->ua + a->ui[k] * bs2, a->fa + (a->fdiag[i] + 1) * bs2, (a->ui[k + 1] - a->ui[k]) * bs2));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The first diagonal entry of the local block that is not positive: *row its global row (-1: none) */
static PetscErrorCode FirstNonPositiveDiagonal(PC pc, PetscInt *row, PetscReal *value)
{
  PC_ASDDIC     *a  = (PC_ASDDIC *)pc->data;
  const PetscInt bs = a->bs, bs2 = bs * bs;
  PetscInt       rstart;

  PetscFunctionBegin;
  *row   = -1;
  *value = 0;
  PetscCall(MatGetOwnershipRange(pc->pmat, &rstart, NULL));
  for (PetscInt i = 0; i < a->nb && *row < 0; i++)
    for (PetscInt r = 0; r < bs; r++) {
      const PetscReal d = PetscRealPart(a->fa0[a->fdiag[i] * bs2 + r * bs + r]);
      if (!(d > 0) || PetscIsInfOrNanReal(d)) {
        *row   = rstart + a->perm[i] * bs + r;
        *value = d;
        break;
      }
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The numeric factorization of PCSetUp: IC(0) or SGS of a->fa0; on breakdown retried with a growing
   Manteuffel shift A + alpha diag(A) (-pc_asddic_shift diagonal). A diagonal entry that is not positive
   proves A is not SPD, and no shift can mend that: scaling it by 1 + alpha keeps its sign, and the former
   A + alpha |diag(A)| turned -4 into 0.096 and built an M^{-1} with 1e36 entries that every KSP took for
   converged. So that fails the PC at once, like a pivot no shift cures. Collective: every rank learns
   whether some rank failed, so the error or PC_FACTOR_NUMERIC_ZEROPIVOT is the same on all. */
PetscErrorCode PCASDDICFactor_Private(PC pc)
{
  PC_ASDDIC  *a      = (PC_ASDDIC *)pc->data;
  PetscInt    badrow = -1, fail[2], diagrow;
  PetscBool   ok;
  PetscReal   alpha = 0, diagval[2];
  PetscMPIInt rank;
  MPI_Comm    comm = PetscObjectComm((PetscObject)pc);

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  a->nshifts = 0;
  a->baddiag = -1;
  PetscCall(FirstNonPositiveDiagonal(pc, &diagrow, &diagval[1]));
  fail[0] = diagrow >= 0 ? 1 : 0;
  fail[1] = diagrow >= 0 ? (PetscInt)rank : -1;
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, fail, 2, MPIU_INT, MPI_MAX, comm));
  if (fail[0]) { /* the row and value of the highest failing rank, on every rank */
    diagval[0] = (PetscReal)diagrow;
    PetscCallMPI(MPI_Bcast(diagval, 2, MPIU_REAL, (PetscMPIInt)fail[1], comm));
    a->baddiag    = (PetscInt)diagval[0];
    a->baddiagval = diagval[1];
    a->failed     = PETSC_TRUE;
    a->alpha      = 0;
    PetscCall(PetscInfo(pc, "diagonal entry %g of row %" PetscInt_FMT " is not positive: the matrix is not SPD\n", (double)a->baddiagval, a->baddiag));
    PetscCall(PCSetFailedReason(pc, PC_FACTOR_NUMERIC_ZEROPIVOT));
    PetscCheck(!pc->erroriffailure, comm, PETSC_ERR_MAT_CH_ZRPVT, "asddic: diagonal entry %g of row %" PetscInt_FMT " is not positive: the matrix is not SPD, and no shift can make IC(0) or SGS of it SPD (a negative definite A: solve with -A)",
               (double)a->baddiagval, a->baddiag);
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PCASDDICFactorNumeric_Private(a, 0, &ok, &badrow));
  if (!ok && a->shifttype == PCASDDIC_SHIFT_DIAGONAL) {
    for (alpha = ASDDIC_SHIFT_FIRST; !ok && alpha < ASDDIC_SHIFT_MAX; alpha *= ASDDIC_SHIFT_GROWTH) {
      PetscCall(PetscInfo(pc, "%s broke down at local block row %" PetscInt_FMT ": retrying with diagonal shift alpha = %g\n", a->local == PCASDDIC_LOCAL_SGS ? "SGS" : "IC(0)", badrow, (double)alpha));
      a->nshifts++;
      PetscCall(PCASDDICFactorNumeric_Private(a, alpha, &ok, &badrow));
      if (ok) break;
    }
  }
  if (ok) PetscCall(PCASDDICSplitNumeric_Private(a));
  a->alpha = ok ? alpha : 0;
  if (a->alpha > 0) PetscCall(PetscInfo(pc, "local factorization succeeded with diagonal shift alpha = %g after %" PetscInt_FMT " retries\n", (double)a->alpha, a->nshifts));
  /* every rank learns whether some rank failed, so errors and PC_FAILED are collective */
  fail[0] = ok ? 0 : 1;
  fail[1] = ok ? -1 : (PetscInt)rank;
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, fail, 2, MPIU_INT, MPI_MAX, PetscObjectComm((PetscObject)pc)));
  a->failed = fail[0] ? PETSC_TRUE : PETSC_FALSE;
  if (a->failed) {
    PetscCall(PetscInfo(pc, "local factorization of the diagonal block failed (rank %" PetscInt_FMT ", shift %s)\n", fail[1], PCASDDICShiftTypes[a->shifttype]));
    PetscCall(PCSetFailedReason(pc, PC_FACTOR_NUMERIC_ZEROPIVOT));
    PetscCheck(!pc->erroriffailure, PetscObjectComm((PetscObject)pc), PETSC_ERR_MAT_CH_ZRPVT, "asddic: the %s of the local diagonal block hit a non-positive pivot on rank %" PetscInt_FMT " (shift %s): the matrix is not SPD or IC(0) is unstable for it; use -pc_asddic_shift diagonal, or a different preconditioner", a->local == PCASDDIC_LOCAL_SGS ? "SGS" : "IC(0)", fail[1], PCASDDICShiftTypes[a->shifttype]);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
