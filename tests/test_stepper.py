"""The step-through widget, driven from code: every step equals a replay of the record's prefix."""

from __future__ import annotations

from typing import Any

import pytest
from sloth_widgets.stepper import CHECKPOINT_EVERY, StepThrough, Timeline, as_record
from sloth_widgets.testing import shut_rules

from sloth_kernel import GameState, RecordError, available_games, load_game
from sloth_kernel.bots import make_bot, play_out

SHORTER: list[tuple[str, dict[str, Any], str]] = [
    ("too-sloth-to-win", {"rounds": 1}, "heuristic"),
    ("surplus-of-sloths", {}, "heuristic"),
    ("race-to-the-bottom", {"players": 2}, "random"),
    ("sprint", {}, "heuristic"),
]
"""Options and bots that keep these games' records short; every other registered game plays as it comes."""
GAMES = SHORTER + [(name, {}, "random") for name in available_games() if name not in {g for g, _, _ in SHORTER}]


def finished(name: str, options: dict[str, Any], level: str, seed: int = 3) -> GameState[Any, Any]:
    game = load_game(name, **options)
    bots = [make_bot(name, level, seed=seed * 10 + s) for s in range(game.num_players)]
    return play_out(game.new_state(seed), bots)


def prefix_replay(record: dict[str, Any], moves: int) -> GameState[Any, Any]:
    """The public protocol's own answer for the position after `moves` moves."""
    return load_game(record["game"]).replay({**record, "moves": record["moves"][:moves]})


@pytest.mark.parametrize("name,options,level", GAMES)
def test_forward_then_back_matches_replay(name: str, options: dict[str, Any], level: str) -> None:
    final = finished(name, options, level)
    record = final.to_record()
    stepper = StepThrough(record)
    assert stepper.last == len(record["moves"])
    checks = sorted({0, 1, 2, stepper.last // 2, stepper.last - 1, stepper.last})
    seen: dict[int, Any] = {}
    while True:  # forward with Next, all the way
        if stepper.step in checks:
            seen[stepper.step] = stepper.state.view()
            assert seen[stepper.step] == prefix_replay(record, stepper.step).view()
        if stepper.next_button.disabled:
            break
        stepper.next_button.click()
    assert stepper.step == stepper.last
    assert stepper.state.view() == final.view()
    while stepper.step:  # and back with Back
        stepper.back_button.click()
        if stepper.step in seen:
            assert stepper.state.view() == seen[stepper.step]
    assert stepper.back_button.disabled


@pytest.mark.parametrize("name,options,level", GAMES)
def test_every_step_narrates_and_cites_known_rules(name: str, options: dict[str, Any], level: str) -> None:
    timeline = Timeline(finished(name, options, level))
    rules = timeline.game.rules
    for index in range(len(timeline)):
        step = timeline.step(index)
        assert step.events, f"step {index} adds no narration"
        if index:
            assert step.explanation is not None and step.explanation.legal
            assert step.move == timeline.moves[index - 1]
        for rule, words in step.rules:
            assert rule in rules and words == rules[rule]


def test_random_access_crosses_checkpoints() -> None:
    record = finished("race-to-the-bottom", {"players": 2}, "random").to_record()
    timeline = Timeline(record)
    assert timeline.last > 2 * CHECKPOINT_EVERY
    for index in (timeline.last, 3, CHECKPOINT_EVERY, CHECKPOINT_EVERY + 1, 2 * CHECKPOINT_EVERY - 1, 0):
        assert timeline.state(index).view() == prefix_replay(record, index).view()


def test_step_and_record_are_settable_from_code() -> None:
    first = finished("too-sloth-to-win", {"rounds": 1}, "heuristic", seed=3)
    stepper = StepThrough(first, step=4)
    assert stepper.step == 4 and stepper.slider.value == 4 and stepper.player.value == 4
    assert "Move 4 of" in stepper.narration.value
    stepper.step = 10_000  # clamped to the end
    assert stepper.step == stepper.last and stepper.next_button.disabled
    stepper.slider.value = 2  # the scrubber drives the step
    assert stepper.step == 2
    stepper.player.value = 3  # so does the Play widget
    assert stepper.step == 3 and stepper.slider.value == 3
    stepper.player.playing = True
    stepper.back_button.click()  # Back pauses the animation
    assert not stepper.player.playing and stepper.step == 2
    second = finished("sprint", {}, "heuristic", seed=5)
    stepper.record = as_record(second.to_json())
    assert stepper.step <= stepper.last == len(second.history)
    assert "Sprint" in stepper.title.value
    assert stepper.slider.max == stepper.player.max == stepper.last


def test_find_jumps_to_the_interesting_moment() -> None:
    game = load_game("too-sloth-to-win", players=4, rounds=1)
    state = game.from_deal({"hands": ["2 5 6", "3 4", "1 1 6", "7 8"]})
    for move in ("2", "pass", "1-1"):
        state = state.play(move)
    stepper = StepThrough(state)
    index = stepper.find("TS-7")
    assert index == 2 and stepper.find("eliminated") == 2
    stepper.step = index
    assert "TS-7" in stepper.rules.value and "couldn" in stepper.rules.value
    assert stepper.find(lambda step: step.move == "1-1") == 3
    assert stepper.find("no such words") is None


def test_render_is_idempotent_and_classes_are_stable() -> None:
    stepper = StepThrough(finished("surplus-of-sloths", {}, "heuristic"), step=6)
    before = [child.value for child in (stepper.title, stepper.narration, stepper.rules, stepper.board)]
    stepper.render()
    stepper.render()
    after = [child.value for child in (stepper.title, stepper.narration, stepper.rules, stepper.board)]
    assert before == after
    classes = {
        c
        for w in (stepper, stepper.back_button, stepper.next_button, stepper.slider, stepper.player)
        for c in w._dom_classes
    }
    assert {"sk-stepper", "sk-back", "sk-next", "sk-scrub", "sk-play"} <= classes


def test_seat_view_hides_other_hands() -> None:
    final = finished("too-sloth-to-win", {"rounds": 1}, "heuristic")
    stepper = StepThrough(final, step=1, seat=0)
    assert "Player 1 sees it" in stepper.title.value
    assert "hidden card" in stepper.board.value
    stepper.seat = None
    assert "hidden card" not in stepper.board.value
    assert stepper.viewer.label == "teacher: all open"  # the dropdown names the view (not blank)
    assert StepThrough(final).viewer.label == "teacher: all open"
    stepper.viewer.value = 2  # the View dropdown drives the seat
    assert stepper.seat == 2 and "Player 3 sees it" in stepper.title.value
    assert len(stepper.viewer.options) == 1 + final.game.num_players


def test_bad_records_are_refused() -> None:
    record = finished("sprint", {}, "heuristic").to_record()
    with pytest.raises(RecordError):
        Timeline({**record, "moves": record["moves"] + ["lift 99"]})
    with pytest.raises(RecordError):
        Timeline("not json")


def test_moment_is_a_still_that_leaves_the_widget_alone() -> None:
    game = load_game("too-sloth-to-win", players=4, rounds=1)
    state = game.from_deal({"hands": ["2 5 6", "3 4", "1 1 6", "7 8"]})
    for move in ("2", "pass", "1-1"):
        state = state.play(move)
    stepper = StepThrough(state, step=1)
    still = stepper.moment("TS-7")
    assert still.step.index == 2 and stepper.step == 1
    page = still._repr_html_()
    assert "Move 2 of 3" in page and "TS-7" in page and "<details>" in page
    assert stepper.moment(3).step.move == "1-1"
    with pytest.raises(LookupError):
        stepper.moment("no such words")


def test_seat_view_keeps_secret_moves_secret() -> None:
    from sloth_kernel.lessons import lesson

    picks = StepThrough(lesson("ss-game").record(), step=1, seat=1)  # Player 1's secret pick, seen by Player 2
    assert "L5" not in picks.narration.value and "Why it is legal" not in picks.rules.value
    picks.seat = 0  # their own pick: shown
    assert "pick L5" in picks.narration.value
    pitch = StepThrough(lesson("rb-passing").record(), seat=0)
    pitch.step = pitch.find(lambda step: step.move == "pitch 2")
    assert "pitch 2" not in pitch.narration.value and "private move" in pitch.narration.value
    pitch.seat = None  # the teacher sees everything
    assert "pitch 2" in pitch.narration.value


def test_the_new_rulings_ts16_rb12_rb13_ss8_are_found_with_their_words() -> None:
    deadlock = load_game("too-sloth-to-win", players=3, rounds=2).from_deal(
        {"hands": ["D", "2 D", "D"], "pacemaker": 1}
    )
    for move in ("2-D3", "pass D", "pass"):
        deadlock = deadlock.play(move)
    race = load_game("race-to-the-bottom", players=3, grand_prix=True)
    shed = race.from_deal({"hands": ["7", "2 8", "3 6"], "decks": ["", "2 3 4", "2 3 4"]}).play("7")
    lead = load_game("race-to-the-bottom", players=3).from_deal(
        {"hands": ["", "5 6", "4 9"], "decks": ["7 8", "9", "J"]}
    )
    lead = lead.play("pass").play("done")
    surplus = load_game("surplus-of-sloths", babies=True)
    cases = [
        (deadlock, "TS-16", 3, "at once"),
        (shed, "RB-12", 1, "stays on the table"),
        (lead, "RB-13", 1, "empty hand"),
    ]
    for state, rule, expected, words in cases:
        stepper = StepThrough(state)
        stepper.step = stepper.find(rule)
        assert stepper.step == expected and words in stepper.narration.value
        assert rule in stepper.rules.value and state.game.rules[rule][:30] in stepper.rules.value
    assert "A Baby can extend a run but is never a run by itself" in surplus.rules["SS-8"]


def test_a_record_made_under_older_rules_is_refused_with_its_edition() -> None:
    record = finished("too-sloth-to-win", {"rounds": 1}, "heuristic").to_record()
    with pytest.raises(RecordError, match="edition 1"):
        Timeline({**record, "rules": 1})


def ts_three_moves() -> GameState[Any, Any]:
    state = load_game("too-sloth-to-win", players=4, rounds=1).from_deal({"hands": ["2 5 6", "3 4", "1 1 6", "7 7 8"]})
    for move in ("2", "pass", "1-1"):
        state = state.play(move)
    return state


def test_ask_why_answers_about_any_seat_before_the_shown_move() -> None:
    stepper = StepThrough(ts_three_moves(), step=3)
    assert [label for label, _ in stepper.ask_seat.options] == ["Player 1", "Player 2", "Player 3", "Player 4"]
    assert {"sk-ask", "sk-ask-seat", "sk-ask-move"} <= {
        c for w in (stepper.ask_button, stepper.ask_seat, stepper.ask_move) for c in w._dom_classes
    }
    stepper.ask_seat.value = 3
    stepper.ask_move.value = "7-7"
    stepper.ask_button.click()
    shown = stepper.ask_answer.value
    assert "Before move 3" in shown and "7-7: legal for Player 4 on their turn." in shown
    assert "It is not Player 4&#x27;s turn: Player 3 is to move" in shown
    assert "What it would do: Player 4 plays Jump 7-7 and moves 2 to space 2." in shown
    stepper.ask_seat.value = 1  # Player 2 passed on the Single and is out
    stepper.ask_button.click()
    assert "Player 2 is out of this round: couldn&#x27;t beat a Single (TS-7)" in shut_rules(stepper.ask_answer.value)
    stepper.step = 2
    assert stepper.ask_answer.value == ""  # an answer belongs to its moment


def test_ask_why_takes_10_for_a_ten_and_bad_input_gets_a_sentence() -> None:
    state = load_game("race-to-the-bottom").from_deal({"hands": ["T T 5", "J J 4", "Q 2"], "decks": ["2 3"] * 3})
    stepper = StepThrough(state.play("10 10"), step=1)
    stepper.ask_seat.value = 0
    stepper.ask_move.value = "10 10"
    answer = stepper.ask_why()
    assert answer is not None and answer.legal and "10 10: legal for Player 1." in stepper.ask_answer.value
    assert "Pair of 10s" in stepper.ask_answer.value and "T T" not in stepper.ask_answer.value
    for bad in ("", "   ", "x" * 500, "7 7 7 7 7 7 7 7", "pitch", "\x00"):
        stepper.ask_move.value = bad
        stepper.ask_why()
        shown = stepper.ask_answer.value
        assert "Traceback" not in shown and "Error" not in shown and "(" not in shown.split("</style>")[1][:60]
        assert shown.endswith(".</div>") and ("not legal" in shown or "Type a move first" in shown)


def test_ask_why_in_a_seats_view_reveals_no_hidden_card() -> None:
    stepper = StepThrough(ts_three_moves(), step=3, seat=0)
    stepper.ask_seat.value = 3
    stepper.ask_move.value = "7-7"
    answer = stepper.ask_why()
    assert answer is not None and not answer.known and "hold" not in answer.reason
    assert "7-7: unknown for Player 4." in stepper.ask_answer.value
    assert "hidden from you" in stepper.ask_answer.value
    stepper.ask_seat.value = 0  # one's own seat: the full answer
    stepper.ask_move.value = "5-6"
    own = stepper.ask_why()
    assert own is not None and own.known and "Player 1" in stepper.ask_answer.value
