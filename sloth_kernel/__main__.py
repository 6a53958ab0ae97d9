"""Command line: ``python -m sloth_kernel bench|arena|play ...``, also installed as ``sloth-kernel``."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    commands = {"bench": "sloth_kernel.bench", "arena": "sloth_kernel.arena", "play": "sloth_kernel.serve"}
    if not argv or argv[0] not in commands:
        print(f"usage: sloth-kernel (or python -m sloth_kernel) {{{'|'.join(commands)}}} [options]", file=sys.stderr)
        return 2
    import importlib

    code: int = importlib.import_module(commands[argv[0]]).main(argv[1:])
    return code


if __name__ == "__main__":
    sys.exit(main())
