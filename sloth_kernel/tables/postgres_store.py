"""The PostgreSQL table store (``SLOTH_TABLES=postgresql://user@host/db``; needs the ``tables`` extra: psycopg 3).

A commit locks the table's row (``SELECT ... FOR UPDATE``), checks the version and the status,
appends the move, bumps the version and sends ``NOTIFY sloth_tables, 'ID'``, all in one
transaction; the notification goes out when it commits. Pages wait with ``LISTEN``, with polling
as the fallback. Every session sets ``synchronous_commit = on``: a commit returns once it is on
disk (keep ``fsync = on`` on the server; see docs/tables.md).

psycopg has no client-side timeout for a query: a server that is stopped (SIGSTOP) or cut off
keeps a call waiting for ever. So every call runs under a watchdog: past ``CALL_SECONDS`` it
shuts the connection's socket down, the call fails with psycopg's OperationalError (a
StoreError with a sentence) and the next call connects again. psycopg's own cancel does not
help there: it needs the stopped server to answer.
"""

from __future__ import annotations

import os
import socket
import threading
import time
import traceback
from collections.abc import Callable
from typing import Any, TypeVar

from sloth_kernel.tables.errors import StoreError, TableClosedError, TableError, TableMovedOnError, TableNotFoundError
from sloth_kernel.tables.store import (
    DAMAGED,
    POLL_SECONDS,
    TableRow,
    TableStore,
    describe,
    first_line,
    full_error,
    missing_extra,
    row_from_columns,
    server_fault,
)

try:
    import psycopg
except ImportError as err:  # pragma: no cover - the tables extra is installed in development
    raise missing_extra("psycopg 3", err) from err

T = TypeVar("T")

CHANNEL = "sloth_tables"

CALL_SECONDS = 5.0
"""The longest a store call (or a connection) waits for the server, as Redis's socket timeout."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS sloth_tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    seed TEXT NOT NULL,
    seats TEXT NOT NULL,
    teacher TEXT NOT NULL,
    status TEXT NOT NULL,
    version INTEGER NOT NULL,
    created DOUBLE PRECISION NOT NULL
);
CREATE TABLE IF NOT EXISTS sloth_table_moves (
    table_id TEXT NOT NULL REFERENCES sloth_tables(id),
    ply INTEGER NOT NULL,
    move TEXT NOT NULL,
    PRIMARY KEY (table_id, ply)
);
CREATE TABLE IF NOT EXISTS sloth_table_heartbeats (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS sloth_table_leases (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    holder TEXT NOT NULL,
    expires TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (table_id, seat)
);
"""

SCHEMA_LOCK = 0x510775
"""An advisory lock id: two processes creating the schema at once take turns."""

CREATE_LOCK = SCHEMA_LOCK + 1
"""An advisory lock id: two tables being created at once are counted one after the other."""


def cut(db: Any) -> None:
    """Shut the connection's socket down: a call blocked on it fails at once."""
    try:
        sock = socket.socket(fileno=os.dup(db.fileno()))
    except (OSError, psycopg.Error):  # closed already
        return
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    finally:
        sock.close()


class Watchdog:
    """One thread per process that cuts the connections whose call outlasts its bound."""

    def __init__(self) -> None:
        self._reset()
        os.register_at_fork(after_in_child=self._reset)  # a forked child has no watchdog thread yet

    def _reset(self) -> None:
        self._changed = threading.Condition()
        self._armed: dict[int, tuple[Any, float]] = {}
        self._fired: set[int] = set()
        self._next = 0
        self._thread: threading.Thread | None = None

    def arm(self, db: Any, seconds: float) -> int:
        with self._changed:
            self._next += 1
            self._armed[self._next] = (db, time.monotonic() + seconds)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="sloth-postgres-watchdog", daemon=True)
                self._thread.start()
            self._changed.notify()
            return self._next

    def disarm(self, token: int) -> bool:
        """Whether the call outlasted its bound (and its connection was cut)."""
        with self._changed:
            self._armed.pop(token, None)
            if token in self._fired:
                self._fired.discard(token)
                return True
            return False

    def _run(self) -> None:
        with self._changed:
            while True:
                now = time.monotonic()
                for token, (db, deadline) in list(self._armed.items()):
                    if deadline <= now:
                        del self._armed[token]
                        self._fired.add(token)
                        cut(db)
                soonest = min((deadline for _, deadline in self._armed.values()), default=None)
                self._changed.wait(None if soonest is None else max(soonest - now, 0.01))


WATCHDOG = Watchdog()


class PostgresStore(TableStore):
    """Tables in a PostgreSQL database."""

    faults = (psycopg.Error, *DAMAGED)

    def fault(self, err: BaseException) -> StoreError:
        return server_fault(self.url, err, (psycopg.OperationalError,))

    def late(self) -> StoreError:
        """The sentence for a call that outlasted ``call_seconds`` (its connection was cut)."""
        seconds = f"{self.call_seconds:g} second" + ("" if self.call_seconds == 1 else "s")
        return StoreError(
            f"the table store {describe(self.url)} did not answer within {seconds} (is its server stopped or overloaded?)",
            value=describe(self.url),
        )

    def __init__(self, url: str) -> None:
        self.url = url
        self.call_seconds = CALL_SECONDS
        """The bound of each call (tests shorten it)."""
        self._lock = threading.RLock()
        self._listener: Any = None
        self._listen_lock = threading.Lock()
        self._db = self._connect()
        with self._failing(), self._db.transaction():
            self._db.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
            self._db.execute(SCHEMA)

    def _connect(self) -> Any:
        try:  # libpq's connect_timeout is at least 2 s
            db = psycopg.connect(self.url, autocommit=True, connect_timeout=max(2, round(self.call_seconds)))
        except psycopg.Error as err:
            # the traceback's frames hold the attempt's socket open, and a server backend with it
            traceback.clear_frames(err.__traceback__)
            raise StoreError(
                f"the table store {describe(self.url)} cannot be reached (is its server running?): {first_line(err)}",
                value=describe(self.url),
            ) from err
        token = WATCHDOG.arm(db, self.call_seconds)
        try:
            db.execute("SET synchronous_commit = on")
        except psycopg.Error as err:
            db.close()
            raise (self.late() if WATCHDOG.disarm(token) else self.fault(err)) from err
        WATCHDOG.disarm(token)
        return db

    def _failing(self) -> Any:
        store = self

        class Guard:
            def __enter__(self) -> None:
                store._lock.acquire()
                if store._db.closed or store._db.broken:  # the server restarted or was cut off: connect again
                    try:
                        store._db = store._connect()
                    except BaseException:
                        store._lock.release()
                        raise
                self.token = WATCHDOG.arm(store._db, store.call_seconds)

            def __exit__(self, kind: Any, err: Any, trace: Any) -> None:
                late = WATCHDOG.disarm(self.token)
                try:
                    if late:  # its socket was cut: the next call connects again
                        store._db.close()
                finally:
                    store._lock.release()
                if isinstance(err, psycopg.Error):
                    raise (store.late() if late else store.fault(err)) from err

        return Guard()

    def _missing(self, table: str) -> TableNotFoundError:
        return TableNotFoundError(f"there is no table {table!r}", value=table)

    def _create(self, row: TableRow) -> None:
        with self._failing(), self._db.transaction():
            self._db.execute("SELECT pg_advisory_xact_lock(%s)", (CREATE_LOCK,))
            (open_now,) = self._db.execute("SELECT count(*) FROM sloth_tables WHERE status <> 'closed'").fetchone()
            if (
                open_now >= self.max_open_tables
                and not self._db.execute("SELECT 1 FROM sloth_tables WHERE id = %s", (row.table,)).fetchone()
            ):
                raise full_error(open_now, self.max_open_tables)
            made = self._db.execute(
                "INSERT INTO sloth_tables VALUES (%s, %s, %s, %s, %s, %s, 'open', 0, %s) ON CONFLICT DO NOTHING",
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
            if made.rowcount != 1:
                raise TableError(f"a table {row.table!r} exists already", value=row.table)

    def _load(self, table: str) -> TableRow:
        with self._failing(), self._db.transaction():
            self._db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")  # one snapshot
            found = self._db.execute(
                "SELECT game, options, seed, seats, teacher, status, created FROM sloth_tables WHERE id = %s", (table,)
            ).fetchone()
            moves = self._db.execute(
                "SELECT move FROM sloth_table_moves WHERE table_id = %s ORDER BY ply", (table,)
            ).fetchall()
        if found is None:
            raise self._missing(table)
        return row_from_columns(table, found, moves)

    def _state_of(self, db: Any, table: str, lock: bool = False) -> tuple[int, str]:
        query = "SELECT version, status FROM sloth_tables WHERE id = %s" + (" FOR UPDATE" if lock else "")
        found = db.execute(query, (table,)).fetchone()
        if found is None:
            raise self._missing(table)
        return int(found[0]), str(found[1])

    def _state(self, table: str) -> tuple[int, str]:
        with self._failing():
            return self._state_of(self._db, table)

    def _commit(self, table: str, expected: int, move: str) -> int:
        with self._failing(), self._db.transaction():
            version, status = self._state_of(self._db, table, lock=True)
            if status != "open":
                raise TableClosedError(f"the table {table!r} is {status}: it takes no moves now", value=table)
            if version != expected:
                raise TableMovedOnError(table, expected, version)
            self._db.execute("INSERT INTO sloth_table_moves VALUES (%s, %s, %s)", (table, version, move))
            self._db.execute("UPDATE sloth_tables SET version = %s WHERE id = %s", (version + 1, table))
            self._db.execute("SELECT pg_notify(%s, %s)", (CHANNEL, table))
        return version + 1

    def _set_status(self, table: str, status: str) -> None:
        with self._failing(), self._db.transaction():
            self._state_of(self._db, table, lock=True)
            self._db.execute("UPDATE sloth_tables SET status = %s WHERE id = %s", (status, table))
            self._db.execute("SELECT pg_notify(%s, %s)", (CHANNEL, table))

    def _table_ids(self) -> list[str]:
        with self._failing():
            rows = self._db.execute("SELECT id FROM sloth_tables ORDER BY created, id").fetchall()
        return [table for (table,) in rows]

    def _heartbeat(self, table: str, seat: int) -> None:
        with self._failing(), self._db.transaction():
            self._state_of(self._db, table)
            self._db.execute(
                "INSERT INTO sloth_table_heartbeats VALUES (%s, %s, now()) "
                "ON CONFLICT (table_id, seat) DO UPDATE SET at = now()",
                (table, seat),
            )

    def _seated(self, table: str, seats: int) -> list[int]:
        with self._failing():
            self._state_of(self._db, table)
            rows = self._db.execute(
                "SELECT seat FROM sloth_table_heartbeats WHERE table_id = %s AND seat < %s "
                "AND at > now() - make_interval(secs => %s) ORDER BY seat",
                (table, seats, self.heartbeat_seconds),
            ).fetchall()
        return [seat for (seat,) in rows]

    def _acquire_lease(self, table: str, seat: int, holder: str, seconds: float) -> bool:
        with self._failing(), self._db.transaction():
            self._state_of(self._db, table)
            got = self._db.execute(
                "INSERT INTO sloth_table_leases VALUES (%s, %s, %s, now() + make_interval(secs => %s)) "
                "ON CONFLICT (table_id, seat) DO UPDATE SET holder = EXCLUDED.holder, expires = EXCLUDED.expires "
                "WHERE sloth_table_leases.holder = EXCLUDED.holder OR sloth_table_leases.expires <= now() "
                "RETURNING holder",
                (table, seat, holder, seconds),
            ).fetchone()
        return got is not None

    def _release_lease(self, table: str, seat: int, holder: str) -> None:
        with self._failing():
            self._db.execute(
                "DELETE FROM sloth_table_leases WHERE table_id = %s AND seat = %s AND holder = %s",
                (table, seat, holder),
            )

    def _listening(self, call: Callable[[Any], T]) -> T:
        """Run `call(listener)` within ``call_seconds``: past it the listener is cut and closed."""
        token = WATCHDOG.arm(self._listener, self.call_seconds)
        try:
            return call(self._listener)
        finally:
            if WATCHDOG.disarm(token):
                self._listener.close()

    def _wait(self, table: str, after: int, timeout: float) -> int:
        deadline = time.monotonic() + timeout
        with self._listen_lock:
            try:
                if self._listener is None or self._listener.closed or self._listener.broken:
                    self._listener = self._connect()
                    self._listening(lambda listener: listener.execute(f"LISTEN {CHANNEL}"))
                # after LISTEN: a change from now on is not missed
                start = self._listening(lambda listener: self._state_of(listener, table))
                if start[0] != after:
                    return start[0]
                while (left := deadline - time.monotonic()) > 0:
                    # list(): the generator holds the connection until it is done; it waits at most `left`
                    for note in list(self._listener.notifies(timeout=left, stop_after=1)):
                        if note.payload == table:
                            now = self._listening(lambda listener: self._state_of(listener, table))
                            if now != start:
                                return now[0]
                return after
            except psycopg.Error:  # LISTEN failed, the server went away or did not answer: poll instead
                if self._listener is not None:
                    self._listener.close()
                    self._listener = None
        return self._poll(table, after, deadline)

    def _poll(self, table: str, after: int, deadline: float) -> int:
        with self._failing():
            start = self._state_of(self._db, table)
        while True:
            with self._failing():
                now = self._state_of(self._db, table)
            if now[0] != after or now != start:
                return now[0]
            if time.monotonic() >= deadline:
                return after
            time.sleep(POLL_SECONDS)

    def close(self) -> None:
        with self._lock:
            self._db.close()
        with self._listen_lock:
            if self._listener is not None:
                self._listener.close()
                self._listener = None
