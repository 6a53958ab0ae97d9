"""Sprint!: the table's win chance against lifting skill, aiming low, exact against simulated.

Skill is ``sigma``: a lift misses by a Gaussian error of ``sigma`` times the aim
(``sprint_skill.GaussianLifter``, SP-7). ``offset`` is where the table aims
relative to the Objective (-1 = one card low). Exact numbers come from the
Markov chain in ``sprint_odds``; simulated ones from ``sprint_vector``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sloth_kernel.analysis import progress
from sloth_kernel.games.sprint.engine import SprintConfig, tortoise_move
from sloth_kernel.games.sprint.odds import optimal_offset, win_probability
from sloth_kernel.games.sprint.skill import GaussianLifter
from sloth_kernel.games.sprint.vector import simulate
from sloth_kernel.lessons import Html, picture, sentences, table
from sloth_kernel.stats import wilson_bars, wilson_interval

SIGMAS: tuple[float, ...] = tuple(round(0.02 * k, 2) for k in range(0, 21))  # 0 .. 0.40
OFFSETS: tuple[float, ...] = tuple(x / 2 for x in range(-10, 7))  # -5 .. +3 cards


def win_vs_skill(
    sigmas: Sequence[float] = SIGMAS,
    offset: float = -1.0,
    config: SprintConfig | None = None,
    show_progress: bool = False,
) -> np.ndarray:
    """Exact P(the table wins) for each skill sigma, aiming at Objective + `offset`."""
    config = config or SprintConfig()
    return np.array(
        [
            win_probability(GaussianLifter(s, offset), config)
            for s in progress(sigmas, enabled=show_progress, desc="skills")
        ]
    )


def win_vs_offset(sigma: float, offsets: Sequence[float] = OFFSETS, config: SprintConfig | None = None) -> np.ndarray:
    """Exact P(win) for one skill and each aim offset."""
    config = config or SprintConfig()
    return np.array([win_probability(GaussianLifter(sigma, o), config) for o in offsets])


def best_aims(
    sigmas: Sequence[float], config: SprintConfig | None = None, show_progress: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    """For each sigma: the best fixed aim offset and its exact win chance."""
    found = [optimal_offset(s, config) for s in progress(sigmas, enabled=show_progress, desc="best aim")]
    return np.array([f[0] for f in found]), np.array([f[1] for f in found])


def tortoise_steps(objective: int, lifts: Sequence[int], young_tortoise: bool = False) -> list[int]:
    """The SP-4 payoff the engine uses: squares moved for each lift on one Objective."""
    return [tortoise_move(objective, lift, young_tortoise) for lift in lifts]


def expected_steps(sigma: float, offset: float, objective: int = 14, max_lift: int = 31) -> float:
    """Average Tortoise move for one Objective: the skill's lift chances times the SP-4 payoff."""
    pmf = GaussianLifter(sigma, offset).pmf(objective, max_lift)
    return float(sum(p * tortoise_move(objective, k) for k, p in enumerate(pmf)))


@dataclass(frozen=True)
class ExactVsSimulated:
    sigmas: np.ndarray
    exact: np.ndarray
    simulated: np.ndarray
    std_error: np.ndarray
    games: int

    def intervals(self) -> tuple[np.ndarray, np.ndarray]:
        """Each simulated win rate's 95% Wilson interval: (lows, highs)."""
        bounds = [wilson_interval(round(float(rate) * self.games), self.games) for rate in self.simulated]
        return np.array([low for low, _ in bounds]), np.array([high for _, high in bounds])


def exact_vs_simulated(
    sigmas: Sequence[float],
    games: int = 20_000,
    offset: float = -1.0,
    config: SprintConfig | None = None,
    seed: int = 0,
    show_progress: bool = True,
) -> ExactVsSimulated:
    """The Markov-chain answer next to `games` faithful simulated games per sigma."""
    config = config or SprintConfig()
    exact, simulated, errors = [], [], []
    for i, sigma in enumerate(progress(sigmas, enabled=show_progress, desc="simulating")):
        model = GaussianLifter(sigma, offset)
        exact.append(win_probability(model, config))
        batch = simulate(model, games, config, seed=seed + i)
        simulated.append(batch.win_rate)
        errors.append(batch.std_error)
    return ExactVsSimulated(np.array(sigmas), np.array(exact), np.array(simulated), np.array(errors), games)


# --- plots ----------------------------------------------------------------------------


def plot_win_vs_skill(sigmas: Sequence[float], curves: dict[str, np.ndarray], ax: Any = None) -> Any:
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(7, 4))
    for label, values in curves.items():
        ax.plot(sigmas, values, marker="o", ms=3, label=label)
    ax.axhline(0.5, color="#999", lw=0.8, ls=":")
    ax.set_xlabel("lifting error sigma (0.10 = a typical miss of 10% of the aim)")
    ax.set_ylabel("chance the table wins")
    ax.set_ylim(0, 1.02)
    ax.set_title("Sprint!: the better you lift, the likelier the Tortoise wins")
    ax.legend(fontsize=8)
    ax.figure.tight_layout()
    return ax.figure


def plot_aim(offsets: Sequence[float], by_sigma: dict[float, np.ndarray], objective: int = 14) -> Any:
    """Left: the SP-4 payoff is lopsided. Right: so the best aim is below the Objective."""
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    lifts = list(range(objective - 6, objective + 4))
    steps = tortoise_steps(objective, lifts)
    left.bar(lifts, steps, color=["#2a9d3a" if lift <= objective else "#c0392b" for lift in lifts])
    for lift, step in zip(lifts, steps, strict=False):
        left.text(
            lift, step + 0.05, str(step), ha="center", fontsize=9, color="#c0392b" if lift > objective else "#222"
        )
    left.set_xticks(lifts)
    left.set_xlabel(f"cards lifted (Objective {objective})")
    left.set_ylabel("Tortoise moves (SP-4)")
    left.set_title("one short still pays 3, one over pays 0")
    for sigma, values in by_sigma.items():
        right.plot(offsets, values, marker="o", ms=3, label=f"sigma {sigma:g}")
        best = int(np.argmax(values))
        right.plot([offsets[best]], [values[best]], "k*", ms=10)
    right.axvline(0, color="#999", lw=0.8, ls=":")
    right.set_xlabel("aim: cards above (+) or below (-) the Objective")
    right.set_ylabel("chance the table wins")
    right.set_title("aiming a little low pays (star = best)")
    right.legend(fontsize=8)
    fig.tight_layout()
    return fig


def plot_exact_vs_simulated(result: ExactVsSimulated, ax: Any = None) -> Any:
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(7, 4))
    ax.plot(result.sigmas, result.exact, "-", color="#2b4a7a", label="exact (Markov chain)")
    ax.errorbar(
        result.sigmas,
        result.simulated,
        yerr=wilson_bars(result.simulated, result.games),
        fmt="o",
        ms=4,
        capsize=3,
        color="#c0392b",
        label=f"simulated ({result.games:,} games each, 95% bars)",
    )
    ax.set_xlabel("lifting error sigma")
    ax.set_ylabel("chance the table wins")
    ax.set_title("Exact against simulated")
    ax.legend(fontsize=8)
    ax.figure.tight_layout()
    return ax.figure


# --- what the analysis notebook shows (sentences, tables, pictures) ---------------------------


def _aim_words(offset: float) -> str:
    if offset == 0:
        return "aiming at the Objective"
    return f"aiming {abs(offset):g} card{'s' if abs(offset) != 1 else ''} {'low' if offset < 0 else 'high'}"


def skill_view(sigmas: Sequence[float] = SIGMAS, offsets: Sequence[float] = (0, -1, -2)) -> Html:
    """The exact win chance against skill for some aims: a picture and a table at three skills."""
    curves = {_aim_words(offset): win_vs_skill(sigmas, offset) for offset in offsets}
    figure = plot_win_vs_skill(sigmas, curves)
    shown = [s for s in (0.1, 0.2, 0.3) if s in list(np.round(sigmas, 2))]
    index = {s: list(np.round(sigmas, 2)).index(s) for s in shown}
    rows = [[label, *(f"{values[index[s]]:.1%}" for s in shown)] for label, values in curves.items()]
    return picture(figure, "The table's exact win chance falls as the lifting error grows, for each aim.") + table(
        ["Aim", *(f"Skill {s:g}" for s in shown)], rows
    )


def aim_view(sigmas: Sequence[float] = (0.05, 0.15, 0.25), offsets: Sequence[float] = OFFSETS) -> Html:
    """The lopsided payoff and the exact win chance for each aim, best aims marked."""
    by_sigma = {sigma: win_vs_offset(sigma, offsets) for sigma in sigmas}
    return picture(
        plot_aim(offsets, by_sigma),
        "Left: one short still moves the Tortoise 3, one over moves it 0. Right: the win chance peaks a little below the Objective.",
    )


def best_aims_table(sigmas: Sequence[float] = (0.05, 0.15, 0.25)) -> Html:
    """The best single aim and its exact win chance, per skill."""
    offsets, wins = best_aims(sigmas, show_progress=False)
    rows = [[f"{s:g}", f"{-o:.2f} cards low", f"{w:.1%}"] for s, o, w in zip(sigmas, offsets, wins, strict=True)]
    return table(["Skill", "Best aim", "Win chance"], rows)


def exact_vs_simulated_view(result: ExactVsSimulated) -> Html:
    """The exact chain against the simulation, and a verdict computed from the numbers: how many
    exact figures lie inside the simulation's 95% intervals, and the largest gap."""
    lows, highs = result.intervals()
    gaps = result.simulated - result.exact
    inside = (lows <= result.exact) & (result.exact <= highs)
    rows = [
        [f"{s:g}", f"{e:.3f}", f"{m:.3f}", f"{lo:.3f} to {hi:.3f}", f"{g:+.3f}", bool(i)]
        for s, e, m, lo, hi, g, i in zip(
            result.sigmas, result.exact, result.simulated, lows, highs, gaps, inside, strict=True
        )
    ]
    worst = int(np.argmax(np.abs(gaps)))
    if inside.all():
        verdict = (
            f"At every skill the exact figure lies inside the simulation's 95% interval (largest gap "
            f"{abs(gaps[worst]):.3f}): with {result.games:,} games per skill, the approximation cannot be told from "
            "the real game."
        )
    else:
        verdict = (
            f"At {int((~inside).sum())} of {len(inside)} skills the exact figure lies outside the simulation's 95% "
            f"interval; the largest gap is {abs(gaps[worst]):.3f} at skill {result.sigmas[worst]:g}, against an "
            f"interval of {lows[worst]:.3f} to {highs[worst]:.3f}. So the approximation is measurable, but small: at most "
            f"{100 * abs(gaps).max():.1f} percentage points of win chance."
        )
    header = ["Skill", "Exact", "Simulated", "95% interval", "Gap", "Exact inside?"]
    return (
        picture(plot_exact_vs_simulated(result), "Exact win chances as a line, simulated ones as dots with 95% bars.")
        + table(header, rows)
        + sentences(verdict)
    )
