"""The C library (libpbgym.so) through ctypes, and one native environment handle.

Every call returns a status; a non-zero status raises :class:`PBGymError`
with the library's own message (which names the argument, the value and
what is allowed). The library never traps on bad input, so a mistake is a
Python exception, never a crashed interpreter.
"""

from __future__ import annotations

import ctypes
import json
import operator
import os
import sys
import weakref
from pathlib import Path
from typing import Any, Sequence

import numpy as np

ABI_VERSION = 4


class PBGymError(ValueError):
    """A call into the library failed; ``status`` is the library's code."""

    def __init__(self, message: str, status: int = 1):
        super().__init__(message)
        self.status = status


class PBGymMemoryError(PBGymError, MemoryError):
    """The library could not allocate what a call needs (status 8); nothing was changed."""


class PBGymAgentError(PBGymError, RuntimeError):
    """The opponent could not act (status 9): an external agent (``opponent="process:..."``)
    exited, crashed, hung past its time limit, wrote junk or answered badly. The message
    names the agent and its command, the game and step, what was wrong and the last lines
    of its standard error; the agent process is gone, and the environment cannot step on."""


def cpu_level(folder: Path | None = None) -> int:
    """The newest x86-64 level (1-4) this CPU runs, from the library's CPUID
    probe (libpbgym-cpu.so); 0 where the probe is missing or not x86-64."""
    probe = (folder or Path(__file__).resolve().parent) / "libpbgym-cpu.so"
    if not probe.exists():
        return 0
    return int(ctypes.CDLL(str(probe)).pbg_cpu_level())


def _library_path() -> str:
    """$PBGYM_LIBRARY, else the build tuned for the newest x86-64 level this
    CPU runs that was installed (libpbgym-x86-64-v4.so, -v3.so), else the
    portable libpbgym.so, which runs on any x86-64 CPU. Results are the same
    from every build; only speed differs."""
    override = os.environ.get("PBGYM_LIBRARY")
    if override:
        return override
    here = Path(__file__).resolve().parent
    for level in range(cpu_level(here), 2, -1):
        tuned = here / f"libpbgym-x86-64-v{level}.so"
        if tuned.exists():
            return str(tuned)
    for name in ("libpbgym.so", "libpbgym.dylib"):
        if (here / name).exists():
            return str(here / name)
    raise ImportError(
        f"pbgym: the native library libpbgym.so is missing from {here}; "
        "reinstall with `pip install ./python` from the checkout (it runs `swift build`)"
    )


LIBRARY_PATH = _library_path()


def _load() -> ctypes.CDLL:
    lib = ctypes.CDLL(LIBRARY_PATH)
    if not hasattr(lib, "pbg_abi_version"):
        raise ImportError(f"pbgym: {LIBRARY_PATH} is not libpbgym (no pbg_abi_version)")
    version = lib.pbg_abi_version()
    if version != ABI_VERSION:
        raise ImportError(f"pbgym: {LIBRARY_PATH} speaks ABI version {version}, this package needs {ABI_VERSION}")
    u64, i64, i32, p = ctypes.c_uint64, ctypes.c_int64, ctypes.c_int32, ctypes.c_void_p
    sigs = {
        "pbg_abi_version": (i32, []),
        "pbg_library_info": (i32, [p, i64, ctypes.POINTER(i64)]),
        "pbg_last_error": (i64, [ctypes.c_char_p, i64]),
        "pbg_create": (i32, [ctypes.c_char_p, ctypes.POINTER(u64)]),
        "pbg_destroy": (i32, [u64]),
        "pbg_info": (i32, [u64, p, i64, ctypes.POINTER(i64)]),
        "pbg_bounds": (i32, [u64, p, p, i64]),
        "pbg_bind": (i32, [u64, i32, p, i64]),
        "pbg_slot_bytes": (i32, [u64, i32, ctypes.POINTER(i64)]),
        "pbg_reset": (i32, [u64, p, p, i64]),
        "pbg_step": (i32, [u64, p, i64]),
        "pbg_observe": (i32, [u64]),
        "pbg_bench": (i32, [u64, i64, p, i64]),
        "pbg_snapshot": (i32, [u64, i64, p, i64, ctypes.POINTER(i64)]),
        "pbg_restore": (i32, [u64, i64, p, i64]),
        "pbg_render": (i32, [u64, i64, i32, i32, i32, i32, p, i64]),
        "pbg_render_ansi": (i32, [u64, i64, i32, p, i64, ctypes.POINTER(i64)]),
        "pbg_stack_save": (i32, [u64, i64, p, i64, ctypes.POINTER(i64)]),
        "pbg_stack_load": (i32, [u64, i64, p, i64]),
        "pbg_rules": (i32, [u64, i64, p, i64, ctypes.POINTER(i64)]),
    }
    for name, (res, args) in sigs.items():
        f = getattr(lib, name)
        f.restype = res
        f.argtypes = args
    return lib


lib = _load()
# pbg_step and pbg_step_into without argtypes: their arguments are passed
# as prebuilt ctypes objects (the handle, the size, a step's buffer table,
# made once per set of arrays), so ctypes converts nothing per call.
_step_fn = lib["pbg_step"]
_step_fn.restype = ctypes.c_int32
_step_into_fn = lib["pbg_step_into"]
_step_into_fn.restype = ctypes.c_int32
_copyto = np.copyto
_refcount = sys.getrefcount


class _Outputs:
    """One step's output arrays, which the library writes in place
    (``NativeEnv.step_into_new``): the observations (features or pixels),
    rewards and flags, the first seat's views of the first two, and the
    ``pbg_step_into`` table that binds them (slot, address, bytes each)."""

    __slots__ = ("observation", "first", "rewards", "first_rewards", "terminated", "truncated", "table")

    def __init__(self, native: "NativeEnv"):
        self.observation = np.empty(native._out_shape, native._out_dtype)
        self.first = self.observation[:, 0]
        self.rewards = np.empty(native.rewards.shape, native.rewards.dtype)
        self.first_rewards = self.rewards[:, 0]
        self.terminated = np.empty(native.num_games, dtype=bool)
        self.truncated = np.empty(native.num_games, dtype=bool)
        slots = (SLOT_PIXELS if native._pixels_out else SLOT_OBS, SLOT_REWARDS, SLOT_TERMINATED, SLOT_TRUNCATED)
        arrays = (self.observation, self.rewards, self.terminated, self.truncated)
        entries = [v for slot, a in zip(slots, arrays) for v in (slot, a.ctypes.data, a.nbytes)]
        self.table = (ctypes.c_int64 * len(entries))(*entries)


def _held(outputs: _Outputs) -> int:
    return _refcount(outputs.terminated)


def _held_alone() -> int:
    probe = _Outputs.__new__(_Outputs)
    probe.terminated = np.empty(1)
    return _held(probe)


# What `_refcount(outputs.terminated)` reports for an array only its
# `_Outputs` holds (measured, as interpreters differ in the references their
# frames hold; `_free_outputs` reads the counts with the same expression).
_HELD = _held_alone()
# Output sets an environment keeps for reuse.
_SPARES = 3


def last_error() -> str:
    n = lib.pbg_last_error(None, 0)
    buf = ctypes.create_string_buffer(int(n) + 1)
    lib.pbg_last_error(buf, n + 1)
    return buf.value.decode("utf-8", "replace")


def check(status: int) -> None:
    if status != 0:
        kind = {"out of memory": PBGymMemoryError, "agent fault": PBGymAgentError}.get(STATUS_NAMES.get(status), PBGymError)
        raise kind(f"pbgym: {last_error()}", status)


def _text(call, *args) -> str:
    needed = ctypes.c_int64(0)
    status = call(*args, None, 0, ctypes.byref(needed))
    if status != 0 and needed.value == 0:  # a failure other than the empty buffer's
        check(status)
    buf = ctypes.create_string_buffer(int(needed.value))
    check(call(*args, buf, needed.value, ctypes.byref(needed)))
    return buf.value.decode("utf-8")


# Status codes and buffer slots as the library numbers them (pbg_library_info).
STATUS_NAMES: dict[int, str] = {}
_LIBRARY_INFO = json.loads(_text(lib.pbg_library_info))
STATUS_NAMES.update({code: name for code, name in enumerate(_LIBRARY_INFO["status_names"]) if code})
STATUS_OUT_OF_MEMORY = next(code for code, name in STATUS_NAMES.items() if name == "out of memory")
_SLOTS = {name: number for number, name in enumerate(_LIBRARY_INFO["slot_names"])}
SLOT_ACTIONS, SLOT_OBS, SLOT_PIXELS, SLOT_REWARDS, SLOT_TERMINATED, SLOT_TRUNCATED = (
    _SLOTS[n] for n in ("actions", "observations", "pixels", "rewards", "terminated", "truncated"))
SLOT_ENDS, SLOT_EVENTS, SLOT_SCORES, SLOT_FINAL_OBS, SLOT_FINAL_PIXELS = (
    _SLOTS[n] for n in ("ends", "events", "scores", "finalObservations", "finalPixels"))


def _seed64(seed: Any, what: str = "seed") -> int:
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"pbgym: {what} must be an int, got {type(seed).__name__}")
    seed = int(seed)
    if seed < 0:
        raise ValueError(f"pbgym: {what}={seed} must be >= 0")
    return seed % (1 << 64)


class NativeEnv:
    """N games in one library handle, with numpy buffers bound once.

    The arrays (``obs``, ``pixels``, ``rewards``, ...) belong to this object
    and are rewritten in place by every :meth:`reset` and :meth:`step`;
    callers copy what they keep.

    Copies (``copy.copy``, ``copy.deepcopy``, ``pickle``) are independent
    environments in the same state: a new handle made from the same config,
    every game restored from its snapshot and its frame stacks (see
    :meth:`save_state`); an environment whose games cannot be snapshot
    (single-agent Pong without ``opponent_history``) refuses to copy.
    """

    def __init__(self, config: dict[str, Any]):
        self.handle = 0
        self.config = json.loads(json.dumps(config))
        text = json.dumps(config).encode("utf-8")
        h = ctypes.c_uint64(0)
        check(lib.pbg_create(text, ctypes.byref(h)))
        self.handle = h.value
        self.info = json.loads(_text(lib.pbg_info, self.handle))
        info = self.info
        self.num_games = n = info["num_games"]
        self.seats = s = info["seats"]
        self.action_count = info["action_count"]
        self.obs_count = info["obs_count"]
        self.pixel_shape = tuple(info["pixel_shape"])
        # One seat's observation: (obs_count,) or the pixels with their channel axis.
        self.obs_shape = tuple(info["obs_shape"])
        self.frame_stack = int(info["frame_stack"])
        self.action_names = list(info["action_names"])
        self.event_names = list(info["event_names"])
        self.score_names = list(info["score_names"])
        self.end_names = np.array(info["end_names"], dtype=object)
        lower = np.zeros(self.obs_count, dtype=np.float32)
        upper = np.zeros(self.obs_count, dtype=np.float32)
        check(lib.pbg_bounds(self.handle, lower.ctypes.data, upper.ctypes.data, self.obs_count))
        self.lower, self.upper = lower, upper
        pixels = info["obs_type"] == "pixels"
        same_step = info["autoreset"] == "same-step"
        # The action and reward buffers in the types the config chose
        # ("action_dtype", "reward_dtype"; the library's defaults int64 and
        # float64): int32 and float32 are the games' own, which the library
        # reads and writes in place; the others it converts each step.
        self.actions = np.zeros((n, s), dtype=np.dtype(info["action_dtype"]))
        self.rewards = np.zeros((n, s), dtype=np.dtype(info["reward_dtype"]))
        self.terminated = np.zeros(n, dtype=bool)
        self.truncated = np.zeros(n, dtype=bool)
        # The step's end reasons, score columns and event counters: one
        # block, so a step's infos keep them with one copy (see `lend`).
        e = len(self.event_names)
        self.info_block = np.zeros(n * (2 + e) * 4 + n, dtype=np.uint8)
        self.ends, self.scores, self.events = self.split_info(self.info_block)
        self.obs = None if pixels else np.zeros((n, s, self.obs_count), dtype=np.float32)
        self.pixels = np.zeros((n, s, *self.obs_shape), dtype=np.uint8) if pixels else None
        self.final_obs = None
        self.final_pixels = None
        if same_step:
            if pixels:
                self.final_pixels = np.zeros_like(self.pixels)
            else:
                self.final_obs = np.zeros_like(self.obs)
        for slot, arr in (
            (SLOT_ACTIONS, self.actions), (SLOT_OBS, self.obs), (SLOT_PIXELS, self.pixels),
            (SLOT_REWARDS, self.rewards), (SLOT_TERMINATED, self.terminated), (SLOT_TRUNCATED, self.truncated),
            (SLOT_ENDS, self.ends), (SLOT_EVENTS, self.events), (SLOT_SCORES, self.scores),
            (SLOT_FINAL_OBS, self.final_obs), (SLOT_FINAL_PIXELS, self.final_pixels),
        ):
            if arr is not None:
                check(lib.pbg_bind(self.handle, slot, arr.ctypes.data, arr.nbytes))
        self._action_size = self.actions.size
        self._actions_flat = self.actions.reshape(-1)
        self._flat_shape = self._actions_flat.shape
        self._action_dtype = self.actions.dtype
        # The one call per step, its handle and sizes converted once.
        self._h = ctypes.c_uint64(self.handle)
        self._no_bytes = ctypes.c_int64(0)
        self._pixels_out = pixels
        out = self.observation
        self._out_shape, self._out_dtype = out.shape, out.dtype
        # Entries of an `_Outputs` table (its observations, rewards and flags).
        self._table_entries = ctypes.c_int64(4)
        # Whether a step's infos read `info_block` (`lend`) and whether the
        # bound output arrays were handed out (`step_into_new`): both must
        # be settled before the library next writes them (`_settle`).
        self._lent: weakref.ref | None = None
        self._handed_out = False
        # Output sets `step_into_new` handed out: one nobody else holds any
        # more (no reference, no view) is written again instead of a new one
        # (a new array's pages cost the first write a page fault each).
        self._spares: list[_Outputs] = []
        # The set bound now (None: the arrays made here).
        self._bound_set: _Outputs | None = None

    # -- lifecycle

    def close(self) -> None:
        if self.handle:
            h, self.handle = self.handle, 0
            check(lib.pbg_destroy(h))

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def _live(self) -> None:
        if not self.handle:
            raise PBGymError("pbgym: the environment is closed", 2)

    # -- stepping

    @property
    def observation(self) -> np.ndarray:
        return self.pixels if self.obs is None else self.obs

    def reset(self, seeds: Sequence[int | None] | None = None, mask: np.ndarray | None = None) -> None:
        """Restarts the games in ``mask`` (all when None); ``seeds[i]`` (an int)
        restarts game i's seed stream, None goes on to its next episode."""
        self._live()
        self._settle()
        n = self.num_games
        m = np.ones(n, dtype=bool) if mask is None else np.asarray(mask, dtype=bool).reshape(n)
        if seeds is None:
            seeds = [None] * n
        if len(seeds) != n:
            raise ValueError(f"pbgym: {len(seeds)} seeds for {n} games")
        seeded = np.array([s is not None for s in seeds], dtype=bool)
        values = np.array([_seed64(s) if s is not None else 0 for s in seeds], dtype=np.uint64)
        with_seed = (m & seeded).astype(np.uint8)
        without = (m & ~seeded).astype(np.uint8)
        if with_seed.any():
            check(lib.pbg_reset(self.handle, with_seed.ctypes.data, values.ctypes.data, n))
        if without.any():
            check(lib.pbg_reset(self.handle, without.ctypes.data, None, n))

    def split_info(self, block: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(ends, scores, events)`` views of ``info_block`` (or of a copy of it)."""
        n, e = self.num_games, len(self.event_names)
        return (block[n * (2 + e) * 4:], block[: n * 8].view(np.int32).reshape(n, 2),
                block[n * 8: n * (2 + e) * 4].view(np.int32).reshape(n, e))

    def lend(self, holder) -> np.ndarray:
        """``info_block`` for ``holder`` to read until the library next
        writes it: before that, ``holder._detach()`` is called (if the holder
        is still alive) so it can keep a copy. A holder dropped unread costs
        no copy."""
        self._lent = weakref.ref(holder)
        return self.info_block

    def _settle(self) -> None:
        """Before a call that writes the bound buffers: the lent info block's
        holder keeps a copy, and handed-out output arrays still held by the
        caller are replaced by a free set (the library no longer writes the
        caller's)."""
        self._detach_lent()
        if self._handed_out:
            self._handed_out = False
            free = self._free_outputs()
            if free is not self._bound_set:
                table = free.table
                for k in range(0, len(table), 3):
                    check(lib.pbg_bind(self.handle, table[k], table[k + 1], table[k + 2]))
                self._set_outputs(free)

    def _free_outputs(self) -> _Outputs:
        """An output set the library may write: one handed out earlier that
        nobody else holds any more (no reference to any of its arrays, their
        first seat's views or a view of either), else a new one (kept for
        reuse while there are fewer than ``_SPARES``). A reused set costs no
        page faults and is likely in cache."""
        bound = self._bound_set
        for o in self._spares:
            # Free: each view held by its set alone, each array by its set
            # and its view (a view of the view names the array as its base),
            # and by this object too while bound.
            if _refcount(o.first) == _HELD and _refcount(o.first_rewards) == _HELD:
                more = 1 if o is bound else 0
                if (_refcount(o.terminated) == _HELD + more and _refcount(o.truncated) == _HELD + more
                        and _refcount(o.observation) == _HELD + 1 + more and _refcount(o.rewards) == _HELD + 1 + more):
                    return o
        out = _Outputs(self)
        if len(self._spares) < _SPARES:
            self._spares.append(out)
        return out

    def _detach_lent(self) -> None:
        ref, self._lent = self._lent, None
        holder = ref() if ref is not None else None
        if holder is not None:
            holder._detach()

    def _set_outputs(self, outputs: _Outputs) -> None:
        """The arrays of `outputs` are the bound ones now."""
        if self._pixels_out:
            self.pixels = outputs.observation
        else:
            self.obs = outputs.observation
        self.rewards, self.terminated, self.truncated = outputs.rewards, outputs.terminated, outputs.truncated
        self._bound_set = outputs

    def set_actions(self, actions) -> None:
        """Copies ``actions`` (ints, ``num_games × seats``) into the bound
        action buffer. An integer array whose every value the buffer's type
        holds (int64, or int32 into an int32 buffer) is copied as it is: the
        library checks every value before it steps. Other types are checked
        here, where a conversion could wrap."""
        a = actions if type(actions) is np.ndarray else np.asarray(actions)
        if a.size != self._action_size:
            raise ValueError(f"pbgym: {a.size} actions given, the environment takes {self._action_size} "
                             f"({self.num_games} games x {self.seats} seats)")
        kind = a.dtype.kind
        if kind in "iu" and not np.can_cast(a.dtype, self._action_dtype):
            # A wider type than the buffer's (uint64 into int64, int64 into int32): values would wrap.
            if a.size and (a.min() < 0 or a.max() >= self.action_count):
                raise ValueError(f"pbgym: an action is outside 0 ..< {self.action_count}: "
                                 f"{a.min() if a.min() < 0 else a.max()}")
        elif kind == "O":
            try:
                values = [operator.index(v) for v in a.reshape(-1)]
            except TypeError:
                raise ValueError(f"pbgym: actions must be integers, got {a.dtype} values") from None
            for v in values:
                if not 0 <= v < self.action_count:
                    raise ValueError(f"pbgym: an action is outside 0 ..< {self.action_count}: {v}")
            a = np.array(values, dtype=np.int64)
        elif kind not in "iub":
            if kind != "f" or not (np.isfinite(a).all() and (np.mod(a, 1) == 0).all()):
                raise ValueError(f"pbgym: actions must be integers, got {a.dtype} values")
            if a.size and (a.min() < 0 or a.max() >= self.action_count):
                raise ValueError(f"pbgym: an action is outside 0 ..< {self.action_count}: "
                                 f"{a.min() if a.min() < 0 else a.max()}")
        np.copyto(self._actions_flat, a.reshape(-1), casting="unsafe")

    def _put_actions(self, actions) -> None:
        """Copies a step's actions into the bound buffer: a flat array of its
        type and length as it is (the library checks its values), any other
        input through :meth:`set_actions`."""
        if type(actions) is np.ndarray and actions.dtype is self._action_dtype and actions.shape == self._flat_shape:
            np.copyto(self._actions_flat, actions)
        else:
            self.set_actions(actions)

    def step(self, actions=None) -> None:
        """One step of every game; ``actions`` (ints, ``num_games × seats``)
        are copied into the bound action buffer (None: use it as it is)."""
        if self._lent is not None or self._handed_out:
            self._settle()
        if actions is not None:
            self._put_actions(actions)
        status = _step_fn(self._h, None, self._no_bytes)
        if status:
            check(status)

    def step_into_new(self, actions) -> _Outputs:
        """:meth:`step` with the step's observations (features or pixels),
        rewards and flags written into arrays nobody else holds, returned as
        an ``_Outputs`` set (with its first seat's views, made once per
        set): they are the bound ones until the next call that writes them,
        which first binds others, so the returned arrays are the caller's to
        keep (no copy made). A set handed out earlier is reused once no
        reference to any of its arrays or to a view of one is left."""
        lent = self._lent
        if lent is not None:
            # _detach_lent inline.
            self._lent = None
            holder = lent()
            if holder is not None:
                holder._detach()
        if actions is not None:
            # _put_actions, its common case inline (one call less per step).
            if type(actions) is np.ndarray and actions.dtype is self._action_dtype and actions.shape == self._flat_shape:
                _copyto(self._actions_flat, actions)
            else:
                self.set_actions(actions)
        out = self._free_outputs()
        status = _step_into_fn(self._h, out.table, self._table_entries)
        if status:
            check(status)
        # Bound by the library now (a failed call binds nothing).
        if out is not self._bound_set:
            self._set_outputs(out)
        self._handed_out = True
        return out

    def bench(self, steps: int, action_sets: np.ndarray) -> None:
        """Runs ``steps`` steps in the library's own loop (``pbg_bench``),
        cycling through ``action_sets`` (``sets × num_games × seats`` ints)."""
        self._live()
        self._settle()
        sets = np.ascontiguousarray(action_sets, dtype=np.int64).reshape(-1, self._action_size)
        check(lib.pbg_bench(self.handle, int(steps), sets.ctypes.data, sets.shape[0]))

    def observe(self) -> None:
        self._live()
        self._settle()
        check(lib.pbg_observe(self.handle))

    # -- snapshots and rendering

    def snapshot(self, game: int = 0) -> bytes:
        self._live()
        needed = ctypes.c_int64(0)
        status = lib.pbg_snapshot(self.handle, int(game), None, 0, ctypes.byref(needed))
        if status != 3:
            check(status)
        buf = (ctypes.c_uint8 * int(needed.value))()
        check(lib.pbg_snapshot(self.handle, int(game), buf, needed.value, ctypes.byref(needed)))
        return bytes(buf)

    def restore(self, data: bytes, game: int = 0) -> None:
        self._live()
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"pbgym: a snapshot is bytes, got {type(data).__name__}")
        raw = bytes(data)
        check(lib.pbg_restore(self.handle, int(game), raw, len(raw)))

    def stack_save(self, game: int = 0) -> bytes:
        """Game ``game``'s frame stacks (every seat's frames, oldest first)."""
        self._live()
        needed = ctypes.c_int64(0)
        status = lib.pbg_stack_save(self.handle, int(game), None, 0, ctypes.byref(needed))
        if status != 3:
            check(status)
        buf = (ctypes.c_uint8 * int(needed.value))()
        check(lib.pbg_stack_save(self.handle, int(game), buf, needed.value, ctypes.byref(needed)))
        return bytes(buf)

    def stack_load(self, data: bytes, game: int = 0) -> None:
        """Replaces game ``game``'s frame stacks with ``data`` (as :meth:`stack_save` gave them)."""
        self._live()
        raw = bytes(data)
        check(lib.pbg_stack_load(self.handle, int(game), raw, len(raw)))

    # -- copies

    def save_state(self, what: str = "this environment") -> dict[str, Any]:
        """Everything a copy needs: the create config, each game's snapshot
        and, with ``frame_stack`` above 1, its frame stacks. Raises
        ``TypeError`` naming ``what`` when a game cannot be snapshot."""
        if not self.handle:
            raise TypeError(f"pbgym: {what} is closed and cannot be copied or pickled")
        try:
            games = [self.snapshot(i) for i in range(self.num_games)]
        except PBGymError as e:
            raise TypeError(f"pbgym: {what} cannot be copied or pickled: {e}") from None
        stacks = [self.stack_save(i) for i in range(self.num_games)] if self.frame_stack > 1 else None
        return {"config": self.config, "games": games, "stacks": stacks}

    def load_state(self, state: dict[str, Any]) -> None:
        """Restores what :meth:`save_state` saved (into an environment made
        from the same config) and writes the observations."""
        for i, blob in enumerate(state["games"]):
            self.restore(blob, i)
        for i, blob in enumerate(state["stacks"] or ()):
            self.stack_load(blob, i)
        self.observe()

    def __reduce__(self):
        return (_native_from_state, (self.save_state(),))

    def render(self, game: int = 0, seat: int = 0, shape: tuple[int, int] = (0, 0), channels: int = 3) -> np.ndarray:
        self._live()
        h, w = shape if shape != (0, 0) else tuple(self.info["render_shape"])
        out = np.zeros((h, w, channels), dtype=np.uint8)
        check(lib.pbg_render(self.handle, int(game), int(seat), int(h), int(w), int(channels), out.ctypes.data, out.nbytes))
        return out if channels == 3 else out[:, :, 0]

    def ansi(self, game: int = 0, seat: int = 0) -> str:
        self._live()
        return _text(lib.pbg_render_ansi, self.handle, int(game), int(seat))

    @property
    def has_rules(self) -> bool:
        """Whether each episode draws its rules from a variant set (created with ``variants``)."""
        return "variants" in self.config

    def rules(self, game: int = 0) -> dict[str, Any]:
        """Game ``game``'s rules in its running episode: ``{"set": NAME, "values": {KEY: VALUE}}``."""
        self._live()
        return json.loads(_text(lib.pbg_rules, self.handle, int(game)))


def _native_from_state(state: dict[str, Any]) -> NativeEnv:
    """A new environment in the state :meth:`NativeEnv.save_state` saved."""
    native = NativeEnv(state["config"])
    native.load_state(state)
    return native
