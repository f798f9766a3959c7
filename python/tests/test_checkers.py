"""Gymnasium's own checker on every registered id, preset and observation type."""

import warnings

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env

import pbgym
from conftest import GAMES, presets

CASES = [(env_id, preset, obs_type)
         for env_id, game in GAMES.items()
         for preset in presets(game)
         for obs_type in ("features", "pixels")]


@pytest.mark.parametrize("env_id,preset,obs_type", CASES)
def test_check_env(env_id, preset, obs_type):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = gym.make(env_id, preset=preset, obs_type=obs_type)
        assert env.unwrapped.spec is not None
        check_env(env.unwrapped, skip_render_check=False)
        env.close()


@pytest.mark.parametrize("env_id", list(GAMES))
@pytest.mark.parametrize("render_mode", ["rgb_array", "ansi"])
def test_check_env_render_modes(env_id, render_mode):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = gym.make(env_id, render_mode=render_mode)
        check_env(env.unwrapped, skip_render_check=False)
        env.reset(seed=0)
        frame = env.render()
        if render_mode == "rgb_array":
            assert frame.ndim == 3 and frame.shape[2] == 3 and frame.dtype.name == "uint8"
            assert frame.max() == 255  # paddles and ball are drawn
        else:
            assert isinstance(frame, str) and "step 0" in frame
        env.close()
        env.close()


def test_passive_checker_through_make():
    # gymnasium.make wraps with the passive checker: a full episode under it warns nothing.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = gym.make("pbgym/Pong-v0", maxScore=1)
        env.reset(seed=3)
        done = False
        while not done:
            _, _, term, trunc, _ = env.step(env.action_space.sample())
            done = term or trunc
        env.close()


def test_registered_ids():
    assert set(pbgym.ENV_IDS) <= set(gym.registry)
    for env_id in pbgym.ENV_IDS:
        spec = gym.spec(env_id)
        assert spec.entry_point and spec.vector_entry_point


def test_action_out_of_range_raises():
    env = gym.make("pbgym/Pong-v0")
    env.reset(seed=0)
    with pytest.raises(ValueError, match="outside"):
        env.unwrapped.step(3)
    with pytest.raises(ValueError, match="outside"):
        env.unwrapped.step(-1)


def test_pong_opponent_and_config_keys():
    env = gym.make("pbgym/Pong-v0", opponent="tracker:noise=0.5", maxScore=3, verticalMovement=True)
    assert env.action_space.n == 5
    with pytest.raises(pbgym.PBGymError, match="noise"):
        gym.make("pbgym/Pong-v0", opponent="tracker:noise=99")
    with pytest.raises(pbgym.PBGymError, match="maxScore"):
        gym.make("pbgym/Pong-v0", maxScore=-4)
    with pytest.raises(pbgym.PBGymError, match="unknown key"):
        gym.make("pbgym/Breakout-v0", noSuchKey=1)
