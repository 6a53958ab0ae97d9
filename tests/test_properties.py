"""Property-based tests (Hypothesis) for every public entry point, for every registered game.

The contract (README "Errors"): whatever the input, an entry point returns normally or raises
a documented ``SlothKernelError``; a refusal changes nothing (the state's record, view and every
observation); records and deals handed out or taken in never alias the state; a record replays
to an equal state; ``explain`` never raises and agrees with ``legal_moves``.

Inputs: arbitrary text and Unicode (other scripts' digits included), arbitrary JSON for deals and
records (and mutations of real ones), move objects with a field replaced by an arbitrary value,
look-alike seats and seeds, arbitrary options and command lines, and forged widget events.
The Hypothesis profile (tests/conftest.py) keeps CI reproducible and untimed.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import io
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st
from positions import reached

import sloth_kernel
from sloth_kernel import SlothKernelError, available_games, game_spec, load_game
from sloth_kernel.core import GameState
from sloth_kernel.errors import SeatError

GAMES = available_games()
SEED_LIMIT = 2**256

# --- strategies ----------------------------------------------------------------------------------

DIGITS_OF_OTHER_SCRIPTS = "²³¹٣٤۵߃०১੨૩୪௫౬೭൮๙໑༢၃႔០᠑᥆᧐᪁᭒᮳᱄᱕꘠꣐꤁꧐꩐꯰０１９𝟎𝟗"
tricky_text = st.one_of(
    st.text(max_size=30),
    st.text(alphabet=st.sampled_from(" -*0123456789TDXpasliftkenorwhmdcu" + DIGITS_OF_OTHER_SCRIPTS), max_size=20),
    st.builds(lambda n, w: f"{w} {'9' * n}", st.integers(1, 6000), st.sampled_from(["lift", "pass", "pitch", ""])),
    st.sampled_from(["²", "pass ²", "D²-2", "٣", "lift ٣", "pick ſ5", "1" * 5000, "\x00", "10 10", "*10"]),
)
json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**300), max_value=2**300),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=8), inner, max_size=5)),
    max_leaves=25,
)
odd_values = st.one_of(
    json_values,
    st.tuples(json_scalars, json_scalars),
    st.just(()),
    st.just(("x",)),
    st.just(10**5000),
    st.just(object()),
    st.just(1.5),
)
look_alike_seats = st.one_of(
    st.booleans(),
    st.floats(allow_nan=True),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.text(max_size=4),
    st.none(),
    st.just([0]),
    st.just(10**5000),
)
look_alike_seeds = st.one_of(
    st.integers(min_value=-(2**300), max_value=2**300),
    st.booleans(),
    st.floats(allow_nan=True),
    st.text(max_size=8),
    st.lists(st.integers(), max_size=3),
    st.just(10**5000),
    st.just(2**256),
    st.just(2**256 - 1),
)


positions = st.tuples(st.integers(0, 10**6), st.integers(0, 40))


def snapshot(state: GameState[Any, Any]) -> tuple[Any, ...]:
    """Everything a refusal must leave as it was."""
    seats = state.game.num_players
    return (json.dumps(state.to_record()), state.view(), tuple(state.observation(s) for s in range(seats)))


def outcome(call: Callable[[], Any]) -> tuple[str, Any]:
    """('ok', result) or ('refused', the typed error); any other exception fails the test."""
    try:
        return "ok", call()
    except SlothKernelError as err:
        assert len(str(err)) < 2000, "the error message did not shorten the input"
        return "refused", err


# --- text, moves, explain --------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
@given(position=positions, text=tricky_text)
def test_text_is_a_move_or_a_typed_refusal_and_refusals_change_nothing(
    name: str, position: tuple[int, int], text: str
) -> None:
    state = reached(name, *position)
    before = snapshot(state)
    parsed = outcome(lambda: state.game.parse_move(text))
    answer = state.explain(text)  # never raises
    assert isinstance(answer, sloth_kernel.Explanation)
    result, value = outcome(lambda: state.play(text))
    if parsed[0] == "refused" or state.is_over:
        assert result == "refused" and not answer.legal
    else:
        assert answer.legal == (parsed[1] in state.legal_moves()) == (result == "ok")
    assert snapshot(state) == before
    if any(not ch.isascii() for ch in text) and text.strip():
        # other scripts' digits and look-alike letters are never read as a move (ASCII only)
        assert parsed[0] == "refused", (text, parsed)


@pytest.mark.parametrize("name", GAMES)
@given(position=positions, data=st.data())
def test_hand_built_moves_are_checked_like_parsed_ones(name: str, position: tuple[int, int], data: Any) -> None:
    state = reached(name, *position)
    if state.is_over:
        return
    move = data.draw(st.sampled_from(state.legal_moves()))
    fields = [f.name for f in dataclasses.fields(move)] if dataclasses.is_dataclass(move) else []
    if not fields:
        return
    field = data.draw(st.sampled_from(fields))
    value = data.draw(odd_values)
    try:
        forged = dataclasses.replace(move, **{field: value})
    except (TypeError, ValueError):
        return  # the move class itself refuses to be built that way
    before = snapshot(state)
    answer = state.explain(forged)
    result, _ = outcome(lambda: state.play(forged))
    legal = forged in state.legal_moves() if _hashable(forged) else False
    assert answer.legal == legal == (result == "ok")
    assert snapshot(state) == before


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


@pytest.mark.parametrize("name", GAMES)
@given(position=positions)
def test_explain_agrees_with_legal_moves_for_every_move_of_the_game(name: str, position: tuple[int, int]) -> None:
    state = reached(name, *position)
    legal = set(state.legal_moves())
    candidates = state.game.all_moves()
    for move in random.Random(position[0]).sample(candidates, min(40, len(candidates))):
        assert state.explain(move).legal == (move in legal and not state.is_over)
        assert state.explain(str(move)).legal == (move in legal and not state.is_over)


# --- seats ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
@given(position=positions, seat=look_alike_seats)
def test_seats_are_ints_in_range_and_nothing_else(name: str, position: tuple[int, int], seat: Any) -> None:
    state = reached(name, *position)
    before = snapshot(state)
    players = state.game.num_players
    real = type(seat) is int and 0 <= seat < players
    result, value = outcome(lambda: state.observation(seat))
    assert (result == "ok") == real, (seat, value)
    if not real:
        assert isinstance(value, SeatError)
    if not state.is_over:
        move = state.legal_moves()[0]
        result, value = outcome(lambda: state.play(move, player=seat))
        # None is the documented "no check" (the seat to move plays); anything else must be that seat
        assert (result == "ok") == (seat is None or (real and seat == state.current_player)), (seat, value)
    assert snapshot(state) == before


# --- seeds, records, replay ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
@given(seed=look_alike_seeds)
def test_seeds_are_whole_numbers_below_2_256_and_every_accepted_one_replays(name: str, seed: Any) -> None:
    game = load_game(name)
    result, state = outcome(lambda: game.new_state(seed))
    accepted = type(seed) is int and 0 <= seed < SEED_LIMIT
    assert (result == "ok") == accepted, seed
    if accepted:
        assert game.replay(json.loads(json.dumps(state.to_record()))).view() == state.view()


@pytest.mark.parametrize("name", GAMES)
@given(position=positions)
def test_a_record_replays_to_an_equal_state(name: str, position: tuple[int, int]) -> None:
    state = reached(name, *position)
    record = state.to_record()
    again = load_game(name).replay(json.dumps(record))
    assert again.view() == state.view() and again.to_record() == record
    seats = state.game.num_players
    assert [again.observation(s) for s in range(seats)] == [state.observation(s) for s in range(seats)]
    assert sloth_kernel.from_record(record).view() == state.view()


@pytest.mark.parametrize("name", GAMES)
@given(position=positions, data=st.data())
def test_tampered_records_replay_or_are_refused_with_a_record_error(
    name: str, position: tuple[int, int], data: Any
) -> None:
    record = reached(name, *position).to_record()
    key = data.draw(st.sampled_from([*record, "extra", "moves.item", "deal.item"]))
    value = data.draw(json_values)
    if key == "moves.item" and record["moves"]:
        record["moves"][data.draw(st.integers(0, len(record["moves"]) - 1))] = value
    elif key == "deal.item" and isinstance(record.get("deal"), dict) and record["deal"]:
        record["deal"][data.draw(st.sampled_from(sorted(record["deal"])))] = value
    else:
        record[key] = value
    note(f"record[{key}] = {value!r}")
    for call in (lambda: load_game(name).replay(record), lambda: sloth_kernel.from_record(record)):
        result, err = outcome(call)
        if result == "refused":
            assert isinstance(err, SlothKernelError)


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    """Every (path, value) in a record's JSON data, the containers included (the root excluded)."""
    found = [(path, value)] if path else []
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, inner in items:
        found += _leaves(inner, (*path, key))
    return found


def look_alikes(value: Any) -> st.SearchStrategy[Any]:
    """Values that JSON or a careless writer could put in place of `value`: its float twin
    (1.0 for 1; JSON Schema counts 1.0 as an integer), its neighbours, bools, text, huge numbers."""
    near: list[Any] = [None, True, False, [], {}, 1.5, 10**40, float("nan"), float("inf")]
    if type(value) is int:
        near += [float(value), float(value - 1), float(value + 1), value - 1, value + 1, -value, str(value)]
    elif type(value) is str:
        near += ["", value * 2, value.upper(), value[:-1], value + " 1"]
    elif type(value) is bool:
        near += [int(value), float(value)]
    return st.one_of(st.sampled_from(near), st.sampled_from(near), json_values)


def lesson_records(name: str) -> list[dict[str, Any]]:
    """Records of the game's lessons: explicit deals (where a lesson has one) and options."""
    spec = game_spec(name)
    records = []
    for lesson in spec.load(spec.lessons) or ():
        game = load_game(name, **(lesson.options or {}))
        seed = lesson.seed or 0
        records.append((game.from_deal(lesson.deal, seed) if lesson.deal else game.new_state(seed)).to_record())
    return records


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=120)
@given(position=positions, data=st.data())
def test_any_field_of_a_record_tampered_with_gives_a_record_error_or_a_replay(
    name: str, position: tuple[int, int], data: Any
) -> None:
    """Issue 22: ``"rules": 1.0`` raised TypeError. Any one leaf or container anywhere in a record
    (options, deal, moves, rules, seed) replaced by a look-alike replays or raises a typed error."""
    record = data.draw(st.sampled_from([reached(name, *position).to_record(), *lesson_records(name)]))
    field = data.draw(st.sampled_from(sorted(record)))  # each field as likely as any other, moves or not
    path, value = data.draw(st.sampled_from([(path, value) for path, value in _leaves(record) if path[0] == field]))
    replacement = data.draw(look_alikes(value))
    tampered = copy.deepcopy(record)
    holder = tampered
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = replacement
    note(f"record{''.join(f'[{key!r}]' for key in path)} = {replacement!r}")
    for call in (lambda: load_game(name).replay(tampered), lambda: sloth_kernel.from_record(tampered)):
        outcome(call)  # anything but a SlothKernelError fails


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("rules", [1.0, 2.0, 3.0])
def test_a_record_whose_rules_edition_is_a_float_is_a_record_error(name: str, rules: float) -> None:
    record = load_game(name).new_state(5).to_record()
    record["rules"] = rules
    for call in (lambda: load_game(name).replay(record), lambda: sloth_kernel.from_record(record)):
        with pytest.raises(sloth_kernel.errors.RecordError) as caught:
            call()
        assert caught.value.path == "record.rules" and "a whole number such as 1" in str(caught.value)


@given(record=json_values)
def test_arbitrary_json_is_no_record(record: Any) -> None:
    for name in GAMES:
        assert outcome(lambda: load_game(name).replay(record))[0] == "refused"  # noqa: B023
        assert outcome(lambda: load_game(name).replay(json.dumps(record)))[0] == "refused"  # noqa: B023
    assert outcome(lambda: sloth_kernel.from_record(record))[0] == "refused"


# --- deals ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
@given(deal=json_values, seed=look_alike_seeds)
def test_arbitrary_deals_start_a_game_or_are_refused(name: str, deal: Any, seed: Any) -> None:
    game = load_game(name)
    result, state = outcome(lambda: game.from_deal(deal, seed=seed))
    if result == "ok":
        assert game.replay(state.to_record()).view() == state.view()


@pytest.mark.parametrize("name", GAMES)
@given(position=positions, data=st.data())
def test_deals_taken_in_and_handed_out_never_alias_the_state(name: str, position: tuple[int, int], data: Any) -> None:
    first = reached(name, position[0], 0)
    deal = first.to_record()["deal"]
    if not deal:
        return
    game = load_game(name)
    state = game.from_deal(deal, seed=position[0])
    before = snapshot(state)
    record = state.to_record()
    # scribble over everything the caller holds: the deal given, the record and the deal handed out
    for held in (deal, record, record["deal"], state.deal):
        _scribble(held, data.draw(json_values))
    assert snapshot(state) == before
    assert game.replay(state.to_record()).view() == state.view()


def _scribble(value: Any, junk: Any) -> None:
    """Overwrite every list item and dict value inside `value`, where it can be changed."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            with _ignore_immutable():
                for key in list(item):
                    stack.append(item[key])
                    item[key] = copy.deepcopy(junk)
        elif isinstance(item, list):
            for index, inner in enumerate(list(item)):
                stack.append(inner)
                item[index] = copy.deepcopy(junk)


class _ignore_immutable:
    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, err: Any, tb: Any) -> bool:
        return kind is TypeError  # a read-only mapping: nothing to scribble on


# --- options and the command line ---------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
@given(data=st.data())
def test_options_make_a_game_or_a_config_error(name: str, data: Any) -> None:
    names = [o.name for o in game_spec(name).options()]
    options = data.draw(st.dictionaries(st.one_of(st.sampled_from(names), st.text(max_size=6)), odd_values, max_size=3))
    result, value = outcome(lambda: load_game(name, **options))
    if result == "refused":
        assert isinstance(value, sloth_kernel.ConfigError)


@given(
    command=st.sampled_from(["bench", "arena", "table", "nope", ""]), junk=st.lists(st.text(max_size=10), max_size=4)
)
def test_the_command_line_refuses_in_one_line(command: str, junk: list[str]) -> None:
    from sloth_kernel.__main__ import main

    argv = [command, *junk, "--not-an-option"]  # never a real run: something is always wrong
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = main(argv)
        except SystemExit as exit_:
            code = exit_.code
    assert code == 2
    assert "Traceback" not in err.getvalue() and err.getvalue().strip()


# --- the boards' event handlers --------------------------------------------------------------------------


@pytest.mark.parametrize("name", [g for g in GAMES if game_spec(g).board is not None])
@settings(max_examples=12)  # a board is heavy to build: fewer examples, every kind of event still drawn
@given(params=st.dictionaries(st.sampled_from(["seed", "x", ""]), json_values, max_size=3), seat=look_alike_seats)
def test_forged_widget_events_show_a_sentence_and_change_nothing(name: str, params: Any, seat: Any) -> None:
    from sloth_widgets import Board

    board = Board(name, seed=5)
    state = board.session.state
    before = snapshot(state)
    board._page_params = params  # as the front end would send it
    changed = board.session.state is not state
    if changed:  # only a readable seed deals again, and then a fresh game
        assert isinstance(params.get("seed"), (str, int)) and board.session.state.history == []
    else:
        assert snapshot(board.session.state) == before
    move = state.legal_moves()[0] if not state.is_over else "pass"
    board2 = Board(name, seed=5)
    before2 = snapshot(board2.session.state)
    result, value = outcome(lambda: board2.session.play(move, seat))
    if result == "refused" or (result == "ok" and not value.legal):
        assert snapshot(board2.session.state) == before2
    assert "Traceback" not in (board.last_error or "") + (board2.last_error or "")
