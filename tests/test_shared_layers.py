"""The shared layers name no game: everything about a game comes from its spec.

Scanned: ``sloth_kernel/**/*.py`` outside ``sloth_kernel/games/``, and ``widgets/**/*.py``
outside each game's own board folder and the front end. For every registered game (the
plugin in tests/plugins included) the scan looks for its name, title, package, engine and
board class names (any case, as whole words) and its rule ids (a prefix such as ``TS-``
followed by a digit, the prefixes read from the game's own ``rules``).
"""

from __future__ import annotations

import re
from pathlib import Path

from sloth_kernel import game_specs
from sloth_kernel.spec import GameSpec

ROOT = Path(__file__).resolve().parent.parent
FRONT_END = ("frontend", "voila_template")


def word(term: str) -> re.Pattern[str]:
    """`term` in any case, not inside a longer word (an underscore or a dash does not extend a word)."""
    return re.compile(rf"(?<![A-Za-z0-9]){re.escape(term)}(?![A-Za-z0-9])", re.IGNORECASE)


def rule_id(prefix: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![A-Za-z0-9]){re.escape(prefix)}\d")


def rule_prefixes(spec: GameSpec) -> set[str]:
    """'TS-' for rules 'TS-1', 'TS-2', ...; named rules ('Objective') have none."""
    return {found.group(1) for rule in spec.game_class().rules if (found := re.match(r"([A-Za-z]+-)\d", rule))}


def game_terms(spec: GameSpec) -> dict[str, re.Pattern[str]]:
    """What would give a game away in a shared file: label -> pattern."""
    package = spec.engine.partition(":")[0].rpartition(".")[0]  # the module's package: 'x.games.sprint'
    names = {spec.name, spec.title, package.rpartition(".")[2], spec.engine.rpartition(":")[2]}
    if spec.board:
        names.add(spec.board.rpartition(":")[2])
    terms = {f"{spec.name}: {name!r}": word(name) for name in names}
    terms.update({f"{spec.name}: rule id {prefix}N": rule_id(prefix) for prefix in rule_prefixes(spec)})
    return terms


def board_folders() -> set[Path]:
    """widgets/<folder> of every game whose board lives in sloth_widgets."""
    folders = set()
    for spec in game_specs().values():
        module = (spec.board or "").partition(":")[0].split(".")
        if len(module) > 2 and module[0] == "sloth_widgets":
            folders.add(ROOT / "widgets" / module[1])
    return folders


def shared_files() -> list[Path]:
    kernel = [p for p in (ROOT / "sloth_kernel").rglob("*.py") if (ROOT / "sloth_kernel" / "games") not in p.parents]
    own = board_folders() | {ROOT / "widgets" / name for name in FRONT_END}
    widgets = [p for p in (ROOT / "widgets").rglob("*.py") if not own & set(p.parents)]
    return sorted(kernel + widgets)


def offences(text: str, terms: dict[str, re.Pattern[str]]) -> list[tuple[int, str]]:
    """(line number, label) for every line naming a game."""
    return [
        (number, label)
        for number, line in enumerate(text.splitlines(), 1)
        for label, pattern in terms.items()
        if pattern.search(line)
    ]


def test_the_scan_sees_what_it_looks_for() -> None:
    specs = game_specs()
    assert len(specs) >= 5, "the bundled games and the plugin"
    terms = {label: p for spec in specs.values() for label, p in game_terms(spec).items()}
    for spec in specs.values():
        prefix = sorted(rule_prefixes(spec))[0]
        planted = f"x = load_game({spec.name!r})\n# {spec.title.upper()}, see {prefix}7\nfrom sloth_kernel.games import {spec.engine.split('.')[-2]}"
        found = {label for _, label in offences(planted, terms)}
        assert f"{spec.name}: {spec.name!r}" in found and f"{spec.name}: rule id {prefix}N" in found, found
        assert f"{spec.name}: {spec.title!r}" in found
    assert not offences("a sprinter's paragraph about ts-style tests and a TS-X pin", terms)
    files = shared_files()
    assert ROOT / "sloth_kernel" / "registry.py" in files and ROOT / "widgets" / "board.py" in files
    assert not any("games" in p.relative_to(ROOT).parts[:2] for p in files)
    assert board_folders() and not any(folder in p.parents for p in files for folder in board_folders())


def test_no_shared_file_names_a_game() -> None:
    terms = {label: p for spec in game_specs().values() for label, p in game_terms(spec).items()}
    found = [
        f"{path.relative_to(ROOT)}:{number}: {label}"
        for path in shared_files()
        for number, label in offences(path.read_text(encoding="utf-8"), terms)
    ]
    assert not found, "shared layers name a game:\n" + "\n".join(found)
