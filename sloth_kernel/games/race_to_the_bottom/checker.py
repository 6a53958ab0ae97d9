"""Race to the Bottom in the 'Does it beat?' checker.

Two players with private decks: each seat also gets a few filler cards in its deck, so
that playing the meld does not end the race.
"""

from __future__ import annotations

from typing import Any

from sloth_kernel.checker import CheckerKit
from sloth_kernel.core import GameState
from sloth_kernel.errors import ConfigError, InvalidMoveError
from sloth_kernel.registry import load_game

RACE_FILLER = "2345678"  # filler deck cards (any ranks do; suits never matter, RB-1)
RACE_PLAYERS = 2

EXAMPLES = (
    "7",
    "A",
    "7 7",
    "Q Q",
    "A A",
    "*A *A",
    "5 6 7",
    "Q K A",
    "A 2 3",
    "4 4 4",
    "3 3 4 4",
    "3 3 3 4 4 4",
    "9 9 9 9",
    "2 2 2 2",
    "5 5 5 *5 *5",
    "10 J Q K A",
)


def _race_scenario(table: str, candidate: str) -> tuple[GameState[Any, Any], str]:
    game = load_game("race-to-the-bottom", players=RACE_PLAYERS)
    put = game.parse_move(table)
    if not hasattr(put, "need"):
        raise ConfigError("the table holds a meld such as 7 7, Q K A or 9 9 9 9, not a pass")
    try:
        wanted = _race_cards(game.parse_move(candidate))
    except InvalidMoveError:
        wanted = []  # explain() will say why it is not a move
    table_cards = _race_cards(put)
    deal = {
        "hands": [table_cards, wanted],
        "decks": [_filler(table_cards), _filler(wanted)],
        "leader": 0,
    }
    state = game.from_deal(deal)
    verdict = state.explain(str(put))
    if not verdict.legal:
        raise ConfigError(f"{table} cannot be on the table: {verdict.reason}")
    state = state.play(put)
    return state, state.view().to_beat.describe()


def _race_cards(move: Any) -> list[str]:
    """The hand cards a meld uses: its naturals, and a '*' per Joker (RB-3)."""
    from sloth_kernel.games.race_to_the_bottom.melds import CARD_SYMBOLS

    if not hasattr(move, "need"):
        return []
    cards = [CARD_SYMBOLS[rank] for rank, count in move.need for _ in range(count)]
    return cards + ["*"] * move.jokers


def _filler(hand: list[str]) -> list[str]:
    """Three deck cards of ranks the hand barely uses, so the seat is not about to shed out."""
    return [rank for rank in RACE_FILLER if hand.count(rank) < 3][:3]


CHECKER = CheckerKit(
    _race_scenario,
    EXAMPLES,
    "Notation: ranks 2-9, 10 (or T), J, Q, K, A separated by spaces; a Joker is * plus the rank it "
    "stands for (*7, *A). Suits never matter (RB-1).",
    ("7 7", "Q Q"),
)
