"""Race to the Bottom's 'find the play' puzzles, and the kit that reads its positions for the proofs.

Each puzzle is a position from a seeded single race between the random bots, found by
``python -m sloth_kernel.puzzles find race-to-the-bottom`` and proved again by the tests.
Single races only, so no shed-out happens mid-trick in a Grand Prix (RB-12); a leader with
an empty hand (RB-13) is a position no proof passes through.
"""

from __future__ import annotations

from typing import Any

from sloth_kernel.core import Move
from sloth_kernel.games.race_to_the_bottom.engine import DONE, Pass, Pitch, Play, RaceObservation, RaceState
from sloth_kernel.games.race_to_the_bottom.render import card_face, card_title
from sloth_kernel.puzzles import Goal, LeadNext, Puzzle, PuzzleBook

GAME = "race-to-the-bottom"


class RaceKit:
    """Tricks, finishes and turns of Race to the Bottom, read from the omniscient view."""

    def episode(self, view: RaceObservation) -> int:
        return len(view.results)

    def trick_winner(self, view: RaceObservation) -> int | None:
        """The leader of a new trick, or the last player in once all others have passed (RB-8)."""
        if view.is_over:
            return None
        if view.to_beat is None and not view.pitching:
            return view.current_player
        still_in = [s.seat for s in view.seats if not s.passed and not s.out]
        if len(still_in) == 1:
            return still_in[0]
        return view.current_player if not still_in else None

    def in_trick(self, view: RaceObservation, seat: int) -> bool:
        return not view.seats[seat].passed and not view.seats[seat].out

    def racing(self, view: RaceObservation, seat: int) -> bool:
        return not view.seats[seat].out

    def finished(self, view: RaceObservation, seat: int, episode: int) -> bool:
        if len(view.results) > episode:
            return view.results[episode].left[seat] == 0
        return seat in view.order

    def turn_starts(self, view: RaceObservation) -> bool:
        return not view.pitching  # pitching and refilling end the turn that passed (RB-7)

    def unsettled(self, view: RaceObservation) -> bool:
        """A Grand Prix shed-out (RB-12), or a leader with an empty hand (RB-13)."""
        if view.is_over:
            return False
        if view.grand_prix and view.order:
            return True
        return view.to_beat is None and not view.pitching and not view.seats[view.current_player].hand_count

    def aside(self, state: Any) -> Move | None:
        """A passer's pitches go under their own deck: they cannot change this trick (RB-7)."""
        return DONE if isinstance(state, RaceState) and state.view().pitching else None

    def hand_cards(self, view: RaceObservation, seat: int) -> list[tuple[str, Any, str]]:
        hand = view.seats[seat].hand or ()
        return [(token, card_face(token), card_title(token)) for token in hand]

    def move_keys(self, move: Move) -> tuple[str, ...]:
        if isinstance(move, Play):
            return tuple("*" if card.startswith("*") else card for card in move.cards)
        if isinstance(move, Pitch):
            return (str(move).split()[1],)
        return ()

    def move_words(self, move: Move) -> str:
        if isinstance(move, Play):
            return move.words
        if isinstance(move, Pitch):
            return move.words
        return "pass" if isinstance(move, Pass) else str(move)


KIT = RaceKit()


def _puzzle(options: dict[str, Any], seed: int, moves: tuple[str, ...], goal: Goal, answer: str) -> Puzzle:
    return Puzzle(GAME, options, seed, moves, goal, answer)


PUZZLES: tuple[Puzzle, ...] = ()

BOOK = PuzzleBook(KIT, PUZZLES)
__all__ = ["BOOK", "KIT", "PUZZLES", "LeadNext"]
