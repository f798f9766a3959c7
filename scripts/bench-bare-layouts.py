"""The vector env and the library's own loop (pbgym.bench's "python" and
"swift" figures) beside `gym-train bench`'s bare batch stepped three ways,
in the same alternating rounds, so each ratio pairs figures taken seconds
apart (docs/bench.md, "Agents seated"):

- bare: `gym-train bench` as it is (chunks of `benchChunk` games, each
  stepped `--ticks` 2048 times in a row: the chunk's state stays in cache);
- one batch: `--chunk GAMES`, every game in one batch, each tick stepping
  every game once, as a step of the C ABI session does;
- chunks once: the default chunks with `--ticks 1`, each chunk stepped
  once per dispatch.

Run from the repository root with the package importable and the library
and gym-train of one build, e.g.:

    PYTHONPATH=python PBGYM_LIBRARY=.build-x86-64-v4/release/libpbgym.so \\
      .venv/bin/python scripts/bench-bare-layouts.py --game breakout \\
      --gym-train .build-x86-64-v4/release/gym-train [--rounds 5] [--figure cpu]
"""

import argparse
import json
import os
import subprocess
import tempfile

from pbgym._lib import LIBRARY_PATH
from pbgym.bench import fmt, fmt_ratio, library_figures, load
from pbgym.vector import BreakoutVectorEnv, PongVectorEnv


def bare(gym_train: str, game: str, games: int, extra: list):
    """One `gym-train bench` run with `extra` arguments: its "batched: 1 worker" (wall, cpu) steps/s."""
    def measure(seconds: float) -> tuple[float, float]:
        with tempfile.TemporaryDirectory() as d:
            report = os.path.join(d, "bench.json")
            subprocess.run([gym_train, "bench", "--game", game, "--preset", "classic", "--envs", str(games),
                            "--workers", "1", "--repeats", "1", "--seconds", f"{seconds:g}", "--out", report, *extra],
                           check=True, capture_output=True)
            with open(report, encoding="utf-8") as f:
                one = json.load(f)["results"][0]["batched"]["oneWorker"]
        return one["stepsPerSecond"], one["stepsPerCPUSecond"]
    return measure


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", choices=("pong", "breakout"), required=True)
    p.add_argument("--gym-train", required=True, help="gym-train of the library's build")
    p.add_argument("--games", type=int, default=1024)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--seconds", type=float, default=0.5)
    p.add_argument("--figure", choices=("wall", "cpu"), default="cpu")
    args = p.parse_args()
    cls = BreakoutVectorEnv if args.game == "breakout" else PongVectorEnv
    figures, envs = library_figures(cls, args.games, "features")
    figures = [(label, m) for label, m in figures if "zero-copy" not in label]
    figures += [("bare", bare(args.gym_train, args.game, args.games, [])),
                ("one batch", bare(args.gym_train, args.game, args.games, ["--chunk", str(args.games)])),
                ("chunks once", bare(args.gym_train, args.game, args.games, ["--ticks", "1"]))]
    column = 1 if args.figure == "cpu" else 0
    taken: dict[str, list[float]] = {}
    for r in range(args.rounds):
        for label, measure in (figures if r % 2 == 0 else figures[::-1]):
            taken.setdefault(label, []).append(measure(args.seconds)[column])
    for env in envs:
        env.close()
    print(f"{args.game}, {args.games} games, one thread, M steps per {'CPU-' if column else ''}second: "
          f"median [min, max] of {args.rounds} alternating rounds; / bare: median [min, max] of each round's ratio")
    print(f"  library {LIBRARY_PATH}; gym-train {args.gym_train}; load average {load()} at the end")
    for label, values in taken.items():
        print(f"  {label:18s} {fmt(values)}  / bare {fmt_ratio(values, taken['bare'])}")


if __name__ == "__main__":
    main()
