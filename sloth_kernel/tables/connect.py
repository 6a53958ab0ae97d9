"""Which store: :func:`open_store` reads an address, or ``SLOTH_TABLES``.

Nothing, a path or ``sqlite:///path`` means SQLite; ``redis://...`` Redis; ``postgresql://...``
PostgreSQL. (Its own module, so that the store's interface never imports its backends.)
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from sloth_kernel.errors import shorten
from sloth_kernel.tables.errors import TableError
from sloth_kernel.tables.store import ENV, MAX_OPEN_ENV, MAX_OPEN_TABLES, TableStore, describe


def max_open_tables() -> int:
    """``SLOTH_TABLES_MAX_OPEN`` (a whole number from 1), else :data:`MAX_OPEN_TABLES`."""
    text = os.environ.get(MAX_OPEN_ENV, "").strip()
    if not text:
        return MAX_OPEN_TABLES
    if not text.isdigit() or not 0 < len(text) <= 9 or int(text) < 1:
        raise TableError(
            f"{MAX_OPEN_ENV} is how many tables a store keeps open, a whole number from 1, not {shorten(text)}",
            value=shorten(text),
        )
    return int(text)


def default_sqlite_path() -> Path:
    """The SQLite file when SLOTH_TABLES is not set: ``tables.sqlite3`` in the user's data directory."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "sloth-kernel" / "tables.sqlite3"


def open_store(url: str | None = None, *, create: bool = False) -> TableStore:
    """The store at `url`, else at ``$SLOTH_TABLES``, else the SQLite file :func:`default_sqlite_path`.

    ``redis://`` / ``rediss://`` / ``unix://`` addresses use Redis, ``postgresql://`` / ``postgres://``
    PostgreSQL (both need the ``tables`` extra); ``sqlite:///path`` (``sqlite:////abs/path``) or a plain
    path SQLite. A SQLite file is made only when the first table is created in it, or now with
    `create` (for what will keep tables in it: a play page's game, a class); every other call on a
    path with no file raises :class:`StoreMissingError`.

    The store refuses a new table while ``SLOTH_TABLES_MAX_OPEN`` (default 500) are open.
    """
    cap = max_open_tables()
    store = _open(url, create)
    store.max_open_tables = cap
    return store


def _open(url: str | None, create: bool) -> TableStore:
    if url is None:
        url = os.environ.get(ENV) or ""
    if not isinstance(url, str) or len(url) > 4000 or "\x00" in url:
        raise TableError(f"a table store is a path or a URL, not {shorten(url)}", value=shorten(url))
    scheme = url.partition("://")[0].lower() if "://" in url else ""
    if scheme in ("redis", "rediss", "unix"):
        from sloth_kernel.tables.redis_store import RedisStore

        return RedisStore(url)
    if scheme in ("postgresql", "postgres"):
        from sloth_kernel.tables.postgres_store import PostgresStore

        return PostgresStore(url)
    from sloth_kernel.tables.sqlite_store import SqliteStore

    if scheme == "sqlite":  # as SQLAlchemy writes them: sqlite:///relative/file, sqlite:////absolute/file
        path = url[len("sqlite:///") :]
        if not url.lower().startswith("sqlite:///") or not path:
            raise TableError(f"a SQLite address is sqlite:///path/to/file, not {shorten(url)}", value=shorten(url))
        return SqliteStore(Path(path), create=create)
    if scheme:
        raise TableError(
            f"{ENV} must be a path, sqlite:///path, redis://... or postgresql://..., not {shorten(describe(url))}",
            value=shorten(describe(url)),
        )
    if url:
        return SqliteStore(Path(url).expanduser(), create=create)
    return SqliteStore(default_sqlite_path(), private=True, create=create)  # its folder 0700
