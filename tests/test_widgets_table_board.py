"""The game's own board on a shared table's session (widgets/table.py): the board is the game's
class given the session (``GameBoard(session=…)``), and the session (``TableSession``) says how a
table's page differs from a play app's: the seats' names, the turn line's words, no new deal,
and the seed kept for the teacher."""

from __future__ import annotations

import html
import random
from pathlib import Path

from sloth_widgets import board_class
from sloth_widgets.table import TableSession, table_game_board

from sloth_kernel.tables import Tables, open_store

GAME = "race-to-the-bottom"


def test_a_seats_board_is_the_games_own_board_named_for_the_table(tmp_path: Path) -> None:
    tables = Tables(open_store(str(tmp_path / "tables.db")))
    made = tables.create(GAME, ["human", "human"])
    board = table_game_board(TableSession(tables, made.table, seat=0))
    assert type(board) is board_class(GAME)  # no class made at run time
    status = board._status.value
    assert "shared table" in status and "you against bots" not in status
    seats = board._seats_top.value + board._my_seat.value
    assert "You" in seats and "at the table" in seats and "at this screen" not in seats
    assert board._again.layout.display == "none" and board._setup_box.layout.display == "none"
    dealt = board.session.seed
    board._setup.start.click()  # New game, clicked anyway: a sentence, and no new deal
    assert "a table plays its own game" in board._explain.value and board.session.seed == dealt
    tables.teacher(made.table, made.teacher.split("#teacher=", 1)[1]).pause()
    assert board.session.refresh()
    assert "the table is paused" in board._status.value
    teacher = table_game_board(TableSession(tables, made.table, seat=None))
    words = html.unescape(teacher._status.value)
    assert "teacher's view" in words and "watching bots" not in words


def test_after_the_game_the_seed_and_record_stay_with_the_teacher(tmp_path: Path) -> None:
    tables = Tables(open_store(str(tmp_path / "tables.db")))
    made = tables.create(GAME, ["human", "human"])
    pages = [TableSession(tables, made.table, seat=seat) for seat in (0, 1)]
    rng = random.Random(3)
    while not pages[0].state.is_over:
        mover = pages[pages[0].state.current_player]
        assert mover.play(str(rng.choice(mover.state.legal_moves())), mover.viewer).legal
        for page in pages:
            page.refresh()
    seat = table_game_board(pages[0])
    teacher = table_game_board(TableSession(tables, made.table, seat=None))
    seed = str(pages[0].seed)
    assert "Game over." in seat._status.value and seed not in seat._status.value
    assert "sk-record-link" not in seat._over_text.value and seat._replay_button.layout.display != "none"
    assert f"seed {seed} " in teacher._status.value and "sk-record-link" in teacher._over_text.value
    assert teacher._replay_button.layout.display == "none"  # the teacher steps through in the teacher's panel
