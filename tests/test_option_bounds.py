"""Every option has documented limits, refused with a ConfigError before anything is built (issue 14).

The issue's example: ``load_game("sprint", race_deck=(10**6, ...))`` took more than a second to
load, ``10**7`` about twelve, building one interned lift per card. Each config's ``validate()``
now refuses sizes beyond its limits first, saying what the limit is and why, and never raises
anything but a ConfigError, whatever type a field holds.
"""

from __future__ import annotations

import dataclasses
import typing
from typing import Any

import pytest

from sloth_kernel import ConfigError, load_game
from sloth_kernel.games.sprint.engine import MAX_OBJECTIVES, MAX_RACE_CARDS, RACE_KINDS, SprintConfig
from sloth_kernel.registry import game_spec

GAMES = ("too-sloth-to-win", "race-to-the-bottom", "surplus-of-sloths", "sprint")


def ids(value: Any) -> str | None:
    """Test ids for numbers too long for str() (over 4,300 digits)."""
    return f"int of {value.bit_length()} bits" if type(value) is int and value.bit_length() > 1000 else None


def refused(game_name: str, **options: Any) -> str:
    with pytest.raises(ConfigError) as caught:
        load_game(game_name, **options)
    return str(caught.value)


@pytest.mark.parametrize("count", [10**6, 10**7, 10**12])
def test_sprint_refuses_a_huge_race_deck_before_building_it(count: int) -> None:
    message = refused("sprint", race_deck=(count, 6, 4, 2, 4, 3, 4, 3))
    assert f"each 0 to {MAX_RACE_CARDS}" in message and str(count)[:15] in message and "SP-2" in message
    message = refused("sprint", race_deck=(count,) * len(RACE_KINDS))
    assert f"each 0 to {MAX_RACE_CARDS}" in message


def test_sprint_race_deck_total_is_capped() -> None:
    full = (16,) * len(RACE_KINDS)
    assert load_game("sprint", race_deck=full).config.max_lift == MAX_RACE_CARDS - 1
    message = refused("sprint", race_deck=(17, *full[1:]))
    assert f"at most {MAX_RACE_CARDS} cards" in message and "not 129" in message


@pytest.mark.parametrize(
    ("race_deck", "words"),
    [
        ((1, 1, 1, 1, 1, 1, 1), "8 card counts"),
        ((6, 6, 4, 2, 4, 3, 4, 3, 1), "8 card counts"),
        ((-1, 6, 4, 2, 4, 3, 4, 3), "each 0 to"),
        ((1, 0, 0, 0, 0, 0, 0, 0), "at least 2 cards"),
    ],
)
def test_sprint_race_deck_shapes(race_deck: tuple[int, ...], words: str) -> None:
    assert words in refused("sprint", race_deck=race_deck)


def test_sprint_objectives_are_bounded_in_number_and_value() -> None:
    assert load_game("sprint", objectives=(5,) * MAX_OBJECTIVES).config.objectives == (5,) * MAX_OBJECTIVES
    message = refused("sprint", objectives=(5,) * (MAX_OBJECTIVES + 1))
    assert f"1 to {MAX_OBJECTIVES} Objective cards" in message and "SP-3" in message
    assert "1 to 128 Objective cards" in refused("sprint", objectives=())
    assert "from 1 to 31" in refused("sprint", objectives=(5, 32))
    assert "from 1 to 31" in refused("sprint", objectives=(0,))


def test_sprint_carrots_are_at_most_one_per_square() -> None:
    every_square = tuple(range(1, 36))
    assert load_game("sprint", carrots=every_square).config.carrot_squares == every_square
    assert "at most 35 squares" in refused("sprint", carrots=tuple(range(1, 37)))
    assert "at most 256" in refused("sprint", carrots=tuple(range(1, 10**5)))  # generic, before any item
    assert "distinct increasing" in refused("sprint", carrots=(4, 4))
    assert "distinct increasing" in refused("sprint", carrots=(36,))


@pytest.mark.parametrize(
    ("game_name", "option", "value", "words"),
    [
        ("sprint", "track_length", 10**12, "from 5 to 60"),
        ("sprint", "players", 10**12, "from 1 to 20"),
        ("too-sloth-to-win", "finish", 10**12, "from 3 to 20"),
        ("too-sloth-to-win", "rounds", 10**9, "from 1 to 9"),
        ("too-sloth-to-win", "drinks", 3, "from 0 to 2"),
        ("too-sloth-to-win", "players", 10**12, "from 3 to 5"),
        ("too-sloth-to-win", "pacemaker", 10**12, "a seat from 0 to 3"),
        ("race-to-the-bottom", "races", 10**9, "from 1 to 9"),
        ("race-to-the-bottom", "players", 10**12, "from 2 to 4"),
        ("race-to-the-bottom", "leader", 10**12, "a seat from 0 to 2"),
        ("surplus-of-sloths", "players", 10**12, "from 2 to 4"),
        ("surplus-of-sloths", "first_active", -1, "a seat from 0 to 2"),
    ],
    ids=ids,
)
def test_numbers_beyond_the_limits_are_refused_with_the_limits(
    game_name: str, option: str, value: int, words: str
) -> None:
    options = {"grand_prix": True} if option == "races" else {}
    message = refused(game_name, **options, **{option: value})
    assert words in message and option in message and len(message) < 400


ODD: tuple[Any, ...] = ("x", None, 1.5, True, [], (), ("x",), (10**9,), 10**100, 10**5000, -1, b"4")


@pytest.mark.parametrize("game_name", GAMES)
def test_validate_raises_only_config_errors_whatever_a_field_holds(game_name: str) -> None:
    """Configs built directly (not through load_game's type checks) are refused the same way."""
    config_class = game_spec(game_name).game_class().config_class
    default = config_class()
    hints = typing.get_type_hints(config_class)
    for field in dataclasses.fields(config_class):
        for value in ODD:
            config = dataclasses.replace(default, **{field.name: value})
            try:
                config.validate()
            except ConfigError as err:
                assert field.name in str(err) or "race deck" in str(err), (field.name, value, err)
            else:  # accepted: only values the option means (a flag set, an optional left out, a fraction)
                meant = {(bool, True), (type(None), None)} | ({(float, 1.5)} if hints[field.name] is float else set())
                assert (type(value), value) in meant, (field.name, value)


def test_sprint_config_validates_in_order_of_cost() -> None:
    # a huge race deck and an unreadable objectives list: the cheap, decisive check speaks first
    config = SprintConfig(race_deck=(10**9,) * len(RACE_KINDS), objectives=tuple(range(10**5)))
    with pytest.raises(ConfigError, match="race_deck"):
        config.validate()


@pytest.mark.parametrize("value", [True, False, -1, 99, "0", None, 1.5, 10**5000], ids=ids)
def test_race_remaining_takes_only_a_seat(value: Any) -> None:
    state = load_game("race-to-the-bottom").new_state(seed=2)
    assert state.remaining(0) == 54
    with pytest.raises(ConfigError, match="seat from 0 to 2"):
        state.remaining(value)


@pytest.mark.parametrize("value", [True, False, -1, 99, "0", None, 1.5, 10**5000], ids=ids)
def test_surplus_hand_takes_only_a_seat(value: Any) -> None:
    state = load_game("surplus-of-sloths").new_state(seed=2)
    assert len(state.hand(0)) == 3
    with pytest.raises(ConfigError, match="seat from 0 to 2"):
        state.hand(value)


@pytest.mark.parametrize("game_name", ["too-sloth-to-win", "race-to-the-bottom", "surplus-of-sloths"])
def test_world_samplers_take_only_one_seats_observation(game_name: str) -> None:
    game = load_game(game_name)
    state = game.new_state(seed=4)
    sampler = type(game).world_sampler
    assert sampler(state.observation(1)) is not None
    for wrong, words in ((state.view(), "not the omniscient view"), (42, "of type int"), (None, "of type NoneType")):
        with pytest.raises(ConfigError, match=words):
            sampler(wrong)


@pytest.mark.parametrize("value", [2**63 + 1, 10**100, 10**5000, -(10**100)], ids=ids)
@pytest.mark.parametrize("game_name", ["too-sloth-to-win", "race-to-the-bottom", "surplus-of-sloths", "sprint"])
def test_numbers_no_game_can_mean_are_refused_before_the_game_reads_them(game_name: str, value: int) -> None:
    message = refused(game_name, players=value)
    assert "out of bounds" in message and "players" in message and len(message) < 400
