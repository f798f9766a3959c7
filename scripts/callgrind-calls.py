#!/usr/bin/env python3
"""Calls and inclusive instructions of the functions a pattern names, from
a callgrind output file (valgrind --tool=callgrind):

    python3 scripts/callgrind-calls.py callgrind.out.PID PATTERN

Sums, over every call edge whose callee's (mangled) name contains PATTERN,
the calls and the instructions (Ir) spent inside those calls, callees
included, and prints them with their quotient. With PATTERN a batch's
`step` (Pong: 9PongBatchC4step7actions4into), Ir per call divided by the
games per chunk (bench: Pong 64, Breakout 32) is instructions per game
step, the bench's actions and timing left out."""
import re
import sys

path, pattern = sys.argv[1], sys.argv[2]
names = {}
events = None
calls = ir = 0
pending = None  # calls of the edge whose cost line comes next
callee = None


def name_of(spec):
    m = re.match(r"\((\d+)\)(?: (.*))?", spec)
    if not m:
        return spec
    if m.group(2) is not None:
        names[m.group(1)] = m.group(2)
    return names.get(m.group(1), "")


for line in open(path, errors="replace"):
    line = line.rstrip("\n")
    if line.startswith("events:"):
        events = line.split()[1:]
    elif line.startswith("fn="):
        name_of(line[3:])
    elif line.startswith("cfn="):
        callee = name_of(line[4:])
    elif line.startswith("calls="):
        pending = int(line[6:].split()[0]) if callee and pattern in callee else None
    elif pending is not None and line and (line[0].isdigit() or line[0] in "+-*"):
        costs = line.split()[1:]
        calls += pending
        ir += int(costs[events.index("Ir")]) if costs else 0
        pending = None
if calls == 0:
    sys.exit(f"callgrind-calls: no call to a function matching {pattern!r} in {path}")
print(f"{calls} calls, {ir} Ir, {ir / calls:.1f} Ir per call")
