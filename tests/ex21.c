static char help[] = "A sequence of solves whose operator changes values (A + c_k I, the same Mat and pattern, as a time\n\
stepper or Newton has): preconditioner applications, iterations and KSPSolve time per solve for each KSP\n\
type. pipeplcg takes the interval of its shifts from the previous solve's Ritz values: after the first\n\
solve it must apply the PC no more often than cg + l + 1 per solve (1: a check of the claimed convergence\n\
against b - A x; an estimate costs 10). With -ksp_pipe_eig_reuse 0 it estimates again at every solve (the\n\
type 'pipeplcg-noreuse' below).\n\
  -solves <n>: solves (default 10)\n\
  -shift <s>: c_k = s * max(diag A) * (k mod 4) / 3 (default 0.05)\n\
  -types <t,...>: KSP types, pipeplcg-noreuse for pipeplcg without the reuse (default cg,pipegv,pipeplcg,pipeplcg-noreuse)\n\
  -check: assert the bounds (PC applications, iterations, residual) against cg's on the same solve\n\
  -table: print every solve\n";

#include "common/pipeksptest.h"

#define MAXT 8
#define MAXS 64

typedef struct {
  PetscInt           its[MAXS], apps[MAXS];
  PetscReal          res[MAXS], time[MAXS];
  KSPConvergedReason reason[MAXS];
  PetscInt           depth; /* pipeplcg's l, 0 for the others */
} Seq;

/* times PCApply ran in the main stage so far */
static PetscErrorCode PCApplyCount(PetscLogEvent e, PetscInt *n)
{
  PetscEventPerfInfo info;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventGetPerfInfo(0, e, &info));
  *n = info.count;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RunSequence(const char *type, Mat A0, Mat A, Vec b, PetscInt nsolves, PetscReal shift, PetscLogEvent eapply, Seq *s)
{
  KSP       ksp;
  Vec       x;
  PetscReal dmax;
  PetscBool noreuse;

  PetscFunctionBeginUser;
  PetscCall(PetscStrcmp(type, "pipeplcg-noreuse", &noreuse));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetType(ksp, noreuse ? KSPPIPEPLCG : type));
  PetscCall(KSPSetFromOptions(ksp));
  if (noreuse) PetscCall(KSPPipePLCGSetEstimateReuse(ksp, PETSC_FALSE));
  PetscCall(VecDuplicate(b, &x));
  {
    Vec dg;
    PetscCall(VecDuplicate(b, &dg));
    PetscCall(MatGetDiagonal(A0, dg));
    PetscCall(VecMax(dg, NULL, &dmax));
    PetscCall(VecDestroy(&dg));
  }
  for (PetscInt k = 0; k < nsolves; k++) {
    PetscInt       a0 = 0, a1 = 0;
    PetscLogDouble t0, t1;
    TestSolve      o;

    PetscCall(MatCopy(A0, A, SAME_NONZERO_PATTERN));
    PetscCall(MatShift(A, shift * dmax * (PetscReal)(k % 4) / 3.0));
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscCall(KSPSetUp(ksp)); /* the PC's set-up for the new values is not the solve's time */
    PetscCall(PCApplyCount(eapply, &a0));
    PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
    PetscCall(PetscTime(&t0));
    PetscCall(TestSolveFromZero(ksp, A, b, PETSC_FALSE, &o));
    PetscCall(PetscTime(&t1));
    PetscCall(PCApplyCount(eapply, &a1));
    s->its[k]    = o.its;
    s->reason[k] = o.reason;
    s->res[k]    = o.res;
    s->apps[k]   = a1 - a0;
    s->time[k]   = t1 - t0;
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, s->time, (int)nsolves, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));
  s->depth = 0;
  { /* after the solves: auto has chosen */
    PetscBool plcg;
    PetscCall(PetscObjectTypeCompare((PetscObject)ksp, KSPPIPEPLCG, &plcg));
    if (plcg) PetscCall(KSPPipePLCGGetDepth(ksp, &s->depth));
  }
  PetscCall(VecDestroy(&x));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char         *types[MAXT];
  PetscInt      ntypes = MAXT, nsolves = 10, fails = 0, icg = -1;
  PetscReal     shift = 0.05;
  PetscBool     flg, check = PETSC_FALSE, table = PETSC_FALSE;
  PipeKSPCube   cube;
  Mat           A0, A;
  Vec           b, x0;
  PetscLogEvent eapply;
  Seq          *seq;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PipeKSPInitializePackage());
  PetscCall(PetscLogDefaultBegin());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-solves", &nsolves, NULL));
  PetscCheck(nsolves >= 1 && nsolves <= MAXS, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-solves must be 1..%d", MAXS);
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-shift", &shift, NULL));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-check", &check));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-table", &table));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-types", types, &ntypes, &flg));
  if (!flg) {
    const char *def[] = {"cg", "pipegv", "pipeplcg", "pipeplcg-noreuse"};
    ntypes            = 4;
    for (int t = 0; t < 4; t++) PetscCall(PetscStrallocpy(def[t], &types[t]));
  }
  PetscCall(PetscLogEventGetId("PCApply", &eapply));
  PetscCall(TestCubeSystem(PETSC_FALSE, &cube, &A0, &b, &x0));
  PetscCall(MatDuplicate(A0, MAT_COPY_VALUES, &A));
  PetscCall(PetscCalloc1(ntypes, &seq));
  for (PetscInt t = 0; t < ntypes; t++) {
    PetscCall(RunSequence(types[t], A0, A, b, nsolves, shift, eapply, &seq[t]));
    PetscCall(PetscStrcmp(types[t], "cg", &flg));
    if (flg) icg = t;
  }
  if (table)
    for (PetscInt t = 0; t < ntypes; t++)
      for (PetscInt k = 0; k < nsolves; k++)
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-17s solve %2" PetscInt_FMT ": %4" PetscInt_FMT " its %4" PetscInt_FMT " PC applications %8.2f ms residual %.1e %s\n", types[t], k + 1, seq[t].its[k], seq[t].apps[k], 1e3 * seq[t].time[k],
                              (double)seq[t].res[k], KSPConvergedReasons[seq[t].reason[k]]));
  /* per solve after the first (the first may estimate): PC applications and time, means */
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-17s %12s %12s %14s %14s\n", "type", "PC apps/solve", "its/solve", "ms/solve", "first solve ms"));
  for (PetscInt t = 0; t < ntypes; t++) {
    PetscReal apps = 0, its = 0, tm = 0;
    PetscInt  n = PetscMax(1, nsolves - 1);
    for (PetscInt k = nsolves > 1 ? 1 : 0; k < nsolves; k++) {
      apps += seq[t].apps[k];
      its += seq[t].its[k];
      tm += seq[t].time[k];
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-17s %12.1f %12.1f %14.3f %14.3f\n", types[t], (double)(apps / n), (double)(its / n), (double)(1e3 * tm / n), 1e3 * seq[t].time[0]));
  }
  if (check) {
    PetscCheck(icg >= 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-check needs cg among -types");
    for (PetscInt t = 0; t < ntypes; t++) {
      PetscBool reuse;
      PetscCall(PetscStrcmp(types[t], "pipeplcg", &reuse));
      for (PetscInt k = 0; k < nsolves; k++) {
        const Seq *c = &seq[icg], *s = &seq[t];
        PetscInt   l = s->depth;
        if (s->reason[k] != c->reason[k]) {
          PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL %s solve %" PetscInt_FMT ": %s, cg %s\n", types[t], k + 1, KSPConvergedReasons[s->reason[k]], KSPConvergedReasons[c->reason[k]]));
          fails++;
        }
        if (s->its[k] > 1.15 * c->its[k] + l || s->res[k] > 10 * c->res[k]) {
          PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL %s solve %" PetscInt_FMT ": %" PetscInt_FMT " iterations, residual %g; cg %" PetscInt_FMT ", %g\n", types[t], k + 1, s->its[k], (double)s->res[k], c->its[k], (double)c->res[k]));
          fails++;
        }
        /* the point of the reuse: no estimate after the first solve (one PC application more: the check of a
           claimed convergence, which pipeplcg makes at every depth of 2 or more) */
        if (reuse && k > 0 && s->apps[k] > c->apps[k] + l + 1) {
          PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL pipeplcg solve %" PetscInt_FMT ": %" PetscInt_FMT " PC applications, cg %" PetscInt_FMT " + l + 1 = %" PetscInt_FMT "\n", k + 1, s->apps[k], c->apps[k], c->apps[k] + l + 1));
          fails++;
        }
      }
    }
    if (!fails) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "all checks passed\n"));
  }
  for (PetscInt t = 0; t < ntypes; t++) PetscCall(PetscFree(types[t]));
  PetscCall(PetscFree(seq));
  PetscCall(MatDestroy(&A));
  PetscCall(PipeKSPCubeDestroy(&cube));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   # depth 2 or 3 (auto, the default, chooses 0 on one node: no shifts to reuse); the natural norm: pipeplcg's own norm, which arrives with the iterate (the preconditioned one comes l
   # iterations later, so l more applications per solve, the same with or without an estimate)
   test:
      suffix: ksp_seq_jacobi_np2
      nsize: 2
      args: -cube_n 9 -pc_type jacobi -ksp_rtol 1e-8 -ksp_norm_type natural -ksp_pipe_depth 2 -types cg,pipeplcg -check
      filter: grep -oE "all checks passed|FAIL.*"
      output_file: output/ex21_ksp_seq.out

   test:
      suffix: ksp_seq_asddic_depth3_np2
      nsize: 2
      args: -cube_n 9 -pc_type asddic -ksp_rtol 1e-8 -ksp_norm_type natural -ksp_pipe_depth 3 -types cg,pipeplcg -check
      filter: grep -oE "all checks passed|FAIL.*"
      output_file: output/ex21_ksp_seq.out

   test:
      suffix: ksp_seq_gamg_np2
      nsize: 2
      args: -cube_n 9 -cube_mat_type aij -pc_type gamg -ksp_rtol 1e-8 -ksp_norm_type natural -ksp_pipe_depth 2 -types cg,pipeplcg -check
      filter: grep -oE "all checks passed|FAIL.*"
      output_file: output/ex21_ksp_seq.out

   test:
      suffix: ksp_seq_hypre_np2
      nsize: 2
      args: -cube_n 9 -cube_mat_type aij -pc_type hypre -ksp_rtol 1e-8 -ksp_norm_type natural -ksp_pipe_depth 2 -types cg,pipeplcg -check
      filter: grep -oE "all checks passed|FAIL.*"
      output_file: output/ex21_ksp_seq.out

TEST*/
