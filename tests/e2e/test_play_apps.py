"""The play apps in a real browser: from the gallery, a whole game by clicking, an illegal move;
secret deals (every visit a fresh deal, and no seed in the page or the kernel's messages before
the game is over) and a deal chosen in the page's address (``?seed=``).

One Voila server (the repository's voila.json, so the play apps are preheated) serves every
test here; each test gets a fresh browser context whose requests may not leave 127.0.0.1.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from drivers import DRIVERS, RULE_ID, Driver
from harness import GALLERY, NOTEBOOKS, PLAY_APPS, KernelFrames, PageWatch, VoilaServer, screenshot_path

from sloth_kernel import load_game

CHOSEN_SEED = 20240607  # a seed chosen in the address (any whole number)

# Voila's words when a cell raised and tracebacks are hidden (voila/execute.py)
VOILA_CELL_ERROR = "There was an error when executing cell"


def needs_notebook(name: str) -> None:
    if not (NOTEBOOKS / name).exists():
        pytest.skip(f"notebooks/{name} is not in this checkout yet")


def assert_clean(page: Any, watch: PageWatch) -> None:
    """No page errors, console errors (beyond the named CDN font noise), outside requests or
    error boxes on the board."""
    assert watch.problems() == []
    assert page.locator(".sk-error-box").count() == 0, page.locator(".sk-error-box").first.inner_text()
    assert VOILA_CELL_ERROR not in page.locator("body").inner_text()


def open_gallery(page: Any, voila: VoilaServer) -> None:
    page.goto(voila.app_url(GALLERY), wait_until="commit")
    page.locator(".sk-gallery").wait_for()


def follow_gallery_link(gallery: Any, game: str, kind: str) -> Any:
    """Click a game's link on the open gallery. The gallery's links carry target="_blank", so
    the notebook opens in a new tab, which is returned. (Tests never navigate a stock-template
    Voila page away: that fires Voila's page-close beacon, which this Voila answers with 403,
    see README.)"""
    link = gallery.locator(f'.sk-game-card[data-game="{game}"] a.sk-{kind}-link')
    with gallery.context.expect_page() as opened:
        link.click()
    tab = opened.value
    tab.wait_for_url(f"**/voila/render/{link.get_attribute('href')}", wait_until="commit")
    return tab


def open_from_gallery(gallery: Any, voila: VoilaServer, game: str) -> tuple[Any, Driver]:
    open_gallery(gallery, voila)
    tab = follow_gallery_link(gallery, game, "play")
    driver = DRIVERS[game](tab)
    driver.wait_for_board()
    return tab, driver


def open_app(context: Any, voila: VoilaServer, game: str, seed: int | None = None) -> tuple[Any, Driver]:
    """A new tab on the play app (with ``?seed=`` when a seed is chosen), its board up."""
    page = context.new_page()
    page.goto(voila.app_url(PLAY_APPS[game]) + ("" if seed is None else f"?seed={seed}"), wait_until="commit")
    driver = DRIVERS[game](page)
    driver.wait_for_board()
    if seed is not None:
        driver.wait_for_seed(seed)
    return page, driver


def downloaded_record(page: Any) -> tuple[str, dict[str, Any]]:
    """Click the game-over box's record link; the file's name and its JSON."""
    with page.expect_download() as info:
        page.locator(".sk-board .sk-record-link").first.click()
    download = info.value
    return download.suggested_filename, json.loads(Path(download.path()).read_text())


def game_over_screenshots(page: Any, name: str) -> None:
    """The game-over box with the seed and the record link, on a laptop and on a phone."""
    for width, height in ((1280, 800), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.locator(".sk-board .jupyter-widgets.sk-game-over").first.scroll_into_view_if_needed()
        page.screenshot(path=screenshot_path(f"{name}-{width}x{height}"))


@pytest.mark.parametrize("game", list(PLAY_APPS))
def test_play_a_whole_game_by_clicking(game: str, voila: VoilaServer, watched_page: tuple[Any, PageWatch]) -> None:
    """A fresh, secret deal from the gallery, played to the end: no seed reaches the page before
    the game is over (neither the HTML nor any kernel message), then the seed, the record to
    download and the replay are there."""
    needs_notebook(GALLERY)
    needs_notebook(PLAY_APPS[game])
    gallery, watch = watched_page
    traffic = KernelFrames(gallery.context)
    page, driver = open_from_gallery(gallery, voila, game)
    driver.prepare()
    assert driver.wait_turn_or_over(None) == "turn"
    html_at_start = page.content()
    snapshot = page.locator("#sloth-widget-state").text_content()  # the states Voila put in the page
    assert "seed" not in driver.status_text()

    refusal = driver.try_illegal()
    assert refusal.startswith("Not legal")
    if game not in ("surplus-of-sloths", "sprint"):  # those boards offer no illegal move; the refusal is their own
        assert RULE_ID.search(refusal), refusal

    actions = driver.play_to_the_end()
    over = page.locator(".sk-board .jupyter-widgets.sk-game-over")
    assert over.is_visible()
    assert "Game over" in driver.status_text()
    assert actions >= 1

    # Now, and only now, the seed: a fresh 128-bit one (below 2**64 with odds 2**-64), shown as text.
    seed = driver.shown_seed()
    assert seed >= 2**64
    assert f"seed {seed} " in driver.status_text()
    assert str(seed) not in html_at_start and snapshot and str(seed) not in snapshot
    # The first kernel message that holds it is the one that ends the game (the status line's).
    first_seed = traffic.first(str(seed))
    first_over = traffic.first("sk-turn sk-over", "received")  # the turn line saying the game is over
    assert first_over is not None and first_seed is not None and first_seed >= first_over
    first_link = traffic.first("sk-record-link")
    assert first_link is not None and first_link >= first_over

    name, record = downloaded_record(page)
    assert name.endswith(".json") and str(seed) not in name
    assert record["seed"] == seed and record["game"] == game
    assert load_game(game).replay(record).is_over
    page.locator(".sk-board").first.screenshot(path=screenshot_path(f"play-{game}-game-over"))
    game_over_screenshots(page, f"game-over-{game}")

    page.locator(".sk-board .sk-replay-open").click()
    stepper = page.locator(".sk-board .sk-replay-area .sk-stepper")
    stepper.wait_for()
    assert f"step 0 of {len(record['moves'])}" in stepper.locator(".sk-stepper-title").inner_text()
    stepper.locator(".sk-next").click()
    stepper.locator(".sk-stepper-title", has_text=f"step 1 of {len(record['moves'])}").wait_for()
    assert_clean(page, watch)


def deal_seen(driver: Driver) -> tuple[Any, ...]:
    """What a visit shows of its deal: the cards and log at the first turn, and again after the
    same kind of move (a move that depends only on the board)."""
    driver.prepare()
    assert driver.wait_turn_or_over(None) == "turn"
    first = (driver.cards_on_screen(), driver.log_text())
    before = driver.log_text()
    driver.take_same_turn()
    driver.wait_after_action(before)
    return first, (driver.cards_on_screen(), driver.log_text())


@pytest.mark.parametrize("game", list(PLAY_APPS))
def test_every_visit_deals_afresh_and_the_address_can_choose_the_deal(
    game: str, voila: VoilaServer, watched_page: tuple[Any, PageWatch]
) -> None:
    needs_notebook(PLAY_APPS[game])
    _, watch = watched_page
    context = watch.context
    fresh = []
    for _ in range(2):
        page, driver = open_app(context, voila, game)
        fresh.append(deal_seen(driver))
        assert "seed" not in driver.status_text()
        assert_clean(page, watch)
        page.close()
    assert fresh[0] != fresh[1]

    chosen = []
    for _ in range(2):
        page, driver = open_app(context, voila, game, CHOSEN_SEED)
        chosen.append(deal_seen(driver))
        assert f"seed {CHOSEN_SEED} (chosen)" in driver.status_text()  # a chosen seed may be shown
        assert_clean(page, watch)
        page.close()
    assert chosen[0] == chosen[1]
    assert chosen[0] not in fresh


def test_gallery_links_open_every_play_app_and_learn_notebook(
    voila: VoilaServer, watched_page: tuple[Any, PageWatch]
) -> None:
    needs_notebook(GALLERY)
    page, watch = watched_page
    open_gallery(page, voila)
    page.screenshot(path=screenshot_path("gallery"), full_page=True)
    cards = page.locator(".sk-game-card")
    assert sorted(cards.evaluate_all("els => els.map(e => e.dataset.game)")) == sorted(PLAY_APPS)

    hrefs = {}
    for game in PLAY_APPS:
        card = page.locator(f'.sk-game-card[data-game="{game}"]')
        hrefs[game] = (
            card.locator("a.sk-play-link").get_attribute("href"),
            card.locator("a.sk-learn-link").get_attribute("href"),
        )
    for game, (play_href, learn_href) in hrefs.items():
        assert play_href == PLAY_APPS[game]
        assert (NOTEBOOKS / learn_href).exists(), learn_href

    # Each learn notebook opens from its link (all four at once) and renders without an error.
    tabs = {learn_href: follow_gallery_link(page, game, "learn") for game, (_, learn_href) in hrefs.items()}
    for learn_href, tab in tabs.items():
        wait_rendered_and_connected(tab)
        assert VOILA_CELL_ERROR not in tab.locator("body").inner_text(), learn_href
        tab.close()
    assert_clean(page, watch)


def open_setup(page: Any) -> None:
    """Unfold the board's "New game / seats" section."""
    page.locator(".sk-board .sk-disclosure-toggle", has_text="New game").click()
    page.locator(".sk-board .sk-setup .sk-new").wait_for()


def wait_rendered_and_connected(page: Any) -> None:
    """Voila streamed every cell and the page's kernel answered all it was asked."""
    page.wait_for_load_state("load")
    page.wait_for_function(
        "() => window.__skKernel && window.__skKernel.sent > 0 && window.__skKernel.pending.size === 0"
    )


def test_hot_seat_cover_hides_the_hand_until_revealed(voila: VoilaServer, watched_page: tuple[Any, PageWatch]) -> None:
    game = "too-sloth-to-win"
    needs_notebook(PLAY_APPS[game])
    page, watch = watched_page
    page.goto(voila.app_url(PLAY_APPS[game]), wait_until="commit")
    driver = DRIVERS[game](page)
    driver.wait_for_board()

    # New game / seats: Player 2 becomes a second human at this screen; seed 1 dealt on purpose
    # (Player 1 leads it).
    open_setup(page)
    setup = page.locator(".sk-board .sk-setup")
    setup.locator(".widget-dropdown", has_text="Player 2").locator("select").select_option(
        label="a person at this screen"
    )
    setup.locator(".sk-seed-input input").fill("1")
    setup.locator(".sk-deal-seed").click()
    driver.wait_for_seed(1)

    cover = page.locator(".sk-board .jupyter-widgets.sk-cover")
    hand = page.locator(".sk-board .sk-handcard:visible")
    hand_label = page.locator(".sk-board .sk-hand-label:visible")
    driver.wait_settled()
    assert "hot-seat" in driver.status_text()
    assert cover.is_visible() and "Player 1" in cover.inner_text()
    assert hand.count() == 0
    page.locator(".sk-board").screenshot(path=screenshot_path("hot-seat-covered"))

    page.locator(".sk-board .sk-reveal").click()
    driver.wait_settled()
    assert not cover.is_visible()
    assert hand.count() > 0 and "player 1" in hand_label.first.inner_text().lower()

    # Player 1 leads a Single; the cover is back before Player 2's hand is drawn.
    driver.take_turn()
    driver.wait_settled()
    assert cover.is_visible() and "Player 2" in cover.inner_text()
    assert hand.count() == 0
    page.locator(".sk-board .sk-reveal").click()
    driver.wait_settled()
    assert hand.count() > 0 and "player 2" in hand_label.first.inner_text().lower()
    page.locator(".sk-board").screenshot(path=screenshot_path("hot-seat-revealed"))
    assert_clean(page, watch)
