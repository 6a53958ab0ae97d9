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
from typing import Any

from sloth_kernel.lessons import lesson
from sloth_kernel.registry import game_spec
from sloth_widgets.checker import SelfCheck, beat_question
from sloth_widgets.stepper import Step, StepThrough

__all__ = ["Question", "quiz", "teach", "walk"]

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
        game, table, candidate = question  # type: ignore[misc]
        return beat_question(str(game), str(table), str(candidate))
    text, answers, right, why = question  # type: ignore[misc]
    return SelfCheck(text, tuple(answers), right, why)


