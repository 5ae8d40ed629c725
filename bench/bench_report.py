#!/usr/bin/python3
"""Aggregate bench.sh's per-solve CSV (EMULATED reduction latency, see bench/README.md).

Per (PC, P_sim, solver): seconds per iteration (median with its IQR, minimum), speedup per iteration vs
PETSc cg of the SAME run and repetition (median of the per-repetition ratios with their IQR, and the
ratio of the minima), the hidden fraction of the emulated reduction latency (median with IQR), and the
per-iteration split into compute, exposed and hidden reduction time, and "x limit": seconds per iteration over
the latency-free limit, PETSc cg's median with the same PC at P_sim 1 in the same bench run (1.00 = the limit;
n/a when the run has no P_sim 1 row for that PC). Checks that each identical twin
("X-again", same options as X) agrees with X within the noise band. Writes summary.csv, speedup.png and
breakdown.png, prints the tables.
usage: bench_report.py <bench.csv> <outdir>   (reads <bench>.meta, written by bench.sh, when present)

To add a solver: bench.sh's lists give the labels; a label in PETSC_SOLVERS is drawn as PETSc's (grey,
dashed), every other one as ours; SOLVER_COLOURS/POLICY_MARKERS give new ones a style of their own.
"""
import csv
import os
import statistics
import sys
from collections import defaultdict

PETSC_SOLVERS = ("cg", "groppcg", "pipecg", "pipecgrr", "pipelcg")  # PETSc's own KSPs; cg is the baseline
BASELINE = "cg"
TWIN_SUFFIX = "-again"  # "X-again": same options as X, run in the same repetitions
NOISY = 0.25  # a relative IQR above this makes even an agreeing twin a weak check
SOLVER_COLOURS = {"chrongear": "tab:red", "pipegropp": "tab:green", "pipegv": "tab:blue", "pipeplcg": "tab:orange"}
LIMIT_PSIM = 1  # the latency-free limit: cg's time per iteration at this P_sim, same PC, same run
LIMIT_LABEL = "cg-limit"  # cg with the emulator off in the same launch (bench_cube -bench_latency_free): the paired limit
GOAL = 1.05  # the target: ours within 5 % of the latency-free limit
DEFAULTS = ("pipeplcg", "pipegv-auto")  # ours with default options (auto is pipegv's default progress policy)
MAIN = ("cg", "pipecg", "pipelcg") + DEFAULTS  # speedup.png: what a user compares; the rest in speedup_all.png
POLICY_MARKERS = {"": "o", "AR": "s", "none": "v", "poll": "o", "thread": "^", "auto": "D"}
NOT_DRAWN = {"-auto": "runs poll or none, as chosen at set-up (see the tables)"}


def quartiles(v):
    """(q1, median, q3), linear interpolation between order statistics (the driver's definition)."""
    v = sorted(v)
    if len(v) == 1:
        return v[0], v[0], v[0]
    q = statistics.quantiles(v, n=4, method="inclusive")
    return q[0], q[1], q[2]


def read_meta(src):
    meta = {}
    path = os.path.splitext(src)[0] + ".meta"
    if os.path.exists(path):
        for line in open(path):
            if "=" in line:
                k, v = line.rstrip("\n").split("=", 1)
                meta[k] = v
    return meta


def is_petsc(label):
    return label in PETSC_SOLVERS


def aux(label):
    """The reference runs that are not solvers of the tables and plots: identical twins and the limit."""
    return label.endswith(TWIN_SUFFIX) or label == LIMIT_LABEL


def split_label(label):
    """'pipegv-poll' -> ('pipegv', 'poll'); 'chrongear' -> ('chrongear', '')."""
    base, _, pol = label.partition("-")
    return (base, pol) if pol in POLICY_MARKERS else (label, "")


def summarise(rows, ranks):
    per = defaultdict(dict)  # (pc, psim, label) -> rep -> row
    bad = set()
    for r in rows:
        key = (r["pc"], int(r["psim"]), r["label"])
        if r["ok"] != "1":
            bad.add(key)
            continue
        per[key][int(r["rep"])] = r
    summary = {}
    for key, reps in per.items():
        pc, psim, label = key
        spi = {rep: float(r["seconds_per_it"]) for rep, r in reps.items()}
        cg = {rep: float(r["seconds_per_it"]) for rep, r in per.get((pc, psim, BASELINE), {}).items()}
        ratios = [cg[rep] / spi[rep] for rep in spi if rep in cg and spi[rep] > 0]
        hid = [float(r["hidden"]) for r in reps.values() if float(r["hidden"]) >= 0]
        # per iteration and rank: the emulator's sums are over ranks; wall time is the slowest rank's
        exposed, model, compute = [], [], []
        for r in reps.values():
            its = int(r["its"])
            if its <= 0:
                continue
            e = float(r["red_exposed_s"]) / (ranks * its)
            m = float(r["red_model_s"]) / (ranks * its)
            exposed.append(e)
            model.append(m)
            compute.append(float(r["seconds_per_it"]) - e)
        q1, med, q3 = quartiles(list(spi.values()))
        s = {"pc": pc, "psim": psim, "label": label,
             "its": "/".join(str(i) for i in sorted({int(r["its"]) for r in reps.values()})),
             "reps": len(spi),
             "min_us_per_it": 1e6 * min(spi.values()),
             "median_us_per_it": 1e6 * med, "iqr_us_per_it": 1e6 * (q3 - q1),
             "speedup_vs_cg_median": float("nan"), "speedup_q1": float("nan"), "speedup_q3": float("nan"),
             "speedup_vs_cg_of_min": (min(cg.values()) / min(spi.values())) if cg else float("nan"),
             "x_limit": float("nan"), "x_limit_iqr": float("nan"), "x_limit_q1": float("nan"), "x_limit_q3": float("nan"),
             "hidden_median": float("nan"), "hidden_iqr": float("nan"),
             "compute_us": 1e6 * statistics.median(compute) if compute else float("nan"),
             "exposed_us": 1e6 * statistics.median(exposed) if exposed else float("nan"),
             "hidden_us": 1e6 * max(0.0, statistics.median(model) - statistics.median(exposed)) if model else float("nan"),
             "correct": "no" if key in bad else "yes"}
        if ratios:
            s["speedup_q1"], s["speedup_vs_cg_median"], s["speedup_q3"] = quartiles(ratios)
        if hid:
            h1, hm, h3 = quartiles(hid)
            s["hidden_median"], s["hidden_iqr"] = hm, h3 - h1
        summary[key] = s
    # x limit: paired, against cg with the emulator off in the same launch and repetition (LIMIT_LABEL): the
    # median and IQR of the per-repetition ratios, which the VM's drift between launches does not reach; else
    # against the median of cg at P_sim 1 with the same PC (another mpiexec: its band is the IQR over the limit)
    for (pc, psim, label), s in summary.items():
        lim = summary.get((pc, LIMIT_PSIM, BASELINE))
        paired = per.get((pc, psim, LIMIT_LABEL), {})
        mine = per.get((pc, psim, label), {})
        pr = [float(mine[rep]["seconds_per_it"]) / float(paired[rep]["seconds_per_it"]) for rep in mine
              if rep in paired and float(paired[rep]["seconds_per_it"]) > 0]
        if pr:
            q1, m, q3 = quartiles(pr)
            s["x_limit"], s["x_limit_iqr"], s["x_limit_q1"], s["x_limit_q3"] = m, q3 - q1, q1, q3
        elif lim and lim["median_us_per_it"] > 0:
            s["x_limit"] = s["median_us_per_it"] / lim["median_us_per_it"]
            s["x_limit_iqr"] = s["iqr_us_per_it"] / lim["median_us_per_it"]
            s["x_limit_q1"] = max(0.0, s["x_limit"] - s["x_limit_iqr"] / 2)
            s["x_limit_q3"] = s["x_limit"] + s["x_limit_iqr"] / 2
    return summary, bad


def fmt_limit(s):
    return "   n/a        " if s["x_limit"] != s["x_limit"] else "%6.3f [%5.3f]" % (s["x_limit"], s["x_limit_iqr"])


def fmt_hidden(s):
    return "    n/a       " if s["hidden_median"] != s["hidden_median"] else "%6.3f [%5.3f]" % (s["hidden_median"], s["hidden_iqr"])


def main():
    src, outdir = sys.argv[1], sys.argv[2]
    meta = read_meta(src)
    ranks = int(meta.get("ranks", "1"))
    rows = [r for r in csv.DictReader(open(src))]
    order = meta.get("labels", "").split()
    for r in rows:  # labels not in the meta file (older CSV): first appearance
        if r["label"] not in order:
            order.append(r["label"])
    order = [l for l in order if not aux(l)] + [l for l in order if aux(l)]
    summary, bad = summarise(rows, ranks)
    keys = sorted(summary, key=lambda k: (k[0], k[1], order.index(k[2])))

    out = os.path.join(outdir, "summary.csv")
    with open(out, "w", newline="") as f:
        fields = list(summary[keys[0]].keys()) if keys else ["pc"]
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for k in keys:
            w.writerow(summary[k])
    for k in sorted(bad - set(summary)):
        print("FAILED (wrong answer or not converged): %s P_sim %d %s" % k)

    print("\nEMULATED reduction latency (%s ranks, cube %s^3, rtol %s, alpha %s us/hop, jitter %s us/hop)." %
          (meta.get("ranks", "?"), meta.get("cube_n", "?"), meta.get("rtol", "?"), meta.get("alpha_us", "?"), meta.get("jitter_us", "?")))
    print("us/it: median [IQR] and minimum over repetitions; speedup per iteration vs PETSc cg in the same run and")
    print("repetition: median [IQR] of the per-repetition ratios, and the ratio of the minima; hidden: share of the")
    print("modelled reduction latency not paid in waits, median [IQR] (blocking reductions count as fully exposed;")
    print("n/a: P_sim 1, no emulated latency to hide). Split per iteration and rank (medians): compute = wall -")
    print("exposed; exposed and hidden reduction time from the emulator's model. x limit: us/it over PETSc cg's with the")
    print("emulator off in the same launch and repetition (%s), median [IQR] of the per-repetition ratios: the" % LIMIT_LABEL)
    print("latency-free limit is 1.00 (without a %s row: over cg's median at P_sim 1, [IQR over the limit]);" % LIMIT_LABEL)
    print("speedup is against cg at the same P_sim, x limit against cg without latency: what is left to win.")
    for k, v in sorted(meta.items()):
        if k.startswith("skipped_"):
            print("PC %s not benchmarked: %s" % (k[len("skipped_"):], v))
    if meta.get("amg_rows"):
        print("AMG rows (%s)." % meta["amg_rows"])
    pcs = sorted({k[0] for k in keys})
    for pc in pcs:
        for psim in sorted({k[1] for k in keys if k[0] == pc}):
            print("\n%s, P_sim %d%s" % (pc, psim, " (no emulated latency)" if psim == 1 else ""))
            print("  %-16s %5s %17s %8s %17s %7s %14s %14s %8s %8s %8s" % (
                "solver", "its", "med [IQR] us/it", "min us", "speedup [IQR]", "spd min", "x limit [IQR]", "hidden [IQR]",
                "comp us", "expo us", "hid us"))
            for k in keys:
                if k[0] != pc or k[1] != psim:
                    continue
                s = summary[k]
                print("  %-16s %5s %8.1f [%6.1f] %8.1f %7.3f [%7.3f] %7.3f %14s %14s %8.1f %8.1f %8.1f" % (
                    s["label"], s["its"], s["median_us_per_it"], s["iqr_us_per_it"], s["min_us_per_it"], s["speedup_vs_cg_median"],
                    s["speedup_q3"] - s["speedup_q1"], s["speedup_vs_cg_of_min"], fmt_limit(s), fmt_hidden(s), s["compute_us"],
                    s["exposed_us"], s["hidden_us"]))
            # identical twins: the same options twice in one run must agree within the noise band
            for k in keys:
                if k[0] == pc and k[1] == psim and k[2].endswith(TWIN_SUFFIX):
                    a, b = summary.get((pc, psim, k[2][: -len(TWIN_SUFFIX)])), summary[k]
                    if not a:
                        continue
                    band = max(0.01, a["iqr_us_per_it"] / a["median_us_per_it"], b["iqr_us_per_it"] / b["median_us_per_it"])
                    ratio = b["median_us_per_it"] / a["median_us_per_it"]
                    verdict = ("DISAGREE: this row's ratios are not trustworthy" if abs(ratio - 1) > band else
                               "agree, but the band is wider than %.2f: the machine was loaded, only large differences count" % NOISY
                               if band > NOISY else "agree")
                    print("  identical twin %s / %s: ratio of medians %.3f, noise band +-%.3f: %s" % (b["label"], a["label"], ratio, band, verdict))
    get = summary
    for pc in pcs:
        top = max(k[1] for k in keys if k[0] == pc)
        gv, pcg = get.get((pc, top, "pipegv-poll")), get.get((pc, top, "pipecg"))
        print("\n%s, P_sim %d (EMULATED):" % (pc, top))
        for d in DEFAULTS:
            s = get.get((pc, top, d))
            if not s or s["speedup_vs_cg_median"] != s["speedup_vs_cg_median"]:
                continue
            eff, iqr = abs(s["speedup_vs_cg_median"] - 1), s["speedup_q3"] - s["speedup_q1"]
            if iqr < eff:
                print("  %s (default options) vs PETSc cg: %.2fx [IQR %.2f-%.2f] (median of ratios), %.2fx (ratio of minima)"
                      % (d, s["speedup_vs_cg_median"], s["speedup_q1"], s["speedup_q3"], s["speedup_vs_cg_of_min"]))
            else:
                print("  %s (default options) vs PETSc cg: no headline, its IQR (%.2f) is wider than its effect (%.2f)" % (d, iqr, eff))
        if gv and pcg:
            print("  detail: pipegv+poll vs PETSc cg: %.2fx [IQR %.2f-%.2f] (median of ratios), %.2fx (ratio of minima)"
                  % (gv["speedup_vs_cg_median"], gv["speedup_q1"], gv["speedup_q3"], gv["speedup_vs_cg_of_min"]))
            print("  pipegv+poll vs PETSc pipecg: median %.1f [%.1f] vs %.1f [%.1f] us/it, min %.1f vs %.1f us/it"
                  % (gv["median_us_per_it"], gv["iqr_us_per_it"], pcg["median_us_per_it"], pcg["iqr_us_per_it"], gv["min_us_per_it"], pcg["min_us_per_it"]))
        for k in [l for l in order if not is_petsc(l) and not aux(l)]:
            if (pc, top, k) in get:
                s = get[(pc, top, k)]
                print("  hidden fraction %-16s %s" % (k, fmt_hidden(s)))
        h = ["%s %s" % (k, fmt_hidden(get[(pc, top, k)]).strip()) for k in PETSC_SOLVERS if (pc, top, k) in get]
        print("  hidden fraction PETSc: %s" % ", ".join(h))
    print_limit_table(get, keys, order, pcs)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no plots")
        return
    title = ("EMULATED reduction latency, not a cluster measurement: %s ranks, cube %s$^3$ nodes, rtol %s, "
             "$\\alpha$ = %s us/hop, jitter %s us/hop, %s repetitions" %
             (meta.get("ranks", "?"), meta.get("cube_n", "?"), meta.get("rtol", "?"), meta.get("alpha_us", "?"),
              meta.get("jitter_us", "?"), meta.get("reps", "?")))
    main_set = [l for l in order if l in MAIN]
    png = plot_speedup(plt, summary, keys, main_set, pcs, title, outdir, "speedup.png",
                       "PETSc cg, pipecg, pipelcg and ours with default options; every other configuration: speedup_all.png")
    rest = [BASELINE] + [l for l in order if l not in MAIN and not aux(l)]
    plot_speedup(plt, summary, keys, rest, pcs, title, outdir, "speedup_all.png", "the other configurations (the main ones: speedup.png)")
    png2 = plot_breakdown(plt, summary, keys, order, pcs, title, outdir)
    print("\nwrote %s, %s and %s" % (out, png, png2))


def print_limit_table(summary, keys, order, pcs):
    """The x limit of every configuration: per PC, one row per solver, one column per P_sim."""
    if not any(summary[k]["x_limit"] == summary[k]["x_limit"] for k in keys):
        print("\nx limit: no P_sim %d row in this run, no limit to compare with" % LIMIT_PSIM)
        return
    print("\nx limit (EMULATED for P_sim > 1): us/it / PETSc cg's with no emulated latency, in the same launch and repetition"
          " (%s),\nmedian [IQR] of the per-repetition ratios; 1.00 = the latency-free limit, goal <= %.2f; '-': not run" % (LIMIT_LABEL, GOAL))
    for pc in pcs:
        psims = sorted({k[1] for k in keys if k[0] == pc})
        labels = [l for l in order if not aux(l) and any((pc, p, l) in summary for p in psims)]
        print("  %-18s" % ("PC " + pc) + "".join(" %15s" % ("P_sim %d" % p) for p in psims))
        for l in labels:
            cells = []
            for p in psims:
                s = summary.get((pc, p, l))
                cells.append(" %15s" % ("-" if not s or s["x_limit"] != s["x_limit"] else "%.2f [%.2f]" % (s["x_limit"], s["x_limit_iqr"])))
            print("  %-18s" % (("PETSc " if is_petsc(l) else "") + l) + "".join(cells))
        # the goal is about ours with default options: where a row misses it, by how much
        miss = ["%s at P_sim %d by %.2f" % (l, p, summary[(pc, p, l)]["x_limit"] - GOAL) for l in DEFAULTS for p in psims
                if (pc, p, l) in summary and summary[(pc, p, l)]["x_limit"] > GOAL]
        met = [l for l in DEFAULTS if any((pc, p, l) in summary for p in psims)]
        if met:
            print("  goal <= %.2f for ours with default options (%s): %s" % (GOAL, ", ".join(met), "misses " + "; ".join(miss) if miss else "met everywhere"))


def style(label):
    base, pol = split_label(label)
    if is_petsc(label):
        # cg darker than PETSc's pipelined KSPs, and a marker of each its own: they share the grey dashes
        return dict(color="black" if label == BASELINE else "0.4", linestyle="--",
                    marker={"groppcg": "s", "pipecg": "v", BASELINE: "D"}.get(label, "x"), markerfacecolor="white")
    return dict(color=SOLVER_COLOURS.get(base, "tab:purple"), linestyle="-", marker=POLICY_MARKERS.get(pol, "o"),
                alpha=0.55 if pol == "AR" else 1.0)


def plot_speedup(plt, summary, keys, order, pcs, title, outdir, name, what):
    """Top row: speedup per iteration vs cg at the same P_sim; bottom row: x limit (vs cg at P_sim 1)."""
    left_out = {l for l in order if aux(l)}
    fig, axes = plt.subplots(2, len(pcs), figsize=(7.5 * len(pcs), 10.4), squeeze=False)
    for col, pc in enumerate(pcs):
        psims = sorted({k[1] for k in keys if k[0] == pc})
        emu = [p for p in psims if p > 1]
        # P_sim = 1 (no emulated latency) sits apart, left of a break, at a quarter of the first emulated P_sim
        x1 = (emu[0] / 4.0) if emu else 1.0
        xpos = {p: (p if p > 1 else x1) for p in psims}
        meds = {}
        for ax, metric in ((axes[0][col], "speedup"), (axes[1][col], "limit")):
            for label in order:
                # cg is the baseline of the speedup (1.0 by definition) but a curve of its own against the limit;
                # the limit row draws the -auto runs too: they are the default options the goal is about
                if aux(label) or (metric == "speedup" and (label in left_out or label == BASELINE)):
                    continue
                pts = [(xpos[k[1]], summary[k]) for k in keys if k[0] == pc and k[2] == label]
                if metric == "limit":
                    pts = [(x, s) for x, s in pts if s["x_limit"] == s["x_limit"]]
                if not pts:
                    continue
                xs = [x for x, _ in pts]
                if metric == "speedup":
                    ys = [s["speedup_vs_cg_median"] for _, s in pts]
                    lo = [s["speedup_vs_cg_median"] - s["speedup_q1"] for _, s in pts]
                    hi = [s["speedup_q3"] - s["speedup_vs_cg_median"] for _, s in pts]
                else:
                    ys = [s["x_limit"] for _, s in pts]
                    # quartiles of the ratios of positive times: never below 0
                    lo = [max(0.0, s["x_limit"] - s["x_limit_q1"]) for _, s in pts]
                    hi = [max(0.0, s["x_limit_q3"] - s["x_limit"]) for _, s in pts]
                st = style(label)
                # the line joins emulated points only; the P_sim = 1 point stands alone
                e = [i for i, (x, _) in enumerate(pts) if x != x1]
                meds.setdefault(metric, []).extend(ys)
                ax.errorbar([xs[i] for i in e], [ys[i] for i in e], yerr=[[lo[i] for i in e], [hi[i] for i in e]], capsize=2,
                            label=("PETSc " if is_petsc(label) else "ours: ") + label, markersize=5, linewidth=1.2, **st)
                o = [i for i, (x, _) in enumerate(pts) if x == x1]
                if o:
                    st1 = dict(st)
                    st1.pop("linestyle")
                    ax.errorbar([xs[i] for i in o], [ys[i] for i in o], yerr=[[lo[i] for i in o], [hi[i] for i in o]], capsize=2,
                                linestyle="none", markersize=5, **st1)
            if metric == "speedup":
                ax.axhline(1.0, color="black", linewidth=1.0, linestyle=":", label="PETSc cg = 1.0 (baseline)")
                ax.set_ylabel("speedup per iteration vs PETSc cg (higher is better)")
                ax.set_title("PC %s" % pc)
            else:
                ax.axhline(1.0, color="black", linewidth=1.0, linestyle=":", label="1.0 = the limit (cg, emulator off, same launch)")
                ax.axhline(GOAL, color="tab:green", linewidth=0.8, linestyle="--", label="goal %.2f" % GOAL)
                ax.set_ylabel("x limit: us/it over cg's without latency (lower is better)")
                ax.set_title("PC %s: distance to the latency-free limit" % pc)
            ax.set_xscale("log", base=2)
            if emu:
                ax.axvline(x1 * 2, color="0.6", linewidth=0.8, linestyle="-.")
                ax.set_xticks([x1] + emu)
                ax.set_xticklabels(["1\n(no latency)"] + [str(p) for p in emu])
                ax.set_xlim(x1 / 1.6, emu[-1] * 1.4)
            ax.set_xlabel("emulated nodes P_sim (R = log2 P_sim reduction rounds)")
            # the y-range from the medians, not from the bars of noisy rows (those are clipped)
            m = [v for v in meds.get(metric, []) if v == v] + [1.0]
            ax.set_ylim(max(0.0, min(m) - 0.15 * (max(m) - min(m) + 0.2)), max(m) + 0.25 * (max(m) - min(m) + 0.2))
            ax.grid(True, which="major", axis="y", color="0.9")
    notes = [what, "points: medians of the per-repetition ratios, bars: their IQR; x limit: us/it over PETSc cg's with the emulator off in the same launch and repetition",
             "y-range from the medians: a bar beyond it is clipped"]
    notes += ["cg-again: cg run twice, the noise check; all rows in summary.csv and the printed tables. Grey dashed: PETSc's KSPs; colour: ours."]
    # one legend for the figure, below the panels: inside them it covered curves
    seen = {}
    for ax in axes.flat:
        for h, l in zip(*ax.get_legend_handles_labels()):
            seen.setdefault(l, h)
    ncol = min(len(seen), 7)
    rows = -(-len(seen) // ncol)
    fig.legend(list(seen.values()), list(seen), loc="lower center", ncol=ncol, fontsize=9, bbox_to_anchor=(0.5, 0.03))
    fig.suptitle(title, fontsize=11)
    fig.text(0.01, 0.01, "; ".join(notes), fontsize=8)
    fig.tight_layout(rect=(0, 0.04 + 0.028 * rows, 1, 0.97))
    png = os.path.join(outdir, name)
    fig.savefig(png, dpi=110)
    plt.close(fig)
    return png


def plot_breakdown(plt, summary, keys, order, pcs, title, outdir):
    fig, axes = plt.subplots(1, len(pcs), figsize=(7.5 * len(pcs), 5.2), squeeze=False)
    for ax, pc in zip(axes[0], pcs):
        top = max(k[1] for k in keys if k[0] == pc)
        labels = [l for l in order if (pc, top, l) in summary and not aux(l)]
        comp = [summary[(pc, top, l)]["compute_us"] for l in labels]
        expo = [summary[(pc, top, l)]["exposed_us"] for l in labels]
        hid = [summary[(pc, top, l)]["hidden_us"] for l in labels]
        x = range(len(labels))
        ax.bar(x, comp, color="0.7", label="compute (wall time - exposed reduction)")
        ax.bar(x, expo, bottom=comp, color="tab:red", label="exposed reduction (paid in waits)")
        ax.bar(x, hid, bottom=[c + e for c, e in zip(comp, expo)], color="white", edgecolor="tab:green", hatch="///",
               label="hidden reduction (overlapped: not paid)")
        ax.set_xticks(list(x))
        ax.set_xticklabels([("PETSc " if is_petsc(l) else "") + l for l in labels], rotation=60, ha="right", fontsize=7)
        ax.set_ylabel("us per iteration and rank (medians over repetitions)")
        ax.set_title("PC %s, P_sim %d: where an iteration's time goes" % (pc, top))
        ax.legend(fontsize=7)
    fig.suptitle(title, fontsize=9)
    fig.text(0.01, 0.01, "bar height up to the hatch = wall time per iteration; the hatched part is latency the model charged and the "
             "solver kept off the critical path. Exposed/hidden from the emulator's model (averaged over ranks).", fontsize=7)
    fig.tight_layout(rect=(0, 0.04, 1, 0.96))
    png = os.path.join(outdir, "breakdown.png")
    fig.savefig(png, dpi=110)
    plt.close(fig)
    return png


if __name__ == "__main__":
    main()
