"""Steps per second of the native vector env from Python, beside the Swift figure.

    python -m pbgym.bench [--games 1024] [--seconds 2] [--gym-train PATH]

For each game: the vector env stepped from Python with random actions
(features, then 84x84 pixels; actions drawn once up front, observations
zero-copy, one thread), the same library handle stepped in a bare loop of
library calls (no numpy work: the library's own rate plus ctypes), and,
when a gym-train binary is found, its `bench` lines for the batched engine
with one worker (the Swift figure: both sides random, no built-in
opponent, so the Pong workloads differ: the Python env also runs the
tracker opponent and observes for it).
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


def python_rate(cls, games: int, obs_type: str, seconds: float) -> tuple[float, float]:
    env = cls(num_envs=games, obs_type=obs_type, zero_copy=True)
    env.reset(seed=1)
    actions = np.random.default_rng(0).integers(0, env.single_action_space.n, size=(64, games))
    k = [0]

    def step():
        env.step(actions[k[0] & 63])
        k[0] += 1

    py = rate(step, seconds) * games
    native = env.native
    lib_step, h = native._step, native._h
    bare = rate(lambda: lib_step(h), seconds) * games
    env.close()
    return py, bare


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
    p.add_argument("--seconds", type=float, default=2.0)
    p.add_argument("--gym-train", default=None, help="gym-train binary for the Swift figure")
    args = p.parse_args()
    gym_train = args.gym_train or shutil.which("gym-train")
    if not gym_train:
        guess = Path.cwd() / ".build" / "release" / "gym-train"
        gym_train = str(guess) if guess.exists() else None
    print(f"pbgym bench: {args.games} games, classic presets, one thread, {args.seconds:g} s per figure")
    for name, cls in (("pong", PongVectorEnv), ("breakout", BreakoutVectorEnv)):
        for obs_type in ("features", "pixels"):
            py, bare = python_rate(cls, args.games, obs_type, args.seconds)
            print(f"  {name:8s} {obs_type:8s}: python vector env {fmt(py)} steps/s, "
                  f"bare library calls {fmt(bare)} steps/s, ratio {py / bare:.2f}")
        print(f"  {name:8s} swift   : {swift_line(gym_train, name, args.games)}")


if __name__ == "__main__":
    main()
