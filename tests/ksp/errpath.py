#!/usr/bin/python3
"""Error paths of the overlapped work: a Python PC that raises on its 5th apply, or a Python matrix
that raises on its 5th product, inside pipegropp / pipegv / chrongear with every progress policy.
The solve must fail with the error; then, with a good PC / matrix, the same KSP solves again in the
iterations of a fresh one, and after KSPReset (and a policy change) once more. Prints FAIL lines and exits 1 on mismatch.
Usage: errpath.py libpipeksp.so"""
import ctypes
import glob
import sys

# the thread policy needs MPI_THREAD_MULTIPLE: PETSc asks MPI for PETSC_MPI_THREAD_REQUIRED
try:
    import petsc4py
    _libdir = petsc4py.get_config()["PETSC_DIR"] + "/lib/"
    # Debian names it libpetsc_real, a plain build libpetsc
    _petsc = ctypes.CDLL((glob.glob(_libdir + "libpetsc_real.so") + [_libdir + "libpetsc.so"])[0], mode=ctypes.RTLD_GLOBAL)
    ctypes.c_int.in_dll(_petsc, "PETSC_MPI_THREAD_REQUIRED").value = 3  # MPI_THREAD_MULTIPLE
except (OSError, ValueError, KeyError):
    pass
petsc4py.init(["-dll_append", sys.argv[1]])
from petsc4py import PETSc

N = 200


class Boom(Exception):
    pass


class FailingPC:
    """Jacobi that raises on its n-th apply."""

    def __init__(self, n):
        self.n, self.count = n, 0

    def setUp(self, pc):
        A, _ = pc.getOperators()
        self.d = A.getDiagonal()
        self.d.reciprocal()

    def apply(self, pc, x, y):
        self.count += 1
        if self.count == self.n:
            raise Boom("PC apply %d fails on purpose" % self.count)
        y.pointwiseMult(self.d, x)


class FailingMat:
    """A 1D Laplacian as a shell matrix whose n-th product raises."""

    def __init__(self, A, n):
        self.A, self.n, self.count = A, n, 0

    def mult(self, mat, x, y):
        self.count += 1
        if self.count == self.n:
            raise Boom("MatMult %d fails on purpose" % self.count)
        self.A.mult(x, y)

    def getDiagonal(self, mat, d):
        self.A.getDiagonal(d)


def laplacian():
    A = PETSc.Mat().createAIJ([N, N], nnz=3, comm=PETSc.COMM_WORLD)
    rs, re = A.getOwnershipRange()
    for i in range(rs, re):
        A[i, i] = 2.0
        if i > 0:
            A[i, i - 1] = -1.0
        if i < N - 1:
            A[i, i + 1] = -1.0
    A.assemble()
    return A



def main():
    A = laplacian()
    b = A.createVecLeft()
    b.set(1.0)
    x = b.duplicate()
    # each type's iterations on the same problem from a fresh KSP that never saw an error
    fresh = {}
    for ktype in ("pipegropp", "pipegv", "chrongear"):
        ref = PETSc.KSP().create(A.getComm())
        ref.setOperators(A)
        ref.setType(ktype)
        ref.getPC().setType("jacobi")
        ref.setTolerances(rtol=1e-10, max_it=1000)
        x.set(0)
        ref.solve(b, x)
        fresh[ktype] = ref.getIterationNumber()
        ref.destroy()

    fails = 0
    lib = ctypes.CDLL(sys.argv[1])
    names = ("none", "poll", "thread", "auto", "blocking")
    for ktype in ("pipegropp", "pipegv", "chrongear"):
        for pol in (names if ktype != "chrongear" else ("blocking",)):
            for where in ("pc", "matmult"):
                label = "%-9s %-8s error in %-7s" % (ktype, pol, where)
                ksp = PETSc.KSP().create(A.getComm())
                if where == "pc":
                    ksp.setOperators(A)
                    ksp.getPC().setType("python")
                    ksp.getPC().setPythonContext(FailingPC(5))
                else:
                    S = PETSc.Mat().createPython(A.getSizes(), FailingMat(A, 5), comm=A.getComm())
                    S.setUp()
                    ksp.setOperators(S, A)
                    ksp.getPC().setType("jacobi")
                ksp.setType(ktype)
                ksp.setTolerances(rtol=1e-10, max_it=1000)
                if ktype != "chrongear":
                    lib.KSPPipeSetProgress(ctypes.c_void_p(ksp.handle), names.index(pol))
                x.set(0)
                failed = False
                try:
                    ksp.solve(b, x)
                except (PETSc.Error, Boom):  # petsc4py re-raises the Python exception itself
                    failed = True
                if not failed:
                    PETSc.Sys.Print("%s FAIL: the solve did not report the error" % label)
                    fails += 1
                # the same KSP with a good PC and matrix
                ksp.setOperators(A)
                ksp.getPC().setType("jacobi")
                try:
                    x.set(0)
                    ksp.solve(b, x)
                    its1, r1 = ksp.getIterationNumber(), ksp.getConvergedReason()
                    used = ctypes.c_int(-1)
                    lib.KSPPipeGetProgress(ctypes.c_void_p(ksp.handle), ctypes.byref(used))
                    if pol == "thread" and used.value != names.index("thread"):
                        PETSc.Sys.Print("%s FAIL: the thread policy fell back to %s" % (label, names[used.value]))
                        fails += 1
                    # after KSPReset, and with another policy
                    ksp.reset()
                    ksp.setOperators(A)
                    if ktype != "chrongear":
                        lib.KSPPipeSetProgress(ctypes.c_void_p(ksp.handle), names.index("poll" if pol != "poll" else "none"))
                    x.set(0)
                    ksp.solve(b, x)
                    its2, r2 = ksp.getIterationNumber(), ksp.getConvergedReason()
                except (PETSc.Error, Boom) as e:
                    PETSc.Sys.Print("%s FAIL: the KSP is not reusable after the error: %s" % (label, e))
                    fails += 1
                    ksp.destroy()
                    continue
                ok = r1 > 0 and r2 > 0 and its1 == fresh[ktype] and its2 == fresh[ktype]
                PETSc.Sys.Print("%s: failed as it should, then %d and (after reset) %d iterations (a fresh KSP: %d)%s" % (
                    label, its1, its2, fresh[ktype], "" if ok else " FAIL"))
                if not ok:
                    fails += 1
                ksp.destroy()
    A.destroy()
    b.destroy()
    x.destroy()
    if fails:
        PETSc.Sys.Print("%d case(s) FAILED" % fails)
        sys.exit(1)
    PETSc.Sys.Print("all checks passed")


main()
