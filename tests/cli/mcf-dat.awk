# mcf-dat.awk - MathProg data for tests/data/mcf.mod from a topokit edge list and a
# pattern file (awk -v p=SERVERS_PER_SWITCH -f mcf-dat.awk EDGES PATTERN).  Switch-level
# weights are scaled by p (topokit(7) units); server-level demands aggregate to
# their switches and set tcap = 1 / largest per-server send or receive total.
FNR == 1 { fileno++ }
fileno == 1 && /^# topokit-edges/ { n = $4; dir = $6; next }
fileno == 1 && /^#/ { next }
fileno == 1 { u = $1; v = $2; c = (NF >= 3 ? $3 : 1);
   E++; tl[E] = u; hd[E] = v; cp[E] = c;
   if (!dir) { E++; tl[E] = v; hd[E] = u; cp[E] = c } next }
fileno == 2 && /^level/ { level = $2; next }
fileno == 2 && $1 !~ /^[0-9]+$/ { next }   # the other header lines (spec, fingerprint, ...)
fileno == 2 { w = (NF >= 3 ? $3 : 1); s = $1; t = $2;
   if (level == "server") { ss = int(s / p); tt = int(t / p); snd[s] += w; rcv[t] += w }
   else { ss = s; tt = t; w = w * p }
   if (ss != tt) dem[ss " " tt] += w }
END {
   printf "data;\nset V :="; for (i = 0; i < n; i++) printf " %d", i; print ";"
   printf "set E :="; for (e = 1; e <= E; e++) printf " %d", e; print ";"
   print "param : tl hd cap :="; for (e = 1; e <= E; e++) print e, tl[e], hd[e], cp[e]; print ";"
   printf "set D :="; for (k in dem) { split(k, a, " "); printf " (%s,%s)", a[1], a[2] } print ";"
   print "param dem :="; for (k in dem) { split(k, a, " "); printf "%s %s %.17g\n", a[1], a[2], dem[k] } print ";"
   mx = 0; for (k in snd) if (snd[k] > mx) mx = snd[k]; for (k in rcv) if (rcv[k] > mx) mx = rcv[k]
   if (mx > 0) printf "param tcap := %.17g;\n", 1 / mx
   print "end;" }
