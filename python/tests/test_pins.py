"""Pins: every step of the batched games, over the whole matrix, equals the
recording, bit for bit.

The matrix: every preset of both games (the library's ``presets``) × frame
skip {1, 4, 8} × sticky-action probability {0, 0.25} × autoreset
{next-step, same-step, disabled} × num_games {1, 7, 8, 9, 64, 1024} ×
``STEPS`` steps, features, through the C ABI (``pbg_step``, the call every
Python env makes). The batch sizes put games alone, in a partial group of
lanes, in exactly one group, one over, and in many groups. Each case's
config is the preset with the matrix's ``frameSkip`` and
``stickyActionProbability`` and ``maxSteps`` = ``MAX_STEPS``, so that every
case ends episodes (by the step limit where nothing else ends one) and its
autoreset mode restarts games; Pong is two-player, both seats' observations
pinned. ``pins.json`` holds one digest per (case, num_games).

A case's digest covers, of the first observations (``pbg_observe`` after
creation with ``"seed": ENV_SEED``) and of every step: observations,
rewards, terminated, truncated, end reasons, event counters and score
columns; in same-step mode the final observations of the games that ended;
in disabled mode the observations and scores after each masked
``pbg_reset`` of the games that ended (their streams' next episodes).

Actions: one generator per case, numpy's PCG64 seeded with
``SeedSequence([ACTION_SEED, game, preset, frame skip, sticky × 100,
mode, num_games])`` (indices into ``GAMES``, the presets and ``MODES``).
It first draws each (game, seat) a noise level, uniform in [0, 1); then per
``CHUNK`` steps ``CHUNK × num_games × seats`` uniform actions and as many
uniform numbers. A seat plays the uniform action when its number is below
its noise level, else it tracks: action 2 (right) when its steering
feature is above ``TRACK_EPS``, 1 (left) when below ``-TRACK_EPS``, else 0
(Pong: 8, ball x − own paddle x; Breakout: F + 2, the focus ball's
predicted crossing − paddle x). The noise levels mix near-perfect trackers
(long rallies, top ball speeds, many bricks) with random play.

Digest: every record (the output buffers of a step, bound as one block,
or the rows a same-step or disabled restart adds) is folded to 64 bits:
its little-endian uint32 words times fixed odd 64-bit weights (PCG64
seeded ``FOLD_SEED``), summed modulo 2^64. Any change of one word changes
the fold (the weights are odd and a word's change is below 2^32), and a
change of several cancels only if the weights satisfy a linear relation
(at worst 2^-33 for sign flips, about 2^-64 otherwise). A case's digest is
BLAKE2b (128 bits) of its folds in order. The fold runs at memory speed:
the matrix took 30 s of CPU with it and 69 s with BLAKE2b over every
record's bytes instead (about 60 GB), on the 2-core machine it was
recorded on.

Record again (only after a change meant to change what the games play):
build the library three ways and record with the portable build, then
check the other two::

    for t in portable x86-64-v3 x86-64-v4; do
      PBGYM_TARGET_CPU=$t swift build -c release --product pbgym --scratch-path .build-$t
    done
    PBGYM_LIBRARY=.build-portable/release/libpbgym.so PBGYM_RECORD_PINS=1 \\
      pytest -q python/tests/test_pins.py
    for t in x86-64-v3 x86-64-v4; do
      PBGYM_LIBRARY=.build-$t/release/libpbgym.so pytest -q python/tests/test_pins.py
    done

Recording writes ``pins.json`` (a temporary file, then renamed) with the
cases that ran (``-k`` records a part, the rest of the file is kept).
Recorded at 981e521: the portable, haswell and icelake-server builds gave
the same digests (x86-64-v3 is LLVM's haswell, x86-64-v4 its
skylake-avx512: Package.swift).
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
from pathlib import Path

import numpy as np
import pytest

from pbgym._lib import (SLOT_ACTIONS, SLOT_ENDS, SLOT_EVENTS, SLOT_FINAL_OBS, SLOT_OBS, SLOT_REWARDS,
                        SLOT_SCORES, SLOT_TERMINATED, SLOT_TRUNCATED, _step_fn, _text, check, lib)
from conftest import presets

PINS = Path(__file__).with_name("pins.json")
RECORD = bool(os.environ.get("PBGYM_RECORD_PINS"))

GAMES = ("pong", "breakout")
PRESETS = {"pong": ("classic", "touch", "fast", "ale"), "breakout": ("classic", "atari", "ale")}
FRAME_SKIPS = (1, 4, 8)
STICKY = (0.0, 0.25)
MODES = ("next-step", "same-step", "disabled")
BATCHES = (1, 7, 8, 9, 64, 1024)
STEPS = 2000
# Agent steps before truncation: well inside STEPS, so every case restarts games.
MAX_STEPS = 600
ENV_SEED = 31
ACTION_SEED = 31
FOLD_SEED = 2031
CHUNK = 100
TRACK_EPS = 0.02
# Fold weights: enough for the largest record (1024 Breakout `atari` games).
FOLD_WORDS = 1 << 18
WEIGHTS = np.random.Generator(np.random.PCG64(FOLD_SEED)).integers(
    0, 1 << 64, size=FOLD_WORDS, dtype=np.uint64, endpoint=False) | np.uint64(1)
# searchsorted's bin (below -eps, between, above eps) → action (left, stay, right).
TRACK_EDGES = np.array([-TRACK_EPS, TRACK_EPS], dtype=np.float32)
TRACK_ACTIONS = np.array([1, 0, 2], dtype=np.int64)

CASES = [(g, p, f, s, m) for g in GAMES for p in PRESETS[g] for f in FRAME_SKIPS for s in STICKY for m in MODES]


def case_key(game: str, preset: str, frame_skip: int, sticky: float, mode: str) -> str:
    return f"{game}/{preset}/fs{frame_skip}/sticky{sticky:g}/{mode}"


def folder(words: np.ndarray):
    """A call that returns the fold of ``words`` (uint32) as they are then:
    the words times the weights, summed modulo 2^64 (``dot`` or ``einsum``,
    both exact; ``dot`` costs less per call, ``einsum`` less per word)."""
    weights = WEIGHTS[: words.size]
    if words.size < 1 << 14:
        return lambda: words.dot(weights)
    return lambda: np.einsum("i,i->", words, weights)


def fold(words: np.ndarray) -> int:
    return int(folder(words)())


def rows(array: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The rows of ``array`` where ``mask`` holds, as uint32 words."""
    return np.ascontiguousarray(array[mask]).view(np.uint32).reshape(-1)


def play(game: str, preset: str, frame_skip: int, sticky: float, mode: str, n: int) -> tuple[str, int]:
    """The case's digest and the number of end flags (terminated or truncated) set."""
    config = {"game": game, "num_games": n, "autoreset": mode, "seed": ENV_SEED,
              "config": {"preset": preset, "frameSkip": frame_skip, "stickyActionProbability": sticky,
                         "maxSteps": MAX_STEPS}}
    if game == "pong":
        config["players"] = 2
    h = ctypes.c_uint64(0)
    check(lib.pbg_create(json.dumps(config).encode(), ctypes.byref(h)))
    try:
        info = json.loads(_text(lib.pbg_info, h.value))
        seats, k, e = info["seats"], info["obs_count"], len(info["event_names"])
        # One block for every output buffer, so one fold covers a step:
        # rewards | observations | scores | events | terminated | truncated | ends.
        sizes = [n * seats * 8, n * seats * k * 4, n * 8, n * e * 4, n, n, n]
        offsets = np.concatenate([[0], np.cumsum(sizes)])
        block = np.zeros((int(offsets[-1]) + 3) // 4, dtype=np.uint32)
        assert block.size <= FOLD_WORDS
        raw = block.view(np.uint8)
        part = [raw[offsets[i]: offsets[i + 1]] for i in range(len(sizes))]
        obs = part[1].view(np.float32).reshape(n, seats, k)
        scores = part[2].view(np.int32).reshape(n, 2)
        terminated, truncated = part[4].view(np.bool_), part[5].view(np.bool_)
        flags = raw[offsets[4]: offsets[6]]  # terminated and truncated, side by side
        actions = np.zeros((n, seats), dtype=np.int64)
        final = np.zeros((n, seats, k), dtype=np.float32) if mode == "same-step" else None
        for slot, arr in ((SLOT_ACTIONS, actions), (SLOT_REWARDS, part[0]), (SLOT_OBS, part[1]),
                          (SLOT_SCORES, part[2]), (SLOT_EVENTS, part[3]), (SLOT_TERMINATED, part[4]),
                          (SLOT_TRUNCATED, part[5]), (SLOT_ENDS, part[6]), (SLOT_FINAL_OBS, final)):
            if arr is not None:
                check(lib.pbg_bind(h.value, slot, arr.ctypes.data, arr.nbytes))

        rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(
            [ACTION_SEED, GAMES.index(game), PRESETS[game].index(preset), frame_skip, round(sticky * 100),
             MODES.index(mode), n])))
        noise = rng.random((n, seats))
        steer = obs[:, :, 8 if game == "pong" else k - 5]
        done = np.zeros(n, dtype=np.bool_)
        done_at = done.ctypes.data
        folds = np.zeros(3 * STEPS + 1, dtype=np.uint64)
        fold_block = folder(block)
        handle, no_bytes = ctypes.c_uint64(h.value), ctypes.c_int64(0)
        same_step, disabled = mode == "same-step", mode == "disabled"
        edges_at, track_take, copyto, nonzero = TRACK_EDGES.searchsorted, TRACK_ACTIONS.take, np.copyto, np.count_nonzero
        ends = 0

        check(lib.pbg_observe(h.value))
        folds[0] = fold_block()
        j = 1
        for t in range(STEPS):
            c = t % CHUNK
            if c == 0:
                uniform = rng.integers(0, info["action_count"], size=(CHUNK, n, seats), dtype=np.int64)
                noisy = rng.random((CHUNK, n, seats)) < noise
            track_take(edges_at(steer), out=actions)
            copyto(actions, uniform[c], where=noisy[c])
            status = _step_fn(handle, None, no_bytes)
            if status:
                check(status)
            folds[j] = fold_block()
            j += 1
            ended = nonzero(flags)
            if ended:
                ends += ended
                if same_step:
                    np.logical_or(terminated, truncated, out=done)
                    folds[j] = fold(rows(final, done))
                    j += 1
                elif disabled:
                    np.logical_or(terminated, truncated, out=done)
                    check(lib.pbg_reset(h.value, done_at, None, n))
                    folds[j] = fold(rows(obs, done))
                    folds[j + 1] = fold(rows(scores, done))
                    j += 2
        return hashlib.blake2b(folds[:j].tobytes(), digest_size=16).hexdigest(), ends
    finally:
        check(lib.pbg_destroy(h.value))


def load_pins() -> dict:
    if not PINS.exists():
        return {"steps": STEPS, "digests": {}}
    return json.loads(PINS.read_text())


RECORDED: dict[str, dict[str, str]] = {}


@pytest.fixture(scope="module", autouse=True)
def write_recording():
    yield
    if RECORD and RECORDED:
        pins = load_pins()
        pins["steps"] = STEPS
        pins["digests"].update(RECORDED)
        pins["digests"] = dict(sorted(pins["digests"].items(), key=lambda kv: CASES_ORDER.get(kv[0], 1 << 30)))
        tmp = PINS.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(pins, indent=1) + "\n")
        os.replace(tmp, PINS)


CASES_ORDER = {case_key(*c): i for i, c in enumerate(CASES)}


@pytest.mark.parametrize("game,preset,frame_skip,sticky,mode", CASES, ids=[case_key(*c) for c in CASES])
def test_matrix_plays_the_pinned_games(game, preset, frame_skip, sticky, mode):
    key = case_key(game, preset, frame_skip, sticky, mode)
    got = {}
    for n in BATCHES:
        digest, ends = play(game, preset, frame_skip, sticky, mode, n)
        # An episode lasts at most MAX_STEPS steps (next-step: one more
        # for the restart), so every game ends at least this many.
        assert ends >= STEPS // (MAX_STEPS + 1) * n, f"{key} num_games={n}: only {ends} episodes ended"
        got[str(n)] = digest
    if RECORD:
        RECORDED[key] = got
        return
    pinned = load_pins()
    assert pinned["steps"] == STEPS, f"pins.json was recorded with {pinned['steps']} steps, this test plays {STEPS}"
    want = pinned["digests"].get(key)
    assert want is not None, f"{key}: no pin recorded (see the module docstring to record)"
    wrong = [n for n in got if got[n] != want.get(n)]
    assert not wrong, f"{key}: num_games {', '.join(wrong)} play other games than pinned: got {got}, pinned {want}"


@pytest.mark.parametrize("game", GAMES)
def test_matrix_has_every_preset(game):
    assert list(PRESETS[game]) == presets(game), f"{game}: a preset the pins do not cover (record it)"


def test_pins_file_holds_the_matrix():
    """Every case and batch size has a pin, and no pin is left of a case the matrix lost."""
    if RECORD:
        pytest.skip("recording")
    pinned = load_pins()["digests"]
    assert set(pinned) == set(CASES_ORDER), f"cases without pins: {sorted(set(CASES_ORDER) - set(pinned))}; " \
                                            f"pins without cases: {sorted(set(pinned) - set(CASES_ORDER))}"
    for key, digests in pinned.items():
        assert sorted(digests, key=int) == [str(n) for n in BATCHES], key


def test_fold_sees_every_one_word_change_and_sign_flips():
    """The fold's promise: one changed word (any bit, the sign bit too) or a
    pair of sign flips changes it (a fold of 64-bit words would miss two
    flipped top bits)."""
    rng = np.random.Generator(np.random.PCG64(5))
    for size in (60, 1 << 15):  # both of ``fold``'s paths
        words = rng.integers(0, 1 << 32, size=size, dtype=np.uint32)
        base = fold(words)
        for j in rng.choice(size, 32, replace=False):
            for bit in (0, 1, 30, 31):
                changed = words.copy()
                changed[j] ^= np.uint32(1 << bit)
                assert fold(changed) != base, (size, j, bit)
        for j, i in rng.choice(size, (30, 2), replace=False):
            changed = words.copy()
            changed[[j, i]] ^= np.uint32(1 << 31)
            assert fold(changed) != base, (size, j, i)
