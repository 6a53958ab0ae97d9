"""A scripted deal for High Card (replayed through the public protocol by tests/test_lessons.py)."""

from sloth_kernel.lessons import Lesson

LESSONS: tuple[Lesson, ...] = (
    Lesson(
        "hc-basics",
        "toy-high-card",
        "Three cards each: the high card takes the trick and its player leads the next one (HC-5); "
        "the most tricks win (HC-6).",
        {"hands": [[2, 9, 12], [5, 10, 16]]},
        ("play 12", "play 16", "play 5", "play 9", "play 2", "play 10"),
        {"cards": 16, "hand_size": 3},
    ),
)
