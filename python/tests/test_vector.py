"""The native vector env equals SyncVectorEnv of single envs, in all three autoreset modes."""

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, SyncVectorEnv

import pbgym
from conftest import GAMES, compare

MODES = [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP, AutoresetMode.DISABLED]
# Short episodes so every mode restarts games many times within the rollout.
SHORT = {"pbgym/Pong-v0": {"maxScore": 1}, "pbgym/Breakout-v0": {"lives": 1, "preset": "classic"}}


def make_pair(env_id, mode, n, obs_type="features"):
    kw = dict(SHORT[env_id], obs_type=obs_type)
    native = gym.make_vec(env_id, num_envs=n, vectorization_mode="vector_entry_point",
                          autoreset_mode=mode, **kw)
    sync = SyncVectorEnv([lambda: gym.make(env_id, **kw).unwrapped for _ in range(n)], autoreset_mode=mode)
    return native, sync


@pytest.mark.parametrize("env_id", list(GAMES))
@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.name)
def test_native_equals_sync(env_id, mode, rng):
    n, steps = 4, 600
    native, sync = make_pair(env_id, mode, n)
    assert native.metadata["autoreset_mode"] == mode
    assert native.single_observation_space == sync.single_observation_space
    assert native.action_space == sync.action_space
    o1, i1 = native.reset(seed=7)
    o2, i2 = sync.reset(seed=7)
    compare(o1, o2, "reset obs")
    compare(i1, i2, "reset info")
    ends = 0
    for t in range(steps):
        a = rng.integers(0, native.single_action_space.n, size=n)
        r1 = native.step(a)
        r2 = sync.step(a)
        for name, x, y in zip(("obs", "reward", "terminated", "truncated", "info"), r1, r2):
            compare(x, y, f"step {t} {name}")
        done = r1[2] | r1[3]
        ends += int(done.sum())
        if mode == AutoresetMode.DISABLED and done.any():
            o1, i1 = native.reset(options={"reset_mask": done.copy()})
            o2, i2 = sync.reset(options={"reset_mask": done.copy()})
            compare(o1, o2, f"step {t} masked reset obs")
            compare(i1, i2, f"step {t} masked reset info")
    assert ends >= 2, "the rollout must restart games to test the autoreset mode"
    native.close()
    sync.close()


@pytest.mark.parametrize("env_id", list(GAMES))
def test_native_equals_sync_pixels(env_id, rng):
    native, sync = make_pair(env_id, AutoresetMode.SAME_STEP, 3, obs_type="pixels")
    compare(native.reset(seed=11)[0], sync.reset(seed=11)[0])
    for t in range(300):
        a = rng.integers(0, native.single_action_space.n, size=3)
        for x, y in zip(native.step(a), sync.step(a)):
            compare(x, y, f"step {t}")


def test_seed_list_and_continuation(rng):
    """Seeds as a list, None entries going on with their own stream."""
    native, sync = make_pair("pbgym/Pong-v0", AutoresetMode.NEXT_STEP, 3)
    for seeds in ([5, 9, 1], [None, 4, None], None):
        compare(native.reset(seed=seeds), sync.reset(seed=seeds))
        for _ in range(50):
            a = rng.integers(0, 3, size=3)
            compare(native.step(a), sync.step(a))


def test_zero_copy_is_the_library_buffer():
    env = pbgym.PongVectorEnv(num_envs=2, zero_copy=True)
    o, _ = env.reset(seed=0)
    o2, *_ = env.step(np.zeros(2, dtype=np.int64))
    assert np.shares_memory(o, o2)
    copying = pbgym.PongVectorEnv(num_envs=2)
    a, _ = copying.reset(seed=0)
    b, *_ = copying.step(np.zeros(2, dtype=np.int64))
    assert not np.shares_memory(a, b)


@pytest.mark.parametrize("obs_type", ["features", "pixels"])
def test_fresh_outputs_are_written_in_place(obs_type):
    """Without zero_copy each step's observations, rewards and flags are new
    arrays the library wrote (no copy), which no later call writes."""
    env = pbgym.BreakoutVectorEnv(num_envs=3, obs_type=obs_type)
    env.reset(seed=0)
    b = env.step(np.ones(3, dtype=np.int64))[:4]

    def bound():
        n = env.native
        return n.observation, n.rewards, n.terminated, n.truncated

    for given, written in zip(b, bound()):
        assert np.shares_memory(given, written), "the step must hand out the arrays the library wrote"
    assert (b[1].dtype, b[2].dtype, b[3].dtype, b[1].shape) == (np.float64, np.bool_, np.bool_, (3,))
    kept = [a.copy() for a in b]
    c = env.step(np.full(3, 2, dtype=np.int64))[:4]
    assert not any(np.shares_memory(x, y) for x, y in zip(b, c))
    for write in (lambda: env.reset(seed=1), lambda: env.native.observe(), lambda: env.step(np.zeros(3, np.int64)),
                  lambda: env.native.step(np.zeros(3, np.int64)), lambda: env.native.bench(3, np.zeros((1, 3), np.int64))):
        write()
        assert all(np.array_equal(x, y) for x, y in zip(b, kept))
    with pytest.raises(ValueError, match="outside"):
        env.step(np.full(3, 9, dtype=np.int64))
    d = env.step(np.zeros(3, dtype=np.int64))[:4]
    assert all(np.shares_memory(x, y) for x, y in zip(d, bound()))


def test_a_held_reward_or_flag_keeps_its_set_from_reuse(rng):
    """Output arrays are reused only as a set: holding just the rewards, or
    just one flag array, keeps the step's observations from being written
    again too."""
    env = pbgym.BreakoutVectorEnv(num_envs=4)
    env.reset(seed=0)
    for pick in (1, 2, 3):
        step = env.step(np.ones(4, dtype=np.int64))
        obs, held = step[0], step[pick]
        kept = held.copy()
        address = obs.__array_interface__["data"][0]
        del step, obs
        for _ in range(10):
            out = env.step(rng.integers(0, 4, size=4))
            assert out[0].__array_interface__["data"][0] != address
            assert not np.shares_memory(out[pick], held)
            del out
        assert np.array_equal(held, kept)
        del held


def test_fresh_observations_reuse_only_dropped_arrays(rng):
    """A dropped observation array is written again; one still held (the
    view handed out, a view of it, or the array itself) never is."""
    env = pbgym.PongVectorEnv(num_envs=4)
    env.reset(seed=0)
    held = env.step(np.ones(4, dtype=np.int64))[0]
    view = env.step(np.ones(4, dtype=np.int64))[0][1:, 2:]
    kept, kept_view = held.copy(), view.copy()
    reused = same_view = 0
    for _ in range(20):
        o = env.step(rng.integers(0, 3, size=4))[0]
        assert not np.shares_memory(o, held) and not np.shares_memory(o, view)
        reused += any(o.base is spare.observation for spare in env.native._spares)
        # The first seat's view handed out is made once per array.
        same_view += any(o is spare.first for spare in env.native._spares)
        del o
    assert reused >= 10, "dropped arrays must be reused"
    assert same_view >= 10, "a reused array's first-seat view must be the one made with it"
    assert np.array_equal(held, kept) and np.array_equal(view, kept_view)
    # Held through the array itself (the view's base) only.
    del held, view
    base = env.step(np.ones(4, dtype=np.int64))[0].base
    kept_base = base.copy()
    for _ in range(20):
        assert not np.shares_memory(env.step(rng.integers(0, 3, size=4))[0], base)
    assert np.array_equal(base, kept_base)


def test_vector_max_episode_steps_truncates():
    env = gym.make_vec("pbgym/Pong-v0", num_envs=2, vectorization_mode="vector_entry_point", max_episode_steps=10)
    env.reset(seed=0)
    for t in range(10):
        _, _, term, trunc, info = env.step(np.zeros(2, dtype=np.int64))
    assert trunc.all() and not term.any()
    assert list(info["end"]) == ["step-limit", "step-limit"]


def test_lazy_infos_hold_their_own_step(rng):
    """Infos read after later steps still describe their own step, and act
    as a plain dict (keys, copy, pickle) once read."""
    import pickle

    kw = dict(SHORT["pbgym/Breakout-v0"])
    late = gym.make_vec("pbgym/Breakout-v0", num_envs=4, vectorization_mode="vector_entry_point", **kw)
    now = gym.make_vec("pbgym/Breakout-v0", num_envs=4, vectorization_mode="vector_entry_point", **kw)
    late.reset(seed=3)
    now.reset(seed=3)
    kept, read = [], []
    for _ in range(400):
        a = rng.integers(0, 4, size=4)
        kept.append(late.step(a)[4])
        read.append(dict(now.step(a)[4]))
    assert any(info["events"]["points"].any() for info in read), "the rollout must score"
    for k, (x, y) in enumerate(zip(kept, read)):
        compare(x, y, f"step {k}")
    info = kept[-1]
    assert isinstance(info, dict) and "end" in info and len(info) == len(read[-1])
    compare(pickle.loads(pickle.dumps(info)), read[-1])
    compare(info.copy(), read[-1])


def test_lazy_infos_kept_over_library_writes(rng):
    """Unread infos stay their step's when the library rewrites its buffers
    (the next step, a reset, observe, the bench loop) before they are read,
    also when the env is dropped before."""
    kw = dict(SHORT["pbgym/Pong-v0"])
    late = gym.make_vec("pbgym/Pong-v0", num_envs=3, vectorization_mode="vector_entry_point", **kw).unwrapped
    now = gym.make_vec("pbgym/Pong-v0", num_envs=3, vectorization_mode="vector_entry_point", **kw).unwrapped
    late.reset(seed=5)
    now.reset(seed=5)
    writes = [lambda: late.reset(seed=8), lambda: late.native.observe(),
              lambda: late.native.bench(2, np.zeros((1, 3), dtype=np.int64)), lambda: late.step(np.ones(3, np.int64))]
    checked = 0
    for t in range(3000):
        a = rng.integers(0, 3, size=3)
        kept = late.step(a)[4]
        read = dict(now.step(a)[4])
        if read["end"][0] != "none" or t % 97 == 0:
            writes[checked % len(writes)]()
            compare(kept, read, f"step {t}")
            checked += 1
            late.reset(seed=t)
            now.reset(seed=t)
    assert checked >= 8
    kept = late.step(np.zeros(3, np.int64))[4]
    read = dict(now.step(np.zeros(3, np.int64))[4])
    late.close()
    compare(kept, read, "after close")


@pytest.mark.parametrize("env_id", list(GAMES))
def test_library_bench_loop_steps_as_step(env_id, rng):
    """pbg_bench (the Swift figure of `python -m pbgym.bench`) runs the very
    steps `step` runs: same actions, same games after."""
    a = gym.make_vec(env_id, num_envs=5, vectorization_mode="vector_entry_point").unwrapped
    b = gym.make_vec(env_id, num_envs=5, vectorization_mode="vector_entry_point").unwrapped
    a.reset(seed=2)
    b.reset(seed=2)
    sets = rng.integers(0, a.single_action_space.n, size=(3, 5))
    for k in range(7):
        a.step(sets[k % 3])
    b.native.bench(7, sets)
    compare(a.native.obs, b.native.obs)
    compare(a.native.scores, b.native.scores)
    assert not np.array_equal(a.native.obs, gym.make_vec(env_id, num_envs=5).reset(seed=2)[0][:, None]), \
        "the games must have moved"


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP], ids=lambda m: m.name)
@pytest.mark.parametrize("opponent", ["random", "tracker:noise=1,reaction=3"])
def test_native_equals_sync_with_a_stateful_opponent(mode, opponent, rng):
    """The opponent starts each automatic restart's episode from that
    episode's seed, as a single env's opponent does after reset()."""
    kw = dict(maxScore=1, opponent=opponent)
    n = 3
    native = gym.make_vec("pbgym/Pong-v0", num_envs=n, vectorization_mode="vector_entry_point",
                          autoreset_mode=mode, **kw)
    sync = SyncVectorEnv([lambda: gym.make("pbgym/Pong-v0", **kw).unwrapped for _ in range(n)], autoreset_mode=mode)
    compare(native.reset(seed=21), sync.reset(seed=21))
    ends = 0
    for t in range(1500):
        a = rng.integers(0, 3, size=n)
        r1, r2 = native.step(a), sync.step(a)
        compare(r1, r2, f"step {t}")
        ends += int((r1[2] | r1[3]).sum())
    assert ends >= 3, "the rollout must restart games"
