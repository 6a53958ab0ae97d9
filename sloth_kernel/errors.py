"""Typed errors of the protocol. Every one is a ValueError, so callers may catch either.

Every public entry point returns normally or raises one of these, whatever its input (see
"Errors" in docs/protocol.md). Each error says what was wrong in words a person understands and
carries the offending input in ``value``, shortened by :func:`shorten` (never the whole of a
10 000-character string or a 5 000-digit number).
"""

from __future__ import annotations

import reprlib
from typing import Any

from sloth_kernel.explanation import Explanation

SHORT = 80
"""The most characters :func:`shorten` gives."""


class _Short(reprlib.Repr):
    """``reprlib`` with huge integers described, not printed (``repr`` of 10**5000 raises ValueError)."""

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 128:
            digits = int(x.bit_length() * 0.30103) + 1
            return f"<{'a negative ' if x < 0 else 'an '}integer of about {digits} digits>"
        return super().repr_int(x, level)


_SHORT = _Short()
_SHORT.maxlevel = 3
_SHORT.maxstring = 60
_SHORT.maxother = 60
_SHORT.maxlong = 40
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxset = _SHORT.maxfrozenset = 6
_SHORT.maxdict = 4


def plural(count: int, noun: str, nouns: str = "") -> str:
    """`noun` for a count of one, else its plural (`nouns`, or `noun` + "s"), for words people read."""
    return noun if count == 1 else nouns or noun + "s"


def counted(count: int, noun: str, nouns: str = "") -> str:
    """A count and its noun in plain words: "1 card", "3 cards", "0 cards"."""
    return f"{count} {plural(count, noun, nouns)}"


def a_or_an(word: str) -> str:
    """`word` with its indefinite article by sound: "an 8", "an 11", "an R", "an int", "a 7", "a Run"."""
    spoken = word.lstrip("*")
    head = spoken.split()[0] if spoken.split() else ""
    if head[:1].isdigit():
        number = head.split("-")[0]
        vowel = number.startswith("8") or number in ("11", "18")
    elif len(head) == 1 and head.isupper():
        vowel = head in "AEFHILMNORSX"  # letters said with a vowel sound: "an R", "an X"
    else:
        vowel = head[:1].lower() in "aeio"
    return f"{'an' if vowel else 'a'} {word}"


ORDINAL_WORDS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def ordinal(place: int) -> str:
    """A 1-based place in words: "first", "second", ... "tenth", then "11th", "12th", "21st"."""
    if 1 <= place <= len(ORDINAL_WORDS):
        return ORDINAL_WORDS[place - 1]
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def shorten(value: Any, limit: int = SHORT) -> str:
    """A ``repr`` of any value in at most `limit` characters; it never raises.

    Huge integers are described by their size, long strings and containers are cut, and an
    object whose own ``repr`` fails is named by its type.
    """
    try:
        text = _SHORT.repr(value)
    except Exception:  # a forged object's __repr__ may raise anything: describe it by its type
        text = f"<{type(value).__name__} object>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def refusal(verdict: str, shown: str, why: str) -> str:
    """The one style of every refusal: ``<verdict>: <the input, shown> — <why>``.

    The verdict is one of "not a move in this game" (bad notation), "not legal here" (a rule
    forbids it: an illegal move, out of turn, after the end) and "not a seat of this game"; `why`
    is a lower-case clause in plain words, naming players from 1 and citing rule ids in
    parentheses, with no full stop. ``explain`` gives the same why as its reason.
    """
    return f"{verdict}: {shown} — {why}"


class SlothKernelError(ValueError):
    """Base class of every error the engine raises on bad input.

    ``value`` is the offending input, shortened (see :func:`shorten`), or None.
    """

    value: str | None = None

    def __init__(self, message: str = "", *, value: str | None = None) -> None:
        super().__init__(message)
        if value is not None:
            self.value = value


class ConfigError(SlothKernelError):
    """A game name, an option or a seed was refused."""


class PluginError(ConfigError):
    """A game plugin is installed but broken: it failed to import, or its entry point is wrong."""

    def __init__(self, plugin: str, reason: str) -> None:
        self.plugin = plugin
        self.reason = reason
        super().__init__(f"the game plugin {plugin!r} is broken: {reason}", value=shorten(plugin))


class DealError(ConfigError):
    """A deal given to ``from_deal`` was refused.

    It is not JSON-shaped data, does not fit the game's deal schema (``path`` names the
    offending field, e.g. ``deal.hands[2]``), or is a deal the rules do not allow.
    A ConfigError, since a deal is part of how a game is set up.
    """

    def __init__(self, message: str, *, path: str = "", value: str | None = None) -> None:
        self.path = path
        super().__init__(message, value=value)


class SeatError(SlothKernelError):
    """A seat (``play(..., player=)``, ``observation(seat)``) is not a seat of this game.

    Seats are ``int`` from 0 to players - 1 (people call seat 0 "Player 1"); ``bool``, floats,
    strings and everything else are refused. A real seat that is not to move is a rule
    matter instead: :class:`IllegalMoveError`.
    """

    def __init__(self, seat: Any, players: int, *, what: str = "seat") -> None:
        self.seat = seat
        self.players = players
        kind = "; True and False are not seats" if isinstance(seat, bool) else ""
        super().__init__(
            refusal(
                f"not a {what} of this game",
                shorten(seat),
                f"a {what} is a whole number from 0 to {players - 1} (Player 1 to Player {players}){kind}",
            ),
            value=shorten(seat),
        )


class InvalidMoveError(SlothKernelError):
    """The text (or object) cannot be read as a move of this game."""

    def __init__(self, text: Any, reason: str, *, game: str = "") -> None:
        self.text = text
        self.reason = reason
        self.game = game
        super().__init__(refusal("not a move in this game", shorten(text), reason), value=shorten(text))


class IllegalMoveError(SlothKernelError):
    """A well-formed move that the rules forbid here (out of turn, after the end); carries the explanation."""

    def __init__(self, move: Any, explanation: Explanation, *, position: str = "") -> None:
        self.move = move
        self.explanation = explanation
        self.position = position
        cited = f" ({', '.join(explanation.rules)})" if explanation.rules else ""
        try:
            words = str(getattr(move, "words", move))  # as people read it: a ten is 10, not T
        except Exception:  # a forged move whose words fail: its notation
            words = str(move)
        super().__init__(
            refusal("not legal here", shorten(words), explanation.reason + cited), value=shorten(str(move))
        )


class RecordError(SlothKernelError):
    """A game record is malformed, too large, or tampered with; ``path`` names the offending field."""

    def __init__(self, message: str, *, path: str = "", value: str | None = None) -> None:
        self.path = path
        super().__init__(message, value=value)


class RulesVersionError(RecordError):
    """A record made under another edition of a game's rulings (``Game.rules_version``).

    ``version`` is the record's edition, ``current`` the engine's: the engine replays a record only
    under the rules it was made with, and it plays only its own edition.
    """

    def __init__(self, message: str, *, version: int, current: int) -> None:
        self.version = version
        self.current = current
        super().__init__(message, path="record.rules", value=str(version))


class ConformanceError(SlothKernelError):
    """A game failed ``sloth_kernel.testing.check_game`` (or a board ``sloth_widgets.testing.check_board``).

    ``failures`` holds every failure found, each a :class:`~sloth_kernel.testing.Failure` naming the
    check, the seed, the player count and what differed; the message lists them all.
    """

    def __init__(self, game: str, failures: Any) -> None:
        self.game = game
        self.failures = tuple(failures)
        lines = "\n".join(f"- {failure}" for failure in self.failures)
        count = len(self.failures)
        super().__init__(
            f"{game} fails {count} conformance {'check' if count == 1 else 'checks'}:\n{lines}", value=game
        )
