"""Sprint! bots: simulated lifters (SP-7). They read only a SprintObservation.

A person cannot count the cards, so every bot here lifts with a skill model
(``sprint_skill``): it aims at some count and misses by a Gaussian error of
skill ``sigma``. The levels differ only in where they aim:

- ``heuristic``: one card low (offset -1), because going over scores 0 (SP-4);
- ``expert``: the single offset the exact solver finds best for its sigma;
- ``master``: the exact solver's best offset for every position and Objective
  (it aims bolder when the Hare is close to the finish, and low when a short
  lift is enough to finish).
"""

from __future__ import annotations

import dataclasses
import random
from functools import lru_cache
from typing import ClassVar

from sloth_kernel.bots.options import check_bot_options
from sloth_kernel.games.sprint.engine import Lift, SprintConfig, SprintObservation, lift_move
from sloth_kernel.games.sprint.odds import AIM_OFFSETS, AimPolicy, optimal_offset, optimal_policy
from sloth_kernel.games.sprint.skill import ERROR_SHAPES, ErrorShape, GaussianLifter, draw_lift

DEFAULT_SIGMA = 0.15  # a fair adult: a typical miss of 15% of the aim


class LifterBot:
    """Aim at ``objective + offset``; lift with relative Gaussian error ``sigma`` (SP-7)."""

    name = "heuristic"
    title = "Lou"
    blurb = "aims one card below the Objective, since going over scores nothing; its hand is not steady"
    option_ranges: ClassVar[dict[str, tuple[float, float]]] = {
        # the widest skill: a typical miss of twice the aim (relative), or 2 cards (absolute)
        "sigma": (0.0, 2.0),
        # the aim offsets the solvers choose among: -8 to +3 cards
        "offset": (AIM_OFFSETS[0], AIM_OFFSETS[-1]),
    }
    """The one declaration of the Sprint! bots' option ranges (``make_bot`` and ``__init__`` check them)."""
    option_choices: ClassVar[dict[str, tuple[str, ...]]] = {"error": ERROR_SHAPES}
    option_help: ClassVar[dict[str, str]] = {
        "sigma": "the lifter's typical miss; 0 lifts exactly",
        "offset": "cards above the Objective the lifter aims at",
        "error": "the shape of the lifter's miss",
    }

    def __init__(
        self, seed: int | None = 0, sigma: float = DEFAULT_SIGMA, offset: float = -1.0, error: ErrorShape = "relative"
    ) -> None:
        check_bot_options(LifterBot, sigma=sigma, offset=offset, error=error)
        self.rng = random.Random(seed)
        self.sigma = sigma
        self.error = error
        self.model = GaussianLifter(sigma, offset, error)

    def choose(self, obs: SprintObservation) -> Lift:
        if not obs.legal_moves or obs.objective is None:
            raise ValueError("the observation offers no legal moves (not this seat's turn?)")
        model = self.model_for(obs.config)
        count = draw_lift(model, obs.objective, obs.config.max_lift, self.rng.random(), obs.tortoise, obs.hare)
        return lift_move(count)

    def model_for(self, config: SprintConfig) -> GaussianLifter | AimPolicy:
        return self.model


class ExpertBot(LifterBot):
    """Same hands as the heuristic bot, but aims at the exact solver's best offset for its sigma."""

    name = "expert"
    title = "Esme"
    blurb = "aims where the exact odds say is best for how steady its hand is"
    option_ranges: ClassVar[dict[str, tuple[float, float]]] = {"sigma": LifterBot.option_ranges["sigma"]}

    def __init__(self, seed: int | None = 0, sigma: float = DEFAULT_SIGMA, error: ErrorShape = "relative") -> None:
        super().__init__(seed, sigma, 0.0, error)

    def model_for(self, config: SprintConfig) -> GaussianLifter:
        offset, _ = best_offset(self.sigma, self.error, _rules_only(config))
        return GaussianLifter(self.sigma, offset, self.error)


class MasterBot(LifterBot):
    """Same hands, but picks its aim per position and Objective from the exact optimal policy."""

    name = "master"
    title = "Max"
    blurb = "picks its aim for each position and Objective from the exact best plan"
    option_ranges: ClassVar[dict[str, tuple[float, float]]] = {"sigma": LifterBot.option_ranges["sigma"]}

    def __init__(self, seed: int | None = 0, sigma: float = DEFAULT_SIGMA, error: ErrorShape = "relative") -> None:
        super().__init__(seed, sigma, 0.0, error)

    def model_for(self, config: SprintConfig) -> AimPolicy:
        return best_policy(self.sigma, self.error, _rules_only(config))


def _rules_only(config: SprintConfig) -> SprintConfig:
    """The seat count does not change the odds; drop it so caches are shared."""
    return dataclasses.replace(config, players=1)


@lru_cache(maxsize=64)
def best_offset(sigma: float, error: ErrorShape, config: SprintConfig) -> tuple[float, float]:
    return optimal_offset(sigma, config, error)


@lru_cache(maxsize=16)
def best_policy(sigma: float, error: ErrorShape, config: SprintConfig) -> AimPolicy:
    return optimal_policy(sigma, config, error)


BOTS = {"heuristic": LifterBot, "expert": ExpertBot, "master": MasterBot}
