"""The installed package runs on any x86-64 CPU and still runs tuned here.

`pip install` builds a portable libpbgym.so and gym-train (the toolchain's
baseline x86-64) and, beside them, copies tuned for this machine's x86-64
level (python/setup.py); pbgym and the portable gym-train pick the newest
tuned copy the running CPU executes, as CPUID reports it. Here the portable
path runs under Debian's qemu-user on emulated CPUs without AVX (`make test`
installs it): the golden games on a Nehalem, gym-train's evaluations on a
baseline x86-64 (`qemu64`), each equal to this machine's tuned run.

The emulated children run without OPENBLAS_CORETYPE: where the machine's
environment forces a kernel family (e.g. Haswell), an emulated CPU without
AVX could not run it; OpenBLAS then detects the emulated CPU itself.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import pbgym
from pbgym import _lib

from test_golden import CASES, GOLDEN

QEMU = shutil.which("qemu-x86_64")
PACKAGE = Path(pbgym.__file__).resolve().parent
GYM_TRAIN = PACKAGE / "bin" / "gym-train"

pytestmark = [
    pytest.mark.skipif(os.uname().machine != "x86_64", reason="the tuned builds are x86-64 levels"),
    pytest.mark.skipif(os.environ.get("PBGYM_LIBRARY") is not None, reason="PBGYM_LIBRARY overrides the choice"),
]


def emulated_env() -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENBLAS_")}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parent)
    return env


def qemu(cpu: str, *command, timeout: int = 900) -> subprocess.CompletedProcess:
    assert QEMU, "qemu-x86_64 is missing: `make test` installs qemu-user (apt-get install qemu-user)"
    return subprocess.run([QEMU, "-cpu", cpu, *map(str, command)], capture_output=True, text=True,
                          env=emulated_env(), timeout=timeout)


def test_this_machine_loads_the_build_tuned_for_its_level():
    level = _lib.cpu_level()
    assert level >= 1, "libpbgym-cpu.so is missing from the package or reports no x86-64 level"
    tuned = sorted(p.name for p in PACKAGE.glob("libpbgym-x86-64-v*.so"))
    if level < 3:
        assert Path(_lib.LIBRARY_PATH).name == "libpbgym.so"
        return
    assert tuned, "no tuned library was installed for this x86-64-v3+ machine"
    best = max(int(name.removeprefix("libpbgym-x86-64-v").removesuffix(".so")) for name in tuned
               if int(name.removeprefix("libpbgym-x86-64-v").removesuffix(".so")) <= level)
    assert Path(_lib.LIBRARY_PATH).name == f"libpbgym-x86-64-v{best}.so"
    info = subprocess.run([GYM_TRAIN, "build-info"], capture_output=True, text=True, check=True).stdout
    assert f"cpu level: x86-64-v{level}" in info and "build: tuned" in info, info


GOLDEN_SCRIPT = """
import json, pbgym
from pbgym import _lib
from test_golden import CASES, rollout_digest
print(json.dumps({"library": _lib.LIBRARY_PATH, "level": _lib.cpu_level(),
                  "digests": {case: rollout_digest(*CASES[case]) for case in CASES}}))
"""


def test_portable_library_plays_the_golden_games_on_a_cpu_without_avx():
    result = qemu("Nehalem", sys.executable, "-c", GOLDEN_SCRIPT)
    assert result.returncode == 0, result.stderr[-3000:]
    got = json.loads(result.stdout.strip().splitlines()[-1])
    assert got["level"] == 2, got
    assert Path(got["library"]).name == "libpbgym.so", got["library"]
    assert got["digests"] == {case: GOLDEN[case] for case in CASES}


@pytest.mark.parametrize("game,agents", [
    ("pong", ["--agent", "tracker:noise=0.5", "--opponent", "random"]),
    ("breakout", ["--agent", "tracker", "--preset", "atari"]),
])
def test_portable_gym_train_plays_the_same_games_on_a_baseline_cpu(tmp_path, game, agents):
    info = qemu("qemu64", GYM_TRAIN, "build-info")
    assert info.returncode == 0, info.stderr[-3000:]
    assert "cpu level: x86-64-v1" in info.stdout and "build: portable" in info.stdout, info.stdout
    args = ["eval", "--game", game, *agents, "--episodes", "6", "--workers", "2"]
    native = subprocess.run([GYM_TRAIN, *args, "--out", tmp_path / "native"], capture_output=True, text=True)
    assert native.returncode == 0, native.stderr
    emulated = qemu("qemu64", GYM_TRAIN, *args, "--out", tmp_path / "emulated")
    assert emulated.returncode == 0, emulated.stderr[-3000:]
    for name in ("episodes.csv", "summary.json"):
        assert (tmp_path / "native" / name).read_bytes() == (tmp_path / "emulated" / name).read_bytes(), name
