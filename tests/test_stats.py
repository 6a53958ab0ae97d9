"""The one interval of a proportion (``sloth_kernel.stats.wilson_interval``), against independent answers."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sloth_kernel import SlothKernelError
from sloth_kernel.stats import IntervalError, wilson_bars, wilson_interval

# Newcombe (1998), "Two-sided confidence intervals for the single proportion", Statistics in
# Medicine 17, Table I, method 3 (the Wilson score interval without continuity correction), z = 1.96.
NEWCOMBE = [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
]


@pytest.mark.parametrize(("wins", "n", "low", "high"), NEWCOMBE)
def test_the_published_wilson_intervals(wins: int, n: int, low: float, high: float) -> None:
    got = wilson_interval(wins, n, z=1.96)
    assert (round(got[0], 4), round(got[1], 4)) == (low, high)


@pytest.mark.parametrize("n", [1, 2, 5, 20, 1000])
def test_none_and_all_have_closed_forms(n: int) -> None:
    """0 of n is [0, z²/(n+z²)] and n of n is [n/(n+z²), 1]: never the single point of the normal approximation."""
    z2 = 1.96**2
    low, high = wilson_interval(0, n, z=1.96)
    assert low == 0.0 and high == pytest.approx(z2 / (n + z2), rel=1e-12) and high > 0
    low, high = wilson_interval(n, n, z=1.96)
    assert high == 1.0 and low == pytest.approx(n / (n + z2), rel=1e-12) and low < 1


@pytest.mark.parametrize(
    ("wins", "n"),
    [(0, 0), (1, 0), (0, -3), (5, 4), (-1, 4), (1, 2.0), (1, True), (math.nan, 4), (math.inf, 4), ("1", 4), (None, 4)],
)
def test_no_trials_or_impossible_counts_are_a_typed_error(wins: Any, n: Any) -> None:
    with pytest.raises(IntervalError) as refused:
        wilson_interval(wins, n)
    assert isinstance(refused.value, SlothKernelError) and "\n" not in str(refused.value)


@pytest.mark.parametrize("z", [0, -1.96, math.nan, math.inf, True, "1.96"])
def test_a_z_that_is_not_a_positive_number_is_refused(z: Any) -> None:
    with pytest.raises(IntervalError):
        wilson_interval(3, 10, z=z)


@given(n=st.integers(1, 10**9), share=st.floats(0, 1), z=st.floats(0.01, 10))
def test_always_within_0_and_1_and_around_the_estimate(n: int, share: float, z: float) -> None:
    wins = share * n  # fractional: a shared win counts its share
    low, high = wilson_interval(wins, n, z)
    assert 0.0 <= low <= wins / n <= high <= 1.0
    assert low < high  # never a single point, not even at 0 of n or n of n


@given(n=st.integers(1, 5000), data=st.data())
def test_agrees_with_scipy(n: int, data: Any) -> None:
    stats = pytest.importorskip("scipy.stats")
    wins = data.draw(st.integers(0, n))
    expected = stats.binomtest(wins, n).proportion_ci(0.95, method="wilson")
    low, high = wilson_interval(wins, n)
    assert low == pytest.approx(expected.low, abs=1e-12) and high == pytest.approx(expected.high, abs=1e-12)


@given(n=st.integers(1, 10**6), data=st.data())
def test_wider_at_more_confidence_and_narrower_with_more_trials(n: int, data: Any) -> None:
    wins = data.draw(st.integers(0, n))
    low95, high95 = wilson_interval(wins, n)
    low99, high99 = wilson_interval(wins, n, z=2.5758)
    assert low99 <= low95 and high95 <= high99
    low4, high4 = wilson_interval(wins * 4, n * 4)
    assert high4 - low4 < high95 - low95


def test_bars_span_the_interval_of_each_rate() -> None:
    below, above = wilson_bars([0.0, 0.3, 1.0], 10)
    for rate, down, up in zip([0.0, 0.3, 1.0], below, above, strict=True):
        low, high = wilson_interval(rate * 10, 10)
        assert rate - down == pytest.approx(low) and rate + up == pytest.approx(high)
    assert below[0] == 0.0 and above[2] == 0.0 and above[0] > 0 and below[2] > 0
    assert wilson_bars([7 / 3 / 7 * 3], 3)  # a rate of 1 after rounding is still a rate of 1
    with pytest.raises(IntervalError):
        wilson_bars([1.5], 10)


# --- every report takes its intervals from the one function ---------------------------------------

ROOT = Path(__file__).resolve().parent.parent


def test_no_module_but_stats_writes_its_own_95_percent_interval() -> None:
    """A proportion's interval computed by hand (p ± 1.96·sqrt(p(1-p)/n)) went past 1 or shrank to a point."""
    own = []
    for folder in (ROOT / "sloth_kernel", ROOT / "widgets"):
        for path in folder.rglob("*.py"):
            if path == ROOT / "sloth_kernel" / "stats.py" or "node_modules" in path.parts:
                continue
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if re.search(r"\b1\.9[56]\d*\b", line):
                    own.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert own == []


def test_a_share_of_every_round_is_not_a_certainty_in_the_analyses() -> None:
    import numpy as np

    from sloth_kernel.games.too_sloth_to_win.analysis import PacemakerStats, pacemaker_view

    stats = PacemakerStats(5, np.array([1.0, 0.0, 0.0]), np.array([0.0, 0.0, 1.0]))
    shown = pacemaker_view(stats)._repr_html_()
    assert "100% (57% to 100%)" in shown and "0% (0% to 43%)" in shown  # Wilson's, for 5 of 5 and 0 of 5
    assert "100% (100% to 100%)" not in shown and "0% (0% to 0%)" not in shown


def test_the_variant_lab_keeps_shares_within_0_and_1() -> None:
    from sloth_kernel.analysis.variants import interval

    assert interval([1.0] * 4) == wilson_interval(4, 4)
    assert interval([0.0, 0.5, 1.0]) == wilson_interval(1.5, 3)
    low, high = interval([20.0, 22.0, 24.0])  # moves per round: not a share, the mean's interval
    assert low < 22.0 < high and high > 1
