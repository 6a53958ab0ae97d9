"""The Sprint! board, driven through its widgets; the lift control must not count for you (SP-7)."""

from __future__ import annotations

import re

from sloth_widgets import Board, SprintBoard
from sloth_widgets.sprint.board import pile_look
from sloth_widgets.testing import find, visible_text

from sloth_kernel.bots import make_bot


def said(board: SprintBoard) -> str:
    return visible_text(find(board, "sk-explain"))


def cut_for(board: SprintBoard, count: int) -> float:
    """The slider value whose cut lifts `count` cards (what a perfect hand would do)."""
    return 1.0 - count / board.state.observation(0).pile_size


def test_full_game_from_the_widgets() -> None:
    board = SprintBoard(seed=3, autoplay=False)
    me = make_bot("sprint", "heuristic", seed=5)
    lifts = 0
    for _ in range(400):
        if board.state.is_over:
            break
        if board.session.my_turn:
            count = int(str(me.choose(board.state.observation(0))).split()[1])
            find(board, "sk-lift-cut").value = cut_for(board, count)
            find(board, "sk-lift").click()
            assert str(board.state.history[-1]) == f"lift {count}", said(board)
            assert f"You lifted {count}" in said(board)
            lifts += 1
        else:
            find(board, "sk-next").click()
    assert board.state.is_over and lifts > 2 and board.last_error == ""
    assert "everyone" in visible_text(find(board, "sk-game-over"))
    assert "Last lift and Hare card" in find(board, "sk-picture").value


def test_the_lift_control_shows_no_count() -> None:
    board = SprintBoard(seed=1, autoplay=False)
    box = find(board, "sk-lift-box")
    cut = find(board, "sk-lift-cut")
    assert cut.readout is False and cut.orientation == "vertical"
    readable = lambda: re.sub(r"SP-\d+", "", visible_text(box))  # noqa: E731 - rule ids aside
    assert not re.search(r"\d", readable())  # no numbers anywhere a person reads
    cut.value = 0.4
    assert not re.search(r"\d", readable()) and not re.search(r"\d", said(board))
    pile = find(board, "sk-pile").value
    assert (
        len(re.findall(r"<line\b", pile)) == 1 and "<text" not in pile
    )  # only the cut marker: no card edges, no labels
    looks = {(pile_look(token)["height"], pile_look(token)["base"]) for token in ("a1", "b2", "c3", "d4", "e5")}
    assert len(looks) == 5  # the pile looks different from game to game


def test_an_impossible_cut_changes_nothing_and_explains() -> None:
    board = SprintBoard(seed=1, autoplay=False)
    find(board, "sk-lift-cut").value = 1.0  # cut above the top card: lifts nothing
    find(board, "sk-lift").click()
    assert not board.state.history
    assert "at least 1 Race card" in said(board) and "SP-4" in said(board)


def test_forged_lift_on_a_bots_turn_changes_nothing() -> None:
    board = SprintBoard(seed=1, autoplay=False)
    find(board, "sk-lift-cut").value = cut_for(board, 10)
    find(board, "sk-lift").click()
    assert board.session.bot_to_move
    lift = find(board, "sk-lift")
    assert lift.disabled
    lift.click()
    assert len(board.state.history) == 1 and "not Player 1's turn" in said(board)


def test_hot_seat_cover_and_variants_through_setup() -> None:
    board = Board("sprint", seed=2, seats=["human", "human"], autoplay=False)
    box = find(board, "sk-lift-box")
    assert board.session.covered and box.layout.display == "none"
    find(board, "sk-lift").click()  # forged under the cover
    assert not board.state.history and "covered" in said(board)
    find(board, "sk-reveal").click()
    assert box.layout.display != "none"
    find(board, "sk-lift-cut").value = cut_for(board, 12)
    find(board, "sk-lift").click()
    assert [str(m) for m in board.state.history] == ["lift 12"]
    assert board.session.covered and box.layout.display == "none"
    assert "Pass the device to Player 2" in visible_text(board)
    setup = find(board, "sk-setup")
    setup.option_widgets["small_track"].value = True
    setup.option_widgets["young_tortoise"].value = True
    setup.players.value = 3
    for dropdown in setup.seat_kinds[:3]:
        dropdown.value = "expert"
    find(board, "sk-new").click()
    config = board.state.game.config
    assert config.small_track and config.young_tortoise and config.players == 3
    assert board.session.mode == "watch" and "finish 24" in visible_text(board)
    assert "Young Tortoise" in find(board, "sk-picture").value
    while not board.state.is_over:
        find(board, "sk-next").click()
    assert find(board, "sk-game-over").layout.display != "none"
