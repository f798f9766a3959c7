"""Serves a feature policy trained by ppo.py (its ``--save`` weights) as a gym-train external agent.

    python -m pbgym.agents ppo_agent:make --factory --name ppo      # run from python/examples

``$PPO_WEIGHTS`` names the weights file. ``make(info)`` is called once the
gym's HELLO told the game and its effective config: it builds ppo.py's
``FeatureAgent`` for that observation and action count, loads the weights and
scales the features by the space's bounds as training did (ppo.py's
``Observer``). The policy plays greedily (the action of the highest logit),
so it needs no random draw and plays the same game on every run, worker
count and shard. An agent file for gym-train (docs/agents.md)::

    {"command": [".venv-trainers/bin/python", "-m", "pbgym.agents", "ppo_agent:make", "--factory", "--name", "ppo"],
     "directory": "python/examples", "environment": {"PPO_WEIGHTS": "/tmp/ppo/final.pt", "OMP_NUM_THREADS": "1"}}
"""

from __future__ import annotations

import json
import os

import gymnasium as gym
import numpy as np
import torch

import pbgym  # noqa: F401  (registers the envs whose observation spaces give the scaling)
from ppo import FeatureAgent, Observer

ENV_IDS = {"pong": "pbgym/Pong-v0", "breakout": "pbgym/Breakout-v0"}


def make(info):
    """The act function of the policy in $PPO_WEIGHTS for the game and config of ``info`` (an AgentInfo)."""
    if info.observation != "features":
        raise ValueError(f"ppo_agent serves feature policies; the gym offers {info.observation}")
    torch.set_num_threads(1)
    env = gym.make(ENV_IDS[info.game], **json.loads(info.config))
    space = env.observation_space
    env.close()
    if space.shape != info.shape:
        raise ValueError(f"the env's features {space.shape} differ from the gym's {info.shape}")
    agent = FeatureAgent(int(np.prod(space.shape)), info.actions)
    agent.load_state_dict(torch.load(os.environ["PPO_WEIGHTS"]))
    agent.eval()
    observe = Observer(space, pixels=False)

    def act(observations: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            return agent.actor(observe(observations)).numpy()  # logits: serve plays the highest

    return act
