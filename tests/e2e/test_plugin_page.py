"""A plugin's game in the browser: the gallery's Play link on its card opens the play page, which shows
its board, and a card played there is in the log. The toy plugin (tests/plugins) is installed into the
server's environment as pip would install it (a dist-info folder on the path); preheating is off, so the
page is served by a kernel Voila starts for the request."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from harness import (
    REPO,
    PageWatch,
    VoilaServer,
    started_server,
    stop_leaving_no_kernels,
    wait_for_first_board,
    wait_until,
)

sys.path.append(str(REPO / "tests" / "plugins"))
from plugin_dist import HERE, TOY, TOY_DIST, TOY_POINTS, write_dist_info  # noqa: E402

CARD = f'.sk-game-card[data-game="{TOY}"]'


@pytest.fixture(scope="module")
def plugin_voila(tmp_path_factory: pytest.TempPathFactory, chromium: None) -> Iterator[VoilaServer]:
    site = tmp_path_factory.mktemp("toy-site")
    write_dist_info(site, TOY_DIST, TOY_POINTS)
    path = os.pathsep.join([str(site), str(HERE), *filter(None, [os.environ.get("PYTHONPATH")])])
    server = started_server(
        args=["--VoilaConfiguration.preheat_kernel=False"],
        env={**os.environ, "PYTHONPATH": path},
        log_path=REPO / "test-output" / "voila-e2e-plugin.log",
    )
    yield server
    stop_leaving_no_kernels(server)


def test_a_plugins_play_link_opens_its_board_and_a_card_plays(
    plugin_voila: VoilaServer, watched_page: tuple[Any, PageWatch]
) -> None:
    page, watch = watched_page
    page.goto(plugin_voila.app_url("index.ipynb"), wait_until="commit")
    link = page.locator(f"{CARD} a.sk-play-link")
    link.wait_for()
    href = link.get_attribute("href")
    assert href == f"play.ipynb?game={TOY}"
    with page.context.expect_page() as opened:
        link.click()  # a new tab, as every gallery link opens
    page = opened.value
    wait_for_first_board(page, plugin_voila, "the plugin's play page", watch)
    assert "High Card" in page.locator(".sk-board").inner_text()
    log = page.locator(".sk-board .jupyter-widgets.sk-log")
    before = log.inner_text()
    page.locator(".sk-board .sk-handcard:not([disabled])").first.click()
    page.locator(".sk-board .sk-handcard.mod-active").wait_for()
    page.locator(".sk-board .sk-play").click()
    wait_until(lambda: log.inner_text() != before, 120, "the played card in the log")
    assert "Player 1 leads" in log.inner_text()
    assert watch.problems() == []
