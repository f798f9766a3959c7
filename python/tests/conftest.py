import numpy as np
import pytest

import pbgym

GAMES = {"pbgym/Pong-v0": "pong", "pbgym/Breakout-v0": "breakout"}


def presets(game: str) -> list[str]:
    n = pbgym.NativeEnv({"game": game})
    try:
        return list(n.info["presets"])
    finally:
        n.close()


def compare(a, b, path="") -> None:
    """Deep equality of observations, infos and their masks (exact, arrays included)."""
    if isinstance(a, tuple):
        assert isinstance(b, tuple) and len(a) == len(b), path
        for k, (x, y) in enumerate(zip(a, b)):
            compare(x, y, f"{path}[{k}]")
    elif isinstance(a, dict):
        assert isinstance(b, dict), path
        assert set(a) == set(b), f"{path}: keys {sorted(a)} != {sorted(b)}"
        for k in a:
            compare(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, np.ndarray) and a.dtype == object:
        assert isinstance(b, np.ndarray) and a.shape == b.shape, path
        for i, (x, y) in enumerate(zip(a, b)):
            compare(x, y, f"{path}[{i}]")
    elif isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray), f"{path}: {type(b)}"
        assert a.shape == b.shape, f"{path}: shape {a.shape} != {b.shape}"
        assert np.array_equal(a, b), f"{path}: {a} != {b}"
    else:
        assert a == b, f"{path}: {a!r} != {b!r}"


@pytest.fixture
def rng():
    return np.random.default_rng(12345)
