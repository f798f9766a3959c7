"""Runs gym-train's sharded work on a backend: processes on this machine or a Ray cluster.

Every game's seed is a pure function of (run seed, game index), so a run cut
into shards and merged gives byte for byte the files one process writes.
This module cuts a run into ``--shard K/N`` pieces, plays them on a backend,
brings every shard's folder back to the driver as bytes and combines them
with ``gym-train merge`` — the merge the CLI uses, in shard index order,
never in completion order.

- :func:`run` (and :func:`eval`, :func:`tournament`, :func:`balance_record`,
  :func:`balance_check`, :func:`sweep`, :func:`robustness`): one sharded command.
- :func:`train`: ES training whose population is played in pieces on the
  backend (``gym-train es-members``) while the driver's ``gym-train train
  --remote-members`` runs everything else (update, evaluation, checkpoints):
  the weights are bit-identical to ``gym-train train`` with the same config.

Backends: :class:`LocalBackend` (processes on this machine) and
:class:`RayBackend` (one Ray task per shard; a task whose worker died is
retried). A node runs the ``gym-train`` executable shipped inside this
package: it needs the installed package, no Swift toolchain. See
docs/distributed.md.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Union

__all__ = ["executable", "DistributedError", "Result", "LocalBackend", "RayBackend", "make_backend", "shard_range",
           "run", "eval", "tournament", "balance_record", "balance_check", "sweep", "robustness", "train"]

# The subcommands whose games (sweep cells, robustness conditions) shard, as run.json names them.
SHARDED = {"eval": "eval", "tournament": "tournament", "balance record": "balance-record",
           "balance check": "balance-check", "sweep": "sweep", "robustness": "robustness"}
REQUEST_PREFIX = "pbgym-es-request "


class DistributedError(RuntimeError):
    """A shard, the merge or the training driver failed; the message holds gym-train's own error line."""


def executable() -> str:
    """The gym-train executable: $PBGYM_EXECUTABLE, else the one shipped in the package (pbgym/bin)."""
    override = os.environ.get("PBGYM_EXECUTABLE")
    if override:
        return override
    path = Path(__file__).resolve().parent / "bin" / "gym-train"
    if not path.exists():
        raise DistributedError(f"pbgym: {path} is missing; reinstall the package (pip builds it) "
                               "or set PBGYM_EXECUTABLE to a gym-train executable")
    return str(path)


def shard_range(count: int, k: int, n: int) -> range:
    """Items of shard ``k`` of ``n`` (1-based) of ``count``: the CLI's cut, ``count·(k−1)/n ..< count·k/n``."""
    return range(count * (k - 1) // n, count * k // n)


def _failure(what: str, proc: subprocess.CompletedProcess) -> DistributedError:
    lines = [ln for ln in (proc.stderr or "").splitlines() if ln.strip()]
    return DistributedError(f"{what} failed (exit status {proc.returncode}): {lines[-1] if lines else 'no message'}")


def _write_files(root: Path, files: Dict[str, bytes]) -> None:
    for rel, data in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def _read_folder(folder: Path) -> Dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def play_piece(argv: Sequence[str], files: Dict[str, bytes], out_flag: bool, cwd: Optional[str] = None,
               kill_once: Optional[str] = None) -> Dict[str, bytes]:
    """Runs ``gym-train argv`` in a fresh folder and returns what it wrote.

    ``files`` (relative path → bytes) are written into the folder the command
    runs in (so relative paths in ``argv`` resolve there); ``cwd`` runs it in
    an existing folder instead. With ``out_flag`` the command gets ``--out``
    a fresh folder and the result is that folder's files; otherwise the
    command names its output ``{out}`` in ``argv`` and the result is that one
    file (key ``""``). ``kill_once`` is a test hook: when that marker file
    does not exist yet, create it and kill this process (a worker dying
    mid-job).
    """
    if kill_once is not None and not os.path.exists(kill_once):
        Path(kill_once).write_text(str(os.getpid()))
        os.kill(os.getpid(), signal.SIGKILL)
    with tempfile.TemporaryDirectory(prefix="pbgym-piece-") as tmp:
        work = Path(tmp) / "work"
        work.mkdir()
        _write_files(work, files)
        out = Path(tmp) / "out"
        args = [a.replace("{out}", str(out)) for a in argv]
        if out_flag:
            args += ["--out", str(out)]
        proc = subprocess.run([executable(), *args], cwd=cwd or str(work), capture_output=True, text=True)
        if proc.returncode != 0:
            raise _failure("gym-train " + " ".join(argv), proc)
        return _read_folder(out) if out_flag else {"": out.read_bytes()}


# Backends ---------------------------------------------------------------------------------------------------------

@dataclass
class Piece:
    """One unit of work: the gym-train arguments and the files it needs."""
    argv: List[str]
    files: Dict[str, bytes]
    out_flag: bool = True


class LocalBackend:
    """Runs pieces as processes on this machine, ``processes`` at a time (default: the machine's cores)."""

    name = "local"

    def __init__(self, processes: Optional[int] = None):
        self.processes = max(1, processes or os.cpu_count() or 1)

    def map(self, pieces: Sequence[Piece]) -> List[Dict[str, bytes]]:
        """The pieces' outputs, in the order of ``pieces``. A piece without files runs in the driver's folder."""
        cwd = os.getcwd()
        with ThreadPoolExecutor(max_workers=self.processes) as pool:
            futures = [pool.submit(play_piece, p.argv, p.files, p.out_flag, None if p.files else cwd) for p in pieces]
            return [f.result() for f in futures]


class RayBackend:
    """One Ray task per piece; results come back as bytes in submission order.

    ``address``: an existing cluster (``"auto"``, ``"ray://host:10001"``,
    ``"host:6379"``); None joins the cluster ``ray.init`` already connected to,
    or starts a local one. ``max_retries``: how often a task whose worker
    died is run again (pieces are pure, so a retry gives the same bytes).
    ``num_cpus``: CPUs Ray reserves per task (the piece's ``--workers``).
    """

    name = "ray"

    def __init__(self, address: Optional[str] = None, max_retries: int = 3, num_cpus: int = 1,
                 _kill_once: Optional[str] = None):
        try:
            import ray
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise DistributedError("the ray backend needs Ray: pip install 'pbgym[ray]'") from e
        self._ray = ray
        if not ray.is_initialized():
            if address:
                ray.init(address=address, log_to_driver=False)
            else:
                ray.init(include_dashboard=False, log_to_driver=False)
        self.max_retries = max_retries
        self.num_cpus = num_cpus
        self._kill_once = _kill_once
        self._task = ray.remote(play_piece).options(max_retries=max_retries, num_cpus=num_cpus)

    def map(self, pieces: Sequence[Piece]) -> List[Dict[str, bytes]]:
        """The pieces' outputs in the order of ``pieces`` (ray.get keeps submission order)."""
        refs = [self._task.remote(p.argv, p.files, p.out_flag, None, self._kill_once) for p in pieces]
        try:
            return self._ray.get(refs)
        except self._ray.exceptions.RayTaskError as e:  # the piece failed: gym-train's own error line
            cause = e.cause if isinstance(getattr(e, "cause", None), Exception) else e
            raise DistributedError(str(cause).strip().splitlines()[-1]) from e
        except self._ray.exceptions.RayError as e:  # a worker or node died more often than max_retries allows
            raise DistributedError(f"a piece was lost: {str(e).strip().splitlines()[0]}") from e


Backend = Union[LocalBackend, RayBackend]


def make_backend(backend: Union[str, Backend], address: Optional[str] = None, workers: Optional[int] = None) -> Backend:
    """A backend from its name ("local" or "ray"), or the backend given."""
    if not isinstance(backend, str):
        return backend
    if backend == "local":
        return LocalBackend()
    if backend == "ray":
        return RayBackend(address=address, num_cpus=workers or 1)
    raise DistributedError(f'backend "{backend}" is unknown; allowed: local, ray')


# Sharded commands -------------------------------------------------------------------------------------------------

@dataclass
class Result:
    """A merged run: its folder, the merge's output and exit status (balance check: 1 = a metric moved)."""
    out: Optional[Path]
    stdout: str
    returncode: int


def _option(args: Sequence[str], name: str) -> List[str]:
    values = []
    for i, a in enumerate(args):
        if a == name and i + 1 < len(args):
            values.append(args[i + 1])
        elif a.startswith(name + "="):
            values.append(a[len(name) + 1:])
    return values


def _agent_files(spec: str) -> List[str]:
    """Files an agent spec reads, by relative path: ``linear:PATH``'s checkpoint; ``process:PATH``'s
    (or ``process:file=PATH``'s) agent file, and in the agent's working folder (the file's own
    unless it names another) the scripts and modules its command names: an argument that is a
    file there (``agent.py``) or a ``MODULE:CALLABLE`` with ``MODULE.py`` there (``python -m
    pbgym.agents ppo_agent:act``). A program the command runs directly must be on every node."""
    kind, _, rest = spec.partition(":")
    if kind == "linear":
        return [rest]
    if kind != "process" or rest.startswith("cmd="):
        return []
    path = rest[len("file="):] if rest.startswith("file=") else rest
    if not path or os.path.isabs(path) or not os.path.isfile(path):
        return []
    names = [path]
    try:
        doc = json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return names  # gym-train reports the bad file
    directory = doc.get("directory", ".") if isinstance(doc, dict) else "."
    if not isinstance(directory, str) or os.path.isabs(directory):
        return names
    folder = os.path.normpath(os.path.join(os.path.dirname(path), directory))
    for arg in (doc.get("command") or [])[1:] if isinstance(doc.get("command"), list) else []:
        if not isinstance(arg, str) or not arg or os.path.isabs(arg):
            continue
        module = arg.partition(":")[0].replace(".", "/") + ".py" if ":" in arg else None
        for candidate in filter(None, (arg, module)):
            rel = os.path.normpath(os.path.join(folder, candidate))
            if os.path.isfile(rel) and not rel.startswith(".."):
                names.append(rel)
    return names


def _needed_files(subcommand: str, args: Sequence[str]) -> Dict[str, bytes]:
    """Files the run reads, by the relative paths ``args`` name them: plain arguments naming a file,
    the files of the agent specs in the arguments and in scenario files (:func:`_agent_files`), and a
    balance check's baseline. A node writes them at the same relative paths before it runs its shard;
    absolute paths must exist on every node."""
    names = []
    specs = []
    for a in args:
        if ".." in Path(a).parts and os.path.exists(a):
            raise DistributedError(f"{a}: a path through .. cannot be shipped to a node; name it inside this "
                                   "folder or by an absolute path that every node has")
        names.append(a)
        specs += [spec for part in a.split(";") for spec in part.split(",")]
        if a.endswith(".json") and not os.path.isabs(a) and os.path.isfile(a):
            try:
                doc = json.loads(Path(a).read_text())
            except (OSError, ValueError):
                doc = None
            for scenario in doc.get("scenarios", []) if isinstance(doc, dict) else []:
                if isinstance(scenario, dict):
                    specs += [str(scenario[k]).split(",")[0] for k in ("a", "b") if k in scenario]
    for spec in specs:
        names += _agent_files(spec)
    if subcommand == "balance check":
        base = (_option(args, "--baselines") or ["Results/baselines"])[-1]
        names += [os.path.join(base, os.path.basename(s)) for s in _option(args, "--scenarios")]
    return {n: Path(n).read_bytes() for n in dict.fromkeys(names)
            if n and not os.path.isabs(n) and os.path.isfile(n)}


def run(args: Sequence[str], shards: int, backend: Union[str, Backend] = "local", out: Optional[str] = None,
        address: Optional[str] = None, workers: Optional[int] = None) -> Result:
    """Runs ``gym-train ARGS`` as ``shards`` shards on ``backend`` and merges them into ``out``.

    ``args``: the command line after ``gym-train`` (``["tournament", "--agent", "random", ...]``;
    eval, tournament (round-robin, gauntlet), balance record, balance check, sweep, robustness), without
    ``--shard`` and ``--out``. ``workers``: each shard's ``--workers`` (default 1; results never
    depend on it). ``out``: the merged folder, new or empty (gym-train refuses a folder that
    holds an earlier run's results). The merged files are the unsharded run's, byte for byte
    (run.json and timing.json aside). Returns the merge's folder, output and exit status.
    """
    args = list(args)
    sub = " ".join(args[:2]) if args[:1] == ["balance"] else (args[0] if args else "")
    if sub not in SHARDED:
        raise DistributedError(f'command "{sub}" cannot be sharded; allowed: {", ".join(SHARDED)}')
    if "--shard" in args or _option(args, "--shard") or "--out" in args or _option(args, "--out"):
        raise DistributedError("give the command without --shard and --out (run sets them; the merged folder is out=)")
    if not 1 <= shards <= 4096:
        raise DistributedError(f"shards = {shards} is out of range; allowed: 1 ... 4096")
    if not _option(args, "--workers"):
        args += ["--workers", str(workers or 1)]
    be = make_backend(backend, address, workers)
    files = _needed_files(sub, args) if be.name != "local" else {}
    pieces = [Piece(args + ["--shard", f"{k}/{shards}"], files) for k in range(1, shards + 1)]
    outputs = be.map(pieces)
    with tempfile.TemporaryDirectory(prefix="pbgym-merge-") as tmp:
        folders = []
        for k, files_out in enumerate(outputs, start=1):  # index order: outputs are in submission order
            folder = Path(tmp) / f"shard-{k}"
            _write_files(folder, files_out)
            folders.append(str(folder))
        cmd = [executable(), "merge"] + (["--out", out] if out else []) + folders
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode in (0, 1) and out:
            # External agents' standard error logs (agents/NAME-K.log in each shard's folder, not
            # results: the merge leaves them) are kept as agents/shard-K/NAME-K.log.
            for k, files_out in enumerate(outputs, start=1):
                logs = {f"agents/shard-{k}/{rel[len('agents/'):]}": data
                        for rel, data in files_out.items() if rel.startswith("agents/")}
                _write_files(Path(out), logs)
    # A balance check whose metrics moved exits 1 after printing its table; any other failure is an error line.
    moved = sub == "balance check" and proc.returncode == 1 and proc.stdout.strip() != ""
    if proc.returncode != 0 and not moved:
        raise _failure("gym-train merge", proc)
    return Result(Path(out) if out else None, proc.stdout, proc.returncode)


def eval(*args: str, shards: int, **kw) -> Result:  # noqa: A001 - the CLI's name
    """``gym-train eval ARGS`` in shards (see :func:`run`)."""
    return run(["eval", *args], shards, **kw)


def tournament(*args: str, shards: int, **kw) -> Result:
    """``gym-train tournament ARGS`` in shards (round-robin or gauntlet; see :func:`run`)."""
    return run(["tournament", *args], shards, **kw)


def balance_record(*args: str, shards: int, **kw) -> Result:
    """``gym-train balance record --scenarios FILE ...`` in shards; the merged folder holds the baseline."""
    return run(["balance", "record", *args], shards, **kw)


def balance_check(*args: str, shards: int, **kw) -> Result:
    """``gym-train balance check --scenarios FILE ...`` in shards; ``returncode`` 1 when a metric moved."""
    return run(["balance", "check", *args], shards, **kw)


def sweep(*args: str, shards: int, **kw) -> Result:
    """``gym-train sweep --scenarios FILE --grid KEY=V1,... ...`` in shards (cells shard like games)."""
    return run(["sweep", *args], shards, **kw)


def robustness(*args: str, shards: int, **kw) -> Result:
    """``gym-train robustness --agent SPEC ... --variants SET ...`` in shards (conditions, agent × rules,
    shard like games; a ``--variants-file`` named by a relative path is shipped to Ray nodes)."""
    return run(["robustness", *args], shards, **kw)


# ES training ------------------------------------------------------------------------------------------------------

def train(args: Sequence[str] = (), shards: int = 2, backend: Union[str, Backend] = "local",
          address: Optional[str] = None, workers: Optional[int] = None,
          echo: Optional[Callable[[str], None]] = None) -> subprocess.CompletedProcess:
    """ES training with each iteration's population played in ``shards`` pieces on ``backend``.

    ``args``: ``gym-train train``'s options (``--config FILE --out DIR``, overrides, or
    ``--resume DIR``). The driver runs ``gym-train train ARGS --remote-members`` here: it
    writes each iteration's request (config and checkpoint), the pieces ``gym-train
    es-members`` play members ``population·(k−1)/shards ..< population·k/shards`` on the
    backend, and the driver's process applies the update from their results joined in member
    order — the code ``gym-train train`` runs, so every weight is bit-identical to it, and
    checkpoints and ``--resume`` work as on one machine. ``workers``: each piece's
    ``--workers`` (default 1). ``echo`` receives gym-train's other output lines (default:
    printed). Returns the finished process (stdout holds those lines). When a piece fails (or on
    KeyboardInterrupt) the driver's gym-train stops as if interrupted: the checkpoint of the last
    whole iteration is written, and ``--resume DIR`` continues bit-identically.
    """
    be = make_backend(backend, address, workers)
    cmd = [executable(), "train", *args, "--remote-members"]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            bufsize=1)
    lines: List[str] = []
    piece_dir: Optional[Path] = None
    stderr_lines: List[str] = []
    reader = ThreadPoolExecutor(max_workers=1)
    stderr_done = reader.submit(lambda: stderr_lines.extend(proc.stderr))  # never blocks the driver on a full pipe
    try:
        assert proc.stdout is not None and proc.stdin is not None
        for line in proc.stdout:
            if not line.startswith(REQUEST_PREFIX):
                lines.append(line)
                (echo or (lambda s: print(s, end="", file=sys.stdout)))(line)
                continue
            request_path = Path(line[len(REQUEST_PREFIX):].rstrip("\n"))
            request = request_path.read_bytes()
            doc = json.loads(request)
            population = doc["population"]
            # Opponents named linear:PATH (relative) go with the request, like a shard's files.
            shipped = {"request.json": request, **_needed_files("train", [str(doc["config"].get("opponent", ""))])}
            n = max(1, min(shards, population))
            argv_base = ["es-members", "--request", "request.json", "--out", "{out}",
                         "--workers", str(workers or 1)]
            pieces = []
            for k in range(1, n + 1):
                r = shard_range(population, k, n)
                pieces.append(Piece(argv_base + ["--first", str(r.start), "--end", str(r.stop)],
                                    shipped, out_flag=False))
            outputs = be.map(pieces)
            piece_dir = request_path.parent / "es-pieces"
            piece_dir.mkdir(exist_ok=True)
            paths = []
            for k, o in enumerate(outputs, start=1):
                p = piece_dir / f"piece-{k}.json"
                p.write_bytes(o[""])
                paths.append(str(p))
            proc.stdin.write(json.dumps(paths) + "\n")
            proc.stdin.flush()
    except BaseException:
        # Closing stdin stops gym-train as an interruption does: it writes the checkpoint of the last whole
        # iteration, so the run resumes (train(["--resume", DIR])) where it stopped.
        proc.stdin.close()
        proc.wait()
        raise
    finally:
        if proc.stdin:
            proc.stdin.close()
        proc.wait()
        stderr_done.result()
        reader.shutdown()
    done = subprocess.CompletedProcess(cmd, proc.returncode, "".join(lines), "".join(stderr_lines))
    if piece_dir is not None:
        shutil.rmtree(piece_dir, ignore_errors=True)
    if proc.returncode != 0:
        raise _failure("gym-train train --remote-members", done)
    return done


# Command line -----------------------------------------------------------------------------------------------------

def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m pbgym.distributed [options] COMMAND ARGS...``: COMMAND is a gym-train command that shards
    (eval, tournament, balance record|check, sweep, robustness) or ``train`` (ES with the population in pieces)."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m pbgym.distributed",
        description="Run a gym-train command in shards on a backend and merge to the unsharded run's files "
                    "(or train ES with each iteration's population in pieces).")
    parser.add_argument("--backend", choices=["local", "ray"], default="local")
    parser.add_argument("--address", help="Ray: the cluster to join (auto, HOST:6379, ray://HOST:10001)")
    parser.add_argument("--shards", type=int, default=os.cpu_count() or 1,
                        help="shards (train: pieces per iteration); default: this machine's cores")
    parser.add_argument("--workers", type=int, help="each shard's --workers (default 1)")
    parser.add_argument("--out", help="the merged folder (train: the run folder)")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the gym-train command and its options")
    ns = parser.parse_args(argv)
    if not ns.command:
        parser.error("give a command: eval, tournament, balance record, balance check, sweep, robustness or train")
    try:
        if ns.command[0] == "train":
            args = ns.command[1:] + (["--out", ns.out] if ns.out else [])
            train(args, shards=ns.shards, backend=ns.backend, address=ns.address, workers=ns.workers)
            return 0
        result = run(ns.command, ns.shards, backend=ns.backend, out=ns.out, address=ns.address, workers=ns.workers)
    except DistributedError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(result.stdout, end="")
    return result.returncode


if __name__ == "__main__":
    sys.exit(main())
