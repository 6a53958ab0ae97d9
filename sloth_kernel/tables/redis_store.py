"""The Redis table store (``SLOTH_TABLES=redis://host:6379/0``; needs the ``tables`` extra: redis-py).

Every write that checks something is one Lua script, which Redis runs atomically: a commit reads
the version, appends the move, bumps the version and publishes it on the table's channel in one
step. Pages wait on that channel (pub/sub), with polling as the fallback.

Durability is the server's: run Redis with ``appendonly yes`` and ``appendfsync always`` so that
an acknowledged move is on disk (see docs/tables.md).

Keys, under ``sloth:``: ``table:ID`` (a hash: game, options, seed, seats, teacher, status,
version, created), ``table:ID:moves`` (a list), ``table:ID:hb:SEAT`` (expiring heartbeats),
``table:ID:lease:SEAT`` (expiring bot leases), ``tables`` (a sorted set of ids by creation);
channel ``sloth:table:ID``.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from typing import Any

from sloth_kernel.tables.errors import StoreError, TableClosedError, TableError, TableMovedOnError, TableNotFoundError
from sloth_kernel.tables.store import (
    DAMAGED,
    POLL_SECONDS,
    Seat,
    TableRow,
    TableStore,
    checked_row,
    damaged,
    describe,
    first_line,
    full_error,
    missing_extra,
    server_fault,
)

try:
    import redis
except ImportError as err:  # pragma: no cover - the tables extra is installed in development
    raise missing_extra("redis-py", err) from err

PREFIX = "sloth:"

CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local open = 0
for _, id in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
    if redis.call('HGET', ARGV[8] .. id, 'status') ~= 'closed' then open = open + 1 end
end
if open >= tonumber(ARGV[9]) then return -open end
redis.call('HSET', KEYS[1], 'game', ARGV[1], 'options', ARGV[2], 'seed', ARGV[3], 'seats', ARGV[4],
           'teacher', ARGV[5], 'status', 'open', 'version', 0, 'created', ARGV[6])
redis.call('ZADD', KEYS[2], ARGV[6], ARGV[7])
return 1
"""

COMMIT = """
local state = redis.call('HMGET', KEYS[1], 'version', 'status')
if not state[1] then return {-1, 0} end
if state[2] ~= 'open' then return {-2, state[2]} end
local version = tonumber(state[1])
if version ~= tonumber(ARGV[1]) then return {-3, version} end
redis.call('RPUSH', KEYS[2], ARGV[2])
version = redis.call('HINCRBY', KEYS[1], 'version', 1)
redis.call('PUBLISH', KEYS[3], version)
return {version, 0}
"""

STATUS = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'status', ARGV[1])
redis.call('PUBLISH', KEYS[2], redis.call('HGET', KEYS[1], 'version'))
return 1
"""

HEARTBEAT = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('SET', KEYS[2], '1', 'PX', ARGV[1])
return 1
"""

LEASE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
local holder = redis.call('GET', KEYS[2])
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
return 1
"""

RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
"""


def _key(table: str, *parts: object) -> str:
    return PREFIX + ":".join(["table", table, *map(str, parts)])


class RedisStore(TableStore):
    """Tables in a Redis server."""

    faults = (redis.RedisError, *DAMAGED)

    def __init__(self, url: str) -> None:
        self.url = url
        try:
            self._redis = redis.Redis.from_url(url, decode_responses=True, socket_connect_timeout=5)
            self._redis.ping()
        except (redis.RedisError, ValueError) as err:
            raise StoreError(
                f"the table store {describe(url)} cannot be reached (is its server running?): {first_line(err)}",
                value=describe(url),
            ) from err
        self._scripts = {
            name: self._redis.register_script(text)
            for name, text in {
                "create": CREATE,
                "commit": COMMIT,
                "status": STATUS,
                "heartbeat": HEARTBEAT,
                "lease": LEASE,
                "release": RELEASE,
            }.items()
        }
        self._lock = threading.Lock()

    def fault(self, err: BaseException) -> StoreError:
        return server_fault(
            self.url, err, (redis.ConnectionError, redis.TimeoutError), starting=(redis.BusyLoadingError,)
        )

    def _run(self, name: str, keys: list[str], args: list[Any]) -> Any:
        try:
            return self._scripts[name](keys=keys, args=args)
        except redis.RedisError as err:
            raise self.fault(err) from err

    def _missing(self, table: str) -> TableNotFoundError:
        return TableNotFoundError(f"there is no table {table!r}", value=table)

    def _create(self, row: TableRow) -> None:
        made = self._run(
            "create",
            [_key(row.table), PREFIX + "tables"],
            [
                row.game,
                row.options_json(),
                str(row.seed),
                row.seats_json(),
                row.teacher_hash,
                repr(row.created),
                row.table,
                PREFIX + "table:",
                self.max_open_tables,
            ],
        )
        if made < 0:
            raise full_error(-made, self.max_open_tables)
        if not made:
            raise TableError(f"a table {row.table!r} exists already", value=row.table)

    def _load(self, table: str) -> TableRow:
        try:
            with self._redis.pipeline(transaction=True) as pipe:  # MULTI: one snapshot
                pipe.hgetall(_key(table))
                pipe.lrange(_key(table, "moves"), 0, -1)
                found, moves = pipe.execute()
        except redis.RedisError as err:
            raise self.fault(err) from err
        if not found:
            raise self._missing(table)
        try:
            return checked_row(
                TableRow(
                    table=table,
                    game=found["game"],
                    options=json.loads(found["options"]),
                    seed=int(found["seed"]),
                    seats=tuple(Seat.from_json(seat) for seat in json.loads(found["seats"])),
                    teacher_hash=found["teacher"],
                    status=found["status"],
                    moves=tuple(moves[: int(found["version"])]),
                    created=float(found["created"]),
                )
            )
        except DAMAGED as err:
            raise damaged(table) from err

    def _state_of(self, table: str) -> tuple[int, str]:
        try:
            version, status = self._redis.hmget(_key(table), ["version", "status"])
        except redis.RedisError as err:
            raise self.fault(err) from err
        if version is None:
            raise self._missing(table)
        try:
            return int(version), str(status)
        except DAMAGED as err:
            raise damaged(table) from err

    def _state(self, table: str) -> tuple[int, str]:
        return self._state_of(table)

    def _commit(self, table: str, expected: int, move: str) -> int:
        code, detail = self._run("commit", [_key(table), _key(table, "moves"), _key(table)], [expected, move])
        if code == -1:
            raise self._missing(table)
        if code == -2:
            raise TableClosedError(f"the table {table!r} is {detail}: it takes no moves now", value=table)
        if code == -3:
            raise TableMovedOnError(table, expected, int(detail))
        return int(code)

    def _set_status(self, table: str, status: str) -> None:
        if not self._run("status", [_key(table), _key(table)], [status]):
            raise self._missing(table)

    def _table_ids(self) -> list[str]:
        try:
            return [str(table) for table in self._redis.zrange(PREFIX + "tables", 0, -1)]
        except redis.RedisError as err:
            raise self.fault(err) from err

    def _heartbeat(self, table: str, seat: int) -> None:
        ms = int(self.heartbeat_seconds * 1000)
        if not self._run("heartbeat", [_key(table), _key(table, "hb", seat)], [ms]):
            raise self._missing(table)

    def _seated(self, table: str, seats: int) -> list[int]:
        self._state_of(table)
        try:
            with self._redis.pipeline(transaction=False) as pipe:
                for seat in range(seats):
                    pipe.exists(_key(table, "hb", seat))
                found = pipe.execute()
        except redis.RedisError as err:
            raise self.fault(err) from err
        return [seat for seat, there in enumerate(found) if there]

    def _acquire_lease(self, table: str, seat: int, holder: str, seconds: float) -> bool:
        got = self._run("lease", [_key(table), _key(table, "lease", seat)], [holder, max(1, int(seconds * 1000))])
        if got == -1:
            raise self._missing(table)
        return bool(got)

    def _release_lease(self, table: str, seat: int, holder: str) -> None:
        self._run("release", [_key(table, "lease", seat)], [holder])

    def _wait(self, table: str, after: int, timeout: float) -> int:
        deadline = time.monotonic() + timeout
        try:
            pubsub = self._redis.pubsub(ignore_subscribe_messages=True)  # type: ignore[no-untyped-call]
            pubsub.subscribe(_key(table))
        except redis.RedisError:
            return self._poll(table, after, deadline)
        try:
            start = self._state_of(table)  # after subscribing: a change from now on is not missed
            if start[0] != after:
                return start[0]
            while (left := deadline - time.monotonic()) > 0:
                message = pubsub.get_message(timeout=left)
                if message is not None:
                    now = self._state_of(table)
                    if now != start:
                        return now[0]
            return after
        except redis.RedisError:
            return self._poll(table, after, deadline)
        finally:
            with contextlib.suppress(redis.RedisError):
                pubsub.close()

    def _poll(self, table: str, after: int, deadline: float) -> int:
        start = self._state_of(table)
        while True:
            now = self._state_of(table)
            if now[0] != after or now != start:
                return now[0]
            if time.monotonic() >= deadline:
                return after
            time.sleep(POLL_SECONDS)

    def close(self) -> None:
        self._redis.close()
