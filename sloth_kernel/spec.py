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
import typing
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sloth_kernel.core import Game, GameConfig


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
    low: int | None = None
    high: int | None = None
    """The numbers the rules can mean (inclusive), where the option is a number."""
    seat: bool = False
    """The option names a seat: 0 to players - 1."""


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
    max_length: int = 10_000
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
    option_ranges: dict[str, tuple[int, int]] = dataclasses.field(default_factory=dict)
    """Inclusive ranges of the numeric options (``players`` comes from ``players``)."""
    seat_options: tuple[str, ...] = ()
    """Options that name a seat (0 to players - 1)."""
    option_needs: dict[str, dict[str, Any]] = dataclasses.field(default_factory=dict)
    """Options that only apply with others set, e.g. ``{"rounds": {"match": True}}``."""
    edge_cases: tuple[tuple[str, dict[str, Any]], ...] = ()
    """(label, options): the game's costliest option sets for ``bench --edges`` (the last is the costliest),
    beyond the ends of each range it finds itself, e.g. the longest track with the largest decks."""
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
        """The game's options: names, types and defaults from its config class; ranges where declared."""
        config_class: type[GameConfig] = self.game_class().config_class
        hints = typing.get_type_hints(config_class)
        found = []
        for option in dataclasses.fields(config_class):
            low, high = self.players if option.name == "players" else self.option_ranges.get(option.name, (None, None))
            hint = hints[option.name]
            found.append(
                OptionSpec(
                    option.name,
                    str(hint).replace("typing.", "") if typing.get_args(hint) else hint.__name__,
                    option.default if option.default is not dataclasses.MISSING else None,
                    self.option_docs.get(option.name, ""),
                    low,
                    high,
                    option.name in self.seat_options,
                )
            )
        return tuple(found)
