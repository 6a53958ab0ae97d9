"""Surplus of Sloths: the rulebook's worked examples and at least one test per ruling SS-1..SS-11."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from sloth_kernel import ConfigError, IllegalMoveError, InvalidMoveError, RecordError, load_game
from sloth_kernel.bots import RandomBot, make_bot, play_out
from sloth_kernel.games.surplus_of_sloths.cards import (
    BABY,
    CARD_CODES,
    CARD_IDS,
    SLOTH_TYPES,
    best_run,
    points,
    profiles,
    reveal_type,
)
from sloth_kernel.games.surplus_of_sloths.engine import (
    DRAFT,
    KEEP,
    NetCard,
    Pick,
    SurplusState,
    Take,
)
from sloth_kernel.games.surplus_of_sloths.render import render

GAME = "surplus-of-sloths"


def ids(codes: str) -> list[int]:
    return [CARD_IDS[c.upper()] for c in codes.split()]


def reveal(type_letter: str, hands: list[str], net: str) -> Any:
    """The pure reveal of one type for hands written as codes."""
    t = next(i for i, kind in enumerate(SLOTH_TYPES) if kind.letter == type_letter)
    return reveal_type(t, [profiles(ids(h), 6)[t] for h in hands], profiles(ids(net), 6)[t])


def endgame(hands: list[str], net: str, last_row: str, **options: Any) -> SurplusState:
    """A position just before the last round: the deck is empty and one River row is left.

    `hands` are each seat's drafted cards; seat 0 is the Active Player.
    """
    state: SurplusState = load_game(GAME, players=len(hands), **options).new_state(0)  # type: ignore[assignment]
    state.phase, state.turn, state.active, state.row, state.left = DRAFT, 0, 0, -1, len(hands)
    state.kept = [[] for _ in hands]
    state.drafted = [ids(h) for h in hands]
    state.picks = [-1] * len(hands)
    state.net = ids(net)
    state.deck = []
    state.rivers = [ids(last_row), []]
    return state


def play_all(state: Any, moves: list[str]) -> Any:
    for move in moves:
        state = state.play(move)
    return state


def unchanged(state: Any) -> tuple[Any, ...]:
    return (
        copy.deepcopy(state.to_record()),
        state.view(),
        [state.observation(s) for s in range(state.game.num_players)],
    )


# --- the rulebook's worked examples -----------------------------------------------


def test_example_fertessa_1_2_3_4_beats_suzanne_5_6_7() -> None:
    result = reveal("R", ["R1 R2 R3 R4", "R5 R6 R7"], "R2")
    assert result.winner == 0
    assert [r.length for r in result.runs] == [4, 3]
    assert "Player 1's run of 4 is the longest" in result.lines[1]


def test_example_fertessa_end_to_end_takes_the_red_net() -> None:
    state = endgame(["R1 R2 R3", "R5 R6"], "RX S1", "R4 R7 S2")
    state = play_all(state, ["take R4 from row 1", "take R7 from row 1"])
    assert state.is_over
    red = next(r for r in state.reveal if r.type_letter == "R")
    assert red.winner == 0 and red.runs[0].run == ("1", "2", "3", "4") and red.runs[1].run == ("5", "6", "7")


def test_example_avonelle_x_5_6_beats_vinny_4_x_x() -> None:
    result = reveal("L", ["L4 LX LX", "LX L5 L6"], "L2 L5")
    assert [(r.length, r.top) for r in result.runs] == [(3, 4), (3, 6)]
    assert result.winner == 1
    assert "highest number 6 beats Player 1's 4" in result.lines[1]
    assert "X and Baby do not count" in result.lines[1]
    assert result.runs[1].run == ("X as 4", "5", "6")


def test_example_leaf_2_5_x_x_scores_21() -> None:
    assert points(ids("L2 L5 LX LX")) == (21, "(2+5) + 7 + 7 = 21")


def test_example_blue_2_3_5_scores_10() -> None:
    assert points(ids("B2 B3 B5")) == (10, "2 + 3 + 5 = 10")


def test_example_one_baby_makes_a_leaf_run_of_4_and_a_blue_run_of_5() -> None:
    hand = ids("Baby L1 L2 L3 B1 B2 B3 B4")
    assert best_run(hand, 2).length == 4 and best_run(hand, 2).baby
    assert best_run(hand, 4).length == 5 and best_run(hand, 4).baby


def test_example_baby_is_kept_after_the_leaf_discard_and_serves_blue_too() -> None:
    state = endgame(["L1 L2 B1 B2 B3 B4", "L5 L6 B6 B7", "R1", "R2"], "L7 B5", "L3 Baby R3 R4 R5", babies=True)
    state = play_all(state, ["take L3 from row 1", "take R3 from row 1", "take R4 from row 1", "take R5 from row 1"])
    assert state.is_over
    leaf, blue = (next(r for r in state.reveal if r.type_letter == x) for x in "LB")
    assert leaf.runs[0].length == 3  # no Baby yet: the Baby fell into the Net as the leftover
    state = endgame(["Baby L1 L2 B1 B2 B3 B4", "L5 L6 B6 B7", "R1", "R2"], "L7 B5", "L3 R6 R3 R4 R5", babies=True)
    state = play_all(state, ["take L3 from row 1", "take R3 from row 1", "take R4 from row 1", "take R5 from row 1"])
    leaf, blue = (next(r for r in state.reveal if r.type_letter == x) for x in "LB")
    assert leaf.runs[0].run == ("Baby as 0", "1", "2", "3") and leaf.winner == 0
    assert blue.runs[0].run == ("Baby as 0", "1", "2", "3", "4") and blue.winner == 0
    assert "Babies stay in hand" in leaf.lines[-1]
    assert state.drafted[0] == [BABY]  # everything else discarded, the Baby never


def test_example_scoring_is_narrated_with_the_rulebook_arithmetic() -> None:
    state = endgame(["L1 L3", "L6"], "L2 L5 LX LX R1", "L4 S1 S2")
    state = play_all(state, ["take L4 from row 1", "take S1 from row 1"])
    lines = state.reveal_lines()
    assert any("Player 1 scores (2+5) + 7 + 7 = 21" in line for line in lines), lines
    assert state.scores == [21, 2] and state.returns() == (1.0, 0.0)


@pytest.mark.parametrize("players, cards, row", [(2, 30, 3), (3, 40, 4), (4, 50, 5)])
def test_example_setup_deck_size_and_river_rows_by_player_count(players: int, cards: int, row: int) -> None:
    state = load_game(GAME, players=players).new_state(3)
    assert len(state.game.cards()) == cards  # type: ignore[attr-defined]
    while state.phase != DRAFT:
        state = state.play(state.legal_moves()[0])
    assert [len(r) for r in state.rivers] == [row, row]
    assert len(state.deck) == cards - 3 * players - 2 * row


# --- SS-1 types and deck ----------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_SS_1_players_plus_one_types_each_1_to_7_and_three_x(players: int) -> None:
    game = load_game(GAME, players=players)
    cards = game.cards()  # type: ignore[attr-defined]
    assert len(cards) == 10 * (players + 1)
    letters = [t.letter for t in SLOTH_TYPES[: players + 1]]
    obs = game.new_state(1).view()
    assert list(obs.types) == letters
    for t in range(players + 1):
        assert sorted(c & 7 for c in cards if c >> 3 == t) == [0, 0, 0, 1, 2, 3, 4, 5, 6, 7]


def test_SS_1_type_order_follows_the_rulebook_key() -> None:
    names = [t.name for t in SLOTH_TYPES]
    assert names == ["Pygmy", "Maned", "Linnaeus Two-Toed", "Pale Throated", "Brown Throated", "Pygmy Three-Toed"]
    assert [t.icon for t in SLOTH_TYPES] == ["dot", "spiral", "leaf", "drop", "wave", "moon"]


@pytest.mark.parametrize("players", [0, 1, 5, 6])
def test_SS_1_other_player_counts_are_refused(players: int) -> None:
    with pytest.raises(ConfigError, match="2-4 players"):
        load_game(GAME, players=players)


def test_SS_1_a_type_outside_the_game_is_not_a_card() -> None:
    game = load_game(GAME, players=2)  # types R, S, L only
    with pytest.raises(InvalidMoveError, match="not a card"):
        game.parse_move("pick Y3")
    assert game.parse_move("pick L3") == Pick("L3")


# --- SS-2 babies ------------------------------------------------------------------------


def test_SS_2_babies_are_off_by_default_and_refused_in_notation() -> None:
    game = load_game(GAME)
    assert BABY not in game.cards()  # type: ignore[attr-defined]
    with pytest.raises(InvalidMoveError):
        game.parse_move("take Baby from row 1")


def test_SS_2_four_babies_shuffled_in_after_the_opening_deal() -> None:
    game = load_game(GAME, babies=True)
    for seed in range(40):
        state = game.new_state(seed)
        assert all(BABY not in hand for hand in state.kept)
        assert state.deck.count(BABY) == 4
    hands = [[CARD_CODES[c] for c in hand] for hand in state.kept]
    deck = [CARD_CODES[c] for c in reversed(state.deck)]
    baby_at = deck.index("Baby")
    deck[baby_at], hands[0][0] = hands[0][0], "Baby"
    with pytest.raises(ConfigError, match="never dealt in a hand"):
        game.from_deal({"hands": hands, "deck": deck})


# --- SS-3 opening --------------------------------------------------------------------------


def test_SS_3_three_cards_each_then_secret_picks_in_seat_order() -> None:
    state = load_game(GAME, players=3).new_state(5)
    assert [len(k) for k in state.kept] == [3, 3, 3] and state.current_player == 0
    assert state.rivers == [[], []] and all(isinstance(m, Pick) for m in state.legal_moves())
    pick = state.legal_moves()[0]
    after = state.play(pick)
    assert after.current_player == 1 and len(after.kept[0]) == 2
    assert after.net == []  # face down, not yet in the Net
    text = after.log[-1].text
    assert "face down" in text and pick.card not in text


def test_SS_3_picks_are_revealed_together_then_two_rows_are_dealt() -> None:
    state = load_game(GAME, players=3).new_state(5)
    picks = []
    for _ in range(3):
        move = state.legal_moves()[0]
        picks.append(move.card)
        state = state.play(move)
    net_codes = sorted(c for pile in state.view().net for c in pile)
    assert net_codes == sorted(picks)
    assert [len(r) for r in state.rivers] == [4, 4]
    assert any("picks are revealed" in e.text for e in state.log)
    assert state.current_player == state.active == 0


# --- SS-4 drafting ---------------------------------------------------------------------------


def drafting(players: int = 3, seed: int = 7, **options: Any) -> SurplusState:
    state: SurplusState = load_game(GAME, players=players, **options).new_state(seed)  # type: ignore[assignment]
    while state.phase != DRAFT:
        state = state.play(state.legal_moves()[0])  # type: ignore[assignment]
    return state


def test_SS_4_active_player_takes_from_either_row_the_others_from_that_row() -> None:
    state = drafting()
    rows = {m.row for m in state.legal_moves()}
    assert rows == {1, 2}
    move = next(m for m in state.legal_moves() if m.row == 2)
    state = state.play(move)
    assert {m.row for m in state.legal_moves()} == {2}
    other = Take(state.view().rivers[0][0], 1)
    explanation = state.explain(other)
    assert not explanation.legal and "row 2" in explanation.reason and "SS-4" in explanation.rules
    with pytest.raises(IllegalMoveError):
        state.play(other)


def test_SS_4_turn_order_then_the_leftover_falls_into_the_net() -> None:
    state = drafting(players=3)
    order = []
    net_before = len(state.net)
    row = state.rivers[0].copy()
    for _ in range(3):
        order.append(state.current_player)
        state = state.play(next(m for m in state.legal_moves() if m.row == 1))
    assert order == [0, 1, 2]
    assert len(state.net) == net_before + 1
    assert state.net[-1] in row
    assert any("leftover" in e.text for e in state.log[-2:])


def test_SS_4_a_baby_in_the_net_scores_zero_and_belongs_to_no_type() -> None:
    state = endgame(["R1 R2", "R5"], "R3 Baby", "Baby R4 S1", babies=True)
    state = play_all(state, ["take R4 from row 1", "take S1 from row 1"])
    assert state.is_over and state.net.count(BABY) == 2  # the Baby left over joins the one already there
    assert state.scores == [3, 0] and all(BABY not in c for c in state.claimed)
    assert points(ids("Baby Baby")) == (0, "0 (no numbers, and X cards only repeat the sum of the numbers)")


# --- SS-5 refill, partial row, end; Active Player rotates ----------------------------------------


def test_SS_5_the_emptied_row_is_refilled_and_the_active_player_moves_left() -> None:
    state = drafting(players=3)
    deck = len(state.deck)
    for _ in range(3):
        state = state.play(next(m for m in state.legal_moves() if m.row == 1))
    assert len(state.rivers[0]) == 4 and len(state.deck) == deck - 4
    assert state.active == 1 and state.current_player == 1


def test_SS_5_a_partial_row_goes_to_the_net_and_the_game_ends_with_no_river_card() -> None:
    # 3 players: 40 cards, 9 dealt, 8 in the River: 23 left = 5 refills of 4 and a partial row of 3.
    state = drafting(players=3, seed=3)
    partial_seen = False
    while not state.is_over:
        net = len(state.net)
        state = state.play(state.legal_moves()[0])
        if any("part-way" in e.text for e in state.log[-2:]) and not partial_seen:
            partial_seen = True
            assert len(state.net) == net + 1 + 3 and state.deck == []
        if not state.is_over:
            assert state.rivers[0] or state.rivers[1]
    assert partial_seen and state.rivers == [[], []]


def test_SS_5_with_an_empty_deck_the_active_player_must_take_from_the_row_left() -> None:
    state = endgame(["R1", "R2"], "", "S1 S2 S3")
    state.rivers = [[], ids("S1 S2 S3")]
    assert {m.row for m in state.legal_moves()} == {2}
    explanation = state.explain("take S1 from row 1")
    assert not explanation.legal and "empty" in explanation.reason and "SS-5" in explanation.rules


# --- SS-6 the Baby effect ------------------------------------------------------------------------------


def test_SS_6_a_drafted_baby_offers_keep_or_net_any_card_of_the_hand() -> None:
    state = endgame(["R1 R2", "S5"], "L1", "Baby L2 L3", babies=True)
    state.kept[0] = ids("S7")
    state = state.play("take Baby from row 1")
    moves = {str(m) for m in state.legal_moves()}
    assert moves == {"keep", "net R1", "net R2", "net S7", "net Baby"}
    assert state.current_player == 0
    after = state.play("net S7")
    assert after.kept[0] == [] and CARD_IDS["S7"] in after.net and after.current_player == 1
    assert "uses the Baby to put Maned 7" in after.log[-1].text
    kept = state.play(KEEP)
    assert kept.drafted[0] == ids("R1 R2 Baby") and kept.current_player == 1


def test_SS_6_option_baby_nets_itself_off_refuses_the_baby() -> None:
    state = endgame(["R1", "S5"], "L1", "Baby L2 L3", babies=True, baby_nets_itself=False)
    state = state.play("take Baby from row 1")
    assert "net Baby" not in {str(m) for m in state.legal_moves()}
    explanation = state.explain("net Baby")
    assert not explanation.legal and "a Baby never nets itself" in explanation.reason
    assert "baby_nets_itself" not in explanation.reason  # words for people, not the option's name


def test_SS_6_keep_and_net_are_only_for_a_player_who_just_drafted_a_baby() -> None:
    state = drafting(babies=True)
    for text in ("keep", "net RX"):
        explanation = state.explain(text)
        assert not explanation.legal and "SS-6" in explanation.rules


# --- SS-7 runs --------------------------------------------------------------------------------------------


def test_SS_7_x_fills_any_missing_number_and_a_single_card_is_a_run_of_1() -> None:
    assert best_run(ids("R4 RX R6"), 0).key == (3, 6)
    assert best_run(ids("R4 R6"), 0).key == (1, 6)
    assert best_run(ids("RX RX RX"), 0).key == (3, 0)


def test_SS_7_at_most_one_baby_counts_as_zero_below_one() -> None:
    hand = ids("Baby Baby R1 R2")
    assert best_run(hand, 0).key == (3, 2)
    assert best_run(ids("Baby R5 R6"), 0).key == (2, 6)  # 0 does not touch 5
    assert best_run(ids("Baby RX"), 0).key == (2, 0)


def test_SS_7_ties_on_length_go_to_the_highest_natural_number_not_x() -> None:
    result = reveal("S", ["S1 S2 SX", "S2 S3 SX"], "S7")
    assert [r.top for r in result.runs] == [2, 3] and result.winner == 1


def test_SS_7_everyone_discards_each_revealed_type_but_keeps_babies_and_unrevealed_types() -> None:
    state = endgame(["Baby R1 L5", "R2 L6"], "R7", "R3 S1 S2", babies=True)
    state = play_all(state, ["take R3 from row 1", "take S1 from row 1"])
    assert state.drafted[0] == ids("Baby L5") and state.drafted[1] == ids("L6")  # L is not in the Net
    assert sorted(state.discards[0]) == sorted(ids("R1 R3"))
    assert sorted(state.discards[1]) == sorted(ids("R2 S1"))  # S was revealed too (the leftover S2)


# --- SS-8 claims -------------------------------------------------------------------------------------------


def test_SS_8_a_full_tie_means_nobody_takes_the_cards() -> None:
    # Each number exists once per type, so a full tie needs runs without natural numbers.
    result = reveal("Y", ["YX YX", "Baby YX"], "Y5 YX")
    assert [(r.length, r.top) for r in result.runs] == [(2, 0), (2, 0)]
    assert result.winner is None and "nobody takes" in result.lines[1]
    state = endgame(["LX", "LX"], "L5 LX", "R1 R2 S1")
    state = play_all(state, ["take R1 from row 1", "take R2 from row 1"])
    leaf = next(r for r in state.reveal if r.type_letter == "L")
    assert leaf.winner is None and state.view().net[2] == ("L5", "LX")
    assert state.scores == [0, 0] and state.claimed == [[], []]


def test_SS_8_no_cards_of_a_type_no_run_and_a_type_absent_from_the_net_is_skipped() -> None:
    result = reveal("L", ["R1", "L3"], "L1")
    assert (
        result.runs[0].length == 0
        and result.runs[0].text == "Player 1 has no run (no cards of this type)"
        and result.winner == 1
    )
    state = endgame(["R1", "S3"], "R2", "R4 R5 R6")
    state = play_all(state, ["take R4 from row 1", "take R5 from row 1"])
    assert [r.type_letter for r in state.reveal] == ["R"]
    assert any("Maned (brown spiral, S): no cards in the Net" in e.text for e in state.log)


def test_ss8_a_lone_baby_makes_no_run() -> None:
    assert best_run(ids("Baby"), 0).key == (0, 0)
    assert best_run(ids("Baby S1"), 0).key == (0, 0)  # an S card makes no R run either
    assert best_run(ids("Baby R1"), 0).key == (2, 1)  # with a number it lengthens the run
    assert best_run(ids("Baby RX"), 0).key == (2, 0)  # and with an X
    result = reveal("R", ["Baby", "S2"], "R4")
    assert result.runs[0].length == 0 and result.runs[0].text == "Player 1 has no run (a Baby alone makes no run, SS-8)"
    assert result.winner is None and "Nobody has a Pygmy run" in result.lines[1]


def test_ss8_a_lone_baby_no_longer_ties_nor_wins_a_type() -> None:
    # before SS-8's last sentence the Baby tied the lone X (1 long, no number): nobody took the cards
    result = reveal("R", ["Baby", "RX"], "R4 R5")
    assert [r.length for r in result.runs] == [0, 1] and result.winner == 1 and result.points == 9
    state = endgame(["Baby S1", "S2"], "R6", "S3 S4 S5", babies=True)
    state = play_all(state, ["take S3 from row 1", "take S4 from row 1"])
    pygmy = next(r for r in state.reveal if r.type_letter == "R")
    assert pygmy.winner is None and state.view().net[0] == ("R6",)  # nobody takes the R6


def test_ss8_explain_says_a_drafted_baby_never_makes_a_run_alone() -> None:
    state = endgame(["R1 R2", "S5"], "L1", "Baby L2 L3", babies=True)
    explanation = state.explain("take Baby from row 1")
    assert explanation.legal and "SS-8" in explanation.rules and "never makes a run alone" in explanation.reason


def test_ss8_an_older_record_is_refused_naming_its_rules_edition() -> None:
    from sloth_kernel import RulesVersionError, from_record

    record = load_game(GAME, babies=True).new_state(3).to_record()
    assert record["rules"] == 2
    with pytest.raises(RulesVersionError, match="edition 1") as caught:
        from_record({**record, "rules": 1})
    assert caught.value.version == 1 and caught.value.path == "record.rules" and "SS-8" in str(caught.value)


def test_SS_8_nobody_holding_the_type_leaves_the_cards_in_the_net() -> None:
    result = reveal("C", ["R1", "R2"], "C4")
    assert result.winner is None and "Nobody has a Pygmy Three-Toed run" in result.lines[1]


# --- SS-9 scoring ------------------------------------------------------------------------------------------


def test_SS_9_sum_times_one_plus_the_number_of_x() -> None:
    assert points(ids("R3 RX")) == (6, "3 + 3 = 6")
    assert points(ids("R1 R2 RX RX RX")) == (12, "(1+2) + 3 + 3 + 3 = 12")
    assert points(ids("RX RX"))[0] == 0


def test_SS_9_a_tied_total_is_a_shared_win() -> None:
    state = endgame(["R1 R2", "S1 S2"], "R4 S4", "R3 S3 L1")
    state = play_all(state, ["take R3 from row 1", "take S3 from row 1"])
    assert state.scores == [4, 4]
    assert state.returns() == (0.5, 0.5)
    assert "a shared win" in state.log[-1].text


# --- SS-10 Super Surplus ------------------------------------------------------------------------------------


def test_SS_10_super_surplus_deals_games_until_a_player_has_two_wins() -> None:
    game = load_game(GAME, players=2, super_surplus=True)
    end = play_out(game.new_state(21), [RandomBot(seed=1), RandomBot(seed=2)])
    obs = end.view()
    assert max(obs.wins) == 2 and sorted(obs.wins)[0] < 2 and len(obs.games) >= 2
    decided = [g for g in obs.games if len(g.winners) == 1]
    assert len(decided) == sum(obs.wins)
    assert end.returns() == tuple(1.0 if w == 2 else 0.0 for w in obs.wins)
    assert [g.number for g in obs.games] == list(range(1, len(obs.games) + 1))
    assert any("wins the Super Surplus" in e.text for e in end.log)
    page = render(end.view())
    assert "sk-surplus-match" in page and page.count("<tr>") >= len(obs.games) + 1


def test_SS_10_each_game_is_a_new_deal_from_the_seed_and_the_first_active_player_rotates() -> None:
    game = load_game(GAME, players=2, super_surplus=True)
    state = game.new_state(4)
    first_hands = [list(k) for k in state.kept]
    while state.view().game_number == 1:
        state = state.play(state.legal_moves()[0])
    assert state.phase == 0 and state.active == 1 and state.kept != first_hands
    assert state.view().reveal and state.view().games[0].number == 1  # the last reveal stays readable
    same = load_game(GAME, players=2, super_surplus=True, match_first_active="same").new_state(4)
    while same.view().game_number == 1:
        same = same.play(same.legal_moves()[0])
    assert same.active == 0


def test_SS_10_a_tied_game_counts_as_no_win() -> None:
    state = endgame(["R1 R2", "S1 S2"], "R4 S4", "R3 S3 L1", super_surplus=True)
    state = play_all(state, ["take R3 from row 1", "take S3 from row 1"])
    assert not state.is_over and state.wins == [0, 0] and state.view().game_number == 2
    assert any("counts as no win" in e.text for e in state.log)


# --- SS-11 public knowledge -----------------------------------------------------------------------------------


def test_SS_11_drafted_public_kept_private_picks_hidden_deck_order_hidden() -> None:
    state = load_game(GAME, players=3).new_state(9)
    state = state.play(state.legal_moves()[0])
    obs1 = state.observation(1)
    assert obs1.kept[1] is not None and obs1.kept[0] is None and obs1.kept_counts[0] == 2
    assert obs1.picked == (True, False, False) and obs1.picks == (None, None, None)
    assert state.observation(0).picks[0] is not None
    assert all(e.move is None for e in obs1.log) and all(e.move is None for e in state.log)
    while state.phase != DRAFT:
        state = state.play(state.legal_moves()[0])
    state = state.play(state.legal_moves()[0])
    obs2 = state.observation(2)
    assert obs2.drafted[0] and obs2.kept[0] is None and all(p is not None for p in obs2.picks)
    assert not hasattr(obs2, "deck") and obs2.deck_count == len(state.deck)
    assert obs2.rivers == state.view().rivers and obs2.net == state.view().net


# --- notation, errors, explanations ---------------------------------------------------------------------------


def test_notation_reads_back_and_is_case_insensitive() -> None:
    game = load_game(GAME, babies=True)
    assert game.parse_move("TAKE lx FROM ROW 2") == Take("LX", 2)
    assert game.parse_move("take l5 row 1") == Take("L5", 1)
    assert game.parse_move("net baby") == NetCard("Baby")
    assert game.parse_move(" keep ") == KEEP
    for move in (Pick("R1"), Take("Baby", 1), NetCard("SX"), KEEP):
        assert game.parse_move(str(move)) == move


@pytest.mark.parametrize(
    "text",
    [
        "",
        "take",
        "take L5",
        "take L5 from row 3",
        "take L8 from row 1",
        "pick",
        "pick 5",
        "grab R1",
        "net",
        "keep it",
        "pick Baby",
    ],
)
def test_bad_notation_raises_invalid_move_error(text: str) -> None:
    state = load_game(GAME).new_state(1)
    before = unchanged(state)
    with pytest.raises(InvalidMoveError):
        state.play(text)
    assert unchanged(state) == before


def test_illegal_moves_raise_with_an_explanation_and_change_nothing() -> None:
    state = drafting()
    before = unchanged(state)
    absent = next(Take(c, 1) for c in ("R1", "R2", "R3") if c not in state.view().rivers[0])
    for move in (Pick("R1"), KEEP, NetCard("R1"), absent):
        explanation = state.explain(move)
        assert not explanation.legal
        with pytest.raises(IllegalMoveError) as err:
            state.play(move)
        assert err.value.explanation == explanation and explanation.rules
    assert unchanged(state) == before


def test_out_of_turn_play_is_refused_and_changes_nothing() -> None:
    state = drafting()
    before = unchanged(state)
    with pytest.raises(IllegalMoveError, match="turn"):
        state.play(state.legal_moves()[0], player=2)
    assert unchanged(state) == before


@pytest.mark.parametrize(
    "options",
    [
        {"players": 5},
        {"players": "3"},
        {"babies": "yes"},
        {"first_active": 3},
        {"first_active": -1},
        {"match_first_active": "random"},
        {"super_surplus": 1},
        {"colour": "red"},
    ],
)
def test_bad_options_raise_config_errors(options: dict[str, Any]) -> None:
    with pytest.raises(ConfigError):
        load_game(GAME, **options)


def test_bad_deals_are_refused_and_tampered_deals_in_records_too() -> None:
    game = load_game(GAME, players=2)
    good = game.new_state(3)
    record = good.to_record()
    hands = [[CARD_CODES[c] for c in k] for k in good.kept]
    deck = [CARD_CODES[c] for c in reversed(good.deck)]
    state = game.from_deal({"hands": hands, "deck": deck}, seed=3)
    assert state.view().kept == good.view().kept and state.deck == good.deck
    for bad in (
        {"hands": hands[:1], "deck": deck},
        {"hands": hands, "deck": deck[:-1]},
        {"hands": hands, "deck": deck[:-1] + [deck[0]]},
        {"hands": hands, "deck": deck + ["Y1"]},
        {"hands": [h[:2] for h in hands], "deck": deck + [hands[0][2], hands[1][2]]},
        {"hands": hands, "deck": deck[:-1] + ["Q9"]},
    ):
        with pytest.raises(ConfigError):
            game.from_deal(bad)
        with pytest.raises(RecordError):
            game.replay({**record, "deal": bad})
    with pytest.raises(RecordError):
        game.replay({**record, "deal": {"hands": 7, "deck": deck}})


def test_explanations_cite_rules_in_plain_words() -> None:
    state = load_game(GAME).new_state(2)
    mine = state.legal_moves()[0]
    assert "face down" in state.explain(mine).reason and state.explain(mine).rules == ("SS-3",)
    assert "drafting starts" in state.explain("take R1 from row 1").reason
    other = next(c for c in ("R1", "R2", "R3", "R4") if CARD_IDS[c] not in state.kept[0])
    assert "not among the cards you were dealt" in state.explain(f"pick {other}").reason
    state = drafting()
    explanation = state.explain(state.legal_moves()[0])
    assert explanation.legal and "Active Player" in explanation.reason


# --- renderer and bots ----------------------------------------------------------------------------------------


def test_render_draws_cards_hides_what_the_viewer_may_not_see_and_is_pure() -> None:
    state = load_game(GAME, players=3).new_state(6)
    state = state.play(state.legal_moves()[0])
    html = render(state.observation(1))
    assert html == render(state.observation(1))
    for css in ("sk-surplus-river", "sk-surplus-net", "sk-surplus-hand", "sk-surplus-seat-2", "sk-surplus-log"):
        assert css in html
    # seat 0 kept 2 (hidden), picked 1 (hidden); seat 2 holds 3 hidden cards
    assert html.count("sk-card-back") == 2 + 1 + 3
    drafting_state = drafting()
    page = render(drafting_state.observation(0))
    assert 'data-card="take ' in page and "<svg" in page
    done = play_out(drafting_state, [RandomBot(seed=i) for i in range(3)])
    final = render(done.view())
    assert "sk-surplus-reveal" in final and "Reveal of game 1" in final


def test_heuristic_bot_picks_legal_moves_and_beats_random_play() -> None:
    game = load_game(GAME, players=2)
    share = 0.0
    games = 60
    for k in range(games):
        seat = k % 2
        bots = [make_bot(GAME, "heuristic" if s == seat else "random", seed=k * 7 + s) for s in range(2)]
        share += play_out(game.new_state(1000 + k), bots).returns()[seat]
    assert share / games > 0.6


def test_heuristic_bot_handles_the_baby_decision() -> None:
    state = endgame(["R1 R2", "S5"], "R3 L1", "Baby L2 L3", babies=True)
    state = state.play("take Baby from row 1")
    move = make_bot(GAME, "heuristic", seed=0).choose(state.observation(0))
    assert move in state.legal_moves()


def test_the_explanation_of_the_last_draft_announces_the_reveal() -> None:
    state = endgame(["R1 R2", "R5"], "R3", "R4 S1 S2")
    state = state.play("take R4 from row 1")
    words = state.explain("take S1 from row 1")
    assert words.legal and "the reveal follows" in words.reason and "SS-7" in words.reason
    assert "reveal" not in endgame(["R1 R2", "R5"], "R3", "R4 S1 S2").explain("take R4 from row 1").reason
    babies = (
        endgame(["R1 R2", "R5"], "R3", "R4 Baby S2", babies=True)
        .play("take R4 from row 1")
        .play("take Baby from row 1")
    )
    assert (
        "the reveal follows" in babies.explain("keep").reason
        and "the reveal follows" in babies.explain("net R5").reason
    )
