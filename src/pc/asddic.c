/* PC asddic, the PC object: its ops, options, view and public API. A local kernel (IC(0) or symmetric
   Gauss-Seidel) of each rank's diagonal block in RCM or CM-RCM order, wrapped in ASDD (additive
   Schwarz) correction sweeps, as in Nakajima's GeoFEM (docs/algorithms.md section 3). The other
   asddic_*.c files hold the pieces; include/pipeksp/asddicimpl.h lists them. */
#include <pipeksp/asddicimpl.h>
#include <pipeksp/threadsimpl.h>

const char *const        PCASDDICOrderingTypes[] = {"cmrcm", "rcm", "mc", "natural", "PCASDDICOrderingType", "PCASDDIC_ORDERING_", NULL};
const char *const        PCASDDICShiftTypes[]    = {"none", "diagonal", "PCASDDICShiftType", "PCASDDIC_SHIFT_", NULL};
const char *const        PCASDDICLocalTypes[]    = {"ic", "sgs", "PCASDDICLocalType", "PCASDDIC_LOCAL_", NULL};
const char *const        PCASDDICSweepTypes[]    = {"richardson", "chebyshev", "PCASDDICSweepType", "PCASDDIC_SWEEP_", NULL};
const char *const        PCASDDICKernelTypes[]   = {"tuned", "reference", "PCASDDICKernelType", "PCASDDIC_KERNEL_", NULL};
static const char *const ASDDICLayouts[]         = {"through MatGetRow", "as SeqAIJ arrays", "as SeqBAIJ blocks", "as SeqBAIJ blocks split into points"};

PetscLogEvent PCASDDIC_SetUp, PCASDDIC_Apply, PCASDDIC_Sweep, PCASDDIC_EstEig; /* registered by the registrar */

/* Default K: more colours converge closer to RCM (bench/asddic_colors.sh measures it), fewer leave
   more rows per colour for the threads; 20 takes most of the gain. A 27-point (Q1 hexahedra) graph
   needs at least 8 colours, so K < 8 gives 8 or more. */
#define ASDDIC_DEFAULT_COLORS     20
#define ASDDIC_DEFAULT_ITERATIONS 2   /* ASDD sweeps: one correction of the local kernel */
#define ASDDIC_DEFAULT_SAFETY     1.1 /* on the estimated largest eigenvalue: a few Lanczos steps underestimate it */

static PetscErrorCode PCReset_ASDDIC(PC pc)
{
  PC_ASDDIC *a = (PC_ASDDIC *)pc->data;

  PetscFunctionBegin;
  PetscCall(PetscFree2(a->perm, a->iperm));
  PetscCall(PetscFree(a->colorptr));
  PetscCall(PetscFree(a->partptr));
  PetscCall(PetscFree3(a->fi, a->fj, a->fdiag));
  PetscCall(PetscFree4(a->fa, a->fa0, a->dinv, a->work));
  PetscCall(PetscFree(a->fmap));
  PetscCall(PetscFree4(a->li, a->lj, a->ui, a->uj));
  PetscCall(PetscFree2(a->la, a->ua));
  a->nfmap = 0;
  PetscCall(VecDestroy(&a->t));
  PetscCall(VecDestroy(&a->w));
  PetscCall(VecDestroy(&a->d));
  a->nb      = 0;
  a->ncolors = 0;
  a->nparts  = 0;
  PetscFunctionReturn(0);
}

/* Colours let threads share a sweep; local blocks give each thread its own block, swept in sequence */
#define ASDDICColourOrdering(o) ((o) == PCASDDIC_ORDERING_CMRCM || (o) == PCASDDIC_ORDERING_MC)

static PetscErrorCode ASDDICCheckBlocksOrdering(PC pc, PetscInt k, PCASDDICOrderingType o)
{
  PetscFunctionBegin;
  PetscCheck(k == 1 || !ASDDICColourOrdering(o), PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_INCOMP, "asddic: colour orderings (cmrcm, mc) cannot be combined with local blocks (-pc_asddic_local_blocks %" PetscInt_FMT "), whose blocks are each swept by one thread in sequence: use -pc_asddic_ordering rcm or natural, or one local block (got %s)", k, PCASDDICOrderingTypes[o]);
  PetscFunctionReturn(0);
}

/* The ordering and the factor's pattern from the local diagonal block Ad (block rows of size bs) */
static PetscErrorCode PCASDDICSymbolic(PC pc, Mat Ad, PetscInt bs, PCASDDICLayout layout, PetscInt rawbs)
{
  PC_ASDDIC *a = (PC_ASDDIC *)pc->data;
  PetscInt   nb, *xadj, *adj;

  PetscFunctionBegin;
  PetscCall(PCReset_ASDDIC(pc));
  PetscCall(PCASDDICLocalGraph_Private(Ad, bs, layout, rawbs, &nb, &xadj, &adj));
  a->bs     = bs;
  a->nb     = nb;
  a->layout = layout;
  a->rawbs  = rawbs;

  PetscCall(PCASDDICSplitGraph_Private(pc, nb, xadj, adj));
  PetscCall(PCASDDICOrder_Private(pc, nb, xadj, adj));
  PetscCall(PCASDDICFactorSymbolic_Private(a, xadj, adj));
  PetscCall(PetscFree2(xadj, adj));
  PetscCall(MatCreateVecs(pc->pmat, &a->t, NULL));
  PetscCall(VecDuplicate(a->t, &a->w));
  PetscCall(VecDuplicate(a->t, &a->d));
  a->nsymbolic++;
  a->reorder = PETSC_FALSE;
  PetscCall(PetscInfo(pc, "ordering %s: %" PetscInt_FMT " block rows (bs %" PetscInt_FMT ") in %" PetscInt_FMT " local block(s), %" PetscInt_FMT " colours, %" PetscInt_FMT " levels; matrix read %s\n", PCASDDICOrderingTypes[a->ordering], nb, bs, a->nparts, a->ncolors, a->nlevels, ASDDICLayouts[a->layout]));
  PetscFunctionReturn(0);
}

/* threads of the sweeps on this PC's local rows */
static PetscErrorCode ASDDICThreads(PC pc, PetscInt *nt)
{
  PetscInt m = 0;

  PetscFunctionBegin;
  if (pc->pmat) PetscCall(MatGetLocalSize(pc->pmat, &m, NULL));
  *nt = PCASDDICThreads_Private((PC_ASDDIC *)pc->data, m);
  PetscFunctionReturn(0);
}

static PetscErrorCode PCSetUp_ASDDIC(PC pc)
{
  PC_ASDDIC     *a = (PC_ASDDIC *)pc->data;
  Mat            Ad, Aconv = NULL;
  PetscInt       m, bsmat, bs, rawbs = 1;
  PCASDDICLayout layout = PCASDDIC_LAYOUT_GETROW;
  PetscBool      sbaij;
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(PipeKSPThreadsGet_Private(NULL, NULL)); /* a bad -pipeksp_threads* option is refused here */
  PetscCall(PetscLogEventBegin(PCASDDIC_SetUp, pc, 0, 0, 0));
  PetscCall(PetscTime(&t0));
  if (!a->orderingset) { /* colours only pay when several threads share a sweep; alone, RCM converges faster.
                           Local blocks give each thread its own: RCM inside each */
    PCASDDICOrderingType def;
    PetscInt             nt = 1;

    PetscCall(ASDDICThreads(pc, &nt));
    def = nt > 1 && a->localblocks == 1 ? PCASDDIC_ORDERING_CMRCM : PCASDDIC_ORDERING_RCM;
    if (a->ordering != def) {
      a->ordering = def;
      a->reorder  = PETSC_TRUE;
    }
  }
  PetscCall(PCSetFailedReason(pc, PC_NOERROR));
  /* every refusal before the conversion below, so that none leaves it behind */
  PetscCall(ASDDICCheckBlocksOrdering(pc, a->localblocks, a->ordering));
  PetscCall(MatGetLocalSize(pc->pmat, &m, NULL));
  PetscCall(MatGetBlockSize(pc->pmat, &bsmat));
  bs = (a->block == PCASDDIC_BLOCK_POINT) ? 1 : bsmat;
  PetscCheck(bs <= PIPEKSP_BS_MAX, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "asddic: block IC(0) supports block sizes up to %d, the matrix has %" PetscInt_FMT ": use -pc_asddic_block 0 for point IC(0)", PIPEKSP_BS_MAX, bs);
  PetscCheck(m % bs == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "asddic: local size %" PetscInt_FMT " is not a multiple of the block size %" PetscInt_FMT, m, bs);
  PetscCall(MatGetDiagonalBlock(pc->pmat, &Ad));
  PetscCall(PetscObjectTypeCompare((PetscObject)Ad, MATSEQSBAIJ, &sbaij));
  if (sbaij) { /* upper triangle only: expand once per setup to the full block */
    PetscCall(MatConvert(Ad, MATSEQAIJ, MAT_INITIAL_MATRIX, &Aconv));
    Ad = Aconv;
  }
  PetscCall(PCASDDICGetLayout_Private(Ad, bs, &layout, &rawbs));
  if (!pc->setupcalled || pc->flag != SAME_NONZERO_PATTERN || a->reorder || a->bs != bs || a->nb * bs != m || layout != a->layout) {
    PetscCall(PCASDDICSymbolic(pc, Ad, bs, layout, rawbs));
    PetscCall(PCASDDICBuildFillMap_Private(a, Ad));
    PetscCall(PCASDDICSplitSymbolic_Private(a));
  }
  PetscCall(PCASDDICFillValues_Private(a, Ad));
  PetscCall(MatDestroy(&Aconv));

  PetscCall(PCASDDICFactor_Private(pc));
  PetscCall(PCASDDICSetUpSweeps_Private(pc));
  PetscCall(PetscTime(&t1));
  a->t_setup = t1 - t0;
  if (a->estits) PetscCall(PetscInfo(pc, "set-up %g s, of which the eigenvalue estimate %g s\n", a->t_setup, a->t_est));
  PetscCall(PetscLogEventEnd(PCASDDIC_SetUp, pc, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* No PCApplySymmetricLeft/Right: for K > 1 the operator is a polynomial in M^{-1}A times M^{-1} and
   has no cheap symmetric split. */
static PetscErrorCode PCApplyAny_ASDDIC(PC pc, Vec x, Vec y, PetscBool transpose)
{
  PC_ASDDIC *a = (PC_ASDDIC *)pc->data;

  PetscFunctionBegin;
  if (a->failed) { /* KSP sees Inf and stops with DIVERGED_PC_FAILED */
    PetscCall(PipeKSPVecSetInf(y));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscLogEventBegin(PCASDDIC_Apply, pc, x, y, 0));
  PetscCall(PCASDDICApply_Private(pc, x, y, transpose));
  PetscCall(PetscLogEventEnd(PCASDDIC_Apply, pc, x, y, 0));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCApply_ASDDIC(PC pc, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(PCApplyAny_ASDDIC(pc, x, y, PETSC_FALSE));
  PetscFunctionReturn(0);
}

/* M is symmetric by construction (L = U^T D^{-1}), so P^T is the same polynomial in M^{-1}A^T */
static PetscErrorCode PCApplyTranspose_ASDDIC(PC pc, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(PCApplyAny_ASDDIC(pc, x, y, PETSC_TRUE));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCSetFromOptions_ASDDIC(PC pc, PipeKSPOptionItems PetscOptionsObject)
{
  PC_ASDDIC           *a   = (PC_ASDDIC *)pc->data;
  PCASDDICOrderingType ord = a->ordering;
  PetscInt             K = a->colors, lb = a->localblocks, n = a->iterations, nt = a->threads, steps = a->eststeps, neig = 2;
  PetscBool            blk = a->block != PCASDDIC_BLOCK_POINT ? PETSC_TRUE : PETSC_FALSE, chk = a->check, flg, flgord, flglb;
  PCASDDICShiftType    sh     = a->shifttype;
  PCASDDICLocalType    loc    = a->local;
  PCASDDICSweepType    sw     = a->sweep;
  PCASDDICKernelType   ker    = a->kernel;
  PetscReal            eig[2] = {a->emin_user, a->emax_user}, safety = a->safety, omega = a->omega_user;

  PetscFunctionBegin;
  if (!nt) PetscCall(PipeKSPThreadsGet_Private(&nt, NULL));
  PetscOptionsHeadBegin(PetscOptionsObject, "ASDD preconditioner (asddic) options");
  PetscCall(PetscOptionsEnum("-pc_asddic_local", "Local kernel: ic (IC(0)) or sgs (symmetric Gauss-Seidel, GeoFEM's)", "PCASDDICSetLocalType", PCASDDICLocalTypes, (PetscEnum)loc, (PetscEnum *)&loc, &flg));
  if (flg) PetscCall(PCASDDICSetLocalType(pc, loc));
  PetscCall(PetscOptionsEnum("-pc_asddic_ordering", "Local ordering (default: rcm on one thread or with local blocks, cmrcm on more threads)", "PCASDDICSetOrdering", PCASDDICOrderingTypes, (PetscEnum)ord, (PetscEnum *)&ord, &flgord));
  PetscCall(PipeKSPOptionsInt("-pc_asddic_colors", "Colours K of CM-RCM (level l gets colour l mod K) and MC", "PCASDDICSetColors", K, &K, &flg));
  if (flg) PetscCall(PCASDDICSetColors(pc, K));
  PetscCall(PipeKSPOptionsInt("-pc_asddic_local_blocks", "Contiguous blocks of each rank's rows, each factored and swept on its own by one thread (couplings between them dropped)", "PCASDDICSetLocalBlocks", lb, &lb, &flglb));
  /* the two are checked against each other: set first the one that lifts a conflict */
  if (flglb && lb <= 1) PetscCall(PCASDDICSetLocalBlocks(pc, lb)); /* a bad k is refused before any change */
  if (flgord) PetscCall(PCASDDICSetOrdering(pc, ord));
  if (flglb && lb > 1) PetscCall(PCASDDICSetLocalBlocks(pc, lb));
  PetscCall(PetscOptionsBool("-pc_asddic_block", "Block kernel on the matrix block size (default on when bs > 1)", "PCASDDICSetBlock", blk, &blk, &flg));
  if (flg) PetscCall(PCASDDICSetBlock(pc, blk));
  PetscCall(PipeKSPOptionsInt("-pc_asddic_iterations", "ASDD sweeps K (1 = the local kernel alone)", "PCASDDICSetIterations", n, &n, &flg));
  if (flg) PetscCall(PCASDDICSetIterations(pc, n));
  PetscCall(PetscOptionsEnum("-pc_asddic_sweep", "ASDD sweeps: chebyshev on the eigenvalue bounds, or richardson (damped)", "PCASDDICSetSweepType", PCASDDICSweepTypes, (PetscEnum)sw, (PetscEnum *)&sw, &flg));
  if (flg) PetscCall(PCASDDICSetSweepType(pc, sw));
  PetscCall(PipeKSPOptionsInt("-pc_asddic_esteig_steps", "CG steps estimating the eigenvalues of M^-1 A at set-up (-1: 10 when needed, 0: none)", "PCASDDICSetEstimateSteps", steps, &steps, &flg));
  if (flg) PetscCall(PCASDDICSetEstimateSteps(pc, steps));
  PetscCall(PetscOptionsReal("-pc_asddic_esteig_safety", "Factor on the estimated largest eigenvalue", "PCASDDICSetEstimateSafety", safety, &safety, &flg));
  if (flg) PetscCall(PCASDDICSetEstimateSafety(pc, safety));
  PetscCall(PetscOptionsRealArray("-pc_asddic_eigenvalues", "Bounds emin,emax on the eigenvalues of M^-1 A (no estimate)", "PCASDDICSetEigenvalues", eig, &neig, &flg));
  if (flg) {
    PetscCheck(neig == 2, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_INCOMP, "asddic: -pc_asddic_eigenvalues needs two values emin,emax, got %" PetscInt_FMT, neig);
    PetscCall(PCASDDICSetEigenvalues(pc, eig[0], eig[1]));
  }
  PetscCall(PetscOptionsReal("-pc_asddic_damping", "Richardson damping w of z += w M^-1 (r - A z) (0: from the eigenvalue bounds)", "PCASDDICSetDamping", omega, &omega, &flg));
  if (flg) PetscCall(PCASDDICSetDamping(pc, omega));
  PetscCall(PetscOptionsEnum("-pc_asddic_shift", "On a non-positive pivot: none (PC fails) or diagonal (retry with A + alpha diag(A))", "PCASDDICSetShiftType", PCASDDICShiftTypes, (PetscEnum)sh, (PetscEnum *)&sh, &flg));
  if (flg) PetscCall(PCASDDICSetShiftType(pc, sh));
  PetscCall(PipeKSPOptionsInt("-pc_asddic_threads", "OpenMP threads of the sweeps, sharing a colour or the local blocks (default: -pipeksp_threads, the process's one thread count)", "PCASDDICSetThreads", nt, &nt, &flg));
  if (flg) PetscCall(PCASDDICSetThreads(pc, nt));
  PetscCall(PetscOptionsEnum("-pc_asddic_kernel", "Triangular sweeps: tuned (unrolled, threaded) or reference (plain, one thread)", "PCASDDICSetKernelType", PCASDDICKernelTypes, (PetscEnum)ker, (PetscEnum *)&ker, &flg));
  if (flg) PetscCall(PCASDDICSetKernelType(pc, ker));
  PetscCall(PetscOptionsBool("-pc_asddic_check", "Verify in PCSetUp that every colour is an independent set", "PCASDDICSetCheck", chk, &chk, &flg));
  if (flg) PetscCall(PCASDDICSetCheck(pc, chk));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(0);
}

static PetscErrorCode PCView_ASDDIC(PC pc, PetscViewer viewer)
{
  PC_ASDDIC  *a = (PC_ASDDIC *)pc->data;
  PetscBool   iascii;
  PetscReal   alpha = a->alpha;
  PetscInt    cmin = a->ncolors, cmax = a->ncolors, nt = 1;
  MPI_Comm    comm   = PetscObjectComm((PetscObject)pc);
  const char *kernel = a->local == PCASDDIC_LOCAL_SGS ? "symmetric Gauss-Seidel" : "IC(0)";

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(0);
  PetscCall(PipeKSPThreadsGet_Private(NULL, NULL)); /* before set-up a bad -pipeksp_threads* option is refused here */
  PetscCall(ASDDICThreads(pc, &nt));
  if (pc->setupcalled) {
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &alpha, 1, MPIU_REAL, MPIU_MAX, comm));
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &cmin, 1, MPIU_INT, MPI_MIN, comm));
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &cmax, 1, MPIU_INT, MPI_MAX, comm));
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "  local kernel %s (%s) of each rank's diagonal block, %s\n", PCASDDICLocalTypes[a->local], kernel, a->block == PCASDDIC_BLOCK_POINT ? "point" : (a->block == PCASDDIC_BLOCK_MATRIX ? "block (matrix block size)" : "block when the matrix block size > 1")));
  if (a->localblocks > 1) PetscCall(PetscViewerASCIIPrintf(viewer, "  local blocks %" PetscInt_FMT " per rank requested (at most one per block row; contiguous rows, couplings between them dropped; each swept by one thread)\n", a->localblocks));
  if (a->orderingset) PetscCall(PetscViewerASCIIPrintf(viewer, "  ordering %s (set by the user), colours K = %" PetscInt_FMT "\n", PCASDDICOrderingTypes[a->ordering], a->colors));
  else if (a->localblocks > 1) PetscCall(PetscViewerASCIIPrintf(viewer, "  ordering %s inside each local block (default with local blocks)\n", PCASDDICOrderingTypes[PCASDDIC_ORDERING_RCM]));
  else if (nt > 1)
    PetscCall(PetscViewerASCIIPrintf(viewer, "  ordering %s (default for %" PetscInt_FMT " threads: the threads share each colour of the sweeps), colours K = %" PetscInt_FMT "\n", PCASDDICOrderingTypes[PCASDDIC_ORDERING_CMRCM], nt, a->colors));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "  ordering %s (default for 1 thread: colours would only cost iterations)\n", PCASDDICOrderingTypes[PCASDDIC_ORDERING_RCM]));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  ASDD iterations %" PetscInt_FMT "%s\n", a->iterations, a->iterations == 1 ? " (the local kernel alone)" : ""));
  if (a->iterations > 1) {
    if (a->sweep == PCASDDIC_SWEEP_CHEBYSHEV) PetscCall(PetscViewerASCIIPrintf(viewer, "  sweeps chebyshev"));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "  sweeps richardson"));
    PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_FALSE));
    if (!pc->setupcalled) PetscCall(PetscViewerASCIIPrintf(viewer, "\n"));
    else if (a->sweep == PCASDDIC_SWEEP_CHEBYSHEV && !a->chebyshev) PetscCall(PetscViewerASCIIPrintf(viewer, " requested, but the eigenvalue estimate broke down (A not SPD?): undamped richardson\n"));
    else if (a->sweep == PCASDDIC_SWEEP_CHEBYSHEV) PetscCall(PetscViewerASCIIPrintf(viewer, " on [%g, %g] (%s)\n", (double)a->emin, (double)a->emax, a->boundsfrom));
    else if (a->omega_user > 0) PetscCall(PetscViewerASCIIPrintf(viewer, ", damping %g (set by the user)\n", (double)a->omega));
    else if (a->emax > 0) PetscCall(PetscViewerASCIIPrintf(viewer, ", damping %g = min(1, %g / lambda_max bound %g (%s))\n", (double)a->omega, (double)ASDDIC_DAMPING_TARGET, (double)a->emax, a->boundsfrom));
    else PetscCall(PetscViewerASCIIPrintf(viewer, ", undamped (no eigenvalue bounds: estimate off)\n"));
    PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_TRUE));
    if (a->eigsset) PetscCall(PetscViewerASCIIPrintf(viewer, "  no estimate: bounds [%g, %g] given by the user (an emax below lambda_max makes P indefinite for even K)\n", (double)a->emin_user, (double)a->emax_user));
    else if (a->eststeps == 0) PetscCall(PetscViewerASCIIPrintf(viewer, "  no estimate (-pc_asddic_esteig_steps 0): Richardson undamped, GeoFEM's, indefinite for even K once lambda_max > 2\n"));
    else if (a->eststeps < 0)
      PetscCall(PetscViewerASCIIPrintf(viewer, "  estimate: %d CG steps when the sweeps need bounds (at least %d accepted: fewer can stay below lambda_max by more than the safety factor covers), safety factor %g in [%g, %g]\n", ASDDIC_ESTEIG_STEPS, ASDDIC_ESTEIG_STEPS_MIN,
                                       (double)a->safety, (double)ASDDIC_SAFETY_MIN, (double)ASDDIC_SAFETY_MAX));
    else
      PetscCall(PetscViewerASCIIPrintf(viewer, "  estimate: %" PetscInt_FMT " CG steps (at least %d accepted: fewer can stay below lambda_max by more than the safety factor covers), safety factor %g in [%g, %g]\n", a->eststeps, ASDDIC_ESTEIG_STEPS_MIN,
                                       (double)a->safety, (double)ASDDIC_SAFETY_MIN, (double)ASDDIC_SAFETY_MAX));
    if (pc->setupcalled && a->estits)
      PetscCall(PetscViewerASCIIPrintf(viewer, "  eigenvalues of M^-1 A estimated by %" PetscInt_FMT " CG steps: [%g, %g], safety factor %g on the largest; estimate %g s of the set-up's %g s (%" PetscInt_FMT " estimate(s) so far)\n", a->estits,
                                       (double)a->emin_est, (double)a->emax_est, (double)a->safety, a->t_est, a->t_setup, a->nestimates));
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "  shift on non-positive pivot: %s\n", PCASDDICShiftTypes[a->shifttype]));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  triangular sweeps: %s\n", a->kernel == PCASDDIC_KERNEL_REFERENCE ? "reference (plain, one thread)" : (a->localblocks > 1 ? "tuned (unrolled, threads share the local blocks)" : "tuned (unrolled, threads share a colour)")));
#if defined(PIPEKSP_HAVE_OPENMP)
  PetscCall(PetscViewerASCIIPrintf(viewer, "  threads %" PetscInt_FMT " (OpenMP, %s)\n", a->threads ? a->threads : PipeKSPThreadsNum_Private(), a->threads ? "-pc_asddic_threads" : "-pipeksp_threads"));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(PipeKSPThreadsView(viewer));
  PetscCall(PetscViewerASCIIPopTab(viewer));
#else
  PetscCall(PetscViewerASCIIPrintf(viewer, "  threads 1 (built without OpenMP)\n"));
#endif
  if (pc->pmat) { /* the ASDD corrections' products */
    PetscCall(PetscViewerASCIIPushTab(viewer));
    PetscCall(PipeKSPMatViewSpMV(pc->pmat, viewer));
    PetscCall(PetscViewerASCIIPopTab(viewer));
  }
  if (pc->setupcalled) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "  factor block size %" PetscInt_FMT ", colours used %" PetscInt_FMT " to %" PetscInt_FMT " over ranks%s\n", a->bs, cmin, cmax, a->nparts > 1 ? " (local blocks swept in parallel, each sequentially)" : (a->independent ? " (independent sets, sweeps parallel inside a colour)" : " (sequential sweeps)")));
    if (alpha > 0) PetscCall(PetscViewerASCIIPrintf(viewer, "  diagonal shift alpha = %g (largest over ranks)\n", (double)alpha));
    else if (!a->failed) PetscCall(PetscViewerASCIIPrintf(viewer, "  no diagonal shift needed\n"));
    if (a->failed && a->baddiag >= 0) PetscCall(PetscViewerASCIIPrintf(viewer, "  FACTORIZATION FAILED (diagonal entry %g of row %" PetscInt_FMT " not positive: the matrix is not SPD)\n", (double)a->baddiagval, a->baddiag));
    else if (a->failed) PetscCall(PetscViewerASCIIPrintf(viewer, "  FACTORIZATION FAILED (non-positive pivot)\n"));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  ordering computed %" PetscInt_FMT " time(s)\n", a->nsymbolic));
    PetscCall(PetscViewerASCIIPushSynchronized(viewer));
    PetscCall(PetscViewerASCIISynchronizedPrintf(viewer, "    [%d] %" PetscInt_FMT " block rows in %" PetscInt_FMT " local block(s), %" PetscInt_FMT " blocks in the factor, %" PetscInt_FMT " colours, %" PetscInt_FMT " levels\n", (int)PetscGlobalRank, a->nb, a->nparts, a->nnzb, a->ncolors, a->nlevels));
    PetscCall(PetscViewerFlush(viewer));
    PetscCall(PetscViewerASCIIPopSynchronized(viewer));
  }
  PetscFunctionReturn(0);
}

/* ---- the setters and getters of asddic, composed on the PC as "<public name>_C" (the public functions,
   below, reach them with PetscTryMethod()/PetscUseMethod(), as PETSc's PCs do) ---- */

/* A setting that changes what PCSetUp computes: the next PCSetUp (KSPSolve, PCApply) redoes it */
static void ASDDICChanged(PC pc)
{
  if (pc->setupcalled) pc->setupcalled = 0;
}

static PetscErrorCode PCASDDICSetOrdering_ASDDIC(PC pc, PCASDDICOrderingType type)
{
  PC_ASDDIC *a = (PC_ASDDIC *)pc->data;

  PetscFunctionBegin;
  PetscCall(ASDDICCheckBlocksOrdering(pc, a->localblocks, type)); /* here, not in a set-up inside KSPSolve() */
  a->orderingset = PETSC_TRUE;
  if (a->ordering != type) {
    a->ordering = type;
    a->reorder  = PETSC_TRUE;
    ASDDICChanged(pc);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode PCASDDICSetColors_ASDDIC(PC pc, PetscInt K)
{
  PC_ASDDIC *a = (PC_ASDDIC *)pc->data;

  PetscFunctionBegin;
  if (a->colors != K) {
    a->colors  = K;
    a->reorder = PETSC_TRUE;
    ASDDICChanged(pc);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode PCASDDICSetLocalBlocks_ASDDIC(PC pc, PetscInt k)
{
  PC_ASDDIC *a = (PC_ASDDIC *)pc->data;

  PetscFunctionBegin;
  if (a->orderingset) PetscCall(ASDDICCheckBlocksOrdering(pc, k, a->ordering));
  if (a->localblocks != k) {
    a->localblocks = k;
    a->reorder     = PETSC_TRUE;
    ASDDICChanged(pc);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode PCASDDICGetLocalBlocks_ASDDIC(PC pc, PetscInt *k)
{
  PetscFunctionBegin;
  *k = ((PC_ASDDIC *)pc->data)->localblocks;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCASDDICSetIterations_ASDDIC(PC pc, PetscInt n)
{
  PC_ASDDIC *a = (PC_ASDDIC *)pc->data;

  PetscFunctionBegin;
  if (a->iterations != n) {
    a->iterations = n;
    ASDDICChanged(pc); /* whether the bounds are needed depends on n */
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode PCASDDICSetBlock_ASDDIC(PC pc, PetscBool blk)
{
  PC_ASDDIC *a = (PC_ASDDIC *)pc->data;

  PetscFunctionBegin;
  if (a->block != (blk ? PCASDDIC_BLOCK_MATRIX : PCASDDIC_BLOCK_POINT)) {
    a->block   = blk ? PCASDDIC_BLOCK_MATRIX : PCASDDIC_BLOCK_POINT;
    a->reorder = PETSC_TRUE;
    ASDDICChanged(pc);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode PCASDDICSetThreads_ASDDIC(PC pc, PetscInt nt)
{
  PC_ASDDIC *a = (PC_ASDDIC *)pc->data;

  PetscFunctionBegin;
#if !defined(PIPEKSP_HAVE_OPENMP)
  nt = 1;
#endif
  if (!a->orderingset && a->threads != nt) ASDDICChanged(pc); /* the default ordering follows the threads */
  a->threads = nt;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCASDDICSetShiftType_ASDDIC(PC pc, PCASDDICShiftType type)
{
  PC_ASDDIC *a = (PC_ASDDIC *)pc->data;

  PetscFunctionBegin;
  if (a->shifttype != type) {
    a->shifttype = type;
    ASDDICChanged(pc);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode PCASDDICSetCheck_ASDDIC(PC pc, PetscBool flg)
{
  PC_ASDDIC *a = (PC_ASDDIC *)pc->data;

  PetscFunctionBegin;
  if (a->check != flg) {
    a->check = flg;
    if (flg) a->reorder = PETSC_TRUE; /* the check runs with the ordering */
    if (flg) ASDDICChanged(pc);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode PCASDDICSetLocalType_ASDDIC(PC pc, PCASDDICLocalType type)
{
  PC_ASDDIC *a = (PC_ASDDIC *)pc->data;

  PetscFunctionBegin;
  if (a->local != type) {
    a->local = type;
    ASDDICChanged(pc);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode PCASDDICSetSweepType_ASDDIC(PC pc, PCASDDICSweepType type)
{
  PC_ASDDIC *a = (PC_ASDDIC *)pc->data;

  PetscFunctionBegin;
  if (a->sweep != type) {
    a->sweep = type;
    ASDDICChanged(pc);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode PCASDDICSetEigenvalues_ASDDIC(PC pc, PetscReal emin, PetscReal emax)
{
  PC_ASDDIC *a = (PC_ASDDIC *)pc->data;

  PetscFunctionBegin;
  a->eigsset   = (emax > 0) ? PETSC_TRUE : PETSC_FALSE;
  a->emin_user = emin;
  a->emax_user = emax;
  ASDDICChanged(pc);
  PetscFunctionReturn(0);
}

static PetscErrorCode PCASDDICSetEstimateSteps_ASDDIC(PC pc, PetscInt steps)
{
  PC_ASDDIC *a = (PC_ASDDIC *)pc->data;

  PetscFunctionBegin;
  if (a->eststeps != steps) {
    a->eststeps = steps;
    ASDDICChanged(pc);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode PCASDDICSetEstimateSafety_ASDDIC(PC pc, PetscReal safety)
{
  PC_ASDDIC *a = (PC_ASDDIC *)pc->data;

  PetscFunctionBegin;
  if (a->safety != safety) {
    a->safety = safety;
    ASDDICChanged(pc);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode PCASDDICSetDamping_ASDDIC(PC pc, PetscReal omega)
{
  PC_ASDDIC *a = (PC_ASDDIC *)pc->data;

  PetscFunctionBegin;
  if (a->omega_user != omega) {
    a->omega_user = omega;
    ASDDICChanged(pc);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode PCASDDICSetKernelType_ASDDIC(PC pc, PCASDDICKernelType type)
{
  PC_ASDDIC *a = (PC_ASDDIC *)pc->data;

  PetscFunctionBegin;
  if (a->kernel != type) {
    a->kernel = type;
    ASDDICChanged(pc); /* the eigenvalue estimate runs through the sweeps */
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode PCASDDICGetEigenvalueBounds_ASDDIC(PC pc, PetscReal *emin, PetscReal *emax, PetscReal *omega)
{
  PC_ASDDIC *a = (PC_ASDDIC *)pc->data;

  PetscFunctionBegin;
  PetscCheck(pc->setupcalled, PetscObjectComm((PetscObject)pc), PETSC_ERR_ORDER, "PCASDDICGetEigenvalueBounds(): call PCSetUp() first");
  if (emin) *emin = a->emin;
  if (emax) *emax = a->emax;
  if (omega) *omega = a->omega;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCASDDICGetColoring_ASDDIC(PC pc, PetscInt *bs, PetscInt *nblocks, PetscInt *ncolors, const PetscInt **colorptr, const PetscInt **perm, PetscBool *independent)
{
  PC_ASDDIC *a = (PC_ASDDIC *)pc->data;

  PetscFunctionBegin;
  PetscCheck(pc->setupcalled && a->perm, PetscObjectComm((PetscObject)pc), PETSC_ERR_ORDER, "PCASDDICGetColoring(): call PCSetUp() first");
  if (bs) *bs = a->bs;
  if (nblocks) *nblocks = a->nb;
  if (ncolors) *ncolors = a->ncolors;
  if (colorptr) *colorptr = a->colorptr;
  if (perm) *perm = a->perm;
  if (independent) *independent = a->independent;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCASDDICGetFactorInfo_ASDDIC(PC pc, PetscReal *alpha, PetscInt *nsymbolic, PetscLogDouble *bytes)
{
  PC_ASDDIC *a = (PC_ASDDIC *)pc->data;

  PetscFunctionBegin;
  if (alpha) *alpha = a->alpha;
  if (nsymbolic) *nsymbolic = a->nsymbolic;
  if (bytes) { /* least memory traffic of one local solve: L and U values and indices once, dinv, perm, r, z, work twice */
    PetscInt bs2 = a->bs * a->bs;
    *bytes       = (PetscLogDouble)(a->nnzb - a->nb) * bs2 * sizeof(MatScalar) + (PetscLogDouble)(a->nnzb - a->nb) * sizeof(PetscInt) + 2.0 * (a->nb + 1) * sizeof(PetscInt) + (PetscLogDouble)a->nb * bs2 * sizeof(MatScalar) + (PetscLogDouble)a->nb * sizeof(PetscInt) + 4.0 * a->nb * a->bs * sizeof(PetscScalar);
  }
  PetscFunctionReturn(0);
}

/* the composed methods, added by PCCreate_ASDDIC() (f the function) and removed by PCDestroy_ASDDIC()
   (f NULL) */
static PetscErrorCode ASDDICComposeMethods(PC pc, PetscBool add)
{
  PetscFunctionBegin;
#define ASDDIC_COMPOSE(name) PetscCall(PetscObjectComposeFunction((PetscObject)pc, #name "_C", add ? name##_ASDDIC : NULL))
  ASDDIC_COMPOSE(PCASDDICSetOrdering);
  ASDDIC_COMPOSE(PCASDDICSetColors);
  ASDDIC_COMPOSE(PCASDDICSetLocalBlocks);
  ASDDIC_COMPOSE(PCASDDICGetLocalBlocks);
  ASDDIC_COMPOSE(PCASDDICSetIterations);
  ASDDIC_COMPOSE(PCASDDICSetBlock);
  ASDDIC_COMPOSE(PCASDDICSetThreads);
  ASDDIC_COMPOSE(PCASDDICSetShiftType);
  ASDDIC_COMPOSE(PCASDDICSetCheck);
  ASDDIC_COMPOSE(PCASDDICSetLocalType);
  ASDDIC_COMPOSE(PCASDDICSetSweepType);
  ASDDIC_COMPOSE(PCASDDICSetEigenvalues);
  ASDDIC_COMPOSE(PCASDDICSetEstimateSteps);
  ASDDIC_COMPOSE(PCASDDICSetEstimateSafety);
  ASDDIC_COMPOSE(PCASDDICSetDamping);
  ASDDIC_COMPOSE(PCASDDICSetKernelType);
  ASDDIC_COMPOSE(PCASDDICGetEigenvalueBounds);
  ASDDIC_COMPOSE(PCASDDICGetColoring);
  ASDDIC_COMPOSE(PCASDDICGetFactorInfo);
#undef ASDDIC_COMPOSE
  PetscFunctionReturn(0);
}

static PetscErrorCode PCDestroy_ASDDIC(PC pc)
{
  PetscFunctionBegin;
  PetscCall(PCReset_ASDDIC(pc));
  PetscCall(ASDDICComposeMethods(pc, PETSC_FALSE));
  PetscCall(PetscFree(pc->data));
  PetscFunctionReturn(0);
}

/*MC
   PCASDDIC - "asddic": Nakajima's GeoFEM preconditioner. Each rank applies a local kernel M to its own
   rows (IC(0) or symmetric Gauss-Seidel of its diagonal block, point or block, in RCM or coloured
   order), wrapped in K ASDD (additive Schwarz) correction sweeps on the global operator: GeoFEM's
   z = M^{-1} r, then K-1 times z += M^{-1} (r - A z), here damped or Chebyshev-accelerated from a
   set-up estimate of the extreme eigenvalues of M^{-1} A so that the result is positive definite for
   every K.

   Options Database Keys:
+  -pc_asddic_local <ic,sgs> - the local kernel: IC(0) (default), or symmetric Gauss-Seidel, GeoFEM's own
                              kernel (D + L) D^{-1} (D + U) with A's diagonal blocks, see `PCASDDICSetLocalType()`
.  -pc_asddic_block <bool> - block kernel on the matrix block size (default when bs > 1) or point, see `PCASDDICSetBlock()`
.  -pc_asddic_ordering <cmrcm,rcm,mc,natural> - local ordering; default rcm with one thread or with local blocks, cmrcm with more threads, see `PCASDDICSetOrdering()`
.  -pc_asddic_colors <K> - colours of CM-RCM and MC (default 20), see `PCASDDICSetColors()`
.  -pc_asddic_local_blocks <k> - split each rank's rows into k contiguous blocks, which the threads share, each swept by one thread with no colouring (default 1), see `PCASDDICSetLocalBlocks()`
.  -pc_asddic_iterations <K> - ASDD sweeps (default 2; 1 = the local kernel alone, block Jacobi), see `PCASDDICSetIterations()`
.  -pc_asddic_sweep <chebyshev,richardson> - Chebyshev (default) or damped Richardson sweeps, see `PCASDDICSetSweepType()`
.  -pc_asddic_esteig_steps <n> - CG steps of the eigenvalue estimate (default 10 when needed, 0 none, at least 10), see `PCASDDICSetEstimateSteps()`
.  -pc_asddic_esteig_safety <s> - factor on the estimated largest eigenvalue (default 1.1, in [1.1, 10]), see `PCASDDICSetEstimateSafety()`
.  -pc_asddic_eigenvalues <emin,emax> - bounds on the eigenvalues of M^{-1} A given by hand (no estimate; emax in [1e-6, 1e6], emax/emin <= 1e12), see `PCASDDICSetEigenvalues()`
.  -pc_asddic_damping <w> - Richardson damping given by hand (default: from the bounds; in [1e-6, 2)), see `PCASDDICSetDamping()`
.  -pc_asddic_shift <none,diagonal> - on a non-positive pivot, retry with A + alpha diag(A) (default) or fail, see `PCASDDICSetShiftType()`
.  -pc_asddic_threads <t> - OpenMP threads of the sweeps, sharing a colour or the local blocks (default: `-pipeksp_threads`, the process's one thread count), see `PCASDDICSetThreads()`
.  -pc_asddic_check - check at set-up that every colour is an independent set, see `PCASDDICSetCheck()`
-  -pc_asddic_kernel <tuned,reference> - the tuned triangular sweeps (default) or the plain reference ones, see `PCASDDICSetKernelType()`

   Level: intermediate

   Notes:
   K Richardson sweeps give P_K = [I - (I - w M^{-1}A)^K] A^{-1}, which is symmetric, and positive definite
   when 1 - (1 - w lambda)^K > 0 for every eigenvalue lambda of M^{-1}A; for even K that needs w lambda < 2.
   IC(0) can have lambda > 2 (on nearly incompressible elasticity, or with multicolouring), and then
   GeoFEM's undamped sweeps are indefinite. Symmetric Gauss-Seidel has lambda in (0, 1] on one rank
   (M - A = L D^{-1} L^T >= 0), but over several ranks M - A also holds the couplings between ranks and
   lambda goes above 2 too (nearly incompressible elasticity over several ranks). So at set-up 10 CG steps on A with M as preconditioner, on a random right-hand side and
   collectively over the ranks, estimate the extreme eigenvalues as `KSPCHEBYSHEV` does. Chebyshev sweeps
   (the default) use the interval [lambda_min, 1.1 lambda_max]: P_K is positive definite for every
   eigenvalue below the sum of the two bounds, and needs no more outer iterations than the undamped sweeps
   where those work. Richardson sweeps use w = min(1, 1.9 / (1.1 lambda_max)). The estimate is redone at
   every set-up with new values (`SAME_NONZERO_PATTERN`); it is skipped when K = 1, when the bounds are
   given, for Richardson sweeps with a given damping, and for Richardson sweeps around sgs on one rank. With -pc_asddic_sweep richardson
   -pc_asddic_esteig_steps 0 the sweeps are GeoFEM's. `-pc_view` and `-info` show the bounds, the damping,
   and the estimate's time against the whole set-up's.

   Inputs that would make P_K indefinite or scale it away are refused: fewer than 10 estimate steps
   (after 8 they stayed below 0.92 lambda_max), a safety factor outside [1.1, 10], bounds with emax outside
   [1e-6, 1e6] or emax/emin > 1e12, a damping outside [1e-6, 2). A diagonal entry of A that is not positive
   (A is not SPD, e.g. negative definite) fails the PC with `PC_FACTOR_NUMERIC_ZEROPIVOT` (KSP:
   `KSP_DIVERGED_PC_FAILED`; with `-ksp_error_if_not_converged` an error naming the row and value), as a
   pivot that no shift cures does: a shift cannot change the sign of a diagonal entry into a useful one.

   The ordering is computed once per nonzero pattern. Colourings (cmrcm, mc) let OpenMP threads share the
   rows of a colour but cost iterations; with one thread RCM is the default. The operator is symmetric,
   and `PCApplyTranspose()` applies it with A^T, so `KSPSolveTranspose()` works.

   As for PETSc's PCs, the `PCASDDICSet*()` functions do nothing on a PC of another type (after checking
   their arguments) and the `PCASDDICGet*()` functions are an error there.

   References:
+  * - K. Nakajima, Parallel iterative solvers of GeoFEM with selective blocking preconditioning for nonlinear
       contact problems on the Earth Simulator, Proceedings of ACM/IEEE SC2003, 2003.
.  * - K. Nakajima, T. Hanawa, Communication-computation overlapping with dynamic loop scheduling for
       preconditioned parallel iterative solvers on multicore/manycore clusters, P2S2 2017 (ICPP workshops).
.  * - B. Smith, P. Bjorstad, W. Gropp, Domain Decomposition, Cambridge University Press, 1996 (ASDD).
-  * - Y. Saad, Iterative Methods for Sparse Linear Systems, 2nd ed., SIAM, 2003 (IC(0), SSOR, Chebyshev acceleration).

.seealso: `PCBJACOBI`, `PCICC`, `PCSOR`, `PCCOMPOSITE`, `KSPCHEBYSHEV`, `PCASDDICSetIterations()`, `PCASDDICSetLocalType()`,
          `PCASDDICSetSweepType()`, `PCASDDICGetEigenvalueBounds()`
M*/
PETSC_INTERN PetscErrorCode PCCreate_ASDDIC(PC pc)
{
  PC_ASDDIC *a = NULL;

  PetscFunctionBegin;
  PetscCall(PetscNew(&a));
  a->ordering             = PCASDDIC_ORDERING_RCM;
  a->local                = PCASDDIC_LOCAL_IC;
  a->sweep                = PCASDDIC_SWEEP_CHEBYSHEV; /* positive definite for every K, as fast as undamped Richardson where that works */
  a->colors               = ASDDIC_DEFAULT_COLORS;
  a->localblocks          = 1;
  a->block                = PCASDDIC_BLOCK_AUTO;
  a->iterations           = ASDDIC_DEFAULT_ITERATIONS;
  a->shifttype            = PCASDDIC_SHIFT_DIAGONAL;
  a->kernel               = PCASDDIC_KERNEL_TUNED;
  a->threads              = 0; /* 0: the process's -pipeksp_threads, one team for the SpMV, the KSP and the sweeps */
  a->eststeps             = -1;
  a->baddiag              = -1;
  a->safety               = ASDDIC_DEFAULT_SAFETY;
  a->omega                = 1;
  a->boundsfrom           = "none";
  pc->data                = (void *)a;
  pc->ops->setup          = PCSetUp_ASDDIC;
  pc->ops->apply          = PCApply_ASDDIC;
  pc->ops->applytranspose = PCApplyTranspose_ASDDIC;
  pc->ops->reset          = PCReset_ASDDIC;
  pc->ops->destroy        = PCDestroy_ASDDIC;
  pc->ops->setfromoptions = PCSetFromOptions_ASDDIC;
  pc->ops->view           = PCView_ASDDIC;
  PetscCall(ASDDICComposeMethods(pc, PETSC_TRUE));
  PetscFunctionReturn(0);
}

/* ---- the public settings and inspection: PetscTryMethod() (setters, no-ops on other PC types) and
   PetscUseMethod() (getters, an error on other PC types) ---- */

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

.seealso: `PCASDDIC`, `PCASDDICSetColors()`, `PCASDDICSetThreads()`, `PCASDDICGetColoring()`
@*/
PetscErrorCode PCASDDICSetOrdering(PC pc, PCASDDICOrderingType type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, type, 2);
  PetscCheck(type >= PCASDDIC_ORDERING_CMRCM && type <= PCASDDIC_ORDERING_NATURAL, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "asddic: unknown ordering %d: use cmrcm, rcm, mc or natural", (int)type);
  PetscTryMethod(pc, "PCASDDICSetOrdering_C", (PC, PCASDDICOrderingType), (pc, type));
  PetscFunctionReturn(0);
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

.seealso: `PCASDDIC`, `PCASDDICSetOrdering()`
@*/
PetscErrorCode PCASDDICSetColors(PC pc, PetscInt K)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, K, 2);
  PetscCheck(K >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "asddic: the number of colours must be at least 1, got %" PetscInt_FMT ": use -pc_asddic_colors K with K >= 1", K);
  PetscTryMethod(pc, "PCASDDICSetColors_C", (PC, PetscInt), (pc, K));
  PetscFunctionReturn(0);
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
  PetscFunctionReturn(0);
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
  PetscFunctionReturn(0);
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

.seealso: `PCASDDIC`, `PCASDDICSetSweepType()`, `PCASDDICSetDamping()`
@*/
PetscErrorCode PCASDDICSetIterations(PC pc, PetscInt n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, n, 2);
  PetscCheck(n >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "asddic: the number of ASDD iterations must be at least 1 (1 = plain localized IC(0)), got %" PetscInt_FMT ": use -pc_asddic_iterations n with n >= 1", n);
  PetscTryMethod(pc, "PCASDDICSetIterations_C", (PC, PetscInt), (pc, n));
  PetscFunctionReturn(0);
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

.seealso: `PCASDDIC`, `PCASDDICSetLocalType()`
@*/
PetscErrorCode PCASDDICSetBlock(PC pc, PetscBool blk)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveBool(pc, blk, 2);
  PetscTryMethod(pc, "PCASDDICSetBlock_C", (PC, PetscBool), (pc, blk));
  PetscFunctionReturn(0);
}

/*@
   PCASDDICSetThreads - Sets the OpenMP threads that share each colour of the sweeps of `PCASDDIC`

   Logically Collective

   Input Parameters:
+  pc - the preconditioner context
-  nt - threads, at least 1 (default: the process's `-pipeksp_threads`; always 1 without OpenMP)

   Options Database Key:
.  -pc_asddic_threads <nt> - the threads

   Level: intermediate

   Note:
   Threads only share the sweeps of a colouring (cmrcm, mc). When the ordering is the default, it follows
   the threads: passing between one and several threads makes the next set-up reorder.

.seealso: `PCASDDIC`, `PCASDDICSetOrdering()`
@*/
PetscErrorCode PCASDDICSetThreads(PC pc, PetscInt nt)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, nt, 2);
  PetscCheck(nt >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "asddic: the number of threads must be at least 1, got %" PetscInt_FMT, nt);
  PetscCheck(nt <= PIPEKSP_THREADS_MAX, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "asddic: at most %d threads per process, got %" PetscInt_FMT, PIPEKSP_THREADS_MAX, nt);
  PetscTryMethod(pc, "PCASDDICSetThreads_C", (PC, PetscInt), (pc, nt));
  PetscFunctionReturn(0);
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

.seealso: `PCASDDIC`, `PCASDDICGetFactorInfo()`, `PCFactorSetShiftType()`
@*/
PetscErrorCode PCASDDICSetShiftType(PC pc, PCASDDICShiftType type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, type, 2);
  PetscCheck(type == PCASDDIC_SHIFT_NONE || type == PCASDDIC_SHIFT_DIAGONAL, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "asddic: unknown shift type %d: use none or diagonal", (int)type);
  PetscTryMethod(pc, "PCASDDICSetShiftType_C", (PC, PCASDDICShiftType), (pc, type));
  PetscFunctionReturn(0);
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

.seealso: `PCASDDIC`, `PCASDDICGetColoring()`
@*/
PetscErrorCode PCASDDICSetCheck(PC pc, PetscBool flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveBool(pc, flg, 2);
  PetscTryMethod(pc, "PCASDDICSetCheck_C", (PC, PetscBool), (pc, flg));
  PetscFunctionReturn(0);
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

.seealso: `PCASDDIC`, `PCASDDICSetSweepType()`, `PCASDDICSetBlock()`
@*/
PetscErrorCode PCASDDICSetLocalType(PC pc, PCASDDICLocalType type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, type, 2);
  PetscCheck(type == PCASDDIC_LOCAL_IC || type == PCASDDIC_LOCAL_SGS, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "asddic: unknown local kernel %d: use ic or sgs", (int)type);
  PetscTryMethod(pc, "PCASDDICSetLocalType_C", (PC, PCASDDICLocalType), (pc, type));
  PetscFunctionReturn(0);
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

.seealso: `PCASDDIC`, `PCASDDICSetEigenvalues()`, `PCASDDICSetEstimateSteps()`, `KSPCHEBYSHEV`
@*/
PetscErrorCode PCASDDICSetSweepType(PC pc, PCASDDICSweepType type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, type, 2);
  PetscCheck(type == PCASDDIC_SWEEP_RICHARDSON || type == PCASDDIC_SWEEP_CHEBYSHEV, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "asddic: unknown sweep type %d: use richardson or chebyshev", (int)type);
  PetscTryMethod(pc, "PCASDDICSetSweepType_C", (PC, PCASDDICSweepType), (pc, type));
  PetscFunctionReturn(0);
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

.seealso: `PCASDDIC`, `PCASDDICSetEstimateSteps()`, `PCASDDICGetEigenvalueBounds()`, `KSPChebyshevSetEigenvalues()`
@*/
PetscErrorCode PCASDDICSetEigenvalues(PC pc, PetscReal emin, PetscReal emax)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveReal(pc, emin, 2);
  PetscValidLogicalCollectiveReal(pc, emax, 3);
  PetscCheck((emin == 0 && emax == 0) || (emin > 0 && emax > emin && emax >= ASDDIC_EMAX_MIN && emax <= ASDDIC_EMAX_MAX && emax <= ASDDIC_ERATIO_MAX * emin), PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "asddic: eigenvalue bounds need 0 < emin < emax, emax in [%g, %g] and emax/emin at most %g (beyond, P is indefinite or scaled away), got %g, %g (0,0 returns to the estimate)", (double)ASDDIC_EMAX_MIN, (double)ASDDIC_EMAX_MAX, (double)ASDDIC_ERATIO_MAX, (double)emin, (double)emax);
  PetscTryMethod(pc, "PCASDDICSetEigenvalues_C", (PC, PetscReal, PetscReal), (pc, emin, emax));
  PetscFunctionReturn(0);
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

.seealso: `PCASDDIC`, `PCASDDICSetEstimateSafety()`, `PCASDDICSetEigenvalues()`
@*/
PetscErrorCode PCASDDICSetEstimateSteps(PC pc, PetscInt steps)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, steps, 2);
  PetscCheck(steps == -1 || steps == 0 || steps >= ASDDIC_ESTEIG_STEPS_MIN, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "asddic: estimate steps must be -1 (automatic), 0 (none) or at least %d (fewer can stay below lambda_max by more than the safety factor: P indefinite), got %" PetscInt_FMT, ASDDIC_ESTEIG_STEPS_MIN, steps);
  PetscTryMethod(pc, "PCASDDICSetEstimateSteps_C", (PC, PetscInt), (pc, steps));
  PetscFunctionReturn(0);
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

.seealso: `PCASDDIC`, `PCASDDICSetEstimateSteps()`
@*/
PetscErrorCode PCASDDICSetEstimateSafety(PC pc, PetscReal safety)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveReal(pc, safety, 2);
  PetscCheck(safety >= ASDDIC_SAFETY_MIN && safety <= ASDDIC_SAFETY_MAX, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "asddic: the safety factor on the largest eigenvalue must be at least %g and at most %g (below, P can be indefinite; above, it is scaled away), got %g", (double)ASDDIC_SAFETY_MIN, (double)ASDDIC_SAFETY_MAX, (double)safety);
  PetscTryMethod(pc, "PCASDDICSetEstimateSafety_C", (PC, PetscReal), (pc, safety));
  PetscFunctionReturn(0);
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

.seealso: `PCASDDIC`, `PCASDDICSetSweepType()`, `PCASDDICGetEigenvalueBounds()`
@*/
PetscErrorCode PCASDDICSetDamping(PC pc, PetscReal omega)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveReal(pc, omega, 2);
  PetscCheck(omega == 0 || (omega >= ASDDIC_DAMPING_MIN && omega < 2), PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "asddic: the damping must be in [%g, 2), or 0 for automatic, got %g", (double)ASDDIC_DAMPING_MIN, (double)omega);
  PetscTryMethod(pc, "PCASDDICSetDamping_C", (PC, PetscReal), (pc, omega));
  PetscFunctionReturn(0);
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

.seealso: `PCASDDIC`, `PCASDDICKernelType`, `PCASDDICSetThreads()`
@*/
PetscErrorCode PCASDDICSetKernelType(PC pc, PCASDDICKernelType type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, type, 2);
  PetscCheck(type == PCASDDIC_KERNEL_TUNED || type == PCASDDIC_KERNEL_REFERENCE, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "asddic: unknown kernel %d: use tuned or reference", (int)type);
  PetscTryMethod(pc, "PCASDDICSetKernelType_C", (PC, PCASDDICKernelType), (pc, type));
  PetscFunctionReturn(0);
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
  PetscFunctionReturn(0);
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
  PetscFunctionReturn(0);
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
  PetscFunctionReturn(0);
}
