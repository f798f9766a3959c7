"""Builds libpbgym.so from the Swift checkout and ships it inside the package.

`pip install ./python` (or `pip wheel ./python`) runs `swift build` in the
repository root (the folder above this one, or $PBGYM_SWIFT_ROOT) with the
Swift runtime and Foundation linked statically, exporting only the pbg_*
functions (libpbgym.map). $PBGYM_PREBUILT names an already built library
to ship instead. The gym-train executable is built the same way (release,
Swift runtime static) and shipped as pbgym/bin/gym-train: it runs the shards
and ES members of pbgym.distributed, so a cluster node needs only the
package ($PBGYM_PREBUILT_GYM_TRAIN names an already built one).

Both are built portable (baseline x86-64: they run on any x86-64 CPU) and,
beside them, tuned for the x86-64 levels in $PBGYM_CPU_LEVELS (e.g. "3 4";
default: this machine's own level when it is 3 or 4; "none": no tuned
build): libpbgym-x86-64-vN.so and bin/gym-train-x86-64-vN. At load time
pbgym picks the newest tuned library the running CPU executes (CPUID, through
libpbgym-cpu.so) and the portable gym-train hands over to its tuned sibling
the same way, so a wheel copied to an older node runs there. With
$PBGYM_PREBUILT alone nothing is built: the gym-train and libpbgym-cpu.so
beside that library are shipped if they are there (pbgym.distributed then
asks for $PBGYM_EXECUTABLE where gym-train is not).

Beside the package go _pbgym_registration.py and pbgym-gymnasium-ids.pth,
whose line registers the Gymnasium ids in every process once gymnasium is
imported (Gymnasium 1.x has no plugin entry points). The wheel
is tagged py3-none-<platform>: the library is loaded with ctypes, so any
CPython 3 uses it; `auditwheel repair` then copies OpenBLAS in (for the
library and the executable) and names the manylinux tag.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.bdist_wheel import bdist_wheel
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent

# Beside the package in site-packages, Python runs this line at every start:
# it registers pbgym's Gymnasium ids once gymnasium is imported, importing
# nothing else (python/_pbgym_registration.py says how).
GYMNASIUM_IDS_PTH = ("pbgym-gymnasium-ids.pth", "import _pbgym_registration; _pbgym_registration.install()\n")


def build_library(environment: dict | None = None, scratch: str = ".build-python") -> Path:
    prebuilt = os.environ.get("PBGYM_PREBUILT")
    if prebuilt:
        return Path(prebuilt)
    return swift_build("pbgym", ["-Xlinker", f"--version-script={HERE / 'libpbgym.map'}"],
                       environment, scratch) / "libpbgym.so"


def build_gym_train(environment: dict | None = None, scratch: str = ".build-python") -> Path | None:
    prebuilt = os.environ.get("PBGYM_PREBUILT_GYM_TRAIN")
    if prebuilt:
        return Path(prebuilt)
    library = os.environ.get("PBGYM_PREBUILT")
    if library:
        beside = Path(library).resolve().parent / "gym-train"
        return beside if beside.is_file() else None
    # Symbols stripped: a smaller executable that runs the same.
    return swift_build("gym-train", ["-Xlinker", "--strip-all"], environment, scratch) / "gym-train"


def build_cpu_probe() -> Path | None:
    """libpbgym-cpu.so (pbg_cpu_level(), portable C); with $PBGYM_PREBUILT, the one beside that library, if any."""
    library = os.environ.get("PBGYM_PREBUILT")
    if library:
        beside = Path(library).resolve().parent / "libpbgym-cpu.so"
        return beside if beside.is_file() else None
    return swift_build("pbgym-cpu", []) / "libpbgym-cpu.so"


def tuned_levels(probe: Path) -> list:
    """The x86-64 levels to build tuned copies for: $PBGYM_CPU_LEVELS, else this CPU's own (3 or 4)."""
    chosen = os.environ.get("PBGYM_CPU_LEVELS")
    if chosen is not None:
        words = chosen.replace(",", " ").split()
        if words == ["none"]:
            return []
        if not words or any(w not in ("3", "4") for w in words):
            raise RuntimeError(f"pbgym: PBGYM_CPU_LEVELS is {chosen!r}; allowed: levels 3 and 4 "
                               "separated by spaces or commas, or 'none'")
        return sorted({int(w) for w in words})
    level = int(ctypes.CDLL(str(probe)).pbg_cpu_level())
    return [level] if level >= 3 else []


def swift_build(product: str, extra: list, environment: dict | None = None, scratch: str = ".build-python") -> Path:
    """Builds `product` in release with the Swift runtime linked statically; returns the products' folder."""
    root = Path(os.environ.get("PBGYM_SWIFT_ROOT", HERE.parent)).resolve()
    if not (root / "Package.swift").exists():
        raise RuntimeError(f"pbgym: no Package.swift in {root}; build from the repository checkout "
                           "or set PBGYM_SWIFT_ROOT (or PBGYM_PREBUILT to a built libpbgym.so)")
    swift = os.environ.get("SWIFT", "swift")
    cmd = [swift, "build", "-c", "release", "-Xswiftc", "-static-stdlib", "--product", product,
           "--scratch-path", str(root / scratch), *extra]
    env = {**os.environ, "PBGYM_TARGET_CPU": "portable", **(environment or {})}
    print("pbgym: " + " ".join(cmd) + f" (PBGYM_TARGET_CPU={env['PBGYM_TARGET_CPU']})", flush=True)
    subprocess.check_call(cmd, cwd=root, env=env)
    return root / scratch / "release"


class BuildWithSwift(build_py):
    def run(self):
        super().run()
        # At the build folder's root, so the wheel installs it into site-packages itself.
        name, line = GYMNASIUM_IDS_PTH
        (Path(self.build_lib) / name).write_text(line, encoding="utf-8")
        target = Path(self.build_lib) / "pbgym"
        target.mkdir(parents=True, exist_ok=True)
        shutil.copy2(build_library(), target / "libpbgym.so")
        # The games' specs for help() on the env classes (pbgym/_spec.py).
        (target / "spec").mkdir(exist_ok=True)
        docs = Path(os.environ.get("PBGYM_SWIFT_ROOT", HERE.parent)).resolve() / "docs"
        for game in ("pong", "breakout"):
            shutil.copy2(docs / f"{game}.md", target / "spec" / f"{game}.md")
        (target / "bin").mkdir(exist_ok=True)
        # A build folder reused from an earlier build may hold tuned copies this build does not
        # make (PBGYM_CPU_LEVELS=none, PBGYM_PREBUILT): the loader prefers them, so none may stay.
        for stale in [*target.glob("libpbgym-x86-64-v*.so"), *(target / "bin").glob("gym-train-x86-64-v*")]:
            stale.unlink()
        gym_train = build_gym_train()
        if gym_train is not None:
            shutil.copy2(gym_train, target / "bin" / "gym-train")
        probe = build_cpu_probe()
        if probe is not None:
            shutil.copy2(probe, target / "libpbgym-cpu.so")
        if probe is not None and not os.environ.get("PBGYM_PREBUILT"):
            for level in tuned_levels(probe):
                cpu = f"x86-64-v{level}"
                tuned = {"PBGYM_TARGET_CPU": cpu}
                shutil.copy2(build_library(tuned, f".build-python-{cpu}"), target / f"libpbgym-{cpu}.so")
                tuned_gym_train = build_gym_train(tuned, f".build-python-{cpu}")
                if gym_train is not None and tuned_gym_train is not None:
                    shutil.copy2(tuned_gym_train, target / "bin" / f"gym-train-{cpu}")
        for tool in (target / "bin").iterdir():
            os.chmod(tool, 0o755)

    def get_outputs(self, include_bytecode=1):
        return [*super().get_outputs(include_bytecode), str(Path(self.build_lib) / GYMNASIUM_IDS_PTH[0])]


class PlatformWheel(bdist_wheel):
    def finalize_options(self):
        super().finalize_options()
        self.root_is_pure = False

    def get_tag(self):
        _, _, platform = super().get_tag()
        return "py3", "none", platform


class BinaryDistribution(Distribution):
    """A package holding a native library: installed to platlib."""

    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildWithSwift, "bdist_wheel": PlatformWheel}, distclass=BinaryDistribution)
