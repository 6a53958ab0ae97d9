"""Don't Bust's bot level ``heuristic`` (``random`` is always there), and what the ``ismcts`` level needs."""

from __future__ import annotations

from dont_bust.engine import DontBust, DontBustObservation, Play
from sloth_kernel.bots.determinize import SearchSpec


class HeuristicBot:
    """Play the highest card that keeps the pile within the limit; if every card busts, the lowest."""

    name = "heuristic"

    def __init__(self, seed: int | None = 0) -> None:
        self.seed = seed  # it decides the same way every time; every bot takes a seed

    def choose(self, observation: DontBustObservation) -> Play:
        moves = sorted(observation.legal_moves, key=lambda move: move.card)
        if not moves:
            raise ValueError("the observation offers no legal moves (not this seat's turn?)")
        safe = [move for move in moves if observation.total + move.card <= observation.config.limit]
        return safe[-1] if safe else moves[0]


BOTS = {"heuristic": HeuristicBot}


def search_spec() -> SearchSpec:
    """ISMCTS searches worlds consistent with the bot's observation: the engine's world sampler."""
    return SearchSpec(DontBust.world_sampler)
