"""pbgym: deterministic Pong and Breakout for Gymnasium and PettingZoo.

``import pbgym`` registers ``pbgym/Pong-v0`` and ``pbgym/Breakout-v0``
(single env and native vector env); the ids ``"pbgym:pbgym/Pong-v0"`` and
``"pbgym:pbgym/Breakout-v0"`` import it themselves, so they work in any
process (a remote worker's too). The games run in a Swift library
(libpbgym.so, loaded through ctypes); see the README's Python section.
"""

from __future__ import annotations

from importlib import metadata

import gymnasium as gym

from ._lib import ABI_VERSION, NativeEnv, PBGymError, PBGymMemoryError
from .env import BreakoutEnv, PBGymEnv, PongEnv
from .vector import BreakoutVectorEnv, PBGymVectorEnv, PongVectorEnv

try:
    __version__ = metadata.version("pbgym")
except metadata.PackageNotFoundError:  # imported from a source tree, not installed
    __version__ = "0+unknown"

__all__ = ["__version__", "ABI_VERSION", "NativeEnv", "PBGymError", "PBGymMemoryError", "PBGymEnv", "PongEnv", "BreakoutEnv",
           "PBGymVectorEnv", "PongVectorEnv", "BreakoutVectorEnv", "ENV_IDS"]

ENV_IDS = ("pbgym/Pong-v0", "pbgym/Breakout-v0")


def _register() -> None:
    for env_id, single, vector in (
        ("pbgym/Pong-v0", "pbgym.env:PongEnv", "pbgym.vector:PongVectorEnv"),
        ("pbgym/Breakout-v0", "pbgym.env:BreakoutEnv", "pbgym.vector:BreakoutVectorEnv"),
    ):
        if env_id not in gym.registry:
            gym.register(id=env_id, entry_point=single, vector_entry_point=vector)


_register()
