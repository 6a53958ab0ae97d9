"""The shared protocol, checked the same way for every registered game.

That is the bundled games and, in the test session, the toy game tests/conftest.py installs
as a plugin: the parameters come from ``available_games()``, which sees it.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random

import pytest
from positions import reached

import sloth_kernel
from sloth_kernel import (
    ConfigError,
    IllegalMoveError,
    InvalidMoveError,
    RecordError,
    available_games,
    load_game,
)
from sloth_kernel.bots import RandomBot, make_bot, play_out
from sloth_kernel.core import NO_PLAYER, OBSERVATION_FIELDS, GameState, fresh_seed

AVAILABLE = available_games()


def test_the_bundled_games_are_found_through_their_entry_points() -> None:
    from importlib.metadata import entry_points

    points = {point.name: point.value for point in entry_points(group="sloth_kernel.games")}
    for name in ("too-sloth-to-win", "surplus-of-sloths", "race-to-the-bottom", "sprint"):
        assert points[name] == f"sloth_kernel.games.{name.replace('-', '_')}:SPEC"
        assert name in AVAILABLE
        assert sloth_kernel.game_spec(name).name == name


def test_unknown_game_and_bad_options_raise_config_errors() -> None:
    with pytest.raises(ConfigError, match="unknown game"):
        load_game("chess")
    for name in AVAILABLE:
        with pytest.raises(ConfigError, match="unknown option"):
            load_game(name, colour="green")
        with pytest.raises(ConfigError):
            load_game(name, players="four")
    with pytest.raises(ValueError):  # typed errors are ValueErrors
        load_game("too-sloth-to-win", players=True)


def mid_game(name: str, seed: int, steps: int = 12) -> GameState:
    return reached(name, seed, steps)


@pytest.mark.parametrize("name", AVAILABLE)
def test_config_is_frozen(name: str) -> None:
    game = load_game(name)
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.config.players = 9  # type: ignore[misc]


@pytest.mark.parametrize("name", AVAILABLE)
def test_notation_round_trips_for_every_legal_move(name: str) -> None:
    game = load_game(name)
    for seed in range(20):
        state = mid_game(name, seed, steps=seed)
        for move in state.legal_moves():
            assert game.parse_move(str(move)) == move
            hash(move)


@pytest.mark.parametrize("name", AVAILABLE)
def test_same_seed_same_game_and_record_replays_identically(name: str) -> None:
    game = load_game(name)
    bots = [RandomBot(seed=i) for i in range(game.num_players)]
    first = play_out(game.new_state(seed=11), bots)
    bots = [RandomBot(seed=i) for i in range(game.num_players)]
    second = play_out(game.new_state(seed=11), bots)
    assert first.to_record() == second.to_record()
    record = json.loads(json.dumps(first.to_record()))
    replayed = game.replay(record)
    assert replayed.view() == first.view()
    assert replayed.to_record() == first.to_record()
    assert [str(e) for e in replayed.log] == [str(e) for e in first.log]


@pytest.mark.parametrize("name", AVAILABLE)
def test_tampered_records_raise_record_errors(name: str) -> None:
    game = load_game(name)
    record = mid_game(name, 3, steps=8).to_record()
    broken: list[object] = ["not json", 42, {**record, "format": "other"}, {**record, "game": "sprint!"}]
    broken.append({**record, "moves": record["moves"][:-1] + ["zz top"]})
    broken.append({**record, "options": {"players": 99}})
    broken.append({**record, "seed": "eleven"})
    broken.append({k: v for k, v in record.items() if k != "moves"})
    if record["moves"]:
        broken.append({**record, "moves": [record["moves"][0]] * 60})
    for bad in broken:
        with pytest.raises(RecordError):
            game.replay(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", AVAILABLE)
def test_bad_input_raises_typed_errors_and_changes_nothing(name: str) -> None:
    state = mid_game(name, 5)
    before = (copy.deepcopy(state.to_record()), state.view())
    for text in ["", "   ", "banana", "pass pass pass", 12, None]:
        with pytest.raises(InvalidMoveError):
            state.play(text)  # type: ignore[arg-type]
    other_game = next(g for g in AVAILABLE if g != name)
    with pytest.raises(InvalidMoveError):
        state.play(load_game(other_game).new_state(0).legal_moves()[0]) if other_game in AVAILABLE else state.play(
            object()
        )  # type: ignore[arg-type]
    move = state.legal_moves()[0]
    wrong_seat = (state.current_player + 1) % state.game.num_players
    if wrong_seat != state.current_player:
        with pytest.raises(IllegalMoveError, match="turn"):
            state.play(move, player=wrong_seat)
    assert (state.to_record(), state.view()) == before


@pytest.mark.parametrize("name", AVAILABLE)
def test_moves_after_the_game_is_over_are_refused(name: str) -> None:
    game = load_game(name)
    done = play_out(game.new_state(seed=2), [RandomBot(seed=i) for i in range(game.num_players)])
    assert done.is_over and done.legal_moves() == [] and done.current_player == sloth_kernel.NO_PLAYER
    some_move = load_game(name).new_state(seed=2).legal_moves()[0]
    with pytest.raises(IllegalMoveError, match="over"):
        done.play(some_move)
    assert not done.explain(some_move).legal


@pytest.mark.parametrize("name", AVAILABLE)
def test_explain_agrees_with_legal_moves(name: str) -> None:
    for seed in range(15):
        state = mid_game(name, seed, steps=seed * 2)
        if state.is_over:
            continue
        legal = set(state.legal_moves())
        probe = random.Random(seed)
        other = mid_game(name, seed + 100, steps=probe.randrange(30))
        candidates = set(legal) | set(other.legal_moves())
        for move in candidates:
            explanation = state.explain(move)
            assert explanation.legal == (move in legal), (str(move), explanation)
            assert explanation.reason
            if not explanation.legal:
                with pytest.raises(IllegalMoveError) as err:
                    state.play(move)
                assert err.value.explanation.reason == explanation.reason


@pytest.mark.parametrize("name", AVAILABLE)
def test_every_move_is_narrated_and_returns_add_up(name: str) -> None:
    game = load_game(name)
    state = game.new_state(seed=4)
    bots = [RandomBot(seed=i) for i in range(game.num_players)]
    while not state.is_over:
        seat = state.current_player
        move = bots[seat].choose(state.observation(seat))
        before = len(state.log)
        state = state.play(move)
        narrated = state.log[before:]
        # Every move is narrated; a secret move (a hidden pick, a private pitch) may
        # leave its notation out of the public log, but never a different one.
        assert narrated, f"{move} left no event"
        assert all(e.move in (None, str(move)) for e in narrated if e.player == seat), str(move)
    returns = state.returns()
    assert len(returns) == game.num_players and all(0.0 <= r <= 1.0 for r in returns)


@pytest.mark.parametrize("name", AVAILABLE)
def test_observation_is_plain_data_with_no_path_back_to_the_state(name: str) -> None:
    state = mid_game(name, 8)
    seen: set[int] = set()

    def walk(value: object) -> None:
        if id(value) in seen:
            return
        seen.add(id(value))
        assert not isinstance(value, (GameState, list, dict, set)), type(value)
        if dataclasses.is_dataclass(value):
            for field in dataclasses.fields(value):
                walk(getattr(value, field.name))
        elif isinstance(value, (tuple, frozenset)):
            for item in value:
                walk(item)

    for seat in range(state.game.num_players):
        obs = state.observation(seat)
        assert obs.game == name and obs.player == seat
        names = tuple(f.name for f in dataclasses.fields(obs))
        assert names[: len(OBSERVATION_FIELDS)] == OBSERVATION_FIELDS
        walk(obs)
        hash(obs)


@pytest.mark.parametrize("name", AVAILABLE)
def test_new_state_without_a_seed_picks_and_keeps_one(name: str) -> None:
    state = load_game(name).new_state()
    assert isinstance(state.seed, int)
    assert load_game(name).replay(state.to_record()).view() == state.view()
    assert isinstance(fresh_seed(), int)


@pytest.mark.parametrize("name", AVAILABLE)
def test_state_renders_html_and_bots_exist(name: str) -> None:
    state = mid_game(name, 1)
    html = state._repr_html_()
    assert "sk-root" in html and "<svg" in html
    obs = state.observation(state.current_player if not state.is_over else 0)
    bot = make_bot(name, "heuristic", seed=1)
    if obs.legal_moves:
        assert bot.choose(obs) in obs.legal_moves


def test_no_global_random_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("the global random module was used")

    for fn in ("random", "randrange", "shuffle", "choice", "sample", "randint"):
        monkeypatch.setattr(random, fn, refuse)
    for name in AVAILABLE:
        game = load_game(name)
        play_out(game.new_state(seed=1), [make_bot(name, "heuristic", seed=i) for i in range(game.num_players)])


def world_draws(state: GameState, seat: int) -> object:
    """Full states `seat` cannot tell from `state` (the game's world sampler, else its hypothetical worlds)."""
    cls = type(state.game)
    try:
        return cls.world_sampler(state.observation(seat))
    except NotImplementedError:
        try:
            return cls.hypothetical_worlds(state.observation(seat))
        except NotImplementedError as err:
            pytest.skip(f"no worlds to draw: {err}")


@pytest.mark.parametrize("name", AVAILABLE)
@pytest.mark.parametrize("steps", [0, 7])
def test_twin_worlds_that_differ_only_in_hidden_cards_give_the_same_public_observation(name: str, steps: int) -> None:
    """The spectator's view: two positions that differ only in what seats hide look the same to a watcher,
    and it holds no moves and nobody's seat, in the game's own observation type."""
    state = mid_game(name, 3, steps)
    public = state.public_observation()
    assert type(public) is type(state.view()) and public.player == NO_PLAYER and public.legal_moves == ()
    assert public.game == name and public.current_player == state.current_player and public.log == state.log
    assert public != state.view(), "the omniscient view is no spectator's"
    hash(public)
    rng = random.Random(5)
    differed = 0
    for seat in range(state.game.num_players):
        draw = world_draws(state, seat)
        for _ in range(6):
            twin = draw(rng)  # type: ignore[operator]
            assert twin.observation(seat) == state.observation(seat)
            differed += twin.view() != state.view()
            assert twin.public_observation() == public, f"a twin of seat {seat}'s world shows a watcher something else"
    assert differed, "no twin world differed in a hidden card: the test would prove nothing"


@pytest.mark.parametrize("name", AVAILABLE)
def test_the_public_observation_is_what_every_seat_sees_the_same(name: str) -> None:
    """Every field all the seats' observations agree on (the table, the log, the counts) is there as they see it."""
    state = mid_game(name, 4, 9)
    public = state.public_observation()
    seats = [state.observation(seat) for seat in range(state.game.num_players)]
    for field in dataclasses.fields(public):
        values = [getattr(obs, field.name) for obs in seats]
        if field.name not in ("player", "legal_moves") and all(value == values[0] for value in values):
            assert getattr(public, field.name) == values[0], field.name
