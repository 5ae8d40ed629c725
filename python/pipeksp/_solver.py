"""Typed accessors for the settings and counters of pipegropp / pipegv / chrongear / pipeplcg
(include/pipeksp.h)."""
import ctypes
import math
import numbers

from . import _loader

_c_real = ctypes.c_double  # Debian PETSc: real double


class Stats(ctypes.Structure):
    """Mirror of PipeKSPStats."""
    _fields_ = [("reductions", ctypes.c_int64),
                ("polls", ctypes.c_int64),
                ("done_before_wait", ctypes.c_int64),
                ("wait_time", ctypes.c_double),
                ("overlap_time", ctypes.c_double),
                ("replacements", ctypes.c_int64),
                ("restarts", ctypes.c_int64),
                ("depth_changes", ctypes.c_int64),
                ("depth", ctypes.c_int64),
                ("waited_first", ctypes.c_int64),
                ("handovers", ctypes.c_int64),
                ("handover_its", ctypes.c_int64)]


class _StatsBuffer(ctypes.Structure):
    # room to spare: a field appended to PipeKSPStats in C must not write past our buffer
    _fields_ = [("stats", Stats), ("_spare", ctypes.c_char * 256)]


def progress_types():
    """The policy names, in enum order, read from the library's PipeKSPProgressTypes[]."""
    return _enum_names("PipeKSPProgressTypes")


def _enum_names(symbol):
    # a PETSc enum-name array (not a pointer): its first element lives at the symbol's address
    first = ctypes.c_char_p.in_dll(_loader.library(), symbol)
    base = ctypes.addressof(first)
    names = []
    for i in range(64):
        s = ctypes.c_char_p.from_address(base + i * ctypes.sizeof(ctypes.c_char_p)).value
        if s is None:
            break
        names.append(s.decode())
    # PETSc enum-name arrays end with: type name, prefix, NULL
    return tuple(names[:-2])


KSP_TYPES = ("pipegropp", "pipegv", "chrongear", "pipeplcg")


def _ksp_handle(ksp, who, ours=True, only=None):
    """The C KSP of ksp, which must be of one of our types: in C the setters are no-ops on other types
    (PETSc style), but from Python a setting that would do nothing is an error, as is a getter."""
    from petsc4py import PETSc
    if not isinstance(ksp, PETSc.KSP):
        raise TypeError("%s: expected a petsc4py.PETSc.KSP, got %s" % (who, type(ksp).__name__))
    if not ksp.handle:
        raise ValueError("%s: the KSP is not created (call ksp.create(comm) first)" % who)
    ktype = ksp.getType()
    if not ktype:
        raise ValueError("%s: set the KSP type first (e.g. ksp.setType('pipegv')); settings on a KSP without "
                         "a type would be lost" % who)
    if ours and ktype not in KSP_TYPES:
        raise ValueError("%s: KSP type %r has no reduction engine; only %s do" % (who, ktype, ", ".join(KSP_TYPES)))
    if only and ktype != only:
        raise ValueError("%s: only for KSP type %r, not %r" % (who, only, ktype))
    return ctypes.c_void_p(ksp.handle)


def _policy_index(policy):
    names = progress_types()
    if isinstance(policy, str):
        key = policy.strip().lower()
        if key in names:
            return names.index(key)
        raise ValueError("unknown progress policy %r; use one of: %s" % (policy, ", ".join(names)))
    raise TypeError("progress policy must be a string (one of: %s), got %s"
                    % (", ".join(names), type(policy).__name__))


def _check_interval(interval, who):
    if isinstance(interval, bool) or not isinstance(interval, numbers.Real):
        raise TypeError("%s: the poll interval must be a number (microseconds), got %s"
                        % (who, type(interval).__name__))
    if not interval >= 0:  # also rejects NaN
        raise ValueError("%s: the poll interval must be >= 0 microseconds (0 = test at every poll point), "
                         "got %r" % (who, interval))
    return float(interval)


def set_progress(ksp, policy, interval=None):
    """Set how outstanding reductions are driven: 'none', 'poll', 'thread', 'auto' or 'blocking'.

    interval (optional): minimum time between two MPI_Test calls of the poll hook, in microseconds,
    as -ksp_pipe_poll_interval. Same as -ksp_pipe_progress. Set the KSP type first; on types other than
    pipegropp/pipegv/chrongear it raises ValueError (C ignores it there). chrongear accepts and validates
    it, but has one blocking reduction: its -ksp_view says the setting does not apply.
    """
    h = _ksp_handle(ksp, "set_progress")
    idx = _policy_index(policy)
    if interval is not None:
        interval = _check_interval(interval, "set_progress")
    fn = _loader.function("KSPPipeSetProgress", ctypes.c_int, [ctypes.c_void_p, ctypes.c_int])
    _loader.check(fn(h, idx))
    if interval is not None:
        set_poll_interval(ksp, interval)


def get_progress(ksp):
    """The progress policy of the KSP, as a name."""
    h = _ksp_handle(ksp, "get_progress", ours=True)
    val = ctypes.c_int(-1)
    fn = _loader.function("KSPPipeGetProgress", ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)])
    _loader.check(fn(h, ctypes.byref(val)))
    names = progress_types()
    return names[val.value] if 0 <= val.value < len(names) else val.value


def set_poll_interval(ksp, interval):
    """Minimum time between two MPI_Test calls of the poll hook, microseconds (-ksp_pipe_poll_interval).

    Default 5 (2 for pipeplcg); by default a thread team's master tests after every work item, and once
    set, the interval applies to it too."""
    h = _ksp_handle(ksp, "set_poll_interval")
    interval = _check_interval(interval, "set_poll_interval")
    fn = _loader.function("KSPPipeSetPollInterval", ctypes.c_int, [ctypes.c_void_p, _c_real])
    _loader.check(fn(h, interval))


def set_replace(ksp, period):
    """Residual replacement (-ksp_pipe_replace): 'auto' (the default: when the estimated gap between the
    recursive and the true residual asks for it), every `period` iterations, or 0 = never."""
    h = _ksp_handle(ksp, "set_replace")
    if isinstance(period, str) and period.strip().lower() == "auto":
        period = -1  # PETSC_DECIDE
    elif isinstance(period, bool) or not isinstance(period, numbers.Integral):
        raise TypeError("set_replace: the period must be 'auto' or an integer number of iterations, got %s"
                        % type(period).__name__)
    elif period < 0:
        raise ValueError("set_replace: the period must be >= 0 (0 = no residual replacement) or 'auto', got %d"
                         % period)
    cint = _loader.petsc_int()
    period = _loader.petsc_int_arg("set_replace", "period", period)
    fn = _loader.function("KSPPipeSetReplacePeriod", ctypes.c_int, [ctypes.c_void_p, cint])
    _loader.check(fn(h, int(period)))


def get_replace(ksp):
    """The residual replacement setting: 'auto', or the period (0 = never)."""
    h = _ksp_handle(ksp, "get_replace")
    val = _loader.petsc_int()(0)
    fn = _loader.function("KSPPipeGetReplacePeriod", ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p])
    _loader.check(fn(h, ctypes.byref(val)))
    return "auto" if val.value < 0 else val.value


def get_stats(ksp, total=False):
    """The reduction engine's counters as a dict (keys as the fields of PipeKSPStats): reductions,
    polls, done_before_wait, wait_time, overlap_time, replacements, restarts, and for pipeplcg depth_changes
    and depth (the depth the solve ended at; 0 for the other types), waited_first (pipegv, pipegropp, pipeplcg at
    depths 0-1: reductions waited for before their overlapped work, their test probably ending the solve), handovers
    (pipegv, chrongear, pipeplcg: solves whose rest Gropp's CG ran from the true residual) and handover_its (the
    iteration of the last solve from which it did, -1: none).

    By default those of the last solve only (KSPPipeGetStats: each KSPSolve starts from zero). With
    total=True, the sums over all solves of this KSP (KSPPipeGetTotalStats; depth and handover_its are the last
    solve's), plus 'solves', their number.
    """
    if not isinstance(total, bool):
        raise TypeError("get_stats: total must be True or False, got %r" % (total,))
    h = _ksp_handle(ksp, "get_stats")
    buf = _StatsBuffer()
    if total:
        n = _loader.petsc_int()(0)
        fn = _loader.function("KSPPipeGetTotalStats", ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p])
        _loader.check(fn(h, ctypes.byref(buf), ctypes.byref(n)))
    else:
        fn = _loader.function("KSPPipeGetStats", ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p])
        _loader.check(fn(h, ctypes.byref(buf)))
    s = buf.stats
    out = {name: getattr(s, name) for name, _ in Stats._fields_}
    if total:
        out["solves"] = n.value
    return out


# pipeplcg's ranges (src/ksp/pipeplcg.c: PLCG_MAXL, PLCG_EIG_MIN/MAX/RATIO)
MAX_DEPTH = 5
EIG_MIN, EIG_MAX, EIG_RATIO = 1e-50, 1e50, 1e15


def set_depth(ksp, depth):
    """pipeplcg's pipeline depth l, reductions in flight (-ksp_pipe_depth; KSPPipePLCGSetDepth): 0..5 (0: no
    pipelining), or 'auto' / None: chosen at the first solve from measurements (PETSC_DECIDE)."""
    h = _ksp_handle(ksp, "set_depth", only="pipeplcg")
    if depth is None or (isinstance(depth, str) and depth.lower() == "auto"):
        depth = -1  # PETSC_DECIDE
    elif isinstance(depth, str):
        raise ValueError("set_depth: depth must be 'auto', None or 0..5, got %r" % depth)
    else:
        depth = _loader.petsc_int_arg("set_depth", "depth", depth)
        if not 0 <= depth <= MAX_DEPTH:  # -1 is PETSC_DECIDE to the C setter: auto is said in words here
            raise ValueError("set_depth: depth must be 'auto', None or 0..%d, got %d" % (MAX_DEPTH, depth))
    fn = _loader.function("KSPPipePLCGSetDepth", ctypes.c_int, [ctypes.c_void_p, _loader.petsc_int()])
    _loader.check(fn(h, depth))


def get_depth(ksp):
    """pipeplcg's pipeline depth l the solves start at (KSPPipePLCGGetDepth): the one set, or with 'auto' the one
    chosen; None with 'auto' before the first solve."""
    h = _ksp_handle(ksp, "get_depth", only="pipeplcg")
    val = _loader.petsc_int()(0)
    fn = _loader.function("KSPPipePLCGGetDepth", ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p])
    _loader.check(fn(h, ctypes.byref(val)))
    return None if val.value == -1 else val.value


def set_eigenvalue_bounds(ksp, lmin, lmax):
    """pipeplcg's bounds [lmin, lmax] of the spectrum of M^-1 A for its shifts (-ksp_pipe_eig_bounds;
    KSPPipePLCGSetEigenvalueBounds); (0, 0) goes back to estimating them at set-up."""
    h = _ksp_handle(ksp, "set_eigenvalue_bounds", only="pipeplcg")
    for name, v in (("lmin", lmin), ("lmax", lmax)):
        if isinstance(v, bool) or not isinstance(v, numbers.Real):
            raise TypeError("set_eigenvalue_bounds: %s must be a number, got %s" % (name, type(v).__name__))
    lmin, lmax = float(lmin), float(lmax)
    # the C setter's range (KSPPipePLCGSetEigenvalueBounds), said here with the argument that breaks it
    if not (lmin == 0.0 and lmax == 0.0):
        if not math.isfinite(lmin) or not math.isfinite(lmax):
            raise ValueError("set_eigenvalue_bounds: lmin and lmax must be finite, got (%g, %g)" % (lmin, lmax))
        if lmin < 0:
            raise ValueError("set_eigenvalue_bounds: lmin must be >= 0, got %g" % lmin)
        if not lmin < lmax:
            raise ValueError("set_eigenvalue_bounds: need lmin < lmax, got (%g, %g); (0, 0) estimates them" % (lmin, lmax))
        if not EIG_MIN <= lmax <= EIG_MAX:
            raise ValueError("set_eigenvalue_bounds: lmax must be in [%g, %g], got %g" % (EIG_MIN, EIG_MAX, lmax))
        if lmin > 0 and lmax / lmin > EIG_RATIO:
            raise ValueError("set_eigenvalue_bounds: lmax/lmin must be at most %g, got %g" % (EIG_RATIO, lmax / lmin))
    fn = _loader.function("KSPPipePLCGSetEigenvalueBounds", ctypes.c_int, [ctypes.c_void_p, _c_real, _c_real])
    _loader.check(fn(h, float(lmin), float(lmax)))


def get_eigenvalue_bounds(ksp):
    """pipeplcg's bounds (lmin, lmax): the user's, or those of the last estimate (KSPPipePLCGGetEigenvalueBounds)."""
    h = _ksp_handle(ksp, "get_eigenvalue_bounds", only="pipeplcg")
    lo, hi = _c_real(), _c_real()
    fn = _loader.function("KSPPipePLCGGetEigenvalueBounds", ctypes.c_int,
                          [ctypes.c_void_p, ctypes.POINTER(_c_real), ctypes.POINTER(_c_real)])
    _loader.check(fn(h, ctypes.byref(lo), ctypes.byref(hi)))
    return lo.value, hi.value


def set_estimate_reuse(ksp, flag):
    """Whether pipeplcg takes the shifts for a changed operator (same Mat objects, new values, same PC type)
    from the previous solve's Ritz values instead of a new estimate (-ksp_pipe_eig_reuse;
    KSPPipePLCGSetEstimateReuse). Default True."""
    h = _ksp_handle(ksp, "set_estimate_reuse", only="pipeplcg")
    if not isinstance(flag, bool):
        raise TypeError("set_estimate_reuse: flag must be a bool, got %s" % type(flag).__name__)
    fn = _loader.function("KSPPipePLCGSetEstimateReuse", ctypes.c_int, [ctypes.c_void_p, _loader.petsc_bool()])
    _loader.check(fn(h, flag))


def get_estimate_reuse(ksp):
    """Whether pipeplcg reuses the previous solve's Ritz values (KSPPipePLCGGetEstimateReuse)."""
    h = _ksp_handle(ksp, "get_estimate_reuse", only="pipeplcg")
    val = _loader.petsc_bool()(0)
    fn = _loader.function("KSPPipePLCGGetEstimateReuse", ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p])
    _loader.check(fn(h, ctypes.byref(val)))
    return bool(val.value)
