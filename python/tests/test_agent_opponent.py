"""An external agent (`process:`) as the opponent of pbgym's envs.

The library starts the agent inside this Python process without touching its
signal handlers; the agent plays exactly what the same policy built in plays;
a fault is one PBGymAgentError naming the agent, the step and its stderr;
and no agent outlives its Python process, however that process ends."""

from __future__ import annotations

import contextlib
import gc
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

import pbgym
from pbgym import agents

# The folder holding the pbgym this test imported, for the agents' and scripts' PYTHONPATH.
PACKAGE_PARENT = Path(agents.__file__).resolve().parents[1]

# A served agent: writes its process id to $PIDFILE when it starts, plays
# action 1 (up) in every game, or sleeps in its act while $HANGFILE exists
# (a hung agent, which reads nothing more: only the kernel can end it then).
# At its act number $FAIL_AT it fails: $FAIL_HOW "error" raises (pbgym.agents
# reports the exception to the gym), "exit" writes a line to stderr and exits,
# "close" closes its standard input and answers (the gym's next write then
# finds no reader: EPIPE, and SIGPIPE unless it is kept off the host).
AGENT = """
    import os, sys, time
    import numpy as np
    with open(os.environ["PIDFILE"] + ".tmp", "w") as f:
        f.write(str(os.getpid()))
    os.replace(os.environ["PIDFILE"] + ".tmp", os.environ["PIDFILE"])
    calls = 0
    def act(obs):
        global calls
        calls += 1
        if os.path.exists(os.environ.get("HANGFILE", "/nonexistent")):
            open(os.environ["HANGFILE"] + ".hung", "w").close()
            time.sleep(3600)
        if calls == int(os.environ.get("FAIL_AT", "0")):
            if os.environ["FAIL_HOW"] == "exit":
                print("the policy gives up", file=sys.stderr, flush=True)
                os._exit(3)
            if os.environ["FAIL_HOW"] == "close":
                os.close(0)
                return np.ones(len(obs), np.int64)
            raise RuntimeError("policy exploded at call %d" % calls)
        return np.ones(len(obs), np.int64)
"""


def child_environment(tmp_path: Path) -> dict:
    env = {"PYTHONPATH": os.pathsep.join([str(tmp_path), str(PACKAGE_PARENT)])}
    if os.environ.get("PBGYM_LIBRARY"):
        env["PBGYM_LIBRARY"] = os.environ["PBGYM_LIBRARY"]
    return env


def agent_spec(tmp_path: Path, name: str = "py-up", **environment) -> str:
    (tmp_path / "upagent.py").write_text(textwrap.dedent(AGENT))
    env = dict(child_environment(tmp_path), PIDFILE=str(tmp_path / f"{name}.pid"), **environment)
    file = tmp_path / f"{name}.json"
    file.write_text(json.dumps({"command": [sys.executable, "-m", "pbgym.agents", "upagent:act"],
                                "environment": env, "name": name}))
    return f"process:{file}"


def agent_pid(tmp_path: Path, name: str = "py-up") -> int:
    return int((tmp_path / f"{name}.pid").read_text())


def gone(pid: int) -> bool:
    """Whether process `pid` has ended (or is a zombie nobody reaped yet)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:
        return "State:\tZ" in Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return True


def wait_gone(pid: int) -> bool:
    """Waits for `pid` to end; False only after two minutes (a hang, never a slow machine)."""
    for _ in range(12000):
        if gone(pid):
            return True
        time.sleep(0.01)
    return False


def handlers():
    """The kernel's handler address of each signal the CLI's guards would take (read with
    sigaction: Python's signal.getsignal shows only what Python itself installed)."""
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    out = {}
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE):
        old = ctypes.create_string_buffer(256)  # struct sigaction; glibc puts the handler first
        assert libc.sigaction(int(sig), None, old) == 0
        out[sig.name] = ctypes.c_void_p.from_buffer(old).value
    return out


def test_a_process_opponent_plays_as_the_builtin_policy_and_leaves_the_signal_handlers_alone(tmp_path):
    before = handlers()
    spec = agent_spec(tmp_path)
    ours = gym.make("pbgym:pbgym/Pong-v0", opponent=spec, maxScore=2)
    ref = gym.make("pbgym:pbgym/Pong-v0", opponent="constant:action=1", maxScore=2)
    actions = np.random.default_rng(7).integers(0, 3, 3000)
    for env in (ours, ref):
        env.reset(seed=5)
    ends = 0
    for a in actions:
        got, want = ours.step(int(a)), ref.step(int(a))
        assert np.array_equal(got[0], want[0]) and got[1:4] == want[1:4]
        if got[2] or got[3]:
            ends += 1
            for env in (ours, ref):
                env.reset()
    assert ends > 0  # episodes ended and restarted: the agent's START/END went through
    assert handlers() == before
    pid = agent_pid(tmp_path)
    assert not gone(pid)
    ours.close()
    assert gone(pid)  # closed with its env (told goodbye, reaped)
    ref.close()


def test_a_process_opponent_serves_every_game_of_a_vector_env(tmp_path):
    spec = agent_spec(tmp_path)
    kw = dict(num_envs=6, vectorization_mode="vector_entry_point", maxScore=2)
    ours = gym.make_vec("pbgym:pbgym/Pong-v0", opponent=spec, **kw)
    ref = gym.make_vec("pbgym:pbgym/Pong-v0", opponent="constant:action=1", **kw)
    rng = np.random.default_rng(3)
    a, b = ours.reset(seed=11), ref.reset(seed=11)
    assert np.array_equal(a[0], b[0])
    ended = 0
    for _ in range(1500):
        act = rng.integers(0, 3, 6)
        a, b = ours.step(act), ref.step(act)
        for x, y in zip(a[:4], b[:4]):
            assert np.array_equal(x, y)
        ended += int(np.sum(a[2] | a[3]))
    assert ended > 0
    pid = agent_pid(tmp_path)
    del ours, a  # the last step's infos refer to the env too
    gc.collect()
    assert gone(pid)  # the env's finaliser ended its agent
    ref.close()


@pytest.mark.parametrize("vector", [False, True])
@pytest.mark.parametrize("how, what", [
    ("error", "it reported an error: RuntimeError: policy exploded at call 40"),
    ("exit", "the agent process"),  # "exited with status 3", or "closed its standard output" if not reaped yet
])
def test_an_opponent_fault_is_one_agent_error_naming_agent_step_and_stderr(tmp_path, vector, how, what):
    spec = agent_spec(tmp_path, name="boom", FAIL_AT="40", FAIL_HOW=how)
    if vector:
        env = gym.make_vec("pbgym:pbgym/Pong-v0", num_envs=3, vectorization_mode="vector_entry_point", opponent=spec)
    else:
        env = gym.make("pbgym:pbgym/Pong-v0", opponent=spec)
    env.reset(seed=1)
    with pytest.raises(pbgym.PBGymAgentError) as caught:
        for _ in range(100):
            env.step(np.zeros(3, np.int64) if vector else 0)
    text = str(caught.value)
    assert "agent boom" in text and "pbgym.agents upagent:act" in text  # the agent and its command
    assert "step 39" in text  # the 40th act: the opponent's 40th step of game 0 (steps count from 0)
    assert what in text  # what was wrong
    if how == "exit":
        assert "its last standard error lines" in text and "| the policy gives up" in text
    assert isinstance(caught.value, pbgym.PBGymError)
    assert gone(agent_pid(tmp_path, "boom"))
    env.close()


def test_an_agent_that_cannot_start_is_an_agent_error_when_the_env_is_made(tmp_path):
    with pytest.raises(pbgym.PBGymAgentError, match=r"agent nope: cannot start .*/no-such-agent: No such file"):
        gym.make("pbgym:pbgym/Pong-v0", opponent=f"process:cmd={tmp_path}/no-such-agent --fast,name=nope")
    # An agent refusing the handshake: its ERROR text, at the handshake.
    (tmp_path / "refuse.py").write_text("def make(info):\n    raise ValueError('wrong game for me')\n")
    file = tmp_path / "refuse.json"
    file.write_text(json.dumps({"command": [sys.executable, "-m", "pbgym.agents", "refuse:make", "--factory"],
                                "environment": child_environment(tmp_path), "name": "picky"}))
    with pytest.raises(pbgym.PBGymAgentError, match=r"agent picky: .* at the handshake: .*wrong game for me"):
        gym.make_vec("pbgym:pbgym/Pong-v0", num_envs=2, vectorization_mode="vector_entry_point", opponent=f"process:{file}")


def test_an_env_made_in_a_thread_that_ended_keeps_its_agent(tmp_path):
    """The kernel's parent-death signal follows the thread that forked the
    agent: the library forks from a thread of its own that never ends, so an
    env made in a worker thread outlives that thread with its agent."""
    import threading
    made = []
    worker = threading.Thread(target=lambda: made.append(gym.make("pbgym:pbgym/Pong-v0", opponent=agent_spec(tmp_path))))
    worker.start()
    worker.join()
    env = made.pop()
    env.reset(seed=2)
    for _ in range(100):
        env.step(0)
    assert not gone(agent_pid(tmp_path))
    env.close()


def test_an_agent_gone_mid_write_raises_even_where_sigpipe_kills(tmp_path):
    """A host whose SIGPIPE is at its default (a C program; Python ignores it)
    gets the fault, not a SIGPIPE death, when the agent's end is closed."""
    script = tmp_path / "pipe.py"
    script.write_text(textwrap.dedent("""
        import signal, sys
        import gymnasium as gym
        import pbgym
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        env = gym.make("pbgym:pbgym/Pong-v0", opponent=sys.argv[1])
        env.reset(seed=1)
        try:
            for _ in range(100):
                env.step(0)
        except pbgym.PBGymAgentError as e:
            print("fault:", str(e).splitlines()[0], flush=True)
        print("still here", signal.getsignal(signal.SIGPIPE) == signal.SIG_DFL, flush=True)
    """))
    spec = agent_spec(tmp_path, name="closer", FAIL_AT="5", FAIL_HOW="close")
    out = subprocess.run([sys.executable, str(script), spec], capture_output=True, text=True, timeout=600,
                         env=dict(os.environ, **child_environment(tmp_path)))
    assert out.returncode == 0, (out.returncode, out.stderr)
    assert "fault: pbgym: opponent: agent closer" in out.stdout and "at game 0, step 5" in out.stdout
    assert "still here True" in out.stdout


# --- No agent outlives the Python process --------------------------------------------------

SCRIPT = """
    import os, sys
    import gymnasium as gym
    import pbgym
    env = gym.make("pbgym:pbgym/Pong-v0", opponent=sys.argv[2])
    env.reset(seed=1)
    env.step(0)
    how = sys.argv[1]
    if how == "hang":
        open(os.environ["HANGFILE"], "w").close()
    if how != "interrupted":
        print("ready", flush=True)
    if how == "exit":
        sys.exit(0)          # no close(): the library's exit handler ends the agent
    if how == "exception":
        raise RuntimeError("the script failed")
    if how == "interrupted":
        # A Ctrl-C at the terminal reaches the whole foreground process group:
        # Python gets KeyboardInterrupt and goes on; its agent, in a group of
        # its own, must not have been hit.
        try:
            print("ready", flush=True)
            while True:
                env.step(0)
        except KeyboardInterrupt:
            pass
        for _ in range(50):
            env.step(0)
        print("stepped after the interrupt", flush=True)
        env.close()
        sys.exit(0)
    while True:              # stepping (how == "loop") or waiting on a hung agent (how == "hang")
        env.step(0)
"""


@contextlib.contextmanager
def running_script(tmp_path: Path, how: str):
    """Runs SCRIPT (`how`) with a served agent as its opponent, yields (the
    script's process, the agent's pid) once the script is ready, then expects
    the agent to end with it; pass or fail, whatever is left of either is
    killed, so no process outlives the test."""
    (tmp_path / "script.py").write_text(textwrap.dedent(SCRIPT))
    hang = tmp_path / "hang.flag"
    spec = agent_spec(tmp_path, HANGFILE=str(hang))
    env = dict(os.environ, **child_environment(tmp_path), HANGFILE=str(hang))
    proc = subprocess.Popen([sys.executable, str(tmp_path / "script.py"), how, spec], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, start_new_session=True)
    pid = None
    try:
        line = proc.stdout.readline()
        assert line == "ready\n", proc.stderr.read() if proc.poll() is not None else line
        pid = agent_pid(tmp_path)
        if how == "hang":  # the agent has read its ACT and sleeps: only the kernel can end it now
            for _ in range(12000):
                if (tmp_path / "hang.flag.hung").exists():
                    break
                time.sleep(0.01)
            assert (tmp_path / "hang.flag.hung").exists(), "the agent never hung"
        yield proc, pid
        assert wait_gone(pid), f"agent {pid} outlived its Python process ({how})"
    finally:
        for p in (proc.pid, pid):
            if p is None:
                continue
            try:
                os.kill(p, signal.SIGKILL)
            except ProcessLookupError:
                pass


@pytest.mark.parametrize("how, stop", [
    ("exit", None),                      # a normal exit without close()
    ("exception", None),                 # an uncaught exception
    ("loop", signal.SIGINT),             # KeyboardInterrupt, uncaught
    ("loop", signal.SIGTERM),            # Python's default SIGTERM: no cleanup runs
    ("hang", signal.SIGTERM),            # ... while the agent is hung in its act
    ("hang", signal.SIGKILL),            # killed outright while the agent is hung
])
def test_no_agent_outlives_its_python_process(tmp_path, how, stop):
    with running_script(tmp_path, how) as (proc, _):
        if stop is not None:
            os.kill(proc.pid, stop)
        proc.communicate(timeout=600)
        assert proc.returncode != 0 or how == "exit"


def test_a_ctrl_c_to_the_process_group_interrupts_python_not_its_agent(tmp_path):
    with running_script(tmp_path, "interrupted") as (proc, _):
        os.killpg(proc.pid, signal.SIGINT)  # as a terminal does: the whole foreground group
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err
        assert "stepped after the interrupt" in out
