"""Too Sloth To Win: the rulebook's worked examples and one test (at least) per ruling TS-1..TS-16."""

from __future__ import annotations

from typing import Any

import pytest

from sloth_kernel import ConfigError, IllegalMoveError, load_game
from sloth_kernel.games.too_sloth_to_win.engine import (
    DRINK,
    LONE_DRINK,
    Pass,
    Play,
    TooSlothState,
    beats,
)

GAME = "too-sloth-to-win"


def deal(
    hands: list[str], positions: list[int] | None = None, pacemaker: int = 0, seed: int = 0, **options: Any
) -> TooSlothState:
    game = load_game(GAME, players=len(hands), **options)
    spec: dict[str, Any] = {"hands": hands, "pacemaker": pacemaker}
    if positions is not None:
        spec["positions"] = positions
    return game.from_deal(spec, seed=seed)  # type: ignore[return-value]


def cards(text: str) -> tuple[int, ...]:
    return load_game(GAME).parse_move(text).cards  # type: ignore[attr-defined]


def play_all(state: TooSlothState, moves: list[str]) -> TooSlothState:
    for move in moves:
        state = state.play(move)  # type: ignore[assignment]
    return state


# --- the rulebook's worked examples ---------------------------------------------


def test_example_single_2_then_stronger_single_8() -> None:
    state = play_all(deal(["2 5", "8 3", "1 1", "1 2"]), ["2"])
    assert state.explain("8").legal
    after = state.play("8")
    assert after.table == (8,)


def test_example_jump_7_7_then_stronger_jump_4_4_4() -> None:
    state = play_all(deal(["7 7 1", "4 4 4 2", "1 2", "1 3"]), ["7-7"])
    explanation = state.explain("4-4-4")
    assert explanation.legal and "more cards wins" in explanation.reason


def test_example_run_6_7_then_stronger_run_3_4_5() -> None:
    state = play_all(deal(["6 7 1", "3 4 5 2", "1 2", "1 3"]), ["6-7"])
    assert state.explain("3-4-5").legal


def test_example_jump_2_2_cannot_be_answered_by_run_3_4_5() -> None:
    state = play_all(deal(["2 2 1", "3 4 5 2", "1 2"]), ["2-2"])
    explanation = state.explain("3-4-5")
    assert not explanation.legal
    assert "TS-3" in explanation.rules and "Jumps only beat Jumps" in explanation.reason
    with pytest.raises(IllegalMoveError) as err:
        state.play("3-4-5")
    assert err.value.explanation == explanation


def test_example_drink_with_4_and_6_declared_5_makes_4_5_6() -> None:
    state = deal(["4 6 D 1", "1 2", "1 2"])
    assert Play(cards("4-D5-6")) in state.legal_moves()
    after = state.play("4-D5-6")
    assert after.table == cards("4-D5-6") and after.positions[0] == 3


def test_example_drink_with_a_5_declared_5_or_4_or_6() -> None:
    legal = {str(m) for m in deal(["5 D 1", "1 2", "1 2"]).legal_moves()}
    assert {"5-D5", "D4-5", "5-D6"} <= legal


def test_example_drink_not_playable_as_single_and_max_one_per_combination() -> None:
    state = deal(["5 D D 1", "1 2", "1 2"])
    assert not state.explain("D5").legal and "never played as a Single" in state.explain("D5").reason
    assert not state.explain("5-D5-D5").legal and "at most one drink" in state.explain("5-D5-D5").reason
    assert all(sum(c > 10 for c in m.cards) <= 1 for m in state.legal_moves() if isinstance(m, Play))


def test_example_4_player_end_of_round_A_B_C_D() -> None:
    # A reaches the finish first; B still holds a drink; C passes and takes a card;
    # D then beats the weakened combination and finishes second.
    state = deal(["5 6 1", "D 2 3", "1 1", "7 3"], positions=[7, 3, 7, 8])
    state = state.play("5-6")
    assert state.trophies == [1, 0, 0, 0]
    assert state.observation(2).status[1] == "out: drug possession (still holding a drink)"
    assert state.current_player == 2
    assert not state.explain("1-1").legal  # C cannot beat Run 5-6
    state = state.play("pass 5")
    assert state.table == (6,) and state.hands[2][5] == 1
    state = state.play("7")  # D beats the Single 6 and reaches the finish
    assert state.chips == [0, 0, 0, 1]
    assert state.results[0].first == 0 and state.results[0].second == 3
    assert state.round == 1  # the round ended; round 2 was dealt


# --- one test per ruling ----------------------------------------------------------


def test_TS_1_deck_and_player_count() -> None:
    assert sorted(load_game(GAME, players=4).deck()) == sorted(list(range(1, 9)) * 5)  # type: ignore[attr-defined]
    assert sorted(load_game(GAME, players=3).deck()) == sorted(list(range(1, 7)) * 5)  # type: ignore[attr-defined]
    for bad in (2, 6):
        with pytest.raises(ConfigError, match="3-5 players"):
            load_game(GAME, players=bad)
    with pytest.raises(ConfigError, match="not a card"):
        load_game(GAME, players=3).from_deal({"hands": ["7", "1", "1"]})


def test_TS_2_deal_eight_cards_and_a_drink_undealt_hidden() -> None:
    state: TooSlothState = load_game(GAME, players=3).new_state(seed=5)  # type: ignore[assignment]
    assert all(sum(h[1:]) == 8 and h[DRINK] == 1 for h in state.hands)
    assert sum(state.undealt) == 30 - 24
    obs = state.observation(0)
    assert "undealt" not in str(obs.__dataclass_fields__)
    assert obs.hands[1] is None and obs.hands[2] is None


def test_TS_3_strength_is_strict_and_jumps_and_runs_never_cross() -> None:
    assert beats(cards("3-3"), cards("8"))
    assert beats(cards("1-2"), cards("8"))
    assert not beats(cards("7-7"), cards("7-7"))
    assert beats(cards("1-1-1"), cards("8-8"))
    assert not beats(cards("5-6-7"), cards("6-6"))
    assert not beats(cards("8-8-8"), cards("1-2-3"))
    assert beats(cards("3-4-5"), cards("2-3-4")) and not beats(cards("2-3-4"), cards("2-3-4"))
    assert not beats(cards("8"), cards("1-2"))


def test_TS_4_drink_keeps_its_number_then_alone_is_single_9() -> None:
    state = deal(["5 D 1", "1 2", "1 2"])
    state = state.play("5-D5")
    assert state.table == cards("5-D5")
    state = state.play("pass 5")
    assert state.table == (LONE_DRINK,)
    assert "Single 9" in state.log[-1].text
    assert "lower" in state.explain("2").reason  # nothing beats a Single 9 but a Jump or a Run


def test_TS_5_leader_must_play_but_a_drink_only_hand_passes_the_lead() -> None:
    state = deal(["5 1", "2", "3"])
    assert Pass(None) not in state.legal_moves()
    assert "leader must play" in state.explain("pass").reason
    drinks_only = deal(["D", "2 3", "4"], positions=[8, 0, 0])
    assert drinks_only.legal_moves() == [Pass(None)]
    after = drinks_only.play("pass")
    assert after.current_player == 1 and after.table == () and after.hands[0][DRINK] == 1


def test_ts16_deadlock_at_the_deal_ends_the_round_at_once_with_no_awards() -> None:
    state = deal(["D", "D", "D"], positions=[8, 8, 8], rounds=1)
    assert state.is_over and state.history == [] and state.results[0].first is None
    assert state.trophies == [0, 0, 0] and state.chips == [0, 0, 0]
    assert any("TS-16" in e.rules and "at once" in e.text for e in state.log)


def test_ts16_deadlock_ends_the_round_at_once_when_the_table_clears_and_the_pacemaker_stays() -> None:
    # Player 2 plays their last running card with their drink; Player 3 takes the drink back, Player 1
    # passes on the Single 2 and is out (TS-7). The table clears for Player 2, and every active hand
    # holds only drinks (or nothing): the round ends at once, nobody passes the lead round (TS-16).
    state = deal(["D", "2 D", "D"], pacemaker=1, rounds=2)
    state = play_all(state, ["2-D3", "pass D", "pass"])
    assert state.round == 1 and state.results[0].first is None and state.results[0].note == "nobody could lead"
    assert state.trophies == [0, 0, 0] and state.chips == [0, 0, 0]
    assert state.pacemaker == 1 and state.current_player == 1  # the pacemaker stays
    ended = [e for e in state.log if "TS-16" in e.rules]
    assert len(ended) == 1 and "no Trophy and no Cash Chip" in ended[0].text


def test_ts16_explain_tells_that_a_pass_ends_the_round_in_deadlock() -> None:
    state = play_all(deal(["D", "2 D", "D"], pacemaker=1, rounds=2), ["2-D3", "pass D"])
    explanation = state.explain("pass")
    assert explanation.legal and explanation.rules == ("TS-7", "TS-16") and "round ends at once" in explanation.reason
    assert "TS-16" not in deal(["D", "2 D", "D"], pacemaker=1).explain("2-D3").rules


def test_ts16_a_drink_only_leader_still_passes_the_lead_while_someone_can_lead() -> None:
    state = deal(["D", "2 3", "4"], positions=[8, 0, 0])
    assert not state.is_over and state.explain("pass").rules == ("TS-5",)
    assert state.play("pass").current_player == 1


def test_ts16_an_older_record_is_refused_naming_its_rules_edition() -> None:
    from sloth_kernel import RecordError, RulesVersionError, from_record

    state = play_all(deal(["4 5 6 1", "1 2", "2 3"]), ["4-5-6"])
    record = state.to_record()
    assert record["rules"] == 2 and from_record(record).history == state.history
    old = {key: value for key, value in record.items() if key != "rules"}  # a record from before TS-16
    for made in (old, {**record, "rules": 1}):
        with pytest.raises(RulesVersionError) as caught:
            from_record(made)
        assert isinstance(caught.value, RecordError) and caught.value.version == 1 and caught.value.current == 2
        assert "edition 1" in str(caught.value) and "TS-16" in str(caught.value)
    with pytest.raises(RulesVersionError, match="newer"):
        from_record({**record, "rules": 3})


def test_TS_6_pass_takes_an_end_card_and_the_rest_is_reread() -> None:
    state = play_all(deal(["4 5 6", "1 1", "2 2"]), ["4-5-6"])
    takes = {str(m) for m in state.legal_moves() if isinstance(m, Pass)}
    assert takes == {"pass 4", "pass 6"}
    assert "either end" in state.explain("pass 5").reason
    assert not state.explain("pass").legal
    state = state.play("pass 6")
    assert state.table == (4, 5) and state.hands[1][6] == 1


def test_TS_7_passing_on_a_single_eliminates() -> None:
    state = play_all(deal(["8 1 1", "2 3", "4 4", "5 5"]), ["8"])
    assert state.legal_moves()[-1] == Pass(None)
    explanation = state.explain("pass")
    assert explanation.legal and "couldn't beat a Single" in explanation.reason
    state = state.play("pass")
    assert state.status[1] == 2 and state.table == (8,)
    assert state.suspicious


def test_TS_8_table_resets_to_the_last_player_or_their_left() -> None:
    state = play_all(deal(["4 5 6 1", "1 2", "2 3"]), ["4-5-6", "pass 4", "pass 6"])
    assert state.table == () and state.current_player == 0
    assert "TS-8" in state.log[-1].rules


def test_TS_9_moving_and_finishing_beyond_space_9() -> None:
    state = deal(["6 7 8 1", "1 2", "3 4", "5 5"], positions=[7, 0, 0, 0])
    state = state.play("6-7-8")
    assert state.positions[0] == 9 and state.trophies[0] == 1  # stops on the finish square (TS-16)
    no_board = deal(["6 7", "1 2", "3 4", "5"], no_board=True)
    no_board = no_board.play("6-7")
    assert no_board.trophies[0] == 1 and no_board.positions[0] == 2


def test_TS_10_first_finisher_and_drug_possession() -> None:
    state = deal(["6 7", "D 1", "D 2", "3 3"], positions=[7, 0, 0, 0])
    state = state.play("6-7")
    assert state.trophies == [1, 0, 0, 0]
    eliminated = [e.player for e in state.log if "drug possession" in e.text]
    assert eliminated == [1, 2]
    assert state.chips == [0, 0, 0, 1] and state.results[0].second == 3  # the last one left (TS-11)


def test_TS_10_everyone_eliminated_gives_the_finisher_the_chip_too() -> None:
    state = deal(["6 7", "D 1", "D 2", "D 3"], positions=[7, 0, 0, 0])
    state = state.play("6-7")
    assert state.trophies[0] == 1 and state.chips[0] == 1
    assert "Nobody is left" in " ".join(e.text for e in state.log)


def test_TS_10_organizers_grow_suspicious_after_an_earlier_elimination() -> None:
    state = deal(["8 6 7", "1", "2 2", "3"], positions=[7, 0, 0, 0])
    state = play_all(state, ["8", "pass"])  # seat 1 cannot beat a Single: eliminated
    state = play_all(state, ["2-2"])
    assert state.suspicious and state.current_player == 3
    state = play_all(state, ["pass 2", "6-7"])  # seat 3 takes a 2; seat 0 finishes
    assert state.trophies[0] == 1 and state.chips[0] == 1
    assert state.results[0].note == "suspicious organizers"


def test_TS_11_race_for_second_against_the_finishers_combination() -> None:
    state = deal(["6 7", "1 1", "2 3", "7 8"], positions=[7, 0, 0, 8])
    state = state.play("6-7")
    assert state.current_player == 1 and state.table == (6, 7)
    state = state.play("pass 6")
    assert state.table == (7,)
    state = state.play("pass")  # seat 2 cannot beat... chooses not to: eliminated on a Single (TS-7)
    state = state.play("8")
    assert state.chips == [0, 0, 0, 1] and state.results[0].second == 3


def test_TS_11_race_for_second_resets_to_the_left_of_the_finisher() -> None:
    state = deal(["4 4 4", "1 1", "D 2", "5 6"], positions=[6, 0, 0, 0])
    state = state.play("4-4-4")  # seat 2 holds a drink: eliminated; seats 1 and 3 race for second
    state = play_all(state, ["pass 4", "pass 4"])
    assert state.table == () and state.current_player == 1
    assert "TS-8" in state.log[-1].rules


def test_TS_12_lone_survivor_is_first_with_trophy_and_chip() -> None:
    state = play_all(deal(["8 2", "1", "1", "1"]), ["8", "pass", "pass", "pass"])
    assert state.trophies[0] == 1 and state.chips[0] == 1
    assert state.results[0].note == "lone survivor"


def test_TS_13_pacemaker_is_configured_then_the_previous_first_finisher() -> None:
    game = load_game(GAME, pacemaker=2)
    assert game.new_state(seed=1).current_player == 2
    state = deal(["6 7", "1 2", "D 3", "D 4"], positions=[7, 0, 0, 0], pacemaker=0)
    state = state.play("6-7")
    assert state.round == 1 and state.pacemaker == 0 and state.current_player == 0


def test_TS_14_three_rounds_and_tie_breaks() -> None:
    state = load_game(GAME).new_state(seed=2)
    state.chips, state.trophies, state.last_chip = [1, 1, 1, 0], [0, 1, 1, 1], [0, 1, 2, -1]
    assert state.winner() == 2  # chips tie, trophies tie between 1 and 2, 2 has the latest chip
    state.trophies = [0, 2, 1, 0]
    assert state.winner() == 1
    from sloth_kernel.bots import RandomBot, play_out

    done = play_out(load_game(GAME).new_state(seed=3), [RandomBot(i) for i in range(4)])
    assert len(done.results) == 3 and sum(done.returns()) == 1.0


def test_TS_15_observation_shows_public_drinks_but_not_hands() -> None:
    state = play_all(deal(["5 D 1", "6 D 2", "1 3"]), ["5-D5"])
    obs = state.observation(1)
    assert obs.drinks_held == (0, 1, 0)
    assert obs.hands == (None, tuple(state.hands[1]), None)
    assert obs.hand_sizes == (1, 3, 2)
    assert obs.legal_moves and all(state.is_legal(m) for m in obs.legal_moves)
    assert state.observation(0).legal_moves == ()


def test_ts16_a_finisher_stops_on_the_finish_square_in_the_state_the_view_and_the_log() -> None:
    state = deal(["6 7 8 1", "1 2", "3 4", "5 5"], positions=[7, 0, 0, 0])
    assert "TS-16" in state.explain("6-7-8").rules and "stops on the finish square" in state.explain("6-7-8").reason
    state = state.play("6-7-8")
    assert state.view().positions[0] == 9 and state.observation(1).positions[0] == 9
    played = next(e for e in state.log if e.move == "6-7-8")
    assert "TS-16" in played.rules and played.text.endswith("to the finish.")
    from sloth_kernel.games.too_sloth_to_win.render import standings, track

    assert ">10<" not in track(state.view()) and "<td>10</td>" not in standings(state.view())
    assert "<td>9</td>" in standings(state.view())
    exact = deal(["6 7 1", "1 2", "3 4", "5 5"], positions=[7, 0, 0, 0]).play("6-7")
    assert exact.positions[0] == 9 and not any("TS-16" in e.rules for e in exact.log)


def test_a_word_that_is_no_card_is_quoted_as_the_player_wrote_it() -> None:
    """The refusal echoes the text as typed ('hello', not an upper-cased 'HELLO')."""
    state = load_game("too-sloth-to-win").new_state(seed=1)
    assert "'hello' is not a card" in state.explain("hello").reason
    assert "'x' is not a card" in state.explain("4-x").reason  # the card, in the case it was typed


def test_a_round_end_keeps_what_its_steps_show_before_the_next_deal() -> None:
    """The observation's round_end against the position before the move that ended the round: the figures
    before the awards are that position's, the table shows that move's play, and each seat sees its own
    hand only; the round's results line is marked for the board's step (ROUND_RESULTS), the next deal too."""
    import random

    from sloth_kernel.games.too_sloth_to_win.engine import ROUND_RESULTS, ROUND_START, Play

    checked = 0
    for seed in range(6):
        state = load_game("too-sloth-to-win").new_state(seed)
        rng = random.Random(seed)
        while not state.is_over:
            before, move = state, rng.choice(state.legal_moves())
            state = state.play(move)
            if len(state.results) == len(before.results) or state.is_over:
                continue
            end = state.view().round_end
            assert end is not None and end.result == state.results[-1]
            assert end.chips_before == tuple(before.chips) and end.trophies_before == tuple(before.trophies)
            assert end.chips == tuple(state.chips) and end.trophies == tuple(state.trophies)
            if isinstance(move, Play):
                assert end.table == move.cards and end.table_owner == before.current_player
            mine = state.observation(1).round_end
            assert mine is not None and mine.hands[1] is not None
            assert all(hand is None for seat, hand in enumerate(mine.hands) if seat != 1)
            new = state.log[len(before.log) :]
            assert [e.kind for e in new if e.kind in (ROUND_RESULTS, ROUND_START)] == [ROUND_RESULTS, ROUND_START]
            assert new[0].move is not None and new[1].kind == ROUND_RESULTS and new[1].move is None
            checked += 1
    assert checked >= 6
