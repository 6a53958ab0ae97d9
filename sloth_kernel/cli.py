"""What the command line (``sloth-kernel``, or ``python -m sloth_kernel``) shares.

A refused argument raises :class:`UsageError` instead of printing a usage block and exiting, so
that ``python -m sloth_kernel`` reports every refusal -- argparse's, the game's options, the bot
levels -- the same way: one line on stderr and exit status 2, never a traceback. A command that
needs an extra that is not installed raises :class:`MissingExtraError`, whose sentence says what
to install. Every option's help ends with its default (:class:`Formatter`).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import sys
from collections.abc import Iterable
from typing import Any, NoReturn

from sloth_kernel.errors import ConfigError, shorten
from sloth_kernel.registry import broken_games

EXTRA_MODULES = {
    "pyspiel": "interop",
    "open_spiel": "interop",
    "pettingzoo": "interop",
    "gymnasium": "interop",
    "redis": "tables",
    "psycopg": "tables",
    "voila": "play",
    "ipywidgets": "play",
    "ipykernel": "play",
    "matplotlib": "play",
}
"""The top-level modules of the extras (pyproject's optional dependencies): module -> extra."""


class UsageError(ConfigError):
    """A command-line argument was refused."""


class MissingExtraError(UsageError):
    """A command needs an extra that is not installed; the sentence names it and how to install it."""

    def __init__(self, what: str, extra: str) -> None:
        super().__init__(f"{what} needs the {extra} extra: pip install 'sloth-kernel[{extra}]'")
        self.extra = extra


def require_extra(what: str, extra: str, modules: Iterable[str]) -> None:
    """MissingExtraError unless every one of `modules` can be imported (found, not imported)."""
    for module in modules:
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            raise MissingExtraError(what, extra)


def extra_for(error: ImportError) -> str | None:
    """The extra that brings the module an ImportError could not import, if it is one of theirs."""
    name = (error.name or "").partition(".")[0]
    return EXTRA_MODULES.get(name)


def _words(value: Any) -> str:
    """An option's default as people read it on the command line."""
    if isinstance(value, (list, tuple)):
        return ", ".join(_words(v) for v in value) if value else "none"
    return str(value)


class Formatter(argparse.RawDescriptionHelpFormatter):
    """Keeps the description's lines and ends each option's help with its default.

    An option whose default is None, or whose help already says "default", words its default
    itself ("default: all cores"); a flag (``store_true``) is off unless given; a required option
    has none.
    """

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if "default" in text or action.default in (None, argparse.SUPPRESS) or action.required:
            return text
        if isinstance(action, (argparse._StoreTrueAction, argparse._StoreFalseAction, argparse._HelpAction)):
            return text
        if not action.option_strings:
            return text
        shown = _words(action.default).replace("%", "%%")
        return f"{text} (default: {shown})" if text else f"default: {shown}"


class Parser(argparse.ArgumentParser):
    """An ArgumentParser that raises UsageError (``--help`` still prints and exits 0), and shows defaults."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        choice = re.fullmatch(r"argument (.+?): invalid choice: (.+) \(choose from (.+)\)", message, re.DOTALL)
        if choice is not None:  # argparse lists the choices as Python reprs: say them as words
            names = ", ".join(name.strip().strip("'") for name in choice.group(3).split(","))
            message = f"argument {choice.group(1)}: {choice.group(2)} is not one of {names}"
            given = choice.group(2).strip("'")
            broken = broken_games().get(given)
            if broken is not None:  # an installed plugin that does not load: say why, as load_game does
                message = f"argument {choice.group(1)}: the game {given} is installed but does not load: {broken}"
        raise UsageError(message)


def whole_number(text: str) -> int:
    """An argparse ``type`` for a whole number written with ASCII digits (its refusal is one sentence)."""
    shown = text.strip()
    digits = shown[1:] if shown[:1] in "+-" else shown
    if not digits.isascii() or not digits.isdigit() or len(digits) > 100:
        raise argparse.ArgumentTypeError(f"a whole number such as 100, not {shorten(text)}")
    return int(shown)


def real_number(text: str) -> float:
    """An argparse ``type`` for a number such as 0.5 or 2 (ASCII; NaN and infinities are refused later by range)."""
    shown = text.strip()
    try:
        if not shown.isascii() or len(shown) > 100:
            raise ValueError(shown)
        return float(shown)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number such as 0.5, not {shorten(text)}") from None


def program() -> str:
    """How the command line was started, to name it as the person typed it: ``sloth-kernel`` (the
    installed script) or ``python -m sloth_kernel`` (run as a module, and calls of ``main`` from Python)."""
    started = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    as_script = started.partition(".")[0] in ("sloth-kernel", "sloth-kernel-script")
    return "sloth-kernel" if as_script else "python -m sloth_kernel"


def one_line(error: BaseException) -> str:
    """An error's message on one line."""
    return " ".join(str(error).split())
