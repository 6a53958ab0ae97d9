"""Walking a widget tree: every widget under a root with its layout and style
(:func:`widget_family`), and holding their updates so each goes to the page once
(:func:`one_update_each`)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import ipywidgets as widgets


def widget_family(root: widgets.Widget) -> list[Any]:
    """`root` and every widget under it, each followed by its layout and style, in page order."""
    family: list[Any] = []
    stack: list[Any] = [root]
    seen: set[int] = set()
    while stack:
        widget = stack.pop()
        if id(widget) in seen:
            continue
        seen.add(id(widget))
        family.append(widget)
        parts = [getattr(widget, "layout", None), getattr(widget, "style", None)]
        stack.extend(reversed([*(getattr(widget, "children", ()) or ()), *(p for p in parts if p is not None)]))
    return family


@contextlib.contextmanager
def one_update_each(root: widgets.Widget) -> Iterator[None]:
    """Inside this block, each widget under `root` (with its layout and style) keeps its changes
    and sends them as one update when the block ends, in page order, instead of one message per
    changed property: a move's redraw reaches the page in fewer, whole pieces. (A widget created
    inside the block is sent whole when created, before any update that shows it.) Inside an
    outer block for the same root (a render within an action), nothing more is walked or held."""
    if root._holding_sync:
        yield
        return
    with contextlib.ExitStack() as stack:
        for widget in reversed(widget_family(root)):  # the last entered is the first to send
            stack.enter_context(widget.hold_sync())
        yield
