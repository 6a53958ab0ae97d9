"""A game's board fills in the shell's hooks and nothing else (issue 23).

Every board class (the bundled games' and the toy plugin's) subclasses the shell,
``sloth_widgets.board.GameBoard[ObsT]``. It overrides only the hooks
(``sloth_widgets.hooks.BoardHooks``): nothing that the shell itself defines (``render``, ``step``,
``submit``, the autoplay clock, or any other of its methods), and it never touches the shell's
private parts (its widgets and state, e.g. ``self._hint.layout`` or ``self._verdict``): what a
board changes, it changes through a hook or a public method of the shell. The scan reads the
source, so a board cannot slip past it at run time.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHELL = ROOT / "widgets" / "board.py"


def board_files() -> list[Path]:
    return sorted((ROOT / "widgets").glob("*/board.py")) + sorted((ROOT / "tests" / "plugins").glob("*/board.py"))


def shell_class(source: str) -> ast.ClassDef:
    return next(n for n in ast.parse(source).body if isinstance(n, ast.ClassDef) and n.name == "GameBoard")


def shell_parts(source: str) -> tuple[set[str], set[str]]:
    """What the shell defines (its methods and properties, which a board must not override) and
    its private parts (every ``self._x`` it assigns, and its private methods)."""
    cls = shell_class(source)
    defined = {n.name for n in cls.body if isinstance(n, ast.FunctionDef)} - {"__init__"}
    assigned = {
        target.attr
        for node in ast.walk(cls)
        if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self"
    }
    private = {name for name in defined | assigned if name.startswith("_") and not name.startswith("__")}
    return defined, private


def is_board(cls: ast.ClassDef) -> bool:
    def name(base: ast.expr) -> str:
        base = base.value if isinstance(base, ast.Subscript) else base
        return base.attr if isinstance(base, ast.Attribute) else base.id if isinstance(base, ast.Name) else ""

    return any(name(base) == "GameBoard" for base in cls.bases)


def offences(source: str, defined: set[str], private: set[str]) -> list[str]:
    found = []
    for cls in (n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ClassDef) and is_board(n)):
        found += [
            f"{cls.name}.{node.name} overrides the shell"
            for node in cls.body
            if isinstance(node, ast.FunctionDef) and node.name in defined
        ]
        uses = sorted(
            (node.lineno, node.attr)
            for node in ast.walk(cls)
            if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "self"
            and node.attr in private
        )
        found += [f"{cls.name}:{line} uses the shell's self.{attr}" for line, attr in uses]
    return found


def test_the_shell_has_parts_to_protect() -> None:
    defined, private = shell_parts(SHELL.read_text())
    assert {"render", "step", "submit", "_maybe_autoplay", "_render", "seat_label"} <= defined
    assert {
        "_hint",
        "_verdict",
        "_note",
        "_timer",
        "_next",
        "_explain",
        "_setup",
        "_hand",
        "_maybe_autoplay",
    } <= private
    assert not defined & {"picture", "hand_cards", "update_controls", "staged_note"}  # the hooks are a board's
    assert len(board_files()) >= 5  # the four games and the toy plugin


def test_boards_fill_in_hooks_only() -> None:
    defined, private = shell_parts(SHELL.read_text())
    found = [
        f"{path.relative_to(ROOT)}: {offence}"
        for path in board_files()
        for offence in offences(path.read_text(), defined, private)
    ]
    assert found == []


def test_the_scan_finds_an_override_and_a_private_part() -> None:
    defined, private = shell_parts(SHELL.read_text())
    planted = (
        "class Mine(GameBoard[Obs]):\n"
        "    def render(self):\n        pass\n"
        "    def _maybe_autoplay(self):\n        pass\n"
        "    def picture(self, obs, private):\n"
        "        self._hint.layout.display = 'none'\n"
        "        self._own = self._verdict\n"
        "        self._refresh_explanation()\n"
        "        return [self.hints_toggle, self._own]\n"
        "class NotABoard:\n    def render(self):\n        self._verdict = 1\n"
    )
    assert offences(planted, defined, private) == [
        "Mine.render overrides the shell",
        "Mine._maybe_autoplay overrides the shell",
        "Mine:7 uses the shell's self._hint",
        "Mine:8 uses the shell's self._verdict",
        "Mine:9 uses the shell's self._refresh_explanation",
    ]
