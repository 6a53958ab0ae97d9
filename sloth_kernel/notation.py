"""Reading untrusted input: move text and option sizes, one set of rules for every game.

Each game's ``parse_move`` reads its own table notation with these helpers:

- A move is text of at most :data:`MAX_MOVE_TEXT` characters, refused before any other work.
- Its words are ASCII. ``str.isdigit()``, ``str.isdecimal()`` and ``int()`` accept the
  digits of other scripts (``"²"``, ``"٣"``, fullwidth ``"３"``), and ``str.upper()`` /
  ``str.lower()`` and case-blind regular expressions turn some other letters into ASCII
  ones (the long s ``"ſ"`` into ``S``, the Kelvin sign into ``k``); the notation accepts none
  of them. Words may be separated by any whitespace.
- Numbers are read by :func:`ascii_int`: ASCII digits only, at most :data:`MAX_DIGITS` of
  them (so a number of thousands of digits never reaches ``int()``), in a stated range.
- Every refusal is one :class:`~sloth_kernel.errors.InvalidMoveError`, made by
  :func:`not_a_move`: it carries the text shortened to :data:`SHOWN` characters and a reason
  in one style, "<why>, e.g. <how to write it>", and reads
  ``not a move in this game: '…' — <why>, e.g. <how to write it>``.

Games raise :class:`NotationProblem` from their own reading helpers (which do not hold the
whole text) and turn it into the error in ``parse_move`` with :meth:`NotationProblem.error`.
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable, Mapping
from typing import TypeVar

from sloth_kernel.errors import SHORT as SHOWN  # errors show the offending text in at most this many characters
from sloth_kernel.errors import ConfigError, InvalidMoveError, SlothKernelError, refusal
from sloth_kernel.untrusted import MAX_MOVE_TEXT as MAX_MOVE_TEXT  # re-exported: the one move-text limit

M = TypeVar("M")
E = TypeVar("E", bound=SlothKernelError)

MAX_DIGITS = 6
"""The most digits a number in a move may have, leading zeros included."""

_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = SHOWN


def shorten(text: str, limit: int = SHOWN) -> str:
    """`text` itself if it is at most `limit` characters, else its start and an ellipsis (`limit` in all)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def shown(value: object) -> str:
    """How an error shows untrusted input: text quoted and shortened, anything else as a bounded repr."""
    if isinstance(value, str):
        return repr(shorten(value))
    if type(value) is int and value.bit_length() > 128:  # repr() refuses ints of over 4,300 digits
        return f"a whole number of {value.bit_length()} bits"
    try:
        return shorten(_REPR.repr(value))
    except Exception:  # noqa: BLE001 -- a repr that fails must not hide the refusal being reported
        return f"a {type(value).__name__} that cannot be shown"


def not_a_move(text: object, why: str, *, game: str, example: str = "") -> InvalidMoveError:
    """The one refusal of move notation: ``not a move in this game: '…' — <why>, e.g. <example>``.

    The error's ``text`` is the input shortened (a non-text input: its bounded repr), its
    ``reason`` the why and the example.
    """
    reason = f"{why}, e.g. {example}" if example else why
    error = InvalidMoveError(shorten(text) if isinstance(text, str) else shown(text), reason, game=game)
    error.args = (refusal("not a move in this game", shown(text), reason),)
    return error


class NotationProblem(Exception):
    """Why some words are no move; ``parse_move`` turns it into :func:`not_a_move` with the whole text.

    Never escapes a game's ``parse_move``.
    """

    def __init__(self, why: str, example: str = "") -> None:
        super().__init__(why)
        self.why = why
        self.example = example

    def error(self, text: object, *, game: str) -> InvalidMoveError:
        return not_a_move(text, self.why, game=game, example=self.example)


def read_notation(text: object, by_text: Mapping[str, M], read: Callable[[object], M], *, game: str) -> M:
    """A game's ``parse_move``: the canonical text of a move (what records and replays hold) from
    `by_text` at once, anything else through `read`, whose NotationProblem becomes the one
    InvalidMoveError style of :func:`not_a_move`."""
    known = by_text.get(text) if type(text) is str else None
    if known is not None:
        return known
    try:
        return read(text)
    except NotationProblem as problem:
        raise problem.error(text, game=game) from None


def move_text(text: object, *, example: str) -> str:
    """`text` if it is text of at most MAX_MOVE_TEXT characters; else NotationProblem."""
    if not isinstance(text, str):
        raise NotationProblem(f"a move is written as text, not as {type(text).__name__}", example)
    if len(text) > MAX_MOVE_TEXT:
        raise NotationProblem(too_long(text), example)
    return text


def too_long(text: str) -> str:
    """Why a text over the one move-text limit is no move (the core and every game's notation say it so)."""
    return f"a move is at most {MAX_MOVE_TEXT} characters long, this text has {len(text):,}"


def move_words(text: object, *, example: str) -> list[str]:
    """The words of a move's text; NotationProblem if it is not text, too long, empty, or a word is not ASCII."""
    checked = move_text(text, example=example)
    words = checked.split()
    if not words:
        raise NotationProblem("the move is empty", example)
    if checked.isascii():
        return words
    for word in words:  # other whitespace may separate words; nothing else outside ASCII may appear
        if not word.isascii():
            odd = next(c for c in word if not c.isascii())
            kind = (
                "is not one of the digits 0-9" if odd.isdigit() or odd.isnumeric() else "is not a letter A-Z or a sign"
            )
            where = (
                f"{word!r} (U+{ord(odd):04X})" if word == odd else f"{word!r} holds {odd!r} (U+{ord(odd):04X}), which"
            )
            raise NotationProblem(f"{where} {kind}: moves are written in plain ASCII", example)
    return words


def is_ascii_number(text: str) -> bool:
    """Is `text` a whole number written with 1 to MAX_DIGITS ASCII digits (no sign, no spaces)?"""
    return 0 < len(text) <= MAX_DIGITS and text.isascii() and text.isdigit()


def ascii_int(text: str, *, low: int, high: int, what: str, example: str = "") -> int:
    """`text` as a whole number from `low` to `high`, ASCII digits only; else NotationProblem naming `what`."""
    if not is_ascii_number(text):
        if text.isascii() and text.isdigit():
            raise NotationProblem(f"{what} must be {low} to {high}, not a number of {len(text)} digits", example)
        raise NotationProblem(f"{what} is a number {low} to {high} written with the digits 0-9, not {text!r}", example)
    number = int(text)
    if not low <= number <= high:
        raise NotationProblem(f"{what} must be {low} to {high}, not {number}", example)
    return number


def same_value(mine: object, theirs: object) -> bool:
    """``mine == theirs`` with the same types throughout (tuples item by item), for moves' ``__eq__``.

    A move built by hand with ``1.0`` or ``True`` where the game has ``1`` compares unequal, so it
    is never found among the game's moves; two levels of tuples are followed (deeper: plain ``==``).
    """
    return mine.__class__ is theirs.__class__ and _same(mine, theirs, 2)


def _same(mine: object, theirs: object, depth: int) -> bool:
    if isinstance(mine, tuple) and isinstance(theirs, tuple) and depth:
        return len(mine) == len(theirs) and all(
            a.__class__ is b.__class__ and _same(a, b, depth - 1) for a, b in zip(mine, theirs, strict=True)
        )
    return bool(mine == theirs)


def _seat_config_error(value: object, players: int, what: str) -> ConfigError:
    return ConfigError(
        f"{what} must be a seat from 0 to {players - 1} (Player 1 to Player {players}), not {shown(value)}",
        value=shown(value),
    )


def check_seat(
    value: object,
    players: int,
    refuse: Callable[[object, int, str], E] | None = None,
    *,
    what: str = "seat",
) -> int:
    """The one seat check: `value` as a plain int if it is a whole number from 0 to players - 1.

    An int subclass is taken (as its int value); a bool, a float, text and everything else are
    refused. Refusals are ``refuse(value, players, what)``, each caller's own error type (a
    SlothKernelError): by default a ConfigError naming `what` and the seats it may be.
    Cheap (bots ask for an observation per decision): one type test and one comparison.
    """
    if type(value) is int:
        if 0 <= value < players:
            return value
    elif isinstance(value, int) and not isinstance(value, bool) and 0 <= value < players:
        return int(value)
    if refuse is None:
        raise _seat_config_error(value, players, what)
    raise refuse(value, players, what)
