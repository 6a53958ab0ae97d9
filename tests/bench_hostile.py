"""Benchmark (not a test): hostile input through every public entry point; the slowest calls.

    .venv/bin/python tests/bench_hostile.py [--examples N]

The corpus is the issue's named examples plus N examples per entry point and game drawn from
the property suite's Hypothesis strategies (tests/test_properties.py), with a fixed seed. Every
call is timed with ``time.perf_counter``; the script prints the slowest calls and each entry
point's median, and fails if any call raises anything but a SlothKernelError.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent / "plugins"))

from hypothesis import strategies as st  # noqa: E402

from sloth_kernel import SlothKernelError, available_games, load_game  # noqa: E402
from sloth_kernel.errors import shorten  # noqa: E402

NAMED: list[Any] = ["²", "pass ²", "D²-2", "٣", "lift ٣", "1" * 5000, "lift " + "9" * 5000, "x" * 10**6]
NAMED_SEEDS: list[Any] = ["abc", 1.5, True, [1, 2], 10**5000, -1, 2**256]
NAMED_SEATS: list[Any] = [True, 0.0, "0", 99, -1, "x", None, 1.5]


def draw(strategy: st.SearchStrategy[Any], count: int, rng: random.Random) -> list[Any]:
    """`count` examples of `strategy`, reproducibly (Hypothesis' own generator, seeded)."""
    from hypothesis import given, settings
    from hypothesis import seed as hseed

    found: list[Any] = []

    @hseed(rng.getrandbits(32))
    @settings(max_examples=count, database=None, derandomize=False, deadline=None)
    @given(strategy)
    def collect(value: Any) -> None:
        found.append(value)

    collect()
    return found


def timed(label: str, game: str, value: Any, call: Callable[[], Any], times: list[tuple[float, str, str, str]]) -> None:
    start = time.perf_counter()
    with contextlib.suppress(SlothKernelError):  # a refusal is an answer; anything else propagates
        call()
    times.append((time.perf_counter() - start, label, game, shorten(value)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=60, help="drawn examples per entry point and game")
    args = parser.parse_args()
    import conftest  # noqa: F401  (installs the toy plugin and the Hypothesis profiles, as the tests do)
    from positions import reached
    from test_properties import json_values, look_alike_seats, look_alike_seeds, tricky_text

    conftest.pytest_configure(None)  # type: ignore[arg-type]
    rng = random.Random(14)
    times: list[tuple[float, str, str, str]] = []
    for name in available_games():
        game = load_game(name)
        state = reached(name, 7, 20)
        record = state.to_record()
        texts = NAMED + draw(tricky_text, args.examples, rng)
        for text in texts:
            timed("parse_move", name, text, lambda: game.parse_move(text), times)  # noqa: B023
            timed("explain", name, text, lambda: state.explain(text), times)  # noqa: B023
            timed("play", name, text, lambda: state.play(text), times)  # noqa: B023
        for seat in NAMED_SEATS + draw(look_alike_seats, args.examples, rng):
            timed("observation", name, seat, lambda: state.observation(seat), times)  # noqa: B023
        for seed in NAMED_SEEDS + draw(look_alike_seeds, args.examples, rng):
            timed("new_state", name, seed, lambda: game.new_state(seed), times)  # noqa: B023
        for value in draw(json_values, args.examples, rng):
            timed("from_deal", name, value, lambda: game.from_deal(value), times)  # noqa: B023
            timed("replay", name, value, lambda: game.replay(value), times)  # noqa: B023
        deep: Any = 0
        for _ in range(100_000):
            deep = [deep]
        for value in (json.dumps(record), {**record, "moves": deep}, "[" * 10**6, {**record, "version": True}):
            timed("replay", name, value, lambda: game.replay(value), times)  # noqa: B023
        timed("to_record", name, "", state.to_record, times)
    times.sort(reverse=True)
    print(f"{len(times):,} calls; the slowest:")
    for seconds, label, name, value in times[:8]:
        print(f"  {seconds * 1000:8.2f} ms  {label:12s} {name:20s} {value}")
    print("median per entry point:")
    for label in sorted({t[1] for t in times}):
        print(f"  {label:12s} {statistics.median(t[0] for t in times if t[1] == label) * 1e6:8.1f} µs")
    conftest._session.close()  # uninstall the toy plugin while the interpreter is whole
    return 0


if __name__ == "__main__":
    sys.exit(main())
