#!/usr/bin/python3
"""`make run`'s table and verdict (bench/run-default.sh runs it; bench/README.md says how to read it).

One bench_cube launch per PC holds every solver twice, under the EMULATED allreduce latency of P_sim nodes
(tools/emulator, LD_PRELOAD) and with the emulator switched off (-bench_latency_free), plus a second cg
(the noise check). The configurations run in a rotated order, repeated; every ratio is a solve's seconds per
iteration over cg's in the SAME repetition and latency mode, and the table gives its median [IQR] over the
repetitions. One sentence per PC says whether pipeplcg (default options) beats cg under the latency, or
that the difference is within noise (its IQR overlaps the second cg's). A busy machine (load average) gets
more repetitions, and a launch whose verdict is still undecided is repeated once more.
usage: run_default.py <bench_cube> <emulator .so> <mpiexec>
"""
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_report import quartiles  # noqa: E402  (one definition: bench_cube's quartiles)

drv, emu, mpiexec = sys.argv[1:4]
n = int(os.environ.get("PIPEKSP_RUN_N", "9"))
np_ = int(os.environ.get("PIPEKSP_RUN_NP", "2"))
rtol = os.environ.get("PIPEKSP_RUN_RTOL", "1e-8")
tmo = float(os.environ.get("PIPEKSP_RUN_TIMEOUT", "300"))
reps = int(os.environ.get("PIPEKSP_RUN_REPS", "15"))
psim = int(os.environ.get("PIPEKSP_RUN_PSIM", "4096"))
busy_at = float(os.environ.get("PIPEKSP_RUN_BUSY", "%g" % (0.5 * (os.cpu_count() or 2))))
pcs = os.environ.get("PIPEKSP_RUN_PCS", "jacobi asddic").split()

# (label, KSP options); cg is the reference of every ratio, "cg (again)" the noise check
BASE, TWIN, OURS = "cg", "cg (again)", "pipeplcg auto"
solvers = [
    ("cg", "-ksp_type cg"),
    (TWIN, "-ksp_type cg"),
    ("cg single_reduction", "-ksp_type cg -ksp_cg_single_reduction"),
    ("groppcg", "-ksp_type groppcg"),
    ("pipecg", "-ksp_type pipecg"),
    ("pipelcg", "-ksp_type pipelcg"),
    ("chrongear", "-ksp_type chrongear"),
    ("pipegropp", "-ksp_type pipegropp"),
    ("pipegropp poll", "-ksp_type pipegropp -ksp_pipe_progress poll"),
    ("pipegv", "-ksp_type pipegv"),
    ("pipegv poll", "-ksp_type pipegv -ksp_pipe_progress poll"),
    (OURS, "-ksp_type pipeplcg"),
    ("pipeplcg l=2 poll", "-ksp_type pipeplcg -ksp_pipe_depth 2 -ksp_pipe_progress poll"),
    ("pipeplcg l=3 poll", "-ksp_type pipeplcg -ksp_pipe_depth 3 -ksp_pipe_progress poll"),
]
# the emulator as make bench runs it (bench/bench.sh's defaults): 3 us per hop + 0.5 us mean jitter, MPI
# progress only inside MPI calls, halo-exchange calls as points; VERBOSE makes rank 0 say that it is loaded
EMU_ENV = ["LD_PRELOAD=" + emu, "PIPEKSP_EMU_P=%d" % psim, "PIPEKSP_EMU_ALPHA_US=3", "PIPEKSP_EMU_JITTER_US=0.5",
           "PIPEKSP_EMU_SEED=12345", "PIPEKSP_EMU_PROGRESS=calls", "PIPEKSP_EMU_P2P=point", "PIPEKSP_EMU_VERBOSE=1"]
EMU_SAYS = "pipeksp_emu: EMULATED"


def error_line(out, rc):
    lines = [l for l in out.splitlines() if "ERROR" in l and "----" not in l]
    why = lines[1] if len(lines) > 1 else (lines[0] if lines else "exit status %d" % rc)
    return why.split("PETSC ERROR: ", 1)[-1].strip()


def launch(pc, emulated, r, seed):
    """One bench_cube launch: every solver, emulated (when emulated) and latency-free, r rotated repetitions.
    Returns ({(label, mode): {rep: (s/it, hidden, its)}}, {label: failure}, {label: depth}) or (None, why)."""
    modes = ("emu", "free") if emulated else ("free",)
    with tempfile.NamedTemporaryFile("w", suffix=".cfg", delete=False) as f:
        for i, (label, kspargs) in enumerate(solvers):
            for m in modes:
                f.write("%s%d|%s -pc_type %s -ksp_rtol %s%s\n" % (m, i, kspargs, pc, rtol, " -bench_latency_free" if m == "free" and emulated else ""))
    env = [a for v in EMU_ENV for a in ("-x", v)] if emulated else []
    cmd = [mpiexec, "-n", str(np_)] + env + [drv, "-bench_config", f.name, "-bench_reps", str(r), "-bench_order", "rotate",
                                             "-bench_seed", str(seed), "-bench_tag", pc, "-cube_n", str(n), "-bench_check", "1e-6"]
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=tmo)
    except subprocess.TimeoutExpired:
        return None, "timed out after %g s" % tmo, None
    finally:
        os.unlink(f.name)
    if emulated and EMU_SAYS not in p.stdout:
        return None, "the emulator was not loaded", None
    data, bad, depth = {}, {}, {}
    for line in p.stdout.splitlines():
        w = line.split(",")
        if line.startswith("# depth "):  # "# depth <tag>,<cfg>: <l>"
            cfg, l = line[len("# depth "):].split(",", 1)[1].split(": ")
            if cfg.startswith("emu"):
                depth[solvers[int(cfg[3:])][0]] = l
            continue
        if len(w) < 3 or w[0] != pc or not w[1][:3] in ("emu", "fre"):
            continue
        mode = "emu" if w[1].startswith("emu") else "free"
        label = solvers[int(w[1][len(mode):])][0]
        if w[2].startswith("FAILED"):
            bad[label] = w[2]
        elif len(w) == 11 and w[9] != "1":
            bad[label] = "wrong answer (error vs the exact solution above 1e-6) or not converged"
        elif len(w) == 11:
            data.setdefault((label, mode), {})[int(w[2])] = (float(w[5]), float(w[8]), int(w[3]))
    if p.returncode != 0 and not data:
        return None, error_line(p.stdout, p.returncode), None
    return data, bad, depth


def paired(data, label, mode, ref_mode):
    """Per-repetition ratios: label's s/it in mode over cg's in ref_mode, same repetition."""
    a, b = data.get((label, mode), {}), data.get((BASE, ref_mode), {})
    return [a[k][0] / b[k][0] for k in a if k in b and b[k][0] > 0]


def emulator_usable():
    """None when the EMULATED columns can run, else why not (said in the table, not a failure)."""
    if psim <= 1:
        return "PIPEKSP_RUN_PSIM=%d" % psim
    if not os.path.exists(emu):
        return "%s not built" % emu
    cmd = [mpiexec, "-n", str(np_)] + [a for v in EMU_ENV for a in ("-x", v)] + ["true"]
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return "mpiexec with the emulator timed out"
    return None if p.returncode == 0 else (p.stdout.strip().splitlines() or ["exit status %d" % p.returncode])[0][:100]


def fmt(q):
    return "%.2f [%.2f-%.2f]" % (q[1], q[0], q[2]) if q else "-"


def verdict(data, emulated):
    """(sentence, decided): ours against cg, against the second cg's spread in the same mode."""
    mode = "emu" if emulated else "free"
    where = "under the EMULATED latency of %s nodes" % format(psim, ",") if emulated else "without latency"
    mine, twin = paired(data, OURS, mode, mode), paired(data, TWIN, mode, mode)
    if not mine or not twin:
        return "%s: no verdict, %s or cg (again) has no timed solve" % (where, OURS), True
    q, t = quartiles(mine), quartiles(twin)
    head = "%s pipeplcg (default options) takes %.2fx cg's time per iteration (IQR %.2f-%.2f; cg against itself %.2f-%.2f)" % (
        where, q[1], q[0], q[2], t[0], t[2])
    if q[2] < t[0]:
        return head + ": faster than cg", True
    if q[0] > t[2]:
        return head + ": slower than cg", True
    return head + ": within noise, the IQRs overlap", False


def main():
    if not os.path.exists(drv):
        print("run_default: %s not built; build first (make build)" % drv)
        return 2
    emu_off = emulator_usable()
    load = os.getloadavg()[0]
    busy = load > busy_at
    r = reps * (2 if busy else 1)
    print("PipeKSP default run: GeoFEM/Cube %d^3 nodes (%d unknowns), %d MPI ranks, rtol %s, %d repetitions in rotated order"
          % (n, 3 * n ** 3, np_, rtol, r))
    print("Every ratio is seconds per iteration over PETSc cg's with the same PC in the SAME repetition: median [IQR] over")
    print("the repetitions. 'cg (again)' is cg run a second time: its spread is this run's noise.")
    if emu_off:
        print("EMULATED columns not run: the emulator cannot be used here: %s" % emu_off)
    else:
        print("EMULATED: the allreduce latency of %s nodes (%d rounds of 3 us + 0.5 us jitter per reduction, as make bench)"
              % (format(psim, ","), max(1, (psim - 1).bit_length())))
        print("added by tools/emulator to this machine's compute: an emulation, not a cluster measurement.")
    if busy:
        print("WARNING: load average %.1f on %d cores (busy above %.1f): other jobs share the cores, so single timings swing"
              " by 1.5-3x; running %d repetitions instead of %d and repeating a launch whose verdict is undecided."
              % (load, os.cpu_count() or 0, busy_at, r, reps))
    else:
        print("Load average %.1f on %d cores." % (load, os.cpu_count() or 0))
    failed, sentences, below = [], [], []
    for pc in pcs:
        data, bad, depth = launch(pc, not emu_off, r, 1)
        if data is None:
            failed.append("%s: %s" % (pc, bad))
            print("\nPC %s: FAILED: %s" % (pc, bad))
            continue
        sentence, decided = verdict(data, not emu_off)
        if not decided or busy and not emu_off and quartiles(paired(data, TWIN, "emu", "emu") or [1])[2] > 1.25:
            # undecided, or a wide noise band: one more launch, its repetitions pooled (every ratio is within one)
            print("\nPC %s: %s; repeating the launch (%d more repetitions)" % (pc, "undecided" if not decided else "wide noise band", r))
            more, bad2, _ = launch(pc, not emu_off, r, 2)
            if more is not None:
                for k, v in more.items():
                    d = data.setdefault(k, {})
                    for rep, x in v.items():
                        d[rep + 100000] = x
                for k, v in bad2.items():
                    bad.setdefault(k, v)
            sentence, decided = verdict(data, not emu_off)
        nrep = len(data.get((BASE, "free"), {}))
        print("\nPC %s (%d repetitions)" % (pc, nrep))
        hdr = "%-20s %7s | %-19s | %-19s %-19s %6s | %s" % ("solver", "its", "no latency: x cg", "EMU %d: x cg" % psim,
                                                           "x limit", "hidden", "status")
        print(hdr)
        print("-" * len(hdr))
        for label, _ in solvers:
            its = sorted({v[2] for m in ("free", "emu") for v in data.get((label, m), {}).values()})
            free = paired(data, label, "free", "free")
            q_free = quartiles(free) if free and label != BASE else ((1, 1, 1) if free else None)
            q_emu = q_lim = hid = None
            if not emu_off:
                e = paired(data, label, "emu", "emu")
                q_emu = quartiles(e) if e and label != BASE else ((1, 1, 1) if e else None)
                lim = paired(data, label, "emu", "free")
                q_lim = quartiles(lim) if lim else None
                h = [v[1] for v in data.get((label, "emu"), {}).values() if v[1] >= 0]
                hid = statistics.median(h) if h else None
            status = []
            if label in bad:
                failed.append("%s + %s: %s" % (label, pc, bad[label]))
                status.append("FAILED: " + bad[label])
            if label == TWIN:
                status.append("noise check")
            if label in depth:
                status.append("depth %s under the latency" % depth[label])
            marks = ""
            for what, q in (("without latency", q_free), ("x limit", q_lim)):
                if q and q[1] < 1.0 and label != BASE:
                    marks = "*"
                    below.append((pc, label, what, q))
            print("%-20s %7s | %-19s | %-19s %-19s %6s | %s" % (
                label + marks, ("%d" % its[0] if len(its) == 1 else "%d-%d" % (its[0], its[-1])) if its else "-", fmt(q_free), fmt(q_emu) if not emu_off else "not run",
                fmt(q_lim) if not emu_off else "-", "%.2f" % hid if hid is not None else "-", "; ".join(status) or "ok"))
        sentences.append("%s: %s." % (pc, sentence))
    print("\nx cg: ratio to cg in the same repetition and latency mode (cg is 1.00 by definition); x limit: the EMULATED solve"
          " over cg's\nwith the emulator off in the same repetition (1.00 = the latency-free limit); hidden: share of the"
          " emulated latency\nnot waited for (median). pipeplcg auto is pipeplcg with its default options (its status gives"
          " the depth it chose).")
    if below:
        print("* below 1.00, faster than cg without latency:")
        for pc, label, what, q in below:
            why = ("noise: its IQR reaches 1.00" if q[2] >= 1.0 else
                   "fewer blocking reductions than cg (or overlapped ones): a real reduction waits for the other rank's"
                   " core even without emulated latency, more so on a busy machine")
            print("  %s + %s, %s %.2f [%.2f-%.2f]: %s" % (label, pc, what, q[1], q[0], q[2], why))
    print("\nVerdict:")
    for s in sentences:
        print("  " + s)
    if failed:
        print("FAILED: %d: %s" % (len(failed), "; ".join(failed)))
        return 1
    print("all solves converged to the exact solution (max-norm error below 1e-6)")
    return 0


sys.exit(main())
