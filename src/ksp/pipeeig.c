/* The Lanczos tridiagonal T of a solve, from its coefficients, for KSPComputeEigenvalues() and
   KSPComputeExtremeSingularValues() as PETSc's cg gives them (-ksp_compute_eigenvalues,
   -ksp_monitor_singular_value, and a KSPCHEBYSHEV or PCGAMG eigenvalue estimate with one of ours as its
   KSP). From CG's alpha_j, beta_j: T_jj = 1/alpha_j + beta_j/alpha_{j-1}, T_{j-1,j} = sqrt(beta_j)/alpha_{j-1}.
   A restart (beta = 0) starts a new block: T's eigenvalues are then the Ritz values of each segment, every
   one inside the spectrum of M^{-1}A. */
#include <pipeksp/pipeimpl.h>
#include <petscblaslapack.h>

static PetscErrorCode KSPComputeEigenvalues_Pipe(KSP, PetscInt, PetscReal *, PetscReal *, PetscInt *);
static PetscErrorCode KSPComputeExtremeSingularValues_Pipe(KSP, PetscReal *, PetscReal *);

PetscErrorCode KSPPipeLanczosCreate_Private(KSP ksp)
{
  PetscFunctionBegin;
  ksp->ops->computeeigenvalues           = KSPComputeEigenvalues_Pipe;
  ksp->ops->computeextremesingularvalues = KSPComputeExtremeSingularValues_Pipe;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPPipeLanczosStart_Private(KSP ksp)
{
  KSPPipeLanczos *lz  = &((KSP_Pipe *)ksp->data)->lanczos;
  PetscInt        cap = KSPPipeMaxIt_Private(ksp) + 1; /* a solve takes at most one step per iteration */

  PetscFunctionBegin;
  lz->n = lz->seg = 0;
  lz->closed      = PETSC_FALSE;
  if (ksp->calc_sings && lz->cap < cap) {
    PetscCall(PetscFree2(lz->d, lz->e));
    PetscCall(PetscMalloc2(cap, &lz->d, cap, &lz->e));
    lz->cap = cap;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

void KSPPipeLanczosAdd_Private(KSP ksp, PetscScalar diag, PetscScalar off)
{
  KSPPipeLanczos *lz = &((KSP_Pipe *)ksp->data)->lanczos;

  if (lz->n >= lz->cap) return; /* not asked for (cap 0), or full */
  if (off == 0.0) {             /* a segment starts */
    lz->seg    = lz->n;
    lz->closed = PETSC_FALSE;
  }
  if (lz->closed) return;
  lz->d[lz->n] = PetscRealPart(diag);
  lz->e[lz->n] = lz->n ? PetscRealPart(off) : 0.0;
  lz->n++;
}

void KSPPipeLanczosCG_Private(KSP ksp, PetscScalar alpha, PetscScalar beta)
{
  KSPPipeLanczos *lz = &((KSP_Pipe *)ksp->data)->lanczos;

  if (!lz->cap) return;
  if (beta == 0.0) KSPPipeLanczosAdd_Private(ksp, 1.0 / alpha, 0.0);
  else KSPPipeLanczosAdd_Private(ksp, 1.0 / alpha + beta / lz->alphaold, PetscSqrtReal(PetscAbsScalar(beta)) / lz->alphaold);
  lz->alphaold = alpha;
}

/* the entries of a basis that then broke down: the last ones carry its lost orthogonality (Ritz values below
   the spectrum's bottom, measured on the cube at depth 5), which cg's do not */
void KSPPipeLanczosDrop_Private(KSP ksp, PetscInt k)
{
  KSPPipeLanczos *lz = &((KSP_Pipe *)ksp->data)->lanczos;

  lz->n = PetscMax(lz->seg, lz->n - k);
}

/* a segment's later entries would not be a Lanczos process's: no gap in T, so none until the next segment */
void KSPPipeLanczosClose_Private(KSP ksp)
{
  ((KSP_Pipe *)ksp->data)->lanczos.closed = PETSC_TRUE;
}

PetscErrorCode KSPPipeLanczosDestroy_Private(KSP ksp)
{
  KSPPipeLanczos *lz = &((KSP_Pipe *)ksp->data)->lanczos;

  PetscFunctionBegin;
  PetscCall(PetscFree2(lz->d, lz->e));
  lz->n = lz->cap = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the eigenvalues of T's leading n x n block, ascending (LAPACK's QL/QR for a symmetric tridiagonal) */
static PetscErrorCode TridiagEigenvalues(KSP ksp, PetscInt n, PetscReal *eig)
{
  KSPPipeLanczos *lz = &((KSP_Pipe *)ksp->data)->lanczos;
  PetscReal      *off, dummy = 0.0;
  PetscBLASInt    bn, one    = 1, info;

  PetscFunctionBegin;
  PetscCall(PetscBLASIntCast(n, &bn));
  PetscCall(PetscMalloc1(n, &off));
  for (PetscInt j = 0; j < n; j++) {
    eig[j] = lz->d[j];
    off[j] = j + 1 < n ? lz->e[j + 1] : 0.0; /* LAPACK's subdiagonal: off[j] couples j and j+1 */
  }
  PetscCallBLAS("LAPACKsteqr", LAPACKREALsteqr_("N", &bn, eig, off, &dummy, &one, &dummy, &info));
  PetscCall(PetscFree(off));
  PetscCheck(!info, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK steqr: %d eigenvalues of the Lanczos tridiagonal did not converge", (int)info);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the entries T has for the iterations done: cg's T_its (pipeplcg's deep basis has up to l more, of the
   vectors ahead of the iterate: left out, so that every type gives cg's estimates) */
static PetscInt LanczosCount(KSP ksp)
{
  return PetscMin(((KSP_Pipe *)ksp->data)->lanczos.n, ksp->its);
}

/* as cg's: every eigenvalue estimate (Ritz value), ascending, no imaginary parts; nmax below the count
   gives those of T's leading nmax x nmax block, the Lanczos tridiagonal of fewer steps */
static PetscErrorCode KSPComputeEigenvalues_Pipe(KSP ksp, PetscInt nmax, PetscReal *r, PetscReal *c, PetscInt *neig)
{
  PetscInt n = PetscMin(nmax, LanczosCount(ksp));

  PetscFunctionBegin;
  *neig = n;
  if (nmax > 0) PetscCall(PetscArrayzero(c, nmax));
  if (n > 0) PetscCall(TridiagEigenvalues(ksp, n, r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* as cg's: T's extreme eigenvalues (M^{-1}A is SPD, so they are its singular values' estimates too); 1, 1
   before any step */
static PetscErrorCode KSPComputeExtremeSingularValues_Pipe(KSP ksp, PetscReal *emax, PetscReal *emin)
{
  PetscInt   n = LanczosCount(ksp);
  PetscReal *eig;

  PetscFunctionBegin;
  if (!n) {
    *emax = *emin = 1.0;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscMalloc1(n, &eig));
  PetscCall(TridiagEigenvalues(ksp, n, eig));
  *emin = eig[0];
  *emax = eig[n - 1];
  PetscCall(PetscFree(eig));
  PetscFunctionReturn(PETSC_SUCCESS);
}
