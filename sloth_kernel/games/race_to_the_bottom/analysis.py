"""How often a 12-card Race to the Bottom hand holds each meld and a Cheat (RB-1..RB-6).

Two answers side by side:

- :func:`exact_meld_odds` counts hands exactly. A hand is 12 cards of one 54-card
  deck (13 ranks x 4 and 2 Jokers). A meld needs, on a window of consecutive
  ranks, some count per rank (Pair: 2 of one rank; Run of 4: 1 on each of 4
  consecutive ranks; Bound: 3 on each of 2); each missing card can be a Joker
  (RB-3). The Ace sits at both ends of the sequence ladder (A-2-3 and Q-K-A,
  RB-5). A dynamic programme walks the ladder rank by rank and counts the hands
  that hold *no* such window, weighting each rank count c by C(4, c).
- :func:`simulated_meld_odds` deals real hands with the engine and reads the
  meld types off ``legal_moves()`` of the leader. It checks the exact numbers
  against the engine itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb, sqrt
from typing import Any

from sloth_kernel.analysis import progress
from sloth_kernel.lessons import Html, picture, sentences, table
from sloth_kernel.stats import wilson_bars, wilson_interval

HAND = 12
RANKS = 13
COPIES = 4
JOKERS = 2
DECK = RANKS * COPIES + JOKERS  # 54 (RB-1)

# meld label -> (ranks in the window, cards needed on each rank)
MELD_NEEDS: dict[str, tuple[int, int]] = {
    "Pair": (1, 2),
    "Triplet": (1, 3),
    "Run of 2": (2, 1),
    "Run of 3": (3, 1),
    "Run of 4": (4, 1),
    "Run of 5": (5, 1),
    "Run of 6": (6, 1),
    "Leap of 4": (2, 2),
    "Leap of 6": (3, 2),
    "Bound": (2, 3),
    "Smokescreen": (1, 4),
    "Oil Slick": (1, 5),
    "Caltrops": (1, 6),
}
CHEATS = ("Smokescreen", "Oil Slick", "Caltrops")
MELDS = tuple(MELD_NEEDS)


def hands_without(width: int, need: int, jokers: int, naturals: int) -> int:
    """Joker-free parts of hands (`naturals` cards from 13 ranks x 4) in which NO window of
    `width` consecutive ladder ranks can be completed to `need` cards each with `jokers` Jokers.

    The ladder is A, 2, ..., K, A (14 steps); the Ace's count appears at both ends.
    """
    cap = jokers + 1  # a deficit above the Jokers available already rules the window out
    total = 0
    for aces in range(COPIES + 1):
        ace_deficit = min(max(need - aces, 0), cap)
        # state: (deficits of the last width-1 ladder steps, cards used) -> ways
        start = (ace_deficit,)[-(width - 1) :] if width > 1 else ()
        if width == 1 and ace_deficit <= jokers:
            continue  # the Ace alone already makes the meld
        layer: dict[tuple[tuple[int, ...], int], int] = {(start, aces): comb(COPIES, aces)}
        for _ in range(RANKS - 1):  # ranks 2..K
            layer = _advance(layer, width, need, jokers, cap, naturals, counts=range(COPIES + 1))
        layer = _advance(layer, width, need, jokers, cap, naturals, counts=(aces,), free=True)  # high Ace
        total += sum(ways for (_, used), ways in layer.items() if used == naturals)
    return total


def _advance(
    layer: dict[tuple[tuple[int, ...], int], int],
    width: int,
    need: int,
    jokers: int,
    cap: int,
    naturals: int,
    counts: Any,
    free: bool = False,
) -> dict[tuple[tuple[int, ...], int], int]:
    """One ladder step: choose this rank's count, drop paths where a full window is makeable."""
    out: dict[tuple[tuple[int, ...], int], int] = {}
    for (recent, used), ways in layer.items():
        for count in counts:
            now = used if free else used + count
            if now > naturals:
                break
            deficit = min(max(need - count, 0), cap)
            window = recent + (deficit,)
            if len(window) == width and sum(window) <= jokers:
                continue  # this hand holds the meld
            kept = window[1:] if len(window) == width else window
            key = (kept[-(width - 1) :] if width > 1 else (), now)
            out[key] = out.get(key, 0) + ways * (1 if free else comb(COPIES, count))
    return out


def exact_meld_odds(hand: int = HAND) -> dict[str, float]:
    """P(a random `hand`-card hand can form each meld type, and any Cheat), exactly."""
    all_hands = comb(DECK, hand)
    odds: dict[str, float] = {"Single": 1.0}
    for label, (width, need) in MELD_NEEDS.items():
        missing = sum(comb(JOKERS, j) * hands_without(width, need, j, hand - j) for j in range(JOKERS + 1))
        odds[label] = 1 - missing / all_hands
    odds["any Cheat"] = odds["Smokescreen"]  # every bigger Cheat also holds four of a rank
    return odds


def cheat_odds_by_hand_size(sizes: range | list[int] = range(4, 21)) -> dict[int, float]:
    """P(the hand holds a Cheat, i.e. four of a rank counting Jokers) for each hand size, exactly."""
    width, need = MELD_NEEDS["Smokescreen"]
    return {
        size: 1
        - sum(comb(JOKERS, j) * hands_without(width, need, j, size - j) for j in range(JOKERS + 1)) / comb(DECK, size)
        for size in sizes
    }


@dataclass(frozen=True)
class SimulatedOdds:
    hands: int
    odds: dict[str, float]

    def std_error(self, label: str) -> float:
        p = self.odds[label]
        return sqrt(max(p * (1 - p), 1e-12) / self.hands)

    def interval(self, label: str) -> tuple[float, float]:
        """The 95% Wilson interval of the meld's chance (within 0 to 1, never a single point)."""
        return wilson_interval(round(self.odds[label] * self.hands), self.hands)


def simulated_meld_odds(hands: int = 2000, seed: int = 0, show_progress: bool = True) -> SimulatedOdds:
    """Deal `hands` real hands with the engine; count the meld types among the leader's legal leads."""
    from sloth_kernel import load_game

    game = load_game("race-to-the-bottom", players=2)
    seen = {label: 0 for label in ("Single", *MELDS, "any Cheat")}
    for index in progress(range(hands), enabled=show_progress, desc="dealing hands"):
        state = game.new_state(seed=seed * 1_000_003 + index)
        labels = {move.label for move in state.legal_moves()}
        for label in labels:
            if label in seen:
                seen[label] += 1
        seen["any Cheat"] += bool(labels & set(CHEATS))
    return SimulatedOdds(hands, {label: count / hands for label, count in seen.items()})


def plot_meld_odds(exact: dict[str, float], simulated: SimulatedOdds, ax: Any = None) -> Any:
    """Horizontal bars: exact odds, with the simulation's estimate and 95% interval on top."""
    import matplotlib.pyplot as plt
    import numpy as np

    labels = [label for label in ("Single", *MELDS, "any Cheat") if label in exact]
    if ax is None:
        _, ax = plt.subplots(figsize=(8, 5.5))
    y = np.arange(len(labels))[::-1]
    ax.barh(y, [exact[label] for label in labels], color="#9cc3e6", label="exact (combinatorics)")
    ax.errorbar(
        [simulated.odds[label] for label in labels],
        y,
        xerr=wilson_bars([simulated.odds[label] for label in labels], simulated.hands),
        fmt="o",
        color="#c0392b",
        ms=4,
        capsize=3,
        label=f"simulated ({simulated.hands:,} engine deals)",
    )
    ax.set_yticks(y, [f"{label}  ({exact[label]:.1%})" for label in labels])
    ax.set_xlim(0, 1.05)
    ax.set_xlabel("chance a 12-card hand can play it")
    ax.set_title("Race to the Bottom: what a fresh 12-card hand holds")
    ax.legend(loc="lower right", fontsize=8)
    ax.figure.tight_layout()
    return ax.figure


# --- what the analysis notebook shows (sentences, tables, pictures) ---------------------------

SHOWN = ("Pair", "Triplet", "Run of 4", "Run of 6", "Leap of 4", "Leap of 6", "Bound", "any Cheat", "Caltrops")


def exact_table(labels: tuple[str, ...] = SHOWN) -> Html:
    """The exact chance that a fresh 12-card hand can play each meld."""
    exact = exact_meld_odds()
    return table(["Meld", "Chance a 12-card hand holds it"], [[label, f"{exact[label]:.2%}"] for label in labels])


def odds_picture(simulated: SimulatedOdds) -> Html:
    """Exact odds as bars, the simulation's estimates with 95% intervals on top."""
    return picture(
        plot_meld_odds(exact_meld_odds(), simulated),
        "Bars: the exact chance of each meld in a 12-card hand; dots with whiskers: the simulated estimate and its 95% interval.",
    )


def comparison(
    simulated: SimulatedOdds, labels: tuple[str, ...] = ("Triplet", "Run of 6", "Leap of 4", "any Cheat")
) -> Html:
    """Exact against simulated for some melds: the gap in standard errors, and a verdict computed from it."""
    exact = exact_meld_odds()
    rows = []
    close = 0
    for label in labels:
        error = simulated.std_error(label)
        gap = (simulated.odds[label] - exact[label]) / error
        low, high = simulated.interval(label)
        close += low <= exact[label] <= high
        rows.append(
            [label, f"{exact[label]:.3f}", f"{simulated.odds[label]:.3f}", f"{low:.3f} to {high:.3f}", f"{gap:+.1f}"]
        )
    verdict = (
        f"All {len(labels)} exact figures lie inside the simulation's 95% intervals: the counting and the engine agree."
        if close == len(labels)
        else f"{close} of {len(labels)} exact figures lie inside the simulation's 95% intervals; with {simulated.hands:,} "
        "hands about one in twenty falls outside by chance alone."
    )
    header = ["Meld", "Exact", "Simulated", "95% interval", "Gap (standard errors)"]
    return table(header, rows) + sentences(verdict)


def cheat_picture(sizes: range = range(4, 21)) -> Html:
    """The chance of holding a Cheat against the hand size (exact), the refill size marked."""
    import matplotlib.pyplot as plt

    by_size = cheat_odds_by_hand_size(sizes)
    fig, ax = plt.subplots(figsize=(6.5, 3.5))
    ax.plot(list(by_size), list(by_size.values()), marker="o")
    ax.axvline(HAND, color="#c0392b", ls=":", label=f"hand after a refill ({HAND})")
    ax.set_xlabel("cards in hand")
    ax.set_ylabel("chance of holding a Cheat")
    ax.set_title("Cheats come with bigger hands")
    ax.legend()
    at_12 = by_size.get(HAND, float("nan"))
    return picture(fig, f"The chance of a Cheat rises with the hand size; with {HAND} cards it is {at_12:.0%}.")
