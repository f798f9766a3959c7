"""Pixels with a channel axis, and frames stacked by the library with
Gymnasium's semantics (``FrameStackObservation``, padding "reset")."""

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from gymnasium.wrappers import FrameStackObservation

import pbgym
from conftest import compare

MODES = [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP, AutoresetMode.DISABLED]
SHORT = {"pbgym/Pong-v0": {"maxScore": 1}, "pbgym/Breakout-v0": {"lives": 1}}


def to_layout(x, order):
    """FrameStackObservation's (k, H, W, 1) stack in the library's layout."""
    if x is None:
        return None
    frames = x[..., 0]
    return np.ascontiguousarray(frames if order == "first" else np.moveaxis(frames, 0, -1))


def converted(step, order, batched=True):
    """A SyncVectorEnv result with every observation moved to ``order``."""
    conv = (lambda o: np.stack([to_layout(x, order) for x in o])) if batched else (lambda o: to_layout(o, order))
    obs, *rest = step
    out = [conv(obs), *rest]
    info = rest[-1]
    if "final_obs" in info:
        info = dict(info)
        final = np.full(len(info["final_obs"]), None, dtype=object)
        for i, x in enumerate(info["final_obs"]):
            final[i] = to_layout(x, order)
        info["final_obs"] = final
        out[-1] = info
    return tuple(out)


@pytest.mark.parametrize("env_id", list(SHORT))
@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.name)
@pytest.mark.parametrize("order", ["last", "first"])
def test_stacked_vector_equals_frame_stack_wrapper(env_id, mode, order, rng):
    n, k = 3, 4
    kw = dict(SHORT[env_id], obs_type="pixels")
    native = gym.make_vec(env_id, num_envs=n, vectorization_mode="vector_entry_point", autoreset_mode=mode,
                          frame_stack=k, channels_order=order, **kw)
    sync = SyncVectorEnv([lambda: FrameStackObservation(gym.make(env_id, **kw).unwrapped, k) for _ in range(n)],
                         autoreset_mode=mode)
    shape = (84, 84, k) if order == "last" else (k, 84, 84)
    assert native.single_observation_space.shape == shape
    o1, i1 = native.reset(seed=9)
    compare((o1, i1), converted(sync.reset(seed=9), order), "reset")
    # At the start every entry of the stack is the first frame.
    first = o1[..., 0] if order == "last" else o1[:, 0]
    for j in range(k):
        assert np.array_equal(o1[..., j] if order == "last" else o1[:, j], first)
    ends = 0
    for t in range(400):
        a = rng.integers(0, native.single_action_space.n, size=n)
        r1 = native.step(a)
        compare(r1, converted(sync.step(a), order), f"step {t}")
        done = r1[2] | r1[3]
        ends += int(done.sum())
        if mode == AutoresetMode.DISABLED and done.any():
            compare(native.reset(options={"reset_mask": done.copy()}),
                    converted(sync.reset(options={"reset_mask": done.copy()}), order), f"masked reset {t}")
    assert ends >= 2, "the rollout must restart games"
    native.close()
    sync.close()


@pytest.mark.parametrize("order", ["last", "first"])
@pytest.mark.parametrize("k", [2, 3, 4, 5])
def test_single_env_stack_equals_wrapper(order, k):
    # Depths 2 and 4 have channels-last paths of their own (FrameStack.write).
    env = gym.make("pbgym/Pong-v0", obs_type="pixels", frame_stack=k, channels_order=order, maxScore=1).unwrapped
    ref = FrameStackObservation(gym.make("pbgym/Pong-v0", obs_type="pixels", maxScore=1).unwrapped, k)
    compare(env.reset(seed=4)[0], to_layout(ref.reset(seed=4)[0], order))
    rng = np.random.default_rng(8)
    for t in range(300):
        a = int(rng.integers(0, 3))
        r1, r2 = env.step(a), ref.step(a)
        compare(r1[0], to_layout(r2[0], order), f"step {t}")
        if r1[2] or r1[3]:
            compare(env.reset()[0], to_layout(ref.reset()[0], order), f"reset {t}")


def test_pixels_have_a_channel_axis():
    for order, shape in (("last", (84, 84, 1)), ("first", (1, 84, 84))):
        env = gym.make("pbgym/Breakout-v0", obs_type="pixels", channels_order=order)
        assert env.observation_space.shape == shape
        obs, _ = env.reset(seed=0)
        assert obs.shape == shape and obs.dtype == np.uint8 and obs.max() == 255
    v = pbgym.PongVectorEnv(num_envs=2, obs_type="pixels", pixel_size=(40, 60))
    assert v.reset(seed=0)[0].shape == (2, 40, 60, 1)
    # One frame: both orders are the same bytes as the unstacked image.
    last = gym.make("pbgym/Pong-v0", obs_type="pixels").reset(seed=2)[0]
    first = gym.make("pbgym/Pong-v0", obs_type="pixels", channels_order="first").reset(seed=2)[0]
    assert np.array_equal(last[:, :, 0], first[0])


def test_pettingzoo_stack_keeps_each_seat():
    from pbgym import pong_v0

    env = pong_v0.parallel_env(obs_type="pixels", frame_stack=2)
    obs, _ = env.reset(seed=1)
    assert obs["first_0"].shape == (84, 84, 2)
    assert np.array_equal(obs["first_0"], obs["second_0"][::-1, ::-1])
    obs, *_ = env.step({"first_0": 1, "second_0": 2})
    assert np.array_equal(obs["first_0"], obs["second_0"][::-1, ::-1])


@pytest.mark.parametrize("kwargs,match", [
    ({"frame_stack": 4}, "frame_stack=4 needs obs_type \"pixels\""),
    ({"obs_type": "pixels", "frame_stack": 0}, "frame_stack=0 is invalid; allowed: an integer in 1 ... 16"),
    ({"obs_type": "pixels", "frame_stack": 17}, "frame_stack=17 is invalid"),
    ({"obs_type": "pixels", "frame_stack": "4"}, "frame_stack=\"4\" is invalid"),
])
def test_bad_frame_stack_is_refused(kwargs, match):
    with pytest.raises(pbgym.PBGymError, match=match):
        pbgym.BreakoutVectorEnv(num_envs=2, **kwargs)


def test_bad_channels_order_is_refused():
    with pytest.raises(ValueError, match="channels_order='middle' is invalid; allowed: 'last'"):
        pbgym.BreakoutVectorEnv(num_envs=2, obs_type="pixels", channels_order="middle")


def test_restore_restarts_the_stack_and_stack_load_sets_it():
    n = pbgym.NativeEnv({"game": "breakout", "obs_type": "pixels", "frame_stack": 3, "num_games": 2})
    n.reset(seeds=[1, 2])
    for _ in range(20):
        n.step(np.array([1, 2], dtype=np.int64))
    saved, stack = n.snapshot(0), n.stack_save(0)
    assert len(stack) == 3 * 84 * 84
    n.restore(saved, 1)
    n.observe()
    px = n.pixels[1, 0]
    assert all(np.array_equal(px[..., j], px[..., 2]) for j in range(3))
    n.stack_load(stack, 1)
    n.observe()
    assert np.array_equal(n.pixels[0], n.pixels[1])
    with pytest.raises(pbgym.PBGymError, match="stack_load: 5 bytes given"):
        n.stack_load(b"12345", 0)
    plain = pbgym.NativeEnv({"game": "breakout", "obs_type": "pixels"})
    with pytest.raises(pbgym.PBGymError, match="stacks no frames"):
        plain.stack_save(0)
