"""Bots. A bot sees only ``state.observation(seat)``; it never receives a state.

Every observation of the seat to move carries ``legal_moves``, so a bot needs
nothing else. Randomness comes from the generator passed in.

Levels: ``random`` everywhere; each game's own levels (a rule-based ``heuristic``, and
more for some games) from the module its spec's ``bots`` names (``games/<game>/bots.py``);
``ismcts`` (``bots/ismcts.py``) for every game whose spec names a ``search``.
``python -m sloth_kernel arena`` measures them against each other.

A level's code name (``heuristic``) is for code and records; a person reads its ``title``, a first
name, and its ``blurb``, one true line on how it plays, both declared on the bot class beside its
``name`` (:func:`level_title`, :func:`level_blurb`). No two levels share a title, in any game. Titles
kept for levels to come: "Coach Cora" for the coach, and "Ivo" for ISMCTS at a second search budget.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, TypeVar

from sloth_kernel.bots.options import check_bot_options
from sloth_kernel.core import GameState, Move, Observation
from sloth_kernel.errors import ConfigError, plural, shorten

S = TypeVar("S", bound=GameState[Any, Any])


class Bot(Protocol):
    """A player. Each game's bots take that game's observation (hence ``Any`` here)."""

    name: str

    def choose(self, observation: Any) -> Move:
        """Return one of ``observation.legal_moves``."""


class RandomBot:
    """Uniform over the legal moves: the baseline every game has."""

    name = "random"
    title = "Rowan"
    blurb = "plays any legal move at random"

    def __init__(self, seed: int | None = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, observation: Observation) -> Move:
        moves = observation.legal_moves
        if not moves:
            raise ValueError("the observation offers no legal moves (not this seat's turn?)")
        return moves[self.rng.randrange(len(moves))]


def bot_levels(game: str) -> list[str]:
    return list(_game_bots(game))


def level_title(game: str, level: str) -> str:
    """The name a person reads for `level` (its class's ``title``; the code name if it has none)."""
    return str(getattr(_game_bots(game).get(level), "title", level))


def level_blurb(game: str, level: str) -> str:
    """One line on how `level` plays (its class's ``blurb``; empty if it has none)."""
    return str(getattr(_game_bots(game).get(level), "blurb", ""))


def bot_classes(game: str) -> dict[str, Any]:
    """Level -> bot class for `game` (each class's ``option_ranges`` declares its options' ranges)."""
    return _game_bots(game)


def _game_bots(game: str) -> dict[str, Any]:
    """Levels for `game`: random, the game's own (its spec's ``bots``), and ismcts where it can search."""
    from sloth_kernel.registry import game_spec

    spec = game_spec(game)
    levels: dict[str, Any] = {"random": RandomBot}
    levels.update(spec.load(spec.bots) or {})
    if spec.search is not None:
        from sloth_kernel.bots.ismcts import ISMCTSBot

        levels["ismcts"] = ISMCTSBot
    return levels


def ismcts_games() -> set[str]:
    """Games with a determinizer, hence an ISMCTS level."""
    from sloth_kernel.registry import game_specs

    return {name for name, spec in game_specs().items() if spec.search is not None}


def make_bot(game: str, level: str = "random", *, seed: int | None = 0, **options: Any) -> Bot:
    """A bot of `level` for `game`. Its options are checked against what the bot class declares
    (``option_ranges``, ``option_choices``: see :mod:`sloth_kernel.bots.options`), each range one whose
    worst decision is measured (``python -m sloth_kernel bench --edges``); an option outside them, or
    one the bot does not take, is a ConfigError naming the option and the values it may take."""
    levels = _game_bots(game)
    if not isinstance(level, str) or level not in levels:
        raise ConfigError(f"no bot level {shorten(level)} for {game}; choose one of {', '.join(levels)}")
    if seed is not None and (type(seed) is not int or seed.bit_length() > 4096):
        raise ConfigError(f"a bot's seed is a whole number or None, not {shorten(seed)}")
    cls = levels[level]
    takes: Mapping[str, inspect.Parameter]
    try:
        takes = inspect.signature(cls).parameters
    except (TypeError, ValueError):  # a plugin's class whose signature cannot be read: let it check
        takes = {}
    if takes and not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in takes.values()):
        unknown = sorted(set(options) - set(takes))
        if unknown:
            valid = [name for name in takes if name != "seed"]
            raise ConfigError(
                f"the {level} bot has no {plural(len(unknown), 'option')} {', '.join(map(shorten, unknown))}; "
                f"its options: {', '.join(valid) or 'none'}"
            )
    check_bot_options(cls, **options)  # the ranges and choices the bot class declares, before it is built
    try:
        bot: Bot = cls(seed=seed, **options)
    except TypeError as err:  # a plugin's bot whose signature could not be read, given an option it lacks
        raise ConfigError(f"the {level} bot does not take these options ({', '.join(map(shorten, options))})") from err
    return bot


def play_out(state: S, bots: Sequence[Bot], *, max_moves: int = 100_000) -> S:
    """Play `state` to the end with one bot per seat, checked moves, observations only."""
    for _ in range(max_moves):
        if state.is_over:
            return state
        seat = state.current_player
        state = state.play(bots[seat].choose(state.observation(seat)), player=seat)
    raise RuntimeError("game did not end within max_moves")
