"""``all_moves()`` holds every move ``legal_moves()`` can ever offer, in every game and option set.

The core refuses a move built by hand unless it is among ``game.all_moves()``; so a legal move
missing from that list would be refused when a program hands it back. Random playouts over many
seeds and option sets look for one.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from sloth_kernel import load_game

CONFIGS: list[tuple[str, dict[str, Any], int]] = [
    ("too-sloth-to-win", {"players": 3}, 150),  # 7s and 8s removed (TS-1)
    ("too-sloth-to-win", {"players": 4}, 150),
    ("too-sloth-to-win", {"players": 5, "drinks": 2}, 100),
    ("too-sloth-to-win", {"players": 4, "drinks": 0, "no_board": True, "finish": 20}, 100),
    ("race-to-the-bottom", {"players": 2}, 100),
    ("race-to-the-bottom", {"players": 3}, 60),
    ("race-to-the-bottom", {"players": 4, "grand_prix": True, "races": 2}, 20),
    ("surplus-of-sloths", {"players": 2}, 150),
    ("surplus-of-sloths", {"players": 3, "babies": True}, 150),
    ("surplus-of-sloths", {"players": 4, "babies": True, "baby_nets_itself": False, "super_surplus": True}, 40),
    ("sprint", {}, 150),
    ("sprint", {"players": 3, "young_tortoise": True, "small_track": True}, 150),
    ("sprint", {"race_deck": (16, 16, 16, 16, 16, 16, 16, 16), "objectives": (5, 60, 127)}, 60),
]


@pytest.mark.parametrize(("game_name", "options", "games"), CONFIGS)
def test_every_legal_move_is_among_all_moves(game_name: str, options: dict[str, Any], games: int) -> None:
    game = load_game(game_name, **options)
    every = frozenset(game.all_moves())
    assert len(every) == len(game.all_moves()), "all_moves lists each move once"
    decisions = 0
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_state(seed)
        while not state.is_over:
            legal = state.legal_moves()
            outside = [move for move in legal if move not in every]
            assert not outside, f"seed {seed}, move {len(state.history)}: {outside} not in all_moves()"
            state.apply_unchecked(legal[rng.randrange(len(legal))])
            decisions += 1
    assert decisions > games
