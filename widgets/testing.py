"""Helpers for driving boards without a browser (used by tests/test_widgets_*.py).

They look widgets up by their stable CSS classes, the same handles browser tests use.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from typing import Any

import ipywidgets as widgets


def walk(widget: widgets.Widget, *, visible_only: bool = False) -> Iterator[widgets.Widget]:
    """Every widget under `widget` (itself included), skipping hidden boxes if asked."""
    layout = getattr(widget, "layout", None)
    if visible_only and layout is not None and layout.display == "none":
        return
    yield widget
    for child in getattr(widget, "children", ()):
        yield from walk(child, visible_only=visible_only)


def find_all(board: widgets.Widget, css: str) -> list[widgets.Widget]:
    return [w for w in walk(board) if css in getattr(w, "_dom_classes", ())]


def find(board: widgets.Widget, css: str) -> Any:
    """The one widget carrying CSS class `css`."""
    found = find_all(board, css)
    if len(found) != 1:
        raise LookupError(f"{len(found)} widgets carry class {css!r}")
    return found[0]


def visible_text(board: widgets.Widget) -> str:
    """What a person could read: visible HTML as text, plus visible buttons' labels and tooltips."""
    parts = []
    for w in walk(board, visible_only=True):
        if isinstance(w, widgets.HTML):
            body = re.sub(r"<style>.*?</style>", " ", w.value, flags=re.S)
            body = re.sub(r"<title>(.*?)</title>", r" \1 ", body)
            body = re.sub(r'<span[^>]*role="img"[^>]*aria-label="([^"]*)"[^>]*>', r" \1 ", body)  # a named picture
            parts.append(html.unescape(re.sub(r"<[^>]+>", " ", body)))
        elif isinstance(w, (widgets.Button, widgets.ToggleButton)):
            parts.append(f"{w.description} {w.tooltip or ''}")
    return re.sub(r"\s+", " ", " ".join(parts))


def hand_buttons(board: Any) -> list[widgets.ToggleButton]:
    """The card buttons of the player's hand, in hand order ([] when the hand is not on screen)."""
    on_screen = any(w is board.hand for w in walk(board, visible_only=True))
    return list(board.hand.buttons) if on_screen else []


def select_cards(board: Any, keys: list[str]) -> None:
    """Toggle on one hand card per key (a key is the card's notation), in this order."""
    cards = board.hand.cards
    taken: set[int] = set()
    buttons = hand_buttons(board)
    for key in keys:
        index = next(i for i, c in enumerate(cards) if c.key == key and i not in taken and not buttons[i].value)
        taken.add(index)
        buttons[index].value = True
