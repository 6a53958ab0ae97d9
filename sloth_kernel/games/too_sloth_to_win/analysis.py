"""Too Sloth To Win from bot self-play: the pacemaker's advantage and when to spend the Drink.

Games are single rounds (``rounds=1``) so every game is one sample; the
pacemaker seat rotates with the game number so that seat order and pacing do
not mix. Bots see only observations (TS-15).

- :func:`pacemaker_advantage`: trophy (first finisher) and Cash Chip rates by
  seat position relative to the pacemaker (0 = the pacemaker, who leads).
- :func:`drink_timing`: one :class:`DrinkTimingBot` among heuristic bots. It
  prefers combinations with the drink once the leading meeple is within
  `threshold` spaces of the finish (heuristic bots use 4); holding the drink when
  someone finishes first eliminates you (TS-10), spending it early wastes a wild card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sloth_kernel.analysis import progress
from sloth_kernel.bots import make_bot
from sloth_kernel.games.too_sloth_to_win.bots import HeuristicBot
from sloth_kernel.games.too_sloth_to_win.engine import DRINK_BASE, Play, TooSlothObservation
from sloth_kernel.lessons import Html, picture, table
from sloth_kernel.registry import load_game
from sloth_kernel.stats import wilson_bars, wilson_interval

THRESHOLDS: tuple[int, ...] = (0, 2, 4, 6, 9)


class DrinkTimingBot(HeuristicBot):
    """The heuristic bot, but it starts to favour the drink `threshold` spaces before the finish."""

    name = "drink-timing"

    def __init__(self, seed: int | None = 0, threshold: int = 4) -> None:
        super().__init__(seed)
        self.threshold = threshold

    def _finish_is_near(self, obs: TooSlothObservation) -> bool:
        lead = max(obs.positions[s] for s in range(obs.players) if obs.status[s] == "active")
        return lead >= obs.finish - self.threshold


@dataclass
class GameRecord:
    """One single-round game: who paced, who finished, and every drink play."""

    pacemaker: int
    first: int | None
    second: int | None
    drug_outs: tuple[int, ...]  # seats eliminated for holding a drink (TS-10)
    moves: int
    drinks: list[tuple[int, int, int]] = field(default_factory=list)  # (seat, leader's space, own space)


def play_round(seed: int, bots: Sequence[Any], players: int = 4, **options: Any) -> GameRecord:
    """One round with these bots, pacemaker = seed mod players; every move checked."""
    game = load_game("too-sloth-to-win", players=players, rounds=1, pacemaker=seed % players, **options)
    state = game.new_state(seed)
    record = GameRecord(seed % players, None, None, (), 0)
    while not state.is_over:
        seat = state.current_player
        obs = state.observation(seat)
        move = bots[seat].choose(obs)
        if isinstance(move, Play) and any(c > DRINK_BASE for c in move.cards):
            record.drinks.append((seat, max(obs.positions), obs.positions[seat]))
        state = state.play(move, player=seat)
    result = state.view().results[0]
    record.first, record.second = result.first, result.second
    record.drug_outs = tuple(s for s, why in enumerate(state.view().status) if "drug" in why)
    record.moves = len(state.history)
    return record


@dataclass(frozen=True)
class PacemakerStats:
    games: int
    trophy: np.ndarray  # [relative seat] share of first finishes
    chip: np.ndarray  # [relative seat] share of Cash Chips (second finisher, or TS-10/TS-12 chips)

    def std_error(self, rates: np.ndarray) -> np.ndarray:
        errors: np.ndarray = np.sqrt(np.maximum(rates * (1 - rates), 1e-12) / self.games)
        return errors


def pacemaker_advantage(
    games: int = 400,
    players: int = 4,
    level: str = "heuristic",
    seed: int = 0,
    show_progress: bool = True,
    **options: Any,
) -> PacemakerStats:
    """Trophy and chip rates by seat relative to the pacemaker, from `games` self-play rounds."""
    trophy, chip = np.zeros(players), np.zeros(players)
    for g in progress(range(games), enabled=show_progress, desc="self-play"):
        bots = [make_bot("too-sloth-to-win", level, seed=seed + 7919 * g + s) for s in range(players)]
        game = load_game("too-sloth-to-win", players=players, rounds=1, pacemaker=(seed + g) % players, **options)
        state = game.new_state(seed + g)
        while not state.is_over:
            seat = state.current_player
            state = state.play(bots[seat].choose(state.observation(seat)), player=seat)
        result = state.view().results[0]
        pace = state.view().pacemaker
        for s in result.trophy:
            trophy[(s - pace) % players] += 1
        for s in result.chip:
            chip[(s - pace) % players] += 1
    return PacemakerStats(games, trophy / games, chip / games)


@dataclass(frozen=True)
class DrinkTiming:
    thresholds: tuple[int, ...]
    games: int
    chip: np.ndarray  # the timing bot's Cash Chip rate per threshold
    trophy: np.ndarray
    drug_out: np.ndarray  # how often it was caught holding the drink (TS-10)
    spent_at: list[list[int]]  # the leader's space each time it spent the drink, per threshold


def drink_timing(
    thresholds: Sequence[int] = THRESHOLDS,
    games: int = 150,
    players: int = 4,
    seed: int = 0,
    show_progress: bool = True,
) -> DrinkTiming:
    """One DrinkTimingBot (rotating seat) against heuristic bots, for each threshold."""
    chip, trophy, drug = [], [], []
    spent: list[list[int]] = []
    runs = [(t, g) for t in thresholds for g in range(games)]
    counts: dict[int, list[int]] = {t: [0, 0, 0] for t in thresholds}
    spots: dict[int, list[int]] = {t: [] for t in thresholds}
    for threshold, g in progress(runs, enabled=show_progress, desc="drink timing"):
        me = g % players
        bots: list[Any] = [HeuristicBot(seed=seed + 104_729 * g + s) for s in range(players)]
        bots[me] = DrinkTimingBot(seed=seed + 104_729 * g + me, threshold=threshold)
        record = play_round(seed + g, bots, players)
        won_chip = record.second == me or (record.first == me and record.second is None)
        counts[threshold][0] += won_chip
        counts[threshold][1] += record.first == me
        counts[threshold][2] += me in record.drug_outs
        spots[threshold] += [lead for seat, lead, _ in record.drinks if seat == me]
    for t in thresholds:
        chip.append(counts[t][0] / games)
        trophy.append(counts[t][1] / games)
        drug.append(counts[t][2] / games)
        spent.append(spots[t])
    return DrinkTiming(tuple(thresholds), games, np.array(chip), np.array(trophy), np.array(drug), spent)


# --- plots ----------------------------------------------------------------------------


def plot_pacemaker(stats: PacemakerStats, ax: Any = None) -> Any:
    import matplotlib.pyplot as plt

    players = len(stats.trophy)
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 3.8))
    x = np.arange(players)
    ax.bar(
        x - 0.2,
        stats.trophy,
        0.4,
        yerr=wilson_bars(stats.trophy, stats.games),
        capsize=3,
        color="#e0a000",
        label="Trophy (first across the line)",
    )
    ax.bar(
        x + 0.2,
        stats.chip,
        0.4,
        yerr=wilson_bars(stats.chip, stats.games),
        capsize=3,
        color="#2a9d3a",
        label="Cash Chip (what wins the game)",
    )
    ax.axhline(1 / players, color="#555", ls=":", lw=1, label=f"fair share 1/{players}")
    ax.set_xticks(x, ["pacemaker"] + [f"{k} seat{'s' * (k > 1)} later" for k in range(1, players)])
    ax.set_ylabel("share of rounds")
    ax.set_title(f"Too Sloth To Win: does leading pay? ({stats.games:,} bot rounds)")
    ax.legend(fontsize=8)
    ax.figure.tight_layout()
    return ax.figure


def plot_drink_timing(result: DrinkTiming, finish: int = 9) -> Any:
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    x = np.array(result.thresholds)
    left.errorbar(
        x,
        result.chip,
        yerr=wilson_bars(result.chip, result.games),
        marker="o",
        capsize=3,
        color="#2a9d3a",
        label="Cash Chip",
    )
    left.plot(x, result.trophy, marker="s", color="#e0a000", label="Trophy")
    left.plot(x, result.drug_out, marker="x", color="#c0392b", label="caught holding the drink (TS-10)")
    left.set_xticks(x)
    left.set_xlabel("favour the drink once the leader is this many spaces from the finish")
    left.set_ylabel("rate for the timing bot")
    left.set_title("When to spend the Drink")
    left.legend(fontsize=8)
    for threshold, spots in zip(result.thresholds, result.spent_at, strict=False):
        if spots:
            counts = np.bincount(spots, minlength=finish)[:finish]
            right.plot(range(finish), counts / max(1, len(spots)), marker=".", label=f"threshold {threshold}")
    right.set_xlabel("leading meeple's space when the drink was played")
    right.set_ylabel("share of drink plays")
    right.set_title("Where the drink actually got spent")
    right.legend(fontsize=8)
    fig.tight_layout()
    return fig


# --- what the analysis notebook shows (sentences, tables, pictures) ---------------------------


def _share(rate: float, games: int) -> str:
    """A share of `games` rounds with its 95% Wilson interval, in words: "42% (38% to 47%)"."""
    low, high = wilson_interval(round(float(rate) * games), games)
    return f"{rate:.0%} ({low:.0%} to {high:.0%})"


def pacemaker_view(stats: PacemakerStats) -> Html:
    """Trophy and Cash Chip shares by seat, counted from the pacemaker, with 95% intervals."""
    players = len(stats.trophy)
    seats = ["the pacemaker"] + [f"{k} seat{'s' if k > 1 else ''} later" for k in range(1, players)]
    rows = [
        [seat, _share(stats.trophy[k], stats.games), _share(stats.chip[k], stats.games)] for k, seat in enumerate(seats)
    ]
    picture_ = picture(
        plot_pacemaker(stats),
        "Bars with 95% whiskers: how often each seat, counted from the pacemaker, takes the Trophy and the Cash Chip.",
    )
    header = ["Seat", "Trophy share (95% interval)", "Cash Chip share (95% interval)"]
    return picture_ + table(header, rows, caption=f"{stats.games:,} bot rounds; a fair share is {1 / players:.0%}")


def drink_view(result: DrinkTiming) -> Html:
    """The timing bot's Cash Chip rate (with 95% intervals), Trophy rate and how often it was caught."""
    rows = []
    for k, threshold in enumerate(result.thresholds):
        rows.append(
            [
                threshold,
                _share(float(result.chip[k]), result.games),
                f"{result.trophy[k]:.0%}",
                f"{result.drug_out[k]:.0%}",
            ]
        )
    picture_ = picture(
        plot_drink_timing(result),
        "Left: the timing bot's Cash Chip rate with 95% bars, its Trophy rate and how often it was caught holding the drink, by threshold. Right: where the drink got spent.",
    )
    header = ["Threshold (spaces)", "Cash Chip (95% interval)", "Trophy", "Caught holding the drink"]
    return picture_ + table(header, rows, caption=f"{result.games} rounds per threshold")
