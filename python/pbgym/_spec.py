"""The games' specs (actions, observation table, rewards, episode end) for
``help()``: docs/pong.md and docs/breakout.md, shipped inside the package
as pbgym/spec/*.md by setup.py, read up to their config reference."""

from __future__ import annotations

from pathlib import Path

SPEC_DIR = Path(__file__).resolve().parent / "spec"


def game_spec(game: str) -> str:
    """The spec of ``game`` ("pong" or "breakout") as the docs state it."""
    path = SPEC_DIR / f"{game}.md"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return f"(The game's spec, docs/{game}.md of the repository, is not installed: {path} is missing.)"
    cut = text.find("\n## ")
    return (text if cut < 0 else text[:cut]).strip()


def with_spec(game: str):
    """A class decorator: the class's docstring followed by the game's spec."""
    def add(cls: type) -> type:
        cls.__doc__ = f"{(cls.__doc__ or '').rstrip()}\n\n{game_spec(game)}\n"
        return cls
    return add
