"""Analyses behind the notebooks: exact numbers, simulations and their plots.

One module per game plus the variant lab. The notebooks stay thin: they call a function
here and show its numbers as sentences, tables or plots. Every simulation is seeded; long
ones take a ``games`` (or ``hands``) knob and show a progress bar while they run.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sized
from typing import Any, TypeVar

T = TypeVar("T")


def in_notebook() -> bool:
    """Whether this runs in a Jupyter kernel (a notebook, JupyterLab or Voila)."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def progress(items: Iterable[T], *, enabled: bool = True, desc: str = "", **options: Any) -> Iterable[T]:
    """The items, with a progress bar while they are worked through: in a notebook a widget
    that disappears when done (:func:`widget_progress`), elsewhere a tqdm bar."""
    if not enabled:
        return items
    if in_notebook():
        return widget_progress(items, desc=desc)
    from tqdm import tqdm

    bar: Iterable[T] = tqdm(items, desc=desc, **options)
    return bar


def widget_progress(items: Iterable[T], desc: str = "", total: int | None = None) -> Iterator[T]:
    """Yield the items while an ipywidgets bar below the cell counts them; the bar is removed
    once the loop ends (or stops early)."""
    import ipywidgets as widgets
    from IPython import display as ipython_display

    display: Any = ipython_display.display  # untyped in IPython
    if total is None and isinstance(items, Sized):
        total = len(items)
    bar = widgets.IntProgress(value=0, min=0, max=max(total or 1, 1), description=desc or "Working")
    bar.style.description_width = "initial"
    bar.add_class("sk-progress")
    handle = display(bar, display_id=True)
    try:
        for item in items:
            yield item
            bar.value += 1
    finally:
        if handle is not None:
            handle.update({"text/plain": ""}, raw=True)
        bar.close()
