"""Scripted deals for the race-to-the-bottom lessons (replayed through the public protocol by the tests)."""

from sloth_kernel.lessons import Lesson

LESSONS: tuple[Lesson, ...] = (
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
)
