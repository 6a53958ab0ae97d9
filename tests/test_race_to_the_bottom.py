"""Race to the Bottom: the rulebook's worked examples and one test per ruling (RB-1..RB-13)."""

from __future__ import annotations

from collections import Counter

import pytest

from sloth_kernel import ConfigError, IllegalMoveError, InvalidMoveError, load_game
from sloth_kernel.bots import RandomBot, play_out
from sloth_kernel.games.race_to_the_bottom.engine import DONE, PASS, POINTS, TABLES, RaceState

FILLER = "2 3 4 5 6 7 8 9"  # a deck that keeps a seat from shedding out


def filler(hand: str) -> str:
    """FILLER less any rank the hand already holds four of (a deck has only four)."""
    return " ".join(c for c in FILLER.split() if hand.split().count(c) < 4)


def deal(hands: list[str], decks: list[str] | None = None, leader: int = 0, **options: object) -> RaceState:
    game = load_game("race-to-the-bottom", players=len(hands), **options)
    return game.from_deal({"hands": hands, "decks": decks or [filler(h) for h in hands], "leader": leader})


def play(state: RaceState, *moves: str) -> RaceState:
    for move in moves:
        state = state.play(move)
    return state


def texts(state: RaceState) -> set[str]:
    return {str(m) for m in state.legal_moves()}


# --- rulebook examples --------------------------------------------------------


def test_RB_4_queens_then_aces_then_fours() -> None:
    state = deal(["Q Q 5", "A A 5", "4 4 5"])
    state = play(state, "Q Q")
    assert "RB-4" in state.explain("A A").rules
    state = state.play("A A")
    why = state.explain("4 4")
    assert why.legal and "Ace set resets the climb" in why.reason and "RB-4" in why.rules
    state = state.play("4 4")
    assert str(state.top) == "4 4"


def test_RB_4_fours_cannot_climb_queens_directly() -> None:
    state = play(deal(["Q Q 5", "4 4 5"]), "Q Q")
    why = state.explain("4 4")
    assert not why.legal and "lower than a Pair of Queens" in why.reason and "RB-2" in why.rules


def test_RB_4_any_set_on_aces_and_aces_on_any_set() -> None:
    state = play(deal(["A 9", "3 9"]), "A")
    assert "3" in texts(state)
    state = play(deal(["K 9", "* 9"]), "K")
    assert "*A" in texts(state)


def test_RB_5_ace_high_and_ace_low_runs_are_legal() -> None:
    state = deal(["Q K A 2 3", "9"])
    assert {"Q K A", "A 2 3", "K A", "A 2"} <= texts(state)
    assert state.explain("Q K A").legal and state.explain("A 2 3").legal


def test_RB_5_no_wrap_around() -> None:
    game = load_game("race-to-the-bottom")
    with pytest.raises(InvalidMoveError, match="wrap"):
        game.parse_move("K A 2")
    state = deal(["K A 2 5", "9"])
    assert "K A 2" not in texts(state)
    why = state.explain("K A 2")
    assert not why.legal and "wrap" in why.reason


def test_RB_5_ace_sequence_beats_and_is_beaten_by_any_of_its_length() -> None:
    state = play(deal(["9 T J 4 5 6", "A 2 3 J Q K"]), "9 T J", "A 2 3")  # an Ace run on any run
    assert state.explain("4 5 6").legal  # any run on an Ace run
    state = play(state, "4 5 6")
    assert state.explain("J Q K").legal
    assert not state.explain("A 2").legal  # still the same length only


def test_RB_5_sequences_compare_by_top_card_equal_is_enough() -> None:
    state = play(deal(["5 6 7 4 5 6", "5 6 7 4 4 5 5"]), "5 6 7")
    assert state.explain("5 6 7").legal
    why = state.explain("4 5 6")
    assert not why.legal and "RB-5" in why.rules


def test_RB_2_seven_pair_on_seven_pair() -> None:
    state = play(deal(["7 7 9", "7 7 9"]), "7 7")
    why = state.explain("7 7")
    assert why.legal and "equal" in why.reason


def test_RB_6_cheat_ladder() -> None:
    state = deal(["K K 3", "2 2 2 2 9", "3 3 3 3 * 9", "4 4 4 4 * *"])
    state = play(state, "K K", "2 2 2 2")  # a Smokescreen beats any normal meld
    assert "RB-6" in state.explain("3 3 3 3 *3").rules
    state = play(state, "3 3 3 3 *3")  # an Oil Slick beats a Smokescreen
    assert state.explain("4 4 4 4 *4 *4").legal  # Caltrops beat an Oil Slick
    assert not state.explain("4 4 4 4").legal  # a smaller Cheat never does
    assert "bigger" in state.explain("4 4 4 4").reason
    state = play(state, "4 4 4 4 *4 *4")
    assert state.top is not None and state.top.kind == "Caltrops"


def test_RB_6_same_cheat_needs_equal_or_higher_rank_with_ace_reset() -> None:
    state = play(deal(["9 9 9 9 5", "8 8 8 8 A A A A"]), "9 9 9 9")
    why = state.explain("8 8 8 8")
    assert not why.legal and "equal or higher" in why.reason
    assert state.explain("A A A A").legal
    state = play(deal(["A A A A 5", "2 2 2 2 9"]), "A A A A")
    assert state.explain("2 2 2 2").legal


def test_RB_6_only_cheats_after_a_cheat() -> None:
    state = play(deal(["9 9 9 9 5", "A A K K K K Q"]), "9 9 9 9")
    why = state.explain("A A")
    assert not why.legal and why.reason.startswith("only Cheats may follow a Cheat") and "RB-6" in why.rules
    assert texts(state) == {"pass", "K K K K"}


def test_RB_7_empty_hand_pass_then_done_refills() -> None:
    state = deal(["5 9", "6 Q", "4 T"], decks=[FILLER, "J J Q", FILLER])
    state = play(state, "5", "6", "T", "pass", "done")  # Player 1 passes and refills
    state = play(state, "Q", "pass", "done")  # Player 2's hand is now empty; Player 3 passes
    assert state.current_player == 1 and state.nhand[1] == 0
    assert state.legal_moves() == [PASS]
    why = state.explain("J")
    assert not why.legal and "hand is empty" in why.reason
    state = state.play("pass")
    assert state.legal_moves() == [DONE]  # nothing to pitch
    state = state.play("done")
    assert state.nhand[1] == 3 and state.decks[1] == []


def test_RB_7_a_leader_with_an_empty_hand_passes_and_the_next_player_leads() -> None:
    state = deal(["", "5 6"], decks=["7 8", "9"])
    assert state.legal_moves() == [PASS] and state.explain("pass").legal
    state = play(state, "pass", "done")
    assert state.nhand[0] == 2 and state.current_player == 1 and state.top is None
    assert PASS not in state.legal_moves()  # the open trick must be led
    state = state.play("5")
    assert state.current_player == 1  # Player 1 passed: Player 2 is the last one in (RB-8)


def test_RB_7_short_deck_refill_draws_back_pitched_cards() -> None:
    hand = "2 2 3 4 5 6 7 8 9 T J Q"
    state = deal([hand, "3 K"], decks=["A", FILLER], leader=1)
    state = play(state, "K", "pass", "pitch 2", "pitch 9", "pitch T")
    assert state.view().seats[0].deck == ("A", "2", "9", "T")
    assert state.observation(0).seats[0].pitched == ("2", "9", "T")
    state = state.play("done")  # 9 in hand: draw the Ace, then the 2 and the 9 pitched back
    assert state.nhand[0] == 12 and state.decks[0] == [8]  # the T stays under the deck
    assert state.observation(0).seats[0].pitched == ("T",)
    assert state.hands[0][0] == 2 and state.hands[0][7] == 1  # both 2s, and the 9 again


def test_RB_8_last_player_continues_over_own_meld() -> None:
    state = play(deal(["5 8 3 J", "2 4"]), "5", "pass", "done")
    assert state.current_player == 0 and state.top_seat == 0
    assert any("last player in" in e.text for e in state.events)
    assert state.explain("8").legal and "RB-8" in state.explain("8").rules
    why = state.explain("3")
    assert not why.legal and "lower" in why.reason
    state = play(state, "8", "J", "pass", "done")
    assert state.current_player == 0 and state.top is None  # they lead the next trick
    assert state.passed == [False, False]


def test_RB_8_last_player_in_sheds_out_next_on_left_leads() -> None:
    state = deal(["7", "2 5", "3 6"], decks=["", FILLER, FILLER], grand_prix=True)
    state = play(state, "7")  # Player 1 wins the race mid-trick; the others race on
    assert state.out[0] and state.current_player == 1 and str(state.top) == "7"
    state = play(
        deal(["5 7", "2 9", "3 9"], decks=["", FILLER, FILLER], grand_prix=True), "5", "pass", "done", "pass", "done"
    )
    assert state.current_player == 0
    state = state.play("7")  # the last player in sheds out: Player 2, on the left, leads
    assert state.out[0] and state.top is None and state.current_player == 1


def test_RB_9_mid_trick_win() -> None:
    state = play(deal(["5 5 9", "7 7", "2 2 3"], decks=[FILLER, "", FILLER]), "5 5")
    assert state.explain("7 7").legal and "finish line" in state.explain("7 7").reason
    state = state.play("7 7")
    assert state.is_over and state.returns() == (0.0, 1.0, 0.0)
    assert state.current_player == -1 and state.legal_moves() == []


def test_RB_9_ranking_by_fewest_cards_left_ties_share() -> None:
    state = deal(["7", "5 6", "2 3", "4 9"], decks=["", "8 8", "8 8 8 8", "8 8"])
    state = state.play("7")
    result = state.results[-1]
    assert result.order == (0, 1, 3, 2)
    assert result.left == (0, 4, 6, 4)
    assert result.places == (1, 2, 4, 2)
    assert "fewest cards left" in state.events[-1].text


@pytest.mark.parametrize("players", [2, 3, 4])
def test_RB_10_grand_prix_points_table(players: int) -> None:
    assert POINTS == {2: (1, 0), 3: (2, 1, 0), 4: (4, 2, 1, 0)}
    game = load_game("race-to-the-bottom", players=players, grand_prix=True)
    start = game.new_state(11)
    bots = [RandomBot(seat) for seat in range(players)]
    end = play_out(start, bots)
    assert len(end.results) == 3
    totals = [0] * players
    for result in end.results:
        assert sorted(result.points) == sorted(POINTS[players])
        for place, seat in enumerate(result.order):
            assert result.points[seat] == POINTS[players][place]
            totals[seat] += result.points[seat]
    assert totals == end.points
    best = max(totals)
    winners = [s for s in range(players) if totals[s] == best]
    assert end.returns() == tuple(1 / len(winners) if s in winners else 0.0 for s in range(players))


def test_RB_10_race_winner_leads_next_race_and_ties_share() -> None:
    game = load_game("race-to-the-bottom", players=2, grand_prix=True, races=2)
    shared = 0
    for seed in range(6):
        state = game.from_deal({"hands": ["9", "2 3"], "decks": ["", FILLER], "leader": 1}, seed=seed)
        state = play(state, "2", "9")  # Player 1 sheds out and wins race 1
        assert state.race == 1 and state.results[0].points == (1, 0)
        assert state.leader == 0 and state.current_player == 0  # the race winner leads race 2
        assert "Race 2 of 2" in state.events[-1].text or "Race 2 of 2" in state.events[-2].text
        end = play_out(state, [RandomBot(1), RandomBot(2)])
        if end.results[1].order[0] == 1:  # Player 2 wins race 2: one point each, a shared victory
            assert end.points == [1, 1] and end.returns() == (0.5, 0.5)
            assert "shared victory" in end.events[-1].text
            shared += 1
        else:
            assert end.points == [2, 0] and end.returns() == (1.0, 0.0)
    assert 0 < shared < 6


# --- one test per remaining ruling --------------------------------------------


def test_RB_1_private_54_card_decks_never_mixed_or_reshuffled() -> None:
    state = load_game("race-to-the-bottom", players=4).new_state(3)
    full = Counter({r: 4 for r in "23456789TJQKA"} | {"*": 2})
    decks = []
    for seat in state.view().seats:
        assert seat.hand_count == 12 and seat.deck_count == 42
        assert Counter(seat.hand) + Counter(seat.deck) == full
        decks.append(seat.deck)
    assert len(set(decks)) == 4  # each deck shuffled on its own
    before = state.view().seats[1].deck
    state = play(state, str(state.legal_moves()[0]), "pass", "pitch " + state.view().seats[1].hand[0])
    assert state.view().seats[1].deck[:-1] == before  # the deck is never reshuffled


def test_RB_2_melds_runs_pairs_and_cheats_by_ranks() -> None:
    game = load_game("race-to-the-bottom")
    assert game.parse_move("7 8").kind == "Run" and game.parse_move("7 7").kind == "Pair"
    assert game.parse_move("3 3 4 4 5 5").kind == "Leap" and game.parse_move("3 3 3 4 4 4").kind == "Bound"
    assert game.parse_move("7 7 7 7").kind == "Smokescreen"  # never a normal meld
    state = play(deal(["7 8 9 5", "5 5 T 7 8"]), "7 8 9")
    why = state.explain("5 5")
    assert not why.legal and why.reason.startswith("a Run of 3 cannot be answered by a Pair") and "RB-2" in why.rules
    assert state.explain("7 8").reason.startswith("a Run of 3 cannot be answered by a Run of 2")


def test_RB_2_a_cheat_may_lead() -> None:
    state = deal(["6 6 6 6 9", "2"])
    assert "6 6 6 6" in texts(state)
    assert state.explain("6 6 6 6").legal


def test_RB_3_jokers_declared_in_the_move() -> None:
    state = deal(["7 7 * 9", "2"])
    moves = texts(state)
    assert {"7 7 *7", "*A", "*2", "7 *7", "7 *8 9"} <= moves
    assert "*7 7 7" not in moves  # one canonical spelling per meld
    game = load_game("race-to-the-bottom")
    assert game.parse_move("*7 7 7") == game.parse_move("7 7 *7")
    why = state.explain("7 *8 9")
    assert why.legal and "declared as 8" in why.reason and "RB-3" in why.rules
    assert not state.explain("*A *A").legal and "Joker" in state.explain("*A *A").reason


def test_RB_3_joker_pair_of_aces_resets() -> None:
    state = play(deal(["K K 5", "* * 5"]), "K K")
    assert state.explain("*A *A").legal and "RB-4" in state.explain("*A *A").rules


def test_RB_7_leader_must_play_and_pass_is_permanent() -> None:
    state = deal(["5 9 K", "6 Q", "4 T"])
    why = state.explain("pass")
    assert not why.legal and "leader must play" in why.reason
    state = play(state, "5", "pass", "pitch 6", "done", "T", "K")
    assert state.current_player == 2  # Player 2 passed: skipped for the rest of the trick
    assert state.passed[1]


def test_RB_7_at_most_six_pitches_then_done() -> None:
    state = play(deal(["2 3 4 5 6 7 8 9 T J Q K", "A 9"], leader=1), "A", "pass")
    for card in "234567":
        state = state.play(f"pitch {card}")
    assert state.legal_moves() == [DONE]
    why = state.explain("pitch 8")
    assert not why.legal and "6 cards" in why.reason
    assert not state.explain("pitch A").legal


def test_RB_11_own_pitched_cards_reach_that_seat_only_twin_worlds() -> None:
    # two worlds that differ only in which cards Player 1 pitched: Player 1 sees which, in order;
    # Player 2's observation is the same in both, word for word
    start = deal(["2 3 4 5 6 7 8 9 T J Q K", "A 9 9"], leader=1)
    first = play(start, "A", "pass", "pitch 2", "pitch 7")
    second = play(start, "A", "pass", "pitch K", "pitch 4")
    assert first.observation(0).seats[0].pitched == ("2", "7")
    assert second.observation(0).seats[0].pitched == ("K", "4")
    assert first.observation(1) == second.observation(1)


def test_RB_11_observation_hides_other_hands_decks_and_pitches() -> None:
    state = play(deal(["2 3 4 5 6 7 8 9 T J Q K", "A 9 9"], leader=1), "A", "pass", "pitch 2", "pitch 7")
    mine, theirs = state.observation(0), state.observation(1)
    assert mine.seats[0].hand is not None and mine.seats[0].pitched == ("2", "7")
    assert theirs.seats[0].hand is None and theirs.seats[0].pitched is None and theirs.seats[0].deck is None
    assert theirs.seats[0].hand_count == 10 and theirs.seats[0].deck_count == len(FILLER.split()) + 2
    assert theirs.legal_moves == () and mine.legal_moves
    pitches = [e for e in theirs.log if "pitches" in e.text]
    assert len(pitches) == 2 and all(e.move is None and "a card face down" in e.text for e in pitches)
    assert theirs.trick[0][1] == state.game.parse_move("A")  # every played card is public


# --- config, notation and errors ---------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        {"players": 1},
        {"players": 5},
        {"leader": 3},
        {"races": 0},
        {"races": 2},
        {"grand_prix": 1},
        {"colour": "red"},
    ],
)
def test_bad_options_raise_config_error(options: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        load_game("race-to-the-bottom", **options)


@pytest.mark.parametrize(
    "deal_data",
    [
        {"decks": "2 3"},
        {"hands": ["2", "3", "4"]},
        {"decks": ["2 3 X", "4", "5"]},
        {"decks": ["2 2 2 2 2", "4", "5"]},
        {"decks": ["", "4", "5"], "hands": ["", "", "3"]},
        {"decks": ["", "", ""], "hands": ["2 3 4 5 6 7 8 9 T J Q K A", "2", "3"]},
        {"decks": ["2", "3"]},
        {"decks": ["2", "3", "4"], "leader": 7},
    ],
)
def test_bad_deals_raise_config_error(deal_data: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        load_game("race-to-the-bottom").from_deal(deal_data)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "pitch",
        "pitch 1",
        "pitch 7 8",
        "K A 2",
        "7 8 T",
        "7 7 7 7 7",
        "* 7",
        "*7 *7 *7",
        "2 3 4 5 6 7 8",
        "X",
        "passs",
        7,
        "7 *",
    ],
)
def test_bad_notation_raises_invalid_move(text: object) -> None:
    with pytest.raises(InvalidMoveError):
        load_game("race-to-the-bottom").parse_move(text)  # type: ignore[arg-type]


def test_notation_round_trips_and_is_lenient() -> None:
    game = load_game("race-to-the-bottom")
    assert len(TABLES.all_plays) == 1073
    for move in TABLES.all_plays:
        assert game.parse_move(str(move)) is move
    for text in ("pass", "done", "pitch 7", "pitch *", "pitch T"):
        assert str(game.parse_move(text)) == text
    assert str(game.parse_move("q k a")) == "Q K A" and str(game.parse_move("10 j q")) == "T J Q"
    assert str(game.parse_move("PITCH 10")) == "pitch T"


def test_illegal_and_out_of_turn_moves_leave_the_state_unchanged() -> None:
    state = deal(["5 9 K", "6 Q", "4 T"])
    before, view = state.to_record(), state.view()
    with pytest.raises(IllegalMoveError) as err:
        state.play("pass")
    assert "leader must play" in err.value.explanation.reason
    with pytest.raises(IllegalMoveError):
        state.play("Q")  # not in this hand
    with pytest.raises(IllegalMoveError):
        state.play("5", player=1)
    with pytest.raises(InvalidMoveError):
        state.play("K A 2")
    assert state.to_record() == before and state.view() == view


# --- RB-12 and RB-13 ------------------------------------------------------------------------


def test_rb12_a_grand_prix_shed_out_leaves_the_meld_and_the_trick_goes_on() -> None:
    state = deal(["7", "2 8", "3 6"], decks=["", FILLER, FILLER], grand_prix=True)
    state = play(state, "7")  # Player 1 sheds out mid-trick; Players 2 and 3 still race
    assert state.out[0] and not state.is_over and state.race == 0
    assert str(state.top) == "7" and state.top_seat == 0 and state.current_player == 1
    stays = [e for e in state.log if "RB-12" in e.rules]
    assert len(stays) == 1 and "stays on the table" in stays[0].text and "Player 2" in stays[0].text
    lower = state.explain("2")  # must beat the meld left on the table
    assert not lower.legal and "RB-12" in lower.rules
    higher = state.explain("8")
    assert higher.legal and "RB-12" in higher.rules and "Player 1 has shed out" in higher.reason
    passing = state.explain("pass")
    assert passing.legal and "RB-12" in passing.rules
    # as if its owner had passed: Player 2 passes, so Player 3 is the last player in and must beat the 7
    state = play(state, "pass", "done")
    assert state.current_player == 2 and state.alone and str(state.top) == "7"
    assert "3" not in texts(state) and "pass" in texts(state)
    state = play(state, "pass", "done")  # the last player in passes: they lead the next trick (RB-8)
    assert state.top is None and state.current_player == 2


def test_rb12_does_not_apply_to_a_single_race_which_ends_at_the_first_shed_out() -> None:
    state = play(deal(["7", "2 8", "3 6"], decks=["", FILLER, FILLER]), "7")
    assert state.is_over and not any("RB-12" in e.rules for e in state.log)


def test_rb13_a_leader_with_an_empty_hand_passes_pitches_nothing_refills_and_the_next_leads() -> None:
    state = deal(["", "5 6", "4 9"], decks=["7 8", "9", "J"])
    why = state.explain("pass")
    assert state.legal_moves() == [PASS] and why.legal and why.rules == ("RB-13",)
    state = state.play("pass")
    assert "RB-13" in state.log[-1].rules and "empty hand" in state.log[-1].text
    assert state.legal_moves() == [DONE]  # nothing to pitch
    assert "RB-13" in state.explain("done").rules
    state = state.play("done")
    assert state.nhand[0] == 2 and state.decks[0] == [] and state.known[0] == 0
    assert state.current_player == 1 and state.top is None and state.passed[0]
    assert "RB-13" in state.log[-1].rules and "Player 2" in state.log[-1].text
    assert PASS not in state.legal_moves()  # the next player leads the open trick


def test_notation_that_breaks_a_rule_cites_it_in_the_explanation() -> None:
    """K-A-2 is refused while it is read (RB-5 allows no wrap-around): the explanation cites RB-5
    in its rules as well as in its words, as an illegal play's does."""
    state = load_game("race-to-the-bottom").new_state(seed=7)
    answer = state.explain("K A 2")
    assert not answer.legal and "(RB-5)" in answer.reason and answer.rules == ("RB-5",)
    assert state.explain("hello").rules == ()  # words that cite no rule cite none
