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


@pytest.mark.parametrize("name", ["too-sloth-to-win", "surplus-of-sloths", "race-to-the-bottom", "sprint"])
def test_the_bundled_games_are_imperfect_information_with_a_deal_node(name: str) -> None:
    spec = game_spec(name)
    assert spec.hidden_information and spec.chance_after_deal
    game = pyspiel.load_game(openspiel.short_name(name))
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.new_initial_state().is_chance_node() and game.max_chance_outcomes() == openspiel.NUM_DEALS
    assert "seed" not in game.get_parameters()


def test_a_plugins_own_options_pass_through_the_bridge() -> None:
    """High Card with one card each: two plays after the deal, whatever the deal."""
    game = pyspiel.load_game("sloth_toy_high_card", {"players": 3, "hand_size": 1, "cards": 5})
    assert game.ours.config.hand_size == 1 and game.ours.config.cards == 5 and game.num_players() == 3
    assert game.get_parameters()["hand_size"] == 1
    for seed in (0, 9, 4095):
        state = game.new_initial_state()
        state.apply_action(seed)
        plays = 0
        while not state.is_terminal():
            state.apply_action(state.legal_actions()[0])
            plays += 1
        assert plays == 3
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_a_plugin_option_out_of_its_range_is_refused_naming_it() -> None:
    from sloth_kernel.errors import ConfigError

    with pytest.raises(ConfigError, match="hand_size must be a whole number from 1 to 15"):
        pyspiel.load_game("sloth_toy_high_card", {"hand_size": 99})
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'no_such_option'"):
        pyspiel.load_game("sloth_toy_high_card", {"no_such_option": 1})


def test_an_open_game_without_later_chance_is_perfect_information_with_no_chance_node() -> None:
    """Sticks declares hidden_information=False and chance_after_deal=False; its seed parameter picks the deal."""
    from outside_games import STICKS_WITH_ACTIONS
    from plugin_dist import installed

    with installed("sticks_dist", {"sticks": "sticks_game:SPEC"}, modules={"sticks_game": STICKS_WITH_ACTIONS}):
        assert "sloth_sticks" in openspiel.register_all()
        game = pyspiel.load_game("sloth_sticks", {"players": 3, "sticks": 7})
        kind = game.get_type()
        assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
        assert kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
        assert game.get_parameters() == {"players": 3, "sticks": 7, "seed": 0}
        state = game.new_initial_state()
        assert not state.is_chance_node() and state.current_player() == 0
        assert [state.action_to_string(0, action) for action in state.legal_actions()] == ["take 1", "take 2", "take 3"]
        while not state.is_terminal():
            state.apply_action(state.legal_actions()[-1])  # 3, 3, then the last 1: Player 3 takes it
        assert state.returns() == [0.0, 0.0, 1.0]
        pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
