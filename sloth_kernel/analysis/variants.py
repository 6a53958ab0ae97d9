"""The variant lab: change one rule option and watch the balance move.

Each game's spec names a :class:`Variants` entry (``games/<game>/variants.py``): the options
worth turning, the values to try, and how to measure the balance, either by playing seeded
bot games (numbers with standard errors, and a fair-share line where one makes sense) or
exactly, with no games played. :func:`measure` runs it for each value of one option and
:func:`plot_variant` draws the numbers as small multiples.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sloth_kernel.analysis import progress
from sloth_kernel.registry import load_game

Measure = Callable[[dict[str, Any], int, int], tuple[dict[str, list[float]], dict[str, float]]]
"""(options, games, seed) -> (samples per balance number, fair share per number where one makes sense)."""
Exact = Callable[[dict[str, Any]], dict[str, float]]
"""options -> balance numbers computed exactly, with no games played."""


@dataclass(frozen=True)
class Variants:
    """A game's variant-lab entry (its spec's ``variants``): the knobs worth turning and how to measure them."""

    knobs: dict[str, tuple[Any, ...]]
    """Option -> the values to try."""
    measure: Measure | None = None
    """Simulated balance numbers (with standard errors)."""
    exact: Exact | None = None
    """Exact balance numbers; all of them go on one panel, labelled `exact_label`."""
    exact_label: str = ""


def variants_of(game: str) -> Variants:
    """The game's variant-lab entry, from its spec (ConfigError if it has none)."""
    from sloth_kernel.errors import ConfigError
    from sloth_kernel.registry import game_spec

    spec = game_spec(game)
    found: Variants | None = spec.load(spec.variants)
    if found is None:
        raise ConfigError(f"{spec.title} has no variant-lab knobs")
    return found


def knobs() -> dict[str, dict[str, tuple[Any, ...]]]:
    """Per registered game with knobs: option -> values to try."""
    from sloth_kernel.registry import game_specs

    return {name: variants_of(name).knobs for name, spec in game_specs().items() if spec.variants is not None}


@dataclass(frozen=True)
class VariantResult:
    game: str
    option: str
    values: tuple[Any, ...]
    games: int  # per value (0: exact)
    metrics: dict[str, np.ndarray]  # name -> [value]
    errors: dict[str, np.ndarray]  # name -> [value] standard errors (0 when exact)
    fair: dict[str, np.ndarray]  # name -> [value] a fair-share line, where one makes sense


def measure(
    game: str,
    option: str,
    values: Sequence[Any] | None = None,
    games: int = 100,
    seed: int = 0,
    show_progress: bool = True,
) -> VariantResult:
    """Balance numbers for each value of one option (every other option at its default)."""
    entry = variants_of(game)
    values = tuple(entry.knobs[option] if values is None else values)
    rows: list[dict[str, float]] = []
    fair: dict[str, list[float]] = {}
    spread: list[dict[str, float]] = []
    share: dict[str, float]
    for value in progress(values, enabled=show_progress, desc=f"{option} values"):
        options = {option: value}
        if entry.exact is not None:
            row, err, share = entry.exact(options), {}, {}
        else:
            assert entry.measure is not None, f"{game}: variants need a measure or an exact"
            samples, share = entry.measure(options, games, seed)
            row = {k: float(np.mean(v)) for k, v in samples.items()}
            err = {k: float(np.std(v) / np.sqrt(len(v))) for k, v in samples.items()}
        rows.append(row)
        spread.append(err)
        for name in row:
            fair.setdefault(name, []).append(share.get(name, np.nan))
    names = list(rows[0])
    return VariantResult(
        game,
        option,
        values,
        0 if entry.exact is not None else games,
        {n: np.array([r[n] for r in rows]) for n in names},
        {n: np.array([e.get(n, 0.0) for e in spread]) for n in names},
        {n: np.array(fair[n]) for n in names},
    )


def plot_variant(result: VariantResult) -> Any:
    """One small panel per balance number; x is the option's value."""
    import matplotlib.pyplot as plt

    names = list(result.metrics)
    entry = variants_of(result.game)
    if entry.exact is not None:  # exact numbers: all on one panel
        fig, ax = plt.subplots(figsize=(6.5, 3.6))
        x = np.arange(len(result.values))
        for name in names:
            ax.plot(x, result.metrics[name], marker="o", label=name)
        ax.set_xticks(x, [str(v) for v in result.values])
        ax.set_ylim(0, 1.02)
        ax.set_xlabel(result.option)
        ax.set_ylabel(entry.exact_label)
        ax.legend(fontsize=8)
        ax.set_title(f"{load_game(result.game).title}: {result.option}")
        fig.tight_layout()
        return fig
    fig, axes = plt.subplots(1, len(names), figsize=(3.4 * len(names), 3.3), squeeze=False)
    x = np.arange(len(result.values))
    for ax, name in zip(axes[0], names, strict=False):
        ax.errorbar(x, result.metrics[name], yerr=1.96 * result.errors[name], marker="o", capsize=3, color="#2b4a7a")
        if not np.all(np.isnan(result.fair[name])):
            ax.plot(x, result.fair[name], ls=":", color="#c0392b", label="fair share")
            ax.legend(fontsize=7)
        ax.set_xticks(x, [str(v) for v in result.values])
        ax.set_xlabel(result.option)
        ax.set_title(name, fontsize=10)
    fig.suptitle(f"{load_game(result.game).title}: {result.option} ({result.games} games per value)", fontsize=11)
    fig.tight_layout()
    return fig


def lab() -> Any:
    """A small form: game, option, games per value, Run; the plot appears below."""
    import ipywidgets as widgets
    import matplotlib.pyplot as plt

    game_box = widgets.Dropdown(options=[(load_game(g).title, g) for g in knobs()], description="Game")
    option_box = widgets.Dropdown(description="Option")
    games_box = widgets.IntSlider(
        value=60, min=10, max=1000, step=10, description="Games per value", style={"description_width": "initial"}
    )
    run = widgets.Button(description="Run", button_style="primary", icon="play")
    out = widgets.Output()

    def options_for(change: Any = None) -> None:
        option_box.options = list(variants_of(game_box.value).knobs)
        games_box.disabled = variants_of(game_box.value).exact is not None  # exact, no games needed

    def on_run(_: Any) -> None:
        out.clear_output()
        with out:
            result = measure(game_box.value, option_box.value, games=games_box.value)
            plot_variant(result)
            plt.show()

    game_box.observe(options_for, names="value")
    run.on_click(on_run)
    options_for()
    box = widgets.VBox([widgets.HBox([game_box, option_box]), widgets.HBox([games_box, run]), out])
    box.add_class("sk-variant-lab")
    return box
