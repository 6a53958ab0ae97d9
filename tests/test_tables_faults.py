"""The table store's fault suite: every call on a failing store either works or raises a typed
error with a sentence (a StoreError, or another TableError), never anything else, and no state
is corrupted. Real files and real servers, no mocks:

- SQLite: a read-only file (as an unprivileged user when the tests run as root, since root writes
  anything), corrupt copies (seeded random bytes, truncations), a file deleted or replaced under
  a running page, and a path that does not exist;
- Redis and PostgreSQL (tests/tables_servers.py): the server stopped and started again under a
  running page and its Follower.
"""

from __future__ import annotations

import html
import json
import os
import pwd
import random
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from tables_servers import PostgresServer, RedisServer

from sloth_kernel.tables import (
    Follower,
    SeatTokenError,
    StoreError,
    StoreMissingError,
    TableError,
    Tables,
    TableStore,
    open_store,
)

GAME = "too-sloth-to-win"
ROOT = Path(__file__).resolve().parent.parent


def eventually(check: Callable[[], Any], seconds: float = 30) -> bool:
    """Whether `check()` comes true within `seconds` (a bound for a hung test, not a speed figure)."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def outcome(call: Callable[[], Any]) -> str:
    """'ok', 'typed' (a TableError, whose sentence is one line) or the untyped exception's name."""
    try:
        call()
    except TableError as err:
        text = str(err)
        assert text and "\n" not in text and "Traceback" not in text, text
        return "typed"
    except Exception as err:  # noqa: BLE001 - what the suite looks for
        return f"untyped {type(err).__name__}: {err}"
    return "ok"


def first_move(tables: Tables, table: str) -> tuple[int, Any, int]:
    row, state = tables.state(table)
    seat = int(state.current_player)
    return seat, state.observation(seat).legal_moves[0], row.version


def every_call(tables: Tables, tables_ids: list[str]) -> dict[str, str]:
    """Each public call a page or the command line makes, on `tables`, and how it ended."""
    store = tables.store
    found: dict[str, str] = {}
    found["list"] = outcome(tables.list)
    for table in tables_ids:
        found[f"show {table}"] = outcome(lambda table=table: tables.show(table))  # type: ignore[misc]
        found[f"sit {table}"] = outcome(lambda table=table: tables.sit(table, "A" * 32))  # type: ignore[misc]
        found[f"play {table}"] = outcome(
            lambda table=table: tables.play(table, *first_move(tables, table)[:2], at=first_move(tables, table)[2])  # type: ignore[misc]
        )
        found[f"bots {table}"] = outcome(lambda table=table: tables.play_bots(table, "fault-suite"))  # type: ignore[misc]
        found[f"heartbeat {table}"] = outcome(lambda table=table: store.heartbeat(table, 0))  # type: ignore[misc]
        found[f"seated {table}"] = outcome(lambda table=table: store.seated(table, 3))  # type: ignore[misc]
        found[f"lease {table}"] = outcome(lambda table=table: store.acquire_lease(table, 2, "fault-suite", 1))  # type: ignore[misc]
        found[f"wait {table}"] = outcome(lambda table=table: store.wait(table, 0, 0.01))  # type: ignore[misc]
        found[f"close {table}"] = outcome(lambda table=table: tables.close(table))  # type: ignore[misc]
    found["create"] = outcome(lambda: tables.create(GAME, ["human", "human", "bot"]))
    return found


def untyped(found: dict[str, str]) -> dict[str, str]:
    return {call: how for call, how in found.items() if how not in ("ok", "typed")}


def a_store_with_games(path: Path) -> list[str]:
    """A SQLite store with three tables part-way through, its WAL folded into the file."""
    with open_store(str(path)) as store:
        tables = Tables(store)
        made = [tables.create(GAME, ["human", "human", "bot"]).table for _ in range(3)]
        for number, table in enumerate(made):
            for _ in range(number * 2):
                seat, move, at = first_move(tables, table)
                tables.play(table, seat, move, at=at)
                tables.play_bots(table, "maker")
            store.heartbeat(table, 0)
    raw = sqlite3.connect(path)
    raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    raw.close()
    return made


# -- SQLite: corrupt copies --

CORRUPT_COPIES = 60


def corrupt(data: bytes, rng: random.Random) -> bytes:
    """Random damage: bytes flipped here and there, a block overwritten, or the file cut short."""
    how = rng.choice(["flip", "block", "truncate"])
    if how == "truncate":
        return data[: rng.randrange(len(data))]
    damaged = bytearray(data)
    if how == "block":
        start = rng.randrange(len(data))
        size = rng.randrange(1, 4097)
        damaged[start : start + size] = rng.randbytes(min(size, len(data) - start))
    else:
        for _ in range(rng.randrange(1, 40)):
            damaged[rng.randrange(len(data))] = rng.randrange(256)
    return bytes(damaged)


def test_every_call_on_a_corrupt_sqlite_file_works_or_is_a_typed_error(tmp_path: Path) -> None:
    source = tmp_path / "source.sqlite3"
    made = a_store_with_games(source)
    data = source.read_bytes()
    rng = random.Random(20261201)  # seeded: the same copies every run
    kinds: dict[str, int] = {"ok": 0, "typed": 0}
    problems: dict[str, str] = {}
    for copy in range(CORRUPT_COPIES):
        path = tmp_path / f"copy-{copy}.sqlite3"
        path.write_bytes(corrupt(data, rng))
        try:
            store: TableStore = open_store(str(path))
        except TableError:
            kinds["typed"] += 1
            continue
        except Exception as err:  # noqa: BLE001 - what the suite looks for
            problems[f"copy {copy}: open"] = f"untyped {type(err).__name__}: {err}"
            continue
        with store:
            found = every_call(Tables(store), made)
        for call, how in untyped(found).items():
            problems[f"copy {copy}: {call}"] = how
        for how in found.values():
            kinds[how] = kinds.get(how, 0) + 1
    assert problems == {}
    assert kinds["typed"] > 0 and kinds["ok"] > 0  # the copies were damaged, and not all of them wholly


def test_the_command_line_on_a_damaged_or_missing_store_says_one_line(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    a_store_with_games(path)
    path.write_bytes(b"this is not a database" * 100)
    for args in (
        ["list"],
        ["show", "abcabcabcabc"],
        ["close", "abcabcabcabc"],
        ["create", "--game", GAME, "--seats", "human,human,bot"],
    ):
        done = command(str(path), *args)
        assert done.returncode == 2 and done.stdout == "", done
        assert done.stderr == (
            f"python -m sloth_kernel table: error: the table store {path} is damaged "
            "(it is not a SQLite file this can read): restore it from a backup\n"
        )
    elsewhere = tmp_path / "typo" / "t.sqlite3"
    for args in (["list"], ["show", "abcabcabcabc"], ["close", "abcabcabcabc"]):
        done = command(str(elsewhere), *args)
        assert done.returncode == 2 and "there is no table store at " + str(elsewhere) in done.stderr
    assert not elsewhere.parent.exists()  # nothing was made


def command(store: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sloth_kernel", "table", "--store", store, *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={**os.environ, "SLOTH_TABLES": ""},
    )


# -- SQLite: read-only --

READ_ONLY_CHECK = """
import contextlib, io, json, os, sys
sys.path.insert(0, sys.argv[2])
from test_tables_faults import a_store_with_games, every_call
from sloth_kernel.__main__ import main
from sloth_kernel.tables import Tables, TableError, open_store

def command(*args):
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()) as out:
        code = main(["table", "--store", sys.argv[1], *args])
    return [code, out.getvalue(), err.getvalue()]

# every module the calls need is loaded first, on a scratch store: the user below may not read them
every_call(Tables(open_store(sys.argv[4])), a_store_with_games(sys.argv[4] + ".warm"))
if sys.argv[5]:  # root writes any file: the checks run as an unprivileged user
    os.setgid(int(sys.argv[6]))
    os.setuid(int(sys.argv[5]))
made = json.loads(sys.argv[3])
try:
    found = every_call(Tables(open_store(sys.argv[1])), made)
except TableError:
    found = {"open": "typed"}
found["command create"] = command("create", "--game", "too-sloth-to-win", "--seats", "human,human,bot")
found["command close"] = command("close", made[0])
print(json.dumps(found))
"""


@pytest.fixture
def read_only_store(tmp_path: Path) -> Iterator[tuple[Path, list[str], pwd.struct_passwd | None]]:
    """A store this test's checks can read and not write: as root, they run as an unprivileged
    user (root writes any file); else the file and its folder lose their write bits."""
    folder = Path(tempfile.mkdtemp(prefix="sloth-read-only-"))
    path = folder / "t.sqlite3"
    made = a_store_with_games(path)
    user = None
    if os.geteuid() == 0:
        user = pwd.getpwnam("nobody")
        folder.chmod(0o755)
        path.chmod(0o644)  # root's file: others read it and cannot write it
    else:
        path.chmod(0o444)
        folder.chmod(0o555)
    try:
        yield path, made, user
    finally:
        folder.chmod(0o755)
        shutil.rmtree(folder, ignore_errors=True)


def test_a_read_only_store_is_read_or_refused_with_a_sentence_and_never_changes(
    read_only_store: tuple[Path, list[str], pwd.struct_passwd | None], tmp_path: Path
) -> None:
    path, made, user = read_only_store
    before = path.read_bytes()
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            READ_ONLY_CHECK,
            str(path),
            str(ROOT / "tests"),
            json.dumps(made),
            str(tmp_path / "warm.sqlite3"),
            str(user.pw_uid) if user else "",
            str(user.pw_gid) if user else "",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    said = [found.pop("command create"), found.pop("command close")]
    assert untyped(found) == {}
    assert found.get("create", "typed") == "typed"  # nothing can be written
    for code, out, err in said:  # table create and table close: one line, status 2
        assert (
            code == 2
            and out == ""
            and err
            == (
                f"python -m sloth_kernel table: error: the table store {path} cannot be written: "
                "the file or its folder is read-only\n"
            )
        )
    assert path.read_bytes() == before


# -- SQLite: deleted or replaced under a running page --


@pytest.mark.parametrize("how", ["deleted", "replaced"])
def test_a_store_file_deleted_or_replaced_under_a_page_is_refused_not_written(tmp_path: Path, how: str) -> None:
    path = tmp_path / "t.sqlite3"
    made = a_store_with_games(path)
    page = open_store(str(path))
    tables = Tables(page)
    seat, move, at = first_move(tables, made[0])
    trouble: list[TableError | None] = []
    follower = Follower(made[0], lambda *_: None, url=str(path), on_trouble=trouble.append, beat_seconds=0.1)
    follower.start()
    try:
        time.sleep(0.3)  # the follower has the file open
        if how == "deleted":
            for name in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
                name.unlink(missing_ok=True)
        else:
            other = tmp_path / "other.sqlite3"
            a_store_with_games(other)
            for suffix in ("-wal", "-shm"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)
            os.replace(other, path)
        after = path.read_bytes() if path.exists() else None
        with pytest.raises(StoreError, match=f"was {how}") as refused:
            tables.play(made[0], seat, move, at=at)
        assert "open the table's link again" in refused.value.public and str(tmp_path) not in refused.value.public
        found = every_call(tables, made)
        assert untyped(found) == {} and set(found.values()) == {"typed"}  # every call, reads too
        assert eventually(lambda: any(isinstance(err, StoreError) for err in trouble))  # the page is told
        assert follower.is_alive()  # and keeps trying
        assert (path.read_bytes() if path.exists() else None) == after  # nothing written to the new file
        if how == "deleted":
            assert not path.exists()  # nothing made a new empty store
    finally:
        follower.stop()
        page.close()


# -- files the store makes: 0600, the default folder 0700 --


def test_the_default_folder_is_0700_and_store_files_0600(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("SLOTH_TABLES", "")
    monkeypatch.setattr(sys, "platform", "linux")
    old = os.umask(0o022)
    try:
        with open_store() as store:
            assert not (tmp_path / "data" / "sloth-kernel").exists()  # opening makes nothing
            Tables(store).create(GAME, ["human", "human", "bot"])
            folder = tmp_path / "data" / "sloth-kernel"
            files = {name.name: stat.S_IMODE(name.stat().st_mode) for name in folder.iterdir()}
            assert stat.S_IMODE(folder.stat().st_mode) == 0o700
            assert files == {"tables.sqlite3": 0o600, "tables.sqlite3-wal": 0o600, "tables.sqlite3-shm": 0o600}
        mine = tmp_path / "mine"
        mine.mkdir(mode=0o755)
        with open_store(str(mine / "t.sqlite3")) as store:
            Tables(store).create(GAME, ["human", "human", "bot"])
            assert stat.S_IMODE(mine.stat().st_mode) == 0o755  # a folder the user names keeps its permissions
            assert {stat.S_IMODE(name.stat().st_mode) for name in mine.iterdir()} == {0o600}
        folder.chmod(0o755)  # an older version's folder and file: the default store tightens them
        (folder / "tables.sqlite3").chmod(0o644)
        with open_store() as store:
            assert len(store.table_ids()) == 1
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
        assert stat.S_IMODE((folder / "tables.sqlite3").stat().st_mode) == 0o600
    finally:
        os.umask(old)


def test_a_missing_store_is_refused_by_reads_and_made_only_by_a_create(tmp_path: Path) -> None:
    path = tmp_path / "no" / "such" / "t.sqlite3"
    with open_store(str(path)) as store:
        tables = Tables(store)
        for call in (
            tables.list,
            lambda: tables.show("abcabcabcabc"),
            lambda: tables.sit("abcabcabcabc", "A" * 32),
            lambda: store.heartbeat("abcabcabcabc", 0),
            lambda: store.commit("abcabcabcabc", 0, "x"),
            lambda: store.wait("abcabcabcabc", 0, 0.01),
        ):
            with pytest.raises(StoreMissingError, match=f"there is no table store at {path}"):
                call()
        assert not (tmp_path / "no").exists()
        made = tables.create(GAME, ["human", "human", "bot"])
        assert [summary.table for summary in tables.list()] == [made.table]
    with open_store(str(tmp_path / "kept.sqlite3"), create=True) as store:  # a page that keeps games
        assert store.table_ids() == []


def test_a_sqlite_file_of_another_program_is_refused_not_taken_over(tmp_path: Path) -> None:
    path = tmp_path / "theirs.sqlite3"
    raw = sqlite3.connect(path)
    raw.execute("CREATE TABLE notes (text TEXT)")
    raw.commit()
    raw.close()
    with pytest.raises(StoreError, match="not a table store"):
        open_store(str(path))
    raw = sqlite3.connect(path)
    assert [name for (name,) in raw.execute("SELECT name FROM sqlite_master")] == ["notes"]
    raw.close()


# -- servers stopped and started again --


@pytest.mark.parametrize("kind", ["redis", "postgresql"])
def test_a_server_stopped_and_started_again_gets_sentences_then_carries_on(kind: str) -> None:
    server = RedisServer() if kind == "redis" else PostgresServer()
    follower = None
    try:
        store = open_store(server.url)
        tables = Tables(store)
        table = tables.create(GAME, ["human", "human", "human"]).table
        for _ in range(5):
            tables.play(table, *first_move(tables, table)[:2], at=first_move(tables, table)[2])
        moves = store.load(table).moves
        seen: list[int] = []
        trouble: list[TableError | None] = []
        follower = Follower(
            table, lambda version, _: seen.append(version), url=server.url, on_trouble=trouble.append, beat_seconds=0.1
        )
        follower.start()
        time.sleep(0.3)
        for _round in range(2):
            server.kill()
            found = every_call(tables, [table])
            assert untyped(found) == {}
            assert set(found.values()) == {"typed"}  # nothing works while the server is away
            assert eventually(lambda: bool(trouble) and isinstance(trouble[-1], StoreError))
            assert "cannot be reached" in str(trouble[-1]) and server.url not in str(trouble[-1].public)  # type: ignore[union-attr]
            server.start()
            assert eventually(lambda: outcome(lambda: store.load(table)) == "ok")
            assert store.load(table).moves == moves  # nothing lost, nothing doubled
            seat, move, at = first_move(tables, table)
            assert tables.play(table, seat, move, at=at) == at + 1
            moves = store.load(table).moves
            assert eventually(lambda: trouble[-1] is None)  # the page's follower is back
            assert eventually(lambda moves=moves: seen[-1:] == [len(moves)])  # type: ignore[misc]  # and sees it
        store.close()
    finally:
        if follower is not None:
            follower.stop()
        server.stop()


# -- a page that shows its store's trouble --


def test_a_table_page_says_when_its_store_fails_and_recovers_when_it_is_back() -> None:
    from sloth_widgets.table import TableBoard

    server = RedisServer()
    page = None
    try:
        tables = Tables(open_store(server.url))
        made = tables.create(GAME, ["human", "human", "human"])
        page = TableBoard(url=server.url)
        page._page_params = {"table": made.table}  # the watch page
        assert page.follower is not None

        def shown() -> str:
            return " ".join(getattr(child, "value", "") for child in page.children)  # type: ignore[union-attr]

        server.kill()
        assert eventually(lambda: "The table store is not answering just now" in shown())
        assert server.url not in shown() and "keeps trying" in shown()
        server.start()
        assert eventually(lambda: "not answering" not in shown())
        seat, move, at = first_move(tables, made.table)
        tables.play(made.table, seat, move, at=at)
        # the start of the move's own line (before any rule id, which the log makes a control), as the board's log shows it
        line = html.escape(tables.state(made.table)[1].log[-1].text.split(" (")[0])
        assert line not in shown_all(page)
        assert eventually(lambda: line in shown_all(page))  # the watch page follows the table again
        assert page.follower.is_alive()
    finally:
        if page is not None:
            page.close()
        server.stop()


def shown_all(root: Any) -> str:
    texts, stack = [], [root]
    while stack:
        widget = stack.pop()
        texts.append(str(getattr(widget, "value", "")))
        stack.extend(getattr(widget, "children", ()) or ())
    return " ".join(texts)


def test_a_seat_page_move_on_a_failed_store_gets_a_sentence(tmp_path: Path) -> None:
    from sloth_widgets.table import TableSession

    path = tmp_path / "t.sqlite3"
    made = a_store_with_games(path)
    tables = Tables(open_store(str(path)))
    session = TableSession(tables, made[0], seat=0)
    move = session.state.observation(0).legal_moves[0]
    path.unlink()
    verdict = session.play(move, 0)
    assert not verdict.legal and verdict.reason == (
        "the move was not made: the table store was deleted or replaced while this page was open: "
        "open the table's link again"
    )


def test_the_thread_safety_of_a_failing_store_is_kept(tmp_path: Path) -> None:
    """Many threads on one store whose file goes away: every call ends typed, none hangs."""
    path = tmp_path / "t.sqlite3"
    made = a_store_with_games(path)
    store = open_store(str(path))
    tables = Tables(store)
    results: list[str] = []

    def page() -> None:
        for _ in range(20):
            results.extend(every_call(tables, made[:1]).values())

    threads = [threading.Thread(target=page) for _ in range(3)]
    for thread in threads:
        thread.start()
    time.sleep(0.05)
    path.unlink()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads)
    assert set(results) <= {"ok", "typed"} and results[-1] == "typed"
    store.close()


def test_a_wrong_token_is_refused_even_on_a_damaged_row(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    made = a_store_with_games(path)
    raw = sqlite3.connect(path)
    raw.execute("UPDATE tables SET seats = 'not json', options = '[1]' WHERE id = ?", (made[0],))
    raw.execute("UPDATE tables SET created = 'soon' WHERE id = ?", (made[1],))
    raw.commit()
    raw.close()
    with open_store(str(path)) as store:
        tables = Tables(store)
        with pytest.raises(StoreError, match="damaged"):
            tables.sit(made[0], "A" * 32)
        with pytest.raises(StoreError, match="damaged"):
            tables.teacher(made[1], "A" * 32)
        with pytest.raises(SeatTokenError):
            tables.sit(made[2], "A" * 32)
        assert untyped(every_call(tables, made)) == {}


def test_a_stopped_redis_server_is_a_sentence_after_the_socket_timeout_not_a_hang() -> None:
    """SIGSTOP: the server holds its connections and answers nothing. Each call fails after the
    socket timeout (redis-py's, 5 s; ``?socket_timeout=`` in the URL, shortened here) instead of
    hanging, and works once the server continues."""
    import signal

    server = RedisServer()
    try:
        with open_store(server.url + "?socket_timeout=0.5") as store:
            tables = Tables(store)
            table = tables.create(GAME, ["human", "human", "human"]).table
            server_pid = server._process().pid
            os.killpg(server_pid, signal.SIGSTOP)
            ended: list[str] = []
            try:
                calls = (lambda: store.load(table), lambda: store.commit(table, 0, "x"), tables.list)
                worker = threading.Thread(target=lambda: ended.extend(outcome(call) for call in calls), daemon=True)
                worker.start()
                worker.join(timeout=30)  # a bound for a hung test, not a speed figure
            finally:
                os.killpg(server_pid, signal.SIGCONT)
            assert ended == ["typed"] * 3
            assert eventually(lambda: outcome(lambda: store.load(table)) == "ok")
            assert store.load(table).moves == ()  # the refused commit wrote nothing
    finally:
        server.stop()


def server_processes(server: PostgresServer) -> list[int]:
    """The postmaster and its children: each backend calls setsid(), so one killpg misses them."""
    top = server._process().pid
    found = [top]
    for entry in Path("/proc").iterdir():
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if parent == top:
            found.append(int(entry.name))
    return found


def test_a_stopped_postgresql_server_is_a_sentence_after_the_call_bound_not_a_hang() -> None:
    """SIGSTOP of every server process: connections stay open and nothing answers. psycopg has no
    timeout of its own; the store's watchdog cuts a call after ``call_seconds`` (5 s, shortened
    here), waits included, and the same store object works again once the server continues."""
    import signal

    server = PostgresServer()
    try:
        with open_store(server.url) as store:
            store.call_seconds = 0.5  # type: ignore[attr-defined]
            tables = Tables(store)
            table = tables.create(GAME, ["human", "human", "human"]).table
            seat, move, at = first_move(tables, table)
            tables.play(table, seat, move, at=at)
            moves = store.load(table).moves
            assert store.wait(table, at + 1, 0.1) == at + 1  # the listener is connected
            stopped = server_processes(server)
            for pid in stopped:
                os.kill(pid, signal.SIGSTOP)
            ended: list[str] = []
            try:
                calls = (
                    lambda: store.load(table),
                    lambda: store.wait(table, at + 1, 1),
                    lambda: store.commit(table, at + 1, "x"),
                    tables.list,
                )
                worker = threading.Thread(target=lambda: ended.extend(outcome(call) for call in calls), daemon=True)
                worker.start()
                worker.join(timeout=30)  # a bound for a hung test, not a speed figure
            finally:
                for pid in stopped:
                    os.kill(pid, signal.SIGCONT)
            assert ended == ["typed"] * 4
            assert eventually(lambda: outcome(lambda: store.load(table)) == "ok")
            assert store.load(table).moves == moves  # nothing lost, the refused commit wrote nothing
            seat, move, at = first_move(tables, table)
            assert tables.play(table, seat, move, at=at) == at + 1
            assert store.wait(table, at, 5) == at + 1
            assert store.load(table).moves[: len(moves)] == moves and len(store.load(table).moves) == len(moves) + 1
    finally:
        server.stop()


def test_the_teacher_page_says_when_its_store_is_gone(tmp_path: Path) -> None:
    from sloth_widgets.table import TableBoard, TeacherPanel

    path = tmp_path / "t.sqlite3"
    with open_store(str(path)) as store:
        made = Tables(store).create(GAME, ["human", "human", "bot"])
    page = TableBoard(url=str(path))
    try:
        page._page_params = {"table": made.table, "#": {"teacher": made.teacher.split("#teacher=", 1)[1]}}
        panel = next(child for child in page.children if isinstance(child, TeacherPanel))
        path.unlink()
        panel.pause.click()
        assert "the table store was deleted or replaced while this page was open" in panel.note.value
        assert str(tmp_path) not in panel.note.value
    finally:
        page.close()
