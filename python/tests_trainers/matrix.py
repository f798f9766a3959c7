"""Prints the trainer matrix (``make test-trainers``) as docs/python.md's
table: the versions of every client, then one row per recorded check."""

import json
import sys
from importlib import metadata

CLIENTS = ["pbgym", "gymnasium", "pettingzoo", "stable-baselines3", "supersuit", "ray", "torch", "numpy"]


def main(path: str) -> int:
    rows = [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
    versions = ", ".join(f"{name} {metadata.version(name)}" for name in CLIENTS)
    print(f"Versions: {versions}, Python {sys.version.split()[0]}.\n")
    print("| client | check | result |")
    print("|---|---|---|")
    for r in rows:
        print(f"| {r['client']} | {r['check']} | {r['result']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
