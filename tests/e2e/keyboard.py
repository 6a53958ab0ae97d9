"""Playing a board with the keyboard alone: Tab and Shift+Tab move focus, Enter or Space acts,
arrow keys move within a hand of cards (the light template's roving focus, widgets/frontend).

A :class:`KeyboardPlay` driver is one of drivers.py's game drivers whose every press is a walk
of the Tab order to the control followed by a key: no click, no programmatic focus. Each control
it acts on must show that it has focus (an outline or a box shadow that is not "none").
"""

from __future__ import annotations

from typing import Any

from drivers import DRIVERS, Driver

# Where the focus is, and whether a person can see it: the focused element's outline, its box
# shadow, and (for a control drawn by a child element) the nearest such style up to the board.
FOCUS_JS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const style = getComputedStyle(el);
  const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
  const shadow = style.boxShadow && style.boxShadow !== 'none';
  const name = el.tagName.toLowerCase() + (el.className && typeof el.className === 'string'
      ? '.' + el.className.trim().split(/\\s+/).slice(0, 4).join('.') : '');
  return { name, visible: !!(outline || shadow), outline: `${style.outlineStyle} ${style.outlineWidth}`,
           shadow: style.boxShadow };
}"""

IS_FOCUSED_JS = "(el) => el === document.activeElement || el.contains(document.activeElement)"


class KeyboardPlay:
    """Mixed in before a game driver: its presses become keyboard walks."""

    page: Any
    max_tabs = 250  # more than every stop of a board, twice over
    focus_problems: list[str]

    def focused(self) -> dict[str, Any] | None:
        return self.page.evaluate(FOCUS_JS)

    def check_focus_visible(self) -> None:
        info = self.focused()
        if info is None:
            raise AssertionError("the keyboard focus is on no element")
        if not info["visible"]:
            problem = f"focus not visible on {info['name']} (outline {info['outline']}, box-shadow {info['shadow']})"
            if problem not in self.focus_problems:
                self.focus_problems.append(problem)

    def tab_to(self, locator: Any) -> None:
        """Move the focus to `locator` with Tab (or Shift+Tab when Tab went past it), then arrows
        when it is a card in a hand whose one Tab stop is another card."""
        target = locator.first
        target.wait_for(state="visible")
        if target.evaluate(IS_FOCUSED_JS):
            return
        for key in ("Tab", "Shift+Tab"):
            for _ in range(self.max_tabs):
                self.page.keyboard.press(key)
                if target.evaluate(IS_FOCUSED_JS):
                    return
                if self.in_same_hand(target):
                    self.arrow_to(target)
                    return
        raise AssertionError(f"the Tab order never reaches {target}")

    def in_same_hand(self, target: Any) -> bool:
        """The focus is on a card of the hand `target` is in (a hand is one Tab stop)."""
        return bool(
            target.evaluate(
                """(el) => { const hand = el.closest('.sk-hand-box'); const f = document.activeElement;
                   return !!(hand && f && f !== el && f.classList.contains('sk-handcard')
                             && f.closest('.sk-hand-box') === hand); }"""
            )
        )

    def arrow_to(self, target: Any) -> None:
        count = target.evaluate("(el) => el.closest('.sk-hand-box').querySelectorAll('.sk-handcard').length")
        for _ in range(count + 1):
            if target.evaluate(IS_FOCUSED_JS):
                return
            self.page.keyboard.press("ArrowRight")
        raise AssertionError(f"the arrow keys never reach {target} in its hand")

    def press(self, locator: Any) -> None:
        self.tab_to(locator)
        self.check_focus_visible()
        tag = locator.first.evaluate("(el) => el.tagName")
        self.page.keyboard.press("Space" if tag == "BUTTON" and self.presses % 2 else "Enter")
        self.presses += 1

    def choose_speed(self, label: str) -> None:
        select = self.page.locator(".sk-board .sk-speed select").first
        self.tab_to(select)
        self.check_focus_visible()
        labels = select.evaluate("(el) => Array.from(el.options, (o) => o.textContent.trim())")
        wanted = labels.index(label)
        for _ in range(len(labels)):
            now = select.evaluate("(el) => el.selectedIndex")
            if now == wanted:
                break
            self.page.keyboard.press("ArrowDown" if now < wanted else "ArrowUp")
        assert select.evaluate("(el) => el.selectedIndex") == wanted, f"the keyboard could not choose {label!r}"


class KeyboardSprint(KeyboardPlay):
    """Sprint!'s cut: on the light template a slider (focus its handle, Home for the bottom, then
    PageUp steps up); elsewhere the Cut lower button, pressed with Enter."""

    def set_cut(self, steps_up: int) -> None:
        handle = self.page.locator(".sk-board .sk-lift-cut .noUi-handle").first
        self.tab_to(handle)
        self.check_focus_visible()
        self.page.keyboard.press("Home")
        for _ in range(steps_up):
            self.page.keyboard.press("PageUp")

    def take_turn(self) -> None:
        if self.page.locator(".sk-board .sk-lift-cut .noUi-handle").first.is_visible():  # the light template
            self.set_cut(40 + 10 * (self.actions % 3))  # type: ignore[attr-defined]
            self.wait_settled()  # type: ignore[attr-defined]
        else:  # the stock template shows Cut higher and Cut lower only (its slider handle has no name)
            self.step_cut("down", 1 + self.actions % 3)  # type: ignore[attr-defined]
        self.press(self.page.locator(".sk-board .sk-lift"))


def keyboard_driver(game: str, page: Any) -> Driver:
    """The game's driver, playing with the keyboard alone."""
    base = DRIVERS[game]
    mixins: tuple[type, ...] = (KeyboardSprint,) if game == "sprint" else (KeyboardPlay,)
    cls = type(f"Keyboard{base.__name__}", (*mixins, base), {})
    driver = cls(page)
    driver.presses = 0
    driver.focus_problems = []
    return driver
