"""Simulated lifters for Sprint! (SP-7): how a player's lift misses the Objective.

A person cannot count the cards (SP-7), so a lift is a noisy guess. A model
gives, for the face-up Objective, the probability of each lift count (its
``pmf``). Lifts are drawn by inverse CDF from one uniform number ``u``: the
scalar bots and the numpy simulator use the same tables, so the same ``u``
gives the same lift in both.

Models:

- ``GaussianLifter(sigma, offset, error)``: aim at ``objective + offset`` and
  miss by a Gaussian error, rounded to whole cards and clipped to 1..31.

  * ``"relative"`` (default): lift = round(aim * (1 + sigma * Z)). Big piles are
    harder to judge than small ones, like most human estimates (Weber's law).
  * ``"absolute"``: lift = round(aim + sigma * Z); the miss is sigma cards
    whatever the size. A useful contrast: it makes all Objectives equally hard.
  * ``"two-ended"``: the error scales with the distance to the nearer end of
    the pile, min(aim, 32 - aim): lifting 30 of 32 is as easy as leaving 2.
    It teaches that big Objectives are easier if you judge from the bottom.

  Going over scores 0 (SP-4) while one short still scores 3, so aiming a card
  or two low (offset -1, -2) usually pays; ``sprint_odds.optimal_offset`` finds
  the best offset for a skill sigma.
- ``BlindLifter()``: any count 1..31 with equal chance, the random bot's model.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any, ClassVar, Literal, Protocol

from sloth_kernel.errors import ConfigError
from sloth_kernel.notation import shown

ErrorShape = Literal["relative", "absolute", "two-ended"]
ERROR_SHAPES: tuple[str, ...] = ("relative", "absolute", "two-ended")


class LiftModel(Protocol):
    """What the bots, the exact solver and the simulator need from a model."""

    positional: bool  # True if the lift depends on the Tortoise's and the Hare's squares

    def pmf(self, objective: int, max_lift: int, tortoise: int = 0, hare: int = 0) -> tuple[float, ...]:
        """P(lift = k) for k = 0..max_lift (index = count; index 0 is always 0)."""
        ...


def cdf_of(pmf: tuple[float, ...]) -> tuple[float, ...]:
    """Cumulative sums with the last entry exactly 1.0, so every u in [0, 1) maps to a lift."""
    cdf = list(accumulate(pmf))
    cdf[-1] = 1.0
    return tuple(cdf)


def draw_lift(model: Any, objective: int, max_lift: int, u: float, tortoise: int = 0, hare: int = 0) -> int:
    """The lift for uniform `u` in [0, 1): the first count whose CDF exceeds u."""
    key = (objective, max_lift, tortoise, hare) if model.positional else (objective, max_lift)
    cache: dict[Any, tuple[float, ...]] = model._cdf_cache
    cdf = cache.get(key)
    if cdf is None:
        cdf = cache[key] = cdf_of(model.pmf(objective, max_lift, tortoise, hare))
    return bisect.bisect_right(cdf, u)


def normal_cdf(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def rounded_gaussian_pmf(aim: float, spread: float, max_lift: int) -> tuple[float, ...]:
    """P(clip(round(aim + spread * Z), 1, max_lift) = k) for k = 0..max_lift."""
    if spread <= 0:
        point = min(max(math.floor(aim + 0.5), 1), max_lift)
        return tuple(1.0 if k == point else 0.0 for k in range(max_lift + 1))
    erf, root_2 = math.erf, math.sqrt(2.0)  # normal_cdf inlined (the same operations): the solvers call this most
    below = [0.0] + [0.5 * (1.0 + erf((k + 0.5 - aim) / spread / root_2)) for k in range(1, max_lift)] + [1.0]
    return (0.0,) + tuple(max(0.0, below[k] - below[k - 1]) for k in range(1, max_lift + 1))


@dataclass(frozen=True)
class GaussianLifter:
    """Aim at ``objective + offset``; miss by a Gaussian error of skill ``sigma`` (see module docs).

    sigma is relative (0.15 = a typical miss of 15% of the aim) for the
    "relative" and "two-ended" shapes, and in cards for "absolute". sigma 0 is a
    perfect counter.
    """

    sigma: float = 0.15
    offset: float = -1.0
    error: ErrorShape = "relative"
    positional: ClassVar[bool] = False
    _cdf_cache: dict[Any, tuple[float, ...]] = field(default_factory=dict, compare=False, repr=False)
    _pmf_cache: dict[Any, tuple[float, ...]] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not (isinstance(self.sigma, (int, float)) and self.sigma >= 0 and math.isfinite(self.sigma)):
            raise ConfigError(f"sigma must be a number of 0 or more, not {shown(self.sigma)}")
        if not (isinstance(self.offset, (int, float)) and math.isfinite(self.offset)):
            raise ConfigError(f"offset must be a finite number, not {shown(self.offset)}")
        if self.error not in ERROR_SHAPES:
            raise ConfigError(f"error must be one of {', '.join(ERROR_SHAPES)}, not {shown(self.error)}")

    def aim(self, objective: int) -> float:
        return max(1.0, objective + self.offset)

    def spread(self, aim: float, pile_size: int) -> float:
        """Standard deviation of the lift, in cards."""
        if self.error == "absolute":
            return self.sigma
        if self.error == "two-ended":
            return self.sigma * max(1.0, min(aim, pile_size - aim))
        return self.sigma * aim

    def pmf(self, objective: int, max_lift: int, tortoise: int = 0, hare: int = 0) -> tuple[float, ...]:
        key = (objective, max_lift)
        pmf = self._pmf_cache.get(key)
        if pmf is None:
            aim = self.aim(objective)
            pmf = self._pmf_cache[key] = rounded_gaussian_pmf(aim, self.spread(aim, max_lift + 1), max_lift)
        return pmf

    def lift(self, objective: int, max_lift: int, u: float) -> int:
        return draw_lift(self, objective, max_lift, u)

    def __str__(self) -> str:
        shape = "" if self.error == "relative" else f", {self.error} error"
        return f"sigma {self.sigma:g}, aim {self.offset:+g}{shape}"


@dataclass(frozen=True)
class BlindLifter:
    """Every count 1..max_lift equally likely: no skill at all."""

    positional: ClassVar[bool] = False
    _cdf_cache: dict[Any, tuple[float, ...]] = field(default_factory=dict, compare=False, repr=False)

    def pmf(self, objective: int, max_lift: int, tortoise: int = 0, hare: int = 0) -> tuple[float, ...]:
        return (0.0,) + (1.0 / max_lift,) * max_lift

    def lift(self, objective: int, max_lift: int, u: float) -> int:
        return draw_lift(self, objective, max_lift, u)

    def __str__(self) -> str:
        return "blind (uniform 1..31)"
