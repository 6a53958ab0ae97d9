"""Browser benchmark for the Voila apps (a command, not a test).

    .venv/bin/python tests/e2e/bench.py [--repeats 3] [--clicks 40] [--apps too-sloth-to-win ...]
    make bench-browser

For each play app, in Debian's chromium driven by Playwright, against Voila on 127.0.0.1:

- time to first board: from navigation start until the first frame painted after the board's
  status line entered the page (a MutationObserver in the page notes it, so Playwright's own
  polling delay is not counted),
  * cold: a Voila without preheating (a kernel starts and runs the notebook on request),
  * preheated: the repository's voila.json (a kernel already ran the notebook);
  each in a fresh browser context (nothing cached) and again with the browser cache warm;
  the play apps use the light `sloth` template; for comparison, the same run also times each
  app cold with Voila's stock `lab` template (`?template=lab`), and reports where the light
  page's time goes (page received, script running, kernel socket, widget models, views);
- click -> board updated: a real click on a hand card (select, then unselect) until the kernel
  has answered and the board's explanation has changed; p50 and p95 (on a deal chosen in the
  address, ``?seed=1``, where the human moves first; every visit without one is a fresh deal);
- main action -> board updated: the human seat's turns played by the browser tests' drivers
  (bots at ``--bot-speed``, the fastest by default), from the press of play, pass, pitch, keep
  or lift to the first frame painted after the board shows it (its log line); p50 and p95; also
  to the first frame after the test's kernel tracker read the kernel's answer. Choosing a card
  first (a hand card, a River card, the end card to take) is a click, timed above;
- kernel RSS: resident memory of the app's kernel after those clicks.

Figures are printed against the targets (<= 3 s cold, <= 1 s preheated, p95 <= 100 ms,
<= 150 MiB) and written to test-output/browser-bench.json. Nothing here is asserted: the
machine's load changes the numbers, so read them, don't gate on them.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import (
    BOARD_READY,
    NOTEBOOKS,
    OUTPUT,
    PLAY_APPS,
    PageWatch,
    VoilaServer,
    launch_chromium,  # noqa: E402
    playwright_session,
    wait_until,
)

TARGETS = {"cold_s": 3.0, "preheated_s": 1.0, "click_p95_ms": 100.0, "action_p95_ms": 100.0, "rss_mib": 150.0}
CLICK_SEED = 1  # the deal the clicks are timed on, chosen in the address (the human moves first)
# a card the human may toggle on the first turn of that deal, per app
CARD = {
    "too-sloth-to-win": ".sk-board .sk-handcard:enabled",
    "race-to-the-bottom": ".sk-board .sk-handcard:enabled",
    "surplus-of-sloths": ".sk-board .sk-hand-box:not(.sk-river) .sk-handcard:enabled",
}

HTML_DONE: list[float] = []  # page fully received, seconds after navigation start (per load)
PHASES: list[dict[str, float]] = []  # the light front end's performance marks (per load)

# Notes when the board enters the page, then when the next frame is painted.
BOARD_WATCH_JS = """
(() => {
  const selector = '__BOARD_READY__';
  const observer = new MutationObserver(() => {
    if (window.__skBoardAt || !document.querySelector(selector)) return;
    window.__skBoardAt = performance.now();
    observer.disconnect();
    requestAnimationFrame(() => { window.__skBoardPainted = performance.now(); });
  });
  observer.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
})();
""".replace("__BOARD_READY__", BOARD_READY)

CLICK_JS = """
() => { window.__skClickAt = null;
        document.addEventListener('pointerdown', () => { window.__skClickAt = performance.now(); },
                                  {capture: true, once: true}); }
"""
UPDATED_JS = """
([sentBefore, textBefore]) => {
  const k = window.__skKernel;
  const box = document.querySelector('.sk-board .jupyter-widgets.sk-explain');
  if (!k || window.__skClickAt === null || k.sent <= sentBefore || k.pending.size > 0) return false;
  if (!box || box.innerText === textBefore) return false;
  return performance.now() - window.__skClickAt;
}
"""


# The main actions (play, pass, pitch, keep, lift), two ways, from the press:
# - shown: to the first frame painted after the board's log shows the action's line (the log is
#   among the last parts of a render to reach the page): what the player sees;
# - answered: to the first frame after the test's kernel tracker (harness.KERNEL_TRACKER_JS,
#   which reads each frame in the page) has read the kernel's "idle" for the press's request.
ACTION_SELECTOR = ".sk-play, .sk-pass, .sk-pitch, .sk-keep, .sk-lift"
ACTION_WATCH_JS = """
(selector) => {
  window.__skActionTimes = [];
  const logText = () => { const log = document.querySelector('.sk-board .jupyter-widgets.sk-log');
                          return log ? log.textContent : ''; };
  document.addEventListener('pointerdown', (event) => {
    const button = event.target.closest && event.target.closest(selector);
    if (!button || button.disabled) return;
    const k = window.__skKernel, start = performance.now(), first = k.sentIds.length, before = logText();
    let shown = null, answered = null;
    // the press's own request (the first one sent after it); later ones (the bots' clock) are not its
    const poll = () => {
      const now = performance.now();
      if (shown === null && logText() !== before) shown = now - start;
      const id = k.sentIds[first];
      if (answered === null && id !== undefined && k.answeredAt.has(id) && !k.pending.has(id)) answered = now - start;
      if (shown !== null && answered !== null) {
        window.__skActionTimes.push([button.className.split(' ').filter((c) => c.startsWith('sk-')).join(' '),
                                     shown, answered]);
      } else if (now - start < 30000) requestAnimationFrame(poll);
    };
    requestAnimationFrame(poll);
  }, {capture: true});
}
"""


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))
    return ordered[index]


def time_to_board(context: Any, url: str) -> float:
    watch = PageWatch(context)
    page = watch.new_page()
    page.add_init_script(BOARD_WATCH_JS)
    page.goto(url, wait_until="commit")
    page.locator(BOARD_READY).wait_for()
    elapsed = page.wait_for_function("() => window.__skBoardPainted").json_value() / 1000.0  # since navigation start
    PHASES.append(
        page.evaluate(
            "() => Object.fromEntries(performance.getEntriesByType('mark')"
            ".filter(m => m.name.startsWith('sloth:')).map(m => [m.name.slice(6), m.startTime / 1000]))"
        )
    )
    # when the server finished sending the page (Voila streams it while the notebook runs)
    html = page.evaluate("() => performance.getEntriesByType('navigation')[0].responseEnd") / 1000.0
    problems = watch.problems()
    page.close()
    if problems:
        raise RuntimeError(f"{url}: {problems}")
    HTML_DONE.append(html)
    return elapsed


def first_board_times(
    server: VoilaServer,
    browser: Any,
    notebook: str,
    repeats: int,
    before_each: Any = None,
    query: str = "",
    warm_too: bool = True,
) -> tuple[list[float], list[float]]:
    """Fresh-context loads of the app (and, with `warm_too`, a second load in the same context,
    cache warm); `query` is added to the app's URL."""
    url = server.app_url(notebook) + query
    fresh, warm = [], []
    for _ in range(repeats):
        if before_each:
            before_each()
        context = browser.new_context()
        context.set_default_timeout(180_000)
        fresh.append(time_to_board(context, url))
        if warm_too:
            if before_each:
                before_each()
            warm.append(time_to_board(context, url))  # same context: cache warm
        context.close()
    return fresh, warm


def click_latencies(page: Any, game: str, clicks: int) -> list[float]:
    card = page.locator(CARD[game]).first
    times = []
    for _ in range(clicks):
        sent = page.evaluate("() => window.__skKernel.sent")
        text = page.locator(".sk-board .jupyter-widgets.sk-explain").inner_text()
        page.evaluate(CLICK_JS)
        card.click()
        times.append(page.wait_for_function(UPDATED_JS, arg=[sent, text], timeout=60_000).json_value())
    return times


def action_latencies(page: Any, game: str, actions: int, bot_speed: str = "instant") -> list[tuple[float, float]]:
    """Play the human seat's turns (bots at `bot_speed`, a label of the board's Bot speed menu) with
    the browser tests' drivers and time each main action (shown, answered; see ACTION_WATCH_JS): up
    to `actions` of them, over as many games as it takes. At "instant" the bots' moves (one every
    60 ms) keep the page busy while the action is answered: the worst case; "normal" is the default."""
    from drivers import DRIVERS

    page.evaluate(ACTION_WATCH_JS, ACTION_SELECTOR)
    driver = DRIVERS[game](page)
    driver.unselect_all()  # the click timings may have left a card selected
    driver.prepare()
    if bot_speed != "instant":
        driver.choose_speed(bot_speed)
    state = driver.wait_turn_or_over(None)
    games = 1
    while len(page.evaluate("() => window.__skActionTimes")) < actions:
        if state == "over":  # another game (a fresh deal), as a player would: Play again
            if games == 10:
                break
            games += 1
            before = driver.log_text()
            page.locator(".sk-board .sk-again").first.click()
            state = driver.wait_turn_or_over(before)
            continue
        before = driver.log_text()
        driver.take_turn()
        state = driver.wait_after_action(before)
    return [(shown, answered) for _, shown, answered in page.evaluate("() => window.__skActionTimes")][:actions]


def kernel_rss_mib(server: VoilaServer, page: Any) -> float:
    """Resident memory of the page's kernel (its id is in the page config Voila wrote)."""
    kernel_id = json.loads(page.locator("#jupyter-config-data").text_content())["kernelId"]
    for proc in server.kernel_processes():
        if kernel_id in " ".join(proc.cmdline()):
            return proc.memory_info().rss / 2**20
    raise RuntimeError(f"no kernel process found for {kernel_id!r}")


def wait_preheated(server: VoilaServer, notebook: str, quiet_for: float = 3.0) -> None:
    """Wait until the app's pool holds a kernel that has run the notebook, and nothing else is
    busy: Voila logged more fills than uses, then no kernel of the server used any CPU for
    `quiet_for` seconds.

    "filled" is logged as soon as the kernel has started, before Voila runs the notebook in it
    (a started kernel idles about half a second first), and how much CPU a finished run takes
    varies too much to be a threshold; a few quiet seconds across all kernels is unambiguous,
    and it also keeps a refill from competing with the next measured load."""
    import re

    def ready() -> bool:
        text = server.log_text()
        fills = text.count(f"Kernel pool of {notebook} is filled")
        uses = len(re.findall(rf"Using pre-heated kernel: \S+ for {re.escape(notebook)}", text))
        return fills > uses

    wait_until(ready, 180, f"a preheated kernel for {notebook}")
    state: dict[str, Any] = {"usage": None, "since": time.monotonic()}

    def quiet() -> bool:
        usage = {}
        for kernel in server.kernel_processes():
            with contextlib.suppress(Exception):  # it just ended
                usage[kernel.pid] = round(sum(kernel.cpu_times()[:2]), 2)
        if usage != state["usage"]:
            state.update(usage=usage, since=time.monotonic())
        return time.monotonic() - state["since"] >= quiet_for

    wait_until(quiet, 180, "the kernels to go quiet (the pool's notebook run finished)", poll=0.25)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--apps", nargs="*", default=[g for g in PLAY_APPS if (NOTEBOOKS / PLAY_APPS[g]).exists()])
    parser.add_argument("--repeats", type=int, default=3, help="page loads per app and mode (median reported)")
    parser.add_argument("--clicks", type=int, default=40, help="clicks per app for the latency figures")
    parser.add_argument("--actions", type=int, default=30, help="main actions (play, pass, lift) timed per app")
    parser.add_argument(
        "--bot-speed",
        default="instant",
        choices=["slow", "normal", "fast", "instant"],
        help="the bots' speed while main actions are timed (instant: the busiest page; normal: the default)",
    )
    args = parser.parse_args(argv)
    OUTPUT.mkdir(exist_ok=True)
    results: dict[str, dict[str, Any]] = {game: {} for game in args.apps}

    with playwright_session() as playwright:
        browser = launch_chromium(playwright)
        # -- cold: no preheating ---------------------------------------------------------
        cold = VoilaServer(
            args=["--VoilaConfiguration.preheat_kernel=False"], log_path=OUTPUT / "bench-voila-cold.log"
        ).start()
        try:
            for game in args.apps:
                HTML_DONE.clear()
                fresh, warm = first_board_times(cold, browser, PLAY_APPS[game], args.repeats)
                results[game]["cold_html_s"] = statistics.median(HTML_DONE[0::2])
                results[game]["cold_s"] = statistics.median(fresh)
                results[game]["cold_warm_cache_s"] = statistics.median(warm)
                print(f"{game}: cold {fresh}  (browser cache warm: {warm})", flush=True)
                stock, _ = first_board_times(
                    cold,
                    browser,
                    PLAY_APPS[game],
                    args.repeats,  # Voila's stock front end
                    query="?template=lab",
                    warm_too=False,
                )
                results[game]["cold_stock_lab_s"] = statistics.median(stock)
                print(f"{game}: cold with Voila's stock lab template {stock}", flush=True)
        finally:
            cold.stop()

        # -- preheated: the repository's voila.json --------------------------------------
        hot = VoilaServer(log_path=OUTPUT / "bench-voila-preheated.log").start()
        try:
            for game in args.apps:

                def refill(game: str = game) -> None:
                    wait_preheated(hot, PLAY_APPS[game])

                HTML_DONE.clear()
                PHASES.clear()
                fresh, warm = first_board_times(hot, browser, PLAY_APPS[game], args.repeats, before_each=refill)
                results[game]["preheated_html_s"] = statistics.median(HTML_DONE[0::2])
                results[game]["preheated_phases_s"] = {
                    name: statistics.median(p[name] for p in PHASES[0::2])
                    for name in ("script", "connected", "models", "rendered")
                    if all(name in p for p in PHASES[0::2])
                }
                results[game]["preheated_s"] = statistics.median(fresh)
                results[game]["preheated_warm_cache_s"] = statistics.median(warm)
                print(
                    f"{game}: preheated {fresh}  (browser cache warm: {warm}; page received after "
                    f"{HTML_DONE[0::2]}; phases {PHASES[0::2]})",
                    flush=True,
                )

                refill()
                context = browser.new_context(viewport={"width": 1200, "height": 1000})
                context.set_default_timeout(180_000)
                watch = PageWatch(context)
                page = watch.new_page()
                page.goto(hot.app_url(PLAY_APPS[game]) + f"?seed={CLICK_SEED}")
                page.locator(BOARD_READY, has_text=f"seed {CLICK_SEED} (chosen)").wait_for()
                page.wait_for_function(
                    "() => window.__skKernel && window.__skKernel.sent > 0 && window.__skKernel.pending.size === 0"
                )
                if game in CARD:
                    clicks = click_latencies(page, game, args.clicks)
                    results[game]["click_p50_ms"] = percentile(clicks, 0.50)
                    results[game]["click_p95_ms"] = percentile(clicks, 0.95)
                timed = action_latencies(page, game, args.actions, args.bot_speed)
                acts = [shown for shown, _ in timed]
                answered = [late for _, late in timed]
                results[game]["action_n"] = len(acts)
                results[game]["action_p50_ms"] = percentile(acts, 0.50)
                results[game]["action_p95_ms"] = percentile(acts, 0.95)
                results[game]["answered_p50_ms"] = percentile(answered, 0.50)
                results[game]["answered_p95_ms"] = percentile(answered, 0.95)
                print(
                    f"{game}: main actions to the board showing them (ms) {[round(a) for a in acts]}; "
                    f"to every message read by the tracker {[round(a) for a in answered]}",
                    flush=True,
                )
                results[game]["rss_mib"] = kernel_rss_mib(hot, page)
                if watch.problems():
                    raise RuntimeError(f"{game}: {watch.problems()}")
                context.close()
        finally:
            hot.stop()
        browser.close()

    report(results, args.bot_speed)
    (OUTPUT / "browser-bench.json").write_text(
        json.dumps(
            {
                "machine": {
                    "cpus": __import__("os").cpu_count(),
                    "python": platform.python_version(),
                    "load_average": list(__import__("os").getloadavg()),
                },
                "targets": TARGETS,
                "results": results,
            },
            indent=2,
        )
        + "\n"
    )
    return 0


def report(results: dict[str, dict[str, Any]], bot_speed: str = "instant") -> None:
    def cell(value: Any, target: float | None, fmt: str) -> str:
        if value is None:
            return "n/a"
        mark = "" if target is None else ("  ok" if value <= target else "  MISS")
        return format(value, fmt) + mark

    print()
    print(
        f"{'app':<20} {'cold s':>12} {'preheated s':>14} {'click p50 ms':>13} {'click p95 ms':>14} "
        f"{'action p50 ms':>14} {'action p95 ms':>14} {'RSS MiB':>12}"
    )
    for game, r in results.items():
        print(
            f"{game:<20} {cell(r.get('cold_s'), TARGETS['cold_s'], '.2f'):>12} "
            f"{cell(r.get('preheated_s'), TARGETS['preheated_s'], '.2f'):>14} "
            f"{cell(r.get('click_p50_ms'), None, '.0f'):>13} "
            f"{cell(r.get('click_p95_ms'), TARGETS['click_p95_ms'], '.0f'):>14} "
            f"{cell(r.get('action_p50_ms'), None, '.0f'):>14} "
            f"{cell(r.get('action_p95_ms'), TARGETS['action_p95_ms'], '.0f'):>14} "
            f"{cell(r.get('rss_mib'), TARGETS['rss_mib'], '.0f'):>12}"
        )
    print(f"{'targets':<20} {'<= 3':>12} {'<= 1':>14} {'':>13} {'<= 100':>14} {'':>14} {'<= 100':>14} {'<= 150':>12}")
    print(
        "(main actions timed per app: "
        + ", ".join(f"{g} {r.get('action_n', 0)}" for g, r in results.items())
        + "; from the press of play, pass, pitch, keep or lift to the first frame after the "
        f"board showed it (its log line); bots at {bot_speed} speed. To every message read by the test's "
        "kernel tracker, p50/p95: "
        + ", ".join(
            f"{g} {r.get('answered_p50_ms', 0):.0f}/{r.get('answered_p95_ms', 0):.0f} ms" for g, r in results.items()
        )
        + ")"
    )
    print(
        "(first-board times in a fresh browser context; with the browser cache warm: "
        + ", ".join(
            f"{g} {r.get('cold_warm_cache_s', 0):.2f}/{r.get('preheated_warm_cache_s', 0):.2f} s"
            for g, r in results.items()
        )
        + " cold/preheated)"
    )
    print(
        "(page received from Voila after, cold/preheated: "
        + ", ".join(
            f"{g} {r.get('cold_html_s', 0):.2f}/{r.get('preheated_html_s', 0):.2f} s" for g, r in results.items()
        )
        + ")"
    )
    print(
        "(preheated, light front end, seconds after navigation start: "
        + "; ".join(
            f"{g} " + " ".join(f"{k} {v:.2f}" for k, v in r.get("preheated_phases_s", {}).items())
            for g, r in results.items()
        )
        + ")"
    )
    print(
        "(cold, Voila's stock lab template in the same run: "
        + ", ".join(
            f"{g} {r['cold_stock_lab_s']:.2f} s ({r['cold_stock_lab_s'] / r['cold_s']:.1f}x the light one)"
            for g, r in results.items()
            if r.get("cold_stock_lab_s") and r.get("cold_s")
        )
        + ")"
    )
    import os

    print(f"load average during the run: {', '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores")


if __name__ == "__main__":
    raise SystemExit(main())
