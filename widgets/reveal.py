"""Staged reveals: the steps a board shows one at a time after a move, one mechanism for every game.

An engine marks each moment a board stages with ``Event.kind`` and declares those kinds in its spec
(``GameSpec.reveal_kinds``): a round's results, the next deal, a type of a reveal, a card turned.
After a move, every event of such a kind that follows it opens one step. The move itself is on view
at once; the person (or the bots' pacing) steps through the rest. Until a step is shown, the log,
the seats, the turn line and the game-over panel hold back what it would tell
(:meth:`Reveal.held_back`). What each step shows comes from the observation, which the engine keeps
for that purpose; a board never rebuilds an earlier position, and nothing here reads a rule id or
the words of the log.

Stepping back (:meth:`RevealSteps.back`) shows an earlier step again and hides nothing already seen.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from sloth_kernel.core import Event


@dataclass(frozen=True)
class Reveal:
    """Where a board is in the staged steps of the newest move.

    `starts` holds the log index of each step's first event (one per staged event), `seen` how many
    steps the person has been shown, `at` the step on view (at most `seen`).
    """

    starts: tuple[int, ...] = ()
    seen: int = 0
    at: int = 0

    @property
    def steps(self) -> int:
        """How many steps the newest move stages (0: it shows all it did at once)."""
        return len(self.starts)

    @property
    def pending(self) -> bool:
        """Is a step still to be shown?"""
        return self.seen < len(self.starts)

    def held_back(self, log_length: int) -> int:
        """How many of the newest log events the steps not yet shown hold back (0: none)."""
        return log_length - self.starts[self.seen] if self.pending else 0

    def shown_events(self, log: Sequence[Event]) -> Sequence[Event]:
        """The log as far as it is shown."""
        return log[: len(log) - self.held_back(len(log))]

    def step_events(self, log: Sequence[Event], step: int) -> Sequence[Event]:
        """The events step `step` (1 to `steps`) shows: from its staged event to the next step's."""
        if not 1 <= step <= len(self.starts):
            return ()
        end = self.starts[step] if step < len(self.starts) else len(log)
        return log[self.starts[step - 1] : end]


def staged_starts(log: Sequence[Event], kinds: Collection[str]) -> tuple[int, ...]:
    """The log index of every event of a staged kind after the newest move (none before any move)."""
    if not kinds:
        return ()
    last_move = next((i for i in range(len(log) - 1, -1, -1) if log[i].move is not None), None)
    if last_move is None:
        return ()
    return tuple(i for i in range(last_move + 1, len(log)) if log[i].kind in kinds)


class RevealSteps:
    """The one stepper a board shell keeps: which staged steps of the newest move have been shown.

    It takes in the log on every look (:meth:`look`); a new move, or a new game, starts again at
    the move itself.
    """

    def __init__(self, kinds: Collection[str]) -> None:
        self.kinds = frozenset(kinds)
        self._key: tuple[object, int] | None = None
        self._reveal = Reveal()

    def look(self, game_key: object, log: Sequence[Event]) -> Reveal:
        """The reveal of the newest move of the game `game_key` (any object naming one game), its log `log`."""
        starts = staged_starts(log, self.kinds)
        key = (game_key, sum(1 for event in log if event.move is not None))
        if key != self._key:
            self._key = key
            self._reveal = Reveal(starts)
        return self._reveal

    def next(self) -> Reveal:
        """Show the next step (or the one after the step on view, when stepping back was used)."""
        reveal = self._reveal
        at = min(reveal.at + 1, reveal.steps)
        self._reveal = Reveal(reveal.starts, max(reveal.seen, at), at)
        return self._reveal

    def back(self) -> Reveal:
        """Show the step before the one on view again (what was seen stays seen)."""
        reveal = self._reveal
        self._reveal = Reveal(reveal.starts, reveal.seen, max(0, reveal.at - 1))
        return self._reveal

    def finish(self) -> Reveal:
        """Show every step (the person asked for all, or moved on past them)."""
        reveal = self._reveal
        self._reveal = Reveal(reveal.starts, reveal.steps, reveal.steps)
        return self._reveal
