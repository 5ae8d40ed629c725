static char help[] = "pipeplcg never ends worse than cg: on one SPD problem, cg, pipegv and pipeplcg at\n\
-depths (default 2,3,4,5) in one run, each from x = 0 with the PC and tolerances of the options (-pc_type,\n\
-ksp_rtol). Checks for each depth l: cg's reason; a true residual within 10x cg's; iterations within\n\
1.15 cg's + l for l <= 3, 1.5 cg's + l for l = 4, 5 (-its_factor f: f cg's + l at every depth); with -healthy\n\
also that the depth never drops\n\
(KSPPipeGetStats()'s depth_changes = 0: an input where nothing degrades); with -again a second solve on the\n\
same KSP after A's values change (2A): after an early breakdown it starts at depth 1 and takes no more\n\
iterations than the first nor than cg's within 2% + 2, otherwise it ends at the first solve's depth. Problems (-problem):\n\
  cube    : the GeoFEM/Cube (-cube_n, -cube_nu)\n\
  lap2d   : PETSc's ex2 (5-point Laplacian on -m x -n, b = A 1)\n\
  diag    : tests/ex15's diagonal (-n, -kappa; no PC, natural norm)\n\
  neumann : 3D 7-point Laplacian with Neumann boundaries on a DMDA (-da_grid_*), constant null space\n\
            attached (MatSetNullSpace), b with zero mean\n\
  pcerror : lap2d with a PC that fails at its first application, inside pipeplcg's eigenvalue estimate:\n\
            the error reaches the caller, then the same PC works again, as jacobi, with cg, in a new KSP\n\
  bounds  : unusable intervals are refused (-ksp_pipe_eig_bounds 0,1e100 and 1e-300,1e300, NaN, ratio\n\
            1e16, reversed, negative), usable ones accepted\n\
Exits with an error when a check fails.\n\n";

#include "../common/pipeksptest.h"
#include <petscdmda.h>

/* again: a second solve with the same KSP after A's values changed (A scaled by 2, the same Mat), into *o2 */
static PetscErrorCode Run(Mat A, Vec b, const char *type, PetscInt l, PetscBool diag, TestSolve *o, TestSolve *o2)
{
  KSP       ksp;
  PC        pc;
  PetscBool ours;

  PetscFunctionBeginUser;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, type));
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 20000));
  if (diag) {
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetType(pc, PCNONE));
    PetscCall(KSPSetNormType(ksp, KSP_NORM_NATURAL));
  }
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(PetscStrInList(type, "pipegv,pipeplcg", ',', &ours));
  if (l > 0) PetscCall(KSPPipePLCGSetDepth(ksp, l));
  PetscCall(TestSolveFromZero(ksp, A, b, ours, o));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-9s l=%" PetscInt_FMT " its %5" PetscInt_FMT "  true res %.3e  %-26s restarts %" PetscInt64_FMT ", depth changes %" PetscInt64_FMT ", ended at depth %" PetscInt64_FMT "\n", type, l, o->its, (double)o->res, KSPConvergedReasons[o->reason],
                        o->st.restarts, o->st.depth_changes, o->st.depth));
  if (o2) {
    PetscCall(MatScale(A, 2.0)); /* exact: the same spectrum of M^{-1} A for jacobi, new values */
    PetscCall(TestSolveFromZero(ksp, A, b, ours, o2));
    PetscCall(MatScale(A, 0.5));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  again, 2A: its %5" PetscInt_FMT "  true res %.3e  %-26s restarts %" PetscInt64_FMT ", depth changes %" PetscInt64_FMT ", ended at depth %" PetscInt64_FMT "\n", o2->its, (double)o2->res, KSPConvergedReasons[o2->reason],
                          o2->st.restarts, o2->st.depth_changes, o2->st.depth));
  }
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a shell PC that fails at its first application, then copies */
static PetscInt       napply = 0;
static PetscErrorCode FailFirst(PC pc, Vec x, Vec y)
{
  PetscFunctionBeginUser;
  PetscCheck(++napply != 1, PETSC_COMM_SELF, PETSC_ERR_USER, "planned PC failure");
  PetscCall(VecCopy(x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* one solve with ksp that must succeed (reason > 0) */
static PetscErrorCode MustSolve(KSP ksp, Vec b, const char *what, PetscInt *fails)
{
  Vec                x;
  KSPConvergedReason reason;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(b, &x));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "after the PC error: %-30s -> %s\n", what, KSPConvergedReasons[reason]));
  if (reason <= 0) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL: %s after the PC error: %s\n", what, KSPConvergedReasons[reason]));
    (*fails)++;
  }
  PetscCall(VecDestroy(&x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the PC fails inside the eigenvalue estimate (its first application): afterwards PC and KSP work again */
static PetscErrorCode PCError(Mat A, Vec b, PetscInt *fails)
{
  KSP            ksp, k2;
  PC             pc;
  Vec            x;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPPIPEPLCG));
  PetscCall(KSPPipePLCGSetDepth(ksp, 3));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCSHELL));
  PetscCall(PCShellSetApply(pc, FailFirst));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = KSPSolve(ksp, b, x);
  PetscCall(PetscPopErrorHandler());
  PetscCall(VecDestroy(&x));
  if (!ierr) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL: the planned PC failure did not reach the caller\n"));
    (*fails)++;
  }
  PetscCall(MustSolve(ksp, b, "the same shell PC, pipeplcg", fails));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(MustSolve(ksp, b, "the PC as jacobi, pipeplcg", fails));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(MustSolve(ksp, b, "the PC as jacobi, cg", fails));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &k2));
  PetscCall(KSPSetOperators(k2, A, A));
  PetscCall(KSPSetType(k2, KSPPIPEPLCG));
  PetscCall(KSPSetPC(k2, pc));
  PetscCall(MustSolve(k2, b, "the PC in a new pipeplcg KSP", fails));
  PetscCall(KSPDestroy(&k2));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the interval given through the option: refused (an error) or accepted, as expected */
static PetscErrorCode Bounds(const char *val, PetscBool ok, PetscInt *fails)
{
  KSP            ksp;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetType(ksp, KSPPIPEPLCG));
  PetscCall(PetscOptionsSetValue(NULL, "-ksp_pipe_eig_bounds", val));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = KSPSetFromOptions(ksp);
  PetscCall(PetscPopErrorHandler());
  PetscCall(PetscOptionsClearValue(NULL, "-ksp_pipe_eig_bounds"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "-ksp_pipe_eig_bounds %-12s %s\n", val, ierr ? "refused" : "accepted"));
  if ((ierr == 0) != ok) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL: -ksp_pipe_eig_bounds %s %s\n", val, ok ? "refused" : "accepted"));
    (*fails)++;
  }
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* tests/ex15's diagonal: d_i from 1 to kappa evenly spaced, b_i = 1/2 + sin(1.7 i)/2 */
static PetscErrorCode Diag(Mat *A, Vec *b)
{
  PetscInt  n     = 2000, i, rs, re;
  PetscReal kappa = 1e6;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-kappa", &kappa, NULL));
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n, n, 1, NULL, 0, NULL, A));
  PetscCall(MatGetOwnershipRange(*A, &rs, &re));
  for (i = rs; i < re; i++) PetscCall(MatSetValue(*A, i, i, 1.0 + (kappa - 1.0) * i / (n - 1), INSERT_VALUES));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatCreateVecs(*A, NULL, b));
  for (i = rs; i < re; i++) PetscCall(VecSetValue(*b, i, 0.5 + 0.5 * PetscSinReal(1.7 * i), INSERT_VALUES));
  PetscCall(VecAssemblyBegin(*b));
  PetscCall(VecAssemblyEnd(*b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* 3D 7-point Laplacian, Neumann boundaries (each row sums to zero), the constants as null space, a
   right-hand side with zero mean (consistent), as PETSc's ksp tutorial ex34 */
static PetscErrorCode Neumann(Mat *A, Vec *b)
{
  DM           da;
  MatNullSpace nsp;
  PetscInt     i, j, k, xs, ys, zs, xm, ym, zm, mx, my, mz;
  MatStencil   row, col[7];
  PetscScalar  v[7];
  PetscRandom  rnd;

  PetscFunctionBeginUser;
  PetscCall(DMDACreate3d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, 8, 8, 8, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, NULL, &da));
  PetscCall(DMSetFromOptions(da));
  PetscCall(DMSetUp(da));
  PetscCall(DMCreateMatrix(da, A));
  PetscCall(DMDAGetInfo(da, NULL, &mx, &my, &mz, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
  for (k = zs; k < zs + zm; k++)
    for (j = ys; j < ys + ym; j++)
      for (i = xs; i < xs + xm; i++) {
        PetscInt n              = 0, q;
        row.i                   = i;
        row.j                   = j;
        row.k                   = k;
        const PetscInt nb[6][3] = {
          {i - 1, j,     k    },
          {i + 1, j,     k    },
          {i,     j - 1, k    },
          {i,     j + 1, k    },
          {i,     j,     k - 1},
          {i,     j,     k + 1}
        };
        for (q = 0; q < 6; q++) {
          if (nb[q][0] < 0 || nb[q][0] >= mx || nb[q][1] < 0 || nb[q][1] >= my || nb[q][2] < 0 || nb[q][2] >= mz) continue;
          col[n].i = nb[q][0];
          col[n].j = nb[q][1];
          col[n].k = nb[q][2];
          v[n++]   = -1.0;
        }
        col[n] = row;
        v[n]   = (PetscScalar)n;
        n++;
        PetscCall(MatSetValuesStencil(*A, 1, &row, n, col, v, INSERT_VALUES));
      }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatNullSpaceCreate(PETSC_COMM_WORLD, PETSC_TRUE, 0, NULL, &nsp));
  PetscCall(MatSetNullSpace(*A, nsp));
  PetscCall(DMCreateGlobalVector(da, b));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 28));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(VecSetRandom(*b, rnd));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(MatNullSpaceRemove(nsp, *b));
  PetscCall(MatNullSpaceDestroy(&nsp));
  PetscCall(DMDestroy(&da));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Mat         A;
  Vec         b;
  PipeKSPCube cube        = NULL;
  char        problem[32] = "cube";
  PetscInt    depths[8] = {2, 3, 4, 5}, nd = 8, k, fails = 0;
  PetscBool   flg, diag = PETSC_FALSE, healthy = PETSC_FALSE, again = PETSC_FALSE;
  TestSolve   cg, gv, o, o2;
  PetscReal   itsf = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PipeKSPInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-problem", problem, sizeof(problem), NULL));
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-depths", depths, &nd, &flg));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-healthy", &healthy, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-again", &again, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-its_factor", &itsf, NULL));
  if (!flg) nd = 4;
  if (!strcmp(problem, "cube")) {
    Vec x0;
    PetscCall(TestCubeSystem(PETSC_FALSE, &cube, &A, &b, &x0)); /* A and b are the cube's */
  } else if (!strcmp(problem, "lap2d")) PetscCall(TestLap2D(8, 7, &A, &b));
  else if (!strcmp(problem, "diag")) {
    PetscCall(Diag(&A, &b));
    diag = PETSC_TRUE;
  } else if (!strcmp(problem, "neumann")) PetscCall(Neumann(&A, &b));
  else if (!strcmp(problem, "pcerror")) {
    PetscCall(TestLap2D(8, 7, &A, &b));
    PetscCall(PCError(A, b, &fails));
    nd = -1;
  } else if (!strcmp(problem, "bounds")) {
    PetscCall(Bounds("0,1e100", PETSC_FALSE, &fails));
    PetscCall(Bounds("1e-300,1e300", PETSC_FALSE, &fails));
    PetscCall(Bounds("nan,1", PETSC_FALSE, &fails));
    PetscCall(Bounds("1e-16,1", PETSC_FALSE, &fails));
    PetscCall(Bounds("1,1e-3", PETSC_FALSE, &fails));
    PetscCall(Bounds("-1,1", PETSC_FALSE, &fails));
    PetscCall(Bounds("0,1e50", PETSC_TRUE, &fails));
    PetscCall(Bounds("1e-14,1", PETSC_TRUE, &fails));
    PetscCall(Bounds("0,0", PETSC_TRUE, &fails));
    if (!fails) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "all checks passed\n"));
    PetscCall(PetscFinalize());
    return fails ? 1 : 0;
  } else SETERRQ(PETSC_COMM_WORLD, PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown -problem %s", problem);

  if (nd >= 0) {
    PetscCall(Run(A, b, KSPCG, 0, diag, &cg, NULL));
    PetscCall(Run(A, b, KSPPIPEGV, 0, diag, &gv, NULL));
    PetscCheck(cg.reason > 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "Reference cg did not converge: %s", KSPConvergedReasons[cg.reason]);
  }
  for (k = 0; k < nd; k++) {
    PetscInt  l   = depths[k];
    PetscReal fac = itsf > 0 ? itsf : (l <= 3 ? 1.15 : 1.5);

    PetscCall(Run(A, b, KSPPIPEPLCG, l, diag, &o, again ? &o2 : NULL));
    if (o.reason != cg.reason) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL l=%" PetscInt_FMT ": %s, cg %s\n", l, KSPConvergedReasons[o.reason], KSPConvergedReasons[cg.reason]));
      fails++;
    }
    if (!(o.res <= 10 * cg.res)) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL l=%" PetscInt_FMT ": true residual %.3e > 10x cg's %.3e\n", l, (double)o.res, (double)cg.res));
      fails++;
    }
    if (!(o.its <= fac * cg.its + l)) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL l=%" PetscInt_FMT ": %" PetscInt_FMT " iterations > %.2f x cg's %" PetscInt_FMT " + %" PetscInt_FMT "\n", l, o.its, (double)fac, cg.its, l));
      fails++;
    }
    if (healthy && o.st.depth_changes != 0) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL l=%" PetscInt_FMT ": the depth dropped %" PetscInt64_FMT " times (to %" PetscInt64_FMT ") on an input where nothing degrades\n", l, o.st.depth_changes, o.st.depth));
      fails++;
    }
    if (again && o.st.depth_changes && o.st.depth == 1) {
      /* the early breakdown of the first solve is not paid again: depth 1 from the start, no more
         iterations than the first solve took, and as many as cg's within 2% + 2 (Gropp's CG) */
      if (!(o2.st.depth == 1 && o2.st.depth_changes == 0 && o2.reason == cg.reason && o2.res <= 10 * cg.res && o2.its <= o.its && o2.its <= 1.02 * cg.its + 2)) {
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL l=%" PetscInt_FMT ": the second solve on the same matrices ran %" PetscInt_FMT " iterations (first %" PetscInt_FMT ", cg %" PetscInt_FMT ") at depth %" PetscInt64_FMT " after %" PetscInt64_FMT " changes, %s\n", l, o2.its, o.its, cg.its,
                              o2.st.depth, o2.st.depth_changes, KSPConvergedReasons[o2.reason]));
        fails++;
      }
    } else if (again && !(o2.st.depth == o.st.depth && o2.reason == cg.reason)) { /* no early breakdown: the depth stands */
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL l=%" PetscInt_FMT ": the second solve ended at depth %" PetscInt64_FMT ", %s (the first at %" PetscInt64_FMT ")\n", l, o2.st.depth, KSPConvergedReasons[o2.reason], o.st.depth));
      fails++;
    }
    if (!(o.st.depth >= 1 && o.st.depth <= l && (o.st.depth == l) == (o.st.depth_changes == 0))) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL l=%" PetscInt_FMT ": KSPPipeGetStats says depth %" PetscInt64_FMT " after %" PetscInt64_FMT " changes\n", l, o.st.depth, o.st.depth_changes));
      fails++;
    }
  }
  if (!fails) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "all checks passed\n"));
  if (cube) PetscCall(PipeKSPCubeDestroy(&cube));
  else {
    PetscCall(VecDestroy(&b));
    PetscCall(MatDestroy(&A));
  }
  PetscCall(PetscFinalize());
  return fails ? 1 : 0;
}
