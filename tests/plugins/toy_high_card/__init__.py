"""High Card: a toy trick game, packaged the way a third-party plugin would be.

The tests install it through the ``sloth_kernel.games`` entry-point group (see
tests/conftest.py); nothing in ``sloth_kernel`` or ``sloth_widgets`` names it. An installed
plugin would declare the same entry point in its own pyproject.toml::

    [project.entry-points."sloth_kernel.games"]
    toy-high-card = "toy_high_card:SPEC"
"""

from typing import Any

from sloth_kernel.errors import ConfigError
from sloth_kernel.spec import GameSpec

SPEC = GameSpec(
    name="toy-high-card",
    title="High Card",
    players=(2, 4),
    default_players=2,
    kind="trick taking with hidden hands (a plugin)",
    engine="toy_high_card.engine:HighCard",
    renderer="toy_high_card.render:render",
    bots="toy_high_card.bots:BOTS",
    search="toy_high_card.search:search_spec",
    board="toy_high_card.board:HighCardBoard",
    lessons="toy_high_card.lessons:LESSONS",
    variants="toy_high_card.variants:VARIANTS",
    max_length=60,
    chance_after_deal=False,
    order=900,
    pitch="Play one card a trick; the highest card takes it. Win the most tricks, guessing what the others hold.",
    faces=(("27", "#c0392b", "star"), ("3", "#2b4a7a", "dot")),
    play_notebook=None,
    learn_notebook=None,
    option_docs={
        "players": "How many play (HC-1).",
        "cards": "The deck is the cards 1 to this number (HC-1).",
        "hand_size": "Cards dealt to each player (HC-2).",
    },
    option_ranges={"cards": (2, 30, "HC-1"), "hand_size": (1, 15, "HC-2")},
    option_needs={"cards": {"hand_size": 1}},
    options_together="toy_high_card:options_together",
    reveal_kinds=("trick-won",),  # engine.TRICK_WON: who takes a trick is shown as a step of its own
)


def options_together(config: Any) -> None:
    """The rule that ties High Card's options together: the hands come out of the deck (HC-2)."""
    if config.players * config.hand_size > config.cards:
        raise ConfigError(
            f"hand_size must deal no more than the {config.cards} cards: {config.players} players "
            f"x {config.hand_size} is {config.players * config.hand_size} (HC-2)"
        )
