"""Ask why on the play boards: any seat with every hand open when watching, only one's own seat and
only what one may know in a live game, nothing behind the hot-seat cover; bad input gets a sentence."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from sloth_widgets import Board
from sloth_widgets.ask import AskWhy
from sloth_widgets.testing import find, select_cards, shut_rules

from sloth_kernel import available_games, game_spec

GAMES = sorted(name for name in available_games() if game_spec(name).board is not None)
TS_DEAL = {"hands": ["2 5 6", "3 4", "1 1 6", "7 7 8"]}
BOTS = ["heuristic"] * 3


def answer(board: Any) -> str:
    """The shown answer as text people read."""
    body = re.sub(r"<style>.*?</style>", "", shut_rules(board._ask.ask_answer.value), flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", body)).strip()


def ask(board: Any, move: str, seat: int | None = None) -> str:
    if seat is not None:
        board._ask.ask_seat.value = seat
    board._ask.ask_move.value = move
    board._ask.ask_button.click()
    return answer(board)


@pytest.mark.parametrize("game", GAMES)
def test_every_board_has_a_closed_ask_why_section_between_the_log_and_the_setup(game: str) -> None:
    board = Board(game, seed=5, autoplay=False)
    box = find(board, "sk-ask-box")
    assert box.title == "Ask why" and not box.opened and box.content.layout.display == "none"
    children = list(board._side.children)  # the side column: the log and standings, Ask why, New game
    assert children.index(board._panels) < children.index(box) < children.index(board._setup_box)
    ask_why = find(board, "sk-ask-why")
    assert isinstance(ask_why, AskWhy)
    assert ask_why.ask_seat.description == "Player" and ask_why.ask_move.description == "Move"
    assert ask_why.ask_button.description == "Ask why"
    for control in (ask_why, ask_why.controls, ask_why.ask_answer, box):
        assert control.layout.max_width == "100%"  # fits a phone: no sideways scroll


def test_watching_asks_about_any_seat_with_every_hand_open() -> None:
    board = Board("too-sloth-to-win", seats=["heuristic"] * 4, autoplay=False, deal=TS_DEAL, rounds=1)
    assert board.session.mode == "watch"
    assert [label for label, _ in board._ask.ask_seat.options] == ["Player 1", "Player 2", "Player 3", "Player 4"]
    shown = ask(board, "7-7", seat=3)
    assert shown.startswith("At the deal: Jump 7-7: legal for Player 4 on their turn.")
    assert "What it would do: Player 4 plays Jump 7-7 and moves 2 to space 2." in shown
    assert "Player 4 holds no 2s (TS-2)" in ask(board, "2")  # the teacher sees every hand
    board.step()
    assert ask(board, "1-1", seat=2).startswith("Before move 2: Jump 1-1:")


def test_a_live_player_asks_only_about_their_own_seat() -> None:
    board = Board("too-sloth-to-win", seats=["human", *BOTS], autoplay=False, deal=TS_DEAL, rounds=1)
    ask_why = board._ask
    assert list(ask_why.ask_seat.options) == [("Player 1", 0)] and ask_why.ask_seat.disabled
    assert ask(board, "7-7") == "At the deal: Jump 7-7: not legal for Player 1. Player 1 holds no 7s (TS-2)."
    shown = ask(board, "2")
    assert "2: legal for Player 1." in shown and "Player 1 plays Single 2 and moves 1 to space 1" in shown
    assert board._ask_question(3, "7-7") == board.state.ask_as(0, "7-7", 0)  # another seat is never asked


def live_answers(hands: list[str]) -> list[str]:
    board = Board("too-sloth-to-win", seats=["human", *BOTS], autoplay=False, deal={"hands": hands}, rounds=1)
    questions = ["7-7", "8", "2", "5-6", "1-1", "6", "pass", "pass 6"]
    shown = [ask(board, move) for move in questions]
    board.submit("2")  # now the bots are to move: Player 1 asks out of turn
    return shown + [ask(board, move) for move in questions]


def test_a_live_answer_names_no_hidden_card_of_another_seat() -> None:
    # two deals that differ only in Player 4's hidden cards (the same count): the same answers, word for word
    first = live_answers(["2 5 6", "3 4", "1 1 6", "7 7 8"])
    second = live_answers(["2 5 6", "3 4", "1 1 6", "3 8 4"])
    assert first == second
    assert not any("Player 4" in line for line in first)


def test_hot_seat_asks_for_the_revealed_hand_only_and_forgets_it_when_covered() -> None:
    board = Board("too-sloth-to-win", seats=["human"] * 4, autoplay=False, deal=TS_DEAL, rounds=1)
    ask_why = board._ask
    assert board.session.covered and list(ask_why.ask_seat.options) == []
    assert ask_why.ask_move.disabled and ask_why.ask_button.disabled
    assert "e.g. pass" in ask_why.ask_move.placeholder  # no card of the incoming hand, even as an example
    assert answer(board) == "Ask why answers the player whose hand is shown: show your hand first."
    find(board, "sk-reveal").click()
    assert list(ask_why.ask_seat.options) == [("Player 1", 0)] and not ask_why.ask_button.disabled
    assert "Player 1 plays Single 2" in ask(board, "2")
    board.submit("2")
    assert board.session.covered and answer(board) != "" and "Player 1" not in answer(board)


def test_10_is_a_ten_and_bad_input_gets_a_sentence() -> None:
    deal = {"hands": ["T T 5", "J J 4", "Q 2"], "decks": ["2 3"] * 3}
    board = Board("race-to-the-bottom", seats=["human", "heuristic", "heuristic"], autoplay=False, deal=deal)
    shown = ask(board, "10 10")
    assert shown.startswith("At the deal: 10 10: legal for Player 1.") and "Pair of 10s" in shown
    assert "T T" not in shown
    for bad in ("", "   ", "x" * 500, "7 7 7 7 7 7 7 7", "pitch", "\x00", "{'a': 1}"):
        shown = ask(board, bad)
        assert shown.endswith(".") and "Traceback" not in shown and "Error" not in shown
        assert "not legal for Player 1" in shown or shown.startswith("Type a move first, as the table writes it")


def test_when_the_game_is_over_the_answer_says_so() -> None:
    board = Board("race-to-the-bottom", seed=3, seats=["heuristic"] * 3, autoplay=False)
    board.run_bots()
    assert board.state.is_over
    shown = ask(board, "10 10", seat=1)
    assert shown == "After the last move: 10 10: not legal for Player 2. The game is over; no more moves."


def test_the_step_through_shares_the_ask_why_widget_and_its_example_fits_the_view() -> None:
    from sloth_widgets.stepper import StepThrough

    from sloth_kernel import load_game

    state = load_game("too-sloth-to-win", players=4, rounds=1).from_deal(TS_DEAL)
    stepper = StepThrough(state.play("2"), step=1)
    assert isinstance(stepper.ask, AskWhy) and stepper.ask in stepper.children
    assert stepper.ask_move.placeholder == "a move, e.g. 2"  # the teacher sees Player 1's first move
    stepper.seat = 2  # Player 3 may not know Player 1's cards, not even as an example
    assert stepper.ask_move.placeholder == "a move, e.g. pass"


def page_message(data: object) -> dict[str, object]:
    """A comm message as the kernel hands it to a widget's comm (content.data is what the page sent)."""
    return {"content": {"comm_id": "x", "data": data}, "buffers": [], "header": {}, "parent_header": {}}


def test_page_messages_to_ask_why_go_through_the_boards_shield() -> None:
    """A forged seat (another player's, or none) is refused in a sentence; a page click asks as usual."""
    board = Board("too-sloth-to-win", seats=["human", *BOTS], autoplay=False, deal=TS_DEAL, rounds=1)
    ask_why = board._ask
    for widget in (ask_why, ask_why.ask_seat, ask_why.ask_move, ask_why.ask_button, ask_why.ask_answer):
        assert id(widget) in board._shielded
    before = board.state.to_record()
    for forged in ({"index": 3}, {"index": "x"}, {"index": None}):
        ask_why.ask_seat.comm.handle_msg(page_message({"method": "update", "state": forged, "buffer_paths": []}))
        assert ask_why.ask_seat.value in (0, None) and board.state.to_record() == before
        board.last_error = ""
    ask_why.ask_move.comm.handle_msg(page_message({"method": "update", "state": {"value": "7-7"}, "buffer_paths": []}))
    ask_why.ask_button.comm.handle_msg(page_message({"method": "custom", "content": {"event": "click"}}))
    assert answer(board) == "At the deal: Jump 7-7: not legal for Player 1. Player 1 holds no 7s (TS-2)."
    assert board.last_error == "" and board.state.to_record() == before


def test_a_live_player_asks_about_the_selected_cards_without_typing() -> None:
    board = Board("too-sloth-to-win", seats=["human", *BOTS], autoplay=False, deal=TS_DEAL, rounds=1)
    ask_why = board._ask
    assert ask_why.ask_selected.layout.display != "none"
    ask_why.ask_selected.click()
    assert answer(board) == "Select some cards first, then ask."
    select_cards(board, ["5", "6"])
    ask_why.ask_selected.click()
    assert answer(board).startswith("At the deal: Run 5-6: legal for Player 1.") and ask_why.ask_move.value == "5-6"


def test_a_live_player_picks_a_move_from_their_legal_moves() -> None:
    board = Board("too-sloth-to-win", seats=["human", *BOTS], autoplay=False, deal=TS_DEAL, rounds=1)
    pick = board._ask.ask_pick
    assert pick.layout.display != "none" and pick.value is None and answer(board) == ""
    assert [value for _, value in pick.options] == [str(m) for m in board.session.observation().legal_moves]
    pick.value = "2"
    assert "Player 1 plays Single 2" in answer(board)


def test_the_answer_clears_when_the_position_changes() -> None:
    board = Board("too-sloth-to-win", seats=["human", *BOTS], autoplay=False, deal=TS_DEAL, rounds=1)
    assert "Player 1 plays Single 2" in ask(board, "2")
    board.render()  # the same position: the answer stays
    assert "Player 1 plays Single 2" in answer(board)
    board.submit("2")
    assert answer(board) == ""
    assert not board.session.my_turn and board._ask.ask_pick.options == ()  # no list off turn


def test_the_hot_seat_cover_forgets_the_typed_move() -> None:
    board = Board("too-sloth-to-win", seats=["human"] * 4, autoplay=False, deal=TS_DEAL, rounds=1)
    find(board, "sk-reveal").click()
    ask(board, "5-6")
    board.submit("2")
    assert board.session.covered and board._ask.ask_move.value == ""
    assert board._ask.ask_selected.layout.display == "none" and board._ask.ask_pick.layout.display == "none"


def test_sprint_asks_by_typing_only() -> None:
    board = Board("sprint", seats=["human", "heuristic"], autoplay=False)
    assert board._ask.ask_selected.layout.display == "none" and board._ask.ask_pick.layout.display == "none"
