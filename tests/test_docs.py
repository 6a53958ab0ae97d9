"""The documentation builds: Sphinx with MyST turns docs/ into HTML with warnings as errors (a broken
link between pages, a missing anchor, a page outside the table of contents, a literalinclude of a
file that is not there all fail) and without the network (no intersphinx). And the README's links to
the pages, which GitHub follows and Sphinx does not see, each reach a page and a heading on it.
"""

from __future__ import annotations

import re
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"

pytest.importorskip("sphinx", reason="the docs extra builds the documentation")
pytest.importorskip("myst_parser", reason="the docs extra builds the documentation")


def build(source: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-b", "html", "-q", "-E", str(source), str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )


def test_the_docs_build_with_warnings_as_errors(tmp_path: Path) -> None:
    done = build(DOCS, tmp_path / "html")
    assert done.returncode == 0, done.stderr
    pages = {path.stem for path in (tmp_path / "html").glob("*.html")}
    assert {path.stem for path in DOCS.glob("*.md")} <= pages
    conf = runpy.run_path(str(DOCS / "conf.py"))
    assert conf["extensions"] == ["myst_parser"]  # no intersphinx: nothing to fetch


def test_a_broken_link_fails_the_build(tmp_path: Path) -> None:
    """The check can fail: the same docs with one link to a heading that is not there."""
    source = tmp_path / "docs"
    source.mkdir()
    for path in DOCS.glob("*"):
        if path.is_file():
            (source / path.name).write_text(path.read_text())
    (source / "example_plugin").symlink_to(DOCS / "example_plugin", target_is_directory=True)
    page = source / "playing.md"
    page.write_text(page.read_text() + "\nSee [nowhere](protocol.md#no-such-heading).\n")
    done = build(source, tmp_path / "html")
    assert done.returncode != 0
    assert "no-such-heading" in done.stderr


def github_anchor(heading: str) -> str:
    """The anchor GitHub (and MyST's myst_heading_anchors) gives a heading."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    found, fenced = set(), False
    for line in page.read_text().splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (match := re.match(r"#{1,6} (.+)", line)):
            found.add(github_anchor(match.group(1)))
    return found


def test_the_readmes_links_reach_the_docs_pages() -> None:
    readme = (REPO / "README.md").read_text()
    links = re.findall(r"\]\((docs/[^)#\s]+)(?:#([^)\s]+))?\)", readme)
    assert {page for page, _ in links} >= {f"docs/{path.name}" for path in DOCS.glob("*.md")} - {"docs/index.md"}
    for page, anchor in links:
        assert (REPO / page).is_file(), page
        if anchor:
            assert anchor in anchors(REPO / page), f"{page}#{anchor}"
    for anchor in re.findall(r"\]\(#([^)\s]+)\)", readme):
        assert anchor in anchors(REPO / "README.md"), f"README.md#{anchor}"


def test_github_anchors_are_computed_as_github_does() -> None:
    assert github_anchor("Web apps: Voila and Binder") == "web-apps-voila-and-binder"
    assert github_anchor("Where Voila finds the `sloth` template") == "where-voila-finds-the-sloth-template"
    assert github_anchor('The "new table" form') == "the-new-table-form"
