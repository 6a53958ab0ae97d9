"""Every game passes OpenSpiel's own random simulation test (skipped without the interop extra)."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")
openspiel = pytest.importorskip("sloth_kernel.interop.openspiel")

CASES = [
    ("sloth_too_sloth_to_win", 3),
    ("sloth_surplus_of_sloths", 2),
    ("sloth_race_to_the_bottom", 2),
    ("sloth_sprint", 2),
]


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
