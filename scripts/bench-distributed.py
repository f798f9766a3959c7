"""The cost of pbgym.distributed against one process: one tournament and one ES run, each
played by one gym-train process, by the local backend and on a local two-node Ray cluster
(ray.cluster_utils.Cluster, NODE_CPUS CPUs per node), with the merged files checked
against the one-process run. Prints wall seconds per path (a benchmark, not a test).

Run from the repository root with the package installed (make python-venv):
    .venv/bin/python scripts/bench-distributed.py [--pairs 60] [--iterations 40] [--node-cpus 1]
"""

import argparse
import filecmp
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from pbgym import distributed as dist


def timed(f):
    start = time.perf_counter()
    f()
    return time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=60, help="tournament: game pairs per pairing")
    ap.add_argument("--iterations", type=int, default=40, help="ES iterations of Configs/train.json")
    ap.add_argument("--node-cpus", type=int, default=1, help="CPUs of each of the two Ray nodes")
    ap.add_argument("--shards", type=int, default=2, help="shards (tournament) and pieces per iteration (ES)")
    ns = ap.parse_args()
    exe = dist.executable()
    config = str(Path("Configs/train.json").resolve())
    tmp = Path(tempfile.mkdtemp(prefix="pbgym-bench-"))
    cores = os.cpu_count() or 1
    tournament = ["tournament", "--agent", "random", "--agent", "tracker", "--agent", "tracker:noise=1,name=T1",
                  "--agent", "tracker:noise=2,name=T2", "--agent", "tracker:reaction=3,name=R3",
                  "--pairs", str(ns.pairs), "--seed", "1"]
    train = ["--config", config, "--iterations", str(ns.iterations)]
    rows = []

    def one_process_tournament():
        subprocess.run([exe, *tournament, "--workers", str(cores), "--out", str(tmp / "t-one")], check=True,
                       capture_output=True)

    def one_process_train():
        subprocess.run([exe, "train", *train, "--workers", str(cores), "--out", str(tmp / "es-one")], check=True,
                       capture_output=True)

    rows.append(("tournament", "one process", timed(one_process_tournament)))
    rows.append(("ES", "one process", timed(one_process_train)))

    local = dist.LocalBackend(processes=ns.shards)
    rows.append(("tournament", f"local backend, {ns.shards} shards",
                 timed(lambda: dist.run(tournament, ns.shards, backend=local, out=str(tmp / "t-local")))))
    rows.append(("ES", f"local backend, {ns.shards} pieces",
                 timed(lambda: dist.train(train + ["--workers", str(cores), "--out", str(tmp / "es-local")],
                                          shards=ns.shards, backend=local, echo=lambda s: None))))

    import ray
    from ray.cluster_utils import Cluster

    start = time.perf_counter()
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": ns.node_cpus, "include_dashboard": False})
    cluster.add_node(num_cpus=ns.node_cpus)
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, log_to_driver=False)
    ray_backend = dist.RayBackend(num_cpus=1)
    rows.append(("(cluster start)", "2 nodes", time.perf_counter() - start))
    try:
        rows.append(("tournament", f"Ray 2 nodes, {ns.shards} shards",
                     timed(lambda: dist.run(tournament, ns.shards, backend=ray_backend, out=str(tmp / "t-ray")))))
        rows.append(("ES", f"Ray 2 nodes, {ns.shards} pieces",
                     timed(lambda: dist.train(train + ["--workers", str(cores), "--out", str(tmp / "es-ray")],
                                              shards=ns.shards, backend=ray_backend, echo=lambda s: None))))
    finally:
        ray.shutdown()
        cluster.shutdown()

    same = True
    for name in ["matches.jsonl", "ratings.csv", "matrix.csv", "summary.json"]:
        for other in ["t-local", "t-ray"]:
            same &= filecmp.cmp(tmp / "t-one" / name, tmp / other / name, shallow=False)
    for other in ["es-local", "es-ray"]:
        same &= filecmp.cmp(tmp / "es-one" / "policy.json", tmp / other / "policy.json", shallow=False)
    games = 10 * 2 * ns.pairs
    print(f"tournament: 5 agents, {ns.pairs} pairs per pairing ({games} games); "
          f"ES: Configs/train.json, {ns.iterations} iterations; {cores} cores")
    for what, how, seconds in rows:
        print(f"  {what:16s} {how:28s} {seconds:8.2f} s")
    print("  merged files and ES weights identical to the one-process run:", "yes" if same else "NO")
    shutil.rmtree(tmp, ignore_errors=True)
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
