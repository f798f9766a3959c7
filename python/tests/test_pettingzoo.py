"""PettingZoo's own tests on two-player Pong."""

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, render_test

from pbgym import pong_v0


def test_parallel_api():
    parallel_api_test(pong_v0.parallel_env(maxScore=2), num_cycles=2000)


def test_parallel_seed():
    parallel_seed_test(lambda: pong_v0.parallel_env(maxScore=2), num_cycles=500)


def test_aec_api():
    api_test(pong_v0.env(maxScore=2), num_cycles=500)


def test_render(capsys):
    render_test(lambda render_mode=None: pong_v0.env(render_mode=render_mode))


def test_zero_sum_and_agents_leave():
    env = pong_v0.parallel_env(maxScore=2)
    obs, infos = env.reset(seed=3)
    assert env.agents == ["first_0", "second_0"]
    rng = np.random.default_rng(0)
    points = 0
    while env.agents:
        actions = {a: int(rng.integers(0, 3)) for a in env.agents}
        obs, rewards, term, trunc, infos = env.step(actions)
        assert rewards["first_0"] == -rewards["second_0"]
        points += abs(rewards["first_0"])
    assert env.agents == []
    assert points >= 2
    assert infos["first_0"]["end"] == "game-over"
    with pytest.raises(ValueError, match="reset"):
        env.step({"first_0": 0, "second_0": 0})


def test_seats_see_their_own_side():
    env = pong_v0.parallel_env()
    obs, _ = env.reset(seed=1)
    # Each seat's ball velocity is mirrored: the ball heads to one of them.
    assert obs["first_0"][7] == -obs["second_0"][7]
    px = pong_v0.parallel_env(obs_type="pixels")
    o, _ = px.reset(seed=1)
    assert np.array_equal(o["first_0"], o["second_0"][::-1, ::-1])


def test_max_cycles_truncates_and_state_space_holds_state():
    env = pong_v0.parallel_env(max_cycles=25)
    assert env.state_space is env.state_space
    obs, _ = env.reset(seed=2)
    assert env.state_space.contains(env.state())
    steps = 0
    while env.agents:
        obs, rewards, term, trunc, infos = env.step({a: 0 for a in env.agents})
        steps += 1
    assert steps == 25 and trunc["first_0"] and infos["first_0"]["end"] == "step-limit"
    with pytest.raises(ValueError, match="max_episode_steps or max_cycles, not both"):
        pong_v0.parallel_env(max_cycles=5, max_episode_steps=5)
