"""pipeksp.register(): search order, error paths, idempotence, one libpetsc."""
import os
import subprocess
import sys

import pytest
from petsc4py import PETSc

import pipeksp
from pipeksp import _loader


def touch(path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "w").close()
    return str(path)


def test_register_is_idempotent():
    p1 = pipeksp.register()
    lib = pipeksp.library()
    p2 = pipeksp.register()
    assert p1 == p2 and os.path.isfile(p1)
    assert pipeksp.library() is lib
    if os.environ.get("PIPEKSP_LIB"):
        assert os.path.samefile(p1, os.environ["PIPEKSP_LIB"])


def test_one_libpetsc_in_process():
    pipeksp.register()
    libs = _loader._petsc_libs_mapped()
    assert len(libs) == 1, libs


def test_types_in_options_database(comm):
    opts = PETSc.Options()
    for ktype in ("pipegropp", "pipegv", "chrongear"):
        ksp = PETSc.KSP().create(comm)
        ksp.setOptionsPrefix("reg_")
        opts["reg_ksp_type"] = ktype
        opts["reg_pc_type"] = "asddic"
        try:
            ksp.setFromOptions()
            assert ksp.getType() == ktype
            assert ksp.getPC().getType() == "asddic"
        finally:
            del opts["reg_ksp_type"]
            del opts["reg_pc_type"]
            ksp.destroy()


def test_search_order(tmp_path):
    repo, pkg, prefix = tmp_path / "repo", tmp_path / "repo" / "python" / "pipeksp", tmp_path / "prefix"
    touch(repo / "include" / "pipeksp.h")
    env = {"PIPEKSP_DIR": str(prefix)}
    places = [p for _, p in _loader.candidates(env, str(pkg), str(repo))]
    assert places.index(str(pkg / "libpipeksp.so")) < places.index(str(repo / "build" / "libpipeksp.so")) \
        < places.index(str(prefix / "lib" / "libpipeksp.so"))
    inst = touch(prefix / "lib" / "libpipeksp.so")
    assert _loader.find_library(env, str(pkg), str(repo)) == inst
    other = touch(repo / "build-x" / "libpipeksp.so")
    assert _loader.find_library(env, str(pkg), str(repo)) == other
    main = touch(repo / "build" / "libpipeksp.so")  # build/ beats the other build dirs
    assert _loader.find_library(env, str(pkg), str(repo)) == main
    nextto = touch(pkg / "libpipeksp.so")
    assert _loader.find_library(env, str(pkg), str(repo)) == nextto
    explicit = touch(tmp_path / "elsewhere" / "libpipeksp.so")
    assert _loader.find_library(dict(env, PIPEKSP_LIB=explicit), str(pkg), str(repo)) == explicit


def test_missing_library_lists_every_place(tmp_path):
    repo, pkg = tmp_path / "repo", tmp_path / "repo" / "python" / "pipeksp"
    touch(repo / "include" / "pipeksp.h")
    env = {"PIPEKSP_DIR": str(tmp_path / "prefix")}
    with pytest.raises(pipeksp.LibraryNotFoundError) as info:
        _loader.find_library(env, str(pkg), str(repo))
    msg = str(info.value)
    for _, place in _loader.candidates(env, str(pkg), str(repo)):
        assert place in msg
    assert "PIPEKSP_LIB" in msg


def test_wrong_pipeksp_lib_is_an_error(tmp_path):
    # an explicit PIPEKSP_LIB must not silently fall back to another copy
    bad = str(tmp_path / "nowhere" / "libpipeksp.so")
    touch(tmp_path / "pkg" / "libpipeksp.so")
    with pytest.raises(pipeksp.LibraryNotFoundError, match="PIPEKSP_LIB=.*nowhere"):
        _loader.find_library({"PIPEKSP_LIB": bad}, str(tmp_path / "pkg"), None)


@pytest.mark.skipif(PETSc.COMM_WORLD.getSize() > 1, reason="spawns a plain Python process; once is enough")
def test_register_error_in_fresh_process(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OMPI_", "PMIX_"))}
    env["PIPEKSP_LIB"] = str(tmp_path / "missing.so")
    env["PYTHONPATH"] = os.path.dirname(os.path.dirname(pipeksp.__file__))
    out = subprocess.run([sys.executable, "-c", "import pipeksp; pipeksp.register()"], env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode != 0
    assert "LibraryNotFoundError" in out.stderr and "missing.so" in out.stderr


def test_loaded_copy_is_reused():
    # a second register() (or one after -dll_append) must not load a second copy
    p = pipeksp.register()
    assert _loader._mapped("/libpipeksp.so") == {os.path.realpath(p)}


@pytest.mark.skipif(PETSc.COMM_WORLD.getSize() > 1, reason="spawns a plain Python process; once is enough")
def test_import_does_not_start_petsc():
    # users must still be able to call petsc4py.init(args) after `import pipeksp`
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OMPI_", "PMIX_"))}
    env["PYTHONPATH"] = os.path.dirname(os.path.dirname(pipeksp.__file__))
    code = "import sys, pipeksp; assert 'petsc4py.PETSc' not in sys.modules, 'PETSc imported'; print('clean')"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "clean" in out.stdout, out.stderr
