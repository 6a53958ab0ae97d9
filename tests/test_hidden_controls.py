"""Hidden means absent: a control a page must not offer is not there, or its handler refuses.

On a seat's table page (a real SQLite store) every control the page has, shown or hidden, is
forged (tests/pages_forge.py: each button clicked, each toggle, dropdown, text and slider set),
before the game and after it, and then every control of the replay the page offers after the
game. Nothing may change at the table, no new game may start, and the teacher's step-through (every
hand at every move) is never built: the page's replay is the seat's own, so no widget state the
kernel sends holds the teacher's view of any step. The unit tests of the turn check, for each
session kind, are at the end.
"""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pages_forge import Wire, forge_click, forge_update, forged_inputs, page_states
from sloth_widgets import Board
from sloth_widgets.session import Session
from sloth_widgets.stepper import StepThrough, board_html
from sloth_widgets.table import TableBoard, TableSession
from sloth_widgets.tree import widget_family

import sloth_kernel.tables.table as table_module
from sloth_kernel import load_game
from sloth_kernel.registry import game_specs
from sloth_kernel.tables import Tables, open_store

GAMES = [name for name, spec in game_specs().items() if spec.board is not None]


def players(game: str) -> int:
    low, high = game_specs()[game].players
    return max(low, min(3, high))


@pytest.fixture(autouse=True)
def seeded_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every table here deals from one seed (a table's own is fresh and secret), so each run plays the
    same games: the store, its rows and every move stay real."""
    replay = table_module._state
    monkeypatch.setattr(table_module, "_state", lambda row: replay(dataclasses.replace(row, seed=5)))


def made_table(tmp: Path, game: str, *, finish: bool) -> tuple[Tables, Any, str]:
    """A table of people only (so no bot moves under the test), played to its end if asked."""
    url = str(tmp / "tables.db")
    tables = Tables(open_store(url))
    made = tables.create(game, ["human"] * players(game))
    rng = random.Random(3)
    for _ in range(3000 if finish else 0):
        row, state = tables.state(made.table)
        if state.is_over:
            break
        tables.play(made.table, state.current_player, rng.choice(state.legal_moves()), at=row.version)
    return tables, made, url


def open_seat(url: str, made: Any, seat: int) -> TableBoard:
    page = TableBoard(url=url)
    page._page_params = {"table": made.table, "#": {"seat": (made.seats[seat].url or "").split("#seat=", 1)[1]}}
    assert page.follower is not None and page.board is not None
    page.follower.stop()
    return page


def steppers(page: Any) -> list[StepThrough]:
    return [w for w in widget_family(page) if isinstance(w, StepThrough)]


def teacher_views(state: Any, seat: int) -> list[str]:
    """The teacher's picture of every step of the game that differs from the seat's, as it would
    sit in a widget state (JSON-escaped)."""
    record = state.to_record()
    step = load_game(record["game"]).replay({**record, "moves": []})
    views = []
    for move in [None, *record["moves"]]:
        if move is not None:
            step = step.play(move)
        teacher = board_html(step)
        if teacher != board_html(step, seat):
            views.append(json.dumps(teacher)[1:-1])
    return views


def check_replays(page: Any, seat: int) -> None:
    for replay in steppers(page):
        assert replay.seat == seat, "the page built a replay in another view than its seat's"
        assert [value for _, value in replay.viewer.options] == [seat]


@pytest.mark.parametrize("game", GAMES)
def test_forged_controls_before_the_game_change_nothing_and_build_no_replay(tmp_path: Path, game: str) -> None:
    tables, made, url = made_table(tmp_path, game, finish=False)
    _, state = tables.state(made.table)
    asker = (state.current_player + 1) % players(game)  # not to move
    page = open_seat(url, made, asker)
    session = page.session
    assert session is not None
    before = session.state
    try:
        sent = 0
        for _ in forged_inputs(page, skip=lambda widget: False, moves=[str(m) for m in state.legal_moves()[:3]]):
            sent += 1
            assert page.session is session and page.board is not None and page.board.session is session
            assert tables.show(made.table).ply == 0 and session.state is before  # no move, no new deal
            assert not steppers(page)
        assert sent > 10
        assert "Hands (teacher" not in json.dumps(list(page_states(page).values()))
    finally:
        page.close()


@pytest.mark.parametrize("game", GAMES)
def test_after_the_game_a_seat_replays_its_own_view_and_never_the_teachers(tmp_path: Path, game: str) -> None:
    tables, made, url = made_table(tmp_path, game, finish=True)
    row, state = tables.state(made.table)
    assert state.is_over
    asker = 1
    hidden = teacher_views(state, asker)
    page = open_seat(url, made, asker)
    board = page.board
    assert board is not None
    try:
        with Wire((board.session.token,)) as wire:
            for _ in forged_inputs(page, skip=lambda widget: False, moves=["pass"]):
                check_replays(page, asker)
            assert board._replay_button.layout.display != "none"  # offered after the game: the seat's own
            if not steppers(page):
                forge_click(board._replay_button)
            (replay,) = steppers(page)
            check_replays(page, asker)
            for value in range(replay.last + 1):  # every step, as a page's scrubber sends it
                forge_update(replay.slider, value=value)
                assert replay.board.value == board_html(replay.timeline.state(value), asker)  # type: ignore[union-attr]
            for _ in forged_inputs(replay, skip=lambda widget: False, moves=["pass"]):  # the View too
                check_replays(page, asker)
            sent = json.dumps(list(wire.take().values()))
        assert tables.show(made.table).ply == row.version
        shown = sent + json.dumps(list(page_states(page).values()))
        assert "Hands (teacher" not in shown and "teacher: all open" not in shown
        assert not [view for view in hidden if view in shown]
    finally:
        page.close()


# --- the turn check, for each session kind ----------------------------------------------------------


GAME = "race-to-the-bottom"


def first_move(session: Any) -> str:
    return str(session.state.legal_moves()[0])


def test_against_bots_a_bot_turn_refuses_before_judging() -> None:
    session = Session(GAME, seed=4, seats=["random", "human"])
    assert session.bot_to_move and session.viewer == 1
    move = first_move(session)  # the bot's legal move: still not this seat's to make
    said = session.play(move, 1)
    assert not said.legal and said.reason == "it is not Player 2's turn; Player 1 is to move"
    assert session.play_sequence([move, "done"], 1).reason == said.reason
    assert session.refusal(0) == "nobody at this screen may move for that seat"  # the bot's seat
    assert session.state.history == []


SEATS = st.one_of(
    st.booleans(), st.floats(allow_nan=True), st.integers(-(2**70), 2**70), st.text(max_size=4), st.none()
)


@settings(max_examples=30)
@given(seat=SEATS, kind=st.sampled_from(["bots", "hot-seat", "watch"]))
def test_only_the_seat_on_screen_to_move_may_act_and_a_refusal_changes_nothing(seat: Any, kind: str) -> None:
    seats = {"bots": ["human", "random"], "hot-seat": ["human", "human"], "watch": ["random", "random"]}[kind]
    session = Session(GAME, seed=4, seats=seats)
    session.reveal()
    refused = session.refusal(seat)
    may = kind != "watch" and type(seat) is int and seat == session.to_move == session.viewer
    assert (refused is None) == may
    if refused is not None:
        said = session.play(first_move(session), seat)
        assert not said.legal and said.reason == refused and session.state.history == []


def test_hot_seat_refuses_behind_the_cover_and_for_another_seat() -> None:
    session = Session(GAME, seed=4, seats=["human", "human"])
    assert session.covered
    assert session.play(first_move(session), 0).reason == "the hand is covered: reveal it first"
    session.reveal()
    assert session.refusal(1) == "nobody at this screen may move for that seat"  # Player 2 is not at the screen
    assert session.refusal(True) == "nobody at this screen may move for that seat"
    assert session.refusal(0) is None
    assert session.play(first_move(session), 0).legal


def test_a_sequence_stops_where_the_seats_turn_ends() -> None:
    session = Session(GAME, seed=4, seats=["human", "random"])
    move = first_move(session)
    said = session.play_sequence([move, move, move], 0)
    assert not said.legal and "more than this turn's moves" in said.reason and "Player 2 is to move" in said.reason
    assert session.state.history == []


def test_after_the_game_every_session_says_so() -> None:
    session = Session(GAME, seed=4, seats=["human", "random"])
    rng = random.Random(1)
    while not session.state.is_over:
        session.state = session.state.play(rng.choice(session.state.legal_moves()))
    assert session.refusal(0) == "the game is over; no more moves"
    assert session.play("pass", 0).reason == "the game is over; no more moves"


def test_a_table_session_refuses_off_turn_on_a_pause_and_for_the_teacher(tmp_path: Path) -> None:
    tables = Tables(open_store(str(tmp_path / "tables.db")))
    made = tables.create(GAME, ["human", "human"])
    mover = TableSession(tables, made.table, seat=0)
    other = TableSession(tables, made.table, seat=1)
    teacher = TableSession(tables, made.table, seat=None)
    move = first_move(mover)
    assert other.play(move, 1).reason == "it is not Player 2's turn; Player 1 is to move"
    assert teacher.play(move, 0).reason == "nobody at this screen may move for that seat"
    assert mover.play(move, 1).reason == "nobody at this screen may move for that seat"
    tables.teacher(made.table, made.teacher.split("#teacher=", 1)[1]).pause()
    mover.refresh()
    assert mover.play(move, 0).reason == "the table is paused: it takes no moves now"
    assert tables.show(made.table).ply == 0
    tables.store.set_status(made.table, "open")
    mover.refresh()
    assert mover.play(move, 0).legal and tables.show(made.table).ply == 1


def test_the_play_apps_replay_opens_only_after_the_game() -> None:
    board = Board(GAME, seed=4, seats=["human", "random"], autoplay=False)
    forge_click(board._replay_button)
    assert not steppers(board) and not board._replay_open
    rng = random.Random(1)
    while not board.session.state.is_over:
        board.session.state = board.session.state.play(rng.choice(board.session.state.legal_moves()))
    board.session.version += 1
    forge_click(board._replay_button)
    (replay,) = steppers(board)
    assert replay.seat is None  # after the game every hand may be shown in the play apps (README)
    board.close()


@pytest.mark.parametrize("name", ["Bot speed", "Players"])
def test_a_page_cannot_empty_a_choice(name: str, capfd: pytest.CaptureFixture[str]) -> None:
    """A forged ``index: null`` on a dropdown (Bot speed, Players) is refused with the board's
    sentence before any handler reads it: the choice stays, and the handlers never meet None."""
    board = Board("too-sloth-to-win", seed=3, autoplay=False)
    found = [w for w in widget_family(board) if isinstance(w, widgets.Dropdown) and w.description == name]
    assert found, f"no dropdown {name} on the board"
    dropdown = found[0]
    before = dropdown.value
    forge_update(dropdown, index=None)
    assert dropdown.value == before and dropdown.index is not None
    assert board.last_error == "The page sent a message the board could not use; nothing changed."
    assert "TypeError" not in capfd.readouterr().err  # no handler was called with None
    forge_update(dropdown, index=0)  # a real choice still works
    assert dropdown.index == 0
