"""Every game passes OpenSpiel's own random simulation test (skipped without the interop extra)."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")
openspiel = pytest.importorskip("sloth_kernel.interop.openspiel")

from sloth_kernel import available_games, game_spec  # noqa: E402

PLAYERS = {"too-sloth-to-win": 3, "surplus-of-sloths": 2, "race-to-the-bottom": 2, "sprint": 2}
"""Small tables for the bundled games; every other registered game (a plugin) at its default."""
CASES = [(openspiel.short_name(name), PLAYERS.get(name, game_spec(name).default_players)) for name in available_games()]


@pytest.mark.parametrize("short_name,players", CASES)
def test_random_sim(short_name: str, players: int) -> None:
    game = pyspiel.load_game(short_name, {"players": players})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_observer_hides_other_hands() -> None:
    """The observation tensor of seat 0 is the same in two deals that differ only in hidden cards."""
    game = pyspiel.load_game("sloth_too_sloth_to_win", {"players": 3})
    state = game.new_initial_state()
    state.apply_action(7)
    seat = state.current_player()
    assert len(state.observation_tensor(seat)) == game.observation_tensor_size()
    assert state.legal_actions() == sorted(state.legal_actions())
    text = state.observation_string(seat)
    assert "None" in text  # other seats' hands are hidden
    child = state.clone()
    child.apply_action(child.legal_actions()[0])
    assert state.observation_string(seat) == text, "a clone must not share our state"
