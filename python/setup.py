"""Builds libpbgym.so from the Swift checkout and ships it inside the package.

`pip install ./python` (or `pip wheel ./python`) runs `swift build` in the
repository root (the folder above this one, or $PBGYM_SWIFT_ROOT) with the
Swift runtime and Foundation linked statically, exporting only the pbg_*
functions (libpbgym.map). $PBGYM_PREBUILT names an already built library
to ship instead. The gym-train executable is built the same way (release,
Swift runtime static) and shipped as pbgym/bin/gym-train: it runs the shards
and ES members of pbgym.distributed, so a cluster node needs only the
package ($PBGYM_PREBUILT_GYM_TRAIN names an already built one). With
$PBGYM_PREBUILT alone nothing is built: the gym-train beside that library
is shipped if there is one, else none (pbgym.distributed then asks for
$PBGYM_EXECUTABLE). The wheel
is tagged py3-none-<platform>: the library is loaded with ctypes, so any
CPython 3 uses it; `auditwheel repair` then copies OpenBLAS in (for the
library and the executable) and names the manylinux tag.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.bdist_wheel import bdist_wheel
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


def build_library() -> Path:
    prebuilt = os.environ.get("PBGYM_PREBUILT")
    if prebuilt:
        return Path(prebuilt)
    return swift_build("pbgym", ["-Xlinker", f"--version-script={HERE / 'libpbgym.map'}"]) / "libpbgym.so"


def build_gym_train() -> Path | None:
    prebuilt = os.environ.get("PBGYM_PREBUILT_GYM_TRAIN")
    if prebuilt:
        return Path(prebuilt)
    library = os.environ.get("PBGYM_PREBUILT")
    if library:
        beside = Path(library).resolve().parent / "gym-train"
        return beside if beside.is_file() else None
    # Symbols stripped: a smaller executable that runs the same.
    return swift_build("gym-train", ["-Xlinker", "--strip-all"]) / "gym-train"


def swift_build(product: str, extra: list) -> Path:
    """Builds `product` in release with the Swift runtime linked statically; returns the products' folder."""
    root = Path(os.environ.get("PBGYM_SWIFT_ROOT", HERE.parent)).resolve()
    if not (root / "Package.swift").exists():
        raise RuntimeError(f"pbgym: no Package.swift in {root}; build from the repository checkout "
                           "or set PBGYM_SWIFT_ROOT (or PBGYM_PREBUILT to a built libpbgym.so)")
    swift = os.environ.get("SWIFT", "swift")
    scratch = root / ".build-python"
    cmd = [swift, "build", "-c", "release", "-Xswiftc", "-static-stdlib", "--product", product,
           "--scratch-path", str(scratch), *extra]
    print("pbgym: " + " ".join(cmd), flush=True)
    subprocess.check_call(cmd, cwd=root)
    return scratch / "release"


class BuildWithSwift(build_py):
    def run(self):
        super().run()
        target = Path(self.build_lib) / "pbgym"
        target.mkdir(parents=True, exist_ok=True)
        shutil.copy2(build_library(), target / "libpbgym.so")
        # The games' specs for help() on the env classes (pbgym/_spec.py).
        (target / "spec").mkdir(exist_ok=True)
        docs = Path(os.environ.get("PBGYM_SWIFT_ROOT", HERE.parent)).resolve() / "docs"
        for game in ("pong", "breakout"):
            shutil.copy2(docs / f"{game}.md", target / "spec" / f"{game}.md")
        gym_train = build_gym_train()
        if gym_train is not None:
            (target / "bin").mkdir(exist_ok=True)
            shutil.copy2(gym_train, target / "bin" / "gym-train")
            os.chmod(target / "bin" / "gym-train", 0o755)


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
