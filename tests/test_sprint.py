"""Sprint! engine: rulebook examples, rulings SP-1..SP-7 (with SP-7's hand noise), errors, records, observations."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sloth_kernel import ConfigError, IllegalMoveError, InvalidMoveError, RecordError, load_game
from sloth_kernel.bots import RandomBot, make_bot, play_out
from sloth_kernel.core import NO_PLAYER
from sloth_kernel.games.sprint.engine import (
    DEFAULT_HAND_NOISE,
    DEFAULT_OBJECTIVES,
    DEFAULT_RACE_DECK,
    MAX_HAND_NOISE,
    RACE_KINDS,
    RULES,
    Lift,
    Sprint,
    SprintConfig,
    lift_at,
    objective_deck,
    race_pile,
    tortoise_move,
)
from sloth_kernel.registry import game_spec
from sloth_kernel.render import render_observation

FULL_DECK = [kind for kind, n in zip(RACE_KINDS, DEFAULT_RACE_DECK, strict=False) for _ in range(n)]


def pile_with(cards: dict[int, str]) -> list[str]:
    """A legal Race pile (top first) with the given cards at the given positions."""
    rest = list(FULL_DECK)
    for kind in cards.values():
        rest.remove(kind)
    return [cards[i] if i in cards else rest.pop(0) for i in range(len(FULL_DECK))]


def objectives_with(first: list[int], all_cards: tuple[int, ...] = DEFAULT_OBJECTIVES) -> list[int]:
    return first + [n for n in all_cards if n not in first]


def start(
    cards: dict[int, str] | None = None,
    objectives: list[int] | None = None,
    tortoise: int = 0,
    hare: int = 0,
    seed: int = 0,
    **options,
):
    game = load_game("sprint", **options)
    deal = {
        "race_pile": pile_with(cards or {}),
        "objectives": objectives_with(objectives or [15], game.config.objectives),
        "tortoise": tortoise,
        "hare": hare,
    }
    return game.from_deal(deal, seed=seed)


def unchanged(state) -> tuple:
    return (json.dumps(state.to_record()), state.view())


# --- the rulebook's worked examples ----------------------------------------------------


def test_rulebook_example_lift_14_on_15_moves_3():
    state = start(objectives=[15]).play("lift 14")
    assert state.tortoise == 3
    assert "1 short" in str(state.log[-3]) and "moves 3" in str(state.log[-3])


def test_rulebook_young_tortoise_example_lift_18_on_15_moves_1():
    state = start(objectives=[15], young_tortoise=True).play("lift 18")
    assert state.tortoise == 1


# --- SP-4: the Tortoise's movement table -------------------------------------------------


@pytest.mark.parametrize(
    "gap, normal, young",
    [
        (0, 4, 4),
        (-1, 3, 3),
        (-2, 2, 2),
        (-3, 1, 1),
        (-4, 0, 0),
        (-9, 0, 0),
        (1, 0, 3),
        (2, 0, 2),
        (3, 0, 1),
        (4, 0, 0),
        (7, 0, 0),
    ],
)
def test_SP_4_movement_table(gap, normal, young):
    assert tortoise_move(15, 15 + gap) == normal
    assert tortoise_move(15, 15 + gap, young_tortoise=True) == young
    assert start(objectives=[15]).play(f"lift {15 + gap}").tortoise == normal
    assert start(objectives=[15], young_tortoise=True).play(f"lift {15 + gap}").tortoise == young


def test_SP_4_lift_range_is_1_to_31():
    state = start()
    assert [m.count for m in state.legal_moves()] == list(range(1, 32))
    for text in ("lift 0", "lift 32", "lift 40"):
        before = unchanged(state)
        with pytest.raises(IllegalMoveError) as err:
            state.play(text)
        assert "SP-4" in err.value.explanation.rules and not err.value.explanation.legal
        assert unchanged(state) == before


def test_SP_4_pile_order_after_a_lift():
    state = start()
    pile = list(state.view().race_pile)
    after = state.play("lift 5")
    assert after.last.hare_card == pile[5]  # the card under the 5 lifted ones is the Hare's
    # lifted cards to the bottom in order, then the Hare's card to the bottom
    assert list(after.view().race_pile) == pile[6:] + pile[:5] + [pile[5]]
    again = after.play("lift 30")
    moved = list(after.view().race_pile)
    assert again.last.hare_card == moved[30]
    assert list(again.view().race_pile) == moved[31:] + moved[:30] + [moved[30]]


def test_SP_4_lifting_31_takes_the_bottom_card_and_keeps_the_order():
    state = start({31: "rest"})
    pile = state.view().race_pile
    after = state.play("lift 31")
    assert after.last.hare_card == "rest" and after.view().race_pile == pile


# --- SP-5: every Hare card ---------------------------------------------------------------


@pytest.mark.parametrize("steps", [1, 2, 3, 4])
def test_SP_5_move_cards(steps):
    state = start({14: f"move {steps}"}, objectives=[15], hare=5).play("lift 14")
    assert state.hare == 5 + steps and state.last.hare_card == f"move {steps}"


def test_SP_5_join_forwards():
    state = start({15: "join"}, objectives=[15], tortoise=10, hare=2).play("lift 15")
    assert (state.tortoise, state.hare) == (14, 14)
    assert "forward" in str(state.log[-2])


def test_SP_5_join_backwards():
    state = start({15: "join"}, objectives=[15], tortoise=3, hare=20).play("lift 15")
    assert (state.tortoise, state.hare) == (7, 7)
    assert "back" in str(state.log[-2])


def test_SP_5_rest():
    state = start({12: "rest"}, objectives=[15], hare=9).play("lift 12")
    assert state.hare == 9 and state.tortoise == 1


def test_SP_5_copy_the_tortoise():
    state = start({14: "copy"}, objectives=[15], hare=9).play("lift 14")
    assert state.tortoise == 3 and state.hare == 12


def test_SP_5_copy_after_a_zero_move():
    state = start({20: "copy"}, objectives=[15], hare=9).play("lift 20")  # over: Tortoise 0
    assert state.tortoise == 0 and state.hare == 9
    assert "did not move" in str(state.log[-2])


@pytest.mark.parametrize("hare, carrot", [(7, 10), (6, 4), (8, 10), (1, 4), (0, 4), (35, 34), (31, 34), (30, 28)])
def test_SP_5_nearest_carrot(hare, carrot):
    # carrots on 4, 10, 16, 22, 28, 34; square 7 is 3 from both 4 and 10: forward on a tie
    state = start({20: "carrot"}, objectives=[15], hare=hare).play("lift 20")
    assert state.hare == carrot


def test_SP_5_carrot_tie_goes_forward():
    state = start({20: "carrot"}, objectives=[15], hare=13).play("lift 20")  # 10 and 16 are both 3 away
    assert state.hare == 16


def test_SP_5_already_on_a_carrot_stays():
    state = start({20: "carrot"}, objectives=[15], hare=10).play("lift 20")
    assert state.hare == 10 and "already on a carrot" in str(state.log[-2])


# --- SP-6: the end ------------------------------------------------------------------------


def test_SP_6_tortoise_finishes_exactly():
    state = start(objectives=[15], tortoise=32).play("lift 15")
    assert state.is_over and state.winner == "tortoise" and state.tortoise == 36
    assert state.returns() == (1.0, 1.0) and state.current_player == NO_PLAYER


def test_SP_6_tortoise_finishes_beyond():
    state = start(objectives=[15], tortoise=35).play("lift 13")
    assert state.winner == "tortoise" and state.tortoise == 37


def test_SP_6_tortoise_finishes_before_the_hare_moves():
    state = start({15: "move 4"}, objectives=[15], tortoise=33, hare=35).play("lift 15")
    assert state.winner == "tortoise" and state.hare == 35
    assert state.last.hare_card is None
    assert "everyone wins" in str(state.log[-1])
    assert state.legal_moves() == [] and state.returns() == (1.0, 1.0)


@pytest.mark.parametrize("hare, card", [(35, "move 1"), (34, "move 4")])
def test_SP_6_hare_finishing_loses(hare, card):
    state = start({20: card}, objectives=[15], hare=hare).play("lift 20")
    assert state.winner == "hare" and state.returns() == (0.0, 0.0)
    assert "everyone loses" in str(state.log[-1])
    with pytest.raises(IllegalMoveError):
        state.play("lift 3")


def test_SP_6_copy_can_carry_the_hare_home():
    state = start({15: "copy"}, objectives=[15], tortoise=20, hare=33).play("lift 15")
    assert state.winner == "hare" and state.hare == 37


# --- SP-1..SP-3: the assumed track and decks; variants ---------------------------------------


def test_SP_1_long_track_assumption():
    config = SprintConfig()
    assert config.finish == 36 and config.carrot_squares == (4, 10, 16, 22, 28, 34)
    assert "SP-1" in config.assumptions()[0]


def test_SP_1_small_track_variant():
    state = start(objectives=[15], tortoise=20, small_track=True)
    assert state.game.config.finish == 24 and state.game.config.carrot_squares == (4, 10, 16, 22)
    won = state.play("lift 15")
    assert won.winner == "tortoise" and won.tortoise == 24
    lost = start({20: "move 3"}, objectives=[15], hare=21, small_track=True).play("lift 20")
    assert lost.winner == "hare"


def test_SP_1_custom_track_and_carrots():
    state = start({20: "carrot"}, objectives=[15], hare=2, track_length=20, carrots=[3, 12]).play("lift 20")
    assert state.hare == 3 and state.game.config.finish == 20


def test_SP_2_race_deck_composition():
    assert sum(DEFAULT_RACE_DECK) == 32
    pile = race_pile(SprintConfig(), 5)
    assert sorted(pile) == sorted(k for k, n in enumerate(DEFAULT_RACE_DECK) for _ in range(n))
    assert load_game("sprint").new_state(5).view().race_pile == tuple(RACE_KINDS[k] for k in pile)


def test_SP_3_objectives_without_replacement_then_reshuffle():
    # lifting 31 always takes the bottom card (SP-4); a resting Hare keeps the game going
    state = start({31: "rest"}, seed=11)
    first = []
    for _ in range(18):
        first.append(state.objective)
        state = state.play("lift 31")
    assert sorted(first) == list(DEFAULT_OBJECTIVES)  # each card once
    assert state.objective == objective_deck(state.game.config, 11, 1)[0]
    assert any("shuffled" in str(e) and "SP-3" in e.rules for e in state.log)
    assert state.observation(0).objectives_left == 17
    assert state.observation(0).objectives_flipped == (state.objective,)


def test_young_tortoise_is_an_option_defaulting_off():
    assert SprintConfig().young_tortoise is False
    assert start(objectives=[15]).play("lift 16").tortoise == 0
    assert start(objectives=[15], young_tortoise=True).play("lift 16").tortoise == 3


def test_SP_7_the_move_is_only_a_count_and_simulated_lifters_use_it():
    state = load_game("sprint").new_state(3)
    for level in ("heuristic", "expert", "master"):
        bot = make_bot("sprint", level, seed=1)
        move = bot.choose(state.observation(0))
        assert isinstance(move, Lift) and move in state.legal_moves()
    assert "SP-7" in RULES


def test_every_ruling_is_in_the_rules_dict():
    assert {f"SP-{n}" for n in range(1, 8)} <= set(RULES)


# --- SP-7: a person's cut lands within about one card (hand noise) ------------------------------


def walk(seed: int, steps: int, **options):
    """The states of one game after 0, 1, ... `steps` random lifts (fewer if it ends), in order."""
    state = load_game("sprint", **options).new_state(seed)
    rng = random.Random(seed)
    states = [state]
    for _ in range(steps):
        if state.is_over:
            break
        state = state.play(rng.choice(state.legal_moves()))
        states.append(state)
    return states


def card_centres(size: int = 32) -> list[tuple[int, float]]:
    """Cut points aimed squarely at each lift that leaves room on both sides, with the lift aimed."""
    return [(k, k / size) for k in range(2, size - 1)]


def test_SP_7_hand_noise_is_a_named_option_of_about_one_card():
    assert SprintConfig().hand_noise == DEFAULT_HAND_NOISE == 1.0
    option = next(o for o in game_spec("sprint").options() if o.name == "hand_noise")
    assert (option.default, option.low, option.high) == (1.0, 0, MAX_HAND_NOISE)
    assert "SP-7" in option.doc and "cut" in option.doc
    assert "hand noise" in RULES["SP-7"] and "exact" in RULES["SP-7"]
    for value in (0, 0.5, 1, 2.5, MAX_HAND_NOISE):
        assert load_game("sprint", hand_noise=value).config.hand_noise == value


@pytest.mark.parametrize(
    "value",
    [-1, -0.01, 4.01, 5, 10**100, 10**5000, float("nan"), float("inf"), -float("inf"), True, "1", None, [1]],
    ids=lambda value: "a huge int" if type(value) is int and value > 10**1000 else None,
)
def test_SP_7_hand_noise_out_of_bounds_is_refused_with_a_config_error(value):
    with pytest.raises(ConfigError) as caught:
        load_game("sprint", hand_noise=value)
    assert "hand_noise" in str(caught.value) and len(str(caught.value)) < 400
    if not isinstance(value, (str, list)) and value is not None and type(value) is not bool:
        with pytest.raises(ConfigError, match="hand_noise"):  # built directly, the rules still refuse it
            SprintConfig(hand_noise=value).validate()


def test_SP_7_the_same_game_turn_and_cut_give_the_same_lift():
    cuts = [0.0, 0.1, 0.37, 0.5, 0.77, 1.0]
    first = [[state.lift_from_cut(c) for c in cuts] for state in walk(11, 8)]
    again = [[state.lift_from_cut(c) for c in cuts] for state in walk(11, 8)]
    assert first == again
    assert all(type(m) is Lift for row in first for m in row)
    other = [[state.lift_from_cut(c) for c in cuts] for seed in range(12, 20) for state in walk(seed, 8)]
    assert any(row != first[0] for row in other)  # the slip comes from the game's seed...
    assert len({tuple(row) for row in first}) > 1  # ...and its turn: one slip per turn, not per game


def test_SP_7_a_cut_changes_nothing_and_shows_no_seed():
    seed = 987_654_321_987_654_321
    state = load_game("sprint").new_state(seed)
    before = unchanged(state)
    move = state.lift_from_cut(0.4)
    assert unchanged(state) == before and state.history == []
    assert str(seed) not in repr(move) + str(move)
    for bad in (float("nan"), 2.0, "0.4"):
        with pytest.raises(InvalidMoveError) as caught:
            state.lift_from_cut(bad)
        assert str(seed) not in str(caught.value)


def test_SP_7_hand_noise_lands_within_about_one_card():
    offs = []
    for seed in range(60):
        for state in walk(seed, 6):
            if state.is_over:
                continue
            for aimed, cut in card_centres()[::5]:
                offs.append(state.lift_from_cut(cut).count - aimed)
    assert set(offs) == {-1, 0, 1}  # within one card of a cut aimed at a card, and not always on it
    share_off = sum(1 for o in offs if o) / len(offs)
    assert 0.3 < share_off < 0.7, share_off  # a uniform slip of up to one card misses about half the time
    assert abs(sum(offs)) < len(offs) * 0.1  # and is not one-sided


def test_SP_7_a_cut_anywhere_lands_at_most_two_cards_from_the_aimed_count():
    offs = set()
    for seed in range(40):
        state = load_game("sprint").new_state(seed)
        for tenth in range(20, 981, 7):
            cut = tenth / 1000
            offs.add(state.lift_from_cut(cut).count - lift_at(cut, 32))
    assert offs <= {-2, -1, 0, 1, 2} and {-1, 1} <= offs


def test_SP_7_wider_hand_noise_spreads_wider():
    offs = set()
    for seed in range(60):
        state = load_game("sprint", hand_noise=3).new_state(seed)
        offs.add(state.lift_from_cut(0.5).count - 16)
    assert offs <= set(range(-3, 4)) and {-3, 3} & offs and {-2, 2} <= offs


def test_SP_7_no_hand_noise_gives_the_aimed_count():
    for seed in range(5):
        for state in walk(seed, 5, hand_noise=0):
            if state.is_over:
                continue
            for k in range(1, 32):
                assert state.lift_from_cut(k / 32) == Lift(k)
                assert state.lift_from_cut((k + 0.4) / 32) == Lift(k)
            assert state.lift_from_cut(0) == state.lift_from_cut(0.01) == Lift(1)  # at least one card
            assert state.lift_from_cut(1) == state.lift_from_cut(0.99) == Lift(31)  # one stays for the Hare
    assert lift_at(0.5, 32) == 16 and lift_at(16.5 / 32, 32) == 17  # halves go down the pile
    assert load_game("sprint", hand_noise=0, race_deck=(2, 0, 0, 0, 0, 0, 0, 0), objectives=(1,)).new_state(
        1
    ).lift_from_cut(0.9) == Lift(1)


def test_SP_7_the_notation_stays_exact_and_bots_keep_their_own_error():
    for noise in (0, 1, MAX_HAND_NOISE):
        game = load_game("sprint", hand_noise=noise)
        assert game.parse_move("lift 14") == Lift(14) and game.parse_move("14") == Lift(14)
        for seed in range(10):
            state = game.new_state(seed)
            assert state.play("lift 14").last.lift == 14
            assert state.play(Lift(9)).last.lift == 9
    for level in ("heuristic", "expert", "master"):
        chosen = {
            str(make_bot("sprint", level, seed=4).choose(load_game("sprint", hand_noise=n).new_state(8).observation(0)))
            for n in (0, 1, MAX_HAND_NOISE)
        }
        assert len(chosen) == 1, (level, chosen)


def test_SP_7_a_game_of_cuts_is_legal_throughout_and_its_record_replays_exactly():
    game = load_game("sprint", hand_noise=2.5, players=3)
    state = game.new_state(2024)
    rng = random.Random(5)
    while not state.is_over:
        move = state.lift_from_cut(rng.random())
        assert move in state.legal_moves()
        state = state.play(move, player=state.current_player)
    with pytest.raises(IllegalMoveError):
        state.lift_from_cut(0.5)
    record = state.to_record()
    assert record["options"]["hand_noise"] == 2.5
    assert all(text.startswith("lift ") for text in record["moves"])
    for copy in (game.replay(json.loads(state.to_json())), Sprint.from_record(record)):
        assert copy.view() == state.view() and copy.history == state.history
        assert copy.game.config.hand_noise == 2.5
    tampered = {**record, "options": {**record["options"], "hand_noise": 9}}
    with pytest.raises(RecordError, match="hand_noise"):
        game.replay(tampered)


odd_cuts = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.floats(min_value=0, max_value=1),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, 1, -0.0, 1e-300, 1 - 1e-16, 10**5000, True, False, None, "0.5", [0.5], b"1"]),
)


@given(
    seed=st.integers(0, 2**128),
    steps=st.integers(0, 30),
    noise=st.sampled_from([0, 0.5, 1.0, 2.25, MAX_HAND_NOISE]),
    cut=odd_cuts,
)
def test_SP_7_property_any_cut_gives_a_legal_lift_near_its_aim_or_a_typed_error(seed, steps, noise, cut):
    state = walk(seed % 10**6, steps, hand_noise=noise)[-1]
    before = unchanged(state)
    try:
        move = state.lift_from_cut(cut)
    except InvalidMoveError:
        assert isinstance(cut, bool) or not isinstance(cut, (int, float)) or not 0 <= cut <= 1
    except IllegalMoveError:
        assert state.is_over
    else:
        assert not state.is_over and move in state.legal_moves()
        low, high = lift_at(cut, 32, -noise), lift_at(cut, 32, noise)
        assert low <= move.count <= high and high - low <= 2 * noise + 1
        assert state.lift_from_cut(cut) == move  # the same game, turn and cut: the same lift
    assert unchanged(state) == before


# --- seats and turns --------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 3, 5])
def test_any_number_of_seats_take_turns(players):
    state = start({31: "rest"}, players=players)
    seats = []
    for _ in range(7):
        seats.append(state.current_player)
        state = state.play("lift 31", player=state.current_player)
    assert seats == [n % players for n in range(7)]
    assert len(state.returns()) == players


def test_out_of_turn_lift_raises_and_changes_nothing():
    state = load_game("sprint", players=3).new_state(2)
    before = unchanged(state)
    with pytest.raises(IllegalMoveError) as err:
        state.play("lift 10", player=1)
    assert "not Player 2's turn" in err.value.explanation.reason
    assert unchanged(state) == before


# --- notation and errors ---------------------------------------------------------------------


def test_notation_round_trip():
    game = load_game("sprint")
    for n in range(0, 40):
        assert game.parse_move(str(Lift(n))) == Lift(n)
    assert game.parse_move("  LIFT  12 ") == Lift(12) and game.parse_move("12") == Lift(12)


@pytest.mark.parametrize("text", ["lift", "lift x", "jump 3", "lift -3", "", "lift 3.5", "3 cards"])
def test_bad_notation_raises_invalid_move(text):
    state = load_game("sprint").new_state(1)
    before = unchanged(state)
    with pytest.raises(InvalidMoveError):
        state.play(text)
    assert unchanged(state) == before
    assert not state.explain(text).legal


def test_foreign_move_objects_are_refused():
    state = load_game("sprint").new_state(1)
    with pytest.raises(InvalidMoveError):
        state.play(14)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "options",
    [
        {"players": 0},
        {"players": 21},
        {"players": "2"},
        {"small_track": 1},
        {"track_length": 1},
        {"carrots": [40]},
        {"carrots": [10, 4]},
        {"carrots": [4, 4]},
        {"race_deck": [6, 6, 4]},
        {"race_deck": [6, 6, 4, 2, 4, 3, 4, -1]},
        {"race_deck": [1, 0, 0, 0, 0, 0, 0, 0]},
        {"objectives": []},
        {"objectives": [5, 40]},
        {"objectives": [0, 5]},
        {"colour": "red"},
        {"carrots": [], "race_deck": list(DEFAULT_RACE_DECK)},
    ],
)
def test_bad_options_raise_config_error(options):
    with pytest.raises(ConfigError):
        load_game("sprint", **options)


@pytest.mark.parametrize(
    "deal",
    [
        {"race_pile": FULL_DECK[:-1], "objectives": list(DEFAULT_OBJECTIVES)},
        {"race_pile": FULL_DECK[:-1] + ["move 1"], "objectives": list(DEFAULT_OBJECTIVES)},
        {"race_pile": FULL_DECK[:-1] + ["dragon"], "objectives": list(DEFAULT_OBJECTIVES)},
        {"race_pile": FULL_DECK, "objectives": list(DEFAULT_OBJECTIVES)[:-1]},
        {"race_pile": FULL_DECK, "objectives": list(DEFAULT_OBJECTIVES)[:-1] + ["22"]},
        {"race_pile": FULL_DECK, "objectives": list(DEFAULT_OBJECTIVES), "tortoise": 36},
        {"race_pile": FULL_DECK, "objectives": list(DEFAULT_OBJECTIVES), "hare": -1},
    ],
)
def test_bad_deals_raise_config_error(deal):
    with pytest.raises(ConfigError):
        load_game("sprint").from_deal(deal)


# --- records, determinism ---------------------------------------------------------------------


def play_bots(seed: int, level: str = "heuristic", **options):
    game = load_game("sprint", **options)
    bots = [make_bot("sprint", level, seed=seed + s) for s in range(game.num_players)]
    return play_out(game.new_state(seed), bots)


def test_same_seed_same_game():
    assert play_bots(42).to_record() == play_bots(42).to_record()
    assert play_bots(42).view() == play_bots(42).view()
    assert load_game("sprint").new_state(1).view() != load_game("sprint").new_state(2).view()


@pytest.mark.parametrize("options", [{}, {"players": 3, "small_track": True}, {"young_tortoise": True}])
def test_record_round_trip(options):
    state = play_bots(7, **options)
    game = state.game
    copy = game.replay(json.loads(state.to_json()))
    assert copy.view() == state.view() and copy.history == state.history
    assert all(copy.observation(s) == state.observation(s) for s in range(game.num_players))
    dealt = start({3: "join"}, objectives=[9, 12], tortoise=5, hare=2).play("lift 3").play("lift 11")
    again = dealt.game.replay(dealt.to_record())
    assert again.view() == dealt.view() and again.deal == dealt.deal


def test_tampered_records_raise_record_error():
    state = play_bots(3)
    record = state.to_record()
    game = state.game
    bad = [
        {**record, "moves": record["moves"] + ["lift 5"]},  # after the end
        {**record, "moves": ["lift 40"] + record["moves"]},
        {**record, "moves": ["lift x"]},
        {**record, "moves": [14]},
        {**record, "game": "too-sloth-to-win"},
        {**record, "options": {**record["options"], "players": 0}},
        {**record, "seed": "3"},
        {**record, "deal": {"race_pile": ["rest"], "objectives": [5]}},
        {**record, "version": 99},
        "not json",
    ]
    for tampered in bad:
        with pytest.raises(RecordError):
            game.replay(tampered)


# --- invariants over many random games ----------------------------------------------------------


def test_invariant_harness():
    rng = random.Random(5)
    games = 0
    for seed in range(400):
        options = rng.choice([{}, {"players": 1}, {"players": 4, "small_track": True}, {"young_tortoise": True}])
        game = load_game("sprint", **options)
        state = game.new_state(seed)
        pile = state.pile
        bot = RandomBot(seed) if seed % 2 else make_bot("sprint", "heuristic", seed=seed, sigma=rng.random() / 2)
        objectives = game.config.objectives
        while not state.is_over:
            seat = state.current_player
            obs = state.observation(seat)
            assert obs.legal_moves == tuple(state.legal_moves()) and len(obs.legal_moves) == 31
            other = (seat + 1) % game.num_players
            if other != seat:
                assert state.observation(other).legal_moves == ()
            assert obs.race_pile is None and obs.objective_deck is None  # hidden orders
            assert obs.objective in objectives and obs.objectives_flipped[-1] == obs.objective
            assert obs.objectives_left + len(obs.objectives_flipped) == len(objectives)
            if rng.random() < 0.1:  # explain agrees with legal_moves, legal or not
                move = Lift(rng.randrange(0, 40))
                assert state.explain(move).legal == (move in state.legal_moves())
            before = (state.tortoise, len(state.events))
            state = state.play(bot.choose(obs), player=seat)
            assert state.pile is pile  # the pile is never reshuffled (SP-4)
            assert state.tortoise >= before[0] and state.hare >= 0
            assert len(state.events) > before[1]
        assert sorted(state.view().race_pile) == sorted(FULL_DECK)
        finish = game.config.finish
        assert (state.winner == "tortoise") == (state.tortoise >= finish)
        assert (state.winner == "hare") == (state.hare >= finish and state.tortoise < finish)
        assert state.returns() == ((1.0 if state.winner == "tortoise" else 0.0),) * game.num_players
        assert state.current_player == NO_PLAYER and state.legal_moves() == []
        games += 1
    assert games == 400


def test_fast_path_invariants_over_thousands_of_games():
    """clone() + apply_unchecked, as search and the bench use them: 3000 random-lift games."""
    rng = random.Random(6)
    for options in ({}, {"small_track": True, "players": 3}, {"young_tortoise": True}):
        game = load_game("sprint", **options)
        finish, outcomes = game.config.finish, set()
        for seed in range(1000):
            state = game.new_state(seed)
            turns = 0
            while not state.is_over:
                moves = state.legal_moves()
                if rng.random() < 0.05:  # a clone is independent of its parent
                    child, record = state.clone(), state.to_record()
                    child.apply_unchecked(moves[0])
                    assert state.to_record() == record and len(child.history) == len(state.history) + 1
                tortoise = state.tortoise
                state.apply_unchecked(moves[rng.randrange(len(moves))])
                assert tortoise <= state.tortoise and 0 <= state.top < 32 and state.hare >= 0
                turns += 1
            assert state.tortoise >= finish or state.hare >= finish
            assert len(state.history) == turns
            outcomes.add(state.winner)
        assert outcomes == {"tortoise", "hare"}  # random lifts do win now and then


def test_explain_agrees_with_legal_moves_over_random_states():
    rng = random.Random(8)
    for seed in range(30):
        state = load_game("sprint", young_tortoise=bool(seed % 2)).new_state(seed)
        for _ in range(rng.randrange(0, 12)):
            if state.is_over:
                break
            state = state.play(Lift(rng.randrange(1, 32)))
        for n in range(0, 36):
            explanation = state.explain(Lift(n))
            assert explanation.legal == (Lift(n) in state.legal_moves())
            assert explanation.reason


def test_explanations_are_concrete():
    state = start(objectives=[15], tortoise=33)
    assert "move 3" in state.explain("lift 14").reason
    assert "finish" in state.explain("lift 15").reason and "SP-6" in state.explain("lift 15").rules
    assert "over" in state.explain("lift 16").reason
    assert "four or more short" in state.explain("lift 2").reason
    assert "at least 1" in state.explain("lift 0").reason


# --- observations and rendering ---------------------------------------------------------------


def test_observation_hides_the_pile_and_deck_orders():
    state = play_bots(9, players=2)
    for seat in range(2):
        obs = state.observation(seat)
        assert obs.race_pile is None and obs.objective_deck is None
        html = render_observation(obs)
        assert "teacher view" not in html
        assert html.count("sk-card-back") >= 2  # the piles are card backs
    view = state.view()
    assert len(view.race_pile) == 32 and view.objective_deck is not None
    assert "teacher view" in render_observation(view)


def test_event_text_never_names_hidden_cards():
    state = load_game("sprint").new_state(4)
    pile = state.view().race_pile
    state = state.play("lift 7")
    for event in state.log:
        text = str(event)
        if "Race card" in text:  # only the revealed Hare card is named
            assert f"'{pile[7]}'" in text


def test_render_shows_track_objective_reveal_and_assumptions():
    state = start({14: "join"}, objectives=[15, 9], tortoise=2, hare=6).play("lift 14")
    html = render_observation(state.observation(1))
    for css in (
        "sk-sprint-track",
        "sk-sprint-objective",
        "sk-sprint-reveal",
        "sk-sprint-carrot",
        "sk-sprint-tortoise",
        "sk-sprint-hare",
        "sk-assume",
    ):
        assert css in html
    assert "Assumed:" not in html and "layout assumed" not in html  # a marker opens the note instead
    assert "<summary>Stand-in layout</summary>" in html and "About these rules" in html
    assert "SP-1" in html and "SP-2" in html and "SP-3" in html
    assert 'data-card="join"' in html and 'data-card="9"' in html
    assert state._repr_html_()
