"""The native vector environment: every game stepped in one library call."""

from __future__ import annotations

import weakref
from typing import Any, Sequence

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ._config import make_config
from ._conventions import FRAMES_PER_SECOND, AtariConventions, render_fps
from ._lib import NativeEnv, _seed64
from ._spec import with_spec
from .env import observation_space

_MODES = {AutoresetMode.NEXT_STEP: "next-step", AutoresetMode.SAME_STEP: "same-step",
          AutoresetMode.DISABLED: "disabled"}


def _mode(value: Any) -> AutoresetMode:
    if isinstance(value, AutoresetMode):
        return value
    for mode, text in _MODES.items():
        if value in (text, mode.value, mode.name, mode.name.lower()):
            return mode
    raise ValueError(f"pbgym: autoreset_mode={value!r} is invalid; allowed: "
                     f"{', '.join(m.name for m in _MODES)} (gymnasium.vector.AutoresetMode)")


class LazyInfos(dict):
    """A step's infos, built on first use: a plain dict to its reader (every
    read, write, copy or pickle builds it first), free to a caller that
    never looks (building Gymnasium's per-key arrays and masks costs more
    than the step of a thousand games)."""

    __slots__ = ("_build", "__weakref__")

    def __init__(self, build, *args):
        super().__init__()
        self._build = (build, args)

    def _detach(self) -> None:
        """The arrays it would be built from are about to be rewritten (they
        are the library's bound buffers, see ``NativeEnv.lend``): keep a copy
        of them, unless already built."""
        pending = self._build
        if pending is not None:
            build, args = pending
            self._build = (build, tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args))

    def _fill(self) -> None:
        pending = self._build
        if pending is not None:
            self._build = None
            build, args = pending
            dict.update(self, build(*args))


def _building(name: str):
    method = getattr(dict, name)

    def call(self, *args, **kwargs):
        self._fill()
        return method(self, *args, **kwargs)

    call.__name__ = name
    return call


for _name in ("__getitem__", "__setitem__", "__delitem__", "__contains__", "__iter__", "__len__", "__repr__",
              "__eq__", "__ne__", "__or__", "__ror__", "__ior__", "__reversed__", "keys", "values", "items", "get",
              "copy", "pop", "popitem", "setdefault", "update", "clear"):
    setattr(LazyInfos, _name, _building(_name))
LazyInfos.__hash__ = None  # type: ignore[assignment]


def _reduce(self):
    self._fill()
    return (dict, (dict(self.items()),))


LazyInfos.__reduce__ = _reduce  # type: ignore[assignment]
LazyInfos.__str__ = LazyInfos.__repr__  # type: ignore[assignment]
_new_dict = dict.__new__
_weakref = weakref.ref


def _pending_infos(build, args: tuple) -> LazyInfos:
    """``LazyInfos(build, *args)`` without running ``__init__`` (an empty
    dict needs none): the infos each step makes."""
    infos = _new_dict(LazyInfos)
    infos._build = (build, args)
    return infos


class PBGymVectorEnv(AtariConventions, VectorEnv):
    """``num_envs`` games of one kind stepped together in the library.

    Autoreset modes as Gymnasium's (``metadata["autoreset_mode"]``):
    ``NEXT_STEP`` (default), ``SAME_STEP`` (``infos["final_obs"]``,
    ``infos["final_info"]``), ``DISABLED`` (restart with
    ``reset(options={"reset_mask": mask})``).

    Seeds, as ``SyncVectorEnv`` hands them out: ``reset(seed=s)`` gives
    game ``i`` the seed ``s + i`` (a list gives each game its own, None
    entries go on), and game ``i`` then plays exactly the episodes a single
    env reset with that seed plays (``reset(seed=s + i)``, then ``reset()``
    at each end). A first ``reset()`` without seed draws each game's seed
    from ``self.np_random``.

    Observations, rewards and flags are fresh arrays each call; with
    ``zero_copy=True`` the observations are the library's own buffer,
    rewritten by the next call (copy what you keep).

    Pixels (``obs_type="pixels"``) have a channel axis: ``(H, W, k)`` with
    ``channels_order="last"`` (the default) or ``(k, H, W)`` with
    ``"first"``, where ``k`` is ``frame_stack`` (default 1): the last ``k``
    frames, oldest first, stacked by the library; at an episode's start
    every entry is its first frame (Gymnasium's ``FrameStackObservation``).

    Copies and pickles are independent environments in the same state
    (every game's snapshot and frame stacks); single-agent Pong with more
    than one game needs ``opponent_history=True`` for that, else copying
    raises ``TypeError``.
    """

    game = ""

    def __init__(self, num_envs: int = 1, render_mode: str | None = None, obs_type: str = "features",
                 autoreset_mode: Any = AutoresetMode.NEXT_STEP, zero_copy: bool = False, **kwargs: Any):
        mode = _mode(autoreset_mode)
        self._kwargs = dict(kwargs, num_envs=num_envs, render_mode=render_mode, obs_type=obs_type,
                            autoreset_mode=mode, zero_copy=zero_copy)
        self.metadata = {"render_modes": ["rgb_array", "ansi"], "render_fps": FRAMES_PER_SECOND,
                         "autoreset_mode": mode}
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"pbgym: render_mode={render_mode!r} is invalid; allowed: rgb_array, ansi or None")
        self.render_mode = render_mode
        self.autoreset_mode = mode
        self.zero_copy = bool(zero_copy)
        self._native = native = NativeEnv(make_config(self.game, num_games=num_envs, obs_type=obs_type,
                                                      autoreset=_MODES[mode], **kwargs))
        self.num_envs = native.num_games
        self.metadata["render_fps"] = render_fps(native.info["config"])
        self.single_observation_space = observation_space(native)
        self.single_action_space = spaces.Discrete(native.action_count)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._all_games = np.ones(self.num_envs, dtype=bool)
        self._all_games.flags.writeable = False
        self._same_step = mode == AutoresetMode.SAME_STEP
        # Views of bound buffers that stay bound, made once (the observation
        # buffer stays bound only with zero_copy).
        self._obs0 = native.observation[:, 0]
        self._rewards0 = native.rewards[:, 0]
        self._seeded = False
        self._initial_scores: np.ndarray | None = None
        # Per-episode rules (variants=): each game's running episode's rules,
        # read from the library when its episode starts; next-step mode's
        # games that ended restart at the next step.
        self._has_rules = native.has_rules
        self._rules: list[dict[str, Any] | None] = [None] * self.num_envs
        self._restarting = np.zeros(self.num_envs, dtype=bool)
        # A step's whole work in step() itself: no per-episode rules, no
        # same-step autoreset; its infos' arguments, made once.
        self._plain = not self._has_rules and not self._same_step
        self._plain_args = (native.info_block, None)

    @property
    def native(self) -> NativeEnv:
        return self._native

    def _obs(self) -> np.ndarray:
        return self._obs0 if self.zero_copy else self._native.observation[:, 0].copy()

    def _block_infos(self, block: np.ndarray, rules: list | None = None) -> dict[str, Any]:
        """Infos of every game from a step's ``NativeEnv.info_block`` (or a copy)."""
        ends, scores, events = self._native.split_info(block)
        return self._infos(self._all_games, ends, scores, events, rules)

    def _refresh_rules(self, mask: np.ndarray) -> None:
        """Reads the rules of the games in ``mask`` (their episodes just started)."""
        if self._has_rules:
            for i in np.flatnonzero(mask):
                self._rules[i] = self._native.rules(int(i))

    def _infos(self, mask: np.ndarray, ended: np.ndarray | None, scores: np.ndarray,
               events: np.ndarray | None, rules: list | None = None) -> dict[str, Any]:
        """Infos for the games in ``mask``, in ``_add_info``'s layout (an array
        per key and a ``_key`` mask); one numpy operation per key. ``ended``,
        ``scores`` and ``events`` are the step's end reasons, score columns
        and event counters (None: none ended, no events); with per-episode
        rules, ``"rules"`` holds each game's (``rules``, else the running
        episodes')."""
        native = self._native
        every = bool(mask.all())
        if every:
            # One read-only mask shared by every key (no copy per key per step).
            mask = self._all_games
        infos: dict[str, Any] = {}
        if ended is None:
            end = np.full(self.num_envs, "none", dtype=object)
        else:
            end = native.end_names[ended]
        if not every:
            end[~mask] = None
        infos["end"] = end
        infos["_end"] = mask if every else mask.copy()
        wide = scores.astype(np.int64)
        if not every:
            wide[~mask] = 0
        for k, name in enumerate(native.score_names):
            infos[name] = wide[:, k]
            infos["_" + name] = mask if every else mask.copy()
        ev: dict[str, Any] = {}
        counts = events.astype(np.int64) if events is not None else np.zeros(native.events.shape, dtype=np.int64)
        if not every:
            counts[~mask] = 0
        for k, name in enumerate(native.event_names):
            ev[name] = counts[:, k]
            ev["_" + name] = mask if every else mask.copy()
        infos["events"] = ev
        infos["_events"] = mask if every else mask.copy()
        if self._has_rules:
            r = np.empty(self.num_envs, dtype=object)
            r[:] = list(self._rules if rules is None else rules)
            if not every:
                r[~mask] = None
            infos["rules"] = r
            infos["_rules"] = mask if every else mask.copy()
        return infos

    def reset(self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None):
        n = self.num_envs
        if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            super().reset(seed=int(seed))
            seeds: list[int | None] = [_seed64(seed) + i for i in range(n)]
        elif seed is None:
            if self._seeded:
                seeds = [None] * n
            else:
                seeds = [int(s) for s in self.np_random.integers(0, 2**63, size=n)]
        else:
            seeds = list(seed)
            if len(seeds) != n:
                raise ValueError(f"pbgym: {len(seeds)} seeds given for num_envs={n}")
            seeds = [None if s is None else _seed64(s) for s in seeds]
        mask = None
        if options is not None and "reset_mask" in options:
            mask = np.asarray(options["reset_mask"])
            if mask.shape != (n,) or mask.dtype != np.bool_:
                raise ValueError(f"pbgym: options['reset_mask'] must be a bool array of shape ({n},), "
                                 f"got {mask.dtype} {mask.shape}")
            if not mask.any():
                raise ValueError("pbgym: options['reset_mask'] holds no True value")
        self._native.reset(seeds=seeds, mask=mask)
        self._seeded = True
        if self._initial_scores is None:
            self._initial_scores = self._native.scores[0].copy()
        m = np.ones(n, dtype=bool) if mask is None else mask
        self._refresh_rules(m)
        self._restarting &= ~m
        return self._obs(), self._infos(m, None, self._native.scores, None)

    def step(self, actions):
        native = self._native
        if self.zero_copy:
            native.step(actions)
            obs = self._obs0
            rewards = self._rewards0.copy()
            terminated = native.terminated.copy()
            truncated = native.truncated.copy()
        else:
            # The library writes the observations, rewards and flags into
            # arrays of this step's own (NativeEnv.step_into_new): fresh,
            # without a copy.
            out = native.step_into_new(actions)
            obs, rewards, terminated, truncated = out.first, out.first_rewards, out.terminated, out.truncated
        if self._plain:
            # The infos dict is built on first use (LazyInfos) from the step's
            # end reasons, scores and events, which stay in the library's bound
            # block until the next call that writes it copies them for it
            # (_pending_infos and NativeEnv.lend inline: two calls less per step).
            infos = _new_dict(LazyInfos)
            infos._build = (self._block_infos, self._plain_args)
            native._lent = _weakref(infos)
            return obs, rewards, terminated, truncated, infos
        return self._step_rules_or_same_step(obs, rewards, terminated, truncated)

    def _step_rules_or_same_step(self, obs, rewards, terminated, truncated):
        """The rest of :meth:`step` with per-episode rules or same-step autoreset."""
        native = self._native
        if self._has_rules:
            # Next-step mode: the games that ended last step restarted now.
            self._refresh_rules(self._restarting)
            self._restarting = (terminated | truncated) if self.autoreset_mode == AutoresetMode.NEXT_STEP \
                else np.zeros(self.num_envs, dtype=bool)
        if self._same_step and (terminated.any() or truncated.any()):
            done = terminated | truncated
            finished_rules = list(self._rules)
            self._refresh_rules(done)
            ends, scores, events = native.ends, native.scores, native.events
            infos = self._infos(self._all_games, ends, scores, events)
            final = native.final_obs if native.final_obs is not None else native.final_pixels
            final_obs = np.full(self.num_envs, None, dtype=object)
            for i in np.flatnonzero(done):
                final_obs[i] = final[i, 0].copy()
            infos["final_obs"] = final_obs
            infos["_final_obs"] = done.copy()
            infos["final_info"] = self._infos(done, ends, scores, events, finished_rules)
            infos["_final_info"] = done.copy()
            # The restarted games' own entries describe their new episode.
            restarted = self._infos(done, None, np.broadcast_to(self._initial_scores, scores.shape), None)
            for key in ("end",) + tuple(native.score_names):
                infos[key] = np.where(done, restarted[key], infos[key]).astype(infos[key].dtype)
            for name in native.event_names:
                infos["events"][name] = np.where(done, 0, infos["events"][name])
            return obs, rewards, terminated, truncated, infos
        infos = _pending_infos(self._block_infos, (native.info_block, list(self._rules) if self._has_rules else None))
        native.lend(infos)
        return obs, rewards, terminated, truncated, infos

    def render(self):
        if self.render_mode == "rgb_array":
            return [self._native.render(i) for i in range(self.num_envs)]
        if self.render_mode == "ansi":
            return [self._native.ansi(i) for i in range(self.num_envs)]
        return None

    def close_extras(self, **kwargs: Any):
        # Also called on an env whose construction failed (VectorEnv.__del__ closes it): no handle then.
        native = getattr(self, "_native", None)
        if native is not None:
            native.close()

    # Copies and pickles: the constructor's arguments, every game's snapshot
    # and frame stacks (NativeEnv.save_state), the seeding state; the copy
    # has a handle of its own and continues exactly where the original stood.
    def __getstate__(self):
        return {"kwargs": self._kwargs, "native": self._native.save_state(type(self).__name__),
                "seeded": self._seeded, "initial_scores": self._initial_scores, "restarting": self._restarting.copy(),
                "np_random": self._np_random.bit_generator.state if self._np_random is not None else None,
                "np_random_seed": self._np_random_seed}

    def __setstate__(self, state):
        self.__init__(**state["kwargs"])
        self._native.load_state(state["native"])
        self._refresh_rules(np.ones(self.num_envs, dtype=bool))
        self._restarting = np.asarray(state.get("restarting", self._restarting), dtype=bool).copy()
        self._seeded = state["seeded"]
        self._initial_scores = state["initial_scores"]
        if state["np_random"] is not None:
            rng = np.random.Generator(np.random.PCG64())
            rng.bit_generator.state = state["np_random"]
            self._np_random = rng
        self._np_random_seed = state["np_random_seed"]


@with_spec(game="pong")
class PongVectorEnv(PBGymVectorEnv):
    """Pong, ``num_envs`` games against the built-in opponent."""

    game = "pong"


@with_spec(game="breakout")
class BreakoutVectorEnv(PBGymVectorEnv):
    """Breakout, ``num_envs`` games."""

    game = "breakout"
