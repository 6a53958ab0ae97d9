"""Race to the Bottom: seeded random-playout invariants, determinism, records, explanations.

Most games here are dealt short decks (1-18 cards a seat) so that thousands of
complete races, refills from short decks and wins fit in a few seconds; a few
full 54-card races and Grand Prix matches run too.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from sloth_kernel import RecordError, load_game
from sloth_kernel.games.race_to_the_bottom.engine import DONE, PASS, PITCHES, TABLES, Play, RaceState
from sloth_kernel.games.race_to_the_bottom.melds import CARD_SYMBOLS, counts_of, new_deck

ORDER = "23456789TJQKA"


# --- a reference reading of the rules, independent of the meld tables ----------


def ref_meld(cards: tuple[str, ...]) -> tuple[str, int, bool, int]:
    """(kind and length, comparison rank, holds an Ace, Cheat size) from the declared ranks."""
    ranks = [ORDER.index(c.lstrip("*")) for c in cards]
    counts = Counter(ranks)
    if len(counts) == 1:
        size = len(cards)
        return ("cheat" if size >= 4 else f"set{size}"), ranks[0], ranks[0] == 12, (size if size >= 4 else 0)
    (width,) = set(counts.values())
    distinct = sorted(counts)
    low_ace = 12 in distinct and 0 in distinct
    positions = sorted(0 if (r == 12 and low_ace) else r + 1 for r in distinct)
    assert positions == list(range(positions[0], positions[0] + len(positions))), cards
    kind = {1: "run", 2: "leap", 3: "bound"}[width]
    return f"{kind}{len(cards)}", positions[-1], 12 in distinct, 0


REF = {  # per meld: its reference reading, the naturals it takes and its Jokers
    play: (
        ref_meld(play.cards),
        tuple(Counter(ORDER.index(c) for c in play.cards if not c.startswith("*")).items()),
        sum(c.startswith("*") for c in play.cards),
    )
    for play in TABLES.all_plays
}


def ref_follows(new: Play, old: Play) -> bool:
    new_kind, new_rank, new_ace, new_cheat = REF[new][0]
    old_kind, old_rank, old_ace, old_cheat = REF[old][0]
    if old_cheat:
        return new_cheat > old_cheat or (new_cheat == old_cheat and (new_rank >= old_rank or new_ace or old_ace))
    if new_cheat:
        return True
    return new_kind == old_kind and (new_rank >= old_rank or new_ace or old_ace)


def ref_legal_plays(state: RaceState) -> set[Play]:
    hand = state.hands[state.turn]
    found = set()
    for play, (_, naturals, jokers) in REF.items():
        if jokers > hand[13] or any(hand[r] < n for r, n in naturals):
            continue
        if state.top is None or ref_follows(play, state.top):
            found.add(play)
    return found


# --- the harness -------------------------------------------------------------------


def short_deal(rng: random.Random, players: int) -> dict[str, object]:
    decks = []
    for _ in range(players):
        deck = [CARD_SYMBOLS[c] for c in new_deck()]
        rng.shuffle(deck)
        decks.append(deck[: rng.randint(1, 18)])
    return {"decks": decks, "leader": rng.randrange(players)}


def move_bound(state: RaceState) -> int:
    """An ample cap on moves per race: each trick has a play (the leader must play), each
    play sheds a card, and each seat's pass takes at most 1 + 6 pitches + done = 8 moves."""
    cards = sum(sum(d) for d in state.dealt)
    return cards * (1 + 8 * state.n) + 8 * state.n


def check_state(state: RaceState, seats: range | list[int]) -> None:
    for seat in seats:
        owned = [
            h + d + p
            for h, d, p in zip(state.hands[seat], counts_of(state.decks[seat]), state.played[seat], strict=False)
        ]
        assert tuple(owned) == state.dealt[seat], "a seat's cards are conserved across hand, deck and played"
        assert sum(state.hands[seat]) == state.nhand[seat] <= 12
        assert 0 <= state.known[seat] <= len(state.decks[seat])
        assert min(state.hands[seat]) >= 0


def run_race(state: RaceState, rng: random.Random, stats: Counter, *, deep: float) -> RaceState:
    """Random moves to the end, checking invariants on the way; `deep` = share of steps fully audited."""
    steps, race, bound = 0, state.race, move_bound(state)
    total = [sum(d) for d in state.dealt]
    while not state.is_over:
        legal = state.legal_moves()
        stats["max_moves"] = max(stats["max_moves"], len(legal))
        if rng.random() < deep:
            audit(state, legal, rng)
        move = legal[rng.randrange(len(legal))]
        seat, before = state.turn, [h + len(d) for h, d in zip(state.nhand, state.decks, strict=False)]
        state.apply_unchecked(move)
        steps += 1
        if state.race != race:  # a Grand Prix moved on to the next race
            stats["races"] += 1
            race, steps, bound = state.race, 0, move_bound(state)
            total = [sum(d) for d in state.dealt]
            continue
        after = [h + len(d) for h, d in zip(state.nhand, state.decks, strict=False)]
        if type(move) is Play:
            assert after[seat] == before[seat] - len(move.cards), "a play sheds exactly its cards"
            after[seat] = before[seat]
        assert after == before, "the remaining count falls only on a play, and only the player's"
        assert state.remaining(seat) + sum(state.played[seat]) == total[seat], "cards are conserved"
        assert steps <= bound, "every race terminates"
    stats["races"] += 1
    check_state(state, range(state.n))
    assert abs(sum(state.returns()) - 1.0) < 1e-9
    assert state.current_player == -1 and state.legal_moves() == []
    return state


def audit(state: RaceState, legal: list, rng: random.Random) -> None:
    """Legal moves against the reference reading, explanations against legality, honest observations."""
    check_state(state, range(state.n))
    assert legal and len(set(legal)) == len(legal), "moves are listed once each"
    if not state.pitching and state.nhand[state.turn]:
        plays = {m for m in legal if isinstance(m, Play)}
        assert plays == ref_legal_plays(state)
        assert (PASS in legal) == (state.top is not None)
    candidates = [rng.choice(legal), rng.choice(TABLES.all_plays), PASS, DONE, rng.choice(PITCHES)]
    for move in candidates:
        why = state.explain(move)
        assert why.legal == (move in legal)
        assert (state.why_not(move) is None) == (move in legal), f"{move}: reasons disagree with legal_moves"
        assert why.reason and why.rules
    viewer = rng.randrange(state.n)
    seen = state.observation(viewer)
    for seat in seen.seats:
        hidden = seat.seat != viewer
        assert (seat.hand is None) == hidden and (seat.pitched is None) == hidden and seat.deck is None
    assert bool(seen.legal_moves) == (viewer == state.turn)


def test_thousands_of_short_deck_races_keep_every_invariant() -> None:
    rng = random.Random(2024)
    stats = Counter(max_moves=0)
    for number in range(2000):
        players = 2 + number % 3
        game = load_game("race-to-the-bottom", players=players)
        state = game.from_deal(short_deal(rng, players), seed=number)
        run_race(state, rng, stats, deep=0.03)
    assert stats["races"] == 2000
    assert stats["max_moves"] <= len(TABLES.all_plays) + 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_full_races_and_a_grand_prix_keep_every_invariant(players: int) -> None:
    rng = random.Random(players)
    stats = Counter(max_moves=0)
    for seed in range(5):
        run_race(load_game("race-to-the-bottom", players=players).new_state(seed), rng, stats, deep=0.05)
    end = run_race(
        load_game("race-to-the-bottom", players=players, grand_prix=True).new_state(7), rng, stats, deep=0.02
    )
    assert len(end.results) == 3 and stats["races"] == 5 + 3
    assert all(len(set(r.order)) == players for r in end.results)


# --- determinism and records ----------------------------------------------------------


def random_game(seed: int, moves: int, **options: object) -> RaceState:
    rng = random.Random(seed)
    state = load_game("race-to-the-bottom", **options).new_state(seed)
    for _ in range(moves):
        if state.is_over:
            break
        legal = state.legal_moves()
        state = state.play(legal[rng.randrange(len(legal))])
    return state


def test_same_seed_same_game() -> None:
    one, two = random_game(5, 300), random_game(5, 300)
    assert one.to_record() == two.to_record() and one.view() == two.view()
    assert load_game("race-to-the-bottom").new_state(8).view() != load_game("race-to-the-bottom").new_state(9).view()


@pytest.mark.parametrize("options", [{}, {"players": 4, "grand_prix": True}, {"players": 2}])
def test_record_round_trip(options: dict[str, object]) -> None:
    state = random_game(3, 700, **options)
    again = state.game.replay(json.loads(state.to_json()))
    assert again.view() == state.view()
    assert [again.observation(s) for s in range(state.n)] == [state.observation(s) for s in range(state.n)]
    assert again.history == state.history and again.to_record() == state.to_record()


def test_record_round_trip_from_a_deal() -> None:
    game = load_game("race-to-the-bottom", players=2)
    state = game.from_deal({"decks": ["2 3 4 5 6 7 8 9 T J Q K A *", "A K Q J T 9 8 7 6 5 4 3 2"], "leader": 1}, seed=4)
    rng = random.Random(1)
    while not state.is_over:
        legal = state.legal_moves()
        state = state.play(legal[rng.randrange(len(legal))])
    again = game.replay(state.to_record())
    assert again.view() == state.view() and again.deal == state.deal


@pytest.mark.parametrize(
    "tamper",
    [
        lambda r: r.update(game="sprint"),
        lambda r: r.update(moves=r["moves"] + ["K A 2"]),
        lambda r: r["moves"].insert(0, "pass"),  # the leader may not pass
        lambda r: r["moves"].__setitem__(1, "pitch Q"),
        lambda r: r.update(options={"players": 9}),
        lambda r: r.update(seed="seven"),
        lambda r: r.update(deal={"decks": ["2 2 2 2 2", "3", "4"]}),
        lambda r: r.update(moves="pass"),
        lambda r: r.pop("seed"),
    ],
)
def test_tampered_records_raise_record_error(tamper) -> None:  # type: ignore[no-untyped-def]
    state = random_game(4, 40)
    record = state.to_record()
    tamper(record)
    with pytest.raises(RecordError):
        state.game.replay(record)


def test_bad_input_leaves_state_unchanged_over_random_states() -> None:
    rng = random.Random(9)
    state = random_game(6, 120)
    for _ in range(60):
        if state.is_over:
            break
        before, view = state.to_record(), state.view()
        legal = state.legal_moves()
        illegal = [m for m in (*rng.sample(TABLES.all_plays, 20), PASS, DONE, *PITCHES) if m not in legal]
        for move in illegal[:5]:
            try:
                state.play(move)
            except ValueError as err:
                assert getattr(err, "explanation", None) is not None and not err.explanation.legal
            else:
                raise AssertionError(f"{move} was accepted")
        other = (state.current_player + 1) % state.n
        with pytest.raises(ValueError):
            state.play(legal[0], player=other)
        assert state.to_record() == before and state.view() == view
        state = state.play(legal[rng.randrange(len(legal))])
