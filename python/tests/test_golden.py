"""The installed library plays the golden games, byte for byte.

`make test` installs the portable library and one tuned for this machine's
x86-64 level (python/setup.py), and pbgym loads the tuned one here; the
digests below were recorded by the portable build (`PBGYM_TARGET_CPU` unset).
Equal digests show the tuned build plays the same games as the portable one:
the batched fast paths of both games (quiet frames, frame skip, sticky
actions, lane-wise observations, pixels) over rollouts with many resets
(test_portable.py plays the same digests on an emulated CPU without AVX).
To record them again after a rule change, run this file with
`PBGYM_LIBRARY=<a portable libpbgym.so> PBGYM_PRINT_GOLDEN=1`.
"""

import hashlib
import os

import gymnasium as gym
import numpy as np
import pytest

import pbgym  # noqa: F401

# Short Pong games so the rollout restarts games often; Breakout's random
# paddle loses its lives quickly anyway.
CASES = {
    "pong-classic": ("pbgym/Pong-v0", dict(preset="classic", opponent="tracker", maxScore=2)),
    "pong-touch": ("pbgym/Pong-v0", dict(preset="touch", opponent="random", maxScore=2)),
    "pong-frameskip4": ("pbgym/Pong-v0", dict(preset="classic", opponent="tracker", frameSkip=4, maxScore=2)),
    "pong-ale": ("pbgym/Pong-v0", dict(preset="ale", opponent="tracker:noise=0.5", maxScore=2)),
    "breakout-classic": ("pbgym/Breakout-v0", dict(preset="classic")),
    "breakout-frameskip4": ("pbgym/Breakout-v0", dict(preset="classic", frameSkip=4)),
    "breakout-atari-sticky": ("pbgym/Breakout-v0", dict(preset="atari", frameSkip=4,
                                                         stickyActionProbability=0.25)),
    "breakout-pixels": ("pbgym/Breakout-v0", dict(preset="classic", lives=1, obs_type="pixels")),
}

GOLDEN = {
    "pong-classic": "24ed27ead8135695a56252427a35cf6c6f6741064b503165e8e9422507350c44",
    "pong-touch": "98b31aded4a2734a596627ff734bb6c8710d51150b22c7a1b3878170fa81992a",
    "pong-frameskip4": "a9531ee7cd1a430bc2b8e53f04d5bd832017cf4e3a08ad0ec3f8aae6e884ff73",
    "pong-ale": "f76837c50a0893cccb5e547ea0ac7ba545064d3f1a8f739f86dc3866733a3047",
    "breakout-classic": "6a21a31a92858a5d00a0ce99e0334b6f2efeda4dd14bc2a64dbd190295ddc411",
    "breakout-frameskip4": "99f450bfbf5e47d3c9bee0905558942fe4aff5d13f06ff9dc8db5b9d60db9bd1",
    "breakout-atari-sticky": "697ee29ccca633ca9d69f2fa577ecf70485e2ce0730c7401620d80b2121bec09",
    "breakout-pixels": "d84958204436b3d0ea33130ed7c78ae1e6332e7e2a747c9dd83fae6e2d3726f1",
}


def rollout_digest(env_id: str, kwargs: dict, games: int = 32, steps: int = 1500) -> str:
    """SHA-256 of every observation, reward and flag of a same-step-autoreset
    rollout with random actions (numpy's PCG64, seeded 2026)."""
    env = gym.make_vec(env_id, num_envs=games, vectorization_mode="vector_entry_point",
                       autoreset_mode=gym.vector.AutoresetMode.SAME_STEP, **kwargs)
    rng = np.random.default_rng(2026)
    digest = hashlib.sha256()
    obs, _ = env.reset(seed=99)
    digest.update(obs.tobytes())
    ends = 0
    for _ in range(steps):
        obs, reward, terminated, truncated, _ = env.step(rng.integers(0, env.single_action_space.n, size=games))
        for x in (obs, reward, terminated, truncated):
            digest.update(np.ascontiguousarray(x).tobytes())
        ends += int((terminated | truncated).sum())
    env.close()
    assert ends >= games, f"{env_id} {kwargs}: only {ends} episodes ended; the rollout must restart games"
    return digest.hexdigest()


@pytest.mark.parametrize("case", list(CASES))
def test_release_library_plays_the_golden_games(case):
    env_id, kwargs = CASES[case]
    got = rollout_digest(env_id, kwargs)
    if os.environ.get("PBGYM_PRINT_GOLDEN"):
        print(f'\n    "{case}": "{got}",')
    assert got == GOLDEN[case], f"{case}: digest {got}, golden {GOLDEN[case]}"
