"""help() on each env class shows its game's spec: actions, the observation
table, rewards and episode end, as docs/pong.md and docs/breakout.md state them."""

import pydoc
from pathlib import Path

import pytest

import pbgym
from pbgym import pong_v0

DOCS = Path(__file__).resolve().parents[2] / "docs"
CLASSES = [(pbgym.PongEnv, "pong"), (pbgym.PongVectorEnv, "pong"), (pong_v0.raw_parallel_env, "pong"),
           (pbgym.BreakoutEnv, "breakout"), (pbgym.BreakoutVectorEnv, "breakout")]


@pytest.mark.parametrize("cls,game", CLASSES, ids=lambda c: getattr(c, "__name__", c))
def test_help_shows_the_spec(cls, game):
    text = pydoc.render_doc(cls, renderer=pydoc.plaintext)
    for part in ("**Actions**", "| index | meaning | range |", "**Rewards**", "**Episode end**"):
        assert part in text, f"help({cls.__name__}) lacks {part!r}"
    last_row = "| 11 | opponent score / `maxScore` | [0, 1] |" if game == "pong" else \
        "| 8 + 5·maxBalls + c | brick cell c"
    assert last_row in text
    # The installed spec is the docs' own text, up to the config reference.
    docs = (DOCS / f"{game}.md").read_text(encoding="utf-8")
    assert docs.split("\n## ")[0].strip() in cls.__doc__
