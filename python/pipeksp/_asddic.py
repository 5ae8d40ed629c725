"""Typed accessors for the asddic preconditioner (PCASDDIC* in include/pipeksp.h)."""
import ctypes
import numbers

from . import _loader
from ._solver import _enum_names


def orderings():
    """The ordering names, in enum order, read from the library's PipeKSPOrderingTypes[]."""
    return _enum_names("PipeKSPOrderingTypes")


def _pc_handle(pc, who, need_asddic=False):
    from petsc4py import PETSc
    if not isinstance(pc, PETSc.PC):
        raise TypeError("%s: expected a petsc4py.PETSc.PC, got %s" % (who, type(pc).__name__))
    if not pc.handle:
        raise ValueError("%s: the PC is not created" % who)
    ptype = pc.getType()
    if not ptype:
        raise ValueError("%s: set the PC type first (pc.setType('asddic')); settings on a PC without a type "
                         "would be lost" % who)
    if need_asddic and ptype != "asddic":
        raise ValueError("%s: the PC is of type %r, not 'asddic'" % (who, ptype))
    return ctypes.c_void_p(pc.handle)


def _count(name, v):
    if isinstance(v, bool) or not isinstance(v, numbers.Integral):
        raise TypeError("set_asddic: %s must be an integer, got %s" % (name, type(v).__name__))
    if v < 1:
        raise ValueError("set_asddic: %s must be >= 1, got %d" % (name, v))
    if v > 2**31 - 1:
        raise ValueError("set_asddic: %s=%d does not fit in a PetscInt" % (name, v))
    return int(v)


def set_asddic(pc, ordering=None, colors=None, iterations=None, block=None, threads=None):
    """Settings of the asddic PC (same as -pc_asddic_ordering/_colors/_iterations/_block/_threads); None
    leaves one unchanged. Set the PC type first; on other PC types it raises ValueError (C ignores them)."""
    h = _pc_handle(pc, "set_asddic", need_asddic=True)
    # check everything before changing anything
    if ordering is not None:
        names = orderings()
        if not isinstance(ordering, str):
            raise TypeError("set_asddic: ordering must be a string (one of: %s)" % ", ".join(names))
        if ordering.strip().lower() not in names:
            raise ValueError("set_asddic: unknown ordering %r; use one of: %s" % (ordering, ", ".join(names)))
        ordering = names.index(ordering.strip().lower())
    colors = None if colors is None else _count("colors", colors)
    iterations = None if iterations is None else _count("iterations", iterations)
    threads = None if threads is None else _count("threads", threads)
    if block is not None and not (isinstance(block, bool) or block in (0, 1)):
        raise TypeError("set_asddic: block must be True/False (block IC(0) on the matrix block size, or point "
                        "IC(0)), got %r" % (block,))
    I, vp, f, chk = _loader.petsc_int(), ctypes.c_void_p, _loader.function, _loader.check
    if ordering is not None:
        chk(f("PCASDDICSetOrdering", ctypes.c_int, [vp, ctypes.c_int])(h, ordering))
    if colors is not None:
        chk(f("PCASDDICSetColors", ctypes.c_int, [vp, I])(h, colors))
    if iterations is not None:
        chk(f("PCASDDICSetIterations", ctypes.c_int, [vp, I])(h, iterations))
    if block is not None:
        chk(f("PCASDDICSetBlock", ctypes.c_int, [vp, ctypes.c_int])(h, 1 if block else 0))
    if threads is not None:
        chk(f("PCASDDICSetThreads", ctypes.c_int, [vp, I])(h, threads))


def get_asddic_coloring(pc):
    """The local colouring of this rank's diagonal block after set-up, as a dict: bs, nblocks, ncolors,
    colorptr and perm (numpy copies; colour c holds new block rows colorptr[c]..colorptr[c+1]-1,
    perm[new] = old) and independent (colours are independent sets)."""
    import numpy
    h = _pc_handle(pc, "get_asddic_coloring", need_asddic=True)
    I = _loader.petsc_int()
    bs, nb, nc = I(), I(), I()
    cptr, perm = ctypes.POINTER(I)(), ctypes.POINTER(I)()
    indep = ctypes.c_int()  # PetscBool is an int-sized enum
    fn = _loader.function("PCASDDICGetColoring", ctypes.c_int,
                          [ctypes.c_void_p] + [ctypes.POINTER(I)] * 3 + [ctypes.POINTER(ctypes.POINTER(I))] * 2
                          + [ctypes.POINTER(ctypes.c_int)])
    _loader.check(fn(h, bs, nb, nc, ctypes.byref(cptr), ctypes.byref(perm), ctypes.byref(indep)))
    dtype = numpy.int64 if I is ctypes.c_int64 else numpy.int32
    copy = lambda p, n: numpy.array(numpy.ctypeslib.as_array(p, shape=(n,)), dtype=dtype) if n else numpy.zeros(0, dtype)
    return dict(bs=bs.value, nblocks=nb.value, ncolors=nc.value, colorptr=copy(cptr, nc.value + 1),
                perm=copy(perm, nb.value), independent=bool(indep.value))
