"""A rule id on a play app opens its rule's words: by a click, by a tap and by the keyboard (Tab, then
Enter), on the light template and on Voila's stock one, with no script of ours (a ``<details>`` chip).

One Voila server serves the module (conftest's ``voila``); the page deals a chosen seed, so the turn line
cites the same rule every run. Outside requests are blocked (PageWatch) and every wait polls.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from drivers import DRIVERS
from harness import PLAY_APPS, PageWatch, VoilaServer, screenshot_path, wait_for_first_board

from sloth_kernel import load_game

GAME = "too-sloth-to-win"
SEED = 7  # Player 1 leads an empty table: the turn line cites the lead rule
CONTROL = ".sk-board details.sk-rule"


@pytest.fixture(scope="module")
def context(voila: VoilaServer, browser: Any) -> Iterator[tuple[Any, PageWatch]]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, has_touch=True)
    ctx.set_default_timeout(180_000)
    watch = PageWatch(ctx)
    yield ctx, watch
    ctx.close()


def open_app(voila: VoilaServer, context: tuple[Any, PageWatch], template: str) -> Any:
    ctx, watch = context
    page = ctx.new_page()
    query = f"?seed={SEED}" + ("" if template == "light" else f"&template={template}")
    page.goto(voila.app_url(PLAY_APPS[GAME]) + query, wait_until="commit")
    wait_for_first_board(page, voila, f"rules-{template}", watch)
    DRIVERS[GAME](page).wait_for_seed(SEED)
    page.wait_for_function(
        "(sel) => Array.from(document.querySelectorAll(sel + ' > summary')).some((s) => s.offsetParent !== null)",
        arg=CONTROL,
    )
    return page


def visible_control(page: Any) -> Any:
    """The first rule control a person can see (the turn line's, at this deal)."""
    return page.locator(f"{CONTROL}:visible").first


def opened(page: Any, control: Any) -> str:
    """Wait (polling) until the control is open and its words are on screen; return them."""
    control.locator(".sk-rule-words").wait_for(state="visible")
    return str(control.locator(".sk-rule-words").inner_text())


@pytest.mark.parametrize("template", ["light", "lab"])
def test_a_rule_id_opens_its_words_by_click_touch_and_keyboard(
    template: str, voila: VoilaServer, context: tuple[Any, PageWatch]
) -> None:
    rules = load_game(GAME).rules
    page = open_app(voila, context, template)
    try:
        control = visible_control(page)
        rule = control.locator("summary").inner_text().strip()
        assert rule in rules, rule
        words = " ".join(rules[rule].split())
        assert not control.locator(".sk-rule-words").is_visible()  # closed until asked
        # by the mouse
        control.locator("summary").click()
        assert words in " ".join(opened(page, control).split())
        page.screenshot(path=screenshot_path(f"rules-{template}-open-1280x800"))
        control.locator("summary").click()
        control.locator(".sk-rule-words").wait_for(state="hidden")
        # by touch
        control.locator("summary").tap()
        assert words in " ".join(opened(page, control).split())
        control.locator("summary").tap()
        control.locator(".sk-rule-words").wait_for(state="hidden")
        # by the keyboard: Tab from the top of the page until a rule control has the focus, then Enter
        page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
        page.locator("body").focus()
        for _ in range(300):
            page.keyboard.press("Tab")
            if page.evaluate(
                "() => !!document.activeElement && document.activeElement.matches('details.sk-rule > summary')"
            ):
                break
        else:
            pytest.fail("Tab never reached a rule control")
        focused = page.locator("details.sk-rule > summary:focus")
        rule = focused.inner_text().strip()
        page.keyboard.press("Enter")
        shown = page.locator("details.sk-rule:has(> summary:focus) .sk-rule-words")
        shown.wait_for(state="visible")
        assert " ".join(rules[rule].split()) in " ".join(shown.inner_text().split())
    finally:
        page.close()
    assert not context[1].problems(), context[1].problems()
