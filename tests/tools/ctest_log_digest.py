#!/usr/bin/env python3
"""The numerical digest of a `ctest -V` log, for comparing two runs of the suite (before and after a change
that should not change behaviour): per test, by name and in name order (ctest -j interleaves the output),
its result and the lines of its output that carry iteration counts, converged/diverged reasons, residual and
error norms. Paths, temporary folders, addresses and timings are masked, so two runs of the same code on the
same PETSc give the same digest; a difference is then a change in what a solver did.

The C tests' harness diffs only a verdict (tests/README.md), so with the build folder given the digest also
holds every harness run's raw output (the `*.tmp` files under BUILD/tests/pipeksp), where the programs print
their iterations, residuals and errors; poll counts and timings are masked there too.

usage: ctest_log_digest.py LOG [BUILD] > DIGEST     (then: diff DIGEST_before DIGEST_after)
"""
import os
import re
import sys

KEEP = re.compile(r"iteration|\bits?\b|converged|diverged|reason|residual|error|\bnorm|restart|breakdown|depth"
                  r"|\bok\b|not ok|\bPassed\b|\*\*\*|Failed|Skipped", re.I)
DROP = re.compile(r"^(Test command|Working Directory|Environment variables|Test timeout|  ?[A-Z_]+=)")
MPI_NOTE = re.compile(r"^-+$|MPI_ABORT|invoking MPI_ABORT|other processes, depending|exactly when Open MPI|"
                      r"with errorcode|help message|orte_base_help_aggregate|ORTE_ERROR_LOG|^\s*$|^-+[^-]*-+$|for trouble shooting")
TIMED = re.compile(r"median|IQR|ratio|noise|per_it|speedup|faster|slower|GB/s|hidden", re.I)
MASKS = [
    (re.compile(r"/work/[\w.-]+/"), "ROOT/"),                           # the checkout
    (re.compile(r"/tmp/[\w./-]+"), "TMP"),                              # temporary folders
    (re.compile(r"0x[0-9a-f]+"), "ADDR"),                               # addresses
    (re.compile(r"\[[\w.-]+:\d+\]"), "[HOST:PID]"),                   # Open MPI's process names
    (re.compile(r"[-+]?\d[\d.]*(e[-+]?\d+)?\s*(s|sec|secs|seconds|ms|us|µs|ns|GB/s|MB/s|Mflop/s|Gflop/s|%)\b", re.I),
     "T"),                                                               # timings, rates, shares of time
    (re.compile(r"(\.[ch]):\d+"), r"\1:L"),                             # source lines of error traces
    (re.compile(r" on a .*named \S+ by .*"), " on HOST"),               # PETSc's error banner: host, user, date
    (re.compile(r"Configure options .*"), "Configure options"),
    (re.compile(r"\b\w{3} \w{3} +\d+ \d\d:\d\d:\d\d \d{4}\b"), "DATE"),
    (re.compile(r"\b\d+ (polls|tests|spins|wakeups|done before wait)\b"), r"N \1"),
    (re.compile(r"\b(polls|done before wait|polls outer/inner)\s*(\d+|\[[\d, ]+\])"), r"\1 N"),        # counts of progress calls: timing
    (re.compile(r"(time|wall|elapsed|latency|speedup|load)\S*\s*[:=]?\s*[-+]?\d[\d.e+-]*", re.I), r"\1 T"),
]


def mask(text):
    # a harness loop's run names list its variables in an order that varies between configures
    text = re.sub(r"^(\s*(?:not )?ok (?:diff-)?\S+?)\+\S+", r"\1+VARIANT", text)
    for rx, rep in MASKS:
        text = rx.sub(rep, text)
    if TIMED.search(text):  # a line of measured times (the benchmarks' medians and ratios): every number
        text = re.sub(r"[-+]?\d+\.\d*(e[-+]?\d+)?|\d+e[-+]?\d+", "N", text)
    return text


def harness(build):
    """the raw output of each harness run, by run name"""
    top = os.path.join(build, "tests", "pipeksp")
    for d, _, names in sorted(os.walk(top)):
        for x in sorted(names):
            if x.endswith(".tmp"):
                print(f"== harness {os.path.relpath(os.path.join(d, x), top)}")
                # the set of lines, sorted: the ranks' stderr and stdout (error banners) interleave differently
                # per run, and Open MPI's notes on an abort come and go
                lines = set()
                for t in open(os.path.join(d, x), errors="replace"):
                    for part in re.split(r"(?=\[\d+\]PETSC ERROR:)", t.rstrip("\n")):
                        part = re.sub(r"^\[\d+\]PETSC ERROR: ?", "", part).strip()
                        if part and not MPI_NOTE.search(part):
                            lines.add(mask(part))
                for line in sorted(lines):
                    print("   " + line)


def main():
    name, out, status = {}, {}, {}
    for line in open(sys.argv[1], errors="replace"):
        line = line.rstrip("\n")
        m = re.match(r"\s*Start\s+(\d+): (\S+)", line)
        if m:
            name[m.group(1)] = m.group(2)
            continue
        m = re.match(r"\s*\d+/\d+ Test\s+#(\d+): (\S+) \.+\s*(\*\*\*)?(\w+)", line)
        if m:
            status[m.group(2)] = m.group(4)
            continue
        m = re.match(r"(\d+): (.*)", line)
        if not m or DROP.match(m.group(2)) or not KEEP.search(m.group(2)):
            continue
        out.setdefault(m.group(1), []).append(mask(m.group(2)))
    for num in sorted(name, key=lambda n: name[n]):
        print(f"== {name[num]}: {status.get(name[num], 'not run')}")
        for text in sorted(out.get(num, [])):  # stdout and stderr interleave differently per run
            print("   " + text)
    if len(sys.argv) > 2:
        harness(sys.argv[2])


if __name__ == "__main__":
    main()
