#!/usr/bin/env python3
"""bench/smpi/solve_report.py on a made-up work folder (no SimGrid needed): which emulated rounds it pairs with
the SIMULATED figures, the ratios it prints for them, and the zero-latency limit it borrows from a smaller P.
usage: report_check.py <source dir>"""
import os
import re
import subprocess
import sys
import tempfile


def log(path, side, pc, P, figures):
    """a bench_cube log holding only the summary lines the report reads: {label: (median us/it, IQR %)}"""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        for lab, (med, iqr) in figures.items():
            f.write("# %s,%s,%d,%s: median %.1f us/it, IQR %.1f us/it (%.1f%%), 25 repetitions\n" % (side, pc, P, lab, med, med * iqr / 100, iqr))


def main():
    report = os.path.join(sys.argv[1], "bench", "smpi", "solve_report.py")
    fails = []
    with tempfile.TemporaryDirectory() as w:
        log(os.path.join(w, "smpi_bjacobi_256_lat0.25_test0.065e-6.log"), "SIMULATED", "bjacobi", 256, {"cg": (100.0, 0), "pipegv-poll": (80.0, 0)})
        # the zero-latency limit run at P = 64 only: P = 256 borrows it
        log(os.path.join(w, "smpi_bjacobi_64_lat0_test0.065e-6.log"), "SIMULATED", "bjacobi", 64, {"cg": (60.0, 0)})
        lab = {"cg": None, "pipegv-poll": None, "cg-limit": None}
        # in the rates' state (limit 62 against 60); a slow state (limit 100); a state that changed within the round (IQR 30%)
        for r, (cg, gv, lim, iq) in {"a": (90.0, 75.0, 62.0, 2), "b": (160.0, 140.0, 100.0, 2), "c": (90.0, 70.0, 61.0, 30)}.items():
            log(os.path.join(w, "emu-runs", r, "emu_bjacobi_256.log"), "EMULATED", "bjacobi", 256, dict(zip(lab, [(cg, 2), (gv, 2), (lim, iq)])))
        out = subprocess.run([sys.executable, report, w], capture_output=True, text=True).stdout
    print(out)
    if "zero latency 60.0 us/it (run at P=64)" not in out:
        fails.append("P = 256 did not borrow P = 64's zero-latency limit")
    if "3 rounds" not in out:
        fails.append("the report did not see the 3 emulated rounds")
    # round a alone: time 80/75 = 1.07, speedup (100/80)/(90/75) = 1.04, x limit (80/60)/(75/62) = 1.10
    m = re.search(r"256 bjacobi pipegv-poll\s+\|\s+(\d+)\s+(\d+) \|\s+(\S+)\s+(\S+)\s+(\S+)", out)
    if not m:
        fails.append("no rounds row for pipegv-poll")
    elif m.groups() != ("1", "1", "1.07-1.07", "1.04-1.04", "1.10-1.10"):
        fails.append("pipegv-poll's rounds row %s, expected 1 round, 1 within 20%%, 1.07, 1.04, 1.10" % (m.groups(),))
    for f in fails:
        print("FAIL: " + f)
    print("report_check %s" % ("FAILED" if fails else "PASSED"))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
