/*
 * topo-sim.h - what the two files of topo-sim share: topo-sim.c (options,
 * the steady state: --rho, --sweep, --bisect, --curve, --epochs) and
 * sim-dyn.c (the dynamic mode: --workload, --poisson).
 */
#ifndef TK_TOOLS_TOPO_SIM_H
#define TK_TOOLS_TOPO_SIM_H

#include <stdint.h>
#include <stdio.h>

#include "cli.h"

typedef struct args {
    const char *routing, *pattern, *make;
    tk_arb_t arb;
    tk_split_t split;
    int coupled, no_aggregate, check_another, curve, json, progress, threads;
    int64_t max_sweeps;
    double rho_lo, rho_hi, rho_step;
    int sweep;
    double bisect; /* --bisect RES (0: none) */
    const char *latency;
    const char *per_server, *flows;
    uint64_t seed;
    int rho_given;
    /* dynamic mode */
    const char *workload, *sizes, *buckets, *write_workload;
    int poisson, verify;
    double horizon;
    int64_t count;
    const char *output;
    char **inputs;
    int ninputs;
    /* run state */
    tk_route_spec_t spec;
    int adaptive; /* -r names an adaptive rule (then adapt, and spec per graph) */
    tk_adapt_t adapt;
    const char *rtext;      /* the routing column */
    int64_t epochs, change; /* --epochs, --change (0: none) */
    const char *then_make;  /* --then-make */
    tk_pattern_t *pat;
    int force; /* --force: -P made for another topology */
    int header_done;
    /* the TSV rows of the steady state, held until every graph is read:
     * one util column per link class, the union over the graphs */
    cli_held_t held;
    FILE *psfp, *flfp;
    cli_out_t psout, flout;
    /* --trace FILE: one row per iteration of every adaptive solve */
    const char *trace;
    FILE *trfp;
    cli_out_t trout;
    const char *tr_name; /* the graph and the point being solved */
    int64_t tr_point;
} args_t;

/* Wall-clock seconds, for --progress. */
double sim_now(void);
/* The error of graph `index` of input (INPUT: graph N: message); 1. */
int sim_fail_graph(const char *input, long index, const tk_error_t *err);

/* Dynamic mode (sim-dyn.c): the header line of its table, once (none with
 * --json), and the run of one graph: its rows on out, its flows on
 * a->flfp.  0, or 1 with the error printed. */
void sim_dyn_header(FILE *out, args_t *a);
int sim_dyn_graph(FILE *out, args_t *a, const tk_graph_t *g, const char *input, long index);

#endif
