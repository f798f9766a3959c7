"""pbgym.distributed: sharded runs on the local backend and on a local two-node Ray cluster
give byte for byte the files of the unsharded gym-train run; ES training in pieces gives
bit-identical weights; a shard whose worker is killed is retried with the same result."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pbgym import distributed as dist

REPO = Path(__file__).resolve().parents[2]

# Ray and its dependencies emit deprecation warnings of their own.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::FutureWarning",
                                        "ignore::ResourceWarning", "ignore::UserWarning")

# Files that hold provenance or wall time (the only ones that may differ), and the empty results-folder marker.
UNCOMPARED = {"run.json", "timing.json", ".gym-train-folder"}

SCENARIOS = """{ "game": "pong", "preset": "fast", "seed": 9,
  "scenarios": [ { "name": "gap", "a": "tracker:noise=2", "b": "random", "games": 6 },
                 { "name": "even", "a": "tracker", "b": "tracker:noise=1", "games": 4 } ] }
"""


@pytest.fixture(scope="session")
def ray_cluster():
    """A local Ray cluster of two nodes (one CPU each), shared by the session's Ray tests."""
    import ray
    from ray.cluster_utils import Cluster

    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, log_to_driver=False)
    # One CPU per node: shards submitted together run on both nodes.
    assert [n["Resources"].get("CPU") for n in ray.nodes() if n["Alive"]] == [1.0, 1.0]
    yield cluster
    ray.shutdown()
    cluster.shutdown()


@pytest.fixture(params=["local", "ray"])
def backend(request):
    if request.param == "ray":
        request.getfixturevalue("ray_cluster")
        return dist.RayBackend()
    return dist.LocalBackend(processes=2)


@pytest.fixture
def work(tmp_path, monkeypatch):
    """A folder with a tiny scenario file, made the current one (so paths are relative, shipped to Ray nodes)."""
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "scenarios" / "tiny.json").write_text(SCENARIOS)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def gym_train(*args, check=True):
    proc = subprocess.run([dist.executable(), *args], capture_output=True, text=True)
    if check and proc.returncode != 0:
        raise AssertionError(proc.stderr)
    return proc


def files(folder: Path):
    """A results folder's files, but external agents' stderr logs (agents/...: per process, not results)."""
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                  if p.is_file() and not p.relative_to(folder).as_posix().startswith("agents/"))


def assert_identical(whole: Path, merged: Path, expected):
    assert files(whole) == files(merged)
    compared = [f for f in files(whole) if f not in UNCOMPARED]
    assert compared == sorted(expected)
    for name in compared:
        a, b = (whole / name).read_bytes(), (merged / name).read_bytes()
        assert a, name
        assert a == b, f"{name} differs between the unsharded run and the merged shards"


TOURNAMENT = ["tournament", "--agent", "random", "--agent", "tracker", "--agent", "tracker:noise=2,name=T2",
              "--pairs", "3", "--seed", "4", "--bootstrap", "200"]
TOURNAMENT_FILES = ["config.json", "matches.jsonl", "matrix.csv", "ratings.csv", "ratings.svg", "summary.json"]


def test_eval_merges_to_the_unsharded_run(work, backend):
    args = ["eval", "--agent", "tracker:noise=1,reaction=3", "--opponent", "random", "--episodes", "7", "--seed", "5"]
    gym_train(*args, "--out", "whole")
    result = dist.run(args, shards=3, backend=backend, out="merged")
    assert result.returncode == 0 and result.out == Path("merged")
    assert_identical(work / "whole", work / "merged", ["config.json", "episodes.csv", "summary.json"])
    assert len((work / "merged" / "episodes.csv").read_text().splitlines()) == 8


def test_tournaments_merge_to_the_unsharded_run(work, backend):
    gym_train(*TOURNAMENT, "--out", "whole")
    dist.tournament(*TOURNAMENT[1:], shards=4, backend=backend, out="merged")
    assert_identical(work / "whole", work / "merged", TOURNAMENT_FILES)

    gauntlet = ["tournament", "--mode", "gauntlet", "--candidate", "tracker:noise=1", "--agent", "random",
                "--agent", "tracker", "--pairs", "3", "--seed", "8", "--bootstrap", "200"]
    gym_train(*gauntlet, "--out", "whole-g")
    dist.run(gauntlet, shards=2, backend=backend, out="merged-g")
    assert_identical(work / "whole-g", work / "merged-g", TOURNAMENT_FILES)


def test_balance_record_and_check_merge_to_the_unsharded_run(work, backend):
    gym_train("balance", "record", "--scenarios", "scenarios/tiny.json", "--baselines", "baselines")
    record = dist.balance_record("--scenarios", "scenarios/tiny.json", shards=3, backend=backend, out="merged-record")
    assert record.returncode == 0
    assert (work / "merged-record" / "tiny.json").read_bytes() == (work / "baselines" / "tiny.json").read_bytes()

    # The check reads the baseline: on Ray it is shipped to the nodes by its relative path.
    for rules, status in ([], 0), (["--preset", "classic"], 1):
        whole = gym_train("balance", "check", "--scenarios", "scenarios/tiny.json", "--baselines", "baselines",
                          *rules, check=False)
        merged = dist.balance_check("--scenarios", "scenarios/tiny.json", "--baselines", "baselines", *rules,
                                    shards=3, backend=backend, out=f"merged-check{status}")
        assert whole.returncode == status and merged.returncode == status, whole.stderr
        assert merged.stdout == whole.stdout
    assert "FAIL scenarios/tiny.json" in merged.stdout


def test_a_sweep_merges_to_the_unsharded_sweep(work, backend):
    args = ["sweep", "--scenarios", "scenarios/tiny.json", "--grid", "paddleWidth=40,56", "--grid", "serveSpeed=2,3"]
    gym_train(*args, "--out", "whole")
    dist.sweep(*args[1:], shards=3, backend=backend, out="merged")
    expected = [f for f in files(work / "whole") if f.endswith(".svg")] + ["sweep.csv", "sweep.json"]
    assert len(expected) > 2
    assert_identical(work / "whole", work / "merged", expected)


TRAIN_CONFIG = {"preset": "smoke", "opponent": "tracker:noise=0.5", "normalizeObservations": True,
                "population": 10, "episodeSteps": 300, "seed": 7}


def comparable_run(folder: Path):
    """A training folder's files with wall time removed (metrics.csv's wall column, the checkpoint's wallSeconds)."""
    out = {}
    for name in files(folder):
        data = (folder / name).read_bytes()
        if name == "run.json" or name == "curve.svg":
            continue  # the command line; the curve's axis follows wall time
        if name == "metrics.csv":
            rows = [r.split(",") for r in data.decode().splitlines()]
            data = "\n".join(",".join(r[:2] + r[3:]) for r in rows).encode()
        if name == "checkpoint.json":
            doc = json.loads(data)
            doc["training"]["wallSeconds"] = 0
            data = json.dumps(doc).encode()
        out[name] = data
    return out


def test_es_training_in_pieces_is_bit_identical_and_resumes(work, backend):
    Path("train.json").write_text(json.dumps(TRAIN_CONFIG))
    gym_train("train", "--config", "train.json", "--out", "whole", "--workers", "2")
    done = dist.train(["--config", "train.json", "--out", "pieces", "--workers", "2"], shards=3, backend=backend,
                      echo=lambda s: None)
    assert "4 iterations" in done.stdout
    whole, pieces = comparable_run(work / "whole"), comparable_run(work / "pieces")
    assert sorted(whole) == sorted(pieces)
    for name in whole:
        assert whole[name] == pieces[name], f"{name} differs from gym-train train"
    assert not (work / "pieces" / "es-request.json").exists()
    policy = json.loads((work / "whole" / "policy.json").read_text())
    assert any(w != 0 for w in policy["weights"]), "training changed nothing"

    # Interrupted after 2 iterations (the run's budget), resumed to 4 in pieces: the same weights.
    dist.train(["--config", "train.json", "--out", "resumed", "--iterations", "2", "--workers", "2"], shards=2,
               backend=backend, echo=lambda s: None)
    dist.train(["--resume", "resumed", "--iterations", "4"], shards=4, backend=backend, echo=lambda s: None)
    for name in ["policy.json", "best.json", "checkpoints/iteration-000002.json", "checkpoints/iteration-000004.json"]:
        assert (work / "resumed" / name).read_bytes() == (work / "whole" / name).read_bytes(), name


class FailingBackend:
    """The local backend, failing its ``fail_at``-th batch of pieces (a lost cluster mid-run)."""

    name = "local"

    def __init__(self, fail_at):
        self.calls, self.fail_at, self.inner = 0, fail_at, dist.LocalBackend(processes=2)

    def map(self, pieces):
        self.calls += 1
        if self.calls == self.fail_at:
            raise dist.DistributedError("the cluster went away")
        return self.inner.map(pieces)


def test_es_training_stopped_by_a_failure_resumes_bit_identically(work):
    Path("train.json").write_text(json.dumps(TRAIN_CONFIG))
    gym_train("train", "--config", "train.json", "--out", "whole", "--workers", "2")
    with pytest.raises(dist.DistributedError, match="the cluster went away"):
        dist.train(["--config", "train.json", "--out", "run", "--workers", "2"], shards=2,
                   backend=FailingBackend(fail_at=4), echo=lambda s: None)
    checkpoint = json.loads((work / "run" / "checkpoint.json").read_text())
    assert checkpoint["training"]["iteration"] == 3  # the last whole iteration
    dist.train(["--resume", "run"], shards=3, backend="local", echo=lambda s: None)
    for name in ["policy.json", "best.json", "checkpoints/iteration-000004.json"]:
        assert (work / "run" / name).read_bytes() == (work / "whole" / name).read_bytes(), name


def test_bad_input_is_one_clear_error(work):
    with pytest.raises(dist.DistributedError, match='command "play" cannot be sharded'):
        dist.run(["play"], shards=2)
    with pytest.raises(dist.DistributedError, match="without --shard and --out"):
        dist.run(["eval", "--out", "x"], shards=2)
    with pytest.raises(dist.DistributedError, match='"--agent" .*nosuch|nosuch'):
        dist.eval("--agent", "nosuch", shards=2)
    Path("train.json").write_text(json.dumps({"preset": "smoke", "trainer": "reinforce"}))
    with pytest.raises(dist.DistributedError, match='only "es" can be trained in pieces'):
        dist.train(["--config", "train.json", "--out", "r"], shards=2, echo=lambda s: None)


def test_a_merge_into_a_used_folder_is_refused(work):
    args = ["eval", "--agent", "tracker", "--opponent", "random", "--episodes", "3"]
    dist.run(args + ["--seed", "1"], shards=2, out="merged")
    before = {f: (work / "merged" / f).read_bytes() for f in files(work / "merged")}
    with pytest.raises(dist.DistributedError, match="already holds an earlier run's results"):
        dist.run(args + ["--seed", "2"], shards=2, out="merged")
    assert {f: (work / "merged" / f).read_bytes() for f in files(work / "merged")} == before


def test_a_shard_whose_worker_died_is_retried_with_the_same_result(work, ray_cluster):
    import ray

    gym_train(*TOURNAMENT, "--out", "whole")
    marker = work / "killed-once"
    backend = dist.RayBackend(max_retries=2, _kill_once=str(marker))
    dist.tournament(*TOURNAMENT[1:], shards=3, backend=backend, out="merged")
    pid = int(marker.read_text())
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # the worker that ran the first attempt is gone
    assert_identical(work / "whole", work / "merged", TOURNAMENT_FILES)

    # Without retries the same death fails the run: the retry above is what saved it.
    marker.unlink()
    with pytest.raises(dist.DistributedError):
        dist.tournament(*TOURNAMENT[1:], shards=3, backend=dist.RayBackend(max_retries=0, _kill_once=str(marker)),
                        out="never")
    assert ray.is_initialized()


VARIANTS = """{ "game": "pong", "version": 1, "preset": "classic",
  "sets": { "train": { "sampling": "uniform", "ranges": { "paddleWidth": [48, 80] } },
            "near": { "sampling": "uniform", "points": [ { "name": "wide", "values": { "paddleWidth": 76 } } ] },
            "far": { "sampling": "uniform", "points": [ { "name": "tiny", "values": { "paddleWidth": 32 } } ] } },
  "sensitivity": { "paddleWidth": [32, 64, 96] } }
"""


def test_robustness_merges_to_the_unsharded_run(work, backend):
    (work / "variants").mkdir()
    (work / "variants" / "tiny.json").write_text(VARIANTS)
    (work / "short.json").write_text('{"maxScore": 2, "maxSteps": 1500}')
    args = ["robustness", "--agent", "tracker:noise=2", "--agent", "random", "--opponent", "tracker:speed=0.5",
            "--variants", "far", "--variants-file", "variants/tiny.json", "--config", "short.json",
            "--episodes", "3", "--bootstrap", "40", "--seed", "6"]
    gym_train(*args, "--out", "whole")
    dist.robustness(*args[1:], shards=3, backend=backend, out="merged")
    assert_identical(work / "whole", work / "merged", ["config.json", "robustness.csv", "robustness.json",
                                                       "robustness-heatmap.svg", "robustness-sensitivity.svg"])
    # 2 agents × (classic, tiny, paddleWidth=32, paddleWidth=96) × 2 scores, and the header.
    assert len((work / "merged" / "robustness.csv").read_text().splitlines()) == 1 + 2 * 4 * 2


def test_runs_under_a_variant_set_merge_to_the_unsharded_run(work, backend):
    """Tournament and eval with --variants (a variant file by relative path, shipped to the
    nodes): every game plays the rules its seed draws, and the merged records name them
    exactly as the unsharded run's."""
    (work / "variants").mkdir()
    (work / "variants" / "tiny.json").write_text(VARIANTS)
    variants = ["--variants", "train", "--variants-file", "variants/tiny.json"]
    tournament = TOURNAMENT[:7] + ["--pairs", "2", "--seed", "4", "--bootstrap", "40"] + variants
    gym_train(*tournament, "--out", "whole-t")
    dist.tournament(*tournament[1:], shards=3, backend=backend, out="merged-t")
    assert_identical(work / "whole-t", work / "merged-t", TOURNAMENT_FILES)
    lines = (work / "merged-t" / "matches.jsonl").read_text().splitlines()
    assert len(lines) == 12
    rules = [json.loads(line)["rules"] for line in lines]
    assert all(r["set"] == "train" and r["file"] == "variants/tiny.json" for r in rules)
    assert len({r["values"]["paddleWidth"] for r in rules}) == 2, "each pair's seed draws its own rules"

    evaluation = ["eval", "--agent", "tracker:noise=1", "--opponent", "tracker:speed=0.5", "--episodes", "5",
                  "--seed", "3", "--preset", "fast"] + variants
    gym_train(*evaluation, "--out", "whole-e")
    dist.eval(*evaluation[1:], shards=2, backend=backend, out="merged-e")
    assert_identical(work / "whole-e", work / "merged-e", ["config.json", "episodes.csv", "matches.jsonl", "summary.json"])


def test_the_command_line_shards_and_merges(work):
    import sys

    args = ["eval", "--agent", "tracker", "--opponent", "random", "--episodes", "4", "--seed", "3"]
    gym_train(*args, "--out", "whole")
    ok = subprocess.run([sys.executable, "-m", "pbgym.distributed", "--shards", "2", "--out", "merged", *args],
                        capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    assert_identical(work / "whole", work / "merged", ["config.json", "episodes.csv", "summary.json"])
    bad = subprocess.run([sys.executable, "-m", "pbgym.distributed", "--shards", "2", "play"],
                         capture_output=True, text=True)
    assert bad.returncode == 1
    assert bad.stderr.strip().splitlines() == ['error: command "play" cannot be sharded; allowed: eval, tournament, '
                                               'balance record, balance check, sweep, robustness']


# --- Shards with external agents ------------------------------------------------------------

PY_AGENT = """
import numpy as np
def act(obs):
    # Up when the ball is left of the paddle, else down: a policy that depends on the observation.
    return np.where(obs[:, 4] < obs[:, 0], 1, 2).astype(np.int64)
"""


def python_agent_file(work: Path) -> str:
    """agents/py.json (relative, as a user names it) running agents/pyagent.py through pbgym.agents;
    on Ray the driver ships both to the nodes."""
    from pbgym import agents
    (work / "agents").mkdir(exist_ok=True)
    (work / "agents" / "pyagent.py").write_text(PY_AGENT)
    env = {"PYTHONPATH": str(Path(agents.__file__).resolve().parents[1])}
    if os.environ.get("PBGYM_LIBRARY"):
        env["PBGYM_LIBRARY"] = os.environ["PBGYM_LIBRARY"]
    (work / "agents" / "py.json").write_text(json.dumps(
        {"command": [sys.executable, "-m", "pbgym.agents", "pyagent:act"], "environment": env, "name": "py"}))
    return "process:agents/py.json"


def c_agent(work: Path) -> str:
    """tests/agents/constant_agent.c built with cc (as the Swift tests build it), inline by its absolute path."""
    out = work / "constant_agent"
    subprocess.run(["cc", "-O2", "-o", str(out), str(REPO / "tests" / "agents" / "constant_agent.c")], check=True)
    return f"process:cmd={out} 1,name=C1"


@pytest.mark.parametrize("language", ["python", "c"])
def test_shards_with_an_external_agent_merge_to_the_unsharded_run(work, backend, language):
    agent = python_agent_file(work) if language == "python" else c_agent(work)
    (work / "scenarios" / "ext.json").write_text(json.dumps(
        {"game": "pong", "preset": "fast", "seed": 9,
         "scenarios": [{"name": "ext", "a": agent, "b": "tracker:noise=2", "games": 4}]}))
    runs = [
        (["tournament", "--agent", agent, "--agent", "random", "--agent", "tracker:noise=2", "--pairs", "3",
          "--bootstrap", "200"], TOURNAMENT_FILES),
        (["eval", "--agent", agent, "--opponent", "tracker:noise=1", "--episodes", "5"],
         ["config.json", "episodes.csv", "summary.json"]),
        (["sweep", "--scenarios", "scenarios/ext.json", "--grid", "maxScore=2,3", "--allow-agent-programs"], None),
    ]
    for k, (args, expected) in enumerate(runs):
        whole, merged = work / f"whole-{k}", work / f"merged-{k}"
        gym_train(*args, "--out", str(whole))
        dist.run(args, shards=2, backend=backend, out=str(merged))
        if expected is None:
            expected = [f for f in files(whole) if f.endswith(".svg")] + ["sweep.csv", "sweep.json"]
        assert_identical(whole, merged, expected)
        # Each shard ran the agent (its own process) and its log came back with the merge.
        for shard in (1, 2):
            assert list((merged / "agents" / f"shard-{shard}").glob("*.log")), (args[0], shard)
