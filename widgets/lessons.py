"""What the lesson notebooks call: a game's lesson views, step-throughs and self-check questions.

A lesson is read in Voila, where no code shows, so each of its code cells is one short call
whose result is a sentence, an HTML table, a picture or a widget (see
:mod:`sloth_kernel.lessons`). A game's lesson views live beside its scripted deals, in the
module its spec names for ``lessons``; :func:`teach` finds it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from types import ModuleType

from sloth_widgets.checker import BeatChecker, SelfCheck, beat_question, plot_beat_matrix
from sloth_widgets.stepper import Step, StepThrough

from sloth_kernel.checker import climbing_games, does_it_beat
from sloth_kernel.lessons import Html, lesson, picture, table
from sloth_kernel.registry import game_spec

__all__ = ["BeatChecker", "Question", "beat_matrices", "beat_table", "quiz", "steps_table", "teach", "walk"]

Question = tuple[str, Sequence[str], str, str]
"""A self-check question: (question, answers, the right answer, why), every part in plain words."""


def teach(game: str) -> ModuleType:
    """The module with a game's scripted deals and lesson views (its spec's ``lessons``)."""
    spec = game_spec(game)
    if not spec.lessons:
        raise LookupError(f"{spec.title} has no lessons")
    return importlib.import_module(spec.lessons.partition(":")[0])


def walk(name: str, at: str | Callable[[Step], bool] | None = None) -> StepThrough:
    """A step-through of the scripted deal `name`, opened at the first step matching `at`."""
    stepper = StepThrough(lesson(name).record())
    if at is not None:
        found = stepper.find(at)
        if found is not None:
            stepper.step = found
    return stepper


def quiz(question: Question | tuple[str, str, str]) -> SelfCheck:
    """A self-check widget: a question of the game's lesson views, or (game, table, candidate)
    for "may you play this on that?" answered by the rules engine."""
    if len(question) == 3:
        game, table, candidate = question
        return beat_question(str(game), str(table), str(candidate))
    text, answers, right, why = question
    return SelfCheck(text, tuple(answers), right, why)


def beat_table(game: str, pairs: Sequence[tuple[str, str]]) -> Html:
    """For each (table, candidate): may the candidate go on the table? The engine's answer, its
    reason and the rules it cites."""
    rows = []
    for on_table, candidate in pairs:
        verdict = does_it_beat(game, on_table, candidate)
        reason = verdict.explanation.reason if verdict.explanation is not None else verdict.problem
        rows.append([on_table, candidate, bool(verdict.beats), reason, ", ".join(r for r, _ in verdict.rules)])
    return table(["On the table", "You play", "Beats?", "Why", "Rules"], rows, caption=climbing_games()[game])


def beat_matrices(tables: dict[str, Sequence[str]]) -> Html:
    """One 'who may follow whom' grid per game, one picture each, one under the other."""
    import matplotlib.pyplot as plt

    shown = Html("", "")
    for game, combinations in tables.items():
        fig, ax = plt.subplots(figsize=(6, 5.6))
        plot_beat_matrix(game, list(combinations), ax=ax)
        fig.tight_layout()
        name = climbing_games()[game]
        shown = shown + picture(
            fig, f"{name}: rows are on the table, columns are played on top; a tick means it beats."
        )
    return shown


def steps_table(stepper: StepThrough, steps: Sequence[int]) -> Html:
    """Some steps of a step-through, with what happened at each."""
    assert stepper.timeline is not None
    rows = [[index, " ".join(e.text for e in stepper.timeline.step(index).events)] for index in steps]
    return table(["Step", "What happened"], rows)
