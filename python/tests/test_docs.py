"""Every code block of docs/python.md runs as written, or says in the doc
where it runs.

- ``python`` blocks: each alone, in a fresh interpreter, from the
  repository's root. One that needs a client this environment lacks
  (Stable-Baselines3, SuperSuit, RLlib with torch) is skipped naming what
  is missing; under ``make test-trainers`` (``PBGYM_DOC_BLOCKS=trainers``),
  which installs them all, a missing client fails instead.
- ``sh`` blocks: with bash (``-e -o pipefail``), in doc order, in one
  scratch folder holding links to the checkout's ``python/`` folder and
  ``Makefile`` (so what one block makes, ``.venv`` or a wheel, the next
  one finds, as for a reader; nothing is written into the checkout but
  pip's build folder). A block the doc marks with
  ``<!-- runs under make test-trainers: WHY -->`` on the line before it
  (virtual environments, downloads, training runs) runs only there and is
  skipped elsewhere naming that target and why; ``$PY`` is the interpreter
  running the tests (it has torch there).
- ``text`` blocks are output the doc shows, never run.

A block of any other language fails the test: none is left out silently.
"""

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "python.md"
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.S | re.M)
MARK = re.compile(r"<!-- runs under make test-trainers: (.+?) -->\s*\Z")
# What a block's imports need beyond them (RLlib's learners run on torch).
EXTRA_NEEDS = {"ray.rllib": ["torch"]}
UNDER_TRAINERS = os.environ.get("PBGYM_DOC_BLOCKS") == "trainers"


def blocks() -> list[tuple[int, str, str, str | None]]:
    """(line, language, code, why it runs only under make test-trainers or None) of every fenced block."""
    text = DOC.read_text(encoding="utf-8")
    found = []
    for m in FENCE.finditer(text):
        mark = MARK.search(text[:m.start()].rstrip("\n") + "\n")
        found.append((text[:m.start()].count("\n") + 1, m.group(1), m.group(2), mark.group(1) if mark else None))
    return found


def of(language: str) -> list[tuple[int, str, str | None]]:
    return [(line, code, why) for line, lang, code, why in blocks() if lang == language]


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


def test_every_block_is_python_sh_or_text():
    unknown = [(line, lang) for line, lang, _, _ in blocks() if lang not in ("python", "sh", "text")]
    assert not unknown, f"docs/python.md blocks of no runnable or output language (line, language): {unknown}"
    assert len(of("python")) >= 8 and len(of("sh")) >= 3


def test_marks_name_only_shell_blocks():
    text = DOC.read_text(encoding="utf-8")
    marks = len(re.findall(r"<!-- runs under make test-trainers", text))
    assert marks == sum(1 for _, _, why in of("sh") if why), "a mark not right before a sh block"
    assert not any(why for _, _, why in of("python")), "python blocks say what they need by their imports"


@pytest.mark.parametrize("line,code,why", of("python"), ids=[f"line{line}" for line, _, _ in of("python")])
def test_python_block_runs_as_written(line, code, why):
    missing = missing_modules(code)
    if missing:
        message = f"docs/python.md line {line} needs {', '.join(missing)} (make test-trainers)"
        if UNDER_TRAINERS:
            pytest.fail(message)
        pytest.skip(message)
    proc = subprocess.run([sys.executable, "-W", "error::DeprecationWarning:pbgym", "-c", code], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 0, f"docs/python.md line {line} failed:\n{proc.stderr[-3000:]}"


@pytest.fixture(scope="module")
def reader_folder(tmp_path_factory):
    """A scratch folder where `./python` is the checkout's, shared by the sh blocks in order."""
    folder = tmp_path_factory.mktemp("reader")
    (folder / "python").symlink_to(ROOT / "python")
    return folder


@pytest.mark.parametrize("line,code,why", of("sh"), ids=[f"line{line}" for line, _, _ in of("sh")])
def test_shell_block_runs_as_written(reader_folder, line, code, why):
    if why and not UNDER_TRAINERS:
        pytest.skip(f"docs/python.md line {line} runs under make test-trainers ({why})")
    # A nested `pytest python/tests` (the setup block) runs the python blocks, not these again.
    env = {k: v for k, v in os.environ.items() if k not in ("PBGYM_DOC_BLOCKS", "VIRTUAL_ENV", "PYTHONPATH")}
    env["PY"] = sys.executable
    proc = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", code], cwd=reader_folder, env=env,
                          capture_output=True, text=True)
    assert proc.returncode == 0, (f"docs/python.md line {line} failed (exit {proc.returncode}):\n"
                                  f"{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}")
