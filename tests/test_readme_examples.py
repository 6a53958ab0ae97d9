"""The examples of the README and of every docs page (docs/*.md) run: every Python block, and every
``python -m sloth_kernel`` line of their shell blocks, with the printed output checked wherever a page
shows it.

- A Python block runs as it is (in a temporary folder, with ``SLOTH_TABLES`` pointing at a fresh
  SQLite file). When the prose after it is "It prints:" and a ``text`` block follows, its output
  must be that block, exactly.
- A command line runs as a subprocess, as it is written, except that optional parts in brackets
  (``[--options ...]``) are left out (``[--json]`` is kept: the JSON shape beside it is checked), ``ID`` is the table the README's ``table create`` made, and slow
  commands get the small counts of :data:`CHEAP` appended (argparse takes an option's last value).
  When the prose after a shell block is "The first prints:", the first line's output must be the
  ``text`` block that follows; a ``# {...}`` comment beside or under a command names the keys of
  the JSON object it prints. A line marked ``not run by the README test:`` (a server that would
  not stop) is skipped, and the marker must say why.
- docs/add-a-game.md's examples play the docs' example plugin (docs/example_plugin/), installed for
  them the way tests/conftest.py installs the toy: a dist-info folder with its entry point, and the
  plugin's folder, on ``sys.path`` (and on ``PYTHONPATH`` for its command lines).
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from plugin_dist import installed

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
"""The README and the docs pages, whose examples run."""
EXAMPLE = ROOT / "docs" / "example_plugin"
EXAMPLE_PAGE = ROOT / "docs" / "add-a-game.md"
"""The page whose examples play the example plugin, which is installed for them."""
SKIP = "not run by the README test:"

CHEAP: list[tuple[tuple[str, ...], list[str]]] = [
    (("arena",), ["--games", "2", "--workers", "1", "--no-progress", "--bot-option", "ismcts.iterations=5"]),
    (("bench", "--tables"), ["--commits", "2"]),
    (("bench", "--edges"), ["--games", "sprint", "--levels", "random", "--samples", "1"]),
    (("bench",), ["--games", "too-sloth-to-win", "--seconds", "0.02", "--repeats", "1"]),
]
"""Command words -> the small counts appended to it (the first entry whose words the line has)."""


@dataclass(frozen=True)
class Block:
    language: str
    text: str
    line: int  # of the opening fence
    before: str  # the prose between the previous block and this one


@functools.cache
def blocks(page: Path = README) -> list[Block]:
    """The page's fenced blocks, each with its language (``{literalinclude}`` for a MyST directive)."""
    found: list[Block] = []
    lines = page.read_text().splitlines()
    prose: list[str] = []
    number = 0
    while number < len(lines):
        fence = re.fullmatch(r"```(\S*)(?: .*)?", lines[number])
        if fence is None:
            prose.append(lines[number])
            number += 1
            continue
        end = lines.index("```", number + 1)
        found.append(Block(fence.group(1), "\n".join(lines[number + 1 : end]) + "\n", number + 1, "\n".join(prose)))
        prose = []
        number = end + 1
    return found


def shown_after(index: int, lead: str, page: Path = README) -> str | None:
    """The text block that follows block `index` of `page` after the prose `lead`, if the page shows one."""
    found = blocks(page)
    if index + 1 < len(found) and found[index + 1].language == "text" and found[index + 1].before.strip() == lead:
        return found[index + 1].text
    return None


PYTHON = [(page, i) for page in PAGES for i, block in enumerate(blocks(page)) if block.language == "python"]
SHELL = [
    (page, i)
    for page in PAGES
    for i, block in enumerate(blocks(page))
    if block.language == "sh" and "python -m sloth_kernel" in block.text
]


def where(case: tuple[Path, int]) -> str:
    page, index = case
    name = page.relative_to(ROOT) if page.is_relative_to(ROOT) else page.name
    return f"{name}:{blocks(page)[index].line}"


@contextlib.contextmanager
def example_plugin() -> Iterator[Path]:
    """The docs' example plugin installed into this process (its dist-info folder is yielded)."""
    sys.path.append(str(EXAMPLE))
    try:
        with installed("sloth_dont_bust", {"dont-bust": "dont_bust:SPEC"}) as folder:
            yield folder
    finally:
        sys.path.remove(str(EXAMPLE))
        for name in [name for name in sys.modules if name == "dont_bust" or name.startswith("dont_bust.")]:
            del sys.modules[name]


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SLOTH_TABLES", str(tmp_path / "tables.sqlite3"))
    return tmp_path


def test_the_pages_have_examples_to_run() -> None:
    assert len(PYTHON) >= 5 and len(SHELL) >= 5
    assert sum(shown_after(i, "It prints:", page) is not None for page, i in PYTHON) >= 4
    assert {page.name for page, _ in PYTHON} >= {"protocol.md", "tables.md", "add-a-game.md"}


def run_python(block: Block, name: str) -> str:
    """What the block prints."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block.text, name, "exec"), {"__name__": "readme"})
    return out.getvalue()


def check_python(page: Path, index: int) -> None:
    block = blocks(page)[index]
    printed = run_python(block, where((page, index)))
    expected = shown_after(index, "It prints:", page)
    if expected is not None:
        assert printed == expected, where((page, index))


@pytest.mark.parametrize(("page", "index"), PYTHON, ids=[where(case) for case in PYTHON])
def test_python_block(page: Path, index: int, scratch: Path) -> None:
    with example_plugin() if page == EXAMPLE_PAGE else contextlib.nullcontext():
        check_python(page, index)


def test_a_block_that_prints_other_than_its_page_shows_fails(tmp_path: Path) -> None:
    """The check can fail: a page whose shown output differs from what its block prints."""
    page = tmp_path / "page.md"
    page.write_text("```python\nprint(2 + 2)\n```\n\nIt prints:\n\n```text\n5\n```\n")
    assert shown_after(0, "It prints:", page) == "5\n"
    with pytest.raises(AssertionError):
        check_python(page, 0)
    page.write_text(page.read_text().replace("5", "4"))
    blocks.cache_clear()
    check_python(page, 0)


def command(line: str, table: str | None) -> list[str] | None:
    """The argv a README line runs (None if it is not a sloth_kernel command line)."""
    words = shlex.split(line, comments=True)
    if words[:1] == [".venv/bin/python"]:
        words[0] = "python"
    if words[:3] != ["python", "-m", "sloth_kernel"]:
        return None
    argv: list[str] = []
    optional = False
    for word in words[3:]:
        if word == "[--json]":  # what the "# {...}" beside it shows
            word = "--json"
        if word.startswith("["):
            optional = True
        if not optional:
            argv.append(table if word == "ID" and table is not None else word)
        if optional and word.endswith("]"):
            optional = False
    for words_, extra in CHEAP:
        if all(word in argv for word in words_):
            return [*argv, *extra]
    return argv


def keys_of(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {key for item in value.values() for key in keys_of(item)}
    if isinstance(value, list):
        return {key for item in value for key in keys_of(item)}
    return set()


@pytest.mark.parametrize(("page", "index"), SHELL, ids=[where(case) for case in SHELL])
def test_command_lines(page: Path, index: int, scratch: Path) -> None:
    with example_plugin() if page == EXAMPLE_PAGE else contextlib.nullcontext() as plugin:
        env = dict(os.environ)
        if plugin is not None:
            env["PYTHONPATH"] = os.pathsep.join([str(plugin), str(EXAMPLE)])
        check_command_lines(page, index, env)


def check_command_lines(page: Path, index: int, env: dict[str, str]) -> None:
    block = blocks(page)[index]
    lines = block.text.splitlines()
    table: str | None = None
    ran = 0
    for number, line in enumerate(lines):
        if SKIP in line:
            assert line.split(SKIP, 1)[1].strip(), f"say why a line is not run: {line}"
            continue
        argv = command(line, table)
        if argv is None:
            continue
        if argv[:1] == ["bench"] and "--vs-openspiel" in argv:
            pytest.importorskip("pyspiel", reason="bench --vs-openspiel needs the interop extra")
        done = subprocess.run(
            [sys.executable, "-m", "sloth_kernel", *argv],
            capture_output=True,
            text=True,
            timeout=600,
            env=env,
            stdin=subprocess.DEVNULL,
        )
        assert done.returncode == 0, (line, done.stderr)
        assert "Traceback" not in done.stderr
        ran += 1
        if number == 0 and (expected := shown_after(index, "The first prints:", page)) is not None:
            assert done.stdout == expected, line
        shape = line.partition("# {")[2] or (
            lines[number + 1].partition("# {")[2]
            if number + 1 < len(lines) and lines[number + 1].startswith("#")
            else ""
        )
        if shape:
            printed = json.loads(done.stdout)
            named = set(re.findall(r'"(\w+)":', "{" + shape))
            assert named <= keys_of(printed) and set(printed) <= named, line  # "<show's object>" stands for more
            if argv[:2] == ["table", "create"]:
                table = printed["table"]
    assert ran, "a block of command lines ran none"
