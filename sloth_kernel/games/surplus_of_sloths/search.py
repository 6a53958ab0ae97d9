"""Surplus of Sloths for ISMCTS: worlds from the engine's sampler (random rollouts to the end)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from sloth_kernel.bots.determinize import SearchSpec
from sloth_kernel.games.surplus_of_sloths.engine import SurplusOfSloths, SurplusState


def prepare_surplus(obs: Any, options: Mapping[str, Any]) -> Callable[[random.Random], SurplusState]:
    """Sampler of Surplus of Sloths worlds consistent with `obs` (SS-11: kept cards, hidden picks, deck order)."""
    return SurplusOfSloths.world_sampler(obs, options)


def search_spec() -> SearchSpec:
    return SearchSpec(prepare_surplus, iterations=200)
