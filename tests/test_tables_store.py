"""The table store's contract, the same suite on SQLite, Redis and PostgreSQL (real servers, no mocks).

Redis and PostgreSQL are started on loopback by tests/tables_servers.py; without them these
cases skip, unless SLOTH_TEST_SERVERS=required (CI), where they fail.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tables_servers import PostgresServer, RedisServer, race

from sloth_kernel.tables import (
    Seat,
    StoreError,
    TableClosedError,
    TableError,
    TableMovedOnError,
    TableNotFoundError,
    TableRow,
    TableStore,
    open_store,
)
from sloth_kernel.tables.connect import default_sqlite_path
from sloth_kernel.tables.store import HEARTBEAT_SECONDS

HASH = "ab" * 32


def row(table: str = "t1", seats: int = 3) -> TableRow:
    return TableRow(
        table=table,
        game="too-sloth-to-win",
        options={"players": seats},
        seed=2**200 + 7,
        seats=tuple(Seat("human", token_hash=f"{seat:02x}" * 32) for seat in range(seats - 1))
        + (Seat("bot", level="heuristic"),),
        teacher_hash=HASH,
    )


def test_a_new_table_reads_back_as_written(store: TableStore) -> None:
    made = row()
    store.create(made)
    got = store.load("t1")
    assert got.table == "t1" and got.game == made.game and got.options == made.options
    assert got.seed == made.seed  # a 201-bit seed survives every backend
    assert got.seats == made.seats and got.teacher_hash == HASH
    assert got.status == "open" and got.moves == () and got.version == 0
    assert store.table_ids() == ["t1"]
    with pytest.raises(TableError, match="exists already"):
        store.create(made)


def test_commits_append_at_the_version_and_a_late_one_is_told_the_table_moved_on(store: TableStore) -> None:
    store.create(row())
    assert store.commit("t1", 0, "a") == 1
    assert store.commit("t1", 1, "b") == 2
    with pytest.raises(TableMovedOnError) as late:
        store.commit("t1", 1, "c")
    assert (late.value.expected, late.value.version) == (1, 2)
    with pytest.raises(TableMovedOnError):
        store.commit("t1", 5, "d")  # ahead of the table is not now either
    assert store.load("t1").moves == ("a", "b")
    assert store.version("t1") == 2


def test_a_paused_or_closed_table_takes_no_moves(store: TableStore) -> None:
    store.create(row())
    store.commit("t1", 0, "a")
    for status in ("paused", "closed"):
        store.set_status("t1", status)
        with pytest.raises(TableClosedError, match=status):
            store.commit("t1", 1, "b")
    store.set_status("t1", "open")
    assert store.commit("t1", 1, "b") == 2


def test_an_unknown_table_is_a_typed_error_everywhere(store: TableStore) -> None:
    for call in (
        lambda: store.load("nope"),
        lambda: store.version("nope"),
        lambda: store.commit("nope", 0, "a"),
        lambda: store.set_status("nope", "closed"),
        lambda: store.heartbeat("nope", 0),
        lambda: store.seated("nope", 3),
        lambda: store.acquire_lease("nope", 0, "me", 1),
        lambda: store.wait("nope", 0, 0.01),
    ):
        with pytest.raises(TableNotFoundError):
            call()
    assert store.table_ids() == []


def test_seated_is_the_seats_with_a_fresh_heartbeat(store: TableStore) -> None:
    store.create(row())
    assert store.seated("t1", 3) == []
    store.heartbeat("t1", 1)
    store.heartbeat("t1", 0)
    store.heartbeat("t1", 1)
    assert store.seated("t1", 3) == [0, 1]
    assert store.seated("t1", 1) == [0]  # only seats of the table count


def test_a_heartbeat_grows_old(store: TableStore) -> None:
    assert HEARTBEAT_SECONDS == store.heartbeat_seconds == 5
    store.heartbeat_seconds = 2  # long enough for the next line even on a busy machine
    store.create(row())
    store.heartbeat("t1", 0)
    assert store.seated("t1", 3) == [0]
    time.sleep(2.3)
    assert store.seated("t1", 3) == []


def test_a_lease_is_held_by_one_holder_until_it_expires(store: TableStore) -> None:
    store.create(row())
    assert store.acquire_lease("t1", 2, "page-a", 60)
    assert not store.acquire_lease("t1", 2, "page-b", 60)
    assert store.acquire_lease("t1", 2, "page-a", 0.3)  # renewed, for a short time
    assert store.acquire_lease("t1", 1, "page-b", 60)  # another seat's lease is another lease
    time.sleep(0.6)
    assert store.acquire_lease("t1", 2, "page-b", 5)  # expired: taken over
    assert not store.acquire_lease("t1", 2, "page-a", 5)
    store.release_lease("t1", 2, "page-a")  # not the holder: nothing happens
    assert not store.acquire_lease("t1", 2, "page-a", 5)
    store.release_lease("t1", 2, "page-b")
    assert store.acquire_lease("t1", 2, "page-a", 5)


def test_wait_returns_when_another_connection_commits(store_url: str, store: TableStore) -> None:
    store.create(row())
    assert store.wait("t1", 0, 0.05) == 0  # nothing happens: it times out with the same version

    def commit_soon() -> None:
        time.sleep(0.2)
        with open_store(store_url) as other:
            other.commit("t1", 0, "a")

    thread = threading.Thread(target=commit_soon)
    thread.start()
    start = time.monotonic()
    assert store.wait("t1", 0, 30) == 1
    assert time.monotonic() - start < 29
    thread.join()
    assert store.wait("t1", 0, 30) == 1  # already past: returns at once


def test_wait_wakes_when_the_table_is_paused(store_url: str, store: TableStore) -> None:
    store.create(row())
    timer = threading.Timer(0.2, lambda: open_store(store_url).set_status("t1", "paused"))
    timer.start()
    start = time.monotonic()
    assert store.wait("t1", 0, 30) == 0
    assert time.monotonic() - start < 29
    timer.join()


def test_two_processes_racing_for_every_ply_exactly_one_wins_each(store_url: str, store: TableStore) -> None:
    store.create(row())
    plies = 15
    spawn = multiprocessing.get_context("spawn")
    barrier = spawn.Barrier(2)
    results = spawn.Queue()
    racers = [spawn.Process(target=race, args=(store_url, "t1", plies, name, barrier, results)) for name in "xy"]
    for racer in racers:
        racer.start()
    won = dict(results.get(timeout=120) for _ in racers)
    for racer in racers:
        racer.join(timeout=60)
        assert racer.exitcode == 0
    assert sorted(won["x"] + won["y"]) == list(range(plies))  # every ply won once, never twice
    moves = store.load("t1").moves
    assert len(moves) == plies
    assert all(moves[ply] == f"{name}-{ply}" for name in "xy" for ply in won[name])


def test_commits_from_many_threads_never_share_a_version(store_url: str, store: TableStore) -> None:
    store.create(row())
    made: list[int] = []

    def play(name: str) -> None:
        with open_store(store_url) as mine:
            for _ in range(10):
                version = mine.version("t1")
                with contextlib.suppress(TableMovedOnError):
                    made.append(mine.commit("t1", version, name))

    threads = [threading.Thread(target=play, args=(f"p{n}",)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(made) == list(range(1, len(made) + 1))
    assert store.version("t1") == len(made) == len(store.load("t1").moves)


# -- bad input: a typed error, nothing written --

not_ids = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(max_size=80).filter(
        lambda text: not text or any(not (c.isascii() and (c.isalnum() or c in "-_")) for c in text)
    ),
    st.text(alphabet="ab", min_size=65, max_size=70),
    st.lists(st.integers(), max_size=3),
)
not_versions = st.one_of(
    st.none(), st.booleans(), st.integers(max_value=-1), st.integers(min_value=2**31), st.floats(), st.text(max_size=5)
)
not_moves = st.one_of(
    st.none(),
    st.just(""),
    st.text(min_size=1001, max_size=1010),
    st.integers(),
    st.just("a\x00b"),
    st.binary(max_size=4),
)
not_seats = st.one_of(
    st.none(), st.booleans(), st.integers(max_value=-1), st.floats(), st.text(max_size=3), st.integers(min_value=2**15)
)
not_seconds = st.one_of(
    st.none(),
    st.booleans(),
    st.floats(max_value=-0.001),
    st.just(float("nan")),
    st.just(float("inf")),
    st.text(max_size=3),
    st.integers(min_value=3601),
)


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    table=not_ids,
    version=not_versions,
    move=not_moves,
    seat=not_seats,
    seconds=not_seconds,
    status=st.one_of(st.none(), st.text(max_size=8).filter(lambda text: text not in ("open", "paused", "closed"))),
    holder=st.one_of(st.none(), st.integers(), st.just(""), st.text(min_size=201, max_size=205), st.just("a\nb")),
)
def test_bad_input_is_refused_with_a_typed_error_and_changes_nothing(
    store: TableStore, table: Any, version: Any, move: Any, seat: Any, seconds: Any, status: Any, holder: Any
) -> None:
    if "t1" not in store.table_ids():
        store.create(row())
        store.commit("t1", 0, "a")
    before = store.load("t1")
    calls = [
        lambda: store.load(table),
        lambda: store.commit(table, 1, "b"),
        lambda: store.commit("t1", version, "b"),
        lambda: store.commit("t1", 1, move),
        lambda: store.set_status("t1", status),
        lambda: store.set_status(table, "closed"),
        lambda: store.heartbeat("t1", seat),
        lambda: store.seated("t1", seat),
        lambda: store.acquire_lease("t1", seat, "me", 1),
        lambda: store.acquire_lease("t1", 2, "me", seconds),
        lambda: store.acquire_lease("t1", 2, holder, 1),
        lambda: store.release_lease("t1", 2, holder),
        lambda: store.wait("t1", version, 0.01),
        lambda: store.wait("t1", 1, seconds),
        lambda: store.create(table),
    ]
    for call in calls:
        with pytest.raises(TableError):
            call()
    assert store.load("t1") == before
    assert store.seated("t1", 3) == []


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    field=st.sampled_from(["table", "game", "options", "seed", "seats", "teacher_hash", "status", "moves"]),
    value=st.one_of(
        st.none(),
        st.integers(),
        st.text(max_size=70),
        st.lists(st.integers(), max_size=3),
        st.just(-1),
        st.just(2**256),
    ),
)
def test_a_malformed_new_table_is_refused_whole(store: TableStore, field: str, value: Any) -> None:
    good = row(f"t{len(store.table_ids())}")
    fields = {
        name: getattr(good, name)
        for name in ("table", "game", "options", "seed", "seats", "teacher_hash", "status", "moves", "created")
    }
    fields[field] = value
    before = store.table_ids()
    try:
        bad = TableRow(**fields)
        store.create(bad)
    except TableError:
        assert store.table_ids() == before
    else:  # a value that happens to be valid (a fine table id, a fine seed, any game name)
        assert store.load(bad.table).version == 0


# -- addresses --


def test_the_address_picks_the_backend(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SLOTH_TABLES", str(tmp_path / "a.sqlite3"))
    with open_store() as store:
        assert store.url == f"sqlite:///{tmp_path / 'a.sqlite3'}"
    with open_store(f"sqlite:///{tmp_path / 'b.sqlite3'}", create=True) as store:  # sqlite:////abs/path
        assert (tmp_path / "b.sqlite3").exists()
    monkeypatch.chdir(tmp_path)
    with open_store("sqlite:///c.sqlite3", create=True) as store:  # relative, as in SQLAlchemy
        assert (tmp_path / "c.sqlite3").exists()
    with open_store("sqlite:///d.sqlite3") as store:  # only creating makes a file
        assert not (tmp_path / "d.sqlite3").exists()
    for bad in ("mysql://x/y", "sqlite://relative", "sqlite:///", "http://x", 7, "x\x00y"):
        with pytest.raises(TableError):
            open_store(bad)  # type: ignore[arg-type]
    monkeypatch.delenv("SLOTH_TABLES")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_sqlite_path() == tmp_path / "data" / "sloth-kernel" / "tables.sqlite3"


def test_sqlite_runs_in_wal_mode_with_full_sync(tmp_path: Path) -> None:
    with open_store(str(tmp_path / "t.sqlite3")) as store:
        store.create(row())
        raw = sqlite3.connect(tmp_path / "t.sqlite3")
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        raw.close()
        assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # type: ignore[attr-defined]  # FULL


def test_an_unreachable_server_is_a_typed_error() -> None:
    from tables_servers import free_port

    port = free_port()
    for url in (f"redis://127.0.0.1:{port}/0", f"postgresql://postgres@127.0.0.1:{port}/postgres"):
        with pytest.raises(StoreError, match=r"cannot be reached \(is its server running\?\)"):
            open_store(url)


# -- faults: SIGKILL the server, start it again, nothing committed is lost --


@pytest.mark.parametrize("kind", ["redis", "postgresql"])
def test_killing_the_server_loses_no_committed_move(kind: str) -> None:
    server = RedisServer() if kind == "redis" else PostgresServer()
    try:
        with open_store(server.url) as store:
            store.create(row())
            for ply in range(20):
                store.commit("t1", ply, f"m{ply}")
            server.kill()
            with pytest.raises(TableError):
                store.commit("t1", 20, "lost")  # the server is down: a typed error, not a success
            server.start()
            assert store.load("t1").moves == tuple(f"m{ply}" for ply in range(20))
            assert store.commit("t1", 20, "m20") == 21  # the same store object carries on
        with open_store(server.url) as fresh:
            assert fresh.load("t1").moves == tuple(f"m{ply}" for ply in range(21))
    finally:
        server.stop()


def test_killing_a_writer_mid_game_loses_no_acknowledged_sqlite_commit(tmp_path: Path) -> None:
    import subprocess
    import sys

    path = tmp_path / "t.sqlite3"
    with open_store(str(path)) as store:
        store.create(row())
    writer = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys\nfrom sloth_kernel.tables import open_store\nstore = open_store(sys.argv[1])\n"
            "for ply in range(100000):\n    store.commit('t1', ply, f'm{ply}')\n    print(ply, flush=True)\n",
            str(path),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert writer.stdout is not None
    acknowledged = [int(writer.stdout.readline()) for _ in range(30)]
    writer.kill()
    writer.wait()
    with open_store(str(path)) as store:
        moves = store.load("t1").moves
    assert len(moves) >= len(acknowledged)
    assert moves == tuple(f"m{ply}" for ply in range(len(moves)))


WRITER = """
import sys
from sloth_kernel.tables import TableError, open_store
store = open_store(sys.argv[1])
for ply in range(100000):
    try:
        store.commit("t1", ply, f"m{ply}")
    except TableError:
        break
    print(ply, flush=True)
"""


@pytest.mark.parametrize("kind", ["redis", "postgresql"])
def test_killing_the_server_while_a_page_commits_loses_no_acknowledged_move(kind: str) -> None:
    import subprocess
    import sys

    server = RedisServer() if kind == "redis" else PostgresServer()
    try:
        with open_store(server.url) as store:
            store.create(row())
        writer = subprocess.Popen([sys.executable, "-c", WRITER, server.url], stdout=subprocess.PIPE, text=True)
        assert writer.stdout is not None
        for _ in range(10):
            writer.stdout.readline()
        server.kill()  # mid-stream: the writer's next commit fails (a typed error) and it stops
        acknowledged = [int(line) for line in writer.stdout.read().split()]
        writer.wait(timeout=60)
        server.start()
        with open_store(server.url) as store:
            moves = store.load("t1").moves
        assert len(moves) >= 10 + len(acknowledged)  # every acknowledged commit survived the crash
        assert moves == tuple(f"m{ply}" for ply in range(len(moves)))
    finally:
        server.stop()


def test_without_the_tables_extra_a_server_address_says_what_to_install() -> None:
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['redis'] = None; sys.modules['psycopg'] = None\n"
        "from sloth_kernel.tables import TableError, open_store\n"
        "for url in ('redis://127.0.0.1:1/0', 'postgresql://127.0.0.1:1/x'):\n"
        "    try:\n        open_store(url)\n    except TableError as err:\n        print(err)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    lines = done.stdout.splitlines()
    assert len(lines) == 2 and all("pip install 'sloth-kernel[tables]'" in line for line in lines)
    assert "redis-py" in lines[0] and "psycopg 3" in lines[1]
