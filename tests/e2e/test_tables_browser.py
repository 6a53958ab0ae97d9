"""A shared table in real browsers: ``table create`` gives links that work in three browsers.

One Voila serves notebooks/ with a SQLite table store (``SLOTH_TABLES``, a temporary file) and a
pool of preheated kernels for the table page. A table of Too Sloth To Win (two people and a bot)
is made with the command line; seat 1, seat 2 and the watch page open in three browser contexts:

- each seat's page (its HTML and its whole widget state) holds its own hand and nobody else's;
- a card played by clicking in Player 1's page is stored (``table show`` reports the new ply)
  and shows on Player 2's page; the watch page shows the move and no hand;
- a wrong token gets a sentence, not a traceback, and so does a link opened on Voila's stock
  template (which sends the page no parameters);
- a seat's kernel killed and its link opened again shows the same game at the same ply.

From a click in one page to the change in the other, over several moves, p50 and p95 are
printed (the README's "Shared tables" reports them); nothing here asserts a time.
"""

from __future__ import annotations

import json
import os
import statistics
from collections.abc import Iterator
from typing import Any

import pytest
from harness import (
    OUTPUT,
    REPO,
    PageWatch,
    VoilaServer,
    screenshot_path,
    started_server,
    stop_leaving_no_kernels,
    wait_until,
)
from harness import (
    table_cli as cli,
)

from sloth_kernel.tables import Tables, open_store

GAME = "too-sloth-to-win"
BOARD = ".sk-board .jupyter-widgets.sk-status"
MOVES = 10  # clicks measured (Player 1 leads the first: a card)
POOL = 3  # seat 1, seat 2 and the watch page each find a preheated kernel

# Every time the page's log grows: (wall-clock ms, lines), from a MutationObserver.
CHANGES_JS = """() => {
  window.__skChanges = [];
  let last = document.querySelectorAll('.sk-log-line').length;
  new MutationObserver(() => {
    const now = document.querySelectorAll('.sk-log-line').length;
    if (now !== last) { last = now; window.__skChanges.push([performance.timeOrigin + performance.now(), now]); }
  }).observe(document.body, { childList: true, subtree: true, characterData: true });
}"""

# The tooltips of every hand card in the page's whole widget state (shown or not).
STATE_HAND_JS = """async () => {
  const state = await window.slothVoila.manager.get_state();
  return Object.values(state.state)
    .filter((m) => m.model_name === 'ToggleButtonModel' && (m.state._dom_classes || []).includes('sk-handcard'))
    .map((m) => m.state.tooltip).filter((t) => t);
}"""
ALL_STATE_JS = """async () => (await window.slothVoila.manager.get_state()).state"""
PAGE_HAND_JS = """() => Array.from(document.querySelectorAll('.sk-handcard'))
  .filter((e) => e.offsetParent !== null).map((e) => e.title)"""
NOW_JS = "() => performance.timeOrigin + performance.now()"
MY_TURN_JS = """() => { const kernel = window.__skKernel;
  if (!kernel || kernel.pending.size > 0) return false;
  return !!document.querySelector('.sk-board .sk-turn.sk-yours'); }"""


@pytest.fixture(scope="module")
def table_voila(tmp_path_factory: pytest.TempPathFactory, chromium: None) -> Iterator[tuple[VoilaServer, dict]]:
    """Voila with the repository's voila.json, but only the table page preheated (POOL kernels)."""
    where = tmp_path_factory.mktemp("tables")
    config = json.loads((REPO / "voila.json").read_text())
    config["VoilaKernelManager"]["kernel_pools_config"] = {
        "default": {"pool_size": 0},
        "table.ipynb": {"pool_size": POOL},
    }
    (where / "voila.json").write_text(json.dumps(config))
    env = {**os.environ, "SLOTH_TABLES": str(where / "tables.db")}
    open_store(env["SLOTH_TABLES"], create=True).close()  # an empty store: reads refuse a missing one
    server = started_server(cwd=where, env=env, log_path=OUTPUT / "voila-tables.log")
    wait_until(lambda: server.log_text().count("Kernel pool of") >= 1, 180, "the preheated pool to fill")
    server.wait_for_kernels(POOL, 120)
    yield server, env
    stop_leaving_no_kernels(server)


def open_page(browser: Any, url: str) -> tuple[Any, PageWatch]:
    context = browser.new_context(viewport={"width": 1200, "height": 1000})
    context.set_default_timeout(120_000)
    watch = PageWatch(context)
    page = watch.new_page()
    page.goto(url, wait_until="commit")
    return page, watch


def hand_labels(tables: Tables, table: str, seat: int) -> list[str]:
    """The hand the seat's board draws from its observation (the tooltips of its cards)."""
    from sloth_widgets.table import TableSession, table_game_board

    board = table_game_board(TableSession(tables, table, seat=seat))
    labels = sorted(button.tooltip for button in board.hand.buttons)
    return labels


def click_move(page: Any) -> float:
    """Make one move in a seat's page by clicking, as TooSlothDriver does; returns the wall-clock ms
    just before the click that sends it."""
    if page.locator(".sk-board .sk-pass:enabled").count():
        takes = page.locator(".sk-board .sk-take button")
        if takes.count() and takes.first.is_visible():  # a pass that must take an end card (TS-6)
            takes.first.click()
            page.locator(".sk-board .sk-take button.mod-active").wait_for()
        button = page.locator(".sk-board .sk-pass")
    else:
        page.locator(".sk-board .sk-handcard:not(.sk-f-ts-D):enabled").first.click()
        button = page.locator(".sk-board .sk-play")
    at: float = page.evaluate(NOW_JS)
    button.click()
    return at


def seen_after(page: Any, lines_before: int, timeout: float = 60) -> float:
    """The wall-clock ms at which the page's log first grew past `lines_before` lines."""
    found = wait_until(
        lambda: [t for t, n in page.evaluate("() => window.__skChanges") if n > lines_before], timeout, "the move"
    )
    return float(found[0])


def test_a_table_made_on_the_command_line_plays_across_three_browsers(
    table_voila: tuple[VoilaServer, dict], browser: Any
) -> None:
    server, env = table_voila
    made = cli("create", "--game", GAME, "--seats", "human,human,bot", "--base-url", server.base_url, env=env)
    table = made["table"]
    urls = [seat.get("url") for seat in made["seats"]]
    assert urls[2] is None and all("#seat=" in url for url in urls[:2])

    pages = [open_page(browser, url) for url in (urls[0], urls[1], made["watch"])]
    (seat0, watch0), (seat1, watch1), (watcher, watch2) = pages
    for page in (seat0, seat1):
        page.locator(BOARD).wait_for()
        page.locator(".sk-board .sk-log-line").first.wait_for()
    watcher.locator(".sk-watch .sk-log-line").first.wait_for()
    wait_until(lambda: cli("show", table, env=env)["seated"] == [0, 1], 30, "both seats to be seated")

    tables = Tables(open_store(env["SLOTH_TABLES"]))
    own = [hand_labels(tables, table, seat) for seat in (0, 1)]
    assert own[0] != own[1]
    for seat, page in enumerate((seat0, seat1)):
        assert sorted(page.evaluate(PAGE_HAND_JS)) == own[seat]  # its own hand, all of it
        assert sorted(page.evaluate(STATE_HAND_JS)) == own[seat]  # and no other hand card in any widget
    assert watcher.locator(".sk-handcard").count() == 0
    assert watcher.evaluate(STATE_HAND_JS) == []
    # the watch page draws the game's board from the public observation: the seats, the table, the turn line
    for part in (".sk-seats-top", ".sk-picture", ".sk-turn"):
        watcher.locator(f".sk-watch {part}").first.wait_for()
    watched = json.dumps(watcher.evaluate(ALL_STATE_JS))
    assert "Hands (teacher" not in watched and "Your hand" not in watched
    _, dealt = tables.state(table)
    assert str(dealt.seed) not in watched  # nor the seed that would deal every hand again

    # the moves: whichever person is to move clicks, the other page shows it (the bot moves in between)
    for page in (seat0, seat1, watcher):
        page.evaluate(CHANGES_JS)
    delays: list[float] = []
    ply = cli("show", table, env=env)["ply"]
    for turn in range(MOVES):
        mover = wait_until(
            lambda: next((page for page in (seat0, seat1) if page.evaluate(MY_TURN_JS)), None), 60, "a person's turn"
        )
        other = seat1 if mover is seat0 else seat0
        assert turn > 0 or mover is seat0  # Player 1 leads: the first click plays a card
        before = other.locator(".sk-log-line").count()
        clicked = click_move(mover)
        delays.append(seen_after(other, before) - clicked)
        shown = cli("show", table, env=env)
        assert shown["ply"] > ply, shown  # stored
        ply = shown["ply"]
        _, state = tables.state(table)
        other.locator(".sk-log-line", has_text=state.observation(0).log[-1].text).first.wait_for()
        if turn == 0:
            watcher.locator(".sk-watch .sk-log-line", has_text=state.observation(0).log[-1].text).first.wait_for()
    delays.sort()
    p95 = delays[min(len(delays) - 1, round(0.95 * (len(delays) - 1)))]
    print(
        f"\nclick in one page to the change in the other: p50 {statistics.median(delays):.0f} ms, "
        f"p95 {p95:.0f} ms over {len(delays)} moves: {[round(d) for d in delays]}"
    )
    (OUTPUT / "tables-browser-propagation.json").write_text(json.dumps({"delays_ms": delays}))

    # still nobody else's hand, and none on the watch page
    for seat, page in enumerate((seat0, seat1)):
        mine = hand_labels(tables, table, seat)
        wait_until(lambda page=page, mine=mine: sorted(page.evaluate(STATE_HAND_JS)) == mine, 10, "the hand")
    assert watcher.evaluate(STATE_HAND_JS) == [] and watcher.locator(".sk-handcard").count() == 0

    # the teacher: every hand, pause and resume, and a step back through the moves so far
    teacher, teacher_watch = open_page(browser, made["teacher"])
    teacher.locator(".sk-teacher .sk-table-pause").wait_for()
    teacher.locator(BOARD, has_text="teacher's view").wait_for()
    assert teacher.locator(".sk-handcard:visible").count() == 0  # hands are drawn open on the table
    teacher.locator(".sk-teacher .sk-table-pause").click()
    wait_until(lambda: tables.show(table).status == "paused", 30, "the table to pause")
    seat0.locator(BOARD, has_text="the table is paused").wait_for()
    teacher.locator(".sk-teacher .sk-table-resume").click()
    wait_until(lambda: tables.show(table).status == "open", 30, "the table to open again")
    seat1.locator(BOARD, has_text="the table is paused").wait_for(state="detached")
    teacher.locator(".sk-teacher .sk-table-replay").click()
    teacher.locator(".sk-teacher .sk-stepper .sk-back").click()
    pages.append((teacher, teacher_watch))
    for name, page in zip(("seat-1", "seat-2", "watch", "teacher"), (seat0, seat1, watcher, teacher), strict=True):
        page.screenshot(path=screenshot_path(f"table-{name}"), full_page=True)
    # long past the heartbeat the opening wrote: the open pages' beats keep their seats seated
    assert cli("show", table, env=env)["seated"] == [0, 1]
    for _, watch in pages:
        assert watch.problems() == []
        watch.context.close()
    # closed tabs stop beating, whatever their kernels do
    wait_until(lambda: cli("show", table, env=env)["seated"] == [], 60, "the closed pages' seats to be free")


def test_a_wrong_token_gets_a_sentence_and_a_killed_kernel_resumes_the_same_game(
    table_voila: tuple[VoilaServer, dict], browser: Any
) -> None:
    server, env = table_voila
    made = cli("create", "--game", GAME, "--seats", "human,human,bot", "--base-url", server.base_url, env=env)
    table = made["table"]
    url = made["seats"][0]["url"]
    wrong = url.rsplit("=", 1)[0] + "=" + "A" * 32
    page, watch = open_page(browser, wrong)
    sentence = page.locator(".sk-table-sentence", has_text="not right")
    sentence.wait_for()
    assert "Traceback" not in page.content() and page.locator(".sk-board").count() == 0
    watch.context.close()

    # Voila's stock template sends no parameters: the page says how to open it instead
    base, _, fragment = made["seats"][1]["url"].partition("#")
    page, watch = open_page(browser, f"{base}&template=lab#{fragment}")
    page.locator(".sk-table-sentence", has_text="open the table's link exactly as it was given").wait_for()
    assert "Traceback" not in page.content() and page.locator(".sk-board").count() == 0
    watch.context.close()

    page, watch = open_page(browser, url)
    page.locator(BOARD).wait_for()
    page.wait_for_function(MY_TURN_JS)
    click_move(page)
    wait_until(lambda: cli("show", table, env=env)["ply"] >= 1, 30, "the move to be stored")
    kernel_id = page.evaluate("() => JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")
    killed = [proc for proc in server.kernel_processes() if kernel_id in " ".join(proc.cmdline())]
    assert len(killed) == 1
    killed[0].kill()
    killed[0].wait(30)
    watch.context.close()

    shown = cli("show", table, env=env)
    page, watch = open_page(browser, url)
    page.locator(BOARD).wait_for()
    tables = Tables(open_store(env["SLOTH_TABLES"]))
    _, state = tables.state(table)
    lines = state.observation(0).log
    page.locator(".sk-board .sk-log-line", has_text=lines[-1].text).first.wait_for()
    assert page.locator(".sk-board .sk-log-line").count() == len(lines)
    assert cli("show", table, env=env)["ply"] == shown["ply"]  # nothing replayed twice
    assert sorted(page.evaluate(PAGE_HAND_JS)) == hand_labels(tables, table, 0)
    watch.context.close()


# -- the other games at a table, and a server store --

OTHER_GAMES = ("surplus-of-sloths", "race-to-the-bottom", "sprint")


def one_move_propagates(game: str, base_url: str, env: dict[str, str], browser: Any) -> None:
    """Two seat pages of a new table of `game`: the seat whose turn it is moves by clicking (the
    browser tests' driver), the move is stored and the other seat's page shows it."""
    from bench_tables import CHANGES_JS as LOG_CHANGES_JS
    from bench_tables import LINES_JS, PAGE_STATE_JS
    from drivers import DRIVERS

    made = cli("create", "--game", game, "--seats", "human,human", "--base-url", base_url, env=env)
    table = made["table"]
    pages = [open_page(browser, seat["url"]) for seat in made["seats"]]
    for page, _ in pages:
        page.locator(BOARD).wait_for()
        page.locator(".sk-board .sk-log").first.wait_for()
        page.evaluate(LOG_CHANGES_JS)
    mover = wait_until(
        lambda: next((page for page, _ in pages if page.evaluate(PAGE_STATE_JS) == "turn"), None), 120, "a turn"
    )
    other = next(page for page, _ in pages if page is not mover)
    before = other.evaluate(LINES_JS)
    assert cli("show", table, env=env)["ply"] == 0
    DRIVERS[game](mover).take_turn()
    wait_until(lambda: cli("show", table, env=env)["ply"] >= 1, 60, "the move to be stored")
    wait_until(lambda: other.evaluate(LINES_JS) > before, 60, "the move on the other page")
    tables = Tables(open_store(env["SLOTH_TABLES"]))
    _, state = tables.state(table)
    seat = next(n for n, (page, _) in enumerate(pages) if page is other)
    # the move's first line (Sprint!'s board shows a Hare card's line only once someone turns it)
    text = state.observation(seat).log[before].text
    assert text in other.locator(".sk-board .sk-log-line").nth(before).inner_text()
    for _, watch in pages:
        assert watch.problems() == []
        watch.context.close()


@pytest.mark.parametrize("game", OTHER_GAMES)
def test_a_move_in_one_seat_page_shows_in_the_other_for_every_game(
    game: str, table_voila: tuple[VoilaServer, dict], browser: Any
) -> None:
    server, env = table_voila
    one_move_propagates(game, server.base_url, env, browser)


def test_a_move_propagates_through_a_redis_store(
    tmp_path: Any, redis_server: Any, chromium: None, browser: Any
) -> None:
    """The same pages with ``SLOTH_TABLES`` on a real Redis server (started on loopback like the
    store suite's; a skip without redis-server, a failure when SLOTH_TEST_SERVERS=required)."""
    from tables_servers import empty

    empty(redis_server.url)
    config = json.loads((REPO / "voila.json").read_text())
    config["VoilaKernelManager"]["kernel_pools_config"] = {"default": {"pool_size": 0}}
    (tmp_path / "voila.json").write_text(json.dumps(config))
    env = {**os.environ, "SLOTH_TABLES": redis_server.url}
    server = started_server(cwd=tmp_path, env=env, log_path=OUTPUT / "voila-tables-redis.log")
    try:
        one_move_propagates("race-to-the-bottom", server.base_url, env, browser)
    finally:
        stop_leaving_no_kernels(server)


def test_the_gallery_form_makes_a_table_at_phone_width(table_voila: tuple[VoilaServer, dict], browser: Any) -> None:
    """The gallery's "new table" form at 390 px: labelled controls, Create, the links; nothing scrolls sideways."""
    server, env = table_voila
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.set_default_timeout(120_000)
    watch = PageWatch(context)
    page = watch.new_page()
    page.goto(server.app_url("index.ipynb"), wait_until="commit")
    page.get_by_role("button", name="Create the table").wait_for()
    page.get_by_label("Game").select_option(label="Race to the Bottom")
    page.get_by_label("Server").fill(server.base_url)
    page.get_by_label("Server").press("Tab")
    before = {summary.table for summary in Tables(open_store(env["SLOTH_TABLES"])).list()}
    page.get_by_role("button", name="Create the table").click()
    links = page.locator(".sk-new-table-links")
    links.wait_for()
    assert links.get_by_role("link", name="Player 1 seat link").count() == 1
    assert links.get_by_role("link", name="teacher link").count() == 1
    made = {summary.table for summary in Tables(open_store(env["SLOTH_TABLES"])).list()} - before
    assert len(made) == 1
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=screenshot_path("gallery-new-table-390"), full_page=True)
    assert "Traceback" not in page.content() and watch.problems() == []
    context.close()
