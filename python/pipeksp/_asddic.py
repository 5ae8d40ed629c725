"""Typed accessors for the asddic preconditioner (PCASDDIC* in include/pipeksp.h)."""
import ctypes
import numbers

from . import _loader
from ._solver import _enum_names


def orderings():
    """The ordering names, in enum order, read from the library's PCASDDICOrderingTypes[]."""
    return _enum_names("PCASDDICOrderingTypes")


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


def _count(name, v, least=1):
    v = _loader.petsc_int_arg("set_asddic", name, v)
    if v < least:
        raise ValueError("set_asddic: %s must be >= %d, got %d" % (name, least, v))
    return v


def _choice(name, v, symbol):
    names = _enum_names(symbol)
    if not isinstance(v, str):
        raise TypeError("set_asddic: %s must be a string (one of: %s)" % (name, ", ".join(names)))
    if v.strip().lower() not in names:
        raise ValueError("set_asddic: unknown %s %r; use one of: %s" % (name, v, ", ".join(names)))
    return names.index(v.strip().lower())


def _real(name, v):
    if isinstance(v, bool) or not isinstance(v, numbers.Real):
        raise TypeError("set_asddic: %s must be a number, got %s" % (name, type(v).__name__))
    return float(v)


# the C setters' ranges (include/pipeksp/asddicimpl.h: what keeps P SPD and finite), checked here so that a
# bad value changes nothing
ESTEIG_STEPS_MIN = 10
SAFETY_RANGE = (1.1, 10.0)
EMAX_RANGE = (1e-6, 1e6)
ERATIO_MAX = 1e12
DAMPING_MIN = 1e-6
THREADS_MAX = 4096  # PIPEKSP_THREADS_MAX, include/pipeksp/threadsimpl.h


def set_asddic(pc, ordering=None, colors=None, iterations=None, block=None, threads=None, local=None, sweep=None,
               eigenvalues=None, esteig_steps=None, esteig_safety=None, damping=None, shift=None, check=None,
               local_blocks=None):
    """Settings of the asddic PC, the same as -pc_asddic_ordering/_colors/_iterations/_block/_threads/_local/
    _sweep/_eigenvalues/_esteig_steps/_esteig_safety/_damping/_shift/_check/_local_blocks; None leaves one
    unchanged. eigenvalues is a pair (emin, emax); esteig_steps -1 is automatic, 0 no estimate. The ranges that keep
    P SPD and finite are the C setters': esteig_steps at least 10, esteig_safety in [1.1, 10], emax in [1e-6, 1e6]
    with emax/emin at most 1e12, damping in [1e-6, 2); threads at most 4096. The colour
    orderings (cmrcm, mc) cannot be combined with local_blocks > 1. Set the PC type first; on other PC types
    it raises ValueError (C ignores them). Bad values raise ValueError/TypeError, and an ordering or
    local_blocks that conflicts with one set before raises the C setter's PETSc.Error; either way before
    any setting changes."""
    h = _pc_handle(pc, "set_asddic", need_asddic=True)
    # check everything before changing anything
    ordering = None if ordering is None else _choice("ordering", ordering, "PCASDDICOrderingTypes")
    local = None if local is None else _choice("local", local, "PCASDDICLocalTypes")
    sweep = None if sweep is None else _choice("sweep", sweep, "PCASDDICSweepTypes")
    shift = None if shift is None else _choice("shift", shift, "PCASDDICShiftTypes")
    colors = None if colors is None else _count("colors", colors)
    iterations = None if iterations is None else _count("iterations", iterations)
    threads = None if threads is None else _count("threads", threads, 0)  # 0: the process's, as -pc_asddic_threads 0
    if threads is not None and threads > THREADS_MAX:
        raise ValueError("set_asddic: threads must be in [0, %d] (0: the process's), got %d" % (THREADS_MAX, threads))
    local_blocks = None if local_blocks is None else _count("local_blocks", local_blocks)
    names = _enum_names("PCASDDICOrderingTypes")
    colour = (names.index("cmrcm"), names.index("mc"))
    if ordering in colour and local_blocks is not None and local_blocks > 1:
        raise ValueError("set_asddic: the colour orderings (cmrcm, mc) cannot be combined with local_blocks > 1; "
                         "use ordering 'rcm' or 'natural'")
    if esteig_steps is not None:
        esteig_steps = _loader.petsc_int_arg("set_asddic", "esteig_steps", esteig_steps)
        if esteig_steps not in (-1, 0) and esteig_steps < ESTEIG_STEPS_MIN:
            raise ValueError("set_asddic: esteig_steps must be -1 (automatic), 0 (none) or at least %d (fewer can stay "
                             "below lambda_max by more than the safety factor), got %d" % (ESTEIG_STEPS_MIN, esteig_steps))
    if eigenvalues is not None:
        if len(eigenvalues) != 2:
            raise ValueError("set_asddic: eigenvalues must be a pair (emin, emax)")
        eigenvalues = (_real("emin", eigenvalues[0]), _real("emax", eigenvalues[1]))
    esteig_safety = None if esteig_safety is None else _real("esteig_safety", esteig_safety)
    damping = None if damping is None else _real("damping", damping)
    if eigenvalues is not None and eigenvalues != (0.0, 0.0):
        emin, emax = eigenvalues
        if not (0 < emin < emax and EMAX_RANGE[0] <= emax <= EMAX_RANGE[1] and emax <= ERATIO_MAX * emin):
            raise ValueError("set_asddic: eigenvalues need 0 < emin < emax, emax in [%g, %g] and emax/emin at most %g "
                             "(or (0, 0): estimate), got %r" % (EMAX_RANGE + (ERATIO_MAX, eigenvalues)))
    if esteig_safety is not None and not SAFETY_RANGE[0] <= esteig_safety <= SAFETY_RANGE[1]:
        raise ValueError("set_asddic: esteig_safety must be in [%g, %g], got %g" % (SAFETY_RANGE + (esteig_safety,)))
    if damping is not None and not (damping == 0 or DAMPING_MIN <= damping < 2):
        raise ValueError("set_asddic: damping must be in [%g, 2), or 0 for automatic, got %g" % (DAMPING_MIN, damping))
    for name, v in (("block", block), ("check", check)):
        if v is not None and not (isinstance(v, bool) or v in (0, 1)):
            raise TypeError("set_asddic: %s must be True/False, got %r" % (name, v))
    I, vp, f, chk, R = _loader.petsc_int(), ctypes.c_void_p, _loader.function, _loader.check, ctypes.c_double
    B = _loader.petsc_bool()
    # the C setters check ordering and local blocks against each other (against a setting made before this
    # call too): these go first, one block before the ordering and more blocks after it, so that the one
    # call that can still be refused comes before any change
    calls = [("PCASDDICSetLocalBlocks", I, local_blocks if local_blocks == 1 else None),
             ("PCASDDICSetOrdering", ctypes.c_int, ordering),
             ("PCASDDICSetLocalBlocks", I, local_blocks if local_blocks != 1 else None), ("PCASDDICSetColors", I, colors),
             ("PCASDDICSetIterations", I, iterations), ("PCASDDICSetThreads", I, threads),
             ("PCASDDICSetLocalType", ctypes.c_int, local), ("PCASDDICSetSweepType", ctypes.c_int, sweep),
             ("PCASDDICSetShiftType", ctypes.c_int, shift), ("PCASDDICSetEstimateSteps", I, esteig_steps),
             ("PCASDDICSetEstimateSafety", R, esteig_safety), ("PCASDDICSetDamping", R, damping),
             ("PCASDDICSetBlock", B, None if block is None else bool(block)),
             ("PCASDDICSetCheck", B, None if check is None else bool(check))]
    for name, typ, v in calls:
        if v is not None:
            chk(f(name, ctypes.c_int, [vp, typ])(h, v))
    if eigenvalues is not None:
        chk(f("PCASDDICSetEigenvalues", ctypes.c_int, [vp, R, R])(h, *eigenvalues))


def get_asddic(pc):
    """The settings of the asddic PC, as a dict with set_asddic's keys (the PCASDDICGet* getters): ordering
    (the one the next set-up uses), local, sweep, shift as names; eigenvalues (0, 0): none given;
    esteig_steps -1: automatic; damping 0: from the bounds; threads: the sweeps' (the process's if none set)."""
    h = _pc_handle(pc, "get_asddic", need_asddic=True)
    I, B, R = _loader.petsc_int(), _loader.petsc_bool(), ctypes.c_double

    def get(name, typ):
        v = typ()
        _loader.check(_loader.function("PCASDDICGet" + name, ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(typ)])(h, ctypes.byref(v)))
        return v.value

    def enum(name, names):
        return _enum_names(names)[get(name, ctypes.c_int)]

    emin, emax = R(), R()
    _loader.check(_loader.function("PCASDDICGetEigenvalues", ctypes.c_int, [ctypes.c_void_p] + [ctypes.POINTER(R)] * 2)(h, ctypes.byref(emin), ctypes.byref(emax)))
    return dict(ordering=enum("Ordering", "PCASDDICOrderingTypes"), colors=get("Colors", I), iterations=get("Iterations", I),
                block=bool(get("Block", B)), threads=get("Threads", I), local=enum("LocalType", "PCASDDICLocalTypes"),
                sweep=enum("SweepType", "PCASDDICSweepTypes"), eigenvalues=(emin.value, emax.value),
                esteig_steps=get("EstimateSteps", I), esteig_safety=get("EstimateSafety", R), damping=get("Damping", R),
                shift=enum("ShiftType", "PCASDDICShiftTypes"), check=bool(get("Check", B)),
                local_blocks=get("LocalBlocks", I), kernel=enum("KernelType", "PCASDDICKernelTypes"))


def get_asddic_local_blocks(pc):
    """The local blocks per rank set on the asddic PC (PCASDDICGetLocalBlocks: the request; a rank with
    fewer block rows uses one block per block row)."""
    h = _pc_handle(pc, "get_asddic_local_blocks", need_asddic=True)
    k = _loader.petsc_int()()
    _loader.check(_loader.function("PCASDDICGetLocalBlocks", ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(_loader.petsc_int())])(h, ctypes.byref(k)))
    return k.value


def get_asddic_bounds(pc):
    """After set-up: the bounds on the eigenvalues of M^-1 A the sweeps use and the Richardson damping,
    as a dict emin, emax, omega (0 bounds: none known, the sweeps run undamped)."""
    h = _pc_handle(pc, "get_asddic_bounds", need_asddic=True)
    emin, emax, omega = ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
    fn = _loader.function("PCASDDICGetEigenvalueBounds", ctypes.c_int, [ctypes.c_void_p] + [ctypes.POINTER(ctypes.c_double)] * 3)
    _loader.check(fn(h, ctypes.byref(emin), ctypes.byref(emax), ctypes.byref(omega)))
    return dict(emin=emin.value, emax=emax.value, omega=omega.value)


def get_asddic_coloring(pc):
    """The local colouring of this rank's diagonal block after set-up, as a dict: bs, nblocks, ncolors,
    colorptr and perm (numpy copies; colour c holds new block rows colorptr[c]..colorptr[c+1]-1,
    perm[new] = old) and independent (colours are independent sets)."""
    import numpy
    h = _pc_handle(pc, "get_asddic_coloring", need_asddic=True)
    I = _loader.petsc_int()
    bs, nb, nc = I(), I(), I()
    cptr, perm = ctypes.POINTER(I)(), ctypes.POINTER(I)()
    B = _loader.petsc_bool()
    indep = B()
    fn = _loader.function("PCASDDICGetColoring", ctypes.c_int,
                          [ctypes.c_void_p] + [ctypes.POINTER(I)] * 3 + [ctypes.POINTER(ctypes.POINTER(I))] * 2
                          + [ctypes.POINTER(B)])
    _loader.check(fn(h, bs, nb, nc, ctypes.byref(cptr), ctypes.byref(perm), ctypes.byref(indep)))
    dtype = numpy.int64 if I is ctypes.c_int64 else numpy.int32
    copy = lambda p, n: numpy.array(numpy.ctypeslib.as_array(p, shape=(n,)), dtype=dtype) if n else numpy.zeros(0, dtype)
    return dict(bs=bs.value, nblocks=nb.value, ncolors=nc.value, colorptr=copy(cptr, nc.value + 1),
                perm=copy(perm, nb.value), independent=bool(indep.value))
