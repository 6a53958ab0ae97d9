"""Scripted deals for the teaching notebooks: a deal, the moves, and what they show.

Each :class:`Lesson` is replayed through the public protocol (``from_deal`` and
checked ``play``), so a lesson that stops matching the rules fails loudly in the
tests rather than teaching something false. The step-through widget takes
``lesson.record()``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sloth_kernel.core import GameState
from sloth_kernel.registry import load_game


@dataclass(frozen=True)
class Lesson:
    name: str
    game: str
    about: str
    deal: Mapping[str, Any] | None  # None: dealt from `seed`
    moves: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0

    def start(self) -> GameState[Any, Any]:
        game = load_game(self.game, **self.options)
        state: GameState[Any, Any] = (
            game.from_deal(self.deal, seed=self.seed) if self.deal else game.new_state(self.seed)
        )
        return state

    def state(self, upto: int | None = None) -> GameState[Any, Any]:
        """The position after the first `upto` moves (all of them by default)."""
        state = self.start()
        for move in self.moves[:upto]:
            state = state.play(move)
        return state

    def record(self) -> dict[str, Any]:
        return self.state().to_record()


def all_lessons() -> dict[str, Lesson]:
    """Every registered game's lessons, by name."""
    from sloth_kernel.registry import game_specs

    found: dict[str, Lesson] = {}
    for spec in game_specs().values():
        for item in spec.load(spec.lessons) or ():
            found[item.name] = item
    return found


def lesson(name: str) -> Lesson:
    lessons = all_lessons()
    if name not in lessons:
        raise KeyError(f"no lesson {name!r}; choose one of {', '.join(lessons)}")
    return lessons[name]
