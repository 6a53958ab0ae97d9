"""The game protocol every game speaks.

A game module subclasses :class:`GameConfig`, :class:`Game` and :class:`GameState`
and defines frozen move values and a frozen observation. Everything else here --
checked play, explanations, records, replay, HTML rendering -- is written once.
"""

from __future__ import annotations

import dataclasses
import json
import random
import secrets
import typing
from abc import ABC, abstractmethod
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, ClassVar, Generic, Mapping, NamedTuple, Sequence, TypeVar

from sloth_kernel.errors import ConfigError, IllegalMoveError, InvalidMoveError, RecordError
from sloth_kernel.explanation import Explanation

RECORD_FORMAT = "sloth-kernel/record"
RECORD_VERSION = 1
NO_PLAYER = -1
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

    Subclasses declare fields with defaults and override :meth:`validate`.
    Field types are checked here (int, bool, float, str, Literal, tuple).
    """

    @classmethod
    def from_options(cls, **options: Any) -> "GameConfig":
        names = [f.name for f in dataclasses.fields(cls)]
        unknown = sorted(set(options) - set(names))
        if unknown:
            raise ConfigError(f"unknown option(s) {', '.join(unknown)}; valid options: {', '.join(names)}")
        hints = typing.get_type_hints(cls)
        for name, value in options.items():
            _check_type(name, value, hints[name])
        config = cls(**{k: (tuple(v) if isinstance(v, list) else v) for k, v in options.items()})
        config.validate()
        return config

    def validate(self) -> None:
        """Raise ConfigError for values the rules refuse."""

    def to_dict(self) -> dict[str, Any]:
        return {f.name: _jsonable(getattr(self, f.name)) for f in dataclasses.fields(self)}

    def changes(self) -> dict[str, Any]:
        """Only the options that differ from the defaults."""
        base = type(self)()
        return {k: v for k, v in self.to_dict().items() if v != base.to_dict()[k]}


def _jsonable(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _check_type(name: str, value: Any, hint: Any) -> None:
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        if value not in typing.get_args(hint):
            choices = ", ".join(repr(c) for c in typing.get_args(hint))
            raise ConfigError(f"option {name}={value!r} must be one of {choices}")
        return
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        errors = []
        for arm in typing.get_args(hint):
            try:
                _check_type(name, value, arm)
                return
            except ConfigError as err:
                errors.append(str(err))
        raise ConfigError(f"option {name}={value!r} has the wrong type ({hint})")
    if hint is type(None):
        if value is not None:
            raise ConfigError(f"option {name} must be None")
        return
    if origin is tuple:
        if not isinstance(value, (tuple, list)):
            raise ConfigError(f"option {name} must be a list, not {type(value).__name__}")
        args = typing.get_args(hint)
        for item in value:
            _check_type(name, item, args[0])
        return
    if hint is bool:
        ok = isinstance(value, bool)
    elif hint is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif hint is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    else:
        ok = isinstance(value, hint)
    if not ok:
        raise ConfigError(
            f"option {name}={value!r} must be {getattr(hint, '__name__', hint)}, not {type(value).__name__}"
        )


# --- moves ---------------------------------------------------------------------


class Move:
    """Marker base for move values: frozen, hashable, ``str()`` is table notation."""

    __slots__ = ()


M = TypeVar("M", bound=Move)
C = TypeVar("C", bound=GameConfig)
S = TypeVar("S", bound="GameState[Any]")
G = TypeVar("G", bound="Game[Any]")


# --- game --------------------------------------------------------------------


class Game(ABC, Generic[S]):
    """A loaded game: a name, a frozen config, and factories for states."""

    name: ClassVar[str]
    title: ClassVar[str]
    config_class: ClassVar[type[GameConfig]]
    rules: ClassVar[Mapping[str, str]]
    """Rule id -> plain words, for explanations and the step-through widget."""

    def __init__(self, config: GameConfig) -> None:
        self.config = config

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.config.changes().items())
        return f"load_game({self.name!r}{', ' if opts else ''}{opts})"

    @property
    @abstractmethod
    def num_players(self) -> int: ...

    @abstractmethod
    def new_state(self, seed: int | None = None) -> S:
        """A fresh game dealt from `seed` (a random seed is chosen and kept if None)."""

    @abstractmethod
    def from_deal(self, deal: Mapping[str, Any], seed: int = 0) -> S:
        """A game started from an explicit deal (see each game's ``Deal`` docs).

        Later chance events (e.g. next rounds) still come from `seed`.
        """

    @classmethod
    def shared(cls: type[G], **options: Any) -> G:
        """The game with these options (validated), one shared instance: its caches serve every caller."""
        items = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in options.items()))
        game = _shared_game(cls, items)
        assert isinstance(game, cls)
        return game

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
        if isinstance(move, str):
            return self.parse_move(move)
        if not isinstance(move, Move) or type(move).__module__ != type(self).__module__:
            raise InvalidMoveError(move, "not a move of this game", game=self.name)
        return move

    def replay(self, record: Mapping[str, Any] | str) -> S:
        """Rebuild the state a record describes, checking every move."""
        data = _read_record(record, self.name)
        try:
            options = self.config_class.from_options(**data["options"])
        except ConfigError as err:
            raise RecordError(f"record options refused: {err}") from err
        if options != self.config:
            game: Game[S] = type(self)(options)
        else:
            game = self
        seed = data["seed"]
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RecordError(f"record seed must be an integer, not {seed!r}")
        try:
            state = game.from_deal(data["deal"], seed=seed) if data.get("deal") else game.new_state(seed)
        except (ConfigError, InvalidMoveError, TypeError, KeyError) as err:
            raise RecordError(f"record deal refused: {err}") from err
        for index, text in enumerate(data["moves"]):
            if not isinstance(text, str):
                raise RecordError(f"move #{index + 1} must be text, not {text!r}")
            try:
                state = state.play(text)
            except (InvalidMoveError, IllegalMoveError) as err:
                raise RecordError(f"move #{index + 1} {text!r} does not replay: {err}") from err
        return state


@lru_cache(maxsize=64)
def _shared_game(cls: type[Game[Any]], options: tuple[tuple[str, Any], ...]) -> Game[Any]:
    return cls(cls.config_class.from_options(**dict(options)))


def _read_record(record: Mapping[str, Any] | str, game_name: str) -> dict[str, Any]:
    if isinstance(record, str):
        try:
            record = json.loads(record)
        except json.JSONDecodeError as err:
            raise RecordError(f"record is not JSON: {err}") from err
    if not isinstance(record, Mapping):
        raise RecordError("record must be a JSON object")
    if record.get("format") != RECORD_FORMAT or record.get("version") != RECORD_VERSION:
        raise RecordError(f"not a {RECORD_FORMAT} v{RECORD_VERSION} record")
    if record.get("game") != game_name:
        raise RecordError(f"record is for {record.get('game')!r}, not {game_name!r}")
    for key, kind in (("options", Mapping), ("moves", list)):
        if not isinstance(record.get(key), kind):
            raise RecordError(f"record field {key!r} is missing or of the wrong type")
    if "seed" not in record:
        raise RecordError("record field 'seed' is missing")
    deal = record.get("deal")
    if deal is not None and not isinstance(deal, Mapping):
        raise RecordError("record field 'deal' must be an object or null")
    return dict(record)


# --- state -----------------------------------------------------------------------


class GameState(ABC, Generic[M]):
    """One position. ``play`` is checked and returns a new state.

    Fast path for search: ``child = state.clone(); child.apply_unchecked(move)``
    mutates `child` in place with no validation. Use it only with moves taken
    from ``legal_moves()``.
    """

    game: Game[Any]
    seed: int
    deal: Mapping[str, Any] | None
    history: list[M]
    events: list[Event]

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
    def clone(self) -> "GameState[M]": ...

    @abstractmethod
    def _apply(self, move: M) -> None:
        """Apply a legal move in place and narrate it into ``self.events``."""

    @abstractmethod
    def _judge(self, move: M, legal: bool) -> Explanation:
        """Words for a move whose legality (by ``legal_moves``) is `legal`."""

    @abstractmethod
    def observation(self, player: int) -> Any:
        """All that `player` may know, as plain frozen data (no path back here)."""

    @abstractmethod
    def view(self) -> Any:
        """The omniscient observation a teacher or a replay shows (all hands open)."""

    # -- shared machinery --

    @property
    def log(self) -> tuple[Event, ...]:
        return tuple(self.events)

    def apply_unchecked(self, move: M) -> None:
        """In-place, unchecked: the fast path for search (see class docs)."""
        self.history.append(move)
        self._apply(move)

    def is_legal(self, move: M) -> bool:
        return move in self.legal_moves()

    def explain(self, move: M | str) -> Explanation:
        """Is `move` legal here, and why -- in plain words with rule ids."""
        try:
            parsed = self.game.coerce_move(move)
        except InvalidMoveError as err:
            return Explanation(str(move), False, f"that is not a move: {err.reason}")
        if self.is_over:
            return Explanation(str(parsed), False, "the game is over; no more moves")
        return self._judge(parsed, self.is_legal(parsed))

    def play(self, move: M | str, *, player: int | None = None) -> "GameState[M]":
        """Checked play: returns the next state, leaves this one untouched.

        `player`, when given, must be the seat to move (out-of-turn guard for UIs).
        """
        parsed = self.game.coerce_move(move)
        if self.is_over:
            raise IllegalMoveError(parsed, Explanation(str(parsed), False, "the game is over; no more moves"))
        if player is not None and player != self.current_player:
            why = f"it is not seat {player}'s turn; seat {self.current_player} is to move"
            raise IllegalMoveError(parsed, Explanation(str(parsed), False, why), position=self.describe())
        if not self.is_legal(parsed):
            raise IllegalMoveError(parsed, self._judge(parsed, False), position=self.describe())
        child = self.clone()
        child.apply_unchecked(parsed)
        return child

    def describe(self) -> str:
        """A one-line summary used in error messages."""
        return f"{self.game.title}, move {len(self.history)}, seat {self.current_player} to move"

    def to_record(self) -> dict[str, Any]:
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self.game.name,
            "options": self.game.config.to_dict(),
            "seed": self.seed,
            "deal": dict(self.deal) if self.deal else None,
            "moves": [str(m) for m in self.history],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_record())

    def _repr_html_(self) -> str | None:
        """The omniscient view as HTML, by the renderer the render layer installed (None: plain repr)."""
        return None if _html_renderer is None else _html_renderer(self.view())

    def __repr__(self) -> str:
        return f"<{self.describe()}>"


_html_renderer: Callable[[Any], str] | None = None
"""Observation -> HTML. The render layer installs it (``sloth_kernel.render``), so that the
core never imports the layers above it; importing ``sloth_kernel`` always does."""


def install_html_renderer(renderer: Callable[[Any], str]) -> None:
    """Called once by the render layer: how ``GameState._repr_html_`` draws a state."""
    global _html_renderer
    _html_renderer = renderer


def check_seat(value: Any, players: int, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < players:
        raise ConfigError(f"{what} must be a seat from 0 to {players - 1}, not {value!r}")
    return value


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
