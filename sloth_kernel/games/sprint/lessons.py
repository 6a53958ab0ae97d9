"""Scripted deals for the sprint lessons (replayed through the public protocol by the tests)."""

from sloth_kernel.lessons import Lesson

LESSONS: tuple[Lesson, ...] = (
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
