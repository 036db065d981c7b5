/*
 * simgrid-maxmin.cpp - a max-min instance file (the format of
 * tests/cli/mm-solve.c) solved by SimGrid's max-min solver through its public
 * S4U API, for the cross-check tests/cli/sim-simgrid.sh and the benchmark
 * tests/bench/sim-simgrid.sh.  Built only when configure finds SimGrid
 * (HAVE_SIMGRID); a check program, not installed.
 *
 *   simgrid-maxmin [-t] [-r RHO] FILE [--cfg=NAME:VALUE ...]
 *
 * How SimGrid is driven (the development package installs no header of its
 * lmm solver, so it is reached through a simulation):
 *   - one star zone (s4u::create_star_zone): a resource is a link of
 *     bandwidth c_r and latency 0 (SHARED: the flows crossing it share c_r);
 *     a flow is a host whose route "up" is its list of links; one sink host
 *     has an empty route "down", so the route of flow i to the sink is
 *     exactly its links;
 *   - the network model CM02 (no latency or bandwidth correction factors,
 *     weight-S 0: every flow has sharing penalty 1) with cross traffic off
 *     (otherwise every flow also puts 5% of its rate on its reverse route):
 *     with latency 0 the TCP-gamma bound does not apply and a flow's only
 *     bound is the smallest bandwidth on its route, so the rates are plain
 *     max-min;
 *   - a flow's rate bound (B, or RHO with -r) is a link of its own of that
 *     bandwidth at the end of its route: Comm::set_rate has no effect on a
 *     host-to-host comm in SimGrid 3.32 (the rate never reaches the network
 *     model: a flow of bound 0.2 still got its share 0.5), and a private
 *     link is the same constraint (mm-solve models a bound the same way);
 *   - one actor starts every flow together (Comm::sendto_init from the
 *     flow's host to the sink, a payload no flow can finish in the
 *     simulated period), sleeps for T = 1000
 *     simulated seconds (one solve of the max-min system: nothing completes
 *     before T) and reads each flow's rate as (payload - remaining) / T.
 * Further --cfg options go to SimGrid (e.g. --cfg=maxmin/precision:1e-9).
 * SimGrid's default maxmin/precision is 1e-5 (a constraint whose remaining
 * capacity falls below 1e-5 of its bound counts as saturated).
 *
 * Prints one rate per flow, in order, as %.17g.  -t prints on stderr
 * "read S platform S start S solve S total S" (CPU seconds: reading the
 * file, building the platform, starting the flows, the simulated period
 * that holds the solve, all of it).  The program leaves by _Exit right
 * after printing (see the end of main).
 */
#include <simgrid/s4u.hpp>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

namespace sg4 = simgrid::s4u;

/* CPU seconds of the process (as mm-solve's -t) */
static double now()
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The next number of the file, skipping blanks and comments (as mm-solve). */
static bool next_num(FILE *f, double *out)
{
    char buf[64];
    int c;
    int n = 0;
    for (;;) {
        c = getc(f);
        if (c == '#')
            while (c != '\n' && c != EOF)
                c = getc(f);
        if (c == EOF)
            return false;
        if (!isspace(c))
            break;
    }
    while (c != EOF && !isspace(c) && c != '#' && n < (int)sizeof buf - 1) {
        buf[n++] = (char)c;
        c = getc(f);
    }
    if (c == '#')
        ungetc(c, f);
    buf[n] = '\0';
    char *end;
    errno = 0;
    *out = strtod(buf, &end);
    return n > 0 && *end == '\0' && errno == 0;
}

static bool next_count(FILE *f, long lo, long *out)
{
    double d;
    if (!next_num(f, &d) || d != std::floor(d) || d < (double)lo || d > 1e12)
        return false;
    *out = (long)d;
    return true;
}

[[noreturn]] static void die(const std::string &msg)
{
    std::fprintf(stderr, "simgrid-maxmin: %s\n", msg.c_str());
    std::exit(1);
}

int main(int argc, char **argv)
{
    bool timing = false;
    double rho = 0.0;
    const char *path = nullptr;
    std::vector<std::string> cfg;
    for (int i = 1; i < argc; i++) {
        if (std::strcmp(argv[i], "-t") == 0)
            timing = true;
        else if (std::strcmp(argv[i], "-r") == 0 && i + 1 < argc)
            rho = std::strtod(argv[++i], nullptr);
        else if (std::strncmp(argv[i], "--cfg=", 6) == 0)
            cfg.emplace_back(argv[i] + 6);
        else if (!path && argv[i][0] != '-')
            path = argv[i];
        else
            die("usage: simgrid-maxmin [-t] [-r RHO] FILE [--cfg=NAME:VALUE ...]");
    }
    if (!path || rho < 0.0)
        die("usage: simgrid-maxmin [-t] [-r RHO] FILE [--cfg=NAME:VALUE ...]");

    double t0 = now();
    FILE *f = std::fopen(path, "r");
    if (!f)
        die(std::string(path) + ": " + std::strerror(errno));
    long R, F;
    if (!next_count(f, 1, &R) || !next_count(f, 1, &F))
        die(std::string(path) + ": bad header (want: resources flows)");
    std::vector<double> cap(R), bound(F);
    std::vector<std::vector<long>> route(F);
    double top = 0.0;
    for (long r = 0; r < R; r++) {
        if (!next_num(f, &cap[r]) || !(cap[r] > 0.0))
            die(std::string(path) + ": capacity " + std::to_string(r) + ": want a positive number");
        top = std::max(top, cap[r]);
    }
    for (long v = 0; v < F; v++) {
        long k;
        if (!next_num(f, &bound[v]) || !(bound[v] >= 0.0) || !next_count(f, 1, &k))
            die(std::string(path) + ": flow " + std::to_string(v) + ": want BOUND K r_1 .. r_K");
        top = std::max(top, bound[v]);
        for (long i = 0; i < k; i++) {
            long r;
            if (!next_count(f, 0, &r) || r >= R)
                die(std::string(path) + ": flow " + std::to_string(v) + ": bad resource");
            route[v].push_back(r);
        }
    }
    std::fclose(f);
    double t1 = now();

    /* SimGrid: plain max-min (see the head comment) */
    std::string quiet = "--log=root.thres:warning"; /* no configuration notices */
    std::vector<char *> sgargv{argv[0], quiet.data(), nullptr};
    int sgargc = 2;
    sg4::Engine e(&sgargc, sgargv.data());
    sg4::Engine::set_config("network/model:CM02");
    sg4::Engine::set_config("network/crosstraffic:0");
    for (const auto &c : cfg) /* the user's --cfg last: they win */
        sg4::Engine::set_config(c);

    auto *zone = sg4::create_star_zone("maxmin");
    std::vector<sg4::Link *> links(R);
    for (long r = 0; r < R; r++)
        links[r] = zone->create_link("l" + std::to_string(r), cap[r])->set_latency(0)->seal();
    sg4::Host *sink = zone->create_host("sink", 1e9)->seal();
    std::vector<sg4::Host *> hosts(F);
    for (long v = 0; v < F; v++) {
        hosts[v] = zone->create_host("f" + std::to_string(v), 1e9)->seal();
        std::vector<sg4::LinkInRoute> lr;
        for (long r : route[v])
            lr.emplace_back(links[r]);
        double b = bound[v];
        if (rho > 0.0 && (b == 0.0 || rho < b))
            b = rho;
        if (b > 0.0) /* the flow's own link: its rate bound */
            lr.emplace_back(zone->create_link("b" + std::to_string(v), b)->set_latency(0)->seal());
        zone->add_route(hosts[v]->get_netpoint(), nullptr, nullptr, nullptr, lr, false);
    }
    zone->seal();
    double t2 = now();

    /* no flow can finish before T: every rate is at most top */
    const double T = 1000.0;
    const uint64_t payload = (uint64_t)std::ceil(4.0 * (rho > 0.0 ? std::min(rho, top) : top) * T);
    double t3 = 0.0;
    sg4::Actor::create("driver", sink, [&]() {
        std::vector<sg4::CommPtr> comms(F);
        for (long v = 0; v < F; v++) {
            comms[v] = sg4::Comm::sendto_init();
            comms[v]->set_payload_size(payload);
            comms[v]->set_source(hosts[v]);
            comms[v]->set_destination(sink); /* starts it */
        }
        t3 = now();
        sg4::this_actor::sleep_for(T);
        double t4 = now();
        for (long v = 0; v < F; v++)
            std::printf("%.17g\n", ((double)payload - comms[v]->get_remaining()) / T);
        if (timing)
            std::fprintf(stderr, "read %.6f platform %.6f start %.6f solve %.6f total %.6f\n",
                         t1 - t0, t2 - t1, t3 - t2, t4 - t3, now() - t0);
        /* Done: cancelling the running comms costs SimGrid time quadratic in
         * their number (4 s for 13000, over 5 minutes for 52560), and
         * destroying them uncancelled prints a backtrace each; neither is
         * part of the solve, so leave without either. */
        int rc = std::fflush(stdout) != 0 || std::ferror(stdout) ? 1 : 0;
        std::_Exit(rc);
    });
    e.run();
    die("the simulation ended before the driver read the rates");
}
