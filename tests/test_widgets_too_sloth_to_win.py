"""The Too Sloth To Win board, driven like a person would: clicks and trait changes."""

from __future__ import annotations

import dataclasses
import html
import re

import ipywidgets as widgets
import pytest
from sloth_widgets import Board, TooSlothBoard
from sloth_widgets.testing import find, hand_buttons, select_cards, shut_rules, visible_text, walk
from sloth_widgets.too_sloth_to_win.board import move_keys

from sloth_kernel.bots import make_bot
from sloth_kernel.core import seat_name
from sloth_kernel.games.too_sloth_to_win.engine import RoundResult
from sloth_kernel.games.too_sloth_to_win.render import hand_faces


def plain(markup: str) -> str:
    """HTML as the words a person reads."""
    return html.unescape(" ".join(re.sub(r"<[^>]+>", " ", markup).split())).replace(" .", ".").replace(" ,", ",")


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
    assert hinted == []  # a lead: every card could play, so lighting them all would say nothing
    shown = said(board)
    assert "Jumps of 3: 5s or 8s" in shown and "Singles: 2, 4, 5, 6, 7 or 8" in shown
    assert "Legal now" not in shown and "D1-2" not in shown and "2-D3-4" not in shown  # no notation list


def test_hints_on_a_follow_light_the_cards_that_beat_the_table_and_name_the_shape() -> None:
    deal = {"hands": ["2 5 6", "3 4 8 7", "1 1 6", "7 7 8"]}
    board = TooSlothBoard(seats=["heuristic", "human", "heuristic", "heuristic"], deal=deal, rounds=1, autoplay=False)
    board.run_bots()
    assert board.state.table == (5, 6)
    find(board, "sk-hint-toggle").value = True
    hinted = [c.key for c, b in zip(board.hand.cards, hand_buttons(board), strict=False) if "sk-hint" in b._dom_classes]
    assert sorted(hinted) == ["7", "8"] and "Runs of 2, ending at 8" in said(board)


def test_play_again_keeps_seats_and_options_with_a_fresh_deal() -> None:
    board = TooSlothBoard(seed=8, seats=["random", "random", "random"], no_board=True, autoplay=False)
    again = find(board, "sk-again")
    assert find(board, "sk-game-over").layout.display == "none"
    play_out(board)
    assert board.state.is_over and find(board, "sk-game-over").layout.display != "none"
    again.click()
    assert not board.state.is_over and board.state.seed not in (8, 9) and not board.session.chosen
    assert board.session.seats == ("random", "random", "random") and board.state.game.config.no_board


# -- the card table: seats, round ends, the summary --------------------------------------


def watch_board(seed: int) -> TooSlothBoard:
    return TooSlothBoard(seed=seed, seats=["heuristic"] * 4, autoplay=False)


def bots_to_round_end(board: TooSlothBoard) -> None:
    for _ in range(500):
        if showing_round_end(board):
            return
        assert board.step(), "no round end reached"
    raise AssertionError("no round end reached")


def chips_fact(board: TooSlothBoard, seat: int) -> str:
    facts = board.seat_facts(board.session.observation(), seat)
    return next(f for f in facts if "Cash Chip" in f)


def test_seat_facts_status_and_turn_hint_in_words() -> None:
    board = TooSlothBoard(seed=1, autoplay=False)
    obs = board.session.observation()
    assert board.seat_facts(obs, 0) == ["space 0", "8 cards", "1 drink", "0 Trophies", "0 Cash Chips"]
    assert board.seat_status(obs, 0) == "active, pacemaker" and board.seat_status(obs, 1) == "active"
    assert "lead any combination" in board.turn_hint(obs)
    seats = find(board, "sk-seats-top").value + find(board, "sk-my-seat").value
    assert "Player 2" in seats and "8 cards" in seats and "seat 0" not in seats.lower()
    assert "sk-to-move" in find(board, "sk-my-seat").value  # your turn: your seat is marked
    select_cards(board, ["2"])
    find(board, "sk-play").click()
    obs = board.session.observation()
    assert board.seat_facts(obs, 0)[:2] == ["space 1", "7 cards"]
    assert "eliminated from the round (TS-7)" in board.turn_hint(obs)  # a Single on the table
    assert "sk-to-move" in find(board, "sk-seats-top").value


def test_no_board_variant_seats_show_no_space() -> None:
    board = TooSlothBoard(seed=1, no_board=True, autoplay=False)
    assert not any("space" in f for f in board.seat_facts(board.session.observation(), 0))


def test_a_round_end_shows_its_last_play_before_its_results() -> None:
    board = watch_board(5)
    bots_to_round_end(board)
    obs = board.state.view()
    assert len(obs.results) == 1 and not board.state.is_over
    result = obs.results[0]
    ending = [e for e in obs.log if e.move is not None][-1]
    log = find(board, "sk-log").value
    picture = shut_rules(find(board, "sk-picture").value)
    # step 1: the play that ended the round, and nothing after it
    assert "Round 1 is over" in picture and html.escape(ending.text) in picture
    assert html.escape(ending.text) in log and "Round 2 of 3" not in log
    assert "Round 2 of 3" not in said(board)
    assert "Round 1 of 3" in picture and "Round 2 of 3" not in picture
    assert find(board, "sk-standings").value == ""  # no result yet
    assert "sk-to-move" not in find(board, "sk-seats-top").value
    assert "Revealing" in find(board, "sk-status").value
    for seat in range(4):  # the figures before the awards
        before = obs.chips[seat] - (1 if seat in result.chip else 0)
        assert chips_fact(board, seat).startswith(f"{before} Cash Chip")
    if ending.move and not ending.move.startswith("pass"):  # the play is on the table
        assert f"by {seat_name(ending.player)}" in picture
    # the bots wait for the player
    moves = len(board.state.history)
    assert not board.step() and len(board.state.history) == moves
    assert find(board, "sk-next").disabled and find(board, "sk-skip").disabled
    # step 2: the results
    find(board, "sk-ts-continue").click()
    picture = shut_rules(find(board, "sk-picture").value)
    assert "Round 1 results" in picture and html.escape(result.text) in picture
    assert "Round 1:" in find(board, "sk-standings").value
    assert "Round 2 of 3" not in find(board, "sk-log").value
    for seat in range(4):
        assert chips_fact(board, seat).startswith(f"{obs.chips[seat]} Cash Chip")
    if result.first is not None:
        assert board.seat_status(board.session.observation(), result.first) == "finished 1st"
    # step 3: the next deal, and the bots go on
    find(board, "sk-ts-continue").click()
    assert find(board, "sk-ts-continue").layout.display == "none"
    assert "Round 2 of 3" in find(board, "sk-log").value and "Round 2 of 3" in find(board, "sk-picture").value
    assert board.step() and len(board.state.history) == moves + 1


def test_the_last_round_ends_with_its_play_on_the_table_beside_the_game_over() -> None:
    board = watch_board(5)
    for _ in range(2):
        bots_to_round_end(board)
        find(board, "sk-ts-continue").click()
        find(board, "sk-ts-continue").click()
    board.run_bots()
    assert board.state.is_over and find(board, "sk-ts-continue").layout.display == "none"
    obs = board.state.view()
    ending = [e for e in obs.log if e.move is not None][-1]
    picture = shut_rules(find(board, "sk-picture").value)
    if not ending.move.startswith("pass"):  # the last play is on the table, by its player
        assert f"by {seat_name(ending.player)}" in picture and "Round 3 of 3" in picture
    assert html.escape(ending.text) in find(board, "sk-log").value
    assert find(board, "sk-game-over").layout.display != "none"
    assert "wins" in visible_text(find(board, "sk-game-over"))
    assert "Round 3:" in find(board, "sk-standings").value


def test_code_that_moves_on_passes_a_round_end_shown() -> None:
    board = watch_board(5)
    bots_to_round_end(board)
    moves = len(board.state.history)
    assert board.run_bots() > 0  # asked for explicitly: the round's end gives way
    assert len(board.state.history) > moves and "Round 2 of 3" in find(board, "sk-log").value


def over_view(board: TooSlothBoard, **figures: object) -> object:
    return dataclasses.replace(board.state.view(), is_over=True, **figures)


def test_summary_explains_the_winner_by_ts14_with_every_players_figures() -> None:
    board = watch_board(1)
    results = (
        RoundResult(0, 0, 1, (0,), (1,), "second finisher"),
        RoundResult(1, 1, 0, (1,), (0,), "second finisher"),
        RoundResult(2, 2, 3, (2,), (3,), "second finisher"),
    )
    # most Cash Chips
    text = plain(board.summary(over_view(board, chips=(2, 1, 0, 0), trophies=(0, 0, 3, 0), results=(), winner=0)))
    assert "Player 1 wins" in text and "Player 1 has the most Cash Chips: 2." in text
    assert "Player 3: 0 Cash Chips, 3 Trophies" in text and "TS-14" in text
    # a tie on Cash Chips: Trophies decide
    text = plain(board.summary(over_view(board, chips=(1, 1, 0, 0), trophies=(0, 2, 0, 0), results=(), winner=1)))
    assert "Player 1 and Player 2 have 1 Cash Chip each; Player 2 has more Trophies: 2 (Player 1: 0)." in text
    # a tie on both: the latest Cash Chip decides (Player 1's in round 2, Player 2's in round 1)
    view = over_view(board, chips=(1, 1, 0, 1), trophies=(1, 1, 1, 0), results=results[:2], winner=0)
    text = plain(board.summary(view))
    assert "Player 1, Player 2 and Player 4 have 1 Cash Chip each; Player 1 and Player 2 have 1 Trophy each;" in text
    assert "Player 1 gained a Cash Chip most recently, in round 2." in text
    assert "Player 2: 1 Cash Chip (round 1), 1 Trophy (round 2)" in text
    assert "(s)" not in text and "seat" not in text.lower()


def test_the_summary_of_a_real_game_names_the_engines_winner() -> None:
    board = watch_board(3)
    play_out(board)
    obs = board.state.view()
    text = visible_text(find(board, "sk-game-over"))
    assert f"Game over: {seat_name(obs.winner)} wins." in text
    for seat in range(4):
        assert f"{seat_name(seat)}: {obs.chips[seat]} Cash Chip" in text


def test_controls_have_accessible_names_and_no_icons() -> None:
    board = TooSlothBoard(seed=1, autoplay=False)
    declare, take = find(board, "sk-declare"), find(board, "sk-take")
    assert declare.description == "Drink counts as" and take.description
    assert list(declare.tooltips) == [f"the drink counts as {n}" for n in range(1, 10)]
    assert int(declare.style.button_width.removesuffix("px")) >= 24
    assert all(getattr(w, "icon", "") == "" for w in walk(board) if isinstance(w, widgets.Button))
    assert all(b.tooltip and b.tooltip != "D" for b in hand_buttons(board))
    # a take offered when passing on a Jump has a label and a tooltip in words
    board.run_bots()
    select_cards(board, ["2"])
    find(board, "sk-play").click()
    for _ in range(200):
        obs = board.session.observation()
        if board.session.my_turn and len([m for m in obs.legal_moves if str(m).startswith("pass ")]) > 1:
            break
        if showing_round_end(board):
            find(board, "sk-ts-continue").click()
        elif board.session.my_turn:
            play_as_person(board, str(make_bot("too-sloth-to-win", "heuristic", seed=2).choose(obs)))
        else:
            board.step()
    else:
        pytest.skip("no choice of take came up")
    assert all(label.startswith("take the ") for label, _ in take.options)
    assert list(take.tooltips) == [f"pass and {label}" for label, _ in take.options]
