/* The public API of KSPPIPEPLCG (as PETSc's cgtype.c): depth, the interval of the shifts and its
   estimate, with their man pages. Each calls the method pipeplcg.c composed; on other KSP types a setter
   is a no-op and a getter an error, PETSc style. */
#include <pipeksp/pipeimpl.h>

/*@
   KSPPipePLCGSetDepth - Sets the pipeline depth l of `KSPPIPEPLCG`: each reduction overlaps the SpMVs and
   preconditioner applications of the next l iterations, so up to l reductions are in flight.

   Logically Collective

   Input Parameters:
+  ksp - the Krylov solver
-  l - the depth, 0 to 5, or `PETSC_DECIDE` (the default): chosen at the first solve

   Options Database Key:
.  -ksp_pipe_depth <l> - the depth 0..5, or auto (-1 is refused there: write auto)

   Notes:
   Depth 0 is no basis pipeline: Gropp's CG (`KSPPIPEGROPP`'s iterations), cg's recurrences with two reductions
   per iteration, one overlapped with the PC application and the other with the SpMV (no shifts, no
   eigenvalue estimate).

   With `PETSC_DECIDE` the first solve, and the first after the operator or preconditioning matrix changes,
   measures on the KSP's communicator the latency of a blocking reduction and the time of one SpMV with one
   PC application and of one vector pass, and what one iteration's SpMV and PC hide of a reduction on the
   solver's progress engine (medians of a few repetitions, the slowest rank's), and chooses the depth 0..3 of
   least modelled time per iteration, a deeper one only when modelled 5% faster (docs/pipeplcg.md; depths 4
   and 5 are left to the user: they cost more iterations and were measured no faster than 3), and a depth of 1
   or more only where one iteration hides at least 5% of the reduction: where nothing progresses, a pipeline
   would only merge Gropp's two reductions into the single-reduction recurrences, whose rounding loses to cg's
   on wide spectra. The measurements cost about 16 SpMVs and PC applications and 24 reductions. -ksp_view
   shows the figures and the choice. A solve still lowers its depth after a breakdown, as with a given depth.

   Level: intermediate

.seealso: `KSPPIPEPLCG`, `KSPPipePLCGSetEigenvalueBounds()`
@*/
PetscErrorCode KSPPipePLCGSetDepth(KSP ksp, PetscInt l)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveInt(ksp, l, 2);
  PetscTryMethod(ksp, "KSPPipePLCGSetDepth_C", (KSP, PetscInt), (ksp, l));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   KSPPipePLCGGetDepth - Gets the pipeline depth of `KSPPIPEPLCG`: the depth its solves start at.

   Not Collective

   Input Parameter:
.  ksp - the Krylov solver

   Output Parameter:
.  l - the depth 0..5: the one set, or with `PETSC_DECIDE` (auto) the one chosen at the last measurement,
       `PETSC_DECIDE` before the first solve

   Notes:
   As PETSc's sizes given as `PETSC_DECIDE`, the getter returns the value decided. A solve that lowered its
   depth after a breakdown does not change it: `KSPPipeGetStats()` gives the depth the last solve ended at.

   Level: intermediate

.seealso: `KSPPIPEPLCG`, `KSPPipePLCGSetDepth()`
@*/
PetscErrorCode KSPPipePLCGGetDepth(KSP ksp, PetscInt *l)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscAssertPointer(l, 2);
  PetscUseMethod(ksp, "KSPPipePLCGGetDepth_C", (KSP, PetscInt *), (ksp, l));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   KSPPipePLCGSetEigenvalueBounds - Sets the interval [lmin, lmax] that contains the spectrum of M^{-1}A;
   the shifts of the `KSPPIPEPLCG` basis are the Chebyshev roots of this interval.

   Logically Collective

   Input Parameters:
+  ksp - the Krylov solver
.  lmin - lower end, >= 0
-  lmax - upper end, > lmin; lmin = lmax = 0 goes back to the estimate

   Options Database Key:
.  -ksp_pipe_eig_bounds <lmin,lmax> - the interval

   Notes:
   By default the interval is [0, f theta], theta the largest Ritz value of a few CG iterations
   (`KSPPipePLCGSetEstimateIterations()`) on a random right-hand side, made again when the matrices change,
   and f chosen by the top of the spectrum that they show (`KSPPipePLCGSetEstimateFactor()`).

   The interval must be one the arithmetic can carry, else it is refused with an error: finite,
   0 <= lmin < lmax, 1e-50 <= lmax <= 1e50 (the basis holds powers of the operator up to lmax^l, their dot
   products lmax^(2l)) and lmax/lmin <= 1e15 (beyond, lmin is below the rounding of lmax). An interval that
   is usable but wrong (it misses much of the spectrum) makes the deep recurrences break down or the basis
   grow: the solve then restarts and lowers its depth, down to 1, which needs no interval.

   Level: intermediate

.seealso: `KSPPIPEPLCG`, `KSPPipePLCGGetEigenvalueBounds()`, `KSPPipePLCGSetEstimateIterations()`
@*/
PetscErrorCode KSPPipePLCGSetEigenvalueBounds(KSP ksp, PetscReal lmin, PetscReal lmax)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveReal(ksp, lmin, 2);
  PetscValidLogicalCollectiveReal(ksp, lmax, 3);
  PetscTryMethod(ksp, "KSPPipePLCGSetEigenvalueBounds_C", (KSP, PetscReal, PetscReal), (ksp, lmin, lmax));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   KSPPipePLCGGetEigenvalueBounds - Gets the interval of the shifts of `KSPPIPEPLCG` (given, or estimated at the last solve).

   Not Collective

   Input Parameter:
.  ksp - the Krylov solver

   Output Parameters:
+  lmin - lower end (may be NULL)
-  lmax - upper end (may be NULL)

   Level: intermediate

.seealso: `KSPPIPEPLCG`, `KSPPipePLCGSetEigenvalueBounds()`
@*/
PetscErrorCode KSPPipePLCGGetEigenvalueBounds(KSP ksp, PetscReal *lmin, PetscReal *lmax)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscUseMethod(ksp, "KSPPipePLCGGetEigenvalueBounds_C", (KSP, PetscReal *, PetscReal *), (ksp, lmin, lmax));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   KSPPipePLCGSetEstimateIterations - Sets how many CG iterations estimate the spectrum of M^{-1}A for the
   shifts of `KSPPIPEPLCG` (when no interval is given).

   Logically Collective

   Input Parameters:
+  ksp - the Krylov solver
-  n - iterations, >= 2 (default 10)

   Options Database Key:
.  -ksp_pipe_eig_its <n> - the iterations

   Level: advanced

.seealso: `KSPPIPEPLCG`, `KSPPipePLCGSetEigenvalueBounds()`
@*/
PetscErrorCode KSPPipePLCGSetEstimateIterations(KSP ksp, PetscInt n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveInt(ksp, n, 2);
  PetscTryMethod(ksp, "KSPPipePLCGSetEstimateIterations_C", (KSP, PetscInt), (ksp, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   KSPPipePLCGSetEstimateFactor - Sets f in the estimated interval [0, f theta] of `KSPPIPEPLCG`, theta the
   largest Ritz value of the start-up CG iterations.

   Logically Collective

   Input Parameters:
+  ksp - the Krylov solver
-  f - the factor, in [0.1, 10], or `PETSC_DECIDE` (the default): by the top of the spectrum

   Options Database Key:
.  -ksp_pipe_eig_factor <f> - the factor (-1 or DECIDE: by the top of the spectrum)

   Notes:
   With `PETSC_DECIDE` the estimate's own Lanczos tridiagonal tells the shape of the spectrum's top: the
   quadrature weight w of the largest Ritz value of its first n = 10 steps. n^2 w stays about constant in n
   where the density is positive up to the largest eigenvalue (a Laplacian with Jacobi: 2-5), is small where
   a few eigenvalues stand above the bulk (the elasticity cube with Jacobi, PETSc's ex56: 0.02-0.8) and large
   where most of the spectrum is one eigenvalue (a near-exact PC: 26-99). A dense top (1 <= n^2 w <= 25)
   takes f = 1, the shifts reaching the top; otherwise f = 0.93, the shifts stopping nearer the bulk. Either
   way the other choice made the deep basis break down mid-solve at depths 3-5 (PETSc's ex2 at 0.93, the cube
   at 1). -ksp_view shows the weight and the choice.

   Level: advanced

.seealso: `KSPPIPEPLCG`, `KSPPipePLCGSetEigenvalueBounds()`, `KSPPipePLCGSetEstimateIterations()`
@*/
PetscErrorCode KSPPipePLCGSetEstimateFactor(KSP ksp, PetscReal f)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveReal(ksp, f, 2);
  PetscTryMethod(ksp, "KSPPipePLCGSetEstimateFactor_C", (KSP, PetscReal), (ksp, f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   KSPPipePLCGSetEstimateReuse - Sets whether `KSPPIPEPLCG` takes the interval of its shifts for a changed
   operator from the previous solve's Ritz values instead of estimating it again.

   Logically Collective

   Input Parameters:
+  ksp - the Krylov solver
-  flg - `PETSC_TRUE` (default) to reuse

   Options Database Key:
.  -ksp_pipe_eig_reuse <bool> - reuse the previous solve's Ritz values

   Notes:
   p(l)-CG computes the Lanczos coefficients of M^{-1}A as it iterates. At the end of each solve the largest
   Ritz value of its tridiagonal (from a run of at least `KSPPipePLCGSetEstimateIterations()` steps without a
   restart) is kept; a later solve whose matrices are the same objects with new values (a time step, a Newton
   step) and whose PC has the same type takes [0, f theta] from it, with no SpMV or preconditioner application
   for an estimate. New matrix objects, a new PC type or no such solve yet: the estimate runs as before. A
   spectrum that has moved past the kept interval makes the basis grow, which lowers the depth for that
   solve, and its own Ritz values refresh the interval.

   Level: intermediate

.seealso: `KSPPIPEPLCG`, `KSPPipePLCGSetEstimateIterations()`, `KSPPipePLCGSetEigenvalueBounds()`
@*/
PetscErrorCode KSPPipePLCGSetEstimateReuse(KSP ksp, PetscBool flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveBool(ksp, flg, 2);
  PetscTryMethod(ksp, "KSPPipePLCGSetEstimateReuse_C", (KSP, PetscBool), (ksp, flg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   KSPPipePLCGGetEstimateReuse - Gets whether `KSPPIPEPLCG` reuses the previous solve's Ritz values for a
   changed operator.

   Not Collective

   Input Parameter:
.  ksp - the Krylov solver

   Output Parameter:
.  flg - `PETSC_TRUE` when it does

   Level: intermediate

.seealso: `KSPPIPEPLCG`, `KSPPipePLCGSetEstimateReuse()`
@*/
PetscErrorCode KSPPipePLCGGetEstimateReuse(KSP ksp, PetscBool *flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscAssertPointer(flg, 2);
  PetscUseMethod(ksp, "KSPPipePLCGGetEstimateReuse_C", (KSP, PetscBool *), (ksp, flg));
  PetscFunctionReturn(PETSC_SUCCESS);
}
