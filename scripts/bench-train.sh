#!/bin/sh
# Training milestones, a benchmark (not a test): `make bench-train`.
#
# For each run below, trains from scratch with a shipped config, keeping the
# policy every SNAP iterations (checkpoints/iteration-N.json), then evaluates
# those snapshots in order with `gym-train eval` on seeds of the bench's own
# (--seed $BENCH_SEED: neither training nor its periodic evaluation saw them)
# and prints, for each milestone, the first snapshot that reached it with the
# training env steps and wall time (from metrics.csv; wall time includes the
# run's own periodic evaluations). A milestone not reached is printed as such.
#
# Environment: GYM_TRAIN (the binary), OUT (results root), BENCH_SEED,
# BENCH_GAMES (evaluation games or episodes per snapshot), RUNS (which runs:
# any of pong breakout breakout-reinforce breakout-atari), PONG_GAMES (the Pong
# game config of the evaluations).
set -eu

GYM_TRAIN=${GYM_TRAIN:-.build/release/gym-train}
OUT=${OUT:-Results/bench-train}
BENCH_SEED=${BENCH_SEED:-2026}
BENCH_GAMES=${BENCH_GAMES:-100}
RUNS=${RUNS:-pong breakout breakout-reinforce}

mkdir -p "$OUT"
TABLE="$OUT/milestones.txt"
: > "$TABLE.tmp"

# json_num FILE KEY: the number after "KEY": in FILE.
json_num() { sed -n "s/.*\"$2\": *\([-0-9.e+]*\).*/\1/p" "$1" | head -n 1; }

# at_iteration RUN_DIR N: "env steps, wall s" of iteration N from metrics.csv.
at_iteration() {
  awk -F, -v n="$2" 'NR > 1 && $1 == n { printf "%9.1f M %8.1f s", $2 / 1e6, $3; exit }' "$1/metrics.csv"
}

# row GAME TRAINER MILESTONE ITERATION RUN_DIR (ITERATION empty: not reached)
row() {
  if [ -n "$4" ]; then
    printf '%-18s %-10s %-40s %9s %s\n' "$1" "$2" "$3" "$4" "$(at_iteration "$5" "$4")" >> "$TABLE.tmp"
  else
    last=$(awk -F, 'END { printf "%d iterations, %.1f M env steps, %.1f s", $1, $2 / 1e6, $3 }' "$5/metrics.csv")
    printf '%-18s %-10s %-40s not reached in %s\n' "$1" "$2" "$3" "$last" >> "$TABLE.tmp"
  fi
}

# with_snapshots CONFIG DIR: a copy of CONFIG in DIR keeping a snapshot every $SNAP iterations.
with_snapshots() {
  mkdir -p "$2"
  sed "s/\"checkpointInterval\": *[0-9]*/\"checkpointInterval\": ${SNAP:-10}/" "$1" > "$2.config.json"
  grep -q "\"checkpointInterval\": ${SNAP:-10}" "$2.config.json" || { echo "bench-train: $1 has no checkpointInterval" >&2; exit 2; }
  echo "$2.config.json"
}

snapshots() { ls "$1"/checkpoints/iteration-*.json | sort; }
iteration_of() { basename "$1" .json | sed 's/iteration-0*//'; }

# Pong snapshots play Configs/pong-games.json (classic rules, 108 000-step
# safety cap) like `make run`'s evaluations: against the perfect tracker
# whole games need more steps than the preset's 30 000.
PONG_GAMES=${PONG_GAMES:-Configs/pong-games.json}

bench_pong() {
  dir="$OUT/pong-es"
  rm -rf "$dir"
  "$GYM_TRAIN" train --config "$(with_snapshots Configs/train.json "$dir")" --out "$dir" > "$dir.log"
  random="" even="" whole=""
  for snap in $(snapshots "$dir"); do
    it=$(iteration_of "$snap")
    if [ -z "$random" ]; then
      "$GYM_TRAIN" eval --config "$PONG_GAMES" --agent "linear:$snap" --opponent random --episodes "$BENCH_GAMES" --seed "$BENCH_SEED" \
        --out "$dir/bench/$it-random" > /dev/null
      awk -v s="$(json_num "$dir/bench/$it-random/summary.json" pointShare)" 'BEGIN { exit !(s >= 0.95) }' && random=$it
    fi
    if [ -z "$even" ] || [ -z "$whole" ]; then
      "$GYM_TRAIN" eval --config "$PONG_GAMES" --agent "linear:$snap" --opponent tracker --episodes "$BENCH_GAMES" --seed "$BENCH_SEED" \
        --out "$dir/bench/$it-tracker" > /dev/null
      s="$dir/bench/$it-tracker/summary.json"
      [ -z "$even" ] && awk -v s="$(json_num "$s" pointShare)" 'BEGIN { exit !(s >= 0.5) }' && even=$it
      [ -z "$whole" ] && awk -v s="$(json_num "$s" wholeGameWinRate)" 'BEGIN { exit !(s >= 0.9) }' && whole=$it
    fi
    [ -n "$random" ] && [ -n "$even" ] && [ -n "$whole" ] && break
  done
  row pong es "95% of points vs random" "$random" "$dir"
  row pong es "an even share of points vs tracker" "$even" "$dir"
  row pong es "90% of whole games vs tracker" "$whole" "$dir"
}

# bench_breakout NAME CONFIG TRAINER [train options...]
bench_breakout() {
  name=$1 config=$2 trainer=$3
  shift 3
  dir="$OUT/$name"
  rm -rf "$dir"
  "$GYM_TRAIN" train --config "$(with_snapshots "$config" "$dir")" --trainer "$trainer" --out "$dir" "$@" > "$dir.log"
  half="" first="" most=""
  for snap in $(snapshots "$dir"); do
    it=$(iteration_of "$snap")
    "$GYM_TRAIN" eval --game breakout --config "$dir/game.json" --agent "linear:$snap" \
      --episodes "$BENCH_GAMES" --seed "$BENCH_SEED" --out "$dir/bench/$it" > /dev/null
    s="$dir/bench/$it/summary.json"
    [ -z "$half" ] && awk -v s="$(json_num "$s" meanScore)" 'BEGIN { exit !(s >= 45) }' && half=$it
    [ -z "$first" ] && awk -v s="$(json_num "$s" clearedAWall)" 'BEGIN { exit !(s >= 1) }' && first=$it
    [ -z "$most" ] && awk -v s="$(json_num "$s" clearRate)" 'BEGIN { exit !(s >= 0.8) }' && most=$it
    [ -n "$half" ] && [ -n "$first" ] && [ -n "$most" ] && break
  done
  row "$name" "$trainer" "mean score 45" "$half" "$dir"
  row "$name" "$trainer" "first wall cleared (in any episode)" "$first" "$dir"
  row "$name" "$trainer" "80% of episodes clear the wall" "$most" "$dir"
}

for run in $RUNS; do
  case $run in
    pong) bench_pong ;;
    breakout) bench_breakout breakout Configs/train-breakout.json es ;;
    breakout-reinforce) bench_breakout breakout-reinforce Configs/train-breakout.json reinforce --iterations 1500 ;;
    breakout-atari) bench_breakout breakout-atari Configs/train-breakout-atari.json es ;;
    *) echo "bench-train: unknown run \"$run\"; runs: pong breakout breakout-reinforce breakout-atari" >&2; exit 2 ;;
  esac
done

{
  echo "Training milestones (first snapshot, every ${SNAP:-10} iterations, reaching each; $BENCH_GAMES evaluation"
  echo "games or episodes per snapshot on seed $BENCH_SEED; env steps and wall time of training to that iteration)"
  printf '%-18s %-10s %-40s %9s %11s %10s\n' game trainer milestone iteration "env steps" "wall"
  cat "$TABLE.tmp"
} > "$TABLE"
rm -f "$TABLE.tmp"
cat "$TABLE"
