"""Sprint!'s own benchmark figures, printed by ``python -m sloth_kernel bench`` (its spec's ``benchmarks``)."""

from __future__ import annotations

import random
import statistics
import time

from sloth_kernel.games.sprint.engine import Sprint, SprintConfig, lift_move
from sloth_kernel.games.sprint.skill import GaussianLifter, draw_lift
from sloth_kernel.games.sprint.vector import games_per_second


def extra_benchmarks(repeats: int) -> None:
    """Called by ``python -m sloth_kernel bench``: whole games per CPU second with a simulated
    lifter (sigma 0.15, aim one low), scalar engine vs the numpy simulator, same run."""
    model, game = GaussianLifter(0.15, -1.0), Sprint(SprintConfig())
    batch = 1_000_000

    def scalar(seconds: float = 1.0) -> float:
        rng, games, max_lift = random.Random(0), 0, game.cfg.max_lift
        start = time.process_time()
        while time.process_time() - start < seconds:
            state = game.new_state(games)
            while state.winner is None:  # the fast path: no checks, no observations
                state.apply_unchecked(lift_move(draw_lift(model, state.objective, max_lift, rng.random())))
            games += 1
        return games / (time.process_time() - start)

    scalar_rate = statistics.median(scalar() for _ in range(repeats))
    vector_rate = statistics.median(games_per_second(model, batch, seed=r) for r in range(repeats))
    print(f"  sprint whole games/s ({model}), median of {repeats}:")
    print(f"    scalar engine    {scalar_rate:>12,.0f} games/s")
    print(f"    numpy, {batch:,} per batch {vector_rate:>12,.0f} games/s")
    print(f"    ratio            {vector_rate / scalar_rate:>12,.1f}x (same run)", flush=True)
