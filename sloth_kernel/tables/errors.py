"""Typed errors of the shared tables. Each is a SlothKernelError (so a ValueError).

A refusal changes nothing in the store: no move, no seat, no table is written.
"""

from __future__ import annotations

from typing import Any

from sloth_kernel.errors import SlothKernelError, counted


class TableError(SlothKernelError):
    """A table, a seat, a token, a move or a store address was refused; nothing changed."""


class TableNotFoundError(TableError):
    """No table has this id (it was never created, or the store is another one)."""


class TableClosedError(TableError):
    """The table is closed (or paused): it takes no more moves."""


class SeatTokenError(TableError):
    """A seat's or the teacher's token is missing or wrong. The message never repeats the token."""


class TableMoveError(TableError):
    """A move the game refuses at this table: not a move, not this seat's turn, or against the rules.

    ``explanation`` is the game's Explanation when the rules refused it (else None).
    """

    def __init__(self, message: str, *, explanation: Any = None, value: str | None = None) -> None:
        self.explanation = explanation
        super().__init__(message, value=value)


class TableMovedOnError(TableError):
    """Another page moved first: the table's version is no longer the one this move was made at.

    ``expected`` is the version the move was made at and ``version`` the table's version now;
    the page reloads the table and shows the move that was made.
    """

    def __init__(self, table: str, expected: int, version: int) -> None:
        self.table = table
        self.expected = expected
        self.version = version
        super().__init__(
            f"the table moved on: this page saw {counted(expected, 'move')} played, "
            f"and the table has {counted(version, 'move')} now",
            value=str(expected),
        )


class StoreError(TableError):
    """The table store itself failed: a server that does not answer, a file that cannot be read or
    written, a damaged file, a file deleted or replaced under the page. The sentence says which.

    Nothing was written by the call that failed; a page shows ``public`` (the same news without
    the store's address or path, which stay on the server) and tries again.
    """

    public: str = "the table store is not answering just now"

    def __init__(self, message: str = "", *, value: str | None = None, public: str | None = None) -> None:
        super().__init__(message, value=value)
        if public is not None:
            self.public = public


class StoreMissingError(StoreError):
    """There is no table store at this path: only creating a table makes one."""

    public = "there is no table store where this server looks for it"


class StoreFullError(TableError):
    """The store holds as many open tables as it may (``SLOTH_TABLES_MAX_OPEN``): close some first."""
