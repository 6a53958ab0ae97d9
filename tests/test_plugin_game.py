"""A fifth game added from the tests alone, through the plugin mechanism.

The toy game in tests/plugins/toy_high_card/ is installed for the whole session by
tests/conftest.py as a distribution with a ``sloth_kernel.games`` entry point; no shared
file and not pyproject.toml names it. Here it loads, plays, searches, shows a board, stands
in the gallery and the arena; a broken plugin is reported by name and hides no other game.
The shared suites (tests/test_protocol.py, tests/test_lessons.py, ...) cover it as well.
"""

from __future__ import annotations

import random
import re
from importlib.metadata import distribution, entry_points
from pathlib import Path
from typing import Any

import pytest
from plugin_dist import TOY, TOY_DIST, TOY_POINTS, installed

from sloth_kernel import ConfigError, PluginError, available_games, game_spec, game_specs, load_game
from sloth_kernel.bots import RandomBot, bot_levels, ismcts_games, make_bot, play_out
from sloth_kernel.bots.determinize import determinize
from sloth_kernel.registry import broken_games

ROOT = Path(__file__).resolve().parent.parent


def test_found_through_an_installed_entry_point_that_no_shared_file_declares() -> None:
    points = {point.name: point for point in entry_points(group="sloth_kernel.games")}
    toy = points[TOY]
    assert toy.value == TOY_POINTS[TOY]
    assert toy.dist is not None and toy.dist.name == TOY_DIST
    assert distribution(TOY_DIST).version == "0.1"
    assert TOY in available_games() and TOY not in broken_games()
    assert game_spec(TOY) is game_specs()[TOY] and game_spec(TOY).title == "High Card"
    assert TOY not in (ROOT / "pyproject.toml").read_text()
    assert available_games()[-1] == TOY, "listed after the bundled games (its spec's order)"


def test_loads_with_options_and_plays_to_the_end_with_random_bots() -> None:
    game = load_game(TOY, players=3, hand_size=5)
    assert game.num_players == 3 and game.config.cards == 30
    with pytest.raises(ConfigError, match="hand_size"):
        load_game(TOY, players=4, hand_size=8)  # 32 cards from a deck of 30
    final = play_out(game.new_state(seed=5), [RandomBot(seed=s) for s in range(3)])
    assert final.is_over and len(final.history) == 15
    assert sum(final.returns()) == pytest.approx(1.0)
    assert sum(final.view().tricks) == 5
    assert game.replay(final.to_json()).view() == final.view()


def test_options_come_from_the_config_with_their_ranges_and_help() -> None:
    options = {option.name: option for option in game_spec(TOY).options()}
    assert list(options) == ["players", "cards", "hand_size"]
    assert (options["players"].low, options["players"].high) == (2, 4)
    assert (options["cards"].default, options["cards"].low, options["cards"].high) == (30, 2, 30)
    assert "HC-2" in options["hand_size"].doc


def test_random_heuristic_and_ismcts_levels_play_it() -> None:
    assert bot_levels(TOY) == ["random", "heuristic", "ismcts"]
    assert TOY in ismcts_games()
    game = load_game(TOY)
    bots = [make_bot(TOY, "ismcts", seed=1, iterations=50), make_bot(TOY, "random", seed=2)]
    final = play_out(game.new_state(seed=8), bots)
    assert final.is_over and bots[0].last_iterations == 50
    assert sum(final.returns()) == pytest.approx(1.0)
    heuristic = [make_bot(TOY, "heuristic", seed=s) for s in range(2)]
    assert play_out(game.new_state(seed=8), heuristic).is_over


def test_heuristic_wins_a_trick_as_cheaply_as_it_can() -> None:
    state = load_game(TOY, hand_size=3).from_deal({"hands": [[2, 9, 12], [5, 10, 16]]})
    state = state.play("play 9")
    assert str(make_bot(TOY, "heuristic").choose(state.observation(1))) == "play 10"


def test_ismcts_worlds_hold_what_the_seat_knows_and_vary_the_rest() -> None:
    rng = random.Random(4)
    game = load_game(TOY, players=3, hand_size=4)
    state = game.new_state(seed=6)
    varied = 0
    while not state.is_over:
        seat = state.current_player
        obs = state.observation(seat)
        for _ in range(4):
            world = determinize(obs, rng)
            assert world.observation(seat) == obs
            assert world.game.config == state.game.config
            varied += world.view() != state.view()
        state = state.play(make_bot(TOY, "heuristic").choose(obs))
    assert varied > 0, "the sampler must actually deal the hidden cards differently"


def test_the_board_shows_the_game_and_a_click_plays_a_card() -> None:
    from sloth_widgets import Board, HighCardBoard
    from sloth_widgets.testing import find, hand_buttons, select_cards, visible_text

    board = Board(TOY, seed=3, seats=["human", "random"], autoplay=False)
    assert isinstance(board, HighCardBoard) and board.session.my_turn
    mine = [card.key for card in board.hand.cards]
    assert mine == [str(c) for c in board.state.observation(0).hand] and len(hand_buttons(board)) == 7
    assert "the leader plays any card" in visible_text(find(board, "sk-picture"))
    log_before = find(board, "sk-log").value

    select_cards(board, [mine[-1]])
    assert f"you lead the {mine[-1]}" in visible_text(find(board, "sk-explain"))  # the engine's preview
    find(board, "sk-play").click()
    assert [str(m) for m in board.state.history] == [f"play {mine[-1]}"]
    assert mine[-1] not in [card.key for card in board.hand.cards]
    assert f'aria-label="Player 1: {mine[-1]}"' in find(board, "sk-picture").value  # on the table now
    assert find(board, "sk-log").value != log_before and not board.session.my_turn

    find(board, "sk-next").click()  # the bot answers; the trick is complete, and stays on the table (a staged step)
    assert len(board.state.history) == 2 and "Last trick" not in visible_text(find(board, "sk-picture"))
    assert "wins the trick" not in visible_text(find(board, "sk-log"))
    find(board, "sk-hc-take").click()  # who takes it
    assert "Last trick" in visible_text(find(board, "sk-picture")) and "wins the trick" in visible_text(board)
    assert sum(board.state.view().tricks) == 1

    assert mine[-1] == "30" and board.session.my_turn, "the deck's highest card took the trick: lead again (HC-5)"
    before = board.state
    verdict = board.submit("play 99")  # a forged click: the engine refuses it, nothing changes
    assert verdict is not None and not verdict.legal and "no card 99" in verdict.reason
    assert board.state is before and "no card 99" in visible_text(find(board, "sk-explain"))


def test_a_whole_game_through_the_board() -> None:
    from sloth_widgets import Board
    from sloth_widgets.testing import find, select_cards, visible_text

    board = Board(TOY, seed=5, seats=["human", "heuristic"], autoplay=False)
    for _ in range(40):
        if board.state.is_over:
            break
        if board.session.my_turn:
            select_cards(board, [board.hand.cards[0].key])
            find(board, "sk-play").click()
        else:
            find(board, "sk-next").click()
    assert board.state.is_over and board.last_error == ""
    assert find(board, "sk-game-over").layout.display == "none", "who takes the last trick is shown first"
    find(board, "sk-hc-take").click()
    assert "won the most tricks" in visible_text(find(board, "sk-game-over"))


def test_the_gallery_lists_it_without_links_it_does_not_have() -> None:
    from sloth_kernel.gallery import gallery_html

    page = gallery_html()
    assert "High Card" in page
    card = re.search(rf'<div class="sk-game-card" data-game="{TOY}">(.*?)<div class="sk-links">(.*?)</div>', page)
    assert card is not None, "the toy's card is missing"
    assert "2-4 players, trick taking" in card.group(1) and "<svg" in card.group(1)
    assert "Learn" not in card.group(2), "no lesson notebook, so no Learn link"
    assert 'href="play.ipynb?game=toy-high-card"' in card.group(2), "a board: Play opens the play page"


def test_the_step_through_replays_it_citing_its_own_rules() -> None:
    from sloth_widgets.stepper import StepThrough

    final = play_out(load_game(TOY).new_state(seed=2), [make_bot(TOY, "heuristic", seed=s) for s in range(2)])
    stepper = StepThrough(final.to_record())
    assert stepper.last == 14
    stepper.step = stepper.find("wins the trick")
    assert "HC-5" in stepper.rules.value and "highest card wins the trick" in stepper.rules.value


def test_the_arena_and_the_variant_lab_take_it() -> None:
    from sloth_kernel.analysis import variants
    from sloth_kernel.arena import arena

    report = arena(TOY, ["heuristic", "random"], 4, seed=1, workers=1, progress=False)
    assert report["rows"][0]["games"] == 4 and report["rows"][0]["baseline"] == 0.5
    assert variants.knobs()[TOY] == {"hand_size": (3, 5, 7)}
    result = variants.measure(TOY, "hand_size", (3, 5), games=4, show_progress=False)
    assert result.metrics["heuristic's win share"].shape == (2,)


# --- broken plugins --------------------------------------------------------------------------

BROKEN = {
    "toy-import-error": "toy_needs_a_missing_package:SPEC",
    "toy-not-a-spec": "toy_high_card.engine:HighCard",
    "toy-misnamed": TOY_POINTS[TOY],
}
MISSING = "import toy_package_that_is_not_installed  # a plugin whose dependency is missing\n"


@pytest.fixture
def broken_plugins() -> Any:
    with installed("toy_broken_plugins", BROKEN, modules={"toy_needs_a_missing_package": MISSING}):
        yield


def test_broken_plugins_raise_plugin_errors_naming_them(broken_plugins: None) -> None:
    broken = broken_games()
    assert set(broken) == set(BROKEN)
    assert "ModuleNotFoundError" in broken["toy-import-error"]
    assert "not a GameSpec" in broken["toy-not-a-spec"]
    assert "names its game 'toy-high-card'" in broken["toy-misnamed"]
    for name in BROKEN:
        for ask in (game_spec, load_game):
            with pytest.raises(PluginError) as err:
                ask(name)
            assert err.value.plugin == name and name in str(err.value)
            assert isinstance(err.value, ConfigError)
    with pytest.raises(ConfigError, match="unknown game") as unknown:
        load_game("toy-not-installed")
    assert not isinstance(unknown.value, PluginError)


def test_a_broken_plugin_hides_no_other_game(broken_plugins: None) -> None:
    names = available_games()
    assert TOY in names and len(names) == 5 and not set(BROKEN) & set(names)
    for name in names:
        state = load_game(name).new_state(seed=1)
        assert state.legal_moves(), name


def test_uninstalling_a_plugin_forgets_it() -> None:
    with installed("toy_broken_plugins", BROKEN, modules={"toy_needs_a_missing_package": MISSING}):
        assert "toy-import-error" in broken_games()
    assert not set(BROKEN) & set(broken_games())
    assert TOY in available_games()


def test_a_deal_schema_left_out_of_the_wheel_is_a_plugin_error_at_load() -> None:
    """A spec naming a schema its package does not ship: said when the game loads, not a FileNotFoundError
    at the first from_deal."""
    from outside_games import STICKS

    missing = STICKS.replace("max_length=20,", 'max_length=20, deal_schema="sticks_schema:deal.schema.json",')
    assert missing != STICKS
    package = {"sticks_schema/__init__": ""}  # a package that ships no deal.schema.json
    sticks = installed("sticks_dist", {"sticks": "sticks_game:SPEC"}, modules={"sticks_game": missing, **package})
    with sticks, pytest.raises(PluginError, match=r"deal_schema sticks_schema:deal.schema.json does not load") as err:
        load_game("sticks")
    assert "package-data" in str(err.value) and err.value.plugin == "sticks"
