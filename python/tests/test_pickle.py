"""Pickling mid-episode (through snapshot/restore) continues identically."""

import pickle

import gymnasium as gym
import numpy as np
import pytest

import pbgym
from conftest import compare


@pytest.mark.parametrize("env_id,kwargs", [
    ("pbgym/Pong-v0", {"opponent": "tracker:noise=0.5", "maxScore": 2}),
    ("pbgym/Pong-v0", {"opponent": "random", "preset": "ale", "maxScore": 2}),
    ("pbgym/Breakout-v0", {}),
    ("pbgym/Breakout-v0", {"obs_type": "pixels", "preset": "atari"}),
])
def test_pickle_continues_identically(env_id, kwargs):
    env = gym.make(env_id, **kwargs).unwrapped
    env.reset(seed=21)
    rng = np.random.default_rng(5)
    for _ in range(150):
        env.step(int(rng.integers(0, env.action_space.n)))
    copy = pickle.loads(pickle.dumps(env))
    actions = rng.integers(0, env.action_space.n, size=3000)
    episodes = 0
    for t, a in enumerate(actions):
        r1, r2 = env.step(int(a)), copy.step(int(a))
        compare(r1, r2, f"step {t}")
        if r1[2] or r1[3]:
            compare(env.reset(), copy.reset(), f"reset after step {t}")
            episodes += 1
    assert episodes >= 1 or env_id.endswith("Breakout-v0")


def test_pickle_in_next_episode_stream():
    env = gym.make("pbgym/Pong-v0", maxScore=1).unwrapped
    env.reset(seed=2)
    copy = pickle.loads(pickle.dumps(env))
    compare(env.reset(), copy.reset())


def test_snapshot_restores_into_another_game():
    v = pbgym.NativeEnv({"game": "breakout", "num_games": 3})
    v.reset(seeds=[1, 2, 3])
    for _ in range(40):
        v.step(np.ones(3, dtype=np.int32))
    blob = v.snapshot(1)
    v.restore(blob, 2)
    v.observe()
    assert np.array_equal(v.obs[1], v.obs[2])
    for _ in range(200):
        v.step(np.full(3, 2, dtype=np.int32))
        assert np.array_equal(v.obs[1], v.obs[2])
        assert v.rewards[1] == v.rewards[2]
