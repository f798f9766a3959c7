"""PPO steps/s through pbgym.sb3.SB3VecEnv against SB3's DummyVecEnv of
single envs (the same games, config, seeds and PPO settings), alternating
runs; run with the trainers' venv (make test-trainers makes it):

    .venv-trainers/bin/python scripts/bench-sb3.py [--steps 65536] [--envs 16] [--rounds 2]
"""

import argparse
import time

import gymnasium as gym
import torch
from stable_baselines3 import PPO
from stable_baselines3.common.vec_env import DummyVecEnv

import pbgym  # noqa: F401
from pbgym.sb3 import SB3VecEnv

CONFIG = {"opponent": "random", "frameSkip": 4}


def run(kind: str, envs: int, steps: int) -> float:
    if kind == "adapter":
        env = SB3VecEnv("pbgym/Pong-v0", num_envs=envs, **CONFIG)
    else:
        env = DummyVecEnv([lambda: gym.make("pbgym/Pong-v0", **CONFIG) for _ in range(envs)])
    model = PPO("MlpPolicy", env, n_steps=128, batch_size=512, n_epochs=4, seed=0, device="cpu", verbose=0)
    start = time.perf_counter()
    model.learn(steps)
    wall = time.perf_counter() - start
    env.close()
    return steps / wall


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=65536)
    p.add_argument("--envs", type=int, default=16)
    p.add_argument("--rounds", type=int, default=2)
    args = p.parse_args()
    torch.set_num_threads(1)
    best = {"adapter": 0.0, "dummy": 0.0}
    for r in range(args.rounds):
        for kind in ("adapter", "dummy"):
            sps = run(kind, args.envs, args.steps)
            best[kind] = max(best[kind], sps)
            print(f"round {r + 1} {kind:7s}: {sps:8.0f} steps/s", flush=True)
    print(f"PPO MlpPolicy, Pong features vs random, {args.envs} envs, {args.steps} steps, torch 1 thread: "
          f"SB3VecEnv {best['adapter']:.0f} steps/s, DummyVecEnv {best['dummy']:.0f} steps/s "
          f"({best['adapter'] / best['dummy']:.2f}x), best of {args.rounds}")


if __name__ == "__main__":
    main()
