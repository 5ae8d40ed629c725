#!/usr/bin/python3
"""petsc4py loads libpipeksp with -dll_append; each of our KSP types solves a 1D Laplacian like cg."""
import sys, petsc4py
petsc4py.init(['-dll_append', sys.argv[1]])
from petsc4py import PETSc
n = 50
A = PETSc.Mat().createAIJ([n, n], nnz=3)
for i in range(n):
    A[i, i] = 2.0
    if i > 0: A[i, i-1] = -1.0
    if i < n-1: A[i, i+1] = -1.0
A.assemble()
b = A.createVecLeft(); b.set(1.0); x = b.duplicate()
its = {}
for t in ['cg', 'pipegropp', 'pipegv', 'chrongear']:
    k = PETSc.KSP().create(); k.setOperators(A); k.setType(t); k.getPC().setType('jacobi'); k.setTolerances(rtol=1e-10)
    k.setFromOptions(); x.set(0); k.solve(b, x); its[t] = (k.getIterationNumber(), k.getConvergedReason()); k.destroy()
print(its)
ok = all(abs(v[0] - its['cg'][0]) <= 2 and v[1] > 0 for v in its.values())
print("all checks passed" if ok else "FAIL")
sys.exit(0 if ok else 1)
