"""The puzzle widget: the position with every hand open, a try by clicking cards or by typing, the verdicts."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sloth_widgets.puzzle import PuzzleBoard

from sloth_kernel import ConfigError
from sloth_kernel.puzzles import puzzle_book


def test_it_shows_the_goal_the_position_and_the_hand_to_move() -> None:
    board = PuzzleBoard("too-sloth-to-win")
    puzzle = board.puzzle
    hero = puzzle.position().current_player
    assert puzzle.statement() in board.goal.value
    assert "puzzle 1 of" in board.head.value and f"seed {puzzle.seed}" in board.head.value
    assert board.position.value  # the game's own drawing of the omniscient view
    hand = puzzle.position().view().hands[hero]
    assert len(board.hand.cards) == sum(hand)
    assert board.previous.disabled and not board.next.disabled


def test_a_right_answer_typed() -> None:
    board = PuzzleBoard("too-sloth-to-win")
    verdict = board.try_move(board.puzzle.answer)
    assert verdict.right and "Right:" in board.feedback.value and "sk-legal" in board.feedback.value


def test_a_wrong_answer_says_why_it_fails() -> None:
    board = PuzzleBoard("too-sloth-to-win", number=2)
    state = board.puzzle.position()
    wrong = next(str(m) for m in state.legal_moves() if str(m) != board.puzzle.answer)
    verdict = board.try_move(wrong)
    assert verdict.legal and not verdict.right
    assert "Not this one" in board.feedback.value and "sk-illegal" in board.feedback.value
    assert "Player" in verdict.text


def test_an_illegal_answer_gets_the_rules_sentence() -> None:
    board = PuzzleBoard("too-sloth-to-win")
    state = board.puzzle.position()
    verdict = board.try_move("1-2-3-4")
    assert not verdict.legal and state.explain("1-2-3-4").reason in verdict.text


def test_a_ten_may_be_typed_as_10() -> None:
    book = puzzle_book("race-to-the-bottom")
    number = next(i for i, p in enumerate(book.puzzles) if p.answer == "T J")
    board = PuzzleBoard("race-to-the-bottom", number=number)
    verdict = board.try_move("10 J")
    assert verdict.right and verdict.move == "10 J"
    assert "10 J is the only play" in verdict.text


def test_clicking_the_cards_of_the_answer() -> None:
    board = PuzzleBoard("too-sloth-to-win", number=2)
    wanted = list(board.kit.move_keys(board.puzzle.position().game.parse_move(board.puzzle.answer)))
    chosen = []
    for index, card in enumerate(board.hand.cards):
        if card.key in wanted:
            wanted.remove(card.key)
            chosen.append(index)
    for index in chosen:
        board.hand.buttons[index].value = True
    assert board.try_cards().right


def test_clicking_nothing_or_cards_that_make_no_play() -> None:
    board = PuzzleBoard("too-sloth-to-win")
    assert "Click the cards" in board.try_cards().text
    board.hand.buttons[0].value = True
    board.hand.buttons[len(board.hand.cards) - 1].value = True
    text = board.try_cards().text
    assert text.startswith(("No play here", "Right", "Not this one", "These cards make"))


def test_previous_next_and_show_the_answer() -> None:
    board = PuzzleBoard("race-to-the-bottom")
    board.next.click()
    assert board.number == 1 and not board.previous.disabled
    board.try_move("pass")
    board.previous.click()
    assert board.number == 0 and board.verdict is None and "Pick your play" in board.feedback.value
    board.go(10_000)
    assert board.number == len(board.puzzles) - 1 and board.next.disabled
    board.show_answer.click()
    assert "The answer:" in board.feedback.value


def test_a_game_without_puzzles_is_refused() -> None:
    with pytest.raises(ConfigError):
        PuzzleBoard("sprint")


@settings(max_examples=40)
@given(text=st.text(max_size=30))
def test_the_answer_handler_never_raises(text: str) -> None:
    board = _board()
    verdict = board.try_move(text)
    assert verdict.text and "Traceback" not in board.feedback.value


_BOARDS: dict[str, PuzzleBoard] = {}


def _board() -> PuzzleBoard:
    if "race" not in _BOARDS:
        _BOARDS["race"] = PuzzleBoard("race-to-the-bottom")
    return _BOARDS["race"]
