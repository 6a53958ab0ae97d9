"""Too Sloth To Win in the variant lab: the options worth turning and the balance numbers they move."""

from __future__ import annotations

from typing import Any

from sloth_kernel.analysis.variants import Variants
from sloth_kernel.bots import make_bot
from sloth_kernel.registry import load_game


def _too_sloth(options: dict[str, Any], games: int, seed: int) -> tuple[dict[str, list[float]], dict[str, float]]:
    players = options.get("players", 4)
    out: dict[str, list[float]] = {
        "pacemaker Trophy share": [],
        "pacemaker Cash Chip share": [],
        "someone caught with a drink": [],
        "moves per round": [],
    }
    for g in range(games):
        game = load_game("too-sloth-to-win", rounds=1, pacemaker=g % players, **options)
        bots = [make_bot(game.name, "heuristic", seed=seed + 31 * g + s) for s in range(players)]
        state = game.new_state(seed + g)
        while not state.is_over:
            seat = state.current_player
            state = state.play(bots[seat].choose(state.observation(seat)), player=seat)
        view = state.view()
        result = view.results[0]
        out["pacemaker Trophy share"].append(float(view.pacemaker in result.trophy))
        out["pacemaker Cash Chip share"].append(float(view.pacemaker in result.chip))
        out["someone caught with a drink"].append(float(any("drug" in s for s in view.status)))
        out["moves per round"].append(float(len(state.history)))
    fair = {"pacemaker Trophy share": 1 / players, "pacemaker Cash Chip share": 1 / players}
    return out, fair


VARIANTS = Variants(
    {"finish": (6, 9, 12, 15), "drinks": (0, 1, 2), "players": (3, 4, 5), "no_board": (False, True)},
    measure=_too_sloth,
    labels={
        "finish": "finish space",
        "drinks": "drinks per player",
        "players": "number of players",
        "no_board": "play without the board",
    },
)
