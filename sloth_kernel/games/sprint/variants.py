"""Sprint! in the variant lab: exact win chances (no simulation) for three lifting skills."""

from __future__ import annotations

import dataclasses
from typing import Any

from sloth_kernel.analysis.variants import Variants

SPRINT_SIGMAS: tuple[float, ...] = (0.1, 0.2, 0.3)


def _sprint(options: dict[str, Any]) -> dict[str, float]:
    from sloth_kernel.games.sprint.engine import SprintConfig
    from sloth_kernel.games.sprint.odds import win_probability
    from sloth_kernel.games.sprint.skill import GaussianLifter

    config = dataclasses.replace(SprintConfig(), **options)
    config.validate()
    return {f"win chance, skill {s:g}": win_probability(GaussianLifter(s, -1.0), config) for s in SPRINT_SIGMAS}


VARIANTS = Variants(
    {"young_tortoise": (False, True), "small_track": (False, True), "track_length": (18, 24, 30, 36, 48)},
    exact=_sprint,
    exact_label="chance the table wins (exact)",
    labels={"young_tortoise": "Young Tortoise variant", "small_track": "small track", "track_length": "finish square"},
)
