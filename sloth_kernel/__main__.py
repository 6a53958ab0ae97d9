"""Command line: ``sloth-kernel COMMAND [options]``, also ``python -m sloth_kernel COMMAND``.

``sloth-kernel --help`` lists the commands; ``sloth-kernel COMMAND --help`` shows a command's
options, each with its default. A refused argument (argparse's, a game option, a bot level or
its options) prints one sentence on stderr and exits with status 2; so does a command that needs
an extra that is not installed, naming the extra to install. Ctrl-C stops a command quietly with
status 130. No input prints a traceback: an unexpected failure (a bug) prints one sentence and
exits with status 1 (``SLOTH_KERNEL_TRACEBACK=1`` shows the traceback).
"""

from __future__ import annotations

import importlib
import os
import signal
import sys

from sloth_kernel.cli import extra_for, one_line, program
from sloth_kernel.errors import SlothKernelError, shorten

COMMANDS = {
    "bench": ("sloth_kernel.bench", "measure the engines' speed (also --tables, --edges and --vs-openspiel)"),
    "arena": ("sloth_kernel.arena", "play a seeded tournament between bot levels and print win rates"),
    "play": ("sloth_kernel.serve", "serve the gallery and the play apps with Voila (needs the play extra)"),
    "table": ("sloth_kernel.tables.cli", "make, show, list and close shared tables"),
}
"""Command -> (its module, whose ``main(argv)`` runs it; one line for the listing)."""


def listing() -> str:
    """What ``sloth-kernel --help`` prints: the usage and one line per command."""
    prog = program()
    width = max(len(name) for name in COMMANDS)
    lines = [
        f"usage: {prog} COMMAND [options]",
        "",
        "Card games to play, learn from and study: the four that come with it and any installed as a plugin.",
        "The commands:",
        "",
        *(f"  {name:<{width}}  {line}" for name, (_, line) in COMMANDS.items()),
        "",
        f"{prog} COMMAND --help shows a command's options and their defaults; --version, the version.",
        "sloth-kernel and python -m sloth_kernel are the same command.",
    ]
    return "\n".join(lines)


def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("sloth-kernel")
    except PackageNotFoundError:
        return "unknown (not installed)"


def main(argv: list[str] | None = None) -> int:
    """Run one command; the status for the shell (0 done, 1 stopped, 2 refused, 130 interrupted)."""
    try:
        code = _run(list(sys.argv[1:] if argv is None else argv))
        sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's last flush
        return code
    except BrokenPipeError:  # the output went to a pipe that closed (| head): stop quietly
        _silence_stdout()
        return 1
    except KeyboardInterrupt:
        return quiet_interrupt()


def _run(argv: list[str]) -> int:
    prog = program()
    if not argv:
        print(listing(), file=sys.stderr)
        return 2
    command = argv[0]
    if command in ("-h", "--help", "help"):
        print(listing())
        return 0
    if command == "--version":
        print(f"sloth-kernel {version()}")
        return 0
    if command not in COMMANDS:
        print(
            f"{prog}: error: there is no command {shorten(command)}; the commands are "
            f"{', '.join(COMMANDS)} ({prog} --help lists them)",
            file=sys.stderr,
        )
        return 2
    prog = f"{prog} {command}"
    try:
        code: int = importlib.import_module(COMMANDS[command][0]).main(argv[1:])
    except SlothKernelError as err:
        print(f"{prog}: error: {one_line(err)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return quiet_interrupt()
    except ImportError as err:
        extra = extra_for(err)
        if extra is None:
            return unexpected(prog, err)
        print(f"{prog}: error: this needs the {extra} extra: pip install 'sloth-kernel[{extra}]'", file=sys.stderr)
        return 2
    except BrokenPipeError:
        raise  # main stops quietly
    except OSError as err:
        print(f"{prog}: error: {one_line(err)}", file=sys.stderr)
        return 1
    except Exception as err:  # noqa: BLE001 -- a bug still gets a sentence, never a traceback
        return unexpected(prog, err)
    return code


def quiet_interrupt() -> int:
    """Ctrl-C: no traceback, status 130 (128 + SIGINT), as shells report it."""
    try:
        sys.stderr.write("\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    return 128 + signal.SIGINT


def unexpected(prog: str, err: BaseException) -> int:
    if os.environ.get("SLOTH_KERNEL_TRACEBACK"):
        raise err
    print(
        f"{prog}: stopped on an unexpected error, a bug in sloth-kernel: {one_line(err)[:200]} "
        "(set SLOTH_KERNEL_TRACEBACK=1 to see where)",
        file=sys.stderr,
    )
    return 1


def _silence_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so that the interpreter's final flush is quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
