"""The rules that tie Sprint!'s options together (the spec's ``options_together``), beside the
spec: they need the race deck's card kinds, which the engine defines, so they live in a module of
their own (the spec module imports no engine, and the engine imports the spec)."""

from __future__ import annotations

from typing import Any

from sloth_kernel.errors import ConfigError
from sloth_kernel.games.sprint import MAX_OBJECTIVES, SPEC
from sloth_kernel.games.sprint.engine import CARROT, RACE_KINDS
from sloth_kernel.notation import shown


def options_together(config: Any) -> None:
    """The rules that tie Sprint!'s options together, once each has passed its own type and range: the
    carrots against the track's finish (SP-1), the race deck's shape and size (SP-2) and its carrot cards
    against the carrot squares (SP-5), the Objectives against the most cards one can lift (SP-3, SP-4)."""
    finish = config.finish
    if config.carrots is not None:
        carrots = config.carrots
        if not isinstance(carrots, tuple) or len(carrots) > finish - 1:
            raise ConfigError(
                f"carrots must be a list of at most {finish - 1} squares (one per square before the finish), "
                f"not {shown(carrots)}"
            )
        if any(not 0 < c < finish for c in carrots) or list(carrots) != sorted(set(carrots)):
            raise ConfigError(
                f"carrots must be distinct increasing squares between start and finish (1 to {finish - 1}), "
                f"not {shown(list(carrots))}"
            )
    race_deck = config.race_deck
    most = SPEC.option_ranges["race_deck"][1]
    if not isinstance(race_deck, tuple) or len(race_deck) != len(RACE_KINDS):
        raise ConfigError(
            f"race_deck must be {len(RACE_KINDS)} card counts in the order {', '.join(RACE_KINDS)} (SP-2), "
            f"not {shown(race_deck)}"
        )
    total = sum(race_deck)
    if total < 2:
        raise ConfigError("the race deck needs at least 2 cards (one to lift, one for the Hare; SP-4)")
    if total > most:
        raise ConfigError(
            f"the race deck holds at most {most} cards (the rulebook's has 32; lifts of more than {most - 1} "
            f"cards are beyond one hand and the simulators), not {total} (SP-2, SP-4)"
        )
    if race_deck[CARROT] and not config.carrot_squares:
        raise ConfigError("the race deck has carrot cards but the track has no carrot squares (SP-1, SP-5)")
    objectives = config.objectives
    if not isinstance(objectives, tuple) or not 1 <= len(objectives) <= MAX_OBJECTIVES:
        raise ConfigError(
            f"objectives must be a list of 1 to {MAX_OBJECTIVES} Objective cards (the rulebook's are 18), "
            f"not {shown(objectives)} (SP-3)"
        )
    if any(not 1 <= n <= config.max_lift for n in objectives):
        raise ConfigError(
            f"objectives must be a non-empty list of numbers from 1 to {config.max_lift} "
            f"(the most cards one can lift); got {shown(list(objectives))}"
        )
