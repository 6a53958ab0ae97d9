"""Play each board in a real browser the way a person does: by clicking its controls.

A driver only uses the boards' stable CSS classes (widgets/*.py): ``sk-board``,
``sk-status``, ``sk-log``, ``sk-handcard``, ``sk-play``, ``sk-pass``, ``sk-pitch``,
``sk-keep``, ``sk-river``, ``sk-lift``/``sk-lift-cut``, ``sk-speed``, ``sk-hint-toggle``,
``sk-explain``/``sk-illegal``, ``sk-cover``/``sk-reveal``, ``sk-game-over`` (with ``sk-seed``,
``sk-record-link``, ``sk-again`` and ``sk-replay-open``) and the setup panel's
``sk-seed-input``/``sk-deal-seed``.

Synchronisation is always a wait on the page (Playwright's auto-wait or a
``wait_for_function`` on the board's DOM), never a sleep.
"""

from __future__ import annotations

import re
from typing import Any

from harness import BOARD_READY

RULE_ID = re.compile(r"\b(TS|RB|SS|SP)-\d+")

# True once the kernel has answered everything the page sent (harness.KERNEL_TRACKER_JS) and
# the board shows a finished game, or it is the human's turn: the log moved on (`prev`, unless
# null) and one of the seat's action controls is visible and enabled (the boards enable them
# only on that seat's turn).
TURN_OR_OVER_JS = """
(prev) => {
  const kernel = window.__skKernel;
  if (!kernel || kernel.sent === 0 || kernel.pending.size > 0) return false;  // kernel still working
  const visible = (el) => el && el.offsetParent !== null;
  const over = document.querySelector('.sk-board .jupyter-widgets.sk-game-over');
  if (visible(over) && over.innerText.trim()) return 'over';
  const log = document.querySelector('.sk-board .jupyter-widgets.sk-log');
  if (!log || (prev !== null && log.innerText === prev)) return false;
  const controls = document.querySelectorAll('.sk-board .sk-play, .sk-board .sk-pass, .sk-board .sk-pitch, '
                                             + '.sk-board .sk-keep, .sk-board .sk-lift');
  for (const el of controls) { if (visible(el) && !el.disabled) return 'turn'; }
  return false;
}
"""


class Driver:
    """Shared moves; each game's subclass knows which buttons make one legal move."""

    game = ""
    max_actions = 400  # a bound on the loop, far above a real game (11-23 human actions with seed 1)

    # The cards on screen (hand and River rows), by face, in order.
    CARDS_JS = """() => Array.from(document.querySelectorAll('.sk-board .sk-handcard'))
        .filter((e) => e.offsetParent !== null)
        .map((e) => Array.from(e.classList).filter((c) => c.startsWith('sk-f-')).join(' '))"""
    turn_timeout = 120_000

    def __init__(self, page: Any) -> None:
        self.page = page
        self.actions = 0

    # -- acting (a keyboard driver overrides these: tests/e2e/keyboard.py) --

    def press(self, locator: Any) -> None:
        """Press a button (or any control) as a person does: here, a click."""
        locator.click()

    def choose_speed(self, label: str) -> None:
        self.page.locator(".sk-board .sk-speed select").first.select_option(label=label)

    # -- reading the board --

    def board(self) -> Any:
        return self.page.locator(".sk-board")

    def wait_for_board(self) -> None:
        self.page.locator(BOARD_READY).wait_for()
        self.page.locator(".sk-board .jupyter-widgets.sk-log").wait_for()

    def log_text(self) -> str:
        return self.page.locator(".sk-board .jupyter-widgets.sk-log").inner_text()

    def status_text(self) -> str:
        return self.page.locator(BOARD_READY).inner_text()

    def cards_on_screen(self) -> list[str]:
        return self.page.evaluate(self.CARDS_JS)

    def shown_seed(self) -> int:
        """The seed the game-over box shows (as text: 128 bits do not fit a JS number)."""
        return int(self.page.locator(".sk-board .jupyter-widgets.sk-game-over .sk-seed").first.inner_text())

    def wait_for_seed(self, seed: int) -> None:
        """The board shows it deals `seed` (a chosen seed is shown from the start)."""
        self.page.wait_for_function(
            "(text) => { const s = document.querySelector('.sk-board .jupyter-widgets.sk-status');"
            " return s && s.innerText.includes(text); }",
            arg=f"seed {seed} ",
        )

    def explanation(self) -> str:
        return self.page.locator(".sk-board .jupyter-widgets.sk-explain").first.inner_text()

    def enabled(self, selector: str) -> bool:
        loc = self.page.locator(selector)
        return loc.count() > 0 and loc.first.is_visible() and loc.first.is_enabled()

    def wait_settled(self) -> None:
        """The kernel has answered every message this page sent (and sent all its updates)."""
        self.page.wait_for_function(
            "() => window.__skKernel && window.__skKernel.sent > 0 && window.__skKernel.pending.size === 0",
            timeout=self.turn_timeout,
        )

    def wait_turn_or_over(self, prev_log: str | None) -> str:
        handle = self.page.wait_for_function(TURN_OR_OVER_JS, arg=prev_log, timeout=self.turn_timeout)
        return handle.json_value()

    # -- setting up --

    def prepare(self) -> None:
        """Bots move at the fastest speed (they autoplay after each human move)."""
        speed = self.page.locator(".sk-board .sk-speed select")
        if speed.count() and speed.first.is_visible():
            self.choose_speed("instant")

    def turn_on_hints(self) -> None:
        toggle = self.page.locator(".sk-board .sk-hint-toggle")
        if (
            toggle.count()
            and toggle.first.is_visible()
            and "mod-active" not in (toggle.first.get_attribute("class") or "")
        ):
            self.press(toggle.first)
            self.page.locator(".sk-board .sk-hint-toggle.mod-active").wait_for()

    # -- playing --

    def take_turn(self) -> None:
        raise NotImplementedError

    def take_same_turn(self) -> None:
        """A move that depends only on what the board shows (so the same deal gets the same move)."""
        self.take_turn()

    def try_illegal(self) -> str:
        """Make one illegal action; return the explanation the board shows."""
        raise NotImplementedError

    def wait_illegal_explanation(self) -> str:
        box = self.page.locator(".sk-board .jupyter-widgets.sk-explain .sk-illegal").first
        box.wait_for()
        return box.inner_text()

    def play_pair_for_refusal(self, first: Any, second: Any) -> str:
        """Select two cards, press Play, read the refusal the board shows, then unselect."""
        self.click_card(first)
        self.click_card(second)
        self.press(self.page.locator(".sk-board .sk-play"))
        text = self.wait_illegal_explanation()
        self.unselect_all()
        return text

    def play_to_the_end(self) -> int:
        """Play as the human seat until the game-over summary shows; returns the action count."""
        state = self.wait_turn_or_over(None)
        while state != "over":
            if self.actions >= self.max_actions:
                raise AssertionError(f"{self.game}: no game over after {self.actions} actions")
            before = self.log_text()
            self.take_turn()
            self.actions += 1
            state = self.wait_after_action(before)
        return self.actions

    def wait_after_action(self, before: str) -> str:
        """The next turn or the end; an illegal verdict instead means the driver misplayed."""
        illegal = self.page.locator(".sk-board .jupyter-widgets.sk-explain .sk-illegal")
        try:
            return self.wait_turn_or_over(before)
        except Exception as error:
            if illegal.count():
                message = f"{self.game}: the board refused a driver move: {illegal.first.inner_text()}"
                raise AssertionError(message) from error
            raise

    def click_card(self, locator: Any) -> None:
        """Toggle a card and wait until the board shows it selected."""
        if locator.count() == 0:
            raise AssertionError(f"{self.game}: the driver found no card to click ({locator})")
        self.press(locator)
        locator.and_(self.page.locator(".mod-active")).wait_for()

    def unselect_all(self) -> None:
        selected = self.page.locator(".sk-board .sk-handcard.mod-active")
        count = selected.count()
        while count:
            self.press(selected.first)
            self.page.wait_for_function(
                "(n) => document.querySelectorAll('.sk-board .sk-handcard.mod-active').length < n", arg=count
            )
            count = selected.count()


class TooSlothDriver(Driver):
    """Pass whenever passing is allowed (taking the first end card offered, TS-6); when leading,
    play the lowest running card as a Single. At a round's end, step through it as a person does:
    the play that ended it, its results, the next deal (``sk-ts-continue``)."""

    game = "too-sloth-to-win"
    CONTINUE = ".sk-board .sk-ts-continue"
    # 'round-end' when the board waits for the player to step through a round's end, else the
    # shared answer (a turn or the game's end)
    ROUND_END_OR_TURN_JS = (
        "(prev) => { const kernel = window.__skKernel;"
        " if (!kernel || kernel.sent === 0 || kernel.pending.size > 0) return false;"
        " const b = document.querySelector('.sk-board .sk-ts-continue');"
        " if (b && b.offsetParent !== null) return 'round-end';"
        f" return ({TURN_OR_OVER_JS.strip()})(prev); }}"
    )

    def wait_turn_or_over(self, prev_log: str | None) -> str:
        for _ in range(20):  # a few round ends at most, two steps each
            handle = self.page.wait_for_function(self.ROUND_END_OR_TURN_JS, arg=prev_log, timeout=self.turn_timeout)
            state = handle.json_value()
            if state != "round-end":
                return state
            self.page.locator(self.CONTINUE).click()
            self.wait_settled()
            prev_log = None  # the log moved on with the round's end
        raise AssertionError(f"{self.game}: the round's end never gave way to a turn")

    def take_turn(self) -> None:
        if self.enabled(".sk-board .sk-pass"):
            takes = self.page.locator(".sk-board .sk-take button")
            if takes.count() and takes.first.is_visible():  # a pass that must take an end card (TS-6)
                self.press(takes.first)
                self.page.locator(".sk-board .sk-take button.mod-active").wait_for()
            self.press(self.page.locator(".sk-board .sk-pass"))
            return
        self.click_card(self.page.locator(".sk-board .sk-handcard:not(.sk-f-ts-D):enabled").first)
        self.press(self.page.locator(".sk-board .sk-play"))

    def try_illegal(self) -> str:
        # Two running cards that are neither a Jump (a pair) nor a Run: the lowest and the highest.
        cards = self.page.locator(".sk-board .sk-handcard:not(.sk-f-ts-D):enabled")
        return self.play_pair_for_refusal(cards.first, cards.last)


class RaceDriver(Driver):
    """Pass when allowed (then refill without pitching); when leading, play one natural card."""

    game = "race-to-the-bottom"

    def take_turn(self) -> None:
        if self.enabled(".sk-board .sk-pitch"):
            self.press(self.page.locator(".sk-board .sk-pitch"))
        elif self.enabled(".sk-board .sk-pass"):
            self.press(self.page.locator(".sk-board .sk-pass"))
        else:
            self.click_card(self.page.locator(".sk-board .sk-handcard:not(.sk-f-rb-joker):enabled").first)
            self.press(self.page.locator(".sk-board .sk-play"))

    RANKS = "23456789TJQKA"  # in order; A and 2 are neighbours too (a Run of 2 may wrap: A 2)

    def try_illegal(self) -> str:
        # Two cards of ranks that are neither equal nor neighbours are no meld (RB-2): the lowest
        # natural card and the first card whose rank is at least two steps away from it, both ways.
        natural = ".sk-board .sk-handcard:not(.sk-f-rb-joker):enabled"
        faces = [c.removeprefix("sk-f-rb-") for c in self.cards_on_screen() if c != "sk-f-rb-joker"]
        low = self.RANKS.index(faces[0])
        far = next(f for f in faces if min((self.RANKS.index(f) - low) % 13, (low - self.RANKS.index(f)) % 13) >= 2)
        cards = self.page.locator(natural)
        return self.play_pair_for_refusal(cards.first, self.page.locator(f".sk-board .sk-handcard.sk-f-rb-{far}").first)


class SurplusDriver(Driver):
    """Pick the first card; draft the first legal River card (the board's hints); keep on a Baby."""

    game = "surplus-of-sloths"
    HAND = ".sk-board .sk-hand-box:not(.sk-river) .sk-handcard:enabled"
    TAKE = ".sk-board .sk-river .sk-handcard.sk-hint:enabled"

    def prepare(self) -> None:
        super().prepare()
        self.turn_on_hints()

    def take_turn(self) -> None:
        if self.enabled(".sk-board .sk-keep"):
            self.press(self.page.locator(".sk-board .sk-keep"))
            return
        hand = self.page.locator(self.HAND)
        if hand.count():
            self.click_card(hand.first)
        else:
            self.click_card(self.page.locator(self.TAKE).first)
        self.press(self.page.locator(".sk-board .sk-play"))

    # A finished game's reveal goes type by type: the results (and the game-over panel) come after
    # its last step, so a game's end shows first as an enabled "Next type" button.
    REVEAL_JS = (
        """
    (prev) => {
      const kernel = window.__skKernel;
      if (!kernel || kernel.sent === 0 || kernel.pending.size > 0) return false;
      const next = document.querySelector('.sk-board .sk-reveal-next');
      if (next && next.offsetParent !== null && !next.disabled) return 'reveal';
      return ("""
        + TURN_OR_OVER_JS.strip()
        + """)(prev);
    }
    """
    )

    def wait_turn_or_over(self, prev_log: str | None) -> str:
        """The next turn or the end; a reveal on the way is stepped through with "Next type"."""
        while True:
            handle = self.page.wait_for_function(self.REVEAL_JS, arg=prev_log, timeout=self.turn_timeout)
            state = handle.json_value()
            if state != "reveal":
                return state
            self.page.locator(".sk-board .sk-reveal-next").click()
            prev_log = None  # the log grows with each step; the next game (in a match) may follow

    def try_illegal(self) -> str:
        # Nothing chosen: the board refuses "Take"/"Put" with nothing selected.
        self.press(self.page.locator(".sk-board .sk-play"))
        return self.wait_illegal_explanation()


class SprintDriver(Driver):
    """Drag the cut point on the pile (no numbers shown), press Lift here, then turn the Hare card
    (each lift's Hare card, the bots' too, stays face down until someone turns it)."""

    game = "sprint"

    # Like TURN_OR_OVER_JS, and 'hare' once the kernel is idle with a Hare card face down.
    HARE_OR_TURN_JS = (
        "(prev) => { const kernel = window.__skKernel;"
        " if (!kernel || kernel.sent === 0 || kernel.pending.size > 0) return false;"
        " const hare = document.querySelector('.sk-board .sk-hare-turn');"
        " if (hare && hare.offsetParent !== null && !hare.disabled) return 'hare';"
        f" return ({TURN_OR_OVER_JS.strip()})(prev); }}"
    )

    # The slider value that puts the cut across the middle of the pile, read off the pile's picture
    # (the pile sits at another height in the slider's frame every turn; the slider's track starts
    # and ends 12 px inside its box, as SprintBoard assumes).
    MIDDLE_JS = """() => {
        const svg = document.querySelector('.sk-board .sk-pile svg');
        const body = svg.querySelector('.sk-pile-body');
        const total = svg.viewBox.baseVal.height;
        const middle = body.y.baseVal.value + body.height.baseVal.value / 2;
        return 1 - (middle - 12) / (total - 24);
    }"""

    def wait_turn_or_over(self, prev_log: str | None) -> str:
        while True:
            handle = self.page.wait_for_function(self.HARE_OR_TURN_JS, arg=prev_log, timeout=self.turn_timeout)
            state = handle.json_value()
            if state != "hare":
                return state
            self.turn_hare_card()
            prev_log = None  # the log moved on with the card

    def turn_hare_card(self) -> None:
        self.page.locator(".sk-board .sk-hare-turn").click()
        self.wait_settled()  # the next Hare card (a bot's lift) may be face down again at once

    def drag_cut(self, fraction_from_top: float) -> None:
        """Drag the slider handle to `fraction_from_top` of the slider's height, like a hand would."""
        page = self.page
        handle = page.locator(".sk-board .sk-lift-cut .noUi-handle").first
        track = page.locator(".sk-board .sk-lift-cut .noUi-base").first
        pile_before = page.locator(".sk-board .sk-pile").inner_html()
        hbox, tbox = handle.bounding_box(), track.bounding_box()
        origin = page.locator(".sk-board .sk-lift-cut .noUi-origin").first
        before = origin.get_attribute("style")  # the handle moved (its words say only a coarse band, SP-7)
        x, y = hbox["x"] + hbox["width"] / 2, hbox["y"] + hbox["height"] / 2
        target = tbox["y"] + max(0.0, min(1.0, fraction_from_top)) * tbox["height"]
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x, target, steps=8)
        page.mouse.up()
        if origin.get_attribute("style") != before:  # the kernel redraws the pile with the new cut line
            page.wait_for_function(
                "(before) => { const p = document.querySelector('.sk-board .sk-pile');"
                " return p && p.innerHTML !== before; }",
                arg=pile_before,
            )

    def step_cut(self, way: str, times: int) -> None:
        """Press Cut higher (`way` "up") or Cut lower ("down") `times` times, each answered before the next."""
        button = self.page.locator(f".sk-board .sk-cut-{way}")
        for _ in range(times):
            pile_before = self.page.locator(".sk-board .sk-pile").inner_html()
            self.press(button)
            self.page.wait_for_function(
                "(before) => { const p = document.querySelector('.sk-board .sk-pile');"
                " return p && p.innerHTML !== before; }",
                arg=pile_before,
            )

    def take_turn(self) -> None:
        if self.page.locator(".sk-board .sk-lift-cut .noUi-handle").first.is_visible():  # the light template
            self.drag_cut(0.35 + 0.1 * (self.actions % 3))
        else:  # the stock template and JupyterLab show no slider: the buttons move the cut
            self.step_cut("down", 1 + self.actions % 3)
        self.press(self.page.locator(".sk-board .sk-lift"))

    def set_cut_model(self, value: float) -> None:
        found = self.page.evaluate(
            """async (value) => {
                const manager = window.slothVoila.manager;
                for (const promise of Object.values(manager._models)) {
                    const model = await promise;
                    if ((model.get('_dom_classes') || []).includes('sk-lift-cut')) {
                        model.set('value', value);
                        model.save_changes();
                        return true;
                    }
                }
                return false;
            }""",
            value,
        )
        assert found, "no lift cut slider on the page"
        self.wait_settled()

    def take_same_turn(self) -> None:
        # A drag lands on a pixel, and the pile's height and place change from game to game and turn
        # to turn: set the cut through its widget model instead (what an exact drag to the middle of
        # the pile would do).
        self.set_cut_model(self.page.evaluate(self.MIDDLE_JS))
        self.press(self.page.locator(".sk-board .sk-lift"))

    def try_illegal(self) -> str:
        # Every cut is a legal lift (the engine holds it to 1 to 31 cards, SP-4, SP-7): the refusal to
        # see is a lift forged while the last lift's Hare card is still face down.
        self.take_turn()
        self.page.locator(".sk-board .sk-hare-turn").wait_for()
        self.wait_settled()
        found = self.page.evaluate(
            """async () => {
                const manager = window.slothVoila.manager;
                for (const promise of Object.values(manager._models)) {
                    const model = await promise;
                    if ((model.get('_dom_classes') || []).includes('sk-lift')) {
                        model.send({event: 'click'}, {});
                        return true;
                    }
                }
                return false;
            }"""
        )
        assert found, "no Lift here button on the page"
        return self.wait_illegal_explanation()


DRIVERS: dict[str, type[Driver]] = {
    "too-sloth-to-win": TooSlothDriver,
    "race-to-the-bottom": RaceDriver,
    "surplus-of-sloths": SurplusDriver,
    "sprint": SprintDriver,
}
