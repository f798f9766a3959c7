"""Serve a policy as an external agent of gym-train (the protocol of docs/agents.md).

A few lines turn any callable over a batch of observations into an agent that
``gym-train`` starts as a process and talks to over stdin/stdout::

    import numpy as np
    from pbgym.agents import serve

    W = np.load("weights.npy")                 # (features, actions)
    serve(lambda obs: (obs @ W).argmax(axis=1), name="numpy-linear")

``act`` receives the observation rows of every game the agent plays in one
step, as one numpy array: ``(n, features)`` float32, or ``(n, height, width)``
uint8 for pixel agents. It returns either ``n`` actions (integers) or ``(n,
actions)`` scores (logits, Q-values), of which the highest is taken (ties: the
lowest index). A PyTorch module works as it is: its input is a float32 tensor
(pixels scaled to [0, 1]) and it runs under ``torch.no_grad()``; torch is
imported only when a module is served.

``reset(game, seed, seat)`` is called when game ``game`` (an index in
``0 ... info.games - 1``) starts an episode: ``seed`` (an unsigned 64-bit
integer) is the agent's seed for that episode, ``seat`` its seat (Pong: 0
bottom, 1 top; Breakout: 0). ``end(game)`` is called when it ends. Stateful
agents (frame stacks, recurrent state) keep per-game state by these indices;
with ``games=True`` ``act`` is called as ``act(observations, games)`` with the
rows' game indices.

Run one from a module path: ``python -m pbgym.agents MODULE:CALLABLE``
(``--factory``: call ``CALLABLE(info)`` once after the handshake to make the
act function; ``--reset``/``--end``: more ``MODULE:CALLABLE`` names).

While serving, ``sys.stdout`` is pointed at stderr, so a stray ``print``
cannot corrupt the protocol stream (stderr is the gym's log of the agent).
This module needs only numpy and the standard library.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import io
import os
import struct
import sys
from typing import Any, Callable, Optional

import numpy as np

PROTOCOL_VERSION = 1

# Message types (docs/agents.md, "Messages").
HELLO, START, END, ACT, BYE = 1, 2, 3, 4, 5
WELCOME, ACTIONS, ERROR = 0x81, 0x84, 0x8F

FEATURES, PIXELS = 0, 1
MAX_FRAME = 1 << 30


class ProtocolError(RuntimeError):
    """The gym sent something this module does not understand (a bug on one side)."""


@dataclasses.dataclass(frozen=True)
class AgentInfo:
    """What the gym told the agent in its HELLO."""

    version: int
    observation: str            # "features" or "pixels"
    shape: tuple                # (features,) or (height, width)
    actions: int                # valid actions are 0 ... actions - 1
    games: int                  # game indices are 0 ... games - 1 (at most this many rows per step)
    seats: int                  # seats per game (Pong 2, Breakout 1)
    config_hash: int            # the effective config's 64-bit hash (gym-train's configHash)
    game: str                   # "pong" or "breakout"
    config: str                 # the effective config, JSON text


class _Stream:
    """Length-prefixed frames over two file descriptors, one read buffer reused."""

    def __init__(self, rfd: int, wfd: int):
        self.reader = io.FileIO(rfd, "rb", closefd=False)
        self.wfd = wfd
        self.buffer = bytearray(1 << 16)

    def _read_exactly(self, view: memoryview) -> bool:
        got = 0
        while got < len(view):
            n = self.reader.readinto(view[got:])
            if n == 0:
                if got == 0:
                    return False
                raise ProtocolError("the gym closed the stream in the middle of a frame")
            got += n
        return True

    def read(self) -> Optional[tuple]:
        """(type, payload memoryview) of the next frame; None at end of stream.

        The payload stays valid until the next read."""
        head = memoryview(self.buffer)[:8]
        if not self._read_exactly(head):
            return None
        length, kind = struct.unpack_from("<II", self.buffer, 0)
        if length < 4 or length > MAX_FRAME:
            raise ProtocolError(f"frame length {length} is outside 4 ... {MAX_FRAME}")
        size = length - 4
        if size + 8 > len(self.buffer):
            grown = bytearray(max(size + 8, 2 * len(self.buffer)))
            grown[:8] = self.buffer[:8]
            self.buffer = grown
        payload = memoryview(self.buffer)[8:8 + size]
        if size and not self._read_exactly(payload):
            raise ProtocolError("the gym closed the stream in the middle of a frame")
        return kind, payload

    def write(self, kind: int, *parts: bytes) -> None:
        body = b"".join(parts)
        data = memoryview(struct.pack("<II", len(body) + 4, kind) + body)
        while data:
            n = os.write(self.wfd, data)
            data = data[n:]


def _string(text: str) -> bytes:
    raw = text.encode("utf-8")
    return struct.pack("<I", len(raw)) + raw


def parse_hello(payload: memoryview) -> AgentInfo:
    """The fields of a HELLO payload (docs/agents.md)."""
    if len(payload) < 40:
        raise ProtocolError(f"HELLO payload of {len(payload)} bytes; at least 40 expected")
    version, kind, width, height, actions, games, seats, config_hash = struct.unpack_from("<7IQ", payload, 0)
    offset = 36
    strings = []
    for _ in range(2):
        (n,) = struct.unpack_from("<I", payload, offset)
        offset += 4
        strings.append(bytes(payload[offset:offset + n]).decode("utf-8"))
        offset += n
    if kind not in (FEATURES, PIXELS):
        raise ProtocolError(f"HELLO observation kind {kind}; 0 (features) or 1 (pixels) expected")
    shape = (width,) if kind == FEATURES else (height, width)
    return AgentInfo(version=version, observation="features" if kind == FEATURES else "pixels", shape=shape,
                     actions=actions, games=games, seats=seats, config_hash=config_hash,
                     game=strings[0], config=strings[1])


def _is_torch_module(obj: Any) -> bool:
    return any(c.__module__.startswith("torch.nn") and c.__name__ == "Module" for c in type(obj).__mro__)


def _torch_act(module: Any) -> Callable:
    import torch  # only when a module is served

    def act(observations: np.ndarray) -> np.ndarray:
        x = torch.from_numpy(observations)
        x = x.float() / 255.0 if observations.dtype == np.uint8 else x
        with torch.no_grad():
            return module(x).cpu().numpy()

    return act


def to_actions(result: Any, count: int) -> np.ndarray:
    """``act``'s result as ``count`` int32 actions (scores: the index of the highest)."""
    r = np.asarray(result)
    if r.ndim == 2:
        r = r.argmax(axis=1)
    if r.ndim != 1 or r.shape[0] != count:
        raise ValueError(f"act returned shape {np.asarray(result).shape}; ({count},) actions "
                         f"or ({count}, actions) scores expected")
    if r.dtype.kind not in "iub" and not (r.dtype.kind == "f" and np.all(np.isfinite(r) & (np.floor(r) == r))):
        raise ValueError(f"act returned {r.dtype} actions that are not whole numbers; integers expected")
    return r.astype("<i4", copy=False)


def serve(act: Callable, reset: Optional[Callable] = None, end: Optional[Callable] = None, *,
          name: str = "python-agent", games: bool = False, setup: Optional[Callable] = None,
          stdin: int = 0, stdout: int = 1) -> int:
    """Serves ``act`` as an external agent until the gym says goodbye.

    Parameters
    ----------
    act: a callable over a batch of observations (see the module doc), or a PyTorch module.
    reset, end: per-game episode start ``reset(game, seed, seat)`` and end ``end(game)``.
    name: the name the agent gives in its WELCOME.
    games: call ``act(observations, games)`` with the rows' game indices (int array).
    setup: ``setup(info)`` (an ``AgentInfo``) is called after the handshake; when it returns
        a callable, that callable acts instead of ``act``.
    stdin, stdout: the file descriptors of the protocol stream.

    Returns 0 after a goodbye (the exit status to use). An exception in a callback is sent
    to the gym as an ERROR message (which the gym reports) and raised again.
    """
    real_stdout = sys.stdout
    sys.stdout = sys.stderr  # a stray print goes to the log, not into the stream
    stream = _Stream(stdin, stdout)
    try:
        return _serve(stream, act, reset, end, name, games, setup)
    except Exception as error:
        try:
            stream.write(ERROR, _string(f"{type(error).__name__}: {error}"))
        except OSError:
            pass
        raise
    finally:
        sys.stdout = real_stdout


def _serve(stream: _Stream, act, reset, end, name, games, setup) -> int:
    frame = stream.read()
    if frame is None:
        raise ProtocolError("the gym closed the stream before its HELLO")
    kind, payload = frame
    if kind != HELLO:
        raise ProtocolError(f"first message of type {kind}; HELLO ({HELLO}) expected")
    info = parse_hello(payload)
    if info.version != PROTOCOL_VERSION:
        raise ProtocolError(f"the gym speaks protocol version {info.version}; this agent speaks {PROTOCOL_VERSION}")
    if setup is not None:
        made = setup(info)
        if callable(made):
            act = made
    if act is None:
        raise ValueError("nothing to act with: pass act, or a setup that returns the act function")
    if _is_torch_module(act):
        act = _torch_act(act)
    stream.write(WELCOME, struct.pack("<I", PROTOCOL_VERSION), _string(name))
    row_items = int(np.prod(info.shape))
    dtype = np.dtype("<f4") if info.observation == "features" else np.dtype(np.uint8)
    row_bytes = row_items * dtype.itemsize
    while True:
        frame = stream.read()
        if frame is None:
            raise ProtocolError("the gym closed the stream without a BYE")
        kind, payload = frame
        if kind == ACT:
            (n,) = struct.unpack_from("<I", payload, 0)
            expected = 4 + 4 * n + n * row_bytes
            if n < 1 or n > info.games or len(payload) != expected:
                raise ProtocolError(f"ACT of {len(payload)} bytes for {n} rows; {expected} expected")
            rows = np.frombuffer(payload, dtype=dtype, count=n * row_items, offset=4 + 4 * n)
            rows = rows.reshape((n,) + info.shape)
            if games:
                ids = np.frombuffer(payload, dtype="<u4", count=n, offset=4).astype(np.int64)
                result = act(rows, ids)
            else:
                result = act(rows)
            stream.write(ACTIONS, struct.pack("<I", n), to_actions(result, n).tobytes())
        elif kind == START:
            game, seat, seed = struct.unpack_from("<IIQ", payload, 0)
            if reset is not None:
                reset(game, seed, seat)
        elif kind == END:
            (game,) = struct.unpack_from("<I", payload, 0)
            if end is not None:
                end(game)
        elif kind == BYE:
            return 0
        else:
            raise ProtocolError(f"unknown message type {kind}")


def _load(path: str) -> Any:
    module_name, sep, attribute = path.partition(":")
    if not sep or not module_name or not attribute:
        raise SystemExit(f"error: agent {path!r} is not MODULE:CALLABLE")
    sys.path.insert(0, os.getcwd())
    obj = importlib.import_module(module_name)
    for part in attribute.split("."):
        obj = getattr(obj, part)
    return obj


def main(argv: Optional[list] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pbgym.agents",
                                     description="Serve MODULE:CALLABLE as a gym-train external agent "
                                                 "(protocol on stdin/stdout; see docs/agents.md).")
    parser.add_argument("act", help="MODULE:CALLABLE acting on a batch of observations (or a torch module)")
    parser.add_argument("--factory", action="store_true",
                        help="CALLABLE(info) makes the act function once the handshake told the shapes")
    parser.add_argument("--reset", help="MODULE:CALLABLE called as reset(game, seed, seat)")
    parser.add_argument("--end", help="MODULE:CALLABLE called as end(game)")
    parser.add_argument("--name", default=None, help="the agent's name (default: MODULE:CALLABLE)")
    parser.add_argument("--games", action="store_true", help="call act(observations, games)")
    args = parser.parse_args(argv)
    target = _load(args.act)
    act, setup = (None, target) if args.factory else (target, None)
    return serve(act, _load(args.reset) if args.reset else None, _load(args.end) if args.end else None,
                 name=args.name or args.act, games=args.games, setup=setup)


if __name__ == "__main__":
    sys.exit(main())
