"""Hypotheticals: "why can't Player 3 play 7-7 here?" and "what would 4-4-4 have done?".

``state.ask(seat, move)`` is the omniscient question (step-through, teacher's view, analyses);
``state.ask_as(viewer, move, seat)`` is the live one, answered from the viewer's observation alone.
Both are derived from the engine (a copy of the position with that seat to move, a copy that plays
the move), so they can never disagree with ``legal_moves`` or the log.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, note
from hypothesis import strategies as st
from positions import reached

from sloth_kernel import Explanation, SeatError, available_games, load_game
from sloth_kernel.core import GameState

GAMES = available_games()
SECRET_GAMES = [  # games whose seats hide cards, with worlds to check a live answer against
    name for name in GAMES if load_game(name).seat_secrets and "world_sampler" in vars(type(load_game(name)))
]


def ts(hands: list[str], **options: Any) -> GameState[Any, Any]:
    return load_game("too-sloth-to-win", players=len(hands), **options).from_deal({"hands": hands})


def rb(hands: list[str], decks: list[str], **options: Any) -> GameState[Any, Any]:
    return load_game("race-to-the-bottom", players=len(hands), **options).from_deal({"hands": hands, "decks": decks})


def new_lines(before: GameState[Any, Any], after: GameState[Any, Any]) -> str:
    return " ".join(event.text for event in after.log[len(before.log) :])


# --- Too Sloth To Win ----------------------------------------------------------------------------


def test_why_cant_player_3_play_7_7_here_when_it_is_not_their_turn() -> None:
    state = ts(["4 5 6 1", "1 2", "7 3", "8 8"]).play("4-5-6")
    answer = state.ask(2, "7-7")  # Player 3 holds one 7, and it is Player 2's turn
    assert isinstance(answer, Explanation) and not answer.legal and not answer.their_turn and answer.seat == 2
    assert answer.reason.startswith("it is not Player 3's turn: Player 2 is to move; if it were their turn, ")
    assert answer.reason.endswith("Player 3 holds only one 7") and answer.rules == ("TS-2",) and answer.effect == ""
    holds = state.ask(3, "8-8")  # Player 4 holds 8-8, but a Jump never beats a Run
    assert not holds.legal and "Jump" in holds.reason and holds.rules == ("TS-3",)
    assert holds.sentence().startswith("Jump 8-8: not legal for Player 4. It is not Player 4's turn")


def test_what_would_4_4_4_have_done_is_the_log_of_playing_it() -> None:
    state = ts(["7 7 1", "4 4 4 2", "1 2", "1 3"]).play("7-7")
    answer = state.ask(1, "4-4-4")
    assert answer.legal and answer.their_turn and answer.reason == state.explain("4-4-4").reason
    assert answer.effect == new_lines(state, state.play("4-4-4")) == "Player 2 plays Jump 4-4-4 and moves 3 to space 3."
    assert "What it would do: Player 2 plays Jump 4-4-4 and moves 3 to space 3." in answer.sentence()


def test_an_eliminated_player_cannot_move_at_all() -> None:
    state = ts(["8 1 1", "2 3", "4 4", "5 5"]).play("8").play("pass")  # Player 2 passed on a Single: out (TS-7)
    answer = state.ask(1, "2")
    assert not answer.legal and "Player 2 is out of this round: couldn't beat a Single" in answer.reason
    assert answer.rules == ("TS-7",)


def test_a_finisher_past_the_finish_stops_on_it_in_the_effect() -> None:
    state = load_game("too-sloth-to-win", players=4).from_deal(
        {"hands": ["6 7 8 1", "1 2", "3 4", "5 5"], "positions": [7, 0, 0, 0]}
    )
    answer = state.ask(0, "6-7-8")
    assert answer.legal and "TS-16" in answer.rules and "moves 3 to the finish" in answer.effect
    assert "crosses the finish line first" in answer.effect


# --- Race to the Bottom, Surplus of Sloths, Sprint! ------------------------------------------------------


def test_race_tens_are_written_and_said_10() -> None:
    state = rb(["T T 5", "J J 4", "Q 2"], ["2 3", "2 3", "2 3"])
    answer = state.ask(0, "10 10")
    assert answer.legal and answer.move == "10 10" and "Pair of 10s" in answer.effect
    assert " T " not in answer.sentence() and "T T" not in answer.sentence()
    other = state.ask(2, "10 10")
    assert not other.legal and "needs 2 natural 10s; you hold 0" in other.reason


def test_race_a_player_who_passed_is_out_of_the_trick_and_rb12_is_in_the_effect() -> None:
    state = rb(["7", "2 8", "3 6"], ["", "2 3 4", "2 3 4"], grand_prix=True)
    answer = state.ask(0, "7")
    assert answer.legal and "stays on the table" in answer.effect  # RB-12, read from the engine's log
    after = state.play("7").play("pass").play("done")  # Player 2 passed and refilled: Player 3 to move
    assert "has passed and is out of this trick" in after.ask(1, "8").reason


def test_surplus_a_seat_that_already_drafted_this_round_is_told_so() -> None:
    state = load_game("surplus-of-sloths").new_state(2)
    while state.legal_moves() and str(state.legal_moves()[0]).startswith("pick"):
        state = state.play(state.legal_moves()[0])
    drafter = state.current_player
    state = state.play(state.legal_moves()[0])
    answer = state.ask(drafter, str(state.legal_moves()[0]))
    assert not answer.legal and "has already drafted this round" in answer.reason and answer.rules == ("SS-4",)


def test_sprint_live_questions_about_another_seat_are_answered_and_the_hares_card_stays_hidden() -> None:
    state = load_game("sprint").new_state(3)
    full = state.ask(1, "lift 5")
    live = state.ask_as(0, "lift 5", seat=1)
    assert full.legal and live.legal and live.known and live.reason == full.reason
    assert "Race card" in full.effect and "Race card" not in live.effect
    assert live.effect.endswith("What follows depends on cards hidden from you.")


# --- agreement with the engine, for every game ------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 40), data=st.data())
def test_asking_the_seat_to_move_agrees_with_explain_legal_moves_and_play(
    name: str, seed: int, steps: int, data: st.DataObject
) -> None:
    state = reached(name, seed, steps)
    if state.is_over:
        assert not state.ask(0, "pass").legal
        return
    mover = state.current_player
    move = data.draw(st.sampled_from(state.legal_moves()))
    answer = state.ask(mover, move)
    note(answer.sentence())
    assert answer.legal and answer.their_turn and answer.reason == state.explain(move).reason
    assert answer.effect == new_lines(state, state.play(move))
    for other in state.game.all_moves()[:: max(1, len(state.game.all_moves()) // 40)]:
        assert state.ask(mover, other).legal == (other in state.legal_moves())


@pytest.mark.parametrize("name", GAMES)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 40), seat=st.integers(0, 4), text=st.text(max_size=12))
def test_ask_always_answers_with_a_sentence(name: str, seed: int, steps: int, seat: int, text: str) -> None:
    state = reached(name, seed, steps)
    seat %= state.game.num_players
    before = state.to_record(), state.view()
    for question in (text, None, 42, "pass", "10 10"):
        answer = state.ask(seat, question)
        assert isinstance(answer, Explanation) and answer.sentence().endswith(".")
        assert answer.sentence().count(f"Player {seat + 1}") >= 1 and "seat 0" not in answer.sentence()
        live = state.ask_as(seat, question)
        assert isinstance(live, Explanation) and live.sentence().endswith(".") and live.seat == seat
    assert (state.to_record(), state.view()) == before  # asking changes nothing
    with pytest.raises(SeatError):
        state.ask(True, "pass")  # type: ignore[arg-type]


# --- the live question never leaks ----------------------------------------------------------------


def candidate_moves(state: GameState[Any, Any], seat: int) -> list[Any]:
    """Moves worth asking about `seat`: their own (as if it were their turn) and the mover's."""
    found = list(state.legal_moves())
    twin = state._turn_of(seat) if seat != state.current_player else state
    if not isinstance(twin, tuple):
        found += twin.legal_moves()
    return found or list(state.game.all_moves()[:5])


@pytest.mark.parametrize("name", SECRET_GAMES)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 40), data=st.data())
def test_a_live_answer_depends_only_on_what_the_viewer_may_know(
    name: str, seed: int, steps: int, data: st.DataObject
) -> None:
    """Two positions the viewer cannot tell apart (same observation) get the same answer: no hidden card leaks."""
    state = reached(name, seed, steps)
    players = state.game.num_players
    viewer = data.draw(st.integers(0, players - 1), label="viewer")
    seat = data.draw(st.integers(0, players - 1), label="seat")
    move = data.draw(st.sampled_from(candidate_moves(state, seat)), label="move")
    answer = state.ask_as(viewer, move, seat)
    note(answer.sentence())
    observation = state.observation(viewer)
    if observation.is_over:
        return
    world = type(state.game).world_sampler(observation)(random.Random(seed))
    assert world.observation(viewer) == observation
    assert world.ask_as(viewer, move, seat) == answer
    if seat != viewer:
        assert not answer.known or not answer.their_turn or answer.reason.startswith("it is not")
        assert "does not hold" not in answer.reason and "you hold" not in answer.reason
    else:
        truth = state.ask(seat, move)  # about one's own seat the verdict is exact
        assert (answer.legal, answer.reason, answer.rules) == (truth.legal, truth.reason, truth.rules)
        assert truth.effect.startswith(answer.effect.replace(" What follows depends on cards hidden from you.", ""))


def test_a_live_question_about_another_seat_names_no_card() -> None:
    state = ts(["4 5 6 1", "1 2", "7 3", "8 8"]).play("4-5-6")
    for move in ("7-7", "7", "8-8", "pass 4"):
        answer = state.ask_as(0, move, seat=2)
        assert not answer.known and not answer.legal and "hidden from you" in answer.reason
        assert "hold" not in answer.reason
    own = state.ask_as(0, "7-7")  # one's own seat: the full answer (Player 1 holds no 7)
    assert own.known and not own.legal and own.reason == state.ask(0, "7-7").reason


def test_a_live_question_must_come_from_one_seats_observation() -> None:
    state = ts(["4 5 6 1", "1 2", "7 3", "8 8"])
    with pytest.raises(ValueError, match="observation"):
        state.game.ask_observed(state.view(), "7-7")
    with pytest.raises(SeatError):
        state.game.ask_observed(state.observation(0), "7-7", seat=9)
