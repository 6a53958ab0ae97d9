"""Seeded random playouts of Surplus of Sloths, checked against invariants and brute-force oracles."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from functools import cache
from typing import Any

import pytest

from sloth_kernel import RecordError, load_game
from sloth_kernel.bots import RandomBot, make_bot, play_out
from sloth_kernel.games.surplus_of_sloths.cards import CARD_CODES, PROFILES, RUNS, SLOTH_TYPES, recount
from sloth_kernel.games.surplus_of_sloths.engine import KEEP, NETS, PICK, PICKS, TAKES, SurplusState, Take

GAME = "surplus-of-sloths"
CONFIGS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 2, "babies": True},
    {"players": 3, "babies": True, "first_active": 2},
    {"players": 4, "babies": True, "baby_nets_itself": False},
    {"players": 2, "super_surplus": True, "babies": True},
    {"players": 3, "super_surplus": True},
]


# --- oracles, written independently of the engine ----------------------------------------


@cache
def oracle_run(codes: tuple[str, ...]) -> tuple[int, int]:
    """SS-7 by brute force: try every subset of numbers, X values and (at most one) Baby; a Baby alone is no run (SS-8)."""
    numbers = sorted({int(c[1]) for c in codes if c != "Baby" and c[1] != "X"})
    xs = sum(1 for c in codes if c != "Baby" and c[1] == "X")
    babies = [0, 1] if "Baby" in codes else [0]
    best = (0, 0)
    for size in range(len(numbers) + 1):
        for chosen in itertools.combinations(numbers, size):
            free = [v for v in range(1, 8) if v not in chosen]
            for k in range(xs + 1):
                for x_values in itertools.combinations(free, k):
                    for baby in babies:
                        values = sorted(chosen + x_values + ((0,) if baby else ()))
                        if (chosen or x_values) and values == list(range(values[0], values[0] + len(values))):
                            best = max(best, (len(values), max(chosen, default=0)))
    return best


def oracle_points(codes: tuple[str, ...]) -> int:
    """SS-9: (sum of the numbers) x (1 + number of X); Babies score 0."""
    numbers = [int(c[1]) for c in codes if c != "Baby" and c[1] != "X"]
    xs = sum(1 for c in codes if c != "Baby" and c[1] == "X")
    return sum(numbers) * (1 + xs)


def places(state: SurplusState) -> Counter[int]:
    """Every card of the current game, wherever it is (deck, River, hands, picks, Net, claimed, discards)."""
    found: Counter[int] = Counter(state.deck)
    for pile in (*state.rivers, *state.kept, *state.drafted, *state.claimed, *state.discards):
        found.update(pile)
    if state.phase == PICK:
        found.update(p for p in state.picks if p >= 0)
    found.update(state.net)
    return found


def check_reveal(state: SurplusState, result: Any) -> None:
    """Winner, runs and points of one game against the oracles (SS-7, SS-8, SS-9)."""
    scores = [0] * state.game.num_players
    for typed in result.reveal:
        keys = [oracle_run(run.cards) for run in typed.runs]
        assert keys == [(run.length, run.top) for run in typed.runs], typed
        best = max(keys)
        leaders = [s for s, key in enumerate(keys) if key == best]
        expected = leaders[0] if best[0] and len(leaders) == 1 else None
        assert typed.winner == expected, typed
        assert all(c[0] == typed.type_letter for c in typed.net_cards)
        if expected is not None:
            assert typed.points == oracle_points(typed.net_cards)
            scores[expected] += typed.points
            assert typed.arithmetic.endswith(f"= {typed.points}") or typed.points == 0
    assert list(result.scores) == scores
    best_score = max(scores)
    assert result.winners == tuple(s for s in range(len(scores)) if scores[s] == best_score)


# --- the harness --------------------------------------------------------------------------


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_random_playouts_keep_every_invariant(options: dict[str, Any]) -> None:
    game = load_game(GAME, **options)
    every_card = Counter(game.cards())  # type: ignore[attr-defined]
    games_checked = 0
    for seed in range(350 if not options.get("super_surplus") else 120):
        state: SurplusState = game.new_state(seed)  # type: ignore[assignment]
        rng = random.Random(seed)
        net_before: list[int] = []
        while not state.is_over:
            moves = state.legal_moves()
            assert moves and len(set(moves)) == len(moves)
            rivers_before, deck_before, finished = sum(map(len, state.rivers)), len(state.deck), len(state.games)
            move = moves[rng.randrange(len(moves))]
            state.apply_unchecked(move)
            assert places(state) == every_card
            if len(state.games) > finished:  # the move ended a game: the reveal happened
                # no River card left: the last take (or the Baby decision after it) and its leftover
                assert deck_before == 0 and rivers_before == (2 if isinstance(move, Take) else 1)
                check_reveal(state, state.games[-1])
                if not state.cfg.super_surplus:
                    assert state.scores == [recount(c) for c in state.claimed]
                    assert state.rivers == [[], []]
                games_checked += 1
                net_before = list(state.net) if state.is_over else []
                continue
            assert state.net[: len(net_before)] == net_before  # the Net only grows until the reveal
            net_before = list(state.net)
            if state.phase != PICK:
                assert state.rivers[0] or state.rivers[1]
        assert state.current_player == -1 and state.legal_moves() == []
        assert abs(sum(state.returns()) - 1.0) < 1e-9
        if state.cfg.super_surplus:
            assert max(state.wins) == 2 and state.returns()[state.wins.index(2)] == 1.0
    assert games_checked >= 120


def test_the_best_run_table_matches_brute_force_for_every_hand_of_one_type() -> None:
    for profile in range(PROFILES):
        mask, xs, baby = profile >> 3, profile >> 1 & 3, profile & 1
        codes = tuple(f"R{v}" for v in range(1, 8) if mask >> (v - 1) & 1) + ("RX",) * xs + ("Baby",) * baby
        assert RUNS[profile].key == oracle_run(codes), codes


# --- determinism, records, honesty, explanations ----------------------------------------------


def random_state(options: dict[str, Any], seed: int, steps: int) -> SurplusState:
    state: SurplusState = load_game(GAME, **options).new_state(seed)  # type: ignore[assignment]
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state = state.play(rng.choice(state.legal_moves()))  # type: ignore[assignment]
    return state


@pytest.mark.parametrize("options", CONFIGS[:4] + CONFIGS[6:7])
def test_same_seed_same_game_and_different_seeds_different_deals(options: dict[str, Any]) -> None:
    game = load_game(GAME, **options)
    first = play_out(game.new_state(5), [RandomBot(seed=s) for s in range(game.num_players)])
    second = play_out(game.new_state(5), [RandomBot(seed=s) for s in range(game.num_players)])
    assert first.to_record() == second.to_record() and first.view() == second.view()
    deals = {tuple(map(tuple, game.new_state(seed).kept)) for seed in range(10)}  # type: ignore[attr-defined]
    assert len(deals) == 10


@pytest.mark.parametrize("options", CONFIGS)
def test_records_round_trip_to_identical_states(options: dict[str, Any]) -> None:
    game = load_game(GAME, **options)
    for seed, steps in ((1, 0), (2, 5), (3, 17), (4, 400)):
        state = random_state(options, seed, steps)
        record = json.loads(json.dumps(state.to_record()))
        again = game.replay(record)
        assert again.view() == state.view()
        assert [again.observation(s) for s in range(game.num_players)] == [
            state.observation(s) for s in range(game.num_players)
        ]
        assert [str(m) for m in again.history] == [str(m) for m in state.history]
        assert again.to_record() == state.to_record()


def test_records_from_an_explicit_deal_round_trip() -> None:
    game = load_game(GAME, players=3, babies=True)
    source = game.new_state(8)
    deal = {
        "hands": [" ".join(CARD_CODES[c] for c in hand) for hand in source.kept],  # type: ignore[attr-defined]
        "deck": [CARD_CODES[c] for c in reversed(source.deck)],  # type: ignore[attr-defined]
    }
    state = game.from_deal(deal, seed=99)
    state = play_out(state, [make_bot(GAME, "heuristic", seed=s) for s in range(3)])
    again = game.replay(json.loads(json.dumps(state.to_record())))
    assert again.view() == state.view() and again.deal == deal


def test_tampered_records_raise_record_errors_and_leave_the_state_alone() -> None:
    game = load_game(GAME, players=3)
    state = random_state({"players": 3}, 6, 20)
    before = json.dumps(state.to_record())
    record = state.to_record()
    picked = record["moves"][0].split()[1]
    not_held = next(
        code
        for code in ("R1", "R2", "R3", "R4", "SX")
        if code != picked and code not in {CARD_CODES[c] for c in state.kept[0]}
    )
    tampered = [
        {**record, "moves": [f"pick {not_held}"] + record["moves"][1:]},
        {**record, "moves": record["moves"][:3] + ["take Q1 from row 1"]},
        {**record, "moves": record["moves"] + ["keep"]},
        {**record, "options": {**record["options"], "babies": "maybe"}},
        {**record, "seed": 1.5},
        {**record, "deal": {"hands": [["R1"]], "deck": []}},
    ]
    for bad in tampered:
        with pytest.raises(RecordError):
            game.replay(bad)
    assert json.dumps(state.to_record()) == before


@pytest.mark.parametrize("players", [2, 3, 4])
def test_observations_never_reveal_another_seats_kept_cards_or_picks(players: int) -> None:
    """Swap one of seat 1's opening cards with the deck's bottom card: nobody else may notice."""
    game = load_game(GAME, players=players)
    for seed in range(12):
        source = game.new_state(seed)
        hands = [[CARD_CODES[c] for c in hand] for hand in source.kept]  # type: ignore[attr-defined]
        deck = [CARD_CODES[c] for c in reversed(source.deck)]  # type: ignore[attr-defined]
        swapped = hands[1][0]
        if swapped == deck[-1]:
            continue
        other_hands = [list(h) for h in hands]
        other_hands[1][0], other_deck = deck[-1], deck[:-1] + [swapped]
        one = game.from_deal({"hands": hands, "deck": deck}, seed=seed)
        two = game.from_deal({"hands": other_hands, "deck": other_deck}, seed=seed)
        rng = random.Random(seed)
        while two.deck:  # until the bottom card is drawn, only seat 1 can tell the deals apart
            for seat in range(players):
                if seat != 1:
                    assert one.observation(seat) == two.observation(seat)
            moves = [m for m in one.legal_moves() if m in two.legal_moves()]
            if one.current_player == 1 and one.phase == PICK:
                moves = [m for m in moves if m.card != swapped]  # keep the swapped card in hand
            move = rng.choice(moves)
            one, two = one.play(move), two.play(move)
        assert one.observation(1) != two.observation(1)


def test_observations_hide_kept_cards_and_open_picks_only_after_the_reveal() -> None:
    for seed in range(30):
        state = random_state({"players": 4, "babies": True}, seed, seed * 3)
        for viewer in range(4):
            obs = state.observation(viewer)
            for other in range(4):
                if other != viewer:
                    assert obs.kept[other] is None
                    if state.phase == PICK:
                        assert obs.picks[other] is None
                        assert not any(e.move and e.move.startswith("pick") for e in obs.log)
            assert obs.legal_moves == (tuple(state.legal_moves()) if viewer == state.current_player else ())


def all_moves(state: SurplusState) -> list[Any]:
    cards = set(state.game.cards())  # type: ignore[attr-defined]
    moves: list[Any] = [KEEP]
    for card in cards:
        moves += [PICKS[card], NETS[card], TAKES[0][card], TAKES[1][card]]
    return moves


@pytest.mark.parametrize("options", CONFIGS[:6])
def test_explain_agrees_with_legal_moves_over_random_states(options: dict[str, Any]) -> None:
    for seed in range(25):
        state = random_state(options, seed, seed * 2 % 60)
        if state.is_over:
            continue
        legal = set(state.legal_moves())
        for move in all_moves(state):
            explanation = state.explain(move)
            assert explanation.legal == (move in legal), (str(move), explanation)
            assert explanation.reason and explanation.rules


def test_clone_is_independent_of_the_original() -> None:
    state = random_state({"players": 3, "babies": True}, 2, 10)
    before = (state.to_record(), state.view())
    twin = state.clone()
    while not twin.is_over:
        twin.apply_unchecked(twin.legal_moves()[-1])
    assert (state.to_record(), state.view()) == before


def test_every_type_label_and_icon_is_known_to_the_renderer() -> None:
    from sloth_kernel.render.kit import ICONS

    assert all(t.icon in ICONS for t in SLOTH_TYPES)
