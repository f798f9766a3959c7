"""Every bad input to the library is a Python exception naming the problem (never a crash)."""

import ctypes
import json

import numpy as np
import pytest

import pbgym
from pbgym import _lib
from pbgym._lib import PBGymError, lib

# Each case in a process of its own (conftest.py): a trap fails its case.
pytestmark = pytest.mark.isolated


def create_error(config) -> str:
    text = config if isinstance(config, (str, bytes)) else json.dumps(config)
    with pytest.raises(PBGymError) as e:
        pbgym.NativeEnv.__new__(pbgym.NativeEnv)  # no handle yet
        h = ctypes.c_uint64(0)
        _lib.check(lib.pbg_create(text if isinstance(text, bytes) else text.encode(), ctypes.byref(h)))
    return str(e.value)


def fails_with(status: int, match: str) -> None:
    """A C call's status is an error that pbgym raises as PBGymError, its message matching `match`."""
    with pytest.raises(PBGymError, match=match):
        _lib.check(status)


@pytest.mark.parametrize("config,words", [
    ("not json", ["malformed JSON"]),
    ("[1, 2]", ["object"]),
    ("{}", ["game"]),
    ({"game": "tetris"}, ["game", "tetris", "pong"]),
    ({"game": "pong", "colour": 1}, ["unknown key", "colour"]),
    ({"game": "pong", "num_games": 0}, ["num_games", "0"]),
    ({"game": "pong", "num_games": 2.5}, ["num_games"]),
    ({"game": "pong", "num_games": "4"}, ["num_games"]),
    ({"game": "pong", "num_games": 10**12}, ["num_games"]),
    ({"game": "pong", "obs_type": "rgb"}, ["obs_type", "rgb"]),
    ({"game": "pong", "pixel_size": [84]}, ["pixel_size"]),
    ({"game": "pong", "pixel_size": [0, 84]}, ["pixel_size"]),
    ({"game": "pong", "pixel_size": [84, 5000]}, ["pixel_size"]),
    ({"game": "pong", "autoreset": "sometimes"}, ["autoreset", "next-step"]),
    ({"game": "pong", "seed": -1}, ["seed"]),
    ({"game": "pong", "seed": 1.5}, ["seed"]),
    ({"game": "pong", "seed": 2**64}, ["seed"]),
    ({"game": "pong", "players": 3}, ["players"]),
    ({"game": "breakout", "players": 2}, ["players"]),
    ({"game": "breakout", "opponent": "tracker"}, ["opponent", "Pong"]),
    ({"game": "pong", "opponent": "wizard"}, ["wizard", "tracker"]),
    ({"game": "pong", "opponent": "tracker:reaction=99"}, ["reaction", "99"]),
    ({"game": "pong", "opponent": "linear:/no/such/file.json"}, ["/no/such/file.json"]),
    ({"game": "pong", "config": {"preset": "nope"}}, ["nope", "classic"]),
    ({"game": "pong", "config": {"maxScore": 0}}, ["maxScore"]),
    ({"game": "pong", "config": {"maxScore": "eleven"}}, ["maxScore"]),
    ({"game": "breakout", "config": {"lives": 10**9}}, ["lives"]),
    ({"game": "pong", "config": []}, ["config"]),
    ({"game": "pong", "agent_side": "left"}, ["agent_side", "left"]),
    ({"game": "pong", "opponent_history": "yes"}, ["opponent_history"]),
    ({"game": "pong", "action_dtype": "int16"}, ['action_dtype="int16" is invalid', '"int64"', '"int32"']),
    ({"game": "pong", "action_dtype": 32}, ["action_dtype=32 is invalid", '"int32"']),
    ({"game": "breakout", "reward_dtype": "float16"}, ['reward_dtype="float16" is invalid', '"float64"', '"float32"']),
    ({"game": "breakout", "reward_dtype": "Float32"}, ['reward_dtype="Float32" is invalid']),
])
def test_bad_configs(config, words):
    message = create_error(config)
    for w in words:
        assert w in message, f"{w!r} not in {message!r}"


def test_random_config_texts():
    rng = np.random.default_rng(3)
    for _ in range(300):
        raw = bytes(rng.integers(0, 256, size=int(rng.integers(0, 60)), dtype=np.uint8).tolist()).replace(b"\0", b" ")
        h = ctypes.c_uint64(0)
        assert lib.pbg_create(raw, ctypes.byref(h)) != 0
        assert _lib.last_error()


def test_null_pointers():
    h = ctypes.c_uint64(0)
    assert lib.pbg_create(None, ctypes.byref(h)) == 1
    assert "null" in _lib.last_error()
    assert lib.pbg_create(b'{"game":"pong"}', None) == 1
    assert "null" in _lib.last_error()


def test_stale_and_made_up_handles():
    env = pbgym.NativeEnv({"game": "pong"})
    h = env.handle
    env.close()
    env.close()  # twice is fine
    for handle in (h, 0, 2**64 - 1, 123456789):
        for call in (lambda: lib.pbg_step(handle, None, 0), lambda: lib.pbg_observe(handle), lambda: lib.pbg_destroy(handle),
                     lambda: lib.pbg_reset(handle, None, None, 0),
                     lambda: lib.pbg_bind(handle, 0, None, 0),
                     lambda: lib.pbg_info(handle, None, 0, None),
                     lambda: lib.pbg_render(handle, 0, 0, 0, 0, 3, None, 0)):
            assert call() == 2
            assert f"handle {handle}" in _lib.last_error()
    with pytest.raises(PBGymError, match="closed"):
        env.step()


def test_status_codes_and_slots_come_from_the_library():
    info = json.loads(_lib._text(lib.pbg_library_info))
    assert info["abi_version"] == lib.pbg_abi_version() == _lib.ABI_VERSION
    assert info["status_names"][0] == "ok"
    assert _lib.STATUS_NAMES[lib.pbg_observe(123456789)] == "bad handle"
    needed = ctypes.c_int64(0)
    assert _lib.STATUS_NAMES[lib.pbg_library_info(None, 0, ctypes.byref(needed))] == "buffer too small"
    assert needed.value == len(json.dumps(info, separators=(",", ":")).encode()) + 1
    env = pbgym.NativeEnv({"game": "pong"})
    assert env.info["slot_names"] == info["slot_names"]
    names = env.info["slot_names"]
    assert (names[_lib.SLOT_OBS], names[_lib.SLOT_FINAL_OBS], names[_lib.SLOT_FINAL_PIXELS]) == (
        "observations", "finalObservations", "finalPixels")
    env.close()


def test_actions_out_of_range_in_the_buffer():
    env = pbgym.NativeEnv({"game": "pong", "num_games": 4})
    for bad in (-1, 3, 2**31 - 1, -(2**31), 2**32, 2**63 - 1, -(2**63)):
        env.actions[:] = 0
        env.actions[2, 0] = bad
        with pytest.raises(PBGymError, match=f"action {bad} of game 2 is outside 0 ..< 3"):
            env.step()
    with pytest.raises(ValueError, match="outside"):
        env.step([0, 0, 7, 0])
    with pytest.raises(ValueError, match="actions"):
        env.step([0, 0])
    two = pbgym.NativeEnv({"game": "pong", "players": 2})
    two.actions[0, 1] = 9
    with pytest.raises(PBGymError, match="game 0 seat 1"):
        two.step()


def test_binding():
    env = pbgym.NativeEnv({"game": "breakout", "num_games": 2})
    small = np.zeros(1, dtype=np.float32)
    fails_with(lib.pbg_bind(env.handle, 3, small.ctypes.data, small.nbytes), "rewards holds 4 bytes, needs 16")
    fails_with(lib.pbg_bind(env.handle, 42, small.ctypes.data, 4), "slot 42")
    fails_with(lib.pbg_bind(env.handle, -1, small.ctypes.data, 4), "slot -1")
    raw = np.zeros(64, dtype=np.uint8)
    fails_with(lib.pbg_bind(env.handle, 3, raw.ctypes.data + 1, 32), "aligned")
    _lib.check(lib.pbg_bind(env.handle, 0, None, 0))  # unbind the actions
    with pytest.raises(PBGymError, match="no actions buffer"):
        env.step()


def test_reset_arguments():
    env = pbgym.NativeEnv({"game": "pong", "num_games": 3})
    mask = np.ones(2, dtype=np.uint8)
    fails_with(lib.pbg_reset(env.handle, mask.ctypes.data, None, 2), "2 entries, the environment has 3 games")
    with pytest.raises(ValueError, match="seeds"):
        env.reset(seeds=[1, 2])
    with pytest.raises(ValueError, match=">= 0"):
        env.reset(seeds=[1, -2, 3])
    with pytest.raises(TypeError, match="int"):
        env.reset(seeds=[1, "2", 3])


def test_snapshot_and_render_arguments():
    env = pbgym.NativeEnv({"game": "breakout", "num_games": 2})
    for game in (-1, 2, 2**40):
        with pytest.raises(PBGymError, match=f"game {game} is outside 0 ..< 2"):
            env.snapshot(game)
        with pytest.raises(PBGymError, match=f"game {game} is outside"):
            env.restore(env.snapshot(0), game)
        with pytest.raises(PBGymError, match=f"game {game} is outside"):
            env.render(game)
    needed = ctypes.c_int64(0)
    assert lib.pbg_snapshot(env.handle, 0, None, 0, ctypes.byref(needed)) == 3
    assert needed.value > 0 and "needs" in _lib.last_error()
    with pytest.raises(PBGymError, match="channels=2"):
        env.render(0, channels=2)
    with pytest.raises(PBGymError, match="seat 1 is outside 0 ..< 1"):
        env.render(0, seat=1)
    with pytest.raises(PBGymError, match="size"):
        env.render(0, shape=(0, 5))
    buf = np.zeros(10, dtype=np.uint8)
    fails_with(lib.pbg_render(env.handle, 0, 0, 84, 84, 3, buf.ctypes.data, buf.nbytes), "needs 21168 bytes")
    assert env.ansi(1).startswith("breakout")


def fnv(data: bytes) -> int:
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) % (1 << 64)
    return h


def test_bad_snapshots():
    pong = pbgym.NativeEnv({"game": "pong", "num_games": 1})
    breakout = pbgym.NativeEnv({"game": "breakout"})
    other_rules = pbgym.NativeEnv({"game": "pong", "config": {"maxScore": 5}})
    for _ in range(30):
        pong.step([1])
    blob = pong.snapshot(0)
    pong.restore(blob)  # the real one restores
    with pytest.raises(PBGymError, match="too short"):
        pong.restore(b"")
    for cut in list(range(1, len(blob), max(1, len(blob) // 40))) + [len(blob) - 1]:
        with pytest.raises(PBGymError, match="snapshot"):
            pong.restore(blob[:cut])
    with pytest.raises(PBGymError, match="padded"):
        pong.restore(blob + b"\0")
    with pytest.raises(PBGymError, match="magic"):
        pong.restore(b"XXXX" + blob[4:])
    rng = np.random.default_rng(1)
    for _ in range(200):
        b = bytearray(blob)
        k = int(rng.integers(0, len(b)))
        b[k] ^= int(rng.integers(1, 256))
        with pytest.raises(PBGymError, match="snapshot"):
            pong.restore(bytes(b))
    with pytest.raises(PBGymError, match="Breakout"):
        pong.restore(breakout.snapshot(0))
    with pytest.raises(PBGymError, match="config"):
        other_rules.restore(blob)
    with pytest.raises(TypeError):
        pong.restore("text")
    # A forged game state with a valid checksum: out-of-range values are refused.
    header = 4 + 4 + 1 + 1 + 8 + 8 + 8 + 4 + 4
    json_len = int.from_bytes(blob[header - 8:header - 4], "little")
    doc = json.loads(blob[header:header + json_len])
    for key, value in (("ballX", 1e30), ("scoreTop", 99), ("steps", -5)):
        forged = json.loads(json.dumps(doc))
        forged["state"][key] = value
        text = json.dumps(forged).encode()
        body = blob[:header - 8] + len(text).to_bytes(4, "little") + blob[header - 4:header] + text + \
            blob[header + json_len:-8]
        with pytest.raises(PBGymError, match="snapshot"):
            pong.restore(body + fnv(body).to_bytes(8, "little"))
    # After every refusal the environment still steps.
    pong.step([0])


def test_wide_actions_never_wrap_into_range():
    env = pbgym.NativeEnv({"game": "pong", "num_games": 2, "opponent_history": True})
    for bad in (2**32 + 1, -1, -(2**32) + 2, 2**63 - 1, -(2**63), 2**31, 3):
        # int64 arrays go to the library unchecked: its error names the game.
        with pytest.raises(PBGymError, match=f"action {bad} of game 1 is outside 0 ..< 3"):
            env.step(np.array([0, bad], dtype=np.int64))
    for dtype, bad in ((np.uint64, 2**32 + 1), (np.uint64, 2**63), (np.uint64, 2**64 - 1), (np.float64, 1e30),
                       (np.float64, -1.0), (np.int32, -1), (np.uint8, 3), (object, 2**70), (object, -1)):
        with pytest.raises(ValueError, match="outside"):
            env.step(np.array([0, bad], dtype=dtype))
    for bad in (np.array([0, 1.5]), np.array([0, np.nan]), np.array([0, np.inf]), np.array([0, "a"], dtype=object),
                np.array([0, 1 + 2j])):
        with pytest.raises(ValueError, match="integers"):
            env.step(bad)
    with pytest.raises(ValueError, match="3 actions given"):
        env.step(np.zeros(3, dtype=np.int64))
    # A refused step steps nothing; the right actions in any integer type step alike.
    before = env.snapshot(1)
    with pytest.raises(PBGymError):
        env.step(np.array([0, 7], dtype=np.int64))
    assert env.snapshot(1) == before
    for a in ([1, 2], (1, 2), np.array([1, 2], dtype=np.uint8), np.array([[1], [2]], dtype=np.int64),
              np.array([1.0, 2.0]), np.array([True, False]), np.array([1, 2], dtype=object)):
        env.step(a)


def test_bench_entry_bad_arguments():
    env = pbgym.NativeEnv({"game": "breakout", "num_games": 2})
    with pytest.raises(PBGymError, match="steps -1"):
        env.bench(-1, np.zeros((1, 2), dtype=np.int64))
    _lib.check(0)
    assert lib.pbg_bench(env.handle, 1, None, 1) == 1
    assert "action set" in _lib.last_error()
    assert lib.pbg_bench(env.handle + 1000, 1, None, 1) == 2
    with pytest.raises(PBGymError, match="outside"):
        env.bench(1, np.full((1, 2), 9, dtype=np.int64))


def test_step_into_bad_tables_bind_and_step_nothing():
    """pbg_step_into checks every entry of its table (slot, non-null address,
    size, alignment, never the action buffer) and its length before it
    binds any; a bad table or bad actions bind and step nothing."""
    env = pbgym.NativeEnv({"game": "breakout", "num_games": 2})
    env.reset(seeds=[1, 2])
    before = env.snapshot(0), env.snapshot(1)
    rewards = np.full((2, 1), 7.0)
    flags = np.full(2, True)
    small = np.zeros(1)
    raw = np.zeros(64, dtype=np.uint8)

    def table(*entries):
        flat = [v for e in entries for v in e]
        return (ctypes.c_int64 * max(1, len(flat)))(*flat)

    good = (_lib.SLOT_REWARDS, rewards.ctypes.data, rewards.nbytes)
    for entries, n, words in [
        ((good, (42, flags.ctypes.data, 2)), 2, "slot 42"),
        ((good, (_lib.SLOT_TERMINATED, 0, 2)), 2, "non-null address"),
        ((good, (_lib.SLOT_ACTIONS, rewards.ctypes.data, rewards.nbytes)), 2, "actions buffer"),
        ((good, (_lib.SLOT_TRUNCATED, flags.ctypes.data, 1)), 2, "holds 1 bytes, needs 2"),
        (((_lib.SLOT_REWARDS, small.ctypes.data, small.nbytes),), 1, "holds 8 bytes, needs 16"),
        (((_lib.SLOT_REWARDS, raw.ctypes.data + 4, 32),), 1, "aligned"),
        ((good,), -1, "-1 buffers"),
        ((good,), 99, "99 buffers"),
    ]:
        fails_with(lib["pbg_step_into"](ctypes.c_uint64(env.handle), table(*entries), ctypes.c_int64(n)), words)
    fails_with(lib["pbg_step_into"](ctypes.c_uint64(env.handle), None, ctypes.c_int64(1)), "non-null")
    env.actions[:] = 9
    fails_with(lib["pbg_step_into"](ctypes.c_uint64(env.handle), table(good), ctypes.c_int64(1)), "outside")
    assert (env.snapshot(0), env.snapshot(1)) == before, "a failed call must step nothing"
    assert (rewards == 7.0).all(), "a failed call must bind nothing"
    env.actions[:] = 0
    env.step()
    assert (rewards == 7.0).all() and env.rewards is not rewards
    _lib.check(lib["pbg_step_into"](ctypes.c_uint64(env.handle), table(good), ctypes.c_int64(1)))
    assert (rewards != 7.0).all(), "a good table binds its buffers before the step writes them"
