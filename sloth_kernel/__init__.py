"""sloth-kernel: four small card games on one protocol, for notebooks."""

from __future__ import annotations

from .core import NO_PLAYER, Event, Explanation, Game, GameConfig, GameState, Move
from .errors import ConfigError, IllegalMoveError, InvalidMoveError, RecordError, SlothKernelError
from .registry import GAMES, available_games, load_game

__all__ = [
    "GAMES",
    "NO_PLAYER",
    "ConfigError",
    "Event",
    "Explanation",
    "Game",
    "GameConfig",
    "GameState",
    "IllegalMoveError",
    "InvalidMoveError",
    "Move",
    "RecordError",
    "SlothKernelError",
    "available_games",
    "load_game",
]
__version__ = "0.1.0"
