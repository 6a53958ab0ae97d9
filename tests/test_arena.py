"""The arena is seeded and reproducible, whatever the number of worker processes."""

from __future__ import annotations

import json
from pathlib import Path

from sloth_kernel.arena import arena, main, mean_ci
from sloth_kernel.stats import wilson_interval


def test_mean_ci() -> None:
    mean, low, high = mean_ci([1.0, 0.0, 1.0, 0.0])
    assert mean == 0.5 and low < 0.5 < high
    # One win in one game is no certainty: the interval is Wilson's, never the point [1.000, 1.000]
    # the normal approximation gave, and never past 1 (issue 23).
    assert mean_ci([1.0]) == (1.0, *wilson_interval(1, 1))
    assert mean_ci([1.0])[1] < 0.25
    for scores in ([1.0] * 9 + [0.0], [0.0] * 5, [1.0] * 30, [0.5, 1.0, 1 / 3]):
        mean, low, high = mean_ci(scores)
        assert 0.0 <= low < high <= 1.0 and low <= mean <= high, scores


def test_same_seed_same_outcomes_on_one_or_two_workers() -> None:
    one = arena("surplus-of-sloths", ["heuristic", "random"], 4, seed=3, players=2, workers=1, progress=False)
    two = arena("surplus-of-sloths", ["heuristic", "random"], 4, seed=3, players=2, workers=2, progress=False)
    assert one["outcomes"] == two["outcomes"]
    assert one["rows"][0]["games"] == 4 and one["rows"][0]["baseline"] == 0.5
    seats = [o["seats"] for o in one["outcomes"]]
    assert seats[0].index("heuristic") != seats[1].index("heuristic"), "seats rotate"


def test_cooperative_sprint_reports_table_win_rates() -> None:
    report = arena("sprint", ["expert", "heuristic"], 3, seed=1, workers=1, progress=False)
    assert [row["b"] for row in report["rows"]] == [None, None]
    assert all(0.0 <= row["score"] <= 1.0 for row in report["rows"])


def test_command_writes_json(tmp_path: Path, capsys) -> None:
    out = tmp_path / "arena.json"
    code = main(
        [
            "--game",
            "too-sloth-to-win",
            "--players",
            "3",
            "--bots",
            "ismcts,random",
            "--games",
            "2",
            "--bot-option",
            "ismcts.iterations=5",
            "--workers",
            "1",
            "--no-progress",
            "--json",
            str(out),
        ]
    )
    assert code == 0
    report = json.loads(out.read_text())
    assert report["bot_options"] == {"ismcts": {"iterations": 5}}
    assert report["rows"][0]["a"] == "ismcts" and "ismcts" in report["move_time"]
    assert "share" in capsys.readouterr().out
