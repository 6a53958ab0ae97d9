"""A page's background duties at a shared table, in one thread: :class:`Follower`.

While a seat's (or the watch's or the teacher's) page is open, its kernel must renew the seat's
heartbeat, play any bot seat whose turn comes up (under the seat's lease, so that one page plays
it), and redraw when the table changes. A Follower does all three with its own store connection
(a store object serves one waiting thread at a time):

.. code-block:: python

    follower = Follower(table_id, on_change=redraw, seat=seat.seat, url=None)  # url None: SLOTH_TABLES
    follower.start()
    ...
    follower.stop()

``on_change(version, status)`` is called from the follower's thread after every change it sees
(a move, a pause, a close), never for a change the page made itself before it started.
``on_trouble(error)`` is called when the store starts failing (a :class:`TableError` with a
sentence) and ``on_trouble(None)`` when it answers again: the follower never stops on a store's
failure, it tries again every half second.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from sloth_kernel.tables.connect import open_store
from sloth_kernel.tables.errors import StoreError, TableError
from sloth_kernel.tables.table import LEASE_SECONDS, Tables, default_holder

log = logging.getLogger(__name__)

BEAT_SECONDS = 1.0
"""How often a follower renews its seat's heartbeat (a seat is seated for HEARTBEAT_SECONDS)."""


class Follower(threading.Thread):
    """Heartbeats, bot seats and change notices for one page, until :meth:`stop`."""

    def __init__(
        self,
        table: str,
        on_change: Callable[[int, str], None],
        *,
        seat: int | None = None,
        url: str | None = None,
        holder: str | None = None,
        play_bots: bool = True,
        beat_seconds: float = BEAT_SECONDS,
        lease_seconds: float = LEASE_SECONDS,
        on_trouble: Callable[[TableError | None], None] | None = None,
    ) -> None:
        super().__init__(name=f"sloth-table-{table}", daemon=True)
        self.table = table
        self.on_change = on_change
        self.seat = seat
        self.url = url
        self.holder = holder or default_holder()
        self.play_bots = play_bots
        self.beat_seconds = beat_seconds
        self.lease_seconds = lease_seconds
        self.on_trouble = on_trouble
        self.last_error: TableError | None = None
        """The store's newest refusal or failure (the follower carries on: a server may come back)."""
        self._stopping = threading.Event()

    def stop(self, timeout: float = 5.0) -> None:
        self._stopping.set()
        if self.is_alive():
            self.join(timeout)

    def run(self) -> None:
        store = None
        tables = None
        seen: tuple[int, str] | None = None
        next_beat = 0.0
        while not self._stopping.is_set():
            try:
                if store is None or tables is None or seen is None:
                    if store is None:
                        store = open_store(self.url)
                    tables = Tables(store)
                    seen = store.state(self.table)
                if self.seat is not None and time.monotonic() >= next_beat:
                    store.heartbeat(self.table, self.seat)
                    next_beat = time.monotonic() + self.beat_seconds
                if self.play_bots:
                    tables.play_bots(self.table, self.holder, lease_seconds=self.lease_seconds)
                # wake for a change, or in time for the next heartbeat
                until_beat = next_beat - time.monotonic() if self.seat is not None else self.beat_seconds
                store.wait(self.table, seen[0], min(self.beat_seconds, max(0.05, until_beat)))
                now = store.state(self.table)
                if now != seen or self.last_error is not None:  # after a failure the page reads again
                    self.on_change(*now)
                    seen = now
            except TableError as err:
                self._trouble(err)
                continue
            except Exception as err:  # noqa: BLE001 - never die silently: say so, and try again
                log.info("table %s: %s: %s", self.table, type(err).__name__, err)
                self._trouble(TableError("the page could not read the table; trying again"))
                continue
            if self.last_error is not None:
                self.last_error = None
                self._tell(None)
        if store is not None:
            store.close()

    def _trouble(self, err: TableError) -> None:
        """Say a new failure once (the page shows it), then wait and try again."""
        if self.last_error is None or str(self.last_error) != str(err):
            # a warning reaches the kernel's stderr (a page may see it): the sentence without a path
            log.warning("table %s: %s", self.table, err.public if isinstance(err, StoreError) else err)
            log.info("table %s: %s", self.table, err)
            self._tell(err)
        self.last_error = err
        self._stopping.wait(0.5)

    def _tell(self, trouble: TableError | None) -> None:
        if self.on_trouble is None:
            return
        try:
            self.on_trouble(trouble)
        except Exception:  # noqa: BLE001 - the page's own bug: note it and keep following
            log.warning("table %s: the page's on_trouble failed", self.table)
