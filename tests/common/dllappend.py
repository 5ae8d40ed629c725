"""The preamble of the Python drivers that run PETSc's own shipped programs with -dll_append libpipeksp.so
(tests/ksp/petsccmp.py and nested.py, tests/pc/ex56_asddic.py, tests/plcg/petsc_plcg.py): their common
arguments, and one run with the leak lines of -malloc_dump echoed so that they fail the test."""
import argparse
import os
import re
import subprocess
import sys

# -malloc_dump's leak lines (config/tests.cmake)
LEAK = re.compile(os.environ.get("PIPEKSP_LEAK_REGEX", "(?!)"))


def parser(n=1):
    """--mpiexec, -n (ranks, default n), --exe (the PETSc program), --lib (libpipeksp); add more, then parse"""
    ap = argparse.ArgumentParser()
    ap.add_argument("--mpiexec", default="mpiexec")
    ap.add_argument("-n", type=int, default=n)
    ap.add_argument("--exe", required=True)
    ap.add_argument("--lib", required=True)
    return ap


def command(a, opts):
    return [a.mpiexec, "-n", str(a.n), a.exe, "-dll_append", a.lib] + opts


def run(a, opts, timeout=120):
    """the program on a.n ranks with opts, stdout and stderr together; echoes its leak lines"""
    p = subprocess.run(command(a, opts), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)
    sys.stdout.writelines(ln + "\n" for ln in p.stdout.splitlines() if LEAK.search(ln))
    return p


def finish(fails, what="check(s)"):
    """the drivers' last line: exit 1 after "N check(s) FAILED", else print the line ctest passes on"""
    if fails:
        print("%d %s FAILED" % (fails, what))
        sys.exit(1)
    print("all checks passed")
