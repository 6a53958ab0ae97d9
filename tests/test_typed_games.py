"""How a program gets a game typed by its name: ``load_game`` returns ``Game[Any, Any]`` (a name is a
string the registry reads at run time, and shared code names no game), so for static types a program
uses the game's own classes, exported by its engine module: ``Class.shared(**options)`` is the same
validated game. mypy checks this file strictly (``make lint``): each ``assert_type`` is a claim it
proves (and the tests run them too, where they check nothing: the runtime asserts beside them do).
"""

from __future__ import annotations

from typing import Any, assert_type

from sloth_kernel import Game, load_game
from sloth_kernel.games.sprint.engine import Lift, Sprint, SprintObservation, SprintState
from sloth_kernel.games.too_sloth_to_win.engine import (
    TooSlothConfig,
    TooSlothObservation,
    TooSlothState,
    TooSlothToWin,
)


def test_load_game_is_typed_as_any_game() -> None:
    game = load_game("too-sloth-to-win", players=4)
    assert_type(game, Game[Any, Any])
    assert isinstance(game, TooSlothToWin)


def test_a_games_own_class_types_its_config_states_and_observations() -> None:
    game = TooSlothToWin.shared(players=4)
    assert_type(game, TooSlothToWin)
    assert_type(game.config, TooSlothConfig)
    assert game.config == load_game("too-sloth-to-win", players=4).config
    state = game.new_state(seed=7)
    assert_type(state, TooSlothState)
    after = state.play("4-5-6")
    assert_type(after, TooSlothState)
    seen = after.observation(1)
    assert_type(seen, TooSlothObservation)
    assert seen.player == 1 and seen.current_player == after.current_player == 1
    again = game.replay(after.to_record())
    assert_type(again, TooSlothState)
    assert again.view() == after.view()


def test_every_game_types_its_moves() -> None:
    game = Sprint.shared()
    state = game.new_state(seed=3)
    assert_type(state, SprintState)
    moves = state.legal_moves()
    assert_type(moves, list[Lift])
    assert_type(state.observation(0), SprintObservation)
    assert all(isinstance(move, Lift) for move in moves)
