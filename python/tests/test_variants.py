"""Per-episode rules in the single environments (``variants=``): drawn from the
episode's seed, played exactly as a fixed config with those rules, reported
in ``info``, optionally visible as features, carried by snapshots."""

from __future__ import annotations

import copy
import pickle

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from pbgym import PBGymError

IDS = {"pong": "pbgym:pbgym/Pong-v0", "breakout": "pbgym:pbgym/Breakout-v0"}


def play(env, seed, steps=400, reset_seed=True):
    """Observations and rewards of ``steps`` fixed actions from ``reset(seed=seed)``."""
    obs, info = env.reset(seed=seed) if reset_seed else env.reset()
    out = [obs]
    for k in range(steps):
        obs, r, term, trunc, _ = env.step(k % env.action_space.n)
        out.append(np.append(obs, r))
        if term or trunc:
            break
    return info, out


@pytest.mark.parametrize("game", ["pong", "breakout"])
@pytest.mark.parametrize("set_name", ["train", "far"])
def test_an_episode_plays_exactly_the_fixed_config_of_its_drawn_rules(game, set_name):
    env = gym.make(IDS[game], variants=set_name, opponent_history=True) if game == "pong" else \
        gym.make(IDS[game], variants=set_name)
    seen = set()
    for seed in (1, 2, 3):
        info, got = play(env, seed)
        rules = info["rules"]
        assert rules["set"] == set_name
        seen.add(tuple(sorted(rules["values"].items())))
        fixed = gym.make(IDS[game], **rules["values"])
        _, expected = play(fixed, seed)
        assert len(got) == len(expected)
        for a, b in zip(got, expected):
            np.testing.assert_array_equal(a, b)
        # The same seed draws the same rules in a fresh environment.
        again = gym.make(IDS[game], variants=set_name)
        assert again.reset(seed=seed)[1]["rules"] == rules
    assert len(seen) > 1


def test_later_episodes_of_a_stream_draw_their_own_rules_and_replay():
    env = gym.make(IDS["pong"], variants="train")
    env.reset(seed=7)
    first = [env.reset()[1]["rules"]["values"] for _ in range(4)]
    env.reset(seed=7)
    assert [env.reset()[1]["rules"]["values"] for _ in range(4)] == first
    assert len({tuple(sorted(v.items())) for v in first}) == 4


@pytest.mark.parametrize("game", ["pong", "breakout"])
def test_visible_rules_are_features_within_their_declared_bounds(game):
    plain = gym.make(IDS[game])
    env = gym.make(IDS[game], variants="train", variants_visible=True)
    extra = env.observation_space.shape[0] - plain.observation_space.shape[0]
    assert extra == 6
    assert np.all(env.observation_space.low[-extra:] == -1) and np.all(env.observation_space.high[-extra:] == 1)
    for seed in range(20):
        obs, info = env.reset(seed=seed)
        assert env.observation_space.contains(obs)
        assert np.any(obs[-extra:] != 0)
    check_env(env.unwrapped)


def test_snapshots_and_copies_carry_the_episodes_rules():
    env = gym.make(IDS["pong"], variants="near", opponent_history=True).unwrapped
    env.reset(seed=11)
    for k in range(150):
        env.step(k % 3)
    twin = copy.deepcopy(env)
    pickled = pickle.loads(pickle.dumps(env))
    rules = env.native.rules(0)
    assert twin.native.rules(0) == rules and pickled.native.rules(0) == rules
    for k in range(300):
        a = env.step(k % 3)
        for other in (twin, pickled):
            b = other.step(k % 3)
            np.testing.assert_array_equal(a[0], b[0])
            assert a[1:4] == b[1:4]


def test_bad_variant_options_are_one_clear_error(tmp_path):
    with pytest.raises(PBGymError, match='has no set "middle"; sets are: train, near, far'):
        gym.make(IDS["pong"], variants="middle")
    with pytest.raises(ValueError, match="variants_visible and variants_file need variants"):
        gym.make(IDS["pong"], variants_visible=True)
    with pytest.raises(PBGymError, match='needs autoreset "disabled"'):
        gym.make_vec(IDS["pong"], num_envs=2, vectorization_mode="vector_entry_point", variants="train")
    plain = gym.make(IDS["breakout"]).unwrapped
    with pytest.raises(PBGymError, match="plays one config throughout"):
        plain.native.rules(0)
    ruled = gym.make(IDS["breakout"], variants="near").unwrapped
    with pytest.raises(PBGymError, match=r"rules: game 3 is outside 0 \.\.< 1"):
        ruled.native.rules(3)
    own = tmp_path / "own.json"
    own.write_text('{"game": "pong", "version": 1, "sets": {"train": {"sampling": "uniform", '
                   '"ranges": {"paddleWidth": [60, 70]}}}}')
    env = gym.make(IDS["pong"], variants="train", variants_file=str(own))
    assert 60 <= env.reset(seed=1)[1]["rules"]["values"]["paddleWidth"] <= 70
    with pytest.raises(PBGymError, match=r'variants_text: "sets" has no set "far"; sets are: train'):
        gym.make(IDS["pong"], variants="far", variants_file=str(own))


@pytest.mark.parametrize("game,set_name", [("pong", "train"), ("breakout", "far"), ("breakout", "train")])
def test_python_plays_the_rules_the_cli_draws(game, set_name):
    """Episode e of a stream seeded s: the rules ``gym-train config --draw`` prints (Swift, the CLI)
    are the ones the Python environment plays (through the C ABI)."""
    import json
    import subprocess

    from pbgym.distributed import executable

    proc = subprocess.run([executable(), "config", "--game", game, "--draw", set_name, "--seed", "5",
                           "--episodes", "4"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    drawn = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [d["episode"] for d in drawn] == [0, 1, 2, 3]
    env = gym.make(IDS[game], variants=set_name)
    played = [env.reset(seed=5)[1]["rules"]["values"]] + [env.reset()[1]["rules"]["values"] for _ in range(3)]
    for d, values in zip(drawn, played):
        assert d["values"] and all(values[k] == v for k, v in d["values"].items()), (d, values)
