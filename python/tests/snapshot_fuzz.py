"""A structure-aware fuzzer of snapshots through the C ABI (`pbg_restore`).

Run as a script (standard library only, so a process starts fast), it
loads libpbgym.so with ctypes, plays a few environments of both games
(several configs, lane-sized batches, scores and pixels bound or not) to
saved points, and then runs numbered cases: each takes one saved game,
changes its snapshot — a field of the game state set to an extreme or
just past one of the game's invariants (integer limits, the config's own
values ±1, floats at the field's edges and one ulp past them), several
fields at once, header words, the opponent history, wrong JSON types —
and restores it with a valid checksum. Case `k` is a pure function of
`k` (its own generator, `random.Random(k)`), so any case can be run again
alone.

Oracles, besides the process staying alive (a trap kills it: the parent
test sees the signal and the last case begun):
- `pbg_restore` returns 0 or 5 (bad snapshot), nothing else;
- a refusal of a one-field change names that field in its message;
- a refused restore leaves the game as it was (checked on a sample);
- an accepted state steps (24 steps of every game), renders, and its
  observations stay finite and within the declared bounds;
- the state it reaches is accepted again (snapshot, restore).

    python snapshot_fuzz.py LIBRARY FIRST COUNT

runs cases FIRST ..< FIRST + COUNT, printing `begin K` before case K and a
last line `summary {json}` (counts and findings).
"""

from __future__ import annotations

import ctypes
import json
import math
import random
import struct
import sys

I32_MIN, I32_MAX = -(2**31), 2**31 - 1
INT_EXTREMES = [I32_MIN, I32_MIN + 1, -65536, -256, -2, -1, 0, 1, 2, 3, 7, 8, 9, 15, 16, 127, 128, 255, 256,
                32767, 32768, 65535, 65536, 10**6, I32_MAX - 1, I32_MAX, I32_MAX + 1, 2**32 - 1, 2**32,
                2**63 - 1, 2**63, 2**64 - 1, 2**64, -(2**63), -(2**63) - 1]
F32_MAX = 3.4028234663852886e38
F32_TINY = 1.401298464324817e-45
FLOAT_EXTREMES = [0.0, -0.0, F32_TINY, -F32_TINY, 1.1754943508222875e-38, 1e-7, 0.25, 0.5, 1.0, -1.0, 2.0,
                  -2.0, 100.0, 1e6, -1e6, 16777216.0, 16777217.0, 2.147483647e9, 2.147483648e9, -2.147483649e9,
                  9.3e18, -9.3e18, F32_MAX, -F32_MAX, 3.5e38, -3.5e38, 1e300]
# Raw JSON texts no float has: non-finite tokens, strings, other types.
ODD_TEXTS = ["NaN", "Infinity", "-Infinity", "1e999", "-1e999", "null", "true", "false", '"1"', "[]", "{}",
             "[1]", '""', "0.5e", "01", "-", "1.0e-400"]

HEADER = struct.Struct("<4sIBBQQQII")
STATUS_BAD_SNAPSHOT = 5

# The environments: (name, config). Lane-sized batches (9 games: one group
# of eight in lanes, one alone), configs with every rule switched on or off.
ENVS = [
    ("breakout classic", {"game": "breakout", "num_games": 9, "autoreset": "next-step", "seed": 1}),
    ("breakout atari disabled", {"game": "breakout", "num_games": 9, "autoreset": "disabled", "seed": 2,
                                 "config": {"preset": "atari"}}),
    ("breakout everything", {"game": "breakout", "num_games": 9, "autoreset": "next-step", "seed": 3,
                             "config": {"maxBalls": 8, "ballsPerServe": 3, "toughFraction": 0.2,
                                        "explosiveFraction": 0.1, "extraBallFraction": 0.2, "speedUpFraction": 0.1,
                                        "toughHits": 7, "speedUpAfterHits": [2, 5, 9], "speedUpRows": 2,
                                        "shrinkPaddleOnTopWall": True, "maxSteps": 0, "watchdogSteps": 0,
                                        "pushCooldown": 5, "elasticity": 1.25, "maxBallSpeed": 24}}),
    ("breakout gravity layout sticky", {"game": "breakout", "num_games": 9, "autoreset": "disabled", "seed": 4,
                                        "obs_type": "pixels", "pixel_size": [42, 30],
                                        "config": {"brickRows": 2, "brickColumns": 4, "rowValues": [1000, 3],
                                                   "layout": ["T.XB", "S#T."], "gravity": 0.01, "elasticity": 0.9,
                                                   "autoServe": False, "frameSkip": 4,
                                                   "stickyActionProbability": 0.25, "watchdogSteps": 40,
                                                   "levels": 99, "lives": 9}}),
    ("pong two-player", {"game": "pong", "players": 2, "num_games": 9, "autoreset": "next-step", "seed": 5}),
    ("pong touch single", {"game": "pong", "num_games": 2, "opponent_history": True, "autoreset": "disabled",
                           "seed": 6, "config": {"preset": "touch", "maxSteps": 0, "maxScore": 3}}),
    ("pong ale pixels", {"game": "pong", "players": 2, "num_games": 9, "autoreset": "disabled", "seed": 7,
                         "obs_type": "pixels", "pixel_size": [30, 20],
                         "config": {"preset": "ale", "maxSteps": 500}}),
]
# Steps played before each saved point, and the games saved there.
POINTS = (0, 23, 301, 1200)
SAVED_GAMES = (0, 3, 8)
# Environments whose scores buffer stays unbound (the C caller the issue describes).
NO_SCORES = {"breakout classic", "pong two-player"}
STEPS_AFTER = 24


def fnv(data: bytes, h: int = 0xCBF29CE484222325) -> int:
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


class Library:
    def __init__(self, path: str):
        lib = ctypes.CDLL(path)
        u64, i64, i32, p = ctypes.c_uint64, ctypes.c_int64, ctypes.c_int32, ctypes.c_void_p
        for name, res, args in (
            ("pbg_last_error", i64, [ctypes.c_char_p, i64]),
            ("pbg_create", i32, [ctypes.c_char_p, ctypes.POINTER(u64)]),
            ("pbg_info", i32, [u64, p, i64, ctypes.POINTER(i64)]),
            ("pbg_bounds", i32, [u64, p, p, i64]),
            ("pbg_bind", i32, [u64, i32, p, i64]),
            ("pbg_step", i32, [u64, p, i64]),
            ("pbg_observe", i32, [u64]),
            ("pbg_snapshot", i32, [u64, i64, p, i64, ctypes.POINTER(i64)]),
            ("pbg_restore", i32, [u64, i64, p, i64]),
            ("pbg_render", i32, [u64, i64, i32, i32, i32, i32, p, i64]),
            ("pbg_render_ansi", i32, [u64, i64, i32, p, i64, ctypes.POINTER(i64)]),
        ):
            f = getattr(lib, name)
            f.restype, f.argtypes = res, args
        self.lib = lib
        self.text = ctypes.create_string_buffer(1 << 16)

    def error(self) -> str:
        self.lib.pbg_last_error(self.text, len(self.text))
        return self.text.value.decode("utf-8", "replace")


class Env:
    """One environment handle with its buffers bound, and its saved points."""

    def __init__(self, lib: Library, name: str, config: dict):
        self.lib, self.name, self.config = lib, name, config
        h = ctypes.c_uint64(0)
        if lib.lib.pbg_create(json.dumps(config).encode(), ctypes.byref(h)) != 0:
            raise RuntimeError(f"{name}: create failed: {lib.error()}")
        self.h = h.value
        needed = ctypes.c_int64(0)
        buf = ctypes.create_string_buffer(1 << 16)
        if lib.lib.pbg_info(self.h, buf, len(buf), ctypes.byref(needed)) != 0:
            raise RuntimeError(f"{name}: info failed: {lib.error()}")
        self.info = json.loads(buf.value)
        self.games, self.seats = self.info["num_games"], self.info["seats"]
        self.obs_count = self.info["obs_count"]
        self.actions = (ctypes.c_int64 * (self.games * self.seats))()
        self.rewards = (ctypes.c_double * (self.games * self.seats))()
        self.terminated = (ctypes.c_uint8 * self.games)()
        self.truncated = (ctypes.c_uint8 * self.games)()
        self.lower = (ctypes.c_float * self.obs_count)()
        self.upper = (ctypes.c_float * self.obs_count)()
        lib.lib.pbg_bounds(self.h, self.lower, self.upper, self.obs_count)
        self.obs = (ctypes.c_float * (self.games * self.seats * self.obs_count))()
        height, width = self.info["pixel_shape"]
        self.pixels = (ctypes.c_uint8 * (self.games * self.seats * height * width))() \
            if self.info["obs_type"] == "pixels" else None
        self.scores = None if name in NO_SCORES else (ctypes.c_int32 * (2 * self.games))()
        for slot, arr in ((0, self.actions), (1, self.obs), (2, self.pixels), (3, self.rewards),
                          (4, self.terminated), (5, self.truncated), (8, self.scores)):
            if arr is not None and lib.lib.pbg_bind(self.h, slot, arr, ctypes.sizeof(arr)) != 0:
                raise RuntimeError(f"{name}: bind {slot} failed: {lib.error()}")
        self.render_out = (ctypes.c_uint8 * (3 * 1024 * 1024))()
        self.snap = (ctypes.c_uint8 * (1 << 22))()
        self.played = 0
        self.play_rng = random.Random(config["seed"])
        self.points: dict[tuple[int, int], bytes] = {}

    def step(self, rng: random.Random) -> int:
        a = self.info["action_count"]
        for k in range(self.games * self.seats):
            self.actions[k] = rng.randrange(a)
        return self.lib.lib.pbg_step(self.h, None, 0)

    def play_to(self, steps: int) -> None:
        while self.played < steps:
            if self.step(self.play_rng) != 0:
                raise RuntimeError(f"{self.name}: step failed: {self.lib.error()}")
            self.played += 1

    def snapshot(self, game: int) -> bytes | None:
        needed = ctypes.c_int64(0)
        if self.lib.lib.pbg_snapshot(self.h, game, self.snap, len(self.snap), ctypes.byref(needed)) != 0:
            return None
        return bytes(self.snap[: needed.value])

    def saved(self, point: int, game: int) -> bytes:
        key = (point, game)
        if key not in self.points:
            for p in POINTS:
                if p > point:
                    break
                self.play_to(p)
                for g in SAVED_GAMES:
                    if g < self.games and (p, g) not in self.points:
                        blob = self.snapshot(g)
                        assert blob is not None, self.lib.error()
                        self.points[(p, g)] = blob
        return self.points[key]

    def restore(self, game: int, blob: bytes) -> int:
        return self.lib.lib.pbg_restore(self.h, game, blob, len(blob))


class Blob:
    """A snapshot taken apart: header words, the game's JSON document, the history."""

    def __init__(self, data: bytes):
        (self.magic, self.version, self.kind, self.pending, self.run_seed, self.episode, self.opponent_seed,
         json_len, history_len) = HEADER.unpack_from(data)
        start = HEADER.size
        self.doc = json.loads(data[start:start + json_len])
        self.history = list(struct.unpack_from(f"<{history_len}f", data, start + json_len))
        self.history_raw = data[start + json_len: start + json_len + 4 * history_len]

    def pack(self, json_text: bytes, history: bytes | None = None, header: dict | None = None) -> bytes:
        h = dict(magic=self.magic, version=self.version, kind=self.kind, pending=self.pending,
                 run_seed=self.run_seed, episode=self.episode, opponent_seed=self.opponent_seed)
        h.update(header or {})
        hist = self.history_raw if history is None else history
        body = HEADER.pack(h["magic"], h["version"], h["kind"], h["pending"], h["run_seed"], h["episode"],
                           h["opponent_seed"], len(json_text), len(hist) // 4) + json_text + hist
        return body + struct.pack("<Q", fnv(body))


def f32(x: float) -> float:
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return x


def ulps(x: float) -> list[float]:
    """x as a Float and the Floats one and two steps either side of it."""
    out = []
    if not math.isfinite(x) or abs(x) > F32_MAX:
        return [x]
    bits = struct.unpack("<i", struct.pack("<f", f32(x)))[0]
    for d in (-2, -1, 0, 1, 2):
        b = bits + d if x >= 0 else bits - d
        if -(2**31) <= b < 2**31:
            v = struct.unpack("<f", struct.pack("<i", b))[0]
            if math.isfinite(v):
                out.append(v)
    return out


def config_edges(env: Env) -> tuple[list[int], list[float]]:
    """Integers and floats at the config's values and just past them (the
    invariants are stated in them: lives, maxBalls, maxSteps, the field's
    edges less the ball's half size, paddle half widths, speeds ...)."""
    c = env.info["config"]
    ints, floats = set(), set()
    for v in c.values():
        vs = v if isinstance(v, list) else [v]
        for x in vs:
            if isinstance(x, bool) or not isinstance(x, (int, float)):
                continue
            if float(x).is_integer():
                for d in (-1, 0, 1):
                    ints.add(int(x) + d)
            for y in (x, x / 2, x / 4, -x, 2 * x):
                floats.update(ulps(y))
    w, h, ball = c["fieldWidth"], c["fieldHeight"], c["ballSize"]
    r = ball / 2
    for y in (r, w - r, h - r, w - c["paddleWidth"] / 2, w - c["paddleWidth"] / 4, c["paddleWidth"] / 2 + ball + 1,
              w - c["paddleWidth"] / 2 - ball - 1, h - c["paddleInset"], 2 * c.get("maxBallSpeed", 1),
              c.get("maxBallSpeed", 1) * (1 + 1 / 1024)):
        floats.update(ulps(y))
    rows, cols = c.get("brickRows", 1), c.get("brickColumns", 1)
    for y in (rows * cols, rows * cols * c.get("toughHits", 1), c.get("frameSkip", 1) * c.get("maxSteps", 0)):
        ints.update((y - 1, y, y + 1))
    return sorted(ints), sorted(floats)


class Case:
    """Case `k`: which saved game, which game to restore into, what changes."""

    def __init__(self, k: int):
        self.k = k
        rng = random.Random(k)
        self.rng = rng
        self.env = rng.randrange(len(ENVS))
        # Single-agent Pong's snapshots carry the opponent's observations of
        # the episode: its later points would make each case hash 50 KB.
        history = ENVS[self.env][1].get("opponent_history", False)
        self.point = rng.choice(POINTS[:3] if history else POINTS)
        games = ENVS[self.env][1]["num_games"]
        self.game = rng.choice([g for g in SAVED_GAMES if g < games])
        self.into = rng.randrange(games)
        self.kind = rng.choices(["field", "fields", "header", "history", "shape"], [70, 15, 6, 4, 5])[0]

    def describe(self) -> str:
        return (f"case {self.k}: {ENVS[self.env][0]}, saved game {self.game} after {self.point} steps, "
                f"restored into game {self.into}, change: {self.kind}")


def leaves(doc: dict) -> list[tuple[str, ...]]:
    """The state's fields as JSON paths (Breakout: the core's fields and the
    brick grid; Pong: the state's fields)."""
    state = doc["state"]
    if "core" in state:
        return [("state", "core", k) for k in sorted(state["core"])] + [("state", "bricks")]
    return [("state", k) for k in sorted(state)]


def value_text(v) -> str:
    if isinstance(v, float):
        if math.isnan(v):
            return "NaN"
        if math.isinf(v):
            return "Infinity" if v > 0 else "-Infinity"
        return repr(v)
    return json.dumps(v)


def candidate(rng: random.Random, original, ints: list[int], floats: list[float]):
    """A new JSON text for a field holding `original` (a number, a bool, a
    list of them, or a generator's words)."""
    if rng.random() < 0.04:
        return rng.choice(ODD_TEXTS)
    if isinstance(original, bool):
        return rng.choice(["true", "false", "0", "1", "2", "null"])
    if isinstance(original, int):
        pool = rng.choice([INT_EXTREMES, ints, [original - 1, original + 1, -original, 2 * original]])
        return str(rng.choice(pool))
    if isinstance(original, float):
        pool = rng.choice([FLOAT_EXTREMES, floats, ulps(original) + [-original]])
        return value_text(rng.choice(pool))
    if isinstance(original, list):
        roll = rng.random()
        if roll < 0.08:
            return json.dumps(original[:-1] if original else [1])
        if roll < 0.14:
            return json.dumps(original + original[:1] if original else [0])
        items = [value_text(x) for x in original]
        for _ in range(1 if rng.random() < 0.8 else rng.randrange(2, 4)):
            i = rng.randrange(len(items))
            x = original[i]
            if isinstance(x, int) and len(original) > 16:  # a brick cell
                items[i] = str(rng.choice([0, 1, 2, 7, 8, 0x10, 0x11, 0x12, 0x17, 0x18, 0x21, 0x22, 0x31, 0x41, 0x42,
                                           0x51, 0x71, 0x80, 0x81, 0x91, 0xFF, 256, -1, x + 1, x - 1]))
            else:
                items[i] = candidate(rng, x, ints, floats)
        return "[" + ",".join(items) + "]"
    if isinstance(original, dict):  # a generator: s0 ... s3
        words = dict(original)
        if rng.random() < 0.4:
            words = {k: 0 for k in words}
        else:
            words[rng.choice(sorted(words))] = rng.choice([0, 1, 2**63, 2**64 - 1, 2**64, -1, I32_MIN])
        return json.dumps(words)
    return rng.choice(ODD_TEXTS)


def encode(doc, changed: dict[tuple[str, ...], str], path=()) -> str:
    """`doc` as JSON text with the fields in `changed` (paths) written as the given raw texts."""
    if path in changed:
        return changed[path]
    if isinstance(doc, dict):
        return "{" + ",".join(f"{json.dumps(k)}:{encode(v, changed, path + (k,))}" for k, v in sorted(doc.items())) + "}"
    return value_text(doc) if isinstance(doc, float) else json.dumps(doc)


def strict_json(text: str) -> bool:
    def refuse(token):
        raise ValueError(token)
    try:
        json.loads(text, parse_constant=refuse)
        return True
    except ValueError:
        return False


def get(doc, path):
    for k in path:
        doc = doc[k]
    return doc


class Fuzzer:
    def __init__(self, library: str):
        self.lib = Library(library)
        self.envs: dict[int, Env] = {}
        self.edges: dict[int, tuple[list[int], list[float]]] = {}
        self.counts = {"cases": 0, "accepted": 0, "refused": 0, "steps_after": 0}
        self.findings: list[str] = []

    def env(self, e: int) -> Env:
        if e not in self.envs:
            self.envs[e] = Env(self.lib, *ENVS[e])
            self.edges[e] = config_edges(self.envs[e])
        return self.envs[e]

    def make(self, case: Case, env: Env, blob: Blob) -> tuple[bytes, str | None]:
        """The changed snapshot and the field a refusal must name (None: any)."""
        rng = case.rng
        ints, floats = self.edges[case.env]
        paths = leaves(blob.doc)
        if case.kind == "field":
            path = rng.choice(paths)
            text = candidate(rng, get(blob.doc, path), ints, floats)
            # Text that is not JSON is refused as such, before any field is read.
            return blob.pack(encode(blob.doc, {path: text}).encode()), path[-1] if strict_json(text) else None
        if case.kind == "fields":
            chosen = rng.sample(paths, rng.randrange(2, 6))
            changed = {p: candidate(rng, get(blob.doc, p), ints, floats) for p in chosen}
            return blob.pack(encode(blob.doc, changed).encode()), None
        if case.kind == "header":
            word = rng.choice(["pending", "run_seed", "episode", "opponent_seed", "kind", "version"])
            value = {"pending": rng.choice([0, 1, 2, 255]), "kind": rng.choice([0, 1, 2, 3, 4, 255]),
                     "version": rng.choice([0, 1, 2, 2**32 - 1])}.get(word, rng.choice([0, 1, 2**63, 2**64 - 1]))
            return blob.pack(encode(blob.doc, {}).encode(), header={word: value}), None
        if case.kind == "history":
            values = list(blob.history)
            n = env.obs_count
            roll = rng.random()
            if roll < 0.2 or not values:
                values += [rng.choice([0.0, 1.0, -1.0, 0.5])] * rng.choice([1, n - 1, n, 2 * n])
            elif roll < 0.3:
                values = values[:-1]
            else:
                i = rng.randrange(len(values))
                lo, hi = env.lower[i % n], env.upper[i % n]
                values[i] = rng.choice([math.nan, math.inf, -math.inf, *ulps(lo), *ulps(hi), F32_MAX, 0.0])
            raw = b"".join(struct.pack("<f", v) for v in values)
            return blob.pack(encode(blob.doc, {}).encode(), history=raw), None
        # shape: a field missing, an unknown one, the state or config replaced.
        roll = rng.random()
        doc = json.loads(json.dumps(blob.doc))
        if roll < 0.4:
            path = rng.choice(paths)
            del get(doc, path[:-1])[path[-1]]
        elif roll < 0.6:
            get(doc, rng.choice(paths)[:-1])["extra"] = 1
        elif roll < 0.8:
            key = rng.choice(["state", "config", "game", "formatVersion"])
            doc[key] = rng.choice([None, [], {}, "pong", "breakout", 1, 2, 0])
        else:
            c = doc["config"]
            k = rng.choice(sorted(c))
            c[k] = c[k] + 1 if isinstance(c[k], (int, float)) and not isinstance(c[k], bool) else None
        return blob.pack(encode(doc, {}).encode()), None

    def run(self, case: Case) -> None:
        env = self.env(case.env)
        blob = Blob(env.saved(case.point, case.game))
        data, field = self.make(case, env, blob)
        check_unchanged = case.k % 16 == 0
        before = env.snapshot(case.into) if check_unchanged else None
        status = env.restore(case.into, data)
        self.counts["cases"] += 1
        if status not in (0, STATUS_BAD_SNAPSHOT):
            self.findings.append(f"{case.describe()}: status {status}: {self.lib.error()}")
            return
        if status != 0:
            self.counts["refused"] += 1
            message = self.lib.error()
            if "snapshot" not in message or (field is not None and field not in message):
                self.findings.append(f"{case.describe()}: refused without naming {field!r}: {message}")
            if check_unchanged and env.snapshot(case.into) != before:
                self.findings.append(f"{case.describe()}: a refused restore changed the game")
            return
        self.counts["accepted"] += 1
        self.after_accept(case, env)

    def after_accept(self, case: Case, env: Env) -> None:
        lib = env.lib.lib
        for s in range(STEPS_AFTER):
            if env.step(case.rng) != 0:
                self.findings.append(f"{case.describe()}: step {s} after the restore failed: {self.lib.error()}")
                return
        self.counts["steps_after"] += STEPS_AFTER
        if lib.pbg_observe(env.h) != 0:
            self.findings.append(f"{case.describe()}: observe failed: {self.lib.error()}")
            return
        n = env.obs_count
        for g in range(env.games * env.seats):
            row = env.obs[g * n:(g + 1) * n]
            for i, v in enumerate(row):
                if not (env.lower[i] <= v <= env.upper[i]):
                    self.findings.append(f"{case.describe()}: observation {i} of row {g} is {v}, outside "
                                         f"{env.lower[i]} ... {env.upper[i]}")
                    return
        for seat in range(env.seats):
            for height, width in ((0, 0), (17, 33)):
                if lib.pbg_render(env.h, case.into, seat, height, width, 3, env.render_out,
                                  len(env.render_out)) != 0:
                    self.findings.append(f"{case.describe()}: render failed: {self.lib.error()}")
            needed = ctypes.c_int64(0)
            if lib.pbg_render_ansi(env.h, case.into, seat, env.render_out, len(env.render_out),
                                   ctypes.byref(needed)) != 0:
                self.findings.append(f"{case.describe()}: ansi failed: {self.lib.error()}")
        again = env.snapshot(case.into)
        if again is None or env.restore(case.into, again) != 0:
            self.findings.append(f"{case.describe()}: the state reached from an accepted one is refused: "
                                 f"{self.lib.error()}")


def main(argv: list[str]) -> int:
    library, first, count = argv[1], int(argv[2]), int(argv[3])
    fuzzer = Fuzzer(library)
    out = sys.stdout
    for k in range(first, first + count):
        out.write(f"begin {k}\n")
        out.flush()
        fuzzer.run(Case(k))
    out.write("summary " + json.dumps({**fuzzer.counts, "findings": fuzzer.findings[:50],
                                       "finding_count": len(fuzzer.findings)}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
