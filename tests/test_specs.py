"""Every registered game's spec tells the truth about its game: names, players, options, parts."""

from __future__ import annotations

import dataclasses

import pytest

from sloth_kernel import ConfigError, available_games, game_spec, load_game
from sloth_kernel.spec import GameSpec, resolve

GAMES = available_games()


@pytest.mark.parametrize("name", GAMES)
def test_spec_names_its_game(name: str) -> None:
    spec = game_spec(name)
    game = load_game(name)
    assert isinstance(spec, GameSpec)
    assert (spec.name, spec.title) == (game.name, game.title)
    assert spec.default_players == game.num_players == game.config.players


@pytest.mark.parametrize("name", GAMES)
def test_every_part_the_spec_names_exists(name: str) -> None:
    spec = game_spec(name)
    for part in ("renderer", "bots", "search", "board", "lessons", "variants", "checker", "benchmarks"):
        reference = getattr(spec, part)
        if reference is not None:
            assert resolve(reference) is not None, f"{name}: {part} {reference} resolves to None"


@pytest.mark.parametrize("name", GAMES)
def test_options_are_the_config_fields_with_their_defaults(name: str) -> None:
    spec = game_spec(name)
    config_class = spec.game_class().config_class
    defaults = config_class()
    options = spec.options()
    assert [o.name for o in options] == [f.name for f in dataclasses.fields(config_class)]
    for option in options:
        assert option.default == getattr(defaults, option.name), option.name
        assert option.doc, f"{name}: option {option.name} has no words for people"
    assert set(spec.option_ranges) | set(spec.seat_options) | set(spec.option_needs) <= {o.name for o in options}


def ranged(name: str) -> list[tuple[str, int, int]]:
    return [(o.name, o.low, o.high) for o in game_spec(name).options() if o.low is not None and o.high is not None]


@pytest.mark.parametrize("name", GAMES)
def test_the_engine_accepts_exactly_the_spec_ranges(name: str) -> None:
    needs = game_spec(name).option_needs
    for option, low, high in ranged(name):
        context = needs.get(option, {})
        load_game(name, **context, **{option: low})
        load_game(name, **context, **{option: high})
        for outside in (low - 1, high + 1):
            with pytest.raises(ConfigError):
                load_game(name, **context, **{option: outside})


@pytest.mark.parametrize("name", GAMES)
def test_seat_options_take_a_seat_and_nothing_else(name: str) -> None:
    spec = game_spec(name)
    for option in spec.seat_options:
        for players in range(spec.players[0], spec.players[1] + 1):
            load_game(name, players=players, **{option: players - 1})
            for outside in (-1, players):
                with pytest.raises(ConfigError):
                    load_game(name, players=players, **{option: outside})


def test_a_spec_refuses_a_default_outside_its_player_range() -> None:
    with pytest.raises(ValueError):
        GameSpec(name="x", title="X", players=(2, 4), default_players=5, kind="test", engine="x:X")
