"""The variant lab: change one rule option and watch the balance move.

Each game's spec names a :class:`Variants` entry (``games/<game>/variants.py``): the options
worth turning, the values to try, and how to measure the balance, either by playing seeded
bot games (numbers with 95% intervals, and a fair-share line where one makes sense) or
exactly, with no games played. A number whose every sample lies from 0 to 1 (a share, a rate)
gets the Wilson interval of ``sloth_kernel.stats``, which stays within 0 to 1; any other (moves
per round, a score) gets the mean's normal-approximation interval. :func:`measure` runs it for each value of one option and
:func:`plot_variant` draws the numbers as small multiples.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sloth_kernel.analysis import progress
from sloth_kernel.lessons import Html, picture, table
from sloth_kernel.registry import load_game
from sloth_kernel.stats import Z95, wilson_interval

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
    labels: dict[str, str] = field(default_factory=dict)
    """Option -> its name in plain words (what the lab's menu, plots and tables show)."""

    def label(self, option: str) -> str:
        return self.labels.get(option, option.replace("_", " "))


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
    lows: dict[str, np.ndarray] = field(default_factory=dict)  # name -> [value] 95% interval (the metric when exact)
    highs: dict[str, np.ndarray] = field(default_factory=dict)

    def interval(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        """The number's 95% interval at each value (the number itself when exact)."""
        if name in self.lows:
            return self.lows[name], self.highs[name]
        return self.metrics[name], self.metrics[name]


def interval(samples: Sequence[float]) -> tuple[float, float]:
    """The 95% interval of the samples' mean: Wilson's when every sample lies from 0 to 1 (a share or
    a rate, so the interval stays within 0 to 1), else the normal approximation."""
    values = np.asarray(samples, dtype=float)
    if values.size and np.all((values >= 0) & (values <= 1)):
        return wilson_interval(min(float(values.sum()), float(values.size)), int(values.size))
    mean = float(values.mean())
    half = Z95 * float(np.std(values) / np.sqrt(values.size))
    return mean - half, mean + half


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
    bounds: list[dict[str, tuple[float, float]]] = []
    share: dict[str, float]
    words = entry.label(option)
    simulated = entry.exact is None  # exact numbers come at once: no progress bar
    for value in progress(values, enabled=show_progress and simulated, desc=f"Trying each {words}"):
        options = {option: value}
        if entry.exact is not None:
            row, err, share = entry.exact(options), {}, {}
            bound = {k: (v, v) for k, v in row.items()}
        else:
            assert entry.measure is not None, f"{game}: variants need a measure or an exact"
            samples, share = entry.measure(options, games, seed)
            row = {k: float(np.mean(v)) for k, v in samples.items()}
            err = {k: float(np.std(v) / np.sqrt(len(v))) for k, v in samples.items()}
            bound = {k: interval(v) for k, v in samples.items()}
        rows.append(row)
        spread.append(err)
        bounds.append(bound)
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
        {n: np.array([b[n][0] for b in bounds]) for n in names},
        {n: np.array([b[n][1] for b in bounds]) for n in names},
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
        ax.set_xticks(x, [value_words(v) for v in result.values])
        ax.set_ylim(0, 1.02)
        ax.set_xlabel(entry.label(result.option))
        ax.set_ylabel(entry.exact_label)
        ax.legend(fontsize=8)
        ax.set_title(f"{load_game(result.game).title}: {entry.label(result.option)}")
        fig.tight_layout()
        return fig
    columns = 2 if len(names) > 2 else len(names)  # small multiples, two to a row
    rows = -(-len(names) // columns)
    fig, axes = plt.subplots(rows, columns, figsize=(3.6 * columns, 3.0 * rows + 0.4), squeeze=False)
    for ax in axes.flat[len(names) :]:
        ax.set_visible(False)
    x = np.arange(len(result.values))
    for ax, name in zip(axes.flat, names, strict=False):
        low, high = result.interval(name)
        bars = [result.metrics[name] - low, high - result.metrics[name]]
        ax.errorbar(x, result.metrics[name], yerr=bars, marker="o", capsize=3, color="#2b4a7a")
        if not np.all(np.isnan(result.fair[name])):
            ax.plot(x, result.fair[name], ls=":", color="#c0392b", label="fair share")
            ax.legend(fontsize=7)
        ax.set_xticks(x, [value_words(v) for v in result.values])
        ax.set_xlabel(entry.label(result.option))
        ax.set_title(name, fontsize=10)
    title = f"{load_game(result.game).title}: {entry.label(result.option)} ({result.games} games per value, 95% bars)"
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    return fig


def value_words(value: Any) -> str:
    """An option's value as people read it: on/off for a switch."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def result_table(result: VariantResult) -> Html:
    """Every balance number for every value of the option; simulated ones with a 95% interval."""
    entry = variants_of(result.game)
    header = [entry.label(result.option), *result.metrics]
    digits = {name: 1 if np.nanmax(np.abs(values)) >= 10 else 3 for name, values in result.metrics.items()}
    rows = []
    for k, value in enumerate(result.values):
        row: list[Any] = [value_words(value)]
        for name in result.metrics:
            number, d = float(result.metrics[name][k]), digits[name]
            low, high = (float(bound[k]) for bound in result.interval(name))
            row.append(f"{number:.{d}f}" + (f" ({low:.{d}f} to {high:.{d}f})" if result.games else ""))
        rows.append(row)
    how = "exact, no games played" if result.games == 0 else f"{result.games} games per value, with 95% intervals"
    return table(header, rows, caption=f"{load_game(result.game).title} ({how})")


def show(result: VariantResult) -> Html:
    """The plot and the table of one variant measurement."""
    entry = variants_of(result.game)
    alt = f"{load_game(result.game).title}: how the balance numbers move with the {entry.label(result.option)}"
    return picture(plot_variant(result), alt) + result_table(result)


class Lab:
    """A small form: game, option, games per value, Run; the plot and table appear below.

    Every control works in any order: the option menu always holds an option of the chosen game
    (changing the game picks that game's first option), a run shows a progress bar that goes
    when it ends, and a failure is a sentence on the page, never a traceback.
    """

    def __init__(self) -> None:
        import ipywidgets as widgets

        games = list(knobs())
        self.game_box = widgets.Dropdown(
            options=[(load_game(g).title, g) for g in games], value=games[0], description="Game"
        )
        self.option_box = widgets.Dropdown(description="Option")
        self.games_box = widgets.IntSlider(
            value=60, min=10, max=1000, step=10, description="Games per value", style={"description_width": "initial"}
        )
        self.run_button = widgets.Button(description="Run", button_style="primary", icon="play")
        self.bar = widgets.IntProgress(value=0, min=0, max=1, description="Working", layout={"display": "none"})
        self.result = widgets.HTML()
        self.result.add_class("sk-variant-result")
        self.game_box.observe(self._on_game, names="value")
        self.run_button.on_click(lambda _: self.run())
        self._on_game()
        self.box = widgets.VBox(
            [
                widgets.HBox([self.game_box, self.option_box], layout={"flex_flow": "row wrap"}),
                widgets.HBox([self.games_box, self.run_button], layout={"flex_flow": "row wrap"}),
                self.bar,
                self.result,
            ]
        )
        self.box.add_class("sk-variant-lab")

    def _on_game(self, change: Any = None) -> None:
        entry = variants_of(self.game_box.value)
        options = [(entry.label(option), option) for option in entry.knobs]
        self.option_box.options = options
        self.option_box.value = options[0][1]  # ipywidgets leaves no choice after new options
        self.games_box.disabled = entry.exact is not None  # exact: no games needed

    def run(self) -> None:
        """Measure the chosen option and show the plot and the table (a sentence if it fails)."""
        game, option = self.game_box.value, self.option_box.value
        entry = variants_of(game)
        if option not in entry.knobs:  # cannot happen through the menus; said plainly if it does
            self.result.value = "<p>Choose an option first.</p>"
            return
        values = entry.knobs[option]
        self.run_button.disabled = True
        self.bar.value, self.bar.max = 0, len(values)
        self.bar.layout.display = ""
        try:
            rows = []
            for value in values:
                rows.append(measure(game, option, (value,), games=self.games_box.value, show_progress=False))
                self.bar.value += 1
            result = VariantResult(
                game,
                option,
                tuple(values),
                rows[0].games,
                {n: np.concatenate([r.metrics[n] for r in rows]) for n in rows[0].metrics},
                {n: np.concatenate([r.errors[n] for r in rows]) for n in rows[0].errors},
                {n: np.concatenate([r.fair[n] for r in rows]) for n in rows[0].fair},
                {n: np.concatenate([r.interval(n)[0] for r in rows]) for n in rows[0].metrics},
                {n: np.concatenate([r.interval(n)[1] for r in rows]) for n in rows[0].metrics},
            )
            self.result.value = show(result)._repr_html_()
        except Exception as error:  # a control must never leave a traceback on the page
            self.result.value = f"<p>That run could not finish: {html.escape(str(error))}</p>"
        finally:
            self.bar.layout.display = "none"
            self.run_button.disabled = False


def lab() -> Any:
    """The variant lab's form (see :class:`Lab`)."""
    return Lab().box
