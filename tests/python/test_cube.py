"""pipeksp.Cube: the assembled problem from petsc4py, its exact solution and its argument checks."""
import pytest
from petsc4py import PETSc

import pipeksp


def test_sizes_and_objects(comm):
    with pipeksp.Cube(comm, nx=5, ny=4, nz=3, from_options=False) as c:
        assert c.sizes == (5, 4, 3)
        assert c.A.getSize() == (180, 180) and c.b.getSize() == 180 and c.x_exact.getSize() == 180
        assert c.A.getBlockSize() == 3 and c.dm.getDof() == 3
        assert c.A.getType().endswith("baij")
        assert isinstance(c.dm, PETSc.DMDA) and isinstance(c.A, PETSc.Mat)
        assert c.A.getLocalSize()[0] == c.b.getLocalSize() == c.dm.createGlobalVec().getLocalSize()
    assert c.A is None and c.dm is None
    c.destroy()  # twice is harmless


@pytest.mark.parametrize("mat_type", ["aij", "baij", "sbaij"])
def test_exact_solution_solves_the_system(comm, mat_type):
    # Q1 reproduces the linear uniaxial-stress field exactly: A x_exact = b to rounding
    with pipeksp.Cube(comm, n=5, E=2.0, nu=0.25, load=3.0, mat_type=mat_type, from_options=False) as c:
        assert c.A.getType() in (mat_type, "seq" + mat_type, "mpi" + mat_type)
        r = c.b.duplicate()
        c.A.mult(c.x_exact, r)
        r.axpy(-1.0, c.b)
        assert r.norm() <= 1e-12 * c.b.norm()
        assert c.b.norm() > 0
        if mat_type == "aij":  # PETSc checks symmetry on AIJ only; sbaij is symmetric by storage
            assert c.A.isSymmetric(1e-12)
        # u_z = p z / E at z = nz - 1 is the largest displacement
        assert c.x_exact.norm(PETSc.NormType.INFINITY) == pytest.approx(3.0 * 4 / 2.0, rel=1e-14)
        r.destroy()


def test_error_measure(comm):
    with pipeksp.Cube(comm, n=4, from_options=False) as c:
        assert c.error(c.x_exact) == 0.0
        z = c.b.duplicate()
        z.set(0.0)
        assert c.error(z) == pytest.approx(1.0)
        c.x_exact.copy(z)
        z.scale(1.5)
        assert c.error(z) == pytest.approx(0.5)
        z.destroy()


def test_cg_solution_matches_exact(comm):
    with pipeksp.Cube(comm, n=6, from_options=False) as c:
        ksp = PETSc.KSP().create(comm)
        ksp.setOperators(c.A)
        ksp.setType("cg")
        ksp.getPC().setType("jacobi")
        ksp.setTolerances(rtol=1e-10)
        x = c.b.duplicate()
        ksp.solve(c.b, x)
        assert ksp.getConvergedReason() > 0
        assert c.error(x) < 1e-7
        ksp.destroy()
        x.destroy()


def test_options_override(comm):
    opts = PETSc.Options()
    opts["cube_n"] = 3
    opts["cube_nu"] = 0.2
    try:
        with pipeksp.Cube(comm, n=5) as c:
            assert c.sizes == (3, 3, 3) and c.nu == pytest.approx(0.2)
        with pipeksp.Cube(comm, n=5, from_options=False) as c:
            assert c.sizes == (5, 5, 5) and c.nu == pytest.approx(0.3)
    finally:
        del opts["cube_n"]
        del opts["cube_nu"]


@pytest.mark.parametrize("kwargs, exc, text", [
    (dict(n=1), ValueError, ">= 2"),
    (dict(nx=0, n=4), ValueError, "nx must be >= 2"),
    (dict(n=3.5), TypeError, "integer"),
    (dict(E="one"), TypeError, "real number"),
    (dict(mat_type=3), TypeError, "mat_type"),
    (dict(comm=1), TypeError, "Comm"),
    (dict(mat_type="nosuchtype"), ValueError, "unknown matrix type 'nosuchtype'"),
])
def test_bad_arguments(comm, kwargs, exc, text):
    kwargs.setdefault("comm", comm)
    with pytest.raises(exc, match=text):
        pipeksp.Cube(from_options=False, **kwargs)


@pytest.mark.parametrize("kwargs, text", [
    (dict(nu=0.5), "Poisson"),
    (dict(E=-1.0), "Young"),
    (dict(load=float("nan")), "load"),
])
def test_bad_material_is_a_petsc_error(comm, kwargs, text):
    # checked in C, collectively: a PETSc error whose text says what was wrong
    with pytest.raises(PETSc.Error, match=text):
        pipeksp.Cube(comm, n=3, from_options=False, **kwargs)


def test_error_argument_checks(comm):
    with pipeksp.Cube(comm, n=3, from_options=False) as c:
        with pytest.raises(TypeError):
            c.error(c.A)
        v = PETSc.Vec().createMPI(7, comm=comm)
        with pytest.raises(ValueError, match="sizes"):
            c.error(v)
        v.destroy()
    with pytest.raises(ValueError, match="destroyed"):
        c.error(v)


def test_cube_on_a_subcommunicator(comm):
    # every rank its own cube: the petsc4py Comm must reach the C side as the right MPI_Comm
    with pipeksp.Cube(PETSc.COMM_SELF, n=3, from_options=False) as c:
        assert c.A.getComm().getSize() == 1 and c.dm.getComm().getSize() == 1
        assert c.A.getSize() == (81, 81) and c.A.getLocalSize() == (81, 81)
        r = c.b.duplicate()
        c.A.mult(c.x_exact, r)
        r.axpy(-1.0, c.b)
        assert r.norm() <= 1e-12 * c.b.norm()
        r.destroy()
    with pipeksp.Cube(comm, n=6, from_options=False) as c:
        assert c.dm.getComm().getSize() == comm.getSize()
        assert c.b.getSize() == 648
