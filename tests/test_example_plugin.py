"""The docs' worked example plugin (docs/example_plugin/, shown by docs/add-a-game.md) is built into a
wheel, installed the way pip installs any plugin, and played: in a fresh interpreter that has only the
project's environment and the installed wheel, it passes ``check_game`` and ``check_board``, plays a bot
tournament in the arena, and has its card in the gallery.

The wheel goes into a folder of its own with ``pip install --no-deps --target`` (its one dependency,
sloth-kernel, is the environment's own), which is put on that interpreter's path: its dist-info's
entry point is then found like any installed plugin's. Nothing of the test session's own plugin set-up
(tests/conftest.py) reaches that interpreter.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "docs" / "example_plugin"
PAGE = REPO / "docs" / "add-a-game.md"

PLAY = """
import json, subprocess, sys
from sloth_kernel.registry import available_games, broken_games
from sloth_kernel.testing import check_game
from sloth_widgets.testing import check_board
from sloth_kernel.gallery import gallery_html
from sloth_kernel.bots import bot_levels

assert "dont-bust" in available_games() and not broken_games(), (available_games(), broken_games())
assert "toy-high-card" not in available_games()  # the test session's toy is not here
report = check_game("dont-bust")
print(report)
check_board("dont-bust")
print("check_board passed")
assert 'data-game="dont-bust"' in gallery_html() and "Don&#x27;t Bust" in gallery_html()
print("levels", sorted(bot_levels("dont-bust")))
arena = subprocess.run(
    [sys.executable, "-m", "sloth_kernel", "arena", "--game", "dont-bust", "--bots", "ismcts,heuristic,random",
     "--games", "4", "--workers", "1", "--no-progress", "--bot-option", "ismcts.iterations=10", "--json", "arena.json"],
    capture_output=True, text=True, check=True,
)
print(arena.stdout)
result = json.load(open("arena.json"))
print("arena", sorted(result))
"""


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example built into a wheel from a copy of docs/example_plugin, installed into a folder of its own."""
    work = tmp_path_factory.mktemp("example-plugin")
    source = work / "source"
    shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
    wheels = work / "wheels"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input", "--quiet"]
    subprocess.run(
        [*pip, "wheel", "--no-deps", "--no-build-isolation", "--wheel-dir", str(wheels), str(source)],
        check=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    (wheel,) = wheels.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert {"dont_bust/__init__.py", "dont_bust/engine.py", "dont_bust/bots.py", "dont_bust/board.py"} <= set(names)
    points = next(name for name in names if name.endswith(".dist-info/entry_points.txt"))
    assert "dont-bust = dont_bust:SPEC" in zipfile.ZipFile(wheel).read(points).decode()
    target = work / "site"
    subprocess.run(
        [*pip, "install", "--no-deps", "--no-index", "--target", str(target), str(wheel)],
        check=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    return target


def test_the_example_plugin_installs_and_plays(installed: Path, tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "PYTEST_CURRENT_TEST")}
    env["PYTHONPATH"] = str(installed)
    done = subprocess.run(
        [sys.executable, "-c", PLAY],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env=env,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "dont-bust: " in out and "every check passed" in out
    assert "check_board passed" in out
    assert "levels ['heuristic', 'ismcts', 'random']" in out
    assert "ismcts vs heuristic" in out and "heuristic vs random" in out


def test_the_page_shows_the_example_by_literalinclude() -> None:
    """The page includes the example's files; it does not copy them, so the two cannot drift."""
    page = PAGE.read_text()
    for part in (
        "pyproject.toml",
        "dont_bust/__init__.py",
        "dont_bust/engine.py",
        "dont_bust/bots.py",
        "dont_bust/board.py",
    ):
        assert f"```{{literalinclude}} example_plugin/{part}" in page, part
    assert "class DontBust(" not in page  # the code is in the files only
