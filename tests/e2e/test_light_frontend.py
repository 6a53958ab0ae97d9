"""The play apps' light front end (the `sloth` Voila template) in a real browser.

What it loads, its HTML sanitizer (it replaces the sanitize-html package), and what a player
sees when the game's kernel goes away. The whole games are played in test_play_apps.py.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from harness import (
    BOARD_READY,
    OUTPUT,
    PLAY_APPS,
    KernelFrames,
    PageWatch,
    VoilaServer,
    screenshot_path,
    started_server,
    stop_leaving_no_kernels,
    wait_for_first_board,
)


def test_a_play_app_loads_two_scripts_one_stylesheet_and_one_kernel_socket(
    voila: VoilaServer, watched_page: tuple[Any, PageWatch]
) -> None:
    page, watch = watched_page
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    sockets: list[str] = []
    page.on("websocket", lambda socket: sockets.append(socket.url))
    page.goto(voila.app_url(PLAY_APPS["race-to-the-bottom"]), wait_until="commit")
    wait_for_first_board(page, voila, "two-scripts-race-to-the-bottom", watch)
    page.wait_for_function("() => window.__skKernel && window.__skKernel.pending.size === 0")

    paths = sorted({urlsplit(url).path for url in requests})
    scripts = [p for p in paths if p.endswith(".js")]
    assert sorted(p.rsplit("/", 1)[1] for p in scripts) == ["sloth-voila-early.js", "sloth-voila.js"]
    assert not [p for p in paths if "/voila/static/" in p or "labextensions" in p], paths
    assert [p for p in paths if p.endswith(".css")] == ["/voila/templates/sloth/static/sloth-voila.css"]
    assert len(sockets) == 1 and "/api/kernels/" in sockets[0]  # the page's early socket, adopted
    # the binary protocol, which the server forwards without parsing the messages' content
    assert page.evaluate("() => window.slothVoila.manager.kernel.socket.protocol") == "v1.kernel.websocket.jupyter.org"
    assert watch.blocked == [] and watch.problems() == []
    # the widgets' button icons come from the bundled Font Awesome
    icon_font = page.evaluate("""() => {
        const icon = document.querySelector('.sk-board button .fa');
        return icon && getComputedStyle(icon, '::before').fontFamily; }""")
    assert icon_font and "Font Awesome" in icon_font


def test_the_page_sends_its_address_parameters_to_the_board_and_nothing_without(
    voila: VoilaServer, watched_page: tuple[Any, PageWatch]
) -> None:
    """``?seed=`` reaches the preheated kernel through one widget message (Voila would give a
    preheated kernel the address only by making it wait); an address without parameters sends
    none, and its board shows no seed."""
    page, watch = watched_page
    traffic = KernelFrames(page.context)
    page.goto(voila.app_url(PLAY_APPS["race-to-the-bottom"]), wait_until="commit")
    page.locator(BOARD_READY).wait_for()
    page.wait_for_function("() => window.slothPage.up && window.__skKernel.pending.size === 0")
    page.wait_for_function("() => performance.getEntriesByName('sloth:reconciled').length > 0")
    assert traffic.first("_page_params", "sent") is None
    assert "seed" not in page.locator(BOARD_READY).inner_text()

    page.goto(voila.app_url(PLAY_APPS["race-to-the-bottom"]) + "?seed=42", wait_until="commit")
    page.locator(BOARD_READY, has_text="seed 42 (chosen)").wait_for()
    sent = [data for way, data in traffic.frames if way == "sent" and b"_page_params" in data]
    assert len(sent) == 1 and (b'"seed": "42"' in sent[0] or b'"seed":"42"' in sent[0])
    assert page.evaluate("() => performance.getEntriesByName('sloth:params').length") == 1
    setup_seed = page.locator(".sk-board .sk-setup .sk-seed-input input")
    assert setup_seed.input_value() == "42"  # a chosen seed may be shown, and is ready to deal again
    assert watch.problems() == []


CASES = [
    ('<b onclick="window.__sanitizerRan=1">bold</b> and <i>slanted</i>', "<b>bold</b> and <i>slanted</i>"),
    ("<script>window.__sanitizerRan=1</script>text", "text"),
    ('<div class="x">kept <u>text</u></div>', "kept text"),
    ('<a href="javascript:window.__sanitizerRan=1">a</a>', "<a>a</a>"),
    ('<a href=" java\tscript:window.__sanitizerRan=1">a</a>', "<a>a</a>"),
    ('<a href="https://example.org/x" title="t">a</a>', '<a href="https://example.org/x" title="t">a</a>'),
    ('<a href="rules.html#TS-7">TS-7</a>', '<a href="rules.html#TS-7">TS-7</a>'),
    ('<img src="data:image/png;base64,AAAA" onerror="window.__sanitizerRan=1">', "<img>"),
    ('<span style="color:red" aria-label="r" data-x="1">r</span>', '<span style="color:red" aria-label="r">r</span>'),
    ("<style>body{display:none}</style><iframe src=x></iframe>ok", "ok"),
]


@pytest.fixture(scope="module")
def sanitizer_page(voila: VoilaServer, browser: Any) -> Iterator[Any]:
    """One play app page for all the sanitizer cases (the cases only call its sanitizer)."""
    context = browser.new_context()
    context.set_default_timeout(180_000)
    page = PageWatch(context).new_page()
    page.goto(voila.app_url(PLAY_APPS["sprint"]), wait_until="commit")
    page.wait_for_function("() => window.slothVoila && window.slothVoila.inlineSanitize")
    yield page
    context.close()


@pytest.mark.parametrize("html,expected", CASES)
def test_description_html_is_sanitized_like_ipywidgets_does(html: str, expected: str, sanitizer_page: Any) -> None:
    page = sanitizer_page
    assert page.evaluate("(html) => window.slothVoila.inlineSanitize(html)", html) == expected
    # and nothing in it ran
    assert page.evaluate("() => window.__sanitizerRan === undefined")


def test_a_lost_server_is_announced_on_the_page(browser: Any) -> None:
    """When the server (or the game's kernel) goes away, the board cannot answer clicks any
    more; the page says so instead of silently ignoring them."""
    server = started_server(args=["--VoilaConfiguration.preheat_kernel=False"], log_path=OUTPUT / "voila-e2e-lost.log")
    context = browser.new_context(viewport={"width": 1200, "height": 800})
    context.set_default_timeout(180_000)
    try:
        watch = PageWatch(context)
        page = watch.new_page()
        page.goto(server.app_url(PLAY_APPS["too-sloth-to-win"]), wait_until="commit")
        wait_for_first_board(page, server, "lost-server-too-sloth-to-win", watch)
        assert page.locator(".sk-page-banner").count() == 0
        stop_leaving_no_kernels(server)
        banner = page.locator(".sk-page-banner")
        banner.wait_for()
        assert "lost its connection" in banner.inner_text() and "Reload" in banner.inner_text()
        page.screenshot(path=screenshot_path("lost-connection"))
    finally:
        context.close()
        server.stop()


def test_the_page_config_carries_the_kernel_the_page_connects_to(
    voila: VoilaServer, watched_page: tuple[Any, PageWatch]
) -> None:
    page, watch = watched_page
    page.goto(voila.app_url(PLAY_APPS["surplus-of-sloths"]), wait_until="commit")
    wait_for_first_board(page, voila, "page-config-surplus-of-sloths", watch)
    config = json.loads(page.locator("#jupyter-config-data").text_content())
    socket_url = page.evaluate("() => window.slothVoila.manager.kernel.socket.url")
    assert f"/api/kernels/{config['kernelId']}/channels?session_id=" in socket_url


COARSE_WORDS = {"near the top", "about halfway", "near the bottom"}


def test_sprints_cut_slider_says_only_coarse_bands_never_a_number(voila: VoilaServer, browser: Any) -> None:
    """SP-7 in the page: everything the cut slider's handle tells a screen reader (aria-valuetext,
    aria-valuenow/min/max, its name and title), read at every slider step from top to bottom,
    takes at most three values, so it tells the cut to within a third of the pile at best: about
    5 cards of the 32 at the median, far coarser than the picture plus the hand noise. Before
    this, aria-valuetext read the slider's value ("0.47"), 101 readings, which with the board's
    per-turn margins gave the count to about 1.3 cards at the median."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(180_000)
    page = PageWatch(context).new_page()
    try:
        page.goto(voila.app_url(PLAY_APPS["sprint"]), wait_until="commit")
        page.wait_for_selector(BOARD_READY)
        handle = page.locator(".sk-board .sk-lift-cut .noUi-handle").first
        handle.wait_for(state="visible")
        handle.focus()
        page.keyboard.press("End")  # the top of a vertical slider is its maximum
        # a busy machine may take a while to move the handle: wait until it says it is at the top
        page.wait_for_function(
            "(h) => h.getAttribute('aria-valuetext') === 'near the top'", arg=handle.element_handle(), timeout=60_000
        )
        readings: list[tuple[str | None, ...]] = []
        for _ in range(110):  # the slider has 101 steps: every one of them, top to bottom
            with contextlib.suppress(PlaywrightTimeout):  # a number that stays: the assertions below say which
                page.wait_for_function(  # the front end rewrites the slider's own numbers as soon as it writes them
                    "(h) => /^[0-2]$/.test(h.getAttribute('aria-valuenow') || '')",
                    arg=handle.element_handle(),
                    timeout=5_000,
                )
            readings.append(
                tuple(
                    handle.get_attribute(name)
                    for name in ("aria-valuetext", "aria-valuenow", "aria-valuemin", "aria-valuemax", "title")
                )
            )
            page.keyboard.press("ArrowDown")
        words = [r[0] for r in readings]
        print(f"distinct accessible readings of the cut slider: {len(set(readings))}")
        assert set(words) <= COARSE_WORDS, set(words) - COARSE_WORDS
        assert words[0] == "near the top" and words[-1] == "near the bottom"
        assert len(set(readings)) <= 3, sorted(set(readings))  # at most log2(3) bits about the cut
        assert {r[1:4] for r in readings} <= {("0", "0", "2"), ("1", "0", "2"), ("2", "0", "2")}
    finally:
        context.close()
