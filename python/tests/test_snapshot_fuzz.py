"""The structure-aware snapshot fuzzer (snapshot_fuzz.py) through the C ABI, in subprocesses.

A trap in the library kills the process that runs the case, never pytest:
the loop's subprocesses print the case they begin, so a dead one names
its case (and the loop goes on after it, so one trap hides no other); a
sample of cases also runs each in a process of its own. Every case must
pass the fuzzer's oracles (no finding), and none may kill its process.
"""

import json
import os
import selectors
import signal
import subprocess
import sys
from pathlib import Path

from pbgym import _lib

HERE = Path(__file__).resolve().parent
RUNNER = HERE / "snapshot_fuzz.py"
# Cases of the loop (PBGYM_FUZZ_CASES overrides), split over this many subprocesses run at once.
CASES = int(os.environ.get("PBGYM_FUZZ_CASES", "100000"))
PROCESSES = 2
# Cases run each in a process of its own.
# A process that begins no case for this long is stuck in one (a case takes
# milliseconds): it is stopped and the case reported as a hang.
STALL_SECONDS = 300
ALONE = [0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987, 1597, 2584, 4181, 6765, 10946,
         17711, 28657, 46368, 75025, 99991]


def launch(first: int, count: int) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, str(RUNNER), _lib._library_path(), str(first), str(count)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def died(code: int) -> str:
    return f"signal {signal.Signals(-code).name}" if code < 0 else f"exit {code}"


def finish(proc: subprocess.Popen, first: int, count: int) -> tuple[dict | None, str | None, int]:
    """The run's summary, or how it died (or hung) and the case it was in, and where to go on."""
    case, summary, hung, pending = first, None, False, b""
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        while True:
            if not sel.select(timeout=STALL_SECONDS):
                proc.kill()
                hung = True
                break
            chunk = os.read(proc.stdout.fileno(), 1 << 16)
            if not chunk:
                break
            *lines, pending = (pending + chunk).split(b"\n")
            for line in lines:
                if line.startswith(b"begin "):
                    case = int(line.split()[1])
                elif line.startswith(b"summary "):
                    summary = json.loads(line[len(b"summary "):])
    proc.wait()
    err = proc.stderr.read().decode("utf-8", "replace")
    proc.stdout.close()
    proc.stderr.close()
    if proc.returncode == 0 and summary is not None:
        return summary, None, first + count
    how = f"hung (no case begun for {STALL_SECONDS} s)" if hung else f"died ({died(proc.returncode)})"
    tail = " | ".join(err.strip().splitlines()[-3:])
    return None, f"case {case}: the process {how}: {tail}", case + 1


def add(summary: dict, totals: dict, findings: list) -> None:
    """Adds one process's counts and findings to the run's."""
    for k in ("cases", "accepted", "refused", "steps_after"):
        totals[k] = totals.get(k, 0) + summary[k]
    findings += summary["findings"]


def run_range(first: int, count: int, totals: dict, crashes: list, findings: list) -> None:
    """Cases first ..< first + count in one process, restarted after a case that kills it."""
    end = first + count
    while first < end and len(crashes) < 20:
        summary, crash, first_next = finish(launch(first, end - first), first, end - first)
        if summary is not None:
            add(summary, totals, findings)
        else:
            crashes.append(crash)
            totals["cases"] = totals.get("cases", 0) + (first_next - first)
        first = first_next


def test_snapshot_fuzz_loop():
    """CASES cases in PROCESSES subprocesses: none traps, none breaks an oracle."""
    per = -(-CASES // PROCESSES)
    ranges = [(k * per, min(per, CASES - k * per)) for k in range(PROCESSES)]
    totals: dict = {}
    crashes: list = []
    findings: list = []
    # The processes of the ranges run at once; a range whose process dies goes on alone after it.
    procs = [(first, count, launch(first, count)) for first, count in ranges]
    for first, count, proc in procs:
        summary, crash, go_on = finish(proc, first, count)
        if summary is not None:
            add(summary, totals, findings)
        else:
            crashes.append(crash)
            totals["cases"] = totals.get("cases", 0) + (go_on - first)
            run_range(go_on, first + count - go_on, totals, crashes, findings)
    print(f"snapshot fuzz: {json.dumps(totals)}; {len(crashes)} crashes, {len(findings)} findings")
    assert not crashes, "\n".join(crashes)
    assert not findings, "\n".join(findings[:20])
    assert totals["cases"] == CASES
    # Both outcomes are exercised: forged states are refused, harmless changes accepted and played on.
    assert totals["refused"] > CASES // 4 and totals["accepted"] > CASES // 10, totals


def test_snapshot_fuzz_cases_each_alone():
    """A sample of the loop's cases, each in a process of its own, gives the same verdicts."""
    procs = [(k, launch(k, 1)) for k in ALONE]
    failures = []
    for k, proc in procs:
        summary, crash, _ = finish(proc, k, 1)
        if crash:
            failures.append(crash)
        elif summary["findings"] or summary["cases"] != 1:
            failures.append(f"case {k}: {summary}")
    assert not failures, "\n".join(failures)


FORGED = r"""
import ctypes, json, struct, sys
sys.path.insert(0, sys.argv[2])
import snapshot_fuzz as f
lib = f.Library(sys.argv[1])
env = f.Env(lib, "breakout classic", {"game": "breakout", "num_games": 9, "seed": 3})
env.play_to(40)
blob = f.Blob(env.snapshot(3))
core = blob.doc["state"]["core"]
core.update(score=2**31 - 1, bricksLeft=-(2**31), hitsSinceServe=2**31 - 1, speedUpsPassed=-1)
status = env.restore(3, blob.pack(json.dumps(blob.doc).encode()))
print(status, lib.error())
for _ in range(3000):
    assert env.step(f.random.Random(1)) == 0, lib.error()
print("stepped")
"""


def test_forged_counters_of_the_issue_are_refused_by_name():
    """Breakout with score Int32.max, bricksLeft Int32.min, hitsSinceServe
    Int32.max, speedUpsPassed -1 and a valid checksum: refused (status 5,
    naming the field, its value and what is allowed), and the game plays on."""
    proc = subprocess.run([sys.executable, "-c", FORGED, _lib._library_path(), str(HERE)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, f"{died(proc.returncode)}: {proc.stdout} {proc.stderr[-500:]}"
    first, stepped = proc.stdout.splitlines()
    assert first.startswith("5 snapshot: corrupt snapshot: state.core.bricksLeft = -2147483648 is impossible"), first
    assert "allowed:" in first and stepped == "stepped"


def test_the_runner_reports_a_trap_with_its_case(tmp_path):
    """The loop's bookkeeping: a process killed in a case is reported with
    that case, and the cases after it still run."""
    fake = tmp_path / "runner.py"
    fake.write_text("import os, sys\nfirst, count = int(sys.argv[2]), int(sys.argv[3])\n"
                    "for k in range(first, first + count):\n"
                    "    print(f'begin {k}', flush=True)\n"
                    "    if k == 7: os.kill(os.getpid(), 4)\n"
                    "print('summary {\"cases\": %d, \"accepted\": 0, \"refused\": %d, \"steps_after\": 0, "
                    "\"findings\": []}' % (count, count))\n")
    global RUNNER
    saved, RUNNER = RUNNER, fake
    try:
        totals, crashes, findings = {}, [], []
        run_range(0, 20, totals, crashes, findings)
    finally:
        RUNNER = saved
    assert len(crashes) == 1 and crashes[0].startswith("case 7: the process died (signal SIGILL)"), crashes
    assert totals == {"cases": 20, "refused": 12, "accepted": 0, "steps_after": 0}, totals
