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
    with pytest.raises(PBGymError, match='has no set "middle"'):
        gym.make_vec(IDS["pong"], num_envs=2, vectorization_mode="vector_entry_point", variants="middle")
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


def single_runs(game, seeds, actions, steps, **kwargs):
    """Per seed: a single env reset with it, then ``reset()`` at each end, in
    step with a next-step vector env (the step after an end restarts, its
    action unused): each step's observation, reward and the running episode's
    rules (game ``i`` of a vector env seeded ``s`` plays with seed ``s + i``)."""
    out = []
    for i, seed in enumerate(seeds):
        env = gym.make(IDS[game], **kwargs)
        env.reset(seed=seed)
        rows, ended = [], False
        for t in range(steps):
            if ended:
                obs, info = env.reset()
                r, ended = 0.0, False
            else:
                obs, r, term, trunc, info = env.step(int(actions[t, i]))
                ended = term or trunc
            rows.append((obs.copy(), float(r), info["rules"]))
        out.append(rows)
    return out


@pytest.mark.parametrize("game", ["pong", "breakout"])
@pytest.mark.parametrize("visible", [False, True])
def test_the_vector_env_plays_each_episode_under_its_drawn_rules(game, visible):
    """``gym.make_vec(..., variants="train")`` in next-step mode: game ``i`` plays
    exactly the episodes (restarts included) and rules of a single env seeded
    ``seed + i``, and reports them per env in ``infos["rules"]``."""
    n, steps, seed = 3, 700, 11
    keys = dict(maxScore=1) if game == "pong" else dict(lives=1)
    vec = gym.make_vec(IDS[game], num_envs=n, vectorization_mode="vector_entry_point", variants="train",
                       variants_visible=visible, **keys)
    actions = np.random.default_rng(3).integers(0, vec.single_action_space.n, size=(steps, n))
    obs, infos = vec.reset(seed=seed)
    assert all(r["set"] == "train" for r in infos["rules"])
    got = [[] for _ in range(n)]
    for t in range(steps):
        obs, rewards, term, trunc, infos = vec.step(actions[t])
        assert vec.single_observation_space.contains(obs[0])
        for i in range(n):
            got[i].append((obs[i].copy(), float(rewards[i]), infos["rules"][i]))
    expected = single_runs(game, [seed + i for i in range(n)], actions, steps, variants="train",
                           variants_visible=visible, **keys)
    restarts = 0
    for i in range(n):
        for t, ((o, r, rules), (eo, er, erules)) in enumerate(zip(got[i], expected[i])):
            np.testing.assert_array_equal(o, eo, err_msg=f"{game} env {i} step {t}")
            assert r == er and rules == erules, (game, i, t)
            restarts += t > 0 and rules != got[i][t - 1][2]
    assert restarts >= n, f"{game}: {restarts} rule changes seen"


def test_same_step_final_infos_name_the_finished_episodes_rules():
    vec = gym.make_vec(IDS["breakout"], num_envs=4, vectorization_mode="vector_entry_point", variants="far",
                       autoreset_mode=gym.vector.AutoresetMode.SAME_STEP, lives=1)
    _, infos = vec.reset(seed=2)
    running = list(infos["rules"])
    ended = 0
    for t in range(3000):
        _, _, term, trunc, infos = vec.step(np.full(4, t % 3))
        done = term | trunc
        for i in np.flatnonzero(done):
            assert infos["final_info"]["rules"][i] == running[i]
            ended += 1
        running = list(infos["rules"])
        if ended >= 4:
            break
    assert ended >= 4


def test_pettingzoo_reports_and_plays_the_drawn_rules():
    from pbgym.pong_v0 import parallel_env

    env = parallel_env(variants="train", maxScore=2)
    obs, infos = env.reset(seed=9)
    rules = infos["first_0"]["rules"]
    assert rules["set"] == "train" and infos["second_0"]["rules"] == rules
    fixed = parallel_env(maxScore=2, **rules["values"])
    fobs, _ = fixed.reset(seed=9)
    rng = np.random.default_rng(0)
    for t in range(400):
        for a in obs:
            np.testing.assert_array_equal(obs[a], fobs[a])
        if not env.agents:
            break
        acts = {a: int(rng.integers(0, 3)) for a in env.agents}
        obs, r, term, trunc, infos = env.step(acts)
        fobs, fr, _, _, _ = fixed.step(acts)
        assert r == fr and infos["first_0"]["rules"] == rules
