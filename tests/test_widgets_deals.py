"""Secret deals: every board deals from a fresh 128-bit seed, and nothing in the page gives the
deal away before the game is over; afterwards the seed, the record and a replay are offered.

"The page" here is every widget trait that is synced to the browser (``sync=True``), as
``widget.get_state()`` serializes it, of every widget a board reaches: its children, hidden or
not, and the widgets its traits name (layouts, styles).
"""

from __future__ import annotations

import base64
import json
import re
from typing import Any

import ipywidgets as widgets
import pytest
from sloth_widgets import Board
from sloth_widgets.session import address_seed, parse_seed
from sloth_widgets.testing import find, find_all, visible_text, walk

from sloth_kernel import available_games, game_spec, load_game
from sloth_kernel.bots import make_bot
from sloth_kernel.core import fresh_seed

GAMES = sorted(name for name in available_games() if game_spec(name).board is not None)  # every board
RECORD_LINK = re.compile(
    r'<a class="sk-record-link" download="([^"]+\.json)" href="data:application/json;base64,([^"]+)"'
)


def synced_widgets(board: widgets.Widget) -> list[widgets.Widget]:
    """Every widget the board reaches: walk() through children, then every widget a synced trait names."""
    seen: dict[int, widgets.Widget] = {}
    todo = list(walk(board))
    while todo:
        widget = todo.pop()
        if id(widget) in seen:
            continue
        seen[id(widget)] = widget
        todo.extend(walk(widget))
        for name in widget.keys:
            todo.extend(_widgets_in(getattr(widget, name)))
    return list(seen.values())


def _widgets_in(value: Any) -> list[widgets.Widget]:
    if isinstance(value, widgets.Widget):
        return [value]
    if isinstance(value, (list, tuple)):
        return [w for item in value for w in _widgets_in(item)]
    if isinstance(value, dict):
        return [w for item in value.values() for w in _widgets_in(item)]
    return []


def page_text(board: widgets.Widget) -> str:
    """Everything the board's widgets send to the browser: every trait tagged sync=True."""
    states = []
    for widget in synced_widgets(board):
        synced = [name for name in widget.trait_names() if widget.trait_metadata(name, "sync")]
        assert set(synced) <= set(widget.keys)  # get_state() serializes every synced trait
        states.append(json.dumps(widget.get_state(), default=str, sort_keys=True))
    return "\n".join(states)


def seed_traces(seed: int) -> list[str]:
    """Texts that would give the seed away: the number, and any 9 of its digits in a row (a seed
    cut short, like ``seed % 10**9``), and 10 hex digits in a row of it."""
    decimal, hexa = str(seed), f"{seed:x}"
    return (
        [decimal]
        + [decimal[i : i + 9] for i in range(len(decimal) - 8)]
        + [hexa[i : i + 10] for i in range(len(hexa) - 9)]
    )


def assert_no_seed(board: Any) -> None:
    seed = board.session.seed
    assert seed > 10**20  # a fresh seed (a smaller one would make the check below weak)
    text = page_text(board)
    leaks = [trace for trace in seed_traces(seed) if trace in text]
    assert leaks == [], f"the page holds the seed ({leaks[:3]})"
    assert "sk-record-link" not in text and "data:application/json" not in text


def human_move(board: Any, bot: Any) -> None:
    """The human seat's move, chosen by a bot and sent through the board (the engine re-checks it)."""
    seat = board.session.viewer
    verdict = board.submit(str(bot.choose(board.state.observation(seat))))
    assert verdict is not None and verdict.legal, verdict


def play_to_the_end(board: Any, check: bool = False) -> None:
    bot = make_bot(board.game_name, "heuristic", seed=7)
    for _ in range(3000):
        if board.state.is_over:
            for show_all in find_all(board, "sk-reveal-all"):  # a step-by-step reveal, shown to its end
                if not show_all.disabled:
                    show_all.click()
            while board.held_back(board.session.observation()) and board.step():
                pass  # the reveal steps that show how it ended (e.g. a card still face down)
            return
        if check:
            assert_no_seed(board)
        if board.session.my_turn:
            human_move(board, bot)
        else:
            board.run_bots()
    raise AssertionError("no game over")


# --- fresh seeds ---------------------------------------------------------------------------


def test_fresh_seeds_are_python_ints_of_128_bits() -> None:
    seeds = [fresh_seed() for _ in range(200)]
    assert all(type(seed) is int for seed in seeds)
    assert max(seeds) >= 2**100 and all(0 <= seed < 2**128 for seed in seeds)
    assert len(set(seeds)) == 200


@pytest.mark.parametrize("game", GAMES)
def test_two_boards_built_without_a_seed_deal_different_games(game: str) -> None:
    first, second = Board(game, autoplay=False), Board(game, autoplay=False)
    assert first.session.seed != second.session.seed
    assert not first.session.chosen and first.session.seed >= 0

    def deal(board: Any) -> tuple[Any, ...]:
        # the teacher's view holds every hand; Sprint!'s deal is its Race pile
        return repr(board.state.view()), getattr(board.state, "pile", None), [c.key for c in board.hand.cards]

    assert deal(first) != deal(second)
    if first.shows_hand:
        # two fresh hands alone may match by chance (3 opening cards in Surplus of Sloths: about 1 in 30);
        # six fresh boards all dealing the seat the same hand would take a fixed deal
        hands = {tuple(c.key for c in board.hand.cards) for board in (first, second)}
        hands |= {tuple(c.key for c in Board(game, autoplay=False).hand.cards) for _ in range(4)}
        assert len(hands) > 1


# --- nothing in the page before the end ---------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_no_synced_trait_holds_the_seed_before_game_over(game: str) -> None:
    board = Board(game, autoplay=False)
    assert "seed" not in visible_text(find(board, "sk-status"))
    assert_no_seed(board)
    for toggle in find_all(board, "sk-hint-toggle"):  # hints on: the legal moves are listed too
        toggle.value = True
    bot = make_bot(game, "heuristic", seed=3)
    for _ in range(4):  # a few moves each way
        if board.state.is_over:
            break
        if board.session.my_turn:
            human_move(board, bot)
        else:
            board.step()
        assert_no_seed(board)
    # a hot-seat game and a watched game through the setup panel: fresh deals, still nothing
    setup = find(board, "sk-setup")
    for kinds in (["human"] * board.state.game.num_players, ["random"] * board.state.game.num_players):
        for dropdown, kind in zip(setup.seat_kinds, kinds, strict=False):
            dropdown.value = kind
        find(board, "sk-new").click()
        assert not board.session.chosen
        assert_no_seed(board)
        if board.session.covered:
            find(board, "sk-reveal").click()
            assert_no_seed(board)
        board.step()
        assert_no_seed(board)


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_keeps_the_seed_out_until_the_end_then_shows_it(game: str) -> None:
    board = Board(game, autoplay=False)
    play_to_the_end(board, check=True)
    seed = board.session.seed
    assert "Game over" in visible_text(find(board, "sk-status"))
    over = find(board, "sk-game-over")
    assert over.layout.display != "none"
    assert f"Seed of this deal: {seed}" in visible_text(over)

    # the record, to download: it is the game, and it replays
    link = RECORD_LINK.search(board._over_text.value)
    assert link is not None, board._over_text.value
    assert link.group(1).startswith(game) and str(seed) not in link.group(1)
    record = json.loads(base64.b64decode(link.group(2)))
    assert record["seed"] == seed and record["game"] == game
    replayed = load_game(game).replay(record)
    assert replayed.is_over and replayed.view() == board.state.view()

    # "Replay this game" opens the step-through of this record in the page, and closes it again
    opener = find(board, "sk-replay-open")
    assert find_all(board, "sk-stepper") == []
    opener.click()
    (stepper,) = find_all(board, "sk-stepper")
    assert any(w is stepper for w in walk(board, visible_only=True))
    assert stepper.record == record and stepper.last == len(board.state.history) > 0
    stepper.step = stepper.last
    assert stepper.state.view() == board.state.view()
    assert opener.description == "Close the replay"
    opener.click()
    assert not any(w is stepper for w in walk(board, visible_only=True))

    # and the next game is secret again: no seed, no record, no replay
    find(board, "sk-again").click()
    assert not board.state.is_over and board.session.seed != seed
    assert find_all(board, "sk-stepper") == [] and find(board, "sk-game-over").layout.display == "none"
    assert_no_seed(board)


# --- a chosen seed, on purpose -------------------------------------------------------------------


def test_the_setup_panel_deals_a_chosen_seed_only_when_asked() -> None:
    board = Board("race-to-the-bottom", seats=["human", "random"], autoplay=False)
    setup = find(board, "sk-setup")
    assert setup.chosen_seed.value == ""  # never the secret seed
    big = 2**127 + 12345  # more than a JS number holds: typed and kept as text
    setup.chosen_seed.value = str(big)
    find(board, "sk-deal-seed").click()
    assert board.state.seed == big and board.session.chosen
    assert board.session.seats == ("human", "random")
    assert f"seed {big} (chosen)" in visible_text(find(board, "sk-status"))
    assert board.state.view() == load_game("race-to-the-bottom", players=2).new_state(seed=big).view()

    setup.chosen_seed.value = "12a"
    find(board, "sk-deal-seed").click()
    assert board.state.seed == big  # not dealt
    assert "not a seed" in visible_text(find(board, "sk-seed-note"))

    find(board, "sk-new").click()  # New game: a fresh, secret deal again
    assert board.state.seed != big and not board.session.chosen
    assert "seed" not in visible_text(find(board, "sk-status"))
    assert "not a seed" not in visible_text(find(board, "sk-seed-note"))


def test_parse_seed_takes_whole_numbers_only() -> None:
    assert parse_seed(" 0042 ") == 42 and parse_seed(7) == 7
    for bad in ("", "-3", "1.5", "1e9", "٣", "x", "9" * 61, -1, True, None):
        with pytest.raises(ValueError, match="not a seed"):
            parse_seed(bad)


def test_the_page_address_chooses_a_deal_through_the_front_end_message() -> None:
    board = Board("surplus-of-sloths", babies=True, autoplay=False)
    assert board.get_state()["_page_params"] == {}
    board.set_state({"_page_params": {"seed": "77", "template": "sloth"}})  # what the front end sends
    assert board.state.seed == 77 and board.session.chosen
    assert board.state.game.config.babies  # the app's own options and seats stay
    assert "seed 77 (chosen)" in visible_text(find(board, "sk-status"))
    bot = make_bot("surplus-of-sloths", "heuristic", seed=1)
    human_move(board, bot)
    board.set_state({"_page_params": {"seed": "77"}})  # the same address again: no new deal
    assert len(board.state.history) == 1

    other = Board("surplus-of-sloths", babies=True, autoplay=False)
    other.set_state({"_page_params": {"seed": "7x"}})  # unreadable: nothing changes, the board says why
    assert not other.session.chosen and "not a seed" in visible_text(other)
    other.set_state({"_page_params": {"template": "sloth"}})  # no seed: nothing to do
    assert not other.session.chosen


def test_a_kernel_started_for_the_page_reads_the_seed_from_its_address(monkeypatch: pytest.MonkeyPatch) -> None:
    assert address_seed({"QUERY_STRING": "template=lab&seed=5"}) == "5"
    assert address_seed({"QUERY_STRING": "template=lab"}) is None and address_seed({}) is None
    monkeypatch.setenv("QUERY_STRING", "seed=5&template=lab")  # how Voila starts a kernel for a request
    board = Board("sprint", autoplay=False)
    assert board.state.seed == 5 and board.session.chosen
    board.set_state({"_page_params": {"seed": "5", "template": "lab"}})  # then the front end says it too
    assert board.state.seed == 5
    assert Board("sprint", seed=6, autoplay=False).state.seed == 6  # code's own choice wins
    monkeypatch.setenv("QUERY_STRING", "seed=five")
    assert not Board("sprint", autoplay=False).session.chosen
