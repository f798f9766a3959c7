"""Atari conventions on every environment object: action meanings, keys for
Gymnasium's ``play``, a frame rate that counts frame skip."""

import gymnasium as gym
import pytest

import pbgym
from pbgym import pong_v0

PONG = ["NOOP", "LEFT", "RIGHT"]
BREAKOUT = ["NOOP", "LEFT", "RIGHT", "PUSH"]


def every_env(**kw):
    yield gym.make("pbgym/Pong-v0", **kw).unwrapped, PONG
    yield gym.make("pbgym/Breakout-v0", **kw).unwrapped, BREAKOUT
    yield pbgym.PongVectorEnv(num_envs=2, **kw), PONG
    yield pbgym.BreakoutVectorEnv(num_envs=2, **kw), BREAKOUT
    yield pong_v0.parallel_env(**kw), PONG


def test_action_meanings_and_keys():
    for env, names in every_env():
        assert env.get_action_meanings() == names, type(env).__name__
        keys = env.get_keys_to_action()
        assert keys[(ord("a"),)] == names.index("LEFT") and keys[(ord("d"),)] == names.index("RIGHT")
        if "PUSH" in names:
            assert keys[(ord(" "),)] == names.index("PUSH")
        assert sorted(keys.values()) == list(range(1, len(names)))
    touch = gym.make("pbgym/Pong-v0", preset="touch").unwrapped
    assert touch.get_action_meanings() == PONG + ["UP", "DOWN"]
    assert touch.get_keys_to_action()[(ord("w"),)] == 3 and touch.get_keys_to_action()[(ord("x"),)] == 4


@pytest.mark.parametrize("kw,fps", [({}, 60), ({"frameSkip": 4}, 15), ({"frameSkip": 3}, 20),
                                    ({"frameSkip": 7}, 60 / 7)])
def test_render_fps_counts_frame_skip(kw, fps):
    for env, _ in every_env(**kw):
        assert env.metadata["render_fps"] == fps, type(env).__name__
    # The class's own metadata is untouched.
    assert pbgym.PongEnv.metadata["render_fps"] == 60


def test_ale_presets_play_at_15_steps_per_second():
    for env_id in ("pbgym/Pong-v0", "pbgym/Breakout-v0"):
        env = gym.make(env_id, preset="ale")
        assert env.metadata["render_fps"] == 15
        config = env.unwrapped.native.info["config"]
        assert config["frameSkip"] == 4 and config["stickyActionProbability"] == 0.25
    breakout = gym.make("pbgym/Breakout-v0", preset="ale").unwrapped.native.info["config"]
    assert breakout["maxSteps"] * breakout["frameSkip"] == 108_000


def test_gymnasium_play_takes_the_keys():
    # Gymnasium's play() loop over a headless display (SDL's dummy driver),
    # in a process of its own (gymnasium.utils.play warns when matplotlib is missing).
    import os
    import subprocess
    import sys

    pytest.importorskip("pygame")
    code = """
import gymnasium as gym
from gymnasium.utils.play import PlayableGame
env = gym.make("pbgym:pbgym/Breakout-v0", render_mode="rgb_array")
env.reset(seed=0)
game = PlayableGame(env, env.unwrapped.get_keys_to_action())
print(sorted(game.relevant_keys))
"""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split()[-3:] == ["[32,", "97,", "100]"]
