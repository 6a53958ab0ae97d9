"""Forging a page's messages in the kernel, and comparing what pages hold (tests only).

A page's front end talks to its kernel in widget messages only: an update of a widget's state
(``{"method": "update", "state": {...}}``) or a custom message (a button's click). Anyone at the
page can send any of them (``window.slothVoila.manager`` makes it a console one-liner), hidden
widgets and disabled buttons included. :func:`forge` sends one exactly as the page would, through
the widget's comm, so the board's own message reader handles it.

:func:`page_states` is everything the page holds: the state of every widget under the page (with
its layout and style), as ``get_state`` gives it to the browser, flattened to ``(position, key) ->
value`` with model ids and the session's random token taken out. :func:`leaks` compares two
worlds against a control pair of the same world.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import secrets
from collections.abc import Callable, Iterator
from typing import Any

import ipywidgets as widgets
from sloth_widgets.tree import widget_family

Flat = dict[tuple[int, str], str]
MODEL_ID = re.compile(r"IPY_MODEL_[0-9a-f]+")


@contextlib.contextmanager
def same_page_luck(seed: int) -> Iterator[None]:
    """Pages opened in this block draw their own randomness (``secrets``) from `seed`, afresh each time.

    A page's luck comes from ``secrets`` and never from the deal. Its draws differ from page to page,
    and a start cut can be equal on two pages by chance (one of 41 values). The control pair then
    looks quiet where the twin differs, and that would count as a leak. With the same luck on every
    page, the same world gives the same page."""
    rng = random.Random(seed)
    saved = secrets.randbits, secrets.token_hex
    secrets.randbits = rng.getrandbits  # type: ignore[assignment]
    secrets.token_hex = lambda nbytes=None: rng.randbytes(nbytes or 32).hex()  # type: ignore[assignment]
    try:
        yield
    finally:
        secrets.randbits, secrets.token_hex = saved  # type: ignore[assignment]


def forge(widget: Any, data: dict[str, Any]) -> None:
    """Send `data` to `widget` as its page would (through the comm, to whoever reads it)."""
    comm = widget.comm
    assert comm is not None, "a widget without a comm takes no page messages"
    comm.handle_msg({"content": {"comm_id": comm.comm_id, "data": data}, "buffers": []})


def forge_update(widget: Any, **state: Any) -> None:
    forge(widget, {"method": "update", "state": state})


def forge_click(button: Any) -> None:
    forge(button, {"method": "custom", "content": {"event": "click"}})


def page_states(root: Any, tokens: tuple[str, ...] = ()) -> Flat:
    """Every widget state under `root`, flattened; model ids and `tokens` (a session's random
    name) replaced, so that two pages of the same world compare equal but for their own randomness."""
    flat: Flat = {}
    for position, widget in enumerate(widget_family(root)):
        if not isinstance(widget, widgets.Widget):
            continue
        for key, value in widget.get_state().items():
            text = MODEL_ID.sub("M", json.dumps(value, sort_keys=True, default=str))
            for token in tokens:
                if token:
                    text = text.replace(token, "TOKEN")
            flat[(position, f"{type(widget).__name__}.{key}")] = text
    return flat


class Wire:
    """What the kernel sends to the page while it is open (``with Wire() as wire``): every new
    widget's state and every update, as the browser receives them. ``take()`` returns what was sent
    since the last call, flattened as :func:`page_states` does (the widgets numbered in the order
    they first appear), so two pages' wires compare step by step."""

    def __init__(self, tokens: tuple[str, ...] = ()) -> None:
        self.tokens = tokens
        self.sent: list[tuple[int, str]] = []
        self.numbers: dict[int, int] = {}
        self._undo: list[tuple[str, Any]] = []

    def _number(self, widget: Any) -> int:
        return self.numbers.setdefault(id(widget), len(self.numbers))

    def _text(self, value: Any) -> str:
        text = MODEL_ID.sub("M", json.dumps(value, sort_keys=True, default=str))
        for token in self.tokens:
            if token:
                text = text.replace(token, "TOKEN")
        return text

    def __enter__(self) -> Wire:
        wire, send, open_ = self, widgets.Widget._send, widgets.Widget.open

        def sending(widget: Any, msg: Any, buffers: Any = None) -> Any:
            wire.sent.append((wire._number(widget), wire._text(msg)))
            return send(widget, msg, buffers)

        def opening(widget: Any) -> Any:
            result = open_(widget)
            wire.sent.append((wire._number(widget), "open " + wire._text(widget.get_state())))
            return result

        self._undo = [("_send", send), ("open", open_)]
        widgets.Widget._send = sending  # type: ignore[method-assign]
        widgets.Widget.open = opening  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        for name, original in self._undo:
            setattr(widgets.Widget, name, original)

    def take(self) -> Flat:
        flat = {(number, f"message {index}"): text for index, (number, text) in enumerate(self.sent)}
        self.sent = []
        return flat


def differences(one: Flat, other: Flat) -> set[tuple[int, str]]:
    return {key for key in one.keys() | other.keys() if one.get(key) != other.get(key)}


def leaks(real: list[Flat], control: list[Flat], twin: list[Flat]) -> list[str]:
    """Where the twin world's page differs from the real one's while the control (the real world
    again) does not: a difference only hidden information can make. One line per place found."""
    found = []
    assert len(real) == len(control), "the control page took another number of steps"
    if len(twin) != len(real):
        return [f"the twin page took {len(twin)} steps, the real one {len(real)}"]
    for step, (one, again, other) in enumerate(zip(real, control, twin, strict=True)):
        noise = differences(one, again)
        found.extend(
            f"step {step}, widget {key}: {one.get(key)!r:.160} / {other.get(key)!r:.160}"
            for key in sorted(differences(one, other) - noise)
        )
    return found


def handled_buttons(root: Any) -> list[Any]:
    return [w for w in widget_family(root) if isinstance(w, widgets.Button) and w._click_handlers.callbacks]


def value_widgets(root: Any) -> list[Any]:
    """Widgets whose value a page may set and the kernel watches (toggles, dropdowns, texts, sliders)."""
    kinds = (widgets.ToggleButton, widgets.Dropdown, widgets.Text, widgets.FloatSlider, widgets.IntSlider)
    return [w for w in widget_family(root) if isinstance(w, kinds) and not isinstance(w, widgets.Play)]


def forged_inputs(root: Any, *, skip: Callable[[Any], bool], moves: list[str]) -> Iterator[str]:
    """Send every forged selection, click and value the page's widgets take, one at a time
    (yielding a name for each): each control set to each value it offers (and to nothing), each
    text box to each of `moves`, then each button clicked; and each hand card selected with every
    button clicked after it. Widgets that `skip` names are left alone (bots' pacing, for one)."""
    rng = random.Random(7)
    for widget in value_widgets(root):
        if skip(widget):
            continue
        if isinstance(widget, widgets.ToggleButton):
            if "sk-handcard" in widget._dom_classes:
                continue  # below, with the buttons
            for value in (True, False):
                forge_update(widget, value=value)
                yield f"{widget.description or widget._dom_classes} = {value}"
        elif isinstance(widget, widgets.Dropdown):
            for index in [*range(len(widget.options)), None]:
                forge_update(widget, index=index)
                yield f"{widget.description} index {index}"
        elif isinstance(widget, widgets.Text):
            asked = [w for w in widget_family(root) if "sk-ask-seat" in getattr(w, "_dom_classes", ())]
            buttons = [b for b in handled_buttons(root) if "sk-ask" in b._dom_classes]
            for move in moves:
                forge_update(widget, value=move)
                for seats in asked:  # Ask why about each seat the question offers
                    for index in range(len(seats.options)):
                        forge_update(seats, index=index)
                        for button in buttons:
                            forge_click(button)
                        yield f"{widget._dom_classes} = {move!r}, asked about {seats.options[index]}"
        else:
            for value in (0.0, 0.5, 1.0, rng.random()):
                forge_update(widget, value=round(value * (widget.max - widget.min) + widget.min, 2))
                yield f"{widget._dom_classes} = {value}"
    for button in handled_buttons(root):
        if not skip(button):
            forge_click(button)
            yield f"click {button.description or button._dom_classes}"
    board = next((w for w in widget_family(root) if hasattr(w, "hand") and hasattr(w, "session")), None)
    if board is None:
        return
    for index in range(len(board.hand.buttons)):
        card = board.hand.buttons[index]
        forge_update(card, value=True)
        yield f"select card {index}"
        for button in handled_buttons(board._controls) + handled_buttons(board._table_area):
            if not skip(button):
                forge_click(button)
                yield f"card {index}, click {button.description}"
        if index < len(board.hand.buttons):
            forge_update(board.hand.buttons[index], value=False)
