"""The trainer matrix (``make test-trainers``): clients the project did not
write (Stable-Baselines3, SuperSuit, RLlib) against pbgym, one test per
client and check, plus short learning smoke runs. Each smoke run writes one
line to ``$PBGYM_MATRIX`` (when set) for docs/python.md's table."""

import importlib.util
import json
import os
from pathlib import Path

import numpy as np
import pytest

# The main suite's deep comparison of observations and infos.
_spec = importlib.util.spec_from_file_location("pbgym_suite_support",
                                               Path(__file__).resolve().parents[1] / "tests" / "conftest.py")
_support = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_support)
compare = _support.compare


@pytest.fixture
def record():
    """``record(client, check, result)``: a line of the trainer matrix."""
    def write(client: str, check: str, result: str) -> None:
        path = os.environ.get("PBGYM_MATRIX")
        if path:
            with open(path, "a", encoding="utf-8") as f:
                f.write(json.dumps({"client": client, "check": check, "result": result}) + "\n")
    return write


@pytest.fixture
def rng():
    return np.random.default_rng(2024)
