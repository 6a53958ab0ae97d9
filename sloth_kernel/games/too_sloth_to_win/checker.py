"""Too Sloth To Win in the 'Does it beat?' checker.

Four players. The lone drink (``D9`` on the table, a Single 9 by TS-4) is set up the way
it happens in play: ``8-D9`` is played and the next player passes, taking the 8 (TS-6).
"""

from __future__ import annotations

from typing import Any

from sloth_kernel.checker import CheckerKit
from sloth_kernel.core import GameState
from sloth_kernel.errors import ConfigError, InvalidMoveError
from sloth_kernel.registry import load_game

TS_PLAYERS = 4

EXAMPLES = (
    "2",
    "5",
    "8",
    "D9",
    "2-2",
    "7-7",
    "4-4-4",
    "4-5",
    "6-7",
    "3-4-5",
    "4-D5-6",
    "5-D5",
    "7-D7-7",
    "6-7-8",
    "3-4",
)


def _too_sloth_scenario(table: str, candidate: str) -> tuple[GameState[Any, Any], str]:
    from sloth_kernel.games.too_sloth_to_win.engine import DRINK_BASE, Play, combo_name

    game = load_game("too-sloth-to-win", players=TS_PLAYERS, rounds=1)
    put = game.parse_move(table)
    if not isinstance(put, Play):
        raise ConfigError("the table holds a combination such as 5, 7-7 or 4-5-6, not a pass")
    lone_drink = len(put.cards) == 1 and put.cards[0] > DRINK_BASE
    table_plays = ["8-D9", "pass 8"] if lone_drink else [str(put)]
    table_cards = "8 D" if lone_drink else _ts_hand(put.cards, DRINK_BASE)
    wanted = _ts_candidate_hand(game, candidate, DRINK_BASE)
    hands = [table_cards, "", wanted, ""] if lone_drink else [table_cards, wanted, "", ""]
    state = game.from_deal({"hands": hands, "pacemaker": 0})
    for move in table_plays:
        verdict = state.explain(move)
        if not verdict.legal:
            raise ConfigError(f"{table} cannot be on the table: {verdict.reason}")
        state = state.play(move)
    return state, combo_name(state.view().table)


def _ts_hand(cards: tuple[int, ...], drink_base: int) -> str:
    return " ".join("D" if c > drink_base else str(c) for c in cards)


def _ts_candidate_hand(game: Any, candidate: str, drink_base: int) -> str:
    try:
        move = game.parse_move(candidate)
    except InvalidMoveError:
        return ""  # explain() will say why it is not a move
    cards = getattr(move, "cards", ())
    return _ts_hand(cards, drink_base)


CHECKER = CheckerKit(
    _too_sloth_scenario,
    EXAMPLES,
    "Notation: 5 (Single), 7-7 (Jump), 4-5-6 (Run), D5 = the drink declared as 5; "
    "D9 on the table = a lone drink (a Single 9, TS-4).",
    ("4-5", "3-4-5"),
)
