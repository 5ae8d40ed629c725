"""pytest set-up for the petsc4py package: run under `mpiexec -n N python3 -m pytest tests/python`.
PETSc options (e.g. -malloc_debug -malloc_dump) come from PETSC_OPTIONS: pytest owns sys.argv."""
import os
import shutil
import sys
import tempfile

import petsc4py

petsc4py.init(sys.argv[:1])
from petsc4py import PETSc  # noqa: E402
import pytest  # noqa: E402

try:
    import pipeksp  # noqa: F401
except ImportError:  # source tree without install
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "python"))
    import pipeksp  # noqa: F401


def pytest_configure(config):
    # one full report (rank 0); the other ranks print only their summary line and failures
    if PETSc.COMM_WORLD.getRank() > 0:
        config.option.verbose = -1
    # a private tmp_path root per process: ranks must not share pytest's numbered dirs (or clean each other's)
    if not config.option.basetemp:
        config.option.basetemp = tempfile.mkdtemp(prefix="pipeksp-pytest-")
        config._pipeksp_basetemp = config.option.basetemp


def pytest_unconfigure(config):
    tmp = getattr(config, "_pipeksp_basetemp", None)
    if tmp:
        shutil.rmtree(tmp, ignore_errors=True)


def pytest_report_header(config):
    return "petsc4py %s, %d MPI rank(s), libpipeksp: %s" % (
        petsc4py.__version__, PETSc.COMM_WORLD.getSize(), pipeksp.register())


@pytest.fixture(scope="session")
def comm():
    pipeksp.register()
    return PETSc.COMM_WORLD
