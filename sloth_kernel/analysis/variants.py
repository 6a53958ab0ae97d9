"""The variant lab: change one rule option and watch the balance move.

:data:`KNOBS` lists, per game, the options worth turning and the values to try.
:func:`measure` plays seeded bot games (or, for Sprint!, solves the exact odds)
for each value and returns a few balance numbers with their standard errors;
:func:`plot_variant` draws them as small multiples.

Balance numbers:

- Too Sloth To Win (heuristic bots, one round each): the pacemaker's share of
  Trophies and of Cash Chips (fair: 1/players), how often someone is caught
  holding a drink (TS-10), and moves per round.
- Race to the Bottom (heuristic bots): the first leader's share of wins (fair:
  1/players) and moves per race.
- Surplus of Sloths (one heuristic bot against random bots): the heuristic
  bot's win share (how much skill the variant rewards) and the winning score.
- Sprint! (exact odds, no simulation): the table's win chance for three
  skills, aiming one card low.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from ..bots import make_bot
from ..registry import load_game
from . import progress

KNOBS: dict[str, dict[str, tuple[Any, ...]]] = {
    "too-sloth-to-win": {
        "finish": (6, 9, 12, 15),
        "drinks": (0, 1, 2),
        "players": (3, 4, 5),
        "no_board": (False, True),
    },
    "race-to-the-bottom": {"players": (2, 3, 4)},
    "surplus-of-sloths": {"players": (2, 3, 4), "babies": (False, True)},
    "sprint": {"young_tortoise": (False, True), "small_track": (False, True), "track_length": (18, 24, 30, 36, 48)},
}
SPRINT_SIGMAS: tuple[float, ...] = (0.1, 0.2, 0.3)


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
    values = tuple(KNOBS[game][option] if values is None else values)
    rows: list[dict[str, float]] = []
    fair: dict[str, list[float]] = {}
    spread: list[dict[str, float]] = []
    for value in progress(values, enabled=show_progress, desc=f"{option} values"):
        options = {option: value}
        if game == "sprint":
            row, err, share = _sprint(options), {}, {}
        else:
            samples, share = MEASURES[game](options, games, seed)
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
        0 if game == "sprint" else games,
        {n: np.array([r[n] for r in rows]) for n in names},
        {n: np.array([e.get(n, 0.0) for e in spread]) for n in names},
        {n: np.array(fair[n]) for n in names},
    )


def _too_sloth(options: dict[str, Any], games: int, seed: int) -> tuple[dict[str, list[float]], dict[str, float]]:
    players = options.get("players", 4)
    out: dict[str, list[float]] = {
        "pacemaker Trophy share": [],
        "pacemaker Cash Chip share": [],
        "someone caught with a drink": [],
        "moves per round": [],
    }
    for g in range(games):
        game = load_game("too-sloth-to-win", rounds=1, pacemaker=g % players, **options)
        bots = [make_bot(game.name, "heuristic", seed=seed + 31 * g + s) for s in range(players)]
        state = game.new_state(seed + g)
        while not state.is_over:
            seat = state.current_player
            state = state.play(bots[seat].choose(state.observation(seat)), player=seat)
        view = state.view()
        result = view.results[0]
        out["pacemaker Trophy share"].append(float(view.pacemaker in result.trophy))
        out["pacemaker Cash Chip share"].append(float(view.pacemaker in result.chip))
        out["someone caught with a drink"].append(float(any("drug" in s for s in view.status)))
        out["moves per round"].append(float(len(state.history)))
    fair = {"pacemaker Trophy share": 1 / players, "pacemaker Cash Chip share": 1 / players}
    return out, fair


def _race(options: dict[str, Any], games: int, seed: int) -> tuple[dict[str, list[float]], dict[str, float]]:
    players = options.get("players", 3)
    game = load_game("race-to-the-bottom", **options)
    out: dict[str, list[float]] = {"first leader's win share": [], "moves per race": []}
    for g in range(games):
        bots = [make_bot(game.name, "heuristic", seed=seed + 31 * g + s) for s in range(players)]
        state = game.new_state(seed + g)
        while not state.is_over:
            seat = state.current_player
            state = state.play(bots[seat].choose(state.observation(seat)), player=seat)
        out["first leader's win share"].append(state.returns()[game.config.leader])  # type: ignore[attr-defined]
        out["moves per race"].append(float(len(state.history)))
    return out, {"first leader's win share": 1 / players}


def _surplus(options: dict[str, Any], games: int, seed: int) -> tuple[dict[str, list[float]], dict[str, float]]:
    players = options.get("players", 3)
    game = load_game("surplus-of-sloths", **options)
    out: dict[str, list[float]] = {"heuristic bot's win share": [], "winning score": []}
    for g in range(games):
        smart = g % players
        bots = [
            make_bot(game.name, "heuristic" if s == smart else "random", seed=seed + 31 * g + s) for s in range(players)
        ]
        state = game.new_state(seed + g)
        while not state.is_over:
            seat = state.current_player
            state = state.play(bots[seat].choose(state.observation(seat)), player=seat)
        out["heuristic bot's win share"].append(state.returns()[smart])
        out["winning score"].append(float(max(state.view().scores)))
    return out, {"heuristic bot's win share": 1 / players}


def _sprint(options: dict[str, Any]) -> dict[str, float]:
    from ..games.sprint import SprintConfig
    from ..sprint_odds import win_probability
    from ..sprint_skill import GaussianLifter

    config = dataclasses.replace(SprintConfig(), **options)
    config.validate()
    return {f"win chance, sigma {s:g}": win_probability(GaussianLifter(s, -1.0), config) for s in SPRINT_SIGMAS}


Measure = Callable[[dict[str, Any], int, int], tuple[dict[str, list[float]], dict[str, float]]]
MEASURES: dict[str, Measure] = {
    "too-sloth-to-win": _too_sloth,
    "race-to-the-bottom": _race,
    "surplus-of-sloths": _surplus,
}


def plot_variant(result: VariantResult) -> Any:
    """One small panel per balance number; x is the option's value."""
    import matplotlib.pyplot as plt

    names = list(result.metrics)
    if result.game == "sprint":  # all three skills on one panel
        fig, ax = plt.subplots(figsize=(6.5, 3.6))
        x = np.arange(len(result.values))
        for name in names:
            ax.plot(x, result.metrics[name], marker="o", label=name)
        ax.set_xticks(x, [str(v) for v in result.values])
        ax.set_ylim(0, 1.02)
        ax.set_xlabel(result.option)
        ax.set_ylabel("chance the table wins (exact)")
        ax.legend(fontsize=8)
        ax.set_title(f"Sprint!: {result.option}")
        fig.tight_layout()
        return fig
    fig, axes = plt.subplots(1, len(names), figsize=(3.4 * len(names), 3.3), squeeze=False)
    x = np.arange(len(result.values))
    for ax, name in zip(axes[0], names):
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

    game_box = widgets.Dropdown(options=[(load_game(g).title, g) for g in KNOBS], description="Game")
    option_box = widgets.Dropdown(description="Option")
    games_box = widgets.IntSlider(
        value=60, min=10, max=1000, step=10, description="Games per value", style={"description_width": "initial"}
    )
    run = widgets.Button(description="Run", button_style="primary", icon="play")
    out = widgets.Output()

    def options_for(change: Any = None) -> None:
        option_box.options = list(KNOBS[game_box.value])
        games_box.disabled = game_box.value == "sprint"  # exact, no games needed

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
