"""What the command line (``python -m sloth_kernel bench|arena``) shares: argument errors are typed.

A refused argument raises :class:`UsageError` instead of printing a usage block and exiting, so
that ``python -m sloth_kernel`` reports every refusal -- argparse's, the game's options, the bot
levels -- the same way: one line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
from typing import NoReturn

from sloth_kernel.errors import ConfigError


class UsageError(ConfigError):
    """A command-line argument was refused."""


class Parser(argparse.ArgumentParser):
    """An ArgumentParser that raises UsageError (``--help`` still prints and exits 0)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def one_line(error: BaseException) -> str:
    """An error's message on one line."""
    return " ".join(str(error).split())
