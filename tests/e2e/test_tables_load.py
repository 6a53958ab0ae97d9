"""The classroom load benchmark's correctness, at a small size (tests/e2e/bench_tables.py).

Two tables of Too Sloth To Win (three people each: the game needs three) play to the end in
chromium against one Voila, each page clicking its seat's moves; then every game is over, the
stored records replay, the version grew at every click, and each page's log has as many lines as
its seat's observation. The benchmark's times are printed, never asserted (README "Shared tables").
"""

from __future__ import annotations

from typing import Any

from bench_tables import run_bench


def test_two_tables_play_to_the_end_with_no_move_lost_or_doubled(playwright: Any, capsys: Any) -> None:
    figures = run_bench(tables_count=2, seats=3, game="too-sloth-to-win", timeout=600, playwright=playwright)
    with capsys.disabled():
        print(f"\n{figures}")
    assert figures["problems"] == []
    assert figures["clicks"] >= 2 and figures["moves"] >= figures["clicks"]
    assert figures["changes"] == 2 * figures["clicks"]  # each click reached both other pages of its table
