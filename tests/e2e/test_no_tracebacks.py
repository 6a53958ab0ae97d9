"""No traceback and no server path reaches a browser, in the page or in any kernel message.

One Voila (started without ``PYTEST_CURRENT_TEST``, so its kernels forward their stderr to pages as a
deployment's do) serves notebooks/ with a SQLite table store and a preheated kernel for each page.
On every page kind (a play app, the gallery with its new-table form, a table's seat page, its watch
page, its teacher's page, and a table page whose address names no table) every widget model the page
has gets forged and malformed messages through ``window.slothVoila.manager``: wrong types for its
state, an unknown method, a state that is not a mapping, bad buffer paths, junk custom content, huge
values, a click on every button; and the kernel gets comms opened to targets it does not have, junk
widget comms and messages to comms it never opened. Every frame the kernel sends the page meanwhile
is read: none holds a traceback frame or a server path. The server's log holds the tracebacks.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harness import (
    BOARD_READY,
    OUTPUT,
    PLAY_APPS,
    REPO,
    KernelFrames,
    PageWatch,
    VoilaServer,
    render_path,
    started_server,
    stop_leaving_no_kernels,
    wait_for_first_board,
    wait_until,
)
from harness import (
    table_cli as cli,
)

PLAY = "race-to-the-bottom"
TABLE_POOL = 4  # the seat page, the watch page, the teacher's page and the page with a bad address

# What a traceback or a server path looks like in a frame (the frame's bytes, JSON-escaped or not).
FRAME_MARKS = [re.compile(rb"Traceback"), re.compile(rb'File \\?"'), re.compile(rb"line \d+, in ")]
SERVER_PATHS = sorted(
    {str(REPO), sys.prefix, str(Path(sys.prefix).resolve()), tempfile.gettempdir(), "/root/", "site-packages"},
    key=len,
    reverse=True,
)

FORGE_JS = r"""async (junk) => {
  const manager = window.slothVoila.manager;
  const big = 'x'.repeat(junk.huge);
  const values = [{ no: [1, null, { deep: true }] }, [null, null], big, -1e308, true, null, 'junk'];
  const keys = new Set(junk.keys);
  let sent = 0, clicks = 0, n = 0;
  const send = (model, data) => { model.comm.send(data); sent += 1; };
  for (const promise of Object.values(manager._models)) {
    const model = await promise;
    if (!model.comm) continue;
    n += 1;
    const names = Object.keys(model.attributes).filter((k) => !k.startsWith('_model_') && !k.startsWith('_view_'));
    // every key at once, of a wrong type (the kind changes from model to model)
    const all = {};
    for (const name of names) all[name] = values[n % values.length];
    send(model, { method: 'update', state: all, buffer_paths: [] });
    // the keys a widget acts on, one at a time, with every kind of wrong value
    for (const name of names.filter((k) => keys.has(k))) {
      for (const value of values) send(model, { method: 'update', state: { [name]: value }, buffer_paths: [] });
    }
    // one malformed message (the kind changes from model to model)
    send(model, junk.malformed[n % junk.malformed.length]);
    if (model.get('_model_name') === 'ButtonModel') {
      send(model, { method: 'custom', content: { event: 'click' } });
      clicks += 1;
    }
  }
  // comms the kernel has no target for, a widget comm with nothing usable in it, comms it never opened
  for (const [type, content] of junk.shell) {
    manager.kernel.send('shell', type, { comm_id: crypto.randomUUID(), ...content });
    sent += 1;
  }
  return { models: n, sent, clicks };
}"""

JUNK = {
    "huge": 200_000,
    # the synced keys the project's widgets (and ipywidgets' controls) act on when they change
    "keys": ["value", "index", "label", "_page_params", "_page_beat", "playing", "selected_index", "options"],
    "malformed": [
        {"method": "no-such-method", "state": 42},
        {"method": "update", "state": "not a mapping"},
        {"method": "update", "state": {"value": 1}, "buffer_paths": [["value", 0, "deep"]]},
        {"method": "update", "state": {"value": 1}, "buffer_paths": "junk"},
        {"method": "custom", "content": {"event": "no-such-event", "x": [1, 2]}},
        {"method": "custom", "content": "junk"},
        {"method": "request_state"},
        {"no": "method"},
        "not even a mapping",
        [1, 2, 3],
    ],
    "shell": [
        ["comm_open", {"target_name": "no.such.target", "data": {"x": 1}}],
        ["comm_open", {"target_name": "jupyter.widget", "data": {"state": "junk"}}],
        ["comm_open", {"target_name": "jupyter.widget", "data": {"state": {"_model_name": "NoSuchModel"}}}],
        ["comm_open", {"target_name": "jupyter.widget.control", "data": {"method": "no-such-method"}}],
        ["comm_msg", {"data": {"method": "update", "state": {}}}],
        ["comm_close", {"data": {}}],
        ["comm_info_request", {"target_name": 42}],
        ["kernel_info_request", {}],
    ],
}

ANSWERED_JS = "() => !!window.__skKernel && window.__skKernel.pending.size === 0"
STATUS = re.compile(rb'"msg_type":\s*"status"')
QUIET = 1.5  # seconds without a frame other than a status or a heartbeat's echo


def wait_quiet(page: Any, arrivals: list[tuple[float, bytes]], timeout: float) -> None:
    """The kernel has answered every message the page sent, and for QUIET seconds nothing but
    status messages and the page's heartbeat came (stream messages from the kernel's stderr
    arrive on their own, after the answers)."""

    def quiet() -> bool:
        if not page.evaluate(ANSWERED_JS):
            return False
        last = max((at for at, data in arrivals if not STATUS.search(data) and b"_page_beat" not in data), default=0.0)
        return time.monotonic() - last > QUIET

    wait_until(quiet, timeout, "the kernel to answer and go quiet", poll=0.25)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, chromium: None) -> Iterator[tuple[VoilaServer, dict[str, str]]]:
    """Voila with the repository's voila.json, preheating only the pages this test opens."""
    where = tmp_path_factory.mktemp("no-tracebacks")
    config = json.loads((REPO / "voila.json").read_text())
    config["VoilaKernelManager"]["kernel_pools_config"] = {
        "default": {"pool_size": 0},
        PLAY_APPS[PLAY]: {"pool_size": 1},
        "index.ipynb": {"pool_size": 1},
        "table.ipynb": {"pool_size": TABLE_POOL},
    }
    (where / "voila.json").write_text(json.dumps(config))
    env = {**os.environ, "SLOTH_TABLES": str(where / "tables.db")}
    voila = started_server(cwd=where, env=env, log_path=OUTPUT / "voila-no-tracebacks.log")
    wait_until(lambda: voila.log_text().count("Kernel pool of") >= 3, 300, "the preheated pools to fill")
    voila.wait_for_kernels(2 + TABLE_POOL, 120)
    yield voila, env
    stop_leaving_no_kernels(voila)


def leaks(frames: list[bytes]) -> list[str]:
    """Each frame holding a traceback mark or a server path, shown around the first one."""
    patterns = FRAME_MARKS + [re.compile(re.escape(path.encode())) for path in SERVER_PATHS]
    found = []
    for data in frames:
        hit = next((match for match in (p.search(data) for p in patterns) if match), None)
        if hit is not None:
            found.append(f"{hit.group()!r} in {data[max(0, hit.start() - 300) : hit.end() + 300]!r}")
    return found


def forge_on(voila: VoilaServer, browser: Any, url: str, ready: str, name: str) -> dict[str, Any]:
    """Open `url` in a fresh context, wait for `ready`, forge; what was sent and what leaked."""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    context.set_default_timeout(180_000)
    traffic = KernelFrames(context)
    watch = PageWatch(context)
    arrivals: list[tuple[float, bytes]] = []

    def stamp(socket: Any) -> None:
        socket.on(
            "framereceived", lambda p: arrivals.append((time.monotonic(), p.encode() if isinstance(p, str) else p))
        )

    try:
        page = watch.new_page()
        page.on("websocket", stamp)
        page.goto(url, wait_until="commit")
        wait_for_first_board(page, voila, f"no-tracebacks-{name}", watch, selector=ready)
        page.wait_for_function("() => window.slothVoila && window.slothVoila.manager && window.__skKernel")
        wait_quiet(page, arrivals, 180)
        log_before = len(voila.log_text())
        start = len(traffic.frames)
        sent = page.evaluate(FORGE_JS, JUNK)
        wait_quiet(page, arrivals, 240)
        received = [data for way, data in traffic.frames if way == "received"]
        text = page.locator("body").inner_text()
        return {
            **sent,
            "leaks": leaks(received),
            "leaks_in_text": leaks([text.encode()]),
            "frames": len(traffic.frames) - start,
            "log": voila.log_text()[log_before:],
        }
    finally:
        context.close()


def check(result: dict[str, Any], name: str) -> None:
    counts = {key: result[key] for key in ("models", "sent", "clicks", "frames")}
    (OUTPUT / f"no-tracebacks-{name}.txt").write_text(json.dumps(counts) + "\n" + "\n".join(result["leaks"]) + "\n")
    assert result["models"] > 0 and result["sent"] > result["models"], result
    assert result["leaks_in_text"] == [], result["leaks_in_text"][:3]
    assert result["leaks"] == [], f"{len(result['leaks'])} frames to the page leak; the first: {result['leaks'][:3]}"
    assert "Traceback" in result["log"], f"the server's log holds no traceback of the refused messages: {result}"


@pytest.fixture(scope="module")
def table(server: tuple[VoilaServer, dict[str, str]]) -> dict[str, Any]:
    voila, env = server
    return cli(
        "create", "--game", "too-sloth-to-win", "--seats", "human,human,bot", "--base-url", voila.base_url, env=env
    )


def test_play_app(server: tuple[VoilaServer, dict[str, str]], browser: Any) -> None:
    voila, _ = server
    result = forge_on(voila, browser, voila.app_url(PLAY_APPS[PLAY]), BOARD_READY, "play")
    assert result["clicks"] > 5, result
    check(result, "play")


def test_gallery_and_its_new_table_form(server: tuple[VoilaServer, dict[str, str]], browser: Any) -> None:
    voila, _ = server
    result = forge_on(voila, browser, voila.app_url("index.ipynb"), ".sk-new-table", "gallery")
    assert result["clicks"] >= 1, result
    check(result, "gallery")


def test_seat_page(server: tuple[VoilaServer, dict[str, str]], table: dict[str, Any], browser: Any) -> None:
    voila, _ = server
    check(forge_on(voila, browser, table["seats"][0]["url"], BOARD_READY, "seat"), "seat")


def test_watch_page(server: tuple[VoilaServer, dict[str, str]], table: dict[str, Any], browser: Any) -> None:
    voila, _ = server
    check(forge_on(voila, browser, table["watch"], ".sk-watch .sk-status", "watch"), "watch")


def test_teachers_page(server: tuple[VoilaServer, dict[str, str]], table: dict[str, Any], browser: Any) -> None:
    voila, _ = server
    check(forge_on(voila, browser, table["teacher"], ".sk-teacher", "teacher"), "teacher")


def test_table_page_with_a_bad_address(server: tuple[VoilaServer, dict[str, str]], browser: Any) -> None:
    """The table page's message box, on a page that could not open its table."""
    voila, _ = server
    url = voila.url(render_path("table.ipynb")) + "?table=no-such-table#seat=junk"
    check(forge_on(voila, browser, url, '.sk-table-message:has-text("cannot open")', "bad-address"), "bad-address")
