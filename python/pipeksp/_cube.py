"""The GeoFEM/Cube problem from petsc4py: Python owns the DMDA, matrix and vectors; the library assembles
into them (PipeKSPCubeAssembleOnDM), so every object is an ordinary petsc4py object."""
import ctypes
import numbers

from . import _loader


def _mpi_comm(comm):
    """The C MPI_Comm of a petsc4py Comm, for ctypes."""
    try:
        f2c = _loader.function("MPI_Comm_f2c", ctypes.c_void_p, [ctypes.c_int])
    except _loader.MissingSymbolError:
        # MPICH-style MPI: MPI_Comm is an int equal to its Fortran handle (MPI_Comm_f2c is a macro)
        return ctypes.c_int(comm.fortran)
    return ctypes.c_void_p(f2c(comm.fortran))  # Open MPI: MPI_Comm is a pointer


def _int_arg(name, v):
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, numbers.Integral):
        raise TypeError("Cube: %s must be an integer (number of nodes), got %s" % (name, type(v).__name__))
    if v < 2:
        raise ValueError("Cube: %s must be >= 2 nodes (one element), got %d" % (name, v))
    return _loader.petsc_int_arg("Cube", name, v)


def _real_arg(name, v):
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, numbers.Real):
        raise TypeError("Cube: %s must be a real number, got %s" % (name, type(v).__name__))
    return float(v)


class Cube:
    """The GeoFEM/Cube elasticity problem (Q1 hexahedra, rollers on the min faces, traction on z = zmax).

    Cube(comm=None, n=None, nx=None, ny=None, nz=None, E=None, nu=None, load=None, mat_type=None,
         from_options=True)

    n sets the nodes in every direction, nx/ny/nz one each; unset values take the library defaults
    (17 nodes, E 1.0, nu 0.3, load 1.0, 'baij'). With from_options the -cube_* options (and the DMDA's
    -da_processors_x/y/z) override, as in the C tutorial ex1. Attributes: dm (DMDA, dof 3), A, b,
    x_exact, sizes (nx, ny, nz), E, nu, load, mat_type; error(x) is the max-norm error of x relative to
    the exact solution's max norm (as PipeKSPCubeComputeError). destroy() frees everything now.
    """

    def __init__(self, comm=None, n=None, nx=None, ny=None, nz=None, E=None, nu=None, load=None,
                 mat_type=None, from_options=True):
        from petsc4py import PETSc
        _loader.register()
        if comm is None:
            comm = PETSc.COMM_WORLD
        if not isinstance(comm, PETSc.Comm):
            raise TypeError("Cube: comm must be a petsc4py.PETSc.Comm (e.g. PETSc.COMM_WORLD), got %s"
                            % type(comm).__name__)
        n, nx, ny, nz = (_int_arg(k, v) for k, v in (("n", n), ("nx", nx), ("ny", ny), ("nz", nz)))
        E, nu, load = (_real_arg(k, v) for k, v in (("E", E), ("nu", nu), ("load", load)))
        if mat_type is not None and not isinstance(mat_type, str):
            raise TypeError("Cube: mat_type must be a string such as 'baij', 'aij' or 'sbaij', got %s"
                            % type(mat_type).__name__)
        self.dm = self.A = self.b = self.x_exact = None

        # The library's cube object does the defaults, the -cube_* options and the checks (collective
        # PETSc errors with the reason); it holds no PETSc objects until set-up, which we never call.
        info = self._settings(comm, n, nx, ny, nz, E, nu, load, mat_type, from_options)
        self.sizes = info[:3]
        self.E, self.nu, self.load = info[3:]
        self.mat_type = mat_type or "baij"
        if from_options:
            self.mat_type = PETSc.Options().getString("cube_mat_type", self.mat_type)

        self._check_mat_type(comm, self.mat_type)

        # the same DMDA, names and coordinates as PipeKSPCubeSetUp()
        dm = PETSc.DMDA().create(dim=3, dof=3, sizes=self.sizes, stencil_width=1,
                                 stencil_type=PETSc.DMDA.StencilType.BOX,
                                 boundary_type=(PETSc.DM.BoundaryType.NONE,) * 3, setup=False, comm=comm)
        try:
            if from_options:
                dm.setFromOptions()
            dm.setUp()
            for i, name in enumerate(("u_x", "u_y", "u_z")):
                dm.setFieldName(i, name)
            nxs = dm.getSizes()
            dm.setUniformCoordinates(0.0, nxs[0] - 1.0, 0.0, nxs[1] - 1.0, 0.0, nxs[2] - 1.0)
            dm.setMatType(self.mat_type)
            A = dm.createMat()  # (createMatrix(), its old alias, is gone from petsc4py 3.26)
            b = dm.createGlobalVec()
            x = b.duplicate()
            # set now so that destroy() frees whatever exists if the assembly fails
            self.dm, self.A, self.b, self.x_exact = dm, A, b, x
            A.setName("CubeStiffness")
            b.setName("CubeRHS")
            x.setName("CubeExactSolution")
            fn = _loader.function("PipeKSPCubeAssembleOnDM", ctypes.c_int,
                                  [ctypes.c_void_p, ctypes.c_double, ctypes.c_double, ctypes.c_double,
                                   ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p])
            _loader.check(fn(ctypes.c_void_p(dm.handle), self.E, self.nu, self.load, ctypes.c_void_p(A.handle),
                             ctypes.c_void_p(b.handle), ctypes.c_void_p(x.handle)))
        except BaseException:
            dm.destroy()
            self.destroy()
            raise

    @staticmethod
    def _check_mat_type(comm, mat_type):
        # DMCreateMatrix() leaks its half-made Mat when the type is unknown: try the name on our own Mat first
        from petsc4py import PETSc
        m = PETSc.Mat().create(comm)
        try:
            m.setType(mat_type)
        except PETSc.Error:
            raise ValueError("Cube: unknown matrix type %r; use a PETSc Mat type such as 'baij', 'aij' or "
                             "'sbaij' (-cube_mat_type)" % mat_type) from None
        finally:
            m.destroy()

    @staticmethod
    def _settings(comm, n, nx, ny, nz, E, nu, load, mat_type, from_options):
        vp, I, R = ctypes.c_void_p, _loader.petsc_int(), ctypes.c_double
        f = _loader.function
        cube = vp()
        mcomm = _mpi_comm(comm)
        _loader.check(f("PipeKSPCubeCreate", ctypes.c_int, [type(mcomm), ctypes.POINTER(vp)])(mcomm, ctypes.byref(cube)))
        try:
            dx, dy, dz = I(), I(), I()
            dE, dnu, dload = R(), R(), R()
            getinfo = f("PipeKSPCubeGetInfo", ctypes.c_int, [vp] + [ctypes.POINTER(I)] * 3 + [ctypes.POINTER(R)] * 3)
            _loader.check(getinfo(cube, dx, dy, dz, dE, dnu, dload))
            sx = nx or n or dx.value
            sy = ny or n or dy.value
            sz = nz or n or dz.value
            _loader.check(f("PipeKSPCubeSetSizes", ctypes.c_int, [vp, I, I, I])(cube, sx, sy, sz))
            _loader.check(f("PipeKSPCubeSetMaterial", ctypes.c_int, [vp, R, R])(
                cube, dE.value if E is None else E, dnu.value if nu is None else nu))
            if load is not None:
                _loader.check(f("PipeKSPCubeSetLoad", ctypes.c_int, [vp, R])(cube, load))
            if mat_type is not None:
                _loader.check(f("PipeKSPCubeSetMatType", ctypes.c_int, [vp, ctypes.c_char_p])(cube, mat_type.encode()))
            if from_options:
                _loader.check(f("PipeKSPCubeSetFromOptions", ctypes.c_int, [vp])(cube))
            _loader.check(getinfo(cube, dx, dy, dz, dE, dnu, dload))
            return (dx.value, dy.value, dz.value, dE.value, dnu.value, dload.value)
        finally:
            _loader.check(f("PipeKSPCubeDestroy", ctypes.c_int, [ctypes.POINTER(vp)])(ctypes.byref(cube)))

    def error(self, x):
        """max |x - x_exact| / max |x_exact| (absolute when x_exact is 0)."""
        from petsc4py import PETSc
        if self.x_exact is None:
            raise ValueError("Cube.error: the cube was destroyed")
        if not isinstance(x, PETSc.Vec):
            raise TypeError("Cube.error: expected a petsc4py.PETSc.Vec, got %s" % type(x).__name__)
        if x.getSizes() != self.x_exact.getSizes():
            raise ValueError("Cube.error: x has sizes %s, the cube's vectors %s (create x with "
                             "cube.dm.createGlobalVec() or cube.b.duplicate())"
                             % (x.getSizes(), self.x_exact.getSizes()))
        e = x.copy()
        try:
            e.axpy(-1.0, self.x_exact)
            ne = e.norm(PETSc.NormType.INFINITY)
        finally:
            e.destroy()
        nx = self.x_exact.norm(PETSc.NormType.INFINITY)
        return ne / nx if nx > 0 else ne

    def destroy(self):
        """Free the DMDA, matrix and vectors now (else they go when garbage collected)."""
        for name in ("x_exact", "b", "A", "dm"):
            obj = getattr(self, name, None)
            if obj is not None:
                obj.destroy()
            setattr(self, name, None)
        return self

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.destroy()

    def __repr__(self):
        return "Cube(%d x %d x %d nodes, E=%g, nu=%g, load=%g, mat_type=%r)" % (
            tuple(self.sizes) + (self.E, self.nu, self.load, self.mat_type))
