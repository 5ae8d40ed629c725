#!/usr/bin/python3
"""A pipelined KSP inside the PC of another one (-pc_type ksp), on PETSc's ex2 with -dll_append: the outer
solve has a reduction pending while the inner solve starts and waits for its own. Each pair must converge
like cg inside cg (iterations within +-2, error at cg's level), and -ksp_view must show that the poll hook
drove both engines: MPI_Test polls > 0 for the outer one (after the inner solve ended) and the inner one
(while the outer reduction was pending). Prints FAIL lines and exits 1 on a mismatch."""
import os
import re
import shutil
import tempfile
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import dllappend  # noqa: E402

ap = dllappend.parser(2)
a = ap.parse_args()

# the inner solve is tight enough to act as a fixed linear preconditioner (the pipelined recurrences
# assume one); poll with a zero interval so that every poll point tests
base = ["-m", "30", "-n", "30", "-pc_type", "ksp", "-ksp_ksp_rtol", "1e-4", "-ksp_rtol", "1e-8",
        "-ksp_converged_reason", "-ksp_view"]
pairs = [("cg", "cg"), ("pipegv", "pipegv"), ("pipegropp", "pipegv"), ("pipegv", "pipegropp"),
         ("pipeplcg", "pipegv"), ("pipegv", "pipeplcg")]
fails = 0
ref = None
for outer, inner in pairs:
    opts = ["-ksp_type", outer, "-ksp_ksp_type", inner] + base
    for pre, t in (("-ksp_", outer), ("-ksp_ksp_", inner)):
        if t != "cg":
            opts += [pre + "pipe_progress", "poll", pre + "pipe_poll_interval", "0"]
        if t == "pipeplcg":  # a basis pipeline to nest: auto, the default, chooses depth 0 (Gropp's CG) on one node
            opts += [pre + "pipe_depth", "2"]
    p = dllappend.run(a, opts)
    out = p.stdout
    m = re.search(r"Linear solve converged due to (\S+) iterations (\d+)", out)
    e = re.search(r"Norm of error (\S+)", out)
    label = "%-9s in %-9s" % (inner, outer)
    if p.returncode != 0 or not m or not e:
        print("%s FAIL: did not converge (rc %d)\n%s" % (label, p.returncode, out[-3000:]))
        fails += 1
        continue
    its, err = int(m.group(2)), float(e.group(1))
    # -ksp_view: the outer KSP's counters first, then the inner one's (inside the PC's view)
    polls = [int(x) for x in re.findall(r"last solve: reductions \d+, MPI_Test polls (\d+)", out)]
    print("%s its %3d %s error %.3e polls outer/inner %s" % (label, its, m.group(1), err, polls))
    if ref is None:
        ref = (its, err)
        continue
    if abs(its - ref[0]) > 2:
        print("  FAIL: %d iterations vs cg in cg %d" % (its, ref[0]))
        fails += 1
    if err > 100 * ref[1] + 1e-8:
        print("  FAIL: error %g vs cg in cg %g" % (err, ref[1]))
        fails += 1
    want = (outer != "cg") + (inner != "cg")
    if len(polls) != want or min(polls) <= 0:
        print("  FAIL: expected %d engines with MPI_Test polls > 0, -ksp_view shows %s" % (want, polls))
        fails += 1

# the stack itself (-info's "reduction stack:" lines, per rank): pipegv in pipegv must reach depth 2 (the
# inner engine pushed while the outer one is pending), every depth-2 push is popped from the top before the
# next one, and the stack is empty at the end
cmd = dllappend.command(a, ["-ksp_type", "pipegv", "-ksp_ksp_type", "pipegv", "-ksp_pipe_progress", "poll",
                           "-ksp_ksp_pipe_progress", "poll"] + base[:-1])
tmp = tempfile.mkdtemp()
# one -info file per rank (info.<rank>): lines of two ranks on one stdout may interleave
subprocess.run(cmd + ["-info", os.path.join(tmp, "info")], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, timeout=120)
for rank in range(a.n):
    with open(os.path.join(tmp, "info.%d" % rank)) as f:
        out = f.read()
    ev = re.findall(r"^\[%d\] .*reduction stack: (push|pop) (\S+)(?: \((top|below the top)\))?, depth (\d+)" % rank, out, re.M)
    depth, maxd, bad = 0, 0, []
    for kind, eng, where, d in ev:
        depth += 1 if kind == "push" else -1
        maxd = max(maxd, depth)
        if int(d) != depth:
            bad.append("depth %s reported, %d counted" % (d, depth))
        if kind == "pop" and where != "top":
            bad.append("pop of %s below the top in a clean nested solve" % eng)
    print("rank %d: %d stack events, max depth %d, final depth %d" % (rank, len(ev), maxd, depth))
    if not ev or maxd != 2 or depth != 0 or bad:
        print("  FAIL: stack not nested as expected: %s" % "; ".join(bad[:3]))
        fails += 1
shutil.rmtree(tmp)

dllappend.finish(fails, "run(s)")
