"""The SQLite table store (the default): one file, WAL mode, no server.

Writes run in ``BEGIN IMMEDIATE`` transactions (one writer at a time, across processes), with
``synchronous=FULL`` so a committed move survives a crash of the machine, not only of the
process. Python's sqlite3 has no cross-process change hook, so :meth:`SqliteStore.wait` polls
``PRAGMA data_version`` (it changes when another connection commits) every 10 ms and then reads
the table's version.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sloth_kernel.tables.errors import TableClosedError, TableError, TableMovedOnError, TableNotFoundError
from sloth_kernel.tables.store import POLL_SECONDS, TableRow, TableStore, row_from_columns

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    seed TEXT NOT NULL,
    seats TEXT NOT NULL,
    teacher TEXT NOT NULL,
    status TEXT NOT NULL,
    version INTEGER NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL REFERENCES tables(id),
    ply INTEGER NOT NULL,
    move TEXT NOT NULL,
    PRIMARY KEY (table_id, ply)
);
CREATE TABLE IF NOT EXISTS heartbeats (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS leases (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    holder TEXT NOT NULL,
    expires REAL NOT NULL,
    PRIMARY KEY (table_id, seat)
);
"""


class SqliteStore(TableStore):
    """Tables in one SQLite file (WAL mode). Safe to share between threads and processes."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.url = f"sqlite:///{self.path}"  # an absolute path makes four slashes, as in SQLAlchemy
        self._lock = threading.RLock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = self._connect()
            self._db.executescript(SCHEMA)  # each CREATE ... IF NOT EXISTS commits on its own
        except (OSError, sqlite3.Error) as err:
            raise TableError(f"cannot open the table store {self.url}: {err}") from err
        self._watch: sqlite3.Connection | None = None
        self._watch_lock = threading.Lock()

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA busy_timeout=30000")
        return db

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: BEGIN IMMEDIATE takes the file's write lock up front."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _create(self, row: TableRow) -> None:
        with self._write() as db:
            if db.execute("SELECT 1 FROM tables WHERE id = ?", (row.table,)).fetchone():
                raise TableError(f"a table {row.table!r} exists already", value=row.table)
            db.execute(
                "INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, 'open', 0, ?)",
                (
                    row.table,
                    row.game,
                    row.options_json(),
                    str(row.seed),
                    row.seats_json(),
                    row.teacher_hash,
                    row.created,
                ),
            )

    def _load(self, table: str) -> TableRow:
        with self._lock:
            self._db.execute("BEGIN")  # one snapshot for the row and its moves
            try:
                found = self._db.execute(
                    "SELECT game, options, seed, seats, teacher, status, created FROM tables WHERE id = ?", (table,)
                ).fetchone()
                moves = self._db.execute("SELECT move FROM moves WHERE table_id = ? ORDER BY ply", (table,)).fetchall()
            finally:
                self._db.execute("COMMIT")
        if found is None:
            raise TableNotFoundError(f"there is no table {table!r}", value=table)
        return row_from_columns(table, found, moves)

    def _state_of(self, db: sqlite3.Connection, table: str) -> tuple[int, str]:
        found = db.execute("SELECT version, status FROM tables WHERE id = ?", (table,)).fetchone()
        if found is None:
            raise TableNotFoundError(f"there is no table {table!r}", value=table)
        return int(found[0]), str(found[1])

    def _state(self, table: str) -> tuple[int, str]:
        with self._lock:
            return self._state_of(self._db, table)

    def _commit(self, table: str, expected: int, move: str) -> int:
        with self._write() as db:
            version, status = self._state_of(db, table)
            if status != "open":
                raise TableClosedError(f"the table {table!r} is {status}: it takes no moves now", value=table)
            if version != expected:
                raise TableMovedOnError(table, expected, version)
            db.execute("INSERT INTO moves VALUES (?, ?, ?)", (table, version, move))
            db.execute("UPDATE tables SET version = ? WHERE id = ?", (version + 1, table))
        return version + 1

    def _set_status(self, table: str, status: str) -> None:
        with self._write() as db:
            self._state_of(db, table)
            db.execute("UPDATE tables SET status = ? WHERE id = ?", (status, table))

    def _table_ids(self) -> list[str]:
        with self._lock:
            return [table for (table,) in self._db.execute("SELECT id FROM tables ORDER BY created, id")]

    def _heartbeat(self, table: str, seat: int) -> None:
        with self._write() as db:
            self._state_of(db, table)
            db.execute("INSERT OR REPLACE INTO heartbeats VALUES (?, ?, ?)", (table, seat, time.time()))

    def _seated(self, table: str, seats: int) -> list[int]:
        with self._lock:
            self._state_of(self._db, table)
            rows = self._db.execute(
                "SELECT seat FROM heartbeats WHERE table_id = ? AND at > ? AND seat < ? ORDER BY seat",
                (table, time.time() - self.heartbeat_seconds, seats),
            )
            return [seat for (seat,) in rows]

    def _acquire_lease(self, table: str, seat: int, holder: str, seconds: float) -> bool:
        now = time.time()
        with self._write() as db:
            self._state_of(db, table)
            found = db.execute("SELECT holder, expires FROM leases WHERE table_id = ? AND seat = ?", (table, seat))
            current = found.fetchone()
            if current is not None and current[0] != holder and current[1] > now:
                return False
            db.execute("INSERT OR REPLACE INTO leases VALUES (?, ?, ?, ?)", (table, seat, holder, now + seconds))
        return True

    def _release_lease(self, table: str, seat: int, holder: str) -> None:
        with self._write() as db:
            db.execute("DELETE FROM leases WHERE table_id = ? AND seat = ? AND holder = ?", (table, seat, holder))

    def _wait(self, table: str, after: int, timeout: float) -> int:
        deadline = time.monotonic() + timeout
        with self._watch_lock:
            if self._watch is None:
                self._watch = self._connect()
            watch = self._watch
            _, status = self._state_of(watch, table)
            seen = None
            while True:
                changed = watch.execute("PRAGMA data_version").fetchone()[0]
                if changed != seen:
                    seen = changed
                    version, now_status = self._state_of(watch, table)
                    if version != after or now_status != status:
                        return version
                if time.monotonic() >= deadline:
                    return after
                time.sleep(POLL_SECONDS)

    def close(self) -> None:
        with self._lock:
            self._db.close()
        with self._watch_lock:
            if self._watch is not None:
                self._watch.close()
                self._watch = None
