"""The landing page links to notebooks that exist, with relative links that work under /voila/render/."""

from __future__ import annotations

import re
from pathlib import Path

from sloth_kernel.gallery import PITCHES, gallery_html

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def test_every_game_has_a_play_and_a_learn_link() -> None:
    page = gallery_html()
    for game in PITCHES:
        assert f'href="play_{game.slug}.ipynb"' in page and f'href="learn_{game.slug}.ipynb"' in page


def test_links_are_relative_and_point_at_existing_notebooks() -> None:
    links = re.findall(r'href="([^"]+)"', gallery_html())
    assert len(links) == 2 * len(PITCHES) + 6
    for link in links:
        assert not link.startswith(("/", "http")), link  # relative: works under /voila/render/ and in Lab
        assert (NOTEBOOKS / link).exists(), f"{link} is linked from the gallery but missing"


def test_every_gallery_link_opens_a_new_tab() -> None:
    anchors = re.findall(r"<a [^>]*>", gallery_html())
    assert len(anchors) >= 8
    for anchor in anchors:
        assert 'target="_blank"' in anchor and 'rel="noopener"' in anchor, anchor
