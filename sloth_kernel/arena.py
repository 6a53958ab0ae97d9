"""``python -m sloth_kernel arena``: a seeded tournament between bot levels.

For every pair of levels (A, B) in the order given, game g seats A at seat
``g % n`` and B in every other seat (seats rotate), and deals from seed
``seed + g`` (every pair sees the same deals). A's score is its return (1 for a
win, a share for a shared win), so its mean is a win rate to compare with the
1/n baseline: heads-up when the game takes 2 players, otherwise one A against
a table of Bs. A cooperative game (its spec says so) instead seats each level at a table of its
own and reports the table's win rate.

Games run in worker processes (both cores by default) and each decision's CPU
time is recorded per level, so the ISMCTS move time comes with the table.
Intervals are 95% Wilson score intervals of the share (``sloth_kernel.stats``), which
always lie within 0 to 1.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import signal
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

from sloth_kernel.bots import bot_levels, make_bot
from sloth_kernel.cli import Parser, UsageError, program, whole_number
from sloth_kernel.errors import ConfigError, counted, shorten
from sloth_kernel.registry import available_games, game_spec, load_game
from sloth_kernel.stats import wilson_interval
from sloth_kernel.untrusted import check_seed

MAX_GAMES = 100_000
"""The most games per pairing (every match is scheduled up front)."""
MAX_WORKERS = 64
"""The most worker processes."""


@dataclass(frozen=True)
class Match:
    """One game to play: which level sits where, and all the seeds."""

    pair: int
    index: int
    game: str
    options: tuple[tuple[str, Any], ...]
    seats: tuple[str, ...]
    deal_seed: int
    bot_seed: int
    bot_options: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...]


@dataclass
class Outcome:
    pair: int
    index: int
    seats: tuple[str, ...]
    returns: tuple[float, ...]
    decisions: int
    think_time: dict[str, list[float]] = field(default_factory=dict)
    """CPU seconds per decision, per level (only levels that had a choice)."""


def play_match(match: Match) -> Outcome:
    """Play one seeded game through observations and checked moves."""
    game = load_game(match.game, **dict(match.options))
    level_options = {level: dict(opts) for level, opts in match.bot_options}
    if match.options:  # the rules in force are public: tell the searching bot
        level_options.setdefault("ismcts", {}).setdefault("game_options", dict(match.options))
    bots = [
        make_bot(match.game, level, seed=match.bot_seed * 16 + seat, **level_options.get(level, {}))
        for seat, level in enumerate(match.seats)
    ]
    state = game.new_state(match.deal_seed)
    think: dict[str, list[float]] = {}
    decisions = 0
    while not state.is_over:
        seat = state.current_player
        observation = state.observation(seat)
        start = time.process_time()
        move = bots[seat].choose(observation)
        if len(observation.legal_moves) > 1:
            think.setdefault(match.seats[seat], []).append(time.process_time() - start)
        state = state.play(move, player=seat)
        decisions += 1
    return Outcome(match.pair, match.index, match.seats, tuple(state.returns()), decisions, think)


def schedule(
    game_name: str,
    levels: list[str],
    games: int,
    seed: int,
    players: int,
    options: dict[str, Any],
    bot_options: dict[str, dict[str, Any]],
) -> tuple[list[tuple[str, str | None]], list[Match]]:
    """The pairs (or, cooperative, single levels) and every match to play."""
    frozen_options = tuple(sorted(options.items()))
    frozen_bots = tuple((lvl, tuple(sorted(opts.items()))) for lvl, opts in sorted(bot_options.items()))
    pairs: list[tuple[str, str | None]]
    if game_spec(game_name).cooperative:
        pairs = [(level, None) for level in levels]
    else:
        pairs = [(a, b) for i, a in enumerate(levels) for b in levels[i + 1 :]]
    matches = []
    for p, (a, b) in enumerate(pairs):
        for g in range(games):
            seats = tuple(a if b is None or s == g % players else b for s in range(players))
            matches.append(
                Match(p, g, game_name, frozen_options, seats, seed + g, seed * 1_000_003 + p * 100_003 + g, frozen_bots)
            )
    return pairs, matches


def mean_ci(values: list[float]) -> tuple[float, float, float]:
    """The mean share (each value from 0 to 1: a win, a loss or a shared win's share) and its 95%
    Wilson interval, which lies within 0 to 1 (NaN for no values)."""
    n = len(values)
    if n == 0:
        return math.nan, math.nan, math.nan
    total = min(max(math.fsum(values), 0.0), float(n))
    low, high = wilson_interval(total, n)
    return total / n, low, high


def summarize(
    game_name: str,
    pairs: list[tuple[str, str | None]],
    outcomes: list[Outcome],
    players: int,
) -> dict[str, Any]:
    rows = []
    for p, (a, b) in enumerate(pairs):
        mine = sorted((o for o in outcomes if o.pair == p), key=lambda o: o.index)
        scores = [o.returns[0] for o in mine] if b is None else [o.returns[o.seats.index(a)] for o in mine]
        mean, low, high = mean_ci(scores)
        baseline = None if b is None else 1.0 / players
        verdict = ""
        if baseline is not None:
            verdict = "better" if low > baseline else "worse" if high < baseline else "not separated"
        rows.append(
            {
                "a": a,
                "b": b,
                "games": len(scores),
                "score": mean,
                "ci_low": low,
                "ci_high": high,
                "baseline": baseline,
                "verdict": verdict,
                "wins": sum(1 for s in scores if s == 1.0),
                "shared": sum(1 for s in scores if 0.0 < s < 1.0),
            }
        )
    times: dict[str, list[float]] = {}
    for o in outcomes:
        for level, spent in o.think_time.items():
            times.setdefault(level, []).extend(spent)
    think = {
        level: {
            "decisions": len(spent),
            "mean_s": sum(spent) / len(spent),
            "max_s": max(spent),
            "p99_s": sorted(spent)[min(len(spent) - 1, int(0.99 * len(spent)))],
        }
        for level, spent in sorted(times.items())
        if spent
    }
    return {"rows": rows, "move_time": think}


def run_matches(matches: list[Match], workers: int, progress: bool) -> list[Outcome]:
    from tqdm import tqdm

    bar = tqdm(total=len(matches), unit="game", disable=not progress, smoothing=0.05)
    results: list[Outcome] = []
    try:
        if workers <= 1:
            for match in matches:
                results.append(play_match(match))
                bar.update()
        else:
            context = multiprocessing.get_context("spawn" if os.name == "nt" else "fork")
            with context.Pool(workers, initializer=_ignore_interrupts) as pool:
                iterator: Iterator[Outcome] = pool.imap_unordered(play_match, matches, chunksize=1)
                for outcome in iterator:
                    results.append(outcome)
                    bar.update()
    finally:
        bar.close()
    return results


def _ignore_interrupts() -> None:
    """In a worker: Ctrl-C is the parent's to handle (it stops the pool), so no worker prints a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def format_table(report: dict[str, Any]) -> str:
    lines = [
        f"{report['game']}, {report['players']} players, {report['games']} games per pairing, "
        f"seed {report['seed']}, seats rotated; 95% Wilson intervals",
    ]
    for row in report["rows"]:
        if row["b"] is None:
            lines.append(
                f"  {row['a']:>10} table win rate {row['score']:.3f}  [{row['ci_low']:.3f}, {row['ci_high']:.3f}]"
            )
        else:
            lines.append(
                f"  {row['a']:>10} vs {row['b']:<10} share {row['score']:.3f}  [{row['ci_low']:.3f}, {row['ci_high']:.3f}]"
                f"  baseline 1/{report['players']} = {row['baseline']:.3f}  -> {row['verdict']}"
            )
    if report["move_time"]:
        lines.append("CPU time per decision (moves with a choice):")
        for level, t in report["move_time"].items():
            lines.append(
                f"  {level:>10} mean {t['mean_s'] * 1000:8.1f} ms  p99 {t['p99_s'] * 1000:8.1f} ms  "
                f"max {t['max_s'] * 1000:8.1f} ms  over {t['decisions']:,} decisions"
            )
    lines.append(
        f"wall time {report['wall_s']:.1f}s on {counted(report['workers'], 'worker process', 'worker processes')}"
    )
    return "\n".join(lines)


def parse_value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


def arena(
    game_name: str,
    levels: list[str],
    games: int,
    *,
    seed: int = 0,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    bot_options: dict[str, dict[str, Any]] | None = None,
    workers: int | None = None,
    progress: bool = True,
) -> dict[str, Any]:
    """Run a tournament and return the report (what ``--json`` writes).

    Refused arguments (the game, its options, the levels and their options, the counts) raise
    ConfigError before any game is played.
    """
    options = dict(options or {})
    if players is not None:
        options["players"] = players
    game = load_game(game_name, **options)
    n = game.num_players
    check_seed(seed)
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise ConfigError(f"games per pairing must be a whole number from 1 to {MAX_GAMES:,}, not {shorten(games)}")
    if workers is not None and (
        isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= MAX_WORKERS
    ):
        raise ConfigError(f"workers must be a whole number from 1 to {MAX_WORKERS}, not {shorten(workers)}")
    check_levels(game_name, levels, bot_options or {})
    workers = workers or os.cpu_count() or 1
    pairs, matches = schedule(game_name, levels, games, seed, n, options, bot_options or {})
    start = time.perf_counter()
    outcomes = run_matches(matches, workers, progress)
    report = {
        "game": game_name,
        "players": n,
        "options": game.config.to_dict(),
        "bots": levels,
        "bot_options": bot_options or {},
        "games": games,
        "seed": seed,
        "workers": workers,
        "wall_s": time.perf_counter() - start,
    }
    report.update(summarize(game_name, pairs, outcomes, n))
    report["outcomes"] = [asdict(o) | {"think_time": None} for o in sorted(outcomes, key=lambda o: (o.pair, o.index))]
    return report


def check_levels(game_name: str, levels: list[str], bot_options: dict[str, dict[str, Any]]) -> None:
    """ConfigError unless every level is one of the game's, with options its bot takes."""
    known = bot_levels(game_name)
    if not levels:
        raise ConfigError(f"name the bot levels to compare, among {', '.join(known)}")
    if not game_spec(game_name).cooperative and len(levels) < 2:
        raise ConfigError(f"name at least two bot levels to compare, among {', '.join(known)}")
    for level in (*levels, *bot_options):
        if level not in known:
            raise ConfigError(f"no bot level {shorten(level)} for {game_name}; choose among {', '.join(known)}")
    for level, opts in bot_options.items():
        try:
            make_bot(game_name, level, seed=0, **opts)
        except ConfigError:
            raise  # already names the option and its valid values
        except (TypeError, ValueError) as err:
            raise ConfigError(f"bot level {level} refuses its options {shorten(opts)}: {err}") from err


def check_writable(path: str) -> None:
    """UsageError unless a report can be written at `path` (checked before a long tournament, not after)."""
    folder = os.path.dirname(os.path.abspath(path)) or "."
    if os.path.isdir(path):
        raise UsageError(f"--json names a folder, not a file: {shorten(path)}")
    if not os.path.isdir(folder):
        raise UsageError(f"--json names a file in a folder that does not exist: {shorten(folder)}")
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise UsageError(f"--json names a file that cannot be written: {shorten(path)}")


def _pair(item: str, flag: str, example: str) -> tuple[str, str]:
    key, sep, value = item.partition("=")
    if not sep or not key.strip():
        raise UsageError(f"{flag} takes {example}, not {shorten(item)}")
    return key.strip(), value


def parser() -> Parser:
    """The arena's command-line options."""
    parser = Parser(
        prog=f"{program()} arena", description=__doc__.replace("``", ""), epilog="Flags are off unless given."
    )
    parser.add_argument("--game", required=True, choices=available_games(), help="a registered game (required)")
    parser.add_argument(
        "--bots",
        default=None,
        help="comma-separated levels, strongest first, e.g. ismcts,heuristic,random "
        "(default: every level of the game, strongest first)",
    )
    parser.add_argument("--games", type=whole_number, default=100, help="games per pairing")
    parser.add_argument(
        "--seed", type=whole_number, default=0, help="the first game's seed; game g deals from seed + g"
    )
    parser.add_argument(
        "--players", type=whole_number, default=None, help="seats at the table (default: the game's own)"
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option, e.g. players=4; repeatable (default: the game's defaults)",
    )
    parser.add_argument(
        "--bot-option",
        action="append",
        default=[],
        metavar="LEVEL.NAME=VALUE",
        help="a bot option, e.g. ismcts.iterations=500; repeatable (default: each bot's defaults)",
    )
    parser.add_argument("--workers", type=whole_number, default=None, help="worker processes (default: all cores)")
    parser.add_argument("--json", default=None, metavar="PATH", help="also write the report here (default: no file)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    options = {k: parse_value(v) for k, v in (_pair(o, "--option", "NAME=VALUE") for o in args.option)}
    bot_options: dict[str, dict[str, Any]] = {}
    for item in args.bot_option:
        key, value = _pair(item, "--bot-option", "LEVEL.NAME=VALUE")
        level, dot, name = key.partition(".")
        if not dot or not level or not name:
            raise UsageError(f"--bot-option takes LEVEL.NAME=VALUE, not {shorten(item)}")
        bot_options.setdefault(level, {})[name] = parse_value(value)
    if args.bots is None:
        levels = bot_levels(args.game)[::-1]  # the registry lists them weakest first
    else:
        levels = [b.strip() for b in args.bots.split(",") if b.strip()]
    if args.json:
        check_writable(args.json)
    report = arena(
        args.game,
        levels,
        args.games,
        seed=args.seed,
        players=args.players,
        options=options,
        bot_options=bot_options,
        workers=args.workers,
        progress=not args.no_progress,
    )
    print(format_table(report))
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(report, handle, indent=1)
        print(f"wrote {args.json}")
    return 0
