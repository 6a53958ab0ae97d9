"""A public server stays up (README "Web apps"): what ``SlothKernelManager`` (voila.json) does.

One Voila serves notebooks/ with the repository's voila.json, but with two preheated kernels for
Too Sloth To Win only, a cap of CAP page kernels and a short "never connected" timeout (the
same settings, smaller, so the test is quick):

- anonymous GETs (no WebSocket, as ``curl`` makes them) cost at most CAP kernels: the rest get a
  page with a sentence (503), the kernel count and the kernels' memory stay bounded, and the
  kernels whose page never connected are shut down about UNCONNECTED seconds later;
- a preheated kernel stopped (SIGSTOP) and one killed (SIGKILL) before a visit: the visitor still
  gets a live board, and the two are shut down;
- a kernel that stops just after the page is sent (the page's WebSocket gets no answer): the page
  starts over once by itself with a fresh kernel, and the second time says so with a reload
  button; a page whose stream breaks off (Voila gave up on the kernel after sending the page's
  start) says so with a reload button: never "Setting up the page…" forever;
- a visit while every core is busy (CPU-bound processes beside it) gets its board;
- a shared table's link with the seat's token in the query (``?seat=``) opens nothing and says to
  open the link as it was given.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import psutil
import pytest
from harness import (
    BOARD_READY,
    OUTPUT,
    PLAY_APPS,
    REPO,
    PageWatch,
    VoilaServer,
    started_server,
    stop_leaving_no_kernels,
    wait_for_first_board,
    wait_until,
)

POOLED = PLAY_APPS["too-sloth-to-win"]  # two preheated kernels
COLD = PLAY_APPS["race-to-the-bottom"]  # no pool: each request starts a kernel
POOL = 2
CAP = 4
UNCONNECTED = 15  # seconds (voila.json: 60)
ANSWER = 4  # seconds a pool kernel has to answer (voila.json: 10)
REQUESTS = 10
RECONCILED = "() => performance.getEntriesByName('sloth:reconciled').length > 0"


@pytest.fixture(scope="module")
def limits_voila(tmp_path_factory: pytest.TempPathFactory, chromium: None) -> Iterator[tuple[VoilaServer, dict]]:
    where = tmp_path_factory.mktemp("limits")
    config = json.loads((REPO / "voila.json").read_text())
    config["VoilaKernelManager"]["kernel_pools_config"] = {"default": {"pool_size": 0}, POOLED: {"pool_size": POOL}}
    config["SlothKernelManager"].update(
        max_page_kernels=CAP, unconnected_timeout=UNCONNECTED, pool_answer_timeout=ANSWER
    )
    (where / "voila.json").write_text(json.dumps(config))
    env = {**os.environ, "SLOTH_TABLES": str(where / "tables.db")}
    server = started_server(cwd=where, env=env, log_path=OUTPUT / "voila-limits.log")
    wait_until(lambda: server.log_text().count("Kernel pool of") >= 1, 240, "the preheated pool to fill")
    server.wait_for_kernels(POOL, 120)
    yield server, env
    stop_leaving_no_kernels(server)


def kernel_id_of(process: Any) -> str | None:
    """The kernel id in a kernel process's connection file name (``kernel-<id>.json``)."""
    with contextlib.suppress(psutil.Error):
        found = re.search(r"kernel-([0-9a-f-]{36})\.json", " ".join(process.cmdline()))
        return found.group(1) if found else None
    return None


def pids_by_kernel(server: VoilaServer) -> dict[str, int]:
    return {kid: p.pid for p in server.kernel_processes() if (kid := kernel_id_of(p))}


def running(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def settle(server: VoilaServer, count: int, timeout: float = 240) -> None:
    """Wait until exactly `count` kernels run (page kernels gone, the pool refilled) and each has
    run its notebook (SlothKernelManager logs it), so a visitor gets the whole page at once."""

    def ready() -> bool:
        kernels = pids_by_kernel(server)
        log = server.log_text()
        return len(kernels) == count and all(f"Preheated kernel {kid} has run" in log for kid in kernels)

    wait_until(ready, timeout, f"{count} preheated kernels that have run their notebook")


def shut_down(server: VoilaServer, kernel_ids: list[str]) -> None:
    """Shut the pages' kernels down through Voila's kernel API (a page that connected would keep its
    kernel for the idle culler's 15 minutes, and within the cap). Tornado's XSRF check only compares
    the cookie with the header."""
    for kernel_id in kernel_ids:
        request = urllib.request.Request(
            server.url(f"/api/kernels/{kernel_id}"),
            method="DELETE",
            headers={"Cookie": "_xsrf=sloth", "X-XSRFToken": "sloth"},
        )
        with contextlib.suppress(urllib.error.HTTPError):  # 404: gone already
            urllib.request.urlopen(request, timeout=120).close()


KERNEL_ID_JS = """() => { const c = document.getElementById('jupyter-config-data');
  return c ? JSON.parse(c.textContent).kernelId : null; }"""


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=300) as response:
            return response.status, response.read().decode(errors="replace")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace")


def test_anonymous_gets_cost_at_most_the_cap_and_only_for_about_a_minute(
    limits_voila: tuple[VoilaServer, dict],
) -> None:
    server, _ = limits_voila
    settle(server, POOL)
    most = {"kernels": 0, "rss": 0}
    done = threading.Event()

    def watch() -> None:  # the kernel count and memory while the requests run
        while not done.is_set():
            kernels = server.kernel_processes()
            rss = 0
            for proc in kernels:
                with contextlib.suppress(psutil.Error):
                    rss += proc.memory_info().rss
            most["kernels"] = max(most["kernels"], len(kernels))
            most["rss"] = max(most["rss"], rss)
            done.wait(0.2)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    answers: list[tuple[int, str]] = []
    urls = [server.app_url(POOLED if i % 3 == 0 else COLD) for i in range(REQUESTS)]
    threads = [threading.Thread(target=lambda u=u: answers.append(get(u))) for u in urls]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=400)
    finally:
        done.set()
        watcher.join(timeout=10)
    codes = sorted(code for code, _ in answers)
    print(  # for the record (pytest -s): what the requests cost
        f"{REQUESTS} GETs: {codes.count(200)} pages, {codes.count(503)} refused; at most {most['kernels']} kernels"
        f" ({POOL} preheated), {most['rss'] / 2**20:.0f} MiB"
    )
    assert len(answers) == REQUESTS and set(codes) <= {200, 503}, codes
    assert codes.count(200) <= CAP and codes.count(503) >= REQUESTS - CAP, codes
    for code, body in answers:
        if code == 503:
            assert "This server is full" in body and "Traceback" not in body
            assert "Try again in a few minutes" in body
    # the pool refills as its kernels are taken: at most POOL waiting plus CAP given to pages
    assert most["kernels"] <= POOL + CAP, most
    assert most["rss"] <= (POOL + CAP) * 300 * 2**20, most  # about 60 MiB each in the README
    # nobody opened a WebSocket: every page kernel goes about UNCONNECTED seconds after its page
    settle(server, POOL, timeout=UNCONNECTED + 120)
    assert server.log_text().count("its page never connected") >= codes.count(200)


def open_watched(browser: Any, init: str = "") -> tuple[Any, PageWatch]:
    context = browser.new_context(viewport={"width": 1200, "height": 1000})
    context.set_default_timeout(180_000)
    if init:
        context.add_init_script(init)
    watch = PageWatch(context)
    return watch.new_page(), watch


def test_a_stopped_and_a_killed_pool_kernel_never_reach_a_visitor(
    limits_voila: tuple[VoilaServer, dict], browser: Any
) -> None:
    server, _ = limits_voila
    settle(server, POOL)
    stopped, killed = [p.pid for p in server.kernel_processes()]
    os.kill(stopped, signal.SIGSTOP)
    os.kill(killed, signal.SIGKILL)
    page, watch = open_watched(browser)
    used: list[str] = []
    try:
        page.goto(server.app_url(POOLED), wait_until="commit")
        wait_for_first_board(page, server, "limits-stopped-killed", watch)
        used.append(page.evaluate(KERNEL_ID_JS))
        page.wait_for_function(RECONCILED)  # the kernel answered: a live game, not a picture of one
        assert page.locator(".sk-page-banner").count() == 0
        wait_until(lambda: not running(stopped) and not running(killed), 120, "the two dead kernels to be gone")
        assert "is dead, stopped or restarted" in server.log_text()
        assert watch.problems() == []
    finally:
        page.context.close()
        with contextlib.suppress(ProcessLookupError):
            os.kill(stopped, signal.SIGKILL)
        shut_down(server, used)


def stop_the_kernel_as_the_page_arrives(server: VoilaServer, stopped: list[int], used: list[str]) -> Any:
    """A route for the page's first script (sloth-voila-early.js, which opens the kernel's
    WebSocket): SIGSTOP the kernel Voila just gave the page (it answered Voila's check a moment
    ago; the newest "Using pre-heated kernel" in the log), then let the script load."""

    def handle(route: Any) -> None:
        taken = re.findall(r"Using pre-heated kernel: ([0-9a-f-]{36})", server.log_text())
        if taken and taken[-1] not in used:
            used.append(taken[-1])
            pid = pids_by_kernel(server).get(taken[-1])
            if pid is not None:
                os.kill(pid, signal.SIGSTOP)
                stopped.append(pid)
        route.continue_()

    return handle


EARLY_JS = "**/sloth-voila-early.js*"


def reconciled(page: Any) -> bool:
    """Whether the page's kernel has answered; False while the page reloads."""
    try:
        return bool(page.evaluate(RECONCILED))
    except Exception:  # noqa: BLE001 - the page is between two documents
        return False


def test_a_kernel_that_stops_as_the_page_arrives_gets_one_fresh_start_then_a_sentence(
    limits_voila: tuple[VoilaServer, dict], browser: Any
) -> None:
    server, _ = limits_voila
    settle(server, POOL)
    stopped: list[int] = []
    used: list[str] = []
    page, watch = open_watched(browser, "window.slothAnswerTimeoutMs = 8000;")
    try:
        url = server.app_url(POOLED)
        handle = stop_the_kernel_as_the_page_arrives(server, stopped, used)
        page.route(EARLY_JS, lambda route: handle(route) if len(stopped) < 1 else route.continue_())
        page.goto(url, wait_until="commit")
        # the first kernel never answers: the page reloads itself and the second one does
        wait_until(
            lambda: reconciled(page) and len(stopped) == 1,  # a Playwright call each time: routes run meanwhile
            180,
            "the page to start over with a live kernel",
        )
        page.locator(BOARD_READY).wait_for()
        assert page.locator(".sk-page-banner").count() == 0
        used.append(page.evaluate(KERNEL_ID_JS))

        # every kernel it gets stops: after the one fresh start, a sentence and a reload button
        page.unroute(EARLY_JS)
        page.route(EARLY_JS, stop_the_kernel_as_the_page_arrives(server, stopped, used))
        page.evaluate("() => sessionStorage.clear()")
        page.goto(url, wait_until="commit")
        banner = page.locator(".sk-page-banner", has_text="did not answer within 8 seconds")
        banner.wait_for(timeout=180_000)
        assert len(stopped) == 3  # the first visit's, then this visit's and its one fresh start
        assert banner.locator("button", has_text="Reload the page").count() == 1
        assert "Setting up the page" not in page.locator("body").inner_text()
    finally:
        page.context.close()
        shut_down(server, used)  # the stopped ones too (killed after a few seconds)
    del watch


def test_a_page_whose_stream_breaks_off_says_so_and_offers_a_reload(
    limits_voila: tuple[VoilaServer, dict], browser: Any
) -> None:
    """What a visitor saw when Voila gave up on a kernel after the page's start was sent (HTTP 200
    already): the page as Voila sent it, cut after its first cell."""
    server, _ = limits_voila
    settle(server, POOL)
    url = server.app_url(POOLED)
    used: list[str] = []

    def broken(route: Any) -> None:
        status, body = get(url)
        found = re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', body)
        if found:
            used.append(found.group(1))
        cut = body.find("voila_process(2,")
        route.fulfill(status=status, content_type="text/html", body=body[: cut if cut > 0 else len(body) // 2])

    page, watch = open_watched(browser)
    try:
        page.route(url, broken)
        page.goto(url, wait_until="commit")
        stuck = page.locator(".sk-page-stuck", has_text="stopped setting up this page")
        stuck.wait_for(timeout=60_000)
        assert "Setting up the page" not in page.locator("body").inner_text()
        page.unroute(url)
        stuck.locator("button", has_text="Reload the page").click()
        wait_for_first_board(page, server, "limits-reloaded-after-a-broken-stream", watch)
        used.append(page.evaluate(KERNEL_ID_JS))
        page.wait_for_function(RECONCILED)
    finally:
        page.context.close()
        shut_down(server, used)


@contextlib.contextmanager
def busy_machine() -> Iterator[None]:
    """One CPU-bound process per core, running beside the test."""
    burners = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
        for _ in range(os.cpu_count() or 2)
    ]
    try:
        yield
    finally:
        for burner in burners:
            burner.kill()
            burner.wait(timeout=30)


def test_a_visit_on_a_busy_machine_gets_its_board(limits_voila: tuple[VoilaServer, dict], browser: Any) -> None:
    server, _ = limits_voila
    settle(server, POOL)
    page, watch = open_watched(browser)
    used: list[str] = []
    try:
        with busy_machine():
            for app in (POOLED, COLD):
                page.goto(server.app_url(app), wait_until="commit")
                wait_for_first_board(page, server, f"limits-busy-{app}", watch)
                used.append(page.evaluate(KERNEL_ID_JS))
                page.wait_for_function(RECONCILED)
                assert page.locator(".sk-page-banner").count() == 0
        assert watch.problems() == []
    finally:
        page.context.close()
        shut_down(server, used)


def test_a_table_link_with_the_token_in_the_query_opens_nothing(
    limits_voila: tuple[VoilaServer, dict], browser: Any
) -> None:
    server, env = limits_voila
    made = json.loads(
        subprocess.run(
            [
                sys.executable,
                "-m",
                "sloth_kernel",
                "table",
                "create",
                "--game",
                "too-sloth-to-win",
                "--seats",
                "human,human,bot",
                "--base-url",
                server.base_url,
                "--json",
            ],
            env=env,
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        ).stdout
    )
    good = made["seats"][0]["url"]
    assert "#seat=" in good
    forged = good.replace("#seat=", "&seat=")
    page, watch = open_watched(browser)
    used: list[str] = []
    try:
        page.goto(forged, wait_until="commit")
        said = page.locator(".sk-table-sentence", has_text="open the link exactly as it was given")
        said.wait_for(timeout=180_000)
        used.append(page.evaluate(KERNEL_ID_JS))
        assert page.locator(".sk-board").count() == 0
        shown = subprocess.run(
            [sys.executable, "-m", "sloth_kernel", "table", "show", made["table"], "--json"],
            env=env,
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        ).stdout
        assert json.loads(shown)["seated"] == []
        assert watch.problems() == []
    finally:
        page.context.close()
        shut_down(server, used)
