"""Every Python code block of docs/python.md runs as written: each one alone,
in a fresh interpreter, from the repository's root. A block that needs a
client this environment lacks (Stable-Baselines3, SuperSuit, RLlib with
torch: ``make test-trainers`` has them) is skipped, naming what is missing.
The shell blocks are the Makefile's own steps (``make python-venv``,
``make wheel``, ``make example-ppo``), run by those targets."""

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "python.md"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
# What a block's imports need beyond them (RLlib's learners run on torch).
EXTRA_NEEDS = {"ray.rllib": ["torch"]}


def blocks() -> list[tuple[int, str]]:
    text = DOC.read_text(encoding="utf-8")
    return [(text[:m.start()].count("\n") + 1, m.group(1)) for m in BLOCK.finditer(text)]


def missing_modules(code: str) -> list[str]:
    names = set(re.findall(r"^\s*(?:from|import)\s+([\w.]+)", code, re.M))
    for name, extra in EXTRA_NEEDS.items():
        if any(n == name or n.startswith(name + ".") for n in names):
            names.update(extra)
    missing = []
    for name in sorted(names):
        try:
            found = importlib.util.find_spec(name) is not None
        except ModuleNotFoundError:
            found = False
        if not found:
            missing.append(name)
    return missing


def test_the_doc_has_python_blocks():
    assert len(blocks()) >= 8


@pytest.mark.parametrize("line,code", blocks(), ids=[f"line{line}" for line, _ in blocks()])
def test_block_runs_as_written(line, code):
    missing = missing_modules(code)
    if missing:
        pytest.skip(f"docs/python.md line {line} needs {', '.join(missing)} (make test-trainers)")
    proc = subprocess.run([sys.executable, "-W", "error::DeprecationWarning:pbgym", "-c", code], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"docs/python.md line {line} failed:\n{proc.stderr[-3000:]}"
