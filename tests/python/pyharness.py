#!/usr/bin/env python3
"""Runs the /*TEST ... TEST*/ blocks of Python tutorials the way PETSc's harness runs C ones.

PETSc 3.18's gmakegentest.py scans only C/C++/Fortran/CUDA sources, so .py tutorials get no run scripts
from it. This uses PETSc's own parser (testparse.py, shipped with the examples) and PETSc's petscdiff,
and prints TAP like petsc_harness.sh. Supported keys: suffix nsize args filter output_file env
requires (python/mpi4py/numpy only, else skipped) TODO SKIP timeoutfactor diff_args.

  pyharness.py --list tutorials/ex1.py              # test names, one per line (ex1py_<suffix>)
  pyharness.py tutorials/ex1.py ex1py_cg [-m]       # run one; -m rewrites the expected output
"""
import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile

SUPPORTED = {"suffix", "nsize", "args", "filter", "output_file", "env", "requires", "TODO", "SKIP",
             "timeoutfactor", "diff_args", "comments", "execname", "source"}


def parse(path, config_dir):
    sys.path.insert(0, config_dir)
    import testparse
    stem = os.path.splitext(os.path.basename(path))[0]
    tests = {}
    for runname, d in testparse.parseTestFile(path, 0).get(os.path.basename(path), {}).items():
        if runname in ("build",):
            continue
        unknown = set(d) - SUPPORTED
        if unknown or "{{" in d.get("args", ""):
            raise SystemExit("%s: test %s uses %s, which pyharness.py does not support (no loops/subtests)"
                             % (path, runname, ", ".join(sorted(unknown)) or "an argument loop"))
        suffix = d.get("suffix", "1")
        tests["%spy_%s" % (stem, suffix)] = d
    return tests


def petscdiff_path():
    try:
        import petsc4py
        cand = os.path.join(petsc4py.get_config()["PETSC_DIR"], "lib", "petsc", "bin", "petscdiff")
        if os.path.isfile(cand):
            return cand
    except ImportError:
        pass
    if not os.environ.get("PETSC_DIR"):
        raise SystemExit("pyharness.py: petscdiff not found: no petsc4py and no PETSC_DIR")
    return os.path.join(os.environ["PETSC_DIR"], "lib/petsc/bin/petscdiff")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("source")
    ap.add_argument("test", nargs="?")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("-m", action="store_true", help="write the output as the new expected output")
    ap.add_argument("--mpiexec", default=os.environ.get("MPIEXEC", "mpiexec"))
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--config-dir", required=True, help="PETSc's examples/config (testparse.py)")
    ap.add_argument("--timeout", type=float, default=120)
    a = ap.parse_args()
    src = os.path.abspath(a.source)
    tests = parse(src, a.config_dir)
    if a.list:
        print("\n".join(sorted(tests)))
        return 0
    if a.test not in tests:
        raise SystemExit("no test %r in %s; have: %s" % (a.test, src, ", ".join(sorted(tests))))
    d = tests[a.test]
    label = "%s %s" % (os.path.basename(os.path.dirname(src)), a.test)
    if "TODO" in d:
        print("ok %s # TODO %s" % (label, d["TODO"]))
        return 0
    if "SKIP" in d:
        print("ok %s # SKIP %s" % (label, d["SKIP"]))
        return 0
    for req in d.get("requires", "").split():
        try:
            __import__(req.lstrip("!"))
            ok = not req.startswith("!")
        except ImportError:
            ok = req.startswith("!")
        if not ok:
            print("ok %s # SKIP requires %s" % (label, req))
            return 0

    srcdir = os.path.dirname(src)
    expected = os.path.join(srcdir, d.get("output_file", "output/%s.out" % a.test))
    env = dict(os.environ)
    # env and args are shell-expanded at run time, as in PETSc's run scripts (one export per env item)
    exports = "".join("export %s; " % item for item in shlex.split(d.get("env", "")))
    cmd = exports + "%s -n %s %s %s %s" % (a.mpiexec, d.get("nsize", "1"), shlex.quote(a.python), shlex.quote(src),
                                 d.get("args", ""))
    timeout = a.timeout * float(d.get("timeoutfactor", "1"))
    with tempfile.TemporaryDirectory() as tmp:
        out, err = os.path.join(tmp, "out"), os.path.join(tmp, "err")
        try:
            rc = subprocess.run(["bash", "-c", "%s > %s 2> %s" % (cmd, out, err)], cwd=srcdir, env=env,
                                timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            print("not ok %s # timed out after %g s: %s" % (label, timeout, cmd))
            return 1
        if rc != 0:
            print("not ok %s # exit code %d: %s" % (label, rc, cmd))
            sys.stdout.write(open(out).read() + open(err).read())
            return 1
        # the leak check of the C entries (config/leakcheck.sh): any -malloc_dump line fails the run
        leak = os.environ.get("PIPEKSP_LEAK_REGEX")
        leaks = [ln for ln in (open(out).read() + open(err).read()).splitlines() if leak and re.search(leak, ln)]
        if leaks:
            print("not ok leak-%s # memory not freed at PetscFinalize() (-malloc_dump):" % label)
            sys.stdout.write("".join("#\t%s\n" % ln for ln in leaks[:20]))
            return 1
        if d.get("filter"):
            subprocess.run(["bash", "-c", "cat %s | %s > %s.f && mv %s.f %s" % (out, d["filter"], out, out, out)],
                           cwd=srcdir, env=env, check=True)
        if a.m:
            os.makedirs(os.path.dirname(expected), exist_ok=True)
            with open(out) as f, open(expected, "w") as g:
                g.write(f.read())
            print("ok %s # wrote %s" % (label, expected))
            return 0
        if not os.path.isfile(expected):
            print("not ok %s # expected output %s missing (run with -m to create it)" % (label, expected))
            sys.stdout.write(open(out).read())
            return 1
        diff = subprocess.run([petscdiff_path()] + shlex.split(d.get("diff_args", "")) + [expected, out],
                              capture_output=True, text=True)
        if diff.returncode != 0:
            print("not ok diff-%s # %s" % (label, cmd))
            sys.stdout.write(diff.stdout + diff.stderr)
            return 1
    print("ok %s" % label)
    print("ok diff-%s" % label)
    return 0


if __name__ == "__main__":
    sys.exit(main())
