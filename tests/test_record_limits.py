"""Every game that can be played to its end can be recorded and replayed (issue 22).

A Sprint! game of endless "lift 1" passed the old 2,000-move limit and its record no longer
replayed; a Race to the Bottom Grand Prix where everyone passes and pitches whenever they may
runs to 35,757 moves, past the old 20,000. The limits (``max_length`` in each game's spec) are now
set from the longest games the engines can be made to play (the README's "Limits"), and the
longest game constructed here records and replays exactly.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

import sloth_kernel
from sloth_kernel import RecordError, load_game
from sloth_kernel.core import GameState
from sloth_kernel.registry import game_spec

Policy = Callable[[list[Any], random.Random], Any]


def longest_race_move(moves: list[Any], rng: random.Random) -> Any:
    """Race to the Bottom, made long: pass whenever one may, then pitch a card, then the smallest play."""
    order = {"Pass": 0, "Pitch": 1, "Done": 2, "Play": 3}
    return min(moves, key=lambda m: (order.get(type(m).__name__, 4), len(getattr(m, "cards", ())), rng.random()))


def longest_too_sloth_move(moves: list[Any], rng: random.Random) -> Any:
    """Too Sloth To Win, made long: take a card when passing, else the play with the fewest cards."""
    takes = [m for m in moves if type(m).__name__ == "Pass" and getattr(m, "take", None) is not None]
    if takes:
        return rng.choice(takes)
    plays = [m for m in moves if type(m).__name__ == "Play"]
    return min(plays, key=lambda m: (len(m.cards), rng.random())) if plays else rng.choice(moves)


def any_move(moves: list[Any], rng: random.Random) -> Any:
    return rng.choice(moves)


def play_to_the_end(name: str, options: dict[str, Any], policy: Policy, seed: int) -> GameState[Any, Any]:
    state = load_game(name, **options).new_state(seed)
    rng = random.Random(seed)
    limit = game_spec(name).max_length
    while not state.is_over:
        assert len(state.history) < limit, f"{name} passed its max_length {limit:,}"
        state.apply_unchecked(policy(state.legal_moves(), rng))
    return state


def replays_exactly(state: GameState[Any, Any]) -> None:
    record = state.to_record()
    text = json.dumps(record)
    for again in (state.game.replay(text), sloth_kernel.from_record(record)):
        assert again.to_record() == record and again.view() == state.view() and again.is_over == state.is_over


def test_the_longest_race_to_the_bottom_grand_prix_records_and_replays() -> None:
    """Everyone passes and pitches whenever they may, 4 players, a 9-race Grand Prix: 35,757 moves
    (the same for every seed measured), within the limit of 70,000 (by count at most 64,152: a trick
    sheds at least one card, so a race has at most 216, each with at most 4 passes of 8 moves)."""
    state = play_to_the_end("race-to-the-bottom", {"players": 4, "grand_prix": True, "races": 9}, longest_race_move, 0)
    assert len(state.history) > 35_000  # the old limit of 20,000 refused it
    replays_exactly(state)


@pytest.mark.parametrize(
    ("name", "options", "policy", "longest"),
    [
        ("too-sloth-to-win", {"players": 5, "rounds": 9, "finish": 20, "drinks": 2}, longest_too_sloth_move, 630),
        ("surplus-of-sloths", {"players": 4, "super_surplus": True, "babies": True}, any_move, 234),
    ],
)
def test_long_games_of_the_other_games_record_and_replay(
    name: str, options: dict[str, Any], policy: Policy, longest: int
) -> None:
    """The longest measured (README) with at least 1.5 times that as the margin below max_length."""
    assert game_spec(name).max_length >= 1.5 * longest
    for seed in range(3):
        replays_exactly(play_to_the_end(name, options, policy, seed))


def test_a_stalling_sprint_game_records_and_replays_up_to_the_limit() -> None:
    """Sprint! has no end by its rules while the table keeps lifting 1 (the Hare can be held back
    by join and rest cards for ever): a record holds up to max_length moves and replays exactly."""
    game = load_game("sprint")
    limit = game_spec("sprint").max_length
    state = game.new_state(1)
    lift_1 = state.legal_moves()[0]
    for _ in range(limit):
        assert not state.is_over
        state.apply_unchecked(lift_1)
    assert str(lift_1) == "lift 1" and len(state.history) == limit > 2_000
    replays_exactly(state)
    record = state.to_record()
    with pytest.raises(RecordError, match=f"at most {limit:,}"):
        game.replay({**record, "moves": [*record["moves"], "lift 1"]})
