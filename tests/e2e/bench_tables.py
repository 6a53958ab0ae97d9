"""Classroom load benchmark for shared tables (a command, not a test).

    .venv/bin/python tests/e2e/bench_tables.py [--tables 10] [--seats 3] [--game too-sloth-to-win]
                                               [--store URL] [--contexts 0]

One Voila (the repository's voila.json, no preheated pools but the table page's) serves
``--tables`` tables of ``--seats`` human seats each, made with ``Tables.create`` in the store
``--store`` (default: a fresh SQLite file). Every seat's page opens in chromium, the pages shared
in its own browser context (``--contexts N`` shares N among them: pages in one context are
background tabs, whose changes chromium shows about 2 s late); then one loop plays every table at once: whichever page
shows that it is its seat's turn makes a move by clicking, as the browser tests' drivers do
(tests/e2e/drivers.py), until every game is over.

Then it checks, from the store, what must hold (and exits 1 if something does not):

- every game is over;
- no move is lost or doubled: the store's record replays to the same game, the table's version
  grew at every click and by as many moves as the click's action made, and each page's log has
  as many lines as its seat's observation of the finished game;

and reports the click-to-change propagation (from the click in one page to the change of the
log in each other page of its table, from a MutationObserver in the page), p50 and p95, and the
total time. Figures go to test-output/tables-bench.json. Nothing is asserted about time.

``run_bench`` is what tests/e2e/test_tables_load.py runs at a small size for the correctness part.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from drivers import DRIVERS  # noqa: E402
from harness import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    OUTPUT,
    REPO,
    PageWatch,
    playwright_session,
    started_server,
    stop_leaving_no_kernels,
    wait_until,
)

from sloth_kernel.tables import Tables, open_store  # noqa: E402

BOARD = ".sk-board .jupyter-widgets.sk-status"
# Many pages share a few browser windows here; in a classroom each is a student's foreground tab.
FOREGROUND_ARGS = [
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
]

# Every time the page's log changes its number of lines: (wall-clock ms, lines).
CHANGES_JS = """() => {
  window.__skChanges = [];
  let last = document.querySelectorAll('.sk-board .sk-log-line').length;
  new MutationObserver(() => {
    const now = document.querySelectorAll('.sk-board .sk-log-line').length;
    if (now !== last) { last = now; window.__skChanges.push([performance.timeOrigin + performance.now(), now]); }
  }).observe(document.body, { childList: true, subtree: true, characterData: true });
}"""
NOW_JS = "() => performance.timeOrigin + performance.now()"
LINES_JS = "() => document.querySelectorAll('.sk-board .sk-log-line').length"

# What the page waits for, once its kernel has answered everything it sent: a step the board asks
# of whoever looks at it (a round's end, a reveal, a Hare card to turn), this seat's turn, or nothing.
PAGE_STATE_JS = """() => {
  const kernel = window.__skKernel;
  if (!kernel || kernel.pending.size > 0) return 'busy';
  const shown = (s) => { const e = document.querySelector(s); return e && e.offsetParent !== null && !e.disabled; };
  if (shown('.sk-board .sk-ts-continue')) return 'continue';
  if (shown('.sk-board .sk-reveal-next')) return 'reveal';
  if (shown('.sk-board .sk-hare-turn')) return 'hare';
  if (!document.querySelector('.sk-board .sk-turn.sk-yours')) return 'wait';
  const controls = '.sk-board .sk-play, .sk-board .sk-pass, .sk-board .sk-pitch, .sk-board .sk-keep, .sk-board .sk-lift';
  for (const e of document.querySelectorAll(controls)) { if (e.offsetParent !== null && !e.disabled) return 'turn'; }
  return 'wait';  // the board is still drawing the turn
}"""
STEP_BUTTONS = {
    "continue": ".sk-board .sk-ts-continue",
    "reveal": ".sk-board .sk-reveal-next",
    "hare": ".sk-board .sk-hare-turn",
}


@dataclass
class Seat:
    table: str
    seat: int
    url: str
    page: Any = None
    driver: Any = None
    pressed: list[float] = field(default_factory=list)


@dataclass
class Click:
    table: str
    seat: int
    at: float  # wall-clock ms just before the press that sent the move
    version: int  # the table's version just before it
    others: dict[int, int]  # seat -> that page's log lines just before it


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else float("nan")


def run_bench(
    tables_count: int = 10,
    seats: int = 3,
    game: str = "too-sloth-to-win",
    store: str | None = None,
    contexts: int = 0,
    timeout: float = 1800,
    log: Any = print,
    playwright: Any = None,
) -> dict[str, Any]:
    """Play `tables_count` tables of `seats` people each in chromium; returns figures and problems.

    `playwright`: a running Playwright to use (a test's session one: a second sync Playwright
    cannot start inside the first one's event loop); None starts one for this run."""
    work = Path(tempfile.mkdtemp(prefix="sloth-tables-bench-"))
    url = store or str(work / "tables.db")
    config = json.loads((REPO / "voila.json").read_text())
    config["VoilaKernelManager"]["kernel_pools_config"] = {"default": {"pool_size": 0}}
    (work / "voila.json").write_text(json.dumps(config))
    import os

    env = {**os.environ, "SLOTH_TABLES": url}
    started = time.monotonic()
    server = started_server(cwd=work, env=env, log_path=OUTPUT / "voila-tables-bench.log")
    tables = Tables(open_store(url))
    problems: list[str] = []
    clicks: list[Click] = []
    delays: list[float] = []
    figures: dict[str, Any] = {
        "tables": tables_count,
        "seats": seats,
        "game": game,
        "store": url.split(":", 1)[0] if "://" in url else "sqlite",
    }
    try:
        at_tables: dict[str, list[Seat]] = {}
        for _ in range(tables_count):
            made = tables.create(game, ["human"] * seats, base_url=server.base_url)
            at_tables[made.table] = [Seat(made.table, link.seat, str(link.url)) for link in made.seats]
        everyone = [seat for row in at_tables.values() for seat in row]
        with contextlib.nullcontext(playwright) if playwright is not None else playwright_session() as playwright:
            # every seat's page is some student's foreground tab: no throttling of pages in the background
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, *FOREGROUND_ARGS], headless=True
            )
            watches = []
            for _ in range(len(everyone) if contexts <= 0 else min(contexts, len(everyone))):
                context = browser.new_context(viewport={"width": 1100, "height": 900})
                context.set_default_timeout(30_000)
                watches.append(PageWatch(context))
            for n, seat in enumerate(everyone):
                seat.page = watches[n % len(watches)].new_page()
                seat.page.goto(seat.url, wait_until="commit")
                driver = DRIVERS[game](seat.page)
                driver.press = lambda locator, seat=seat: (  # type: ignore[method-assign]
                    seat.pressed.append(seat.page.evaluate(NOW_JS)),
                    locator.click(),
                )
                seat.driver = driver
            for seat in everyone:
                seat.page.locator(BOARD).wait_for()
                seat.page.locator(".sk-board .sk-log").first.wait_for()
                seat.page.evaluate(CHANGES_JS)
            opened = time.monotonic()
            figures["pages_open_s"] = round(opened - started, 1)
            log(f"{len(everyone)} pages open after {figures['pages_open_s']} s; playing")

            pending: list[Click] = []
            failures: list[str] = []
            over = dict.fromkeys(at_tables, False)
            while True:
                if time.monotonic() - opened > timeout:
                    problems.append(f"not every game was over after {timeout:.0f} s")
                    for table, row in at_tables.items():
                        for seat in row:
                            if not over[table]:
                                name = f"tables-bench-stuck-{table}-{seat.seat + 1}.png"
                                seat.page.screenshot(path=str(OUTPUT / name), full_page=True)
                    break
                over = {table: tables.show(table).over for table in at_tables}
                for click in list(pending):
                    found = resolve(click, at_tables[click.table])
                    if found is not None:
                        delays.extend(found)
                        pending.remove(click)
                if all(over.values()) and not pending:
                    break
                acted = False
                for table, row in at_tables.items():
                    if over[table]:
                        continue
                    for seat in row:
                        state = seat.page.evaluate(PAGE_STATE_JS)
                        if state == "wait" or state == "busy":
                            continue
                        acted = True
                        version = tables.show(table).ply
                        others = {o.seat: o.page.evaluate(LINES_JS) for o in row if o is not seat}
                        del seat.pressed[:]
                        try:
                            moved = act(seat, state)
                        except Exception as err:  # noqa: BLE001 - the board redrew under the driver: again
                            failures.append(f"table {table}, Player {seat.seat + 1}: {str(err).splitlines()[0]}")
                            if len(failures) > 50:
                                raise
                            with contextlib.suppress(Exception):
                                seat.driver.unselect_all()
                            continue
                        if moved:
                            clicks.append(Click(table, seat.seat, seat.pressed[-1], version, others))
                            pending.append(clicks[-1])
                if not acted:
                    time.sleep(0.02)  # every page is waiting for its kernel or another seat
            figures["play_s"] = round(time.monotonic() - opened, 1)
            # the pages end showing the finished game: as many log lines as their seat's observation
            for table, row in at_tables.items():
                _, state = tables.state(table)
                for seat in row:
                    want = len(state.observation(seat.seat).log)
                    try:
                        wait_until(lambda seat=seat, want=want: seat.page.evaluate(LINES_JS) == want, 60, "the log")
                    except Exception:  # noqa: BLE001 - reported below
                        problems.append(
                            f"table {table}, Player {seat.seat + 1}: the page shows "
                            f"{seat.page.evaluate(LINES_JS)} log lines, its observation {want}"
                        )
                    if seat.page.locator("text=moved on").count():
                        problems.append(f"table {table}, Player {seat.seat + 1}: a move was refused as too late")
            for watch in watches:
                problems.extend(watch.problems())
                watch.context.close()
            browser.close()
        problems.extend(check_store(tables, at_tables, clicks))
    finally:
        stop_leaving_no_kernels(server)
    figures.update(
        driver_retries=failures[:10],
        moves=sum(tables.show(table).ply for table in at_tables),
        clicks=len(clicks),
        changes=len(delays),
        p50_ms=round(statistics.median(delays), 1) if delays else None,
        p95_ms=round(percentile(delays, 0.95), 1) if delays else None,
        max_ms=round(max(delays), 1) if delays else None,
        total_s=round(time.monotonic() - started, 1),
        problems=problems,
    )
    return figures


def act(seat: Seat, state: str) -> bool:
    """One step in a page: a step the board asks for, or the seat's move (True) by the driver's
    clicks; when the driver's choice is not there (Race to the Bottom's driver leaves jokers), the
    first card the hand offers."""
    page, driver = seat.page, seat.driver
    if state in STEP_BUTTONS:
        page.locator(STEP_BUTTONS[state]).first.click()
        return False
    try:
        driver.take_turn()
    except AssertionError:
        driver.unselect_all()
        if page.evaluate(PAGE_STATE_JS) != "turn":
            raise
        driver.click_card(page.locator(".sk-board .sk-handcard:enabled").first)
        driver.press(page.locator(".sk-board .sk-play"))
    driver.actions += 1
    return True


def resolve(click: Click, row: list[Seat]) -> list[float] | None:
    """The click's delays to each other page of its table, once every one of them changed."""
    found = []
    for seat in row:
        if seat.seat == click.seat:
            continue
        changes = seat.page.evaluate("() => window.__skChanges")
        first = next((t for t, n in changes if t >= click.at and n != click.others[seat.seat]), None)
        if first is None:
            return None
        found.append(first - click.at)
    return found


def check_store(tables: Tables, at_tables: dict[str, list[Seat]], clicks: list[Click]) -> list[str]:
    """Every game over; the record replays; the version grew at every click, never went back."""
    problems = []
    for table in at_tables:
        shown = tables.show(table)
        _, state = tables.state(table)
        if not shown.over:
            problems.append(f"table {table}: the game is not over (move {shown.ply})")
        record = state.to_record()
        again = state.game.replay(record)
        if again.to_record() != record or len(state.history) != shown.ply:
            problems.append(f"table {table}: the stored record does not replay to the same game")
        versions = [click.version for click in clicks if click.table == table]
        if any(b <= a for a, b in zip(versions, versions[1:], strict=False)):
            problems.append(f"table {table}: a click found the table at a version it had already seen")
        if versions and shown.ply < len(versions):
            problems.append(f"table {table}: {len(versions)} moves clicked but only {shown.ply} stored")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10, help="how many tables (default 10)")
    parser.add_argument("--seats", type=int, default=3, help="human seats per table (default 3)")
    parser.add_argument("--game", default="too-sloth-to-win", choices=sorted(DRIVERS))
    parser.add_argument("--store", default=None, help="SLOTH_TABLES URL (default: a fresh SQLite file)")
    parser.add_argument(
        "--contexts",
        type=int,
        default=0,
        help="browser contexts the pages share (default 0: one per page, as every student has a browser; "
        "pages sharing a context are background tabs, and their changes show seconds late)",
    )
    parser.add_argument("--timeout", type=float, default=1800, help="seconds of play before giving up")
    args = parser.parse_args()
    figures = run_bench(args.tables, args.seats, args.game, args.store, args.contexts, args.timeout)
    OUTPUT.mkdir(exist_ok=True)
    (OUTPUT / "tables-bench.json").write_text(json.dumps(figures, indent=2))
    print(
        f"{figures['tables']} tables x {figures['seats']} seats of {figures['game']} on {figures['store']}: "
        f"{figures['moves']} moves stored from {figures['clicks']} clicks; click to change in another page "
        f"p50 {figures['p50_ms']} ms, p95 {figures['p95_ms']} ms, max {figures['max_ms']} ms over "
        f"{figures['changes']} changes; pages open {figures.get('pages_open_s')} s, play {figures.get('play_s')} s, "
        f"total {figures['total_s']} s"
    )
    for problem in figures["problems"]:
        print("PROBLEM:", problem)
    return 1 if figures["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
