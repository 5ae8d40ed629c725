/* PC asddic, the PC object: its ops, options, view and the methods behind its public API (asddictype.c).
   A local kernel (IC(0) or symmetric Gauss-Seidel) of each rank's diagonal block in RCM or CM-RCM order,
   wrapped in ASDD (additive Schwarz) correction sweeps, as in Nakajima's GeoFEM (docs/algorithms.md
   section 3). The other asddic_*.c files hold the pieces; include/pipeksp/asddicimpl.h lists them. */
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
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Colours let threads share a sweep; local blocks give each thread its own block, swept in sequence */
#define ASDDICColourOrdering(o) ((o) == PCASDDIC_ORDERING_CMRCM || (o) == PCASDDIC_ORDERING_MC)

static PetscErrorCode ASDDICCheckBlocksOrdering(PC pc, PetscInt k, PCASDDICOrderingType o)
{
  PetscFunctionBegin;
  PetscCheck(k == 1 || !ASDDICColourOrdering(o), PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_INCOMP, "asddic: colour orderings (cmrcm, mc) cannot be combined with local blocks (-pc_asddic_local_blocks %" PetscInt_FMT "), whose blocks are each swept by one thread in sequence: use -pc_asddic_ordering rcm or natural, or one local block (got %s)", k, PCASDDICOrderingTypes[o]);
  PetscFunctionReturn(PETSC_SUCCESS);
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
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* threads of the sweeps on this PC's local rows */
static PetscErrorCode ASDDICThreads(PC pc, PetscInt *nt)
{
  PetscInt m = 0;

  PetscFunctionBegin;
  if (pc->pmat) PetscCall(MatGetLocalSize(pc->pmat, &m, NULL));
  *nt = PCASDDICThreads_Private((PC_ASDDIC *)pc->data, m);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the ordering the next set-up uses: the user's, else colours only where several threads share a sweep
   (alone, RCM converges faster; local blocks give each thread its own: RCM inside each) */
static PetscErrorCode ASDDICOrdering(PC pc, PCASDDICOrderingType *o)
{
  PC_ASDDIC *a  = (PC_ASDDIC *)pc->data;
  PetscInt   nt = 1;

  PetscFunctionBegin;
  if (a->orderingset) *o = a->ordering;
  else {
    PetscCall(ASDDICThreads(pc, &nt));
    *o = nt > 1 && a->localblocks == 1 ? PCASDDIC_ORDERING_CMRCM : PCASDDIC_ORDERING_RCM;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
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
  if (!a->orderingset) {
    PCASDDICOrderingType def = a->ordering;

    PetscCall(ASDDICOrdering(pc, &def));
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
  PetscCall(PetscObjectStateGet((PetscObject)pc->pmat, &a->pmatstate));
  PetscCall(PetscTime(&t1));
  a->t_setup = t1 - t0;
  if (a->estits) PetscCall(PetscInfo(pc, "set-up %g s, of which the eigenvalue estimate %g s\n", a->t_setup, a->t_est));
  PetscCall(PetscLogEventEnd(PCASDDIC_SetUp, pc, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* No PCApplySymmetricLeft/Right: for K > 1 the operator is a polynomial in M^{-1}A times M^{-1} and
   has no cheap symmetric split. */
static PetscErrorCode PCApplyAny_ASDDIC(PC pc, Vec x, Vec y, PetscBool transpose)
{
  PC_ASDDIC *a = (PC_ASDDIC *)pc->data;

  PetscFunctionBegin;
  if (a->failed) { /* KSP sees Inf and stops with DIVERGED_PC_FAILED */
    PetscCall(PipeKSPVecSetInf(y));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (a->iterations > 1) {
    PetscObjectState state;

    /* the sweeps multiply by pc->pmat as it is now, the factors are from the set-up: a reused PC
       (-ksp_reuse_preconditioner) whose matrix changed keeps its factorization, but bounds estimated for the
       old values can make the polynomial indefinite (cg then ended DIVERGED_INDEFINITE_PC after A + 0.5 I), so
       they are estimated again for the new ones */
    PetscCall(PetscObjectStateGet((PetscObject)pc->pmat, &state));
    if (state != a->pmatstate) {
      PetscCall(PetscInfo(pc, "the matrix changed since the set-up (the PC is reused): the sweeps' bounds estimated again, the factorization kept\n"));
      PetscCall(PCASDDICSetUpSweeps_Private(pc));
      a->pmatstate = state;
    }
  }
  PetscCall(PetscLogEventBegin(PCASDDIC_Apply, pc, x, y, 0));
  PetscCall(PCASDDICApply_Private(pc, x, y, transpose));
  PetscCall(PetscLogEventEnd(PCASDDIC_Apply, pc, x, y, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCApply_ASDDIC(PC pc, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(PCApplyAny_ASDDIC(pc, x, y, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* M is symmetric by construction (L = U^T D^{-1}), so P^T is the same polynomial in M^{-1}A^T */
static PetscErrorCode PCApplyTranspose_ASDDIC(PC pc, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(PCApplyAny_ASDDIC(pc, x, y, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
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
  PetscCall(PipeKSPOptionsInt("-pc_asddic_threads", "OpenMP threads of the sweeps, sharing a colour or the local blocks (0: the default, -pipeksp_threads, the process's one thread count)", "PCASDDICSetThreads", nt, &nt, &flg));
  if (flg) PetscCall(PCASDDICSetThreads(pc, nt));
  PetscCall(PetscOptionsEnum("-pc_asddic_kernel", "Triangular sweeps: tuned (unrolled, threaded) or reference (plain, one thread)", "PCASDDICSetKernelType", PCASDDICKernelTypes, (PetscEnum)ker, (PetscEnum *)&ker, &flg));
  if (flg) PetscCall(PCASDDICSetKernelType(pc, ker));
  PetscCall(PetscOptionsBool("-pc_asddic_check", "Verify in PCSetUp that every colour is an independent set", "PCASDDICSetCheck", chk, &chk, &flg));
  if (flg) PetscCall(PCASDDICSetCheck(pc, chk));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A few lines; the per-rank figures, the estimate's account and the policy behind the defaults only
   with -pc_view ::ascii_info_detail, as PETSc's PCs do */
static PetscErrorCode PCView_ASDDIC(PC pc, PetscViewer viewer)
{
  PC_ASDDIC        *a = (PC_ASDDIC *)pc->data;
  PetscBool         iascii, detail;
  PetscViewerFormat format;
  PetscReal         alpha = a->alpha;
  PetscInt          cmin = a->ncolors, cmax = a->ncolors, nt = 1;
  MPI_Comm          comm   = PetscObjectComm((PetscObject)pc);
  const char       *kernel = a->local == PCASDDIC_LOCAL_SGS ? "symmetric Gauss-Seidel" : "IC(0)";

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerGetFormat(viewer, &format));
  detail = format == PETSC_VIEWER_ASCII_INFO_DETAIL ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(PipeKSPThreadsGet_Private(NULL, NULL)); /* before set-up a bad -pipeksp_threads* option is refused here */
  PetscCall(ASDDICThreads(pc, &nt));
  if (pc->setupcalled) {
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &alpha, 1, MPIU_REAL, MPIU_MAX, comm));
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &cmin, 1, MPIU_INT, MPI_MIN, comm));
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &cmax, 1, MPIU_INT, MPI_MAX, comm));
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "  local kernel %s (%s) of each rank's diagonal block, %s", PCASDDICLocalTypes[a->local], kernel, a->block == PCASDDIC_BLOCK_POINT ? "point" : (a->block == PCASDDIC_BLOCK_MATRIX ? "block (matrix block size)" : "block when the matrix block size > 1")));
  PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_FALSE));
  if (a->localblocks > 1) PetscCall(PetscViewerASCIIPrintf(viewer, ", in %" PetscInt_FMT " local blocks per rank (contiguous rows, couplings between them dropped)", a->localblocks));
  PetscCall(PetscViewerASCIIPrintf(viewer, "\n"));
  PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_TRUE));
  if (a->orderingset) PetscCall(PetscViewerASCIIPrintf(viewer, "  ordering %s (set by the user), colours K = %" PetscInt_FMT "\n", PCASDDICOrderingTypes[a->ordering], a->colors));
  else if (a->localblocks > 1) PetscCall(PetscViewerASCIIPrintf(viewer, "  ordering %s inside each local block (default with local blocks)\n", PCASDDICOrderingTypes[PCASDDIC_ORDERING_RCM]));
  else if (nt > 1)
    PetscCall(PetscViewerASCIIPrintf(viewer, "  ordering %s (default for %" PetscInt_FMT " threads: the threads share each colour of the sweeps), colours K = %" PetscInt_FMT "\n", PCASDDICOrderingTypes[PCASDDIC_ORDERING_CMRCM], nt, a->colors));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "  ordering %s (default for 1 thread: colours would only cost iterations)\n", PCASDDICOrderingTypes[PCASDDIC_ORDERING_RCM]));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  ASDD iterations %" PetscInt_FMT, a->iterations));
  PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_FALSE));
  if (a->iterations == 1) PetscCall(PetscViewerASCIIPrintf(viewer, " (the local kernel alone)\n"));
  else {
    PetscCall(PetscViewerASCIIPrintf(viewer, ", sweeps %s", a->sweep == PCASDDIC_SWEEP_CHEBYSHEV ? "chebyshev" : "richardson"));
    if (!pc->setupcalled) PetscCall(PetscViewerASCIIPrintf(viewer, "\n"));
    else if (a->sweep == PCASDDIC_SWEEP_CHEBYSHEV && !a->chebyshev) PetscCall(PetscViewerASCIIPrintf(viewer, " requested, but the eigenvalue estimate broke down (A not SPD?): undamped richardson\n"));
    else if (a->sweep == PCASDDIC_SWEEP_CHEBYSHEV) PetscCall(PetscViewerASCIIPrintf(viewer, " on [%g, %g] (%s)\n", (double)a->emin, (double)a->emax, a->boundsfrom));
    else if (a->omega_user > 0) PetscCall(PetscViewerASCIIPrintf(viewer, ", damping %g (set by the user)\n", (double)a->omega));
    else if (a->emax > 0) PetscCall(PetscViewerASCIIPrintf(viewer, ", damping %g = min(1, %g / lambda_max bound %g (%s))\n", (double)a->omega, (double)ASDDIC_DAMPING_TARGET, (double)a->emax, a->boundsfrom));
    else PetscCall(PetscViewerASCIIPrintf(viewer, ", undamped (no eigenvalue bounds: estimate off)\n"));
  }
  PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_TRUE));
#if defined(PIPEKSP_HAVE_OPENMP)
  PetscCall(PetscViewerASCIIPrintf(viewer, "  shift on non-positive pivot: %s; triangular sweeps %s; threads %" PetscInt_FMT " (OpenMP, %s)\n", PCASDDICShiftTypes[a->shifttype], a->kernel == PCASDDIC_KERNEL_REFERENCE ? "reference (plain, one thread)" : (a->localblocks > 1 ? "tuned (threads share the local blocks)" : "tuned (threads share a colour)"), a->threads ? a->threads : PipeKSPThreadsNum_Private(), a->threads ? "-pc_asddic_threads" : "-pipeksp_threads"));
#else
  PetscCall(PetscViewerASCIIPrintf(viewer, "  shift on non-positive pivot: %s; triangular sweeps %s; threads 1 (built without OpenMP)\n", PCASDDICShiftTypes[a->shifttype], a->kernel == PCASDDIC_KERNEL_REFERENCE ? "reference (plain)" : "tuned"));
#endif
  if (pc->pmat) { /* the ASDD corrections' products */
    PetscCall(PetscViewerASCIIPushTab(viewer));
    PetscCall(PipeKSPMatViewSpMV(pc->pmat, viewer));
    PetscCall(PetscViewerASCIIPopTab(viewer));
  }
  if (pc->setupcalled) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "  factor block size %" PetscInt_FMT ", colours used %" PetscInt_FMT " to %" PetscInt_FMT " over ranks%s, ", a->bs, cmin, cmax, a->nparts > 1 ? " (local blocks swept in parallel, each sequentially)" : (a->independent ? " (independent sets, sweeps parallel inside a colour)" : " (sequential sweeps)")));
    PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_FALSE));
    if (alpha > 0) PetscCall(PetscViewerASCIIPrintf(viewer, "diagonal shift alpha = %g (largest over ranks)", (double)alpha));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "%s", a->failed ? "FACTORIZATION FAILED" : "no diagonal shift needed"));
    PetscCall(PetscViewerASCIIPrintf(viewer, ", ordering computed %" PetscInt_FMT " time(s)\n", a->nsymbolic));
    PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_TRUE));
    if (a->failed && a->baddiag >= 0) PetscCall(PetscViewerASCIIPrintf(viewer, "  FACTORIZATION FAILED (diagonal entry %g of row %" PetscInt_FMT " not positive: the matrix is not SPD)\n", (double)a->baddiagval, a->baddiag));
    else if (a->failed) PetscCall(PetscViewerASCIIPrintf(viewer, "  FACTORIZATION FAILED (non-positive pivot)\n"));
  }
  if (!detail) PetscFunctionReturn(PETSC_SUCCESS);
  if (a->iterations > 1) {
    if (a->eigsset) PetscCall(PetscViewerASCIIPrintf(viewer, "  no estimate: bounds [%g, %g] given by the user (an emax below lambda_max makes P indefinite for even K)\n", (double)a->emin_user, (double)a->emax_user));
    else if (a->eststeps == 0) PetscCall(PetscViewerASCIIPrintf(viewer, "  no estimate (-pc_asddic_esteig_steps 0): Richardson undamped, GeoFEM's, indefinite for even K once lambda_max > 2\n"));
    else
      PetscCall(PetscViewerASCIIPrintf(viewer, "  estimate: %" PetscInt_FMT " CG steps%s (at least %d accepted: fewer can stay below lambda_max by more than the safety factor covers), safety factor %g in [%g, %g]\n", a->eststeps < 0 ? (PetscInt)ASDDIC_ESTEIG_STEPS : a->eststeps, a->eststeps < 0 ? " when the sweeps need bounds" : "", ASDDIC_ESTEIG_STEPS_MIN,
                                       (double)a->safety, (double)ASDDIC_SAFETY_MIN, (double)ASDDIC_SAFETY_MAX));
    if (pc->setupcalled && a->estits)
      PetscCall(PetscViewerASCIIPrintf(viewer, "  eigenvalues of M^-1 A estimated by %" PetscInt_FMT " CG steps: [%g, %g], safety factor %g on the largest; estimate %g s of the set-up's %g s (%" PetscInt_FMT " estimate(s) so far)\n", a->estits,
                                       (double)a->emin_est, (double)a->emax_est, (double)a->safety, a->t_est, a->t_setup, a->nestimates));
  }
  if (pc->setupcalled) {
    PetscCall(PetscViewerASCIIPushSynchronized(viewer));
    PetscCall(PetscViewerASCIISynchronizedPrintf(viewer, "    [%d] %" PetscInt_FMT " block rows in %" PetscInt_FMT " local block(s), %" PetscInt_FMT " blocks in the factor, %" PetscInt_FMT " colours, %" PetscInt_FMT " levels\n", (int)PetscGlobalRank, a->nb, a->nparts, a->nnzb, a->ncolors, a->nlevels));
    PetscCall(PetscViewerFlush(viewer));
    PetscCall(PetscViewerASCIIPopSynchronized(viewer));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- the setters and getters of asddic, composed on the PC as "<public name>_C" (the public functions
   in asddictype.c reach them with PetscTryMethod()/PetscUseMethod(), as PETSc's PCs do) ---- */

/* A setting that changes what PCSetUp computes: the next PCSetUp (KSPSolve, PCApply) redoes it */
static void ASDDICChanged(PC pc)
{
  if (pc->setupcalled) pc->setupcalled = 0;
}

/* The settings that only change what the next set-up computes (the number of sweeps decides whether
   bounds are needed, and the estimate runs through the kernel and the sweeps) */
#define ASDDIC_SETTER(name, T, field) \
  static PetscErrorCode PCASDDICSet##name##_ASDDIC(PC pc, T v) \
  { \
    PC_ASDDIC *a = (PC_ASDDIC *)pc->data; \
    PetscFunctionBegin; \
    if (a->field != v) { \
      a->field = v; \
      ASDDICChanged(pc); \
    } \
    PetscFunctionReturn(PETSC_SUCCESS); \
  }
ASDDIC_SETTER(Iterations, PetscInt, iterations)
ASDDIC_SETTER(ShiftType, PCASDDICShiftType, shifttype)
ASDDIC_SETTER(LocalType, PCASDDICLocalType, local)
ASDDIC_SETTER(SweepType, PCASDDICSweepType, sweep)
ASDDIC_SETTER(EstimateSteps, PetscInt, eststeps)
ASDDIC_SETTER(EstimateSafety, PetscReal, safety)
ASDDIC_SETTER(Damping, PetscReal, omega_user)
ASDDIC_SETTER(KernelType, PCASDDICKernelType, kernel)
#undef ASDDIC_SETTER

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
  PetscFunctionReturn(PETSC_SUCCESS);
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
  PetscFunctionReturn(PETSC_SUCCESS);
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
  PetscFunctionReturn(PETSC_SUCCESS);
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
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCASDDICSetThreads_ASDDIC(PC pc, PetscInt nt)
{
  PC_ASDDIC *a = (PC_ASDDIC *)pc->data;

  PetscFunctionBegin;
#if !defined(PIPEKSP_HAVE_OPENMP)
  if (nt) nt = 1; /* 0 stays the default */
#endif
  if (!a->orderingset && a->threads != nt) ASDDICChanged(pc); /* the default ordering follows the threads */
  a->threads = nt;
  PetscFunctionReturn(PETSC_SUCCESS);
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
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCASDDICSetEigenvalues_ASDDIC(PC pc, PetscReal emin, PetscReal emax)
{
  PC_ASDDIC *a = (PC_ASDDIC *)pc->data;

  PetscFunctionBegin;
  a->eigsset   = (emax > 0) ? PETSC_TRUE : PETSC_FALSE;
  a->emin_user = emin;
  a->emax_user = emax;
  ASDDICChanged(pc);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the getters of the settings: each returns what its setter stores (ordering and threads: what the next
   set-up uses when the user set none) */
#define ASDDIC_GETTER(name, T, expr) \
  static PetscErrorCode PCASDDICGet##name##_ASDDIC(PC pc, T *v) \
  { \
    PC_ASDDIC *a = (PC_ASDDIC *)pc->data; \
    PetscFunctionBegin; \
    *v = (expr); \
    PetscFunctionReturn(PETSC_SUCCESS); \
  }
ASDDIC_GETTER(Colors, PetscInt, a->colors)
ASDDIC_GETTER(LocalBlocks, PetscInt, a->localblocks)
ASDDIC_GETTER(Iterations, PetscInt, a->iterations)
ASDDIC_GETTER(Block, PetscBool, a->block != PCASDDIC_BLOCK_POINT ? PETSC_TRUE : PETSC_FALSE)
ASDDIC_GETTER(Threads, PetscInt, a->threads ? a->threads : PipeKSPThreadsNum_Private())
ASDDIC_GETTER(ShiftType, PCASDDICShiftType, a->shifttype)
ASDDIC_GETTER(Check, PetscBool, a->check)
ASDDIC_GETTER(LocalType, PCASDDICLocalType, a->local)
ASDDIC_GETTER(SweepType, PCASDDICSweepType, a->sweep)
ASDDIC_GETTER(EstimateSteps, PetscInt, a->eststeps)
ASDDIC_GETTER(EstimateSafety, PetscReal, a->safety)
ASDDIC_GETTER(Damping, PetscReal, a->omega_user)
ASDDIC_GETTER(KernelType, PCASDDICKernelType, a->kernel)
#undef ASDDIC_GETTER

static PetscErrorCode PCASDDICGetOrdering_ASDDIC(PC pc, PCASDDICOrderingType *type)
{
  PetscFunctionBegin;
  PetscCall(ASDDICOrdering(pc, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCASDDICGetEigenvalues_ASDDIC(PC pc, PetscReal *emin, PetscReal *emax)
{
  PC_ASDDIC *a = (PC_ASDDIC *)pc->data;

  PetscFunctionBegin;
  if (emin) *emin = a->emin_user;
  if (emax) *emax = a->emax_user;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCASDDICGetEigenvalueBounds_ASDDIC(PC pc, PetscReal *emin, PetscReal *emax, PetscReal *omega)
{
  PC_ASDDIC *a = (PC_ASDDIC *)pc->data;

  PetscFunctionBegin;
  PetscCheck(pc->setupcalled, PetscObjectComm((PetscObject)pc), PETSC_ERR_ORDER, "PCASDDICGetEigenvalueBounds(): call PCSetUp() first");
  if (emin) *emin = a->emin;
  if (emax) *emax = a->emax;
  if (omega) *omega = a->omega;
  PetscFunctionReturn(PETSC_SUCCESS);
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
  PetscFunctionReturn(PETSC_SUCCESS);
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
  PetscFunctionReturn(PETSC_SUCCESS);
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
  ASDDIC_COMPOSE(PCASDDICGetOrdering);
  ASDDIC_COMPOSE(PCASDDICGetColors);
  ASDDIC_COMPOSE(PCASDDICGetIterations);
  ASDDIC_COMPOSE(PCASDDICGetBlock);
  ASDDIC_COMPOSE(PCASDDICGetThreads);
  ASDDIC_COMPOSE(PCASDDICGetShiftType);
  ASDDIC_COMPOSE(PCASDDICGetCheck);
  ASDDIC_COMPOSE(PCASDDICGetLocalType);
  ASDDIC_COMPOSE(PCASDDICGetSweepType);
  ASDDIC_COMPOSE(PCASDDICGetEigenvalues);
  ASDDIC_COMPOSE(PCASDDICGetEstimateSteps);
  ASDDIC_COMPOSE(PCASDDICGetEstimateSafety);
  ASDDIC_COMPOSE(PCASDDICGetDamping);
  ASDDIC_COMPOSE(PCASDDICGetKernelType);
  ASDDIC_COMPOSE(PCASDDICGetEigenvalueBounds);
  ASDDIC_COMPOSE(PCASDDICGetColoring);
  ASDDIC_COMPOSE(PCASDDICGetFactorInfo);
#undef ASDDIC_COMPOSE
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCDestroy_ASDDIC(PC pc)
{
  PetscFunctionBegin;
  PetscCall(PCReset_ASDDIC(pc));
  PetscCall(ASDDICComposeMethods(pc, PETSC_FALSE));
  PetscCall(PetscFree(pc->data));
  PetscFunctionReturn(PETSC_SUCCESS);
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
.  -pc_asddic_threads <t> - OpenMP threads of the sweeps, sharing a colour or the local blocks (0: the default, `-pipeksp_threads`, the process's one thread count), see `PCASDDICSetThreads()`
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
   every set-up with new values (`SAME_NONZERO_PATTERN`), and at the first application after the matrix's
   values changed without a set-up (`-ksp_reuse_preconditioner`, `PCSetReusePreconditioner()`): the sweeps
   multiply by the matrix as it is, so the bounds follow it while the factorization is kept; it is skipped when K = 1, when the bounds are
   given, for Richardson sweeps with a given damping, and for Richardson sweeps around sgs on one rank. With -pc_asddic_sweep richardson
   -pc_asddic_esteig_steps 0 the sweeps are GeoFEM's. `-pc_view` shows the bounds and the damping;
   `-pc_view ::ascii_info_detail` and `-info` add the estimate and its time against the whole set-up's.

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
  PetscFunctionReturn(PETSC_SUCCESS);
}
