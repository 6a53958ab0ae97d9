"""Surplus of Sloths: drafting. The game's parts, and the spec that names them."""

from sloth_kernel.spec import GameSpec, Notebook

SPEC = GameSpec(
    name="surplus-of-sloths",
    title="Surplus of Sloths",
    players=(2, 4),
    default_players=3,
    kind="drafting",
    engine="sloth_kernel.games.surplus_of_sloths.engine:SurplusOfSloths",
    reveal_kinds=("reveal-type",),  # Event kinds a board shows as steps (the engine's constants)
    deal_schema="sloth_kernel.games.surplus_of_sloths:deal.schema.json",
    renderer="sloth_kernel.games.surplus_of_sloths.render:render",
    bots="sloth_kernel.games.surplus_of_sloths.bots:BOTS",
    search="sloth_kernel.games.surplus_of_sloths.search:search_spec",
    board="sloth_widgets.surplus_of_sloths.board:SurplusBoard",
    lessons="sloth_kernel.games.surplus_of_sloths.lessons:LESSONS",
    variants="sloth_kernel.games.surplus_of_sloths.variants:VARIANTS",
    cooperative=False,
    max_length=400,
    order=30,
    pitch=(
        "Draft sloths from the River; every leftover drops into the Net. At the end, the longest run of each "
        "type takes that type's Net, and every X card in it multiplies the points."
    ),
    faces=(("5", "#2a9d3a", "leaf"), ("6", "#2a9d3a", "leaf"), ("X", "#2a9d3a", "leaf", "wild", "wild")),
    play_notebook="play_surplus_of_sloths.ipynb",
    learn_notebook="learn_surplus_of_sloths.ipynb",
    option_docs={
        "players": "How many play (SS-1).",
        "babies": "Add the Baby cards (SS-2).",
        "baby_nets_itself": "A Baby may itself be the card put into the Net (SS-6).",
        "super_surplus": "Play a Super Surplus match of several games (SS-10).",
        "first_active": "Who is the first Active Player (the rulebook's: who most recently pet a sloth).",
        "match_first_active": "In a Super Surplus match, whether the first Active Player rotates or stays.",
    },
    seat_options=("first_active",),
    edge_cases=(("4 players, Babies, Super Surplus", {"players": 4, "babies": True, "super_surplus": True}),),
    notebooks=(
        Notebook(
            "analysis_surplus_of_sloths.ipynb", "Surplus of Sloths in numbers", "How runs and X cards become points."
        ),
    ),
)
