"""Keyword arguments to the library's create config (shared by every env class)."""

from __future__ import annotations

import operator
from typing import Any

OBS_TYPES = ("features", "pixels")
# The create config's buffer types for envs that hand each reward out as a
# Python float (single games, PettingZoo): the games' own float32, which the
# library writes in place (`float()` widens it exactly). Actions stay int64,
# the action spaces' type: the library checks them as int64 and narrows them
# in the same pass. The vector env keeps float64 rewards (its documented
# type), widened by the library in its step, which measured cheaper than a
# float32 buffer widened by numpy (docs/python.md, "Speed").
PYTHON_FLOAT_REWARDS = {"reward_dtype": "float32"}
CHANNELS_ORDERS = ("last", "first")


def make_config(game: str, *, num_games: int = 1, obs_type: str = "features", preset: str | None = None,
                pixel_size: tuple[int, int] = (84, 84), autoreset: str = "disabled", seed: int = 0,
                opponent: str | None = None, agent_side: str | None = None, players: int = 1,
                opponent_history: bool | None = None, max_episode_steps: int | None = None,
                frame_stack: int = 1, channels_order: str = "last", max_cycles: int | None = None,
                variants: str | None = None, variants_visible: bool = False, variants_file: str | None = None,
                **config_keys: Any) -> dict[str, Any]:
    """The create config for ``game``: env options plus the game's own config
    keys (``preset`` and any key of ``gym-train config --reference``, e.g.
    ``maxScore=5``); the library checks every value and names the bad one.
    ``max_episode_steps`` (Gymnasium's vector envs) and ``max_cycles``
    (PettingZoo's) both become the game's ``maxSteps``. ``variants`` names a
    variant set (``"train"``, ``"near"``, ``"far"``: the game's shipped sets, or
    a set of ``variants_file``) each episode draws its rules from, by its seed;
    ``variants_visible`` appends the rules to the features (bounds [-1, 1])."""
    if obs_type not in OBS_TYPES:
        raise ValueError(f"pbgym: obs_type={obs_type!r} is invalid; allowed: {', '.join(OBS_TYPES)}")
    if channels_order not in CHANNELS_ORDERS:
        raise ValueError(f"pbgym: channels_order={channels_order!r} is invalid; allowed: "
                         "'last' (height, width, channels) or 'first' (channels, height, width)")
    if max_episode_steps is not None and max_cycles is not None:
        raise ValueError("pbgym: give max_episode_steps or max_cycles, not both (both set maxSteps)")
    if max_cycles is not None:
        max_episode_steps = max_cycles
    game_config: dict[str, Any] = dict(config_keys)
    if preset is not None:
        game_config["preset"] = preset
    if max_episode_steps is not None:
        game_config["maxSteps"] = int(max_episode_steps)
    cfg: dict[str, Any] = {
        "game": game, "config": game_config, "num_games": int(num_games), "obs_type": obs_type,
        "pixel_size": [int(pixel_size[0]), int(pixel_size[1])], "autoreset": autoreset, "seed": int(seed),
        "frame_stack": _int(frame_stack), "channels_order": channels_order,
    }
    if game == "pong":
        cfg["players"] = int(players)
        if players == 1:
            if opponent is not None:
                cfg["opponent"] = str(opponent)
            if agent_side is not None:
                cfg["agent_side"] = agent_side
    elif opponent is not None or agent_side is not None:
        raise ValueError("pbgym: opponent and agent_side are for Pong only")
    if opponent_history is not None:
        cfg["opponent_history"] = bool(opponent_history)
    if variants is not None:
        cfg["variants"] = variants
        cfg["variants_visible"] = variants_visible
        if variants_file is not None:
            with open(variants_file, encoding="utf-8") as f:
                cfg["variants_text"] = f.read()
    elif variants_visible or variants_file is not None:
        raise ValueError("pbgym: variants_visible and variants_file need variants (a variant set's name)")
    return cfg


def _int(value: Any) -> Any:
    """``value`` as an int when it is one (numpy ints included); anything
    else goes to the library as it is, which names the key and what is allowed."""
    try:
        return operator.index(value)
    except TypeError:
        return value
