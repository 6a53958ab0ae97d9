"""A game's spec: the one object that tells the shared layers everything about a game.

Each game package (``sloth_kernel/games/<game>/__init__.py``, or a plugin's) defines a
:class:`GameSpec` and exposes it through the ``sloth_kernel.games`` entry-point group::

    [project.entry-points."sloth_kernel.games"]
    my-game = "my_package:SPEC"

The core, the render kit, the bots, the arena, the bench, the command line, the interop
bridges, the gallery, the lessons and the widgets learn about a game only from here.
Every part other than the engine is a lazily imported ``"module:attr"`` reference, so
loading a spec imports nothing heavy (no ipywidgets, no numpy).
"""

from __future__ import annotations

import dataclasses
import importlib
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from sloth_kernel.errors import ConfigError, PluginError
from sloth_kernel.notation import check_seat, shown
from sloth_kernel.untrusted import DEFAULT_MAX_MOVES, schema_validator

if TYPE_CHECKING:
    from sloth_kernel.core import Game, GameConfig

Range = tuple[float, float] | tuple[float, float, str]
"""An option's declared range: ``(low, high)`` inclusive, or ``(low, high, why)`` where ``why`` says
where the limits come from (a rule id, or what larger values would cost); the refusal quotes it."""


def resolve(reference: str) -> Any:
    """Import ``"package.module:attr"`` and return the attribute."""
    module_name, _, attr = reference.partition(":")
    value: Any = importlib.import_module(module_name)
    for part in attr.split(".") if attr else ():
        value = getattr(value, part)
    return value


@dataclass(frozen=True)
class Notebook:
    """A notebook that belongs to a game, listed in the gallery."""

    path: str
    title: str
    blurb: str


@dataclass(frozen=True)
class OptionSpec:
    """One option of a game: its name, type, default and the values the rules can mean."""

    name: str
    type: str
    default: Any
    doc: str = ""
    low: float | None = None
    high: float | None = None
    """The numbers the rules can mean (inclusive), where the option is a number."""
    seat: bool = False
    """The option names a seat: 0 to players - 1."""
    items: tuple[float, float] | None = None
    """The range of each item, where the option is a list of numbers (e.g. a deck's card counts)."""
    why: str = ""
    """Where the range comes from (a rule id, or what larger values would cost)."""

    @property
    def limits(self) -> str:
        """The declared values in words, for people (``option_docs`` never repeats them): e.g. "5 to 60"."""
        if self.seat:
            return "a seat: 0 to the number of players - 1"
        if self.low is not None and self.high is not None:
            return f"{_number(self.low)} to {_number(self.high)}"
        if self.items is not None:
            return f"each {_number(self.items[0])} to {_number(self.items[1])}"
        return ""


@dataclass(frozen=True)
class GameSpec:
    """Everything the shared layers know about one game.

    ``engine`` is required; every other reference is optional and names a
    ``"module:attr"`` imported only when it is needed.
    """

    name: str
    """The name for ``load_game`` and the entry point, e.g. ``"my-game"``."""
    title: str
    """The rulebook's title, as people read it."""
    players: tuple[int, int]
    """Fewest and most players."""
    default_players: int
    kind: str
    """A few words for the gallery, e.g. ``"climbing race"``."""
    engine: str
    """``module:Class`` of the :class:`~sloth_kernel.core.Game` subclass."""
    renderer: str | None = None
    """``module:function``: observation (or omniscient view) -> HTML."""
    bots: str | None = None
    """``module:dict``: bot level -> bot class (``random`` is always there)."""
    search: str | None = None
    """``module:function`` returning the game's :class:`~sloth_kernel.bots.search.SearchSpec` (ISMCTS)."""
    board: str | None = None
    """``module:Class`` of the game's play board widget."""
    lessons: str | None = None
    """``module:tuple`` of :class:`~sloth_kernel.lessons.Lesson` scripted deals."""
    checker: str | None = None
    """``module:CheckerKit`` for the 'Does it beat?' checker (climbing games)."""
    puzzles: str | None = None
    """``module:PuzzleBook`` of the game's 'find the play' puzzles and the kit that proves them."""
    variants: str | None = None
    """``module:object`` with the game's variant-lab knobs and measure."""
    benchmarks: str | None = None
    """``module:function(repeats)`` printing the game's own extra benchmark figures."""
    cooperative: bool = False
    """True when the whole table wins or loses together."""
    hidden_information: bool = True
    """False declares that every seat's observation shows the whole game (no hidden hands, no hidden deck
    order): the OpenSpiel bridge then registers it as a perfect-information game. ``check_game`` checks it."""
    chance_after_deal: bool = True
    """False declares that once dealt, the moves alone decide the game (no later shuffle, draw or roll from
    the seed). With ``hidden_information=False`` too, the OpenSpiel bridge registers it with no chance node:
    its ``seed`` parameter picks the deal. ``check_game`` checks it by replaying moves under another seed."""
    max_length: int = DEFAULT_MAX_MOVES
    """A generous bound on the moves of one game (for frameworks that ask)."""
    order: int = 100
    """Where the game stands in listings (smaller first)."""
    pitch: str = ""
    """The gallery's paragraph about the game."""
    faces: tuple[tuple[str, ...], ...] = ()
    """Card pictures for the gallery: the arguments of ``render.kit.CardFace`` (value, colour, icon, tag, kind)."""
    play_notebook: str | None = None
    learn_notebook: str | None = None
    notebooks: tuple[Notebook, ...] = ()
    """Further notebooks (analyses) listed under the gallery's "Go deeper"."""
    option_docs: dict[str, str] = dataclasses.field(default_factory=dict)
    """Plain-words help for each option."""
    option_ranges: dict[str, Range] = dataclasses.field(default_factory=dict)
    """The one declaration of each number option's range: ``(low, high)`` inclusive, or ``(low, high, why)``.
    For a list option the range is each item's. ``players`` comes from ``players``. Every config is
    checked against them (:meth:`check_option`), with a ConfigError naming the option and its range."""
    seat_options: tuple[str, ...] = ()
    """Options that name a seat (0 to players - 1)."""
    option_needs: dict[str, dict[str, Any]] = dataclasses.field(default_factory=dict)
    """What an option needs set beside it to apply, e.g. ``{"rounds": {"match": True}}``: ``bench --edges`` and
    the tests set it when they try the option's range. The rule itself is in ``options_together``."""
    options_together: str | None = None
    """``module:function(config)``: the rules that tie options together (e.g. carrots against the track
    length, an option that only applies with another), raising ConfigError; run after every option has
    passed its own type and range. The one place a game checks options beyond their declarations."""
    edge_cases: tuple[tuple[str, dict[str, Any]], ...] = ()
    """(label, options): the game's costliest option sets for ``bench --edges`` (the last is the costliest),
    beyond the ends of each range it finds itself, e.g. the longest track with the largest decks."""
    reveal_kinds: tuple[str, ...] = ()
    """The ``Event.kind`` of each moment a board shows as a step of its own (a round's results, the next
    deal, a type of a reveal, a card turned). After a move, each event of one of these kinds opens a
    step: the board shows the move first, then one step per such event as the person steps on
    (``sloth_widgets.reveal``). What a step shows is in the observation; an event of these kinds is
    never a move itself. Empty: a move shows all it did at once."""
    deal_schema: str | None = None
    """``package:file``: the JSON Schema (draft-07) of the deals ``from_deal`` takes, a resource shipped
    in the package (e.g. ``"my_game:deal.schema.json"``). ``from_deal`` checks every deal against it
    before the engine reads it; without one, only the structural checks apply (JSON data, size, depth)."""

    def __post_init__(self) -> None:
        low, high = self.players
        if not 1 <= low <= self.default_players <= high:
            raise ValueError(f"{self.name}: players {self.players} must hold the default {self.default_players}")

    def game_class(self) -> type[Game[Any, Any]]:
        cls: type[Game[Any, Any]] = resolve(self.engine)
        return cls

    def load(self, reference: str | None) -> Any:
        """Resolve one of this spec's references (None when the game has no such part)."""
        return None if reference is None else resolve(reference)

    def options(self) -> tuple[OptionSpec, ...]:
        """The game's options: names, types and defaults from its config class; ranges from ``option_ranges``."""
        config_class: type[GameConfig] = self.game_class().config_class
        hints = typing.get_type_hints(config_class)
        found = []
        for option in dataclasses.fields(config_class):
            hint = hints[option.name]
            low, high, why = self._range(option.name)
            listed = typing.get_origin(hint) is tuple or any(typing.get_origin(arm) is tuple for arm in _arms(hint))
            found.append(
                OptionSpec(
                    option.name,
                    str(hint).replace("typing.", "") if typing.get_args(hint) else hint.__name__,
                    option.default if option.default is not dataclasses.MISSING else None,
                    self.option_docs.get(option.name, ""),
                    None if listed else low,
                    None if listed else high,
                    option.name in self.seat_options,
                    None if not listed or low is None or high is None else (low, high),
                    why,
                )
            )
        return tuple(found)

    def _range(self, name: str) -> tuple[float | None, float | None, str]:
        if name == "players":
            return self.players[0], self.players[1], f"{self.title} is for {self.players[0]}-{self.players[1]} players"
        declared = self.option_ranges.get(name)
        if declared is None:
            return None, None, ""
        low, high, *why = declared
        return low, high, str(why[0]) if why else ""

    # -- the checks every config passes (called by GameConfig.validate) --

    def check_option(self, config: GameConfig, name: str, value: Any, *, whole: bool) -> None:
        """Refuse `value` of option `name` outside what this spec declares for it: its range (each item's, for a
        list), or a seat of the config's players. `whole`: the option holds whole numbers. Raises ConfigError."""
        if name in self.seat_options:
            players = getattr(config, "players", None)
            if isinstance(players, int) and not isinstance(players, bool) and players > 0:
                check_seat(value, players, what=name)
        low, high, why = self._range(name)
        if low is None or high is None or value is None:
            return
        kind = "whole numbers" if whole else "numbers"
        because = f" ({why})" if why else ""
        if isinstance(value, (tuple, list)):
            for index, item in enumerate(value):
                if not _within(item, low, high):
                    raise ConfigError(
                        f"{name} holds {kind}, each {_number(low)} to {_number(high)}{because}: "
                        f"{name}[{index}] is {shown(item)}",
                        value=shown(item),
                    )
        elif not _within(value, low, high):
            raise ConfigError(
                f"{name} must be {'a whole number' if whole else 'a number'} from {_number(low)} to {_number(high)}"
                f"{because}, not {shown(value)}",
                value=shown(value),
            )

    def check_together(self, config: GameConfig) -> None:
        """The game's ``options_together`` rules, once every option has passed on its own."""
        if self._together is not None:
            self._together(config)

    @cached_property
    def _together(self) -> Callable[[GameConfig], None] | None:
        if self.options_together is None:
            return None
        try:
            found: Callable[[GameConfig], None] = resolve(self.options_together)
        except Exception as err:  # a plugin's broken reference names the plugin, not a traceback
            raise PluginError(self.name, f"options_together {self.options_together} failed to load: {err}") from err
        return found

    def check_declarations(self) -> None:
        """PluginError unless every declared option is a field of the config, every range holds its default,
        no field declares a range the spec would not see (a field's ``metadata``), and the deal schema loads."""
        if self.deal_schema is not None:
            try:
                schema_validator(self.deal_schema)
            except Exception as err:  # a schema left out of the wheel, or not JSON Schema: said once, at load
                raise PluginError(
                    self.name,
                    f"deal_schema {self.deal_schema} does not load ({type(err).__name__}: {err}); ship the file "
                    "as package data ([tool.setuptools.package-data] in pyproject.toml)",
                ) from err
        names = {option.name for option in dataclasses.fields(self.game_class().config_class)}
        for what, declared in (
            ("option_ranges", self.option_ranges),
            ("seat_options", self.seat_options),
            ("option_needs", self.option_needs),
        ):
            unknown = sorted(set(declared) - names)
            if unknown:
                raise PluginError(self.name, f"{what} names {', '.join(unknown)}, not options of its config")
        for field in dataclasses.fields(self.game_class().config_class):
            if field.metadata:
                raise PluginError(
                    self.name,
                    f"option {field.name} declares metadata; ranges are declared in the spec's option_ranges",
                )
        for option in self.options():
            low, high, _ = self._range(option.name)
            if low is None or high is None:
                continue
            if not low <= high:
                raise PluginError(self.name, f"option {option.name}'s range {low} to {high} is empty")
            default = option.default if isinstance(option.default, tuple) else (option.default,)
            if not all(item is None or _within(item, low, high) for item in default):
                raise PluginError(self.name, f"option {option.name}'s default {option.default} is outside its range")


def _arms(hint: Any) -> tuple[Any, ...]:
    return typing.get_args(hint) if typing.get_origin(hint) in (typing.Union, types.UnionType) else ()


def _within(value: Any, low: float, high: float) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and low <= value <= high


def _number(value: float) -> str:
    return str(value) if isinstance(value, int) else f"{value:g}"
