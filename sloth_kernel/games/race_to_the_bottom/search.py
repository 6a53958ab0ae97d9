"""Race to the Bottom for ISMCTS: worlds from the engine's sampler, rollouts and values."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Mapping
from typing import Any

from sloth_kernel.bots.determinize import SearchSpec
from sloth_kernel.games.race_to_the_bottom.engine import DONE, PASS, RaceObservation, RaceState, RaceToTheBottom


def prepare_race(obs: Any, options: Mapping[str, Any]) -> Callable[[random.Random], RaceState]:
    """Sampler of Race to the Bottom worlds consistent with `obs` (RB-11: hands and deck orders hidden)."""
    return RaceToTheBottom.world_sampler(obs, options)


def race_rollout(state: RaceState, rng: random.Random) -> None:
    """Rollout policy: play a random meld when there is one, pass otherwise, pitch nothing."""
    if state.pitching:
        state.apply_unchecked(DONE)
        return
    moves = state.legal_moves()
    plays = [m for m in moves if m is not PASS]
    state.apply_unchecked(plays[rng.randrange(len(plays))] if plays else PASS)


def race_pitching(obs: RaceObservation) -> bool:
    return obs.pitching


RACE_ROLLOUT_DEPTH = 60
"""Rollout moves (tree moves included) before a race position is scored by the cards left."""


def race_depth(state: RaceState) -> Hashable:
    return (state.race, len(state.history) // RACE_ROLLOUT_DEPTH)


def race_value(state: RaceState) -> tuple[float, ...]:
    """Win chances from points so far and cards left to shed: fewer left is better."""
    scores = [
        2.0 * p - state.remaining(s) / 6.0 - (0.0 if not state.out[s] else -3.0) for s, p in enumerate(state.points)
    ]
    top = max(scores)
    weights = [math.exp(s - top) for s in scores]
    total = sum(weights)
    return tuple(w / total for w in weights)


def search_spec() -> SearchSpec:
    return SearchSpec(
        prepare_race, rollout=race_rollout, horizon=race_depth, value=race_value, iterations=60, delegate=race_pitching
    )
