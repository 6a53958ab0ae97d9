"""Determinization for ISMCTS: sample a full game state consistent with one seat's observation.

Each game's spec names a ``search`` factory returning a :class:`SearchSpec`: a preparer that
reads an observation once and returns a fast world sampler (every card the viewer cannot see
dealt at random, respecting what is publicly known, with a fresh random seed so future
shuffles are unknown too), plus the game's rollout policy, horizon and value estimate. The
honesty tests check ``determinize(obs).observation(seat) == obs`` for every game.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Hashable

from sloth_kernel.core import GameState
from sloth_kernel.registry import load_game

Sampler = Callable[[random.Random], GameState]
Preparer = Callable[[Any, dict[str, Any]], Sampler]
"""Reads an observation once (the slow part) and returns a fast world sampler."""


def random_step(state: Any, rng: random.Random) -> None:
    """Default rollout policy: one uniformly random legal move."""
    moves = state.legal_moves()
    state.apply_unchecked(moves[rng.randrange(len(moves))])


def no_horizon(state: Any) -> Hashable:
    return None


def share_value(state: Any) -> tuple[float, ...]:
    n = state.game.num_players
    return (1.0 / n,) * n


@dataclass(frozen=True)
class SearchSpec:
    """What ISMCTS needs to know about one game."""

    prepare: Preparer
    rollout: Callable[[Any, random.Random], None] = random_step
    horizon: Callable[[Any], Hashable] = no_horizon
    """Rollouts stop once this value changes (e.g. the round number)."""
    value: Callable[[Any], tuple[float, ...]] = share_value
    """Estimated returns of a state reached at the horizon (not over)."""
    iterations: int = 0
    """Default budget for the game (0: the bot's default)."""
    delegate: Callable[[Any], bool] | None = None
    """Decisions (by observation) left to the game's heuristic bot instead of searched."""


@lru_cache(maxsize=64)
def _cached_game(name: str, options: tuple[tuple[str, Any], ...]) -> Any:
    return load_game(name, **dict(options))


def game_for(name: str, options: dict[str, Any]) -> Any:
    return _cached_game(name, tuple(sorted(options.items())))


def fresh_world_seed(rng: random.Random) -> int:
    return rng.getrandbits(32)


# --- lookup -------------------------------------------------------------------------


@lru_cache(maxsize=None)
def search_spec(game_name: str) -> SearchSpec:
    """The game's search spec, from its GameSpec's ``search`` reference."""
    from sloth_kernel.registry import game_spec

    factory = game_spec(game_name).load(game_spec(game_name).search)
    if factory is None:
        raise ValueError(f"no determinizer for {game_name!r} yet")
    spec: SearchSpec = factory()
    return spec


def searchable(game_name: str) -> bool:
    """Whether the game has a determinizer, hence an ISMCTS level."""
    from sloth_kernel.registry import game_spec

    return game_spec(game_name).search is not None


def determinize(obs: Any, rng: random.Random, options: dict[str, Any] | None = None) -> Any:
    """A world consistent with `obs`, for any game with a determinizer."""
    return search_spec(obs.game).prepare(obs, options or {})(rng)
