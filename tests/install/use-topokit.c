/*
 * use-topokit.c - a program built against the installed library through its
 * pkg-config file (make installcheck, run by make distcheck).
 */
#include <stdio.h>
#include <topokit.h>

int main(void)
{
    tk_graph_t *g = NULL;
    tk_dist_summary_t s;
    tk_dist_opts_t o = {0};
    tk_error_t err;

    if (tk_gen_hypercube(5, &g, &err) || tk_dist_summary(g, &o, &s, &err)) {
        fprintf(stderr, "use-topokit: %s\n", err.msg);
        return 1;
    }
    int diameter = (int)s.diameter;

    printf("topokit %s: Q5 diameter %d\n", tk_version(), diameter);
    tk_dist_summary_destroy(&s);
    tk_graph_free(g);
    return diameter == 5 ? 0 : 1;
}
