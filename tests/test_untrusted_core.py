"""Untrusted input at the core's public entry points (issue 14): one test per escape class.

Each refusal is a documented ``SlothKernelError`` subclass carrying the input shortened, and
leaves the state as it was. The inputs are the issue's own examples. The engines' notation
(``parse_move``) and the property-based suite are tested elsewhere.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from typing import Any

import pytest
from positions import reached
from record_check import check_record
from sloth_widgets import Board

import sloth_kernel
from sloth_kernel import (
    ConfigError,
    DealError,
    Explanation,
    IllegalMoveError,
    InvalidMoveError,
    RecordError,
    SeatError,
    SlothKernelError,
    available_games,
    from_record,
    load_game,
)
from sloth_kernel.core import GameConfig, GameState
from sloth_kernel.errors import shorten
from sloth_kernel.games.sprint.engine import RACE_KINDS
from sloth_kernel.games.surplus_of_sloths.cards import CARD_CODES
from sloth_kernel.untrusted import MAX_DEPTH, MAX_MOVE_TEXT, MAX_RECORD_TEXT

GAMES = available_games()  # the four bundled games and the toy plugin
BUNDLED = ["too-sloth-to-win", "surplus-of-sloths", "race-to-the-bottom", "sprint"]
LOOK_ALIKE_SEATS: list[Any] = [True, False, 0.0, 1.5, "0", "x", 99, -1, [0], 10**5000]
BAD_SEEDS: list[Any] = ["abc", 1.5, True, False, [1, 2], 10**5000, -1, 2**256, 3.0, "7"]


def mid_game(name: str, seed: int = 5, steps: int = 6) -> GameState[Any, Any]:
    return reached(name, seed, steps)


def snapshot(state: GameState[Any, Any]) -> tuple[Any, ...]:
    """Everything a refusal must leave alone: the record, the view and every seat's observation."""
    seats = range(state.game.num_players)
    return (copy.deepcopy(state.to_record()), state.view(), tuple(state.observation(s) for s in seats))


def a_deal(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A valid explicit deal for each bundled game, with the options it needs."""
    if name == "too-sloth-to-win":
        return {"hands": ["2 5 6", "3 4", "1 1 6", "7 8 D"], "positions": [0, 1, 0, 2]}, {}
    if name == "race-to-the-bottom":
        return {"hands": ["9 9 9 9 5", "2 3"], "decks": ["", ["4", "5"]], "leader": 1}, {"players": 2}
    if name == "surplus-of-sloths":
        codes = [CARD_CODES[c] for c in load_game(name).cards()]
        return {"hands": [codes[0:3], " ".join(codes[3:6]), codes[6:9]], "deck": codes[9:]}, {}
    pile = [kind for kind, count in zip(RACE_KINDS, (6, 6, 4, 2, 4, 3, 4, 3), strict=True) for _ in range(count)]
    return {"race_pile": pile, "objectives": list(range(22, 4, -1)), "tortoise": 2}, {}


def assert_short(err: SlothKernelError) -> None:
    """The error carries the offending input shortened, and a message a person can read."""
    assert err.value is None or len(err.value) <= 80
    assert len(str(err)) < 600 and "\n" not in str(err)


# --- seats -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_look_alike_seats_are_refused_by_play_and_observation(name: str) -> None:
    state = mid_game(name)
    before = snapshot(state)
    move = state.legal_moves()[0]
    for seat in [*LOOK_ALIKE_SEATS, state.game.num_players, None]:
        with pytest.raises(SeatError) as err:
            state.observation(seat)
        assert_short(err.value)
        if seat is not None:  # play(player=None) means "no out-of-turn guard"
            with pytest.raises(SeatError):
                state.play(move, player=seat)
    assert snapshot(state) == before


def test_sprint_answers_observation_only_for_its_seats() -> None:
    state = load_game("sprint", players=2).new_state(1)
    assert state.observation(1).player == 1
    for seat in (2, 99, -1, "x", None, 1.5, True):
        with pytest.raises(SeatError):
            state.observation(seat)


def test_a_bool_seat_is_not_seat_1_and_a_text_seat_gets_a_sensible_message() -> None:
    state = load_game("too-sloth-to-win").new_state(1)  # Player 1 (seat 0) leads
    move = state.legal_moves()[0]
    with pytest.raises(SeatError, match="True and False are not seats"):
        state.play(move, player=False)
    with pytest.raises(SeatError) as err:
        state.play(move, player="0")
    assert "seat 0's turn" not in str(err.value) and "'0'" in str(err.value)


@pytest.mark.parametrize("name", GAMES)
def test_out_of_turn_names_players_as_people_do(name: str) -> None:
    state = mid_game(name, steps=0)
    if state.game.num_players < 2:
        pytest.skip("one seat")
    to_move = state.current_player
    other = (to_move + 1) % state.game.num_players
    before = snapshot(state)
    with pytest.raises(IllegalMoveError) as err:
        state.play(state.legal_moves()[0], player=other)
    reason = err.value.explanation.reason
    assert reason == f"it is not Player {other + 1}'s turn; Player {to_move + 1} is to move"
    assert snapshot(state) == before


# --- seeds -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_seeds_must_be_whole_numbers_below_2_to_the_256(name: str) -> None:
    game = load_game(name)
    for seed in BAD_SEEDS:
        with pytest.raises(ConfigError) as err:
            game.new_state(seed)
        assert_short(err.value)
    for seed in (0, 1, 2**64, 2**256 - 1, None):
        state = game.new_state(seed)
        assert isinstance(state.seed, int) and 0 <= state.seed < 2**256
        assert game.replay(json.loads(json.dumps(state.to_record()))).view() == state.view()


@pytest.mark.parametrize("name", BUNDLED)
def test_from_deal_checks_its_seed(name: str) -> None:
    deal, options = a_deal(name)
    game = load_game(name, **options)
    for seed in BAD_SEEDS:
        with pytest.raises(ConfigError):
            game.from_deal(deal, seed=seed)
    assert game.from_deal(deal, seed=2**256 - 1).seed == 2**256 - 1


@pytest.mark.parametrize("name", GAMES)
def test_records_with_bad_seeds_are_refused(name: str) -> None:
    game = load_game(name)
    record = mid_game(name).to_record()
    for seed in BAD_SEEDS:
        with pytest.raises(RecordError) as err:
            game.replay({**record, "seed": seed})
        assert_short(err.value)
    text = json.dumps(record).replace(f'"seed": {record["seed"]}', '"seed": ' + "7" * 5000)
    with pytest.raises(RecordError):
        game.replay(text)


def test_an_error_never_prints_a_huge_number_or_a_huge_string() -> None:
    assert shorten(10**5000) == "<an integer of about 5001 digits>"
    assert len(shorten("x" * 10_000)) <= 80 and shorten("x" * 10_000).startswith("'xxx")
    assert len(shorten([10**5000, "y" * 5000, {"k": object()}])) <= 80
    with pytest.raises(InvalidMoveError) as err:
        load_game("sprint").new_state(1).play(10**5000)  # type: ignore[arg-type]
    assert_short(err.value)


# --- moves built by hand, and explain ----------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_all_moves_holds_every_legal_move(name: str) -> None:
    """coerce_move checks move objects against all_moves(): every move legal_moves() gives must be there."""
    game = load_game(name)
    every = set(game.all_moves())
    rng = random.Random(3)
    for seed in range(15):
        state = game.new_state(seed)
        while not state.is_over:
            legal = state.legal_moves()
            assert set(legal) <= every, [str(m) for m in legal if m not in every]
            state.apply_unchecked(rng.choice(legal))


@pytest.mark.parametrize("name", GAMES)
def test_moves_built_by_hand_are_validated_like_parsed_ones(name: str) -> None:
    state = mid_game(name)
    before = snapshot(state)
    legal = state.legal_moves()
    for move in legal[:4]:
        for field in dataclasses.fields(move):
            for value in (42, -1, None, 1.5, (), ("x",), [1], {"a": 1}, 10**5000, True):
                forged = dataclasses.replace(move, **{field.name: value})
                verdict = state.explain(forged)
                assert isinstance(verdict, Explanation)
                try:
                    after = state.play(forged)
                except (InvalidMoveError, IllegalMoveError) as err:
                    assert not verdict.legal
                    assert_short(err)
                    continue
                assert verdict.legal  # equal by value to a legal move: the game's own move is played
                played = after.history[-1]
                assert played == forged and played in legal and type(played) is type(move)
                assert load_game(name).replay(after.to_record()).view() == after.view()
    assert snapshot(state) == before


@pytest.mark.parametrize("name", GAMES)
def test_a_move_equal_by_value_is_replaced_by_the_games_own(name: str) -> None:
    state = mid_game(name)
    move = state.legal_moves()[0]
    twin = copy.copy(move)
    assert twin == move
    played = state.play(twin).history[-1]
    assert played == move and str(played) == str(move)


@pytest.mark.parametrize("name", GAMES)
def test_explain_always_answers(name: str) -> None:
    state = mid_game(name)
    before = snapshot(state)
    other = next(g for g in BUNDLED if g != name)
    foreign = load_game(other).new_state(1).legal_moves()[0]
    nonsense: list[Any] = [None, 42, 1.5, b"lift 3", object(), ["x"], "x" * 10_000, "", "²", "pass ²", "D²-2"]
    nonsense += [foreign, 10**5000]
    for thing in nonsense:
        verdict = state.explain(thing)
        assert isinstance(verdict, Explanation) and not verdict.legal
        assert verdict.reason.startswith("not a move in this game: "), verdict
        assert len(verdict.move) <= MAX_MOVE_TEXT
        with pytest.raises(InvalidMoveError):
            state.play(thing)
    assert snapshot(state) == before


def test_move_text_has_a_length_limit() -> None:
    state = load_game("sprint").new_state(1)
    with pytest.raises(InvalidMoveError, match=f"at most {MAX_MOVE_TEXT} characters"):
        state.play("lift " + "0" * MAX_MOVE_TEXT + "3")
    answer = state.explain("1" * 5000)  # past Python's int-string limit: refused before any parsing
    assert not answer.legal and f"at most {MAX_MOVE_TEXT} characters" in answer.reason
    assert state.play("lift 0003").history[-1].count == 3


# --- deals -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_deals_that_are_not_objects_are_refused(name: str) -> None:
    game = load_game(name)
    for deal in ({}, None, [], "hands", 42, {"hands": [None]}, {"hands": object()}, {1: "x"}):
        with pytest.raises(DealError) as err:
            game.from_deal(deal)  # type: ignore[arg-type]
        assert isinstance(err.value, ConfigError)
        assert_short(err.value)


@pytest.mark.parametrize("name", BUNDLED)
def test_deals_follow_the_games_schema(name: str) -> None:
    deal, options = a_deal(name)
    game = load_game(name, **options)
    game.from_deal(deal)  # the valid one
    for other in BUNDLED:
        if other != name:
            with pytest.raises(DealError, match="valid keys"):
                game.from_deal(a_deal(other)[0])  # the shape of another game
    key = next(iter(deal))
    misspelt = {**deal, key + "s": deal[key]}
    with pytest.raises(DealError) as err:
        game.from_deal(misspelt)
    said = str(err.value)
    assert f"'{key}s'" in said and key in said.partition("valid keys: ")[2].split(", ")
    with pytest.raises(DealError) as err:
        game.from_deal({**deal, key: [None]})
    assert err.value.path.startswith(f"deal.{key}")


def test_a_deal_error_names_the_field() -> None:
    game = load_game("too-sloth-to-win")
    with pytest.raises(DealError) as err:
        game.from_deal({"hands": ["1 2", "3 4", "5 ٣", "D"]})  # not ASCII digits
    assert err.value.path == "deal.hands[2]" and "deal.hands[2]" in str(err.value)
    with pytest.raises(DealError, match="positions"):
        game.from_deal({"hands": ["1", "2", "3", "4"], "positions": [True, 0, 0, 0]})


@pytest.mark.parametrize("name", GAMES)
def test_deep_or_huge_deals_are_refused_before_any_work(name: str) -> None:
    game = load_game(name)
    deep: Any = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(DealError, match=f"more than {MAX_DEPTH} levels"):
        game.from_deal({"hands": deep})
    with pytest.raises(DealError, match="values"):
        game.from_deal({"hands": [0] * 300_000})
    with pytest.raises(DealError, match="out of range"):
        game.from_deal({"hands": [10**5000]})


# --- records -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_broken_records_raise_record_errors(name: str) -> None:
    game = load_game(name)
    state = mid_game(name)
    record = state.to_record()
    deep: dict[str, Any] = {}
    cursor = deep
    for _ in range(100_000):
        cursor["deal"] = {}
        cursor = cursor["deal"]
    broken: list[Any] = [
        {**record, "version": True},
        {**record, "version": 1.0},
        {**record, "version": 2},
        {**record, "seed": 10**5000},
        {**record, "moves": ["zz top", *record["moves"]]},
        {**record, "moves": record["moves"] + [5]},
        {**record, "colour": "green"},
        {**record, "deal": deep},
        {**record, "options": {"players": True}},
        "[" * 200_000,
        "{" + " " * MAX_RECORD_TEXT + "}",
        json.dumps(record)[:-2],  # cut short: not JSON
        b"{}",
        None,
    ]
    for bad in broken:
        with pytest.raises(RecordError) as err:
            game.replay(bad)
        assert_short(err.value)
        with pytest.raises(RecordError):
            from_record(bad)
    assert state.to_record() == record


def test_a_record_error_names_the_move_and_the_field() -> None:
    game = load_game("sprint")
    record = game.new_state(4).play("lift 5").play("lift 9").to_record()
    record["moves"][1] = "lift ninety"
    with pytest.raises(RecordError, match="move #2 'lift ninety' does not parse") as err:
        game.replay(record)
    assert err.value.path == "record.moves[1]"
    record["moves"][1] = "lift 0"
    with pytest.raises(RecordError, match="move #2 'lift 0' does not replay") as err:
        game.replay(record)
    with pytest.raises(RecordError, match="valid keys") as err:
        game.replay({**record, "mvoes": []})


def test_records_hold_at_most_the_games_max_length_moves() -> None:
    game = load_game("sprint")
    record = game.new_state(1).to_record()
    limit = sloth_kernel.game_spec("sprint").max_length
    with pytest.raises(RecordError, match=f"at most {limit:,}"):
        game.replay({**record, "moves": ["lift 3"] * (limit + 1)})


@pytest.mark.parametrize("name", GAMES)
def test_from_record_dispatches_on_the_records_game(name: str) -> None:
    state = mid_game(name, steps=9)
    record = state.to_record()
    for rebuilt in (from_record(record), from_record(json.dumps(record)), type(state.game).from_record(record)):
        assert rebuilt.view() == state.view() and rebuilt.to_record() == record
    with pytest.raises(RecordError, match="unknown game"):
        from_record({**record, "game": "chess"})
    other = next(g for g in GAMES if g != name)
    with pytest.raises(RecordError, match="the record is for"):
        load_game(other).replay(record)


# --- no aliasing -------------------------------------------------------------------------


@pytest.mark.parametrize("name", BUNDLED)
def test_no_aliasing_between_a_deal_its_state_and_its_records(name: str) -> None:
    deal, options = a_deal(name)
    game = load_game(name, **options)
    state = game.from_deal(deal, seed=7)
    record = state.to_record()
    original = copy.deepcopy(record)
    # the caller edits the deal it gave
    for value in deal.values():
        if isinstance(value, list):
            value.append(value[0] if value else "x")
            value.reverse()
    deal.clear()
    assert state.to_record() == original
    # the caller edits a record it was given, and the state's deal it read
    record["deal"].clear()
    record["moves"].append("nonsense")
    record["options"]["players"] = 99
    read = state.deal
    assert read is not None
    for value in read.values():
        if isinstance(value, list):
            value.clear()
    read.clear()
    assert state.to_record() == original and state.deal == original["deal"]
    assert state.to_record() is not state.to_record()
    assert game.replay(state.to_record()).view() == state.view()


# --- options -----------------------------------------------------------------------------


def test_option_sizes_are_bounded_before_any_work() -> None:
    with pytest.raises(ConfigError, match="each 0 to 128"):  # the game's own limit, citing SP-2
        load_game("sprint", race_deck=(10**6, 6, 4, 2, 4, 3, 4, 3))
    with pytest.raises(ConfigError, match="each 0 to 128"):
        load_game("sprint", race_deck=(10**7,) * 8)
    with pytest.raises(ConfigError, match="at most 256"):  # generic: before any item is looked at
        load_game("sprint", objectives=[5] * 10**6)
    with pytest.raises(ConfigError, match="finish"):
        load_game("too-sloth-to-win", finish=10**5000)


def test_numbers_in_options_are_bounded_even_where_a_game_sets_no_limit() -> None:
    @dataclasses.dataclass(frozen=True)
    class Unchecked(GameConfig):  # a plugin's config whose validate() checks nothing
        size: int = 3
        sizes: tuple[int, ...] = ()

    assert Unchecked.from_options(size=10_000, sizes=[-10_000]).size == 10_000
    for options in ({"size": 10**9}, {"size": 10**5000}, {"sizes": [1, 10**9]}):
        with pytest.raises(ConfigError, match="out of bounds"):
            Unchecked.from_options(**options)


def test_options_follow_the_spec() -> None:
    with pytest.raises(ConfigError, match="valid options: players, pacemaker"):
        load_game("too-sloth-to-win", pacemakr=1)
    with pytest.raises(ConfigError, match="rounds"):
        load_game("too-sloth-to-win", rounds=10)
    with pytest.raises(ConfigError, match="seat"):
        load_game("too-sloth-to-win", players=3, pacemaker=3)
    with pytest.raises(ConfigError, match="from 5 to 60"):  # the spec's range, stricter than the engine's
        load_game("sprint", track_length=4, race_deck=(6, 6, 4, 2, 4, 3, 4, 0))
    with pytest.raises(ConfigError, match="True and False are not numbers"):
        load_game("race-to-the-bottom", players=True)
    with pytest.raises(ConfigError, match="must be one of"):
        load_game("surplus-of-sloths", match_first_active="sometimes")
    game_class = type(load_game("race-to-the-bottom"))
    assert game_class.shared(players=3).config.players == 3
    with pytest.raises(ConfigError):
        game_class.shared(players=True)  # equal to 1 and cached separately: still refused
    with pytest.raises(ConfigError):
        game_class.shared(players=[{"a": 1}])  # unhashable: the option's type is named


# --- the command line and the widgets ------------------------------------------------------


def test_a_forged_widget_event_shows_one_sentence_not_a_traceback() -> None:
    board = Board("sprint", seed=1, seats=["human", "human"], autoplay=False)
    before = board.state.to_record()
    board._on_new_game("abc", ["human", "human"], {})  # what a forged "New game" message would send
    assert board.last_error.startswith("a seed must be a whole number") and "\n" not in board.last_error
    assert "Traceback" not in board.last_error and board.state.to_record() == before


# --- every record the tests make fits the schemas ---------------------------------------------


def test_every_record_made_in_the_tests_is_checked() -> None:
    assert GameState.to_record.__qualname__.startswith("check_every_record")
    state = load_game("sprint").new_state(2)
    check_record(state, state.to_record())
    for bad in ({"version": True}, {"seed": -1}, {"moves": [1]}, {"deal": {"race_pile": []}}, {"extra": 0}):
        with pytest.raises(AssertionError):
            check_record(state, {**state.to_record(), **bad})
