"""Race to the Bottom's 'find the play' puzzles, and the kit that reads its positions for the proofs.

Each puzzle is a position from a seeded single race between the random bots, found by
``python -m sloth_kernel.puzzles find race-to-the-bottom`` and proved again by the tests.
Single races only, so no shed-out happens mid-trick in a Grand Prix (RB-12); a player to move
with an empty hand (a leader's case is RB-13's) is a position no proof passes through.
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

    episode_word = "race"

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
        """A Grand Prix shed-out (RB-12), or a player to move with an empty hand (RB-13 rules the leader's case)."""
        if view.is_over:
            return False
        if view.grand_prix and view.order:
            return True
        mover = view.seats[view.current_player]
        return not view.pitching and not mover.hand_count  # RB-13's case, and any turn with an empty hand

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


def _puzzle(options: dict[str, Any], seed: int, moves: str, goal: Goal, answer: str) -> Puzzle:
    """A puzzle of this game: `moves` is the record's moves up to the position, comma-separated."""
    return Puzzle(GAME, options, seed, tuple(moves.split(", ")) if moves else (), goal, answer)


PUZZLES: tuple[Puzzle, ...] = (
    _puzzle(
        {"players": 2},
        200,
        "A 2 3, pass, pitch 8, pitch 2, pitch 4, pitch 2, pitch 7, pitch A, done, pass, done, 8 *8 9 9, 8 8 9 *9, pass, pitch 7, pitch J, done, pass, pitch 6, pitch 5, pitch K, pitch T, pitch 2, pitch J, done, 6 7 *8",
        LeadNext(),
        "8 9 T",
    ),
    _puzzle(
        {"players": 2},
        200,
        "A 2 3, pass, pitch 8, pitch 2, pitch 4, pitch 2, pitch 7, pitch A, done, pass, done, 8 *8 9 9, 8 8 9 *9, pass, pitch 7, pitch J, done, pass, pitch 6, pitch 5, pitch K, pitch T, pitch 2, pitch J, done, 6 7 *8, pass, pitch T, pitch 6, pitch 4, done, J Q K, pass, pitch 7, done, J Q, K A, 3 4, 8 9",
        LeadNext(),
        "Q K",
    ),
    _puzzle(
        {"players": 2},
        201,
        "9, K, K, pass, pitch T, pitch 5, pitch J, pitch 3, done, K, pass, done, J Q, J Q, A 2, pass, pitch 5, pitch 4, done, 3 4, 3 4, pass, pitch T, done, *A, 5, 6, A, K, pass, pitch 2, pitch 6, pitch 8, pitch 9, pitch A, pitch K, done, K, pass, pitch J, done, 8 9, pass, pitch 8, pitch T, pitch 4, pitch A, done, A 2, A 2, pass, pitch T, pitch 2, pitch 6, done, 5 5, 9 *9, Q Q, pass, pitch 8, pitch 2, pitch 2, pitch 5, pitch Q, pitch 3, done, pass, pitch 5, pitch A, pitch 9, pitch J, pitch 9, pitch 4, done, *6, K, pass, pitch 7, pitch 3, pitch 3, pitch Q, pitch 5, pitch 8, done, *A, Q, pass, pitch J, pitch T, pitch 7, pitch 9, pitch 2, pitch J, done, 7 8 9 T, pass, pitch 7, pitch T, pitch 7, pitch 7, pitch J, done, pass, pitch K, pitch Q, pitch 7, pitch 3, done, 3 4 5 6 7, pass, pitch 2, pitch T, pitch 4, pitch 5, done, pass, pitch 6, pitch J, pitch 4, pitch 3, pitch 6, done, A A, pass, pitch 6, pitch 8, pitch J, pitch J, pitch 6, pitch 9, done, 8 8, pass, pitch 9, pitch 2, pitch K, done, 6, T, A, pass, pitch 8, pitch A, pitch 5, pitch 6, pitch 4, pitch Q, done, T, pass, pitch T, pitch 5, pitch 8, done, 2 2 2, 7 7 7, pass, pitch Q, pitch 9, pitch 7, pitch T, pitch 4, pitch 5, done, pass, pitch 2, pitch 7, done, 4 5, Q K, pass, done, pass, pitch 6, pitch 4, pitch 4, pitch 7, pitch J, done, 5 6, T J, T J, T J, pass, pitch 3, pitch K, done, pass, pitch 8, pitch 8, pitch 6, pitch 3, pitch 3, pitch J, done, 8, J, A, 8, T",
        LeadNext(),
        "T",
    ),
    _puzzle({"players": 2}, 202, "9 T J, pass, done, pass, done, 3 4, 6 7, A 2, 2 3, 5 6", LeadNext(), "7 8"),
    _puzzle(
        {"players": 2},
        202,
        "9 T J, pass, done, pass, done, 3 4, 6 7, A 2, 2 3, 5 6, 8 9, 8 9, pass, pitch 8, pitch 8, done, pass, pitch 8, pitch A, pitch J, pitch J, done, T J, A *2, Q *K, Q K, pass, done, pass, pitch 5, pitch 7, pitch 3, pitch 6, pitch 7, pitch 4, done, T J Q, A 2 3, 2 3 4, pass, pitch 5, done, pass, pitch 2, done, 5 5, K K, pass, pitch K, pitch A, pitch J, pitch A, pitch 8, done, pass, pitch A, pitch 2, done, 7 8, Q K, pass, pitch 4, pitch 5, pitch T, pitch 8, pitch 7, pitch 3, done, pass, pitch J, pitch 4, pitch 6, pitch 7, pitch 9, pitch J, done, *9, *Q, Q",
        LeadNext(),
        "Q",
    ),
    _puzzle(
        {"players": 2},
        203,
        "K K K, pass, pitch 7, pitch T, pitch 6, done, pass, pitch Q, pitch J, pitch 5, pitch J, pitch A, pitch A, done, 9 9, K *K, pass, pitch 4, pitch T, pitch 2, done, pass, pitch 3, pitch 8, pitch 5, pitch J, pitch 2, done, J, pass, done, pass, pitch 8, pitch 2, pitch 7, pitch 4, pitch T, pitch 5, done, J Q, pass, pitch 9, pitch 5, pitch 8, pitch 8, pitch 8, pitch 7, done, K A, pass, pitch 9, pitch 6, pitch 3, pitch 9, pitch 4, pitch 9, done, *J Q, pass, pitch J, pitch 7, pitch 4, pitch 5, pitch J, pitch A, done, K A, 2 3, 3 4, pass, pitch 8, pitch 8, pitch K, pitch A, done, 5 6 7, *5 6 7, T J Q, pass, pitch A, done, pass, done, 2, 6, T, T, T, T, A, 3, pass, pitch 9, pitch 4, pitch 7, pitch 7, pitch Q, pitch 5, done, 3, 6, T, pass, pitch 4, pitch 2, pitch 8, pitch 7, pitch 2, done, 9 *9, pass, pitch 5, pitch J, done, pass, pitch 5, pitch 3, done, Q, pass, pitch 7, pitch 2, pitch 5, pitch 4, done, pass, done, 6, 6, pass, pitch 4, pitch 3, pitch 2, pitch 5, pitch J, done, 9, pass, pitch 3, pitch 6, pitch 3, pitch T, pitch 2, pitch 8, done, A, Q, pass, pitch 7, pitch 4, done, A, A, Q, K, pass, pitch 2, pitch 4, pitch Q, pitch J, pitch T, pitch 9, done, A A, 8 8, J J, pass, pitch 4, pitch 8, pitch 5, pitch 7, pitch 6, pitch Q, done, pass, pitch 8, pitch 8, pitch 4, done, 8 8, 9 9, pass, pitch 4, pitch 5, pitch 7, pitch 5, pitch 5, done, pass, done, 9 T, pass, pitch 2, pitch J, pitch 5, pitch 4, pitch 7, pitch 7, done, pass, pitch 6, pitch K, pitch J, done, 8, 9, pass, pitch 2, pitch 5, pitch 2, pitch 3, pitch 4, pitch 5, done, pass, pitch T, pitch 8, done",
        LeadNext(),
        "2 2 3 3 4 4",
    ),
    _puzzle(
        {"players": 2},
        205,
        "5 6 7 *8, 9 *T J Q, pass, pitch 6, pitch Q, pitch 8, pitch 8, pitch 6, done, pass, done, K K K, pass, pitch 9, pitch J, pitch 3, pitch 8, pitch 7, pitch 2, done, pass, pitch 4, pitch 7, pitch Q, pitch T, pitch 6, pitch 8, done, J, K, K, 4 4 4 4, pass, pitch T, done, pass, pitch 7, pitch J, pitch Q, done, A A A, pass, pitch A, pitch Q, pitch Q, pitch A, done, pass, pitch 9, pitch 8, pitch 3, pitch 9, pitch Q, done, J, pass, pitch 2, pitch 9, pitch 3, pitch 6, pitch 8, pitch 4, done, pass, pitch K, pitch T, pitch T, pitch T, pitch Q, pitch J, done, 5 5 5, 5 5 *5, pass, done, pass, pitch A, pitch T, pitch 3, pitch 8, pitch 5, pitch 9, done, 3, T, pass, pitch 7, pitch J, pitch 9, pitch 6, pitch 6, pitch 3, done, A, K, pass, pitch 6, pitch K, pitch 7, pitch 9, pitch 2, pitch 2, done, 8 8, pass, done, pass, pitch 9, pitch 2, pitch Q, pitch *, pitch 6, pitch 6, done, 2, T, pass, pitch 8, pitch 9, pitch 8, pitch 7, pitch Q, pitch 7, done, A, 5, 8, J, pass, pitch 2, pitch 7, done, 6 7 8, pass, pitch Q, pitch K, done, pass, done, 4, T, A, 3 3 3 3, pass, pitch Q, pitch Q, pitch T, pitch T, done, pass, done, T T, pass, pitch 7, pitch 4, pitch 2, pitch Q, pitch 6, pitch A, done, J J, pass, pitch Q, pitch 2, pitch 6, pitch J, done, Q *K, A 2, 7 8, 8 9, pass, pitch 9, done, pass, done, 9 T, Q K, pass, pitch 4, pitch J, done, pass, pitch 9, done, 6 7 8 9, pass, pitch 9, pitch 2, pitch 6, pitch 8, pitch 3, pitch 3, done, pass, pitch K, pitch Q, pitch 9, done, 9, T, Q, pass, pitch Q, pitch 6, done, Q, pass, pitch 9, pitch 7, pitch 2, pitch K, pitch 2, pitch J, done, 7, T, J, pass, pitch 7, pitch 7, pitch 4, done, K, pass, done",
        LeadNext(),
        "2 2 2",
    ),
    _puzzle(
        {"players": 2},
        206,
        "*J Q K A, 2 3 *4 5, pass, pitch 6, pitch 3, pitch J, pitch 4, pitch 6, pitch 8, done, pass, pitch Q, pitch 4, pitch Q, pitch 9, done, J Q K",
        LeadNext(),
        "A 2 3",
    ),
    _puzzle(
        {},
        1,
        "T J Q, A 2 3, 8 9 *T, pass, pitch Q, pitch Q, pitch A, pitch 4, pitch 7, pitch K, done, 8 9 T, pass, done, pass, pitch T, done, *T, A, 5, 5, K, pass, pitch 2, pitch K, pitch J, pitch 9, pitch 4, pitch 5, done, A, T, K, pass, pitch 6, pitch 2, pitch J, pitch K, pitch J, done, pass, pitch 3, pitch 8, pitch 6, pitch 5, pitch 4, pitch 4, done, *Q K, Q K",
        LeadNext(),
        "3 3 3 *3",
    ),
    _puzzle(
        {},
        1,
        "T J Q, A 2 3, 8 9 *T, pass, pitch Q, pitch Q, pitch A, pitch 4, pitch 7, pitch K, done, 8 9 T, pass, done, pass, pitch T, done, *T, A, 5, 5, K, pass, pitch 2, pitch K, pitch J, pitch 9, pitch 4, pitch 5, done, A, T, K, pass, pitch 6, pitch 2, pitch J, pitch K, pitch J, done, pass, pitch 3, pitch 8, pitch 6, pitch 5, pitch 4, pitch 4, done, *Q K, Q K, pass, pitch Q, pitch 7, pitch T, pitch *, pitch 8, pitch 7, done, pass, done, pass, pitch A, pitch 4, done, 6 6, 9 9, pass, pitch K, pitch 4, pitch 2, pitch 2, pitch 9, pitch J, done",
        LeadNext(),
        "5 5 5 *5",
    ),
    _puzzle(
        {},
        3,
        "A *2 3 4 5 6, pass, pitch Q, pitch 3, pitch A, pitch 5, pitch J, pitch 2, done, pass, pitch T, pitch 8, pitch Q, pitch A, pitch 7, pitch K, done, pass, pitch Q, pitch 2, pitch 7, pitch 8, pitch 5, done, A 2, pass, pitch A, pitch 7, pitch 6, pitch 5, done, pass, pitch 6, pitch 8, pitch Q, pitch 8, pitch 2, done, J Q, pass, pitch 4, pitch 8, pitch 3, pitch K, pitch 7, pitch 5, done, 9 9, pass, pitch 3, pitch 6, pitch 8, done, A A, T T, J J, pass, done, pass, pitch 7, pitch 2, pitch 7, pitch 3, done, *2, 3, J, J, A, 9, pass, done, pass, pitch 7, pitch T, pitch A, pitch J, pitch 3, done, 9, pass, pitch 4, pitch 3, done, 5 6, 5 6, 8 9, 9 T, pass, pitch 6, pitch 2, pitch 9, pitch 3, pitch 3, pitch 4, done, pass, pitch K, pitch T, pitch 5, pitch 7, pitch J, pitch J, done, pass, pitch 7, pitch 9, pitch A, pitch K, pitch 8, pitch 5, done, K *A, Q *K, *A 2",
        LeadNext(),
        "T J",
    ),
    _puzzle(
        {},
        4,
        "J Q K A, J Q K *A, pass, pitch 3, pitch J, pitch T, pitch 7, pitch 7, done, pass, pitch 8, pitch T, pitch 9, pitch T, pitch K, pitch K, done, pass, pitch 3, pitch 6, pitch K, done, 6 6 7 7",
        LeadNext(),
        "8 *8 9 9",
    ),
    _puzzle(
        {},
        4,
        "J Q K A, J Q K *A, pass, pitch 3, pitch J, pitch T, pitch 7, pitch 7, done, pass, pitch 8, pitch T, pitch 9, pitch T, pitch K, pitch K, done, pass, pitch 3, pitch 6, pitch K, done, 6 6 7 7, pass, pitch *, pitch 6, pitch A, pitch 2, pitch 7, pitch 8, done, pass, pitch *, pitch 5, pitch 2, pitch 7, done, pass, pitch Q, pitch 9, done, 2, 7, A, 5, J, pass, pitch 6, pitch Q, pitch 4, pitch 8, pitch 8, pitch 7, done, pass, done, pass, pitch T, pitch A, done, 9 T J Q",
        LeadNext(),
        "J Q K A",
    ),
    _puzzle(
        {},
        6,
        "A 2 3, 3 4 5, 4 5 6, 5 6 7, pass, pitch J, pitch 4, pitch T, pitch T, pitch J, pitch 3, done, pass, pitch T, pitch J, pitch 8, pitch K, pitch 7, pitch 7, done, pass, pitch 8, pitch 5, done, 8 8 8, A A A",
        LeadNext(),
        "A A A A",
    ),
    _puzzle(
        {},
        6,
        "A 2 3, 3 4 5, 4 5 6, 5 6 7, pass, pitch J, pitch 4, pitch T, pitch T, pitch J, pitch 3, done, pass, pitch T, pitch J, pitch 8, pitch K, pitch 7, pitch 7, done, pass, pitch 8, pitch 5, done, 8 8 8, A A A, pass, pitch 8, pitch 5, done, pass, pitch 2, done, 6 6 *6, pass, pitch 9, pitch 9, pitch 7, pitch 5, pitch K, pitch 3, done, K, pass, pitch 2, pitch A, pitch A, done, pass, done, pass, pitch 2, pitch 8, pitch 4, pitch 4, pitch Q, pitch 5, done, 6 7 8 9 T, pass, pitch T, done, A 2 *3 4 5, pass, pitch Q, pitch 9, done, pass, pitch A, pitch 4, pitch 9, pitch 6, done, 7, J, J, pass, pitch T, pitch 4, pitch 2, pitch J, pitch J, pitch 3, done, *J, J, Q, pass, pitch 8, done, K, K, pass, pitch 3, pitch 5, pitch 2, pitch J, pitch 6, pitch 2, done, 7, K, pass, pitch 3, pitch 7, pitch J, done, A, pass, pitch Q, pitch 6, pitch Q, pitch 4, pitch 7, pitch 2, done, pass, pitch Q, pitch 4, pitch 2, pitch J, pitch T, pitch 7, done, 9, *J, *Q, pass, pitch T, pitch T, pitch 3, done, A, T, Q",
        LeadNext(),
        "Q",
    ),
)

BOOK = PuzzleBook(KIT, PUZZLES)
__all__ = ["BOOK", "KIT", "PUZZLES", "LeadNext"]
