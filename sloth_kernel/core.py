"""The game protocol every game speaks.

A game module subclasses :class:`GameConfig`, :class:`Game` and :class:`GameState`
and defines frozen move values and a frozen observation. Everything else here --
checked play, explanations, records, replay, HTML rendering -- is written once.
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
import re
import secrets
import types
import typing
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar, Generic, NamedTuple, Protocol, TypeVar, cast

from sloth_kernel.errors import (
    ConfigError,
    DealError,
    IllegalMoveError,
    InvalidMoveError,
    RecordError,
    RulesVersionError,
    SeatError,
    SlothKernelError,
    a_or_an,
    plural,
    shorten,
)
from sloth_kernel.errors import (
    counted as counted,  # re-exported: games and renderers count in plain words
)
from sloth_kernel.errors import (
    ordinal as ordinal,
)
from sloth_kernel.explanation import Explanation as Explanation  # re-exported: the protocol's answer type
from sloth_kernel.notation import check_seat as check_seat  # re-exported: the one seat check
from sloth_kernel.notation import not_a_move, too_long
from sloth_kernel.untrusted import (
    DEFAULT_MAX_MOVES,
    MAX_MOVE_TEXT,
    MAX_OPTION_INT,
    MAX_OPTION_ITEMS,
    MAX_OPTION_TEXT,
    RECORD_SCHEMA,
    check_schema,
    check_seed,
    freeze,
    json_copy,
    parse_json_text,
    thaw,
)

if TYPE_CHECKING:
    from typing import Self


RECORD_FORMAT = "sloth-kernel/record"
RECORD_VERSION = 1
NO_PLAYER = -1
_CITED_RULE = re.compile(r"\b[A-Z]{2}-\d+\b")  # a rule id as sentences cite it: two capitals, a dash, a number
"""`current_player` once the game is over."""


def seeded_rng(seed: int, *labels: object) -> random.Random:
    """A private generator for one chance event (e.g. ``seeded_rng(seed, "deal", 2)``).

    Deriving a fresh generator per event keeps states cheap to copy and replays
    exact; the global ``random`` module is never used.
    """
    return random.Random("/".join(map(str, (seed, *labels))))


def fresh_seed() -> int:
    """A seed for ``new_state(seed=None)``; stored so the game can be replayed.

    128 random bits from :mod:`secrets`: a seed is the whole deal, so it must not be guessable
    (nor found by trying every seed). A Python int; show it as text (a JS number holds 53 bits).
    """
    return secrets.randbits(128)


# --- explanations and events -------------------------------------------------


class Event(NamedTuple):
    """One narrated line of the game log. Events hold public information only.

    `rules` cites the rulings applied, for people; programs that must recognise a
    moment (a world sampler reading the log) read `kind` instead, a stable name the
    engine sets on the events that need one (e.g. ``"round-start"``; None otherwise),
    so citations can change without breaking them.

    A NamedTuple rather than a dataclass: games make one or more per move, and
    this is the cheapest immutable record Python has.
    """

    text: str
    player: int | None = None
    move: str | None = None
    rules: tuple[str, ...] = ()
    kind: str | None = None

    def __str__(self) -> str:
        return self.text


# --- configuration -------------------------------------------------------------


@dataclass(frozen=True)
class GameConfig:
    """Base of every game's frozen, validated options.

    Subclasses declare fields with types and defaults, and nothing else about them: the ranges live
    in the game's spec (``option_ranges``, ``seat_options``, ``players``), the rules that tie options
    together in the spec's ``options_together``. :meth:`validate` checks all of it; do not override it.
    """

    @classmethod
    def from_options(cls, **options: Any) -> Self:
        """The config with these options: unknown names, wrong types and oversized values refused first
        (ConfigError, before any heavy work), then :meth:`validate`."""
        names = [f.name for f in dataclasses.fields(cls)]
        unknown = sorted(set(options) - set(names))
        if unknown:
            raise ConfigError(
                f"unknown {plural(len(unknown), 'option')} {', '.join(map(shorten, unknown))}; "
                f"valid options: {', '.join(names)}",
                value=shorten(unknown[0]),
            )
        hints = _field_types(cls)
        for name, value in options.items():
            _check_type(name, value, hints[name])
        for name, value in options.items():  # numbers no game can mean (nor print: 10**5000)
            _check_magnitude(name, value, ABSURD_OPTION_INT)
        config = cls(**{k: (tuple(v) if isinstance(v, list) else v) for k, v in options.items()})
        config.validate()
        return config

    def validate(self) -> None:
        """The one check of a config, however it was built; raise ConfigError for what it refuses.

        Each option in turn (the cheap, decisive checks first): its type and the size limits, then
        what the game's spec declares for it (its range, or a seat); then the spec's
        ``options_together``; then the generic bound of number options, for games that declare none.
        """
        cls = type(self)
        hints = _field_types(cls)
        spec = _config_spec(cls)
        values = [(f.name, getattr(self, f.name)) for f in dataclasses.fields(self)]
        for name, value in values:
            _check_type(name, value, hints[name])
            _check_magnitude(name, value, ABSURD_OPTION_INT)
            if spec is not None:
                spec.check_option(self, name, value, whole=_whole(hints[name]))
        if spec is not None:
            spec.check_together(self)
        for name, value in values:
            _check_magnitude(name, value, MAX_OPTION_INT)

    def to_dict(self) -> dict[str, Any]:
        """The options as JSON data: a fresh dict (lists for tuples) on every call."""
        return {f.name: _jsonable(getattr(self, f.name)) for f in dataclasses.fields(self)}

    def changes(self) -> dict[str, Any]:
        """Only the options that differ from the defaults."""
        base = type(self)()
        return {k: v for k, v in self.to_dict().items() if v != base.to_dict()[k]}


_CONFIG_GAMES: dict[type[GameConfig], str] = {}
"""Config class -> the name of the game that plays it (set as each Game subclass is defined)."""


def _config_spec(cls: type[GameConfig]) -> SpecLike | None:
    """The registered spec of the game whose config class `cls` is (None for a config no game names)."""
    name = _CONFIG_GAMES.get(cls)
    return None if name is None or _spec_lookup is None else _spec_lookup(name)


def _whole(hint: Any) -> bool:
    """Does an option of this type hold whole numbers (int, int | None, tuple[int, ...])?"""
    if hint is int:
        return True
    return any(_whole(arm) for arm in typing.get_args(hint) if arm is not Ellipsis)


_FIELD_TYPES: dict[type[GameConfig], dict[str, Any]] = {}


def _field_types(cls: type[GameConfig]) -> dict[str, Any]:
    """A config class's field types, read once (``get_type_hints`` evaluates every annotation)."""
    found = _FIELD_TYPES.get(cls)
    if found is None:
        found = _FIELD_TYPES[cls] = typing.get_type_hints(cls)
    return found


def _jsonable(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _type_name(hint: Any) -> str:
    return str(getattr(hint, "__name__", hint)).replace("typing.", "")


class _SizeError(ConfigError):
    """An option too big to check further: refused whatever type the option may take."""


ABSURD_OPTION_INT = 2**63
"""Numbers in options beyond this are refused before a game's own ``validate`` sees them."""


def _check_magnitude(name: str, value: Any, bound: int) -> None:
    """Refuse numbers (alone or in a list) beyond `bound`: no game is built from such a number."""
    for index, item in enumerate(value if isinstance(value, (tuple, list)) else (value,)):
        if isinstance(item, (int, float)) and not isinstance(item, bool):
            finite = isinstance(item, int) or math.isfinite(item)  # isfinite(10**5000) overflows
            if not (finite and -bound <= item <= bound):
                where = f"{name}[{index}]" if isinstance(value, (tuple, list)) else name
                raise ConfigError(
                    f"option {where}={shorten(item)} is out of bounds: numbers in options lie from "
                    f"{-MAX_OPTION_INT:,} to {MAX_OPTION_INT:,}",  # the documented bound, whichever check
                    value=shorten(item),
                )


def _check_type(name: str, value: Any, hint: Any) -> None:
    """Refuse an option value of the wrong type or beyond the generic size limits (ConfigError)."""
    said = f"option {name}={shorten(value)}"
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        choices = typing.get_args(hint)
        if not any(type(value) is type(choice) and value == choice for choice in choices):
            raise ConfigError(f"{said} must be one of {', '.join(map(repr, choices))}", value=shorten(value))
        return
    if origin in (typing.Union, types.UnionType):
        for arm in typing.get_args(hint):
            try:
                _check_type(name, value, arm)
                return
            except _SizeError:
                raise  # the right type, but too big: say so, not "wrong type"
            except ConfigError:
                pass
        raise ConfigError(f"{said} must be {_type_name(hint).replace(' | ', ' or ')}", value=shorten(value))
    if hint is type(None):
        if value is not None:
            raise ConfigError(f"option {name} must be None, not {shorten(value)}", value=shorten(value))
        return
    if origin is tuple:
        if not isinstance(value, (tuple, list)):
            raise ConfigError(f"{said} must be a list, not a {type(value).__name__}", value=shorten(value))
        if len(value) > MAX_OPTION_ITEMS:
            raise _SizeError(
                f"option {name} holds {len(value):,} items; a list option holds at most {MAX_OPTION_ITEMS}",
                value=shorten(value),
            )
        args = typing.get_args(hint)
        for index, item in enumerate(value):
            _check_type(f"{name}[{index}]", item, args[0])
        return
    if hint is bool:
        ok = isinstance(value, bool)
    elif hint is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif hint is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    elif hint is str:
        ok = isinstance(value, str)
        if ok and len(value) > MAX_OPTION_TEXT:
            raise _SizeError(
                f"option {name} is {len(value):,} characters long; the limit is {MAX_OPTION_TEXT}",
                value=shorten(value),
            )
    else:
        ok = isinstance(value, hint)
    if not ok:
        raise ConfigError(
            f"{said} must be {_type_name(hint)}, not {type(value).__name__}"
            + (" (True and False are not numbers here)" if isinstance(value, bool) else ""),
            value=shorten(value),
        )


class SpecLike(Protocol):
    """What the core reads of a game's spec (``sloth_kernel.spec.GameSpec`` has it all)."""

    @property
    def title(self) -> str: ...
    @property
    def players(self) -> tuple[int, int]: ...
    @property
    def deal_schema(self) -> str | None: ...
    @property
    def max_length(self) -> int: ...
    def check_option(self, config: GameConfig, name: str, value: Any, *, whole: bool) -> None: ...
    def check_together(self, config: GameConfig) -> None: ...
    def check_declarations(self) -> None: ...


_spec_lookup: Callable[[str], SpecLike | None] | None = None
"""Game name -> its registered spec. The registry installs it (``sloth_kernel.registry``), so
that the core never imports the layers above it; importing ``sloth_kernel`` always does."""


def install_spec_lookup(lookup: Callable[[str], SpecLike | None]) -> None:
    """Called once by the registry: how a Game class finds the spec registered for its name."""
    global _spec_lookup
    _spec_lookup = lookup


# --- moves ---------------------------------------------------------------------


class Move:
    """Marker base for move values: frozen, hashable, ``str()`` is table notation."""

    __slots__ = ()

    @property
    def words(self) -> str:
        """The move as people read it (a game may say a card as its rulebook does); else its notation."""
        return str(self)


# --- observations ----------------------------------------------------------------


class Observation(Protocol):
    """What every game's frozen observation dataclass starts with (see ``OBSERVATION_FIELDS``).

    Shared code (renderers, bots, bridges) may rely on these fields of any game's observation.
    """

    @property
    def game(self) -> str: ...
    @property
    def player(self) -> int | None: ...
    @property
    def current_player(self) -> int: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def legal_moves(self) -> tuple[Move, ...]: ...
    @property
    def log(self) -> tuple[Event, ...]: ...


M = TypeVar("M", bound=Move)
"""A state's moves: the game's move class, or the union of its move classes."""
Obs = TypeVar("Obs", bound=Observation)
"""A state's observation class."""
C = TypeVar("C", bound=GameConfig)
"""A game's config class."""
S = TypeVar("S", bound="GameState[Any, Any]")
"""A game's state class."""
G = TypeVar("G", bound="Game[Any, Any]")


# --- game --------------------------------------------------------------------


class Game(ABC, Generic[C, S]):
    """A loaded game: a name, a frozen config, and factories for states.

    A game declares its config and state types: ``class MyGame(Game[MyConfig, "MyState"])``.

    The public factories check what they are given and then call the engine's own method:
    ``new_state(seed)`` checks the seed and calls ``_new_state``; ``from_deal(deal, seed)``
    copies the deal, checks it against the game's deal schema and calls ``_from_deal``.
    Code inside a game (world samplers, scenarios it builds itself) calls the engine's
    methods directly: nothing is validated on the search's hot path.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    config_class: type[C]
    """The config's class; a class attribute (not marked ClassVar, which cannot hold a type variable)."""
    rules: ClassVar[Mapping[str, str]]
    """Rule id -> plain words, for explanations and the step-through widget."""
    rules_version: ClassVar[int] = 1
    """The edition of the rulings this engine plays. It goes up whenever a ruling changes what a
    record's moves lead to; a record keeps the edition it was made under (its ``rules`` field, 1 when
    absent) and replays only under that edition (else :class:`RulesVersionError`)."""
    rules_changes: ClassVar[Mapping[int, str]] = {}
    """Edition -> what changed in it, in words (said when an older record is refused)."""
    _moves_by_value: dict[Move, Move] | None = None
    """``all_moves()`` by value, built on the first move object a caller hands in (None: no all_moves)."""
    _moves_indexed: bool = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        config_class = cls.__dict__.get("config_class")
        name = cls.__dict__.get("name")
        if isinstance(config_class, type) and issubclass(config_class, GameConfig) and isinstance(name, str):
            _CONFIG_GAMES.setdefault(config_class, name)  # how a config finds its spec's declarations

    def __init__(self, config: C) -> None:
        self.config = config

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.config.changes().items())
        return f"load_game({self.name!r}{', ' if opts else ''}{opts})"

    @property
    @abstractmethod
    def num_players(self) -> int: ...

    # -- configs --

    @classmethod
    def spec(cls) -> SpecLike | None:
        """The registered spec of the game this class plays (None for a class no entry point names)."""
        return None if _spec_lookup is None else _spec_lookup(cls.name)

    @classmethod
    def make_config(cls, options: Mapping[str, Any]) -> C:
        """The config for these options, checked (:meth:`GameConfig.from_options`): names, types and
        sizes, then the ranges and seats the game's spec declares and its ``options_together``.
        Raises ConfigError (PluginError for a spec whose declarations do not fit its config)."""
        spec = cls.spec()
        if spec is not None:
            _checked_declarations(spec)
        return cls.config_class.from_options(**options)

    @classmethod
    def shared(cls: type[G], **options: Any) -> G:
        """The game with these options (validated), one shared instance: its caches serve every caller."""
        items = tuple(sorted((k, type(v), tuple(v) if isinstance(v, list) else v) for k, v in options.items()))
        try:
            hash(items)
        except TypeError:
            cls.make_config(options)  # names the option that cannot be one
            raise ConfigError(f"options must be plain values, not {shorten(options)}") from None
        game = _shared_game(cls, items)
        assert isinstance(game, cls)
        return game

    # -- starting --

    def new_state(self, seed: int | None = None) -> S:
        """A fresh game dealt from `seed`, a whole number from 0 to 2**256 - 1 (None: a fresh one, kept).

        Any other seed (a bool, a float, a string, a negative or larger number) raises ConfigError.
        """
        return self._new_state(fresh_seed() if seed is None else check_seed(seed))

    @abstractmethod
    def _new_state(self, seed: int) -> S:
        """The engine's deal from a checked seed."""

    def from_deal(self, deal: Mapping[str, Any], seed: int = 0) -> S:
        """A game started from an explicit deal (see each game's deal schema and ``Game`` docs).

        The deal is copied (nothing the caller keeps can change the state) and checked against
        the game's deal schema; a deal that is not JSON-shaped data, leaves the schema, or that the
        rules refuse raises DealError (a ConfigError) naming the field. Later chance events
        (e.g. next rounds) still come from `seed`, checked like ``new_state``'s.
        """
        seed = check_seed(seed)
        clean = self.check_deal(deal)
        try:
            return self._from_deal(clean, seed)
        except DealError:
            raise
        except (SlothKernelError, LookupError, TypeError, ValueError) as err:
            raise DealError(f"{self.title} refuses the deal: {err}", path="deal") from err

    def check_deal(self, deal: Any) -> dict[str, Any]:
        """A fresh copy of `deal` as JSON data, within the size limits and the game's deal schema."""
        if isinstance(deal, str) or not isinstance(deal, Mapping):
            raise DealError(
                f"a deal is an object (a dict) such as {self.title}'s docs show, not {shorten(deal)}",
                path="deal",
                value=shorten(deal),
            )
        data: dict[str, Any] = json_copy(deal, DealError, "deal")
        spec = self.spec()
        if spec is not None and spec.deal_schema is not None:
            check_schema(data, spec.deal_schema, DealError, "deal")
        return data

    @abstractmethod
    def _from_deal(self, deal: Mapping[str, Any], seed: int) -> S:
        """The engine's state from a deal: from ``from_deal`` a fresh copy that fits the schema.

        Raise ConfigError (or DealError) for a deal the rules refuse; keep what it needs (the
        state's ``deal`` setter freezes it).
        """

    @classmethod
    def world_sampler(cls, observation: Any, options: Mapping[str, Any] | None = None) -> Callable[[random.Random], S]:
        """Full states consistent with one seat's `observation`, for search (determinization).

        Like OpenSpiel's ``resample_from_infostate``: reads the observation once (the slow part)
        and returns a fast sampler. Each call deals every card the seat cannot see at random,
        respecting all that is publicly known, with a fresh seed drawn from the generator (so
        future shuffles are unknown too); the state's ``observation(seat)`` equals `observation`.
        The rules in force are read from the observation; `options` fills (and overrides) those it
        does not show. Only the game's own module builds its states' fields. The default refuses:
        a search spec then needs another public way to build worlds (e.g. ``from_deal`` and replay).
        """
        raise NotImplementedError(f"{cls.title} cannot sample worlds from an observation")

    def say_move(self, move: Move) -> str:
        """A move of this game as people read it: the move's own words (:attr:`Move.words`: its notation
        unless the game says it otherwise, a ten as "10", a drink in words)."""
        return move.words

    def type_move(self, move: Move) -> str:
        """A move as a person may type it (the Ask why box's example): its words if the game's
        notation reads them back as the same move, else its notation."""
        words = self.say_move(move)
        try:
            if self.coerce_move(words) == move:
                return words
        except SlothKernelError:
            pass
        return str(move)

    seat_secrets: ClassVar[bool] = True
    """Seats hold cards the others cannot see: a live question about another seat then answers only
    public facts (:meth:`ask_observed`). A game whose seats hide nothing from each other sets False."""
    ASK_WORLDS: ClassVar[int] = 6
    """Worlds a live question is answered in (see :meth:`ask_observed`)."""

    @classmethod
    def hypothetical_worlds(cls, observation: Any) -> Callable[[random.Random], S]:
        """Full states consistent with one seat's observation, for live questions (:meth:`ask_observed`).

        The default is :meth:`world_sampler`; a game without one may give rougher worlds here, since
        an answer keeps only what every world agrees on.
        """
        return cls.world_sampler(observation)

    def ask_observed(self, observation: Any, move: Move | str | Any, seat: int | None = None) -> Explanation:
        """The live question ``state.ask_as(viewer, move, seat)`` asks, answered from `observation` alone.

        `observation` is one seat's (the asker's). About the asker's own seat (the default) the
        answer is the one :meth:`GameState.ask` gives, worked out in several worlds consistent with
        the observation: the asker's hand and every public fact are the same in each, so the verdict
        is exact, and the effect keeps only the log lines every world agrees on (a line that would
        depend on a hidden card ends it, saying so). About another seat it says only public facts:
        whose turn it is, or why that seat cannot move at all (e.g. out of the round); whether they
        hold the cards is hidden (``known=False``). Never reads a state, so it cannot leak one.
        """
        viewer = getattr(observation, "player", None)
        if type(viewer) is not int or getattr(observation, "game", None) != self.name:
            raise ConfigError(
                f"a live question is asked from one seat's observation of {self.title}, not {shorten(observation)}",
                value=shorten(observation),
            )
        asked = viewer if seat is None else check_seat(seat, self.num_players, _seat_error)
        try:
            parsed = self.coerce_move(move)
        except SlothKernelError as err:
            reason = err.reason if isinstance(err, InvalidMoveError) else str(err)
            return Explanation(_move_words(move), False, f"not a move in this game: {reason}", seat=asked)
        text = self.say_move(parsed)
        if observation.is_over:
            return Explanation(text, False, "the game is over; no more moves", seat=asked)
        try:
            sample = type(self).hypothetical_worlds(observation)
        except NotImplementedError:
            return Explanation(
                text, False, f"{self.title} cannot answer questions from one seat's view", seat=asked, known=False
            )
        rng = random.Random(f"ask/{parsed}/{asked}")
        worlds = [sample(rng) for _ in range(self.ASK_WORLDS)]
        mover = observation.current_player
        turn = "" if asked == mover else f"it is not {seat_name(asked)}'s turn: {seat_name(mover)} is to move"
        if asked != viewer and self.seat_secrets:
            reasons = {world._turn_of(asked) if asked != mover else None for world in worlds}
            found = reasons.pop() if len(reasons) == 1 else None
            if isinstance(found, tuple):
                why, rules = found
                return Explanation(text, False, f"{turn}, and {why}", rules, seat=asked, their_turn=False)
            hidden = (
                f"{seat_name(asked)}'s cards are hidden from you, so only {seat_name(asked)} knows whether "
                f"{text} is open to them here"
            )
            return Explanation(
                text, False, f"{turn}; {hidden}" if turn else hidden, seat=asked, their_turn=not turn, known=False
            )
        answers = [world._hypothesis(asked, parsed) for world in worlds]
        first, lines = answers[0]
        if any(other != first for other, _ in answers[1:]):  # a safety net: never expected for one's own seat
            return Explanation(
                text, False, "the answer depends on cards hidden from you", seat=asked, their_turn=not turn, known=False
            )
        agreed: list[str] = []
        for index, line in enumerate(lines):
            if any(len(other) <= index or other[index] != line for _, other in answers[1:]):
                agreed.append("What follows depends on cards hidden from you.")
                break
            agreed.append(line)
        return dataclasses.replace(first, effect=" ".join(agreed)) if agreed else first

    # -- moves --

    def all_moves(self) -> list[Move]:
        """Every move this game (with this config) can ever offer, in a fixed order.

        Frameworks that number actions once and for all (OpenSpiel, PettingZoo) use it as
        the global action index; a game without it simply has no interop bridge.
        """
        raise NotImplementedError(f"{self.title} does not enumerate its moves")

    @abstractmethod
    def parse_move(self, text: str) -> Move:
        """Inverse of ``str(move)``; raises InvalidMoveError."""

    def coerce_move(self, move: Move | str) -> Move:
        """The game's own move for `move`: its text parsed, or a move object checked.

        Text is at most MAX_MOVE_TEXT characters. A move object must be one of the game's own
        moves (``all_moves()``), compared by value, and the game's own instance is returned;
        any other object of the game's move classes (say a hand-built one) is read back through
        its notation like text, so a move built by hand is validated like a parsed one. Anything
        else raises InvalidMoveError.
        """
        if isinstance(move, str):
            if len(move) > MAX_MOVE_TEXT:  # refused before the game's notation reads it, in the notation's words
                raise not_a_move(move, too_long(move), game=self.name)
            return self._parse(move)
        if not isinstance(move, Move):
            raise InvalidMoveError(
                move, f"a move is text or one of the game's moves, not {a_or_an(type(move).__name__)}", game=self.name
            )
        if type(move).__module__ != type(self).__module__:
            raise InvalidMoveError(move, f"a {type(move).__name__} is a move of another game", game=self.name)
        if not self._moves_indexed:
            self._index_moves()
        index = self._moves_by_value
        if index is not None:
            try:
                found = index.get(move)
            except Exception:  # a forged field (a list, an object) cannot be hashed or compared
                raise InvalidMoveError(
                    move, "its fields are not values this game's moves hold", game=self.name
                ) from None
            if found is not None:
                return found
        return self._read_back(move)

    def _parse(self, text: str) -> Move:
        """``parse_move``, with any untyped error of the engine's parser reported as InvalidMoveError."""
        try:
            return self.parse_move(text)
        except SlothKernelError:
            raise
        except (ValueError, LookupError, TypeError, ArithmeticError) as err:  # an engine's parser let one through
            raise InvalidMoveError(text, "the notation cannot be read", game=self.name) from err

    def _index_moves(self) -> None:
        key = (type(self), self.config)
        try:
            index = _MOVE_INDEXES[key]
        except KeyError:
            index = _MOVE_INDEXES[key] = self._all_moves_by_value()
            if len(_MOVE_INDEXES) > 64:
                _MOVE_INDEXES.pop(next(iter(_MOVE_INDEXES)))
        except TypeError:  # a config built by hand with a list in it: index this game alone
            index = self._all_moves_by_value()
        self._moves_by_value = index
        self._moves_indexed = True

    def _all_moves_by_value(self) -> dict[Move, Move] | None:
        try:
            return {move: move for move in self.all_moves()}
        except NotImplementedError:
            return None

    def _read_back(self, move: Move) -> Move:
        """A move object that ``all_moves()`` does not hold, read through its notation: kept if it reads back equal."""
        refused = InvalidMoveError(move, "its fields are not values this game's moves hold", game=self.name)
        try:
            text = str(move)
        except Exception:  # a forged field made the move's own __str__ fail
            raise refused from None
        if not isinstance(text, str) or len(text) > MAX_MOVE_TEXT:
            raise refused
        parsed = self._parse(text)
        try:
            same = type(parsed) is type(move) and bool(parsed == move)
        except Exception:  # a forged field that cannot be compared
            same = False
        if not same:
            raise refused
        return parsed

    # -- records --

    def replay(self, record: Mapping[str, Any] | str) -> S:
        """Rebuild the state a record (a dict, or its JSON text) describes, checking every move.

        The record must be for this game; its options win over this game's. Raises RecordError
        naming the field (and the move number) that is wrong.
        """
        data = read_record(record)
        return type(self)._record_game(data, self)._play_record(data)

    @classmethod
    def from_record(cls, record: Mapping[str, Any] | str) -> S:
        """The state a record of this game describes, with the record's options (see :meth:`replay`)."""
        data = read_record(record)
        return cls._record_game(data)._play_record(data)

    @classmethod
    def _record_game(cls, data: Mapping[str, Any], current: Self | None = None) -> Self:
        """The game a checked record is played in: `current` if its options are the record's."""
        if data["game"] != cls.name:
            raise RecordError(
                f"the record is for {shorten(data['game'])}, not {cls.name!r}",
                path="record.game",
                value=shorten(data["game"]),
            )
        try:
            config = cls.make_config(data["options"])
        except ConfigError as err:
            raise RecordError(f"record.options refused: {err}", path="record.options", value=err.value) from err
        return current if current is not None and current.config == config else cls(config)

    def _check_rules_version(self, data: Mapping[str, Any]) -> None:
        """Refuse a record made under another edition of the rulings (RulesVersionError naming it)."""
        made = data.get("rules", 1)
        current = self.rules_version
        if made == current:
            return
        if made < current:
            changes = "; ".join(self.rules_changes[v] for v in range(made + 1, current + 1) if v in self.rules_changes)
            why = f" (since then: {changes})" if changes else ""
            text = (
                f"the record was made under edition {made} of the rules of {self.title}; this engine plays "
                f"edition {current}{why}, so its moves would not replay the same game"
            )
        else:
            text = (
                f"the record was made under edition {made} of the rules of {self.title}, newer than the "
                f"edition {current} this engine plays"
            )
        raise RulesVersionError(text, version=made, current=current)

    def _play_record(self, data: Mapping[str, Any]) -> S:
        self._check_rules_version(data)
        spec = self.spec()
        limit = spec.max_length if spec is not None else DEFAULT_MAX_MOVES
        moves = data["moves"]
        if len(moves) > limit:
            raise RecordError(
                f"the record holds {len(moves):,} moves; a game of {self.title} has at most {limit:,}",
                path="record.moves",
            )
        seed = check_seed(data["seed"], RecordError, path="record.seed")
        deal = data.get("deal")
        if deal is not None:
            try:
                state = self.from_deal(deal, seed)
            except DealError as err:
                where = "record." + err.path
                raise RecordError(f"record.deal refused: {err}", path=where, value=err.value) from err
        else:
            state = self._new_state(seed)
        for index, text in enumerate(moves):
            where = f"record.moves[{index}]"
            try:
                move = self.coerce_move(text)
            except InvalidMoveError as err:
                raise RecordError(
                    f"move #{index + 1} {shorten(text)} does not parse: {err.reason}", path=where, value=shorten(text)
                ) from err
            if state.is_over:
                raise RecordError(
                    f"move #{index + 1} {shorten(text)} comes after the end of the game",
                    path=where,
                    value=shorten(text),
                )
            if not state.is_legal(move):
                why = state._judge(move, False).reason
                raise RecordError(
                    f"move #{index + 1} {shorten(text)} does not replay: it is illegal here ({why})",
                    path=where,
                    value=shorten(text),
                )
            state.apply_unchecked(move)  # checked just above; no clone per move, so replay stays linear
        return state


_MOVE_INDEXES: dict[tuple[type, GameConfig], dict[Move, Move] | None] = {}
"""Each game class and config's ``all_moves()`` by value, shared by every instance (at most 64 kept)."""

_DECLARATIONS_CHECKED: dict[int, SpecLike] = {}


def _checked_declarations(spec: SpecLike) -> None:
    """A spec's declarations checked once per spec object (a plugin's mistake is a PluginError, not a crash)."""
    if id(spec) not in _DECLARATIONS_CHECKED:
        spec.check_declarations()
        _DECLARATIONS_CHECKED[id(spec)] = spec  # kept, so its id is never reused


@lru_cache(maxsize=64)
def _shared_game(cls: type[Game[Any, Any]], options: tuple[tuple[str, type, Any], ...]) -> Game[Any, Any]:
    return cls(cls.make_config({name: value for name, _, value in options}))


def read_record(record: Any) -> dict[str, Any]:
    """A record (a dict, or its JSON text) as a fresh copy of JSON data, checked: size, nesting,
    format and version, then the record schema and the seed. Raises RecordError naming the field.

    The game's own checks (its options, its deal, its moves) follow in :meth:`Game.replay`.
    """
    if isinstance(record, str):
        record = parse_json_text(record, RecordError, "record")
    elif not isinstance(record, Mapping):
        raise RecordError(
            f"a record is a JSON object (a dict) or its JSON text, not {shorten(record)}",
            path="record",
            value=shorten(record),
        )
    data = json_copy(record, RecordError, "record")
    if not isinstance(data, dict):
        raise RecordError(f"a record is a JSON object, not {shorten(data)}", path="record", value=shorten(data))
    if data.get("format") != RECORD_FORMAT:
        raise RecordError(
            f"not a {RECORD_FORMAT} record: its format is {shorten(data.get('format'))}",
            path="record.format",
            value=shorten(data.get("format")),
        )
    version = data.get("version")
    if type(version) is not int or version != RECORD_VERSION:
        raise RecordError(
            f"record version {shorten(version)} is not one this engine reads (it reads version {RECORD_VERSION}, "
            "a whole number)",
            path="record.version",
            value=shorten(version),
        )
    check_schema(data, RECORD_SCHEMA, RecordError, "record")
    rules = data.get("rules", 1)
    if type(rules) is not int:  # the schema's "integer" lets 1.0 through, as JSON Schema does
        raise RecordError(
            f"record.rules is the edition of the game's rulings the record was made under, a whole number such as 1, "
            f"not {shorten(rules)}",
            path="record.rules",
            value=shorten(rules),
        )
    check_seed(data["seed"], RecordError, path="record.seed")
    return data


# --- state -----------------------------------------------------------------------


class GameState(ABC, Generic[M, Obs]):
    """One position. ``play`` is checked and returns a new state.

    Fast path for search: ``child = state.clone(); child.apply_unchecked(move)``
    mutates `child` in place with no validation. Use it only with moves taken
    from ``legal_moves()``.

    A state declares its move and observation types: ``class MyState(GameState[MyMove, MyObservation])``,
    and narrows ``game`` to its game class (``game: MyGame``). Its ``__init__`` calls
    ``super().__init__(game, seed, deal)`` first, which sets every field the core reads (see
    :meth:`__init__`); the rest of the position is the engine's own.
    """

    game: Game[Any, Any]
    seed: int
    history: list[M]
    events: list[Event]
    _deal: Mapping[str, Any] | None = None

    def __init__(self, game: Game[Any, Any], seed: int, deal: Mapping[str, Any] | None = None) -> None:
        """The fields the core reads: ``game``, ``seed``, ``deal`` (None: dealt from the seed; else the
        JSON deal ``from_deal`` took, kept frozen), ``history`` (the moves played, which records and replay
        read) and ``events`` (the log, which ``_apply`` narrates into), both empty at the start.

        ``clone()`` copies a state without calling this: it must copy ``history`` and ``events`` as lists.
        """
        self.game = game
        self.seed = seed
        self.deal = deal
        self.history = []
        self.events = []

    @property
    def deal(self) -> dict[str, Any] | None:
        """The explicit deal this game started from (None: dealt from the seed): a fresh copy on every read.

        The engine sets it (``self.deal = deal``); it is kept frozen, so that nothing a caller
        does to a deal it read (or gave) changes this state or its record.
        """
        return None if self._deal is None else thaw(self._deal)

    @deal.setter
    def deal(self, value: Mapping[str, Any] | None) -> None:
        self._deal = None if value is None else freeze(value)

    # -- implemented by each game --

    @property
    @abstractmethod
    def current_player(self) -> int:
        """The seat to move, or NO_PLAYER once the game is over."""

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def legal_moves(self) -> list[M]: ...

    @abstractmethod
    def returns(self) -> tuple[float, ...]:
        """Per seat; a competitive game's returns sum to 1 (ties share)."""

    @abstractmethod
    def clone(self) -> Self: ...

    @abstractmethod
    def _apply(self, move: M) -> None:
        """Apply a legal move in place and narrate it into ``self.events``."""

    @abstractmethod
    def _judge(self, move: M, legal: bool) -> Explanation:
        """Words for a move whose legality (by ``legal_moves``) is `legal`."""

    @abstractmethod
    def _observation(self, player: int) -> Obs:
        """All that seat `player` (checked: a seat of this game) may know, as plain frozen data."""

    @abstractmethod
    def view(self) -> Obs:
        """The omniscient observation a teacher or a replay shows (all hands open)."""

    @abstractmethod
    def public_observation(self) -> Obs:
        """What a spectator may know: the game's own observation with ``player=NO_PLAYER``.

        It holds only what every seat may know -- what all the seats' observations agree on: no
        hand's contents, no hidden order, no legal moves (nobody watching may move), no verdict
        worked out on hidden cards. The fields a seat's observation fills with its own hidden parts
        are empty (None) here, so a board draws it unchanged, as it draws another seat's hand.
        ``check_game`` checks that two positions differing only in hidden cards give the same one.
        """

    # -- shared machinery --

    @property
    def log(self) -> tuple[Event, ...]:
        return tuple(self.events)

    def reseeded(self, seed: int) -> Self:
        """A copy of this position whose later chance (shuffles, draws after the deal) comes from `seed`
        instead: the deal and the moves so far stay. A game whose spec declares ``chance_after_deal=False``
        plays the same from it (``check_game`` checks that)."""
        other = self.clone()
        other._take_seed(check_seed(seed))
        return other

    def _take_seed(self, seed: int) -> None:
        self.seed = seed

    def apply_unchecked(self, move: M) -> None:
        """In-place, unchecked: the fast path for search (see class docs)."""
        self.history.append(move)
        self._apply(move)

    def is_legal(self, move: M) -> bool:
        return move in self.legal_moves()

    def _seat(self, player: Any) -> int:
        """`player` if it is a seat of this game (:func:`~sloth_kernel.notation.check_seat`); else SeatError."""
        return check_seat(player, self.game.num_players, _seat_error)

    def observation(self, player: int) -> Obs:
        """All that seat `player` may know, as plain frozen data (no path back here).

        `player` must be a seat of this game (an int, not a bool): anything else raises SeatError.
        """
        return self._observation(self._seat(player))

    def explain(self, move: M | str | Any) -> Explanation:
        """Is `move` legal here, and why -- in plain words with rule ids.

        It always answers: text that is no move, an object that is no move of this game, or
        anything else gives an Explanation with ``legal=False`` ("not a move in this game: ...").
        """
        try:
            parsed = cast(M, self.game.coerce_move(move))  # see play()
        except SlothKernelError as err:
            reason = err.reason if isinstance(err, InvalidMoveError) else str(err)
            cited = tuple(dict.fromkeys(_CITED_RULE.findall(reason)))  # a rule the notation itself breaks
            return Explanation(_move_words(move), False, f"not a move in this game: {reason}", cited)
        if self.is_over:
            return Explanation(str(parsed), False, "the game is over; no more moves")
        return self._judge(parsed, self.is_legal(parsed))

    # -- hypotheticals: "why can't Player 3 play 7-7 here?", "what would 4-4-4 have done?" --

    def ask(self, seat: int, move: M | str | Any) -> Explanation:
        """What the rules say about `seat` playing `move` here, and what it would do: the omniscient question.

        For the step-through, the teacher's view and analyses (it reads every hand). When `seat` is
        not to move, the answer says so and then what the rules would say if it were their turn
        (``their_turn=False``), or why they cannot move at all here (out of the round, passed). A
        legal move's ``effect`` is the narration of a copy of the position that plays it, so it never
        disagrees with ``legal_moves``. Bad input gives ``legal=False`` with a sentence, never an
        exception, except a `seat` that is no seat of this game (SeatError). The live, leak-free
        question is :meth:`ask_as`.
        """
        asked = self._seat(seat)
        answer, lines = self._hypothesis(asked, move)
        return answer if not lines else dataclasses.replace(answer, effect=" ".join(lines))

    def ask_as(self, viewer: int, move: M | str | Any, seat: int | None = None) -> Explanation:
        """The live question: `viewer` asks about `seat` (their own seat by default) with only what they may know.

        The answer is computed from ``observation(viewer)`` alone (:meth:`Game.ask_observed`), so it
        never reveals a hidden card: about another seat it says only public facts.
        """
        return self.game.ask_observed(self.observation(self._seat(viewer)), move, seat)

    def _hypothesis(self, seat: int, move: Any) -> tuple[Explanation, tuple[str, ...]]:
        """The answer to "could `seat` play `move` here?" without its effect, and the effect's log lines."""
        try:
            parsed = cast(M, self.game.coerce_move(move))
        except SlothKernelError as err:
            reason = err.reason if isinstance(err, InvalidMoveError) else str(err)
            return Explanation(_move_words(move), False, f"not a move in this game: {reason}", seat=seat), ()
        text = self.game.say_move(parsed)
        if self.is_over:
            return Explanation(text, False, "the game is over; no more moves", seat=seat), ()
        mover = self.current_player
        if seat == mover:
            twin, prefix = self, ""
        else:
            turn = f"it is not {seat_name(seat)}'s turn: {seat_name(mover)} is to move"
            found = self._turn_of(seat)
            if isinstance(found, tuple):
                why, rules = found
                return Explanation(text, False, f"{turn}, and {why}", rules, seat=seat, their_turn=False), ()
            twin, prefix = found, f"{turn}; if it were their turn, "
        legal = twin.is_legal(parsed)
        judged = twin._judge(parsed, legal)
        answer = Explanation(text, legal, prefix + judged.reason, judged.rules, seat=seat, their_turn=seat == mover)
        if not legal:
            return answer, ()
        child = twin.clone()
        child.apply_unchecked(parsed)
        return answer, tuple(event.text for event in child.events[len(twin.events) :])

    def _turn_of(self, seat: int) -> Self | tuple[str, tuple[str, ...]]:
        """A copy of this position with `seat` (not the seat to move) to move and all else the same,
        for "if it were their turn"; or why `seat` cannot move at all here, in words with rule ids.

        Each game says what "their turn" means in it; the default has no answer.
        """
        return "this game does not say what a seat other than the one to move could do", ()

    def play(self, move: M | str, *, player: int | None = None) -> Self:
        """Checked play: returns the next state, leaves this one untouched.

        `player`, when given, must be a seat (else SeatError) and the seat to move (else
        IllegalMoveError: the out-of-turn guard for UIs).
        """
        seat = None if player is None else self._seat(player)
        # coerce_move lets through only moves defined in the game's module, which are this
        # state's M: a tie made at runtime, which the type checker cannot see.
        parsed = cast(M, self.game.coerce_move(move))
        if self.is_over:
            raise IllegalMoveError(parsed, Explanation(str(parsed), False, "the game is over; no more moves"))
        if seat is not None and seat != self.current_player:
            why = f"it is not {seat_name(seat)}'s turn; {seat_name(self.current_player)} is to move"
            raise IllegalMoveError(parsed, Explanation(str(parsed), False, why), position=self.describe())
        if not self.is_legal(parsed):
            raise IllegalMoveError(parsed, self._judge(parsed, False), position=self.describe())
        child = self.clone()
        child.apply_unchecked(parsed)
        return child

    def describe(self) -> str:
        """A one-line summary used in error messages."""
        who = "the game is over" if self.is_over else f"{seat_name(self.current_player)} to move"
        return f"{self.game.title}, move {len(self.history)}, {who}"

    def to_record(self) -> dict[str, Any]:
        """The record of this game (JSON data, the record schema): a fresh deep copy on every call."""
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self.game.name,
            "rules": self.game.rules_version,
            "options": self.game.config.to_dict(),
            "seed": self.seed,
            "deal": thaw(self._deal) if self._deal else None,
            "moves": [str(m) for m in self.history],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_record())

    def _repr_html_(self) -> str | None:
        """The omniscient view as HTML, by the renderer the render layer installed (None: plain repr)."""
        return None if _html_renderer is None else _html_renderer(self.view())

    def __repr__(self) -> str:
        return f"<{self.describe()}>"


_html_renderer: Callable[[Observation], str] | None = None
"""Observation -> HTML. The render layer installs it (``sloth_kernel.render``), so that the
core never imports the layers above it; importing ``sloth_kernel`` always does."""


def install_html_renderer(renderer: Callable[[Observation], str]) -> None:
    """Called once by the render layer: how ``GameState._repr_html_`` draws a state."""
    global _html_renderer
    _html_renderer = renderer


def _seat_error(value: object, players: int, what: str) -> SeatError:
    return SeatError(value, players)


def _move_words(move: Any) -> str:
    """How an explanation names what it was asked about: the text itself, or a short description."""
    if isinstance(move, str) and len(move) <= MAX_MOVE_TEXT:
        return move
    if isinstance(move, Move):
        try:
            text = str(move)
        except Exception:  # a forged field made the move's own __str__ fail
            return shorten(move)
        if isinstance(text, str) and len(text) <= MAX_MOVE_TEXT:
            return text
    return shorten(move)


def sequence_of(values: Sequence[Any]) -> str:
    return ", ".join(map(str, values[:-1])) + (" and " if len(values) > 1 else "") + str(values[-1]) if values else ""


def seat_name(seat: int) -> str:
    """How narration names a seat (seats are 0-based in code, 1-based for people)."""
    return f"Player {seat + 1}"


OBSERVATION_FIELDS = ("game", "player", "current_player", "is_over", "legal_moves", "log")
"""Fields every game's frozen Observation dataclass starts with.

``player`` is the viewer's seat (None for the omniscient ``view()``);
``legal_moves`` is filled only for the seat to move (and in ``view()``);
``log`` is the tuple of public Events so far. Renderers and bots rely on these.
"""
