#!/bin/sh
# soak.sh - long runs with resident memory sampled (make soak; never make
# check): topo-sim's dynamic mode over 10^6 Poisson flows at offered load
# 0.3 (the default 0.5 is above this graph's uniform saturation, 0.405
# under min routing by topo-load: flows pile up, each event costs more
# than the last, and 10^6 flows would take hours; at 0.3 the run is
# linear, about 60 s of CPU) and topo-medoid over 1000 samples of rrg
# n=1000 d=16 (about 0.1 s of CPU each, so that the run is long enough to
# sample; SOAK_RUNS="sim medoid" picks the runs).  Each run's RSS (VmRSS
# of /proc/PID/status) is sampled every half second; the table gives the
# curve at tenths of the run and the verdict: the RSS at the end may
# exceed the RSS at 30 % of the run (after warm-up) by at most 10 % + 2
# MiB.  Needs topo-gen, topo-sim and topo-medoid on PATH (make soak sets
# it).  Figures: RESULTS.md.
set -eu
W=$(mktemp -d "${TMPDIR:-/tmp}/tk-soak.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
FLOWS=${SOAK_FLOWS:-1000000}
SAMPLES=${SOAK_SAMPLES:-1000}
RUNS=${SOAK_RUNS:-sim medoid}
topo-gen rrg n=64 d=6 -p 4 -s 1 >"$W/g.topo"

# soak NAME COMMAND...: run it, sample its RSS, print the curve and verdict
status=0
soak() {
    name=$1
    shift
    "$@" >"$W/out" 2>"$W/err" &
    pid=$!
    : >"$W/rss"
    t0=$(date +%s.%N)
    while kill -0 "$pid" 2>/dev/null; do
        r=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
        [ -n "$r" ] && echo "$(echo "$(date +%s.%N) - $t0" | bc) $r" >>"$W/rss"
        sleep 0.5
    done
    wait "$pid" || { echo "soak: $name failed: $(cat "$W/err")"; status=1; return; }
    awk -v name="$name" '
        { t[NR] = $1; r[NR] = $2 }
        END {
            if (NR < 4) { printf "%s: too short to sample (%d samples)\n", name, NR; exit }
            printf "%s: %d samples over %.1f s; RSS (MiB) at 0%%..100%% of the run:", name, NR, t[NR]
            for (i = 0; i <= 10; i++) { k = int(1 + (NR - 1) * i / 10); printf " %.1f", r[k] / 1024 }
            warm = r[int(1 + (NR - 1) * 0.3)]; end = r[NR]
            ok = end <= warm * 1.1 + 2048
            printf "\n%s: after warm-up %.1f MiB, at the end %.1f MiB: %s\n", name, warm / 1024,
                end / 1024, ok ? "flat" : "GROWS"
            exit !ok
        }' "$W/rss" || status=1
}

case " $RUNS " in *" sim "*)
    soak "topo-sim dynamic, $FLOWS flows at rho 0.3" \
        topo-sim --poisson --rho 0.3 --count "$FLOWS" -s 1 "$W/g.topo" ;;
esac
case " $RUNS " in *" medoid "*)
    soak "topo-medoid rrg n=1000 d=16, $SAMPLES samples" \
        topo-medoid rrg n=1000 d=16 --samples "$SAMPLES" -s 1 -o "$W/medoid.topo" ;;
esac
exit $status
