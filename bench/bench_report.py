#!/usr/bin/python3
"""Aggregate bench.sh's per-solve CSV: seconds per iteration (min / median over repetitions), speedup
per iteration vs PETSc cg of the SAME run and repetition (median of the per-repetition ratios, and
the ratio of the minima), fraction of the emulated reduction latency hidden; writes summary.csv and
speedup.png, prints the table. usage: bench_report.py <bench.csv> <outdir>"""
import csv
import os
import statistics
import sys
from collections import defaultdict


def main():
    src, outdir = sys.argv[1], sys.argv[2]
    rows = [r for r in csv.DictReader(open(src))]
    spi = defaultdict(dict)      # (pc, psim, label) -> rep -> seconds/it
    hid = defaultdict(list)
    its = defaultdict(set)
    bad = set()
    for r in rows:
        key = (r["pc"], int(r["psim"]), r["label"])
        if r["ok"] != "1":
            bad.add(key)
            continue
        spi[key][int(r["rep"])] = float(r["seconds_per_it"])
        hid[key].append(float(r["hidden"]))
        its[key].add(int(r["its"]))
    labels = []
    for r in rows:
        if r["label"] not in labels:
            labels.append(r["label"])
    summary = []
    for key in sorted(spi, key=lambda k: (k[0], k[1], labels.index(k[2]))):
        pc, psim, label = key
        v = spi[key]
        cg = spi.get((pc, psim, "cg"), {})
        ratios = [cg[rep] / v[rep] for rep in v if rep in cg and v[rep] > 0]
        summary.append({
            "pc": pc, "psim": psim, "label": label,
            "its": "/".join(str(i) for i in sorted(its[key])),
            "reps": len(v),
            "min_us_per_it": 1e6 * min(v.values()),
            "median_us_per_it": 1e6 * statistics.median(v.values()),
            "speedup_vs_cg_median": statistics.median(ratios) if ratios else float("nan"),
            "speedup_vs_cg_of_min": (min(cg.values()) / min(v.values())) if cg else float("nan"),
            "hidden_median": statistics.median(hid[key]),
            "correct": "no" if key in bad else "yes",
        })
    out = os.path.join(outdir, "summary.csv")
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(summary[0].keys()) if summary else ["pc"])
        w.writeheader()
        for s in summary:
            w.writerow(s)
    for k in sorted(bad - set(spi)):
        print("FAILED (wrong answer or not converged): %s P_sim %d %s" % k)

    print("\nEMULATED reduction latency. us/it: min and median over repetitions; speedup per iteration vs")
    print("PETSc cg in the same run (median of per-repetition ratios | ratio of minima); hidden: share of")
    print("the modelled reduction latency not paid in waits (blocking reductions count as fully exposed).")
    for pc in sorted({s["pc"] for s in summary}):
        for psim in sorted({s["psim"] for s in summary if s["pc"] == pc}):
            print("\n%s, P_sim %d" % (pc, psim))
            print("  %-16s %6s %9s %9s %8s %8s %7s" % ("solver", "its", "min us", "med us", "spd med", "spd min", "hidden"))
            for s in summary:
                if s["pc"] == pc and s["psim"] == psim:
                    print("  %-16s %6s %9.1f %9.1f %8.3f %8.3f %7.3f" % (s["label"], s["its"], s["min_us_per_it"], s["median_us_per_it"],
                                                                      s["speedup_vs_cg_median"], s["speedup_vs_cg_of_min"], s["hidden_median"]))
    # the questions, at the largest P_sim of each PC
    get = {(s["pc"], s["psim"], s["label"]): s for s in summary}
    for pc in sorted({s["pc"] for s in summary}):
        top = max(s["psim"] for s in summary if s["pc"] == pc)
        gv, pcg = get.get((pc, top, "pipegv-poll")), get.get((pc, top, "pipecg"))
        print("\n%s, P_sim %d (EMULATED):" % (pc, top))
        if gv and pcg:
            print("  pipegv+poll vs PETSc cg: %.2fx (median of ratios), %.2fx (ratio of minima); >= 1.3x: %s / %s"
                  % (gv["speedup_vs_cg_median"], gv["speedup_vs_cg_of_min"], "yes" if gv["speedup_vs_cg_median"] >= 1.3 else "no",
                     "yes" if gv["speedup_vs_cg_of_min"] >= 1.3 else "no"))
            print("  pipegv+poll vs PETSc pipecg: min %.1f vs %.1f us/it, median %.1f vs %.1f us/it"
                  % (gv["min_us_per_it"], pcg["min_us_per_it"], gv["median_us_per_it"], pcg["median_us_per_it"]))
        for k in ("pipegv", "pipegropp"):
            h = ["%s %.3f" % (pol, get[(pc, top, k + "-" + pol)]["hidden_median"]) for pol in ("AR", "none", "poll", "thread", "auto")
                 if (pc, top, k + "-" + pol) in get]
            print("  hidden fraction %s: %s" % (k, ", ".join(h)))
        h = ["%s %.3f" % (k, get[(pc, top, k)]["hidden_median"]) for k in ("cg", "chrongear", "groppcg", "pipecg") if (pc, top, k) in get]
        print("  hidden fraction PETSc/anchors: %s" % ", ".join(h))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no plot")
        return
    pcs = sorted({s["pc"] for s in summary})
    fig, axes = plt.subplots(1, len(pcs), figsize=(6.5 * len(pcs), 4.8), squeeze=False)
    show = ["chrongear", "groppcg", "pipecg", "pipegropp-AR", "pipegropp-poll", "pipegv-AR", "pipegv-none", "pipegv-poll", "pipegv-thread"]
    for ax, pc in zip(axes[0], pcs):
        for label in show:
            pts = sorted((s["psim"], s["speedup_vs_cg_median"]) for s in summary if s["pc"] == pc and s["label"] == label)
            if pts:
                ax.plot([p for p, _ in pts], [y for _, y in pts], marker="o", label=label,
                        linestyle="--" if label in ("groppcg", "pipecg", "chrongear") else "-")
        ax.axhline(1.0, color="gray", linewidth=0.8)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("emulated nodes P_sim")
        ax.set_ylabel("speedup per iteration vs PETSc cg (median)")
        ax.set_title("PC %s (EMULATED latency)" % pc)
        ax.legend(fontsize=7)
    fig.tight_layout()
    png = os.path.join(outdir, "speedup.png")
    fig.savefig(png, dpi=110)
    print("\nwrote %s and %s" % (out, png))


if __name__ == "__main__":
    main()
