"""pbgym.agents: a served agent speaks the protocol of docs/agents.md.

Each test plays the gym's side by hand over the pipes of a
`python -m pbgym.agents` child, frame by frame."""

from __future__ import annotations

import hashlib
import json
import os
import re
import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from pbgym import agents

ROOT = Path(__file__).resolve().parents[1]
# The folder holding the pbgym this test imported (the installed one), for the
# agents' PYTHONPATH: the checkout's python/ has no native library.
PACKAGE_PARENT = Path(agents.__file__).resolve().parents[1]


def hello(version=1, kind=0, width=12, height=1, actions=3, games=4, seats=2, config_hash=0x1234,
          game="pong", config="{}"):
    g, c = game.encode(), config.encode()
    return struct.pack("<7IQ", version, kind, width, height, actions, games, seats, config_hash) + \
        struct.pack("<I", len(g)) + g + struct.pack("<I", len(c)) + c


def frame(kind, payload=b""):
    return struct.pack("<II", len(payload) + 4, kind) + payload


LIVE: list = []


@pytest.fixture(autouse=True)
def _close_children():
    yield
    while LIVE:
        LIVE.pop().close()


class Child:
    def __init__(self, tmp_path, source, *args):
        (tmp_path / "agentmod.py").write_text(textwrap.dedent(source))
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(PACKAGE_PARENT)]))
        self.log = open(tmp_path / "stderr.log", "w+b")
        self.proc = subprocess.Popen([sys.executable, "-m", "pbgym.agents", *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.log, env=env, cwd=tmp_path)
        LIVE.append(self)

    def close(self):
        """Ends the child and closes its pipes and log (a failed test's too)."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for f in (self.proc.stdin, self.proc.stdout, self.log):
            if not f.closed:
                f.close()

    def send(self, kind, payload=b""):
        self.proc.stdin.write(frame(kind, payload))
        self.proc.stdin.flush()

    def receive(self):
        head = self.proc.stdout.read(8)
        assert len(head) == 8, f"no reply; stderr: {self.stderr()}"
        length, kind = struct.unpack("<II", head)
        return kind, self.proc.stdout.read(length - 4)

    def stderr(self):
        if self.log.closed:
            return self.err
        self.log.seek(0)
        return self.log.read().decode()

    def finish(self):
        self.proc.stdin.close()
        status = self.proc.wait(timeout=60)
        self.proc.stdout.close()
        self.err = self.stderr()
        self.log.close()
        return status


def act_request(games, rows, dtype="<f4"):
    rows = np.ascontiguousarray(rows, dtype=dtype)
    return struct.pack("<I", len(games)) + np.asarray(games, "<u4").tobytes() + rows.tobytes()


def actions_of(payload):
    (n,) = struct.unpack_from("<I", payload)
    assert len(payload) == 4 + 4 * n
    return list(np.frombuffer(payload, "<i4", count=n, offset=4))


LINEAR = """
    import numpy as np
    W = np.zeros((12, 3), np.float32); W[0, 0] = 1; W[1, 1] = 1; W[2, 2] = 1
    def act(obs):
        print("a stray print goes to stderr")
        return obs @ W
"""


def test_handshake_then_batched_scores_become_argmax_actions(tmp_path):
    child = Child(tmp_path, LINEAR, "agentmod:act", "--name", "lin")
    child.send(agents.HELLO, hello())
    kind, payload = child.receive()
    assert kind == agents.WELCOME
    version, n = struct.unpack_from("<II", payload)
    assert version == 1 and payload[8:8 + n] == b"lin"
    child.send(agents.START, struct.pack("<IIQ", 2, 1, 99))
    child.send(agents.START, struct.pack("<IIQ", 0, 0, 98))
    rows = np.zeros((2, 12), np.float32)
    rows[0, 2] = 5  # game 2 -> action 2
    rows[1, 1] = 5  # game 0 -> action 1
    child.send(agents.ACT, act_request([2, 0], rows))
    kind, payload = child.receive()
    assert kind == agents.ACTIONS and actions_of(payload) == [2, 1]
    child.send(agents.END, struct.pack("<I", 2))
    child.send(agents.BYE)
    assert child.finish() == 0
    assert "a stray print goes to stderr" in child.stderr()


def test_resets_carry_seed_and_seat_and_games_reach_act(tmp_path):
    source = """
        import numpy as np
        state = {}
        def reset(game, seed, seat):
            state[game] = (seed + seat) % 5
        def end(game):
            del state[game]
        def act(obs, games):
            assert obs.shape == (len(games), 84, 84) and obs.dtype == np.uint8
            return [state[int(g)] + int(obs[k, 0, 0] == 255) for k, g in enumerate(games)]
    """
    child = Child(tmp_path, source, "agentmod:act", "--reset", "agentmod:reset", "--end", "agentmod:end", "--games")
    child.send(agents.HELLO, hello(kind=1, width=84, height=84, actions=6))
    assert child.receive()[0] == agents.WELCOME
    child.send(agents.START, struct.pack("<IIQ", 0, 1, 2**64 - 1))   # (2^64 - 1 + 1) % 5 = 1
    child.send(agents.START, struct.pack("<IIQ", 3, 0, 7))           # 7 % 5 = 2
    pixels = np.zeros((2, 84, 84), np.uint8)
    pixels[1, 0, 0] = 255
    child.send(agents.ACT, act_request([3, 0], pixels, np.uint8))
    kind, payload = child.receive()
    assert kind == agents.ACTIONS, payload
    assert actions_of(payload) == [2, 2]
    child.send(agents.END, struct.pack("<I", 3))
    child.send(agents.BYE)
    assert child.finish() == 0


def test_version_mismatch_is_refused_with_an_error_message(tmp_path):
    child = Child(tmp_path, LINEAR, "agentmod:act")
    child.send(agents.HELLO, hello(version=2))
    kind, payload = child.receive()
    assert kind == agents.ERROR
    (n,) = struct.unpack_from("<I", payload)
    assert "protocol version 2" in payload[4:4 + n].decode()
    assert child.finish() != 0


def test_an_exception_in_act_is_reported_to_the_gym(tmp_path):
    child = Child(tmp_path, "def act(obs):\n    return [0]\n", "agentmod:act")
    child.send(agents.HELLO, hello())
    assert child.receive()[0] == agents.WELCOME
    child.send(agents.ACT, act_request([0, 1], np.zeros((2, 12))))
    kind, payload = child.receive()
    assert kind == agents.ERROR and b"(2,) actions" in payload
    assert child.finish() != 0


def test_factory_sees_the_handshake(tmp_path):
    source = """
        def make(info):
            assert info.game == "breakout" and info.shape == (7,) and info.config_hash == 0xABCDEF0123456789
            return lambda obs: [info.actions - 1] * len(obs)
    """
    child = Child(tmp_path, source, "agentmod:make", "--factory")
    child.send(agents.HELLO, hello(width=7, actions=4, seats=1, game="breakout", config_hash=0xABCDEF0123456789))
    assert child.receive()[0] == agents.WELCOME
    child.send(agents.ACT, act_request([1], np.zeros((1, 7))))
    assert actions_of(child.receive()[1]) == [3]
    child.send(agents.BYE)
    assert child.finish() == 0


def test_to_actions_takes_integers_or_scores_and_refuses_the_rest():
    assert list(agents.to_actions([1, 0], 2)) == [1, 0]
    assert list(agents.to_actions(np.array([[0.1, 0.9], [0.5, 0.5]]), 2)) == [1, 0]
    assert list(agents.to_actions(np.array([2.0, 1.0]), 2)) == [2, 1]
    with pytest.raises(ValueError, match="whole numbers"):
        agents.to_actions(np.array([0.5, 1.0]), 2)
    with pytest.raises(ValueError, match=r"\(3,\) actions"):
        agents.to_actions([1, 2], 3)


# torch is not a test dependency: the torch tests run under `make test-trainers`
# (PBGYM_DOC_BLOCKS=trainers, the mark of docs/python.md's blocks), where a
# missing torch fails them; elsewhere they are skipped saying so.
UNDER_TRAINERS = os.environ.get("PBGYM_DOC_BLOCKS") == "trainers"


def needs_torch():
    try:
        import torch  # noqa: F401
    except ImportError:
        if UNDER_TRAINERS:
            pytest.fail("torch is missing under make test-trainers")
        pytest.skip("runs under make test-trainers: torch is not a test dependency")


TORCH_NET = """
    import torch
    net = torch.nn.Linear(12, 3)
    with torch.no_grad():
        net.weight.zero_(); net.bias.copy_(torch.tensor([0.0, 1.0, 0.0]))
"""


def test_torch_module_is_served_under_no_grad(tmp_path):
    needs_torch()
    source = """
    import torch
    class Net(torch.nn.Module):
        def forward(self, x):
            assert not torch.is_grad_enabled() and x.dtype == torch.float32 and x.shape[1] == 12
            return torch.tensor([0.0, 1.0, 0.0]).expand(len(x), 3)
    net = Net()
    """
    child = Child(tmp_path, source, "agentmod:net")
    child.send(agents.HELLO, hello())
    assert child.receive()[0] == agents.WELCOME
    rows = np.zeros((2, 12), np.float32)
    child.send(agents.ACT, act_request([0, 3], rows))
    assert actions_of(child.receive()[1]) == [1, 1]
    child.send(agents.BYE)
    assert child.finish() == 0


# --- A Python agent in gym-train's commands ------------------------------------------------

def gym_train_path() -> str:
    """$PBGYM_GYM_TRAIN (make test's fresh debug build), else the gym-train installed with
    this pbgym, so the commands match the package the agents import."""
    from pbgym import distributed
    return os.environ.get("PBGYM_GYM_TRAIN") or distributed.executable()


CONSTANT_AGENT = """
    import numpy as np
    def act(obs):
        return np.ones(len(obs), np.int64)
"""


def python_agent(tmp_path, source=CONSTANT_AGENT, attribute="act"):
    (tmp_path / "pyagent.py").write_text(textwrap.dedent(source))
    env = {"PYTHONPATH": os.pathsep.join([str(tmp_path), str(PACKAGE_PARENT)])}
    if os.environ.get("PBGYM_LIBRARY"):
        env["PBGYM_LIBRARY"] = os.environ["PBGYM_LIBRARY"]
    file = tmp_path / "pyagent.json"
    file.write_text(json.dumps({"command": [sys.executable, "-m", "pbgym.agents", f"pyagent:{attribute}"],
                                "environment": env, "name": "py-one"}))
    return f"process:file={file},name=py-one"


def run(args):
    return subprocess.run([gym_train_path(), *args], capture_output=True, text=True, timeout=600)


def test_a_python_agent_plays_the_builtin_policys_tournament_exactly(tmp_path):
    agent = python_agent(tmp_path)
    common = ["--agent", "random", "--agent", "tracker:noise=2", "--pairs", "2"]
    ours = run(["tournament", "--agent", agent, *common, "--workers", "2", "--out", str(tmp_path / "a")])
    assert ours.returncode == 0, ours.stderr
    ref = run(["tournament", "--agent", "constant:action=1,name=py-one", *common, "--out", str(tmp_path / "b")])
    assert ref.returncode == 0, ref.stderr
    for name in ("matches.jsonl", "ratings.csv", "matrix.csv"):
        got = (tmp_path / "a" / name).read_text().replace(agent, "constant:action=1,name=py-one")
        # An external agent's records add its program (name, agent file, SHA-256); the rest is the built-in's.
        programs = re.findall(r'"(?:bottom|top)Program":(\{[^}]*\}),', got)
        assert bool(programs) == (name == "matches.jsonl"), name
        assert all(json.loads(p)["sha256"] == hashlib.sha256((tmp_path / "pyagent.json").read_bytes()).hexdigest()
                   for p in programs)
        got = re.sub(r'"(?:bottom|top)Program":\{[^}]*\},', "", got)
        assert got == (tmp_path / "b" / name).read_text(), name
    assert list((tmp_path / "a" / "agents").glob("py-one-*.log"))


def test_a_python_agent_in_sprt_and_eval(tmp_path):
    agent = python_agent(tmp_path)
    sprt = run(["tournament", "--mode", "sprt", "--candidate", agent, "--baseline", "constant:action=1",
                "--max-pairs", "20", "--out", str(tmp_path / "s")])
    assert sprt.returncode in (0, 1, 2), sprt.stderr
    assert "LLR" in sprt.stdout
    ev = run(["eval", "--agent", agent, "--opponent", "tracker", "--episodes", "4", "--out", str(tmp_path / "e")])
    assert ev.returncode == 0, ev.stderr
    assert (tmp_path / "e" / "episodes.csv").read_text().count("\n") == 5


def test_a_failing_python_agent_stops_the_command_with_its_traceback(tmp_path):
    agent = python_agent(tmp_path, "def act(obs):\n    raise RuntimeError('policy exploded')\n")
    out = run(["eval", "--agent", agent, "--episodes", "2", "--out", str(tmp_path / "e")])
    assert out.returncode != 0
    assert "agent py-one" in out.stderr and "policy exploded" in out.stderr, out.stderr


def test_the_docs_worked_example_bytes_are_the_protocols():
    doc = (ROOT.parent / "docs" / "agents.md").read_text()
    import re
    blocks = re.findall(r"```\n(.*?)```", doc[doc.index("## Worked example"):], re.S)
    # Each block's hex bytes (comments after the bytes dropped, "(00 00 00 00 × 11)" expanded).
    def hexes(block):
        out = []
        for line in block.splitlines():
            line = line.replace("(00 00 00 00 × 11)", " ".join(["00 00 00 00"] * 11))
            for t in line.split():  # the bytes, up to the first word of the comment
                if not re.fullmatch(r"[0-9a-f]{2}", t):
                    break
                out.append(t)
        return bytes(int(t, 16) for t in out)
    shown = [hexes(b) for b in blocks]
    hello_payload = struct.pack("<7IQ", 1, 0, 12, 1, 3, 2, 2, 0x0123456789ABCDEF) + struct.pack("<I", 4) + b"pong" + \
        struct.pack("<I", 2) + b"{}"
    expected = [
        frame(agents.HELLO, hello_payload),
        frame(agents.WELCOME, struct.pack("<II", 1, 3) + b"lin"),
        frame(agents.START, struct.pack("<IIQ", 1, 1, 42)),
        frame(agents.ACT, struct.pack("<II", 1, 1) + np.array([0.5] + [0] * 11, "<f4").tobytes()),
        frame(agents.ACTIONS, struct.pack("<Ii", 1, 2)),
    ]
    assert shown[:5] == expected
    assert "`08 00 00 00 03 00 00 00 01 00 00 00`" in doc and frame(agents.END, struct.pack("<I", 1)).hex(" ") == "08 00 00 00 03 00 00 00 01 00 00 00"


# A Python agent in balance, sweep and render: its files are the built-in policy's.

def scenario_file(tmp_path, a, folder):
    """The scenario file `scen.json` in `folder` (a baseline names its scenario file's path)."""
    (tmp_path / folder).mkdir()
    path = tmp_path / folder / "scen.json"
    path.write_text(json.dumps({"game": "pong", "preset": "classic", "seed": 3, "alpha": 0.001,
                                "scenarios": [{"name": "ext", "a": a, "b": "tracker:noise=2", "games": 4}]}))
    return str(path)


BUILTIN = "constant:action=1,name=py-one"


def test_a_python_agent_records_and_checks_the_builtin_policys_balance_baseline(tmp_path):
    agent = python_agent(tmp_path)
    ours, ref = scenario_file(tmp_path, agent, "ours"), scenario_file(tmp_path, BUILTIN, "ref")
    refused = run(["balance", "record", "--scenarios", ours, "--baselines", str(tmp_path / "b1")])
    assert refused.returncode != 0 and "--allow-agent-programs" in refused.stderr
    record = run(["balance", "record", "--scenarios", ours, "--baselines", str(tmp_path / "b1"), "--allow-agent-programs"])
    assert record.returncode == 0, record.stderr
    assert run(["balance", "record", "--scenarios", ref, "--baselines", str(tmp_path / "b2")]).returncode == 0
    got = (tmp_path / "b1" / "scen.json").read_text().replace(json.dumps(agent)[1:-1], BUILTIN)
    assert got == (tmp_path / "b2" / "scen.json").read_text().replace("/ref/scen.json", "/ours/scen.json")
    check = run(["balance", "check", "--scenarios", ours, "--baselines", str(tmp_path / "b1"), "--allow-agent-programs"])
    assert check.returncode == 0, check.stdout + check.stderr
    assert "PASS" in check.stdout


def test_a_python_agent_sweeps_like_the_builtin_policy(tmp_path):
    agent = python_agent(tmp_path)
    ours, ref = scenario_file(tmp_path, agent, "ours"), scenario_file(tmp_path, BUILTIN, "ref")
    grid = ["--grid", "maxScore=3,5", "--workers", "2"]
    a = run(["sweep", "--scenarios", ours, *grid, "--allow-agent-programs", "--out", str(tmp_path / "a")])
    assert a.returncode == 0, a.stderr
    b = run(["sweep", "--scenarios", ref, *grid, "--out", str(tmp_path / "b")])
    assert b.returncode == 0, b.stderr
    compared = sorted(p.name for p in (tmp_path / "b").iterdir() if p.is_file() and p.suffix in (".csv", ".json", ".svg")
                      and p.name != "timing.json")
    assert "sweep.csv" in compared and "sweep.json" in compared
    for name in compared:
        got = (tmp_path / "a" / name).read_text().replace(json.dumps(agent)[1:-1], BUILTIN).replace(agent, BUILTIN)
        assert got == (tmp_path / "b" / name).read_text().replace("/ref/scen.json", "/ours/scen.json"), name


def test_a_python_agent_renders_and_replays_its_game(tmp_path):
    agent = python_agent(tmp_path)
    for spec, gif in ((agent, "ours.gif"), (BUILTIN, "ref.gif")):
        out = run(["render", "--agent", spec, "--opponent", "tracker", "--max-steps", "300", "--gif", str(tmp_path / gif)])
        assert out.returncode == 0, out.stderr
    assert (tmp_path / "ours.gif").read_bytes() == (tmp_path / "ref.gif").read_bytes()
    # A tournament's record of the agent replays the same game (the agent started again on request).
    t = run(["tournament", "--agent", agent, "--agent", "random", "--pairs", "1", "--out", str(tmp_path / "t")])
    assert t.returncode == 0, t.stderr
    matches = str(tmp_path / "t" / "matches.jsonl")
    refused = run(["render", "--replay", matches, "--index", "0", "--max-steps", "0", "--gif", str(tmp_path / "r.gif")])
    assert refused.returncode != 0 and "--allow-agent-programs" in refused.stderr
    replay = run(["render", "--replay", matches, "--index", "0", "--allow-agent-programs", "--gif", str(tmp_path / "r.gif")])
    assert replay.returncode == 0, replay.stderr
    assert (tmp_path / "r.gif").stat().st_size > 0


def test_a_torch_module_plays_the_builtin_policys_games_through_serve(tmp_path):
    """A PyTorch module, served as it is (``python -m pbgym.agents MODULE:NET``), in an
    eval and a tournament: its logits favour action 1, so its files are constant:action=1's."""
    needs_torch()
    agent = python_agent(tmp_path, TORCH_NET, attribute="net")
    ev = run(["eval", "--agent", agent, "--opponent", "tracker:noise=2", "--episodes", "4", "--workers", "2",
              "--out", str(tmp_path / "e1")])
    assert ev.returncode == 0, ev.stderr
    ref = run(["eval", "--agent", BUILTIN, "--opponent", "tracker:noise=2", "--episodes", "4", "--out", str(tmp_path / "e2")])
    assert ref.returncode == 0, ref.stderr
    for name in ("episodes.csv", "summary.json"):
        got = (tmp_path / "e1" / name).read_text().replace(agent, BUILTIN)
        assert got == (tmp_path / "e2" / name).read_text(), name
