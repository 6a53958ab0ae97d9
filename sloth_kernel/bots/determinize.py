"""Determinization for ISMCTS: sample a full game state consistent with one seat's observation.

Each game's spec names a ``search`` factory returning a :class:`SearchSpec`: a preparer that
reads an observation once and returns a fast world sampler -- a game's own public
``Game.world_sampler`` (every card the viewer cannot see dealt at random, respecting what is
publicly known, with a fresh random seed so future shuffles are unknown too) -- plus the
game's rollout policy, horizon and value estimate. The honesty tests check
``determinize(obs).observation(seat) == obs`` for every game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from sloth_kernel.core import GameState

Sampler = Callable[[random.Random], GameState[Any, Any]]
Preparer = Callable[[Any, Mapping[str, Any]], Sampler]
"""Reads an observation once (the slow part) and returns a fast world sampler."""


def random_step(state: GameState[Any, Any], rng: random.Random) -> None:
    """Default rollout policy: one uniformly random legal move."""
    moves = state.legal_moves()
    state.apply_unchecked(moves[rng.randrange(len(moves))])


def no_horizon(state: GameState[Any, Any]) -> Hashable:
    return None


def share_value(state: GameState[Any, Any]) -> tuple[float, ...]:
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


# --- lookup -------------------------------------------------------------------------


@cache
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


def determinize(obs: Any, rng: random.Random, options: Mapping[str, Any] | None = None) -> GameState[Any, Any]:
    """A world consistent with `obs`, for any game with a determinizer."""
    return search_spec(obs.game).prepare(obs, options or {})(rng)
