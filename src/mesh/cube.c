/* The GeoFEM/Cube problem (docs/cube.md): its assembly on a DMDA (PipeKSPCubeAssembleOnDM()) and the
   PipeKSPCube object around it. 3D linear elasticity on a box of Q1 hexahedra, rollers on the three min
   faces, uniform traction in +z on z = zmax, exact solution known. */
#include <petsc/private/petscimpl.h>
#include <pipeksp/pipekspimpl.h>

#define CUBE_DOF        3                        /* displacement components per node */
#define CUBE_ENODES     8                        /* nodes of a Q1 hexahedron, and its 2x2x2 Gauss points */
#define CUBE_EDOF       (CUBE_DOF * CUBE_ENODES) /* rows of an element matrix */
#define CUBE_FACE_NODES 4                        /* nodes of a face, and its 2x2 Gauss points */

struct _n_PipeKSPCube {
  MPI_Comm  comm;
  PetscInt  nx, ny, nz; /* nodes per direction */
  PetscReal E, nu, load;
  char      mattype[256];
  PetscBool setupcalled;
  DM        da;
  Mat       A;
  Vec       b, xexact;
};

/* ---- input checks, shared by the setters and by PipeKSPCubeAssembleOnDM() ---- */
static PetscErrorCode CubeCheckSizes(MPI_Comm comm, PetscInt nx, PetscInt ny, PetscInt nz)
{
  PetscFunctionBegin;
  PetscCheck(nx >= 2 && ny >= 2 && nz >= 2, comm, PETSC_ERR_ARG_OUTOFRANGE, "Cube needs at least 2 nodes in every direction (one element), got %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT ": use -cube_n/-cube_nx/-cube_ny/-cube_nz >= 2", nx, ny, nz);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CubeCheckMaterial(MPI_Comm comm, PetscReal E, PetscReal nu, PetscReal load)
{
  PetscFunctionBegin;
  PetscCheck(PetscIsNormalReal(E) && E > 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "Young's modulus E must be finite and > 0, got %g: use -cube_E > 0", (double)E);
  PetscCheck(!PetscIsInfOrNanReal(nu) && nu > -1.0 && nu < 0.5, comm, PETSC_ERR_ARG_OUTOFRANGE, "Poisson's ratio nu must satisfy -1 < nu < 0.5 (else the material is not positive definite), got %g: use -cube_nu in (-1, 0.5)", (double)nu);
  PetscCheck(!PetscIsInfOrNanReal(load), comm, PETSC_ERR_ARG_OUTOFRANGE, "The load must be a finite number, got %g: use a finite -cube_load", (double)load);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the element loop is written for assembled types: on 2 ranks a MATIS cube was a wrong operator */
static PetscErrorCode CubeCheckMatType(MPI_Comm comm, MatType type)
{
  PetscBool isis;

  PetscFunctionBegin;
  PetscCall(PetscStrcmp(type, MATIS, &isis));
  PetscCheck(!isis, comm, PETSC_ERR_SUP, "PipeKSPCube: matrix type \"%s\" is not supported (the cube assembles for assembled types: aij, baij, sbaij and their variants)", type);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Element stiffness of a hx x hy x hz brick, 2x2x2 Gauss. Local node a = ia + 2 ja + 4 ka (ia,ja,ka in {0,1}),
   dof 3a+c; Ke is 24x24 row-major. */
static void CubeElementStiffness(PetscReal hx, PetscReal hy, PetscReal hz, PetscReal E, PetscReal nu, PetscScalar Ke[])
{
  const PetscReal lambda = E * nu / ((1 + nu) * (1 - 2 * nu)), mu = E / (2 * (1 + nu));
  const PetscReal g = 1.0 / PetscSqrtReal(3.0), gp[2] = {-g, g}, h[3] = {hx, hy, hz};
  const PetscReal detJ = hx * hy * hz / 8.0; /* reference [-1,1]^3, Gauss weights are 1 */
  PetscInt        q, a, b, c, d, k;

  for (a = 0; a < CUBE_EDOF * CUBE_EDOF; a++) Ke[a] = 0;
  for (q = 0; q < CUBE_ENODES; q++) {
    const PetscReal xi[3] = {gp[q & 1], gp[(q >> 1) & 1], gp[(q >> 2) & 1]};
    PetscReal       dN[CUBE_ENODES][CUBE_DOF];
    for (a = 0; a < CUBE_ENODES; a++) {
      const PetscReal s[3] = {(a & 1) ? 1.0 : -1.0, ((a >> 1) & 1) ? 1.0 : -1.0, ((a >> 2) & 1) ? 1.0 : -1.0};
      for (d = 0; d < 3; d++) {
        PetscReal v = s[d] / 8.0;
        for (k = 0; k < 3; k++)
          if (k != d) v *= 1 + s[k] * xi[k];
        dN[a][d] = v * 2.0 / h[d];
      }
    }
    for (a = 0; a < CUBE_ENODES; a++)
      for (b = 0; b < CUBE_ENODES; b++) {
        PetscReal dd = 0;
        for (k = 0; k < 3; k++) dd += dN[a][k] * dN[b][k];
        for (c = 0; c < 3; c++)
          for (d = 0; d < 3; d++) Ke[(CUBE_DOF * a + c) * CUBE_EDOF + CUBE_DOF * b + d] += detJ * (lambda * dN[a][c] * dN[b][d] + mu * dN[a][d] * dN[b][c] + (c == d ? mu * dd : 0));
      }
  }
}

/* The mesh as PipeKSPCubeAssembleOnDM() sees it: sizes, spacing, this rank's owned and ghosted corners */
typedef struct {
  PetscInt  nx, ny, nz;                   /* nodes per direction */
  PetscInt  xs, ys, zs, xm, ym, zm;       /* owned nodes */
  PetscInt  gxs, gys, gzs, gxm, gym, gzm; /* ghosted nodes: the local numbering of MatSetValuesBlockedLocal() */
  PetscReal gmin[3], hx, hy, hz;          /* the box's lower corner, the spacing */
  Vec       coords;                       /* the DM's coordinates (not referenced) */
} CubeGrid;

/* PipeKSPCubeAssembleOnDM()'s arguments, each checked once: a 3D DMDA of the cube's shape, the material,
   and A, b, xexact (any may be NULL) made on it */
static PetscErrorCode CubeCheckAssembleArgs(DM da, PetscReal E, PetscReal nu, PetscReal load, Mat A, Vec b, Vec xexact, CubeGrid *g)
{
  MPI_Comm        comm;
  PetscInt        dim, dof, sw, N, M, Nc;
  DMDAStencilType st;
  DMBoundaryType  bx, by, bz;
  PetscBool       isda;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(da, DM_CLASSID, 1);
  PetscCall(PipeKSPCheckInitialized(PetscObjectComm((PetscObject)da)));
  PetscCall(PetscObjectGetComm((PetscObject)da, &comm));
  PetscCall(PetscObjectTypeCompare((PetscObject)da, DMDA, &isda));
  PetscCheck(isda, comm, PETSC_ERR_ARG_WRONG, "The cube is assembled on a DMDA; got another DM type");
  PetscCall(DMDAGetInfo(da, &dim, &g->nx, &g->ny, &g->nz, NULL, NULL, NULL, &dof, &sw, &bx, &by, &bz, &st));
  PetscCheck(dim == 3 && dof == CUBE_DOF, comm, PETSC_ERR_ARG_WRONG, "The cube needs a 3D DMDA with 3 dof per node, got dim %" PetscInt_FMT " dof %" PetscInt_FMT, dim, dof);
  PetscCheck(st == DMDA_STENCIL_BOX && sw >= 1, comm, PETSC_ERR_ARG_WRONG, "Q1 hexahedra need a box stencil of width >= 1 on the DMDA (got %s, width %" PetscInt_FMT ")", st == DMDA_STENCIL_BOX ? "box" : "star", sw);
  PetscCheck(bx == DM_BOUNDARY_NONE && by == DM_BOUNDARY_NONE && bz == DM_BOUNDARY_NONE, comm, PETSC_ERR_ARG_WRONG, "The cube DMDA must have DM_BOUNDARY_NONE in all directions");
  PetscCall(CubeCheckSizes(comm, g->nx, g->ny, g->nz));
  PetscCall(CubeCheckMaterial(comm, E, nu, load));

  N = CUBE_DOF * g->nx * g->ny * g->nz;
  if (A) {
    ISLocalToGlobalMapping l2g;
    MatType                type;

    PetscValidHeaderSpecific(A, MAT_CLASSID, 5);
    PetscCall(MatGetSize(A, &M, &Nc));
    PetscCall(MatGetLocalToGlobalMapping(A, &l2g, NULL));
    PetscCheck(M == N && Nc == N && l2g, comm, PETSC_ERR_ARG_INCOMP, "The matrix must come from DMCreateMatrix() on this DMDA (size %" PetscInt_FMT ", got %" PetscInt_FMT " x %" PetscInt_FMT "%s)", N, M, Nc, l2g ? "" : ", no local-to-global mapping");
    PetscCall(MatGetType(A, &type));
    PetscCall(CubeCheckMatType(comm, type));
  }
  if (b) {
    PetscValidHeaderSpecific(b, VEC_CLASSID, 6);
    PetscCall(VecGetSize(b, &M));
    PetscCheck(M == N, comm, PETSC_ERR_ARG_SIZ, "The right-hand side must be a global vector of the DMDA (size %" PetscInt_FMT ", got %" PetscInt_FMT ")", N, M);
  }
  if (xexact) {
    PetscValidHeaderSpecific(xexact, VEC_CLASSID, 7);
    PetscCall(VecGetSize(xexact, &M));
    PetscCheck(M == N, comm, PETSC_ERR_ARG_SIZ, "The exact-solution vector must be a global vector of the DMDA (size %" PetscInt_FMT ", got %" PetscInt_FMT ")", N, M);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the spacing (unit unless the caller put uniform coordinates on the DM) and this rank's corners */
static PetscErrorCode CubeGetGrid(DM da, CubeGrid *g)
{
  PetscReal gmax[3];

  PetscFunctionBegin;
  PetscCall(DMGetCoordinates(da, &g->coords));
  if (!g->coords) {
    PetscCall(DMDASetUniformCoordinates(da, 0.0, (PetscReal)(g->nx - 1), 0.0, (PetscReal)(g->ny - 1), 0.0, (PetscReal)(g->nz - 1)));
    PetscCall(DMGetCoordinates(da, &g->coords));
  }
  PetscCall(DMGetBoundingBox(da, g->gmin, gmax));
  g->hx = (gmax[0] - g->gmin[0]) / (g->nx - 1);
  g->hy = (gmax[1] - g->gmin[1]) / (g->ny - 1);
  g->hz = (gmax[2] - g->gmin[2]) / (g->nz - 1);
  PetscCheck(g->hx > 0 && g->hy > 0 && g->hz > 0, PetscObjectComm((PetscObject)da), PETSC_ERR_ARG_WRONG, "The DM coordinates span an empty box");
  PetscCall(DMDAGetCorners(da, &g->xs, &g->ys, &g->zs, &g->xm, &g->ym, &g->zm));
  PetscCall(DMDAGetGhostCorners(da, &g->gxs, &g->gys, &g->gzs, &g->gxm, &g->gym, &g->gzm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A: the element matrices of the elements touching an owned node, rollers as symmetric Dirichlet rows and
   columns with a unit diagonal, and the rigid-body near null space */
static PetscErrorCode CubeAssembleMatrix(const CubeGrid *g, PetscReal E, PetscReal nu, Mat A)
{
  /* elements touching an owned node: [s-1, s+m-1] clamped to the mesh */
  const PetscInt ix0 = PetscMax(g->xs - 1, 0), iy0 = PetscMax(g->ys - 1, 0), iz0 = PetscMax(g->zs - 1, 0);
  const PetscInt ixe = PetscMin(g->xs + g->xm, g->nx - 1), iye = PetscMin(g->ys + g->ym, g->ny - 1), ize = PetscMin(g->zs + g->zm, g->nz - 1);
  PetscScalar    Ke[CUBE_EDOF * CUBE_EDOF], Kl[CUBE_EDOF * CUBE_EDOF];
  MatNullSpace   nsp;
  MatType        mtype;
  PetscBool      issbaij;

  PetscFunctionBegin;
  PetscCall(MatGetType(A, &mtype));
  PetscCall(PetscStrendswith(mtype, "sbaij", &issbaij));
  if (issbaij) PetscCall(MatSetOption(A, MAT_IGNORE_LOWER_TRIANGULAR, PETSC_TRUE));
  /* a missing preallocated entry is a bug: error instead of a silent malloc */
  PetscCall(MatSetOption(A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));
  PetscCall(MatZeroEntries(A));
  CubeElementStiffness(g->hx, g->hy, g->hz, E, nu, Ke);
  /* Each rank computes every element touching its nodes but adds only its own rows (row index -1
     for the others), in global element order: every row then sums the same terms in the same order
     whatever the partition, so the matrix is bitwise reproducible and nothing goes off-process. */
  PetscCall(MatSetOption(A, MAT_NO_OFF_PROC_ENTRIES, PETSC_TRUE));
  for (PetscInt k = iz0; k < ize; k++)
    for (PetscInt j = iy0; j < iye; j++)
      for (PetscInt i = ix0; i < ixe; i++) {
        PetscInt idx[CUBE_ENODES], row[CUBE_ENODES];
        PetscInt fixed[CUBE_EDOF];
        for (PetscInt a = 0; a < CUBE_ENODES; a++) {
          const PetscInt  ii = i + (a & 1), jj = j + ((a >> 1) & 1), kk = k + ((a >> 2) & 1);
          const PetscBool own     = (PetscBool)(ii >= g->xs && ii < g->xs + g->xm && jj >= g->ys && jj < g->ys + g->ym && kk >= g->zs && kk < g->zs + g->zm);
          idx[a]                  = ((kk - g->gzs) * g->gym + (jj - g->gys)) * g->gxm + (ii - g->gxs);
          row[a]                  = own ? idx[a] : -1;
          fixed[CUBE_DOF * a + 0] = (ii == 0);
          fixed[CUBE_DOF * a + 1] = (jj == 0);
          fixed[CUBE_DOF * a + 2] = (kk == 0);
        }
        if (i != 0 && j != 0 && k != 0) {
          PetscCall(MatSetValuesBlockedLocal(A, CUBE_ENODES, row, CUBE_ENODES, idx, Ke, ADD_VALUES));
          continue;
        }
        /* symmetric Dirichlet: drop rows AND columns of the roller dofs (values are 0, so b is unchanged) */
        for (PetscInt r = 0; r < CUBE_EDOF; r++)
          for (PetscInt c = 0; c < CUBE_EDOF; c++) Kl[r * CUBE_EDOF + c] = (fixed[r] || fixed[c]) ? 0.0 : Ke[r * CUBE_EDOF + c];
        PetscCall(MatSetValuesBlockedLocal(A, CUBE_ENODES, row, CUBE_ENODES, idx, Kl, ADD_VALUES));
      }
  /* unit diagonal on the roller dofs of owned nodes */
  for (PetscInt k = g->zs; k < g->zs + g->zm; k++)
    for (PetscInt j = g->ys; j < g->ys + g->ym; j++)
      for (PetscInt i = g->xs; i < g->xs + g->xm; i++) {
        PetscScalar D[CUBE_DOF * CUBE_DOF] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
        PetscInt    idx;
        if (i != 0 && j != 0 && k != 0) continue;
        D[0] = (i == 0) ? 1.0 : 0.0;
        D[4] = (j == 0) ? 1.0 : 0.0;
        D[8] = (k == 0) ? 1.0 : 0.0;
        idx  = ((k - g->gzs) * g->gym + (j - g->gys)) * g->gxm + (i - g->gxs);
        PetscCall(MatSetValuesBlockedLocal(A, 1, &idx, 1, &idx, D, ADD_VALUES));
      }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  /* rigid-body modes from the DM coordinates, for GAMG */
  PetscCall(MatNullSpaceCreateRigidBody(g->coords, &nsp));
  PetscCall(MatSetNearNullSpace(A, nsp));
  PetscCall(MatNullSpaceDestroy(&nsp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* b: consistent nodal loads of the traction on the top face, 0 on the roller dofs */
static PetscErrorCode CubeAssembleRHS(DM da, const CubeGrid *g, PetscReal load, Vec b)
{
  PetscScalar ****ba;
  /* 2x2 Gauss on each top face; bilinear shape functions give p hx hy / 4 per node. Faces touching an
     owned node, own nodes only, global face order: reproducible sums, no communication. */
  const PetscReal gq = 1.0 / PetscSqrtReal(3.0), gp[2] = {-gq, gq};

  PetscFunctionBegin;
  PetscCall(VecZeroEntries(b));
  PetscCall(DMDAVecGetArrayDOF(da, b, &ba));
  if (g->zs + g->zm == g->nz) {
    const PetscInt ix0 = PetscMax(g->xs - 1, 0), iy0 = PetscMax(g->ys - 1, 0);
    const PetscInt ixe = PetscMin(g->xs + g->xm, g->nx - 1), iye = PetscMin(g->ys + g->ym, g->ny - 1);
    for (PetscInt j = iy0; j < iye; j++)
      for (PetscInt i = ix0; i < ixe; i++)
        for (PetscInt a = 0; a < CUBE_FACE_NODES; a++) {
          const PetscInt ii = i + (a & 1), jj = j + ((a >> 1) & 1);
          PetscReal      f = 0;
          if (ii < g->xs || ii >= g->xs + g->xm || jj < g->ys || jj >= g->ys + g->ym) continue;
          for (PetscInt q = 0; q < CUBE_FACE_NODES; q++) {
            const PetscReal sx = (a & 1) ? 1.0 : -1.0, sy = (a & 2) ? 1.0 : -1.0;
            f += load * 0.25 * (1 + sx * gp[q & 1]) * (1 + sy * gp[q >> 1]) * (g->hx * g->hy / 4.0);
          }
          ba[g->nz - 1][jj][ii][2] += f;
        }
  }
  /* roller dofs have value 0 */
  for (PetscInt k = g->zs; k < g->zs + g->zm; k++)
    for (PetscInt j = g->ys; j < g->ys + g->ym; j++)
      for (PetscInt i = g->xs; i < g->xs + g->xm; i++) {
        if (i == 0) ba[k][j][i][0] = 0;
        if (j == 0) ba[k][j][i][1] = 0;
        if (k == 0) ba[k][j][i][2] = 0;
      }
  PetscCall(DMDAVecRestoreArrayDOF(da, b, &ba));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* xexact: uniaxial stress sigma_zz = load, measured from the min faces (linear, so Q1 reproduces it) */
static PetscErrorCode CubeExactSolution(DM da, const CubeGrid *g, PetscReal E, PetscReal nu, PetscReal load, Vec xexact)
{
  DM                    cda;
  PetscScalar       ****xa;
  const PetscScalar ****ca;

  PetscFunctionBegin;
  PetscCall(DMGetCoordinateDM(da, &cda));
  PetscCall(DMDAVecGetArrayDOFRead(cda, g->coords, (void *)&ca));
  PetscCall(DMDAVecGetArrayDOF(da, xexact, &xa));
  for (PetscInt k = g->zs; k < g->zs + g->zm; k++)
    for (PetscInt j = g->ys; j < g->ys + g->ym; j++)
      for (PetscInt i = g->xs; i < g->xs + g->xm; i++) {
        xa[k][j][i][0] = -nu * load * (PetscRealPart(ca[k][j][i][0]) - g->gmin[0]) / E;
        xa[k][j][i][1] = -nu * load * (PetscRealPart(ca[k][j][i][1]) - g->gmin[1]) / E;
        xa[k][j][i][2] = load * (PetscRealPart(ca[k][j][i][2]) - g->gmin[2]) / E;
      }
  PetscCall(DMDAVecRestoreArrayDOF(da, xexact, &xa));
  PetscCall(DMDAVecRestoreArrayDOFRead(cda, g->coords, (void *)&ca));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PipeKSPCubeAssembleOnDM - Assembles the GeoFEM/Cube elasticity problem on a DMDA the caller owns

  Collective

  Input Parameters:
+ da     - 3D `DMDA`, 3 dof per node, box stencil of width >= 1, `DM_BOUNDARY_NONE`; unit spacing unless it has uniform coordinates
. E      - Young's modulus (> 0)
. nu     - Poisson's ratio (in [0, 0.5))
. load   - traction in +z on the face z = zmax
. A      - matrix from `DMCreateMatrix()` on da, or NULL
. b      - global vector of da for the right-hand side, or NULL
- xexact - global vector of da for the exact solution, or NULL

  Note:
  This is the one assembly path; `PipeKSPCubeSetUp()` calls it. The rigid-body near null space is attached to A
  (for `PCGAMG`). The exact solution is linear, so Q1 elements reproduce it: see docs/cube.md.

  Level: intermediate

.seealso: `PipeKSPCubeCreate()`, `PipeKSPCubeSetUp()`, `PipeKSPCube`
@*/
PetscErrorCode PipeKSPCubeAssembleOnDM(DM da, PetscReal E, PetscReal nu, PetscReal load, Mat A, Vec b, Vec xexact)
{
  CubeGrid g;

  PetscFunctionBegin;
  PetscCall(CubeCheckAssembleArgs(da, E, nu, load, A, b, xexact, &g));
  PetscCall(PetscLogEventBegin(PIPEKSP_CubeAssembly, A, b, xexact, 0));
  PetscCall(CubeGetGrid(da, &g));
  if (A) PetscCall(CubeAssembleMatrix(&g, E, nu, A));
  if (b) PetscCall(CubeAssembleRHS(da, &g, load, b));
  if (xexact) PetscCall(CubeExactSolution(da, &g, E, nu, load, xexact));
  PetscCall(PetscLogEventEnd(PIPEKSP_CubeAssembly, A, b, xexact, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------- the object API ---------------- */
/*@
  PipeKSPCubeCreate - Creates a GeoFEM/Cube problem generator

  Collective

  Input Parameter:
. comm - the communicator of the mesh, matrix and vectors

  Output Parameter:
. cube - the new generator: 17 x 17 x 17 nodes, E = 1, nu = 0.3, load 1, `MATBAIJ`

  Level: beginner

.seealso: `PipeKSPCube`, `PipeKSPCubeSetFromOptions()`, `PipeKSPCubeSetUp()`, `PipeKSPCubeDestroy()`
@*/
PetscErrorCode PipeKSPCubeCreate(MPI_Comm comm, PipeKSPCube *cube)
{
  PipeKSPCube c;

  PetscFunctionBegin;
  PetscAssertPointer(cube, 2);
  PetscCall(PipeKSPCheckInitialized(comm));
  PetscCall(PetscNew(&c));
  c->comm = comm;
  c->nx = c->ny = c->nz = 17;
  c->E                  = 1.0;
  c->nu                 = 0.3;
  c->load               = 1.0;
  PetscCall(PetscStrncpy(c->mattype, MATBAIJ, sizeof(c->mattype)));
  *cube = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CubeCheckNotSetUp(PipeKSPCube cube)
{
  PetscFunctionBegin;
  PetscCheck(cube, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null PipeKSPCube: call PipeKSPCubeCreate() first");
  PetscCheck(!cube->setupcalled, cube->comm, PETSC_ERR_ORDER, "Cube settings must be changed before PipeKSPCubeSetUp()");
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CubeCheckSetUp(PipeKSPCube cube)
{
  PetscFunctionBegin;
  PetscCheck(cube, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null PipeKSPCube: call PipeKSPCubeCreate() first");
  PetscCheck(cube->setupcalled, cube->comm, PETSC_ERR_ORDER, "Call PipeKSPCubeSetUp() before getting the cube's objects");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PipeKSPCubeSetSizes - Sets the nodes of the cube in each direction

  Logically Collective

  Input Parameters:
+ cube - the generator
. nx   - nodes in x (>= 2)
. ny   - nodes in y (>= 2)
- nz   - nodes in z (>= 2)

  Options Database Keys:
+ -cube_n <n>  - the same number of nodes in every direction
. -cube_nx <n> - nodes in x
. -cube_ny <n> - nodes in y
- -cube_nz <n> - nodes in z

  Note:
  Must be called before `PipeKSPCubeSetUp()`.

  Level: beginner

.seealso: `PipeKSPCube`, `PipeKSPCubeSetMaterial()`, `PipeKSPCubeGetInfo()`
@*/
PetscErrorCode PipeKSPCubeSetSizes(PipeKSPCube cube, PetscInt nx, PetscInt ny, PetscInt nz)
{
  PetscFunctionBegin;
  PetscCall(CubeCheckNotSetUp(cube));
  PetscCall(CubeCheckSizes(cube->comm, nx, ny, nz));
  cube->nx = nx;
  cube->ny = ny;
  cube->nz = nz;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PipeKSPCubeSetMaterial - Sets the isotropic material of the cube

  Logically Collective

  Input Parameters:
+ cube - the generator
. E    - Young's modulus (> 0)
- nu   - Poisson's ratio (in [0, 0.5))

  Options Database Keys:
+ -cube_E <E>   - Young's modulus
- -cube_nu <nu> - Poisson's ratio

  Level: beginner

.seealso: `PipeKSPCube`, `PipeKSPCubeSetLoad()`, `PipeKSPCubeSetSizes()`
@*/
PetscErrorCode PipeKSPCubeSetMaterial(PipeKSPCube cube, PetscReal E, PetscReal nu)
{
  PetscFunctionBegin;
  PetscCall(CubeCheckNotSetUp(cube));
  PetscCall(CubeCheckMaterial(cube->comm, E, nu, cube->load));
  cube->E  = E;
  cube->nu = nu;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PipeKSPCubeSetLoad - Sets the uniform traction in +z on the face z = zmax

  Logically Collective

  Input Parameters:
+ cube - the generator
- load - the traction

  Options Database Key:
. -cube_load <load> - the traction

  Level: beginner

.seealso: `PipeKSPCube`, `PipeKSPCubeSetMaterial()`
@*/
PetscErrorCode PipeKSPCubeSetLoad(PipeKSPCube cube, PetscReal load)
{
  PetscFunctionBegin;
  PetscCall(CubeCheckNotSetUp(cube));
  PetscCall(CubeCheckMaterial(cube->comm, cube->E, cube->nu, load));
  cube->load = load;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PipeKSPCubeSetMatType - Sets the type of the stiffness matrix

  Logically Collective

  Input Parameters:
+ cube - the generator
- type - a `MatType` (default `MATBAIJ`, block size 3)

  Options Database Key:
. -cube_mat_type <type> - baij, aij, sbaij, ...

  Note:
  An assembled type: `MATIS` is refused (the element loop is written for assembled types; on 2 ranks a
  `MATIS` cube gave a wrong operator, error 0.54 against the exact solution with `KSPCG`).

  Level: beginner

.seealso: `PipeKSPCube`, `PipeKSPCubeGetMatrix()`
@*/
PetscErrorCode PipeKSPCubeSetMatType(PipeKSPCube cube, MatType type)
{
  PetscFunctionBegin;
  PetscCall(CubeCheckNotSetUp(cube));
  PetscAssertPointer(type, 2);
  PetscCall(CubeCheckMatType(cube->comm, type));
  PetscCall(PetscStrncpy(cube->mattype, type, sizeof(cube->mattype)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PipeKSPCubeSetFromOptions - Reads the generator's settings from the options database

  Collective

  Input Parameter:
. cube - the generator

  Options Database Keys:
+ -cube_n <n>           - nodes in every direction
. -cube_nx <n>          - nodes in x (also -cube_ny, -cube_nz)
. -cube_E <E>           - Young's modulus
. -cube_nu <nu>         - Poisson's ratio
. -cube_load <load>     - traction in +z on z = zmax
- -cube_mat_type <type> - matrix type

  Level: beginner

.seealso: `PipeKSPCube`, `PipeKSPCubeSetSizes()`, `PipeKSPCubeSetMaterial()`, `PipeKSPCubeSetLoad()`, `PipeKSPCubeSetMatType()`
@*/
PetscErrorCode PipeKSPCubeSetFromOptions(PipeKSPCube cube)
{
  PetscInt  n, nx, ny, nz;
  PetscReal E, nu, load;
  char      type[256];
  PetscBool set;

  PetscFunctionBegin;
  PetscCall(CubeCheckNotSetUp(cube));
  nx = cube->nx, ny = cube->ny, nz = cube->nz, E = cube->E, nu = cube->nu, load = cube->load;
  PetscOptionsBegin(cube->comm, NULL, "GeoFEM/Cube problem options", "PipeKSPCube");
  n = nx;
  PetscCall(PipeKSPOptionsInt("-cube_n", "Nodes in each direction", "PipeKSPCubeSetSizes", n, &n, &set));
  if (set) nx = ny = nz = n;
  PetscCall(PipeKSPOptionsInt("-cube_nx", "Nodes in x", "PipeKSPCubeSetSizes", nx, &nx, NULL));
  PetscCall(PipeKSPOptionsInt("-cube_ny", "Nodes in y", "PipeKSPCubeSetSizes", ny, &ny, NULL));
  PetscCall(PipeKSPOptionsInt("-cube_nz", "Nodes in z", "PipeKSPCubeSetSizes", nz, &nz, NULL));
  PetscCall(PetscOptionsReal("-cube_E", "Young's modulus", "PipeKSPCubeSetMaterial", E, &E, NULL));
  PetscCall(PetscOptionsReal("-cube_nu", "Poisson's ratio", "PipeKSPCubeSetMaterial", nu, &nu, NULL));
  PetscCall(PetscOptionsReal("-cube_load", "Traction in +z on the face z = zmax", "PipeKSPCubeSetLoad", load, &load, NULL));
  PetscCall(PetscOptionsFList("-cube_mat_type", "Matrix type (baij, aij, sbaij, ...)", "PipeKSPCubeSetMatType", MatList, cube->mattype, type, sizeof(type), &set));
  PetscOptionsEnd();
  PetscCall(PipeKSPCubeSetSizes(cube, nx, ny, nz));
  PetscCall(CubeCheckMaterial(cube->comm, E, nu, load));
  cube->E = E, cube->nu = nu, cube->load = load;
  if (set) PetscCall(PipeKSPCubeSetMatType(cube, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Check -da_processors_x/y/z against the communicator before the DMDA exists, with a message that says what to do */
static PetscErrorCode CubeCheckProcessorGrid(PipeKSPCube cube)
{
  const char    *names[3] = {"-da_processors_x", "-da_processors_y", "-da_processors_z"};
  const PetscInt nodes[3] = {cube->nx, cube->ny, cube->nz};
  PetscInt       m[3], d, prod = 1, nset = 0;
  PetscBool      set[3];
  PetscMPIInt    size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(cube->comm, &size));
  for (d = 0; d < 3; d++) {
    m[d] = PETSC_DECIDE;
    PetscCall(PipeKSPOptionsGetInt(NULL, NULL, names[d], &m[d], &set[d]));
    if (!set[d] || m[d] == PETSC_DECIDE) continue;
    PetscCheck(m[d] >= 1 && m[d] <= nodes[d], cube->comm, PETSC_ERR_ARG_OUTOFRANGE, "Processor grid: %s %" PetscInt_FMT " must be between 1 and the %" PetscInt_FMT " nodes in that direction", names[d], m[d], nodes[d]);
    prod *= m[d];
    nset++;
  }
  PetscCheck(size % prod == 0 && (nset < 3 || prod == size), cube->comm, PETSC_ERR_ARG_INCOMP, "Processor grid -da_processors_x/y/z (%" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT ", %d = decide) does not match the %d MPI ranks: the product must equal the number of ranks", m[0], m[1], m[2], (int)PETSC_DECIDE, (int)size);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PipeKSPCubeSetUp - Creates the DMDA, assembles the matrix, the right-hand side and the exact solution

  Collective

  Input Parameter:
. cube - the generator

  Options Database Keys:
+ -da_processors_x <m> - processes in x (also y, z); checked against the communicator size
- -cube_view           - view the cube (`PipeKSPCubeView()`) once set up

  Level: beginner

.seealso: `PipeKSPCube`, `PipeKSPCubeGetMatrix()`, `PipeKSPCubeGetRHS()`, `PipeKSPCubeAssembleOnDM()`
@*/
PetscErrorCode PipeKSPCubeSetUp(PipeKSPCube cube)
{
  PetscFunctionBegin;
  PetscCheck(cube, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null PipeKSPCube: call PipeKSPCubeCreate() first");
  if (cube->setupcalled) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(CubeCheckProcessorGrid(cube));
  PetscCall(DMDACreate3d(cube->comm, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_BOX, cube->nx, cube->ny, cube->nz, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, CUBE_DOF, 1, NULL, NULL, NULL, &cube->da));
  /* -da_processors_x/y/z etc.; DMSetUp checks the processor grid against the communicator size */
  PetscCall(DMSetFromOptions(cube->da));
  PetscCall(DMSetUp(cube->da));
  PetscCall(DMDAGetInfo(cube->da, NULL, &cube->nx, &cube->ny, &cube->nz, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDASetFieldName(cube->da, 0, "u_x"));
  PetscCall(DMDASetFieldName(cube->da, 1, "u_y"));
  PetscCall(DMDASetFieldName(cube->da, 2, "u_z"));
  PetscCall(DMDASetUniformCoordinates(cube->da, 0.0, (PetscReal)(cube->nx - 1), 0.0, (PetscReal)(cube->ny - 1), 0.0, (PetscReal)(cube->nz - 1)));
  PetscCall(DMSetMatType(cube->da, cube->mattype));
  PetscCall(DMCreateMatrix(cube->da, &cube->A));
  PetscCall(DMCreateGlobalVector(cube->da, &cube->b));
  PetscCall(VecDuplicate(cube->b, &cube->xexact));
  PetscCall(PetscObjectSetName((PetscObject)cube->A, "CubeStiffness"));
  PetscCall(PetscObjectSetName((PetscObject)cube->b, "CubeRHS"));
  PetscCall(PetscObjectSetName((PetscObject)cube->xexact, "CubeExactSolution"));
  PetscCall(PipeKSPCubeAssembleOnDM(cube->da, cube->E, cube->nu, cube->load, cube->A, cube->b, cube->xexact));
  cube->setupcalled = PETSC_TRUE;
  {
    PetscViewer       viewer;
    PetscViewerFormat format;
    PetscBool         flg;
    PetscCall(PetscOptionsCreateViewer(cube->comm, NULL, NULL, "-cube_view", &viewer, &format, &flg));
    if (flg) {
      PetscCall(PetscViewerPushFormat(viewer, format));
      PetscCall(PipeKSPCubeView(cube, viewer));
      PetscCall(PetscViewerPopFormat(viewer));
      PetscCall(PetscViewerDestroy(&viewer));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PipeKSPCubeGetDM - Gets the cube's DMDA (3 dof per node)

  Not Collective

  Input Parameter:
. cube - the generator, set up

  Output Parameter:
. da - the `DMDA`, owned by the cube

  Level: beginner

.seealso: `PipeKSPCube`, `PipeKSPCubeSetUp()`
@*/
PetscErrorCode PipeKSPCubeGetDM(PipeKSPCube cube, DM *da)
{
  PetscFunctionBegin;
  PetscCall(CubeCheckSetUp(cube));
  *da = cube->da;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PipeKSPCubeGetMatrix - Gets the cube's stiffness matrix

  Not Collective

  Input Parameter:
. cube - the generator, set up

  Output Parameter:
. A - the matrix, owned by the cube, with the rigid-body near null space attached

  Level: beginner

.seealso: `PipeKSPCube`, `PipeKSPCubeGetRHS()`, `PipeKSPCubeSetMatType()`
@*/
PetscErrorCode PipeKSPCubeGetMatrix(PipeKSPCube cube, Mat *A)
{
  PetscFunctionBegin;
  PetscCall(CubeCheckSetUp(cube));
  *A = cube->A;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PipeKSPCubeGetRHS - Gets the cube's right-hand side

  Not Collective

  Input Parameter:
. cube - the generator, set up

  Output Parameter:
. b - the vector, owned by the cube

  Level: beginner

.seealso: `PipeKSPCube`, `PipeKSPCubeGetMatrix()`, `PipeKSPCubeGetExactSolution()`
@*/
PetscErrorCode PipeKSPCubeGetRHS(PipeKSPCube cube, Vec *b)
{
  PetscFunctionBegin;
  PetscCall(CubeCheckSetUp(cube));
  *b = cube->b;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PipeKSPCubeGetExactSolution - Gets the exact solution of the cube's linear system

  Not Collective

  Input Parameter:
. cube - the generator, set up

  Output Parameter:
. x - the vector, owned by the cube

  Level: beginner

.seealso: `PipeKSPCube`, `PipeKSPCubeComputeError()`
@*/
PetscErrorCode PipeKSPCubeGetExactSolution(PipeKSPCube cube, Vec *x)
{
  PetscFunctionBegin;
  PetscCall(CubeCheckSetUp(cube));
  *x = cube->xexact;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PipeKSPCubeGetInfo - Gets the sizes and the material of a cube

  Not Collective

  Input Parameter:
. cube - the generator

  Output Parameters:
+ nx   - nodes in x (or NULL)
. ny   - nodes in y (or NULL)
. nz   - nodes in z (or NULL)
. E    - Young's modulus (or NULL)
. nu   - Poisson's ratio (or NULL)
- load - the traction (or NULL)

  Level: intermediate

.seealso: `PipeKSPCube`, `PipeKSPCubeSetSizes()`, `PipeKSPCubeSetMaterial()`
@*/
PetscErrorCode PipeKSPCubeGetInfo(PipeKSPCube cube, PetscInt *nx, PetscInt *ny, PetscInt *nz, PetscReal *E, PetscReal *nu, PetscReal *load)
{
  PetscFunctionBegin;
  PetscCheck(cube, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null PipeKSPCube: call PipeKSPCubeCreate() first");
  if (nx) *nx = cube->nx;
  if (ny) *ny = cube->ny;
  if (nz) *nz = cube->nz;
  if (E) *E = cube->E;
  if (nu) *nu = cube->nu;
  if (load) *load = cube->load;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PipeKSPCubeView - Prints the sizes, material, matrix type and processor grid of a cube

  Collective

  Input Parameters:
+ cube   - the generator
- viewer - an ASCII viewer, or NULL for stdout (other viewer types print nothing)

  Options Database Key:
. -cube_view - view at the end of `PipeKSPCubeSetUp()`

  Level: beginner

.seealso: `PipeKSPCube`, `PipeKSPCubeSetUp()`
@*/
PetscErrorCode PipeKSPCubeView(PipeKSPCube cube, PetscViewer viewer)
{
  PetscBool iascii;
  PetscInt  m, n, p;

  PetscFunctionBegin;
  PetscCheck(cube, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null PipeKSPCube: call PipeKSPCubeCreate() first");
  if (!viewer) PetscCall(PetscViewerASCIIGetStdout(cube->comm, &viewer));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "PipeKSPCube (GeoFEM/Cube): %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " nodes, %" PetscInt_FMT " unknowns\n", cube->nx, cube->ny, cube->nz, 3 * cube->nx * cube->ny * cube->nz));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "Q1 hexahedra, unit spacing, E %g, nu %g, traction %g in +z on z = zmax, rollers on the min faces\n", (double)cube->E, (double)cube->nu, (double)cube->load));
  PetscCall(PetscViewerASCIIPrintf(viewer, "matrix type %s\n", cube->mattype));
  if (cube->setupcalled) {
    PetscCall(DMDAGetInfo(cube->da, NULL, NULL, NULL, NULL, &m, &n, &p, NULL, NULL, NULL, NULL, NULL, NULL));
    PetscCall(PetscViewerASCIIPrintf(viewer, "processor grid %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT "\n", m, n, p));
  }
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PipeKSPCubeComputeError - Computes the max-norm error of a solution against the exact one

  Collective

  Input Parameters:
+ cube - the generator, set up
- x    - an approximate solution

  Output Parameter:
. err - max norm of x - xexact over the max norm of xexact (absolute when xexact is 0)

  Level: beginner

.seealso: `PipeKSPCube`, `PipeKSPCubeGetExactSolution()`
@*/
PetscErrorCode PipeKSPCubeComputeError(PipeKSPCube cube, Vec x, PetscReal *err)
{
  Vec       e;
  PetscReal ne, nx;

  PetscFunctionBegin;
  PetscCall(CubeCheckSetUp(cube));
  PetscValidHeaderSpecific(x, VEC_CLASSID, 2);
  PetscAssertPointer(err, 3);
  PetscCall(VecDuplicate(cube->xexact, &e));
  PetscCall(VecWAXPY(e, -1.0, cube->xexact, x));
  PetscCall(VecNorm(e, NORM_INFINITY, &ne));
  PetscCall(VecNorm(cube->xexact, NORM_INFINITY, &nx));
  PetscCall(VecDestroy(&e));
  *err = nx > 0 ? ne / nx : ne;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PipeKSPCubeDestroy - Destroys a cube and the objects it owns

  Collective

  Input Parameter:
. cube - the generator (set to NULL)

  Level: beginner

.seealso: `PipeKSPCube`, `PipeKSPCubeCreate()`
@*/
PetscErrorCode PipeKSPCubeDestroy(PipeKSPCube *cube)
{
  PetscFunctionBegin;
  if (!cube || !*cube) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatDestroy(&(*cube)->A));
  PetscCall(VecDestroy(&(*cube)->b));
  PetscCall(VecDestroy(&(*cube)->xexact));
  PetscCall(DMDestroy(&(*cube)->da));
  PetscCall(PetscFree(*cube));
  PetscFunctionReturn(PETSC_SUCCESS);
}
