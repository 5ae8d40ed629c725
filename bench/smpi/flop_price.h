/* The deterministic compute of the SIMULATED solves (bench/smpi/solve_shim.c) and of the EMULATED solves with
   the flop clock (bench_cube -bench_clock flops, PIPEKSP_EMU_CLOCK=flops): the seconds a rank computed are
   PETSc's flop counter times a cost per flop of the innermost PETSc event that logged them ("rates", the
   file PIPEKSP_SMPI_RATES names: lines "event seconds_per_flop", "*" for flops outside any rated event;
   bench/smpi/rates.sh measures them). Plain C types only: the SMPI shim compiles without PETSc's headers. */
#ifndef PIPEKSP_FLOP_PRICE_H
#define PIPEKSP_FLOP_PRICE_H
/* load the rates (once) and leave the flops logged so far unpriced (set-up before this point costs nothing) */
void PipeFlopPriceStart(void);
/* an event boundary (a PETSc log callback): price what was logged inside the event that ends here */
void PipeFlopPriceEvent(int event, int begin);
/* the seconds of compute logged since the last call (priced at event boundaries and here) */
double PipeFlopPriceTake(void);
#endif
