"""'Find the play' puzzles: every puzzle's proof is run again, and the words a student reads.

The proof of each puzzle (sloth_kernel.puzzles.prove) searches every legal play at the position
and every answer of the other players: the puzzle's answer must be the only play that meets
its goal, and every other play must provably fail. A line that reaches the depth limit, or a
position a pending ruling may change, counts as unknown, so it can only make a proof fail.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sloth_kernel import ConfigError, RecordError, load_game
from sloth_kernel.puzzles import (
    LOSE,
    UNKNOWN,
    WIN,
    Finish,
    LeadNext,
    Puzzle,
    answer_words,
    judge_try,
    prove,
    prove_puzzle,
    puzzle_book,
    puzzle_games,
)

CLIMBING = ("too-sloth-to-win", "race-to-the-bottom")
ALL = [(name, number) for name in puzzle_games() for number in range(len(puzzle_book(name).puzzles))]


def test_each_climbing_game_has_at_least_ten_puzzles() -> None:
    assert set(CLIMBING) <= set(puzzle_games())
    for name in CLIMBING:
        book = puzzle_book(name)
        assert len(book.puzzles) >= 10, name
        assert all(p.game == name for p in book.puzzles)


def test_a_game_without_puzzles_is_refused_in_words() -> None:
    with pytest.raises(ConfigError, match="has no puzzles"):
        puzzle_book("sprint")


@pytest.mark.parametrize(("name", "number"), ALL, ids=[f"{n}-{i + 1}" for n, i in ALL])
def test_the_proof_holds(name: str, number: int) -> None:
    """The answer is the one play that meets the goal; every other legal play fails it."""
    book = puzzle_book(name)
    puzzle = book.puzzles[number]
    proof = prove_puzzle(puzzle, book.kit)
    assert proof.winners == [puzzle.answer]
    assert proof.proves(puzzle.answer), {m: v for m, v in proof.values.items() if v != LOSE}
    assert len(proof.values) >= 2  # a choice to make


@pytest.mark.parametrize("name", CLIMBING)
def test_positions_come_from_seeded_games_and_replay_as_records(name: str) -> None:
    for puzzle in puzzle_book(name).puzzles:
        state = puzzle.position()
        assert not state.is_over and state.seed == puzzle.seed and state.deal is None
        again = load_game(name, **puzzle.options).replay(state.to_record())
        assert again.view() == state.view()
        assert puzzle.answer in [str(m) for m in state.legal_moves()]


@pytest.mark.parametrize("name", CLIMBING)
def test_statements_and_verdicts_read_as_words(name: str) -> None:
    book = puzzle_book(name)
    for puzzle in book.puzzles[:3]:
        sentences = [puzzle.statement(), answer_words(puzzle, book.kit)]
        state = puzzle.position()
        wrong = next(str(m) for m in state.legal_moves() if str(m) != puzzle.answer)
        sentences.append(judge_try(puzzle, book.kit, wrong).text)
        for sentence in sentences:
            assert re.match(r"Player \d", puzzle.statement())
            assert "seat" not in sentence.lower() and "(s)" not in sentence
            assert not re.search(r"\b(None|True|False)\b|[\[\]{}]|Play\(|Pass\(", sentence), sentence


def test_a_right_answer_shows_the_line_that_meets_the_goal() -> None:
    book = puzzle_book("too-sloth-to-win")
    puzzle = next(p for p in book.puzzles if isinstance(p.goal, LeadNext))
    verdict = judge_try(puzzle, book.kit, puzzle.answer)
    hero = puzzle.position().current_player
    assert verdict.legal and verdict.right
    said = book.kit.move_words(puzzle.position().game.coerce_move(puzzle.answer))  # in words: "Jump 5-5-5"
    assert said != puzzle.answer and verdict.text.startswith(f"Right: {said} is the only play")
    assert f"Player {hero + 1} leads" in verdict.text


def test_a_wrong_answer_is_refuted_by_a_line_of_replies() -> None:
    book = puzzle_book("too-sloth-to-win")
    puzzle = book.puzzles[2]
    state = puzzle.position()
    wrong = next(str(m) for m in state.legal_moves() if str(m) != puzzle.answer)
    verdict = judge_try(puzzle, book.kit, wrong)
    assert verdict.legal and not verdict.right
    assert verdict.text.startswith("Not this one: ")
    hero = state.current_player + 1
    assert f"Player {hero} plays" in verdict.text or f"Player {hero} passes" in verdict.text
    assert re.search(r"Player \d (plays|passes)", verdict.text)  # the replies, in the engine's words
    assert verdict.text.rstrip(".").endswith(tuple(_endings(state.current_player)))


def _endings(hero: int) -> list[str]:
    return [
        "the round ends before the trick is won",
        f"Player {hero + 1} is out of the trick",
        *(f"Player {s} wins the trick and leads the next one" for s in range(1, 6)),
    ]


def test_an_illegal_answer_gets_explains_sentence() -> None:
    book = puzzle_book("too-sloth-to-win")
    puzzle = book.puzzles[0]
    state = puzzle.position()
    for text in ("9-9", "1-2-3-4", "D1", "hello"):
        verdict = judge_try(puzzle, book.kit, text)
        assert not verdict.legal and not verdict.right
        assert state.explain(text).reason in verdict.text
        assert verdict.text.startswith(f"{text} cannot be played here")


def test_the_race_answers_accept_10_for_a_ten() -> None:
    book = puzzle_book("race-to-the-bottom")
    found = [
        (p, str(m))
        for p in book.puzzles
        for m in p.position().legal_moves()
        if "T" in str(m).split() and not str(m).startswith("pitch")
    ]
    assert found, "some puzzle offers a play with a ten"
    puzzle, move = found[0]
    written = " ".join("10" if card == "T" else card for card in move.split())
    assert judge_try(puzzle, book.kit, written).move == judge_try(puzzle, book.kit, move).move
    assert "10" in judge_try(puzzle, book.kit, written).move and "T" not in judge_try(puzzle, book.kit, move).move


def test_a_goal_reached_nowhere_is_lose_and_the_depth_limit_is_unknown() -> None:
    book = puzzle_book("too-sloth-to-win")
    puzzle = book.puzzles[0]
    shallow = prove(book.kit, puzzle.position(), puzzle.goal, depth=1)
    assert shallow.limit_hit and UNKNOWN in shallow.values.values() and not shallow.proves(puzzle.answer)
    deep = prove(book.kit, puzzle.position(), puzzle.goal, depth=puzzle.depth)
    assert set(deep.values.values()) == {WIN, LOSE}


def test_the_search_refuses_to_run_past_its_budget() -> None:
    book = puzzle_book("too-sloth-to-win")
    puzzle = book.puzzles[6]
    with pytest.raises(ConfigError, match="more than 5 positions"):
        prove(book.kit, puzzle.position(), puzzle.goal, budget=5)


def test_finish_goals_count_turns() -> None:
    assert Finish(1).words() == "cross the finish line with this play"
    assert "within 2 of your turns" in Finish(2).words()
    book = puzzle_book("too-sloth-to-win")
    finishing = [p for p in book.puzzles if isinstance(p.goal, Finish)]
    assert finishing
    puzzle = finishing[0]
    assert re.search(r"Player \d (crosses the finish line|finishes second)", answer_words(puzzle, book.kit))


def test_leaders_holding_only_drinks_are_left_to_the_rulings() -> None:
    """TS-5/TS-16 and RB-13: a proof never passes through such a position (it is unsettled)."""
    ts = load_game("too-sloth-to-win", players=3)
    state = ts.from_deal({"hands": ["D", "1 2 3 4 5 6 1 2 D", "3 4 5 6 1 2 3 4 D"]})
    assert puzzle_book("too-sloth-to-win").kit.unsettled(state.view())
    rb = load_game("race-to-the-bottom", players=2)
    state = rb.from_deal({"hands": [[], ["7"]], "decks": ["2 3", "4"]})
    assert puzzle_book("race-to-the-bottom").kit.unsettled(state.view())


def test_a_puzzle_is_reached_only_by_legal_moves() -> None:
    bad = Puzzle("too-sloth-to-win", {}, 0, ("8-8-8-8",), LeadNext(), "1")
    with pytest.raises(RecordError, match="8-8-8-8"):
        bad.position()


@settings(max_examples=60)
@given(data=st.data())
def test_judging_any_try_returns_a_verdict_in_words(data: st.DataObject) -> None:
    """Any text, a legal play or not, gets a verdict (the entry point never raises)."""
    name = data.draw(st.sampled_from(CLIMBING))
    book = puzzle_book(name)
    puzzle = data.draw(st.sampled_from(book.puzzles))
    legal = [str(m) for m in puzzle.position().legal_moves()]
    text = data.draw(st.one_of(st.text(max_size=40), st.sampled_from(legal)))
    verdict = judge_try(puzzle, book.kit, text)
    state = puzzle.position()
    assert verdict.text and verdict.legal == state.explain(text).legal
    assert verdict.right == (verdict.legal and str(state.game.coerce_move(text)) == puzzle.answer)


def test_race_puzzles_are_single_races_so_no_shed_out_is_mid_trick_rb12() -> None:
    """RB-12 governs a Grand Prix shed-out mid-trick: the puzzles stay out of its way."""
    for puzzle in puzzle_book("race-to-the-bottom").puzzles:
        assert not puzzle.options.get("grand_prix", False)
        assert not puzzle.position().view().grand_prix
