"""Sprint!: co-operative: the table's Tortoise against the Hare. The game's parts, and the spec that names them."""

from sloth_kernel.spec import GameSpec, Notebook

SPEC = GameSpec(
    name="sprint",
    title="Sprint!",
    players=(1, 20),
    default_players=2,
    kind="co-operative: the table's Tortoise against the Hare",
    engine="sloth_kernel.games.sprint.engine:Sprint",
    reveal_kinds=("hare-card",),  # Event kinds a board shows as steps (the engine's constants)
    deal_schema="sloth_kernel.games.sprint:deal.schema.json",
    renderer="sloth_kernel.games.sprint.render:render",
    bots="sloth_kernel.games.sprint.bots:BOTS",
    board="sloth_widgets.sprint.board:SprintBoard",
    lessons="sloth_kernel.games.sprint.lessons:LESSONS",
    variants="sloth_kernel.games.sprint.variants:VARIANTS",
    benchmarks="sloth_kernel.games.sprint.bench:extra_benchmarks",
    cooperative=True,
    max_length=50_000,
    order=40,
    pitch=(
        "The whole table is the Tortoise. Lift exactly as many cards as the Objective says, without counting;"
        " the closer you get, the further the Tortoise runs. The Hare runs on the next card."
    ),
    faces=(("14", "#2b4a7a", "star"), ("4", "#2a9d3a", "runner", "move")),
    play_notebook="play_sprint.ipynb",
    learn_notebook="learn_sprint.ipynb",
    option_docs={
        "players": "How many play together as the Tortoise.",
        "small_track": "The small track (SP-1).",
        "young_tortoise": "The Young Tortoise variant.",
        "track_length": "The finish square, instead of the track's own (SP-1).",
        "carrots": "The carrot squares, instead of the track's own (SP-1): distinct and increasing, 1 to the finish - 1.",
        "race_deck": "How many cards of each kind the race deck holds (SP-2): 8 counts, 2 to 128 cards in all.",
        "objectives": "The Objective cards (SP-3): 1 to 128 numbers, each from 1 to the race deck's size - 1.",
        "hand_noise": "Hand noise (SP-7): how many cards a person's cut may land from where it was aimed "
        "(about 1; 0 makes a cut exact). A lift written as a number, and a simulated player's, is not changed.",
    },
    option_ranges={
        # 5: the default deck's carrot cards need a carrot square (the 4th); 60 (10 tiles): the longest track the
        # expert and master bots solve within about a second at worst (`python -m sloth_kernel bench --edges`)
        "track_length": (5, 60, "the finish square, SP-1; the long track's is 36"),
        "race_deck": (0, 128, "how many cards of each kind, SP-2"),  # a lift (at most 127) fits 8-bit tables
        # cards; any number between, e.g. 0.5 (beyond 4 the cut no longer shows any aim)
        "hand_noise": (0, 4, "how far a person's cut may land from where it was aimed; 0 makes cuts exact, SP-7"),
    },
    options_together="sloth_kernel.games.sprint.options:options_together",
    edge_cases=(
        ("race deck of 2 cards, 1 Objective", {"race_deck": (1, 0, 0, 0, 0, 1, 0, 0), "objectives": (1,)}),
        ("no card moves the Hare forward", {"race_deck": (0, 0, 0, 0, 2, 2, 2, 0), "objectives": (5,)}),
        ("128 race cards, 127 Objectives", {"race_deck": (16,) * 8, "objectives": tuple(range(1, 128))}),
        (
            "track 60, decks of 128 and 127, Young Tortoise",
            {"track_length": 60, "young_tortoise": True, "race_deck": (16,) * 8, "objectives": tuple(range(1, 128))},
        ),
    ),
    notebooks=(
        Notebook(
            "analysis_sprint.ipynb", "Sprint! in numbers", "Win chance against lifting skill; why aiming low pays."
        ),
    ),
)


MAX_OBJECTIVES = 128
"""The most Objective cards (SP-3)."""
