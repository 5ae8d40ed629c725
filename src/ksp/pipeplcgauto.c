/* pipeplcg's automatic depth (-ksp_pipe_depth auto, KSPPipePLCGSetDepth(ksp, PETSC_DECIDE)): at the first
   solve, and again for new matrix objects, measure on the KSP's communicator what a pipeline hides (the
   latency of a blocking reduction) and what hides it (an iteration's SpMV and PC application, and its
   vector work), model each depth 0..5, and choose among 0..AUTO_DEEPEST the one of least modelled time
   per iteration (docs/pipeplcg.md). */
#include <pipeksp/pipeplcgimpl.h>

#define AUTO_REPS 7 /* timed repetitions of each measurement; the median counts (noise, a descheduled rank) */
#define AUTO_NRED 7 /* scalars of the measured reduction: depth 5's packed one (6 dot products and a norm) */
#define AUTO_NVEC 4 /* vector passes per timed repetition: one pass of a small vector is near the clock's grain */
/* a deeper depth is chosen only when its modelled time is below (1 - AUTO_MARGIN) times the shallower
   choice's: the model leaves out what a deeper pipeline adds once per solve or per operator (l start-up
   iterations per solve, the eigenvalue estimate's CG iterations, restarts after breakdowns) and the polls */
#define AUTO_MARGIN 0.05
/* the deepest depth auto chooses: depths 4-5 break down more often and need more iterations, which the
   per-iteration model does not see, and were measured no faster than 3 (docs/pipeplcg.md) */
#define AUTO_DEEPEST 3
/* a depth of 1 or more only where one iteration hides at least this fraction of a reduction's latency. Where
   nothing progresses (H = 0: the blocking or no-poll policies, ranks oversubscribed), a pipeline only merges
   Gropp's two reductions into one, and that merge is the single-reduction recurrences' rounding, which on
   wide spectra without a PC needs up to twice cg's iterations (fuzzer seed 25, 5,000 cases: 5 of pipeplcg's
   11 failures were auto's depth 1 on 2-4 oversubscribed ranks, each shared by PETSc's pipecg). PETSc offers
   that merge only on request (-ksp_cg_single_reduction); auto takes its risk only for hidden latency */
#define AUTO_HIDE_MIN 0.05
/* vector passes per iteration, in passes of the 3-term recurrence (3 vectors read, 1 written), counted from
   the code: depth 0 (Gropp's CG) its two fused passes, x, r, u (6 read, 3 written) and p, s (4 read, 2
   written), with their dots; depth l >= 1
   the recurrences of z and u (2), of the l auxiliary bases (l, and l more for the unpreconditioned norm's
   M-images), p and x (3 streams each), the dots of l + 1 vectors with u and a norm ((l + 3) / 4) */
#define AUTO_V0      3.75
#define AUTO_V1      4.25
#define AUTO_VLEVEL  1.25
#define AUTO_VLEVELM 1.0

static PetscReal Median(PetscReal t[], PetscInt n)
{
  PetscCallAbort(PETSC_COMM_SELF, PetscSortReal(n, t));
  return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/* the modelled seconds per iteration of depth l, from the blocking latency L, one iteration's SpMV and PC
   S, its vector work V(l) and the part H of a reduction's latency that one iteration's compute hides
   (measured with the solver's own progress: polls in the SpMV and vector passes, the PC's if it polls, the
   policy the engine runs). Depth 0, Gropp's CG, overlaps each of its two reductions with one of the PC
   application and the SpMV, taken to hide H/2 each: 2 max(0, L - H/2) exposed (2 L where nothing
   progresses). Depth l >= 1 gives each reduction l iterations, so it hides l H of it and the rest,
   max(0, L - l H), is exposed at its wait, once per iteration. */
static PetscReal Cost(const KSPPipePLCGAuto *a, KSPNormType nt, PetscBool mq, PetscInt l)
{
  if (l == 0) return a->spmv + AUTO_V0 * a->vec + 2.0 * PetscMax(0.0, a->lat - 0.5 * a->hide);
  return a->spmv + (AUTO_V1 + l * (AUTO_VLEVEL + (mq ? AUTO_VLEVELM : 0.0))) * a->vec + PetscMax(0.0, a->lat - l * a->hide);
}

/* the SpMVs and PC applications a depth adds per solve over cg's, counted with -log_view on the cube and
   PETSc's ex2: none at depth 0 (Gropp's CG skips the SpMV of an iteration whose test will probably end the
   solve) but a PC application with the unpreconditioned norm (half an S); one at depth 1 (pipegv's recurrences:
   u_0 = M^{-1} r_0 and w_0 = A u_0 before the first reduction); at depth l >= 2 the l start-up iterations of
   the basis and the norm's lag, l iterations for the preconditioned norm, l + 1 for the unpreconditioned
   one (p(l)-CG's natural norm has none), and the true residual that checks the claimed convergence */
static PetscReal PerSolve(KSPNormType nt, PetscInt l)
{
  if (l == 0) return nt == KSP_NORM_UNPRECONDITIONED ? 0.5 : 0.0;
  if (l == 1) return 1.0;
  return (PetscReal)(l + 1 + (nt == KSP_NORM_PRECONDITIONED ? l : nt == KSP_NORM_UNPRECONDITIONED ? l + 1 : 0));
}

/* the modelled time per iteration of every depth, the per-solve work spread over the last solve's iterations
   (none before a solve has converged), and the shallowest depth within AUTO_MARGIN of the deeper ones */
static void Pick(KSPPipePLCGAuto *a, KSPNormType nt, PetscBool mq, PetscInt maxl)
{
  PetscInt l;

  for (l = 0; l <= PIPEKSP_PLCG_AUTO_MAXL; l++) a->cost[l] = Cost(a, nt, mq, l) + (a->its > 0 ? PerSolve(nt, l) * a->spmv / a->its : 0.0);
  a->depth = 0;
  if (!(a->hide >= AUTO_HIDE_MIN * a->lat)) return;
  for (l = 1; l <= PetscMin(maxl, AUTO_DEEPEST); l++)
    if (a->cost[l] < (1.0 - AUTO_MARGIN) * a->cost[a->depth]) a->depth = l;
}

/* the timings (medians taken by the caller): ts SpMV + PC, tv a vector pass, tl a blocking reduction, tw the
   wait of a reduction overlapped with an SpMV and a PC application on the solver's engine */
static PetscErrorCode Measure(KSP ksp, Mat Amat, Vec x, Vec y, Vec z, PetscReal ts[], PetscReal tv[], PetscReal tl[], PetscReal tw[])
{
  KSP_Pipe    *pipe = (KSP_Pipe *)ksp->data;
  MPI_Comm     comm = PetscObjectComm((PetscObject)ksp);
  PetscScalar  in[AUTO_NRED], out[AUTO_NRED];
  PetscInt     r, k;
  PipeKSPStats st0;
  double       t0, t1;

  PetscFunctionBegin;
  for (k = 0; k < AUTO_NRED; k++) in[k] = 1.0;
  /* one iteration's SpMV and PC application (the first of each untimed: caches, lazy set-up), from a common
     start: a rank still in earlier work would hold its neighbours' halo exchange */
  PetscCallMPI(MPI_Barrier(comm));
  for (r = -1; r < AUTO_REPS; r++) {
    t0 = MPI_Wtime();
    PetscCall(KSPPipeMatMult_Private(ksp, Amat, x, y));
    PetscCall(KSPPipePCApplyLoop_Private(ksp, y, z));
    if (r >= 0) ts[r] = (PetscReal)(MPI_Wtime() - t0);
  }
  /* one pass of the 3-term recurrence, z = x + a y + b z as Rec3 (z's entries stay bounded: |b| < 1) */
  for (r = -1; r < AUTO_REPS; r++) {
    t0 = MPI_Wtime();
    for (k = 0; k < AUTO_NVEC; k++) PetscCall(VecAXPBYPCZ(z, 1.0, -0.5, 0.25, x, y));
    if (r >= 0) tv[r] = (PetscReal)(MPI_Wtime() - t0) / AUTO_NVEC;
  }
  /* a blocking reduction of the packed size, from a common start (the emulator delays it as any other) */
  PetscCallMPI(MPI_Barrier(comm));
  for (r = -1; r < AUTO_REPS; r++) {
    int err;

    /* the bare call timed: PetscCallMPI() validates the heap after it under -malloc_debug (microseconds) */
    t0  = MPI_Wtime();
    err = MPI_Allreduce(in, out, AUTO_NRED, MPIU_SCALAR, MPIU_SUM, comm);
    if (r >= 0) tl[r] = (PetscReal)(MPI_Wtime() - t0);
    PetscCallMPI(err);
  }
  /* what one iteration hides: the same reduction on the solver's engine (its policy), overlapped with an
     SpMV and a PC application with their poll points, as in the solve; the wait's time is what was left.
     The engine's counters are the solves': restored after */
  st0 = pipe->red->stats;
  for (r = -1; r < AUTO_REPS; r++) {
    PetscCall(PipeKSPRedStart_Private(pipe->red, AUTO_NRED, in));
    PetscCall(KSPPipeApplyOperator_Private(ksp, Amat, x, y));
    PetscCall(KSPPipePCApply_Private(ksp, y, z));
    t1 = MPI_Wtime();
    PetscCall(PipeKSPRedWait_Private(pipe->red, out));
    if (r >= 0) tw[r] = (PetscReal)(MPI_Wtime() - t1);
  }
  pipe->red->stats = st0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPPipePLCGAutoChoose_Private(KSP ksp, PetscBool mq, PetscInt maxl, KSPPipePLCGAuto *a)
{
  KSP_Pipe           *pipe = (KSP_Pipe *)ksp->data;
  MPI_Comm            comm = PetscObjectComm((PetscObject)ksp);
  Mat                 Amat, P;
  PetscObjectId       aid, pid;
  Vec                 x, y, z;
  PetscReal           ts[AUTO_REPS], tv[AUTO_REPS], tl[AUTO_REPS], tw[AUTO_REPS], loc[4], glob[4];
  PipeKSPProgressType type;
  PetscErrorCode      ierr;

  PetscFunctionBegin;
  PetscCall(PCGetOperators(ksp->pc, &Amat, &P));
  PetscCall(PetscObjectGetId((PetscObject)Amat, &aid));
  PetscCall(PetscObjectGetId((PetscObject)P, &pid));
  /* new values in the same matrices (a time step, a Newton step) cost what the old ones did: measured again
     only for new matrix objects, so a sequence of solves pays no SpMVs and PC applications for it */
  if (a->done && aid == a->aid && pid == a->pid) {
    PetscInt was = a->depth;

    Pick(a, ksp->normtype, mq, maxl); /* the last solve's iterations may move the choice */
    if (a->depth != was) {
      a->nswitch++;
      PetscCall(PetscInfo(ksp, "auto depth: %" PetscInt_FMT " instead of %" PetscInt_FMT ", with the %" PetscInt_FMT " iterations of the last solve\n", a->depth, was, a->its));
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(VecDuplicate(ksp->vec_rhs, &x));
  PetscCall(VecDuplicate(ksp->vec_rhs, &y));
  PetscCall(VecDuplicate(ksp->vec_rhs, &z));
  PetscCall(VecSet(x, 1.0));
  PetscCall(VecSet(z, 0.0));
  /* an error (of the PC, say) leaves nothing behind: the vectors go, the engine's pending reduction is waited
     at the next solve's start, the PC's PCPreSolve() nesting undone by KSPSolve_PipePLCG() */
  ierr = Measure(ksp, Amat, x, y, z, ts, tv, tl, tw);
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&z));
  PetscCall(ierr);
  PetscCall(PipeKSPRedGetType_Private(pipe->red, &type));
  /* the slowest rank's figures, in one reduction: every rank chooses the same depth (the least hidden: the
     most exposed wait) */
  loc[0] = Median(ts, AUTO_REPS);
  loc[1] = Median(tv, AUTO_REPS);
  loc[2] = Median(tl, AUTO_REPS);
  loc[3] = Median(tw, AUTO_REPS);
  PetscCallMPI(MPI_Allreduce(loc, glob, 4, MPIU_REAL, MPIU_MAX, comm));
  a->spmv = glob[0];
  a->vec  = glob[1];
  a->lat  = glob[2];
  /* a blocking policy overlaps nothing (its "wait" comes after the reduction) */
  a->hide = type == PIPEKSP_PROGRESS_BLOCKING ? 0.0 : PetscMax(0.0, a->lat - glob[3]);
  Pick(a, ksp->normtype, mq, maxl);
  a->nswitch = 0;
  a->done    = PETSC_TRUE;
  a->aid     = aid;
  a->pid     = pid;
  a->nchoices++;
  PetscCall(PetscInfo(ksp, "auto depth: reduction %g us, one iteration hides %g us of it, SpMV + PC %g us, vector pass %g us (medians, max over ranks): depth %" PetscInt_FMT " (modelled %g us per iteration, depth 0 %g us)\n", 1e6 * (double)a->lat,
                      1e6 * (double)a->hide, 1e6 * (double)a->spmv, 1e6 * (double)a->vec, a->depth, 1e6 * (double)a->cost[a->depth], 1e6 * (double)a->cost[0]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPPipePLCGAutoView_Private(KSPPipePLCGAuto *a, PetscViewer viewer)
{
  PetscInt l;

  PetscFunctionBegin;
  if (!a->done) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "pipeline depth: auto (chosen at the first solve from the measured reduction latency and compute)\n"));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "pipeline depth: auto -> l = %" PetscInt_FMT " (measured: reduction %.3g us, of which one iteration hides %.3g us; SpMV + PC %.3g us, vector pass %.3g us; medians, max over ranks)\n", a->depth,
                                   1e6 * (double)a->lat, 1e6 * (double)a->hide, 1e6 * (double)a->spmv, 1e6 * (double)a->vec));
  PetscCall(PetscViewerASCIIPrintf(viewer, "modelled us per iteration:"));
  PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_FALSE));
  for (l = 0; l <= PIPEKSP_PLCG_AUTO_MAXL; l++) PetscCall(PetscViewerASCIIPrintf(viewer, " l=%" PetscInt_FMT " %.3g", l, 1e6 * (double)a->cost[l]));
  PetscCall(PetscViewerASCIIPrintf(viewer, " (a deeper depth, up to %d, must be %d%% faster, and 1 or more hide %d%% of the reduction; ", AUTO_DEEPEST, (int)(100 * AUTO_MARGIN), (int)(100 * AUTO_HIDE_MIN)));
  if (a->its > 0) PetscCall(PetscViewerASCIIPrintf(viewer, "with its SpMVs and PC applications per solve over the last solve's %" PetscInt_FMT " iterations, the choice moved %" PetscInt_FMT " times)\n", a->its, a->nswitch));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "per-solve work not counted before a solve has converged)\n"));
  PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}
