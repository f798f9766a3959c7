#!/bin/sh
# Ours beside PufferLib 3.0's C Pong and Breakout, alternating in one run:
#   sh scripts/bench-pufferlib.sh OUT [GYM_TRAIN]
#
# Fetches PufferLib 3.0.0's source distribution with pip (checked
# against its sha256) into OUT. pip reads an sdist's metadata by running
# its setup.py, which imports torch and, unless NO_OCEAN=1, downloads
# raylib and box2d from GitHub: the fetch runs in a venv of its own
# (OUT/fetch-venv: setuptools, wheel and numpy, which setup.py imports,
# installed by name with PYTHON's pip, default python3) without build
# isolation, NO_OCEAN=1 and NO_TRAIN=1, and scripts/pufferlib/no-torch on
# PYTHONPATH (stand-ins for the names setup.py reads; see there), so
# neither torch nor any URL is fetched. Then it builds scripts/pufferlib/drive.c over its pong.h and
# breakout.h with every compiler and flag set below that is installed
# (setup.py's own `gcc -O2 -flto` and three faster ones), then, for ROUNDS
# rounds (default 3; every other round in reverse order), runs each build
# of theirs and `GYM_TRAIN bench --workers 1 --repeats 1 --seconds 1`
# (default .build/release/gym-train) for each case below, one second per
# figure, 1024 games, one thread (wall M steps/s; with FIGURE=cpu, steps
# per CPU-second of the process, which other work on the machine disturbs
# less). Writes every figure to OUT/pufferlib.log
# and prints, per case, the median M steps/s of each of their builds, of
# ours, and ours over their fastest build's median.
#
# Two tables. Like for like first: their Pong step includes their
# scripted opponent, so ours is bench's "tracker seated" line (seat 1 our
# default tracker, seated as the C ABI and so Python seat it: in lanes,
# reading the batch's state; seat 0 random, as theirs); Breakout has no
# opponent on either side (bench's bare line). Then the bare engines: our
# Pong with both seats random against the same figures of theirs.
#
# Not the same games: their Pong observes 8 floats, ours 12; their
# Breakout 118, ours 89 (`classic`) or 131 (`atari`). The cases pair the
# nearest settings: frame skip 1 and 4, and our `ale` preset (sticky
# actions 0.25) against their frame skip 4 (they have no sticky actions).
# CASES (a regex on the case names, default all) and SECONDS_PER (per figure,
# default 1) narrow a run, e.g. to check the script.
set -eu
[ $# -ge 1 ] || { echo "usage: $0 OUT [GYM_TRAIN]" >&2; exit 2; }
out=$1
ours=${2:-.build/release/gym-train}
[ -x "$ours" ] || { echo "bench-pufferlib: $ours is not an executable (swift build -c release first)" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
sum=7df3a3e3f5f894d78d2a1f5374097890aec01473183e748abefe4f3faa10eaa9
src=$out/pufferlib-3.0.0/pufferlib/ocean
if [ ! -f "$src/breakout/breakout.h" ]; then
  [ -x "$out/fetch-venv/bin/pip" ] || "${PYTHON:-python3}" -m venv "$out/fetch-venv"
  "$out/fetch-venv/bin/pip" install -q setuptools wheel numpy
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  PYTHONPATH="$here/pufferlib/no-torch" NO_OCEAN=1 NO_TRAIN=1 "$out/fetch-venv/bin/pip" download -q --no-deps \
    --no-binary pufferlib --no-build-isolation -d "$tmp" pufferlib==3.0.0
  echo "$sum  $tmp/pufferlib-3.0.0.tar.gz" | sha256sum -c --quiet
  mv "$tmp/pufferlib-3.0.0.tar.gz" "$out/pufferlib.tar.gz"
  tar -xzf "$out/pufferlib.tar.gz" -C "$out" pufferlib-3.0.0/pufferlib/ocean/pong pufferlib-3.0.0/pufferlib/ocean/breakout
fi

# Their builds: name, compiler, flags.
flagsets='gcc-O2-lto gcc -O2 -flto
gcc-O3-native-fastmath gcc -O3 -march=native -ffast-math
clang-O3-native clang -O3 -march=native
clang-O3-native-fastmath clang -O3 -march=native -ffast-math'
pong_setup='((e)->width=500,(e)->height=640,(e)->paddle_width=20,(e)->paddle_height=70,(e)->ball_width=32,(e)->ball_height=32,(e)->paddle_speed=8,(e)->ball_initial_speed_x=10,(e)->ball_initial_speed_y=1,(e)->ball_speed_y_increment=3,(e)->ball_max_speed_y=13,(e)->max_score=21)'
breakout_setup='((e)->width=576,(e)->height=330,(e)->paddle_width=62,(e)->paddle_height=8,(e)->ball_width=32,(e)->ball_height=32,(e)->brick_width=32,(e)->brick_height=12,(e)->brick_rows=6,(e)->brick_cols=18)'
builds=""
echo "$flagsets" | while read -r name cc flags; do
  command -v "$cc" >/dev/null || { echo "bench-pufferlib: no $cc, skipping $name" >&2; continue; }
  for game in pong breakout; do
    if [ $game = pong ]; then env=Pong; obs=8; setup=$pong_setup; else env=Breakout; obs=118; setup=$breakout_setup; fi
    # shellcheck disable=SC2086
    $cc $flags -w -I"$here/pufferlib" -DGAME_HEADER="\"$src/$game/$game.h\"" -DENV=$env -DOBS=$obs \
      "-DSETUP(e)=$setup" "$here/pufferlib/drive.c" -o "$out/$game-$name" -lm
  done
done
builds=$(echo "$flagsets" | while read -r name cc flags; do [ -x "$out/pong-$name" ] && printf '%s ' "$name"; done)

# Cases: name, their game, their frame skip, our bench arguments.
cases='pong-fs1 pong 1 --game pong --preset classic --frame-skip 1
pong-fs4 pong 4 --game pong --preset classic --frame-skip 4
pong-ale pong 4 --game pong --preset ale
breakout-classic-fs1 breakout 1 --game breakout --preset classic --frame-skip 1
breakout-atari-fs1 breakout 1 --game breakout --preset atari --frame-skip 1
breakout-classic-fs4 breakout 4 --game breakout --preset classic --frame-skip 4
breakout-atari-fs4 breakout 4 --game breakout --preset atari --frame-skip 4'

theirs() { # CASE GAME SKIP
  for b in $builds; do
    if [ "${FIGURE:-wall}" = cpu ]; then m=$("$out/$2-$b" "$3" "${SECONDS_PER:-1}" 1024 | sed -n 's/.*(\([0-9.]*\) M per CPU-s.*/\1/p')
    else m=$("$out/$2-$b" "$3" "${SECONDS_PER:-1}" 1024 | cut -d' ' -f1); fi
    echo "$1 $b $m" >> "$out/pufferlib.log"
  done
}
figure() { # LINE-PATTERN: the 1-worker figure of bench's line matching it
  grep "$1: 1 worker" "$out/ours.txt" | head -n 1 | if [ "${FIGURE:-wall}" = cpu ]; then sed 's/.* \([0-9.]*\) M per CPU-s.*/\1/'
    else sed 's/.*: 1 worker \([0-9.]*\) M steps.*/\1/'; fi
}
ours() { # CASE ARGS...
  c=$1; shift
  "$ours" bench "$@" --workers 1 --repeats 1 --seconds "${SECONDS_PER:-1}" --envs 1024 --out "$out/ours.json" > "$out/ours.txt"
  echo "$c ours-bare $(figure '  batched')" >> "$out/pufferlib.log"
  seated=$(figure 'tracker seated (seat 1), as users run it')
  [ -z "$seated" ] || echo "$c ours-seated $seated" >> "$out/pufferlib.log"
}
: > "$out/pufferlib.log"
for r in $(seq 1 "${ROUNDS:-3}"); do
  echo "### round $r load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/pufferlib.log"
  echo "$cases" | while read -r c game skip args; do
    echo "$c" | grep -Eq "${CASES:-.}" || continue
    # shellcheck disable=SC2086
    if [ $((r % 2)) = 1 ]; then theirs "$c" "$game" "$skip"; ours "$c" $args
    else ours "$c" $args; theirs "$c" "$game" "$skip"; fi
  done
done

table() { # TITLE OURS-KEY FALLBACK-KEY
  echo "$1"
  awk -v builds="$builds" -v key="$2" -v fallback="$3" '
  function median(list,   n, v, i, j, t) {
    n = split(list, v, " ")
    for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
  }
  /^###/ { next }
  { if (!($1 in seen)) { seen[$1] = 1; order[++cases] = $1 }; fig[$1, $2] = fig[$1, $2] " " $3; has[$1, $2] = 1 }
  END {
    k = split(builds, b, " ")
    printf "| case |"; for (i = 1; i <= k; i++) printf " %s |", b[i]; print " ours | ours / their fastest |"
    printf "|---|"; for (i = 0; i <= k; i++) printf "---:|"; print "---:|"
    for (j = 1; j <= cases; j++) {
      c = order[j]; mine = has[c, key] ? key : fallback
      if (mine == "" || !has[c, mine]) continue
      best = 0; printf "| %s |", c
      for (i = 1; i <= k; i++) { m = median(fig[c, b[i]]); if (m > best) best = m; printf " %.1f |", m }
      o = median(fig[c, mine]); r = best > 0 ? o / best : 0; printf " %.1f | %.2f |\n", o, r
    }
  }' "$out/pufferlib.log"
}
table "Like for like (Pong: ours with the tracker seated, theirs with its scripted opponent; Breakout: both bare):" \
  ours-seated ours-bare
echo
table "Bare engines (our Pong with both seats random):" ours-bare ""
