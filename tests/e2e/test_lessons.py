"""Every lesson in Voila, read as a student would: outside requests blocked, every control used.

Each lesson opens from the server of this module (the repository's voila.json: lessons are
preheated and served with the light `sloth` template). The test checks that text shows, that
the page's own front end comes up, then uses every control it finds, in page order and again
in reverse: every button is clicked, every menu goes through each choice, every slider moves,
every text box is typed into. After each, it waits until the kernel has answered. Then the page
must hold no traceback or error, no code name and no printed Python value (the same patterns
as tests/test_lesson_notebooks.py), and nothing may have left the server. Screenshots at
1280x800 and 390x844 go to test-output/.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest
from harness import LESSONS, PageWatch, VoilaServer, screenshot_path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("lesson_scan", HERE.parent / "test_lesson_notebooks.py")
assert _spec is not None and _spec.loader is not None
scan = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(scan)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
IDLE = "() => window.slothPage && window.slothPage.up && window.__skKernel.pending.size === 0"
ERROR_WORDS = ("Traceback", "Error:", "KeyError", "could not start", "could not be loaded")


def settle(page: Any) -> None:
    """Wait until the kernel has answered every message the page sent."""
    page.wait_for_function(IDLE)


def open_lesson(page: Any, voila: VoilaServer, notebook: str) -> None:
    page.goto(voila.app_url(notebook), wait_until="commit")
    page.locator("#rendered_cells h1").first.wait_for(state="visible")  # first content
    page.wait_for_function("() => window.slothPage && window.slothPage.up")
    settle(page)


def use_every_control(page: Any, reverse: bool = False) -> int:
    """Click, choose, slide and type through every enabled control; return how many were used."""
    used = 0
    widgets = page.locator(
        ".jupyter-widgets button, .jupyter-widgets select, .jupyter-widgets .noUi-handle, "
        ".jupyter-widgets input[type=text], .jupyter-widgets textarea"
    )
    count = widgets.count()
    for index in reversed(range(count)) if reverse else range(count):
        control = widgets.nth(index)
        if not control.is_visible() or not control.is_enabled():
            continue
        tag = control.evaluate("(el) => el.tagName.toLowerCase()")
        if tag == "button":
            control.click()
        elif tag == "select":
            values = control.evaluate("(el) => Array.from(el.options).map((o) => o.value)")
            for value in values[1:] + values[:1]:  # every choice, ending on the first
                control.select_option(value)
                settle(page)
        elif tag in ("input", "textarea"):
            control.fill("9 9 x")  # something the engine refuses...
            control.press("Enter")
            settle(page)
            control.fill("Q Q")  # ...then something it reads
            control.press("Enter")
        else:  # a slider's handle
            control.focus()
            control.press("ArrowRight")
            settle(page)
            control.press("ArrowLeft")
        settle(page)
        used += 1
    return used


def check_page(page: Any, watch: PageWatch) -> None:
    text = page.inner_text("body")
    for word in ERROR_WORDS:
        assert word not in text, f"{word!r} on the page"
    found = scan.problems(text, scan.CODE_NAMES + scan.RAW_VALUES)
    assert not found, "\n".join(found)
    assert watch.blocked == [], f"requests left the server: {watch.blocked}"
    assert watch.problems() == []


@pytest.mark.parametrize("notebook", LESSONS, ids=lambda name: name.removesuffix(".ipynb"))
def test_a_lesson_reads_and_every_control_works_with_outside_requests_blocked(
    voila: VoilaServer, browser: Any, notebook: str
) -> None:
    name = notebook.removesuffix(".ipynb")
    for size in (DESKTOP, PHONE):
        context = browser.new_context(viewport=size)
        context.set_default_timeout(180_000)
        watch = PageWatch(context)
        page = watch.new_page()
        try:
            open_lesson(page, voila, notebook)
            page.screenshot(path=str(screenshot_path(f"lesson-{name}-{size['width']}")), full_page=True)
            check_page(page, watch)
            if size is DESKTOP:
                used = use_every_control(page) + use_every_control(page, reverse=True)
                if page.locator(".jupyter-widgets").count():
                    assert used > 0, "the page has widgets but no control could be used"
                check_page(page, watch)
        finally:
            context.close()
