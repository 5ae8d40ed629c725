/* Private: the reduction/progress engine of the four pipelined KSP types pipegropp, pipegv, chrongear (one
   blocking reduction) and pipeplcg (up to l in flight) (src/sys/progress.c). */
#ifndef PIPEKSP_PROGRESSIMPL_H
#define PIPEKSP_PROGRESSIMPL_H

#include <pipeksp/pipekspimpl.h>
#include <pthread.h>

#define PIPEKSP_RED_MAX   10 /* scalars in one packed reduction */
#define PIPEKSP_RED_SLOTS 8  /* reductions in flight at once on one engine (deep pipelines) */

/* one reduction in flight */
typedef struct {
  MPI_Request req;
  PetscBool   pending;  /* started, not yet waited */
  PetscBool   complete; /* a poll or the helper thread saw it finish */
  int         n;
  PetscBool   pairs; /* n compensated sums, (hi, lo) pairs in the buffers (the slot API: started with lo) */
  double      tstart;
  PetscScalar lbuf[2 * PIPEKSP_RED_MAX], gbuf[2 * PIPEKSP_RED_MAX];
} PipeKSPRedSlot;

typedef struct _n_PipeKSPRed *PipeKSPRed;
struct _n_PipeKSPRed {
  MPI_Comm            comm; /* private duplicate of the KSP's communicator */
  PetscMPIInt         size;
  PetscBool           blocking_only; /* the owner has nothing to overlap: always blocking */
  PipeKSPProgressType requested;     /* what the user asked for (the only copy of the setting) */
  PipeKSPProgressType type;          /* what runs: none, poll, thread or blocking */
  PetscBool           resolved;      /* requested -> type decided (auto measured, thread checked) */
  char                note[96];      /* e.g. "auto -> poll", shown by -ksp_view */
  PetscReal           interval_us;   /* least wall time between two tests (the only copy) */
  PetscBool           interval_set;  /* given by the user: it throttles a thread team's master too */
  double              last_test;     /* wall time of the last MPI_Test from the poll hook */
  PipeKSPStats        stats;
  PipeKSPRedSlot      slot[PIPEKSP_RED_SLOTS];
  int                 nslots; /* slots pending */
  int                 nopen;  /* slots pending and not yet seen complete (what the poll hook tests) */
  int                 single; /* the slot of the pending PipeKSPRedStart_Private(), -1 when none */
  PipeKSPRed          below;  /* the engine under this one on the poll hook's stack (progress.c) */
  MPI_Datatype        pair;   /* two scalars (hi, lo) and their compensated sum: the slot API's reductions */
  MPI_Op              pairsum;
  /* helper thread (type thread): sleeps on cv while nothing is pending, tests the pending slots */
  PetscBool       thr_started;
  pthread_t       thr;
  pthread_mutex_t mtx;
  pthread_cond_t  cv;
  int             thr_work, thr_busy, thr_stop, thr_quit;
  int             thr_rc; /* the first MPI error of its tests, raised by the main thread at take-back */
  PetscInt64      thr_tests;
};

PETSC_INTERN PetscErrorCode PipeKSPRedCreate_Private(MPI_Comm, PetscBool, PipeKSPRed *);
PETSC_INTERN PetscErrorCode PipeKSPRedDestroy_Private(PipeKSPRed *);
PETSC_INTERN PetscErrorCode PipeKSPRedSetType_Private(PipeKSPRed, PipeKSPProgressType);
PETSC_INTERN PetscErrorCode PipeKSPRedGetType_Private(PipeKSPRed, PipeKSPProgressType *);
PETSC_INTERN PetscErrorCode PipeKSPRedSetInterval_Private(PipeKSPRed, PetscReal);
PETSC_INTERN PetscErrorCode PipeKSPRedSetUp_Private(PipeKSPRed);
PETSC_INTERN PetscErrorCode PipeKSPRedStart_Private(PipeKSPRed, int, const PetscScalar[]);
PETSC_INTERN PetscErrorCode PipeKSPRedWait_Private(PipeKSPRed, PetscScalar[]);
PETSC_INTERN PetscErrorCode PipeKSPRedAbandon_Private(PipeKSPRed);
PETSC_INTERN PetscErrorCode PipeKSPRedView_Private(PipeKSPRed, PetscViewer);
/* several reductions in flight: start returns a slot number, wait takes it (any order); WaitAll
   drains every pending slot (an early exit). The poll hook and the helper thread test all pending
   slots (one MPI_Testsome). Single and slot requests do not mix on one engine. Slot reductions are
   compensated: each local sum comes as hi + lo (lo[] when waiting may be NULL) and the ranks' pairs are added in
   double-double arithmetic (p(l)-CG's Gram matrix: docs/pipeplcg.md, "Compensated dot products") */
PETSC_INTERN PetscErrorCode PipeKSPRedStartSlot_Private(PipeKSPRed, int, const PetscScalar[], const PetscScalar[], int *);
PETSC_INTERN PetscErrorCode PipeKSPRedWaitSlot_Private(PipeKSPRed, int, PetscScalar[], PetscScalar[]);
PETSC_INTERN PetscErrorCode PipeKSPRedWaitAll_Private(PipeKSPRed);

#endif
