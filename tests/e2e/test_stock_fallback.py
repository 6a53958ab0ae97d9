"""When the light front end cannot start, the play app falls back to Voila's stock front end.

The `sloth` template (index.html.j2) reloads the page with ``?template=lab`` when
sloth-voila-early.js or sloth-voila.js fails to load or throws before the board is up, or when
sloth-voila.js has not started in time. Here the bundle is broken on purpose (Playwright routes
in front of the server) and a working board must still appear, through the stock template.

The page asks for a chosen deal (``?seed=1``): the stock front end does not send the address,
but the kernel Voila starts for the reloaded page reads it (QUERY_STRING), so the fallback deals
the same seed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from drivers import DRIVERS
from harness import BOARD_READY, PLAY_APPS, REPO, PageWatch, VoilaServer, screenshot_path

GAME = "too-sloth-to-win"
BUILT_AGAINST = REPO / "widgets" / "voila_template" / "sloth" / "static" / "BUILT_AGAINST.json"
BUNDLE = re.compile(r".*/sloth-voila\.js(\?.*)?$")
EARLY = re.compile(r".*/sloth-voila-early\.js(\?.*)?$")
BROKEN = "a bundle broken on purpose"
SEED = 1  # chosen in the address: Player 1 leads this deal


@pytest.fixture
def fresh_page(browser: Any) -> Iterator[tuple[Any, PageWatch]]:
    """A 1280x800 page in a fresh context; outside requests blocked, errors collected."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(180_000)
    watch = PageWatch(context)
    page = watch.new_page()
    yield page, watch
    context.close()


def template_of(url: str) -> str | None:
    return parse_qs(urlsplit(url).query).get("template", [None])[0]


def unexpected(watch: PageWatch, broken: str) -> list[str]:
    """The watch's problems, minus those the broken script causes (its failed requests and
    "Failed to load resource" lines, and the error it throws)."""
    return [line for line in watch.problems() if broken not in line and BROKEN not in line]


def test_the_light_page_registers_the_widget_modules_recorded_at_build_time(
    voila: VoilaServer, fresh_page: tuple[Any, PageWatch]
) -> None:
    page, watch = fresh_page
    page.goto(voila.app_url(PLAY_APPS[GAME]), wait_until="commit")
    page.locator(BOARD_READY).wait_for()
    assert page.evaluate("() => window.slothVoila.modules") == json.loads(BUILT_AGAINST.read_text())["widget_modules"]
    assert page.evaluate("() => window.slothPage.up") is True
    # and serves no other major version of them (a future ipywidgets' models would fail here)
    load = "([name, version]) => window.slothVoila.manager.loadClass(name, '@jupyter-widgets/controls', version)"
    assert page.evaluate(f"async (args) => typeof (await ({load})(args))", ["ButtonModel", "2.0.0"]) == "function"
    refused = page.evaluate(
        f"async (args) => ({load})(args).then(() => '', (e) => e.message)", ["ButtonModel", "3.0.0"]
    )
    assert "is not in this front end" in refused
    assert template_of(page.url) is None  # no fallback
    assert watch.problems() == []


def abort(route: Any) -> None:
    route.abort()


def throw(route: Any) -> None:
    route.fulfill(status=200, content_type="text/javascript", body=f"throw new Error({json.dumps(BROKEN)});")


def hang(route: Any) -> None:
    """Never answered: the script neither loads nor fails (until the page leaves)."""


FAILURES = {
    "bundle-fails-to-load": (BUNDLE, abort, "sloth-voila.js"),
    "bundle-throws": (BUNDLE, throw, "sloth-voila.js"),
    "early-script-fails-to-load": (EARLY, abort, "sloth-voila-early.js"),
    "bundle-never-arrives": (BUNDLE, hang, "sloth-voila.js"),
}


@pytest.mark.parametrize("failure", list(FAILURES))
def test_a_broken_bundle_falls_back_to_the_stock_template(
    failure: str, voila: VoilaServer, fresh_page: tuple[Any, PageWatch]
) -> None:
    page, watch = fresh_page
    pattern, handler, broken = FAILURES[failure]
    hits: list[str] = []
    page.route(pattern, lambda route: (hits.append(route.request.url), handler(route)))
    if handler is hang:
        page.add_init_script("window.slothStartTimeoutMs = 1500;")  # instead of 20 s
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))

    page.goto(voila.app_url(PLAY_APPS[GAME]) + f"?seed={SEED}", wait_until="commit")
    page.wait_for_url(lambda url: template_of(url) == "lab", wait_until="commit")
    driver = DRIVERS[GAME](page)
    driver.wait_for_board()
    driver.wait_for_seed(SEED)  # the address's seed, read by the kernel started for this page

    assert hits, f"the route for {broken} was never used"
    assert urlsplit(page.url).path == urlsplit(voila.app_url(PLAY_APPS[GAME])).path
    # the stock front end drives this board: JupyterLab's scripts, not the bundle
    assert page.evaluate("() => window.slothVoila === undefined && window.slothPage === undefined")
    assert any("/voila/static/" in url for url in requests)
    assert page.locator("link[href*='sloth-voila']").count() == 0

    # and the board answers clicks: an illegal move is refused, a legal one is played
    driver.prepare()
    assert driver.wait_turn_or_over(None) == "turn"
    assert driver.try_illegal().startswith("Not legal")
    before = driver.log_text()
    driver.take_turn()
    assert driver.wait_after_action(before) in ("turn", "over")
    assert page.locator(".sk-error-box").count() == 0
    if failure == "bundle-throws":
        page.screenshot(path=screenshot_path("fallback-stock-template"))
        assert any(BROKEN in line for line in watch.page_errors)
    assert unexpected(watch, broken) == []


def test_a_page_that_names_its_template_never_reloads(voila: VoilaServer, fresh_page: tuple[Any, PageWatch]) -> None:
    """With ``?template=`` in the URL the fallback does not reload (so it cannot loop); the page
    says the game could not start."""
    page, watch = fresh_page
    page.route(BUNDLE, abort)
    url = voila.app_url(PLAY_APPS[GAME]) + "?template=sloth"
    page.goto(url, wait_until="commit")
    progress = page.locator("#sk-page-progress", has_text="could not start")
    progress.wait_for()
    assert page.url == url
    assert page.locator(BOARD_READY).count() == 0
    assert unexpected(watch, "sloth-voila.js") == []
