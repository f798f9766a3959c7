"""Two-player Pong as a PettingZoo environment.

``parallel_env(render_mode=None, **config)`` is a ``ParallelEnv``;
``env(...)`` the same game as an AEC env (PettingZoo's conversion).
Agents: ``first_0`` plays the bottom side, ``second_0`` the top; each sees
the game from its own side (features mirrored, pixels rotated). Rewards are
zero-sum (a point is +1 for its scorer, -1 for the other). When the game
ends both agents leave ``agents``. Seeds as the single env's:
``reset(seed=s)`` plays episode 0 of stream ``s``, each later ``reset()``
the next episode. ``max_cycles`` (PettingZoo's convention) truncates an
episode after that many steps (the game's ``maxSteps``). ``state()`` is
the bottom side's observation (``state_space``). Copies and pickles are
independent environments in the same state (through the game's snapshot).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

try:
    from pettingzoo import ParallelEnv
    from pettingzoo.utils import conversions, wrappers
except ImportError as e:  # pragma: no cover - the extra is missing
    raise ImportError("pbgym.pong_v0 needs PettingZoo: pip install 'pbgym[pettingzoo]'") from e

from ._config import PYTHON_FLOAT_REWARDS, make_config
from ._conventions import AtariConventions, render_fps
from ._lib import NativeEnv, _seed64
from ._spec import with_spec
from .env import observation_space

AGENTS = ["first_0", "second_0"]


@with_spec(game="pong")
class raw_parallel_env(AtariConventions, ParallelEnv):
    """Two-player Pong as a PettingZoo ``ParallelEnv`` (see the module's doc);
    each agent plays the game below as its own side."""

    metadata = {"render_modes": ["human", "rgb_array", "ansi"], "name": "pbgym_pong_v0", "render_fps": 60,
                "is_parallelizable": True}

    def __init__(self, render_mode: str | None = None, obs_type: str = "features", **config: Any):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"pbgym: render_mode={render_mode!r} is invalid; allowed: human, rgb_array, ansi or None")
        self.render_mode = render_mode
        self._config = dict(config, obs_type=obs_type)
        self._native = NativeEnv(dict(make_config("pong", players=2, obs_type=obs_type, autoreset="disabled", **config),
                                      **PYTHON_FLOAT_REWARDS))
        self.metadata = dict(self.metadata, render_fps=render_fps(self._native.info["config"]))
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        space = observation_space(self._native)
        self.state_space = space
        self._obs_spaces = {a: space for a in AGENTS}
        self._act_spaces = {a: spaces.Discrete(self._native.action_count) for a in AGENTS}
        self._np_random = None
        self._seeded = False

    def observation_space(self, agent):
        return self._obs_spaces[agent]

    def action_space(self, agent):
        return self._act_spaces[agent]

    def _observations(self) -> dict[str, np.ndarray]:
        o = self._native.observation
        return {a: o[0, k].copy() for k, a in enumerate(AGENTS)}

    def _infos(self, ended: bool) -> dict[str, dict[str, Any]]:
        n = self._native
        end = str(n.end_names[n.ends[0]]) if ended else "none"
        sc = n.scores[0]
        ev = {name: int(v) for name, v in zip(n.event_names, n.events[0])} if ended else \
            {name: 0 for name in n.event_names}
        infos = {"first_0": {"end": end, "score": int(sc[0]), "opponent_score": int(sc[1]), "events": ev},
                 "second_0": {"end": end, "score": int(sc[1]), "opponent_score": int(sc[0]), "events": dict(ev)}}
        if n.has_rules:
            # Per-episode rules (variants=): the episode's, for both agents.
            rules = n.rules(0)
            infos["first_0"]["rules"] = rules
            infos["second_0"]["rules"] = dict(rules, values=dict(rules["values"]))
        return infos

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None):
        if seed is not None:
            self._native.reset(seeds=[_seed64(seed)])
        elif not self._seeded:
            self._native.reset(seeds=[int(np.random.default_rng().integers(0, 2**63))])
        else:
            self._native.reset()
        self._seeded = True
        self.agents = list(AGENTS)
        return self._observations(), self._infos(False)

    def step(self, actions: dict[str, Any]):
        if not self.agents:
            raise ValueError("pbgym: the game is over; call reset()")
        missing = [a for a in self.agents if a not in actions]
        if missing:
            raise ValueError(f"pbgym: no action for {', '.join(missing)}")
        for k, a in enumerate(AGENTS):
            act = actions[a]
            if not self._act_spaces[a].contains(act):
                raise ValueError(f"pbgym: action {act!r} of {a} is outside {self._act_spaces[a]}")
            self._native.actions[0, k] = int(act)
        self._native.step()
        n = self._native
        obs = self._observations()
        rewards = {a: float(n.rewards[0, k]) for k, a in enumerate(AGENTS)}
        term, trunc = bool(n.terminated[0]), bool(n.truncated[0])
        terminations = {a: term for a in AGENTS}
        truncations = {a: trunc for a in AGENTS}
        infos = self._infos(True)
        if term or trunc:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return obs, rewards, terminations, truncations, infos

    def render(self):
        if self.render_mode == "rgb_array":
            return self._native.render(0)
        if self.render_mode == "ansi":
            return self._native.ansi(0)
        if self.render_mode == "human":
            print(self._native.ansi(0))
        return None

    def close(self):
        self._native.close()

    def state(self) -> np.ndarray:
        return self._native.observation[0, 0].copy()

    # Copies and pickles: the constructor's arguments, the game's snapshot
    # (and frame stacks), the agents still playing; a handle of its own.
    def __getstate__(self):
        return {"config": self._config, "render_mode": self.render_mode,
                "native": self._native.save_state(type(self).__name__), "agents": list(self.agents),
                "seeded": self._seeded}

    def __setstate__(self, state):
        self.__init__(render_mode=state["render_mode"], **state["config"])
        self._native.load_state(state["native"])
        self.agents = state["agents"]
        self._seeded = state["seeded"]


def parallel_env(render_mode: str | None = None, **config: Any) -> raw_parallel_env:
    """Two-player Pong as a ``ParallelEnv`` (config: ``preset``, any Pong config key, ``obs_type``,
    ``max_cycles``, ``frame_stack``, ``channels_order``)."""
    return raw_parallel_env(render_mode=render_mode, **config)


def env(render_mode: str | None = None, **config: Any):
    """Two-player Pong as an AEC env (through ``parallel_to_aec``)."""
    return conversions.parallel_to_aec(parallel_env(render_mode=render_mode, **config))
