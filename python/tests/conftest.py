import os
import signal
import traceback

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


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    """A test marked `isolated` runs in a forked process of its own: a trap
    in the library fails that test (naming the signal) instead of ending the
    whole run. The C ABI's bad-input family (test_fuzz.py) runs so."""
    if pyfuncitem.get_closest_marker("isolated") is None:
        return None
    args = {name: pyfuncitem.funcargs[name] for name in pyfuncitem._fixtureinfo.argnames}
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        code = 0
        try:
            pyfuncitem.obj(**args)
            report = b"passed"
        except BaseException:
            report, code = traceback.format_exc().encode(), 1
        os.write(write, report)
        os._exit(code)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        report = pipe.read().decode("utf-8", "replace")
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        pytest.fail(f"the test's process died by {signal.Signals(os.WTERMSIG(status)).name}", pytrace=False)
    if report != "passed":
        pytest.fail(report, pytrace=False)
    return True
