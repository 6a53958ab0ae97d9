"""The README's examples run: every Python block, and every ``python -m sloth_kernel`` line of its
shell blocks, with the printed output checked wherever the README shows it.

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
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
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


def blocks() -> list[Block]:
    found: list[Block] = []
    lines = README.read_text().splitlines()
    prose: list[str] = []
    number = 0
    while number < len(lines):
        fence = re.fullmatch(r"```(\w*)", lines[number])
        if fence is None:
            prose.append(lines[number])
            number += 1
            continue
        end = lines.index("```", number + 1)
        found.append(Block(fence.group(1), "\n".join(lines[number + 1 : end]) + "\n", number + 1, "\n".join(prose)))
        prose = []
        number = end + 1
    return found


def shown_after(index: int, lead: str) -> str | None:
    """The text block that follows block `index` after the prose `lead`, if the README shows one."""
    found = blocks()
    if index + 1 < len(found) and found[index + 1].language == "text" and found[index + 1].before.strip() == lead:
        return found[index + 1].text
    return None


PYTHON = [i for i, block in enumerate(blocks()) if block.language == "python"]
SHELL = [i for i, block in enumerate(blocks()) if block.language == "sh" and "python -m sloth_kernel" in block.text]


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SLOTH_TABLES", str(tmp_path / "tables.sqlite3"))
    return tmp_path


def test_the_readme_has_examples_to_run() -> None:
    assert len(PYTHON) >= 3 and len(SHELL) >= 3
    assert sum(shown_after(i, "It prints:") is not None for i in PYTHON) >= 2


@pytest.mark.parametrize("index", PYTHON, ids=lambda i: f"line-{blocks()[i].line}")
def test_python_block(index: int, scratch: Path) -> None:
    block = blocks()[index]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block.text, f"README.md:{block.line}", "exec"), {"__name__": "readme"})
    expected = shown_after(index, "It prints:")
    if expected is not None:
        assert out.getvalue() == expected


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


@pytest.mark.parametrize("index", SHELL, ids=lambda i: f"line-{blocks()[i].line}")
def test_command_lines(index: int, scratch: Path) -> None:
    block = blocks()[index]
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
            env=dict(os.environ),
            stdin=subprocess.DEVNULL,
        )
        assert done.returncode == 0, (line, done.stderr)
        assert "Traceback" not in done.stderr
        ran += 1
        if number == 0 and (expected := shown_after(index, "The first prints:")) is not None:
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
