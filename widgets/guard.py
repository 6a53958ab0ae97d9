"""The message guard: a page's widget messages are read here, and a malformed or forged one is
refused with a sentence, its traceback going to the server's log, never to the page."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Sequence
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

import ipywidgets as widgets
from ipywidgets.widgets.widget import _put_buffers
from ipywidgets.widgets.widget_selection import _Selection
from sloth_widgets import safety


def read_widget_message(widget: Any, msg: Any) -> None:
    """Apply a page's message to ``widget`` as ipywidgets does (an update of its state, a request
    for it, or a custom message such as a button's click), letting every error rise.

    ipywidgets' ``Widget._handle_msg`` and its callback dispatchers catch an error and send its
    traceback to the page; this reads the same message shapes and calls the same callbacks, so the
    caller decides what a failure shows (a short sentence) and where its traceback goes (the log).
    """
    data = msg["content"]["data"]
    if not isinstance(data, dict):
        raise TypeError(f"a widget message's data must be a mapping, not {type(data).__name__}")
    method = data.get("method")
    if method == "update":
        if "state" in data:
            state = data["state"]
            if not isinstance(state, dict):
                raise TypeError(f"a widget update's state must be a mapping, not {type(state).__name__}")
            if "buffer_paths" in data:
                _put_buffers(state, data["buffer_paths"], msg.get("buffers") or [])
            if (
                isinstance(widget, _Selection)
                and "index" in state
                and state["index"] is None
                and widget.index is not None
            ):
                raise ValueError("a page may choose another of a list's options, but not empty the choice")
            widget.set_state(state)
    elif method == "request_state":
        widget.send_state()
    elif method == "custom":
        if "content" in data:
            content, buffers = data["content"], msg.get("buffers") or []
            for callback in list(widget._msg_callbacks.callbacks):
                if getattr(callback, "__func__", None) is widgets.Button._handle_button_msg:
                    if isinstance(content, dict) and content.get("event") == "click":
                        for handler in list(widget._click_handlers.callbacks):
                            handler(widget)
                else:
                    callback(widget, content, buffers)
    else:
        raise ValueError(f"unknown widget message method {method!r}")


def shield_messages(family: Sequence[Any], refused: Callable[[], None]) -> None:
    """Each widget of `family` (say, :func:`widget_family` of a panel) reads the page's messages
    with :func:`read_widget_message`: a message that fails is written to the server's log and
    `refused` says so in a sentence; ipywidgets' own reader, which sends the traceback to the page,
    never runs for them. Calling it again for the same widget changes nothing."""

    def reader(widget: Any, msg: Any) -> None:
        try:
            read_widget_message(widget, msg)
        except Exception as err:  # noqa: BLE001 - a page's message must never show a traceback
            server_log(err)
            with contextlib.suppress(Exception):
                refused()

    for widget in family:
        comm = getattr(widget, "comm", None)
        if comm is not None:
            comm.on_msg(functools.partial(reader, widget))


def server_log(err: BaseException) -> None:
    """Write an error's traceback to the server's log (the kernel's own stderr, which ipykernel does
    not forward to pages: :func:`sloth_widgets.safety.operator_stream`), never to the page."""
    safety.log_error("sloth-kernel board error:", err)


# --- seat setup -------------------------------------------------------------------------------


class ShowsErrors(Protocol):
    """What :func:`guarded` needs of a board: a way to show an error in it."""

    def _show_error(self, err: BaseException) -> None: ...


B = TypeVar("B", bound=ShowsErrors)
P = ParamSpec("P")
R = TypeVar("R")


def guarded(handler: Callable[Concatenate[B, P], R]) -> Callable[Concatenate[B, P], R | None]:
    """Run a callback so that any error shows up in the board instead of being lost (it then returns None)."""

    @functools.wraps(handler)
    def run(self: B, /, *args: P.args, **kwargs: P.kwargs) -> R | None:
        try:
            return handler(self, *args, **kwargs)
        except Exception as err:  # noqa: BLE001 - shown to the user, never swallowed silently
            self._show_error(err)
            return None

    return run
