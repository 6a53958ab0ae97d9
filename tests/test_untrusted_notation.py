"""Move notation from untrusted text, and moves built by hand, in every game (issue 14).

The examples are the issue's own: digits of other scripts ("²", "٣", fullwidth), numbers of
thousands of digits, letters that ``upper()``/``lower()`` turn into ASCII ones, and legal moves
with a field replaced by ``42``, ``-1``, ``None``, ``1.5``, ``()`` or ``("x",)``. Each is refused
by ``parse_move`` with an InvalidMoveError that carries the text (shortened) and a reason a person
understands, in one style; ``explain`` answers instead of raising.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from sloth_kernel import InvalidMoveError, SlothKernelError, load_game
from sloth_kernel.notation import MAX_MOVE_TEXT, SHOWN, NotationProblem, ascii_int, shorten, shown

GAMES = ("too-sloth-to-win", "race-to-the-bottom", "surplus-of-sloths", "sprint")

# The digits, in the forms each game's notation would take them (a card, a pass, a
# declared drink, a lift, a pitch, a River row), and the same with fullwidth digits.
DIGITS: dict[str, tuple[str, ...]] = {
    "too-sloth-to-win": ("²", "pass ²", "D²-2", "٣", "pass ٣", "4-٥-6", "4-D٥-6", "３", "pass ６", "4-5-６"),
    "race-to-the-bottom": ("²", "٣", "pitch ٣", "٣ ٣", "*٣ 3", "pitch ７", "７ ７"),
    "surplus-of-sloths": (
        "pick L²",
        "pick L٣",
        "take L5 from row ٢",
        "take L٥ from row 1",
        "net Y７",
        "take L5 row １",
    ),
    "sprint": ("²", "٣", "lift ٣", "lift ²", "１２", "lift １２", "lift 1٢"),
}

# Letters outside ASCII that str.upper()/str.lower() or a case-blind regular expression used to
# turn into ASCII ones: the long s (-> S), the dotless i (-> I), the Kelvin sign (-> k).
LOOKALIKES: dict[str, tuple[str, ...]] = {
    "too-sloth-to-win": ("paſs", "pass \u212a", "\u0131-2"),
    "race-to-the-bottom": ("pasſ", "\u212a \u212a", "pitch \u212a", "done\u200b"),
    "surplus-of-sloths": ("pick ſ5", "ta\u212ae L5 from row 1", "\u212aeep", "pıck L5"),
    "sprint": ("lıft 3", "LIFT\u212a 3", "lift\u00a0\u200b3"),
}

# Numbers far too long for any game (the games' notation reads at most 6 digits). Longer text still,
# past the core's cap on any move's text, is refused before the game reads it (test_untrusted_core).
HUGE = "1" * 900
LONG_NUMBERS: dict[str, tuple[str, ...]] = {
    "too-sloth-to-win": (HUGE, "pass " + HUGE, "D" + HUGE + "-2", "pass " + "1" * 90, "D" + "9" * 50 + "-9"),
    "race-to-the-bottom": (HUGE, "pitch " + HUGE, "pitch " + "1" * 90),
    "surplus-of-sloths": ("take L5 from row " + HUGE, "take L5 from row " + "1" * 80, "pick L" + "5" * 90),
    "sprint": (HUGE, "lift " + HUGE, "lift " + "1" * 90, "lift " + "9" * 7),
}

# Other text that is no move, one per kind of mistake, to check every refusal speaks one way.
OTHER_NONSENSE: dict[str, tuple[str, ...]] = {
    "too-sloth-to-win": ("", "   ", "4 5", "1-2-3-4", "pass x", "pass 10", "D", "4-D", "D0-4", "9", "4--5", "x"),
    "race-to-the-bottom": ("", "1 2", "x", "*", "pitch", "pitch 7 8", "7 7 7 7 7 7 7", "K A 2", "*Z", "pass done"),
    "surplus-of-sloths": ("", "pick", "pick Z9", "take L5 from row 3", "net baby", "keep it", "hello world"),
    "sprint": ("", "lift", "lift -3", "lift 3 4", "3 lift", "lift lift", "lift 3.5", "+3"),
}

NOT_TEXT: tuple[Any, ...] = (42, None, 1.5, b"pass", ["pass"], ("lift", 3), {"move": "pass"})


def refusal(game_name: str, text: Any) -> InvalidMoveError:
    game = load_game(game_name)
    with pytest.raises(InvalidMoveError) as caught:
        game.parse_move(text)
    return caught.value


def assert_speaks_plainly(error: InvalidMoveError, text: Any) -> None:
    """The one style: the text (shortened) first, then why, then how to write a move."""
    message = str(error)
    assert message.startswith("not a move in this game: "), message
    assert " — " in message and error.reason in message, message
    assert error.reason and "e.g." in error.reason, message
    if isinstance(text, str):
        assert error.text == shorten(text) and len(error.text) <= SHOWN
        assert repr(shorten(text)) in message
    else:
        assert error.text == shown(text)
    assert len(message) < 600, "a refusal is a sentence, not a dump of the input"
    assert isinstance(error, SlothKernelError) and isinstance(error, ValueError)


def cases(table: dict[str, tuple[Any, ...]]) -> list[tuple[str, Any]]:
    return [(name, text) for name in GAMES for text in table[name]]


@pytest.mark.parametrize(("game_name", "text"), cases(DIGITS))
def test_digits_of_other_scripts_are_refused_by_name(game_name: str, text: str) -> None:
    error = refusal(game_name, text)
    assert_speaks_plainly(error, text)
    assert "digits 0-9" in error.reason and "U+" in error.reason


@pytest.mark.parametrize(("game_name", "text"), cases(LOOKALIKES))
def test_letters_that_change_case_into_ascii_are_refused(game_name: str, text: str) -> None:
    error = refusal(game_name, text)
    assert_speaks_plainly(error, text)
    assert "ASCII" in error.reason


@pytest.mark.parametrize(("game_name", "text"), cases(LONG_NUMBERS))
def test_numbers_of_many_digits_are_refused_before_int(game_name: str, text: str) -> None:
    error = refusal(game_name, text)
    assert_speaks_plainly(error, text)
    if len(text) > MAX_MOVE_TEXT:
        assert f"at most {MAX_MOVE_TEXT} characters" in error.reason and error.text.endswith("…")
    else:
        assert "digits" in error.reason or "not a card" in error.reason or "two River rows" in error.reason


@pytest.mark.parametrize(("game_name", "text"), cases(OTHER_NONSENSE))
def test_every_refusal_of_notation_speaks_one_way(game_name: str, text: str) -> None:
    assert_speaks_plainly(refusal(game_name, text), text)


@pytest.mark.parametrize("game_name", GAMES)
@pytest.mark.parametrize("value", NOT_TEXT)
def test_a_move_that_is_not_text_is_refused(game_name: str, value: Any) -> None:
    error = refusal(game_name, value)
    assert_speaks_plainly(error, value)
    assert "written as text" in error.reason


@pytest.mark.parametrize("game_name", GAMES)
def test_explain_answers_every_refused_text(game_name: str) -> None:
    state = load_game(game_name).new_state(seed=3)
    texts = [
        *DIGITS[game_name],
        *LOOKALIKES[game_name],
        *LONG_NUMBERS[game_name],
        *OTHER_NONSENSE[game_name],
    ]
    for text in texts:
        reason = refusal(game_name, text).reason
        if len(text) > MAX_MOVE_TEXT:  # the one limit, enforced before the game's notation reads the text
            reason = reason.split(", e.g. ")[0]
        answer = state.explain(text)
        assert not answer.legal and reason in answer.reason, (text, answer)


def test_sprint_no_longer_explains_lift_in_arabic_digits_as_legal() -> None:
    state = load_game("sprint").new_state(seed=1)
    assert state.explain("lift 3").legal
    assert not state.explain("lift ٣").legal and not state.explain("٣").legal


def test_too_sloth_no_longer_reads_arabic_digits_as_three() -> None:
    game = load_game("too-sloth-to-win")
    assert str(game.parse_move("3")) == "3" and str(game.parse_move("pass 3")) == "pass 3"
    for text in ("٣", "pass ٣"):
        with pytest.raises(InvalidMoveError):
            game.parse_move(text)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("10 J Q", "T J Q"),
        ("t j q", "T J Q"),
        ("*10 J Q", "*T J Q"),
        ("10 10 *10", "T T *T"),
        ("pitch 10", "pitch T"),
        ("pitch t", "pitch T"),
        ("9 10 J Q K", "9 T J Q K"),
    ],
)
def test_race_reads_10_as_a_ten_and_writes_T(text: str, canonical: str) -> None:
    game = load_game("race-to-the-bottom")
    move = game.parse_move(text)
    assert str(move) == canonical and game.parse_move(canonical) is move


def test_race_records_keep_T_for_a_ten() -> None:
    game = load_game("race-to-the-bottom")
    filler = "2 2 2 2 3 3 3 3 4 4 4 4 5 5"
    state = game.from_deal({"decks": ["T T J Q " + filler, filler, filler]})
    state = state.play("10 J Q")
    assert state.to_record()["moves"] == ["T J Q"]
    assert game.replay(state.to_record()).to_record() == state.to_record()


def test_no_other_game_writes_a_ten() -> None:
    # The other rulebooks have no ten to write: Too Sloth's cards are 1-8, Surplus's 1-7 and X,
    # Sprint's lifts are counts (a lift of 10 is just that).
    assert str(load_game("sprint").parse_move("10")) == "lift 10"
    for game_name, text in (("too-sloth-to-win", "10"), ("surplus-of-sloths", "pick L10")):
        with pytest.raises(InvalidMoveError):
            load_game(game_name).parse_move(text)


@pytest.mark.parametrize("game_name", GAMES)
def test_other_whitespace_still_separates_words(game_name: str) -> None:
    text = {"too-sloth-to-win": "pass\u00a06", "race-to-the-bottom": "Q\u3000K A", "surplus-of-sloths": "keep\u2003"}
    spaced = text.get(game_name, "lift\u00a012")
    assert str(load_game(game_name).parse_move(spaced)) == " ".join(spaced.split())


def test_ascii_int_reads_only_ascii_digits_within_bounds() -> None:
    assert ascii_int("07", low=1, high=9, what="a card") == 7
    for text, why in (("٣", "digits 0-9"), ("²", "digits 0-9"), ("-3", "digits 0-9"), (" 3", "digits 0-9")):
        with pytest.raises(NotationProblem, match=why):
            ascii_int(text, low=1, high=9, what="a card")
    with pytest.raises(NotationProblem, match="1 to 9, not 10"):
        ascii_int("10", low=1, high=9, what="a card")
    with pytest.raises(NotationProblem, match="900 digits"):
        ascii_int(HUGE, low=1, high=9, what="a card")


def test_shown_bounds_what_an_error_repeats() -> None:
    assert shown("x" * 1000) == repr("x" * 79 + "…")
    assert shown(10**5000) == f"a whole number of {(10**5000).bit_length()} bits"
    assert len(shown(list(range(10**5)))) <= SHOWN


# --- moves built by hand -------------------------------------------------------------------

ODD_VALUES: tuple[Any, ...] = (42, -1, None, 1.5, (), ("x",))
"""The issue's replacements for a field of a legal move."""
LOOKALIKE_VALUES: tuple[Any, ...] = (True, False, 1.0, 0.0)
"""Values equal to an int (True == 1, 1.0 == 1) that the game never uses in a move."""


def sample_moves(game_name: str) -> list[Any]:
    """Up to 40 moves of each class from ``all_moves()``, evenly spread."""
    by_class: dict[type, list[Any]] = {}
    for move in load_game(game_name).all_moves():
        by_class.setdefault(type(move), []).append(move)
    return [move for moves in by_class.values() for move in moves[:: max(1, len(moves) // 40)]]


@pytest.mark.parametrize("game_name", GAMES)
def test_a_field_replaced_by_hand_is_no_move_of_the_game(game_name: str) -> None:
    game = load_game(game_name)
    every = frozenset(game.all_moves())
    real = {fields_of(m) for m in every}
    tried = 0
    for move in sample_moves(game_name):
        for field in dataclasses.fields(move):
            for value in (*ODD_VALUES, *LOOKALIKE_VALUES):
                built = dataclasses.replace(move, **{field.name: value})
                if fields_of(built) in real:
                    continue  # a real move after all, e.g. Pass(take=None), or Jokers declared = ()
                tried += 1
                assert built not in every, (move, field.name, value)
                assert built != move and move != built
                str(built), repr(built), hash(built)  # never a crash, whatever the fields hold
    assert tried > 50


def fields_of(move: Any) -> tuple[Any, ...]:
    """A move's class and fields with their types: equal only for moves the same in every way."""
    return (type(move), *((type(getattr(move, f.name)), getattr(move, f.name)) for f in dataclasses.fields(move)))


@pytest.mark.parametrize("game_name", GAMES)
def test_a_move_rebuilt_with_its_own_values_is_the_same_move(game_name: str) -> None:
    game = load_game(game_name)
    every = frozenset(game.all_moves())
    for move in sample_moves(game_name):
        twin = dataclasses.replace(move)
        assert twin == move and hash(twin) == hash(move) and twin in every and str(twin) == str(move)


def test_race_melds_compare_every_field_when_built_by_hand() -> None:
    # Only `cards` decides which meld a Play is; a Play whose derived fields were replaced is no meld.
    game = load_game("race-to-the-bottom")
    every = frozenset(game.all_moves())
    play = game.parse_move("7 7 *7")
    for field, value in (("kind", "Single"), ("jokers", 0), ("need", ((5, 3),)), ("rank", 11), ("declared", (5.0,))):
        assert dataclasses.replace(play, **{field: value}) not in every, field


def test_unhashable_fields_fail_only_on_hashing() -> None:
    # The core catches the TypeError of hashing a move that holds a list; building and showing it is fine.
    for game_name, move in (
        ("too-sloth-to-win", load_game("too-sloth-to-win").parse_move("4-5-6")),
        ("race-to-the-bottom", load_game("race-to-the-bottom").parse_move("Q K A")),
    ):
        built = dataclasses.replace(move, cards=["4", "5"])
        assert str(built) and repr(built), game_name
        with pytest.raises(TypeError):
            hash(built)


@pytest.mark.parametrize(
    ("game_name", "options"),
    [
        ("too-sloth-to-win", {"players": 3}),
        ("too-sloth-to-win", {"players": 5}),
        ("race-to-the-bottom", {}),
        ("surplus-of-sloths", {"players": 2}),
        ("surplus-of-sloths", {"players": 4, "babies": True}),
        ("sprint", {}),
    ],
)
def test_the_canonical_shortcut_and_the_full_reading_agree(game_name: str, options: dict[str, Any]) -> None:
    """parse_move looks canonical text up first; any other spelling is read word by word, to the same move."""
    game = load_game(game_name, **options)
    read_here = 0
    for move in game.all_moves():
        text = str(move)
        spelled = "  " + text.lower().replace(" ", "\t") + " "
        try:
            found = game.parse_move(text)
        except InvalidMoveError:  # a card of another option set (Surplus lists every type's cards)
            with pytest.raises(InvalidMoveError):
                game.parse_move(spelled)
            continue
        read_here += 1
        assert found is move
        read = game.parse_move(spelled)
        assert read == move and str(read) == text, (text, spelled)
    assert read_here > len(game.all_moves()) // 3
