"""Scripted deals for the surplus-of-sloths lessons (replayed through the public protocol by the tests)."""

from sloth_kernel.lessons import Lesson

LESSONS: tuple[Lesson, ...] = (
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
)
