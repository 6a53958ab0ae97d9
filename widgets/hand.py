"""The selectable hand: :class:`CardHand`, a row of toggle buttons drawn as cards (:class:`HandCard`)."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import ipywidgets as widgets
import traitlets
from ipywidgets.widgets.widget_bool import ToggleButtonStyle


@dataclass(frozen=True)
class HandCard:
    """One card in the hand: `key` is its notation, `face` the CSS class drawing it."""

    key: str
    face: str
    label: str
    group_start: bool = False  # first card of a group (a little gap before it)


class CardHand(widgets.HBox):
    """A hand of ToggleButtons drawn as cards. ``selected`` holds indices in click order.

    A button keeps the card it shows while that card stays in the hand: when cards leave or
    arrive, the buttons are only reordered (one message to the page), not redrawn one by one.
    """

    selected = traitlets.Tuple()
    # the Box's children trait (a tuple), declared for mypy: ipywidgets is untyped
    children: tuple[Any, ...]

    def __init__(self, *, single: bool = False) -> None:
        super().__init__()
        self.add_class("sk-hand-box")
        self.single = single  # at most one card selected (the latest click wins)
        self._cards: tuple[HandCard, ...] = ()
        self._pool: list[widgets.ToggleButton] = []
        self._showing: list[HandCard | None] = []  # per pool button: the card it shows
        self._order: list[int] = []  # per card of the hand: the pool button showing it
        self._syncing = False
        # one size and one style for every card (a new card's button is one message, not three)
        self._card_layout = widgets.Layout(width="56px", height="80px")
        self._card_style = ToggleButtonStyle()

    @traitlets.validate("selected")
    def _valid_selection(self, proposal: dict[str, Any]) -> tuple[int, ...]:
        """Drop indices that no longer name a card (a stale or forged selection)."""
        seen: list[int] = []
        for index in proposal["value"]:
            if isinstance(index, int) and 0 <= index < len(self._cards) and index not in seen:
                seen.append(index)
        return tuple(seen)

    @property
    def cards(self) -> tuple[HandCard, ...]:
        return self._cards

    @property
    def selected_keys(self) -> list[str]:
        return [self._cards[i].key for i in self.selected if 0 <= i < len(self._cards)]

    @property
    def buttons(self) -> list[widgets.ToggleButton]:
        """The buttons of the hand's cards, in hand order."""
        return [self._pool[b] for b in self._order]

    def _assign(self, cards: tuple[HandCard, ...]) -> list[int]:
        """A pool button per card: the one already showing that card where there is one."""
        free: dict[tuple[str, str, str], list[int]] = {}
        for b, shown in enumerate(self._showing):
            if shown is not None:
                free.setdefault((shown.key, shown.face, shown.label), []).append(b)
        order: list[int | None] = []
        for card in cards:
            same = free.get((card.key, card.face, card.label))
            order.append(same.pop(0) if same else None)
        taken = {b for b in order if b is not None}
        spare = iter(b for b in range(len(self._pool)) if b not in taken)
        result: list[int] = []
        for kept in order:
            b = kept if kept is not None else next(spare, len(self._pool))
            if b == len(self._pool):  # a new button
                button = widgets.ToggleButton(layout=self._card_layout, style=self._card_style)
                button.observe(functools.partial(self._on_toggle, b), "value")
                self._pool.append(button)
                self._showing.append(None)
            result.append(b)
        return result

    def show(
        self,
        cards: Sequence[HandCard],
        *,
        hinted: Sequence[bool] = (),
        enabled: bool = True,
        faded: Sequence[bool] = (),
    ) -> None:
        cards = tuple(cards)
        if cards != self._cards:
            self._cards = cards
            self.selected = ()
            self._order = self._assign(cards)
        self._syncing = True
        try:
            with contextlib.ExitStack() as held:  # a button's changes go to the page as one update
                for button in self._pool:
                    held.enter_context(button.hold_sync())
                self._show_buttons(cards, hinted, enabled, faded)
        finally:
            self._syncing = False
        children = tuple(self._pool[b] for b in self._order)
        if self.children != children:
            self.children = children

    def _show_buttons(
        self, cards: tuple[HandCard, ...], hinted: Sequence[bool], enabled: bool, faded: Sequence[bool]
    ) -> None:
        """Each card's button: its face, hint, name and state (the pool's spare buttons forget theirs)."""
        in_hand = set(self._order)
        for b, button in enumerate(self._pool):
            if b not in in_hand and self._showing[b] is not None:  # unused: forget its card (no peeking)
                button.value = False
                button.tooltip = ""
                button._dom_classes = ("sk-card", "sk-handcard")
                self._showing[b] = None
        for index, (card, b) in enumerate(zip(cards, self._order, strict=True)):
            button = self._pool[b]
            self._showing[b] = card
            classes = ["sk-card", "sk-handcard", card.face]
            if index < len(hinted) and hinted[index]:
                classes.append("sk-hint")
            if card.group_start and index:
                classes.append("sk-group-start")
            if index < len(faded) and faded[index]:
                classes.append("sk-faded")
            if list(button._dom_classes) != classes:
                button._dom_classes = tuple(classes)
            button.tooltip = card.label
            button.description = ""
            button.disabled = not enabled
            button.value = index in self.selected

    def clear(self) -> None:
        self.selected = ()
        self._syncing = True
        try:
            for button in self._pool:
                if button.value:
                    button.value = False
        finally:
            self._syncing = False

    def _on_toggle(self, button_index: int, change: dict[str, Any]) -> None:
        if self._syncing or button_index not in self._order:
            return
        index = self._order.index(button_index)
        chosen = [i for i in self.selected if i != index]
        if change["new"]:
            chosen = [index] if self.single else chosen + [index]
        self.selected = tuple(chosen)
        if self.single:
            self._syncing = True
            try:
                for position, b in enumerate(self._order):
                    button = self._pool[b]
                    if button.value != (position in self.selected):
                        button.value = position in self.selected
            finally:
                self._syncing = False
