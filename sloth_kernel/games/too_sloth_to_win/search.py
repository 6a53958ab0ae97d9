"""Too Sloth To Win for ISMCTS: worlds from the engine's sampler, rollout horizon and values."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Mapping
from typing import Any

from sloth_kernel.bots.determinize import SearchSpec
from sloth_kernel.games.too_sloth_to_win.engine import TooSlothState, TooSlothToWin


def prepare_too_sloth(obs: Any, options: Mapping[str, Any]) -> Callable[[random.Random], TooSlothState]:
    """Sampler of Too Sloth To Win worlds consistent with `obs` (TS-15: hands, undealt cards, deck order hidden)."""
    return TooSlothToWin.world_sampler(obs, options)


def too_sloth_value(state: TooSlothState) -> tuple[float, ...]:
    """Win chances at a round break: a softmax of chips (and trophies as tie-breaks), flatter with more rounds to go."""
    rounds_left = state.cfg.rounds - state.round
    sharpness = 2.5 / rounds_left
    scores = [sharpness * (c + 0.3 * t) for c, t in zip(state.chips, state.trophies, strict=True)]
    top = max(scores)
    weights = [math.exp(s - top) for s in scores]
    total = sum(weights)
    return tuple(w / total for w in weights)


def too_sloth_round(state: TooSlothState) -> Hashable:
    return state.round


def search_spec() -> SearchSpec:
    return SearchSpec(prepare_too_sloth, horizon=too_sloth_round, value=too_sloth_value, iterations=150)
