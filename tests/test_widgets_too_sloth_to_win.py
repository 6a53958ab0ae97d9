"""The Too Sloth To Win board, driven like a person would: clicks and trait changes."""

from __future__ import annotations

import pytest
from sloth_widgets import Board, TooSlothBoard
from sloth_widgets.testing import find, hand_buttons, select_cards, visible_text
from sloth_widgets.too_sloth_to_win.board import move_keys

from sloth_kernel.bots import make_bot
from sloth_kernel.games.too_sloth_to_win.render import hand_faces


def said(board: TooSlothBoard) -> str:
    """The explanation panel as plain text."""
    return visible_text(find(board, "sk-explain"))


def own_hand(board: TooSlothBoard, seat: int) -> list[str]:
    return [key for key, _ in hand_faces(board.state.observation(seat).hands[seat])]


def play_as_person(board: TooSlothBoard, move: str) -> None:
    """Make `move` through the widgets: select cards, declare, or pick a take, then click."""
    if move.startswith("pass"):
        take = find(board, "sk-take")
        if any(value == move for _, value in take.options):
            take.value = move
        find(board, "sk-pass").click()
        return
    select_cards(board, move_keys(move))
    drink = [t for t in move.split("-") if t.startswith("D")]
    if drink:
        find(board, "sk-declare").value = drink[0][1:]
    find(board, "sk-play").click()


def showing_round_end(board: TooSlothBoard) -> bool:
    return bool(find(board, "sk-ts-continue").layout.display != "none")


def play_out(board: TooSlothBoard) -> None:
    """Bots to the end, stepping through every round's end as a person would."""
    for _ in range(50):
        board.run_bots()
        if not showing_round_end(board):
            break
        find(board, "sk-ts-continue").click()


def test_full_game_from_the_widgets() -> None:
    board = TooSlothBoard(seed=5, autoplay=False)
    me = make_bot("too-sloth-to-win", "heuristic", seed=9)
    for _ in range(3000):
        if showing_round_end(board):
            find(board, "sk-ts-continue").click()
            continue
        if board.state.is_over:
            break
        if board.session.my_turn:
            before = len(board.state.history)
            move = str(me.choose(board.state.observation(0)))
            play_as_person(board, move)
            assert len(board.state.history) == before + 1, visible_text(board)
            assert str(board.state.history[-1]) == move
        else:
            find(board, "sk-next").click()
    assert board.state.is_over
    assert board.last_error == ""
    over = find(board, "sk-game-over")
    assert over.layout.display != "none" and "wins" in visible_text(over)
    assert "Rounds" in visible_text(board)  # the round summary
    replay = board.state.game.replay(board.state.to_record())
    assert replay.view() == board.state.view()


def test_illegal_selection_changes_nothing_and_explains() -> None:
    board = TooSlothBoard(seed=1, autoplay=False)
    assert board.session.my_turn
    hand = [c.key for c in board.hand.cards]
    assert hand[:2] == ["2", "4"]
    log_before = board.state.log
    select_cards(board, ["2", "4"])
    assert "Not legal" in said(board)  # live preview
    find(board, "sk-play").click()
    assert board.state.log == log_before and not board.state.history
    assert "neither a Jump" in said(board) and "TS-3" in said(board)
    # a drink without a declared number is refused by the engine's notation check
    board.hand.clear()
    select_cards(board, ["5", "D"])
    find(board, "sk-declare").value = None
    find(board, "sk-play").click()
    assert not board.state.history
    assert "declare the drink" in said(board)


def test_forged_clicks_on_disabled_buttons_change_nothing() -> None:
    board = TooSlothBoard(seed=1, autoplay=False)
    pass_button = find(board, "sk-pass")
    assert pass_button.disabled  # the leader must play
    pass_button.click()
    assert not board.state.history
    assert "leader must play" in said(board)
    select_cards(board, ["2"])
    find(board, "sk-play").click()
    assert [str(m) for m in board.state.history] == ["2"]
    assert board.session.bot_to_move
    play = find(board, "sk-play")
    assert play.disabled and all(b.disabled for b in hand_buttons(board))
    select_cards(board, ["8"])  # forged: toggles are disabled on a bot's turn
    play.click()
    assert len(board.state.history) == 1
    assert "not Player 1's turn" in said(board)


def test_stale_selection_is_dropped_when_the_hand_changes() -> None:
    board = TooSlothBoard(seed=1, autoplay=False)
    select_cards(board, ["5", "5"])
    assert board.hand.selected_keys == ["5", "5"]
    find(board, "sk-play").click()
    assert board.hand.selected == ()
    board.run_bots()
    assert board.session.my_turn
    board.hand.selected = (99, 42)  # forged stale indices name no card
    assert board.hand.selected == ()
    find(board, "sk-play").click()
    assert len([m for m in board.state.history if str(m) == "5-5"]) == 1
    assert "choose something first" in said(board)


def test_hot_seat_hides_hands_between_turns() -> None:
    board = TooSlothBoard(seed=1, seats=["human", "human", "random"], autoplay=False)
    assert board.session.mode == "hot-seat"
    cover = find(board, "sk-cover")
    assert cover.layout.display != "none" and "Pass the device to Player 1" in visible_text(board)
    assert hand_buttons(board) == [] and "running card" not in visible_text(board)
    find(board, "sk-play").click()  # forged under the cover
    assert not board.state.history
    find(board, "sk-reveal").click()
    assert cover.layout.display == "none"
    assert [c.key for c in board.hand.cards] == own_hand(board, 0)
    select_cards(board, [own_hand(board, 0)[0]])
    find(board, "sk-play").click()
    # Player 2 is human too: the cover is up and no hand is on screen
    assert board.session.to_move == 1 and board.session.covered
    assert hand_buttons(board) == [] and "running card" not in visible_text(board)
    assert "Pass the device to Player 2" in visible_text(board)
    find(board, "sk-reveal").click()
    assert [c.key for c in board.hand.cards] == own_hand(board, 1) != own_hand(board, 0)
    assert "Player 2" in find(board, "sk-status").value


def test_watch_mode_and_no_board_variant_through_setup() -> None:
    board = Board("too-sloth-to-win", seed=2, seats=["random", "heuristic", "random"], autoplay=False)
    assert board.session.mode == "watch" and "Hands (teacher" in visible_text(board)
    setup = find(board, "sk-setup")
    setup.players.value = 3
    for dropdown, kind in zip(setup.seat_kinds, ["random", "random", "random"], strict=False):
        dropdown.value = kind
    setup.option_widgets["no_board"].value = True
    setup.chosen_seed.value = "11"
    find(board, "sk-deal-seed").click()
    assert board.state.game.config.no_board and board.state.seed == 11
    assert "Track" not in find(board, "sk-picture").value
    assert "No-Board variant" in find(board, "sk-picture").value
    for _ in range(3000):
        if showing_round_end(board):
            find(board, "sk-ts-continue").click()
        elif board.state.is_over:
            break
        else:
            find(board, "sk-next").click()
    assert "wins" in visible_text(find(board, "sk-game-over"))
    assert find(board, "sk-next").disabled


def test_errors_inside_callbacks_are_shown_in_the_board_without_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    board = TooSlothBoard(seed=1, seats=["random", "random", "random"], autoplay=False)

    def broken() -> bool:
        raise RuntimeError("bot crashed")

    monkeypatch.setattr(board.session, "step", broken)
    timer = find(board, "sk-autoplay")
    timer.playing = True
    timer.value += 1  # a front-end tick reaches the broken bot
    assert not timer.playing and not board.state.history
    shown = find(board, "sk-error").value
    # the person reads a short sentence; the detail (with the traceback) goes to the server's log only
    assert "went wrong" in board.last_error and "went wrong" in shown
    assert "bot crashed" not in shown and "Traceback" not in shown and ".py" not in shown
    logged = capfd.readouterr().err
    assert "bot crashed" in logged and "Traceback" in logged


def test_hints_highlight_cards_of_legal_plays() -> None:
    board = TooSlothBoard(seed=1, autoplay=False)
    find(board, "sk-hint-toggle").value = True
    hinted = [c.key for c, b in zip(board.hand.cards, hand_buttons(board), strict=False) if "sk-hint" in b._dom_classes]
    assert set(hinted) == {"2", "4", "5", "6", "7", "8", "D"}
    assert "Legal now:" in said(board)


def test_play_again_keeps_seats_and_options_with_a_fresh_deal() -> None:
    board = TooSlothBoard(seed=8, seats=["random", "random", "random"], no_board=True, autoplay=False)
    again = find(board, "sk-again")
    assert find(board, "sk-game-over").layout.display == "none"
    play_out(board)
    assert board.state.is_over and find(board, "sk-game-over").layout.display != "none"
    again.click()
    assert not board.state.is_over and board.state.seed not in (8, 9) and not board.session.chosen
    assert board.session.seats == ("random", "random", "random") and board.state.game.config.no_board
