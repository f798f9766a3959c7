"""A linear policy in numpy served as a gym-train external agent.

Reads a gym-train linear checkpoint (the file `gym-train train` writes, e.g.
Results/<run>/best.json) named by $CHECKPOINT and plays its greedy action:
logits = W x + b argmax (checkpoints without an
observation normaliser). Run it with `python -m pbgym.agents linear_agent:make --factory` from
this folder, or through an agent file (docs/agents.md):

    {"command": ["python3", "-m", "pbgym.agents", "linear_agent:make", "--factory"],
     "environment": {"CHECKPOINT": "Results/run/best.json"}}
"""

import json
import os

import numpy as np


def make(info):
    with open(os.environ["CHECKPOINT"]) as f:
        checkpoint = json.load(f)
    inputs, outputs = checkpoint["inputs"], checkpoint["outputs"]
    if (inputs,) != info.shape or outputs != info.actions:
        raise ValueError(f"checkpoint is {inputs} inputs x {outputs} actions; the game has {info.shape} x {info.actions}")
    w = np.asarray(checkpoint["weights"], np.float32).reshape(outputs, inputs).T.copy()
    b = np.asarray(checkpoint["bias"], np.float32)
    if checkpoint.get("normalizer"):
        raise ValueError("this example plays checkpoints without an observation normaliser only")

    def act(observations):
        return (observations @ w + b).argmax(axis=1)

    return act
