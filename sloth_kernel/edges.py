"""``python -m sloth_kernel bench --edges``: the worst bot decision at the edge of every option's range.

Every option a game or a bot accepts has a range whose worst case the bots must serve: a decision
within about a second of CPU and 500 MiB (issue 22). For every game and bot level this measures
decisions at each end of each ranged option (``players`` included, one option at a time, with
what the spec's ``option_needs`` says it needs), at the game's costliest option sets (its spec's
``edge_cases``: e.g. the longest track with the largest decks), and at each end of each
bot option's range (the bot class's ``option_ranges``), the latter at the costliest option set.

Each case runs in a fresh forked process, so that caches start cold as in a new server process:
``samples`` seeded positions (seeds 0, 1, ..., each a seeded number of random legal moves from the
seed's deal), one bot decision each, timed in CPU seconds (``time.process_time``: every thread of
the process); the first decision pays for the caches a bot builds (an exact solver's), later ones
reuse them, as a server's would. Memory is the process's peak resident size above what it held
when it started (``ru_maxrss``). The table shows each case's median, p95 and worst decision and
its peak memory; the last lines name the worst decision over all cases.
"""

from __future__ import annotations

import json
import math
import os
import random
import resource
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from sloth_kernel.errors import counted
from sloth_kernel.registry import available_games, game_spec, load_game

DECISION_SECONDS = 1.0
"""The most CPU time one bot decision may take at any option's edge (about)."""
DECISION_MIB = 500
"""The most memory one bot decision may take at any option's edge."""
DEEPEST = 40
"""Random legal moves before a sampled decision: each sample plays a seeded number from 0 to this."""


@dataclass(frozen=True)
class Case:
    """One bot level at one option set: what ``bench --edges`` measures."""

    game: str
    level: str
    label: str
    options: dict[str, Any] = field(default_factory=dict)
    bot_options: dict[str, Any] = field(default_factory=dict)


def game_edges(name: str) -> list[tuple[str, dict[str, Any]]]:
    """(label, options) at each end of each ranged option of the game, then the spec's costliest sets."""
    spec = game_spec(name)
    found: list[tuple[str, dict[str, Any]]] = [("defaults", {})]
    tops: dict[str, Any] = {}
    for option in spec.options():
        if option.low is None or option.high is None:
            continue
        needs = spec.option_needs.get(option.name, {})
        tops.update({**needs, option.name: option.high})
        for value in (option.low, option.high):
            if option.name != "players" and option.default == value:
                continue
            found.append((f"{option.name}={value}", {**needs, option.name: value}))
    if len(tops) > 1:
        found.append(("every range at its top", tops))
    found += [(label, dict(options)) for label, options in spec.edge_cases]
    return found


def bot_edges(level_class: Any) -> list[tuple[str, dict[str, Any]]]:
    """(label, bot options) at each end of each of the bot class's ``option_ranges``."""
    ranges: dict[str, tuple[Any, Any]] = getattr(level_class, "option_ranges", {})
    return [(f"{name}={value}", {name: value}) for name, (low, high) in ranges.items() for value in (low, high)]


def cases(games: list[str] | None = None, levels: list[str] | None = None) -> Iterator[Case]:
    """Every case of the edge benchmark, for the games and levels named (default: all)."""
    from sloth_kernel.bots import bot_classes

    for name in games or available_games():
        edges = game_edges(name)
        costliest = edges[-1]
        for level, level_class in bot_classes(name).items():
            if levels and level not in levels:
                continue
            for label, options in edges:
                yield Case(name, level, label, options)
            for label, bot_options in bot_edges(level_class):
                yield Case(name, level, f"{label}; {costliest[0]}", costliest[1], bot_options)


def measure(case: Case, samples: int) -> dict[str, Any]:
    """The case's decisions in a fresh forked process: CPU seconds of each, and the peak memory."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: measure, report as JSON, and leave without running the parent's cleanup
        try:
            os.close(read)
            try:
                report = json.dumps(_decisions(case, samples))
            except BaseException as err:  # noqa: BLE001 -- a failure is reported as a figure, never a hang
                report = json.dumps({"error": f"{type(err).__name__}: {err}"})
            with os.fdopen(write, "w") as out:
                out.write(report)
        finally:  # even when the parent is gone (Ctrl-C) and the write fails: never run the parent's code
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as incoming:
        text = incoming.read()
    os.waitpid(pid, 0)
    result: dict[str, Any] = json.loads(text) if text else {"error": "the measuring process died"}
    return result


def _decisions(case: Case, samples: int) -> dict[str, Any]:
    from sloth_kernel.bots import make_bot

    game = load_game(case.game, **case.options)
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    times = []
    for seed in range(samples):
        rng = random.Random(seed)
        state = game.new_state(seed)
        for _ in range(rng.randrange(DEEPEST + 1) if seed else 0):  # seed 0: the first move of the game
            if state.is_over:
                break
            state.apply_unchecked(rng.choice(state.legal_moves()))
        if state.is_over:
            state = game.new_state(seed)
        bot = make_bot(case.game, case.level, seed=seed, **case.bot_options)
        observation = state.observation(state.current_player)
        start = time.process_time()
        bot.choose(observation)
        times.append(time.process_time() - start)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base  # KiB on Linux
    return {"times": times, "mib": max(peak, 0) / 1024}


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]


def run(games: list[str] | None, levels: list[str] | None, samples: int) -> int:
    """Print the table; return 1 if any case failed or went past the limits, else 0."""
    print(
        f"worst bot decision at each option range's edge: {counted(samples, 'seeded position')} per case, "
        "CPU seconds of one decision (first one with cold caches), peak memory above the start"
    )
    print(f"  {'game':18s} {'level':9s} {'case':58s} {'n':>3s} {'median':>8s} {'p95':>8s} {'max':>8s} {'MiB':>6s}")
    worst: tuple[float, str] = (0.0, "")
    heaviest: tuple[float, str] = (0.0, "")
    failed = 0
    for case in cases(games, levels):
        result = measure(case, samples)
        label = case.label if len(case.label) <= 58 else case.label[:55] + "..."
        if "error" in result:
            failed += 1
            print(f"  {case.game:18s} {case.level:9s} {label:58s} failed: {result['error']}", flush=True)
            continue
        times, mib = result["times"], result["mib"]
        where = f"{case.game} {case.level} at {case.label}"
        worst = max(worst, (max(times), where))
        heaviest = max(heaviest, (mib, where))
        print(
            f"  {case.game:18s} {case.level:9s} {label:58s} {len(times):3d} {statistics.median(times):8.3f} "
            f"{p95(times):8.3f} {max(times):8.3f} {mib:6.0f}",
            flush=True,
        )
    print(f"worst decision: {worst[0]:.3f} s CPU ({worst[1]}); limit about {DECISION_SECONDS:g} s")
    print(f"most memory: {heaviest[0]:.0f} MiB ({heaviest[1]}); limit {DECISION_MIB} MiB")
    over = worst[0] > 1.5 * DECISION_SECONDS or heaviest[0] > DECISION_MIB
    return 1 if failed or over else 0


if __name__ == "__main__":
    sys.exit(run(None, None, 6))
