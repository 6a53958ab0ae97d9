"""High Card in the variant lab: how much the heuristic's edge over random play depends on the hand size."""

from __future__ import annotations

from typing import Any

from sloth_kernel.analysis.variants import Variants
from sloth_kernel.bots import make_bot
from sloth_kernel.registry import load_game


def _edge(options: dict[str, Any], games: int, seed: int) -> tuple[dict[str, list[float]], dict[str, float]]:
    game = load_game("toy-high-card", **options)
    shares: list[float] = []
    for g in range(games):
        seat = g % 2  # the heuristic sits in each seat in turn
        bots = [make_bot(game.name, "heuristic" if s == seat else "random", seed=seed + g) for s in range(2)]
        state = game.new_state(seed + g)
        while not state.is_over:
            mover = state.current_player
            state = state.play(bots[mover].choose(state.observation(mover)), player=mover)
        shares.append(state.returns()[seat])
    return {"heuristic's win share": shares}, {"heuristic's win share": 0.5}


VARIANTS = Variants({"hand_size": (3, 5, 7)}, measure=_edge)
