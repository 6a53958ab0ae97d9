"""Load: 8 browser pages play at once against one Voila server, then idle culling cleans up.

This server runs with the repository's voila.json plus a short idle-culling timeout given on the
command line (command-line options win over the file; test_voila_config checks the file's own).
Closing a page sends no shutdown (Playwright closes without ``beforeunload``, and the beacon is
blocked as well), so only the idle culler can bring the kernel count back down: that is what the
test checks.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from drivers import DRIVERS
from harness import (
    NOTEBOOKS,
    OUTPUT,
    PLAY_APPS,
    PageWatch,
    VoilaServer,
    preheated_kernels,
    screenshot_path,
    started_server,
    stop_leaving_no_kernels,
    wait_for_first_board,
    wait_until,
)

PAGES = 8
GAME = "too-sloth-to-win"
ACTIONS_PER_PAGE = 5
# The idle culler takes a kernel once its page has connected and gone away; until its page
# connects, a kernel is the "never connected" culler's (SlothKernelManager), whose timeout must
# outlast the gap between the page being sent and its WebSocket connecting: with eight pages
# loading at once on two cores we saw boards 43 s after the requests, and over 60 s when other
# work loaded the machine (load average 10). So that one is long here (voila.json: 60), and the
# idle timeout, which only abandoned pages meet, is short.
UNCONNECTED_TIMEOUT = 300
CULL_IDLE_TIMEOUT = 20
CULL_INTERVAL = 2
FIRST_BOARD_MS = 300_000


@pytest.fixture(scope="module")
def culling_voila(chromium: None) -> Iterator[VoilaServer]:
    if not (NOTEBOOKS / PLAY_APPS[GAME]).exists():
        pytest.skip(f"notebooks/{PLAY_APPS[GAME]} is not in this checkout yet")
    server = started_server(
        log_path=OUTPUT / "voila-e2e-load.log",
        args=[
            f"--MappingKernelManager.cull_idle_timeout={CULL_IDLE_TIMEOUT}",
            f"--MappingKernelManager.cull_interval={CULL_INTERVAL}",
            f"--SlothKernelManager.unconnected_timeout={UNCONNECTED_TIMEOUT}",
        ],
    )
    yield server
    stop_leaving_no_kernels(server)


def test_eight_pages_play_at_once_then_culling_frees_their_kernels(culling_voila: VoilaServer, browser: Any) -> None:
    server = culling_voila
    baseline = preheated_kernels()
    server.wait_for_kernels(baseline, timeout=180)
    # the culling settings above are the ones in force (they are given on the command line); each culler
    # logs them when it starts, which is after the server first answers: wait for the lines, then read them
    idle = f"idle durations > {CULL_IDLE_TIMEOUT} seconds at {CULL_INTERVAL} second intervals"
    unconnected = f"never connected, idle > {UNCONNECTED_TIMEOUT} seconds"
    wait_until(lambda: "Culling kernels with idle durations" in server.log_text(), 120, "the idle culler to start")
    wait_until(lambda: "whose page never connected" in server.log_text(), 120, "the never-connected culler to start")
    assert idle in server.log_text() and unconnected in server.log_text(), server.log_text()[-2000:]

    contexts, pages, watches, drivers = [], [], [], []
    for _ in range(PAGES):
        context = browser.new_context(viewport={"width": 1200, "height": 1000})
        context.set_default_timeout(180_000)
        watch = PageWatch(context, block_shutdown_beacon=True)
        page = watch.new_page()
        contexts.append(context), watches.append(watch), pages.append(page)
    try:
        for page in pages:  # all eight requests go out before any board is awaited
            page.goto(server.app_url(PLAY_APPS[GAME]), wait_until="commit")
        for number, (page, watch) in enumerate(zip(pages, watches, strict=True), start=1):
            # eight pages load side by side on two cores: the first board may take minutes on a
            # busy machine; a page that never shows one fails with a report of its state
            wait_for_first_board(page, server, f"load-page-{number}", watch, timeout_ms=FIRST_BOARD_MS)
            driver = DRIVERS[GAME](page)
            driver.wait_for_board()
            driver.prepare()
            drivers.append(driver)

        # Each page gets its own game: a different chosen seed through New game / seats.
        seeds = [101 + i for i in range(PAGES)]
        for page, seed in zip(pages, seeds, strict=False):
            page.locator(".sk-board .sk-disclosure-toggle", has_text="New game").click()
            page.locator(".sk-board .sk-setup .sk-seed-input input").fill(str(seed))
            page.locator(".sk-board .sk-setup .sk-deal-seed").click()
        for driver, seed in zip(drivers, seeds, strict=False):
            driver.wait_for_seed(seed)
            driver.wait_turn_or_over(None)

        # Round-robin: every page clicks, then every page waits; the kernels work side by side.
        for _ in range(ACTIONS_PER_PAGE):
            live = [d for d in drivers if not d.page.locator(".sk-board .jupyter-widgets.sk-game-over").is_visible()]
            before = {id(d): d.log_text() for d in live}
            for driver in live:
                driver.take_turn()
                driver.actions += 1
            for driver in live:
                driver.wait_after_action(before[id(driver)])

        for driver, seed, watch in zip(drivers, seeds, watches, strict=False):
            assert f"seed {seed} " in driver.status_text()  # still its own game
            assert driver.actions >= 1
            assert watch.problems() == []
            assert driver.page.locator(".sk-error-box").count() == 0
        logs = {d.log_text() for d in drivers}
        assert len(logs) == PAGES  # eight different games on screen
        pages[0].locator(".sk-board").screenshot(path=screenshot_path("load-page-1"))
        assert server.kernel_count() >= baseline + PAGES
    finally:
        for context in contexts:
            context.close()

    # Nobody said goodbye: idle culling alone must bring the count back to the preheated pool.
    wait_until(
        lambda: server.kernel_count() <= baseline,
        timeout=CULL_IDLE_TIMEOUT + 10 * CULL_INTERVAL + 60,
        what=f"culling to leave only the {baseline} preheated kernels",
    )
    assert "Culling 'idle' kernel" in server.log_text()
