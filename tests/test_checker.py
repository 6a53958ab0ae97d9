"""The 'Does it beat?' checker, driven from code. It must echo the engine, never decide itself."""

from __future__ import annotations

import pytest
from sloth_widgets.checker import BeatChecker, does_it_beat, scenario

from sloth_kernel import ConfigError, load_game
from sloth_kernel.checker import checker_kit

TOO_SLOTH, RACE = "too-sloth-to-win", "race-to-the-bottom"
EXAMPLES = {name: checker_kit(name).examples for name in (TOO_SLOTH, RACE)}

TS_CASES = [  # (table, candidate, beats, a rule it must cite)
    ("2", "8", True, "TS-3"),  # the rulebook: Single 2 -> stronger Single 8
    ("7-7", "4-4-4", True, "TS-3"),  # Jump 7-7 -> stronger Jump 4-4-4
    ("6-7", "3-4-5", True, "TS-3"),  # Run 6-7 -> stronger Run 3-4-5
    ("2-2", "3-4-5", False, "TS-3"),  # Jumps only beat Jumps
    ("4-5-6", "4-5-6", False, "TS-3"),  # equal is not stronger
    ("5", "D5", False, "TS-4"),  # a drink is never a Single
    ("D9", "8", False, "TS-3"),  # a lone drink is a Single 9
    ("D9", "2-2", True, "TS-3"),
    ("4-5", "pass 4", True, "TS-6"),
    ("5", "pass", True, "TS-7"),
]
RB_CASES = [
    ("7 7", "7 7", True, "RB-2"),  # equal is enough
    ("Q Q", "7 7", False, "RB-2"),
    ("Q Q", "A A", True, "RB-4"),  # Aces reset sets
    ("A A", "4 4", True, "RB-4"),
    ("5 6 7", "A 2 3", True, "RB-5"),  # an Ace run goes on any run of its length
    ("7 7", "5 6", False, "RB-2"),  # same type and length
    ("7 7", "9 9 9 9", True, "RB-6"),  # a Cheat beats any normal meld
    ("9 9 9 9", "Q Q", False, "RB-6"),  # only Cheats after a Cheat
    ("9 9 9 9", "5 5 5 *5 *5", True, "RB-6"),  # a bigger Cheat
    ("*A *A", "3 3", True, "RB-4"),  # Jokers declared as Aces reset too
]


@pytest.mark.parametrize("table,candidate,beats,rule", TS_CASES)
def test_too_sloth_answers(table: str, candidate: str, beats: bool, rule: str) -> None:
    verdict = does_it_beat(TOO_SLOTH, table, candidate)
    assert verdict.beats is beats, verdict
    assert rule in dict(verdict.rules)
    assert all(words for _, words in verdict.rules)


@pytest.mark.parametrize("table,candidate,beats,rule", RB_CASES)
def test_race_answers(table: str, candidate: str, beats: bool, rule: str) -> None:
    verdict = does_it_beat(RACE, table, candidate)
    assert verdict.beats is beats, verdict
    assert rule in dict(verdict.rules)


@pytest.mark.parametrize("game_name,cases", [(TOO_SLOTH, TS_CASES), (RACE, RB_CASES)])
def test_verdicts_are_the_engines_own_explanations(game_name: str, cases: list[tuple[str, str, bool, str]]) -> None:
    """The scenario is a real position: the checker's words are exactly state.explain's."""
    for table, candidate, _, _ in cases:
        state, _ = scenario(game_name, table, candidate)
        explanation = state.explain(candidate)
        assert does_it_beat(game_name, table, candidate).explanation == explanation
        move = state.game.parse_move(candidate)
        assert (move in state.legal_moves()) is explanation.legal


def test_every_example_pair_gets_an_answer() -> None:
    for game_name, examples in EXAMPLES.items():
        for table in examples:
            for candidate in examples[:6]:
                verdict = does_it_beat(game_name, table, candidate)
                assert verdict.explanation is not None or verdict.problem, (table, candidate)


def test_tables_that_cannot_exist_are_refused_in_the_engines_words() -> None:
    odd = does_it_beat(TOO_SLOTH, "4-6", "5")
    assert odd.beats is None and "neither a Jump" in odd.problem
    wrap = does_it_beat(RACE, "K A 2", "3")
    assert wrap.beats is None and "RB-5" in wrap.problem
    five_eights = does_it_beat(TOO_SLOTH, "8-8-8", "8-8-8")  # only five 8s exist (TS-1)
    assert five_eights.beats is None and "TS-1" in five_eights.problem
    assert does_it_beat(TOO_SLOTH, "pass", "5").beats is None
    assert does_it_beat(TOO_SLOTH, "4-5", "zz").beats is False  # not a move at all
    with pytest.raises(ConfigError):
        does_it_beat("sprint", "1", "2")


def test_lone_drink_is_set_up_as_in_play() -> None:
    state, name = scenario(TOO_SLOTH, "D9", "8")
    assert name == "Single 9 (a lone drink)"
    assert [str(m) for m in state.history] == ["8-D9", "pass 8"]
    assert state.current_player == 2


def test_widget_driven_from_code() -> None:
    checker = BeatChecker()
    assert checker.verdict is not None and checker.verdict.beats is True  # 3-4-5 on 4-5
    checker.table = "2-2"
    assert checker.verdict.beats is False and "No." in checker.answer.value
    checker.candidate_box.value = "4-4-4"  # typing drives the trait
    assert checker.candidate == "4-4-4" and checker.verdict.beats is True
    checker.game_picker.value = RACE
    assert checker.game == RACE and (checker.table, checker.candidate) == ("7 7", "Q Q")
    assert checker.verdict.beats is True and "RB-2" in checker.answer.value
    assert checker.table_box.options == EXAMPLES[RACE]
    before = checker.answer.value
    checker.check_button.click()
    assert checker.answer.value == before  # idempotent
    assert {"sk-checker"} <= set(checker._dom_classes)
    assert "sk-check" in checker.check_button._dom_classes


def test_race_scenario_does_not_end_the_race() -> None:
    state, _ = scenario(RACE, "9 9 9 9", "2 2 2 2")
    assert not state.is_over and state.current_player == 1
    assert load_game(RACE, players=2).name == state.game.name


def test_self_check_gives_instant_feedback() -> None:
    from sloth_widgets.checker import SelfCheck

    quiz = SelfCheck("How many spaces does 4-5-6 move?", ("1", "2", "3"), "3", "one space per card (TS-9)")
    assert quiz.correct is None and "Pick" in quiz.feedback.value
    quiz.buttons[0].click()
    assert quiz.chosen == "1" and quiz.correct is False and "Not quite" in quiz.feedback.value
    assert quiz.buttons[0].button_style == "danger" and quiz.buttons[2].button_style == "success"
    quiz.choose("3")
    assert quiz.correct is True and "Right!" in quiz.feedback.value and "TS-9" in quiz.feedback.value
    with pytest.raises(ValueError):
        SelfCheck("?", ("a", "b"), "c", "")


def test_beat_question_takes_its_answer_from_the_engine() -> None:
    from sloth_widgets.checker import beat_question

    quiz = beat_question(TOO_SLOTH, "2-2", "3-4-5")
    assert quiz.answer == "No" and "Jump 2-2" in quiz.question and "TS-3" in quiz.why
    quiz = beat_question(RACE, "Q Q", "A A")
    assert quiz.answer == "Yes" and "RB-4" in quiz.why
    with pytest.raises(ConfigError):
        beat_question(TOO_SLOTH, "4-6", "5")
