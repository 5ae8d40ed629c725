#!/usr/bin/env python3
"""Solves the GeoFEM/Cube elasticity problem from petsc4py and checks the solution against the exact one;
the Python twin of ex1.c (same options, same output).
  -cube_n <n>, -cube_nx/-cube_ny/-cube_nz <n> : nodes per direction
  -cube_E <E>, -cube_nu <nu>, -cube_load <p>   : material and traction
  -cube_mat_type <baij|aij|sbaij>              : matrix type
  -check_error <tol>    : report the max-norm relative error as below this bound (default 1e-3)
  -check_residual <tol> : report the true relative residual as below this bound (default 100 rtol)
Prints only numbers that are stable across rank counts: the iteration count and whether the true residual
and the error are below the given bounds (their values when they are not).
Debian's petsc4py is built for /usr/bin/python3, which may not be the python3 first on PATH:

    mpiexec -n 4 /usr/bin/python3 tutorials/ex1.py -cube_n 17 -ksp_type pipegv -pc_type asddic -ksp_pipe_progress poll
"""
import ctypes
import os
import sys

try:
    import petsc4py
except ImportError:  # one line instead of a traceback on every rank: which interpreter to use
    sys.exit("tutorials/ex1.py: %s has no petsc4py; run it with the Python that has it, Debian's /usr/bin/python3"
             " (python3-petsc4py): mpiexec -n 4 /usr/bin/python3 tutorials/ex1.py ..." % sys.executable)

petsc4py.init(sys.argv)
from petsc4py import PETSc  # noqa: E402

try:
    import pipeksp
except ImportError:  # running from a source checkout without installing the package
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "python"))
    import pipeksp


def main():
    pipeksp.register()
    comm = PETSc.COMM_WORLD
    cube = pipeksp.Cube(comm)  # sizes, material, -cube_* options as PipeKSPCubeSetFromOptions()
    nx, ny, nz = cube.sizes
    PETSc.Sys.Print("GeoFEM/Cube %d x %d x %d nodes, %d unknowns, E %s nu %s load %s"
                    % (nx, ny, nz, cube.b.getSize(), g(cube.E), g(cube.nu), g(cube.load)), comm=comm)

    ksp = PETSc.KSP().create(comm)
    ksp.setOperators(cube.A, cube.A)
    ksp.setType(PETSc.KSP.Type.CG)
    ksp.setFromOptions()
    x = cube.b.duplicate()
    ksp.solve(cube.b, x)

    its = ksp.getIterationNumber()
    reason = ksp.getConvergedReason()
    rtol = ksp.getTolerances()[0]
    opts = PETSc.Options()
    check_err = opts.getReal("check_error", 1e-3)
    check_res = opts.getReal("check_residual", 100 * rtol)

    # true residual, not the solver's recurrence
    r = cube.b.duplicate()
    cube.A.mult(x, r)
    r.aypx(-1.0, cube.b)
    rnorm, bnorm = r.norm(), cube.b.norm()
    err = cube.error(x)

    PETSc.Sys.Print("KSP %s, PC %s: %s after %d iterations"
                    % (ksp.getType(), ksp.getPC().getType(), "converged" if reason > 0 else "DIVERGED", its),
                    comm=comm)
    if reason <= 0:
        PETSc.Sys.Print("  reason %s" % reason_name(reason), comm=comm)
    if rnorm <= check_res * bnorm:
        PETSc.Sys.Print("True relative residual ||b-Ax||/||b|| < %s" % g(check_res), comm=comm)
    else:
        PETSc.Sys.Print("True relative residual ||b-Ax||/||b|| = %s NOT below %s" % (g(rnorm / bnorm), g(check_res)),
                        comm=comm)
    if err <= check_err:
        PETSc.Sys.Print("Max-norm relative error vs exact solution < %s" % g(check_err), comm=comm)
    else:
        PETSc.Sys.Print("Max-norm relative error vs exact solution = %s NOT below %s" % (g(err), g(check_err)), comm=comm)

    for obj in (r, x, ksp, cube):
        obj.destroy()


def reason_name(reason):
    """PETSc's own name of a KSPConvergedReason, KSPConvergedReasons[reason] (petsc4py's differ for some)."""
    names = ctypes.POINTER(ctypes.c_char_p).in_dll(pipeksp.library(), "KSPConvergedReasons")
    return names[reason].decode()


def g(v):
    """C's %g as PetscPrintf() writes it: a value printed as an integer gets a trailing '.'."""
    s = "%g" % v
    return s + "." if s.lstrip("-").isdigit() else s


if __name__ == "__main__":
    main()

# PETSc-harness test block. PETSc 3.18's gmakegentest.py only scans C/C++/Fortran/CUDA sources, so
# tests/python/tests.cmake runs these through tests/python/pyharness.py (same keys, petscdiff).
"""
/*TEST

   # the runs of ex1.c's jacobi tests, diffed against ex1.c's expected output: the twins must print the same
   testset:
      args: -cube_n 11 -ksp_rtol 1e-8 -check_error 1e-5 -pc_type jacobi
      output_file: output/ex1_jacobi.out
      test:
         suffix: jacobi_1
         args: -malloc_debug -malloc_dump
      test:
         suffix: jacobi_4
         nsize: 4

   test:
      suffix: pipegv_4
      nsize: 4
      args: -cube_n 9 -ksp_type pipegv -pc_type asddic -ksp_pipe_progress poll -ksp_rtol 1e-10 -malloc_debug -malloc_dump
      output_file: output/ex1py_pipegv_4.out

   test:
      suffix: pipegropp_2
      nsize: 2
      args: -cube_nx 9 -cube_ny 7 -cube_nz 5 -cube_mat_type aij -ksp_type pipegropp -pc_type asddic -ksp_rtol 1e-10
      output_file: output/ex1py_pipegropp_2.out

   test:
      suffix: chrongear_8
      nsize: 8
      args: -cube_n 9 -ksp_type chrongear -pc_type jacobi -ksp_rtol 1e-10 -ksp_pipe_progress blocking
      output_file: output/ex1py_chrongear_8.out

   # loaded by PETSc (-dll_append) before register(): register() must use that copy, not search
   # (PIPEKSP_LIB is made wrong after PETSC_OPTIONS took its value)
   test:
      suffix: dll_append_2
      nsize: 2
      env: PETSC_OPTIONS='"-dll_append ${PIPEKSP_LIB}"' PIPEKSP_LIB=/nonexistent/libpipeksp.so
      args: -cube_n 9 -ksp_type chrongear -pc_type jacobi -ksp_rtol 1e-10 -ksp_pipe_progress blocking
      output_file: output/ex1py_chrongear_8.out

TEST*/
"""
