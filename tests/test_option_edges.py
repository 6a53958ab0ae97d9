"""No accepted option runs away (issue 22): every range's edge is accepted, one past it is refused.

Sprint!'s ``track_length`` was accepted up to 500, where one expert decision cost over 120 s and
4.8 GB; ISMCTS ``iterations`` and Sprint!'s ``sigma`` had no range at all. Every game option and
every bot option now has a range whose worst decision ``python -m sloth_kernel bench --edges``
measures (the README's "Benchmark"); here, untimed, each end of each range is accepted and one
step past it is a ConfigError with a sentence, and the benchmark measures both ends of every range.
"""

from __future__ import annotations

import inspect
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sloth_kernel import ConfigError, load_game
from sloth_kernel.bots import bot_classes, make_bot
from sloth_kernel.edges import bot_edges, cases, game_edges
from sloth_kernel.registry import available_games, game_spec

GAMES = available_games()


def ranged_options(name: str) -> list[tuple[str, int, int, dict[str, Any]]]:
    spec = game_spec(name)
    return [
        (option.name, option.low, option.high, spec.option_needs.get(option.name, {}))
        for option in spec.options()
        if option.low is not None and option.high is not None
    ]


GAME_RANGES = [(name, *ranged) for name in GAMES for ranged in ranged_options(name)]
BOT_RANGES = [
    (name, level, option, low, high)
    for name in GAMES
    for level, cls in bot_classes(name).items()
    for option, (low, high) in getattr(cls, "option_ranges", {}).items()
]


@pytest.mark.parametrize(("name", "option", "low", "high", "needs"), GAME_RANGES)
def test_each_end_of_a_game_options_range_is_accepted_and_one_past_it_refused(
    name: str, option: str, low: int, high: int, needs: dict[str, Any]
) -> None:
    for value in (low, high):
        assert getattr(load_game(name, **needs, **{option: value}).config, option) == value
    for value in (low - 1, high + 1):
        with pytest.raises(ConfigError) as caught:
            load_game(name, **needs, **{option: value})
        assert len(str(caught.value).split()) > 4  # a sentence (below Sprint!'s 5: no square for a carrot)
    with pytest.raises(ConfigError) as caught:
        load_game(name, **needs, **{option: high + 1})
    assert option in str(caught.value) and str(high + 1) in str(caught.value)


def test_sprint_tracks_are_at_most_60_squares() -> None:
    """At 500 one expert decision took over 120 s and 4.8 GB; 60 is the longest the solvers serve in about 1 s."""
    assert load_game("sprint", track_length=60).config.finish == 60
    for length in (61, 200, 500):
        with pytest.raises(ConfigError, match="track_length must be a whole number from 5 to 60"):
            load_game("sprint", track_length=length)


@pytest.mark.parametrize(("name", "level", "option", "low", "high"), BOT_RANGES)
def test_each_end_of_a_bot_options_range_is_accepted_and_one_past_it_refused(
    name: str, level: str, option: str, low: float, high: float
) -> None:
    whole = type(low) is int and type(high) is int
    for value in (low, high):
        make_bot(name, level, seed=1, **{option: value})
    past = (low - 1, high + 1) if whole else (low - 0.001, high + 0.001)
    for value in (*past, float("nan"), float("inf"), True, "1", None, [1]):
        if value is None and option in ("iterations", "seconds"):
            continue  # None is their documented "not set"
        with pytest.raises(ConfigError) as caught:
            make_bot(name, level, seed=1, **{option: value})
        assert caught.value.args[0].startswith(f"{option} must be")


def test_ismcts_iterations_and_seconds_have_ranges() -> None:
    """No bound at all before: iterations=10**9 searched for hours."""
    for options in ({"iterations": 10**9}, {"iterations": 0}, {"seconds": 3600}, {"seconds": 0}):
        with pytest.raises(ConfigError, match="must be"):
            make_bot("too-sloth-to-win", "ismcts", **options)


@pytest.mark.parametrize("name", GAMES)
def test_unknown_bot_options_and_levels_are_config_errors(name: str) -> None:
    for level in bot_classes(name):
        with pytest.raises(ConfigError, match="has no option 'speed'"):
            make_bot(name, level, speed=3)
    with pytest.raises(ConfigError, match="no bot level"):
        make_bot(name, "grandmaster")
    for seed in (1.5, "1", True, [1], 10**5000):
        with pytest.raises(ConfigError, match="seed is a whole number"):
            make_bot(name, "random", seed=seed)
    make_bot(name, "random", seed=2**256 * 31 + 3)  # a board's seat seeds are the game's seed * 31 + seat


@pytest.mark.parametrize("name", GAMES)
def test_the_edge_benchmark_measures_both_ends_of_every_range(name: str) -> None:
    measured = [case for case in cases([name])]
    for level, cls in bot_classes(name).items():
        options = [case.options for case in measured if case.level == level and not case.bot_options]
        for option, low, high, _ in ranged_options(name):
            default = next(o.default for o in game_spec(name).options() if o.name == option)
            for value in {low, high} - {default}:
                assert any(o.get(option) == value for o in options), (level, option, value)
        bot_options = [case.bot_options for case in measured if case.level == level and case.bot_options]
        assert bot_options == [options for _, options in bot_edges(cls)]
    assert game_edges(name)[0] == ("defaults", {})


@pytest.mark.parametrize("sigma", [0.0, 2.0])
@pytest.mark.parametrize("level", ["expert", "master"])
@pytest.mark.parametrize(
    "options",
    [
        {"race_deck": (1, 0, 0, 0, 0, 1, 0, 0), "objectives": (1,)},
        {"race_deck": (0, 0, 0, 0, 2, 2, 2, 0), "objectives": (1, 2, 3, 4, 5)},
        {"race_deck": (0, 0, 0, 0, 2, 2, 2, 0), "objectives": (5,)},
        {"race_deck": (0, 0, 0, 0, 0, 6, 0, 0), "objectives": (5,)},
    ],
)
def test_sprint_solvers_decide_at_the_small_edges(options: dict[str, Any], level: str, sigma: float) -> None:
    """The smallest decks with the exact and the widest skill. Where no card moves the Hare forward, an
    aim that never moves the Tortoise could stall for ever: the exact solvers raised (a singular system)
    at sigma 0, and the master chose such an aim on a tie. The bots finish the game."""
    state = load_game("sprint", **options).new_state(3)
    bot = make_bot("sprint", level, seed=0, sigma=sigma)
    for _ in range(500):
        if state.is_over:
            break
        state = state.play(bot.choose(state.observation(state.current_player)))
    assert state.is_over


bot_option_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
    st.lists(st.integers(), max_size=2),
    st.just(10**5000),
    st.sampled_from(["relative", "absolute", "two-ended"]),
)


@pytest.mark.parametrize("name", GAMES)
@given(data=st.data())
def test_any_bot_option_value_builds_a_bot_or_is_a_config_error(name: str, data: Any) -> None:
    levels = bot_classes(name)
    level = data.draw(st.sampled_from(sorted(levels)))
    takes = [p for p in inspect.signature(levels[level]).parameters if p not in ("seed", "spec")]
    options = data.draw(st.dictionaries(st.sampled_from([*takes, "speed"]), bot_option_values, max_size=3))
    seed = data.draw(st.one_of(st.none(), st.integers(-5, 2**300), st.booleans(), st.floats()))
    try:
        make_bot(name, level, seed=seed, **options)
    except ConfigError as err:
        assert err.args[0] and "Traceback" not in err.args[0]


def test_bench_edges_prints_a_row_per_case(capsys: pytest.CaptureFixture[str]) -> None:
    from sloth_kernel.__main__ import main

    args = ["bench", "--edges", "--games", "sprint", "--levels", "random", "heuristic", "--samples", "2"]
    assert main(args) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("  sprint ")]
    expected = [case for case in cases(["sprint"], ["random", "heuristic"])]
    assert len(rows) == len(expected) and all(" failed" not in row for row in rows)
    assert "track_length=60" in out and "worst decision:" in out and "most memory:" in out
    assert main(["bench", "--edges", "--samples", "0"]) == 2
    assert "--samples must be from 1 to 1000" in capsys.readouterr().err


def test_a_table_with_an_expert_on_a_500_square_track_is_refused(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue's command: accepted before, and every page then computed a two-minute decision."""
    from sloth_kernel.__main__ import main

    store = str(tmp_path / "tables.sqlite")
    for length, code in ((500, 2), (61, 2), (60, 0)):
        options = f'{{"track_length": {length}}}'
        args = ["table", "--store", store, "create", "--game", "sprint", "--seats", "bot:expert,human"]
        assert main([*args, "--options", options, "--json"]) == code
        err = capsys.readouterr().err
        assert ("track_length must be a whole number from 5 to 60" in err) == (code == 2), err
