#!/usr/bin/env python3
"""bench/smpi/solve_report.py on a made-up work folder (no SimGrid needed): which emulated rounds it pairs with
the SIMULATED figures, the ratios it prints for them per clock and real ranks, and the zero-latency limit it
borrows from a smaller P.
usage: report_check.py <source dir>"""
import os
import re
import subprocess
import sys
import tempfile


def log(path, side, pc, P, figures, clock="cpu"):
    """a bench_cube log holding only the lines the report reads: the clock, {label: (median us/it, IQR %)}"""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        if "/" in clock:  # solve.sh's line: the clock and the real ranks
            f.write("# EMULATED side: %s real ranks (4 x 4 x 4), %s clock\n" % (clock.split("/")[1], clock.split("/")[0]))
        f.write("# order shuffle, seed 1, 1 untimed warm-up solve(s) of every configuration first, %s clock\n" % clock.split("/")[0])
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
        # the flop clock (compute priced as SMPI prices it): its own rows
        log(os.path.join(w, "emu-runs", "f", "emu_bjacobi_256.log"), "EMULATED", "bjacobi", 256, dict(zip(lab, [(95.0, 0), (78.0, 0), (60.0, 0)])), "flops")
        # 64 real ranks in a round of their own (emu_<pc>_<P>_np64.log)
        log(os.path.join(w, "emu-runs", "g", "emu_bjacobi_256_np64.log"), "EMULATED", "bjacobi", 256, dict(zip(lab, [(100.5, 0), (80.5, 0), (60.5, 0)])), "flops/64")
        out = subprocess.run([sys.executable, report, w], capture_output=True, text=True).stdout
    print(out)
    if "zero latency 60.0 us/it (run at P=64)" not in out:
        fails.append("P = 256 did not borrow P = 64's zero-latency limit")
    if "5 rounds" not in out:
        fails.append("the report did not see the 5 emulated rounds")
    # cpu: round a alone: time 80/75 = 1.07, speedup (100/80)/(90/75) = 1.04, x limit (80/60)/(75/62) = 1.10;
    # flops: round f: 80/78 = 1.03, (100/80)/(95/78) = 1.03, (80/60)/(78/60) = 1.03; 64 ranks: 0.99, 1.00, 1.00
    for clk, want in (("cpu/2", ("1", "1", "1.07-1.07", "1.04-1.04", "1.10-1.10")), ("flops/2", ("1", "1", "1.03-1.03", "1.03-1.03", "1.03-1.03")),
                      ("flops/64", ("1", "1", "0.99-0.99", "1.00-1.00", "1.00-1.00"))):
        m = re.search(r"256 bjacobi pipegv-poll\s+%s\s+\|\s+(\d+)\s+(\d+) \|\s+(\S+)\s+(\S+)\s+(\S+)" % clk, out)
        if not m:
            fails.append("no %s-clock rounds row for pipegv-poll" % clk)
        elif m.groups() != want:
            fails.append("pipegv-poll's %s-clock rounds row %s, expected %s" % (clk, m.groups(), want))
    for f in fails:
        print("FAIL: " + f)
    print("report_check %s" % ("FAILED" if fails else "PASSED"))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
