"""The landing page links to notebooks that exist, with relative links that work under /voila/render/."""

from __future__ import annotations

import re
from pathlib import Path

from sloth_kernel import game_specs
from sloth_kernel.gallery import SHARED_NOTEBOOKS, gallery_html

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def test_every_game_has_a_play_and_a_learn_link() -> None:
    page = gallery_html()
    for spec in game_specs().values():
        assert f'href="{spec.play_notebook}"' in page and f'href="{spec.learn_notebook}"' in page


def test_links_are_relative_and_point_at_existing_notebooks() -> None:
    links = re.findall(r'href="([^"]+)"', gallery_html())
    specs = game_specs().values()
    assert len(links) == 2 * len(specs) + len(SHARED_NOTEBOOKS) + sum(len(spec.notebooks) for spec in specs)
    for link in links:
        assert not link.startswith(("/", "http")), link  # relative: works under /voila/render/ and in Lab
        assert (NOTEBOOKS / link).exists(), f"{link} is linked from the gallery but missing"


def test_every_gallery_link_opens_a_new_tab() -> None:
    anchors = re.findall(r"<a [^>]*>", gallery_html())
    assert len(anchors) >= 8
    for anchor in anchors:
        assert 'target="_blank"' in anchor and 'rel="noopener"' in anchor, anchor
