"""SuperSuit against two-player Pong: its vector constructors copy the env
(cloudpickle) into each slot and process, so the copies must be real games;
its frame stack over pixels; a self-play PPO smoke run."""

import numpy as np
import pytest
import supersuit as ss
from stable_baselines3 import PPO
from stable_baselines3.common.utils import set_random_seed
from stable_baselines3.common.vec_env import VecMonitor

from pbgym import pong_v0


def reference_rollout(seed, actions):
    """Observations and rewards of the same games played one by one."""
    env = pong_v0.parallel_env(maxScore=1)
    obs, _ = env.reset(seed=seed)
    rows, rewards = [np.stack([obs["first_0"], obs["second_0"]])], []
    for a in actions:
        obs, rew, term, trunc, _ = env.step({"first_0": int(a[0]), "second_0": int(a[1])})
        rows.append(np.stack([obs["first_0"], obs["second_0"]]))
        rewards.append([rew["first_0"], rew["second_0"]])
        if not env.agents:
            break
    return rows, rewards


@pytest.mark.parametrize("num_cpus", [1, 2])
def test_concat_vec_envs_plays_real_games(num_cpus, rng, record):
    vec = ss.concat_vec_envs_v1(ss.pettingzoo_env_to_vec_env_v1(pong_v0.parallel_env(maxScore=1)), 2,
                                num_cpus=num_cpus, base_class="gymnasium")
    obs, _ = vec.reset(seed=7)
    # Two copies, two agents each: 4 rows, all of them real observations.
    assert obs.shape == (4, 12) and np.count_nonzero(obs) > 0
    actions = rng.integers(0, 3, size=(300, 4))
    seen_obs, seen_rew = [obs], []
    for a in actions:
        obs, rew, term, trunc, _ = vec.step(a)
        seen_obs.append(obs)
        seen_rew.append(rew)
        if (term | trunc).any():
            break
    vec.close()
    # Copy 0 played the games a single env seeded 7 plays (SuperSuit seeds copy k with seed + k).
    rows, rewards = reference_rollout(7, actions[:, :2])
    # Up to the game's end (there SuperSuit hands out the next game's first
    # observation); the rewards up to and with the ending step.
    assert len(seen_rew) == len(rewards)
    for t in range(len(rewards)):
        np.testing.assert_array_equal(seen_obs[t][:2], rows[t], err_msg=f"step {t}")
        np.testing.assert_array_equal(seen_rew[t][:2], rewards[t], err_msg=f"reward {t}")
    assert np.abs(np.array(rewards)).sum() >= 1, "a point was scored, so rewards are real"
    record("SuperSuit", f"concat_vec_envs_v1 num_cpus={num_cpus}: real observations and rewards", "pass")


def test_frame_stack_over_pixels(record):
    env = ss.frame_stack_v1(pong_v0.parallel_env(obs_type="pixels"), 4)
    obs, _ = env.reset(seed=0)
    assert obs["first_0"].shape == (84, 84, 4)
    record("SuperSuit", "frame_stack_v1 over pixels (84, 84, 1) -> (84, 84, 4)", "pass")


# SuperSuit's SB3 wrapper has no render_mode attribute; SB3 warns about it.
@pytest.mark.filterwarnings("ignore:The `render_mode` attribute is not defined:UserWarning")
def test_self_play_ppo_smoke(record):
    vec = ss.concat_vec_envs_v1(ss.pettingzoo_env_to_vec_env_v1(pong_v0.parallel_env(maxScore=2)), 4,
                                num_cpus=1, base_class="stable_baselines3")
    # No PPO(seed=...): it calls the env's seed(), which SuperSuit's SB3
    # wrapper forwards to its ConcatVecEnv, which has none (SuperSuit 3.11).
    set_random_seed(0)
    model = PPO("MlpPolicy", VecMonitor(vec), n_steps=128, batch_size=256, n_epochs=2, device="cpu", verbose=0)
    model.learn(8192)
    actions, _ = model.predict(vec.reset())
    assert actions.shape == (8,)
    vec.close()
    record("SuperSuit", "self-play PPO (one policy for both seats, 4 copies), 8 k steps", "runs")
