"""'Does it beat?' as a widget: pick the game, the table and a candidate; the engine answers.

The questions and verdicts come from :mod:`sloth_kernel.checker` (each climbing game's kit);
this module only draws them.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as widgets
import traitlets
from sloth_widgets.markup import cited

from sloth_kernel import ConfigError
from sloth_kernel.checker import Verdict, beat_matrix, checker_kit, climbing_games, does_it_beat, scenario
from sloth_kernel.render import kit

__all__ = [
    "BeatChecker",
    "SelfCheck",
    "Verdict",
    "beat_matrix",
    "beat_question",
    "does_it_beat",
    "plot_beat_matrix",
    "scenario",
    "verdict_html",
]


# --- the widget -------------------------------------------------------------------------


def verdict_html(verdict: Verdict) -> str:
    """A big yes/no, the engine's reason, and the rules it cites in plain words."""
    if verdict.explanation is None:
        body = (
            f'<div class="sk-verdict-answer sk-warn">Can\'t set that up</div><div>{html.escape(verdict.problem)}</div>'
        )
        return kit.panel("Does it beat?", body, css="sk-verdict")
    legal = verdict.explanation.legal
    answer = "Yes, it beats." if legal else "No."
    css = "sk-legal" if legal else "sk-illegal"
    rules = "".join(
        f'<div class="sk-rule-line"><b>{html.escape(r)}</b> {html.escape(words)}</div>' for r, words in verdict.rules
    )
    body = (
        f'<div class="sk-explain {css}"><span class="sk-verdict-answer" style="font-size:18px;font-weight:700">'
        f"{answer}</span> On the table: <b>{html.escape(verdict.table_name)}</b>; you try "
        f"<code>{html.escape(verdict.candidate)}</code>.<br>{html.escape(verdict.explanation.reason)}</div>{rules}"
    )
    return kit.panel("Does it beat?", body, css="sk-verdict")


class BeatChecker(widgets.VBox):
    """Choose a game, the table and a candidate; the verdict updates as you type.

    ``game``, ``table`` and ``candidate`` are traits, settable from code;
    ``verdict`` holds the latest :class:`Verdict`.
    """

    game = traitlets.Unicode("")
    table = traitlets.Unicode("")
    candidate = traitlets.Unicode("")

    def __init__(self, game: str | None = None, table: str | None = None, candidate: str | None = None) -> None:
        super().__init__()
        self.add_class("sk-checker")
        self.verdict: Verdict | None = None
        games = climbing_games()
        game = game if game is not None else next(iter(games))
        checker_kit(game)  # refuses a game without a checker
        self.game_picker = widgets.ToggleButtons(options=[(v, k) for k, v in games.items()], value=game)
        self.game_picker.add_class("sk-checker-game")
        self.table_box = widgets.Combobox(
            description="On the table", ensure_option=False, style={"description_width": "90px"}
        )
        self.table_box.add_class("sk-checker-table")
        self.candidate_box = widgets.Combobox(
            description="You play", ensure_option=False, style={"description_width": "90px"}
        )
        self.candidate_box.add_class("sk-checker-candidate")
        self.check_button = widgets.Button(description="Does it beat?", button_style="primary")
        self.check_button.add_class("sk-check")
        self.answer = widgets.HTML()
        self.answer.add_class("sk-verdict-box")
        self.help = widgets.HTML()
        widgets.link((self.game_picker, "value"), (self, "game"))
        widgets.link((self.table_box, "value"), (self, "table"))
        widgets.link((self.candidate_box, "value"), (self, "candidate"))
        self.check_button.on_click(lambda _: self.render())
        self.children = [
            self.game_picker,
            self.help,
            widgets.HBox([self.table_box, self.candidate_box, self.check_button]),
            self.answer,
        ]
        with self.hold_trait_notifications():
            self.game = game
            default_table, default_candidate = checker_kit(game).default
            self.table = table if table is not None else default_table
            self.candidate = candidate if candidate is not None else default_candidate
        self.render()

    @traitlets.observe("game")
    def _on_game(self, change: dict[str, Any]) -> None:
        if change["old"] != change["new"] and change["old"]:
            with self.hold_trait_notifications():  # a fresh, sensible pair for the other game
                self.table, self.candidate = checker_kit(change["new"]).default
        self.render()

    @traitlets.observe("table", "candidate")
    def _on_question(self, change: dict[str, Any]) -> None:
        self.render()

    def render(self) -> None:
        """Ask the engine and redraw; idempotent."""
        game_kit = checker_kit(self.game)
        self.table_box.options = game_kit.examples
        self.candidate_box.options = game_kit.examples
        notation = game_kit.notation
        self.help.value = (
            f'<div class="sk-checker-help" style="font-size:12px;color:#555">{html.escape(notation)}</div>'
        )
        self.verdict = does_it_beat(self.game, self.table.strip(), self.candidate.strip())
        self.answer.value = kit.STYLE + verdict_html(self.verdict)


# --- who beats whom --------------------------------------------------------------------


def plot_beat_matrix(game_name: str, combinations: list[str] | tuple[str, ...], ax: Any = None) -> Any:
    """A grid: rows are on the table, columns are played on top; green = it beats."""
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap

    matrix = beat_matrix(game_name, combinations)
    codes = [[2 if cell else 0 if cell is False else 1 for cell in row] for row in matrix]
    if ax is None:
        _, ax = plt.subplots(figsize=(5.6, 5))
    ax.imshow(codes, cmap=ListedColormap(["#f4c7c3", "#dddddd", "#b7e1c1"]), vmin=0, vmax=2)
    ax.set_xticks(range(len(combinations)), combinations, rotation=60, ha="right", fontsize=8)
    ax.set_yticks(range(len(combinations)), combinations, fontsize=8)
    ax.set_xlabel("played on top")
    ax.set_ylabel("on the table")
    for i, row in enumerate(matrix):
        for j, cell in enumerate(row):
            ax.text(j, i, "✓" if cell else "·" if cell is False else "?", ha="center", va="center", fontsize=9)
    ax.set_title(climbing_games()[game_name], fontsize=11)
    if any(cell is None for row in matrix for cell in row):
        ax.text(
            0.0,
            -0.32,
            "? = cannot happen: the deck lacks the cards for both",
            transform=ax.transAxes,
            fontsize=8,
            color="#555",
        )
    return ax.figure


# --- self-check questions ------------------------------------------------------------------


class SelfCheck(widgets.VBox):
    """A question with a few answers; clicking one says right or wrong, and why, at once.

    ``chosen`` (a trait) holds the clicked answer; :meth:`choose` clicks from code.
    """

    chosen = traitlets.Unicode("")

    def __init__(self, question: str, options: list[str] | tuple[str, ...], answer: str, why: str) -> None:
        super().__init__()
        if answer not in options:
            raise ValueError(f"the answer {answer!r} is not among the options")
        self.add_class("sk-quiz")
        self.question, self.options, self.answer, self.why = question, tuple(options), answer, why
        self.prompt = widgets.HTML(f'<b class="sk-quiz-question">{html.escape(question)}</b>')
        self.buttons = [widgets.Button(description=option, layout=widgets.Layout(width="auto")) for option in options]
        for button in self.buttons:
            button.add_class("sk-quiz-option")
            button.on_click(lambda b: self.choose(b.description))
        self.feedback = widgets.HTML()
        self.feedback.add_class("sk-quiz-feedback")
        self.children = [self.prompt, widgets.HBox(self.buttons), self.feedback]
        self.render()

    @property
    def correct(self) -> bool | None:
        return None if not self.chosen else self.chosen == self.answer

    def choose(self, option: str) -> None:
        self.chosen = option

    @traitlets.observe("chosen")
    def _on_chosen(self, change: dict[str, Any]) -> None:
        self.render()

    def render(self) -> None:
        for button in self.buttons:
            button.button_style = (
                ("success" if button.description == self.answer else "danger")
                if self.chosen and button.description in (self.chosen, self.answer)
                else ""
            )
        if not self.chosen:
            self.feedback.value = '<span style="color:#777">Pick an answer.</span>'
            return
        verdict = "Right!" if self.correct else f"Not quite: the answer is “{self.answer}”."
        css = "sk-legal" if self.correct else "sk-illegal"
        self.feedback.value = (
            f'{kit.STYLE}<div class="sk-explain {css}"><b>{html.escape(verdict)}</b> {html.escape(self.why)}</div>'
        )


def beat_question(game_name: str, table: str, candidate: str) -> SelfCheck:
    """'Does X beat Y?' with the engine's verdict as the answer and its reason as the why."""
    verdict = does_it_beat(game_name, table, candidate)
    if verdict.explanation is None:
        raise ConfigError(f"cannot ask about {table!r} / {candidate!r}: {verdict.problem}")
    what = verdict.table_name or table
    question = f"The table shows {what}. May you play {candidate} on it?"
    cite = cited([r for r, _ in verdict.rules])
    return SelfCheck(question, ("Yes", "No"), "Yes" if verdict.beats else "No", verdict.explanation.reason + cite)
