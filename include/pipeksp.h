/* PipeKSP: communication-hiding Krylov solvers, the ASDD-IC(0) preconditioner and the
   GeoFEM/Cube generator, as a PETSc plugin. */
#ifndef PIPEKSP_H
#define PIPEKSP_H

#include <petscksp.h>
#include <petscdmda.h>

/* The version, in this one place: CMakeLists.txt reads it from here, tests/docs/version_check.py checks
   the Python package's against it. */
#define PIPEKSP_VERSION_MAJOR    0
#define PIPEKSP_VERSION_MINOR    1
#define PIPEKSP_VERSION_SUBMINOR 0

/* Type names we register. None of them exists in PETSc 3.18 (registering one that does would replace it). */
#define KSPPIPEGROPP "pipegropp"
#define KSPPIPEGV    "pipegv"
#define KSPCHRONGEAR "chrongear"
#define KSPPIPEPLCG  "pipeplcg" /* p(l)-CG; PETSc's own is "pipelcg" */
#define PCASDDIC     "asddic"

/* Registers everything; called by PetscDLLibraryRegister_pipeksp() for -dll_append, and by
   programs that link the library directly (after PetscInitialize()). Safe to call repeatedly. */
PETSC_EXTERN PetscErrorCode PipeKSPInitializePackage(void);
PETSC_EXTERN PetscErrorCode PipeKSPFinalizePackage(void);

/* ---------------- progress-aware reduction scheduling (src/sys) ---------------- */
/*E
  PipeKSPProgressType - how a pipelined KSP makes its nonblocking reductions progress

  Values:
+ `PIPEKSP_PROGRESS_NONE`     - start the reduction, wait at the end (what PETSc's `KSPPIPECG` and `KSPGROPPCG` do)
. `PIPEKSP_PROGRESS_POLL`     - throttled `MPI_Test()` from poll points inside the SpMV and the PC (`PipeKSPProgressPoll()`)
. `PIPEKSP_PROGRESS_THREAD`   - a helper thread drives progress (needs `MPI_THREAD_MULTIPLE`)
. `PIPEKSP_PROGRESS_AUTO`     - measure at setup, pick none or poll
- `PIPEKSP_PROGRESS_BLOCKING` - `MPI_Allreduce()` in the same algorithm

  Options Database Key:
. -ksp_pipe_progress <none,poll,thread,auto,blocking> - the policy

  Note:
  `PipeKSPProgressTypes` holds the names. See docs/algorithms.md.

  Level: intermediate

.seealso: `KSPPipeSetProgress()`, `KSPPipeSetPollInterval()`, `KSPPIPEGV`, `KSPPIPEGROPP`
E*/
typedef enum {
  PIPEKSP_PROGRESS_NONE,    /* start, wait at the end: what PETSc's pipecg/groppcg do */
  PIPEKSP_PROGRESS_POLL,    /* throttled MPI_Test from poll points inside SpMV and PC */
  PIPEKSP_PROGRESS_THREAD,  /* helper thread drives progress (needs MPI_THREAD_MULTIPLE) */
  PIPEKSP_PROGRESS_AUTO,    /* measure at setup; pick none or poll */
  PIPEKSP_PROGRESS_BLOCKING /* MPI_Allreduce in the same algorithm (the papers' "AR" variants) */
} PipeKSPProgressType;
PETSC_EXTERN const char *const PipeKSPProgressTypes[];

/*S
  PipeKSPStats - counters of the reduction engine of one pipelined `KSP`

  Note:
  `KSPPipeGetStats()` gives those of the last `KSPSolve()`, `KSPPipeGetTotalStats()` the sums over all
  solves; -ksp_view prints both.

  Level: intermediate

.seealso: `KSPPipeGetStats()`, `KSPPipeGetTotalStats()`, `PipeKSPProgressType`
S*/
typedef struct {
  PetscInt64     reductions;       /* reductions started */
  PetscInt64     polls;            /* poll-hook calls that reached MPI_Test */
  PetscInt64     done_before_wait; /* reductions already complete when the wait began */
  PetscLogDouble wait_time;        /* seconds spent blocked in the wait */
  PetscLogDouble overlap_time;     /* seconds between start and wait (compute overlapped) */
  PetscInt64     replacements;     /* residual replacements (r = b - A x recomputed), by -ksp_pipe_replace */
  PetscInt64     restarts;         /* restarts from b - A x: after a breakdown of the recurrences, or to check
                                    a convergence the recursive residual claims while the gap is large */
  PetscInt64     depth_changes;    /* pipeplcg: times the solve lowered its pipeline depth (0 for the other types) */
  PetscInt64     depth;            /* pipeplcg: the depth the solve ended at (0 also for depth 0; 0 for the other types) */
  PetscInt64     waited_first;     /* pipegv, pipegropp (and pipeplcg at depths 0-1): reductions waited for before their
                                    overlapped work (pipegropp: the SpMV), their test probably ending the solve */
  PetscInt64     handovers;        /* pipegv, chrongear, pipeplcg: solves whose rest Gropp's CG (pipegropp's recurrences, two
                                    reductions per iteration) ran, from the true residual (0 or 1 for the last solve) */
  PetscInt64     handover_its;     /* the iteration of the last solve from which it did (-1: none; also in the sums) */
} PipeKSPStats;

/* The poll hook: cheap, throttled; call it from inside any work overlapped with a reduction. */
PETSC_EXTERN PetscErrorCode PipeKSPProgressPoll(void);

/* Settings of pipegropp / pipegv / chrongear / pipeplcg (no-ops on other KSP types). The replacement period
   PETSC_DECIDE means auto (the default): replace when the estimated gap between the recursive and the
   true residual says so. */
PETSC_EXTERN PetscErrorCode KSPPipeSetProgress(KSP, PipeKSPProgressType);
PETSC_EXTERN PetscErrorCode KSPPipeGetProgress(KSP, PipeKSPProgressType *);
PETSC_EXTERN PetscErrorCode KSPPipeSetPollInterval(KSP, PetscReal);
PETSC_EXTERN PetscErrorCode KSPPipeSetReplacePeriod(KSP, PetscInt);
PETSC_EXTERN PetscErrorCode KSPPipeGetStats(KSP, PipeKSPStats *);
PETSC_EXTERN PetscErrorCode KSPPipeGetTotalStats(KSP, PipeKSPStats *, PetscInt *);
PETSC_EXTERN PetscErrorCode KSPPipeGetReplacePeriod(KSP, PetscInt *);

/* ---- pipeplcg extras (src/ksp/pipeplcg.c): depth l (0..5, 0: Gropp's CG, no basis pipeline; PETSC_DECIDE: auto), the interval [lmin, lmax] of the spectrum of
   M^{-1}A whose Chebyshev roots are the shifts (0,0: estimate it), CG iterations of the estimate and
   the factor f of its interval [0, f theta].
   No-ops on other KSP types (the getters error). ---- */
PETSC_EXTERN PetscErrorCode KSPPipePLCGSetDepth(KSP, PetscInt);
PETSC_EXTERN PetscErrorCode KSPPipePLCGGetDepth(KSP, PetscInt *);
PETSC_EXTERN PetscErrorCode KSPPipePLCGSetEigenvalueBounds(KSP, PetscReal, PetscReal);
PETSC_EXTERN PetscErrorCode KSPPipePLCGGetEigenvalueBounds(KSP, PetscReal *, PetscReal *);
PETSC_EXTERN PetscErrorCode KSPPipePLCGSetEstimateIterations(KSP, PetscInt);
PETSC_EXTERN PetscErrorCode KSPPipePLCGSetEstimateFactor(KSP, PetscReal);
PETSC_EXTERN PetscErrorCode KSPPipePLCGSetEstimateReuse(KSP, PetscBool);
PETSC_EXTERN PetscErrorCode KSPPipePLCGGetEstimateReuse(KSP, PetscBool *);
/* ---- end pipeplcg extras ---- */

/* SpMV with poll points (MPIAIJ/MPIBAIJ split like PETSc does; other types: MatMult with polls around). */
PETSC_EXTERN PetscErrorCode PipeKSPMatMult(Mat, Vec, Vec);
/* rows between two poll points of PipeKSPMatMult() on a matrix (-pipeksp_spmv_chunk under its prefix, 256) */
PETSC_EXTERN PetscErrorCode PipeKSPMatSetSpMVChunk(Mat, PetscInt);
PETSC_EXTERN PetscErrorCode PipeKSPMatGetSpMVChunk(Mat, PetscInt *);
PETSC_EXTERN PetscErrorCode PipeKSPMatSetFromOptions(Mat);
PETSC_EXTERN PetscErrorCode PipeKSPMatViewSpMV(Mat, PetscViewer);

/* ---------------- PC asddic (src/pc) ---------------- */
/*E
  PCASDDICOrderingType - local ordering of asddic's diagonal block

  Values:
+ `PCASDDIC_ORDERING_CMRCM`   - cyclic multicolouring of reverse Cuthill-McKee level sets (colours are independent sets)
. `PCASDDIC_ORDERING_RCM`     - reverse Cuthill-McKee (sequential sweeps)
. `PCASDDIC_ORDERING_MC`      - greedy multicolouring (independent sets)
- `PCASDDIC_ORDERING_NATURAL` - the matrix's own order

  Options Database Key:
. -pc_asddic_ordering <cmrcm,rcm,mc,natural> - the ordering

  Note:
  `PCASDDICOrderingTypes` holds the names.

  Level: intermediate

.seealso: `PCASDDICSetOrdering()`, `PCASDDICSetColors()`, `PCASDDIC`
E*/
typedef enum {
  PCASDDIC_ORDERING_CMRCM,
  PCASDDIC_ORDERING_RCM,
  PCASDDIC_ORDERING_MC,
  PCASDDIC_ORDERING_NATURAL
} PCASDDICOrderingType;
PETSC_EXTERN const char *const PCASDDICOrderingTypes[];

/* ---- asddic extras (src/pc/asddic.c; man pages there) ----
   Setters mirror the -pc_asddic_* options (no-ops on other PC types; out-of-range values are errors).
   After PCSetUp: the local colouring of the rank's diagonal block in block rows of size bs: colour c
   holds new rows colorptr[c] .. colorptr[c+1]-1, perm[new] = old; independent is PETSC_TRUE for cmrcm
   and mc (colours are independent sets). PCASDDICGetFactorInfo: the diagonal shift alpha used, how
   often the ordering was computed, and the least memory traffic (bytes) of one local solve.
   PCASDDICGetEigenvalueBounds: the bounds on the eigenvalues of M^{-1}A the sweeps use and the
   Richardson damping. */
/*E
  PCASDDICShiftType - what asddic does on a non-positive pivot

  Values:
+ `PCASDDIC_SHIFT_NONE`     - the PC fails and the KSP reports it
- `PCASDDIC_SHIFT_DIAGONAL` - retry with A + alpha diag(A)

  Options Database Key:
. -pc_asddic_shift <none,diagonal> - the policy

  Note:
  `PCASDDICShiftTypes` holds the names.

  Level: intermediate

.seealso: `PCASDDICSetShiftType()`, `PCASDDICGetFactorInfo()`, `PCASDDIC`
E*/
typedef enum {
  PCASDDIC_SHIFT_NONE,
  PCASDDIC_SHIFT_DIAGONAL
} PCASDDICShiftType;
/*E
  PCASDDICLocalType - asddic's solver of each rank's diagonal block

  Values:
+ `PCASDDIC_LOCAL_IC`  - IC(0), point or 3x3 block
- `PCASDDIC_LOCAL_SGS` - symmetric Gauss-Seidel (GeoFEM's)

  Options Database Key:
. -pc_asddic_local <ic,sgs> - the local solver

  Note:
  `PCASDDICLocalTypes` holds the names.

  Level: intermediate

.seealso: `PCASDDICSetLocalType()`, `PCASDDIC`
E*/
typedef enum {
  PCASDDIC_LOCAL_IC,
  PCASDDIC_LOCAL_SGS
} PCASDDICLocalType;
/*E
  PCASDDICSweepType - asddic's additive Schwarz correction sweeps

  Values:
+ `PCASDDIC_SWEEP_RICHARDSON` - damped Richardson
- `PCASDDIC_SWEEP_CHEBYSHEV`  - Chebyshev on the eigenvalue bounds of M^{-1}A

  Options Database Key:
. -pc_asddic_sweep <chebyshev,richardson> - the sweeps

  Note:
  `PCASDDICSweepTypes` holds the names.

  Level: intermediate

.seealso: `PCASDDICSetSweepType()`, `PCASDDICSetIterations()`, `PCASDDICSetEigenvalues()`, `PCASDDIC`
E*/
typedef enum {
  PCASDDIC_SWEEP_RICHARDSON,
  PCASDDIC_SWEEP_CHEBYSHEV
} PCASDDICSweepType;
/*E
  PCASDDICKernelType - which implementation of asddic's triangular sweeps runs

  Values:
+ `PCASDDIC_KERNEL_TUNED`     - unrolled for block sizes 1, 2, 3, colours shared by the threads (default)
- `PCASDDIC_KERNEL_REFERENCE` - the plain row-by-row sweeps, one thread; the same result to round-off

  Options Database Key:
. -pc_asddic_kernel <tuned,reference> - the implementation

  Note:
  `PCASDDICKernelTypes` holds the names.

  Level: developer

.seealso: `PCASDDICSetKernelType()`, `PCASDDIC`
E*/
typedef enum {
  PCASDDIC_KERNEL_TUNED,
  PCASDDIC_KERNEL_REFERENCE
} PCASDDICKernelType;
PETSC_EXTERN const char *const PCASDDICShiftTypes[];
PETSC_EXTERN const char *const PCASDDICLocalTypes[];
PETSC_EXTERN const char *const PCASDDICSweepTypes[];
PETSC_EXTERN const char *const PCASDDICKernelTypes[];
PETSC_EXTERN PetscErrorCode    PCASDDICSetOrdering(PC, PCASDDICOrderingType);
PETSC_EXTERN PetscErrorCode    PCASDDICSetColors(PC, PetscInt);
PETSC_EXTERN PetscErrorCode    PCASDDICSetLocalBlocks(PC, PetscInt);
PETSC_EXTERN PetscErrorCode    PCASDDICGetLocalBlocks(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode    PCASDDICSetIterations(PC, PetscInt);
PETSC_EXTERN PetscErrorCode    PCASDDICSetBlock(PC, PetscBool);
PETSC_EXTERN PetscErrorCode    PCASDDICSetThreads(PC, PetscInt);
PETSC_EXTERN PetscErrorCode    PCASDDICSetShiftType(PC, PCASDDICShiftType);
PETSC_EXTERN PetscErrorCode    PCASDDICSetCheck(PC, PetscBool);
PETSC_EXTERN PetscErrorCode    PCASDDICSetLocalType(PC, PCASDDICLocalType);
PETSC_EXTERN PetscErrorCode    PCASDDICSetSweepType(PC, PCASDDICSweepType);
PETSC_EXTERN PetscErrorCode    PCASDDICSetEigenvalues(PC, PetscReal, PetscReal);
PETSC_EXTERN PetscErrorCode    PCASDDICSetEstimateSteps(PC, PetscInt);
PETSC_EXTERN PetscErrorCode    PCASDDICSetEstimateSafety(PC, PetscReal);
PETSC_EXTERN PetscErrorCode    PCASDDICSetDamping(PC, PetscReal);
PETSC_EXTERN PetscErrorCode    PCASDDICSetKernelType(PC, PCASDDICKernelType);
PETSC_EXTERN PetscErrorCode    PCASDDICGetOrdering(PC, PCASDDICOrderingType *);
PETSC_EXTERN PetscErrorCode    PCASDDICGetColors(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode    PCASDDICGetIterations(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode    PCASDDICGetBlock(PC, PetscBool *);
PETSC_EXTERN PetscErrorCode    PCASDDICGetThreads(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode    PCASDDICGetShiftType(PC, PCASDDICShiftType *);
PETSC_EXTERN PetscErrorCode    PCASDDICGetCheck(PC, PetscBool *);
PETSC_EXTERN PetscErrorCode    PCASDDICGetLocalType(PC, PCASDDICLocalType *);
PETSC_EXTERN PetscErrorCode    PCASDDICGetSweepType(PC, PCASDDICSweepType *);
PETSC_EXTERN PetscErrorCode    PCASDDICGetEigenvalues(PC, PetscReal *, PetscReal *);
PETSC_EXTERN PetscErrorCode    PCASDDICGetEstimateSteps(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode    PCASDDICGetEstimateSafety(PC, PetscReal *);
PETSC_EXTERN PetscErrorCode    PCASDDICGetDamping(PC, PetscReal *);
PETSC_EXTERN PetscErrorCode    PCASDDICGetKernelType(PC, PCASDDICKernelType *);
PETSC_EXTERN PetscErrorCode    PCASDDICGetEigenvalueBounds(PC, PetscReal *, PetscReal *, PetscReal *);
PETSC_EXTERN PetscErrorCode    PCASDDICGetColoring(PC, PetscInt *, PetscInt *, PetscInt *, const PetscInt **, const PetscInt **, PetscBool *);
PETSC_EXTERN PetscErrorCode    PCASDDICGetFactorInfo(PC, PetscReal *, PetscInt *, PetscLogDouble *);
/* ---- end asddic extras ---- */

/* ---------------- GeoFEM/Cube generator (src/mesh) ---------------- */
/*S
  PipeKSPCube - generator of the GeoFEM/Cube problem: 3D linear elasticity on Q1 hexahedra over a
  `DMDA`, with a linear exact solution (docs/cube.md)

  Note:
  Not a `PetscObject`: a plain handle owning a `DM`, a `Mat` and two `Vec`s.

  Level: beginner

.seealso: `PipeKSPCubeCreate()`, `PipeKSPCubeSetFromOptions()`, `PipeKSPCubeSetUp()`, `PipeKSPCubeAssembleOnDM()`
S*/
typedef struct _n_PipeKSPCube *PipeKSPCube;
PETSC_EXTERN PetscErrorCode    PipeKSPCubeCreate(MPI_Comm, PipeKSPCube *);
PETSC_EXTERN PetscErrorCode    PipeKSPCubeSetSizes(PipeKSPCube, PetscInt, PetscInt, PetscInt);
PETSC_EXTERN PetscErrorCode    PipeKSPCubeSetMaterial(PipeKSPCube, PetscReal, PetscReal);
PETSC_EXTERN PetscErrorCode    PipeKSPCubeSetLoad(PipeKSPCube, PetscReal);
PETSC_EXTERN PetscErrorCode    PipeKSPCubeSetMatType(PipeKSPCube, MatType);
PETSC_EXTERN PetscErrorCode    PipeKSPCubeSetFromOptions(PipeKSPCube);
PETSC_EXTERN PetscErrorCode    PipeKSPCubeSetUp(PipeKSPCube);
PETSC_EXTERN PetscErrorCode    PipeKSPCubeGetDM(PipeKSPCube, DM *);
PETSC_EXTERN PetscErrorCode    PipeKSPCubeGetMatrix(PipeKSPCube, Mat *);
PETSC_EXTERN PetscErrorCode    PipeKSPCubeGetRHS(PipeKSPCube, Vec *);
PETSC_EXTERN PetscErrorCode    PipeKSPCubeGetExactSolution(PipeKSPCube, Vec *);
PETSC_EXTERN PetscErrorCode    PipeKSPCubeComputeError(PipeKSPCube, Vec, PetscReal *);
PETSC_EXTERN PetscErrorCode    PipeKSPCubeDestroy(PipeKSPCube *);

/* ---- cube extras (src/mesh/cube.c) ----
   PipeKSPCubeAssembleOnDM: the one assembly path, usable on objects the caller owns (e.g. from petsc4py).
   da: 3D DMDA, dof 3, box stencil width >= 1, no periodicity; unit spacing unless it already has
   uniform coordinates. A (from DMCreateMatrix(da)), b, xexact (global vectors of da) may each be NULL.
   Attaches the rigid-body near null space to A. */
PETSC_EXTERN PetscErrorCode PipeKSPCubeAssembleOnDM(DM, PetscReal, PetscReal, PetscReal, Mat, Vec, Vec);
/* sizes (nodes) and material of a cube; any output may be NULL */
PETSC_EXTERN PetscErrorCode PipeKSPCubeGetInfo(PipeKSPCube, PetscInt *, PetscInt *, PetscInt *, PetscReal *, PetscReal *, PetscReal *);
/* prints sizes, material, matrix type, processor grid (ASCII viewers; NULL = stdout); also -cube_view at set-up */
PETSC_EXTERN PetscErrorCode PipeKSPCubeView(PipeKSPCube, PetscViewer);
/* ---- end cube extras ---- */

/* ---- hybrid MPI+OpenMP hot path (src/sys/threads.c) ----
   One thread count per process for the SpMV, the pipelined KSPs' vector kernels and asddic's sweeps
   (-pipeksp_threads, default OMP_NUM_THREADS, else 1), and how the SpMV's interior row chunks (the
   matrix's -pipeksp_spmv_chunk) go to the threads (-pipeksp_spmv_schedule). 1 thread, or a build without OpenMP, keeps the
   single-threaded kernels. */
/*E
  PipeKSPScheduleType - how the threaded SpMV hands its interior row chunks to the OpenMP threads

  Values:
+ `PIPEKSP_SCHEDULE_STATIC`  - OpenMP schedule(static)
. `PIPEKSP_SCHEDULE_DYNAMIC` - dynamic with locality, the default: each thread claims the chunks of its own
                               contiguous share first, then takes over the others' from their ends
- `PIPEKSP_SCHEDULE_GUIDED`  - schedule(guided)

  Options Database Key:
. -pipeksp_spmv_schedule <static,dynamic,guided> - the schedule

  Note:
  `PipeKSPScheduleTypes` holds the names.

  Level: intermediate

.seealso: `PipeKSPSetSpMVSchedule()`, `PipeKSPSetThreads()`
E*/
typedef enum {
  PIPEKSP_SCHEDULE_STATIC,
  PIPEKSP_SCHEDULE_DYNAMIC,
  PIPEKSP_SCHEDULE_GUIDED
} PipeKSPScheduleType;
PETSC_EXTERN const char *const PipeKSPScheduleTypes[];
PETSC_EXTERN PetscErrorCode    PipeKSPSetThreads(PetscInt);
PETSC_EXTERN PetscErrorCode    PipeKSPGetThreads(PetscInt *);
PETSC_EXTERN PetscErrorCode    PipeKSPSetThreadsMinRows(PetscInt);
PETSC_EXTERN PetscErrorCode    PipeKSPSetSpMVSchedule(PipeKSPScheduleType);
PETSC_EXTERN PetscErrorCode    PipeKSPGetSpMVSchedule(PipeKSPScheduleType *);
PETSC_EXTERN PetscErrorCode    PipeKSPThreadsSetFromOptions(MPI_Comm);
PETSC_EXTERN PetscErrorCode    PipeKSPThreadsView(PetscViewer);
/* ---- end hybrid ---- */

#endif
