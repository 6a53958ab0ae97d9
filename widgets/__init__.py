"""ipywidgets play boards. They use only the public sloth_kernel API and never decide a rule.

A notebook cell is one line, e.g. ``Board(name, seats=["human", "heuristic"])``.
Each game's board lives in ``sloth_widgets/<game>/`` and is named by the game's spec.
"""

from __future__ import annotations

from typing import Any

from sloth_widgets.safety import protect_if_served

protect_if_served()  # a kernel that Voila started sends pages no traceback and no stderr (safety.py)


def board_class(game_name: str) -> type:
    """The board class the game's spec names (imported on first use)."""
    from sloth_kernel import ConfigError, game_spec

    spec = game_spec(game_name)
    board: type | None = spec.load(spec.board)
    if board is None:
        raise ConfigError(f"{spec.title} has no play board")
    return board


def Board(game_name: str, seed: int | None = None, seats: list[str] | None = None, **options: Any) -> Any:
    """The play board for `game_name` (a factory): ``Board(name)`` deals a fresh, secret deal;
    ``Board(name, seed=2)`` deals a chosen seed on purpose."""
    return board_class(game_name)(seed=seed, seats=seats, **options)


def __getattr__(name: str) -> Any:
    """``from sloth_widgets import <Board class>``: any registered game's board, by class name."""
    from sloth_kernel import game_specs

    for spec in game_specs().values():
        if spec.board is not None and spec.board.rpartition(":")[2] == name:
            return spec.load(spec.board)
    raise AttributeError(name)


__all__ = ["Board", "board_class"]
