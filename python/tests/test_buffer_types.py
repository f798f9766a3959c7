"""Action and reward buffers bound in the games' own types (create config
`"action_dtype": "int32"`, `"reward_dtype": "float32"`): read and written in
place by the library, they hold the same values as the default int64 and
float64 buffers, step for step, and a bad action is refused just the same."""

import ctypes

import numpy as np
import pytest

import pbgym
from conftest import compare
from pbgym import _lib, pong_v0
from pbgym._lib import PBGymError, lib

OWN = {"action_dtype": "int32", "reward_dtype": "float32"}
TYPE_CHOICES = [{}, OWN, {"action_dtype": "int32"}, {"reward_dtype": "float32"},
                {"action_dtype": "int64", "reward_dtype": "float64"}]
CASES = {
    "pong-tracker": {"game": "pong", "config": {"maxScore": 2}},
    "pong-stateful-opponent-top": {"game": "pong", "config": {"maxScore": 2}, "agent_side": "top",
                                   "opponent": "tracker:noise=1,reaction=3"},
    "pong-two-players": {"game": "pong", "players": 2, "config": {"maxScore": 2}},
    "breakout": {"game": "breakout", "config": {"lives": 1}},
}


def outputs(env):
    return (env.observation.copy(), env.rewards.astype(np.float64), env.terminated.copy(), env.truncated.copy(),
            env.info_block.copy())


@pytest.mark.parametrize("autoreset", ["next-step", "same-step"])
@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("types", TYPE_CHOICES[1:], ids=lambda t: "+".join(t.values()))
def test_own_types_give_the_default_values(case, types, autoreset):
    base = dict(CASES[case], num_games=9, seed=5, autoreset=autoreset)
    default, chosen = pbgym.NativeEnv(base), pbgym.NativeEnv(dict(base, **types))
    assert (default.actions.dtype, default.rewards.dtype) == (np.int64, np.float64)
    assert chosen.actions.dtype == np.dtype(types.get("action_dtype", "int64"))
    assert chosen.rewards.dtype == np.dtype(types.get("reward_dtype", "float64"))
    assert (chosen.info["action_dtype"], chosen.info["reward_dtype"]) == (chosen.actions.dtype.name,
                                                                          chosen.rewards.dtype.name)
    rng = np.random.default_rng(11)
    ends = points = 0
    for t in range(1200):
        a = rng.integers(0, default.action_count, size=default.actions.shape)
        default.step(a)
        chosen.step(a)
        compare(outputs(chosen), outputs(default), f"step {t}")
        ends += int((default.terminated | default.truncated).sum())
        points += int(np.count_nonzero(default.rewards))
    assert ends >= 2 and points >= 10, "the rollout must score and restart games"
    default.close()
    chosen.close()


@pytest.mark.parametrize("case", ["pong-tracker", "pong-two-players", "breakout"])
def test_library_bench_narrows_into_an_int32_buffer(case, rng):
    """pbg_bench (int64 action sets) into an int32 buffer plays the steps `step` plays."""
    base = dict(CASES[case], num_games=5, seed=2)
    stepped, benched = pbgym.NativeEnv(dict(base, **OWN)), pbgym.NativeEnv(dict(base, **OWN))
    sets = rng.integers(0, stepped.action_count, size=(3, *stepped.actions.shape))
    for k in range(40):
        stepped.step(sets[k % 3])
    benched.bench(40, sets)
    compare(outputs(benched), outputs(stepped))


def test_int32_actions_are_checked_in_place():
    env = pbgym.NativeEnv({"game": "pong", "num_games": 4, **OWN})
    for bad in (-1, 3, 2**31 - 1, -(2**31)):
        env.actions[:] = 0
        env.actions[2, 0] = bad
        with pytest.raises(PBGymError, match=f"step: action {bad} of game 2 is outside 0 ..< 3"):
            env.step()
    two = pbgym.NativeEnv({"game": "pong", "players": 2, **OWN})
    two.actions[0, 1] = 9
    with pytest.raises(PBGymError, match="action 9 of game 0 seat 1 is outside"):
        two.step()


def test_wide_actions_into_an_int32_buffer_never_wrap():
    """An int64 value that int32 would wrap into range (2**32 + 1 -> 1) is refused, from Python and from pbg_bench."""
    env = pbgym.NativeEnv({"game": "pong", "num_games": 2, **OWN})
    for bad in (2**32 + 1, -(2**32), 2**63 - 1):
        with pytest.raises(ValueError, match=f"outside 0 ..< 3: {bad}"):
            env.step(np.array([0, bad], dtype=np.int64))
    with pytest.raises(ValueError, match="outside 0 ..< 3: 4294967296"):
        env.step(np.array([2**32, 0], dtype=np.uint64))
    sets = np.zeros((2, 2, 1), dtype=np.int64)
    sets[1, 1, 0] = 2**32 + 1
    with pytest.raises(PBGymError, match=r"bench: action 4294967297 of game 1 \(action set 1\) is outside 0 ..< 3"):
        env.bench(1, sets)
    before = env.observation.copy()
    env.step(np.array([1, 2], dtype=np.int32))
    assert not np.array_equal(before, env.observation), "good actions still step"


def test_buffer_sizes_follow_the_types():
    env = pbgym.NativeEnv({"game": "breakout", "num_games": 3, **OWN})
    needed = ctypes.c_int64(0)
    for slot, size in ((_lib.SLOT_ACTIONS, 12), (_lib.SLOT_REWARDS, 12)):
        _lib.check(lib.pbg_slot_bytes(env.handle, slot, ctypes.byref(needed)))
        assert needed.value == size
    raw = np.zeros(8, dtype=np.int32)
    with pytest.raises(PBGymError, match="rewards holds 8 bytes, needs 12"):
        _lib.check(lib.pbg_bind(env.handle, _lib.SLOT_REWARDS, raw.ctypes.data, 8))
    with pytest.raises(PBGymError, match="not aligned to 4 bytes"):
        _lib.check(lib.pbg_bind(env.handle, _lib.SLOT_ACTIONS, raw.ctypes.data + 2, 16))
    wide = pbgym.NativeEnv({"game": "breakout", "num_games": 3})
    _lib.check(lib.pbg_slot_bytes(wide.handle, _lib.SLOT_REWARDS, ctypes.byref(needed)))
    assert needed.value == 24


def test_envs_bind_the_types_they_hand_out():
    """Envs handing out Python floats (single games, PettingZoo) bind float32
    rewards, written in place; the vector env binds float64, its rewards' type."""
    vec = pbgym.PongVectorEnv(num_envs=3)
    single = pbgym.BreakoutEnv()
    pz = pong_v0.parallel_env()
    assert (vec.native.actions.dtype, vec.native.rewards.dtype) == (np.int64, np.float64)
    for native in (single.native, pz._native):
        assert (native.actions.dtype, native.rewards.dtype) == (np.int64, np.float32)
    vec.reset(seed=1)
    single.reset(seed=1)
    pz.reset(seed=1)
    assert vec.step(np.zeros(3, dtype=np.int64))[1].dtype == np.float64
    assert type(single.step(0)[1]) is float
    assert all(type(r) is float for r in pz.step({a: 0 for a in pz.agents})[1].values())
    vec.close()
    single.close()
    pz.close()
