"""pbgym: deterministic Pong and Breakout for Gymnasium and PettingZoo.

``pbgym/Pong-v0`` and ``pbgym/Breakout-v0`` (single env and native vector
env) are registered in every process of an environment where pbgym is
installed, as soon as gymnasium is imported (the hook of
_pbgym_registration.py), and by ``import pbgym``; the ids
``"pbgym:pbgym/Pong-v0"`` and ``"pbgym:pbgym/Breakout-v0"`` import pbgym
themselves, so they work even where the package is only on ``sys.path``.
The games run in a Swift library (libpbgym.so, loaded through ctypes); see
the README's Python section.
"""

from __future__ import annotations

from importlib import metadata

import _pbgym_registration as _registration
import gymnasium as gym

from ._lib import ABI_VERSION, NativeEnv, PBGymAgentError, PBGymError, PBGymMemoryError
from .env import BreakoutEnv, PBGymEnv, PongEnv
from .vector import BreakoutVectorEnv, PBGymVectorEnv, PongVectorEnv

try:
    __version__ = metadata.version("pbgym")
except metadata.PackageNotFoundError:  # imported from a source tree, not installed
    __version__ = "0+unknown"

__all__ = ["__version__", "ABI_VERSION", "NativeEnv", "PBGymError", "PBGymMemoryError", "PBGymAgentError", "PBGymEnv", "PongEnv", "BreakoutEnv",
           "PBGymVectorEnv", "PongVectorEnv", "BreakoutVectorEnv", "ENV_IDS"]

ENV_IDS = tuple(env_id for env_id, _, _ in _registration.ENV_IDS)

_registration.register(gym)
