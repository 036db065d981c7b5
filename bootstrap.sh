#!/bin/sh
# bootstrap.sh - set up topokit on a fresh Debian 12 machine and build it.
#
#   ./bootstrap.sh            install build dependencies (as root, with
#                             apt-get), generate configure, configure, build
#
# Environment: CONFIGURE_FLAGS (extra ./configure arguments), JOBS (make -j).
# Safe to run again: steps already done are skipped.
set -eu
cd "$(dirname "$0")"

# Debian packages: the toolchain, the four libraries, and the peers used by
# the cross-check tests and benchmarks (nauty tools, glpsol, networkx, igraph,
# numpy/scipy, bc, /usr/bin/time), graphviz's dot for the README's tour;
# gnuplot-nox draws the figures of topo-plot and of make demo's report (its
# cairo terminals give PNG, SVG and PDF), libxml2-utils' xmllint checks that
# report's HTML; clang-format (14 on Debian 12) checks the formatting of the
# sources in make check (tests/cli/source-layout.sh), and
# binutils' nm the library's exported symbols; libsimgrid-dev (and g++ from
# build-essential) builds the SimGrid cross-check of topo-sim's max-min
# solver (tests/cli/sim-simgrid.sh, tests/bench/sim-simgrid.sh).
# libopenblas0-serial becomes the system BLAS behind CHOLMOD's factorisation
# (3x faster than the reference BLAS on large tori; single-threaded, so
# results stay identical whatever the thread count).  openmpi-bin and
# libopenmpi-dev: the tools' MPI path (configure --with-mpi, tested by
# tests/cli/mpi.sh under mpirun).  clang builds the libFuzzer harnesses of
# make fuzz (tests/fuzz/); cadical is the SAT solver of topo-antmill's
# exact search (--exact).
PKGS="build-essential autoconf automake libtool pkg-config clang-format clang binutils
      libglpk-dev libsuitesparse-dev libgsl-dev libnauty2-dev libopenblas0-serial libsimgrid-dev
      nauty glpk-utils mandoc bc time cadical
      python3 python3-networkx python3-igraph python3-numpy python3-scipy
      gnuplot-nox libxml2-utils graphviz openmpi-bin libopenmpi-dev"

missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
        missing="$missing $p"
done
if [ -n "$missing" ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "bootstrap.sh: missing Debian packages:$missing (run as root, or install them)" >&2
        exit 1
    fi
    echo "bootstrap.sh: installing$missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # shellcheck disable=SC2086
    apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

[ -x configure ] || autoreconf -fi
mpi=""
pkg-config --exists ompi-c 2>/dev/null && mpi="--with-mpi"
[ -f Makefile ] || ./configure $mpi ${CONFIGURE_FLAGS:-}
make -j"${JOBS:-$(nproc)}"
