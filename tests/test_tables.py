"""Shared tables through the Python API, on each store backend: tokens, seats' views, moves at a
version, refusals that change nothing, pause and close, bot seats under a lease."""

from __future__ import annotations

import hashlib
import multiprocessing
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sloth_kernel import available_games, load_game
from sloth_kernel.tables import (
    SeatTokenError,
    TableClosedError,
    TableError,
    TableMovedOnError,
    TableMoveError,
    TableNotFoundError,
    Tables,
    TableStore,
    open_store,
)

GAME = "too-sloth-to-win"


def token_of(url: str | None) -> tuple[str, str, str]:
    """(table, role, token) of a page URL: the token is after '#', never in the query."""
    assert url is not None
    parts = urlsplit(url)
    role, _, token = parts.fragment.partition("=")
    return parse_qs(parts.query)["table"][0], role, token


def make(tables: Tables, seats: tuple[str, ...] = ("human", "human", "bot")) -> tuple[str, list[str], str]:
    made = tables.create(GAME, list(seats), base_url="http://127.0.0.1:8866/")
    tokens = [token_of(link.url)[2] for link in made.seats if link.url]
    return made.table, tokens, token_of(made.teacher)[2]


def test_create_gives_each_human_seat_its_own_unguessable_link(store: TableStore) -> None:
    tables = Tables(store)
    made = tables.create(GAME, ["human", "bot", "human"], base_url="http://127.0.0.1:8866")
    assert [(link.seat, link.kind) for link in made.seats] == [(0, "human"), (1, "bot"), (2, "human")]
    assert made.seats[1].url is None
    links = [token_of(link.url) for link in made.seats if link.url] + [token_of(made.teacher)]
    assert {table for table, _, _ in links} == {made.table}
    assert [role for _, role, _ in links] == ["seat", "seat", "teacher"]
    tokens = [token for _, _, token in links]
    assert len(set(tokens)) == 3 and all(len(token) >= 22 for token in tokens)  # 22 base64 characters: 132 bits
    assert made.watch == f"http://127.0.0.1:8866/voila/render/table.ipynb?table={made.table}"
    row = store.load(made.table)
    assert row.options["players"] == 3 and row.seed.bit_length() > 64
    assert [seat.token_hash for seat in row.seats] == [
        hashlib.sha256(tokens[0].encode()).hexdigest(),
        None,
        hashlib.sha256(tokens[1].encode()).hexdigest(),
    ]
    assert row.teacher_hash == hashlib.sha256(tokens[2].encode()).hexdigest()
    assert not any(token in repr(row) for token in tokens)  # the store keeps hashes only


def test_the_sqlite_file_never_holds_a_token(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    with open_store(str(path)) as store:
        made = Tables(store).create(GAME, ["human", "human", "human"])
    tokens = [token_of(link.url)[2] for link in made.seats] + [token_of(made.teacher)[2]]
    raw = b"".join(file.read_bytes() for file in tmp_path.iterdir())  # the database, its WAL and index
    assert made.table.encode() in raw
    assert not any(token.encode() in raw for token in tokens)


def test_a_seat_token_opens_that_seat_only(store: TableStore) -> None:
    tables = Tables(store)
    table, tokens, teacher = make(tables, ("human", "human", "human"))
    assert [tables.sit(table, token).seat for token in tokens] == [0, 1, 2]
    other, other_tokens, _ = make(tables)
    for bad in (None, "", "x" * 201, tokens[0][:-1], tokens[0] + "x", teacher, other_tokens[0], 7):
        with pytest.raises(SeatTokenError) as refused:
            tables.sit(table, bad)
        assert "link" in str(refused.value) and (not isinstance(bad, str) or not bad or bad not in str(refused.value))
    with pytest.raises(SeatTokenError):
        tables.teacher(table, tokens[0])
    with pytest.raises(TableNotFoundError):
        tables.sit("nosuchtable", tokens[0])
    assert (
        tables.teacher(table, teacher).state().view()
        == load_game(GAME, players=3).new_state(store.load(table).seed).view()
    )


def test_each_seat_sees_its_own_observation_and_nothing_more(store: TableStore) -> None:
    tables = Tables(store)
    table, tokens, _ = make(tables, ("human", "human", "human"))
    state = load_game(GAME, players=3).new_state(store.load(table).seed)
    for seat, token in enumerate(tokens):
        snap = tables.sit(table, token).snapshot()
        assert snap.observation == state.observation(seat)
        assert snap.observation != state.view()  # the others' hands stay hidden
        assert (snap.version, snap.status, snap.over, snap.current_player) == (0, "open", False, 0)


def test_moves_are_judged_by_the_game_then_committed_at_their_version(store: TableStore) -> None:
    tables = Tables(store)
    table, tokens, _ = make(tables, ("human", "human", "human"))
    first, second, third = (tables.sit(table, token) for token in tokens)
    snap = first.snapshot()
    move = snap.observation.legal_moves[0]
    for bad_move, seat in ((move, second), ("nonsense", first), ("", first), (None, first)):
        with pytest.raises(TableMoveError):
            seat.play(bad_move, at=0)
    assert store.version(table) == 0
    assert first.play(str(move), at=0) == 1
    with pytest.raises(TableMovedOnError):
        first.play(move, at=0)  # a stale page: the table moved on
    with pytest.raises(TableMovedOnError):
        second.play(second.snapshot().observation.legal_moves[0], at=0)
    assert second.play(second.snapshot().observation.legal_moves[0], at=1) == 2
    summary = tables.show(table)
    assert (summary.ply, summary.current_player, summary.over, summary.seated) == (2, 2, False, ())
    third.heartbeat()
    first.heartbeat()
    assert tables.show(table).seated == (0, 2)
    expected = load_game(GAME, players=3).new_state(store.load(table).seed).play(move)
    assert store.load(table).moves[0] == str(expected.history[-1])


def test_the_teacher_pauses_and_resumes_and_a_closed_table_stays_closed(store: TableStore) -> None:
    tables = Tables(store)
    table, tokens, teacher_token = make(tables, ("human", "human", "human"))
    seat = tables.sit(table, tokens[0])
    teacher = tables.teacher(table, teacher_token)
    move = seat.snapshot().observation.legal_moves[0]
    teacher.pause()
    assert seat.snapshot().status == "paused"
    with pytest.raises(TableClosedError, match="paused"):
        seat.play(move, at=0)
    teacher.resume()
    assert seat.play(move, at=0) == 1
    tables.close(table)
    assert tables.show(table).status == "closed"
    with pytest.raises(TableClosedError):
        teacher.resume()
    with pytest.raises(TableClosedError):
        tables.sit(table, tokens[1]).play(tables.sit(table, tokens[1]).snapshot().observation.legal_moves[0], at=1)
    assert store.version(table) == 1


@pytest.mark.parametrize(
    ("game", "seats", "options", "base_url"),
    [
        ("no-such-game", ["human"] * 3, None, "http://x"),
        (GAME, ["human"] * 2, None, "http://x"),  # too few for the game
        (GAME, ["human"] * 6, None, "http://x"),
        (GAME, ["human", "person", "bot"], None, "http://x"),
        (GAME, ["human", "human", "bot:genius"], None, "http://x"),
        (GAME, ["human:x", "human", "bot"], None, "http://x"),
        (GAME, "human,human,human", None, "http://x"),
        (GAME, [], None, "http://x"),
        (GAME, ["human"] * 3, {"players": 4}, "http://x"),
        (GAME, ["human"] * 3, {"no_such_option": 1}, "http://x"),
        (GAME, ["human"] * 3, [1], "http://x"),
        (GAME, ["human"] * 3, None, "ftp://x"),
        (GAME, ["human"] * 3, None, "http://x/?a=1"),
        (GAME, ["human"] * 3, None, "127.0.0.1:8866"),
        (GAME, ["human"] * 3, None, None),
    ],
)
def test_a_table_that_cannot_be_set_up_is_refused_and_nothing_is_written(
    tmp_path: Path, game: Any, seats: Any, options: Any, base_url: Any
) -> None:
    with open_store(str(tmp_path / "t.sqlite3")) as store, pytest.raises(TableError):
        Tables(store).create(game, seats, options=options, base_url=base_url)
    assert not (tmp_path / "t.sqlite3").exists()  # not even an empty store was made


@pytest.mark.parametrize("game", available_games())
def test_every_game_can_be_set_at_a_table_and_played_by_its_bots(tmp_path: Path, game: str) -> None:
    from sloth_kernel import game_spec

    low = game_spec(game).players[0]
    with open_store(str(tmp_path / "t.sqlite3")) as store:
        tables = Tables(store)
        made = tables.create(game, ["bot:random"] * low)
        assert tables.play_bots(made.table, "page-1") == store.version(made.table) > 0
        assert tables.show(made.table).over
        assert tables.show(made.table).current_player is None


@settings(max_examples=30, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    move=st.one_of(st.text(max_size=30), st.none(), st.integers(), st.floats(), st.lists(st.integers(), max_size=3)),
    seat=st.one_of(st.integers(-2, 5), st.booleans(), st.none(), st.text(max_size=2)),
    at=st.one_of(st.integers(-2, 3), st.booleans(), st.none(), st.floats(), st.text(max_size=2)),
)
def test_any_move_from_any_seat_is_played_or_refused_with_a_typed_error(
    store: TableStore, move: Any, seat: Any, at: Any
) -> None:
    tables = Tables(store)
    if not store.table_ids():
        make(tables, ("human", "human", "human"))
    (table,) = store.table_ids()
    before = store.load(table)
    try:
        version = tables.play(table, seat, move, at=at)
    except TableError:
        assert store.load(table) == before  # refused: nothing changed
    else:
        assert version == before.version + 1 and at == before.version


def test_a_bot_seat_is_played_by_the_lease_holder_only_and_taken_over_when_it_lapses(store: TableStore) -> None:
    tables = Tables(store)
    table, tokens, _ = make(tables, ("bot:random", "human", "human"))
    assert store.acquire_lease(table, 0, "a-page-that-dies", 60)
    assert tables.play_bots(table, "another-page", lease_seconds=0.5) == 0
    assert store.version(table) == 0
    assert store.acquire_lease(table, 0, "a-page-that-dies", 0.3)  # its last renewal; then its kernel dies
    time.sleep(0.6)
    assert tables.play_bots(table, "another-page", lease_seconds=0.5) == 1
    assert store.version(table) == 1
    assert tables.play_bots(table, "a-page-that-dies") == 0  # not a bot's turn now
    assert tables.show(table).current_player == 1


def bots_until_over(url: str, table: str, holder: str, results: Any) -> None:
    """A page that plays bot seats whenever the table changes, until the game is over."""
    with open_store(url) as store:
        tables = Tables(store)
        made = 0
        version = store.version(table)
        while not tables.show(table).over:
            made += tables.play_bots(table, holder, lease_seconds=0.3)
            version = store.wait(table, version, 0.05)
        results.put(made)


def test_bots_shared_by_two_pages_each_move_once(store_url: str, store: TableStore) -> None:
    tables = Tables(store)
    table = tables.create(GAME, ["bot:random"] * 3).table
    spawn = multiprocessing.get_context("spawn")
    results = spawn.Queue()
    pages = [spawn.Process(target=bots_until_over, args=(store_url, table, f"page-{n}", results)) for n in range(2)]
    for page in pages:
        page.start()
    made = [results.get(timeout=120) for _ in pages]
    for page in pages:
        page.join(timeout=60)
        assert page.exitcode == 0
    row = store.load(table)
    assert sum(made) == row.version  # every committed move was made once, by one page
    state = load_game(GAME, players=3).new_state(row.seed)
    for move in row.moves:
        state = state.play(move)
    assert state.is_over


@settings(max_examples=40)
@given(
    game=st.one_of(st.sampled_from(available_games()), st.text(max_size=12), st.none(), st.integers()),
    seats=st.one_of(
        st.lists(st.sampled_from(["human", "bot", "bot:random", "bot:x", "Human", "", "human:bot"]), max_size=7),
        st.text(max_size=10),
        st.none(),
        st.lists(st.integers(), max_size=3),
    ),
    options=st.one_of(
        st.none(),
        st.dictionaries(
            st.text(max_size=8), st.one_of(st.integers(-5, 30), st.text(max_size=4), st.none()), max_size=2
        ),
        st.lists(st.integers(), max_size=2),
    ),
)
def test_creating_a_table_from_any_input_makes_it_whole_or_refuses_with_a_typed_error(
    tmp_path_factory: pytest.TempPathFactory, game: Any, seats: Any, options: Any
) -> None:
    path = tmp_path_factory.mktemp("store") / "t.sqlite3"
    with open_store(str(path)) as store:
        try:
            made = Tables(store).create(game, seats, options=options)
        except TableError:
            assert not path.exists()
        else:
            assert store.table_ids() == [made.table]
            assert len(made.seats) == len(seats) == store.load(made.table).options["players"]
            assert Tables(store).show(made.table).ply == 0


def eventually(check: Any, seconds: float = 30) -> bool:
    """Whether `check()` comes true within `seconds` (a bound for a hung test, not a speed figure)."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def test_a_follower_beats_plays_the_bot_and_reports_every_change(store_url: str, store: TableStore) -> None:
    from sloth_kernel.tables import Follower

    tables = Tables(store)
    table, tokens, teacher = make(tables, ("human", "human", "bot:random"))
    changes: list[tuple[int, str]] = []
    follower = Follower(table, lambda version, status: changes.append((version, status)), seat=0, url=store_url)
    follower.start()
    try:
        assert eventually(lambda: tables.show(table).seated == (0,))
        for token in tokens:
            seat = tables.sit(table, token)
            snap = seat.snapshot()
            seat.play(snap.observation.legal_moves[0], at=snap.version)
        assert eventually(lambda: store.version(table) >= 3)  # the follower played the bot's turn
        assert store.version(table) == 3 and tables.show(table).current_player == 0
        assert eventually(lambda: changes[-1:] == [(3, "open")])
        tables.teacher(table, teacher).pause()
        assert eventually(lambda: changes[-1:] == [(3, "paused")])
        assert [version for version, _ in changes] == sorted(version for version, _ in changes)
    finally:
        follower.stop()
    assert not follower.is_alive() and follower.last_error is None


def test_a_table_its_installation_cannot_replay_is_a_table_error(store: TableStore) -> None:
    from sloth_kernel.tables import Seat, TableRow

    store.create(TableRow("gone", "a-game-since-uninstalled", {}, 1, (Seat("bot", level="random"),), "ab" * 32))
    tables = Tables(store)
    with pytest.raises(TableError, match="cannot be replayed"):
        tables.show("gone")
    table, tokens, _ = make(tables, ("human", "human", "human"))
    store.commit(table, 0, "a move the game never made")  # written past the game's judgement
    with pytest.raises(TableError, match="cannot be replayed"):
        tables.sit(table, tokens[0]).snapshot()
