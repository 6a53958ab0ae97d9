"""Shared tables for any registered game: create, sit by token, play at a version, bots, close.

The store (:mod:`sloth_kernel.tables.store`) keeps the moves; this module judges them with the
game's own protocol (``load_game``, ``new_state(seed)``, ``play``, ``observation``) before they
are committed, and hands each page only what its seat may know:

.. code-block:: python

    tables = Tables(open_store())
    made = tables.create("some-game", ["human", "human", "bot"], base_url="http://127.0.0.1:8866")
    seat = tables.sit(made.table, token)          # the token from the seat's URL
    snap = seat.snapshot()                        # .version, .observation (this seat's view only)
    seat.play(snap.observation.legal_moves[0], at=snap.version)   # TableMovedOnError if too late

Seat tokens are 192 random bits from :mod:`secrets`; the store keeps only their SHA-256, and
they appear only in the URLs :meth:`Tables.create` returns. The seed is 128 random bits and
never leaves the server (a teacher's record includes it, after the game).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlsplit

from sloth_kernel.core import NO_PLAYER, GameState, fresh_seed, seat_name
from sloth_kernel.errors import SlothKernelError, counted, shorten
from sloth_kernel.registry import game_spec, load_game
from sloth_kernel.tables.errors import (
    SeatTokenError,
    TableClosedError,
    TableError,
    TableMovedOnError,
    TableMoveError,
)
from sloth_kernel.tables.store import SEAT_KINDS, Seat, TableRow, TableStore, check_table_id, check_version

TOKEN_BYTES = 24
"""A seat's or the teacher's token: 192 random bits, URL-safe base64 (32 characters)."""

PAGE = "voila/render/table.ipynb"
"""The notebook that serves seat, watch and teacher pages, under the Voila server's base URL."""

DEFAULT_BASE_URL = "http://127.0.0.1:8866"
"""Where ``make play`` serves."""

LEASE_SECONDS = 5.0
"""How long a page's lease on a bot seat lasts unless renewed; another page takes over after.
While its bot thinks, the page renews it every third of that (:class:`LeaseKeeper`)."""


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


ID_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"
"""A table id's letters: no 0/o, 1/l, and never a leading '-' that a command line would read as an option."""


def new_table_id() -> str:
    """12 characters, 60 random bits: the watch page's address too."""
    return "".join(secrets.choice(ID_ALPHABET) for _ in range(12))


URL_TEXT = re.compile(r"(?:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})+")
"""A URL's characters (RFC 3986: unreserved, reserved, and %-escapes); nothing else."""


def _host_and_port(parts: Any) -> bool:
    try:
        parts.port  # noqa: B018 - raises ValueError for a port that is not one
    except ValueError:
        return False
    return bool(parts.hostname)


def check_base_url(base_url: Any) -> str:
    """The Voila server's address: http:// or https://, a host, no query or fragment, and only a
    URL's characters (so the links are links: ``http://x"><img>`` is refused, not escaped)."""
    ok = isinstance(base_url, str) and len(base_url) <= 2000 and bool(URL_TEXT.fullmatch(base_url))
    parts = urlsplit(base_url) if ok else None
    if (
        not ok
        or parts is None
        or parts.scheme not in ("http", "https")
        or not parts.netloc
        or not _host_and_port(parts)
        or parts.query
        or parts.fragment
        or "?" in str(base_url)
        or "#" in str(base_url)
    ):
        raise TableError(
            f"the base URL is the Voila server's http:// or https:// address, not {shorten(base_url)}",
            value=shorten(base_url),
        )
    return str(base_url).rstrip("/")


def page_url(base_url: str, table: str, role: str = "", token: str = "") -> str:
    """A page's URL. The token goes after '#': browsers never send it to the server or in a Referer;
    the page's front end hands it to its kernel."""
    url = f"{base_url}/{PAGE}?table={quote(table)}"
    return f"{url}#{role}={token}" if role else url


@dataclass(frozen=True)
class SeatLink:
    seat: int
    kind: str
    url: str | None
    """A human seat's page (with its token); None for a bot."""


@dataclass(frozen=True)
class CreatedTable:
    """What :meth:`Tables.create` returns: the only place the tokens ever appear."""

    table: str
    game: str
    seats: tuple[SeatLink, ...]
    watch: str
    teacher: str

    def to_json(self) -> dict[str, Any]:
        """The command line's ``table create --json`` object."""
        seats: list[dict[str, Any]] = []
        for link in self.seats:
            entry: dict[str, Any] = {"seat": link.seat, "kind": link.kind}
            if link.url is not None:
                entry["url"] = link.url
            seats.append(entry)
        return {"table": self.table, "seats": seats, "watch": self.watch, "teacher": self.teacher}


@dataclass(frozen=True)
class TableSummary:
    """What ``table show`` reports. ``current_player`` is None once the game is over."""

    table: str
    game: str
    title: str
    ply: int
    current_player: int | None
    over: bool
    seated: tuple[int, ...]
    status: str
    seats: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "game": self.game,
            "ply": self.ply,
            "current_player": self.current_player,
            "over": self.over,
            "seated": list(self.seated),
        }

    def sentence(self) -> str:
        """One line for people: 'abc: Game, 3 moves, Player 2 to move, 2 of 2 people seated, open'."""
        if self.over:
            turn = "game over"
        else:
            assert self.current_player is not None
            turn = f"{seat_name(self.current_player)} to move"
        humans = sum(kind == "human" for kind in self.seats)
        who = ", ".join(seat_name(seat) for seat in self.seated) or "nobody"
        return (
            f"{self.table}: {self.title}, {counted(self.ply, 'move')}, {turn}; "
            f"seated: {who} (of {counted(humans, 'person', 'people')}); {self.status}"
        )


@dataclass(frozen=True)
class Snapshot:
    """One page's view of a table at one version."""

    version: int
    status: str
    observation: Any
    over: bool
    current_player: int | None


def _state(row: TableRow) -> GameState[Any, Any]:
    """The game state the row's moves lead to, each move checked again by the game.

    A table whose game or moves this installation no longer accepts (a game removed, rulings
    changed since the table was made) raises TableError, never the game's own error.
    """
    try:
        state: GameState[Any, Any] = load_game(row.game, **row.options).new_state(row.seed)
        for move in row.moves:
            state = state.play(move)
    except (SlothKernelError, TypeError, ValueError, KeyError, RecursionError) as err:  # options from a store
        raise TableError(
            f"the table {row.table!r} cannot be replayed by this installation of its game: {err}", value=row.table
        ) from err
    return state


def _current(state: GameState[Any, Any]) -> int | None:
    return None if state.is_over or state.current_player == NO_PLAYER else int(state.current_player)


class Tables:
    """Tables in one store, for any registered game."""

    def __init__(self, store: TableStore) -> None:
        self.store = store
        self._cache: dict[str, tuple[int, GameState[Any, Any]]] = {}

    # -- making and listing --

    def create(
        self,
        game: str,
        seats: Sequence[str],
        *,
        options: dict[str, Any] | None = None,
        base_url: str = DEFAULT_BASE_URL,
    ) -> CreatedTable:
        """A new table: `seats` lists each seat's kind, "human" or "bot" (or "bot:LEVEL").

        The number of seats is the number of players; `options` are the game's other options
        (``players``, if given, must agree). Raises TableError (nothing written) for a bad game,
        option, seat list or base URL.
        """
        base = check_base_url(base_url)
        kinds = self._check_seats(game, seats)
        if options is None:
            options = {}
        if not isinstance(options, dict) or not all(isinstance(key, str) for key in options):
            raise TableError(f"options are a JSON object, not {shorten(options)}", value=shorten(options))
        if "players" in options and options["players"] != len(kinds):
            raise TableError(
                f"the options say {shorten(options['players'])} players, but the table has {counted(len(kinds), 'seat')}"
            )
        options = {**options, "players": len(kinds)}
        try:
            json.dumps(options)
        except RecursionError as err:
            raise TableError("the table cannot be set up: its options are nested too deeply") from err
        except (TypeError, ValueError) as err:
            raise TableError(f"the table cannot be set up: {err}", value=shorten(options)) from err
        try:
            game_obj = load_game(game, **options)
            config = game_obj.config.to_dict()
        except (SlothKernelError, TypeError, ValueError, RecursionError) as err:
            raise TableError(f"the table cannot be set up: {err}", value=shorten(options)) from err
        tokens = [new_token() if kind == "human" else None for kind, _ in kinds]
        teacher = new_token()
        row = TableRow(
            table=new_table_id(),
            game=game,
            options=config,
            seed=fresh_seed(),
            seats=tuple(
                Seat(kind=kind, token_hash=token_hash(token) if token else None, level=level)
                for (kind, level), token in zip(kinds, tokens, strict=True)
            ),
            teacher_hash=token_hash(teacher),
        )
        self.store.create(row)
        return CreatedTable(
            table=row.table,
            game=game,
            seats=tuple(
                SeatLink(seat, kind, page_url(base, row.table, "seat", token) if token else None)
                for seat, ((kind, _), token) in enumerate(zip(kinds, tokens, strict=True))
            ),
            watch=page_url(base, row.table),
            teacher=page_url(base, row.table, "teacher", teacher),
        )

    @staticmethod
    def _check_seats(game: Any, seats: Any) -> list[tuple[str, str | None]]:
        try:
            spec = game_spec(game)
        except SlothKernelError as err:
            raise TableError(str(err), value=shorten(game)) from err
        if isinstance(seats, str) or not isinstance(seats, Sequence) or not seats:
            raise TableError(f"seats are a list of human or bot, not {shorten(seats)}", value=shorten(seats))
        low, high = spec.players
        if not low <= len(seats) <= high:
            raise TableError(
                f"{spec.title} is for {low} to {high} players, not {counted(len(seats), 'seat')}",
                value=shorten(seats),
            )
        from sloth_kernel.bots import bot_levels

        kinds: list[tuple[str, str | None]] = []
        for seat in seats:
            kind, _, level = seat.partition(":") if isinstance(seat, str) else ("", "", "")
            if kind not in SEAT_KINDS or (kind == "human" and level):
                raise TableError(f"a seat is human, bot or bot:LEVEL, not {shorten(seat)}", value=shorten(seat))
            if kind == "bot":
                levels = bot_levels(spec.name)
                level = level or ("heuristic" if "heuristic" in levels else levels[0])
                if level not in levels:
                    raise TableError(
                        f"no bot level {shorten(level)} for {spec.title}; choose one of {', '.join(levels)}",
                        value=shorten(level),
                    )
            kinds.append((kind, level or None))
        return kinds

    def state(self, table: str) -> tuple[TableRow, GameState[Any, Any]]:
        """The table's row and its game state now (replayed, cached by version)."""
        row = self.store.load(table)
        cached = self._cache.get(table)
        if cached is not None and cached[0] == row.version:
            return row, cached[1]
        state = _state(row)
        self._cache[table] = (row.version, state)
        return row, state

    def show(self, table: str) -> TableSummary:
        row, state = self.state(table)
        humans = [seat for seat, info in enumerate(row.seats) if info.kind == "human"]
        seated = tuple(seat for seat in self.store.seated(table, len(row.seats)) if seat in humans)
        return TableSummary(
            table=row.table,
            game=row.game,
            title=state.game.title,
            ply=row.version,
            current_player=_current(state),
            over=bool(state.is_over),
            seated=seated,
            status=row.status,
            seats=tuple(seat.kind for seat in row.seats),
        )

    def list(self) -> list[TableSummary]:
        return [self.show(table) for table in self.store.table_ids()]

    def close(self, table: str) -> None:
        self.store.set_status(table, "closed")

    # -- pages --

    def sit(self, table: str, token: Any) -> SeatHandle:
        """The seat whose token this is (SeatTokenError for a missing or wrong one)."""
        row = self.store.load(check_table_id(table))
        digest = _digest(token)
        for seat, info in enumerate(row.seats):
            if info.token_hash is not None and hmac.compare_digest(info.token_hash, digest):
                return SeatHandle(self, table, seat)
        raise SeatTokenError("this seat's link is not right: ask for the table's links again")

    def teacher(self, table: str, token: Any) -> TeacherHandle:
        row = self.store.load(check_table_id(table))
        if not hmac.compare_digest(row.teacher_hash, _digest(token)):
            raise SeatTokenError("this teacher's link is not right: ask for the table's links again")
        return TeacherHandle(self, table)

    def play(self, table: str, seat: int, move: Any, *, at: int) -> int:
        """Play `move` for `seat`, as made at version `at`; returns the new version.

        TableMovedOnError if the table is past `at`; TableMoveError if the game refuses the move
        (not a move, not this seat's turn, against the rules); TableClosedError if closed or paused.
        """
        at = check_version(at)
        row, state = self.state(table)
        if row.status != "open":
            raise TableClosedError(f"the table is {row.status}: it takes no moves now", value=table)
        if at != row.version:
            raise TableMovedOnError(table, at, row.version)
        try:
            after = state.play(move, player=seat)
        except SlothKernelError as err:
            raise TableMoveError(str(err), explanation=getattr(err, "explanation", None), value=err.value) from err
        text = str(after.history[-1])
        version = self.store.commit(table, at, text)
        self._cache[table] = (version, after)
        return version

    def play_bots(self, table: str, holder: str, *, lease_seconds: float = LEASE_SECONDS) -> int:
        """Play every bot seat's turn that comes up now, holding each bot seat's lease; returns moves made.

        Any number of pages may call this: only the lease holder moves, and a move is committed
        at its version, so a bot never moves twice. The lease is renewed from a thread while the
        bot thinks (:class:`LeaseKeeper`); if a renewal fails, nothing is committed. A page calls
        this whenever the table changes.
        """
        from sloth_kernel.bots import make_bot

        made = 0
        while True:
            row, state = self.state(table)
            seat = _current(state)
            if row.status != "open" or seat is None or seat >= len(row.seats) or row.seats[seat].kind != "bot":
                return made
            if not self.store.acquire_lease(table, seat, holder, lease_seconds):
                return made
            try:
                bot = make_bot(row.game, row.seats[seat].level or "random", seed=secrets.randbits(64))
            except SlothKernelError as err:  # a level this installation no longer has
                raise TableError(f"the table's bot cannot play here: {err}", value=table) from err
            with LeaseKeeper(self.store, table, seat, holder, lease_seconds) as keeper:
                move = bot.choose(state.observation(seat))
            if keeper.taken:  # another page holds the lease now: it moves, this page commits nothing
                return made
            if keeper.lost is not None:  # the store failed while the bot thought: nothing is committed
                raise keeper.lost
            try:
                self.play(table, seat, move, at=row.version)
            except TableMovedOnError:
                continue  # another page moved it first: read the table again
            made += 1


class LeaseKeeper:
    """Renews a bot seat's lease from a thread while the bot thinks (every third of the lease).

    A renewal that fails stops the renewing and the page commits nothing: ``taken`` when another
    holder has the lease, ``lost`` (the error) when the store failed. So a decision never outlives
    its lease.
    """

    def __init__(self, store: TableStore, table: str, seat: int, holder: str, seconds: float) -> None:
        self.store, self.table, self.seat, self.holder, self.seconds = store, table, seat, holder, seconds
        self.lost: TableError | None = None
        self.taken = False
        self.renewals = 0
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._renew, name=f"sloth-lease-{table}-{seat}", daemon=True)

    def _renew(self) -> None:
        while not self._done.wait(self.seconds / 3):
            try:
                if not self.store.acquire_lease(self.table, self.seat, self.holder, self.seconds):
                    self.taken = True
                    return
            except TableError as err:
                self.lost = err
                return
            self.renewals += 1

    def __enter__(self) -> LeaseKeeper:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join()


TOKEN_TEXT = re.compile(r"[A-Za-z0-9_-]{1,200}")
"""A token as :func:`new_token` makes them (URL-safe base64); anything else cannot be one."""


def _digest(token: Any) -> str:
    if not isinstance(token, str) or not token:
        raise SeatTokenError("this page's link has no seat token: ask for the table's links again")
    if not TOKEN_TEXT.fullmatch(token):
        raise SeatTokenError("this page's link is not right: ask for the table's links again")
    return token_hash(token)


class SeatHandle:
    """One human seat's page: its observation only, moves at a version, heartbeats."""

    def __init__(self, tables: Tables, table: str, seat: int) -> None:
        self.tables = tables
        self.table = table
        self.seat = seat

    def snapshot(self) -> Snapshot:
        row, state = self.tables.state(self.table)
        return Snapshot(row.version, row.status, state.observation(self.seat), bool(state.is_over), _current(state))

    def play(self, move: Any, *, at: int) -> int:
        return self.tables.play(self.table, self.seat, move, at=at)

    def heartbeat(self) -> None:
        self.tables.store.heartbeat(self.table, self.seat)

    def wait(self, after: int, timeout: float) -> int:
        return self.tables.store.wait(self.table, after, timeout)


class TeacherHandle:
    """The teacher's page: every hand, the record (the seed too), pause and resume."""

    def __init__(self, tables: Tables, table: str) -> None:
        self.tables = tables
        self.table = table

    def state(self) -> GameState[Any, Any]:
        return self.tables.state(self.table)[1]

    def pause(self) -> None:
        self.tables.store.set_status(self.table, "paused")

    def resume(self) -> None:
        row = self.tables.store.load(self.table)
        if row.status == "closed":
            raise TableClosedError("the table is closed: it cannot be resumed", value=self.table)
        self.tables.store.set_status(self.table, "open")


def default_holder() -> str:
    """A lease holder name for this process (host and pid, and a random part)."""
    return f"{os.uname().nodename if hasattr(os, 'uname') else 'host'}:{os.getpid()}:{secrets.token_hex(4)}:{time.time():.0f}"
