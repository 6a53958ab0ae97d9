"""The analysis modules behind the notebooks: exact numbers checked by brute force and by the engine."""

from __future__ import annotations

from math import comb

import numpy as np
import pytest

from sloth_kernel.analysis import variants
from sloth_kernel.games.race_to_the_bottom import analysis as rb
from sloth_kernel.games.sprint import analysis as sp
from sloth_kernel.games.surplus_of_sloths import analysis as ss
from sloth_kernel.games.too_sloth_to_win import analysis as ts


def count_vectors(total: int, ranks: int = 13) -> list[tuple[int, ...]]:
    """Every way to hold `total` natural cards, as counts per rank (each 0-4)."""
    if ranks == 0:
        return [()] if total == 0 else []
    return [(c, *rest) for c in range(min(4, total) + 1) for rest in count_vectors(total - c, ranks - 1)]


def holds(counts: tuple[int, ...], jokers: int, width: int, need: int) -> bool:
    ladder = (counts[12], *counts)  # A 2 .. K A
    return any(sum(max(0, need - ladder[p + k]) for k in range(width)) <= jokers for p in range(14 - width + 1))


@pytest.mark.parametrize("hand", [4, 5])
def test_exact_meld_odds_match_brute_force(hand: int) -> None:
    odds = rb.exact_meld_odds(hand)
    weighted = []  # (counts, jokers, number of hands with exactly these counts)
    for jokers in range(3):
        for counts in count_vectors(hand - jokers):
            weight = comb(2, jokers)
            for c in counts:
                weight *= comb(4, c)
            weighted.append((counts, jokers, weight))
    assert sum(w for _, _, w in weighted) == comb(54, hand)
    for label, (width, need) in rb.MELD_NEEDS.items():
        found = sum(w for counts, jokers, w in weighted if holds(counts, jokers, width, need))
        assert odds[label] == pytest.approx(found / comb(54, hand), abs=1e-12), label


def test_engine_deals_agree_with_the_exact_odds() -> None:
    exact = rb.exact_meld_odds()
    simulated = rb.simulated_meld_odds(hands=400, seed=1, show_progress=False)
    for label in ("Triplet", "Run of 4", "Run of 6", "Leap of 4", "any Cheat"):
        assert abs(simulated.odds[label] - exact[label]) < 4 * simulated.std_error(label) + 0.01, label
    assert exact["Caltrops"] < exact["Oil Slick"] < exact["Smokescreen"] == exact["any Cheat"]


def test_sprint_aiming_low_pays_and_exact_matches_simulation() -> None:
    wins = sp.win_vs_offset(0.15)
    best = sp.OFFSETS[int(np.argmax(wins))]
    assert -2 <= best < 0
    curve = sp.win_vs_skill((0.0, 0.1, 0.2, 0.3))
    assert np.all(np.diff(curve) < 0)  # worse lifting, fewer wins
    check = sp.exact_vs_simulated((0.1, 0.3), games=20_000, show_progress=False)
    assert np.all(np.abs(check.exact - check.simulated) < 4 * check.std_error + 0.01)
    assert sp.tortoise_steps(14, [13, 14, 15]) == [3, 4, 0]  # SP-4
    assert sp.expected_steps(0.15, -1) > sp.expected_steps(0.15, 0)


def test_too_sloth_self_play_shares() -> None:
    stats = ts.pacemaker_advantage(games=24, show_progress=False)
    assert stats.trophy.sum() <= 1 + 1e-9 and np.all(stats.chip >= 0)
    timing = ts.drink_timing(thresholds=(0, 9), games=8, show_progress=False)
    assert timing.chip.shape == (2,) and len(timing.spent_at) == 2
    assert all(0 <= lead < 9 for spots in timing.spent_at for lead in spots)


def test_surplus_points_follow_ss9() -> None:
    result = ss.study(games=12, show_progress=False)
    assert result.scores.shape == (12, 3)
    for net in result.nets:
        if net.taken:
            assert net.points == net.number_sum * (1 + net.xs)  # SS-9
        else:
            assert net.points == 0
    lengths, rate, seen = result.claim_rate()
    assert seen.sum() == len(result.runs) and np.all((rate >= 0) & (rate <= 1))
    assert np.allclose(result.winners.sum(axis=1), 1)


@pytest.mark.parametrize(
    "game,option",
    [
        ("too-sloth-to-win", "drinks"),
        ("race-to-the-bottom", "players"),
        ("surplus-of-sloths", "babies"),
        ("sprint", "young_tortoise"),
    ],
)
def test_variant_lab_measures_every_value(game: str, option: str) -> None:
    values = variants.knobs()[game][option][:2]
    result = variants.measure(game, option, values, games=3, show_progress=False)
    assert result.values == values
    for name, numbers in result.metrics.items():
        assert numbers.shape == (2,) and np.all(np.isfinite(numbers)), name


def test_variant_lab_is_seeded() -> None:
    first = variants.measure("too-sloth-to-win", "finish", (6,), games=5, show_progress=False)
    again = variants.measure("too-sloth-to-win", "finish", (6,), games=5, show_progress=False)
    assert all(np.array_equal(first.metrics[k], again.metrics[k]) for k in first.metrics)


def test_young_tortoise_helps_the_table() -> None:
    result = variants.measure("sprint", "young_tortoise", show_progress=False)
    for numbers in result.metrics.values():
        assert numbers[1] > numbers[0]
