static char help[] = "Checks of PC asddic on the GeoFEM/Cube matrix. -test <name>:\n\
  coloring   every colour of the local ordering is an independent set of the rank's diagonal block\n\
  symmetry   (x, M^{-1} y) = (M^{-1} x, y) on random vectors, to -tol (default 1e-10) relative\n\
  threads    -pc_asddic_threads 1 and 2 give the same M^{-1} r\n\
  blocks     with -pc_asddic_local_blocks k: M is block diagonal over the blocks, the same for 1 and 2\n\
             threads, and cmrcm is refused\n\
  icc        cg+asddic (natural, 1 iteration, point) and cg+icc take the same iterations +-1\n\
  reuse      a second setup with SAME_NONZERO_PATTERN reuses the ordering, the factor is redone\n\
  layouts    the same operator as baij, aij and sbaij (read directly or through MatGetRow) gives the\n\
             same M^{-1} b to 1e-12\n\
  pivot      one diagonal entry made negative: -pc_asddic_shift none fails the PC (DIVERGED_PC_FAILED),\n\
             diagonal shifts with alpha > 0 and gives finite results\n\
  bjacobi    cg+asddic (2 ASDD iterations) needs fewer iterations than cg+bjacobi/icc\n\
  spd        largest eigenvalue of M_loc^{-1} A < 2, so ASDD with 2 iterations is positive definite\n\
  transpose  KSPSolveTranspose with cg + asddic converges to KSPSolve's solution; on a nonsymmetric\n\
             perturbation B of A, (y, P x) = (P^T y, x) to 1e-10 (PCApplyTranspose uses B^T)\n\
  reestimate a SAME_NONZERO_PATTERN re-setup with new values (A + c I) estimates the eigenvalues of\n\
             M^-1 A again (new bounds) and keeps the ordering; prints -ksp_view\n\
  solve      cg + asddic as configured by the options (-s_ prefix; -break_pivot as in pivot);\n             prints iterations, error vs the exact solution, KSPSolve and set-up (KSPSetUp) time\n\
Every check but solve ends with \"all checks passed\" (a failed one errors with \"asddic test FAILED\").\n";

#include "common/pipeksptest.h"

static PetscErrorCode Fail(const char *what)
{
  PetscFunctionBegin;
  SETERRQ(PETSC_COMM_WORLD, PETSC_ERR_LIB, "asddic test FAILED: %s", what);
}

/* Solves with the options under prefix; returns iterations, reason, error vs exact, time */
static PetscBool      ComputeSV     = PETSC_FALSE; /* Lanczos extreme eigenvalue estimates (spd test) */
static PetscLogDouble LastSetUpTime = 0;           /* KSPSetUp (PCSetUp) of the last Solve(), not in its time */

static PetscErrorCode Solve(PipeKSPCube cube, Mat A, Vec b, const char *prefix, PetscInt *its, KSPConvergedReason *reason, PetscReal *err, PetscLogDouble *time, KSP *kspout)
{
  KSP            ksp;
  Vec            x;
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOptionsPrefix(ksp, prefix));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 2000));
  PetscCall(KSPSetComputeSingularValues(ksp, ComputeSV));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(MPI_Barrier(PETSC_COMM_WORLD));
  PetscCall(PetscTime(&t0));
  PetscCall(KSPSetUp(ksp));
  PetscCall(PetscTime(&t1));
  LastSetUpTime = t1 - t0;
  PetscCall(MPI_Barrier(PETSC_COMM_WORLD));
  PetscCall(PetscTime(&t0));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(PetscTime(&t1));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetConvergedReason(ksp, reason));
  if (err) PetscCall(PipeKSPCubeComputeError(cube, x, err));
  if (time) *time = t1 - t0;
  PetscCall(VecDestroy(&x));
  if (kspout) *kspout = ksp;
  else PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MakePC(Mat A, const char *prefix, PC *pc)
{
  PetscFunctionBegin;
  PetscCall(TestPCASDDIC(A, prefix, pc));
  PetscCall(PCSetUp(*pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestColoring(Mat A)
{
  PC              pc;
  Mat             Ad, Aconv = NULL;
  PetscInt        bs, nb, nc, *col, bad = 0, m;
  const PetscInt *cp, *perm;
  PetscBool       indep, sbaij;

  PetscFunctionBegin;
  PetscCall(MakePC(A, NULL, &pc));
  PetscCall(PCASDDICGetColoring(pc, &bs, &nb, &nc, &cp, &perm, &indep));
  PetscCall(MatGetDiagonalBlock(A, &Ad));
  PetscCall(PetscObjectTypeCompare((PetscObject)Ad, MATSEQSBAIJ, &sbaij));
  if (sbaij) { /* the full pattern, not just the upper triangle */
    PetscCall(MatConvert(Ad, MATSEQAIJ, MAT_INITIAL_MATRIX, &Aconv));
    Ad = Aconv;
  }
  PetscCall(MatGetLocalSize(Ad, &m, NULL));
  PetscCheck(nb * bs == m, PETSC_COMM_SELF, PETSC_ERR_LIB, "coloring covers %" PetscInt_FMT " x %" PetscInt_FMT " rows, the block has %" PetscInt_FMT, nb, bs, m);
  PetscCheck(cp[0] == 0 && cp[nc] == nb, PETSC_COMM_SELF, PETSC_ERR_LIB, "colour ranges do not cover the block rows");
  PetscCall(PetscMalloc1(nb, &col));
  for (PetscInt i = 0; i < nb; i++) col[i] = -1;
  for (PetscInt c = 0; c < nc; c++)
    for (PetscInt i = cp[c]; i < cp[c + 1]; i++) {
      PetscCheck(col[perm[i]] < 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "perm is not a permutation");
      col[perm[i]] = c;
    }
  for (PetscInt r = 0; r < m; r++) {
    PetscInt        ncols;
    const PetscInt *cols;
    PetscCall(MatGetRow(Ad, r, &ncols, &cols, NULL));
    for (PetscInt k = 0; k < ncols; k++)
      if (cols[k] / bs != r / bs && col[cols[k] / bs] == col[r / bs]) bad++;
    PetscCall(MatRestoreRow(Ad, r, &ncols, &cols, NULL));
  }
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &bad, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &nc, 1, MPIU_INT, MPI_MAX, PETSC_COMM_WORLD));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "block size %" PetscInt_FMT ", up to %" PetscInt_FMT " colours, colours are independent sets: %s, couplings inside a colour: %" PetscInt_FMT "\n", bs, nc, indep ? "yes" : "no (sequential ordering)", bad));
  if (indep && bad) PetscCall(Fail("a colour is not an independent set"));
  PetscCall(PetscFree(col));
  PetscCall(MatDestroy(&Aconv));
  PetscCall(PCDestroy(&pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestSymmetry(Mat A, PetscReal tol)
{
  PC          pc;
  Vec         x, y, Mx, My;
  PetscRandom rnd;
  PetscScalar a, b;
  PetscReal   rel;

  PetscFunctionBegin;
  PetscCall(MakePC(A, NULL, &pc));
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(VecDuplicate(x, &Mx));
  PetscCall(VecDuplicate(x, &My));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetFromOptions(rnd));
  PetscCall(VecSetRandom(x, rnd));
  PetscCall(VecSetRandom(y, rnd));
  PetscCall(PCApply(pc, x, Mx));
  PetscCall(PCApply(pc, y, My));
  PetscCall(VecDot(x, My, &a));
  PetscCall(VecDot(Mx, y, &b));
  rel = PetscAbsScalar(a - b) / PetscMax(PetscAbsScalar(a), PetscAbsScalar(b));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "(x, M^-1 y) vs (M^-1 x, y): relative difference %s %g\n", rel < tol ? "below" : "NOT below", (double)tol));
  if (!(rel < tol)) PetscCall(Fail("operator not symmetric"));
  /* positive on these vectors too */
  PetscCall(VecDot(x, Mx, &a));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "(x, M^-1 x) > 0: %s\n", PetscRealPart(a) > 0 ? "yes" : "no"));
  if (!(PetscRealPart(a) > 0)) PetscCall(Fail("operator not positive"));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&Mx));
  PetscCall(VecDestroy(&My));
  PetscCall(PCDestroy(&pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestThreads(Mat A)
{
  PC          pc;
  Vec         r, z1, z2;
  PetscRandom rnd;
  PetscReal   nd, n1;

  PetscFunctionBegin;
  PetscCall(MakePC(A, NULL, &pc));
  PetscCall(MatCreateVecs(A, &r, &z1));
  PetscCall(VecDuplicate(z1, &z2));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(VecSetRandom(r, rnd));
  { /* the default would follow the threads; local blocks take a sequential ordering */
    PetscInt lb;
    PetscCall(PCASDDICGetLocalBlocks(pc, &lb));
    PetscCall(PCASDDICSetOrdering(pc, lb > 1 ? PCASDDIC_ORDERING_RCM : PCASDDIC_ORDERING_CMRCM));
  }
  PetscCall(PCASDDICSetThreads(pc, 1));
  PetscCall(PCApply(pc, r, z1));
  PetscCall(PCASDDICSetThreads(pc, 2));
  PetscCall(PCApply(pc, r, z2));
  PetscCall(VecAXPY(z2, -1.0, z1));
  PetscCall(VecNorm(z2, NORM_2, &nd));
  PetscCall(VecNorm(z1, NORM_2, &n1));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "threads 1 vs 2: relative difference %s 1e-14\n", nd <= 1e-14 * n1 ? "below" : "NOT below"));
  if (!(nd <= 1e-14 * n1)) PetscCall(Fail("threaded sweep differs from the one-thread sweep"));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecDestroy(&r));
  PetscCall(VecDestroy(&z1));
  PetscCall(VecDestroy(&z2));
  PetscCall(PCDestroy(&pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* local blocks (-pc_asddic_local_blocks k >= 2): the local kernel is block diagonal over the blocks (a
   residual on the first block's rows stays there), the same bitwise for 1 and 2 threads, and the
   orderings with colours are refused with the PC reusable after */
static PetscErrorCode TestBlocks(Mat A)
{
  PC             pc;
  Vec            r, z1, z2;
  PetscRandom    rnd;
  PetscInt       lb, bs, nb, n0, m;
  PetscReal      out = 0, in = 0, nd;
  PetscScalar   *ra;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(MakePC(A, NULL, &pc));
  PetscCall(PCASDDICGetLocalBlocks(pc, &lb));
  if (lb < 2) PetscCall(Fail("-test blocks needs -pc_asddic_local_blocks >= 2"));
  PetscCall(PCASDDICSetIterations(pc, 1)); /* the local kernel alone */
  PetscCall(PCASDDICSetThreads(pc, 1));
  PetscCall(PCSetUp(pc));
  PetscCall(PCASDDICGetColoring(pc, &bs, &nb, NULL, NULL, NULL, NULL));
  lb = PetscMin(lb, nb); /* the PC uses at most one block per block row */
  n0 = (nb / lb) * bs;   /* rows of the first block: block rows 0 .. nb/lb - 1 */
  PetscCall(MatCreateVecs(A, &r, &z1));
  PetscCall(VecDuplicate(z1, &z2));
  PetscCall(VecGetLocalSize(r, &m));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(VecSetRandom(r, rnd));
  PetscCall(VecGetArray(r, &ra));
  for (PetscInt i = n0; i < m; i++) ra[i] = 0;
  PetscCall(VecRestoreArray(r, &ra));
  PetscCall(PCApply(pc, r, z1));
  PetscCall(VecGetArray(z1, &ra));
  for (PetscInt i = 0; i < m; i++) {
    if (i < n0) in = PetscMax(in, PetscAbsScalar(ra[i]));
    else out = PetscMax(out, PetscAbsScalar(ra[i]));
  }
  PetscCall(VecRestoreArray(z1, &ra));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &out, 1, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &in, 1, MPIU_REAL, MPIU_MIN, PETSC_COMM_WORLD));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "local kernel block diagonal over %" PetscInt_FMT " local blocks: %s\n", lb, out == 0 && in > 0 ? "yes" : "NO"));
  if (!(out == 0 && in > 0)) PetscCall(Fail("M^{-1} of a residual on the first local block reaches the other blocks"));
  /* threads: the blocks are shared, each swept the same way */
  PetscCall(PCASDDICSetIterations(pc, 2));
  PetscCall(VecSetRandom(r, rnd));
  PetscCall(PCApply(pc, r, z1));
  PetscCall(PCASDDICSetThreads(pc, 2));
  PetscCall(PCApply(pc, r, z2));
  PetscCall(VecAXPY(z2, -1.0, z1));
  PetscCall(VecNorm(z2, NORM_INFINITY, &nd));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "local blocks, threads 1 vs 2: %s\n", nd == 0 ? "bitwise equal" : "NOT equal"));
  if (nd != 0) PetscCall(Fail("local blocks: 2 threads differ from 1"));
  /* a colour ordering is refused by the setter (not by a set-up inside KSPSolve()); the PC stays usable */
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = PCASDDICSetOrdering(pc, PCASDDIC_ORDERING_CMRCM);
  PetscCall(PetscPopErrorHandler());
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "cmrcm with local blocks: %s\n", ierr == PETSC_ERR_ARG_INCOMP ? "refused" : "NOT refused"));
  if (ierr != PETSC_ERR_ARG_INCOMP) PetscCall(Fail("cmrcm with local blocks was not refused"));
  PetscCall(PCASDDICSetOrdering(pc, PCASDDIC_ORDERING_RCM));
  PetscCall(PCApply(pc, r, z2));
  PetscCall(VecAXPY(z2, -1.0, z1));
  PetscCall(VecNorm(z2, NORM_INFINITY, &nd));
  if (nd != 0) PetscCall(Fail("local blocks: the PC after the refused set-up differs"));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecDestroy(&r));
  PetscCall(VecDestroy(&z1));
  PetscCall(VecDestroy(&z2));
  PetscCall(PCDestroy(&pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestICC(PipeKSPCube cube, Mat A, Vec b)
{
  PetscInt           i1, i2;
  KSPConvergedReason r1, r2;
  PetscReal          e1, e2;

  PetscFunctionBegin;
  PetscCall(PetscOptionsSetValue(NULL, "-a_pc_type", "asddic"));
  PetscCall(PetscOptionsSetValue(NULL, "-a_pc_asddic_ordering", "natural"));
  PetscCall(PetscOptionsSetValue(NULL, "-a_pc_asddic_iterations", "1"));
  PetscCall(PetscOptionsSetValue(NULL, "-i_pc_type", "icc"));
  PetscCall(Solve(cube, A, b, "a_", &i1, &r1, &e1, NULL, NULL));
  PetscCall(Solve(cube, A, b, "i_", &i2, &r2, &e2, NULL, NULL));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "cg+asddic(natural, 1 iteration): %" PetscInt_FMT " iterations, cg+icc: %" PetscInt_FMT " iterations; equal +-1: %s; both errors < 1e-5: %s\n", i1, i2, PetscAbsInt(i1 - i2) <= 1 ? "yes" : "no", e1 < 1e-5 && e2 < 1e-5 ? "yes" : "no"));
  if (r1 <= 0 || r2 <= 0 || PetscAbsInt(i1 - i2) > 1 || !(e1 < 1e-5 && e2 < 1e-5)) PetscCall(Fail("asddic(natural) does not match icc"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestReuse(PipeKSPCube cube, Mat A, Vec b)
{
  KSP                ksp;
  PC                 pc;
  Vec                x, z0, z1;
  PetscInt           nsym, its;
  PetscReal          err, dz, nz0;
  KSPConvergedReason reason;

  PetscFunctionBegin;
  PetscCall(PetscOptionsSetValue(NULL, "-pc_type", "asddic"));
  PetscCall(Solve(cube, A, b, NULL, &its, &reason, &err, NULL, &ksp));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(VecDuplicate(b, &z0));
  PetscCall(VecDuplicate(b, &z1));
  PetscCall(PCApply(pc, b, z0));
  /* scale the operator: same pattern, new values; the solution scales by 1/2 */
  PetscCall(MatScale(A, 2.0));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(KSPSolve(ksp, b, x));
  /* the factor must hold the new values: M(2A)^{-1} b = M(A)^{-1} b / 2 (CG alone would not notice) */
  PetscCall(PCApply(pc, b, z1));
  PetscCall(VecAXPY(z1, -0.5, z0));
  PetscCall(VecNorm(z1, NORM_2, &dz));
  PetscCall(VecNorm(z0, NORM_2, &nz0));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "refactored with the new values (M(2A)^-1 = M(A)^-1 / 2 to 1e-12): %s\n", dz <= 1e-12 * 0.5 * nz0 ? "yes" : "no"));
  if (!(dz <= 1e-12 * 0.5 * nz0)) PetscCall(Fail("the second setup did not refresh the factor's values"));
  PetscCall(VecDestroy(&z0));
  PetscCall(VecDestroy(&z1));
  PetscCall(VecScale(x, 2.0));
  PetscCall(PipeKSPCubeComputeError(cube, x, &err));
  PetscCall(PCASDDICGetFactorInfo(pc, NULL, &nsym, NULL));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "second setup: ordering computed %" PetscInt_FMT " time(s), refactored solve converged: %s, error < 1e-5: %s\n", nsym, reason > 0 ? "yes" : "no", err < 1e-5 ? "yes" : "no"));
  if (nsym != 1 || reason <= 0 || !(err < 1e-5)) PetscCall(Fail("reuse of the ordering / refactorization"));
  PetscCall(MatScale(A, 0.5));
  PetscCall(VecDestroy(&x));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Makes a coupling a_ij (a_ji too) in the middle of rank 0's rows 10 sqrt(a_ii a_jj): the diagonal stays
   positive, so A + alpha diag(A) can mend the 2x2 minor IC(0) breaks down on; a diagonal entry that is not
   positive fails the PC at once (ex20) */
static PetscErrorCode BreakPivot(Mat A)
{
  PetscInt    rs, re;
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(MatGetOwnershipRange(A, &rs, &re));
  if (rank == 0) {
    PetscInt        row = (rs + re) / 2, col = -1, ncols, idx[2];
    const PetscInt *cols;
    PetscScalar     v[4];
    PetscCall(MatGetRow(A, row, &ncols, &cols, NULL));
    for (PetscInt k = 0; k < ncols && col < 0; k++)
      if (cols[k] != row && cols[k] >= rs && cols[k] < re) col = cols[k];
    PetscCall(MatRestoreRow(A, row, &ncols, &cols, NULL));
    PetscCheck(col >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "row %" PetscInt_FMT " has no local coupling", row);
    idx[0] = row;
    idx[1] = col;
    PetscCall(MatGetValues(A, 2, idx, 2, idx, v));
    v[1] = v[2] = 10 * PetscSqrtReal(PetscRealPart(v[0]) * PetscRealPart(v[3]));
    PetscCall(MatSetValues(A, 2, idx, 2, idx, v, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestPivot(Mat A)
{
  PC             pc;
  Vec            r, z;
  PCFailedReason fr;
  PetscReal      alpha, nrm;

  PetscFunctionBegin;
  PetscCall(BreakPivot(A));
  PetscCall(MatCreateVecs(A, &r, &z));
  PetscCall(VecSet(r, 1.0));
  /* none: the PC fails on every rank and its output is Inf (KSP stops with DIVERGED_PC_FAILED) */
  PetscCall(PetscOptionsSetValue(NULL, "-n_pc_asddic_shift", "none"));
  PetscCall(MakePC(A, "n_", &pc));
  PetscCall(PCGetFailedReason(pc, &fr));
  PetscCall(PCApply(pc, r, z));
  PetscCall(VecNorm(z, NORM_INFINITY, &nrm));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "shift none: PC failed reason %s, output is Inf: %s\n", PCFailedReasons[fr], PetscIsInfReal(nrm) ? "yes" : "no"));
  if (fr != PC_FACTOR_NUMERIC_ZEROPIVOT || !PetscIsInfReal(nrm)) PetscCall(Fail("shift none did not fail the PC"));
  PetscCall(PCDestroy(&pc));
  /* diagonal: succeeds with a positive shift, finite output */
  PetscCall(PetscOptionsSetValue(NULL, "-d_pc_asddic_shift", "diagonal"));
  PetscCall(MakePC(A, "d_", &pc));
  PetscCall(PCGetFailedReason(pc, &fr));
  PetscCall(PCASDDICGetFactorInfo(pc, &alpha, NULL, NULL));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &alpha, 1, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));
  PetscCall(PCApply(pc, r, z));
  PetscCall(VecNorm(z, NORM_INFINITY, &nrm));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "shift diagonal: PC failed reason %s, alpha > 0: %s, output finite: %s\n", PCFailedReasons[fr], alpha > 0 ? "yes" : "no", PetscIsInfOrNanReal(nrm) ? "no" : "yes"));
  if (fr != PC_NOERROR || !(alpha > 0) || PetscIsInfOrNanReal(nrm)) PetscCall(Fail("diagonal shift did not recover"));
  PetscCall(PCDestroy(&pc));
  PetscCall(VecDestroy(&r));
  PetscCall(VecDestroy(&z));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestBJacobi(PipeKSPCube cube, Mat A, Vec b)
{
  PetscInt           i1, i2;
  KSPConvergedReason r1, r2;
  PetscReal          e1, e2;
  PetscLogDouble     t1, t2;

  PetscFunctionBegin;
  PetscCall(PetscOptionsSetValue(NULL, "-a_pc_type", "asddic"));
  PetscCall(PetscOptionsSetValue(NULL, "-a_pc_asddic_iterations", "2"));
  PetscCall(PetscOptionsSetValue(NULL, "-b_pc_type", "bjacobi"));
  PetscCall(PetscOptionsSetValue(NULL, "-b_sub_pc_type", "icc"));
  PetscCall(Solve(cube, A, b, "a_", &i1, &r1, &e1, &t1, NULL));
  PetscCall(Solve(cube, A, b, "b_", &i2, &r2, &e2, &t2, NULL));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "cg+asddic(2 ASDD iterations) needs fewer iterations than cg+bjacobi/icc: %s\n", i1 < i2 ? "yes" : "no"));
  PetscCall(PetscInfo(NULL, "asddic %" PetscInt_FMT " its %g s, bjacobi/icc %" PetscInt_FMT " its %g s\n", i1, t1, i2, t2));
  if (r1 <= 0 || r2 <= 0 || i1 >= i2 || !(e1 < 1e-5)) PetscCall(Fail("asddic not better than bjacobi+icc"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestLayouts(Mat A, Vec b)
{
  const MatType types[] = {MATBAIJ, MATAIJ, MATSBAIJ};
  Vec           z0, z;
  PetscReal     nz0, dz, worst = 0;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(b, &z0));
  PetscCall(VecDuplicate(b, &z));
  PetscCall(MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE)); /* PETSc 3.26 converts to SBAIJ only when known */
  for (PetscInt t = 0; t < 3; t++) {
    Mat B;
    PC  pc;
    PetscCall(MatConvert(A, types[t], MAT_INITIAL_MATRIX, &B));
    PetscCall(MakePC(B, "l_", &pc));
    PetscCall(PCApply(pc, b, t ? z : z0));
    if (t) {
      PetscCall(VecAXPY(z, -1.0, z0));
      PetscCall(VecNorm(z, NORM_2, &dz));
      PetscCall(VecNorm(z0, NORM_2, &nz0));
      worst = PetscMax(worst, dz / nz0);
    }
    PetscCall(PCDestroy(&pc));
    PetscCall(MatDestroy(&B));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "baij, aij and sbaij give the same M^-1 b to 1e-12: %s\n", worst <= 1e-12 ? "yes" : "no"));
  if (!(worst <= 1e-12)) PetscCall(Fail("the matrix layouts give different preconditioners"));
  PetscCall(VecDestroy(&z0));
  PetscCall(VecDestroy(&z));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestSPD(PipeKSPCube cube, Mat A, Vec b)
{
  KSP                ksp;
  PetscInt           its;
  KSPConvergedReason reason;
  PetscReal          emax, emin;

  PetscFunctionBegin;
  PetscCall(PetscOptionsSetValue(NULL, "-e_pc_type", "asddic"));
  PetscCall(PetscOptionsSetValue(NULL, "-e_pc_asddic_iterations", "1"));
  ComputeSV = PETSC_TRUE;
  PetscCall(Solve(cube, A, b, "e_", &its, &reason, NULL, NULL, &ksp));
  PetscCall(KSPComputeExtremeSingularValues(ksp, &emax, &emin));
  ComputeSV = PETSC_FALSE;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "lambda_max(M_loc^-1 A) < 2 (ASDD with 2 iterations is SPD): %s\n", emax < 2 ? "yes" : "no"));
  PetscCall(PetscInfo(NULL, "Lanczos estimates of M_loc^-1 A: %g .. %g\n", (double)emin, (double)emax));
  if (!(emax < 2)) PetscCall(Fail("lambda_max >= 2: ASDD(2) is not positive definite here"));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestTranspose(PipeKSPCube cube, Mat A, Vec b)
{
  KSP                ksp;
  PC                 pc;
  Mat                B;
  Vec                x1, x2, y, Px, Pty;
  PetscRandom        rnd;
  PetscReal          d, n1, rel;
  PetscScalar        s1, s2;
  PetscInt           its1, its2, rs, re;
  KSPConvergedReason r1, r2;

  PetscFunctionBegin;
  PetscCall(TestKSPASDDIC(A, KSPCG, 1e-10, 2000, &ksp, &pc));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(VecDuplicate(b, &x1));
  PetscCall(VecDuplicate(b, &x2));
  PetscCall(KSPSolve(ksp, b, x1));
  PetscCall(KSPGetIterationNumber(ksp, &its1));
  PetscCall(KSPGetConvergedReason(ksp, &r1));
  PetscCall(KSPSolveTranspose(ksp, b, x2));
  PetscCall(KSPGetIterationNumber(ksp, &its2));
  PetscCall(KSPGetConvergedReason(ksp, &r2));
  PetscCall(VecNorm(x1, NORM_2, &n1));
  PetscCall(VecAXPY(x2, -1.0, x1));
  PetscCall(VecNorm(x2, NORM_2, &d));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "KSPSolveTranspose converged (%" PetscInt_FMT " iterations, KSPSolve %" PetscInt_FMT "), same solution to 1e-8: %s\n", its2, its1, r2 > 0 && d <= 1e-8 * n1 ? "yes" : "no"));
  if (r1 <= 0 || r2 <= 0 || !(d <= 1e-8 * n1)) PetscCall(Fail("KSPSolveTranspose with asddic"));
  PetscCall(KSPDestroy(&ksp));

  /* B = A with its diagonal blocks made nonsymmetric: (i, i+1) += 0.1 |a_ii| where that entry exists */
  PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &B));
  PetscCall(MatGetOwnershipRange(B, &rs, &re));
  PetscCall(MatGetDiagonal(B, x2));
  {
    const PetscScalar *dg;
    PetscCall(VecGetArrayRead(x2, &dg));
    for (PetscInt i = rs; i < re - 1; i++) {
      PetscInt    j = i + 1;
      PetscScalar v = 0.1 * PetscAbsScalar(dg[i - rs]);
      if (j % 3 == 0) continue; /* stay inside the 3x3 diagonal block (in the pattern of every layout) */
      PetscCall(MatSetValues(B, 1, &i, 1, &j, &v, ADD_VALUES));
    }
    PetscCall(VecRestoreArrayRead(x2, &dg));
  }
  PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
  PetscCall(TestPCASDDIC(B, NULL, &pc));
  PetscCall(PCASDDICSetEigenvalues(pc, 0.05, 3.0)); /* no estimate: B is not symmetric */
  PetscCall(PCSetUp(pc));
  PetscCall(VecDuplicate(b, &y));
  PetscCall(VecDuplicate(b, &Px));
  PetscCall(VecDuplicate(b, &Pty));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(VecSetRandom(x1, rnd));
  PetscCall(VecSetRandom(y, rnd));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PCApply(pc, x1, Px));
  PetscCall(PCApplyTranspose(pc, y, Pty));
  PetscCall(VecDot(y, Px, &s1));
  PetscCall(VecDot(Pty, x1, &s2));
  rel = PetscAbsScalar(s1 - s2) / PetscAbsScalar(s1);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "nonsymmetric B: (y, P x) = (P^T y, x) to 1e-10: %s\n", rel <= 1e-10 ? "yes" : "no"));
  PetscCall(PetscInfo(NULL, "adjoint relative difference %g\n", (double)rel));
  if (!(rel <= 1e-10)) PetscCall(Fail("PCApplyTranspose is not the adjoint of PCApply"));
  /* and the check has teeth: P applied in place of P^T differs on B */
  PetscCall(PCApply(pc, y, Pty));
  PetscCall(VecDot(Pty, x1, &s2));
  rel = PetscAbsScalar(s1 - s2) / PetscAbsScalar(s1);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "nonsymmetric B: P differs from P^T (relative %s 1e-6)\n", rel > 1e-6 ? "above" : "NOT above"));
  if (!(rel > 1e-6)) PetscCall(Fail("B is too symmetric to test the transpose"));
  PetscCall(PCDestroy(&pc));
  PetscCall(MatDestroy(&B));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&Px));
  PetscCall(VecDestroy(&Pty));
  PetscCall(VecDestroy(&x1));
  PetscCall(VecDestroy(&x2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestReestimate(PipeKSPCube cube, Mat A, Vec b)
{
  KSP                ksp;
  PC                 pc;
  Vec                x, d;
  PetscReal          emin1, emax1, emin2, emax2, c;
  PetscInt           nsym, its;
  KSPConvergedReason reason;

  PetscFunctionBegin;
  PetscCall(TestKSPASDDIC(A, KSPCG, 1e-8, 2000, &ksp, &pc));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(PCASDDICGetEigenvalueBounds(pc, &emin1, &emax1, NULL));
  /* new values, same pattern: A + c I with c the mean diagonal entry */
  PetscCall(MatCreateVecs(A, &d, NULL));
  PetscCall(MatGetDiagonal(A, d));
  PetscCall(VecSum(d, &c));
  PetscCall(VecGetSize(d, &its));
  c /= its;
  PetscCall(MatShift(A, c));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(PCASDDICGetEigenvalueBounds(pc, &emin2, &emax2, NULL));
  PetscCall(PCASDDICGetFactorInfo(pc, NULL, &nsym, NULL));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "bounds [%.4g, %.4g] -> [%.4g, %.4g] after A + cI: re-estimated: %s; ordering computed once: %s\n", (double)emin1, (double)emax1, (double)emin2, (double)emax2, PetscAbsReal(emin2 - emin1) > 0.01 * emin1 ? "yes" : "no", nsym == 1 ? "yes" : "no"));
  /* the estimate's account (2 estimates so far, checked by the test's filter) is detail */
  PetscCall(PetscViewerPushFormat(PETSC_VIEWER_STDOUT_WORLD, PETSC_VIEWER_ASCII_INFO_DETAIL));
  PetscCall(KSPView(ksp, PETSC_VIEWER_STDOUT_WORLD));
  PetscCall(PetscViewerPopFormat(PETSC_VIEWER_STDOUT_WORLD));
  if (!(PetscAbsReal(emin2 - emin1) > 0.01 * emin1) || nsym != 1 || reason <= 0) PetscCall(Fail("re-setup with new values did not re-estimate"));
  PetscCall(MatShift(A, -c));
  PetscCall(VecDestroy(&d));
  PetscCall(VecDestroy(&x));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PipeKSPCube cube;
  Mat         A;
  Vec         b;
  char        test[64] = "solve";
  PetscReal   tol      = 1e-10;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PipeKSPInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "asddic test", NULL);
  PetscCall(PetscOptionsString("-test", "Which check", NULL, test, test, sizeof(test), NULL));
  PetscCall(PetscOptionsReal("-tol", "Symmetry tolerance", NULL, tol, &tol, NULL));
  PetscOptionsEnd();
  PetscCall(TestCubeSystem(PETSC_FALSE, &cube, &A, &b, NULL));

  if (!strcmp(test, "coloring")) PetscCall(TestColoring(A));
  else if (!strcmp(test, "symmetry")) PetscCall(TestSymmetry(A, tol));
  else if (!strcmp(test, "threads")) PetscCall(TestThreads(A));
  else if (!strcmp(test, "blocks")) PetscCall(TestBlocks(A));
  else if (!strcmp(test, "icc")) PetscCall(TestICC(cube, A, b));
  else if (!strcmp(test, "reuse")) PetscCall(TestReuse(cube, A, b));
  else if (!strcmp(test, "layouts")) PetscCall(TestLayouts(A, b));
  else if (!strcmp(test, "pivot")) PetscCall(TestPivot(A));
  else if (!strcmp(test, "bjacobi")) PetscCall(TestBJacobi(cube, A, b));
  else if (!strcmp(test, "spd")) PetscCall(TestSPD(cube, A, b));
  else if (!strcmp(test, "transpose")) PetscCall(TestTranspose(cube, A, b));
  else if (!strcmp(test, "reestimate")) PetscCall(TestReestimate(cube, A, b));
  else if (!strcmp(test, "solve")) {
    PetscInt           its;
    KSPConvergedReason reason;
    PetscReal          err;
    PetscLogDouble     t;
    PetscBool          brk = PETSC_FALSE;
    PetscCall(PetscOptionsGetBool(NULL, NULL, "-break_pivot", &brk, NULL));
    if (brk) PetscCall(BreakPivot(A));
    PetscCall(PetscOptionsHasName(NULL, "s_", "-pc_type", &brk));
    if (!brk) PetscCall(PetscOptionsSetValue(NULL, "-s_pc_type", "asddic")); /* other PCs for comparison */
    PetscCall(Solve(cube, A, b, "s_", &its, &reason, &err, &t, NULL));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "iterations %" PetscInt_FMT " reason %s error %.2e time %.3f s setup %.3f s\n", its, KSPConvergedReasons[reason], (double)err, t, LastSetUpTime));
  } else SETERRQ(PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "unknown -test %s", test);
  if (strcmp(test, "solve")) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "all checks passed\n"));
  PetscCall(PipeKSPCubeDestroy(&cube));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   # -test <name> runs one group of checks and prints "all checks passed" or what failed
   testset:
      env: OMP_NUM_THREADS=1
      filter: grep -oE "all checks passed|FAILED|NOT below"
      output_file: output/ex10_pass.out
      test:
         suffix: pc_asddic_coloring_aij
         args: -test coloring -cube_n 9 -cube_mat_type aij -pc_asddic_ordering cmrcm -pc_asddic_check
      test:
         suffix: pc_asddic_coloring_baij
         nsize: 2
         args: -test coloring -cube_n 9 -cube_mat_type baij -pc_asddic_ordering cmrcm -pc_asddic_colors 3
      test:
         suffix: pc_asddic_coloring_sbaij
         nsize: 2
         args: -test coloring -cube_n 9 -cube_mat_type sbaij -pc_asddic_ordering cmrcm -pc_asddic_colors 20
      test:
         suffix: pc_asddic_coloring_point
         args: -test coloring -cube_n 7 -cube_mat_type aij -pc_asddic_block 0 -pc_asddic_ordering cmrcm -pc_asddic_colors 2
      test:
         suffix: pc_asddic_coloring_mc
         nsize: 4
         args: -test coloring -cube_n 9 -cube_mat_type baij -pc_asddic_ordering mc
      test:
         suffix: pc_asddic_coloring_K1
         args: -test coloring -cube_n 7 -pc_asddic_ordering cmrcm -pc_asddic_colors 1
      test:
         suffix: pc_asddic_symmetry
         args: -test symmetry -cube_n 9 -cube_mat_type baij
      test:
         suffix: pc_asddic_symmetry_point
         args: -test symmetry -cube_n 9 -cube_mat_type aij -pc_asddic_block 0 -pc_asddic_iterations 3
      test:
         suffix: pc_asddic_symmetry_np4
         nsize: 4
         args: -test symmetry -cube_n 9 -cube_mat_type aij
      test:
         suffix: pc_asddic_symmetry_np4_sbaij
         nsize: 4
         args: -test symmetry -cube_n 9 -cube_mat_type sbaij -pc_asddic_ordering rcm
      test:
         suffix: pc_asddic_threads
         args: -test threads -cube_n 13 -cube_mat_type baij -pc_asddic_ordering cmrcm
      test:
         suffix: pc_asddic_symmetry_blocks
         args: -test symmetry -cube_n 9 -cube_mat_type baij -pc_asddic_local_blocks 2 -pc_asddic_iterations 3
      test:
         suffix: pc_asddic_spd_blocks
         args: -test spd -cube_n 17 -cube_mat_type baij -e_pc_asddic_local_blocks 2
      test:
         suffix: pc_asddic_threads_point
         nsize: 2
         args: -test threads -cube_n 11 -cube_mat_type aij -pc_asddic_block 0 -pc_asddic_ordering mc
      test:
         suffix: pc_asddic_icc_n33
         args: -test icc -cube_n 33 -cube_mat_type aij -a_pc_asddic_block 0
      test:
         suffix: pc_asddic_reuse
         nsize: 2
         args: -test reuse -cube_n 9 -cube_mat_type baij
      test:
         suffix: pc_asddic_reuse_point
         nsize: 2
         args: -test reuse -cube_n 9 -cube_mat_type aij -pc_asddic_block 0
      test:
         suffix: pc_asddic_reuse_generic
         nsize: 2
         args: -test reuse -cube_n 9 -cube_mat_type aij
      test:
         suffix: pc_asddic_reuse_baij_point
         nsize: 2
         args: -test reuse -cube_n 9 -cube_mat_type baij -pc_asddic_block 0
      test:
         suffix: pc_asddic_symmetry_baij_point
         nsize: 2
         args: -test symmetry -cube_n 9 -cube_mat_type baij -pc_asddic_block 0
      test:
         suffix: pc_asddic_layouts_block
         nsize: 2
         args: -test layouts -cube_n 9 -cube_mat_type baij
      test:
         suffix: pc_asddic_layouts_point
         nsize: 2
         args: -test layouts -cube_n 9 -cube_mat_type baij -l_pc_asddic_block 0
      test:
         suffix: pc_asddic_pivot_point
         args: -test pivot -cube_n 7 -cube_mat_type aij -n_pc_asddic_block 0 -d_pc_asddic_block 0
      test:
         suffix: pc_asddic_pivot_block
         nsize: 2
         args: -test pivot -cube_n 7 -cube_mat_type baij
      test:
         suffix: pc_asddic_spd
         args: -test spd -cube_n 17 -cube_mat_type baij
      test:
         suffix: pc_asddic_spd_np8
         nsize: 8
         args: -test spd -cube_n 13 -cube_mat_type baij
      test:
         suffix: pc_asddic_bjacobi_np8
         nsize: 8
         args: -test bjacobi -cube_n 17 -cube_mat_type baij
      test:
         suffix: pc_asddic_transpose
         args: -test transpose -cube_n 9 -cube_mat_type baij
      test:
         suffix: pc_asddic_transpose_np2
         nsize: 2
         args: -test transpose -cube_n 9 -cube_mat_type aij -pc_asddic_local sgs
      test:
         suffix: pc_asddic_reestimate_np2
         nsize: 2
         args: -test reestimate -cube_n 9 -cube_mat_type baij
         filter: grep -oE "re-estimated: yes|ordering rcm \(default for 1 thread|estimated by 10 CG steps| s \(2 estimate\(s\) so far\)|all checks passed|FAILED|NOT below"
         output_file: output/ex10_pc_asddic_reestimate_np2.out

   # local blocks: the kernel is block diagonal over them
   testset:
      env: OMP_NUM_THREADS=1
      filter: grep -oE "all checks passed|FAILED|NOT|NO$"
      output_file: output/ex10_pass.out
      test:
         suffix: pc_asddic_blocks
         args: -test blocks -cube_n 11 -cube_mat_type baij -pc_asddic_local_blocks 3
      test:
         suffix: pc_asddic_blocks_np2_point
         nsize: 2
         args: -test blocks -cube_n 9 -cube_mat_type aij -pc_asddic_block 0 -pc_asddic_local_blocks 2
      test:
         suffix: pc_asddic_blocks_np2_sbaij
         nsize: 2
         args: -test blocks -cube_n 7 -cube_mat_type sbaij -pc_asddic_local_blocks 2
      test:
         suffix: pc_asddic_blocks_more_than_rows
         nsize: 2
         args: -test blocks -cube_n 3 -cube_mat_type aij -pc_asddic_block 0 -pc_asddic_local_blocks 100000

   # bad settings: each refused with its own message
   testset:
      nsize: 2
      args: -test solve -cube_n 5
      env: OMP_NUM_THREADS=1
      test:
         suffix: pc_asddic_bad_local_blocks0
         args: -s_pc_asddic_local_blocks 0
         filter: Error: grep -oE "number of local blocks must be at least 1" | sort -u
      test:
         suffix: pc_asddic_bad_local_blocks_mc
         args: -s_pc_asddic_local_blocks 2 -s_pc_asddic_ordering mc
         filter: Error: grep -oE "cannot be combined with local blocks|got mc" | sort -u
      test:
         suffix: pc_asddic_bad_colors0
         args: -s_pc_asddic_colors 0
         filter: Error: grep -oE "number of colours must be at least 1" | sort -u
      test:
         suffix: pc_asddic_bad_iterations0
         args: -s_pc_asddic_iterations 0
         filter: Error: grep -oE "number of ASDD iterations must be at least 1" | sort -u
      test:
         suffix: pc_asddic_bad_threads_neg
         args: -s_pc_asddic_threads -1
         filter: Error: grep -oE "number of threads must be at least 1, or 0 for the default" | sort -u
      test:
         suffix: pc_asddic_bad_ordering
         args: -s_pc_asddic_ordering foo
         filter: Error: grep -oE "Unknown" | sort -u
      test:
         suffix: pc_asddic_bad_local
         args: -s_pc_asddic_local foo
         filter: Error: grep -oE "Unknown" | sort -u
      test:
         suffix: pc_asddic_bad_sweep
         args: -s_pc_asddic_sweep foo
         filter: Error: grep -oE "Unknown" | sort -u
      test:
         suffix: pc_asddic_bad_safety
         args: -s_pc_asddic_esteig_safety 0.5
         filter: Error: grep -oE "safety factor on the largest eigenvalue must be at least 1" | sort -u
      test:
         suffix: pc_asddic_bad_eigenvalues
         args: -s_pc_asddic_eigenvalues 2,1
         filter: Error: grep -oE "eigenvalue bounds need 0 < emin < emax" | sort -u
      test:
         suffix: pc_asddic_bad_eigenvalues1
         args: -s_pc_asddic_eigenvalues 2
         filter: Error: grep -oE "needs two values emin,emax" | sort -u
      test:
         suffix: pc_asddic_bad_damping
         args: -s_pc_asddic_damping 2.5
         filter: Error: grep -oE "damping must be in" | sort -u
      test:
         suffix: pc_asddic_bad_steps
         args: -s_pc_asddic_esteig_steps -2
         filter: Error: grep -oE "estimate steps must be" | sort -u
      test:
         suffix: pc_asddic_bad_cheb_nobounds
         args: -s_pc_asddic_esteig_steps 0
         filter: Error: grep -oE "Chebyshev sweeps need bounds" | sort -u
      test:
         suffix: pc_asddic_bad_pivot_error
         args: -break_pivot -s_pc_asddic_shift none -s_ksp_error_if_not_converged
         filter: Error: grep -oE "non-positive pivot on rank 0.*use -pc_asddic_shift diagonal" | sort -u

   # two threads
   testset:
      env: OMP_NUM_THREADS=2
      filter: grep -oE "all checks passed|FAIL|ERROR|NOT below"
      output_file: output/ex10_pass.out
      test:
         suffix: threads_omp2_pc_threads
         args: -test threads -cube_n 13 -cube_mat_type baij
      test:
         suffix: threads_omp2_pc_spd
         args: -test spd -cube_n 17 -cube_mat_type baij

TEST*/
