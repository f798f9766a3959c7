"""What Atari tooling asks of every environment: action meanings, keyboard
keys and a frame rate (as ALE's environments answer)."""

from __future__ import annotations

from typing import Any

# One game frame is 1/60 s (the games' real time; see the README).
FRAMES_PER_SECOND = 60

# Keys of each action for Gymnasium's ``play``: those of ``gym-train play``
# (docs/play.md); actions without a key (NOOP) are what no key held does.
KEYS = {"LEFT": "a", "RIGHT": "d", "UP": "w", "DOWN": "x", "PUSH": " "}


def render_fps(config: dict[str, Any]) -> int | float:
    """Agent steps per second of real time: a step is ``frameSkip`` frames,
    so a video at this rate plays the game at its own speed."""
    skip = int(config.get("frameSkip", 1))
    fps = FRAMES_PER_SECOND / skip
    return int(fps) if fps.is_integer() else fps


def keys_to_action(action_names: list[str]) -> dict[tuple[int, ...], int]:
    """``{(ord(key),): action}`` for every action with a key (ALE's form)."""
    return {(ord(KEYS[name]),): a for a, name in enumerate(action_names) if name in KEYS}


class AtariConventions:
    """``get_action_meanings`` and ``get_keys_to_action`` from the library's
    own action names (the game's action cases: Pong ``NOOP LEFT RIGHT``,
    ``UP DOWN`` with ``verticalMovement``; Breakout ``NOOP LEFT RIGHT
    PUSH``). Needs ``self._native``."""

    def get_action_meanings(self) -> list[str]:
        return list(self._native.action_names)

    def get_keys_to_action(self) -> dict[tuple[int, ...], int]:
        return keys_to_action(self._native.action_names)
