"""Runs the petsc4py example of the top-level README.md as a user would paste it, then checks its result:
converged, error against the exact cube solution, and that the poll policy really polled."""
import re
import sys

readme = open(sys.argv[1]).read()
blocks = re.findall(r"```python\n(.*?)```", readme, re.S)
assert len(blocks) == 1, "README.md should hold exactly one python example, found %d" % len(blocks)
lines = [l for l in blocks[0].splitlines() if l.strip()]
assert len(lines) <= 12, "the README example grew to %d lines" % len(lines)
env = {}
exec(compile(blocks[0], "README.md example", "exec"), env)
ksp, cube, x, pipeksp = env["ksp"], env["cube"], env["x"], env["pipeksp"]
assert ksp.getConvergedReason() > 0, ksp.getConvergedReason()
err = cube.error(x)
assert err < 1e-6, err
stats = pipeksp.get_stats(ksp)
assert stats["reductions"] == ksp.getIterationNumber() + 1 and stats["polls"] > 0, stats
env["PETSc"].Sys.Print("README example: %d iterations, error %.1e: OK" % (ksp.getIterationNumber(), err))
for obj in (x, ksp):
    obj.destroy()
cube.destroy()
