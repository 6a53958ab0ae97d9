"""High Card's own bot levels (``random`` and, with the spec's ``search``, ``ismcts`` come from the shared layer)."""

from __future__ import annotations

from typing import Any

from toy_high_card.engine import Play


class HeuristicBot:
    """Win a trick as cheaply as possible, else throw the lowest card; lead a sure winner, else the lowest."""

    name = "heuristic"

    def __init__(self, seed: int | None = 0) -> None:
        self.seed = seed  # decides the same way every time; the seed is kept for the common signature

    def choose(self, observation: Any) -> Play:
        moves = sorted(observation.legal_moves, key=lambda move: move.card)
        if not moves:
            raise ValueError("the observation offers no legal moves (not this seat's turn?)")
        if observation.trick:
            top = max(card for _, card in observation.trick)
            winners = [move for move in moves if move.card > top]
            return winners[0] if winners else moves[0]
        gone = {card for _, card in observation.plays} | set(observation.hand or ())
        unseen = [card for card in range(1, observation.config.cards + 1) if card not in gone]
        return moves[-1] if not unseen or moves[-1].card > max(unseen) else moves[0]


BOTS = {"heuristic": HeuristicBot}
