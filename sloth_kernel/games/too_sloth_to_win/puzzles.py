"""Too Sloth To Win's 'find the play' puzzles, and the kit that reads its positions for the proofs.

Each puzzle is a position from a seeded game between the random bots, found by
``python -m sloth_kernel.puzzles find too-sloth-to-win`` and proved again by the tests.
Positions where a leader holds only drinks (TS-5, TS-16) are left to the rulings: no proof
passes through one.
"""

from __future__ import annotations

from typing import Any

from sloth_kernel.core import Move
from sloth_kernel.games.too_sloth_to_win.engine import DRINK, DRINK_BASE, Play, TooSlothObservation
from sloth_kernel.games.too_sloth_to_win.render import hand_faces, hand_title
from sloth_kernel.puzzles import Finish, Goal, LeadNext, Puzzle, PuzzleBook

GAME = "too-sloth-to-win"


def _can_lead(hand: tuple[int, ...] | None) -> bool:
    """Whether a hand holds a running card (a drink alone cannot lead, TS-4, TS-5)."""
    return hand is not None and any(count for card, count in enumerate(hand) if card != DRINK)


class TooSlothKit:
    """Tricks, finishes and turns of Too Sloth To Win, read from the omniscient view."""

    episode_word = "round"

    def episode(self, view: TooSlothObservation) -> int:
        return len(view.results)

    def trick_winner(self, view: TooSlothObservation) -> int | None:
        """After a table reset (TS-8) the leader, if they can lead (TS-5)."""
        if view.is_over or view.table:
            return None
        hand = view.hands[view.current_player]
        return view.current_player if _can_lead(hand) else None

    def in_trick(self, view: TooSlothObservation, seat: int) -> bool:
        return view.status[seat] == "active"  # a pass takes a card but keeps you in (TS-6)

    def racing(self, view: TooSlothObservation, seat: int) -> bool:
        return view.status[seat] == "active"

    def finished(self, view: TooSlothObservation, seat: int, episode: int) -> bool:
        """Crossed the finish line (TS-9) in round `episode` (not placed as lone survivor or last one left)."""
        if len(view.results) > episode:
            result = view.results[episode]
            if result.note == "lone survivor":
                return False
            if result.note == "last player standing":
                return seat == result.first
            return seat in (result.first, result.second)
        return view.status[seat] in ("1st", "2nd")

    def turn_starts(self, view: TooSlothObservation) -> bool:
        return True

    def unsettled(self, view: TooSlothObservation) -> bool:
        """A leader with only drinks (TS-5; the deadlock is TS-16's)."""
        if view.is_over or view.table:
            return False
        hand = view.hands[view.current_player]
        return not _can_lead(hand)

    def aside(self, state: Any) -> Move | None:
        return None  # a passer stays in the trick

    def hand_cards(self, view: TooSlothObservation, seat: int) -> list[tuple[str, Any, str]]:
        hand = view.hands[seat]
        return [] if hand is None else [(key, face, hand_title(key)) for key, face in hand_faces(hand)]

    def move_keys(self, move: Move) -> tuple[str, ...]:
        if not isinstance(move, Play):
            return ()
        return tuple("D" if card > DRINK_BASE else str(card) for card in move.cards)

    def move_words(self, move: Move) -> str:
        return move.words  # a drink in words: "Run 4-5-6 (a drink as the 5)", "pass and take the 6"


KIT = TooSlothKit()


def _puzzle(options: dict[str, Any], seed: int, moves: str, goal: Goal, answer: str) -> Puzzle:
    """A puzzle of this game: `moves` is the record's moves up to the position, comma-separated."""
    return Puzzle(GAME, options, seed, tuple(moves.split(", ")) if moves else (), goal, answer)


PUZZLES: tuple[Puzzle, ...] = (
    _puzzle(
        {},
        0,
        "7, 4-4, pass 4, 2-D3-4, 7-8-D9, pass D, 1-D2-3, pass 1, 1-2-3, 7-8-D9, pass D, pass 8, pass, 1-D2, 3-D4, pass 3, pass, 5-5, pass 5, 6, 6-7-8, pass 6, 5, pass, 1-D1, 8-D8, pass D, 6-D7, pass 6, 2-3, 4-D5-6, pass 4, 6-7, pass 7, 8-D8, pass 8, pass, 7-7-7, pass 7",
        LeadNext(),
        "5-5-5",
    ),
    _puzzle(
        {},
        1,
        "D6-7, 7-D8, 8-D9, 2-3-4, 4-5-6, pass 6, 4-5-6, pass 6, pass 5, 6, 3-4, pass 4, 8-8, pass 8, pass, 4-4, 5-5, 3-4, 1-D2-3, pass 1, 4-5-6, pass 4, pass 6, 1-1, 8-D8, pass 8, 7-7, 5-5-D5, pass D, pass 5, pass, 2, 3-D3",
        LeadNext(),
        "8-8-D8",
    ),
    _puzzle(
        {},
        3,
        "D5-6, 1-2-3, 3-4-5, pass 3, pass 4, 6-D7, 8-D9, D3-4-5, pass D, 5-6, pass 5, pass, 7-D8, pass 7",
        LeadNext(),
        "8-8-8",
    ),
    _puzzle(
        {},
        3,
        "D5-6, 1-2-3, 3-4-5, pass 3, pass 4, 6-D7, 8-D9, D3-4-5, pass D, 5-6, pass 5, pass, 7-D8, pass 7, 8-8-8, pass 8, pass 8, 3, 7-8-D9, pass D, 3-D4-5, D6-7-8, pass D, 5-D6-7, pass 5, 1-2-3, D4-5-6, pass 6, pass 5, 2-2, pass 2, pass, 5-5, pass 5, 6",
        LeadNext(),
        "3-4-5",
    ),
    _puzzle(
        {},
        4,
        "5-6, 5-D6-7, pass 5, 1-2-D3, pass 1, 4-5, 4-D5-6, pass 6, 1-D2-3, pass 1, 4-5, 5-6, pass 5, 1-1, pass 1, pass, 5-6, pass 6, 5-6-7, pass 5, pass 7, 1, 2-D3-4, 5-D6-7, 6-D7-8, pass 8, 6-7-8, pass 6, pass 7, 6-6, pass 6, 4-5, pass 4, 8-D9, pass 8, pass",
        LeadNext(),
        "4-4-4",
    ),
    _puzzle(
        {},
        6,
        "D5-6, D6-7-8, pass D, 7-8-D9, pass 7, pass D, 1-2, pass 2, 8, D5-6, D1-2-3, pass 3, 3-4, pass 3, 5-5-5, pass 5, pass 5, 3-3, pass 3, 4-4, 7-7, pass 7, 3-D4, pass 3, 4-5, 6-D7, 4-5-6, pass 4, D6-7-8, pass D, pass 8, 3-4-5, pass 3, 8-D9, pass 8, pass, 2-3, 6-7",
        LeadNext(),
        "6-D7-8",
    ),
    _puzzle(
        {},
        6,
        "D5-6, D6-7-8, pass D, 7-8-D9, pass 7, pass D, 1-2, pass 2, 8, D5-6, D1-2-3, pass 3, 3-4, pass 3, 5-5-5, pass 5, pass 5, 3-3, pass 3, 4-4, 7-7, pass 7, 3-D4, pass 3, 4-5, 6-D7, 4-5-6, pass 4, D6-7-8, pass D, pass 8, 3-4-5, pass 3, 8-D9, pass 8, pass, 2-3, 6-7, 6-D7-8, pass 8, pass D, 1, 5, 1-D1, 8-8-8, D2-3, 3-D4, 1-2-D3, D6-7-8, pass D, 5-6-7, pass 7, pass 5, pass, 3, 7, 4-4, pass 4, 5-6, pass 5, pass",
        LeadNext(),
        "5-6",
    ),
    _puzzle(
        {},
        9,
        "4-D4, 5-D5, 8-8-D8, pass 8, pass D, pass, 2-2, 7-7-D7, pass 7, pass D, 3-4, 6-D7, pass 6, 2-3, pass 3, 7-D8, pass D, 7-7, pass 7, 7-8, D1-2, 7-8-D9, pass D, 3-4-5, 6-7-8, pass 8, D5-6-7, 6-D7-8, pass 8, pass D, 5-D6, pass 5, 1-1, 7-7-D7, pass D, pass 7, 8-8, pass 8, 3-4",
        LeadNext(),
        "4-5",
    ),
    _puzzle(
        {},
        10,
        "3, 8-8-D8, pass D, pass 8, 5-D6, 2-3-4, pass 4, 4-D5-6, pass 6, pass 4, 4-D4, 5-5, 7-7, pass 7, 1-2-D3, pass D, pass 2, 1-2, pass 2, 8, pass, 6-7, 7, 5-D5, 7-D7, pass 7, 3-D3, pass 3, 4-5-6, 7-8-D9, pass 7, pass D, pass, 6-7-8, pass 8, 7-D8, pass D, pass",
        LeadNext(),
        "5-6-7",
    ),
    _puzzle(
        {},
        15,
        "3-D4-5, 5-D6-7, pass 5, pass D, pass, 6, 2-D3, 1-D2-3, pass 1, pass D, 2-D2, pass D",
        LeadNext(),
        "5-5-5",
    ),
    _puzzle(
        {},
        16,
        "1-D2-3, 5-D6-7, 6-7-8, pass 8, pass 7, 2-2, 5-D5, pass 5, 8-8-8, pass 8, pass 8, D3-4-5, 6-7-8, pass 6, pass 8",
        LeadNext(),
        "6-7-8",
    ),
    _puzzle(
        {},
        18,
        "2-D2, pass 2, D4-5-6, 5-D6-7, pass 5, 6-7-D8, pass 6, pass D, 1-2, 1-2-3, pass 1, pass 3, 7-7, pass 7, 5-5, 4-4-4, pass 4, pass 4, 5-6, D6-7-8, pass 8, pass 7, pass, 3, pass, 5-6, pass 5, 3-D3, 7-D7, 3-3-D3, 4-4-D4, pass 4, 8-8, pass 8, 2-2, 4-4-4, pass 4, 8-8, pass 8, 1-1-1, pass 1, pass 1, 5, pass",
        LeadNext(),
        "5-6-7",
    ),
    _puzzle(
        {},
        19,
        "1-D2, 5-6-D7, 6-D7-8, pass 8, 1-2-3, pass 3, pass 1, 7, 8, 5-6, 7-8, 5-6-7, pass 7, pass 6, pass",
        LeadNext(),
        "8-8-D8",
    ),
    _puzzle(
        {},
        20,
        "D1-2, 3-D4, 6-D7, 1-2-D3, 5-6-7, pass 7, pass 6, 1-2, 4-5, 7-8, pass 8, 4-4, 6-6, pass 6, 2-3-4, pass 2",
        Finish(turns=2),
        "6-7-8",
    ),
    _puzzle(
        {},
        21,
        "5-D6-7, 7-8-D9, pass 7, 4-D5-6, pass 4, pass D, D6-7, pass 7, 7-7, 6-6-D6, pass D, 7-7, pass 7",
        Finish(turns=2),
        "3-4-5",
    ),
    _puzzle(
        {},
        22,
        "4-4, 7-7-7, 8-8-D8, pass 8, pass 8, 2-D2, pass D, 5-6-D7, 6-D7-8, pass 6, 3-4-D5, pass 3, pass D, 8-8, pass 8, 2-3, 4-5, pass 5, 1-2, pass 2, pass, pass, 5, 7-D8, 2-D3-4, 4-D5-6, 6-D7-8, pass 6, pass D, 2-3, 3-4, 6-7-8, pass 8, pass 7, pass, 8, 7-D8, pass D, 8, 8-8",
        Finish(turns=2),
        "7-7-D7",
    ),
    _puzzle(
        {},
        23,
        "3-D4, pass D, 4-D5, pass 4, 7-7, 2-2-D2, pass D, pass 2, pass, 3-D4-5, D6-7-8, 7-8-D9, pass 7, pass D, 5-6, 7-8, 1-D2-3",
        Finish(turns=2),
        "4-5-6",
    ),
    _puzzle(
        {},
        24,
        "7, 2-3-D4, 6-7-D8, pass 6, 1-2-D3, pass 1, 4-5, 5-6-D7, pass D, pass 5, pass, 5, 4-D4, 8-8, pass 8, 3-3",
        Finish(turns=2),
        "4-4-4",
    ),
    _puzzle(
        {},
        25,
        "2-2-D2, pass 2, pass D, D7-8, pass 8, 8-D9, 1-D2-3, pass 3, 5-6, pass 5, 5-D5, pass D, pass, pass, 6, 2-D3",
        Finish(turns=2),
        "pass D",
    ),
)

BOOK = PuzzleBook(KIT, PUZZLES)
__all__ = ["BOOK", "KIT", "PUZZLES", "Finish", "LeadNext"]
