/* PC asddic's public API, as PETSc's jacobi: each PCASDDICSet*() reaches the PC's method with
   PetscTryMethod() (a no-op on other PC types), each PCASDDICGet*() with PetscUseMethod() (an error
   there). The methods and the PC itself: asddic.c. */
#include <pipeksp/asddicimpl.h>
#include <pipeksp/threadsimpl.h>

/*@
   PCASDDICSetOrdering - Sets the local ordering of the rows of the kernel of `PCASDDIC`

   Logically Collective

   Input Parameters:
+  pc - the preconditioner context
-  type - `PCASDDIC_ORDERING_CMRCM` (cyclic multicolouring of RCM levels), `PCASDDIC_ORDERING_RCM`,
          `PCASDDIC_ORDERING_MC` (greedy multicolouring) or `PCASDDIC_ORDERING_NATURAL`

   Options Database Key:
.  -pc_asddic_ordering <cmrcm,rcm,mc,natural> - the ordering

   Level: intermediate

   Note:
   Without this call the ordering follows the threads of the sweeps: RCM with one thread (fewest
   iterations), CM-RCM with more (the threads share each colour), RCM inside each block with local
   blocks (`PCASDDICSetLocalBlocks()`). The colour orderings (cmrcm, mc) cannot be combined with local
   blocks: this call refuses them while more than one local block is set. Changing it after set-up makes
   the next set-up recompute the ordering.

.seealso: `PCASDDIC`, `PCASDDICGetOrdering()`, `PCASDDICSetColors()`, `PCASDDICSetThreads()`, `PCASDDICGetColoring()`
@*/
PetscErrorCode PCASDDICSetOrdering(PC pc, PCASDDICOrderingType type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, type, 2);
  PetscCheck(type >= PCASDDIC_ORDERING_CMRCM && type <= PCASDDIC_ORDERING_NATURAL, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "asddic: unknown ordering %d: use cmrcm, rcm, mc or natural", (int)type);
  PetscTryMethod(pc, "PCASDDICSetOrdering_C", (PC, PCASDDICOrderingType), (pc, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCASDDICGetOrdering - Gets the setting of `PCASDDICSetOrdering()` of `PCASDDIC`

   Not Collective

   Input Parameter:
.  pc - the preconditioner context

   Output Parameter:
.  type - the ordering the next set-up uses: the one set, else the default for the threads (`PCASDDICSetOrdering()`)

   Level: intermediate

.seealso: `PCASDDIC`, `PCASDDICSetOrdering()`
@*/
PetscErrorCode PCASDDICGetOrdering(PC pc, PCASDDICOrderingType *type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscAssertPointer(type, 2);
  PetscUseMethod(pc, "PCASDDICGetOrdering_C", (PC, PCASDDICOrderingType *), (pc, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCASDDICSetColors - Sets the number of colours of the CM-RCM and MC orderings of `PCASDDIC`

   Logically Collective

   Input Parameters:
+  pc - the preconditioner context
-  K - colours, at least 1 (default 20; level l of RCM gets colour l mod K, raised until every colour is
       an independent set, so a 27-point graph gets at least 8)

   Options Database Key:
.  -pc_asddic_colors <K> - the colours

   Level: intermediate

   Note:
   More colours converge closer to RCM; fewer leave more rows per colour for the threads.

.seealso: `PCASDDIC`, `PCASDDICGetColors()`, `PCASDDICSetOrdering()`
@*/
PetscErrorCode PCASDDICSetColors(PC pc, PetscInt K)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, K, 2);
  PetscCheck(K >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "asddic: the number of colours must be at least 1, got %" PetscInt_FMT ": use -pc_asddic_colors K with K >= 1", K);
  PetscTryMethod(pc, "PCASDDICSetColors_C", (PC, PetscInt), (pc, K));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCASDDICGetColors - Gets the setting of `PCASDDICSetColors()` of `PCASDDIC`

   Not Collective

   Input Parameter:
.  pc - the preconditioner context

   Output Parameter:
.  K - the colours of the CM-RCM and MC orderings

   Level: intermediate

.seealso: `PCASDDIC`, `PCASDDICSetColors()`
@*/
PetscErrorCode PCASDDICGetColors(PC pc, PetscInt *K)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscAssertPointer(K, 2);
  PetscUseMethod(pc, "PCASDDICGetColors_C", (PC, PetscInt *), (pc, K));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCASDDICSetLocalBlocks - Splits each rank's rows into contiguous blocks for the local kernel of `PCASDDIC`

   Logically Collective

   Input Parameters:
+  pc - the preconditioner context
-  k - blocks per rank, at least 1 (default 1)

   Options Database Key:
.  -pc_asddic_local_blocks <k> - the blocks

   Level: intermediate

   Notes:
   Block q holds the rows q nb/k to (q+1) nb/k - 1 of the rank's nb block rows, in the matrix's numbering.
   The couplings between blocks are dropped, as between ranks: the local kernel is block Jacobi over the
   blocks, IC(0) (or SGS) of each, so it stays symmetric positive definite for an SPD matrix, and the
   ASDD sweeps correct for the dropped couplings as they do for the ranks'. Each block is ordered (RCM by
   default) and swept on its own by one thread, with no barrier; the threads share the blocks (with more
   blocks than threads a thread sweeps several). The colour orderings (cmrcm, mc) are refused while
   k > 1, here if one was set with `PCASDDICSetOrdering()`. A rank with fewer than k block rows uses one
   block per block row. With k equal to the threads a hybrid run sweeps as flat MPI with k times the ranks
   does, with the same memory access. The blocks are slices of the rank's rows in the matrix's numbering:
   they reproduce the preconditioner of k ranks only where the ranks' rows are such slices too (a
   partition in slabs along the slowest index, as the cube on a 1 x 1 x p process grid). The result does
   not depend on the threads.

.seealso: `PCASDDIC`, `PCASDDICGetLocalBlocks()`, `PCASDDICSetOrdering()`, `PCASDDICSetThreads()`
@*/
PetscErrorCode PCASDDICSetLocalBlocks(PC pc, PetscInt k)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, k, 2);
  PetscCheck(k >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "asddic: the number of local blocks must be at least 1, got %" PetscInt_FMT ": use -pc_asddic_local_blocks k with k >= 1", k);
  PetscTryMethod(pc, "PCASDDICSetLocalBlocks_C", (PC, PetscInt), (pc, k));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCASDDICGetLocalBlocks - Gets the number of local blocks per rank of `PCASDDIC`

   Not Collective

   Input Parameter:
.  pc - the preconditioner context

   Output Parameter:
.  k - blocks per rank

   Level: intermediate

.seealso: `PCASDDIC`, `PCASDDICSetLocalBlocks()`
@*/
PetscErrorCode PCASDDICGetLocalBlocks(PC pc, PetscInt *k)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscAssertPointer(k, 2);
  PetscUseMethod(pc, "PCASDDICGetLocalBlocks_C", (PC, PetscInt *), (pc, k));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCASDDICSetIterations - Sets the number K of ASDD sweeps of `PCASDDIC`

   Logically Collective

   Input Parameters:
+  pc - the preconditioner context
-  n - sweeps, at least 1 (default 2); 1 is the local kernel alone (block Jacobi)

   Options Database Key:
.  -pc_asddic_iterations <n> - the sweeps

   Level: intermediate

   Note:
   Each sweep after the first costs a product with A (one halo exchange) and a local solve.

.seealso: `PCASDDIC`, `PCASDDICGetIterations()`, `PCASDDICSetSweepType()`, `PCASDDICSetDamping()`
@*/
PetscErrorCode PCASDDICSetIterations(PC pc, PetscInt n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, n, 2);
  PetscCheck(n >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "asddic: the number of ASDD iterations must be at least 1 (1 = plain localized IC(0)), got %" PetscInt_FMT ": use -pc_asddic_iterations n with n >= 1", n);
  PetscTryMethod(pc, "PCASDDICSetIterations_C", (PC, PetscInt), (pc, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCASDDICGetIterations - Gets the setting of `PCASDDICSetIterations()` of `PCASDDIC`

   Not Collective

   Input Parameter:
.  pc - the preconditioner context

   Output Parameter:
.  n - the ASDD sweeps K

   Level: intermediate

.seealso: `PCASDDIC`, `PCASDDICSetIterations()`
@*/
PetscErrorCode PCASDDICGetIterations(PC pc, PetscInt *n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscAssertPointer(n, 2);
  PetscUseMethod(pc, "PCASDDICGetIterations_C", (PC, PetscInt *), (pc, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCASDDICSetBlock - Chooses the point or the block kernel of `PCASDDIC`

   Logically Collective

   Input Parameters:
+  pc - the preconditioner context
-  blk - `PETSC_TRUE`: blocks of the matrix block size (default when it is > 1; up to 8); `PETSC_FALSE`: point

   Options Database Key:
.  -pc_asddic_block <bool> - block or point

   Level: intermediate

.seealso: `PCASDDIC`, `PCASDDICGetBlock()`, `PCASDDICSetLocalType()`
@*/
PetscErrorCode PCASDDICSetBlock(PC pc, PetscBool blk)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveBool(pc, blk, 2);
  PetscTryMethod(pc, "PCASDDICSetBlock_C", (PC, PetscBool), (pc, blk));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCASDDICGetBlock - Gets the setting of `PCASDDICSetBlock()` of `PCASDDIC`

   Not Collective

   Input Parameter:
.  pc - the preconditioner context

   Output Parameter:
.  blk - `PETSC_FALSE` when the point kernel was set, else `PETSC_TRUE` (blocks of the matrix block size, point when it is 1)

   Level: intermediate

.seealso: `PCASDDIC`, `PCASDDICSetBlock()`
@*/
PetscErrorCode PCASDDICGetBlock(PC pc, PetscBool *blk)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscAssertPointer(blk, 2);
  PetscUseMethod(pc, "PCASDDICGetBlock_C", (PC, PetscBool *), (pc, blk));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCASDDICSetThreads - Sets the OpenMP threads that share each colour of the sweeps of `PCASDDIC`

   Logically Collective

   Input Parameters:
+  pc - the preconditioner context
-  nt - threads, at least 1; 0 the default: the process's `-pipeksp_threads` (always 1 without OpenMP)

   Options Database Key:
.  -pc_asddic_threads <nt> - the threads

   Level: intermediate

   Note:
   Threads only share the sweeps of a colouring (cmrcm, mc). When the ordering is the default, it follows
   the threads: passing between one and several threads makes the next set-up reorder.

.seealso: `PCASDDIC`, `PCASDDICGetThreads()`, `PCASDDICSetOrdering()`
@*/
PetscErrorCode PCASDDICSetThreads(PC pc, PetscInt nt)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, nt, 2);
  PetscCheck(nt >= 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "asddic: the number of threads must be at least 1, or 0 for the default, got %" PetscInt_FMT, nt);
  PetscCheck(nt <= PIPEKSP_THREADS_MAX, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "asddic: at most %d threads per process, got %" PetscInt_FMT, PIPEKSP_THREADS_MAX, nt);
  PetscTryMethod(pc, "PCASDDICSetThreads_C", (PC, PetscInt), (pc, nt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCASDDICGetThreads - Gets the setting of `PCASDDICSetThreads()` of `PCASDDIC`

   Not Collective

   Input Parameter:
.  pc - the preconditioner context

   Output Parameter:
.  nt - the threads of the sweeps: the ones set, else the process's `-pipeksp_threads`

   Level: intermediate

.seealso: `PCASDDIC`, `PCASDDICSetThreads()`
@*/
PetscErrorCode PCASDDICGetThreads(PC pc, PetscInt *nt)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscAssertPointer(nt, 2);
  PetscUseMethod(pc, "PCASDDICGetThreads_C", (PC, PetscInt *), (pc, nt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCASDDICSetShiftType - Sets what `PCASDDIC` does on a non-positive pivot of the local kernel

   Logically Collective

   Input Parameters:
+  pc - the preconditioner context
-  type - `PCASDDIC_SHIFT_DIAGONAL` (default: retry with A + alpha diag(A), alpha growing from 1e-3) or
          `PCASDDIC_SHIFT_NONE` (the PC fails: `PC_FACTOR_NUMERIC_ZEROPIVOT`, an error with -ksp_error_if_not_converged)

   Options Database Key:
.  -pc_asddic_shift <none,diagonal> - the shift type

   Level: intermediate

   Note:
   The shift used shows in `-pc_view` and `-info`, and comes back from `PCASDDICGetFactorInfo()`.

.seealso: `PCASDDIC`, `PCASDDICGetShiftType()`, `PCASDDICGetFactorInfo()`, `PCFactorSetShiftType()`
@*/
PetscErrorCode PCASDDICSetShiftType(PC pc, PCASDDICShiftType type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, type, 2);
  PetscCheck(type == PCASDDIC_SHIFT_NONE || type == PCASDDIC_SHIFT_DIAGONAL, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "asddic: unknown shift type %d: use none or diagonal", (int)type);
  PetscTryMethod(pc, "PCASDDICSetShiftType_C", (PC, PCASDDICShiftType), (pc, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCASDDICGetShiftType - Gets the setting of `PCASDDICSetShiftType()` of `PCASDDIC`

   Not Collective

   Input Parameter:
.  pc - the preconditioner context

   Output Parameter:
.  type - what the PC does on a non-positive pivot

   Level: intermediate

.seealso: `PCASDDIC`, `PCASDDICSetShiftType()`
@*/
PetscErrorCode PCASDDICGetShiftType(PC pc, PCASDDICShiftType *type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscAssertPointer(type, 2);
  PetscUseMethod(pc, "PCASDDICGetShiftType_C", (PC, PCASDDICShiftType *), (pc, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCASDDICSetCheck - Makes the set-up of `PCASDDIC` check that every colour of its ordering is an
   independent set of the local graph (the condition for threads to share a colour)

   Logically Collective

   Input Parameters:
+  pc - the preconditioner context
-  flg - `PETSC_TRUE` to check (default `PETSC_FALSE`)

   Options Database Key:
.  -pc_asddic_check - check

   Level: developer

   Note:
   A colour that is not an independent set is an error (`PETSC_ERR_PLIB`); the result goes to `-info`.

.seealso: `PCASDDIC`, `PCASDDICGetCheck()`, `PCASDDICGetColoring()`
@*/
PetscErrorCode PCASDDICSetCheck(PC pc, PetscBool flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveBool(pc, flg, 2);
  PetscTryMethod(pc, "PCASDDICSetCheck_C", (PC, PetscBool), (pc, flg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCASDDICGetCheck - Gets the setting of `PCASDDICSetCheck()` of `PCASDDIC`

   Not Collective

   Input Parameter:
.  pc - the preconditioner context

   Output Parameter:
.  flg - `PETSC_TRUE` when the set-up checks that every colour is an independent set

   Level: developer

.seealso: `PCASDDIC`, `PCASDDICSetCheck()`
@*/
PetscErrorCode PCASDDICGetCheck(PC pc, PetscBool *flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscAssertPointer(flg, 2);
  PetscUseMethod(pc, "PCASDDICGetCheck_C", (PC, PetscBool *), (pc, flg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCASDDICSetLocalType - Sets the local kernel M of `PCASDDIC`

   Logically Collective

   Input Parameters:
+  pc - the preconditioner context
-  type - `PCASDDIC_LOCAL_IC` (default: IC(0) of the rank's diagonal block) or `PCASDDIC_LOCAL_SGS`
          (symmetric Gauss-Seidel (D + L) D^{-1} (D + U) with A's own diagonal blocks, GeoFEM's kernel)

   Options Database Key:
.  -pc_asddic_local <ic,sgs> - the kernel

   Level: intermediate

   Notes:
   Both run the same coloured sweeps. IC(0) is usually the stronger kernel, but the eigenvalues of
   M^{-1}A can exceed 2, so its sweeps rely on a set-up estimate. SGS on one rank has them in (0, 1]:
   undamped Richardson sweeps around it are positive definite for every K, without estimate. On several
   ranks M is block diagonal and its eigenvalues can exceed 2 as well, so SGS needs the estimate there too.

.seealso: `PCASDDIC`, `PCASDDICGetLocalType()`, `PCASDDICSetSweepType()`, `PCASDDICSetBlock()`
@*/
PetscErrorCode PCASDDICSetLocalType(PC pc, PCASDDICLocalType type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, type, 2);
  PetscCheck(type == PCASDDIC_LOCAL_IC || type == PCASDDIC_LOCAL_SGS, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "asddic: unknown local kernel %d: use ic or sgs", (int)type);
  PetscTryMethod(pc, "PCASDDICSetLocalType_C", (PC, PCASDDICLocalType), (pc, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCASDDICGetLocalType - Gets the setting of `PCASDDICSetLocalType()` of `PCASDDIC`

   Not Collective

   Input Parameter:
.  pc - the preconditioner context

   Output Parameter:
.  type - the local kernel M

   Level: intermediate

.seealso: `PCASDDIC`, `PCASDDICSetLocalType()`
@*/
PetscErrorCode PCASDDICGetLocalType(PC pc, PCASDDICLocalType *type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscAssertPointer(type, 2);
  PetscUseMethod(pc, "PCASDDICGetLocalType_C", (PC, PCASDDICLocalType *), (pc, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCASDDICSetSweepType - Sets the kind of ASDD sweeps of `PCASDDIC`

   Logically Collective

   Input Parameters:
+  pc - the preconditioner context
-  type - `PCASDDIC_SWEEP_CHEBYSHEV` (default: Chebyshev acceleration on the bounds [emin, emax] of the
          eigenvalues of M^{-1}A) or `PCASDDIC_SWEEP_RICHARDSON` (z += w M^{-1}(r - A z), GeoFEM's with w = 1)

   Options Database Key:
.  -pc_asddic_sweep <chebyshev,richardson> - the sweeps

   Level: intermediate

   Note:
   Both cost the same per sweep and both need bounds from the estimate (or `PCASDDICSetEigenvalues()`),
   except Richardson around sgs on one rank (w = 1). Chebyshev stays positive definite for eigenvalues below emin + emax.

.seealso: `PCASDDIC`, `PCASDDICGetSweepType()`, `PCASDDICSetEigenvalues()`, `PCASDDICSetEstimateSteps()`, `KSPCHEBYSHEV`
@*/
PetscErrorCode PCASDDICSetSweepType(PC pc, PCASDDICSweepType type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, type, 2);
  PetscCheck(type == PCASDDIC_SWEEP_RICHARDSON || type == PCASDDIC_SWEEP_CHEBYSHEV, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "asddic: unknown sweep type %d: use richardson or chebyshev", (int)type);
  PetscTryMethod(pc, "PCASDDICSetSweepType_C", (PC, PCASDDICSweepType), (pc, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCASDDICGetSweepType - Gets the setting of `PCASDDICSetSweepType()` of `PCASDDIC`

   Not Collective

   Input Parameter:
.  pc - the preconditioner context

   Output Parameter:
.  type - the kind of ASDD sweeps

   Level: intermediate

.seealso: `PCASDDIC`, `PCASDDICSetSweepType()`
@*/
PetscErrorCode PCASDDICGetSweepType(PC pc, PCASDDICSweepType *type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscAssertPointer(type, 2);
  PetscUseMethod(pc, "PCASDDICGetSweepType_C", (PC, PCASDDICSweepType *), (pc, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCASDDICSetEigenvalues - Gives bounds on the eigenvalues of M^{-1}A for the sweeps of `PCASDDIC`,
   instead of the set-up estimate

   Logically Collective

   Input Parameters:
+  pc - the preconditioner context
.  emin - lower bound (Chebyshev's interval; 0 < emin < emax, emax/emin at most 1e12)
-  emax - upper bound on the largest eigenvalue (Richardson damping w = min(1, 1.9/emax)), in [1e-6, 1e6]

   Options Database Key:
.  -pc_asddic_eigenvalues <emin,emax> - the bounds

   Level: advanced

   Notes:
   An emax below the true largest eigenvalue can make the preconditioner indefinite for even K. Pass
   emin = emax = 0 to go back to the estimate.

   The limits: lambda_max(M^{-1}A) >= a_ii/m_ii for every i, which is 1 for IC(0), above 1e-6 with any
   accepted shift and above 1/(1 + row length) for SGS, so a smaller emax is below it; a larger one than 1e6
   scales the sweeps by less than 1e-6 and the preconditioned residual with them (the absolute tolerance
   then ends the solve at x = 0); emax/emin above 1e12 leaves Chebyshev's coefficients fewer than 4 digits.

.seealso: `PCASDDIC`, `PCASDDICGetEigenvalues()`, `PCASDDICSetEstimateSteps()`, `PCASDDICGetEigenvalueBounds()`, `KSPChebyshevSetEigenvalues()`
@*/
PetscErrorCode PCASDDICSetEigenvalues(PC pc, PetscReal emin, PetscReal emax)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveReal(pc, emin, 2);
  PetscValidLogicalCollectiveReal(pc, emax, 3);
  PetscCheck((emin == 0 && emax == 0) || (emin > 0 && emax > emin && emax >= ASDDIC_EMAX_MIN && emax <= ASDDIC_EMAX_MAX && emax <= ASDDIC_ERATIO_MAX * emin), PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "asddic: eigenvalue bounds need 0 < emin < emax, emax in [%g, %g] and emax/emin at most %g (beyond, P is indefinite or scaled away), got %g, %g (0,0 returns to the estimate)", (double)ASDDIC_EMAX_MIN, (double)ASDDIC_EMAX_MAX, (double)ASDDIC_ERATIO_MAX, (double)emin, (double)emax);
  PetscTryMethod(pc, "PCASDDICSetEigenvalues_C", (PC, PetscReal, PetscReal), (pc, emin, emax));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCASDDICGetEigenvalues - Gets the bounds on the eigenvalues of M^{-1}A given to `PCASDDIC`

   Not Collective

   Input Parameter:
.  pc - the preconditioner context

   Output Parameters (each may be NULL):
+  emin - the lower bound given (0 when none was: the set-up estimates)
-  emax - the upper bound given (0 when none was)

   Level: advanced

.seealso: `PCASDDIC`, `PCASDDICSetEigenvalues()`
@*/
PetscErrorCode PCASDDICGetEigenvalues(PC pc, PetscReal *emin, PetscReal *emax)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCASDDICGetEigenvalues_C", (PC, PetscReal *, PetscReal *), (pc, emin, emax));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCASDDICSetEstimateSteps - Sets the CG steps of the set-up estimate of the eigenvalues of M^{-1}A in `PCASDDIC`

   Logically Collective

   Input Parameters:
+  pc - the preconditioner context
-  steps - CG steps on A with M as preconditioner and a random right-hand side, at least 10; -1 (default): 10 when
           the sweeps need bounds (K > 1 with Chebyshev, or with Richardson and no given damping, but
           around sgs on one rank); 0: no estimate (Richardson then runs undamped, w = 1, GeoFEM's ASDD; Chebyshev then
           needs `PCASDDICSetEigenvalues()`)

   Options Database Key:
.  -pc_asddic_esteig_steps <steps> - the steps

   Level: advanced

   Notes:
   Each step costs a product with A, a local solve and two reductions, about half an outer iteration.

   The largest Ritz value rises to lambda_max from below; the sweeps stay positive definite while the
   safety factor times it exceeds 0.95 lambda_max (Richardson) or lambda_max - emin (Chebyshev). On the
   elasticity cube 10 steps reached 0.935 lambda_max or more, 8 steps 0.92 (Chebyshev indefinite with
   safety 1.05), 5 steps 0.885 and 2 steps 0.41, so fewer than 10 are refused. With 0 the sweeps are not
   bounded: Richardson runs undamped (GeoFEM's ASDD, indefinite for even K once lambda_max > 2).

.seealso: `PCASDDIC`, `PCASDDICGetEstimateSteps()`, `PCASDDICSetEstimateSafety()`, `PCASDDICSetEigenvalues()`
@*/
PetscErrorCode PCASDDICSetEstimateSteps(PC pc, PetscInt steps)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, steps, 2);
  PetscCheck(steps == -1 || steps == 0 || steps >= ASDDIC_ESTEIG_STEPS_MIN, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "asddic: estimate steps must be -1 (automatic), 0 (none) or at least %d (fewer can stay below lambda_max by more than the safety factor: P indefinite), got %" PetscInt_FMT, ASDDIC_ESTEIG_STEPS_MIN, steps);
  PetscTryMethod(pc, "PCASDDICSetEstimateSteps_C", (PC, PetscInt), (pc, steps));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCASDDICGetEstimateSteps - Gets the setting of `PCASDDICSetEstimateSteps()` of `PCASDDIC`

   Not Collective

   Input Parameter:
.  pc - the preconditioner context

   Output Parameter:
.  steps - the CG steps of the estimate (-1: 10 when the sweeps need bounds, 0: none)

   Level: advanced

.seealso: `PCASDDIC`, `PCASDDICSetEstimateSteps()`
@*/
PetscErrorCode PCASDDICGetEstimateSteps(PC pc, PetscInt *steps)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscAssertPointer(steps, 2);
  PetscUseMethod(pc, "PCASDDICGetEstimateSteps_C", (PC, PetscInt *), (pc, steps));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCASDDICSetEstimateSafety - Sets the factor on the estimated largest eigenvalue of M^{-1}A in `PCASDDIC`

   Logically Collective

   Input Parameters:
+  pc - the preconditioner context
-  safety - factor in [1.1, 10] (default 1.1): a few Lanczos steps underestimate the largest eigenvalue

   Options Database Key:
.  -pc_asddic_esteig_safety <safety> - the factor

   Level: advanced

   Note:
   Below 1.1 the bound can fall below lambda_max (the estimate after 10 steps was 0.935 of it); above 10 it
   only scales the preconditioner down (w ~ 1/safety), until the preconditioned residual falls below the
   absolute tolerance and the solve stops at x = 0.

.seealso: `PCASDDIC`, `PCASDDICGetEstimateSafety()`, `PCASDDICSetEstimateSteps()`
@*/
PetscErrorCode PCASDDICSetEstimateSafety(PC pc, PetscReal safety)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveReal(pc, safety, 2);
  PetscCheck(safety >= ASDDIC_SAFETY_MIN && safety <= ASDDIC_SAFETY_MAX, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "asddic: the safety factor on the largest eigenvalue must be at least %g and at most %g (below, P can be indefinite; above, it is scaled away), got %g", (double)ASDDIC_SAFETY_MIN, (double)ASDDIC_SAFETY_MAX, (double)safety);
  PetscTryMethod(pc, "PCASDDICSetEstimateSafety_C", (PC, PetscReal), (pc, safety));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCASDDICGetEstimateSafety - Gets the setting of `PCASDDICSetEstimateSafety()` of `PCASDDIC`

   Not Collective

   Input Parameter:
.  pc - the preconditioner context

   Output Parameter:
.  safety - the factor on the estimated largest eigenvalue

   Level: advanced

.seealso: `PCASDDIC`, `PCASDDICSetEstimateSafety()`
@*/
PetscErrorCode PCASDDICGetEstimateSafety(PC pc, PetscReal *safety)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscAssertPointer(safety, 2);
  PetscUseMethod(pc, "PCASDDICGetEstimateSafety_C", (PC, PetscReal *), (pc, safety));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCASDDICSetDamping - Fixes the damping w of the Richardson sweeps of `PCASDDIC`, z += w M^{-1}(r - A z)

   Logically Collective

   Input Parameters:
+  pc - the preconditioner context
-  omega - damping, 1e-6 <= omega < 2 (for even K the preconditioner is positive definite when
           omega lambda_max(M^{-1}A) < 2, and lambda_max >= 1 for IC(0); below 1e-6 the sweeps scale the
           preconditioner away); 0 (default) derives it from the eigenvalue bounds

   Options Database Key:
.  -pc_asddic_damping <omega> - the damping

   Level: advanced

.seealso: `PCASDDIC`, `PCASDDICGetDamping()`, `PCASDDICSetSweepType()`, `PCASDDICGetEigenvalueBounds()`
@*/
PetscErrorCode PCASDDICSetDamping(PC pc, PetscReal omega)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveReal(pc, omega, 2);
  PetscCheck(omega == 0 || (omega >= ASDDIC_DAMPING_MIN && omega < 2), PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "asddic: the damping must be in [%g, 2), or 0 for automatic, got %g", (double)ASDDIC_DAMPING_MIN, (double)omega);
  PetscTryMethod(pc, "PCASDDICSetDamping_C", (PC, PetscReal), (pc, omega));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCASDDICGetDamping - Gets the setting of `PCASDDICSetDamping()` of `PCASDDIC`

   Not Collective

   Input Parameter:
.  pc - the preconditioner context

   Output Parameter:
.  omega - the Richardson damping given (0: derived from the eigenvalue bounds; `PCASDDICGetEigenvalueBounds()` gives the one used)

   Level: advanced

.seealso: `PCASDDIC`, `PCASDDICSetDamping()`
@*/
PetscErrorCode PCASDDICGetDamping(PC pc, PetscReal *omega)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscAssertPointer(omega, 2);
  PetscUseMethod(pc, "PCASDDICGetDamping_C", (PC, PetscReal *), (pc, omega));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCASDDICSetKernelType - Chooses the implementation of the triangular sweeps of the local kernel of `PCASDDIC`

   Logically Collective

   Input Parameters:
+  pc - the preconditioner context
-  type - `PCASDDIC_KERNEL_TUNED` (default: unrolled for block sizes 1, 2, 3, threads share each colour) or
          `PCASDDIC_KERNEL_REFERENCE` (plain row-by-row sweeps on one thread)

   Options Database Key:
.  -pc_asddic_kernel <tuned,reference> - the implementation

   Level: developer

   Note:
   Both apply the same M^{-1}; they differ only by round-off. The reference one is there to be read
   and to check the tuned one against.

.seealso: `PCASDDIC`, `PCASDDICGetKernelType()`, `PCASDDICKernelType`, `PCASDDICSetThreads()`
@*/
PetscErrorCode PCASDDICSetKernelType(PC pc, PCASDDICKernelType type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, type, 2);
  PetscCheck(type == PCASDDIC_KERNEL_TUNED || type == PCASDDIC_KERNEL_REFERENCE, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "asddic: unknown kernel %d: use tuned or reference", (int)type);
  PetscTryMethod(pc, "PCASDDICSetKernelType_C", (PC, PCASDDICKernelType), (pc, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCASDDICGetKernelType - Gets the setting of `PCASDDICSetKernelType()` of `PCASDDIC`

   Not Collective

   Input Parameter:
.  pc - the preconditioner context

   Output Parameter:
.  type - the implementation of the triangular sweeps

   Level: developer

.seealso: `PCASDDIC`, `PCASDDICSetKernelType()`
@*/
PetscErrorCode PCASDDICGetKernelType(PC pc, PCASDDICKernelType *type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscAssertPointer(type, 2);
  PetscUseMethod(pc, "PCASDDICGetKernelType_C", (PC, PCASDDICKernelType *), (pc, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCASDDICGetEigenvalueBounds - Gets the bounds on the eigenvalues of M^{-1}A and the Richardson damping
   that the sweeps of `PCASDDIC` use, after set-up

   Not Collective (the values are the same on every rank)

   Input Parameter:
.  pc - the preconditioner context

   Output Parameters:
+  emin - lower bound (0 when none is known)
.  emax - upper bound (estimate times the safety factor, the user's, 1 for sgs on one rank; 0 when none is known)
-  omega - Richardson damping

   Level: advanced

.seealso: `PCASDDIC`, `PCASDDICSetEigenvalues()`, `PCASDDICSetEstimateSteps()`
@*/
PetscErrorCode PCASDDICGetEigenvalueBounds(PC pc, PetscReal *emin, PetscReal *emax, PetscReal *omega)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCASDDICGetEigenvalueBounds_C", (PC, PetscReal *, PetscReal *, PetscReal *), (pc, emin, emax, omega));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
   PCASDDICGetColoring - Gets the local ordering and colouring of `PCASDDIC` on this rank, after set-up

   Not Collective

   Input Parameter:
.  pc - the preconditioner context

   Output Parameters (each may be NULL):
+  bs - block size of the kernel's rows
.  nblocks - block rows of this rank
.  ncolors - colours used (1 per row range for rcm and natural)
.  colorptr - colour c holds new block rows colorptr[c] .. colorptr[c+1]-1
.  perm - perm[new] = old block row
-  independent - `PETSC_TRUE` when every colour is an independent set (cmrcm, mc)

   Level: developer

   Note:
   The arrays belong to the PC and stay valid until its next set-up.

.seealso: `PCASDDIC`, `PCASDDICSetOrdering()`, `PCASDDICSetCheck()`
@*/
PetscErrorCode PCASDDICGetColoring(PC pc, PetscInt *bs, PetscInt *nblocks, PetscInt *ncolors, const PetscInt **colorptr, const PetscInt **perm, PetscBool *independent)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCASDDICGetColoring_C", (PC, PetscInt *, PetscInt *, PetscInt *, const PetscInt **, const PetscInt **, PetscBool *), (pc, bs, nblocks, ncolors, colorptr, perm, independent));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCASDDICGetFactorInfo - Gets facts about the local kernel of `PCASDDIC` on this rank, after set-up

   Not Collective

   Input Parameter:
.  pc - the preconditioner context

   Output Parameters (each may be NULL):
+  alpha - the diagonal shift that made the factorization succeed (0: none needed)
.  nsymbolic - how many times the ordering was computed
-  bytes - the least memory traffic of one local solve (factor values and indices once, vectors twice)

   Level: developer

.seealso: `PCASDDIC`, `PCASDDICSetShiftType()`
@*/
PetscErrorCode PCASDDICGetFactorInfo(PC pc, PetscReal *alpha, PetscInt *nsymbolic, PetscLogDouble *bytes)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCASDDICGetFactorInfo_C", (PC, PetscReal *, PetscInt *, PetscLogDouble *), (pc, alpha, nsymbolic, bytes));
  PetscFunctionReturn(PETSC_SUCCESS);
}
