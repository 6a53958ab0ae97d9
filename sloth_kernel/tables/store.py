"""The table store: one small interface, three backends (SQLite, Redis, PostgreSQL).

A store keeps, per table: the game, its options, the seed (never shown to a seat), the seats
(human or bot; a human seat keeps only the SHA-256 of its token), the teacher's token hash,
the status (open, paused, closed) and the move list, whose length is the table's version.

Every public method checks its arguments first and raises :class:`TableError` (nothing
written) for anything that is not a table id, a seat, a version or a move's text. A move is
committed with :meth:`TableStore.commit` only if the table is still at the version the move
was made at: the check and the write are one atomic step in every backend, so two pages can
never both move at the same ply; the loser gets :class:`TableMovedOnError`.

Which backend: :func:`sloth_kernel.tables.connect.open_store` reads an address (or ``SLOTH_TABLES``).
"""

from __future__ import annotations

import json
import math
import re
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sloth_kernel.errors import counted, shorten
from sloth_kernel.notation import check_seat
from sloth_kernel.tables.errors import StoreError, StoreFullError, TableError
from sloth_kernel.untrusted import MAX_MOVE_TEXT

T = TypeVar("T")

ENV = "SLOTH_TABLES"
"""The environment variable naming the store (a path or a URL)."""

MAX_OPEN_ENV = "SLOTH_TABLES_MAX_OPEN"
"""The environment variable that sets how many tables a store keeps open (not closed) at once."""

MAX_OPEN_TABLES = 500
"""At most this many tables of a store are open or paused at once; creating one more is refused
(:class:`StoreFullError`) until one is closed. ``SLOTH_TABLES_MAX_OPEN`` changes it."""

HEARTBEAT_SECONDS = 5.0
"""A seat is seated while its page's newest heartbeat is younger than this."""

STATUSES = ("open", "paused", "closed")
SEAT_KINDS = ("human", "bot")
MAX_SEATS = 64
"""The most seats a table has."""
MAX_WAIT_SECONDS = 600.0
POLL_SECONDS = 0.01
"""How often SQLite (and the fallback of the others) looks for a change while waiting."""

_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_HOLDER = re.compile(r"[ -~]{1,200}")
_HASH = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class Seat:
    """One seat of a table: ``kind`` "human" (``token_hash`` is the SHA-256 of its token) or "bot"."""

    kind: str
    token_hash: str | None = None
    level: str | None = None
    """A bot's level (``sloth_kernel.bots.make_bot``); None for a human seat."""

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "token_hash": self.token_hash, "level": self.level}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seat:
        return cls(kind=data["kind"], token_hash=data.get("token_hash"), level=data.get("level"))


@dataclass(frozen=True)
class TableRow:
    """Everything a store keeps about one table (the seed included: it never leaves the server)."""

    table: str
    game: str
    options: dict[str, Any]
    seed: int
    seats: tuple[Seat, ...]
    teacher_hash: str
    status: str = "open"
    moves: tuple[str, ...] = ()
    created: float = field(default_factory=time.time)

    @property
    def version(self) -> int:
        """The number of moves committed: a move is made at the version it was read at."""
        return len(self.moves)

    def seats_json(self) -> str:
        return json.dumps([seat.to_json() for seat in self.seats])

    def options_json(self) -> str:
        return json.dumps(self.options, sort_keys=True)


def check_table_id(table: Any) -> str:
    if not isinstance(table, str) or not _TABLE_ID.fullmatch(table):
        raise TableError(
            f"a table id is 1 to 64 letters, digits, '-' or '_', not {shorten(table)}", value=shorten(table)
        )
    return table


def check_version(version: Any) -> int:
    if not isinstance(version, int) or isinstance(version, bool) or not 0 <= version < 2**31:
        raise TableError(f"a table's version is a whole number from 0, not {shorten(version)}", value=shorten(version))
    return version


def _seat_error(seat: object, seats: int, what: str) -> TableError:
    return TableError(
        f"a seat is a whole number from 0 to {seats - 1} (Player 1 to Player {seats}), not {shorten(seat)}",
        value=shorten(seat),
    )


def check_seat_number(seat: Any, seats: int | None = None) -> int:
    """`seat` if it is a seat of a table of `seats` (by default of the largest table); else TableError."""
    return check_seat(seat, MAX_SEATS if seats is None else seats, _seat_error)


def storable(text: str) -> bool:
    """Whether every store can keep this text (UTF-8: no lone surrogate, no NUL)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return "\x00" not in text


def check_move_text(move: Any) -> str:
    if not isinstance(move, str) or not 0 < len(move) <= MAX_MOVE_TEXT or not storable(move):
        raise TableError(f"a move is text of 1 to {MAX_MOVE_TEXT} characters, not {shorten(move)}", value=shorten(move))
    return move


def check_holder(holder: Any) -> str:
    if not isinstance(holder, str) or not _HOLDER.fullmatch(holder):
        raise TableError(
            f"a lease holder is 1 to 200 printable characters, not {shorten(holder)}", value=shorten(holder)
        )
    return holder


def check_seconds(seconds: Any, what: str, top: float = MAX_WAIT_SECONDS) -> float:
    if (
        isinstance(seconds, bool)
        or not isinstance(seconds, int | float)
        or (isinstance(seconds, int) and not 0 <= seconds <= top)  # before float(): 10**5000 has none
        or not math.isfinite(seconds)
        or not 0 <= seconds <= top
    ):
        raise TableError(
            f"{what} is a number of seconds from 0 to {top:g}, not {shorten(seconds)}", value=shorten(seconds)
        )
    return float(seconds)


def check_status(status: Any) -> str:
    if status not in STATUSES or not isinstance(status, str):
        raise TableError(
            f"a table's status is one of {', '.join(STATUSES)}, not {shorten(status)}", value=shorten(status)
        )
    return str(status)


def row_from_columns(table: str, columns: Sequence[Any], moves: Sequence[Sequence[Any]]) -> TableRow:
    """A table's row from the SQL stores' columns (game, options, seed, seats, teacher hash, status,
    created; JSON kept as text) and its move rows (one move per row, in order)."""
    try:
        game, options, seed, seats, teacher, status, created = columns
        return checked_row(
            TableRow(
                table=table,
                game=game,
                options=json.loads(options),
                seed=int(seed),
                seats=tuple(Seat.from_json(seat) for seat in json.loads(seats)),
                teacher_hash=teacher,
                status=status,
                moves=tuple(move for (move,) in moves),
                created=float(created),
            )
        )
    except DAMAGED as err:
        raise damaged(table) from err


DAMAGED = (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError, OverflowError)
"""What reading a damaged row raises (bad JSON, a number that is not one, a missing field)."""


def damaged(table: str) -> StoreError:
    return StoreError(
        f"the table {table!r} is damaged in the store: it cannot be read (restore the store from a backup)",
        value=table,
        public="this table is damaged in the store: whoever runs this server must restore it",
    )


def checked_row(row: TableRow) -> TableRow:
    """A row read back from a store, its fields' types checked (a damaged store gives odd ones)."""
    if (
        not isinstance(row.game, str)
        or not isinstance(row.options, dict)
        or not isinstance(row.teacher_hash, str)
        or not isinstance(row.status, str)
        or not all(isinstance(seat.kind, str) for seat in row.seats)
        or not all(isinstance(move, str) for move in row.moves)
    ):
        raise TypeError("a field of the row has the wrong type")
    return row


def full_error(count: int, cap: int) -> StoreFullError:
    return StoreFullError(
        f"the table store already has {counted(count, 'open table')}, the most it keeps: close finished ones "
        f"with python -m sloth_kernel table close ID, or raise {MAX_OPEN_ENV} (now {cap})",
        value=str(count),
    )


def first_line(err: BaseException) -> str:
    """An error's own text, one line, short (a server's message can run to several)."""
    text = " ".join(str(err).split()) or type(err).__name__
    return text if len(text) <= 200 else text[:199] + "…"


def check_row(row: Any) -> TableRow:
    """A new table's row, checked before anything is written."""
    if not isinstance(row, TableRow):
        raise TableError(f"a new table is a TableRow, not {shorten(row)}", value=shorten(row))
    check_table_id(row.table)
    if not isinstance(row.game, str) or not 0 < len(row.game) <= 200 or not storable(row.game):
        raise TableError(f"a game's name is text, not {shorten(row.game)}", value=shorten(row.game))
    if not isinstance(row.options, dict):
        raise TableError(f"options are a JSON object, not {shorten(row.options)}", value=shorten(row.options))
    if not isinstance(row.seed, int) or isinstance(row.seed, bool) or not 0 <= row.seed < 2**256:
        raise TableError("a table's seed is a whole number from 0 to 2**256 - 1", value=shorten(row.seed))
    if not isinstance(row.seats, tuple) or not 0 < len(row.seats) <= MAX_SEATS:
        raise TableError(f"a table has 1 to {MAX_SEATS} seats, not {shorten(row.seats)}", value=shorten(row.seats))
    for seat in row.seats:
        if not isinstance(seat, Seat) or seat.kind not in SEAT_KINDS:
            raise TableError(f"a seat is human or bot, not {shorten(seat)}", value=shorten(seat))
        if (seat.kind == "human") != (isinstance(seat.token_hash, str) and bool(_HASH.fullmatch(seat.token_hash))):
            raise TableError("a human seat keeps its token's SHA-256 (64 hex digits); a bot seat keeps none")
    if not isinstance(row.teacher_hash, str) or not _HASH.fullmatch(row.teacher_hash):
        raise TableError("the teacher's token is kept as its SHA-256 (64 hex digits)")
    if row.moves != () or row.status != "open":
        raise TableError("a new table is open and has no moves")
    try:
        json.dumps(row.options)
    except (TypeError, ValueError, RecursionError) as err:
        raise TableError(f"options must be JSON data: {err}", value=shorten(row.options)) from err
    return row


class TableStore(ABC):
    """The store's interface. Subclasses implement the ``_`` methods; the public ones check first."""

    url: str
    """Where the store is (a password in it is masked by :func:`describe`)."""

    heartbeat_seconds: float = HEARTBEAT_SECONDS
    """How long a heartbeat keeps its seat seated."""

    max_open_tables: int = MAX_OPEN_TABLES
    """How many tables may be open or paused at once (``create`` refuses one more)."""

    faults: tuple[type[BaseException], ...] = (OSError,)
    """What the backend's library raises when the store fails; each becomes a StoreError."""

    def fault(self, err: BaseException) -> StoreError:
        """The sentence for a failure of the store (each backend says more where it can)."""
        return StoreError(f"the table store {describe(self.url)} failed: {first_line(err)}")

    def _guarded(self, call: Callable[..., T], *args: Any) -> T:
        """Run a backend method: its library's errors become StoreError, typed errors pass."""
        try:
            return call(*args)
        except TableError:
            raise
        except self.faults as err:
            raise self.fault(err) from err

    # -- tables --

    def create(self, row: TableRow) -> None:
        """Write a new table; TableError if its id is taken, StoreFullError if ``max_open_tables``
        tables are open already. The only call that makes a SQLite store's file."""
        self._guarded(self._create, check_row(row))

    def load(self, table: str) -> TableRow:
        """The table's row (TableNotFoundError if there is none)."""
        return self._guarded(self._load, check_table_id(table))

    def version(self, table: str) -> int:
        """The table's version (its number of moves) without reading the moves."""
        return self._guarded(self._state, check_table_id(table))[0]

    def state(self, table: str) -> tuple[int, str]:
        """The table's version and status ("open", "paused" or "closed") without reading the moves."""
        return self._guarded(self._state, check_table_id(table))

    def commit(self, table: str, expected: int, move: str) -> int:
        """Append `move` if the table is open and still at version `expected`; returns the new version.

        Atomic: of two commits at the same version exactly one succeeds, the other raises
        TableMovedOnError. A closed or paused table raises TableClosedError. The store does not
        judge the move (the game does, before: :class:`sloth_kernel.tables.Tables`).
        """
        return self._guarded(self._commit, check_table_id(table), check_version(expected), check_move_text(move))

    def set_status(self, table: str, status: str) -> None:
        """Open, pause or close a table (every waiting page wakes up)."""
        self._guarded(self._set_status, check_table_id(table), check_status(status))

    def table_ids(self) -> list[str]:
        """Every table's id, oldest first."""
        return self._guarded(self._table_ids)

    # -- seats --

    def heartbeat(self, table: str, seat: int) -> None:
        """An open page of `seat` says it is there (call it every second or two)."""
        self._guarded(self._heartbeat, check_table_id(table), check_seat_number(seat))

    def seated(self, table: str, seats: int) -> list[int]:
        """The seats (of 0 to seats - 1) whose newest heartbeat is younger than ``heartbeat_seconds``."""
        if not isinstance(seats, int) or isinstance(seats, bool) or not 0 < seats <= MAX_SEATS:
            raise TableError(f"a table has 1 to {MAX_SEATS} seats, not {shorten(seats)}", value=shorten(seats))
        return self._guarded(self._seated, check_table_id(table), seats)

    def acquire_lease(self, table: str, seat: int, holder: str, seconds: float) -> bool:
        """Take or renew the lease on a bot seat for `seconds`; False while another holder's lease lasts."""
        return self._guarded(
            self._acquire_lease,
            check_table_id(table),
            check_seat_number(seat),
            check_holder(holder),
            check_seconds(seconds, "a lease", 3600),
        )

    def release_lease(self, table: str, seat: int, holder: str) -> None:
        """Give the lease up now, if `holder` has it."""
        self._guarded(self._release_lease, check_table_id(table), check_seat_number(seat), check_holder(holder))

    # -- changes --

    def wait(self, table: str, after: int, timeout: float) -> int:
        """Wait until the table's version is not `after` (or its status changes), at most `timeout` seconds.

        Returns the version then (`after` on a timeout). One store object serves one waiting
        thread at a time on SQLite and PostgreSQL (another waits its turn): a program that waits in
        several threads at once opens a store for each.
        """
        return self._guarded(self._wait, check_table_id(table), check_version(after), check_seconds(timeout, "a wait"))

    @abstractmethod
    def close(self) -> None:
        """Close this process's connections (the tables stay)."""

    def __enter__(self) -> TableStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @abstractmethod
    def _create(self, row: TableRow) -> None: ...
    @abstractmethod
    def _load(self, table: str) -> TableRow: ...
    @abstractmethod
    def _state(self, table: str) -> tuple[int, str]: ...
    @abstractmethod
    def _commit(self, table: str, expected: int, move: str) -> int: ...
    @abstractmethod
    def _set_status(self, table: str, status: str) -> None: ...
    @abstractmethod
    def _table_ids(self) -> list[str]: ...
    @abstractmethod
    def _heartbeat(self, table: str, seat: int) -> None: ...
    @abstractmethod
    def _seated(self, table: str, seats: int) -> list[int]: ...
    @abstractmethod
    def _acquire_lease(self, table: str, seat: int, holder: str, seconds: float) -> bool: ...
    @abstractmethod
    def _release_lease(self, table: str, seat: int, holder: str) -> None: ...
    @abstractmethod
    def _wait(self, table: str, after: int, timeout: float) -> int: ...


def describe(url: str) -> str:
    """A store address with any password masked, for messages."""
    return re.sub(r"(://[^:/@]*:)[^@/]*@", r"\1***@", url)


def server_fault(
    url: str,
    err: BaseException,
    unreachable: tuple[type[BaseException], ...],
    *,
    starting: tuple[type[BaseException], ...] = (),
) -> StoreError:
    """The sentence for a server store's failure (Redis, PostgreSQL): `unreachable` are its client's
    errors for a server it cannot reach, `starting` for one that is still starting up."""
    where = f"the table store {describe(url)}"
    if isinstance(err, unreachable):
        text = f"{where} cannot be reached (is its server running?): {first_line(err)}"
    elif starting and isinstance(err, starting):
        text = f"{where} is starting up: try again in a moment"
    elif isinstance(err, DAMAGED):
        text = f"{where} holds data this installation cannot read"
    else:
        text = f"{where} failed: {first_line(err)}"
    return StoreError(text, value=describe(url))


def missing_extra(library: str, err: ImportError) -> TableError:
    return TableError(
        f"this table store needs {library}: pip install 'sloth-kernel[tables]' ({err})", value=shorten(library)
    )
