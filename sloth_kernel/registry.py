"""Game names -> game classes, imported lazily so one broken game cannot hide the rest."""

from __future__ import annotations

import importlib
from typing import Any

from .core import Game
from .errors import ConfigError

GAMES: dict[str, str] = {
    "too-sloth-to-win": "sloth_kernel.games.too_sloth_to_win:TooSlothToWin",
    "surplus-of-sloths": "sloth_kernel.games.surplus_of_sloths:SurplusOfSloths",
    "race-to-the-bottom": "sloth_kernel.games.race_to_the_bottom:RaceToTheBottom",
    "sprint": "sloth_kernel.games.sprint:Sprint",
}


def game_class(name: str) -> type[Game[Any]]:
    if not isinstance(name, str) or name not in GAMES:
        raise ConfigError(f"unknown game {name!r}; choose one of {', '.join(GAMES)}")
    module_name, _, class_name = GAMES[name].partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        if err.name == module_name:
            raise ConfigError(f"game {name!r} is not available in this version yet") from err
        raise
    return getattr(module, class_name)


def available_games() -> list[str]:
    """Names of the games whose modules are present."""
    found = []
    for name in GAMES:
        try:
            game_class(name)
        except ConfigError:
            continue
        found.append(name)
    return found


def load_game(name: str, **options: Any) -> Game[Any]:
    """``load_game("too-sloth-to-win", players=3)`` -> a Game with a validated config."""
    cls = game_class(name)
    return cls(cls.config_class.from_options(**options))
