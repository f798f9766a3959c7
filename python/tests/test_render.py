"""Pictures through the C ABI: what they show and what memory one costs.

- A picture of a Breakout game (any size, and the text rendering) equals
  the picture of the same game restored alone, whatever the batch size and
  whether the caller binds a scores buffer (games in lanes hold their
  moving fields outside their state between calls).
- One picture of one game needs memory for that picture only, not for
  every game of the environment; memory the pixel observations need and
  cannot get is an error (status 8, PBGymMemoryError), never an abort.
  Both run in subprocesses under an address-space limit (RLIMIT_AS), so
  an allocation past it fails as it would on a machine without the memory.
"""

import subprocess
import sys

import numpy as np
import pytest

import pbgym
from pbgym import _lib
from pbgym._lib import SLOT_SCORES, lib


@pytest.mark.parametrize("games", [8, 9, 64])
@pytest.mark.parametrize("scores_bound", [True, False])
def test_breakout_picture_equals_the_game_restored_alone(games, scores_bound):
    env = pbgym.NativeEnv({"game": "breakout", "num_games": games, "seed": 17})
    if not scores_bound:
        _lib.check(lib.pbg_bind(env.handle, SLOT_SCORES, None, 0))
    rng = np.random.default_rng(games)
    moved = 0
    for step in range(1, 91):
        env.step(rng.integers(0, 4, size=(games, 1)))
        if step % 30:
            continue
        for i in range(games):
            picture = env.render(i, shape=(100, 70), channels=1)
            text = env.ansi(i)
            alone = pbgym.NativeEnv({"game": "breakout", "num_games": 1})
            alone.restore(env.snapshot(i))
            differ = int((picture != alone.render(0, shape=(100, 70), channels=1)).sum())
            assert differ == 0, f"{games} games, scores bound {scores_bound}, step {step}, game {i}: {differ} pixels"
            assert text == alone.ansi(0), f"{games} games, step {step}, game {i}"
            assert np.array_equal(env.render(i, channels=1), alone.render(0, channels=1))
            moved += int((picture[-20:] == 255).sum() > 0)
            alone.close()
    assert moved > 0


LIMITED = r"""
import resource, sys
import pbgym

def address_space():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024

def limit(extra):
    size = address_space() + extra
    resource.setrlimit(resource.RLIMIT_AS, (size, size))

mode = sys.argv[1]
MiB = 1 << 20
if mode == "one-picture":
    env = pbgym.NativeEnv({"game": "breakout", "num_games": 1024, "pixel_size": [1024, 1024]})
    for _ in range(3):
        env.step([[2]] * 1024)
    limit(192 * MiB)  # 1024 games' wall images need over 1 GiB; one picture 3 MiB
    picture = env.render(5, shape=(1024, 1024), channels=3)
    gray = env.render(1023, shape=(1024, 1024), channels=1)
    text = env.ansi(7)
    print("ok", int(picture.sum() > 0), int(gray.sum() > 0), len(text) > 0)
else:
    limit(1536 * MiB)  # the pixel buffer (1 GiB) fits, the wall images besides it (1 GiB) do not
    try:
        env = pbgym.NativeEnv({"game": "breakout", "num_games": 1024, "obs_type": "pixels",
                               "pixel_size": [1024, 1024], "autoreset": "next-step"})
        env.reset()
        print("no error")
    except MemoryError as e:
        print("MemoryError", type(e).__name__, getattr(e, "status", None), e)
    small = pbgym.NativeEnv({"game": "breakout", "num_games": 4, "obs_type": "pixels"})
    small.reset()
    small.step([[1]] * 4)
    print("small ok", int(small.pixels.sum() > 0))
"""


def run_limited(mode: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", LIMITED, mode], capture_output=True, text=True)


def test_one_picture_of_many_games_needs_memory_for_one_picture():
    """Rendering one game of 1024 at 1024 x 1024 (the observation size)
    used to build wall images for every game (over 1 GiB) and abort when
    that failed; now it draws the one picture."""
    proc = run_limited("one-picture")
    assert proc.returncode == 0, f"exit {proc.returncode}: {proc.stderr[-600:]}"
    assert proc.stdout.split() == ["ok", "1", "1", "True"], proc.stdout


def test_pixel_memory_that_cannot_be_allocated_is_an_error():
    """Binding pixel observations for 1024 games at 1024 x 1024 needs the
    wall images (1 GiB) besides the caller's buffer: past the limit that is
    status 8 with its message, a PBGymMemoryError (a MemoryError) in
    Python; the process goes on and other environments work."""
    proc = run_limited("out-of-memory")
    assert proc.returncode == 0, f"exit {proc.returncode}: {proc.stderr[-600:]}"
    first, second = proc.stdout.splitlines()
    assert first.startswith("MemoryError PBGymMemoryError 8 pbgym: bind: cannot allocate 1073794048 bytes "), first
    assert "wall images (1024 games at 1024x1024)" in first, first
    assert second == "small ok 1", second


def test_status_8_is_a_memory_error():
    with pytest.raises(MemoryError) as e:
        _lib.check(_lib.STATUS_OUT_OF_MEMORY)
    assert isinstance(e.value, pbgym.PBGymMemoryError) and isinstance(e.value, pbgym.PBGymError)
    assert e.value.status == 8
