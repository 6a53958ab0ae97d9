"""Many Sprint! games at once with numpy, faithful to the engine's rules.

Every game has its own shuffled Race pile, cycled exactly as the engine does
(SP-4: ``card = pile[(top + lift) % n]; top = (top + lift + 1) % n``), its own
Objective deck drawn without replacement and reshuffled when empty (SP-3), and
lifts drawn from the same inverse-CDF tables as the scalar bots
(``sprint_skill.draw_lift``). The Tortoise moves first and a finish ends the
game at once (SP-6). Rule tables (Tortoise move, Hare destination) are built
from the engine's own helpers, so the two cannot drift apart.

Chance comes from ``numpy.random.default_rng((seed, chunk))`` rather than the
engine's per-game ``seeded_rng``: batches are statistically equal to engine
games, not the same games. ``VectorDeals`` feeds explicit piles, decks and
uniforms instead, which lets the tests replay engine games one for one.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from sloth_kernel.games.sprint.engine import (
    RACE_KINDS,
    SprintConfig,
    hare_destination,
    nearest_carrots,
    tortoise_move,
)
from sloth_kernel.games.sprint.skill import cdf_of

CHUNK = 1 << 17  # games per numpy pass; keeps temporary arrays near 30 MB
MAX_MOVE = 4 + 1  # Tortoise moves 0..4
BINS = 4096  # lookup bins of u for the quick inverse CDF


@dataclass(frozen=True)
class VectorDeals:
    """Explicit chance for N games: piles [N, n] (card kinds, top first), Objective
    decks [N, R, K] (deck after shuffle r, values, top first), uniforms [N, T] (one
    per turn's lift)."""

    piles: np.ndarray
    objective_decks: np.ndarray
    uniforms: np.ndarray


@dataclass(frozen=True)
class BatchResult:
    """Per-game outcomes of a batch."""

    wins: np.ndarray  # bool: the Tortoise finished first
    turns: np.ndarray  # lifts made
    tortoise: np.ndarray  # final squares
    hare: np.ndarray

    @property
    def games(self) -> int:
        return int(self.wins.size)

    @property
    def win_rate(self) -> float:
        return float(self.wins.mean())

    @property
    def std_error(self) -> float:
        p = self.win_rate
        return float(np.sqrt(max(p * (1 - p), 1e-12) / self.games))

    @property
    def interval(self) -> tuple[float, float]:
        """The win rate's 95% Wilson interval (within 0 to 1, never a single point)."""
        from sloth_kernel.stats import wilson_interval

        return wilson_interval(int(self.wins.sum()), self.games)


class Tables:
    """Rule and lift lookup tables for one config and one lift model."""

    def __init__(self, model: Any, config: SprintConfig) -> None:
        finish, max_lift = config.finish, config.max_lift
        self.finish = finish
        self.size = config.pile_size
        self.values = np.array(sorted(set(config.objectives)), dtype=np.int16)
        self.deck = np.array([k for k, n in enumerate(config.race_deck) for _ in range(n)], dtype=np.int8)
        self.objective_index = np.searchsorted(self.values, config.objectives).astype(np.int8)
        self.move = np.array(
            [[tortoise_move(int(o), lift, config.young_tortoise) for lift in range(max_lift + 1)] for o in self.values],
            dtype=np.int16,
        )
        carrot_of = nearest_carrots(finish, config.carrot_squares)
        # dest[card, hare, tortoise, moved]: the Hare's next square (SP-5)
        self.dest = np.zeros((len(RACE_KINDS), finish, finish, MAX_MOVE), dtype=np.int16)
        for card in range(len(RACE_KINDS)):
            for hare in range(finish):
                for tortoise in range(finish):
                    for moved in range(MAX_MOVE):
                        self.dest[card, hare, tortoise, moved] = hare_destination(
                            card, hare, tortoise, moved, carrot_of
                        )
        self.positional = bool(getattr(model, "positional", False))
        spots = [(t, h) for t in range(finish) for h in range(finish)] if self.positional else [(0, 0)]
        # cdf[(spot * objectives + objective) * width + lift]; spot = tortoise * finish + hare when
        # positional; rows padded with 1.0 to a power of two for the binary search in lifts()
        self.width = 1 << max_lift.bit_length()
        table = np.ones((len(spots), len(self.values), self.width))
        for s, (t, h) in enumerate(spots):
            for i, o in enumerate(self.values):
                table[s, i, : max_lift + 1] = cdf_of(model.pmf(int(o), max_lift, t, h))
        self.cdf = table.ravel()
        # quick[objective, bin]: the lift for every u in [bin/BINS, (bin+1)/BINS], or 0 where a
        # CDF step falls inside the bin (then the exact search decides)
        self.quick = np.zeros(0, dtype=np.int8)
        if not self.positional:
            edges = np.arange(BINS + 1) / BINS
            at_edge = np.array([np.searchsorted(row[: max_lift + 1], edges, side="right") for row in table[0]])
            self.quick = np.where(at_edge[:, :-1] == at_edge[:, 1:], at_edge[:, :-1], 0).astype(np.int8).ravel()

    def lifts(self, uniforms: np.ndarray, objective: np.ndarray, tortoise: np.ndarray, hare: np.ndarray) -> np.ndarray:
        """Inverse CDF, bit-identical to ``bisect_right(cdf, u)`` in ``draw_lift``."""
        row = objective.astype(np.intp)
        if self.positional:
            row = row + (tortoise.astype(np.intp) * self.finish + hare) * len(self.values)
            return self._search(uniforms, row)
        lift = self.quick[row * BINS + (uniforms * BINS).astype(np.intp)].astype(np.intp)
        unsure = lift == 0
        if unsure.any():
            lift[unsure] = self._search(uniforms[unsure], row[unsure])
        return lift

    def _search(self, uniforms: np.ndarray, row: np.ndarray) -> np.ndarray:
        """Binary search: the last index whose CDF is <= u (index 0 always is), plus one."""
        base = row * self.width
        last = base.copy()
        step = self.width >> 1
        while step:
            probe = last + step
            last = np.where(self.cdf[probe] <= uniforms, probe, last)
            step >>= 1
        found: np.ndarray = last - base + 1
        return found


def simulate(
    model: Any,
    games: int,
    config: SprintConfig | None = None,
    seed: int = 0,
    *,
    deals: VectorDeals | None = None,
    max_turns: int = 100_000,
    tables: Tables | None = None,
) -> BatchResult:
    """Play `games` games with every seat lifting by `model`; returns per-game outcomes."""
    config = config or SprintConfig()
    tables = tables or Tables(model, config)
    if deals is not None:
        games = len(deals.piles)
    parts = [
        _simulate_chunk(tables, start, min(CHUNK, games - start), seed, deals, max_turns)
        for start in range(0, games, CHUNK)
    ]
    return BatchResult(*(np.concatenate([p[i] for p in parts]) for i in range(4)))


def _simulate_chunk(
    tab: Tables, start: int, n: int, seed: int, deals: VectorDeals | None, max_turns: int
) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng((seed, start))
    finish, size, k_cards = tab.finish, tab.size, len(tab.objective_index)
    if deals is None:
        piles = rng.permuted(np.broadcast_to(tab.deck, (n, size)), axis=1)
        decks = rng.permuted(np.broadcast_to(tab.objective_index, (n, k_cards)), axis=1)
    else:
        piles = deals.piles[start : start + n].astype(np.int8)
        decks = np.searchsorted(tab.values, deals.objective_decks[start : start + n, 0]).astype(np.int8)
    flat_piles = piles.ravel()
    wins = np.zeros(n, dtype=bool)
    turns = np.zeros(n, dtype=np.int32)
    final_t = np.zeros(n, dtype=np.int16)
    final_h = np.zeros(n, dtype=np.int16)
    # state of the games still running (compacted each turn)
    row = np.arange(n)
    tortoise = np.zeros(n, dtype=np.int16)
    hare = np.zeros(n, dtype=np.int16)
    top = np.zeros(n, dtype=np.int64)
    drawn = np.ones(n, dtype=np.int64)
    shuffles = np.zeros(n, dtype=np.int64)
    objective = decks[:, 0].astype(np.intp)
    turn = 0
    while row.size:
        if turn >= max_turns:
            raise RuntimeError(f"{row.size} games still running after {max_turns} turns")
        u = rng.random(row.size) if deals is None else deals.uniforms[start + row, turn]
        lift = tab.lifts(u, objective, tortoise, hare)
        moved = tab.move[objective, lift]
        tortoise = tortoise + moved
        done = tortoise >= finish  # SP-6: the Tortoise first
        wins[row[done]] = True
        spot = top + lift  # SP-4: the lifted cards go under, the next one is the Hare's
        spot = np.where(spot >= size, spot - size, spot)
        card = flat_piles[row * size + spot]
        top = np.where(spot + 1 == size, 0, spot + 1)
        hare = np.where(done, hare, tab.dest[card, hare, np.minimum(tortoise, finish - 1), moved])
        done |= hare >= finish
        if done.any():
            ended = row[done]
            turns[ended] = turn + 1
            final_t[ended] = tortoise[done]
            final_h[ended] = hare[done]
            keep = ~done
            row, tortoise, hare, top, drawn, shuffles = (a[keep] for a in (row, tortoise, hare, top, drawn, shuffles))
        turn += 1
        empty = drawn == k_cards  # SP-3: reshuffle all Objective cards
        if empty.any():
            shuffles[empty] += 1
            again = row[empty]
            if deals is None:
                decks[again] = rng.permuted(decks[again], axis=1)
            else:
                rounds = deals.objective_decks[start + again, shuffles[empty]]
                decks[again] = np.searchsorted(tab.values, rounds)
            drawn[empty] = 0
        objective = decks[row, drawn].astype(np.intp)
        drawn += 1
    return wins, turns, final_t, final_h


def games_per_second(model: Any, games: int, config: SprintConfig | None = None, seed: int = 0) -> float:
    """Vectorized games per CPU second for one batch (tables built outside the timing)."""
    config = config or SprintConfig()
    tables = Tables(model, config)
    begin = time.process_time()
    simulate(model, games, config, seed, tables=tables)
    return games / (time.process_time() - begin)
