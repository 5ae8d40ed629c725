static char help[] = "Tests KSP pipeplcg (p(l)-CG) on the GeoFEM/Cube against PETSc's cg and our pipegv in one process,\n\
for each of the PCs jacobi, bjacobi+icc and asddic:\n\
  - depths 1, 2, 3: iterations to -ksp_rtol within 5%% of cg (at least +-2), true residual <= 10 rtol,\n\
    error vs the exact solution at cg's level;\n\
  - depth 1: the iterations of pipegv (+-1);\n\
  - depth 2 under every progress policy (none, poll, thread, blocking): the same iterations and residual\n\
    (the policy only changes who drives MPI), and with poll and interval 0 MPI_Test calls from the poll hook.\n\
  -pcs <list>   : PCs to run (default jacobi,bjacobi,asddic)\n\
  -depths <list>: depths (default 1,2,3)\n\
Other options (-ksp_norm_type, -cube_n, -nonzero_guess) apply to every solve. Exits with an error on a failed check.\n\n";

#include "common/pipeksptest.h"

typedef TestResult Result;

static PetscErrorCode Solve(PipeKSPCube cube, Mat A, Vec b, Vec x0, const char *pc, KSPType type, PetscInt depth, PetscInt policy, Result *res)
{
  KSP       ksp;
  PC        p;
  Vec       x;
  PetscBool ours = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, type));
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 2000));
  PetscCall(KSPGetPC(ksp, &p));
  if (!strcmp(pc, "bjacobi")) PetscCall(PCSetType(p, PCBJACOBI));
  else PetscCall(PCSetType(p, pc));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(PetscStrInList(type, "pipegv,pipeplcg", ',', &ours));
  if (depth > 0) PetscCall(KSPPipePLCGSetDepth(ksp, depth));
  if (ours && policy >= 0) PetscCall(KSPPipeSetProgress(ksp, (PipeKSPProgressType)policy));
  PetscCall(VecDuplicate(b, &x));
  if (x0) {
    PetscCall(VecCopy(x0, x));
    PetscCall(KSPSetInitialGuessNonzero(ksp, PETSC_TRUE));
  }
  PetscCall(KSPSetUp(ksp));
  if (!strcmp(pc, "bjacobi")) { /* ICC(0) on each rank's block */
    KSP     *sub;
    PC       subpc;
    PetscInt nl, k;
    PetscCall(PCBJacobiGetSubKSP(p, &nl, NULL, &sub));
    for (k = 0; k < nl; k++) {
      PetscCall(KSPGetPC(sub[k], &subpc));
      PetscCall(PCSetType(subpc, PCICC));
    }
  }
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(TestResultCollect(ksp, ours, cube, A, b, x, res));
  PetscCall(VecDestroy(&x));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Report(const char *pc, const char *name, const char *pol, Result *r)
{
  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-8s %-11s %-9s its %4" PetscInt_FMT "  true res %.2e  error %.2e  %s  (%" PetscInt64_FMT " reductions, %" PetscInt64_FMT " polls)\n", pc, name, pol, r->its, (double)r->res, (double)r->err, KSPConvergedReasons[r->reason],
                        r->stats.reductions, r->stats.polls));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PipeKSPCube    cube;
  Mat            A;
  Vec            b, x0 = NULL;
  char          *pcs[8];
  PetscInt       npc = 8, depths[8] = {1, 2, 3}, nd = 8, c, k, pol, fails = 0;
  PetscBool      flg, nonzero = PETSC_FALSE;
  Result         cg, gv, rs, ref = {0};
  char           name[32];
  const PetscInt policies[] = {PIPEKSP_PROGRESS_NONE, PIPEKSP_PROGRESS_POLL, PIPEKSP_PROGRESS_THREAD, PIPEKSP_PROGRESS_BLOCKING};

  PETSC_MPI_THREAD_REQUIRED = MPI_THREAD_MULTIPLE;
  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PipeKSPInitializePackage());
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-pcs", pcs, &npc, &flg));
  if (!flg) {
    npc = 3;
    PetscCall(PetscStrallocpy("jacobi", &pcs[0]));
    PetscCall(PetscStrallocpy("bjacobi", &pcs[1]));
    PetscCall(PetscStrallocpy("asddic", &pcs[2]));
  }
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-depths", depths, &nd, &flg));
  if (!flg) nd = 3;
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-nonzero_guess", &nonzero, NULL));
  PetscCall(TestCubeSystem(nonzero, &cube, &A, &b, &x0));

  for (c = 0; c < npc; c++) {
    PetscInt tol;
    PetscCall(Solve(cube, A, b, x0, pcs[c], KSPCG, 0, -1, &cg));
    PetscCall(Report(pcs[c], "cg", "-", &cg));
    PetscCheck(cg.reason > 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "Reference cg did not converge with %s", pcs[c]);
    PetscCall(Solve(cube, A, b, x0, pcs[c], KSPPIPEGV, 0, -1, &gv));
    PetscCall(Report(pcs[c], "pipegv", "auto", &gv));
    tol = PetscMax(2, (PetscInt)(0.05 * cg.its));
    for (k = 0; k < nd; k++) {
      PetscInt np = (depths[k] == 2) ? 4 : 1;
      for (pol = 0; pol < np; pol++) {
        PetscInt  policy = np == 1 ? -1 : policies[pol];
        PetscBool bad    = PETSC_FALSE;
        PetscCall(PetscSNPrintf(name, sizeof(name), "pipeplcg l=%" PetscInt_FMT, depths[k]));
        PetscCall(Solve(cube, A, b, x0, pcs[c], KSPPIPEPLCG, depths[k], policy, &rs));
        PetscCall(Report(pcs[c], name, policy < 0 ? "auto" : PipeKSPProgressTypes[policy], &rs));
        if (rs.reason <= 0) bad = PETSC_TRUE;
        if (PetscAbsInt(rs.its - cg.its) > tol) {
          PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  FAIL: %" PetscInt_FMT " iterations vs cg %" PetscInt_FMT " (allowed +-%" PetscInt_FMT ")\n", rs.its, cg.its, tol));
          bad = PETSC_TRUE;
        }
        if (depths[k] == 1 && PetscAbsInt(rs.its - gv.its) > 1) {
          PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  FAIL: depth 1 takes %" PetscInt_FMT " iterations, pipegv %" PetscInt_FMT "\n", rs.its, gv.its));
          bad = PETSC_TRUE;
        }
        if (rs.res > 10 * 1e-8) {
          PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  FAIL: true residual %g > 10 rtol\n", (double)rs.res));
          bad = PETSC_TRUE;
        }
        if (rs.err > 10 * cg.err + 1e-12) {
          PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  FAIL: error %g well above cg's %g\n", (double)rs.err, (double)cg.err));
          bad = PETSC_TRUE;
        }
        if (policy >= 0) {
          if (pol == 0) ref = rs;
          else if (rs.its != ref.its || PetscAbsReal(rs.rnorm - ref.rnorm) > 1e-6 * ref.rnorm) {
            PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  FAIL: policy %s: %" PetscInt_FMT " iterations (residual %.17g), policy none: %" PetscInt_FMT " (%.17g)\n", PipeKSPProgressTypes[policy], rs.its, (double)rs.rnorm, ref.its, (double)ref.rnorm));
            bad = PETSC_TRUE;
          }
          if (policy == PIPEKSP_PROGRESS_POLL && rs.used == PIPEKSP_PROGRESS_POLL && rs.stats.polls < rs.its) {
            PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  FAIL: poll policy but only %" PetscInt64_FMT " MPI_Test calls from the poll hook\n", rs.stats.polls));
            bad = PETSC_TRUE;
          }
        }
        if (bad) fails++;
      }
    }
  }
  PetscCheck(!fails, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%" PetscInt_FMT " pipeplcg solve(s) failed the comparison with cg", fails);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "all checks passed\n"));
  for (c = 0; c < npc; c++) PetscCall(PetscFree(pcs[c]));
  PetscCall(VecDestroy(&x0));
  PetscCall(PipeKSPCubeDestroy(&cube));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: plcg_cube_np1
      args: -cube_n 8 -ksp_pipe_poll_interval 0
      filter: grep -oE "all checks passed|FAIL|ERROR"
      output_file: output/ex13_plcg_cube_np1.out

   # -malloc_debug 0 (leaks still checked): PETSc's heap check at every allocation made this run take 53 s of the harness's 60 s in ctest -j2 on a shared 2-core machine
   test:
      suffix: plcg_cube_np4
      nsize: 4
      args: -cube_n 8 -ksp_pipe_poll_interval 0 -malloc_debug 0
      filter: grep -oE "all checks passed|FAIL|ERROR"
      output_file: output/ex13_plcg_cube_np4.out

   # -malloc_debug 0 (leaks still checked): PETSc's heap check at every allocation made this run time out (60 s) in ctest -j2 on a shared 2-core machine
   test:
      suffix: plcg_cube_np8
      nsize: 8
      args: -cube_n 8 -ksp_pipe_poll_interval 0 -malloc_debug 0
      filter: grep -oE "all checks passed|FAIL|ERROR"
      output_file: output/ex13_plcg_cube_np8.out

   test:
      suffix: plcg_cube_unprec_np2
      nsize: 2
      args: -cube_n 7 -pcs jacobi,asddic -ksp_norm_type unpreconditioned
      filter: grep -oE "all checks passed|FAIL|ERROR"
      output_file: output/ex13_plcg_cube_unprec_np2.out

   test:
      suffix: plcg_cube_natural_np2
      timeoutfactor: 3 # 60 s is tight on 2 cores under ctest -j2; a hang still fails
      nsize: 2
      args: -cube_n 7 -pcs jacobi,asddic -ksp_norm_type natural
      filter: grep -oE "all checks passed|FAIL|ERROR"
      output_file: output/ex13_plcg_cube_natural_np2.out

   test:
      suffix: plcg_cube_guess_np2
      timeoutfactor: 3 # 60 s is tight on 2 cores under ctest -j2; a hang still fails
      nsize: 2
      args: -cube_n 7 -pcs jacobi,asddic -nonzero_guess
      filter: grep -oE "all checks passed|FAIL|ERROR"
      output_file: output/ex13_plcg_cube_guess_np2.out

   test:
      suffix: plcg_cube_malloc_np2
      timeoutfactor: 3 # 60 s is tight on 2 cores under ctest -j2; a hang still fails
      nsize: 2
      args: -cube_n 7 -pcs jacobi,asddic
      filter: grep -oE "all checks passed|FAIL|ERROR"
      output_file: output/ex13_plcg_cube_malloc_np2.out

TEST*/
