"""Command line: ``python -m sloth_kernel bench|arena|play|table ...``, also installed as ``sloth-kernel``.

A refused argument (argparse's, a game option, a bot level) prints one line on stderr and
exits with status 2, never a traceback.
"""

from __future__ import annotations

import sys

from sloth_kernel.cli import one_line
from sloth_kernel.errors import SlothKernelError


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    commands = {
        "bench": "sloth_kernel.bench",
        "arena": "sloth_kernel.arena",
        "play": "sloth_kernel.serve",
        "table": "sloth_kernel.tables.cli",
    }
    if not argv or argv[0] not in commands:
        print(f"usage: sloth-kernel (or python -m sloth_kernel) {{{'|'.join(commands)}}} [options]", file=sys.stderr)
        return 2
    import importlib

    try:
        code: int = importlib.import_module(commands[argv[0]]).main(argv[1:])
    except SlothKernelError as err:
        print(f"python -m sloth_kernel {argv[0]}: error: {one_line(err)}", file=sys.stderr)
        return 2
    return code


if __name__ == "__main__":
    sys.exit(main())
