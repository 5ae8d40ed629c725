"""asddic settings and colouring from petsc4py."""
import numpy
import pytest
from petsc4py import PETSc

import pipeksp


@pytest.fixture(scope="module")
def cube(comm):
    c = pipeksp.Cube(comm, n=7, from_options=False)
    yield c
    c.destroy()


def colour_clashes(cube, col):
    """Pairs of coupled block rows that share a colour, from this rank's diagonal block of A."""
    ad = cube.A.getDiagonalBlock()
    aij = ad.convert("aij", out=PETSc.Mat())  # a copy: out=None would convert A's own block in place
    ia, ja, _ = aij.getValuesCSR()
    aij.destroy()
    ad.destroy()
    bs, cp, perm = col["bs"], col["colorptr"], col["perm"]
    colour = numpy.empty(col["nblocks"], dtype=int)
    for c in range(col["ncolors"]):
        colour[perm[cp[c]:cp[c + 1]]] = c
    rows = numpy.repeat(numpy.arange(len(ia) - 1), numpy.diff(ia)) // bs
    cols = ja // bs
    return int(numpy.count_nonzero((rows != cols) & (colour[rows] == colour[cols])))


def solve(cube, **settings):
    ksp = PETSc.KSP().create(cube.A.getComm())
    ksp.setOperators(cube.A)
    ksp.setType("cg")
    ksp.setTolerances(rtol=1e-8)
    pc = ksp.getPC()
    pc.setType("asddic")
    pipeksp.set_asddic(pc, **settings)
    x = cube.b.duplicate()
    ksp.solve(cube.b, x)
    out = dict(reason=ksp.getConvergedReason(), its=ksp.getIterationNumber(), err=cube.error(x),
               coloring=pipeksp.get_asddic_coloring(pc), bounds=pipeksp.get_asddic_bounds(pc))
    x.destroy()
    ksp.destroy()
    return out


def test_getters_return_settings(cube):
    """every PCASDDICSet* has its PCASDDICGet*: get_asddic returns what set_asddic stored"""
    pc = PETSc.PC().create(cube.A.getComm())
    pc.setType("asddic")
    want = dict(ordering="mc", colors=7, iterations=3, block=False, threads=1, local="sgs", sweep="richardson",
                eigenvalues=(0.5, 2.5), esteig_steps=12, esteig_safety=1.5, damping=0.9, shift="none", check=True,
                local_blocks=1)
    pipeksp.set_asddic(pc, **want)
    got = pipeksp.get_asddic(pc)
    assert {k: got[k] for k in want} == want and got["kernel"] == "tuned"
    pc.destroy()


@pytest.mark.parametrize("ordering, colors", [("cmrcm", 3), ("mc", 4), ("rcm", None), ("natural", None)])
def test_orderings(cube, ordering, colors):
    res = solve(cube, ordering=ordering, colors=colors)
    assert res["reason"] > 0 and res["err"] < 1e-5
    col = res["coloring"]
    nloc = cube.b.getLocalSize()
    assert col["bs"] * col["nblocks"] == nloc and col["bs"] in (1, 3)
    assert sorted(col["perm"]) == list(range(col["nblocks"]))  # a permutation of the local block rows
    cp = col["colorptr"]
    assert cp[0] == 0 and cp[-1] == col["nblocks"] and numpy.all(numpy.diff(cp) >= 0)
    assert len(cp) == col["ncolors"] + 1
    if ordering in ("cmrcm", "mc"):
        # the coloured sweeps rely on it: no two coupled unknowns in one colour
        assert col["independent"]
        assert col["ncolors"] >= 2
        assert colour_clashes(cube, col) == 0
    elif not col["independent"]:
        assert colour_clashes(cube, col) > 0  # and the check can tell


def test_point_and_block_agree(cube):
    blk = solve(cube, block=True)
    pt = solve(cube, block=False)
    assert blk["coloring"]["bs"] == 3 and pt["coloring"]["bs"] == 1
    assert blk["reason"] > 0 and pt["reason"] > 0 and blk["err"] < 1e-5 and pt["err"] < 1e-5


def test_asdd_sweeps_help(cube):
    one = solve(cube, iterations=1)
    two = solve(cube, iterations=2)
    assert one["reason"] > 0 and two["reason"] > 0
    assert two["its"] <= one["its"], (two["its"], one["its"])


@pytest.mark.parametrize("local", ["ic", "sgs"])
@pytest.mark.parametrize("sweep", ["chebyshev", "richardson"])
def test_kernels_and_sweeps(cube, local, sweep):
    res = solve(cube, local=local, sweep=sweep, iterations=2, ordering="mc")
    assert res["reason"] > 0 and res["err"] < 1e-5
    b = res["bounds"]
    if sweep == "chebyshev" or local == "ic" or cube.A.getComm().getSize() > 1:
        assert 0 < b["emin"] < b["emax"]  # estimated
    assert 0 < b["omega"] <= 1
    if sweep == "richardson" and b["emax"] > 0:
        assert b["omega"] == pytest.approx(min(1.0, 1.9 / b["emax"]))


def test_bounds_by_hand(cube):
    res = solve(cube, eigenvalues=(0.05, 3.0), sweep="richardson")
    assert res["reason"] > 0 and res["bounds"]["emin"] == 0.05 and res["bounds"]["emax"] == 3.0
    assert res["bounds"]["omega"] == pytest.approx(1.9 / 3.0)
    res = solve(cube, damping=0.5, sweep="richardson", esteig_steps=0, shift="diagonal", check=True)
    assert res["reason"] > 0 and res["bounds"]["omega"] == 0.5


def test_local_blocks(cube):
    one = solve(cube, local_blocks=1)
    two = solve(cube, local_blocks=2, threads=1)
    assert one["reason"] > 0 and two["reason"] > 0 and two["err"] < 1e-5
    col = two["coloring"]
    nb, perm = col["nblocks"], col["perm"]
    # each block is ordered inside itself: the first nb//2 new rows are the first nb//2 old ones
    assert sorted(perm[:nb // 2]) == list(range(nb // 2))
    assert sorted(perm[nb // 2:]) == list(range(nb // 2, nb))


def test_local_blocks_against_colours(cube):
    ksp = PETSc.KSP().create(cube.A.getComm())
    ksp.setOperators(cube.A)
    ksp.setTolerances(rtol=1e-8)
    pc = ksp.getPC()
    pc.setType("asddic")
    x = cube.b.duplicate()
    try:
        with pytest.raises(ValueError, match="colour orderings"):  # both at once: refused before any change
            pipeksp.set_asddic(pc, ordering="mc", local_blocks=2)
        assert pipeksp.get_asddic_local_blocks(pc) == 1
        pipeksp.set_asddic(pc, local_blocks=2)
        ksp.solve(cube.b, x)
        assert ksp.getConvergedReason() > 0
        for _ in range(3):  # the C setter refuses, the KSP stays usable (no half-done set-up in KSPSolve)
            with pytest.raises(PETSc.Error, match="colour orderings"):
                pipeksp.set_asddic(pc, ordering="cmrcm", colors=30)
            x.set(0)
            ksp.solve(cube.b, x)
            assert ksp.getConvergedReason() > 0 and cube.error(x) < 1e-5
        assert pipeksp.get_asddic_local_blocks(pc) == 2
        pipeksp.set_asddic(pc, local_blocks=1, ordering="cmrcm")  # one block first: accepted
        x.set(0)
        ksp.solve(cube.b, x)
        assert ksp.getConvergedReason() > 0 and pipeksp.get_asddic_coloring(pc)["independent"]
    finally:
        x.destroy()
        ksp.destroy()


def test_bad_arguments(comm):
    pc = PETSc.PC().create(comm)
    try:
        with pytest.raises(ValueError, match="set the PC type first"):
            pipeksp.set_asddic(pc, colors=3)
        pc.setType("asddic")
        with pytest.raises(ValueError, match="unknown ordering 'zigzag'.*cmrcm, rcm, mc, natural"):
            pipeksp.set_asddic(pc, ordering="zigzag")
        for key, val, exc in (("colors", 0, ValueError), ("iterations", -2, ValueError), ("threads", -1, ValueError),
                              ("local_blocks", 0, ValueError),
                              ("colors", 2.5, TypeError), ("block", "yes", TypeError), ("ordering", 1, TypeError)):
            with pytest.raises(exc, match=key if key != "ordering" else "ordering"):
                pipeksp.set_asddic(pc, **{key: val})
        with pytest.raises(ValueError, match="unknown sweep 'fast'.*chebyshev"):
            pipeksp.set_asddic(pc, sweep="fast")
        with pytest.raises(ValueError, match="unknown local 'ilu'.*ic, sgs"):
            pipeksp.set_asddic(pc, local="ilu")
        with pytest.raises(ValueError, match="pair"):
            pipeksp.set_asddic(pc, eigenvalues=(1.0,))
        with pytest.raises(ValueError, match="damping"):  # the C setter's range, checked before any change
            pipeksp.set_asddic(pc, damping=2.5)
        with pytest.raises(ValueError, match="emin < emax"):
            pipeksp.set_asddic(pc, local_blocks=2, iterations=3, eigenvalues=(2.0, 1.0))
        with pytest.raises(ValueError, match="esteig_safety"):
            pipeksp.set_asddic(pc, local_blocks=2, esteig_safety=0.5)
        assert pipeksp.get_asddic_local_blocks(pc) == 1  # nothing was applied
        with pytest.raises(TypeError, match="PETSc.PC"):
            pipeksp.set_asddic(PETSc.KSP(), colors=2)
        with pytest.raises(PETSc.Error, match="PCSetUp"):  # C: colouring exists only after set-up
            pipeksp.get_asddic_coloring(pc)
        jac = PETSc.PC().create(comm)
        jac.setType("jacobi")
        with pytest.raises(ValueError, match="not 'asddic'"):  # C ignores it; Python says it would do nothing
            pipeksp.set_asddic(jac, colors=3)
        with pytest.raises(ValueError, match="not 'asddic'"):
            pipeksp.get_asddic_coloring(jac)
        jac.destroy()
    finally:
        pc.destroy()


@pytest.mark.parametrize("key,bad,edges", [
    ("esteig_safety", [1e100, 10.5, 1.05, float("inf"), float("nan")], [1.1, 10.0]),
    ("damping", [1e-300, 5e-7, 2.0, -0.5, float("nan")], [1e-6, 1.99, 0.0]),
    ("esteig_steps", [2, 9, -2], [10, -1, 0]),
    ("threads", [10**6, 4097], [4096, 0, 1]),  # 10**6 had been applied halfway, then refused by C
    ("eigenvalues", [(1e-3, 1e160), (1e-300, 1e300), (1.0, float("inf")), (1e-9, 1e-7), (1e-7, 1e6)],
     [(1e-6, 1e6), (1e-18, 1e-6), (0.0, 0.0)]),
])
def test_ranges_that_keep_p_spd(comm, key, bad, edges):
    """The Python mirror refuses what the C setters refuse (safety 1e100 or bounds 1e-3,1e160 ended
    CONVERGED_ATOL at iteration 0 with x = 0; 2 estimate steps left P indefinite), naming the allowed range,
    before anything changes; the edges of the ranges are accepted by both."""
    pc = PETSc.PC().create(comm)
    try:
        pc.setType("asddic")
        for v in bad:
            with pytest.raises(ValueError, match=key + r".*(\[|at least|at most)"):
                pipeksp.set_asddic(pc, local_blocks=2, **{key: v})
            assert pipeksp.get_asddic_local_blocks(pc) == 1  # nothing was applied
        for v in edges:
            pipeksp.set_asddic(pc, **{key: v})
    finally:
        pc.destroy()


def minus_laplacian(comm, n):
    """Minus the 5-point Laplacian on n x n: negative definite, every diagonal entry -4."""
    A = PETSc.Mat().createAIJ(((PETSc.DECIDE, n * n), (PETSc.DECIDE, n * n)), nnz=(5, 2), comm=comm)
    rs, re = A.getOwnershipRange()
    for r in range(rs, re):
        i, j = divmod(r, n)
        A.setValue(r, r, -4.0)
        for c, ok in ((r - n, i > 0), (r + n, i < n - 1), (r - 1, j > 0), (r + 1, j < n - 1)):
            if ok:
                A.setValue(r, c, 1.0)
    A.assemble()
    return A


@pytest.mark.parametrize("local", ["sgs", "ic"])
@pytest.mark.parametrize("ksptype", ["cg", "pipegv"])
def test_negative_definite_fails_the_pc(comm, local, ksptype):
    """A hostile reproducer from petsc4py: with sgs every KSP ended CONVERGED_RTOL after 1 iteration with
    ||b - Ax|| = 0.97 ||b||. Now the PC fails (PETSc's convention: DIVERGED_PC_FAILED; the PC's reason
    FACTOR_NUMERIC_ZEROPIVOT, tests/ex20) and, with error_if_not_converged, the error names the cause."""
    A = minus_laplacian(comm, 10)
    b, x = A.createVecs()
    b.set(1.0)
    for raise_error in (False, True):
        ksp = PETSc.KSP().create(comm)
        try:
            ksp.setOperators(A)
            ksp.setType(ksptype)
            ksp.getPC().setType("asddic")
            pipeksp.set_asddic(ksp.getPC(), local=local)
            if raise_error:
                ksp.setErrorIfNotConverged(True)
                with pytest.raises(PETSc.Error) as err:
                    ksp.solve(b, x)
                assert err.value.ierr == 81  # PETSC_ERR_MAT_CH_ZRPVT, as PCFactor's zero pivot
            else:
                ksp.solve(b, x)
                assert ksp.getConvergedReason() == -11  # KSP_DIVERGED_PC_FAILED (petsc4py 3.18: DIVERGED_PCSETUP_FAILED)
                assert ksp.getIterationNumber() == 0
        finally:
            ksp.destroy()
    A.destroy()
    b.destroy()
    x.destroy()


@pytest.mark.parametrize("shift", [0.5, 5.0])
def test_reused_pc_follows_a_changed_matrix(cube, shift):
    """-ksp_reuse_preconditioner, then A + shift I in the same Mat: asddic keeps its factorization but its sweeps
    multiply by the new A, so their bounds are estimated again; with the old ones the polynomial was indefinite
    (cg ended DIVERGED_INDEFINITE_PC after 3 to 6 iterations at shift 0.5, at 116 or ran 298 at shift 5)"""
    A = cube.A.duplicate(copy=True)
    ksp = PETSc.KSP().create(A.getComm())
    ksp.setOperators(A)
    ksp.setType("cg")
    ksp.setTolerances(rtol=1e-8)
    pc = ksp.getPC()
    pc.setType("asddic")
    x = cube.b.duplicate()
    ksp.solve(cube.b, x)
    assert ksp.getConvergedReason() > 0
    before = pipeksp.get_asddic_bounds(pc)
    pc.setReusePreconditioner(True)
    A.shift(shift)
    ksp.solve(cube.b, x)
    after = pipeksp.get_asddic_bounds(pc)
    assert ksp.getConvergedReason() > 0 and ksp.getIterationNumber() <= 40, (ksp.getConvergedReason(), ksp.getIterationNumber())
    assert after["emax"] > before["emax"]  # estimated again, for A + shift I with the old factors
    r = cube.b.duplicate()  # the residual of the new operator: the solve is of A + shift I, not of the old A
    A.mult(x, r)
    r.aypx(-1.0, cube.b)
    assert r.norm() <= 1e-7 * cube.b.norm()
    for v in (x, r):
        v.destroy()
    ksp.destroy()
    A.destroy()


def _tridiag(comm, n, periodic, shift):
    """1-D Laplacian [-1, 2 + shift, -1] on n rows (periodic: wrapped around), split evenly over the ranks."""
    A = PETSc.Mat().createAIJ([n, n], nnz=3, comm=comm)
    rs, re = A.getOwnershipRange()
    for i in range(rs, re):
        A[i, i] = 2.0 + shift
        for j in (i - 1, i + 1):
            if periodic or 0 <= j < n:
                A[i, j % n] = -1.0
    A.assemble()
    return A


@pytest.mark.parametrize("rows_per_rank,periodic,shift", [(1, False, 0.0), (2, True, 0.1)])
def test_estimate_sees_modes_not_periodic_over_the_ranks(comm, rows_per_rank, periodic, shift):
    """A hostile reproducer: the estimate's random start vector had the same entries on every rank, so with one
    or two rows a rank it was periodic over the ranks (the 2 x 2 Laplacian on 2 ranks: an eigenvector). Its
    Krylov space missed the top of M^-1 A, the Chebyshev interval was [0.5, 0.55] for {0.5, 1.5}, P was
    indefinite and every KSP, cg too, ended DIVERGED_INDEFINITE_PC. Now each rank draws its own entries."""
    n = max(2, rows_per_rank * comm.getSize())
    A = _tridiag(comm, n, periodic, shift)
    b, x = A.createVecs()
    b.setRandom()
    ksp = PETSc.KSP().create(comm)
    try:
        ksp.setOperators(A)
        ksp.setType("cg")
        ksp.getPC().setType("asddic")
        ksp.setTolerances(rtol=1e-10, max_it=100)
        ksp.solve(b, x)
        assert ksp.getConvergedReason() > 0, ksp.getConvergedReason()
        r = b.duplicate()
        A.mult(x, r)
        r.aypx(-1.0, b)
        assert r.norm() <= 1e-8 * b.norm()
        r.destroy()
    finally:
        ksp.destroy()
        A.destroy()
        b.destroy()
        x.destroy()
