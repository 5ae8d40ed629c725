static char help[] = "Benchmark driver: several solver configurations on ONE GeoFEM/Cube problem in ONE run, interleaved\n\
over repetitions, so every ratio compares solves that shared the machine state.\n\
  -bench_config <file> : one configuration per line, \"label|options\" (options as for a KSP with no prefix,\n\
                         e.g. \"pipegv-poll|-ksp_type pipegv -ksp_pipe_progress poll -pc_type asddic\")\n\
  -bench_reps <n>      : repetitions (default 5)\n\
  -bench_tag <text>    : first CSV column(s) of every line (e.g. \"asddic,4096\")\n\
  -bench_check <tol>   : max-norm relative error vs the exact solution that counts as correct (1e-3)\n\
  plus -cube_* options. Prints one CSV line per solve: tag,label,rep,its,seconds,seconds_per_it,\n\
  red_model_s,red_exposed_s,hidden,ok (red_*: reduction latency the emulator modelled / left exposed, summed\n\
  over ranks; hidden = 1 - exposed/model; -1 without the emulator). A configuration whose set-up fails\n\
  is reported as FAILED and skipped.\n";

#include <pipeksp.h>
#include <dlfcn.h>

#define MAXCFG 32

typedef void (*EmuStatsFn)(double *);

/* "-ksp_type cg -pc_type asddic" -> "-b3_ksp_type cg -b3_pc_type asddic" */
static PetscErrorCode PrefixOptions(const char *opts, const char *prefix, char *out, size_t len)
{
  const char *p = opts;
  size_t      k = 0;

  PetscFunctionBegin;
  out[0] = 0;
  while (*p) {
    if (*p == '-' && (p == opts || p[-1] == ' ' || p[-1] == '\t') && ((p[1] >= 'a' && p[1] <= 'z') || (p[1] >= 'A' && p[1] <= 'Z'))) {
      size_t pl = strlen(prefix);
      PetscCheck(k + pl + 2 < len, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Configuration options too long: %s", opts);
      out[k++] = '-';
      memcpy(out + k, prefix, pl);
      k += pl;
      p++;
      continue;
    }
    PetscCheck(k + 2 < len, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Configuration options too long: %s", opts);
    out[k++] = *p++;
  }
  out[k] = 0;
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PipeKSPCube   cube;
  Mat           A;
  Vec           b, x;
  KSP           ksp[MAXCFG];
  PetscLogStage stage[MAXCFG];
  char          cfgfile[PETSC_MAX_PATH_LEN], tag[256] = "", label[MAXCFG][64], line[2048], popts[4096], prefix[16];
  PetscBool     flg, failed[MAXCFG];
  PetscInt      reps = 5, ncfg = 0, r, i;
  PetscReal     check = 1e-3;
  EmuStatsFn    emustats;
  PetscMPIInt   rank;
  FILE         *fp;

  /* the thread progress policy needs MPI_THREAD_MULTIPLE */
  PETSC_MPI_THREAD_REQUIRED = MPI_THREAD_MULTIPLE;
  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PipeKSPInitializePackage());
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-bench_config", cfgfile, sizeof(cfgfile), &flg));
  PetscCheck(flg, PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT, "Give the configurations with -bench_config <file> (lines \"label|options\")");
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-bench_reps", &reps, NULL));
  PetscCheck(reps >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-bench_reps %" PetscInt_FMT " must be >= 1", reps);
  PetscCall(PetscOptionsGetString(NULL, NULL, "-bench_tag", tag, sizeof(tag), NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-bench_check", &check, NULL));
  emustats = (EmuStatsFn)dlsym(RTLD_DEFAULT, "pipeksp_emu_get_stats");

  PetscCall(PipeKSPCubeCreate(PETSC_COMM_WORLD, &cube));
  PetscCall(PipeKSPCubeSetFromOptions(cube));
  PetscCall(PipeKSPCubeSetUp(cube));
  PetscCall(PipeKSPCubeGetMatrix(cube, &A));
  PetscCall(PipeKSPCubeGetRHS(cube, &b));
  PetscCall(VecDuplicate(b, &x));

  /* every rank reads the file (same file system); errors are collective */
  fp = fopen(cfgfile, "r");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot open -bench_config %s", cfgfile);
  while (fgets(line, sizeof(line), fp)) {
    char *bar = strchr(line, '|'), *nl = strchr(line, '\n');
    if (nl) *nl = 0;
    if (!bar || line[0] == '#') continue;
    PetscCheck(ncfg < MAXCFG, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "At most %d configurations in %s", MAXCFG, cfgfile);
    *bar = 0;
    PetscCall(PetscStrncpy(label[ncfg], line, sizeof(label[ncfg])));
    PetscCall(PetscSNPrintf(prefix, sizeof(prefix), "b%" PetscInt_FMT "_", ncfg));
    PetscCall(PrefixOptions(bar + 1, prefix, popts, sizeof(popts)));
    PetscCall(PetscOptionsInsertString(NULL, popts));
    PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp[ncfg]));
    PetscCall(KSPSetOptionsPrefix(ksp[ncfg], prefix));
    PetscCall(KSPSetOperators(ksp[ncfg], A, A));
    /* a solver that cannot be set up (e.g. not built yet) is skipped, not fatal */
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    failed[ncfg] = (KSPSetFromOptions(ksp[ncfg]) || KSPSetUp(ksp[ncfg])) ? PETSC_TRUE : PETSC_FALSE;
    PetscCall(PetscPopErrorHandler());
    if (failed[ncfg]) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s,%s,FAILED set-up\n", tag, label[ncfg]));
    PetscCall(PetscLogStageRegister(label[ncfg], &stage[ncfg]));
    ncfg++;
  }
  fclose(fp);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "# tag,label,rep,its,seconds,seconds_per_it,red_model_s,red_exposed_s,hidden,ok\n"));

  for (r = 0; r < reps; r++) {
    for (i = 0; i < ncfg; i++) {
      double             s0[8] = {0}, s1[8] = {0}, loc[2], glob[2] = {0, 0}, t0, t1, tloc, tmax = 0;
      PetscInt           its;
      PetscReal          err;
      KSPConvergedReason reason;
      PetscErrorCode     ierr;

      if (failed[i]) continue;
      PetscCall(VecZeroEntries(x));
      PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
      if (emustats) emustats(s0);
      PetscCall(PetscLogStagePush(stage[i]));
      t0 = MPI_Wtime();
      PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
      ierr = KSPSolve(ksp[i], b, x);
      PetscCall(PetscPopErrorHandler());
      t1 = MPI_Wtime();
      PetscCall(PetscLogStagePop());
      if (ierr) {
        failed[i] = PETSC_TRUE;
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s,%s,FAILED solve (error %d)\n", tag, label[i], (int)ierr));
        continue;
      }
      if (emustats) emustats(s1);
      tloc = t1 - t0;
      /* blocking reductions expose all their latency; non-blocking ones what the waits paid */
      loc[0] = (s1[1] - s0[1]) + (s1[5] - s0[5]);
      loc[1] = (s1[2] - s0[2]) + (s1[5] - s0[5]);
      /* MPI_Reduce: not emulated, so the bookkeeping adds no latency */
      PetscCallMPI(MPI_Reduce(&tloc, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, PETSC_COMM_WORLD));
      PetscCallMPI(MPI_Reduce(loc, glob, 2, MPI_DOUBLE, MPI_SUM, 0, PETSC_COMM_WORLD));
      PetscCall(KSPGetIterationNumber(ksp[i], &its));
      PetscCall(KSPGetConvergedReason(ksp[i], &reason));
      PetscCall(PipeKSPCubeComputeError(cube, x, &err));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s,%s,%" PetscInt_FMT ",%" PetscInt_FMT ",%.6e,%.6e,%.6e,%.6e,%.4f,%d\n", tag, label[i], r, its, tmax, its ? tmax / its : 0.0, glob[0], glob[1],
                            emustats && glob[0] > 0 ? 1.0 - glob[1] / glob[0] : -1.0, reason > 0 && err <= check ? 1 : 0));
    }
  }
  for (i = 0; i < ncfg; i++) PetscCall(KSPDestroy(&ksp[i]));
  PetscCall(VecDestroy(&x));
  PetscCall(PipeKSPCubeDestroy(&cube));
  PetscCall(PetscFinalize());
  return 0;
}
