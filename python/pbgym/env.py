"""Single-game Gymnasium environments: ``pbgym/Pong-v0`` and ``pbgym/Breakout-v0``."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ._config import PYTHON_FLOAT_REWARDS, make_config
from ._conventions import FRAMES_PER_SECOND, AtariConventions, render_fps
from ._lib import NativeEnv, _seed64
from ._spec import with_spec


def observation_space(native: NativeEnv) -> spaces.Box:
    """One seat's observation space, from the library's bounds and shapes
    (pixels: ``(H, W, k)`` channels-last or ``(k, H, W)`` channels-first,
    ``k`` the frame stack)."""
    if native.obs is None:
        return spaces.Box(0, 255, shape=native.obs_shape, dtype=np.uint8)
    return spaces.Box(native.lower.copy(), native.upper.copy(), dtype=np.float32)


def game_info(native: NativeEnv, i: int, ended: bool = True) -> dict[str, Any]:
    """Game i's info: end reason, score columns, this step's events (after
    a reset: end "none" and no events), and with per-episode rules the
    episode's rules (``"rules"``: the set's name and its keys' values)."""
    sc = native.scores[i]
    names = native.score_names
    info: dict[str, Any] = {"end": str(native.end_names[native.ends[i]]) if ended else "none",
                            names[0]: int(sc[0]), names[1]: int(sc[1])}
    if ended:
        info["events"] = {name: int(v) for name, v in zip(native.event_names, native.events[i])}
    else:
        info["events"] = {name: 0 for name in native.event_names}
    if native.has_rules:
        info["rules"] = native.rules(i)
    return info


class PBGymEnv(AtariConventions, gym.Env):
    """One game as a ``gymnasium.Env`` (a batch of one game in the library).

    Seeds: ``reset(seed=s)`` plays episode 0 of the stream seeded ``s``;
    each later ``reset()`` plays the stream's next episode (episode ``e``
    uses ``Seeds.episode(runSeed: s, index: e)``, as ``gym-train eval
    --seed s`` seeds its episode ``e``). A first ``reset()`` without a seed
    draws ``s`` from ``self.np_random``.
    """

    metadata = {"render_modes": ["rgb_array", "ansi"], "render_fps": FRAMES_PER_SECOND}
    game = ""

    def __init__(self, render_mode: str | None = None, obs_type: str = "features", **kwargs: Any):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"pbgym: render_mode={render_mode!r} is invalid; allowed: "
                             f"{', '.join(self.metadata['render_modes'])} or None")
        self.render_mode = render_mode
        self._kwargs = dict(kwargs, obs_type=obs_type)
        kwargs.pop("autoreset", None)
        kwargs.pop("num_games", None)
        self._native = NativeEnv(dict(make_config(self.game, obs_type=obs_type, num_games=1, autoreset="disabled",
                                                  **kwargs), **PYTHON_FLOAT_REWARDS))
        self.metadata = dict(self.metadata, render_fps=render_fps(self._native.info["config"]))
        self.observation_space = observation_space(self._native)
        self.action_space = spaces.Discrete(self._native.action_count)
        self._seeded = False

    @property
    def native(self) -> NativeEnv:
        return self._native

    def _obs(self) -> np.ndarray:
        return self._native.observation[0, 0].copy()

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        if seed is not None:
            self._native.reset(seeds=[_seed64(seed)])
        elif not self._seeded:
            self._native.reset(seeds=[int(self.np_random.integers(0, 2**63))])
        else:
            self._native.reset()
        self._seeded = True
        return self._obs(), game_info(self._native, 0, ended=False)

    def step(self, action):
        if not self.action_space.contains(action):
            raise ValueError(f"pbgym: action {action!r} is outside the action space {self.action_space}")
        native = self._native
        native.actions[0, 0] = int(action)
        native.step()
        return (self._obs(), float(native.rewards[0, 0]), bool(native.terminated[0]), bool(native.truncated[0]),
                game_info(native, 0))

    def render(self):
        if self.render_mode == "rgb_array":
            return self._native.render(0)
        if self.render_mode == "ansi":
            return self._native.ansi(0)
        return None

    def close(self):
        # Also called on an env whose construction failed (VectorEnv.__del__ closes it): no handle then.
        native = getattr(self, "_native", None)
        if native is not None:
            native.close()

    # Copies and pickles: the constructor's arguments, the game (snapshot
    # and frame stacks, NativeEnv.save_state), the generator; the copy
    # continues exactly where the original stood, on a handle of its own.
    def __getstate__(self):
        return {"kwargs": self._kwargs, "render_mode": self.render_mode,
                "native": self._native.save_state(type(self).__name__),
                "seeded": self._seeded, "np_random": self._np_random.bit_generator.state if self._np_random else None}

    def __setstate__(self, state):
        self.__init__(render_mode=state["render_mode"], **state["kwargs"])
        self._native.load_state(state["native"])
        self._seeded = state["seeded"]
        if state["np_random"] is not None:
            rng = np.random.Generator(np.random.PCG64())
            rng.bit_generator.state = state["np_random"]
            self._np_random = rng


@with_spec(game="pong")
class PongEnv(PBGymEnv):
    """Pong against a built-in opponent (``opponent``: any agent spec of the
    CLI, e.g. ``"tracker"``, ``"tracker:noise=0.5"``, ``"random"``,
    ``"linear:PATH"``; ``agent_side``: ``"bottom"`` or ``"top"``)."""

    game = "pong"


@with_spec(game="breakout")
class BreakoutEnv(PBGymEnv):
    """Breakout."""

    game = "breakout"
