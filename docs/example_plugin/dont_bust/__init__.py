"""Don't Bust: the spec, the one object that tells sloth-kernel everything about the game.

Loading it imports nothing else of the package: every part is a ``"module:attr"`` string,
imported when a layer needs it (the engine by ``load_game``, the board by ``sloth_widgets``).
"""

from typing import Any

from sloth_kernel.errors import ConfigError
from sloth_kernel.spec import GameSpec

SPEC = GameSpec(
    name="dont-bust",  # the load_game name, the same as the entry point's
    title="Don't Bust",
    players=(2, 4),
    default_players=2,
    kind="adding up with hidden hands (a plugin)",
    engine="dont_bust.engine:DontBust",
    bots="dont_bust.bots:BOTS",
    search="dont_bust.bots:search_spec",
    board="dont_bust.board:DontBustBoard",
    max_length=20,  # 4 players with 5 cards each: the longest game there is
    pitch="Add a card to the pile each turn, and do not be the one who takes it over the limit.",
    faces=(("9", "#c0392b", "star"), ("2", "#2b4a7a", "dot")),
    option_docs={
        "players": "How many play (DB-1).",
        "cards": "The deck is the cards 1 to this number (DB-1).",
        "hand_size": "Cards dealt to each player (DB-1).",
        "limit": "The most the pile may add up to (DB-3).",
    },
    option_ranges={"cards": (4, 20, "DB-1"), "hand_size": (1, 5, "DB-1"), "limit": (5, 100, "DB-3")},
    option_needs={"cards": {"hand_size": 1}, "hand_size": {"cards": 20}},
    options_together="dont_bust:options_together",
)


def options_together(config: Any) -> None:
    """The rule that ties the options together: every hand comes out of the deck (DB-1)."""
    if config.players * config.hand_size > config.cards:
        raise ConfigError(
            f"hand_size must deal no more than the {config.cards} cards: {config.players} players "
            f"x {config.hand_size} is {config.players * config.hand_size} (DB-1)"
        )
