/* Orderings of a rank's local graph for asddic: natural, RCM, greedy multicolouring (mc) and
   cyclic multicolouring of RCM levels (CM-RCM, Nakajima's GeoFEM), docs/algorithms.md section 3.
   PETSc's MatGetOrdering(MATORDERINGRCM) is not used: CM-RCM needs the level sets, and for rcm alone
   its different start node and tie-breaking change the iteration counts. */
#include <pipeksp/asddicimpl.h>

#define ORDER_PERIPHERAL_MAX_IT 8  /* restarts of the pseudo-peripheral node search (George-Liu) */
#define GREEDY_EXTRA_COLORS     64 /* slack of GreedyColor's colour marks beyond n + K (colours never exceed n) */

/* Breadth-first level structure of the component of s among nodes with mark[v] != stamp.
   Writes the visit order to q (returns its length), levels to lev; marks visited nodes with stamp.
   Neighbours are visited in increasing degree (Cuthill-McKee) when cm is set. */
static PetscInt BFS(PetscInt s, const PetscInt *xadj, const PetscInt *adj, const PetscInt *done, PetscInt *mark, PetscInt stamp, PetscInt *q, PetscInt *lev, PetscBool cm, PetscInt *nlev)
{
  PetscInt head = 0, tail = 0, maxl = 0;

  q[tail++] = s;
  mark[s]   = stamp;
  lev[s]    = 0;
  while (head < tail) {
    PetscInt v = q[head++], start = tail;
    for (PetscInt p = xadj[v]; p < xadj[v + 1]; p++) {
      PetscInt u = adj[p];
      if (mark[u] == stamp || done[u]) continue;
      mark[u]   = stamp;
      lev[u]    = lev[v] + 1;
      q[tail++] = u;
      if (lev[u] > maxl) maxl = lev[u];
    }
    if (cm) { /* insertion sort of the new nodes by degree (few per step) */
      for (PetscInt a = start + 1; a < tail; a++) {
        PetscInt u = q[a], du = xadj[u + 1] - xadj[u], b = a - 1;
        while (b >= start && xadj[q[b] + 1] - xadj[q[b]] > du) {
          q[b + 1] = q[b];
          b--;
        }
        q[b + 1] = u;
      }
    }
  }
  *nlev = maxl + 1;
  return tail;
}

/* RCM of all components; order[k] = node, lev[node] = level counted over all components */
static PetscErrorCode RCM(PetscInt n, const PetscInt *xadj, const PetscInt *adj, PetscInt *order, PetscInt *lev, PetscInt *nlevels)
{
  PetscInt *mark, *q, *done, stamp = 0, pos = 0, loff = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc3(n, &mark, n, &q, n, &done));
  for (PetscInt v = 0; v < n; v++) {
    mark[v] = -1;
    done[v] = 0;
  }
  for (PetscInt v0 = 0; v0 < n; v0++) {
    PetscInt s = v0, nl, cnt, best;
    if (done[v0]) continue;
    /* pseudo-peripheral start (George-Liu): restart from a min-degree node of the last level while the depth grows */
    for (PetscInt it = 0; it < ORDER_PERIPHERAL_MAX_IT; it++) {
      PetscInt nl2;
      ++stamp;
      cnt  = BFS(s, xadj, adj, done, mark, stamp, q, lev, PETSC_FALSE, &nl);
      best = q[cnt - 1];
      for (PetscInt k = cnt - 1; k >= 0 && lev[q[k]] == nl - 1; k--)
        if (xadj[q[k] + 1] - xadj[q[k]] < xadj[best + 1] - xadj[best]) best = q[k];
      if (it > 0 && best == s) break;
      ++stamp;
      (void)BFS(best, xadj, adj, done, mark, stamp, q, lev, PETSC_FALSE, &nl2);
      if (nl2 <= nl) break;
      s = best;
    }
    ++stamp;
    cnt = BFS(s, xadj, adj, done, mark, stamp, q, lev, PETSC_TRUE, &nl);
    for (PetscInt k = 0; k < cnt; k++) {
      order[pos + k] = q[k];
      lev[q[k]] += loff;
      done[q[k]] = 1;
    }
    pos += cnt;
    loff += nl;
  }
  /* reverse the Cuthill-McKee order and the levels */
  for (PetscInt k = 0; k < n / 2; k++) {
    PetscInt t       = order[k];
    order[k]         = order[n - 1 - k];
    order[n - 1 - k] = t;
  }
  for (PetscInt v = 0; v < n; v++) lev[v] = loff - 1 - lev[v];
  *nlevels = loff;
  PetscCall(PetscFree3(mark, q, done));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Level sets in which every level is an independent set (Nakajima's CM-RCM levels): level l takes,
   in frontier order, the nodes not adjacent to a node already in level l; the rejected ones stay in
   the frontier for the next level, followed by the unassigned neighbours of level l.
   cm: Cuthill-McKee order (seeds each component). Out: lev[], *nlevels. */
static PetscErrorCode IndependentLevels(PetscInt n, const PetscInt *xadj, const PetscInt *adj, const PetscInt *cm, PetscInt *lev, PetscInt *nlevels)
{
  PetscInt *F, *G, *T, *inF, nF = 0, nassigned = 0, seed = 0, l = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc4(n, &F, n, &G, n, &T, n, &inF));
  for (PetscInt v = 0; v < n; v++) {
    lev[v] = -1;
    inF[v] = 0;
  }
  while (nassigned < n) {
    PetscInt nG = 0, nT = 0;
    if (!nF) { /* new component: its first node in CM order */
      while (lev[cm[seed]] >= 0) seed++;
      F[nF++]       = cm[seed];
      inF[cm[seed]] = 1;
    }
    for (PetscInt k = 0; k < nF; k++) {
      PetscInt v = F[k], ok = 1;
      for (PetscInt p = xadj[v]; p < xadj[v + 1] && ok; p++)
        if (lev[adj[p]] == l) ok = 0;
      if (ok) {
        lev[v]  = l;
        inF[v]  = 0;
        T[nT++] = v;
        nassigned++;
      } else G[nG++] = v;
    }
    for (PetscInt k = 0; k < nT; k++)
      for (PetscInt p = xadj[T[k]]; p < xadj[T[k] + 1]; p++) {
        PetscInt u = adj[p];
        if (lev[u] < 0 && !inF[u]) {
          inF[u]  = 1;
          G[nG++] = u;
        }
      }
    PetscCall(PetscArraycpy(F, G, nG));
    nF = nG;
    l++;
  }
  *nlevels = l;
  PetscCall(PetscFree4(F, G, T, inF));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Greedy colouring visiting nodes in the order 'order'; node v prefers colour pref[v] (or 0 when
   pref is NULL) and then the next ones cyclically among the first K; when all K clash a new colour
   is opened. Every colour is an independent set by construction. */
static PetscErrorCode GreedyColor(PetscInt n, const PetscInt *xadj, const PetscInt *adj, const PetscInt *order, const PetscInt *pref, PetscInt K, PetscInt *color, PetscInt *ncolors)
{
  PetscInt *used, cap = PetscMax(K, 1) + GREEDY_EXTRA_COLORS, nc = PetscMax(K, 1);

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(n + cap, &used)); /* colours can never exceed max degree + 1 <= n */
  for (PetscInt c = 0; c < n + cap; c++) used[c] = -1;
  for (PetscInt v = 0; v < n; v++) color[v] = -1;
  if (!pref) nc = 1;
  for (PetscInt k = 0; k < n; k++) {
    PetscInt v = order[k], c = -1;
    for (PetscInt p = xadj[v]; p < xadj[v + 1]; p++)
      if (color[adj[p]] >= 0) used[color[adj[p]]] = v;
    if (pref) {
      for (PetscInt d = 0; d < K; d++) {
        PetscInt cc = (pref[v] + d) % K;
        if (used[cc] != v) {
          c = cc;
          break;
        }
      }
      if (c < 0)
        for (PetscInt cc = K; c < 0; cc++)
          if (used[cc] != v) c = cc;
    } else
      for (PetscInt cc = 0; c < 0; cc++)
        if (used[cc] != v) c = cc;
    color[v] = c;
    if (c + 1 > nc) nc = c + 1;
  }
  *ncolors = nc;
  PetscCall(PetscFree(used));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Orders the graph (n nodes, symmetric adjacency xadj/adj without self loops).
   Out: perm[new] = old, ncolors and colorptr[ncolors+1] (allocated here), independent (colours are
   independent sets), nlevels (RCM levels, 0 when not computed). Within one colour nodes are in natural
   order: they are not coupled, so the factor is the same up to rounding, and a sweep thread's
   contiguous share of a colour then lies in the part of the rows it has in the other kernels (with RCM
   order inside the colours, the 2-thread sweep on 33^3 took ~1.29x the local blocks' against ~1.16x).
   natural and rcm give one sequential "colour". */
static PetscErrorCode OrderGraph(PetscInt n, const PetscInt *xadj, const PetscInt *adj, PCASDDICOrderingType type, PetscInt K, PetscInt *perm, PetscInt *ncolors, PetscInt **colorptr, PetscBool *independent, PetscInt *nlevels)
{
  PetscInt *order, *lev, *color, nc = 1;

  PetscFunctionBegin;
  *nlevels     = 0;
  *independent = PETSC_FALSE;
  PetscCall(PetscMalloc3(n, &order, n, &lev, n, &color));
  if (type == PCASDDIC_ORDERING_RCM || type == PCASDDIC_ORDERING_CMRCM) PetscCall(RCM(n, xadj, adj, order, lev, nlevels));
  else
    for (PetscInt v = 0; v < n; v++) order[v] = v;
  if (type == PCASDDIC_ORDERING_NATURAL || type == PCASDDIC_ORDERING_RCM) {
    PetscCall(PetscArraycpy(perm, order, n));
    PetscCall(PetscMalloc1(2, colorptr));
    (*colorptr)[0] = 0;
    (*colorptr)[1] = n;
    *ncolors       = 1;
  } else {
    PetscInt *cnt;
    if (type == PCASDDIC_ORDERING_CMRCM) {
      PetscInt *cnt2, *ord2;
      /* independent level sets grown from the CM start, reversed (RCM), then level l -> colour l mod K;
         the greedy pass repairs the rare clash between levels l and l + K */
      for (PetscInt k = 0; k < n / 2; k++) {
        PetscInt t       = order[k];
        order[k]         = order[n - 1 - k];
        order[n - 1 - k] = t;
      }
      PetscCall(IndependentLevels(n, xadj, adj, order, lev, nlevels));
      PetscCall(PetscCalloc1(*nlevels + 1, &cnt2));
      PetscCall(PetscMalloc1(n, &ord2));
      for (PetscInt v = 0; v < n; v++) lev[v] = *nlevels - 1 - lev[v];
      for (PetscInt v = 0; v < n; v++) cnt2[lev[v] + 1]++;
      for (PetscInt l = 0; l < *nlevels; l++) cnt2[l + 1] += cnt2[l];
      for (PetscInt k = n - 1; k >= 0; k--) ord2[cnt2[lev[order[k]]]++] = order[k]; /* by level, reversed inside */
      PetscCall(PetscArraycpy(order, ord2, n));
      PetscCall(PetscFree(cnt2));
      PetscCall(PetscFree(ord2));
      for (PetscInt v = 0; v < n; v++) lev[v] = lev[v] % K;
      PetscCall(GreedyColor(n, xadj, adj, order, lev, K, color, &nc));
    } else PetscCall(GreedyColor(n, xadj, adj, order, NULL, 0, color, &nc));
    /* drop empty colours (K larger than the number of levels) and number colour by colour */
    PetscCall(PetscCalloc1(nc + 1, &cnt));
    for (PetscInt v = 0; v < n; v++) cnt[color[v] + 1]++;
    {
      PetscInt *newc, m = 0;
      PetscCall(PetscMalloc1(nc, &newc));
      for (PetscInt c = 0; c < nc; c++) newc[c] = cnt[c + 1] ? m++ : -1;
      for (PetscInt v = 0; v < n; v++) color[v] = newc[color[v]];
      PetscCall(PetscFree(newc));
      nc = m;
    }
    PetscCall(PetscArrayzero(cnt, nc + 1));
    for (PetscInt v = 0; v < n; v++) cnt[color[v] + 1]++;
    for (PetscInt c = 0; c < nc; c++) cnt[c + 1] += cnt[c];
    PetscCall(PetscMalloc1(nc + 1, colorptr));
    PetscCall(PetscArraycpy(*colorptr, cnt, nc + 1));
    for (PetscInt k = 0; k < n; k++) perm[cnt[color[order[k]]]++] = order[k];
    for (PetscInt c = 0; c < nc; c++) PetscCall(PetscSortInt((*colorptr)[c + 1] - (*colorptr)[c], perm + (*colorptr)[c]));
    PetscCall(PetscFree(cnt));
    *ncolors     = nc;
    *independent = PETSC_TRUE;
  }
  PetscCall(PetscFree3(order, lev, color));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The ordering of the block rows of the local graph (xadj, adj) into a->perm, a->iperm, the colours
   (a->ncolors, a->colorptr); with -pc_asddic_check, checks that every colour is an independent set */
PetscErrorCode PCASDDICOrder_Private(PC pc, PetscInt nb, const PetscInt *xadj, const PetscInt *adj)
{
  PC_ASDDIC *a = (PC_ASDDIC *)pc->data;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(nb, &a->perm, nb, &a->iperm));
  if (a->nparts > 1) { /* each local block on its own (the graph has no edge between them): one sequential range */
    PetscInt *sx, *sa, *sp, *cp, nc, nl;
    PetscBool ind;

    PetscCall(PetscMalloc3(nb + 1, &sx, xadj[nb] + 1, &sa, nb, &sp));
    a->nlevels = 0;
    for (PetscInt q = 0; q < a->nparts; q++) {
      const PetscInt p0 = a->partptr[q], n = a->partptr[q + 1] - p0;
      for (PetscInt i = 0; i <= n; i++) sx[i] = xadj[p0 + i] - xadj[p0];
      for (PetscInt k = 0; k < sx[n]; k++) sa[k] = adj[xadj[p0] + k] - p0;
      PetscCall(OrderGraph(n, sx, sa, a->ordering, a->colors, sp, &nc, &cp, &ind, &nl));
      PetscCall(PetscFree(cp));
      for (PetscInt i = 0; i < n; i++) a->perm[p0 + i] = p0 + sp[i];
      a->nlevels = PetscMax(a->nlevels, nl);
    }
    PetscCall(PetscFree3(sx, sa, sp));
    PetscCall(PetscMalloc1(2, &a->colorptr));
    a->colorptr[0] = 0;
    a->colorptr[1] = nb;
    a->ncolors     = 1;
    a->independent = PETSC_FALSE;
  } else PetscCall(OrderGraph(nb, xadj, adj, a->ordering, a->colors, a->perm, &a->ncolors, &a->colorptr, &a->independent, &a->nlevels));
  for (PetscInt i = 0; i < nb; i++) a->iperm[a->perm[i]] = i;
  if (a->check && a->independent) { /* every colour an independent set of the graph */
    PetscInt *col, bad = 0;
    PetscCall(PetscMalloc1(nb, &col));
    for (PetscInt c = 0; c < a->ncolors; c++)
      for (PetscInt i = a->colorptr[c]; i < a->colorptr[c + 1]; i++) col[a->perm[i]] = c;
    for (PetscInt ib = 0; ib < nb; ib++)
      for (PetscInt p = xadj[ib]; p < xadj[ib + 1]; p++) bad += (col[adj[p]] == col[ib]);
    PetscCall(PetscFree(col));
    PetscCheck(!bad, PETSC_COMM_SELF, PETSC_ERR_PLIB, "asddic: %" PetscInt_FMT " couplings inside a colour: the colouring is not a set of independent sets", bad / 2);
    PetscCall(PetscInfo(pc, "colouring checked: %" PetscInt_FMT " colours, all independent sets\n", a->ncolors));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Local blocks (PCASDDICSetLocalBlocks): a->partptr from a->localblocks (no empty block), and the graph's
   edges between blocks dropped in place, so the ordering and the factor's pattern stay inside each block */
PetscErrorCode PCASDDICSplitGraph_Private(PC pc, PetscInt nb, PetscInt *xadj, PetscInt *adj)
{
  PC_ASDDIC *a = (PC_ASDDIC *)pc->data;
  PetscInt   k = PetscMax(1, PetscMin(a->localblocks, nb)), nz = 0, q = 0;

  PetscFunctionBegin;
  a->nparts = k;
  PetscCall(PetscMalloc1(k + 1, &a->partptr));
  for (PetscInt j = 0; j <= k; j++) a->partptr[j] = (PetscInt)(((PetscInt64)j * nb) / k); /* j nb overflows 32-bit PetscInt */
  if (k == 1) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt ib = 0; ib < nb; ib++) {
    const PetscInt start = nz;
    while (ib >= a->partptr[q + 1]) q++;
    for (PetscInt p = xadj[ib]; p < xadj[ib + 1]; p++)
      if (adj[p] >= a->partptr[q] && adj[p] < a->partptr[q + 1]) adj[nz++] = adj[p];
    xadj[ib] = start;
  }
  xadj[nb] = nz;
  PetscFunctionReturn(PETSC_SUCCESS);
}
