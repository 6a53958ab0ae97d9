"""Shared tables: several browsers (or programs) at one game, through a store.

``open_store()`` picks the store from ``SLOTH_TABLES`` (SQLite by default; Redis or PostgreSQL
with the ``tables`` extra); ``Tables(store)`` creates tables, seats pages by token, judges and
commits moves at a version, and plays bot seats under a lease. See docs/tables.md.
"""

from __future__ import annotations

from sloth_kernel.tables.connect import open_store
from sloth_kernel.tables.errors import (
    SeatTokenError,
    StoreError,
    StoreFullError,
    StoreMissingError,
    TableClosedError,
    TableError,
    TableMovedOnError,
    TableMoveError,
    TableNotFoundError,
)
from sloth_kernel.tables.follow import Follower
from sloth_kernel.tables.store import ENV, HEARTBEAT_SECONDS, Seat, TableRow, TableStore
from sloth_kernel.tables.table import (
    CreatedTable,
    SeatHandle,
    SeatLink,
    Snapshot,
    Tables,
    TableSummary,
    TeacherHandle,
    default_holder,
)

__all__ = [
    "ENV",
    "HEARTBEAT_SECONDS",
    "CreatedTable",
    "Follower",
    "Seat",
    "SeatHandle",
    "SeatLink",
    "SeatTokenError",
    "Snapshot",
    "StoreError",
    "StoreFullError",
    "StoreMissingError",
    "TableClosedError",
    "TableError",
    "TableMoveError",
    "TableMovedOnError",
    "TableNotFoundError",
    "TableRow",
    "TableStore",
    "TableSummary",
    "Tables",
    "TeacherHandle",
    "default_holder",
    "open_store",
]
