"""Copies of every environment object (copy, deepcopy, pickle) are independent
environments in the same state, or refused with a clear error; never a
second owner of the original's library handle."""

import copy
import gc
import pickle

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import pbgym
from conftest import compare

COPIES = {"pickle": lambda e: pickle.loads(pickle.dumps(e)), "deepcopy": copy.deepcopy, "copy": copy.copy}


def vector_cases():
    short_pong = {"maxScore": 1, "opponent": "tracker:noise=0.5", "opponent_history": True}
    return {
        "breakout-next-step": lambda: pbgym.BreakoutVectorEnv(num_envs=3, lives=1),
        "breakout-same-step-pixels-stack": lambda: pbgym.BreakoutVectorEnv(
            num_envs=2, lives=1, obs_type="pixels", frame_stack=3, autoreset_mode=AutoresetMode.SAME_STEP),
        "breakout-disabled": lambda: pbgym.BreakoutVectorEnv(num_envs=2, lives=1,
                                                              autoreset_mode=AutoresetMode.DISABLED),
        "pong-history": lambda: pbgym.PongVectorEnv(num_envs=3, **short_pong),
        "pong-history-pixels-first": lambda: pbgym.PongVectorEnv(
            num_envs=2, obs_type="pixels", frame_stack=2, channels_order="first", **short_pong),
    }


def run_vector(env, actions):
    out = []
    for a in actions:
        o, r, term, trunc, info = env.step(a)
        info = dict(info)
        if env.autoreset_mode == AutoresetMode.DISABLED and (term | trunc).any():
            info["reset"] = env.reset(options={"reset_mask": term | trunc})
        out.append((o.copy(), r, term, trunc, info))
    return out


@pytest.mark.parametrize("how", list(COPIES))
@pytest.mark.parametrize("case", list(vector_cases()))
def test_vector_copy_is_independent_and_equal(case, how):
    env = vector_cases()[case]()
    env.reset(seed=4)
    rng = np.random.default_rng(1)
    n, k = env.num_envs, env.single_action_space.n
    run_vector(env, rng.integers(0, k, size=(120, n)))
    twin = COPIES[how](env)
    assert twin.native.handle != env.native.handle
    actions = rng.integers(0, k, size=(400, n))
    # The copy first, then the original: a shared handle would give the
    # original the copy's steps (and both of them the same observations).
    ours, theirs = run_vector(twin, actions), run_vector(env, actions)
    compare(tuple(ours), tuple(theirs))
    ends = sum(int((t[2] | t[3]).sum()) for t in ours)
    assert ends >= 1, "the rollout must cross an episode end"
    # The original outlives its collected copy.
    del twin
    gc.collect()
    env.step(np.zeros(n, dtype=np.int64))
    env.close()


def test_vector_copy_taken_as_games_end():
    """A copy made right after games ended (next-step mode: they restart at
    the next step) starts their opponents' new episodes there too."""
    env = pbgym.PongVectorEnv(num_envs=4, maxScore=1, opponent="tracker:noise=1,reaction=2", opponent_history=True)
    env.reset(seed=6)
    rng = np.random.default_rng(2)
    for _ in range(3000):
        if env.step(rng.integers(0, 3, size=4))[2].any():
            break
    else:
        raise AssertionError("no game ended")
    twin = copy.deepcopy(env)
    actions = rng.integers(0, 3, size=(300, 4))
    compare(tuple(run_vector(twin, actions)), tuple(run_vector(env, actions)))
    env.close()
    twin.close()


@pytest.mark.parametrize("how", list(COPIES))
def test_single_env_copy_with_frame_stack(how):
    env = gym.make("pbgym/Breakout-v0", obs_type="pixels", frame_stack=4, lives=1).unwrapped
    env.reset(seed=3)
    for a in (1, 1, 2, 3, 0, 2):
        env.step(a)
    twin = COPIES[how](env)
    rng = np.random.default_rng(2)
    for t, a in enumerate(rng.integers(0, 4, size=600)):
        r1, r2 = twin.step(int(a)), env.step(int(a))
        compare(r1, r2, f"step {t}")
        if r1[2] or r1[3]:
            compare(twin.reset(), env.reset(), f"reset after step {t}")


@pytest.mark.parametrize("how", list(COPIES))
def test_pettingzoo_copy_is_independent_and_equal(how):
    from pbgym import pong_v0

    env = pong_v0.parallel_env(maxScore=2)
    env.reset(seed=5)
    rng = np.random.default_rng(3)
    for _ in range(100):
        env.step({a: int(rng.integers(0, 3)) for a in env.agents})
    twin = COPIES[how](env)
    assert twin.agents == env.agents
    compare(twin.state(), env.state())
    steps = 0
    while env.agents:
        actions = {a: int(rng.integers(0, 3)) for a in env.agents}
        compare(twin.step(actions), env.step(actions), f"step {steps}")
        steps += 1
    assert twin.agents == [] and steps > 10
    del twin
    gc.collect()
    env.reset(seed=1)
    env.close()


def test_native_env_copy_is_independent():
    native = pbgym.NativeEnv({"game": "breakout", "num_games": 2})
    native.reset(seeds=[1, 2])
    for _ in range(30):
        native.step(np.array([1, 2], dtype=np.int64))
    twin = copy.deepcopy(native)
    assert twin.handle != native.handle
    assert np.array_equal(twin.obs, native.obs)
    for _ in range(50):
        twin.step(np.array([2, 0], dtype=np.int64))
    assert not np.array_equal(twin.obs, native.obs)
    del twin
    gc.collect()
    native.step(np.array([0, 0], dtype=np.int64))


def test_pong_vector_without_history_refuses_to_copy():
    env = pbgym.PongVectorEnv(num_envs=2)
    env.reset(seed=0)
    for how, make_copy in COPIES.items():
        with pytest.raises(TypeError, match="PongVectorEnv cannot be copied or pickled.*opponent_history"):
            make_copy(env)
    # Still whole after the refusals.
    env.step(np.zeros(2, dtype=np.int64))


def test_closed_env_refuses_to_copy():
    env = pbgym.BreakoutVectorEnv(num_envs=2)
    env.close()
    with pytest.raises(TypeError, match="closed"):
        copy.deepcopy(env)


def test_aec_env_deepcopy_is_independent():
    from pbgym import pong_v0

    env = pong_v0.env(maxScore=1)
    env.reset(seed=2)
    for _ in range(20):
        env.step(1)
    twin = copy.deepcopy(env)
    rng = np.random.default_rng(4)
    for t in range(200):
        if not env.agents:
            break
        a = int(rng.integers(0, 3))
        env.step(a)
        twin.step(a)
        compare(twin.last(), env.last(), f"step {t}")
