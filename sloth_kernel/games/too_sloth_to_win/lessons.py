"""Scripted deals for the too-sloth-to-win lessons (replayed through the public protocol by the tests)."""

from sloth_kernel.lessons import Lesson

LESSONS: tuple[Lesson, ...] = (
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
)
