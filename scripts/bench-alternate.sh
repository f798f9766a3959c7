#!/bin/bash
# Builds compared case by case, alternating within seconds:
#   bash scripts/bench-alternate.sh ROUNDS OUT name=BINARY ... -- "CASE ARGS" ...
#
# For each round and each case, runs every build's
# `BINARY bench CASE ARGS --workers 1 --repeats 1 --seconds 1` one after
# the other (every other round in reverse order), appending
# "round|case|name|M steps/s|load" to OUT (the "batched: 1 worker"
# figure; with FIGURE=cpu its steps per CPU-second of the process, which
# a machine loaded by other work disturbs less than wall time). Then
# prints, per case, each build's median and the median of
# the paired ratios to the first build (each round's figures taken
# seconds apart), with their range and the rounds the build was faster.
# On a VM whose speed drifts within minutes this resolves builds that
# whole-bench rounds (scripts/bench-compare.sh) do not.
# Example: bash scripts/bench-alternate.sh 10 /tmp/alt.log prev=./gym-train-prev new=.build/release/gym-train \
#   -- "--game breakout --preset atari" "--game breakout --preset classic --frame-skip 4"
set -eu
[ $# -ge 5 ] || { echo "usage: $0 ROUNDS OUT name=BINARY ... -- \"CASE ARGS\" ..." >&2; exit 2; }
rounds=$1; out=$2; shift 2
builds=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do builds+=("$1"); shift; done
[ $# -gt 0 ] || { echo "bench-alternate: no -- before the cases" >&2; exit 2; }
shift
for nb in "${builds[@]}"; do
  [ -x "${nb#*=}" ] || { echo "bench-alternate: ${nb#*=} is not an executable" >&2; exit 2; }
done
: > "$out"
for r in $(seq 1 "$rounds"); do
  order=("${builds[@]}")
  if [ $((r % 2)) = 0 ]; then
    order=(); for ((i = ${#builds[@]} - 1; i >= 0; i--)); do order+=("${builds[i]}"); done
  fi
  for c in "$@"; do
    for nb in "${order[@]}"; do
      # shellcheck disable=SC2086
      v=$("${nb#*=}" bench $c --workers 1 --repeats 1 --seconds 1 --out "$out.json" | grep 'batched: 1 worker' | head -n 1 \
          | if [ "${FIGURE:-wall}" = cpu ]; then sed -n 's/.* \([0-9.]*\) M per CPU-s.*/\1/p'
            else sed -n 's/.*batched: 1 worker \([0-9.]*\) M steps.*/\1/p'; fi)
      echo "$r|$c|${nb%%=*}|$v|$(cut -d' ' -f1 /proc/loadavg)" >> "$out"
    done
  done
done
rm -f "$out.json"
python3 - "$out" "${builds[0]%%=*}" <<'PY'
import collections, statistics, sys
figures = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    r, case, name, v, _ = line.strip().split('|')
    if v: figures[(case, int(r))][name] = float(v)
first = sys.argv[2]
cases, names = [], []
for (case, _), f in figures.items():
    if case not in cases: cases.append(case)
    for n in f:
        if n not in names: names.append(n)
for case in cases:
    rounds = [f for (c, _), f in figures.items() if c == case]
    parts = []
    for n in names:
        vals = [f[n] for f in rounds if n in f]
        part = f"{n} {statistics.median(vals):.2f}"
        if n != first:
            ratios = [f[n] / f[first] for f in rounds if n in f and first in f]
            if ratios:
                part += (f" (paired {n}/{first} {statistics.median(ratios):.3f} [{min(ratios):.2f}, {max(ratios):.2f}],"
                         f" faster in {sum(x > 1 for x in ratios)} of {len(ratios)})")
        parts.append(part)
    print(f"{case}: " + "; ".join(parts))
PY
