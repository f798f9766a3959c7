"""Every observation stays inside the published bounds over long rollouts."""

import numpy as np
import pytest

import pbgym
from conftest import presets


@pytest.mark.parametrize("game,preset", [(g, p) for g in ("pong", "breakout") for p in presets(g)])
def test_observations_inside_bounds(game, preset):
    extra = {"opponent": "tracker"} if game == "pong" else {}
    n = pbgym.NativeEnv({"game": game, "num_games": 64, "autoreset": "same-step", "seed": 99,
                         "config": {"preset": preset}, **extra})
    rng = np.random.default_rng(7)
    lower, upper = n.lower, n.upper
    n.reset(seeds=list(range(64)))
    ends = 0
    for t in range(3000):
        n.step(rng.integers(0, n.action_count, size=(64, 1)))
        o = n.obs.reshape(-1, n.obs_count)
        bad = (o < lower) | (o > upper)
        assert not bad.any(), f"step {t}: index {np.argwhere(bad)[0][1]} value {o[bad][0]}"
        done = (n.terminated | n.truncated).astype(bool)
        if done.any():
            f = n.final_obs[done].reshape(-1, n.obs_count)
            assert not ((f < lower) | (f > upper)).any(), f"step {t}: final observation out of bounds"
            ends += int(done.sum())
    assert np.isfinite(lower).all() and np.isfinite(upper).all()
