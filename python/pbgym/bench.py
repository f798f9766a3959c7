"""Steps per second of the native vector env from Python, beside the Swift figures.

    python -m pbgym.bench [--games 1024] [--rounds 5] [--seconds 0.5] [--figure wall|cpu]
                          [--obs features,pixels] [--gym-train PATH]

Per game, in one process and one thread, every figure below is taken once
in each of `--rounds` rounds, one after another for `--seconds` each, every
other round in reverse order. A figure is reported as the median over the
rounds [min, max]; a ratio as the median [min, max] of the rounds' own
ratios (two figures taken seconds apart), because the load of a shared
machine drifts from minute to minute: medians of alternating rounds and
paired ratios compare, single runs do not.

- python: the vector env's `step` (classic preset, Pong against its
  default opponent, the tracker) with random actions (drawn once up front,
  64 sets cycled, eight steps per call of the timed loop): everything a
  Gymnasium caller gets (observations, float64 rewards, flags, infos),
  with fresh output arrays (Gymnasium's contract) and with `zero_copy=True`;
- swift: the same environment (same config, games, opponent and buffers)
  stepped by the library's own loop (`pbg_bench`, the same action sets), so
  python/swift is the cost of Python alone;
- bare, when a gym-train binary is found (--gym-train, PATH, or
  .build/release/gym-train): `gym-train bench --game G --preset classic
  --workers 1 --repeats 1 --seconds S`, run in the round as one more
  figure: its "batched: 1 worker" line (the bare batched engine: both Pong
  seats random, no opponent, chunks of 64 games) and, for Pong, its "tracker
  seated, as users run it" line (seat 1 the tracker as the C ABI seats it).
  python/bare is the Python env against the bare engine of the same build
  (when gym-train and the library are the same build).

`--figure cpu` takes steps per CPU-second of the process (the library's and
gym-train's work runs in the measured thread), which other work on the
machine disturbs less than wall time; the load average is printed at the
start and the end.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Callable

import numpy as np

from ._lib import LIBRARY_PATH
from .vector import BreakoutVectorEnv, PongVectorEnv

OBS_TYPES = ("features", "pixels")


def rate(step: Callable[[], None], per_call: int, seconds: float) -> tuple[float, float]:
    """Steps/s of `step` (`per_call` game steps a call) after one warm-up
    call, for at least `seconds` of wall time: (per wall second, per CPU second)."""
    step()
    n, wall, cpu = 0, time.perf_counter(), time.process_time()
    while True:
        for _ in range(20):
            step()
        n += 20
        elapsed = time.perf_counter() - wall
        if elapsed >= seconds:
            return n * per_call / elapsed, n * per_call / max(time.process_time() - cpu, 1e-9)


def library_figures(cls, games: int, obs_type: str):
    """The three figures of one observation type as (name, measure) pairs, and the envs to close."""
    envs = [cls(num_envs=games, obs_type=obs_type, zero_copy=zero_copy) for zero_copy in (False, True)]
    actions = np.random.default_rng(0).integers(0, envs[0].single_action_space.n, size=(64, games))
    figures = []
    # Eight steps a call, through the 64 sets' rows made once, so that the
    # loop around the steps costs next to nothing beside them.
    rows = list(actions)
    for name, env in zip(("python", "zero-copy"), envs):
        env.reset(seed=1)
        k = [0]

        def step(env_step=env.step, k=k):
            j = k[0]
            k[0] = (j + 8) & 63
            for a in rows[j: j + 8]:
                env_step(a)

        figures.append((f"{obs_type} {name}", lambda seconds, step=step: rate(step, 8 * games, seconds)))
    native, per_call = envs[1].native, 10
    figures.append((f"{obs_type} swift",
                    lambda seconds: rate(lambda: native.bench(per_call, actions), games * per_call, seconds)))
    return figures, envs


def gym_train_figures(gym_train: str, game: str, games: int, seconds: float) -> dict[str, tuple[float, float]]:
    """One `gym-train bench` run: its bare batched line and (Pong) its tracker-seated line, (wall, cpu) steps/s."""
    with tempfile.TemporaryDirectory() as d:
        report = os.path.join(d, "bench.json")
        done = subprocess.run([gym_train, "bench", "--game", game, "--preset", "classic", "--envs", str(games),
                               "--workers", "1", "--repeats", "1", "--seconds", f"{seconds:g}", "--out", report],
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"pbgym bench: {gym_train} bench failed: {done.stderr.strip() or done.stdout.strip()}")
        with open(report, encoding="utf-8") as f:
            case = json.load(f)["results"][0]
    out = {}
    for key, name in (("batched", "bare"), ("batchedOpponentSeated", "tracker seated")):
        if key in case:
            one = case[key]["oneWorker"]
            out[name] = (one["stepsPerSecond"], one["stepsPerCPUSecond"])
    return out


def median_range(values: list[float]) -> tuple[float, float, float]:
    return statistics.median(values), min(values), max(values)


def fmt(values: list[float]) -> str:
    m, lo, hi = median_range(values)
    return f"{m / 1e6:.2f} M [{lo / 1e6:.2f}, {hi / 1e6:.2f}]"


def fmt_ratio(top: list[float], bottom: list[float]) -> str:
    m, lo, hi = median_range([a / b for a, b in zip(top, bottom)])
    return f"{m:.2f} [{lo:.2f}, {hi:.2f}]"


def bench_game(name: str, cls, args, gym_train: str | None) -> None:
    """Every figure of one game in alternating rounds, then its lines."""
    figures, envs = [], []
    for obs_type in args.obs:
        more, made = library_figures(cls, args.games, obs_type)
        figures += more
        envs += made
    if gym_train:
        figures.append(("gym-train", lambda seconds: gym_train_figures(gym_train, name, args.games, seconds)))
    column = 1 if args.figure == "cpu" else 0
    taken: dict[str, list[float]] = {}
    for r in range(args.rounds):
        for label, measure in (figures if r % 2 == 0 else figures[::-1]):
            got = measure(args.seconds)
            for key, value in (got.items() if isinstance(got, dict) else [(label, got)]):
                taken.setdefault(key, []).append(value[column])
    for env in envs:
        env.close()
    for obs_type in args.obs:
        py, zero, swift = (taken[f"{obs_type} {k}"] for k in ("python", "zero-copy", "swift"))
        print(f"  {name:8s} {obs_type:8s}: python {fmt(py)} (zero-copy {fmt(zero)}), swift {fmt(swift)}; "
              f"python/swift {fmt_ratio(py, swift)} (zero-copy {fmt_ratio(zero, swift)})")
    if not gym_train:
        print(f"  {name:8s} bare batch: no gym-train found (pass --gym-train PATH)")
        return
    bare = taken["bare"]
    line = f"  {name:8s} bare batch (gym-train bench, 1 worker{', both seats random' if name == 'pong' else ''}): {fmt(bare)}"
    if "tracker seated" in taken:
        seated = taken["tracker seated"]
        line += f"; tracker seated as users run it: {fmt(seated)} ({fmt_ratio(seated, bare)} of bare)"
    print(line)
    if "features" in args.obs:
        py, zero, swift = (taken[f"features {k}"] for k in ("python", "zero-copy", "swift"))
        print(f"  {name:8s} features against the bare batch: python/bare {fmt_ratio(py, bare)} "
              f"(zero-copy {fmt_ratio(zero, bare)}), swift/bare {fmt_ratio(swift, bare)}")


def find_gym_train(given: str | None) -> str | None:
    if given:
        if not Path(given).exists():
            raise SystemExit(f"pbgym bench: --gym-train {given} does not exist")
        return given
    found = shutil.which("gym-train")
    if found:
        return found
    guess = Path.cwd() / ".build" / "release" / "gym-train"
    return str(guess) if guess.exists() else None


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=1024)
    p.add_argument("--rounds", type=int, default=5, help="alternating rounds (each figure once per round; medians kept)")
    p.add_argument("--seconds", type=float, default=0.5, help="seconds per figure per round")
    p.add_argument("--figure", choices=("wall", "cpu"), default="wall",
                   help="steps per wall second, or per CPU-second of the process")
    p.add_argument("--obs", default="features,pixels", help="observation types, comma-separated (features, pixels)")
    p.add_argument("--game", choices=("pong", "breakout"), action="append", help="a game (default: both)")
    p.add_argument("--gym-train", default=None, help="gym-train binary for the bare batch's figures")
    args = p.parse_args()
    args.obs = [o.strip() for o in args.obs.split(",") if o.strip()]
    if not args.obs or any(o not in OBS_TYPES for o in args.obs):
        p.error(f"--obs {','.join(args.obs)!r}: allowed: features, pixels, comma-separated")
    if args.rounds < 1 or args.seconds <= 0 or args.games < 1:
        p.error("--rounds and --games must be at least 1, --seconds above 0")
    gym_train = find_gym_train(args.gym_train)
    unit = "M steps per CPU-second of the process" if args.figure == "cpu" else "M steps/s (wall)"
    print(f"pbgym bench: {args.games} games, classic presets (Pong against its default opponent, the tracker), "
          f"one thread, {unit}: median [min, max] of {args.rounds} rounds, every other one in reverse order, "
          f"{args.seconds:g} s per figure; ratios: median [min, max] of each round's ratio")
    print(f"  library {LIBRARY_PATH}; gym-train {gym_train or '(none)'}; load average {load()} at the start")
    for name, cls in (("pong", PongVectorEnv), ("breakout", BreakoutVectorEnv)):
        if args.game and name not in args.game:
            continue
        bench_game(name, cls, args, gym_train)
    print(f"  load average {load()} at the end")


if __name__ == "__main__":
    main()
