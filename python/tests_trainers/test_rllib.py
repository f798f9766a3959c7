"""RLlib PPO on pbgym with the documented recipe (docs/python.md): remote
env runners are fresh processes that never imported pbgym; the id
"pbgym:pbgym/Pong-v0" imports the package there, and the bare
"pbgym/Pong-v0" is registered there by the installed package's .pth hook
(python/_pbgym_registration.py)."""

import numpy as np
import pytest

ray = pytest.importorskip("ray")
from ray.rllib.algorithms.ppo import PPOConfig  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    # A cluster of its own (address "local"), whatever else runs on the machine.
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def recipe(env_runners: int, env_id: str) -> PPOConfig:
    return (
        PPOConfig()
        .environment(env_id, env_config={"opponent": "random", "frameSkip": 4, "maxScore": 3})
        .env_runners(num_env_runners=env_runners, num_envs_per_env_runner=4)
        .training(train_batch_size_per_learner=512, minibatch_size=128, num_epochs=2)
        .debugging(seed=0)
    )


@pytest.mark.parametrize("env_runners,env_id", [(0, "pbgym:pbgym/Pong-v0"), (1, "pbgym:pbgym/Pong-v0"),
                                                (1, "pbgym/Pong-v0")], ids=["local", "remote", "remote-bare-id"])
def test_ppo_two_iterations(cluster, env_runners, env_id, record):
    algo = recipe(env_runners, env_id).build_algo()
    try:
        for _ in range(2):
            result = algo.train()
        sampled = result["env_runners"]["num_env_steps_sampled_lifetime"]
        assert sampled >= 1024
        loss = result["learners"]["default_policy"]["total_loss"]
        assert np.isfinite(loss)
    finally:
        algo.stop()
    where = "local env runner" if env_runners == 0 else "1 remote env runner"
    record("RLlib", f"PPO 2 iterations, {where}, id {env_id}", f"{int(sampled)} env steps, finite loss")
