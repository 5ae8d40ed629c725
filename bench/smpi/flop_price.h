/* The deterministic compute of the SIMULATED solves (bench/smpi/solve_shim.c) and of the EMULATED solves with
   the flop clock (bench_cube -bench_clock flops, PIPEKSP_EMU_CLOCK=flops): the seconds a rank computed are
   PETSc's flop counter times a cost per flop of the innermost PETSc event that logged them ("rates", the
   file PIPEKSP_SMPI_RATES names: lines "event seconds_per_flop", "*" for flops outside any rated event;
   bench/smpi/rates.sh measures them). Plain C types only: the SMPI shim compiles without PETSc's headers. */
#ifndef PIPEKSP_FLOP_PRICE_H
#define PIPEKSP_FLOP_PRICE_H
/* after PetscInitialize(): load the rates (once), leave the flops logged so far unpriced (set-up before this point
   costs nothing) and price at every event boundary from now on (PETSc 3.20's log callbacks, which also switch
   PETSc's logging on). Returns PETSc's error code; *rates_read: whether PIPEKSP_SMPI_RATES could be read (else
   every flop costs the default 1 ns) */
int PipeFlopPriceStart(int *rates_read);
/* the seconds of compute logged since the last call (priced at event boundaries and here) */
double PipeFlopPriceTake(void);
#endif
