#!/usr/bin/env bash
# `make run`: solve one default GeoFEM/Cube problem with our solvers and PETSc's and print a table:
# - one solve each (tutorials/ex1, no latency): iterations, true residual, error, solve time;
# - "x limit": seconds per iteration over PETSc cg's with the same PC without latency (the latency-free
#   limit, 1.00), medians of PIPEKSP_RUN_REPS solves interleaved in one bench_cube launch, without latency
#   and under the EMULATED allreduce latency of PIPEKSP_RUN_PSIM nodes (tools/emulator, LD_PRELOAD, as
#   bench/bench.sh runs it: an emulation on this machine's compute, not a cluster measurement), with the
#   share of that latency each solver hid.
# usage: bash bench/run-default.sh <builddir>
# environment: PIPEKSP_RUN_N (nodes per direction, default 9, make bench's cube: small per rank, as in a strong-scaled run on
#              4,096 nodes, so that the latency is a visible part of an iteration), PIPEKSP_RUN_NP (ranks,
#              default 2), PIPEKSP_RUN_RTOL (default 1e-8), PIPEKSP_RUN_TIMEOUT (seconds per launch, default
#              300), PIPEKSP_RUN_REPS (timed solves per configuration, default 9), PIPEKSP_RUN_PSIM (emulated
#              nodes, default 4096; 1 = no EMULATED column), PIPEKSP_RUN_EMU (the shim, default
#              <builddir>/libpipeksp_emu.so)
# When the emulator cannot be used (not built, an mpiexec without Open MPI's -x), the table says so and
# the EMULATED column stays empty: that is not a failure.
# Exit status: 0 when every solve converged, 1 when any row says FAILED, 2 on a usage error.
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

BUILD=${1:-build}
EX="$BUILD/tests/pipeksp/tutorials/ex1"
if [ ! -x "$EX" ]; then
  echo "run-default.sh: $EX not found or not executable; build first (make build, or cmake --build $BUILD)" >&2
  exit 2
fi
MPIEXEC=${MPIEXEC:-mpiexec}
command -v "$MPIEXEC" >/dev/null || { echo "run-default.sh: $MPIEXEC not found (install openmpi-bin)" >&2; exit 2; }

exec /usr/bin/python3 - "$EX" "$MPIEXEC" "${PIPEKSP_RUN_EMU:-$BUILD/libpipeksp_emu.so}" "$BUILD/bench/bench_cube" <<'PY'
import os, re, statistics, subprocess, sys, tempfile

ex, mpiexec, emu, drv = sys.argv[1:5]
n = int(os.environ.get("PIPEKSP_RUN_N", "9"))
np_ = int(os.environ.get("PIPEKSP_RUN_NP", "2"))
rtol = os.environ.get("PIPEKSP_RUN_RTOL", "1e-8")
tmo = float(os.environ.get("PIPEKSP_RUN_TIMEOUT", "300"))
reps = int(os.environ.get("PIPEKSP_RUN_REPS", "9"))
psim = int(os.environ.get("PIPEKSP_RUN_PSIM", "4096"))

# (label, KSP options); the first one is the reference of x limit
solvers = [
    ("cg", ["-ksp_type", "cg"]),
    ("cg single_reduction", ["-ksp_type", "cg", "-ksp_cg_single_reduction"]),
    ("groppcg", ["-ksp_type", "groppcg"]),
    ("pipecg", ["-ksp_type", "pipecg"]),
    ("pipegropp", ["-ksp_type", "pipegropp"]),
    ("pipegropp poll", ["-ksp_type", "pipegropp", "-ksp_pipe_progress", "poll"]),
    ("pipegv", ["-ksp_type", "pipegv"]),
    ("pipegv poll", ["-ksp_type", "pipegv", "-ksp_pipe_progress", "poll"]),
    ("chrongear", ["-ksp_type", "chrongear"]),
    ("pipelcg", ["-ksp_type", "pipelcg"]),
    ("pipeplcg auto", ["-ksp_type", "pipeplcg"]),
    ("pipeplcg l=2 poll", ["-ksp_type", "pipeplcg", "-ksp_pipe_depth", "2", "-ksp_pipe_progress", "poll"]),
    ("pipeplcg l=3 poll", ["-ksp_type", "pipeplcg", "-ksp_pipe_depth", "3", "-ksp_pipe_progress", "poll"]),
]
pcs = ["jacobi", "asddic"]
num = r"([-+0-9.eEinfa]+)"
# the emulator as make bench runs it (bench/bench.sh's defaults): 3 us per hop + 0.5 us mean jitter, MPI
# progress only inside MPI calls, halo-exchange calls as points; VERBOSE makes rank 0 say that it is loaded
EMU_ENV = ["LD_PRELOAD=" + emu, "PIPEKSP_EMU_P=%d" % psim, "PIPEKSP_EMU_ALPHA_US=3", "PIPEKSP_EMU_JITTER_US=0.5",
           "PIPEKSP_EMU_SEED=12345", "PIPEKSP_EMU_PROGRESS=calls", "PIPEKSP_EMU_P2P=point", "PIPEKSP_EMU_VERBOSE=1"]
EMU_SAYS = "pipeksp_emu: EMULATED"


def launch(cmd):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=tmo)
    except subprocess.TimeoutExpired:
        return None, "timed out after %g s" % tmo
    return p, None


def error_line(out, rc):
    lines = [l for l in out.splitlines() if "ERROR" in l and "----" not in l]
    why = lines[1] if len(lines) > 1 else (lines[0] if lines else "exit status %d" % rc)
    return re.sub(r"^\[\d+\]PETSC ERROR: ", "", why).strip()


def run(kspargs, pc, emulated=False, size=None):
    """One ex1 solve; returns (dict, error text or None)."""
    env = [a for v in EMU_ENV for a in ("-x", v)] if emulated else []
    p, why = launch([mpiexec, "-n", str(np_)] + env + [ex, "-cube_n", str(size or n), "-pc_type", pc, "-ksp_rtol", rtol,
                    "-check_error", "0", "-check_residual", "0", "-log_view"] + kspargs)
    if p is None:
        return None, why
    out = p.stdout
    if emulated and p.returncode == 0 and EMU_SAYS not in out:
        return None, "the emulator was not loaded (%s)" % (out.strip().splitlines() or ["no output"])[0][:80]
    m_it = re.search(r"KSP \S+, PC \S+: (converged|DIVERGED) after (\d+) iterations", out)
    m_res = re.search(r"True relative residual \|\|b-Ax\|\|/\|\|b\|\| (?:=|<) " + num, out)
    m_err = re.search(r"Max-norm relative error vs exact solution (?:=|<) " + num, out)
    m_t = re.search(r"^KSPSolve\s+\d+\s+\S+\s+(\S+)", out, re.M)
    if p.returncode != 0 or not (m_it and m_res and m_err and m_t):
        return None, error_line(out, p.returncode)
    r = dict(conv=m_it.group(1) == "converged", its=int(m_it.group(2)), res=float(m_res.group(1)),
             err=float(m_err.group(1)), t=float(m_t.group(1)))
    if not r["conv"]:
        m_reason = re.search(r"reason (\S+)", out)
        return r, "diverged" + (" (%s)" % m_reason.group(1) if m_reason else "")
    return r, None


LIMIT = "cg, no latency"  # timed()'s key of the limit measured in the same launch


def timed(pc, emulated):
    """Every solver on one cube in one bench_cube launch, interleaved over reps: {label: (median s/it, hidden)}
    and {label: why it failed}; or (None, why the launch failed)."""
    with tempfile.NamedTemporaryFile("w", suffix=".cfg", delete=False) as f:
        for i, (label, kspargs) in enumerate(solvers):
            f.write("s%d|%s -pc_type %s -ksp_rtol %s\n" % (i, " ".join(kspargs), pc, rtol))
        # the limit beside the emulated solves: cg with the emulator off, in the same launch and repetitions
        f.write("L|-ksp_type cg -pc_type %s -ksp_rtol %s -bench_latency_free\n" % (pc, rtol))
    try:
        env = [a for v in EMU_ENV for a in ("-x", v)] if emulated else []
        p, why = launch([mpiexec, "-n", str(np_)] + env + [drv, "-bench_config", f.name, "-bench_reps", str(reps),
                        "-bench_tag", pc, "-cube_n", str(n)])
    finally:
        os.unlink(f.name)
    if p is None:
        return None, why
    if emulated and EMU_SAYS not in p.stdout:
        return None, "the emulator was not loaded"
    spi, hid, bad = {}, {}, {}
    for line in p.stdout.splitlines():
        w = line.split(",")
        if len(w) < 3 or w[0] != pc or not (w[1].startswith("s") or w[1] == "L"):
            continue
        label = LIMIT if w[1] == "L" else solvers[int(w[1][1:])][0]
        if w[2].startswith("FAILED"):
            bad[label] = w[2]
        elif len(w) == 11 and w[9] != "1":
            bad[label] = "wrong answer or not converged in bench_cube"
        elif len(w) == 11:
            spi.setdefault(label, []).append(float(w[5]))
            hid.setdefault(label, []).append(float(w[8]))
    if p.returncode != 0 and not spi:
        return None, error_line(p.stdout, p.returncode)
    return {k: (statistics.median(v), statistics.median(hid[k])) for k, v in spi.items()}, bad


def emulator_usable():
    """None when the EMULATED column can run, else why not (said in the table, not a failure)."""
    if psim <= 1:
        return "PIPEKSP_RUN_PSIM=%d" % psim
    if not os.path.exists(emu):
        return "%s not built" % emu
    r, why = run(["-ksp_type", "cg"], "jacobi", emulated=True, size=3)
    return None if r is not None else why


emu_off = emulator_usable() if os.path.exists(drv) else "%s not built" % drv
rounds = max(1, (psim - 1).bit_length())
print("PipeKSP default run: GeoFEM/Cube %d^3 nodes (%d unknowns), %d MPI ranks, rtol %s" % (n, 3 * n ** 3, np_, rtol))
print("(solve [s]: one solve, KSPSolve max over ranks from -log_view, set-up included; x limit: medians of %d solves" % reps)
print(" interleaved in one launch after a warm-up solve. Load average at start %.1f on %d cores: timings on a busy machine"
      % (os.getloadavg()[0], os.cpu_count() or 0))
print(" are noisy. EMULATED: the allreduce latency of %d nodes (%d rounds of 3 us + jitter per reduction, as make bench)" % (psim, rounds))
print(" added by tools/emulator to this machine's compute: an emulation, not a cluster measurement)")
if not os.path.exists(drv):
    print("x limit columns not run: %s not built" % drv)
elif emu_off:
    print("EMULATED column not run: the emulator cannot be used here: %s" % emu_off)
print()
hdr = "%-20s %-7s %6s %12s %12s %10s | %8s %10s %7s  %s" % ("solver", "PC", "its", "true resid", "error", "solve [s]",
                                                            "no lat.", "EMU %d" % psim, "hidden", "status")
lead = 20 + 1 + 7 + 1 + 6 + 1 + 12 + 1 + 12 + 1 + 10
print("%s | %s" % (" one solve, no latency ".center(lead, "-"), " x limit ".center(19, "-")))
print(hdr)
print("-" * len(hdr))
failed = []
notes = []
for pc in pcs:
    flat = emul = None
    ferr = eerr = {}
    for label, kspargs in solvers:
        r, why = run(kspargs, pc)
        if pc == "asddic" and label == solvers[0][0] and r is None:
            # our PC is optional in this table: note why and go on
            notes.append("PC asddic skipped: cg + asddic failed: %s" % why)
            print("%-20s %-7s %s" % ("(all)", pc, "skipped: " + why))
            break
        if label == solvers[0][0] and os.path.exists(drv):
            flat, ferr = timed(pc, False)
            if flat is None:
                failed.append("x limit runs + %s: %s" % (pc, ferr))
                print("%-20s %-7s FAILED: x limit runs: %s" % ("(all)", pc, ferr))
                ferr = {}
            if not emu_off:
                emul, eerr = timed(pc, True)
                if emul is None:
                    failed.append("EMULATED x limit runs + %s: %s" % (pc, eerr))
                    print("%-20s %-7s FAILED: EMULATED x limit runs: %s" % ("(all)", pc, eerr))
                    eerr = {}
        ref = flat.get(solvers[0][0], (0, 0))[0] if flat else 0
        eref = emul.get(LIMIT, (0, 0))[0] if emul else 0
        status = []
        if r is None or why is not None:
            failed.append("%s + %s: %s" % (label, pc, why))
            status.append("FAILED: " + why)
        for d, e, what in ((flat, ferr, "x limit run"), (emul, eerr, "EMULATED run")):
            if d is not None and label not in d:
                why2 = e.get(label, "no result")
                failed.append("%s + %s %s: %s" % (label, pc, what, why2))
                status.append("FAILED (%s): %s" % (what, why2))
        left = ("%6d %12.3e %12.3e %10.3f" % (r["its"], r["res"], r["err"], r["t"]) if r else
                "%6s %12s %12s %10s" % ("-", "-", "-", "-"))
        lim = lambda d, rf: "%.2f" % (d[label][0] / rf) if d and rf and label in d else "-"
        hid = "%.2f" % emul[label][1] if emul and label in emul and emul[label][1] >= 0 else "-"
        right = "%8s %10s %7s" % (lim(flat, ref), lim(emul, eref) if not emu_off else "not run", hid)
        print("%-20s %-7s %s | %s  %s" % (label, pc, left, right, "; ".join(status) or "ok"))
    print()
print("x limit = seconds per iteration / PETSc cg's with the same PC without latency (1.00 = the latency-free limit; for"
      " the EMULATED column, cg with the emulator off in the same launch); hidden = share of the emulated latency not waited for.")
print("Without latency a pipelined solver pays its extra vector work (x limit > 1); under the EMULATED latency cg waits"
      " out every reduction, the pipelined solvers overlap theirs with the SpMV and PC (hidden near 1).")
print("pipeplcg auto (its default depth) measures latency and compute at its first solve, this one (about 16 SpMVs and"
      " PC applications, once per matrix): depth 0 without latency, a pipeline under it.")
for s in notes:
    print("note: " + s)
if failed:
    print("FAILED: %d solve(s): %s" % (len(failed), "; ".join(failed)))
    sys.exit(1)
print("all solves converged")
PY
