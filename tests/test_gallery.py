"""The landing page links to notebooks that exist, with relative links that work under /voila/render/."""

from __future__ import annotations

import re
from pathlib import Path

from sloth_kernel import game_specs
from sloth_kernel.gallery import SHARED_NOTEBOOKS, gallery_html

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def test_every_game_with_notebooks_has_its_play_and_learn_links() -> None:
    page = gallery_html()
    for spec in game_specs().values():
        for notebook in (spec.play_notebook, spec.learn_notebook):
            if notebook is not None:  # a plugin may ship no notebooks: its card then has no links
                assert f'href="{notebook}"' in page


def test_the_bundled_games_have_play_and_learn_notebooks() -> None:
    bundled = [spec for spec in game_specs().values() if spec.engine.startswith("sloth_kernel.games.")]
    assert len(bundled) == 4
    assert all(spec.play_notebook and spec.learn_notebook for spec in bundled)


def test_links_are_relative_and_point_at_existing_notebooks() -> None:
    links = re.findall(r'href="([^"]+)"', gallery_html())
    specs = game_specs().values()
    play = sum(bool(spec.play_notebook or spec.board) for spec in specs)  # the play page for a board alone
    own = play + sum(bool(spec.learn_notebook) + len(spec.notebooks) for spec in specs)
    assert len(links) == own + len(SHARED_NOTEBOOKS)
    for link in links:
        assert not link.startswith(("/", "http")), link  # relative: works under /voila/render/ and in Lab
        notebook = link.partition("?")[0]
        assert (NOTEBOOKS / notebook).exists(), f"{link} is linked from the gallery but missing"


def test_every_gallery_link_opens_a_new_tab() -> None:
    anchors = re.findall(r"<a [^>]*>", gallery_html())
    assert len(anchors) >= 8
    for anchor in anchors:
        assert 'target="_blank"' in anchor and 'rel="noopener"' in anchor, anchor


def test_the_readme_binder_links_open_existing_notebooks_in_voila() -> None:
    """Each bundled game's play app and lesson (and the shared notebooks) open directly in Voila
    on Binder from the README and the docs pages (docs/playing.md); every link names a notebook that exists."""
    from urllib.parse import unquote

    pages = [NOTEBOOKS.parent / "README.md", *sorted((NOTEBOOKS.parent / "docs").glob("*.md"))]
    readme = "\n".join(page.read_text(encoding="utf-8") for page in pages)
    links = re.findall(r"\((https://mybinder\.org/v2/gh/[^)\s]+)\)", readme)
    targets = {unquote(link.split("urlpath=", 1)[1]) for link in links if "urlpath=" in link}
    assert all(t.startswith("voila/render/notebooks/") for t in targets), targets
    names = {t.removeprefix("voila/render/notebooks/") for t in targets}
    for name in names:
        assert (NOTEBOOKS / name).exists(), f"the docs' Binder link opens {name}, which does not exist"
    for spec in game_specs().values():
        if spec.engine.startswith("sloth_kernel.games."):
            assert {spec.play_notebook, spec.learn_notebook} <= names, spec.name
