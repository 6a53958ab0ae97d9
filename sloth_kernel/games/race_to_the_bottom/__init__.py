"""Race to the Bottom: climbing and shedding with private 54-card decks. The game's parts, and the spec that names them."""

from typing import Any

from sloth_kernel.errors import ConfigError
from sloth_kernel.spec import GameSpec, Notebook

SPEC = GameSpec(
    name="race-to-the-bottom",
    title="Race to the Bottom",
    players=(2, 4),
    default_players=3,
    kind="climbing and shedding with private 54-card decks",
    engine="sloth_kernel.games.race_to_the_bottom.engine:RaceToTheBottom",
    deal_schema="sloth_kernel.games.race_to_the_bottom:deal.schema.json",
    renderer="sloth_kernel.games.race_to_the_bottom.render:render",
    bots="sloth_kernel.games.race_to_the_bottom.bots:BOTS",
    search="sloth_kernel.games.race_to_the_bottom.search:search_spec",
    board="sloth_widgets.race_to_the_bottom.board:RaceBoard",
    lessons="sloth_kernel.games.race_to_the_bottom.lessons:LESSONS",
    checker="sloth_kernel.games.race_to_the_bottom.checker:CHECKER",
    puzzles="sloth_kernel.games.race_to_the_bottom.puzzles:BOOK",
    variants="sloth_kernel.games.race_to_the_bottom.variants:VARIANTS",
    cooperative=False,
    max_length=70_000,
    order=20,
    pitch=(
        "Everyone plays from their own 54-card deck. Match the meld on the table with equal or higher ranks, "
        "reset with Aces, bomb with Cheats, and stack the bottom of your deck when you pass. First to shed "
        "all 54 cards wins."
    ),
    faces=(("Q", "#222", "spade"), ("K", "#222", "spade"), ("A", "#b00020", "star", "joker", "wild")),
    play_notebook="play_race_to_the_bottom.ipynb",
    learn_notebook="learn_race_to_the_bottom.ipynb",
    option_docs={
        "players": "How many play (RB-1).",
        "leader": "Who leads the first trick.",
        "grand_prix": "Play a Grand Prix of several races (RB-10).",
        "races": "How many races make a Grand Prix (RB-10: three).",
    },
    option_ranges={"races": (1, 9, "races in a Grand Prix; the rulebook's is 3, RB-10")},
    option_needs={"races": {"grand_prix": True}},
    options_together="sloth_kernel.games.race_to_the_bottom:options_together",
    seat_options=("leader",),
    edge_cases=(("4 players, a Grand Prix of 9 races", {"players": 4, "grand_prix": True, "races": 9}),),
    notebooks=(
        Notebook(
            "analysis_race_to_the_bottom.ipynb", "Race to the Bottom in numbers", "What a 12-card hand holds, exactly."
        ),
    ),
)


def options_together(config: Any) -> None:
    """The rule that ties Race to the Bottom's options together: races only counts in a Grand Prix (RB-10),
    as the spec's ``option_needs`` declares."""
    default = type(config)()
    for option, needs in SPEC.option_needs.items():
        if getattr(config, option) != getattr(default, option) and any(
            getattr(config, k) != v for k, v in needs.items()
        ):
            wanted = ", ".join(f"{k}={v}" for k, v in needs.items())
            raise ConfigError(f"{option} only applies to the Grand Prix: set {wanted} (RB-10)")
