"""Steps per second of the native vector env from Python, beside the Swift figure.

    python -m pbgym.bench [--games 1024] [--seconds 2] [--gym-train PATH]

For each game and observation type (features, 84x84 pixels), in one
process and one thread, three figures measured in turn in interleaved
rounds, the best of each kept:

- python: the vector env's `step` from Python with random actions (drawn
  once up front, 64 sets cycled), everything a Gymnasium caller gets
  (observations, rewards, flags, infos), with fresh observation arrays
  (Gymnasium's contract) and with `zero_copy=True`;
- swift: the same environment (same config, same games, same built-in
  Pong opponent, same buffers) stepped by the library's own loop
  (`pbg_bench`, the same action sets), so the ratio python / swift is the
  cost of Python alone;
- and, when a gym-train binary is found, its `bench` lines for the bare
  batched engine with one worker (both Pong seats random, no built-in
  opponent and no observation for it: the opponent's cost shows as the gap
  between this line and the swift figure above).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

from .vector import BreakoutVectorEnv, PongVectorEnv


def rate(step, seconds: float) -> float:
    step()  # warm up
    n, start = 0, time.perf_counter()
    while True:
        for _ in range(20):
            step()
        n += 20
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return n / elapsed


def figures(cls, games: int, obs_type: str, seconds: float, rounds: int) -> tuple[float, float, float]:
    """Steps/s of the vector env from Python (fresh observations, then
    zero-copy) and of the library's own loop on the same environment: the
    three measured in turn, `rounds` times, the best of each kept (on a
    shared machine the load drifts; interleaving exposes all three to it
    alike and the best is the least disturbed)."""
    envs = [cls(num_envs=games, obs_type=obs_type, zero_copy=zero_copy) for zero_copy in (False, True)]
    actions = np.random.default_rng(0).integers(0, envs[0].single_action_space.n, size=(64, games))
    per_call = 10
    steppers = []
    for env in envs:
        env.reset(seed=1)
        k = [0]

        def step(env=env, k=k):
            env.step(actions[k[0] & 63])
            k[0] += 1

        steppers.append((step, games))
    native = envs[1].native
    steppers.append((lambda: native.bench(per_call, actions), games * per_call))
    best = [0.0, 0.0, 0.0]
    for _ in range(rounds):
        for j, (step, per) in enumerate(steppers):
            best[j] = max(best[j], rate(step, seconds / rounds) * per)
    for env in envs:
        env.close()
    return best[0], best[1], best[2]


def swift_line(gym_train: str | None, game: str, games: int) -> str:
    if not gym_train or not Path(gym_train).exists():
        return f"gym-train not found{f' at {gym_train}' if gym_train else ''} (pass --gym-train PATH)"
    with tempfile.TemporaryDirectory() as d:
        out = subprocess.run([gym_train, "bench", "--game", game, "--preset", "classic", "--envs", str(games),
                              "--workers", "1", "--repeats", "1", "--out", os.path.join(d, "b.json")],
                             capture_output=True, text=True)
    lines = [line.strip() for line in out.stdout.splitlines() if re.match(r"\s*batched", line)]
    return " | ".join(lines) if lines else (out.stdout.strip().splitlines() or ["(no output)"])[-1]


def fmt(x: float) -> str:
    return f"{x / 1e6:.2f} M" if x >= 1e6 else f"{x / 1e3:.1f} k"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=1024)
    p.add_argument("--seconds", type=float, default=2.0, help="seconds per figure, split over the rounds")
    p.add_argument("--rounds", type=int, default=5, help="interleaved rounds per figure (best kept)")
    p.add_argument("--gym-train", default=None, help="gym-train binary for the Swift figure")
    args = p.parse_args()
    gym_train = args.gym_train or shutil.which("gym-train")
    if not gym_train:
        guess = Path.cwd() / ".build" / "release" / "gym-train"
        gym_train = str(guess) if guess.exists() else None
    print(f"pbgym bench: {args.games} games, classic presets (the defaults; Pong against the tracker), one thread, "
          f"{args.seconds:g} s per figure in {args.rounds} interleaved rounds, best kept")
    for name, cls in (("pong", PongVectorEnv), ("breakout", BreakoutVectorEnv)):
        for obs_type in ("features", "pixels"):
            fresh, zero, swift = figures(cls, args.games, obs_type, args.seconds, max(1, args.rounds))
            print(f"  {name:8s} {obs_type:8s}: python {fmt(fresh)} steps/s (zero-copy {fmt(zero)}), "
                  f"swift {fmt(swift)} steps/s; python/swift {fresh / swift:.2f} (zero-copy {zero / swift:.2f})")
        print(f"  {name:8s} bare batch (gym-train bench, no opponent): {swift_line(gym_train, name, args.games)}")


if __name__ == "__main__":
    main()
