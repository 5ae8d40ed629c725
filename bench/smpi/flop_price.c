/* Prices PETSc's flop counter per event: see flop_price.h. Nothing here times the host. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "flop_price.h"

/* the PETSc calls used, with their C types (PetscErrorCode and PetscLogEvent are ints, PetscLogDouble a double,
   PetscObject a pointer): no PETSc header, so tests/smpi/shim_check.c can stub them */
typedef int (*EventCallback)(int, int, void *, void *, void *, void *);
int PetscGetFlops(double *);
int PetscLogEventGetName(int, const char *[]);
int PetscLogLegacyCallbacksBegin(EventCallback, EventCallback, int (*)(void *), int (*)(void *));

#define MAXRATE 128
#define MAXDEP  64
#define MAXEV   4096

static char          rate_name[MAXRATE][64];
static double        rate_spf[MAXRATE], rate_default = 1e-9, charged_flops = 0, pending_s = 0, ev_spf[MAXEV];
static int           nrate = 0, loaded = 0, read_ok = 0, ev_stack[MAXDEP], ev_depth = 0, in_price = 0;
static unsigned char ev_known[MAXEV];

static void LoadRates(void)
{
  const char *f = getenv("PIPEKSP_SMPI_RATES");
  FILE       *fp;
  char        name[64], line[256];
  double      v;

  loaded = 1;
  if (!f || !(fp = fopen(f, "r"))) return;
  read_ok = 1;
  while (fgets(line, sizeof(line), fp)) {
    if (line[0] == '#' || sscanf(line, "%63s %lf", name, &v) != 2) continue;
    if (!strcmp(name, "*")) rate_default = v;
    else if (nrate < MAXRATE) {
      strcpy(rate_name[nrate], name);
      rate_spf[nrate++] = v;
    }
  }
  fclose(fp);
}

static double EventSpf(int e)
{
  const char *name = NULL;
  double      v    = rate_default;
  int         i;

  if (e >= 0 && e < MAXEV && ev_known[e]) return ev_spf[e];
  if (PetscLogEventGetName(e, &name) == 0 && name)
    for (i = 0; i < nrate; i++)
      if (!strcmp(rate_name[i], name)) v = rate_spf[i];
  if (e >= 0 && e < MAXEV) {
    ev_known[e] = 1;
    ev_spf[e]   = v;
  }
  return v;
}

/* the flops logged since the last price, at the innermost event's cost */
static void Price(void)
{
  double f = 0, d;

  if (in_price) return;
  if (!loaded) LoadRates();
  in_price = 1;
  if (PetscGetFlops(&f) == 0) {
    d = f - charged_flops;
    if (d > 0) {
      pending_s += d * (ev_depth > 0 ? EventSpf(ev_stack[ev_depth - 1]) : rate_default);
      charged_flops = f;
    }
  }
  in_price = 0;
}

/* an event boundary: price what was logged inside the innermost event so far */
static int EventBegin(int event, int t, void *a, void *b, void *c, void *d)
{
  (void)t, (void)a, (void)b, (void)c, (void)d;
  Price();
  if (ev_depth < MAXDEP) ev_stack[ev_depth] = event;
  ev_depth++;
  return 0;
}
static int EventEnd(int event, int t, void *a, void *b, void *c, void *d)
{
  (void)event, (void)t, (void)a, (void)b, (void)c, (void)d;
  Price();
  if (ev_depth > 0) ev_depth--;
  return 0;
}

int PipeFlopPriceStart(int *rates_read)
{
  if (!loaded) LoadRates();
  if (rates_read) *rates_read = read_ok;
  PetscGetFlops(&charged_flops);
  pending_s = 0;
  return PetscLogLegacyCallbacksBegin(EventBegin, EventEnd, NULL, NULL);
}

double PipeFlopPriceTake(void)
{
  double s;

  Price();
  s         = pending_s;
  pending_s = 0;
  return s;
}
