"""Too Sloth To Win: climbing race. The game's parts, and the spec that names them."""

from sloth_kernel.spec import GameSpec, Notebook

SPEC = GameSpec(
    name="too-sloth-to-win",
    title="Too Sloth To Win",
    players=(3, 5),
    default_players=4,
    kind="climbing race",
    engine="sloth_kernel.games.too_sloth_to_win.engine:TooSlothToWin",
    reveal_kinds=("round-results", "round-start"),  # Event kinds a board shows as steps (the engine's constants)
    deal_schema="sloth_kernel.games.too_sloth_to_win:deal.schema.json",
    renderer="sloth_kernel.games.too_sloth_to_win.render:render",
    bots="sloth_kernel.games.too_sloth_to_win.bots:BOTS",
    search="sloth_kernel.games.too_sloth_to_win.search:search_spec",
    board="sloth_widgets.too_sloth_to_win.board:TooSlothBoard",
    lessons="sloth_kernel.games.too_sloth_to_win.lessons:LESSONS",
    checker="sloth_kernel.games.too_sloth_to_win.checker:CHECKER",
    puzzles="sloth_kernel.games.too_sloth_to_win.puzzles:BOOK",
    variants="sloth_kernel.games.too_sloth_to_win.variants:VARIANTS",
    cooperative=False,
    max_length=3_000,
    order=10,
    pitch=(
        "Beat the table with a stronger Single, Jump or Run and your sloth runs one space per card. Finish "
        "first for a shiny Trophy, or fix the race and finish second for the Cash Chip that actually wins. "
        "Spend your Suspicious Drink before anyone crosses the line!"
    ),
    faces=(("4", "#1f6b52", "runner"), ("5", "#7b3fb5", "glass", "drink", "wild"), ("6", "#1f6b52", "runner")),
    play_notebook="play_too_sloth_to_win.ipynb",
    learn_notebook="learn_too_sloth_to_win.ipynb",
    option_docs={
        "players": "How many play (TS-1).",
        "pacemaker": "Who holds the pacemaker and leads the first round.",
        "no_board": "Play without the race board: cards only.",
        "finish": "The finish space (the rulebook's is 9); for the variant lab.",
        "rounds": "How many rounds make a game (TS-14: three).",
        "drinks": "Suspicious Drinks dealt to each player (the rulebook's is 1); for the variant lab.",
    },
    option_ranges={
        "finish": (3, 20, "the finish space; the rulebook's is 9, TS-9"),
        "rounds": (1, 9, "the rulebook plays 3, TS-14"),
        "drinks": (0, 2, "Suspicious Drinks per player; the rulebook deals 1, TS-2"),
    },
    seat_options=("pacemaker",),
    edge_cases=(
        ("every range at its top, no board", {"players": 5, "finish": 20, "rounds": 9, "drinks": 2, "no_board": True}),
    ),
    notebooks=(
        Notebook(
            "analysis_too_sloth_to_win.ipynb", "Too Sloth To Win in numbers", "Pacemaker advantage; when to drink."
        ),
    ),
)
