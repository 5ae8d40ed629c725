/* Unit checks of the GeoFEM/Cube generator on the cube given by the options (-cube_*, -da_processors_*):
   symmetry, RHS total, A x_exact = b, no mallocs, partition as requested, aij == baij, A and b bitwise
   independent of the partition, the error
   measure, and that bad input errors on every rank (-check_bad_input). Exits nonzero on any failure. */
#include <math.h>
#include <pipeksp.h>
#include <pipeksp/petsccompat.h>

#define CHECK(cond, ...) PetscCheck(cond, PETSC_COMM_WORLD, PETSC_ERR_PLIB, __VA_ARGS__)

/* Runs one API call with errors returned instead of printed; every rank must fail, with msg in the text. */
#define EXPECT_FAIL(call, msg) \
  do { \
    PetscErrorCode   _ierr; \
    PipeKSPErrorText _txt = NULL; \
    PetscMPIInt      _bad, _all; \
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL)); \
    _ierr = (call); \
    PetscCall(PetscPopErrorHandler()); \
    if (_ierr) PetscCall(PetscErrorMessage(_ierr, NULL, &_txt)); \
    _bad = (!_ierr || !_txt || !strstr(_txt, msg)) ? 1 : 0; \
    PetscCallMPI(MPI_Allreduce(&_bad, &_all, 1, MPI_INT, MPI_SUM, PETSC_COMM_WORLD)); \
    CHECK(_all == 0, "%d rank(s) did not fail with \"%s\" on %s (rank 0 said: %s)", _all, msg, #call, _txt ? _txt : "no error"); \
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "bad input rejected on every rank: %s\n", msg)); \
  } while (0)

static PetscErrorCode CheckBadInput(void)
{
  PipeKSPCube c;
  PetscMPIInt size;
  char        buf[16];

  PetscFunctionBeginUser;
  PetscCall(PipeKSPCubeCreate(PETSC_COMM_WORLD, &c));
  EXPECT_FAIL(PipeKSPCubeSetSizes(c, 1, 5, 5), "at least 2 nodes");
  EXPECT_FAIL(PipeKSPCubeSetSizes(c, 5, 5, 0), "at least 2 nodes");
  EXPECT_FAIL(PipeKSPCubeSetMaterial(c, -1.0, 0.3), "Young's modulus");
  EXPECT_FAIL(PipeKSPCubeSetMaterial(c, 0.0, 0.3), "Young's modulus");
  EXPECT_FAIL(PipeKSPCubeSetMaterial(c, 1.0, 0.5), "Poisson's ratio");
  EXPECT_FAIL(PipeKSPCubeSetMaterial(c, 1.0, -1.0), "Poisson's ratio");
  EXPECT_FAIL(PipeKSPCubeSetLoad(c, (PetscReal)INFINITY), "load must be a finite");
  EXPECT_FAIL(PipeKSPCubeSetLoad(c, (PetscReal)NAN), "load must be a finite");
  EXPECT_FAIL(PipeKSPCubeSetMaterial(c, (PetscReal)NAN, 0.3), "Young's modulus");
  EXPECT_FAIL(PipeKSPCubeSetMatType(c, MATIS), "is not supported"); /* assembled wrongly on 2+ ranks before */
  /* a processor grid whose product is not the rank count */
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscSNPrintf(buf, sizeof(buf), "%d", (int)size + 1));
  PetscCall(PipeKSPCubeSetSizes(c, 2 * size + 3, 5, 5));
  PetscCall(PetscOptionsSetValue(NULL, "-da_processors_x", buf));
  EXPECT_FAIL(PipeKSPCubeSetUp(c), "does not match the");
  PetscCall(PetscOptionsClearValue(NULL, "-da_processors_x"));
  /* the failed calls left the cube usable */
  PetscCall(PipeKSPCubeSetSizes(c, 3, 3, 3));
  PetscCall(PipeKSPCubeSetUp(c));
  EXPECT_FAIL(PipeKSPCubeSetSizes(c, 4, 4, 4), "before PipeKSPCubeSetUp");
  PetscCall(PipeKSPCubeDestroy(&c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PipeKSPCubeAssembleOnDM on caller-owned objects, non-unit spacing: A x_exact = b, RHS total = load x area;
   and a DMDA it cannot use is refused */
static PetscErrorCode CheckAssembleOnDM(void)
{
  DM             da, star;
  Mat            A;
  Vec            b, xe, r;
  PetscReal      nrm, nb, sum, want;
  const PetscInt nx = 5, ny = 4, nz = 6;

  PetscFunctionBeginUser;
  PetscCall(DMDACreate3d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_BOX, nx, ny, nz, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 3, 1, NULL, NULL, NULL, &da));
  PetscCall(DMSetUp(da));
  PetscCall(DMDASetUniformCoordinates(da, 1.0, 3.0, -1.0, 5.0, 0.0, 2.5)); /* h = 0.5, 2, 0.5 */
  PetscCall(DMSetMatType(da, MATAIJ));
  PetscCall(DMCreateMatrix(da, &A));
  PetscCall(DMCreateGlobalVector(da, &b));
  PetscCall(VecDuplicate(b, &xe));
  PetscCall(VecDuplicate(b, &r));
  PetscCall(PipeKSPCubeAssembleOnDM(da, 2.0, 0.2, 3.0, A, b, xe));
  PetscCall(MatMult(A, xe, r));
  PetscCall(VecAXPY(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_INFINITY, &nrm));
  PetscCall(VecNorm(b, NORM_INFINITY, &nb));
  CHECK(nrm <= 1e-12 * nb, "AssembleOnDM, spacing 0.5x2x0.5: ||A x_exact - b||/||b|| = %g", (double)(nrm / nb));
  PetscCall(VecStrideNorm(b, 2, NORM_1, &sum)); /* all z loads are >= 0 */
  want = 3.0 * 2.0 * 6.0;
  CHECK(PetscAbsReal(sum - want) <= 1e-12 * want, "AssembleOnDM RHS total %g, want %g", (double)sum, (double)want);
  PetscCall(VecStrideMax(xe, 2, NULL, &nrm));
  CHECK(PetscAbsReal(nrm - 3.0 * 2.5 / 2.0) <= 1e-14, "AssembleOnDM max u_z %g", (double)nrm);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "AssembleOnDM on a caller's DMDA with spacing 0.5 x 2 x 0.5: A x_exact = b, RHS total = load x area\n"));
  PetscCall(DMDACreate3d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, nx, ny, nz, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 3, 1, NULL, NULL, NULL, &star));
  PetscCall(DMSetUp(star));
  EXPECT_FAIL(PipeKSPCubeAssembleOnDM(star, 1.0, 0.3, 1.0, NULL, NULL, NULL), "box stencil");
  EXPECT_FAIL(PipeKSPCubeAssembleOnDM(da, 1.0, 0.7, 1.0, NULL, NULL, NULL), "Poisson's ratio");
  {
    Vec wrong;
    PetscCall(VecCreateMPI(PETSC_COMM_WORLD, PETSC_DECIDE, 7, &wrong));
    EXPECT_FAIL(PipeKSPCubeAssembleOnDM(da, 1.0, 0.3, 1.0, NULL, wrong, NULL), "global vector of the DMDA");
    PetscCall(VecDestroy(&wrong));
  }
  PetscCall(DMDestroy(&star));
  PetscCall(VecDestroy(&r));
  PetscCall(VecDestroy(&xe));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Bitwise independence of the partition: rank 0 gathers A (as AIJ) and b in natural order and compares
   them, entry by entry with ==, to the same cube assembled on one rank. */
static PetscErrorCode CheckPartitionIndependent(DM da, Mat Aaij, Vec b, PetscInt nx, PetscInt ny, PetscInt nz, PetscReal E, PetscReal nu, PetscReal load)
{
  AO          ao;
  IS          is;
  Mat        *sub;
  Vec         bn, b0;
  VecScatter  sc;
  PetscInt    N, nloc, i, *idx, ndiff = 0;
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(MatGetSize(Aaij, &N, NULL));
  nloc = rank ? 0 : N;
  PetscCall(PetscMalloc1(nloc, &idx));
  for (i = 0; i < nloc; i++) idx[i] = i;
  PetscCall(DMDAGetAO(da, &ao));
  PetscCall(AOApplicationToPetsc(ao, nloc, idx));
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, nloc, idx, PETSC_OWN_POINTER, &is));
  PetscCall(MatCreateSubMatrices(Aaij, 1, &is, &is, MAT_INITIAL_MATRIX, &sub));
  PetscCall(DMDACreateNaturalVector(da, &bn));
  PetscCall(DMDAGlobalToNaturalBegin(da, b, INSERT_VALUES, bn));
  PetscCall(DMDAGlobalToNaturalEnd(da, b, INSERT_VALUES, bn));
  PetscCall(VecScatterCreateToZero(bn, &sc, &b0));
  PetscCall(VecScatterBegin(sc, bn, b0, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(sc, bn, b0, INSERT_VALUES, SCATTER_FORWARD));
  if (rank == 0) {
    PipeKSPCube        cs;
    Mat                As, Asaij;
    Vec                bs;
    const PetscScalar *x, *y;
    PetscCall(PipeKSPCubeCreate(PETSC_COMM_SELF, &cs));
    PetscCall(PipeKSPCubeSetSizes(cs, nx, ny, nz));
    PetscCall(PipeKSPCubeSetMaterial(cs, E, nu));
    PetscCall(PipeKSPCubeSetLoad(cs, load));
    { /* the one-rank cube must not see this run's processor grid */
      const char *opt[3] = {"-da_processors_x", "-da_processors_y", "-da_processors_z"};
      char        val[3][32];
      PetscBool   set[3];
      for (i = 0; i < 3; i++) {
        PetscCall(PetscOptionsGetString(NULL, NULL, opt[i], val[i], sizeof(val[i]), &set[i]));
        if (set[i]) PetscCall(PetscOptionsClearValue(NULL, opt[i]));
      }
      PetscCall(PipeKSPCubeSetUp(cs));
      for (i = 0; i < 3; i++)
        if (set[i]) PetscCall(PetscOptionsSetValue(NULL, opt[i], val[i]));
    }
    PetscCall(PipeKSPCubeGetMatrix(cs, &As));
    PetscCall(PipeKSPCubeGetRHS(cs, &bs));
    PetscCall(MatConvert(As, MATSEQAIJ, MAT_INITIAL_MATRIX, &Asaij));
    for (i = 0; i < N; i++) {
      const PetscInt    *c1, *c2;
      const PetscScalar *v1, *v2;
      PetscInt           n1, n2, k, kk = 0;
      PetscCall(MatGetRow(sub[0], i, &n1, &c1, &v1));
      PetscCall(MatGetRow(Asaij, i, &n2, &c2, &v2));
      /* explicit zeros may differ in the pattern; compare the union of nonzeros */
      for (k = 0; k < n1; k++) {
        PetscScalar w = 0;
        for (kk = 0; kk < n2; kk++)
          if (c2[kk] == c1[k]) w = v2[kk];
        if (v1[k] != w) ndiff++;
      }
      for (k = 0; k < n2; k++) {
        PetscScalar w = 0;
        for (kk = 0; kk < n1; kk++)
          if (c1[kk] == c2[k]) w = v1[kk];
        if (v2[k] != w) ndiff++;
      }
      PetscCall(MatRestoreRow(sub[0], i, &n1, &c1, &v1));
      PetscCall(MatRestoreRow(Asaij, i, &n2, &c2, &v2));
    }
    PetscCall(VecGetArrayRead(b0, &x));
    PetscCall(VecGetArrayRead(bs, &y));
    for (i = 0; i < N; i++)
      if (x[i] != y[i]) ndiff++;
    PetscCall(VecRestoreArrayRead(b0, &x));
    PetscCall(VecRestoreArrayRead(bs, &y));
    PetscCall(MatDestroy(&Asaij));
    PetscCall(PipeKSPCubeDestroy(&cs));
  }
  PetscCallMPI(MPI_Bcast(&ndiff, 1, MPIU_INT, 0, PETSC_COMM_WORLD));
  CHECK(ndiff == 0, "%" PetscInt_FMT " entries of A or b differ bitwise from the one-rank assembly", ndiff);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "A and b are bitwise identical to the one-rank assembly\n"));
  PetscCall(VecScatterDestroy(&sc));
  PetscCall(VecDestroy(&b0));
  PetscCall(VecDestroy(&bn));
  PetscCall(MatDestroySubMatrices(1, &sub));
  PetscCall(ISDestroy(&is));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PipeKSPCube        cube, cube2;
  DM                 da;
  Mat                A, Aaij, At, A2;
  Vec                b, xe, r, zero;
  PetscInt           nx, ny, nz, m, n, p, i, lo, hi, pm = PETSC_DECIDE, pn = PETSC_DECIDE, pp = PETSC_DECIDE;
  PetscReal          E, nu, load, tot[3], loc[3] = {0, 0, 0}, nrm, nA, nb, err;
  PetscBool          flg, bad = PETSC_FALSE;
  MatInfo            info;
  MatType            type;
  MatNullSpace       nsp;
  const PetscScalar *ba;
  char               other[64];

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(PipeKSPInitializePackage());
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-check_bad_input", &bad, NULL));
  if (bad) {
    PetscCall(CheckBadInput());
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "All cube bad-input checks passed\n"));
    PetscCall(PetscFinalize());
    return 0;
  }

  PetscCall(PipeKSPCubeCreate(PETSC_COMM_WORLD, &cube));
  PetscCall(PipeKSPCubeSetSizes(cube, 7, 6, 5)); /* non-cubic default, so x/y/z mix-ups show */
  PetscCall(PipeKSPCubeSetFromOptions(cube));
  PetscCall(PipeKSPCubeSetUp(cube));
  PetscCall(PipeKSPCubeGetInfo(cube, &nx, &ny, &nz, &E, &nu, &load));
  PetscCall(PipeKSPCubeGetDM(cube, &da));
  PetscCall(PipeKSPCubeGetMatrix(cube, &A));
  PetscCall(PipeKSPCubeGetRHS(cube, &b));
  PetscCall(PipeKSPCubeGetExactSolution(cube, &xe));
  PetscCall(MatGetType(A, &type));

  /* partition: what -da_processors_x/y/z asked for */
  PetscCall(DMDAGetInfo(da, NULL, NULL, NULL, NULL, &m, &n, &p, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-da_processors_x", &pm, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-da_processors_y", &pn, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-da_processors_z", &pp, NULL));
  CHECK((pm == PETSC_DECIDE || pm == m) && (pn == PETSC_DECIDE || pn == n) && (pp == PETSC_DECIDE || pp == p), "processor grid %" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT " is not the one requested", m, n, p);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "cube %" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT " nodes, %s, processor grid %" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT "\n", nx, ny, nz, type, m, n, p));

  /* preallocation from DMCreateMatrix was exact */
  PetscCall(MatGetInfo(A, MAT_GLOBAL_SUM, &info));
  CHECK(info.mallocs == 0, "assembly needed %g mallocs", (double)info.mallocs);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "mallocs during assembly: %g\n", (double)info.mallocs));

  /* symmetry: MatIsSymmetric (AIJ copy: BAIJ has no such check) and ||A - A^T|| */
  PetscCall(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, &Aaij));
  PetscCall(MatIsSymmetric(Aaij, 1e-12, &flg));
  CHECK(flg, "the matrix is not symmetric to 1e-12");
  PetscCall(MatTranspose(Aaij, MAT_INITIAL_MATRIX, &At));
  PetscCall(MatAXPY(At, -1.0, Aaij, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatNorm(At, NORM_FROBENIUS, &nrm));
  PetscCall(MatNorm(Aaij, NORM_FROBENIUS, &nA));
  CHECK(nrm <= 1e-14 * nA, "||A - A^T||/||A|| = %g", (double)(nrm / nA));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "symmetric: MatIsSymmetric(1e-12) true, ||A-A^T||/||A|| %s 1e-14\n", nrm <= 1e-14 * nA ? "<=" : ">"));
  PetscCall(MatDestroy(&At));

  /* RHS total = load x top-face area; no net x/y load */
  PetscCall(VecGetOwnershipRange(b, &lo, &hi));
  PetscCall(VecGetArrayRead(b, &ba));
  for (i = 0; i < hi - lo; i++) loc[(lo + i) % 3] += PetscRealPart(ba[i]);
  PetscCall(VecRestoreArrayRead(b, &ba));
  PetscCallMPI(MPI_Allreduce(loc, tot, 3, MPIU_REAL, MPIU_SUM, PETSC_COMM_WORLD));
  {
    const PetscReal want = load * (nx - 1) * (ny - 1);
    CHECK(PetscAbsReal(tot[2] - want) <= 1e-12 * PetscAbsReal(want) && PetscAbsReal(tot[0]) + PetscAbsReal(tot[1]) <= 1e-12 * PetscAbsReal(want), "RHS total (%g, %g, %g), want (0, 0, %g)", (double)tot[0], (double)tot[1], (double)tot[2], (double)want);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "RHS total z = load x top area = %g (to 1e-12)\n", (double)want));
  }

  /* the exact solution solves the discrete problem to roundoff */
  PetscCall(VecDuplicate(b, &r));
  PetscCall(MatMult(A, xe, r));
  PetscCall(VecAXPY(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_INFINITY, &nrm));
  PetscCall(VecNorm(b, NORM_INFINITY, &nb));
  CHECK(nrm <= 1e-12 * nb, "||A x_exact - b||/||b|| = %g", (double)(nrm / nb));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "||A x_exact - b||_inf/||b||_inf < 1e-12\n"));
  /* and is the uniaxial field: u_z at the top is load (nz-1)/E, u_x at x = xmax is -nu load (nx-1)/E */
  PetscCall(VecStrideMax(xe, 2, NULL, &nrm));
  CHECK(PetscAbsReal(nrm - load * (nz - 1) / E) <= 1e-14 * PetscAbsReal(load * nz / E), "max u_z = %g", (double)nrm);
  PetscCall(VecStrideMin(xe, 0, NULL, &nrm));
  CHECK(PetscAbsReal(nrm + nu * load * (nx - 1) / E) <= 1e-14 * PetscAbsReal(load * nx / E), "min u_x = %g", (double)nrm);

  /* the error measure: 0 at the exact solution, 1 at zero */
  PetscCall(PipeKSPCubeComputeError(cube, xe, &err));
  CHECK(err == 0, "error of the exact solution is %g", (double)err);
  PetscCall(VecDuplicate(b, &zero));
  PetscCall(VecZeroEntries(zero));
  PetscCall(PipeKSPCubeComputeError(cube, zero, &err));
  CHECK(PetscAbsReal(err - 1) < 1e-15, "error of zero is %g", (double)err);
  PetscCall(VecDestroy(&zero));

  /* rigid-body near null space attached (6 modes in 3D) */
  PetscCall(MatGetNearNullSpace(A, &nsp));
  CHECK(nsp, "no near null space on the matrix");
  {
    PetscInt  nvec;
    PetscBool hasconst;
    PetscCall(MatNullSpaceGetVecs(nsp, &hasconst, &nvec, NULL));
    CHECK(nvec == 6, "near null space has %" PetscInt_FMT " vectors", nvec);
  }

  /* the other matrix type gives the same matrix */
  PetscCall(PetscStrcmp(type, MATSEQBAIJ, &flg));
  if (!flg) PetscCall(PetscStrcmp(type, MATMPIBAIJ, &flg));
  PetscCall(PetscStrncpy(other, flg ? MATAIJ : MATBAIJ, sizeof(other)));
  PetscCall(PipeKSPCubeCreate(PETSC_COMM_WORLD, &cube2));
  PetscCall(PipeKSPCubeSetSizes(cube2, nx, ny, nz));
  PetscCall(PipeKSPCubeSetMaterial(cube2, E, nu));
  PetscCall(PipeKSPCubeSetLoad(cube2, load));
  PetscCall(PipeKSPCubeSetMatType(cube2, other));
  PetscCall(PipeKSPCubeSetUp(cube2));
  PetscCall(PipeKSPCubeGetMatrix(cube2, &A2));
  PetscCall(MatConvert(A2, MATAIJ, MAT_INITIAL_MATRIX, &At));
  PetscCall(MatAXPY(At, -1.0, Aaij, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatNorm(At, NORM_FROBENIUS, &nrm));
  CHECK(nrm <= 1e-14 * nA, "%s and %s matrices differ: %g", type, other, (double)(nrm / nA));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s matrix == %s matrix (to 1e-14)\n", other, type));
  PetscCall(MatDestroy(&At));
  PetscCall(PipeKSPCubeDestroy(&cube2));

  PetscCall(CheckPartitionIndependent(da, Aaij, b, nx, ny, nz, E, nu, load));
  PetscCall(MatDestroy(&Aaij));
  PetscCall(VecDestroy(&r));
  PetscCall(PipeKSPCubeDestroy(&cube));
  PetscCall(CheckAssembleOnDM());
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "All cube checks passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: cube_check_baij_1
      filter: grep -oE "All cube (bad-input )?checks passed|PETSC ERROR"
      output_file: output/ex1_cube_check_baij_1.out

   test:
      suffix: cube_check_aij_1
      args: -cube_mat_type aij
      filter: grep -oE "All cube (bad-input )?checks passed|PETSC ERROR"
      output_file: output/ex1_cube_check_aij_1.out

   test:
      suffix: cube_check_baij_2
      nsize: 2
      args: -cube_load 2.5 -cube_E 3 -cube_nu 0.25
      filter: grep -oE "All cube (bad-input )?checks passed|PETSC ERROR"
      output_file: output/ex1_cube_check_baij_2.out

   test:
      suffix: cube_check_baij_4
      nsize: 4
      filter: grep -oE "All cube (bad-input )?checks passed|PETSC ERROR"
      output_file: output/ex1_cube_check_baij_4.out

   test:
      suffix: cube_check_aij_4
      nsize: 4
      args: -cube_mat_type aij
      filter: grep -oE "All cube (bad-input )?checks passed|PETSC ERROR"
      output_file: output/ex1_cube_check_aij_4.out

   test:
      suffix: cube_check_procgrid_z_4
      nsize: 4
      args: -cube_nz 9 -da_processors_x 1 -da_processors_y 1 -da_processors_z 4
      filter: grep -oE "All cube (bad-input )?checks passed|PETSC ERROR"
      output_file: output/ex1_cube_check_procgrid_z_4.out

   test:
      suffix: cube_check_procgrid_xy_4
      nsize: 4
      args: -cube_n 8 -da_processors_x 2 -da_processors_y 2
      filter: grep -oE "All cube (bad-input )?checks passed|PETSC ERROR"
      output_file: output/ex1_cube_check_procgrid_xy_4.out

   test:
      suffix: cube_check_8
      nsize: 8
      args: -cube_n 9
      filter: grep -oE "All cube (bad-input )?checks passed|PETSC ERROR"
      output_file: output/ex1_cube_check_8.out

   test:
      suffix: cube_badinput_1
      args: -check_bad_input
      filter: grep -oE "All cube (bad-input )?checks passed|PETSC ERROR"
      output_file: output/ex1_cube_badinput_1.out

   test:
      suffix: cube_badinput_3
      nsize: 3
      args: -check_bad_input
      filter: grep -oE "All cube (bad-input )?checks passed|PETSC ERROR"
      output_file: output/ex1_cube_badinput_3.out

TEST*/
