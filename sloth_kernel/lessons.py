"""Scripted deals for the teaching notebooks: a deal, the moves, and what they show.

Each :class:`Lesson` is replayed through the public protocol (``from_deal`` and
checked ``play``), so a lesson that stops matching the rules fails loudly in the
tests rather than teaching something false. The step-through widget takes
``lesson.record()``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from .core import GameState
from .registry import load_game


@dataclass(frozen=True)
class Lesson:
    name: str
    game: str
    about: str
    deal: Mapping[str, Any] | None  # None: dealt from `seed`
    moves: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0

    def start(self) -> GameState[Any]:
        game = load_game(self.game, **self.options)
        return game.from_deal(self.deal, seed=self.seed) if self.deal else game.new_state(self.seed)

    def state(self, upto: int | None = None) -> GameState[Any]:
        """The position after the first `upto` moves (all of them by default)."""
        state = self.start()
        for move in self.moves[:upto]:
            state = state.play(move)
        return state

    def record(self) -> dict[str, Any]:
        return self.state().to_record()


LESSONS: dict[str, Lesson] = {
    lesson.name: lesson
    for lesson in (
        Lesson(
            "ts-passing",
            "too-sloth-to-win",
            "Passing weakens the table: each pass takes an end card (TS-6) until a Single is left, "
            "and passing on a Single eliminates you (TS-7).",
            {"hands": ["4 5 6 1", "2 2 8 6", "6 7 3", "1 1 1 8"]},
            ("4-5-6", "pass 6", "6-7", "pass 7", "pass", "2-2"),
            {"players": 4, "rounds": 1},
        ),
        Lesson(
            "ts-drink",
            "too-sloth-to-win",
            "The Suspicious Drink is declared inside a Jump or Run (TS-4); left alone on the table it is a Single 9.",
            {"hands": ["4 6 D 2", "8 1 1", "5 5 3", "7 7 2"]},
            ("4-D5-6", "pass 4", "pass 6", "7-7"),
            {"players": 4, "rounds": 1},
        ),
        Lesson(
            "ts-round",
            "too-sloth-to-win",
            "A whole round: Jumps climb, drinks are declared, passes weaken the table down to a lone drink "
            "(a Single 9), the first finisher's Trophy (TS-10), drug possession, and the race for second (TS-11).",
            {"hands": ["2 2 2 5 6 6 8 8 D", "1 3 3 3 4 5 6 7 D", "1 1 1 4 4 7 7 7 D", "2 3 3 4 5 7 8 8 D"]},
            (
                "2-2-2",
                "3-3-3",
                "7-7-7",
                "8-8-D8",
                "pass 8",
                "pass 8",
                "1-1-1",
                "pass 1",
                "6-6-D6",
                "pass 6",
                "4-4-D4",
                "pass 4",
                "8-8-8",
            ),
            {"players": 4, "rounds": 1},
        ),
        Lesson(
            "rb-passing",
            "race-to-the-bottom",
            "Matching pairs climb (RB-2), Aces reset (RB-4); a pass is permanent: pitch, refill to 12 (RB-7); "
            "the last player in plays on over their own meld (RB-8).",
            {
                "hands": ["7 7 9 9 Q Q 3 4 5 K K K", "5 5 6 6 2 3 8 J J A * T"],
                "decks": ["2 2 5 8 6 6 T", "4 4 7 8 9 9 J Q"],
            },
            ("7 7", "J J", "K K", "A *A", "9 9", "pass", "pitch 2", "pitch 3", "done", "Q Q", "pass", "done"),
            {"players": 2},
        ),
        Lesson(
            "rb-cheats",
            "race-to-the-bottom",
            "A Cheat beats any normal meld; after a Cheat only bigger or equal Cheats follow (RB-6); "
            "Jokers make the bigger ones (RB-3).",
            {"hands": ["7 7 7 8 8 8 9 9 9 * * 2", "4 4 4 4 5 6 7 8 9 T J Q"], "decks": ["3 3 5", "2 2 3"]},
            ("7 7 7 8 8 8", "4 4 4 4", "9 9 9 *9 *9", "pass", "done"),
            {"players": 2},
        ),
        Lesson(
            "ss-game",
            "surplus-of-sloths",
            "A whole game for 3 (dealt from seed 2024): secret picks (SS-3), drafting from one row with the "
            "leftover falling into the Net (SS-4, SS-5), and the reveal with a tie-break and X cards (SS-7..SS-9).",
            None,
            (
                "pick L5",
                "pick S3",
                "pick L3",
                "take LX from row 2",
                "take S2 from row 2",
                "take R2 from row 2",
                "take RX from row 2",
                "take L7 from row 2",
                "take S7 from row 2",
                "take R7 from row 2",
                "take R6 from row 2",
                "take S4 from row 2",
                "take RX from row 1",
                "take Y7 from row 1",
                "take SX from row 1",
                "take L2 from row 2",
                "take S6 from row 2",
                "take Y2 from row 2",
                "take L4 from row 2",
                "take L6 from row 2",
                "take YX from row 2",
                "take LX from row 1",
                "take Y5 from row 1",
                "take RX from row 1",
            ),
            {"players": 3},
            seed=2024,
        ),
        Lesson(
            "sp-game",
            "sprint",
            "A whole game for 3 (dealt from seed 7): lifts too many and too few (SP-4), every kind of Hare "
            "card (SP-5), a reshuffled Objective deck (SP-3) and the Tortoise's win (SP-6).",
            None,
            (
                "lift 24",
                "lift 7",
                "lift 21",
                "lift 6",
                "lift 15",
                "lift 7",
                "lift 19",
                "lift 4",
                "lift 14",
                "lift 8",
                "lift 9",
                "lift 14",
                "lift 16",
                "lift 7",
                "lift 17",
                "lift 11",
                "lift 12",
                "lift 15",
                "lift 7",
            ),
            {"players": 3},
            seed=7,
        ),
    )
}


def lesson(name: str) -> Lesson:
    if name not in LESSONS:
        raise KeyError(f"no lesson {name!r}; choose one of {', '.join(LESSONS)}")
    return LESSONS[name]
