#!/bin/sh
# cg on the cube at nu = 0.3, 0.45, 0.49 with asddic (ic and sgs kernels, Chebyshev and Richardson sweeps)
# against PETSc's bjacobi+icc, the composite that equals GeoFEM's undamped asddic with natural order
# (multiplicative bjacobi,bjacobi) and gamg (aij). rtol 1e-8 on the true residual, K = 2. Prints iterations, KSPSolve time
# (median and IQR over the repetitions, order rotated each repetition), the ratio of each median to
# bjacobi+icc's in the same run, and asddic's eigenvalue estimate against its whole PCSetUp (-info).
# Usage: bench/asddic_pcs.sh [build dir] [cube nodes per side] [ranks list] [repetitions]
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 OMP_NUM_THREADS=1
B=${1:-$(dirname "$0")/../build}
N=${2:-17}
NPS=${3:-"1 8"}
REPS=${4:-3}
EXE=$B/tests/pipeksp/tests/ex10 # tests/ex10.c (asddic)
[ -x "$EXE" ] || { echo "missing $EXE: build first (cmake --build $B)"; exit 2; }
exec /usr/bin/python3 - "$EXE" "$N" "$NPS" "$REPS" <<'EOF'
import re, statistics, subprocess, sys
exe, n, nps, reps = sys.argv[1], sys.argv[2], sys.argv[3].split(), int(sys.argv[4])
pcs = [("asddic ic cheb", "-s_pc_type asddic"),
       ("asddic ic rich", "-s_pc_type asddic -s_pc_asddic_sweep richardson"),
       ("asddic sgs cheb", "-s_pc_type asddic -s_pc_asddic_local sgs"),
       ("asddic sgs rich", "-s_pc_type asddic -s_pc_asddic_local sgs -s_pc_asddic_sweep richardson"),
       ("bjacobi+icc", "-s_pc_type bjacobi -s_sub_pc_type icc"),
       ("composite", "-s_pc_type composite -s_pc_composite_type multiplicative -s_pc_composite_pcs bjacobi,bjacobi "
                     "-s_sub_0_sub_pc_type icc -s_sub_1_sub_pc_type icc"),
       ("gamg (aij)", "-s_pc_type gamg -cube_mat_type aij")]
def q(v, f):
    v = sorted(v); k = (len(v) - 1) * f; i = int(k)
    return v[i] + (v[min(i + 1, len(v) - 1)] - v[i]) * (k - i)
print("cube %s^3 nodes, cg rtol 1e-8 (unpreconditioned norm), K = 2, %d repetitions (rotated order); solve = KSPSolve (set-up excluded), error = max-norm vs the exact solution" % (n, reps))
for np_ in nps:
    for nu in ("0.3", "0.45", "0.49"):
        res = {}
        for r in range(reps):
            order = pcs[r % len(pcs):] + pcs[:r % len(pcs)]
            for label, opts in order:
                cmd = ["mpiexec", "-n", np_, exe, "-test", "solve", "-cube_n", n, "-cube_nu", nu, "-info", ":pc", "-s_ksp_norm_type", "unpreconditioned"] + opts.split()
                out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True).stdout
                m = re.search(r"iterations (\d+) reason (\S+) error (\S+) time (\S+) s setup (\S+) s", out)
                e = re.search(r"set-up (\S+) s, of which the eigenvalue estimate (\S+) s", out)
                d = res.setdefault(label, dict(its=None, reason=None, t=[], su=[], est=[], pcsu=[]))
                if not m:
                    d["reason"] = "ERROR"
                    continue
                d["its"], d["reason"], d["err"] = int(m.group(1)), m.group(2), float(m.group(3))
                d["t"].append(float(m.group(4))); d["su"].append(float(m.group(5)))
                if e:
                    d["pcsu"].append(float(e.group(1))); d["est"].append(float(e.group(2)))
        ref = statistics.median(res["bjacobi+icc"]["t"]) if res["bjacobi+icc"]["t"] else None
        print("\n%s rank(s), nu %s" % (np_, nu))
        print("%-16s %6s %-24s %9s %10s %10s %8s %10s %24s" % ("PC", "its", "reason", "error", "solve s", "IQR", "vs bjac", "setup s", "estimate / PCSetUp s"))
        for label, _ in pcs:
            d = res[label]
            if not d["t"]:
                print("%-16s %6s %-24s" % (label, "-", d["reason"])); continue
            med = statistics.median(d["t"]); iqr = q(d["t"], .75) - q(d["t"], .25)
            est = "%.4f / %.4f" % (statistics.median(d["est"]), statistics.median(d["pcsu"])) if d["est"] else ""
            print("%-16s %6d %-24s %9.1e %10.4f %10.4f %8.2f %10.4f %24s" % (label, d["its"], d["reason"], d["err"], med, iqr, med / ref if ref else float("nan"), statistics.median(d["su"]), est))
EOF
