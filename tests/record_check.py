"""Every record any test produces fits the record schema and its game's deal schema.

tests/conftest.py wraps ``GameState.to_record`` for the whole session: each record a state
writes is read back by the public checks (``core.read_record``: size, nesting, format, version,
the record schema and the seed; the game's ``check_deal`` for an explicit deal; the spec's
``max_length`` for the moves). A record that does not fit fails the test that made it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from sloth_kernel.core import DEFAULT_MAX_MOVES, GameState, read_record
from sloth_kernel.errors import SlothKernelError


def check_record(state: GameState[Any, Any], record: dict[str, Any]) -> None:
    """AssertionError unless `record` (made by `state`) passes the checks ``replay`` starts with."""
    try:
        read_record(record)
        if record["deal"] is not None:
            state.game.check_deal(record["deal"])
    except SlothKernelError as err:
        raise AssertionError(f"{state!r} wrote a record that does not fit its schemas: {err}") from err
    spec = state.game.spec()
    limit = spec.max_length if spec is not None else DEFAULT_MAX_MOVES
    assert len(record["moves"]) <= limit, f"{state!r} wrote {len(record['moves'])} moves; its spec allows {limit}"


@contextlib.contextmanager
def check_every_record() -> Iterator[None]:
    """While inside, every ``to_record()`` of every game is checked (see :func:`check_record`)."""
    original = GameState.to_record

    def to_record(self: GameState[Any, Any]) -> dict[str, Any]:
        record = original(self)
        check_record(self, record)
        return record

    GameState.to_record = to_record  # type: ignore[method-assign]
    try:
        yield
    finally:
        GameState.to_record = original  # type: ignore[method-assign]
