"""A fixed global action index per game, and fixed-size observation features.

Frameworks such as OpenSpiel and PettingZoo number actions ``0..A-1`` once and
for all. :func:`all_moves` enumerates every move a game (with its config) can
ever offer, in a fixed order, so a move's index never changes during a game.

:func:`features` turns an observation into a fixed-size 0/1 vector by feature
hashing: every field (and item of a tuple field) becomes a token
``"name[i]=value"`` hashed with CRC-32 into one of ``FEATURE_SIZE`` slots. The
log is left out (it only narrates what the other fields already say).
"""

from __future__ import annotations

import dataclasses
import zlib
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np

from sloth_kernel.core import Game, Move

FEATURE_SIZE = 1024
MAX_SEATS = 20  # the seat one-hot's width: the most players a game may seat through the bridges


def all_moves(game: Game[Any, Any]) -> list[Move]:
    """Every move the game can offer, in a fixed order (the global action index)."""
    try:
        return game.all_moves()
    except NotImplementedError as err:
        raise ValueError(f"no action enumeration for {game.name!r}") from err


class ActionIndex:
    """Moves <-> indices for one loaded game."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self.moves = all_moves(game)
        self.index = {move: i for i, move in enumerate(self.moves)}
        if len(self.index) != len(self.moves):
            raise ValueError(f"{game.name}: the move enumeration has duplicates")

    def __len__(self) -> int:
        return len(self.moves)

    def of(self, move: Move) -> int:
        return self.index[move]

    def legal(self, moves: Iterable[Move]) -> list[int]:
        return sorted(self.index[m] for m in moves)

    def mask(self, moves: Iterable[Move]) -> np.ndarray:
        mask = np.zeros(len(self.moves), dtype=np.int8)
        for move in moves:
            mask[self.index[move]] = 1
        return mask


def tokens(name: str, value: Any) -> Iterator[str]:
    """Flatten one field into ``name=value`` tokens (tuples by position, dataclasses by field)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type) and not isinstance(value, Move):
        for field in dataclasses.fields(value):
            yield from tokens(f"{name}.{field.name}", getattr(value, field.name))
    elif isinstance(value, (tuple, list)):
        yield f"{name}#={len(value)}"
        for i, item in enumerate(value):
            yield from tokens(f"{name}[{i}]", item)
    else:
        yield f"{name}={value}"


SKIPPED_FIELDS = ("log", "legal_moves", "game")


def observation_text(observation: Any) -> str:
    """The observation as one line of text (no log): what a seat knows right now."""
    parts = [
        f"{field.name}={getattr(observation, field.name)!s}"
        for field in dataclasses.fields(observation)
        if field.name not in SKIPPED_FIELDS
    ]
    return "; ".join(parts)


def features(observation: Any, out: np.ndarray | None = None) -> np.ndarray:
    """Fixed-size 0/1 features of an observation (feature hashing, see module docs)."""
    vector = np.zeros(FEATURE_SIZE, dtype=np.float32) if out is None else out
    vector.fill(0)
    for field in dataclasses.fields(observation):
        if field.name in SKIPPED_FIELDS:
            continue
        for token in tokens(field.name, getattr(observation, field.name)):
            vector[zlib.crc32(token.encode()) % FEATURE_SIZE] = 1.0
    return vector
