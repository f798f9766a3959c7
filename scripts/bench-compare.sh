#!/bin/sh
# Before/after throughput, alternating: `sh scripts/bench-compare.sh OUT name=BINARY ...`
#
# Runs `BINARY bench --workers 1 --repeats 1 --seconds 1` for each build in
# turn, ROUNDS rounds (default 3; REVERSE=1 runs the builds in the reverse
# order), appending each run's "batched:" lines to OUT/bench.log (with the
# load average at its start) and its JSON report to OUT/NAME-ROUND.json,
# then prints a table: per case, each build's median over all rounds in
# OUT/bench.log (M steps/s wall, M steps per CPU-second in brackets) and
# its ratio to the first build's. Run it again with the same OUT to add
# rounds. A case a build cannot measure (an older bench without
# --frame-skip) is shown as "-".
set -eu
[ $# -ge 2 ] || { echo "usage: $0 OUT name=BINARY [name=BINARY ...]" >&2; exit 2; }
out=$1; shift
mkdir -p "$out"
builds=$*
[ "${REVERSE:-0}" = 1 ] && builds=$(for nb in "$@"; do echo "$nb"; done | awk '{ a[NR] = $0 } END { for (i = NR; i >= 1; i--) printf "%s ", a[i] }')
# Rounds already in OUT/bench.log (one "### round R NAME" line per build per round).
start=$( (grep '^### round' "$out/bench.log" 2>/dev/null || true) | awk '{ print $3 }' | sort -un | tail -n 1)
start=${start:-0}
for r in $(seq 1 "${ROUNDS:-3}"); do
  for nb in $builds; do
    n=${nb%%=*}; b=${nb#*=}
    [ -x "$b" ] || { echo "bench-compare: $b is not an executable" >&2; exit 2; }
    echo "### round $((start + r)) $n load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/bench.log"
    "$b" bench --workers 1 --repeats 1 --seconds 1 --out "$out/$n-$((start + r)).json" 2>&1 \
      | grep -E '^(pong|breakout) |batched:' >> "$out/bench.log"
  done
done
names=$(for nb in "$@"; do printf '%s ' "${nb%%=*}"; done)
awk -v names="$names" '
  function median(list,   n, v, i, j, t) {
    n = split(list, v, " ")
    for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
  }
  /^### round/ { build = $4; next }
  /^(pong|breakout) / {
    c = $0; sub(/ frameSkip [0-9]+ \(/, " (", c); sub(/ \(frameSkip /, ", frame skip ", c); sub(/\):$/, "", c)
    if (!(c in seen)) { seen[c] = 1; order[++cases] = c }
    next
  }
  /batched: 1 worker/ {
    match($0, /1 worker [0-9.]+ M steps/); w = substr($0, RSTART + 9, RLENGTH - 16)
    match($0, /[0-9.]+ M per CPU-s/); p = substr($0, RSTART, RLENGTH - 11)
    wall[c, build] = wall[c, build] " " w; cpu[c, build] = cpu[c, build] " " p
  }
  END {
    k = split(names, nm, " ")
    printf "| case |"; for (i = 1; i <= k; i++) printf " %s |", nm[i]
    for (i = 2; i <= k; i++) printf " %s / %s |", nm[i], nm[1]; print ""
    printf "|---|"; for (i = 1; i < 2 * k; i++) printf "---:|"; print ""
    for (j = 1; j <= cases; j++) {
      c = order[j]; printf "| %s |", c
      for (i = 1; i <= k; i++) {
        if ((c, nm[i]) in wall) { m[i] = median(wall[c, nm[i]]); printf " %.1f (%.1f) |", m[i], median(cpu[c, nm[i]]) }
        else { m[i] = ""; printf " - |" }
      }
      for (i = 2; i <= k; i++) if (m[1] != "" && m[i] != "") printf " %.2f |", m[i] / m[1]; else printf " |"
      print ""
    }
  }' "$out/bench.log"
