"""PipeKSP from petsc4py: communication-hiding Krylov solvers (pipegropp, pipegv, chrongear, pipeplcg), the asddic
preconditioner and the GeoFEM/Cube problem.

    from petsc4py import PETSc
    import pipeksp
    pipeksp.register()                      # loads libpipeksp.so, registers the types (idempotent)
    cube = pipeksp.Cube(PETSc.COMM_WORLD, n=17)
    ksp = PETSc.KSP().create(); ksp.setOperators(cube.A); ksp.setType('pipegv')
    ksp.getPC().setType('asddic'); pipeksp.set_progress(ksp, 'poll')
    x = cube.b.duplicate(); ksp.solve(cube.b, x); print(cube.error(x), pipeksp.get_stats(ksp))

Importing this package does not initialize PETSc: call petsc4py.init(args) first if you want options.
"""
from ._loader import register, find_library, candidates, library, LibraryNotFoundError
from ._solver import (set_progress, get_progress, set_poll_interval, set_replace, get_replace, get_stats,
                      progress_types, Stats, KSP_TYPES, set_depth, get_depth, set_eigenvalue_bounds,
                      get_eigenvalue_bounds, set_estimate_reuse, get_estimate_reuse)
from ._cube import Cube
from ._asddic import set_asddic, get_asddic, get_asddic_coloring, get_asddic_bounds, get_asddic_local_blocks, orderings

__version__ = "0.1.0"
__all__ = ["register", "find_library", "candidates", "library", "LibraryNotFoundError", "set_progress",
           "get_progress", "set_poll_interval", "set_replace", "get_replace", "get_stats", "progress_types", "KSP_TYPES",
           "set_depth", "get_depth", "set_eigenvalue_bounds", "get_eigenvalue_bounds", "set_estimate_reuse",
           "get_estimate_reuse", "Cube",
           "set_asddic", "get_asddic", "get_asddic_coloring", "get_asddic_bounds", "get_asddic_local_blocks", "orderings"]
