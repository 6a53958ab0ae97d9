"""Surplus of Sloths in the variant lab: the options worth turning and the balance numbers they move."""

from __future__ import annotations

from typing import Any

from sloth_kernel.analysis.variants import Variants
from sloth_kernel.bots import make_bot
from sloth_kernel.registry import load_game


def _surplus(options: dict[str, Any], games: int, seed: int) -> tuple[dict[str, list[float]], dict[str, float]]:
    players = options.get("players", 3)
    game = load_game("surplus-of-sloths", **options)
    out: dict[str, list[float]] = {"planning bot's win share": [], "winning score": []}
    for g in range(games):
        smart = g % players
        bots = [
            make_bot(game.name, "heuristic" if s == smart else "random", seed=seed + 31 * g + s) for s in range(players)
        ]
        state = game.new_state(seed + g)
        while not state.is_over:
            seat = state.current_player
            state = state.play(bots[seat].choose(state.observation(seat)), player=seat)
        out["planning bot's win share"].append(state.returns()[smart])
        out["winning score"].append(float(max(state.view().scores)))
    return out, {"planning bot's win share": 1 / players}


VARIANTS = Variants(
    {"players": (2, 3, 4), "babies": (False, True)},
    measure=_surplus,
    labels={"players": "number of players", "babies": "Baby cards"},
)
