"""Stable-Baselines3's ``VecEnv`` over the native vector env (extra ``sb3``).

    from stable_baselines3 import PPO
    from pbgym.sb3 import SB3VecEnv

    env = SB3VecEnv("pbgym/Pong-v0", num_envs=16, opponent="random", frameSkip=4)
    PPO("MlpPolicy", env).learn(100_000)

Every step of all games is one library call, where ``DummyVecEnv`` steps
one Python env per game. SB3's semantics, as ``DummyVecEnv`` gives them:

- a game whose episode ended this step is restarted in the same step: the
  observation returned is its new episode's first one, the last one is in
  ``infos[i]["terminal_observation"]`` (the native env's ``SAME_STEP``
  autoreset); ``dones = terminated | truncated``;
- ``infos[i]["TimeLimit.truncated"]`` is ``truncated and not terminated``,
  in every step's info of every game; a game that ended this step also has
  the ended episode's ``end``, score columns and ``events`` (as the single
  env's info);
- ``reset()`` returns the observations only (their infos go to
  ``reset_infos``); ``seed(s)`` makes the next ``reset()`` give game ``i``
  the seed ``s + i``, which plays what ``DummyVecEnv`` of single envs
  seeded so plays (``gymnasium.make(id)`` reset with ``s + i``);
- ``get_attr``/``env_method`` answer for every game from the one vector env
  (all games share one config): ``get_attr("observation_space")`` is one
  game's space, ``env_method("get_action_meanings")`` one list per game;
  ``set_attr`` sets the attribute of the vector env, so only for all games
  at once.

Rewards are float32 and observations fresh arrays per step, as in
``DummyVecEnv``. Pixels (``obs_type="pixels"``) come channels-last, so
SB3 transposes them for ``CnnPolicy`` itself; ``frame_stack=4`` stacks in
the library (or wrap in ``VecFrameStack``).
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode

try:
    from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices
except ImportError as e:  # pragma: no cover - the extra is missing
    raise ImportError("pbgym.sb3 needs Stable-Baselines3: pip install 'pbgym[sb3]'") from e

from .vector import PBGymVectorEnv

# Single-env attributes that the vector env holds under another name.
_SINGLE = {"observation_space": "single_observation_space", "action_space": "single_action_space"}


class SB3VecEnv(VecEnv):
    """SB3's ``VecEnv`` over a native vector env (see the module's doc).

    ``env``: an id (``"pbgym/Pong-v0"``, ``"pbgym:pbgym/Breakout-v0"``),
    made with ``num_envs`` and ``kwargs`` in ``SAME_STEP`` autoreset mode,
    or a :class:`pbgym.PBGymVectorEnv` already in that mode.
    """

    def __init__(self, env: str | PBGymVectorEnv = "pbgym/Pong-v0", num_envs: int = 8, **kwargs: Any):
        if isinstance(env, str):
            env = gym.make_vec(env, num_envs=num_envs, vectorization_mode="vector_entry_point",
                               autoreset_mode=AutoresetMode.SAME_STEP, **kwargs)
        elif kwargs:
            raise ValueError(f"pbgym: options {sorted(kwargs)} are for making the env from an id; "
                             "this env is made already")
        if not isinstance(env, PBGymVectorEnv):
            raise TypeError(f"pbgym: SB3VecEnv takes a pbgym vector env or its id, got {type(env).__name__}")
        if env.autoreset_mode != AutoresetMode.SAME_STEP:
            raise ValueError(f"pbgym: SB3VecEnv needs autoreset_mode SAME_STEP (SB3 restarts a game in the "
                             f"step that ends it), the env has {env.autoreset_mode.name}")
        self.venv = env
        self._actions: np.ndarray | None = None
        super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)

    # -- stepping

    def reset(self):
        seeds: Sequence[int | None] | None = self._seeds
        if all(s is None for s in seeds):
            seeds = None
        obs, infos = self.venv.reset(seed=seeds)
        self.reset_infos = self._split(infos, range(self.num_envs))
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self):
        if self._actions is None:
            raise RuntimeError("pbgym: step_wait() without step_async(actions)")
        obs, rewards, terminated, truncated, infos = self.venv.step(self._actions)
        self._actions = None
        dones = terminated | truncated
        cut = truncated & ~terminated
        out: list[dict[str, Any]] = [{"TimeLimit.truncated": bool(c)} for c in cut]
        ended = np.flatnonzero(dones)
        if ended.size:
            final_obs = infos["final_obs"]
            for i, info in zip(ended, self._split(infos["final_info"], ended)):
                out[i].update(info)
                out[i]["terminal_observation"] = final_obs[i]
        return obs, rewards.astype(np.float32), dones, out

    def _split(self, infos: dict[str, Any], games: Iterable[int]) -> list[dict[str, Any]]:
        """Per-game info dicts (the single env's layout) from the vector
        env's infos, for ``games``."""
        names = self.venv.native.score_names
        events = infos["events"]
        event_names = self.venv.native.event_names
        return [{"end": str(infos["end"][i]), **{n: int(infos[n][i]) for n in names},
                 "events": {e: int(events[e][i]) for e in event_names}} for i in games]

    def close(self) -> None:
        self.venv.close()

    # -- attributes and methods, answered per game from the one vector env

    def get_images(self) -> Sequence[np.ndarray | None]:
        if self.venv.render_mode != "rgb_array":
            return [None] * self.num_envs
        return self.venv.render()

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        value = getattr(self.venv, _SINGLE.get(attr_name, attr_name))
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        chosen = list(self._get_indices(indices))
        if sorted(chosen) != list(range(self.num_envs)):
            raise ValueError(f"pbgym: set_attr({attr_name!r}) sets the one vector env's attribute, so for all "
                             f"{self.num_envs} games at once; indices {chosen} name only some")
        setattr(self.venv, _SINGLE.get(attr_name, attr_name), value)

    def env_method(self, method_name: str, *method_args, indices: VecEnvIndices = None, **method_kwargs) -> list[Any]:
        chosen = list(self._get_indices(indices))
        result = getattr(self.venv, method_name)(*method_args, **method_kwargs)
        return [result for _ in chosen]

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper], indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]
