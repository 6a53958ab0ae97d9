"""sloth-kernel: four small card games on one protocol, for notebooks."""

from __future__ import annotations

from sloth_kernel.core import NO_PLAYER, Event, Explanation, Game, GameConfig, GameState, Move
from sloth_kernel.errors import (
    ConfigError,
    DealError,
    IllegalMoveError,
    InvalidMoveError,
    PluginError,
    RecordError,
    RulesVersionError,
    SeatError,
    SlothKernelError,
)
from sloth_kernel.registry import available_games, from_record, game_spec, game_specs, load_game
from sloth_kernel.render import render_observation  # also installs the HTML renderer for states
from sloth_kernel.spec import GameSpec

__all__ = [
    "NO_PLAYER",
    "ConfigError",
    "DealError",
    "Event",
    "Explanation",
    "Game",
    "GameSpec",
    "GameConfig",
    "GameState",
    "IllegalMoveError",
    "InvalidMoveError",
    "Move",
    "PluginError",
    "RecordError",
    "RulesVersionError",
    "SeatError",
    "SlothKernelError",
    "available_games",
    "from_record",
    "game_spec",
    "game_specs",
    "load_game",
    "render_observation",
]
__version__ = "0.1.0"
