"""Voila + Debian chromium plumbing shared by the browser tests and the browser benchmark.

- :class:`VoilaServer` runs ``voila`` on a free loopback port (``--Voila.port_retries=0``),
  waits until it answers, counts its kernels, and stops it leaving none behind.
- :func:`launch_chromium` drives Debian's ``/usr/bin/chromium`` through Playwright
  (never ``playwright install``).
- :class:`PageWatch` blocks every request that leaves 127.0.0.1 and collects page
  errors and console errors, minus the one known exception named below.

Nothing here sleeps to synchronise: waits poll a condition against a deadline.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"
OUTPUT = REPO / "test-output"
CHROMIUM = "/usr/bin/chromium"
# Chromium as root, headless, with its own background traffic switched off (this machine has
# no network beyond the package registries; without these flags it keeps dialling out).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
    "--disable-default-apps",
    "--disable-extensions",
]
LOOPBACK_HOSTS = {"127.0.0.1"}

# The one allowed exception: Voila's stock "lab" template links Font Awesome's CSS from the
# jsDelivr CDN (voila/templates/lab/index.html.j2). We block it like every other outside
# request; the board renders without it (only button icons are missing), and chromium logs
# "Failed to load resource: net::ERR_FAILED" for each of the two stylesheets.
KNOWN_CDN_FONT_NOISE = ("https://cdn.jsdelivr.net/npm/@fortawesome/fontawesome-free@",)

GALLERY = "index.ipynb"
# The board's status line: on the page once the board is (the first thing every wait looks for).
BOARD_READY = ".sk-board .jupyter-widgets.sk-status"

PLAY_APPS = {
    "too-sloth-to-win": "play_too_sloth_to_win.ipynb",
    "race-to-the-bottom": "play_race_to_the_bottom.ipynb",
    "surplus-of-sloths": "play_surplus_of_sloths.ipynb",
    "sprint": "play_sprint.ipynb",
}

# The lessons: read in Voila with the light template, preheated like the play apps.
LESSONS = (
    "learn_too_sloth_to_win.ipynb",
    "learn_race_to_the_bottom.ipynb",
    "learn_surplus_of_sloths.ipynb",
    "learn_sprint.ipynb",
    "climbing_games_101.ipynb",
    "analysis_too_sloth_to_win.ipynb",
    "analysis_race_to_the_bottom.ipynb",
    "analysis_surplus_of_sloths.ipynb",
    "analysis_sprint.ipynb",
    "variant_lab.ipynb",
)


def preheated_kernels() -> int:
    """How many kernels the repository's voila.json keeps preheated (pools of notebooks that
    exist in this checkout): what a fresh server settles at, and what culling comes back to."""
    import json

    pools = json.loads((REPO / "voila.json").read_text())["VoilaKernelManager"]["kernel_pools_config"]
    return sum(
        pool.get("pool_size", 0) for name, pool in pools.items() if name != "default" and (NOTEBOOKS / name).exists()
    )


def wait_until(condition: Callable[[], Any], timeout: float, what: str, poll: float = 0.1) -> Any:
    """Poll `condition` until it returns something truthy; raise after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(poll)  # polling interval of a bounded wait, not a synchronisation sleep


def table_cli(*args: str, env: dict[str, str]) -> dict[str, Any]:
    """``python -m sloth_kernel table ARGS --json`` in a process of its own, as a teacher runs it; its JSON."""
    done = subprocess.run(
        [sys.executable, "-m", "sloth_kernel", "table", *args, "--json"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def render_path(notebook: str) -> str:
    """The URL path Voila (serving a directory) renders a notebook at."""
    return f"/voila/render/{notebook}"


@dataclass
class VoilaServer:
    """One ``voila`` process serving `root` on 127.0.0.1.

    It runs with `cwd` as its working directory, so ``voila.json`` there is read (the
    repository root's by default); `args` are extra ``--Class.trait=value`` options, which
    win over the file.
    """

    root: Path = NOTEBOOKS
    cwd: Path = REPO
    args: Sequence[str] = ()
    python: str = sys.executable
    env: dict[str, str] | None = None
    log_path: Path | None = None
    startup_timeout: float = 180.0
    ready_path = "/"  # answers 200 once the server is up (a class attribute, not a field)
    port: int = 0
    process: subprocess.Popen[bytes] | None = field(default=None, repr=False)
    _log: Any = field(default=None, repr=False)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url(self, path: str = "/") -> str:
        return self.base_url + path

    def app_url(self, notebook: str) -> str:
        return self.url(render_path(notebook))

    def command(self) -> list[str]:
        return [
            self.python,
            "-m",
            "voila",
            str(self.root),
            "--no-browser",
            "--Voila.ip=127.0.0.1",
            f"--Voila.port={self.port}",
            "--Voila.port_retries=0",
            *self.args,
        ]

    def start(self, attempts: int = 3) -> VoilaServer:
        """Start on a free port (a lost race for the port is retried) and wait until it answers."""
        for attempt in range(attempts):
            self.port = free_port()
            self._spawn()
            try:
                self._wait_ready()
                return self
            except _PortTaken:
                self._reap()
                if attempt == attempts - 1:
                    raise
        return self

    def _spawn(self) -> None:
        if self.log_path is None:
            OUTPUT.mkdir(exist_ok=True)
            self.log_path = OUTPUT / f"voila-{os.getpid()}-{self.port}.log"
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log = open(self.log_path, "ab")  # noqa: SIM115 (open while the server runs; closed in _reap)
        env = dict(os.environ if self.env is None else self.env)
        env.setdefault("PYTHONUNBUFFERED", "1")
        # pytest's variable turns off ipykernel's capture of the kernels' descriptor 2 (which
        # forwards it to pages): without it, the kernels send what a deployment's kernels send.
        env.pop("PYTEST_CURRENT_TEST", None)
        self.process = subprocess.Popen(
            self.command(),
            cwd=self.cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + self.startup_timeout
        while True:
            code = self.process.poll()
            if code is not None:
                text = self.log_text()
                if "could not be started" in text or "already in use" in text:
                    raise _PortTaken(text)
                raise RuntimeError(f"voila exited with {code} before answering:\n{text[-3000:]}")
            try:
                with urllib.request.urlopen(self.url(self.ready_path), timeout=5) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise TimeoutError(
                    f"voila did not answer within {self.startup_timeout:.0f} s:\n{self.log_text()[-3000:]}"
                )
            time.sleep(0.2)  # polling interval of a bounded wait

    def log_text(self) -> str:
        if self.log_path is None or not self.log_path.exists():
            return ""
        return self.log_path.read_text(errors="replace")

    # -- kernels ------------------------------------------------------------------------

    def kernel_processes(self) -> list[Any]:
        """Live ipykernel processes started by this server."""
        import psutil

        if self.process is None:
            return []
        try:
            children = psutil.Process(self.process.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return []
        kernels = []
        for child in children:
            try:
                if "ipykernel_launcher" in " ".join(child.cmdline()) and child.status() != psutil.STATUS_ZOMBIE:
                    kernels.append(child)
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                continue
        return kernels

    def kernel_count(self) -> int:
        return len(self.kernel_processes())

    def wait_for_kernels(self, count: int, timeout: float) -> int:
        """Wait until at least `count` kernels run (preheated pools fill in the background)."""
        return wait_until(
            lambda: self.kernel_count() >= count and self.kernel_count(), timeout, f"{count} kernels to run"
        )

    # -- stopping -----------------------------------------------------------------------

    def stop(self, timeout: float = 60.0) -> list[int]:
        """SIGTERM (Voila then shuts every kernel down); returns pids of kernels it left behind,
        which are then killed so nothing outlives the test."""
        import psutil

        if self.process is None:
            return []
        kernels = self.kernel_processes()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        _, alive = psutil.wait_procs(kernels, timeout=15)
        leftover = [p.pid for p in alive]
        for proc in alive:
            with contextlib.suppress(psutil.NoSuchProcess):
                proc.kill()
        self._reap()
        return leftover

    def _reap(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        if self._log is not None:
            self._log.close()
            self._log = None

    def __enter__(self) -> VoilaServer:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()


class _PortTaken(RuntimeError):
    pass


def started_server(**kwargs: Any) -> VoilaServer:
    OUTPUT.mkdir(exist_ok=True)
    return VoilaServer(**kwargs).start()


def stop_leaving_no_kernels(server: VoilaServer) -> None:
    """Stop the server; fail if any of its kernels outlived it (they are killed either way)."""
    leftover = server.stop()
    assert leftover == [], f"voila left kernels behind: {leftover}"
    assert server.kernel_count() == 0


# --- the browser ----------------------------------------------------------------------------


def chromium_available() -> bool:
    return os.access(CHROMIUM, os.X_OK)


def launch_chromium(playwright: Any, **kwargs: Any) -> Any:
    """Debian's chromium through Playwright; never a downloaded browser."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True, **kwargs)


def is_loopback(url: str) -> bool:
    parts = urlsplit(url)
    if parts.scheme in ("data", "blob", "about"):
        return True
    return parts.hostname in LOOPBACK_HOSTS


def is_known_noise(url: str) -> bool:
    return any(url.startswith(prefix) for prefix in KNOWN_CDN_FONT_NOISE)


# Installed in every watched page before its scripts run: wraps WebSocket to follow the Jupyter
# kernel protocol. `window.__skKernel.pending` holds the ids of requests the page sent on the
# shell channel until the kernel reports "idle" for them, so a test can wait until the kernel
# has answered every click and sent every widget update. Each frame is read in the page, as it
# passes, by `window.__skReadKernelFrame(protocol, data)`: jupyter_server's v1 binary format, or
# the older one (JSON text; binary with buffers only). It reads only what the tracker needs: the
# channel, the message's id and type, its parent's id and a status message's execution state.
# (Reading in the page costs the page almost nothing; handing every frame to the test process
# instead took CPU from the browser, Voila and the kernel just when a move's updates arrive.)
# tests/e2e/test_kernel_tracker.py checks it against jupyter_server's own codecs.
KERNEL_TRACKER_JS = r"""
(() => {
  if (window.__skKernel) return;
  // sentIds: shell requests in the order sent; answeredAt: request id -> when its "idle" was read
  const state = { pending: new Set(), sent: 0, idle: 0, lastReceived: 0, sentIds: [], answeredAt: new Map() };
  window.__skKernel = state;
  const answered = new Set();  // requests whose "idle" was read before the request itself
  const utf8 = new TextDecoder();
  function bytesOf(data) {
    if (data instanceof ArrayBuffer) return new Uint8Array(data);
    if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    return null;  // a Blob: no kernel message
  }
  function readFrame(protocol, data) {
    let channel, header, parent, content = null;
    if (typeof data === 'string') {
      const msg = JSON.parse(data);
      [channel, header, parent, content] = [msg.channel, msg.header, msg.parent_header, msg.content];
    } else {
      const bytes = bytesOf(data);
      if (!bytes) return null;
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const text = (start, stop) => utf8.decode(bytes.subarray(start, stop));
      if (protocol === 'v1.kernel.websocket.jupyter.org') {
        // a count n, then n offsets (64-bit little-endian): channel, header, parent, metadata, content, ...
        const n = Number(view.getBigUint64(0, true));
        const at = (i) => Number(view.getBigUint64(8 * (i + 1), true));
        channel = text(at(0), at(1));
        header = JSON.parse(text(at(1), at(2)) || '{}');
        parent = JSON.parse(text(at(2), at(3)) || '{}');
        if (header.msg_type === 'status' && n > 5) content = JSON.parse(text(at(4), at(5)) || '{}');
      } else {
        // a count n, then n offsets (32-bit big-endian); the first part is the message as JSON
        const n = view.getUint32(0, false);
        const msg = JSON.parse(text(view.getUint32(4, false), n > 1 ? view.getUint32(8, false) : bytes.length));
        [channel, header, parent, content] = [msg.channel, msg.header, msg.parent_header, msg.content];
      }
    }
    if (!header || typeof header !== 'object' || !('msg_id' in header)) return null;  // not a kernel message
    const facts = { channel: channel, msg_id: header.msg_id, msg_type: header.msg_type,
                    parent_msg_id: (parent && parent.msg_id) || null };
    if (facts.msg_type === 'status') facts.execution_state = (content || {}).execution_state;
    return facts;
  }
  window.__skReadKernelFrame = readFrame;
  function read(socket, data) {
    try { return readFrame(socket.protocol, data); } catch (error) { return null; }  // not a kernel message
  }
  const Native = window.WebSocket;
  class TrackedWebSocket extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => {
        state.lastReceived = performance.now();
        const msg = read(this, event.data);
        if (msg && msg.channel === 'iopub' && msg.msg_type === 'status' && msg.execution_state === 'idle'
            && msg.parent_msg_id) {
          state.answeredAt.set(msg.parent_msg_id, performance.now());
          if (state.pending.delete(msg.parent_msg_id)) state.idle += 1; else answered.add(msg.parent_msg_id);
        }
      });
    }
    send(data) {
      const msg = read(this, data);
      if (msg && msg.channel === 'shell') {
        state.sent += 1;
        state.sentIds.push(msg.msg_id);
        if (answered.delete(msg.msg_id)) state.idle += 1; else state.pending.add(msg.msg_id);
      }
      return super.send(data);
    }
  }
  window.WebSocket = TrackedWebSocket;
})();
"""


@dataclass
class PageWatch:
    """Watches every page of one browser context (the app page and any tab a link opens):
    requests leaving 127.0.0.1 are blocked, errors are collected, kernel traffic is tracked."""

    context: Any
    block_shutdown_beacon: bool = False
    also_expected: tuple[str, ...] = ()  # further named outside URLs (prefixes) a setup expects
    blocked: list[str] = field(default_factory=list)
    console_errors: list[tuple[str, str]] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)
    pages: list[Any] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.context.add_init_script(KERNEL_TRACKER_JS)
        self.context.route("**/*", self._route)
        self.context.on("page", self._attach)
        for page in self.context.pages:
            self._attach(page)

    def _attach(self, page: Any) -> None:
        self.pages.append(page)
        page.on("console", self._console)
        page.on("pageerror", lambda err: self.page_errors.append(str(err)))
        page.on("requestfailed", self._request_failed)

    def new_page(self) -> Any:
        return self.context.new_page()

    def _route(self, route: Any) -> None:
        url = route.request.url
        if not is_loopback(url):
            self.blocked.append(url)
            route.abort()
        elif self.block_shutdown_beacon and "/voila/api/shutdown/" in url:
            # Stands in for the unreliable page-close beacon: culling has to clean up.
            route.abort()
        else:
            route.continue_()

    def _console(self, message: Any) -> None:
        if message.type == "error":
            location = message.location or {}
            self.console_errors.append((message.text, location.get("url", "")))

    def _request_failed(self, request: Any) -> None:
        url = request.url
        if not is_loopback(url) or (self.block_shutdown_beacon and "/voila/api/shutdown/" in url):
            return  # outside requests are reported as `blocked`
        self.failed_requests.append(f"{request.method} {url}: {request.failure}")

    def problems(self) -> list[str]:
        """Everything unexpected: outside requests other than the named CDN noise, page errors,
        console errors other than that noise, and failed loopback requests."""

        def expected(url: str) -> bool:
            return is_known_noise(url) or any(url.startswith(prefix) for prefix in self.also_expected)

        found = [f"request left 127.0.0.1: {url}" for url in self.blocked if not expected(url)]
        found += [f"page error: {text}" for text in self.page_errors]
        for text, url in self.console_errors:
            if expected(url) and "ERR_FAILED" in text:
                continue
            found.append(f"console error: {text} ({url})")
        found += [f"request failed: {line}" for line in self.failed_requests]
        return found


@dataclass
class KernelFrames:
    """Every WebSocket frame of every page of one browser context, in order, as bytes: what the
    kernel sent to the browser (``received``) and what the page sent (``sent``). Attach it
    before the pages open. A test reads the raw frames, so nothing the kernel sends escapes it
    (widget states, updates, outputs)."""

    context: Any
    frames: list[tuple[str, bytes]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.context.on("page", self._attach)
        for page in self.context.pages:
            self._attach(page)

    def _attach(self, page: Any) -> None:
        page.on("websocket", self._socket)

    def _socket(self, socket: Any) -> None:
        socket.on("framereceived", lambda payload: self._add("received", payload))
        socket.on("framesent", lambda payload: self._add("sent", payload))

    def _add(self, direction: str, payload: str | bytes) -> None:
        self.frames.append((direction, payload.encode() if isinstance(payload, str) else bytes(payload)))

    def received(self) -> list[bytes]:
        return [data for direction, data in self.frames if direction == "received"]

    def first(self, needle: str, direction: str | None = None) -> int | None:
        """Index (in `frames`) of the first frame holding `needle`, or None."""
        wanted = needle.encode()
        for index, (way, data) in enumerate(self.frames):
            if (direction is None or way == direction) and wanted in data:
                return index
        return None


def screenshot_path(name: str) -> Path:
    OUTPUT.mkdir(exist_ok=True)
    return OUTPUT / f"{re.sub(r'[^A-Za-z0-9_.-]+', '-', name)}.png"


@contextlib.contextmanager
def playwright_session() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        yield playwright


# --- the first board, with a report when it does not come ---------------------------------------

# What the page knows about its own start (the light template's window.slothPage, the kernel
# tracker's counts), read when the first board did not come.
PAGE_STATE_JS = """() => ({
  url: location.href,
  title: document.title,
  readyState: document.readyState,
  httpStatus: (performance.getEntriesByType('navigation')[0] || {}).responseStatus,
  cellsShown: document.querySelectorAll('.jp-Cell').length,
  slothPage: window.slothPage ? { started: !!window.slothPage.started, up: !!window.slothPage.up,
                                  fallingBack: !!window.slothPage.fallingBack } : null,
  frontEnd: window.slothVoila ? 'light' : (document.querySelector('script[src*="voila/static"]') ? 'stock' : 'none'),
  kernel: window.__skKernel ? { sent: window.__skKernel.sent, idle: window.__skKernel.idle,
                                pending: window.__skKernel.pending.size } : null,
  boards: document.querySelectorAll('.sk-board').length,
  marks: performance.getEntriesByType('mark').map((m) => `${m.name} ${Math.round(m.startTime)} ms`),
})"""


def first_board_report(
    page: Any, server: VoilaServer | None, name: str, watch: PageWatch | None = None, log_lines: int = 80
) -> str:
    """Everything that tells why a page shows no board: a screenshot and a text file in
    test-output/ (named after `name`), and the same text returned for an assertion message."""
    lines = [f"first board not shown: {name}"]

    def attempt(label: str, read: Callable[[], Any]) -> None:
        try:
            lines.append(f"{label}: {read()}")
        except Exception as error:  # noqa: BLE001 - a report of a broken page must not fail itself
            lines.append(f"{label}: unreadable ({type(error).__name__}: {error})")

    shot = screenshot_path(f"first-board-timeout-{name}")
    attempt("screenshot", lambda: page.screenshot(path=shot, full_page=True, timeout=15_000) and shot)
    attempt("page state", lambda: json.dumps(page.evaluate(PAGE_STATE_JS), indent=1))
    attempt("visible text", lambda: page.locator("body").inner_text(timeout=5_000)[-3000:])
    if watch is not None:
        lines.append("console and page errors, failed requests:")
        lines += [f"  {line}" for line in watch.problems()] or ["  none"]
    if server is not None:
        attempt("server process", lambda: "running" if server.process and server.process.poll() is None else "exited")
        attempt("kernels of that server", server.kernel_count)
        tail = server.log_text().splitlines()[-log_lines:]
        lines.append(f"server log ({server.log_path}), last {len(tail)} lines:")
        lines += [f"  {line}" for line in tail]
    text = "\n".join(lines)
    (OUTPUT / f"first-board-timeout-{re.sub(r'[^A-Za-z0-9_.-]+', '-', name)}.txt").write_text(text)
    return text


def wait_for_first_board(
    page: Any,
    server: VoilaServer | None,
    name: str,
    watch: PageWatch | None = None,
    timeout_ms: float = 180_000,
    selector: str = BOARD_READY,
) -> None:
    """Wait until the board's status line is on the page; on timeout fail with a report
    (first_board_report): screenshot, visible text, errors, the server's log tail and kernel count."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.locator(selector).first.wait_for(timeout=timeout_ms)
    except PlaywrightTimeout as error:
        raise AssertionError(first_board_report(page, server, name, watch)) from error
