"""Analyses behind the notebooks: exact numbers, simulations and their plots.

One module per game plus the variant lab. The notebooks stay thin: they call a
function here, print a few seeded numbers and draw a plot. Every simulation is
seeded; long ones take a ``games`` (or ``hands``) knob and show a tqdm bar.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

T = TypeVar("T")


def progress(items: Iterable[T], *, enabled: bool = True, **options: Any) -> Iterable[T]:
    """A tqdm progress bar (the notebook flavour when in a notebook), or the bare iterable."""
    if not enabled:
        return items
    from tqdm.auto import tqdm

    bar: Iterable[T] = tqdm(items, **options)
    return bar
