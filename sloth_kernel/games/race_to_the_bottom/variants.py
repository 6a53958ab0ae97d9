"""Race to the Bottom in the variant lab: the options worth turning and the balance numbers they move."""

from __future__ import annotations

from typing import Any

from sloth_kernel.analysis.variants import Variants
from sloth_kernel.bots import make_bot
from sloth_kernel.registry import load_game


def _race(options: dict[str, Any], games: int, seed: int) -> tuple[dict[str, list[float]], dict[str, float]]:
    players = options.get("players", 3)
    game = load_game("race-to-the-bottom", **options)
    out: dict[str, list[float]] = {"first leader's win share": [], "moves per race": []}
    for g in range(games):
        bots = [make_bot(game.name, "heuristic", seed=seed + 31 * g + s) for s in range(players)]
        state = game.new_state(seed + g)
        while not state.is_over:
            seat = state.current_player
            state = state.play(bots[seat].choose(state.observation(seat)), player=seat)
        out["first leader's win share"].append(state.returns()[game.config.leader])
        out["moves per race"].append(float(len(state.history)))
    return out, {"first leader's win share": 1 / players}


VARIANTS = Variants({"players": (2, 3, 4)}, measure=_race, labels={"players": "number of players"})
