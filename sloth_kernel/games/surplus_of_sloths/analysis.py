"""Surplus of Sloths from bot games: how run length and X cards turn into points, and what bots score.

At the end of a game each type's Net goes to the longest run of that type
(SS-7, SS-8) and scores (sum of the numbers) x (1 + number of X) (SS-9). So a
long run decides *whether* you score a type and the X cards in the Net decide
*how much*. The engine's reveal (``observation.reveal``) gives every run, claim
and score as data; this module only counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sloth_kernel.analysis import progress
from sloth_kernel.bots import make_bot, play_out
from sloth_kernel.lessons import Html, picture, table
from sloth_kernel.registry import load_game
from sloth_kernel.stats import Z95, wilson_interval

GAME = "surplus-of-sloths"


@dataclass(frozen=True)
class RunSample:
    """One player's best run of one type at a reveal."""

    length: int
    top: int
    claimed: bool


@dataclass(frozen=True)
class NetSample:
    """One type's Net at a reveal and what it scored (0 if nobody took it)."""

    cards: int
    number_sum: int
    xs: int
    points: int
    taken: bool


@dataclass(frozen=True)
class SurplusStudy:
    games: int
    lineup: tuple[str, ...]
    runs: list[RunSample]
    nets: list[NetSample]
    scores: np.ndarray  # [game, seat]
    winners: np.ndarray  # [game, seat] share of the win (ties split)

    def claim_rate(self, max_length: int = 8) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(lengths, P(take the Net | best run this long), samples per length)."""
        lengths = np.arange(1, max_length + 1)
        seen = np.zeros(max_length)
        took = np.zeros(max_length)
        for run in self.runs:
            if 1 <= run.length <= max_length:
                seen[run.length - 1] += 1
                took[run.length - 1] += run.claimed
        return lengths, np.divide(took, seen, out=np.zeros_like(took), where=seen > 0), seen


def study(
    games: int = 300,
    lineup: Sequence[str] = ("heuristic", "heuristic", "heuristic"),
    seed: int = 0,
    show_progress: bool = True,
    **options: Any,
) -> SurplusStudy:
    """Play `games` games with these bot levels (seat order rotates each game) and collect the reveals."""
    players = len(lineup)
    game = load_game(GAME, players=players, **options)
    runs: list[RunSample] = []
    nets: list[NetSample] = []
    scores = np.zeros((games, players))
    winners = np.zeros((games, players))
    for g in progress(range(games), enabled=show_progress, desc="bot games"):
        shift = g % players  # seat s is played by lineup[(s + shift) % players]
        bots = [
            make_bot(GAME, lineup[(s + shift) % players], seed=seed * 100_003 + g * players + s) for s in range(players)
        ]
        final = play_out(game.new_state(seed * 100_003 + g), bots)
        view = final.view()
        for result in view.reveal:
            runs.extend(
                RunSample(run.length, run.top, result.winner == run.player) for run in result.runs if run.length
            )
            if result.net_cards:
                numbers = [int(c[1:]) for c in result.net_cards if c[1:].isdigit()]
                xs = sum(c.endswith("X") for c in result.net_cards)
                nets.append(
                    NetSample(len(result.net_cards), sum(numbers), xs, result.points, result.winner is not None)
                )
        for s in range(players):  # store by lineup slot, not by seat
            slot = (s + shift) % players
            scores[g, slot] = view.scores[s]
            winners[g, slot] = final.returns()[s]
    return SurplusStudy(games, tuple(lineup), runs, nets, scores, winners)


# --- plots ----------------------------------------------------------------------------


def plot_runs_and_points(result: SurplusStudy) -> Any:
    """Left: longer runs take the Net. Right: X cards in the Net multiply its numbers."""
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    lengths, rate, seen = result.claim_rate()
    shown = seen >= 5
    left.bar(lengths[shown], rate[shown], color="#2f6fd0")
    for x, r, n in zip(lengths[shown], rate[shown], seen[shown], strict=False):
        left.text(x, r + 0.02, f"{r:.0%}\n(n={int(n)})", ha="center", fontsize=7)
    left.set_ylim(0, 1.15)
    left.set_xlabel("length of your best run of a type")
    left.set_ylabel("chance you take that type's Net")
    left.set_title("Run length decides who scores (SS-7, SS-8)")
    taken = [n for n in result.nets if n.taken]
    colours = ["#8d99ae", "#2a9d3a", "#e0a000", "#c0392b"]
    for xs in range(4):
        pts = [(n.number_sum, n.points) for n in taken if n.xs == xs]
        if pts:
            sums, points = zip(*pts, strict=False)
            right.scatter(sums, points, s=14, alpha=0.6, color=colours[xs], label=f"{xs} X in the Net")
            line = np.arange(0, max(sums) + 2)
            right.plot(line, line * (1 + xs), color=colours[xs], lw=0.8)
    right.set_xlabel("sum of the numbers in the Net")
    right.set_ylabel("points scored")
    right.set_title("Each X adds the whole sum again (SS-9)")
    right.legend(fontsize=8)
    fig.tight_layout()
    return fig


def plot_scores(studies: dict[str, SurplusStudy]) -> Any:
    """Histogram of final scores per bot level, pooled over the given studies."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 3.8))
    pooled: dict[str, list[float]] = {}
    for result in studies.values():
        for slot, level in enumerate(result.lineup):
            pooled.setdefault(level, []).extend(result.scores[:, slot])
    top = max(max(v) for v in pooled.values())
    bins = np.arange(0, top + 10, 10)
    for level, values in pooled.items():
        words = BOT_WORDS.get(level, level)
        ax.hist(values, bins=bins.tolist(), alpha=0.55, label=f"{words} (mean {np.mean(values):.0f})")
    ax.set_xlabel("final score")
    ax.set_ylabel("games")
    ax.set_title("What the bots score")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


# --- what the analysis notebook shows (sentences, tables, pictures) ---------------------------

BOT_WORDS = {"heuristic": "planning bot", "random": "random drafter"}


def nets_table(nets: Sequence[Sequence[str]]) -> Html:
    """Points for some Nets, with the arithmetic (SS-9)."""
    from sloth_kernel.games.surplus_of_sloths.cards import CARD_IDS, points

    rows = []
    for net in nets:
        score, arithmetic = points([CARD_IDS[code] for code in net])
        rows.append([" ".join(net), score, arithmetic])
    return table(["The Net holds", "Points", "How"], rows)


def runs_view(result: SurplusStudy, max_length: int = 6) -> Html:
    """How often a best run of each length takes its Net (with 95% intervals; lengths never seen
    say so), and the points against the Net's sum."""
    lengths, rate, seen = result.claim_rate(max_length)
    rows: list[list[Any]] = []
    for length, share, count in zip(lengths, rate, seen, strict=True):
        if count == 0:
            rows.append([int(length), 0, "never seen", "—"])
            continue
        low, high = wilson_interval(round(float(share) * int(count)), int(count))
        rows.append([int(length), int(count), f"{share:.0%}", f"{low:.0%} to {high:.0%}"])
    picture_ = picture(
        plot_runs_and_points(result),
        "Left: the longer your best run of a type, the likelier you take its Net. Right: points against the sum of the Net's numbers; each X adds the sum again.",
    )
    header = ["Best run length", "Runs seen", "Took the Net", "95% interval"]
    return picture_ + table(header, rows, caption=f"{result.games} games, every player's best run of every type")


def scores_view(studies: dict[str, SurplusStudy]) -> Html:
    """The score histogram, and per line-up each bot's mean score and win share with 95% intervals."""
    rows: list[list[Any]] = []
    for name, result in studies.items():
        for slot, level in enumerate(result.lineup):
            if level in result.lineup[:slot]:
                continue  # one row per bot level in each line-up (seats of one level pooled)
            slots = [s for s, other in enumerate(result.lineup) if other == level]
            scores = result.scores[:, slots].ravel()
            score_half = Z95 * scores.std() / np.sqrt(len(scores))  # a mean score: not a proportion
            per_game = result.winners[:, slots].sum(axis=1) / len(slots)  # the level's win share per seat
            win_share = per_game.mean()
            win_low, win_high = wilson_interval(min(float(per_game.sum()), len(per_game)), len(per_game))
            rows.append(
                [
                    name,
                    BOT_WORDS.get(level, level),
                    f"{scores.mean():.1f} ± {score_half:.1f}",
                    f"{win_share:.0%} ({win_low:.0%} to {win_high:.0%})",
                ]
            )
    picture_ = picture(plot_scores(studies), "Histograms of the final scores of each kind of bot.")
    header = ["Line-up", "Bot", "Mean score (95% interval)", "Win share per seat (95% interval)"]
    return picture_ + table(header, rows)
