#!/usr/bin/env python3
"""The side-by-side table of bench/smpi/solve.sh: SIMULATED (SMPI) vs EMULATED figures per P, PC and solver.
usage: solve_report.py <work folder of solve.sh>
Per row: time per iteration (median over repetitions, with the IQR in %), speedup against cg (cg's median
over the solver's), x limit (the solver's time per iteration over cg's with zero network latency on the same
platform), and each SMPI / emulator ratio; rows whose three ratios are all within 20% are marked ok."""
import glob
import os
import re
import sys

LINE = re.compile(r"^# (SIMULATED|EMULATED),([^,]+),(\d+),([^:]+): median ([0-9.]+) us/it, IQR ([0-9.]+) us/it \(([0-9.]+)%\), (\d+) rep")


def medians(path):
    """label -> (median us/it, IQR %, repetitions); and the count of solves that missed the check (ok = 0)"""
    out, bad = {}, 0
    if not os.path.exists(path):
        return out, bad
    for line in open(path, errors="replace"):
        m = LINE.match(line)
        if m:
            out[m.group(4)] = (float(m.group(5)), float(m.group(7)), int(m.group(8)))
        elif re.match(r"^(SIMULATED|EMULATED),", line) and line.rstrip().endswith(",0," + line.rstrip().split(",")[-1]):
            bad += 1
    return out, bad


def clock(path):
    """the emulated side's clock and real ranks, "flops/64": flops (compute priced as SMPI prices it), cpu or wall;
    solve.sh's first line says both, bench_cube's order line the clock (2 ranks before solve.sh said)"""
    if os.path.exists(path):
        for line in open(path, errors="replace"):
            m = re.match(r"^# EMULATED side: (\d+) real ranks .*, (\w+) clock$", line.rstrip())
            if m:
                return "%s/%s" % (m.group(2), m.group(1))
            m = re.match(r"^# order .*, (\w+) clock$", line.rstrip())
            if m:
                return m.group(1) + "/2"
    return "?"


def emu_logs(folder, pc, P):
    """the emulated logs of a P and PC in a folder, most real ranks first (emu_<pc>_<P>_np<n>.log, emu_<pc>_<P>.log: 2)"""
    fs = glob.glob(os.path.join(folder, "emu_%s_%d_np*.log" % (pc, P)))
    fs.sort(key=lambda f: -int(re.search(r"_np(\d+)\.log$", f).group(1)))
    one = os.path.join(folder, "emu_%s_%d.log" % (pc, P))
    return fs + ([one] if os.path.exists(one) else [])


# the solvers, in solve.sh's order: bench/smpi/cases.sh owns the list
LABELS = re.search(r'^smpi_solvers="([^"]+)"', open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases.sh")).read(), re.M).group(1).split()
ORDER = {"jacobi": 0, "bjacobi": 1, "asddic": 2, "gamg": 3}


def side(m, lab, lim):
    """one side's figures of a row: time per iteration, speedup against cg, x limit (0 where unknown)"""
    v = m.get(lab, (0,))[0]
    return v, m["cg"][0] / v if "cg" in m and v else 0, v / lim if lim else 0


def ratios(sf, ef):
    """SMPI / emulator for each of the three figures, and whether all are within 20%"""
    r = [a / b if b else 0 for a, b in zip(sf, ef)]
    return r, all(0.8 <= x <= 1.2 for x in r)


def capped(work, pc, P):
    """the -ksp_max_it of this group's SMPI launches (PIPEKSP_SMPI_MAXIT), or None"""
    for f in glob.glob(os.path.join(work, "one", "cfg_%s_%d_lat0.25_*" % (pc, P))):
        m = re.search(r"-ksp_max_it (\d+)", open(f).read())
        if m:
            return m.group(1)
    return None


def main():
    work = sys.argv[1]
    rows, misses, limits = [], 0, {}
    keys = set()
    for f in glob.glob(os.path.join(work, "smpi_*_lat0.25_test*.log")):
        m = re.match(r"smpi_(.+)_(\d+)_lat0.25_test(.+)\.log$", os.path.basename(f))
        if m:
            keys.add((int(m.group(2)), m.group(1), m.group(3)))
    if not keys:  # the emulated side alone (PIPEKSP_SMPI_SOLVE_WHAT=emu): its figures, SMPI's columns empty
        for f in glob.glob(os.path.join(work, "emu_*.log")):
            m = re.match(r"emu_(.+?)_(\d+)(_np\d+)?\.log$", os.path.basename(f))
            if m:
                keys.add((int(m.group(2)), m.group(1), "(no SMPI run)"))
    print("SIMULATED = SimGrid SMPI (deterministic compute); EMULATED = tools/emulator on a few real ranks (clock/real ranks"
          " per row: flops = compute priced as SMPI prices it, cpu/wall = real compute)")
    print("us/it: median time per iteration [IQR %]; speedup = cg / solver; x limit = solver / cg at zero latency; ratio = SMPI / emulator")
    hdr = "%5s %-7s %-12s | %16s %16s %5s | %6s %6s %5s | %6s %6s %5s |" % ("P", "PC", "solver", "SIMULATED us/it", "EMULATED us/it", "ratio", "S spd", "E spd", "ratio", "S xlim", "E xlim", "ratio")
    for P, pc, ts in sorted(keys, key=lambda k: (k[2], k[0], ORDER.get(k[1], 9))):
        s, sbad = medians(os.path.join(work, "smpi_%s_%d_lat0.25_test%s.log" % (pc, P, ts)))
        z, _ = medians(os.path.join(work, "smpi_%s_%d_lat0_test%s.log" % (pc, P, ts)))
        if not z:  # SMPI's default MPI_Test cost has no zero-latency run of its own: the other one's limit
            for f in glob.glob(os.path.join(work, "smpi_%s_%d_lat0_test*.log" % (pc, P))):
                z, _ = medians(f)
        zfrom = P
        if not z:  # no zero-latency run at this P: the nearest smaller P's, labelled as such; with jacobi,
            # bjacobi+icc and asddic it came out the same at P = 64, 256 and 1,024 (not with gamg: 261.3 and 306.1)
            runs = [(int(re.search(r"_(\d+)_lat0_", f).group(1)), f) for f in glob.glob(os.path.join(work, "smpi_%s_*_lat0_test*.log" % pc))]
            smaller = [qf for qf in runs if qf[0] < P]
            if smaller:
                zfrom, f = max(smaller)
                z = medians(f)[0]
        ef, e, ebad = "", {}, 0  # the layout nearest SMPI's that gave figures: the most real ranks
        for f in emu_logs(work, pc, P):
            e, ebad = medians(f)
            if e:
                ef = f
                break
        if not rows or rows[-1] != ts:
            print("\nSMPI's MPI_Test/MPI_Iprobe cost: %s s" % ts)
            print(hdr)
            rows.append(ts)
        slim = z.get("cg", (0,))[0]
        elim = e.get("cg-limit", (0,))[0]
        if ts != "default":
            limits[(P, pc)] = (s, slim)
        for lab in LABELS:
            if lab not in s and lab not in e:
                continue
            siq, eiq = s.get(lab, (0, 0))[1], e.get(lab, (0, 0))[1]
            (sv, ssp, sxl), (ev, esp, exl) = side(s, lab, slim), side(e, lab, elim)
            r, ok = ratios((sv, ssp, sxl), (ev, esp, exl))
            misses += not ok and ev > 0 and sv > 0
            print("%5d %-7s %-12s | %9.1f [%4.1f%%] %9.1f [%4.1f%%] %5.2f | %6.3f %6.3f %5.2f | %6.3f %6.3f %5.2f | %s" % (P, pc, lab, sv, siq, ev, eiq, r[0], ssp, esp, r[1], sxl, exl, r[2], "ok" if ok else ("MISS" if ev and sv else "")))
        cap = capped(work, pc, P)
        winf = os.path.join(work, "one", "win_%s_%d" % (pc, P))
        if cap and os.path.exists(winf):
            print("      (%s P=%d: SIMULATED time per iteration between iterations %s of solves capped at %s"
                  " (PIPEKSP_SMPI_WINDOW; PETSc's pipelcg without warm-up); the accuracy check cannot pass)"
                  % (pc, P, open(winf).read().strip().replace(",", " and "), cap))
        elif cap:
            print("      (%s P=%d: SIMULATED solves capped at %s iterations (PIPEKSP_SMPI_MAXIT): time per iteration over those;"
                  " the accuracy check cannot pass)" % (pc, P, cap))
        elif sbad or ebad:
            print("      (%s P=%d: %d SIMULATED and %d EMULATED solves missed the accuracy check)" % (pc, P, sbad, ebad))
        print("      (%s P=%d limit: SIMULATED cg at zero latency %.1f us/it%s, EMULATED cg-limit %.1f us/it, clock/real ranks %s)" % (pc, P, slim, " (run at P=%d)" % zfrom if zfrom != P else "", elim, clock(ef)))
        if slim and elim and not 0.8 <= slim / elim <= 1.2:
            # the two sides computed at different speeds: the VM was not in the state the rates were measured in
            print("      (%s P=%d: the limits differ by %.2fx: the two sides did not compute alike, so this pair does not"
                  " compare the models; run the emulated side again when they agree, docs/emulator.md)" % (pc, P, elim / slim))
    print("\nrows with a ratio outside [0.8, 1.2]: %d" % misses)
    rounds(work, limits)
    runs = os.path.join(work, "runs.txt")
    if os.path.exists(runs):
        print("\nSMPI launches (wall s, peak RSS KiB):")
        print(open(runs).read().rstrip())


def rounds(work, limits):
    """the emulated rounds (PIPEKSP_SMPI_EMU_ROUNDS: $work/emu-runs/<round>/emu_<pc>_<P>[_np<n>].log, each layout
    and clock apart) in the state the SMPI
    rates describe: cg-limit within LIMIT_TOL of SMPI's zero-latency limit with an IQR of at most LIMIT_IQR %; per
    row the rounds kept, how many have all three ratios within 20%, and each ratio's range over them"""
    LIMIT_TOL, LIMIT_IQR = 0.15, 10.0
    runs = sorted(glob.glob(os.path.join(work, "emu-runs", "*")))
    if not runs or not limits:
        return
    print("\nEMULATED rounds in the rates' state (cg-limit within %d%% of SIMULATED's, its IQR <= %d%%): %d rounds" % (100 * LIMIT_TOL, LIMIT_IQR, len(runs)))
    print("%5s %-7s %-12s %-8s | %6s %4s | %11s %11s %11s" % ("P", "PC", "solver", "clock/np", "rounds", "ok", "us/it", "speedup", "x limit"))
    for (P, pc) in sorted(limits, key=lambda k: (k[0], ORDER.get(k[1], 9))):
        s, slim = limits[(P, pc)]
        kept, tried = {}, {}
        for r in runs:
            for path in emu_logs(r, pc, P):
                e, _ = medians(path)
                c = clock(path)
                tried[c] = tried.get(c, 0) + bool(e)
                if "cg-limit" in e and "cg" in e and slim and abs(e["cg-limit"][0] / slim - 1) <= LIMIT_TOL and e["cg-limit"][1] <= LIMIT_IQR:
                    kept.setdefault(c, []).append(e)
        for c in sorted(tried):
            if not kept.get(c):
                if tried[c]:
                    print("%5d %-7s none of %d rounds of %s (clock/real ranks) in that state" % (P, pc, tried[c], c))
                continue
            for lab in LABELS:
                if lab not in s or "cg" not in s:
                    continue
                rat = [ratios(side(s, lab, slim), side(e, lab, e["cg-limit"][0])) for e in kept[c] if lab in e]
                if not rat:
                    print("%5d %-7s %-12s %-8s | %6d %4s |" % (P, pc, lab, c, 0, ""))
                    continue
                ok = sum(within for _, within in rat)
                rat = [q for q, _ in rat]
                rng = ["%.2f-%.2f" % (min(q[i] for q in rat), max(q[i] for q in rat)) for i in range(3)]
                print("%5d %-7s %-12s %-8s | %6d %4d | %11s %11s %11s" % (P, pc, lab, c, len(rat), ok, rng[0], rng[1], rng[2]))


if __name__ == "__main__":
    main()
