"""Play-app games kept on the server under a hashed resume token (sloth_widgets.resume), in a real
SQLite table store: a board resumes the same game from the token, the store never holds the token
itself, and every bad token is refused with a typed error that changes nothing."""

from __future__ import annotations

import hashlib
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sloth_widgets import Board
from sloth_widgets.board import RELOAD_KEEPS, RELOAD_LOSES
from sloth_widgets.resume import ResumeError, ResumeStore, check_token

from sloth_kernel.tables.connect import open_store


def _store(path: Path, **kw: Any) -> ResumeStore:
    return ResumeStore(open_store(str(path), create=True), **kw)


def _play_one(board: Any) -> None:
    """The person in seat 1 plays their first legal move (Pass is a move too)."""
    session = board.session
    seat = session.to_move
    move = session.state.legal_moves()[0]
    assert session.play(move, seat).legal


def test_a_kept_game_reads_back_whole(tmp_path: Path) -> None:
    store = _store(tmp_path / "keep.db")
    token = store.keep(
        "too-sloth-to-win", {"players": 3}, ["human", "heuristic", "random"], 12345, chosen=False, pace=350, moves=()
    )
    kept = store.load(token)
    assert (kept.game, kept.options, kept.seats, kept.seed, kept.chosen, kept.pace, kept.moves) == (
        "too-sloth-to-win",
        {"players": 3},
        ("human", "heuristic", "random"),
        12345,
        False,
        350,
        (),
    )


def test_the_store_keeps_the_tokens_hash_never_the_token(tmp_path: Path) -> None:
    path = tmp_path / "hash.db"
    store = _store(path)
    token = store.keep("too-sloth-to-win", {}, ["human", "random", "random"], 7, chosen=False, pace=900)
    store.close()
    dump = "\n".join(sqlite3.connect(path).iterdump())
    assert token not in dump
    assert hashlib.sha256(token.encode()).hexdigest()[:40] in dump  # what it does keep


def test_a_board_resumes_the_same_game_from_its_token(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv("SLOTH_TABLES", str(tmp_path / "boards.db"))
    first = Board("too-sloth-to-win")
    assert RELOAD_LOSES in first._reload_note.value  # until a page says it keeps the token
    first.take_page_params({"resume": ""})
    assert RELOAD_KEEPS in first._reload_note.value
    _play_one(first)
    token = first._resume_token
    assert token
    second = Board("too-sloth-to-win")
    second.take_page_params({"resume": token})
    assert second.session.state.observation(0) == first.session.state.observation(0)
    assert len(second.session.state.history) == len(first.session.state.history) >= 1
    assert list(second.session.seats) == list(first.session.seats)


def test_a_new_game_on_purpose_gets_a_new_token_and_the_old_one_is_refused(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv("SLOTH_TABLES", str(tmp_path / "again.db"))
    board = Board("too-sloth-to-win")
    board.take_page_params({"resume": ""})
    old = board._resume_token
    board._on_again(None)
    assert board._resume_token and board._resume_token != old
    with pytest.raises(ResumeError):
        ResumeStore().load(old)


@pytest.mark.parametrize("token", ["", "x", "not a token at all", "A" * 43, "é" * 50, None, 42, ["t"]])
def test_bad_tokens_are_refused_with_a_typed_error(tmp_path: Path, token: Any) -> None:
    store = _store(tmp_path / "bad.db")
    before = store.store.table_ids()
    with pytest.raises(ResumeError):
        store.load(token)
    assert store.store.table_ids() == before


def test_a_tampered_token_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    store = _store(tmp_path / "tamper.db")
    token = store.keep("too-sloth-to-win", {}, ["human", "random", "random"], 7, chosen=False, pace=900)
    flipped = token[:-1] + ("A" if token[-1] != "A" else "B")
    with pytest.raises(ResumeError):
        store.load(flipped)
    assert store.load(token).seed == 7


def test_an_expired_game_is_refused(tmp_path: Path) -> None:
    store = _store(tmp_path / "old.db", seconds=1)
    token = store.keep("too-sloth-to-win", {}, ["human", "random", "random"], 7, chosen=False, pace=900)
    time.sleep(1.2)
    with pytest.raises(ResumeError, match="kept as long as"):
        store.load(token)


def test_a_bad_token_on_the_board_says_why_and_deals_afresh(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv("SLOTH_TABLES", str(tmp_path / "refused.db"))
    board = Board("too-sloth-to-win")
    board.take_page_params({"resume": "Z" * 43})
    shown = board._note + board._reload_note.value
    assert "fresh deal" in shown and "Traceback" not in shown
    assert len(board.session.state.history) == 0


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.one_of(
        st.text(max_size=200),
        st.binary(max_size=64),
        st.integers(),
        st.none(),
        st.lists(st.text(max_size=5), max_size=3),
    )
)
def test_check_token_refuses_anything_that_is_not_a_token(value: Any) -> None:
    try:
        assert check_token(value) == value
    except ResumeError as err:
        assert "Traceback" not in str(err)
