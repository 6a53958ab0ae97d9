"""The SQLite table store (the default): one file, WAL mode, no server.

Writes run in ``BEGIN IMMEDIATE`` transactions (one writer at a time, across processes), with
``synchronous=FULL`` so a committed move survives a crash of the machine, not only of the
process. Python's sqlite3 has no cross-process change hook, so :meth:`SqliteStore.wait` polls
``PRAGMA data_version`` (it changes when another connection commits) every 10 ms and then reads
the table's version.

The file is made only by :meth:`SqliteStore.create` (a new table): every other call on a path
with no file raises :class:`StoreMissingError`, so a mistyped path never starts an empty store.
It is made 0600 (SQLite gives its -wal and -shm files the same mode), and the default folder
0700. Every transaction first checks that the path is still the file this store opened (its
device and inode): a file deleted or replaced under a running page is refused, never written.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sloth_kernel.tables.errors import (
    StoreError,
    StoreMissingError,
    TableClosedError,
    TableError,
    TableMovedOnError,
    TableNotFoundError,
)
from sloth_kernel.tables.store import (
    DAMAGED,
    POLL_SECONDS,
    TableRow,
    TableStore,
    damaged,
    first_line,
    full_error,
    row_from_columns,
)

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

TABLES = ("tables", "moves", "heartbeats", "leases")

DAMAGED_PUBLIC = "the table store is damaged: whoever runs this server must restore it"
GONE_PUBLIC = "the table store was deleted or replaced while this page was open: open the table's link again"

# SQLite's primary result codes (an error's sqlite_errorcode, low byte), for the sentences
PERM, BUSY, LOCKED, READONLY, IOERR, CORRUPT, FULL, CANTOPEN, NOTADB = 3, 5, 6, 8, 10, 11, 13, 14, 26


class SqliteStore(TableStore):
    """Tables in one SQLite file (WAL mode). Safe to share between threads and processes.

    `create`: make the file now if there is none (else the first :meth:`create` makes it).
    `private` (the default store): the folder is made 0700, and an older, looser folder or file
    of the default store is tightened to 0700 and 0600. A path the user names keeps its folder's
    permissions.
    """

    faults = (sqlite3.Error, OSError, *DAMAGED)

    def __init__(self, path: Path, *, private: bool = False, create: bool = False) -> None:
        self.path = Path(path)
        self.url = f"sqlite:///{self.path}"  # an absolute path makes four slashes, as in SQLAlchemy
        self.private = private
        self._lock = threading.RLock()
        self._db: sqlite3.Connection | None = None
        self._identity: tuple[int, int] | None = None
        self._gone: str | None = None
        """Set once the file was deleted or replaced: this store refuses everything after."""
        self._watch: sqlite3.Connection | None = None
        self._watch_lock = threading.Lock()
        with self._lock:
            try:
                if self.private:
                    self._tighten()
                if create and not self.path.exists():
                    self._make_file()
                if self.path.exists():  # else the first create() makes it
                    self._open()
            except TableError:
                raise
            except self.faults as err:
                raise self.fault(err) from err

    def fault(self, err: BaseException) -> StoreError:
        code = getattr(err, "sqlite_errorcode", -1) & 0xFF
        where = f"the table store {self.path}"
        public = None
        if code in (READONLY, PERM) or isinstance(err, PermissionError):
            text = f"{where} cannot be written: the file or its folder is read-only"
            public = "the table store cannot be written just now"
        elif code in (CORRUPT, NOTADB) or isinstance(err, DAMAGED):
            text = f"{where} is damaged (it is not a SQLite file this can read): restore it from a backup"
            public = DAMAGED_PUBLIC
        elif code in (BUSY, LOCKED):
            text = f"{where} is busy: another program has held it for 30 seconds; try again"
        elif code == FULL:
            text = f"{where} cannot grow: the disk is full"
        elif code in (CANTOPEN, IOERR) or isinstance(err, OSError):
            text = f"{where} cannot be opened or read ({first_line(err)})"
        else:
            text = f"{where} failed: {first_line(err)}"
        return StoreError(text, value=str(self.path), public=public)

    # -- the file --

    def _tighten(self) -> None:
        """The default store's folder 0700 and files 0600 (an older version made them looser)."""
        if not hasattr(os, "getuid"):  # Windows: no such modes
            return
        for path, mode in (
            (self.path.parent, 0o700),
            (self.path, 0o600),
            (Path(f"{self.path}-wal"), 0o600),
            (Path(f"{self.path}-shm"), 0o600),
        ):
            with contextlib.suppress(OSError):
                found = path.stat()
                if stat.S_IMODE(found.st_mode) & 0o077 and found.st_uid == os.getuid():
                    path.chmod(mode)

    def _make_file(self) -> None:
        """Make the store's file, 0600 (its folder too: 0700 for the default store)."""
        folder = self.path.parent
        if self.private:
            folder.parent.mkdir(parents=True, exist_ok=True)
            folder.mkdir(mode=0o700, exist_ok=True)
        else:
            folder.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileExistsError):  # another process made it first: use theirs
            os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA busy_timeout=30000")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
        except BaseException:
            db.close()
            raise
        return db

    def _open(self) -> None:
        found = os.stat(self.path)
        db = self._connect()
        try:
            names = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if names and "tables" not in names:
                raise StoreError(
                    f"{self.path} is a SQLite file but not a table store: name another path",
                    value=str(self.path),
                    public=DAMAGED_PUBLIC,
                )
            if not set(TABLES) <= names:  # a new file (or one made by an older version): one transaction
                db.execute("BEGIN IMMEDIATE")
                try:
                    for statement in SCHEMA.split(";"):
                        if statement.strip():
                            db.execute(statement)
                except BaseException:
                    db.execute("ROLLBACK")
                    raise
                db.execute("COMMIT")
        except BaseException:
            db.close()
            raise
        self._db, self._identity = db, (found.st_dev, found.st_ino)

    def _same_file(self) -> None:
        """Refuse (for good) once the path is no longer the file this store opened."""
        try:
            found = os.stat(self.path)
            now: tuple[int, int] | None = (found.st_dev, found.st_ino)
        except FileNotFoundError:
            now = None
        if now != self._identity:
            how = "deleted" if now is None else "replaced by another file"
            self._gone = (
                f"the table store {self.path} was {how} while this page had it open: "
                "nothing more is written to it; open the table's link again"
            )
        if self._gone is not None:
            raise StoreError(self._gone, value=str(self.path), public=GONE_PUBLIC)

    def _conn(self, create: bool = False) -> sqlite3.Connection:
        """The open connection (the caller holds the lock), after checking the file is still there."""
        if self._gone is not None:
            raise StoreError(self._gone, value=str(self.path), public=GONE_PUBLIC)
        if self._db is None:
            if not self.path.exists():
                if not create:
                    raise StoreMissingError(
                        f"there is no table store at {self.path}: check the path "
                        "(only creating a table makes a new store)",
                        value=str(self.path),
                    )
                self._make_file()
            self._open()
        self._same_file()
        assert self._db is not None
        return self._db

    @contextmanager
    def _transaction(self, begin: str, create: bool = False) -> Iterator[sqlite3.Connection]:
        """One transaction; the file is checked once its lock is held, so a replaced file is never written."""
        with self._lock:
            db = self._conn(create)
            if db.in_transaction:  # a failure left one open
                db.execute("ROLLBACK")
            db.execute(begin)
            try:
                self._same_file()
                yield db
                db.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):  # SQLite may have rolled back already
                    db.execute("ROLLBACK")
                raise

    def _write(self, create: bool = False) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        """A write transaction: BEGIN IMMEDIATE takes the file's write lock up front."""
        return self._transaction("BEGIN IMMEDIATE", create)

    def _read(self) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        """A read transaction: one snapshot."""
        return self._transaction("BEGIN")

    def _create(self, row: TableRow) -> None:
        with self._write(create=True) as db:
            if db.execute("SELECT 1 FROM tables WHERE id = ?", (row.table,)).fetchone():
                raise TableError(f"a table {row.table!r} exists already", value=row.table)
            (open_now,) = db.execute("SELECT count(*) FROM tables WHERE status != 'closed'").fetchone()
            if open_now >= self.max_open_tables:
                raise full_error(open_now, self.max_open_tables)
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
        with self._read() as db:  # one snapshot for the row and its moves
            found = db.execute(
                "SELECT game, options, seed, seats, teacher, status, created FROM tables WHERE id = ?", (table,)
            ).fetchone()
            moves = db.execute("SELECT move FROM moves WHERE table_id = ? ORDER BY ply", (table,)).fetchall()
        if found is None:
            raise TableNotFoundError(f"there is no table {table!r}", value=table)
        return row_from_columns(table, found, moves)

    def _state_of(self, db: sqlite3.Connection, table: str) -> tuple[int, str]:
        found = db.execute("SELECT version, status FROM tables WHERE id = ?", (table,)).fetchone()
        if found is None:
            raise TableNotFoundError(f"there is no table {table!r}", value=table)
        if not isinstance(found[0], int) or not isinstance(found[1], str):
            raise damaged(table)
        return found[0], found[1]

    def _state(self, table: str) -> tuple[int, str]:
        with self._read() as db:
            return self._state_of(db, table)

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
        with self._read() as db:
            return [str(table) for (table,) in db.execute("SELECT id FROM tables ORDER BY created, id")]

    def _heartbeat(self, table: str, seat: int) -> None:
        with self._write() as db:
            self._state_of(db, table)
            db.execute("INSERT OR REPLACE INTO heartbeats VALUES (?, ?, ?)", (table, seat, time.time()))

    def _seated(self, table: str, seats: int) -> list[int]:
        with self._read() as db:
            self._state_of(db, table)
            rows = db.execute(
                "SELECT seat FROM heartbeats WHERE table_id = ? AND at > ? AND seat < ? ORDER BY seat",
                (table, time.time() - self.heartbeat_seconds, seats),
            )
            return [int(seat) for (seat,) in rows]

    def _acquire_lease(self, table: str, seat: int, holder: str, seconds: float) -> bool:
        now = time.time()
        with self._write() as db:
            self._state_of(db, table)
            found = db.execute("SELECT holder, expires FROM leases WHERE table_id = ? AND seat = ?", (table, seat))
            current = found.fetchone()
            if current is not None and current[0] != holder and float(current[1]) > now:
                return False
            db.execute("INSERT OR REPLACE INTO leases VALUES (?, ?, ?, ?)", (table, seat, holder, now + seconds))
        return True

    def _release_lease(self, table: str, seat: int, holder: str) -> None:
        with self._write() as db:
            db.execute("DELETE FROM leases WHERE table_id = ? AND seat = ? AND holder = ?", (table, seat, holder))

    def _wait(self, table: str, after: int, timeout: float) -> int:
        deadline = time.monotonic() + timeout
        with self._watch_lock:
            with self._lock:
                self._conn()  # the file is there and still the one opened
                if self._watch is None:
                    self._watch = self._connect()
            watch = self._watch
            _, status = self._state_of(watch, table)
            seen = None
            while True:
                with self._lock:
                    self._same_file()
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
            if self._db is not None:
                self._db.close()
                self._db = None
        with self._watch_lock:
            if self._watch is not None:
                self._watch.close()
                self._watch = None
