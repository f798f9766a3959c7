"""The C library (libpbgym.so) through ctypes, and one native environment handle.

Every call returns a status; a non-zero status raises :class:`PBGymError`
with the library's own message (which names the argument, the value and
what is allowed). The library never traps on bad input, so a mistake is a
Python exception, never a crashed interpreter.
"""

from __future__ import annotations

import ctypes
import json
import os
from pathlib import Path
from typing import Any, Sequence

import numpy as np

ABI_VERSION = 1

# Status codes (Sources/PBGymC/ABIError.swift).
STATUS_NAMES = {
    1: "invalid argument",
    2: "bad handle",
    3: "buffer too small",
    4: "bad config",
    5: "bad snapshot",
    6: "bad action",
    7: "not ready",
}

# Buffer slots (Session.Slot).
SLOT_ACTIONS, SLOT_OBS, SLOT_PIXELS, SLOT_REWARDS, SLOT_TERMINATED, SLOT_TRUNCATED = 0, 1, 2, 3, 4, 5
SLOT_ENDS, SLOT_EVENTS, SLOT_SCORES, SLOT_FINAL_OBS, SLOT_FINAL_PIXELS = 6, 7, 8, 9, 10


class PBGymError(ValueError):
    """A call into the library failed; ``status`` is the library's code."""

    def __init__(self, message: str, status: int = 1):
        super().__init__(message)
        self.status = status


def _library_path() -> str:
    override = os.environ.get("PBGYM_LIBRARY")
    if override:
        return override
    here = Path(__file__).resolve().parent
    for name in ("libpbgym.so", "libpbgym.dylib"):
        if (here / name).exists():
            return str(here / name)
    raise ImportError(
        f"pbgym: the native library libpbgym.so is missing from {here}; "
        "reinstall with `pip install ./python` from the checkout (it runs `swift build`)"
    )


def _load() -> ctypes.CDLL:
    lib = ctypes.CDLL(_library_path())
    u64, i64, i32, p = ctypes.c_uint64, ctypes.c_int64, ctypes.c_int32, ctypes.c_void_p
    sigs = {
        "pbg_abi_version": (i32, []),
        "pbg_last_error": (i64, [ctypes.c_char_p, i64]),
        "pbg_create": (i32, [ctypes.c_char_p, ctypes.POINTER(u64)]),
        "pbg_destroy": (i32, [u64]),
        "pbg_info": (i32, [u64, p, i64, ctypes.POINTER(i64)]),
        "pbg_bounds": (i32, [u64, p, p, i64]),
        "pbg_bind": (i32, [u64, i32, p, i64]),
        "pbg_slot_bytes": (i32, [u64, i32, ctypes.POINTER(i64)]),
        "pbg_reset": (i32, [u64, p, p, i64]),
        "pbg_step": (i32, [u64]),
        "pbg_observe": (i32, [u64]),
        "pbg_bench": (i32, [u64, i64, p, i64]),
        "pbg_snapshot": (i32, [u64, i64, p, i64, ctypes.POINTER(i64)]),
        "pbg_restore": (i32, [u64, i64, p, i64]),
        "pbg_render": (i32, [u64, i64, i32, i32, i32, i32, p, i64]),
        "pbg_render_ansi": (i32, [u64, i64, i32, p, i64, ctypes.POINTER(i64)]),
    }
    for name, (res, args) in sigs.items():
        f = getattr(lib, name)
        f.restype = res
        f.argtypes = args
    version = lib.pbg_abi_version()
    if version != ABI_VERSION:
        raise ImportError(f"pbgym: libpbgym.so speaks ABI version {version}, this package needs {ABI_VERSION}")
    return lib


lib = _load()


def last_error() -> str:
    n = lib.pbg_last_error(None, 0)
    buf = ctypes.create_string_buffer(int(n) + 1)
    lib.pbg_last_error(buf, n + 1)
    return buf.value.decode("utf-8", "replace")


def check(status: int) -> None:
    if status != 0:
        raise PBGymError(f"pbgym: {last_error()}", status)


def _text(call, *args) -> str:
    needed = ctypes.c_int64(0)
    status = call(*args, None, 0, ctypes.byref(needed))
    if status not in (0, 3):
        check(status)
    buf = ctypes.create_string_buffer(int(needed.value))
    check(call(*args, buf, needed.value, ctypes.byref(needed)))
    return buf.value.decode("utf-8")


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
    """

    def __init__(self, config: dict[str, Any]):
        self.handle = 0
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
        self.event_names = list(info["event_names"])
        self.score_names = list(info["score_names"])
        self.end_names = np.array(info["end_names"], dtype=object)
        lower = np.zeros(self.obs_count, dtype=np.float32)
        upper = np.zeros(self.obs_count, dtype=np.float32)
        check(lib.pbg_bounds(self.handle, lower.ctypes.data, upper.ctypes.data, self.obs_count))
        self.lower, self.upper = lower, upper
        pixels = info["obs_type"] == "pixels"
        same_step = info["autoreset"] == "same-step"
        self.actions = np.zeros((n, s), dtype=np.int32)
        self.rewards = np.zeros((n, s), dtype=np.float32)
        self.terminated = np.zeros(n, dtype=np.uint8)
        self.truncated = np.zeros(n, dtype=np.uint8)
        self.ends = np.zeros(n, dtype=np.uint8)
        self.events = np.zeros((n, len(self.event_names)), dtype=np.int32)
        self.scores = np.zeros((n, 2), dtype=np.int32)
        self.obs = None if pixels else np.zeros((n, s, self.obs_count), dtype=np.float32)
        self.pixels = np.zeros((n, s, *self.pixel_shape), dtype=np.uint8) if pixels else None
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
        # The one call per step, its handle argument converted once.
        self._step = lib.pbg_step
        self._h = ctypes.c_uint64(self.handle)

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

    def step(self, actions=None) -> None:
        """One step of every game; ``actions`` (ints, ``num_games × seats``)
        are copied into the bound action buffer (None: use it as it is)."""
        if actions is not None:
            a = actions if type(actions) is np.ndarray else np.asarray(actions)
            if a.size != self._action_size:
                raise ValueError(f"pbgym: {a.size} actions given, the environment takes {self._action_size} "
                                 f"({self.num_games} games x {self.seats} seats)")
            kind = a.dtype.kind
            if kind == "i" and a.dtype.itemsize == 8:
                # The common case (numpy's and torch's default integers):
                # one reduction over the values seen as unsigned checks both
                # bounds (a negative one is huge), so nothing wraps into range.
                if a.view(np.uint64).max() >= self.action_count:
                    raise ValueError(f"pbgym: an action is outside 0 ..< {self.action_count}: "
                                     f"{a.reshape(-1)[np.flatnonzero(a.reshape(-1).view(np.uint64) >= self.action_count)[0]]}")
            elif kind not in "iub":
                if not np.all(np.mod(a, 1) == 0):
                    raise ValueError(f"pbgym: actions must be integers, got {a.dtype} values")
            elif a.dtype.itemsize > 4 or kind == "u":
                wide = a.astype(np.int64)
                if wide.min() < 0 or wide.max() >= self.action_count:
                    raise ValueError(f"pbgym: an action is outside 0 ..< {self.action_count}")
            np.copyto(self._actions_flat, a.reshape(-1), casting="unsafe")
        status = self._step(self._h)
        if status:
            check(status)

    def bench(self, steps: int, action_sets: np.ndarray) -> None:
        """Runs ``steps`` steps in the library's own loop (``pbg_bench``),
        cycling through ``action_sets`` (``sets × num_games × seats`` ints)."""
        self._live()
        sets = np.ascontiguousarray(action_sets, dtype=np.int32).reshape(-1, self._action_size)
        check(lib.pbg_bench(self.handle, int(steps), sets.ctypes.data, sets.shape[0]))

    def observe(self) -> None:
        self._live()
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

    def render(self, game: int = 0, seat: int = 0, shape: tuple[int, int] = (0, 0), channels: int = 3) -> np.ndarray:
        self._live()
        h, w = shape if shape != (0, 0) else tuple(self.info["render_shape"])
        out = np.zeros((h, w, channels), dtype=np.uint8)
        check(lib.pbg_render(self.handle, int(game), int(seat), int(h), int(w), int(channels), out.ctypes.data, out.nbytes))
        return out if channels == 3 else out[:, :, 0]

    def ansi(self, game: int = 0, seat: int = 0) -> str:
        self._live()
        return _text(lib.pbg_render_ansi, self.handle, int(game), int(seat))
