"""Fixtures for the real-browser tests: one Voila server, Debian chromium, a watched page.

Every test in this folder is marked ``e2e``; the Binder check is also marked ``binder``
(``pytest tests -m "not binder"`` skips the venv build). Without /usr/bin/chromium the
tests skip, except under CI (``CI`` set), where `.ci/run` installs it and they must run.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harness import (
    OUTPUT,
    PageWatch,
    VoilaServer,
    chromium_available,
    launch_chromium,
    playwright_session,
    preheated_kernels,
    started_server,
    stop_leaving_no_kernels,
    wait_until,
)

HERE = Path(__file__).parent


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "e2e: real-browser test (Voila + Debian chromium via Playwright)")
    config.addinivalue_line(
        "markers", "binder: builds a fresh venv from binder/ alone (slow); deselect with -m 'not binder'"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def chromium() -> None:
    if not chromium_available():
        if os.environ.get("CI"):
            pytest.fail("/usr/bin/chromium is missing; .ci/run installs it with apt-get")
        pytest.skip("needs Debian's /usr/bin/chromium (apt-get install chromium)")


@pytest.fixture(scope="session")
def playwright(chromium: None) -> Iterator[Any]:
    with playwright_session() as instance:
        yield instance


@pytest.fixture(scope="session")
def browser(playwright: Any) -> Iterator[Any]:
    browser = launch_chromium(playwright)
    yield browser
    browser.close()


@pytest.fixture(scope="module")
def voila(chromium: None) -> Iterator[VoilaServer]:
    """Voila serving notebooks/ with the repository's voila.json (preheated play apps); one per
    test module, so its kernels are gone before the rest of the suite runs."""
    server = started_server(log_path=OUTPUT / "voila-e2e.log")
    pools = preheated_kernels()
    # the pools (gallery, play apps, table page) each run their notebook at start: generous on 2 cores
    wait_until(lambda: server.log_text().count("Kernel pool of") >= pools, 420, "the preheated pools to fill")
    # Voila logs a pool as filled when its start task is done, even if the kernel failed to start:
    # check they run, so such a failure shows here and not as a board that never comes.
    server.wait_for_kernels(pools, 60)
    yield server
    stop_leaving_no_kernels(server)


@pytest.fixture
def watched_page(browser: Any) -> Iterator[tuple[Any, PageWatch]]:
    """A fresh browser context and page; outside requests blocked, errors collected."""
    context = browser.new_context(viewport={"width": 1200, "height": 1000})
    context.set_default_timeout(180_000)  # generous: CI's two cores may be busy
    watch = PageWatch(context)
    page = watch.new_page()
    yield page, watch
    context.close()
