"""pbgym: deterministic Pong and Breakout for Gymnasium and PettingZoo.

``import pbgym`` registers ``pbgym/Pong-v0`` and ``pbgym/Breakout-v0``
(single env and native vector env). The games run in a Swift library
(libpbgym.so, loaded through ctypes); see the README's Python section.
"""

from __future__ import annotations

import gymnasium as gym

from ._lib import ABI_VERSION, NativeEnv, PBGymError, PBGymMemoryError
from .env import BreakoutEnv, PBGymEnv, PongEnv
from .vector import BreakoutVectorEnv, PBGymVectorEnv, PongVectorEnv

__all__ = ["ABI_VERSION", "NativeEnv", "PBGymError", "PBGymMemoryError", "PBGymEnv", "PongEnv", "BreakoutEnv",
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
