"""Games are found through the ``sloth_kernel.games`` entry-point group; each names a GameSpec.

A broken plugin (it fails to import, or names something that is not a GameSpec) is
reported by :func:`broken_games` and raises :class:`~sloth_kernel.errors.PluginError`
naming it when asked for; every other game still loads.
"""

from __future__ import annotations

from functools import lru_cache
from importlib.metadata import entry_points
from typing import Any

from sloth_kernel.core import Game, GameState, install_spec_lookup, read_record
from sloth_kernel.errors import ConfigError, PluginError, RecordError, shorten
from sloth_kernel.spec import GameSpec

GROUP = "sloth_kernel.games"


@lru_cache(maxsize=1)
def _discover() -> tuple[dict[str, GameSpec], dict[str, str]]:
    specs: dict[str, GameSpec] = {}
    broken: dict[str, str] = {}
    for point in entry_points(group=GROUP):
        if point.name in specs or point.name in broken:
            continue  # the first distribution on the path wins, as with imports
        try:
            spec = point.load()
        except Exception as err:  # a plugin's import error must not hide the other games
            broken[point.name] = f"{point.value} failed to load: {type(err).__name__}: {err}"
            continue
        if not isinstance(spec, GameSpec):
            broken[point.name] = f"{point.value} is a {type(spec).__name__}, not a GameSpec"
        elif spec.name != point.name:
            broken[point.name] = f"{point.value} names its game {spec.name!r}, not {point.name!r}"
        else:
            specs[point.name] = spec
    ordered = dict(sorted(specs.items(), key=lambda item: (item[1].order, item[0])))
    return ordered, broken


def refresh() -> None:
    """Forget what was discovered (after installing or adding a plugin in this process)."""
    _discover.cache_clear()


def game_specs() -> dict[str, GameSpec]:
    """Every working game's spec, by name, in listing order."""
    return dict(_discover()[0])


def broken_games() -> dict[str, str]:
    """Plugins that failed to load, by name, with what went wrong."""
    return dict(_discover()[1])


def game_spec(name: str) -> GameSpec:
    specs, broken = _discover()
    if isinstance(name, str) and name in specs:
        return specs[name]
    if isinstance(name, str) and name in broken:
        raise PluginError(name, broken[name])
    raise ConfigError(f"unknown game {shorten(name)}; choose one of {', '.join(specs)}", value=shorten(name))


def registered_spec(name: str) -> GameSpec | None:
    """The spec of a working registered game, or None (no error: for code that may meet any Game class)."""
    return _discover()[0].get(name)


install_spec_lookup(registered_spec)


def available_games() -> list[str]:
    """Names of the games that load, in listing order."""
    return list(_discover()[0])


def game_class(name: str) -> type[Game[Any, Any]]:
    spec = game_spec(name)
    try:
        return spec.game_class()
    except Exception as err:
        raise PluginError(name, f"{spec.engine} failed to load: {type(err).__name__}: {err}") from err


def load_game(name: str, **options: Any) -> Game[Any, Any]:
    """``load_game(name, players=3)`` -> a Game with a validated config (see :meth:`Game.make_config`).

    An unknown game, an unknown option (the valid ones are listed), a wrong type, a value beyond
    the size limits, the spec's ranges or the rules raises ConfigError.
    """
    cls = game_class(name)
    return cls(cls.make_config(options))


def from_record(record: Any) -> GameState[Any, Any]:
    """The state a record (a dict, or its JSON text) describes, for whichever registered game it names.

    Checks the record like :meth:`Game.replay` does; raises RecordError (an unknown game included).
    """
    data = read_record(record)
    try:
        cls = game_class(data["game"])
    except ConfigError as err:
        raise RecordError(f"record.game: {err}", path="record.game", value=shorten(data["game"])) from err
    state: GameState[Any, Any] = cls.from_record(data)
    return state
