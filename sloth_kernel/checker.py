"""'Does it beat?' for climbing games: pick the combination on the table and a candidate; the engine answers.

Nothing here decides a rule. For each question the game's :class:`CheckerKit` (its spec's
``checker``) builds a real engine position with ``game.from_deal``: one seat holds the table
combination and plays it, and the next seat to move holds exactly the candidate's cards.
The answer is ``state.explain(candidate)``: yes or no, the reason in plain words, and the rule
ids with their words from ``game.rules``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sloth_kernel.core import Explanation, GameState
from sloth_kernel.errors import ConfigError, InvalidMoveError

Scenario = Callable[[str, str], "tuple[GameState[Any, Any], str]"]
"""(table, candidate) -> a position where the seat to move faces `table`, and the engine's name for it."""


@dataclass(frozen=True)
class CheckerKit:
    """What the checker needs from one climbing game."""

    scenario: Scenario
    examples: tuple[str, ...]
    """Combinations offered in the pickers, in table notation."""
    notation: str
    """One or two sentences on how to write a combination."""
    default: tuple[str, str]
    """A sensible (table, candidate) pair to start from."""


def checker_kit(game_name: str) -> CheckerKit:
    from sloth_kernel.registry import game_spec

    spec = game_spec(game_name)
    kit: CheckerKit | None = spec.load(spec.checker)
    if kit is None:
        raise ConfigError(f"the checker knows the climbing games: {', '.join(climbing_games())}")
    return kit


def climbing_games() -> dict[str, str]:
    """Name -> title of every registered game with a checker."""
    from sloth_kernel.registry import game_specs

    return {name: spec.title for name, spec in game_specs().items() if spec.checker is not None}


@dataclass(frozen=True)
class Verdict:
    """The engine's answer to 'does `candidate` beat `table`?'."""

    game: str
    table: str
    candidate: str
    table_name: str  # the engine's name for what lies on the table, e.g. 'Run 4-5-6'
    explanation: Explanation | None  # None when the question could not be set up
    problem: str = ""  # why not, in the engine's words
    rules: tuple[tuple[str, str], ...] = ()  # (rule id, plain words)

    @property
    def beats(self) -> bool | None:
        return None if self.explanation is None else self.explanation.legal

    def __str__(self) -> str:
        if self.explanation is None:
            return f"Cannot set this up: {self.problem}"
        answer = "Yes" if self.explanation.legal else "No"
        cite = f" [{', '.join(r for r, _ in self.rules)}]" if self.rules else ""
        return f"{answer}: {self.explanation.reason}{cite}"


def does_it_beat(game_name: str, table: str, candidate: str) -> Verdict:
    """Ask the engine whether `candidate` may be played on `table` (both in table notation)."""
    kit = checker_kit(game_name)
    try:
        state, table_name = kit.scenario(table, candidate)
    except (ConfigError, InvalidMoveError) as err:
        return Verdict(game_name, table, candidate, "", None, _words(err))
    explanation = state.explain(candidate)
    rules = tuple((r, state.game.rules.get(r, "")) for r in explanation.rules)
    return Verdict(game_name, table, candidate, table_name, explanation, rules=rules)


def scenario(game_name: str, table: str, candidate: str) -> tuple[GameState[Any, Any], str]:
    """A real position where the seat to move faces `table` holding the candidate's cards.

    Returns the state and the engine's name for the table. Raises ConfigError
    (in the engine's words) when the table cannot be put there.
    """
    return checker_kit(game_name).scenario(table, candidate)


def beat_matrix(game_name: str, combinations: list[str] | tuple[str, ...]) -> list[list[bool | None]]:
    """matrix[i][j]: may combinations[j] be played on combinations[i]? (the engine's verdicts)"""
    return [[does_it_beat(game_name, table, candidate).beats for candidate in combinations] for table in combinations]


def _words(err: Exception) -> str:
    return getattr(err, "reason", None) or str(err)
