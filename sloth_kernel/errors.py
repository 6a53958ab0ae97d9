"""Typed errors of the protocol. Every one is a ValueError, so callers may catch either."""

from __future__ import annotations

from typing import Any

from sloth_kernel.explanation import Explanation


class SlothKernelError(ValueError):
    """Base class of every error the engine raises on bad input."""


class ConfigError(SlothKernelError):
    """A game name or option was refused."""


class PluginError(ConfigError):
    """A game plugin is installed but broken: it failed to import, or its entry point is wrong."""

    def __init__(self, plugin: str, reason: str) -> None:
        self.plugin = plugin
        self.reason = reason
        super().__init__(f"the game plugin {plugin!r} is broken: {reason}")


class InvalidMoveError(SlothKernelError):
    """The text (or object) cannot be read as a move of this game."""

    def __init__(self, text: Any, reason: str, *, game: str = "") -> None:
        self.text = text
        self.reason = reason
        self.game = game
        where = f" in {game}" if game else ""
        super().__init__(f"cannot read {text!r} as a move{where}: {reason}")


class IllegalMoveError(SlothKernelError):
    """A well-formed move that the rules forbid here; carries the explanation."""

    def __init__(self, move: Any, explanation: Explanation, *, position: str = "") -> None:
        self.move = move
        self.explanation = explanation
        self.position = position
        super().__init__(f"illegal move {str(move)!r}: {explanation.reason}")


class RecordError(SlothKernelError):
    """A game record is malformed or tampered with."""
