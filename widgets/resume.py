"""Play-app games that survive a reload of their tab, kept on the server in the table store.

A play app's game (its options, seats, bot speed, seed and moves) is kept as a table of the table
store (:mod:`sloth_kernel.tables`, chosen as the tables choose theirs: ``SLOTH_TABLES``, else the
default SQLite file), under an id and seat hashes derived from the SHA-256 of an unguessable
resume token (``secrets.token_urlsafe(32)``, 256 bits). The browser keeps only the token (the
light front end, in the tab's session storage); the store keeps only its hash, so the store's
contents never give a token away, and the seed never leaves the server.

A kept game obeys the store's rules for every table: the cap on open tables (``SLOTH_TABLES_MAX_OPEN``;
when the store is full, play-app games past their time are closed first) and an age limit of its own,
:data:`RESUME_SECONDS` (``SLOTH_RESUME_SECONDS``), after which the token is refused and its table
closed. A new game on purpose closes the table of the one before it.

Every entry point checks its input first: a token that is not one, unknown, tampered with or expired
raises :class:`ResumeError` (a typed error, one sentence) and changes nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sloth_kernel.errors import SlothKernelError, shorten
from sloth_kernel.tables import connect
from sloth_kernel.tables.errors import StoreFullError, TableError, TableNotFoundError
from sloth_kernel.tables.store import Seat, TableRow, TableStore

PREFIX = "play-"
"""The ids of the tables that keep play-app games start with this (a shared table's never do)."""

APP_KEY = "play_app"
"""The key, in a kept game's options, of what only the play app reads (bot speed, a chosen seed)."""

RESUME_SECONDS = 24 * 3600
"""A kept game may be resumed for this long after it began (``SLOTH_RESUME_SECONDS`` changes it)."""

RESUME_ENV = "SLOTH_RESUME_SECONDS"

_TOKEN = re.compile(r"[A-Za-z0-9_-]{43,128}")  # token_urlsafe(32) is 43 characters


class ResumeError(SlothKernelError):
    """A resume token was refused (not a token, unknown, tampered with, expired); nothing changed."""


def resume_seconds() -> float:
    """``SLOTH_RESUME_SECONDS`` (a whole number from 1), else :data:`RESUME_SECONDS`."""
    text = os.environ.get(RESUME_ENV, "").strip()
    if text.isdigit() and 0 < len(text) <= 9 and int(text) > 0:
        return float(text)
    return float(RESUME_SECONDS)


def new_token() -> str:
    """A fresh resume token: 256 random bits, URL-safe text."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def check_token(token: object) -> str:
    """`token` if it has a resume token's shape; else ResumeError."""
    if not isinstance(token, str) or not _TOKEN.fullmatch(token):
        raise ResumeError("the page's saved game is not one this server made", value=shorten(token))
    return token


def table_id(hashed: str) -> str:
    return PREFIX + hashed[: 64 - len(PREFIX)]


@dataclass(frozen=True)
class KeptGame:
    """A kept play-app game, as read back from the store."""

    game: str
    options: dict[str, Any]
    seats: tuple[str, ...]
    """"human" or a bot level, per seat."""
    seed: int
    chosen: bool
    pace: int
    moves: tuple[str, ...]


class ResumeStore:
    """The play apps' kept games, in a table store (by default the one ``SLOTH_TABLES`` names)."""

    def __init__(self, store: TableStore | None = None, *, seconds: float | None = None) -> None:
        self.store = store if store is not None else connect.open_store(create=True)
        self.seconds = resume_seconds() if seconds is None else float(seconds)

    def keep(
        self,
        game: str,
        options: dict[str, Any],
        seats: Sequence[str],
        seed: int,
        *,
        chosen: bool,
        pace: int,
        moves: Sequence[str] = (),
    ) -> str:
        """Keep a new game; returns its fresh token (the only thing that names it)."""
        token = new_token()
        hashed = token_hash(token)
        row = TableRow(
            table=table_id(hashed),
            game=game,
            options={**dict(options), APP_KEY: {"chosen": bool(chosen), "pace": int(pace)}},
            seed=seed,
            seats=tuple(
                Seat("human", token_hash=hashed) if kind == "human" else Seat("bot", level=kind) for kind in seats
            ),
            teacher_hash=hashed,
        )
        try:
            self.store.create(row)
        except StoreFullError:
            if not self.sweep():
                raise
            self.store.create(row)
        for version, move in enumerate(moves):
            self.store.commit(row.table, version, move)
        return token

    def add_moves(self, token: str, moves: Sequence[str]) -> int:
        """Append to the kept game the moves past those it keeps (`moves`: all moves so far); its version."""
        row = self._row(check_token(token))
        if tuple(moves[: row.version]) != row.moves:
            raise ResumeError("the kept game is not this game", value=row.table)
        version = row.version
        for move in moves[version:]:
            version = self.store.commit(row.table, version, move)
        return version

    def load(self, token: object) -> KeptGame:
        """The game `token` names; ResumeError if it names none (unknown, tampered, expired, closed)."""
        row = self._row(check_token(token))
        app = row.options.get(APP_KEY)
        if not isinstance(app, dict):
            raise ResumeError("the page's saved game is not one this server made", value=row.table)
        options = {key: value for key, value in row.options.items() if key != APP_KEY}
        seats = tuple("human" if seat.kind == "human" else str(seat.level) for seat in row.seats)
        pace = app.get("pace")
        return KeptGame(
            game=row.game,
            options=options,
            seats=seats,
            seed=row.seed,
            chosen=app.get("chosen") is True,
            pace=pace if isinstance(pace, int) and not isinstance(pace, bool) else 900,
            moves=row.moves,
        )

    def forget(self, token: object) -> None:
        """Close the kept game `token` names (a new game replaced it); nothing if it names none."""
        try:
            row = self._row(check_token(token))
        except ResumeError:
            return
        self.store.set_status(row.table, "closed")

    def sweep(self) -> int:
        """Close the kept play-app games past their time; returns how many."""
        closed = 0
        now = time.time()
        for table in self.store.table_ids():
            if not table.startswith(PREFIX):
                continue
            try:
                if self.store.state(table)[1] == "closed":
                    continue
                if now - self.store.load(table).created > self.seconds:
                    self.store.set_status(table, "closed")
                    closed += 1
            except TableError:
                continue
        return closed

    def _row(self, token: str) -> TableRow:
        hashed = token_hash(token)
        try:
            row = self.store.load(table_id(hashed))
        except TableNotFoundError as err:
            raise ResumeError("this server keeps no such game (it may have been cleared)") from err
        if not all(
            hmac.compare_digest(seat.token_hash or "", hashed) for seat in row.seats if seat.kind == "human"
        ) or (not hmac.compare_digest(row.teacher_hash, hashed)):
            raise ResumeError("the page's saved game does not match the one kept here", value=row.table)
        if row.status != "open":
            raise ResumeError("that game was replaced by a newer one or cleared", value=row.table)
        if time.time() - row.created > self.seconds:
            self.store.set_status(row.table, "closed")
            raise ResumeError("that game was kept as long as this server keeps games, and is gone", value=row.table)
        return row

    def close(self) -> None:
        self.store.close()
