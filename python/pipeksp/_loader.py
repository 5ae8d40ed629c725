"""Finding and loading libpipeksp.so into the running petsc4py."""
import ctypes
import glob
import os

LIBNAME = "libpipeksp.so"
_PKGDIR = os.path.dirname(os.path.abspath(__file__))
# python/pipeksp -> python -> repository root (only meaningful in a source checkout)
_REPO = os.path.dirname(os.path.dirname(_PKGDIR))

_lib = None       # the loaded ctypes.CDLL, once register() succeeded
_libpath = None


class LibraryNotFoundError(ImportError):
    """libpipeksp.so was not found in any of the places searched."""


class MissingSymbolError(AttributeError):
    """The loaded library (or the PETSc/MPI it links) does not export a C function we asked for."""


def candidates(environ=None, pkgdir=_PKGDIR, repo=_REPO):
    """Every (description, path) register() tries, in order.

    1. $PIPEKSP_LIB (the library file itself)
    2. next to the package (an installed copy)
    3. the build tree of a source checkout: <repo>/build/, then other <repo>/build*/ (newest first)
    4. $PIPEKSP_DIR/lib (an installation prefix)
    """
    env = os.environ if environ is None else environ
    out = []
    if env.get("PIPEKSP_LIB"):
        out.append(("$PIPEKSP_LIB", env["PIPEKSP_LIB"]))
    out.append(("next to the package", os.path.join(pkgdir, LIBNAME)))
    out.append(("next to the package", os.path.join(pkgdir, "lib", LIBNAME)))
    if repo and os.path.isfile(os.path.join(repo, "include", "pipeksp.h")):
        main = os.path.join(repo, "build", LIBNAME)
        out.append(("build tree", main))
        others = [p for p in glob.glob(os.path.join(repo, "build*", LIBNAME)) if p != main]
        others.sort(key=lambda p: os.path.getmtime(p), reverse=True)
        out.extend(("build tree", p) for p in others)
    if env.get("PIPEKSP_DIR"):
        d = env["PIPEKSP_DIR"]
        out.append(("$PIPEKSP_DIR/lib", os.path.join(d, "lib", LIBNAME)))
        out.append(("$PIPEKSP_DIR/lib", os.path.join(d, "lib", "x86_64-linux-gnu", LIBNAME)))
    return out


def find_library(environ=None, pkgdir=_PKGDIR, repo=_REPO):
    """Path of the library register() would load; LibraryNotFoundError listing every place tried."""
    env = os.environ if environ is None else environ
    tried = candidates(env, pkgdir, repo)
    if env.get("PIPEKSP_LIB") and not os.path.isfile(env["PIPEKSP_LIB"]):
        # an explicit choice that is wrong must not silently fall back to another copy
        raise LibraryNotFoundError("PIPEKSP_LIB=%s is not a file; set it to the path of %s or unset it"
                                   % (env["PIPEKSP_LIB"], LIBNAME))
    for _, path in tried:
        if os.path.isfile(path):
            return os.path.abspath(path)
    lines = ["%s not found. Looked in:" % LIBNAME]
    lines += ["  %-20s %s" % (where, path) for where, path in tried]
    if not (repo and os.path.isfile(os.path.join(repo, "include", "pipeksp.h"))):
        lines.append("  (not a source checkout: no build tree searched)")
    lines.append("Build it (make, or cmake --build build) or set PIPEKSP_LIB=/path/to/%s "
                 "or PIPEKSP_DIR=<install prefix>." % LIBNAME)
    raise LibraryNotFoundError("\n".join(lines))


def _mapped(fragment):
    """Real paths of the files whose name contains fragment mapped into this process (Linux; else empty)."""
    try:
        with open("/proc/self/maps") as f:
            paths = {line.split()[-1] for line in f if fragment in line and "/" in line}
    except OSError:
        return set()
    return {os.path.realpath(p) for p in paths}


def _petsc_libs_mapped():
    """The distinct libpetsc files mapped into this process (Linux only; empty elsewhere)."""
    try:
        with open("/proc/self/maps") as f:
            paths = {line.split()[-1] for line in f if "/libpetsc" in line}
    except OSError:
        return set()
    return {os.path.realpath(p) for p in paths}


def check(ierr):
    """Turn a PetscErrorCode returned through ctypes into petsc4py's exception, with PETSc's message."""
    if ierr:
        from petsc4py import PETSc
        err = PETSc.Error(ierr)
        # petsc4py up to 3.2x showed the shared traceback of the last error in every Error; newer ones copy
        # it into the exceptions they raise themselves only: add the error's own message
        if "\n" not in str(err):
            msg = _error_message(ierr)
            if msg:
                err._traceback = [msg]
        raise err


def _error_message(ierr):
    """PETSc's message for the error just raised (PetscErrorMessage()'s specific text), or None."""
    fn = function("PetscErrorMessage", ctypes.c_int, [ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(ctypes.c_char_p)])
    text = ctypes.c_char_p()
    if fn(ierr, None, ctypes.byref(text)) or not text.value:
        return None
    return text.value.decode(errors="replace")


def petsc_int():
    """ctypes type of PetscInt in petsc4py's PETSc."""
    from petsc4py import PETSc
    import numpy
    return ctypes.c_int64 if numpy.dtype(PETSc.IntType).itemsize == 8 else ctypes.c_int32


def petsc_int_arg(who, name, v):
    """v as a Python int that fits in PetscInt (TypeError for a non-integer, ValueError out of range)."""
    import numbers
    if isinstance(v, bool) or not isinstance(v, numbers.Integral):
        raise TypeError("%s: %s must be an integer, got %s" % (who, name, type(v).__name__))
    bits = 64 if petsc_int() is ctypes.c_int64 else 32
    if not -2**(bits - 1) <= v < 2**(bits - 1):
        raise ValueError("%s: %s=%d does not fit in a PetscInt (%d bits)" % (who, name, v, bits))
    return int(v)


def petsc_bool():
    """ctypes type of PetscBool: an int-sized enum up to PETSc 3.23, a one-byte C bool from 3.24."""
    from petsc4py import PETSc
    return ctypes.c_bool if tuple(PETSc.Sys.getVersion()) >= (3, 24, 0) else ctypes.c_int


def register():
    """Load libpipeksp.so and register its KSP/PC types in the running petsc4py.

    Calling it again does nothing. Returns the path of the loaded library.
    """
    global _lib, _libpath
    if _lib is not None:
        return _libpath
    from petsc4py import PETSc  # initializes PETSc (petsc4py.init() first for options)
    # already in the process (-dll_append in petsc4py.init() or PETSC_OPTIONS): use that copy; a second
    # copy would have its own registration state
    loaded = sorted(p for p in _mapped("/" + LIBNAME) if os.path.basename(p).startswith(LIBNAME))
    path = loaded[0] if loaded else find_library()
    if PETSc.Sys.isFinalized():
        raise RuntimeError("PETSc is already finalized; call pipeksp.register() before the end of the program")
    before = _petsc_libs_mapped()
    # RTLD_GLOBAL: our symbols must be visible to PETSc's dynamic lookups (KSPCreate_*, composed functions)
    lib = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
    after = _petsc_libs_mapped()
    if len(after) > 1 or (before and after != before):
        raise ImportError("%s links a different libpetsc (%s) than petsc4py uses (%s); rebuild it against "
                          "petsc4py's PETSc (PETSC_DIR=%s)"
                          % (path, ", ".join(sorted(after - before)), ", ".join(sorted(before)),
                             __import__("petsc4py").get_config()["PETSC_DIR"]))
    lib.PetscDLLibraryRegister_pipeksp.restype = ctypes.c_int
    lib.PetscDLLibraryRegister_pipeksp.argtypes = []
    check(lib.PetscDLLibraryRegister_pipeksp())
    _lib, _libpath = lib, path
    return path


def library():
    """The loaded ctypes.CDLL (registering first if needed)."""
    if _lib is None:
        register()
    return _lib


def function(name, restype, argtypes):
    """A C function of libpipeksp (or of the libraries it links: PETSc, MPI) with its signature set."""
    lib = library()
    try:
        fn = getattr(lib, name)
    except AttributeError:
        raise MissingSymbolError("%s has no symbol %s: the library is older than this package"
                                 % (_libpath, name)) from None
    fn.restype = restype
    fn.argtypes = argtypes
    return fn
