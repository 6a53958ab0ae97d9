"""The whole table on one screen: at 1280x800 and 1366x768 each play app shows your hand, its
main action and the newest log line inside the viewport without scrolling; on a 390x844 phone
your hand and the main action are on the first screen (the rest below).

Each app is opened with a chosen deal (``?seed=1``, where it is your turn at the start), on the
light template and on Voila's stock template (``?template=lab``, the fallback). The server
preheats no kernels: what is measured is the layout, not the start-up.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from drivers import DRIVERS
from harness import OUTPUT, PLAY_APPS, PageWatch, VoilaServer, screenshot_path, started_server, stop_leaving_no_kernels

DESKTOPS = ((1280, 800), (1366, 768))
PHONE = (390, 844)
MAIN_ACTION = ".sk-board .sk-play, .sk-board .sk-lift, .sk-board .sk-pitch, .sk-board .sk-keep"

# Where the pieces are, in the page's own coordinates (the page is not scrolled).
MEASURE_JS = """(main) => {
  const shown = (sel) => Array.from(document.querySelectorAll(sel)).filter((e) => e.offsetParent !== null);
  const box = (e) => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
  const lines = shown('.sk-board .sk-log .sk-log-line');
  const action = shown(main)[0];
  return {
    hand: shown('.sk-board .sk-hand-box .sk-handcard').map(box),
    action: action ? box(action) : null,
    newest: lines.length ? box(lines[lines.length - 1]) : null,
    scroll: [window.scrollX, window.scrollY],
    wide: document.scrollingElement.scrollWidth,
  };
}"""


@pytest.fixture(scope="module")
def layout_server(chromium: None) -> Iterator[VoilaServer]:
    server = started_server(
        args=["--VoilaConfiguration.preheat_kernel=False"], log_path=OUTPUT / "voila-one-screen.log"
    )
    yield server
    stop_leaving_no_kernels(server)


def open_table(browser: Any, server: VoilaServer, game: str, size: tuple[int, int], template: str) -> tuple[Any, Any]:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    context.set_default_timeout(180_000)
    watch = PageWatch(context)
    page = watch.new_page()
    query = "?seed=1" + ("&template=lab" if template == "stock" else "")
    page.goto(server.app_url(PLAY_APPS[game]) + query, wait_until="commit")
    driver = DRIVERS[game](page)
    driver.wait_for_board()
    page.locator(".sk-board .sk-log .sk-log-line").first.wait_for()
    page.wait_for_function(
        "(sel) => Array.from(document.querySelectorAll(sel)).some((e) => e.offsetParent !== null && !e.disabled)",
        arg=MAIN_ACTION,
    )
    if game != "sprint":
        page.locator(".sk-board .sk-hand-box .sk-handcard").first.wait_for()
    return context, page


def inside(box: list[float] | None, width: int, height: int) -> bool:
    return box is not None and box[0] >= 0 and box[1] >= 0 and box[2] <= width and box[3] <= height


@pytest.mark.parametrize("template", ["light", "stock"])
@pytest.mark.parametrize("size", [*DESKTOPS, PHONE], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game", list(PLAY_APPS))
def test_the_table_fits_one_screen(
    browser: Any, layout_server: VoilaServer, game: str, size: tuple[int, int], template: str
) -> None:
    width, height = size
    context, page = open_table(browser, layout_server, game, size, template)
    try:
        seen = page.evaluate(MEASURE_JS, MAIN_ACTION)
        page.screenshot(path=str(screenshot_path(f"one-screen-{template}-{game}-{width}x{height}")))
    finally:
        context.close()
    assert seen["scroll"] == [0, 0]
    assert seen["wide"] <= width, "the page scrolls sideways"
    if game != "sprint":  # Sprint! has no hand: you lift from the shared Race pile
        assert seen["hand"], "no hand on the board"
        outside = [box for box in seen["hand"] if not inside(box, width, height)]
        assert not outside, f"{len(outside)} of {len(seen['hand'])} cards of your hand are off the screen: {outside}"
    assert inside(seen["action"], width, height), f"the main action is off the screen: {seen['action']}"
    if size != PHONE:
        assert inside(seen["newest"], width, height), f"the newest log line is off the screen: {seen['newest']}"
