"""Intervals for proportions (win rates, shares, odds): one function that every report uses.

:func:`wilson_interval` is the Wilson score interval (Wilson 1927): unlike the normal
approximation p ± z·sqrt(p(1-p)/n), it always lies within [0, 1], it is never a single point
(0 wins in 20 games gives 0 to 16%, not "0 to 0"), and it keeps close to its nominal coverage
for small counts and rates near 0 or 1. The arena, the analyses, the variant lab and the lessons
all take their 95% intervals of a proportion from it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from sloth_kernel.errors import SlothKernelError, shorten

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


class IntervalError(SlothKernelError):
    """An interval was asked for counts that make no proportion (no trials, wins beyond the trials)."""


def _real(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise IntervalError(f"{what} must be a number, not {shorten(value)}", value=shorten(value))
    number = float(value)
    if not math.isfinite(number):
        raise IntervalError(f"{what} must be a finite number, not {shorten(value)}", value=shorten(value))
    return number


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval (low, high) of the proportion ``successes / n``.

    `successes` may be fractional: a shared win counts its share, and a mean of scores between 0
    and 1 gives ``successes = mean * n``. `z` is the normal quantile (1.96 for 95%). The result
    always satisfies ``0 <= low <= successes / n <= high <= 1``. Raises :class:`IntervalError` for
    no trials (``n < 1``), a count that is not a whole number, successes outside 0 to n, or a
    `z` that is not a positive finite number.
    """
    if isinstance(n, bool) or not isinstance(n, int):
        raise IntervalError(f"the number of trials must be a whole number, not {shorten(n)}", value=shorten(n))
    if n < 1:
        raise IntervalError(f"an interval needs at least 1 trial, not {n}", value=shorten(n))
    wins = _real(successes, "the number of successes")
    if not 0 <= wins <= n:
        raise IntervalError(f"successes must be from 0 to {n}, the trials, not {shorten(successes)}")
    z = _real(z, "z")
    if z <= 0:
        raise IntervalError(f"z must be more than 0, not {shorten(z)}", value=shorten(z))
    p = wins / n
    z2 = z * z
    scale = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / scale
    half = z / scale * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    low, high = max(0.0, centre - half), min(1.0, centre + half)
    return min(low, p), max(high, p)  # rounding never leaves the estimate outside


def wilson_bars(rates: Iterable[float], n: int, z: float = Z95) -> tuple[list[float], list[float]]:
    """Error-bar lengths (below, above) for each of `rates` measured over `n` trials, as
    matplotlib's ``yerr``/``xerr`` take them: each bar spans its rate's :func:`wilson_interval`."""
    below, above = [], []
    for rate in rates:
        wins = float(rate) * n
        if -1e-9 * n <= wins < 0 or n < wins <= n * (1 + 1e-9):  # a rate of exactly 0 or 1, after rounding
            wins = min(max(wins, 0.0), float(n))
        low, high = wilson_interval(wins, n, z)
        below.append(float(rate) - low)
        above.append(high - float(rate))
    return below, above
