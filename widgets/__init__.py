"""ipywidgets play boards. They use only the public sloth_kernel API and never decide a rule.

A notebook cell is one line, e.g. ``TooSlothBoard(seed=1)`` or
``Board("race-to-the-bottom", seed=3, seats=["human", "heuristic"])``.
"""

from __future__ import annotations

import importlib
from typing import Any

BOARDS: dict[str, str] = {
    "too-sloth-to-win": "widgets.too_sloth_to_win:TooSlothBoard",
    "race-to-the-bottom": "widgets.race_to_the_bottom:RaceBoard",
    "surplus-of-sloths": "widgets.surplus_of_sloths:SurplusBoard",
    "sprint": "widgets.sprint:SprintBoard",
}


def board_class(game_name: str) -> type:
    from sloth_kernel import ConfigError

    if game_name not in BOARDS:
        raise ConfigError(f"no board for {game_name!r}; choose one of {', '.join(BOARDS)}")
    module_name, _, class_name = BOARDS[game_name].partition(":")
    return getattr(importlib.import_module(module_name), class_name)


def Board(game_name: str, seed: int | None = 1, seats: list[str] | None = None, **options: Any) -> Any:
    """The play board for `game_name` (a factory: ``Board("sprint", seed=2)``)."""
    return board_class(game_name)(seed=seed, seats=seats, **options)


def __getattr__(name: str) -> Any:
    """``from widgets import TooSlothBoard`` etc. without importing every game up front."""
    for path in BOARDS.values():
        module_name, _, class_name = path.partition(":")
        if class_name == name:
            return getattr(importlib.import_module(module_name), class_name)
    raise AttributeError(name)


__all__ = ["BOARDS", "Board", "board_class"]
