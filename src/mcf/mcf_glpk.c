/*
 * mcf_glpk.c - the only file that talks to GLPK.  Terminal output is turned
 * off for the calling thread before every solve, and glp_error_hook catches
 * GLPK's fatal errors: the hook longjmps back here, then glp_free_env()
 * discards the thread's GLPK environment (as GLPK's reference manual
 * prescribes after an error), so the process never aborts.  GLPK keeps its
 * environment per thread, so concurrent solves in different threads do not
 * share this state.
 */
#include <config.h>

#include <glpk.h>
#include <math.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mcf_internal.h"

double mcf_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct glue_ctx {
    jmp_buf jb;
} glue_ctx_t;

static void glue_hook(void *info)
{
    glue_ctx_t *c = info;
    longjmp(c->jb, 1);
}

static int glue_quiet(void *info, const char *s)
{
    (void)info;
    (void)s;
    return 1; /* nonzero: GLPK prints nothing */
}

/* The LP into P: maximise theta (column 1, bounded by lp->theta_ub),
 * flows >= 0, equality rows then capacity rows, GLPK's scaling.  With
 * test_error a column bound out of range makes GLPK fail. */
static void load_lp(glp_prob *P, const mcf_lp_t *lp, int test_error)
{
    glp_set_obj_dir(P, GLP_MAX);
    glp_add_rows(P, lp->nrows);
    glp_add_cols(P, lp->ncols);
    for (int i = 1; i <= lp->nfixed; i++)
        glp_set_row_bnds(P, i, GLP_FX, 0.0, 0.0);
    for (int i = lp->nfixed + 1; i <= lp->nrows; i++)
        glp_set_row_bnds(P, i, GLP_UP, 0.0, lp->ub[i - lp->nfixed - 1]);
    if (isfinite(lp->theta_ub))
        glp_set_col_bnds(P, 1, GLP_DB, 0.0, lp->theta_ub);
    else
        glp_set_col_bnds(P, 1, GLP_LO, 0.0, 0.0);
    glp_set_obj_coef(P, 1, 1.0);
    for (int j = 2; j <= lp->ncols; j++)
        glp_set_col_bnds(P, j, GLP_LO, 0.0, 0.0);
    if (test_error)
        glp_set_col_bnds(P, lp->ncols + 1, GLP_LO, 0.0, 0.0); /* column out of range */
    glp_load_matrix(P, lp->nnz, lp->ia, lp->ja, lp->ar);
    glp_scale_prob(P, GLP_SF_AUTO);
}

/* The pricer or the separator of a solve (at most one), its work array
 * (row duals or column values, 1-based) and what it last returned. */
typedef struct gen {
    mcf_pricer_fn pricer;
    void *pctx;
    mcf_separator_fn sep;
    void *sctx;
    double *work;
    tk_status_t st;
    tk_error_t err;
} gen_t;

/* Row generation's new capacity rows (upper bounds only). */
static void add_rows(glp_prob *P, const mcf_newrows_t *nr)
{
    int first = glp_add_rows(P, (int)nr->nrows);
    for (int64_t i = 0; i < nr->nrows; i++) {
        int len = (int)(nr->rowptr[i + 1] - nr->rowptr[i]);
        glp_set_row_bnds(P, first + (int)i, GLP_UP, 0.0, nr->ub[i]);
        glp_set_mat_row(P, first + (int)i, len, nr->col + nr->rowptr[i] - 1,
                        nr->val + nr->rowptr[i] - 1);
    }
}

/* Column generation's new flow columns (>= 0). */
static void add_cols(glp_prob *P, const mcf_newcols_t *nc)
{
    int first = glp_add_cols(P, (int)nc->ncols);
    for (int64_t j = 0; j < nc->ncols; j++) {
        int len = (int)(nc->colptr[j + 1] - nc->colptr[j]);
        glp_set_col_bnds(P, first + (int)j, GLP_LO, 0.0, 0.0);
        /* GLPK reads ind[1..len], val[1..len]: pass pointers one before */
        glp_set_mat_col(P, first + (int)j, len, nc->row + nc->colptr[j] - 1,
                        nc->val + nc->colptr[j] - 1);
    }
}

/* After an optimal solve: the separator's violated capacity rows or the
 * pricer's improving columns join P.  Returns 1 when some did (solve
 * again), 0 when none did (optimal for the whole LP) or the callback
 * failed (gen->st). */
static int generate(glp_prob *P, const mcf_lp_t *lp, gen_t *gen, glp_smcp *parm)
{
    if (gen->sep) {
        mcf_newrows_t nr;
        memset(&nr, 0, sizeof nr);
        for (int j = 1; j <= lp->ncols; j++)
            gen->work[j] = glp_get_col_prim(P, j);
        gen->st = gen->sep(gen->sctx, gen->work, lp->ncols, &nr, &gen->err);
        if (gen->st != TK_OK || nr.nrows == 0)
            return 0;
        add_rows(P, &nr);
        /* the new rows' slacks enter the basis: it stays dual feasible, so
         * the dual simplex goes on from it */
        parm->meth = GLP_DUALP;
        return 1;
    }
    mcf_newcols_t nc;
    memset(&nc, 0, sizeof nc);
    for (int i = 1; i <= lp->nrows; i++)
        gen->work[i] = glp_get_row_dual(P, i);
    gen->st = gen->pricer(gen->pctx, gen->work, &nc, &gen->err);
    if (gen->st != TK_OK || nc.ncols == 0)
        return 0;
    add_cols(P, &nc);
    return 1;
}

/* The optimum: theta (>= 0), the iteration count, and the duals and
 * activities of every capacity row at the end (row generation may have
 * added some). */
static void read_solution(glp_prob *P, const mcf_lp_t *lp, double *theta, double *dual, double *act,
                          int64_t *iters)
{
    int ncap = glp_get_num_rows(P) - lp->nfixed;

    *theta = glp_get_obj_val(P);
    if (*theta < 0)
        *theta = 0;
    if (iters)
        *iters = glp_get_it_cnt(P);
    for (int i = 0; i < ncap; i++) {
        if (dual)
            dual[i] = glp_get_row_dual(P, lp->nfixed + 1 + i);
        if (act)
            act[i] = glp_get_row_prim(P, lp->nfixed + 1 + i);
    }
}

/* Give the problem and the error hook back. */
static void glue_end(glp_prob *P)
{
    glp_delete_prob(P);
    glp_error_hook(NULL, NULL);
}

tk_status_t mcf_glpk_solve(const mcf_lp_t *lp, double time_limit, int test_error,
                           mcf_pricer_fn pricer, void *pctx, mcf_separator_fn sep, void *sctx,
                           double *theta, double *dual, double *act, int64_t *iters,
                           int64_t *rounds, tk_error_t *err)
{
    glue_ctx_t ctx;
    double t0 = mcf_now();
    double *volatile work = NULL;
    gen_t gen = {pricer, pctx, sep, sctx, NULL, TK_OK, {0}};
    glp_prob *volatile P = NULL;
    glp_smcp parm;
    int ret = 0, st = 0;

    if (pricer && sep)
        return tk_error_set(err, TK_EINTERNAL, NULL, 0, "column and row generation together");
    tk_error_clear(&gen.err);
    *rounds = 0;
    if (pricer || sep) {
        work = tk_malloc_array((size_t)(pricer ? lp->nrows : lp->ncols) + 1, sizeof *work);
        if (!work)
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        gen.work = work;
    }
    glp_term_out(GLP_OFF);
    glp_term_hook(glue_quiet, NULL);
    if (setjmp(ctx.jb)) {
        free(work);
        /* GLPK called glp_error: its environment is unusable; free it all
         * (this also frees P).  The next GLPK call starts a fresh one. */
        glp_free_env();
        return tk_error_set(err, TK_EINTERNAL, NULL, 0, "GLPK failed (internal solver error)");
    }
    glp_error_hook(glue_hook, &ctx);

    P = glp_create_prob();
    load_lp(P, lp, test_error);
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    /* measured (tests/bench/mcf.sh): primal is several times faster on the
     * arc formulation with column generation, dual on the path formulation */
    parm.meth = pricer ? GLP_PRIMAL : GLP_DUALP;
    parm.presolve = GLP_OFF; /* presolve would drop the basis between rounds */
    glp_adv_basis(P, 0);
    /* solve, and while the pricer or separator adds something, again */
    for (;;) {
        if (time_limit > 0) {
            double left = time_limit - (mcf_now() - t0);
            if (left <= 0) {
                ret = GLP_ETMLIM;
                break;
            }
            parm.tm_lim = left * 1000.0 >= (double)INT32_MAX ? INT32_MAX : (int)ceil(left * 1000.0);
        }
        ret = glp_simplex(P, &parm);
        st = glp_get_status(P);
        if (ret != 0 || st != GLP_OPT || !(pricer || sep) || !generate(P, lp, &gen, &parm))
            break;
        (*rounds)++;
    }
    free(work);
    work = NULL;
    if (gen.st != TK_OK) {
        glue_end(P);
        if (err)
            *err = gen.err;
        return gen.st;
    }
    if (ret == GLP_ETMLIM) {
        glue_end(P);
        return tk_error_set(err, TK_ELIMIT, NULL, 0, "time limit of %g s reached (exact LP)",
                            time_limit);
    }
    if (ret != 0 || st != GLP_OPT) {
        glue_end(P);
        return tk_error_set(err, TK_EINTERNAL, NULL, 0,
                            "GLPK simplex failed (return code %d, status %d)", ret, st);
    }
    read_solution(P, lp, theta, dual, act, iters);
    glue_end(P);
    return TK_OK;
}
