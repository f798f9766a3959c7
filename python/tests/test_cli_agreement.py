"""Python and `gym-train eval` play the same Pong episodes for the same config, seed and agents.

`gym-train eval --seed s` plays its episode e with the seed
Seeds.episode(runSeed: s, index: e), the agent at the bottom for even e and
at the top for odd e, opponents reset as in PongMatch. A single env reset
with seed s and then reset() once per episode plays the same seeds; its
agent side is fixed, so one env per side replays the CLI's even and odd
episodes. The evaluated agent here is `constant:action=A`, which Python
plays by sending A; the opponent runs in the library from the same spec.
"""

import csv
import os
import subprocess
from pathlib import Path

import gymnasium as gym
import pytest

import pbgym  # noqa: F401

REPO = Path(__file__).resolve().parents[2]


def gym_train() -> str:
    path = os.environ.get("PBGYM_GYM_TRAIN") or str(REPO / ".build" / "debug" / "gym-train")
    if not Path(path).exists():
        pytest.skip(f"gym-train not built at {path} (make test builds it)")
    return path


@pytest.mark.parametrize("opponent,action,preset", [
    ("tracker:noise=0.5", 1, "classic"),
    ("random", 2, "fast"),
])
def test_python_replays_cli_eval(tmp_path, opponent, action, preset):
    seed, episodes = 17, 6
    out = tmp_path / "eval"
    subprocess.run([gym_train(), "eval", "--game", "pong", "--preset", preset, "--seed", str(seed),
                    "--agent", f"constant:action={action}", "--opponent", opponent,
                    "--episodes", str(episodes), "--workers", "1", "--out", str(out)],
                   check=True, capture_output=True)
    with open(out / "episodes.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == episodes
    envs = {side: gym.make("pbgym/Pong-v0", preset=preset, opponent=opponent, agent_side=side).unwrapped
            for side in ("bottom", "top")}
    for env in envs.values():
        env.reset(seed=seed)
    for e, row in enumerate(rows):
        side = "bottom" if e % 2 == 0 else "top"
        assert row["agent_side"] == side
        env = envs[side]
        if e >= 1:
            env.reset()
            envs["top" if side == "bottom" else "bottom"].reset()
        hits = {"bottom": 0, "top": 0}
        steps = 0
        while True:
            _, _, term, trunc, info = env.step(action)
            steps += 1
            hits["bottom"] += info["events"]["hits_bottom"]
            hits["top"] += info["events"]["hits_top"]
            if term or trunc:
                break
        other = "top" if side == "bottom" else "bottom"
        got = (info["score"], info["opponent_score"], steps, info["end"], hits[side], hits[other])
        want = (int(row["agent_score"]), int(row["opponent_score"]), int(row["steps"]), row["end"],
                int(row["agent_hits"]), int(row["opponent_hits"]))
        assert got == want, f"episode {e}: python {got}, cli {want}"
