"""Stable-Baselines3 against pbgym: its env checker, the VecEnv adapter
(equal to SB3's own DummyVecEnv of single envs), images, Atari wrappers,
copies through SubprocVecEnv, and PPO smoke runs."""

import gymnasium as gym
import numpy as np
import pytest
from stable_baselines3 import PPO
from stable_baselines3.common.atari_wrappers import ClipRewardEnv, MaxAndSkipEnv, NoopResetEnv
from stable_baselines3.common.env_checker import check_env
from stable_baselines3.common.evaluation import evaluate_policy
from stable_baselines3.common.preprocessing import is_image_space
from stable_baselines3.common.vec_env import (DummyVecEnv, SubprocVecEnv, VecCheckNan, VecFrameStack, VecMonitor,
                                              VecNormalize, VecTransposeImage)

import pbgym  # noqa: F401
from conftest import compare
from pbgym.sb3 import SB3VecEnv

SHORT = {"pbgym/Pong-v0": {"maxScore": 1, "opponent": "tracker:noise=1"}, "pbgym/Breakout-v0": {"lives": 1}}


@pytest.mark.parametrize("env_id", list(SHORT))
@pytest.mark.parametrize("obs_type", ["features", "pixels"])
def test_check_env(env_id, obs_type, record):
    check_env(gym.make(env_id, obs_type=obs_type).unwrapped)
    record("SB3", f"check_env {env_id} {obs_type}", "pass")


@pytest.mark.parametrize("env_id", list(SHORT))
@pytest.mark.parametrize("obs_type", ["features", "pixels"])
def test_adapter_equals_dummy_vec_env(env_id, obs_type, rng, record):
    n, kw = 3, dict(SHORT[env_id], obs_type=obs_type)
    ours = VecCheckNan(SB3VecEnv(env_id, num_envs=n, **kw), raise_exception=True)
    ref = DummyVecEnv([lambda: gym.make(env_id, **kw) for _ in range(n)])
    ours.seed(11)
    ref.seed(11)
    compare(ours.reset(), ref.reset(), "reset")
    compare(ours.unwrapped.reset_infos, ref.reset_infos, "reset infos")
    ends = 0
    for t in range(400):
        a = rng.integers(0, ref.action_space.n, size=n)
        o1, r1, d1, i1 = ours.step(a)
        o2, r2, d2, i2 = ref.step(a)
        compare((o1, r1, d1), (o2, r2, d2), f"step {t}")
        assert r1.dtype == r2.dtype and d1.dtype == d2.dtype
        for i in range(n):
            # Every key we give equals DummyVecEnv's (which also passes the
            # single env's info of games that did not end).
            compare(i1[i], {k: i2[i][k] for k in i1[i]}, f"step {t} info {i}")
            if d1[i]:
                assert set(i1[i]) == set(i2[i])
        ends += int(d1.sum())
    assert ends >= 2
    record("SB3", f"VecEnv adapter equals DummyVecEnv ({env_id} {obs_type}, 400 steps, {ends} episode ends)", "pass")


def test_adapter_attributes_and_wrappers(record):
    env = SB3VecEnv("pbgym/Breakout-v0", num_envs=2, render_mode="rgb_array")
    assert env.get_attr("render_mode") == ["rgb_array", "rgb_array"]
    assert env.get_attr("observation_space")[0] == env.observation_space
    assert env.env_method("get_action_meanings", indices=[1]) == [["NOOP", "LEFT", "RIGHT", "PUSH"]]
    assert env.env_is_wrapped(gym.Wrapper) == [False, False]
    env.reset()
    assert env.get_images()[0].shape[2] == 3
    with pytest.raises(ValueError, match="for all 2 games at once"):
        env.set_attr("render_mode", None, indices=[0])
    for wrapped in (VecMonitor(env), VecNormalize(env)):
        wrapped.reset()
        wrapped.step(np.zeros(2, dtype=np.int64))
    record("SB3", "adapter get_attr/env_method/get_images, VecMonitor, VecNormalize", "pass")


def test_images_for_cnn_policy(record):
    env = SB3VecEnv("pbgym/Breakout-v0", num_envs=2, obs_type="pixels")
    assert env.observation_space.shape == (84, 84, 1) and is_image_space(env.observation_space)
    stacked = VecFrameStack(env, 4)
    assert stacked.observation_space.shape == (84, 84, 4)
    native = SB3VecEnv("pbgym/Breakout-v0", num_envs=2, obs_type="pixels", frame_stack=4)
    assert native.observation_space.shape == (84, 84, 4)
    assert VecTransposeImage(native).observation_space.shape == (4, 84, 84)
    first = SB3VecEnv("pbgym/Breakout-v0", num_envs=2, obs_type="pixels", frame_stack=4, channels_order="first")
    assert is_image_space(first.observation_space) and first.observation_space.shape == (4, 84, 84)
    record("SB3", "pixels are images: CnnPolicy's check, VecFrameStack (84, 84, 4), library frame_stack", "pass")


def test_atari_wrappers_that_apply(record):
    env = gym.make("pbgym/Breakout-v0", preset="atari", obs_type="pixels", frame_stack=4)
    env = ClipRewardEnv(MaxAndSkipEnv(NoopResetEnv(env, noop_max=30), skip=4))
    env.reset(seed=0)
    for _ in range(20):
        obs, reward, *_ = env.step(env.action_space.sample())
        assert reward in (-1.0, 0.0, 1.0)
    assert obs.shape == (84, 84, 4)
    record("SB3", "atari_wrappers NoopResetEnv, MaxAndSkipEnv, ClipRewardEnv", "pass")


def test_subproc_vec_env_copies_envs(record):
    # SubprocVecEnv sends each env factory to a process of its own (cloudpickle).
    env = gym.make("pbgym/Pong-v0", maxScore=1)
    env.reset(seed=3)
    sub = SubprocVecEnv([lambda: env, lambda: env], start_method="spawn")
    sub.seed(5)
    obs = sub.reset()
    assert obs.shape == (2, 12) and np.abs(obs).sum() > 0
    sub.close()
    record("SB3", "SubprocVecEnv (spawn) of a pickled env", "pass")


def test_ppo_mlp_on_pong_features(record):
    env = SB3VecEnv("pbgym/Pong-v0", num_envs=16, opponent="random", frameSkip=4, maxScore=3)
    env.seed(0)
    model = PPO("MlpPolicy", VecMonitor(env), n_steps=128, batch_size=256, n_epochs=4, seed=0, device="cpu",
                verbose=0)
    def evaluate():
        games = VecMonitor(SB3VecEnv("pbgym/Pong-v0", num_envs=8, opponent="random", frameSkip=4, maxScore=3))
        games.seed(10_000)
        return evaluate_policy(model, games, n_eval_episodes=16)[0]

    before = evaluate()
    model.learn(60_000)
    after = evaluate()
    assert np.isfinite(after)
    record("SB3", "PPO MlpPolicy, Pong features vs random, 60 k steps",
           f"mean return {before:.2f} -> {after:.2f} (16 games to 3)")


def test_ppo_cnn_on_stacked_pixels(record):
    env = SB3VecEnv("pbgym/Breakout-v0", num_envs=8, obs_type="pixels", frame_stack=4, frameSkip=4)
    model = PPO("CnnPolicy", env, n_steps=64, batch_size=128, n_epochs=1, seed=0, device="cpu", verbose=0)
    model.learn(2048)
    actions, _ = model.predict(env.reset())
    assert actions.shape == (8,)
    record("SB3", "PPO CnnPolicy, Breakout stacked pixels (84, 84, 4), 2 k steps", "runs")
