"""``python -m sloth_kernel bench``: random-playout decisions per second, per game.

(``bench --tables`` measures the shared tables' stores instead: see ``sloth_kernel.tables.bench``;
``bench --edges`` the worst bot decision at the edge of every option's range: see ``sloth_kernel.edges``.)

Each figure is the median of several timed runs in one process, legal-move
generation included, using the documented fast path (clone + apply_unchecked).
Time is this process's CPU time (``time.process_time``), so other work on a
shared machine inflates the figures less than wall time would; the loop is
single-threaded, so it is one core's throughput. Ratios are only quoted between
figures measured in the same run.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from sloth_kernel.cli import Parser, UsageError, program, real_number, require_extra, whole_number
from sloth_kernel.errors import shorten
from sloth_kernel.registry import available_games, game_spec, load_game


def random_playouts(game_name: str, seconds: float, seed: int = 0) -> tuple[int, float]:
    """Decisions made in about `seconds` of random playouts; returns (decisions, elapsed)."""
    game = load_game(game_name)
    rng = random.Random(seed)
    decisions = 0
    start = time.process_time()
    deadline = start + seconds
    game_seed = seed
    while time.process_time() < deadline:
        state = game.new_state(game_seed)
        game_seed += 1
        while not state.is_over:
            moves = state.legal_moves()
            state.apply_unchecked(moves[rng.randrange(len(moves))])
            decisions += 1
    return decisions, time.process_time() - start


OPENSPIEL_REFERENCES = ("python_liars_poker", "dou_dizhu")
"""OpenSpiel's pure-Python Liar's Poker and its C++ Dou Dizhu, for ``--vs-openspiel``."""


def openspiel_playouts(short_name: str, seconds: float, seed: int = 0) -> tuple[int, float]:
    """Like :func:`random_playouts` for an OpenSpiel game: player decisions in about `seconds`.

    Chance nodes are sampled by their probabilities and not counted as decisions.
    """
    import pyspiel
    from open_spiel.python.games import liars_poker  # noqa: F401  (registers python_liars_poker)

    game = pyspiel.load_game(short_name)
    rng = random.Random(seed)
    decisions = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=False)
                state.apply_action(rng.choices(outcomes, weights)[0])
                continue
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
            decisions += 1
    return decisions, time.process_time() - start


def versus_openspiel(ours: dict[str, float], seconds: float, repeats: int) -> dict[str, float]:
    """Time OpenSpiel's reference games in this run and print our ratios to them."""
    theirs: dict[str, float] = {}
    print(f"OpenSpiel random playouts, same method (median of {repeats} x {seconds:.1f}s, one core):")
    for short_name in OPENSPIEL_REFERENCES:
        med, rates = median_rate(partial(openspiel_playouts, short_name, seconds), repeats)
        theirs[short_name] = med
        print(
            f"  {short_name:22s} {med:>12,.0f} decisions/s   (min {min(rates):,.0f} max {max(rates):,.0f})", flush=True
        )
    print("ratios (ours / theirs, same run):")
    print(f"  {'':22s} " + "  ".join(f"{name:>20s}" for name in theirs))
    for name, rate in ours.items():
        print(f"  {name:22s} " + "  ".join(f"{rate / theirs[ref]:>19.2f}x" for ref in theirs))
    return theirs


def median_rate(run: Callable[[], tuple[int, float]], repeats: int) -> tuple[float, list[float]]:
    rates = [count / elapsed for count, elapsed in (run() for _ in range(repeats))]
    return statistics.median(rates), rates


def check_levels(games: list[str] | None, levels: list[str] | None) -> None:
    """UsageError unless each of `levels` is a bot level of at least one of `games` (default: all)."""
    from sloth_kernel.bots import bot_levels

    known = sorted({level for name in games or available_games() for level in bot_levels(name)})
    for level in levels or []:
        if level not in known:
            raise UsageError(f"--levels: no bot level {shorten(level)} here; the levels are {', '.join(known)}")


def parser() -> Parser:
    """The benchmark's command-line options."""
    parser = Parser(
        prog=f"{program()} bench", description=__doc__.replace("``", ""), epilog="Flags are off unless given."
    )
    parser.add_argument(
        "--games", nargs="*", default=None, choices=available_games(), help="game names (default: all registered)"
    )
    parser.add_argument("--seconds", type=real_number, default=1.0, help="length of one timed run")
    parser.add_argument(
        "--repeats", type=whole_number, default=5, help="timed runs per figure, whose median is reported"
    )
    parser.add_argument(
        "--vs-openspiel",
        action="store_true",
        help="also time OpenSpiel's python_liars_poker and C++ dou_dizhu and print ratios (interop extra)",
    )
    parser.add_argument(
        "--tables",
        action="store_true",
        help="instead: the table stores' propagation, from a commit in one process to its arrival in another "
        "(SQLite, $SLOTH_TABLES and each --store)",
    )
    parser.add_argument(
        "--edges",
        action="store_true",
        help="instead: the worst bot decision (CPU seconds, peak memory) at each end of every game option's and "
        "bot option's range, for every game and bot level",
    )
    parser.add_argument(
        "--levels", nargs="*", default=None, help="with --edges: only these bot levels (default: every level)"
    )
    parser.add_argument("--samples", type=whole_number, default=6, help="with --edges: seeded positions per case")
    parser.add_argument(
        "--store", action="append", default=[], help="with --tables: also this store (a URL); repeatable"
    )
    parser.add_argument("--commits", type=whole_number, default=200, help="with --tables: commits per store")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.edges:
        if not 1 <= args.samples <= 1000:
            raise UsageError(f"--samples must be from 1 to 1000, not {args.samples}")
        check_levels(args.games, args.levels)
        from sloth_kernel.edges import run as run_edges

        return run_edges(args.games, args.levels, args.samples)
    if args.tables:
        if not 2 <= args.commits <= 100_000:
            raise UsageError(f"--commits must be from 2 to 100000, not {args.commits}")
        from sloth_kernel.tables.bench import run

        run(args.store, args.commits, gap=0.02)
        return 0
    if args.vs_openspiel:  # before any timing, not after a minute of it
        require_extra("--vs-openspiel", "interop", ("pyspiel", "open_spiel"))
    if not (math.isfinite(args.seconds) and 0 < args.seconds <= 3600):
        raise UsageError(f"--seconds must be more than 0 and at most 3600, not {args.seconds}")
    if not 1 <= args.repeats <= 1000:
        raise UsageError(f"--repeats must be from 1 to 1000, not {args.repeats}")
    names = args.games or available_games()
    print(f"random-playout decisions/s, median of {args.repeats} x {args.seconds:.1f}s runs, one core")
    results: dict[str, float] = {}
    for name in names:
        med, rates = median_rate(partial(random_playouts, name, args.seconds), args.repeats)
        results[name] = med
        spread = f"min {min(rates):,.0f} max {max(rates):,.0f}"
        print(f"  {name:22s} {med:>12,.0f} decisions/s   ({spread})", flush=True)
    if args.vs_openspiel:
        versus_openspiel(results, args.seconds, args.repeats)
    for name in names:
        spec = game_spec(name)
        extra: Any = spec.load(spec.benchmarks)
        if extra is not None:
            extra(args.repeats)
    return 0
