"""Determinizers: sample a full game state consistent with one seat's observation.

Each ``determinize_<game>(observation, rng, options)`` rebuilds a state from the
observation's public facts, deals every card the viewer cannot see at random
(respecting what is publicly known to sit in a hand), and gives the world a
fresh random seed, so future shuffles are unknown too. The states come from
engine internals, so this module is tied to each engine's fields; the honesty
tests check ``determinize(obs).observation(seat) == obs`` for every game.

A :class:`SearchSpec` bundles a game's determinizer with its rollout policy,
rollout horizon and value estimate for ISMCTS.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Hashable

from ..core import GameState
from ..registry import load_game

Sampler = Callable[[random.Random], GameState]
Preparer = Callable[[Any, dict[str, Any]], Sampler]
"""Reads an observation once (the slow part) and returns a fast world sampler."""


def random_step(state: Any, rng: random.Random) -> None:
    """Default rollout policy: one uniformly random legal move."""
    moves = state.legal_moves()
    state.apply_unchecked(moves[rng.randrange(len(moves))])


def no_horizon(state: Any) -> Hashable:
    return None


def share_value(state: Any) -> tuple[float, ...]:
    n = state.game.num_players
    return (1.0 / n,) * n


@dataclass(frozen=True)
class SearchSpec:
    """What ISMCTS needs to know about one game."""

    prepare: Preparer
    rollout: Callable[[Any, random.Random], None] = random_step
    horizon: Callable[[Any], Hashable] = no_horizon
    """Rollouts stop once this value changes (e.g. the round number)."""
    value: Callable[[Any], tuple[float, ...]] = share_value
    """Estimated returns of a state reached at the horizon (not over)."""
    iterations: int = 0
    """Default budget for the game (0: the bot's default)."""
    delegate: Callable[[Any], bool] | None = None
    """Decisions (by observation) left to the game's heuristic bot instead of searched."""


@lru_cache(maxsize=64)
def _cached_game(name: str, options: tuple[tuple[str, Any], ...]) -> Any:
    return load_game(name, **dict(options))


def game_for(name: str, options: dict[str, Any]) -> Any:
    return _cached_game(name, tuple(sorted(options.items())))


def fresh_world_seed(rng: random.Random) -> int:
    return rng.getrandbits(32)


# --- Too Sloth To Win --------------------------------------------------------------


@dataclass
class TooSlothFacts:
    """Public facts of the current round, read from the log (TS-15)."""

    known: list[list[int]]  # per seat: cards of each kind it must still hold (taken, not since played)
    played: list[int]  # naturals played this round, by kind
    taken: list[int]  # naturals taken back from the table this round, by kind
    cards_played: int  # all cards played this round (drinks included)
    cards_taken: int
    net_size_change: list[int]  # per seat: cards taken minus cards played this round
    lead_passes: int


def too_sloth_facts(obs: Any, game: Any) -> TooSlothFacts:
    from ..games.too_sloth_to_win import DRINK, DRINK_BASE, Pass, Play

    n = obs.players
    known = [[0] * 9 for _ in range(n)]
    played, taken = [0] * 9, [0] * 9
    change = [0] * n
    cards_played = cards_taken = lead_passes = 0
    for event in obs.log:
        if event.rules == ("TS-2", "TS-13") and event.player is None:  # a round starts
            known = [[0] * 9 for _ in range(n)]
            played, taken = [0] * 9, [0] * 9
            change = [0] * n
            cards_played = cards_taken = lead_passes = 0
            continue
        if event.move is None or event.player is None:
            continue
        seat = event.player
        move = game.parse_move(event.move)
        if isinstance(move, Play):
            lead_passes = 0
            cards_played += len(move.cards)
            change[seat] -= len(move.cards)
            for card in move.cards:
                kind = DRINK if card > DRINK_BASE else card
                played[kind] += 1
                known[seat][kind] = max(0, known[seat][kind] - 1)
        elif isinstance(move, Pass):
            if move.take is not None:
                cards_taken += 1
                change[seat] += 1
                taken[move.take] += 1
                known[seat][move.take] += 1
            elif event.rules == ("TS-5",):
                lead_passes += 1
    return TooSlothFacts(known, played, taken, cards_played, cards_taken, change, lead_passes)


def too_sloth_options(obs: Any, facts: TooSlothFacts | None = None) -> dict[str, Any]:
    """Config options read from the observation: the drinks dealt come from the viewer's hand size."""
    from ..games.too_sloth_to_win import HAND_SIZE

    options: dict[str, Any] = {
        "players": obs.players,
        "finish": obs.finish,
        "no_board": obs.no_board,
        "rounds": obs.rounds,
    }
    if facts is not None and obs.player is not None:
        dealt = obs.hand_sizes[obs.player] - facts.net_size_change[obs.player]
        options["drinks"] = max(0, min(2, dealt - HAND_SIZE))
    return options


def prepare_too_sloth(obs: Any, options: dict[str, Any]) -> Sampler:
    """Sampler of Too Sloth To Win worlds consistent with `obs` (TS-15: hands, undealt cards, deck order hidden)."""
    from ..games import too_sloth_to_win as ts

    me = obs.player
    if me is None:
        raise ValueError("determinize a seat's observation, not the omniscient view")
    base = game_for(obs.game, too_sloth_options(obs))
    facts = too_sloth_facts(obs, base)
    game = game_for(obs.game, {**too_sloth_options(obs, facts), **options})
    cfg = game.cfg
    own = list(obs.hands[me])
    # unseen naturals: the round's deck minus own hand, minus cards played and not taken back
    # (on the table or discarded), minus cards publicly known to sit in another hand
    unseen = [0] * 9
    for kind in range(1, 9):
        unseen[kind] = (
            (ts.COPIES if kind <= cfg.top_number else 0) - own[kind] - (facts.played[kind] - facts.taken[kind])
        )
    for seat in range(obs.players):
        if seat != me:
            for kind in range(1, 9):
                unseen[kind] -= facts.known[seat][kind]
    unseen_cards = [kind for kind in range(1, 9) for _ in range(unseen[kind])]
    status = [ts.ACTIVE if s == "active" else ts.FINISHED if s in ("1st", "2nd") else ts.ELIMINATED for s in obs.status]
    why_out = [s[len("out: ") :] if s.startswith("out: ") else "" for s in obs.status]
    finishers = [s for tag in ("1st", "2nd") for s, st in enumerate(obs.status) if st == tag]
    last_chip = [max((r.round for r in obs.results if s in r.chip), default=-1) for s in range(obs.players)]
    passed = sum(1 << s for s, p in enumerate(obs.passed) if p)
    discarded = facts.cards_played - facts.cards_taken - len(obs.table)
    log = list(obs.log)

    def sample(rng: random.Random) -> Any:
        pool = unseen_cards.copy()
        rng.shuffle(pool)
        return _too_sloth_world(rng, pool)

    def _too_sloth_world(rng: random.Random, pool: list[int]) -> Any:
        hands: list[list[int]] = []
        for seat in range(obs.players):
            if seat == me:
                hands.append(own.copy())
                continue
            hand = list(facts.known[seat])
            hand[ts.DRINK] = obs.drinks_held[seat]
            for _ in range(obs.hand_sizes[seat] - sum(hand)):
                hand[pool.pop()] += 1
            hands.append(hand)
        state = ts.TooSlothState(game, fresh_world_seed(rng), None)
        state.round = obs.round
        state.hands = hands
        state.bits = [ts.hand_bits(h) for h in hands]
        state.undealt = ts.needs(tuple(pool))
        state.discarded = discarded
        state.positions = list(obs.positions)
        state.status = status.copy()
        state.why_out = why_out.copy()
        state.table = obs.table
        state.owner = obs.table_owner
        state.passed = passed
        state.lead_passes = facts.lead_passes
        state.turn = obs.current_player
        state.pacemaker = obs.pacemaker
        state.finishers = finishers.copy()
        state.suspicious = obs.suspicious
        state.trophies = list(obs.trophies)
        state.chips = list(obs.chips)
        state.last_chip = last_chip.copy()
        state.results = list(obs.results)
        state.over = obs.is_over
        state.events = log.copy()
        return state

    return sample


def too_sloth_value(state: Any) -> tuple[float, ...]:
    """Win chances at a round break: a softmax of chips (and trophies as tie-breaks), flatter with more rounds to go."""
    rounds_left = state.cfg.rounds - state.round
    sharpness = 2.5 / rounds_left
    scores = [sharpness * (c + 0.3 * t) for c, t in zip(state.chips, state.trophies)]
    top = max(scores)
    weights = [math.exp(s - top) for s in scores]
    total = sum(weights)
    return tuple(w / total for w in weights)


def too_sloth_round(state: Any) -> Hashable:
    return state.round


# --- Surplus of Sloths ------------------------------------------------------------


def prepare_surplus(obs: Any, options: dict[str, Any]) -> Sampler:
    """Sampler of Surplus of Sloths worlds consistent with `obs` (SS-11).

    Hidden: the other seats' kept opening cards, their unrevealed picks and the
    deck order. Drafted cards, River and Net are public. Babies only ever come
    from the deck (SS-2), so hidden opening cards are never Babies.
    """
    from ..games import surplus_of_sloths as ss
    from ..games.surplus_of_sloths_cards import BABY, CARD_IDS

    me = obs.player
    if me is None:
        raise ValueError("determinize a seat's observation, not the omniscient view")
    game = game_for(
        obs.game, {"players": obs.players, "babies": obs.babies, "super_surplus": obs.super_surplus, **options}
    )
    n = obs.players

    def ids(cards: tuple[str, ...] | None) -> list[int]:
        return [CARD_IDS[c.upper()] for c in cards or ()]

    own_kept = ids(obs.kept[me])
    pick_order = [CARD_IDS[m.card.upper()] for m in obs.legal_moves if isinstance(m, ss.Pick)]
    if pick_order:  # keep the deal order the engine lists the picks in
        own_kept.sort(key=lambda c: pick_order.index(c) if c in pick_order else len(pick_order))
    drafted = [ids(d) for d in obs.drafted]
    rivers = [ids(r) for r in obs.rivers]
    net = [c for cards in obs.net for c in ids(cards)] + [BABY] * obs.net_babies
    known_picks = [CARD_IDS[p.upper()] if p is not None else -1 for p in obs.picks]
    picks_in_net = obs.phase != "pick"
    seen = own_kept + [c for d in drafted for c in d] + [c for r in rivers for c in r] + net
    if not picks_in_net and known_picks[me] >= 0:
        seen.append(known_picks[me])
    unseen = game.cards()
    for card in seen:
        unseen.remove(card)
    unseen_naturals = [c for c in unseen if c != BABY]
    unseen_babies = [c for c in unseen if c == BABY]
    hidden_picks = [s for s in range(n) if s != me and obs.picked[s] and known_picks[s] < 0]
    phase = ss.PHASES.index(obs.phase)
    row = obs.row - 1 if obs.row is not None else -1
    log = list(obs.log)

    def sample(rng: random.Random) -> Any:
        cards = unseen_naturals.copy()
        rng.shuffle(cards)
        kept = [own_kept.copy() if s == me else [cards.pop() for _ in range(obs.kept_counts[s])] for s in range(n)]
        picks = known_picks.copy()
        for s in hidden_picks:
            picks[s] = cards.pop()
        deck = cards + unseen_babies
        rng.shuffle(deck)
        state = game.new_state(fresh_world_seed(rng))
        state.number = obs.game_number - 1
        state.phase, state.turn, state.active, state.row = phase, obs.current_player, obs.active_player, row
        state.left = len(obs.to_draft)
        state.deck = deck
        state.rivers = [r.copy() for r in rivers]
        state.kept = kept
        state.drafted = [d.copy() for d in drafted]
        state.picks = picks
        state.net = net.copy()
        state.claimed = [ids(c) for c in obs.claimed]
        state.discards = [ids(d) for d in obs.discards]
        state.scores = list(obs.scores)
        state.reveal = obs.reveal
        state.games = list(obs.games)
        state.wins = list(obs.wins)
        state.over = obs.is_over
        state.events = log.copy()
        return state

    return sample


# --- Race to the Bottom ------------------------------------------------------------


def prepare_race(obs: Any, options: dict[str, Any]) -> Sampler:
    """Sampler of Race to the Bottom worlds consistent with `obs` (RB-11).

    Each deck is private and never mixed (RB-1), so a seat's hidden cards are
    its 54 minus what it has played this race (public); they are split between
    its hand and its deck by the public counts. The viewer's own hand and the
    pitched cards under its own deck stay where it knows them to be.
    """
    from ..games import race_to_the_bottom as rb
    from ..games.race_to_the_bottom_melds import counts_of, new_deck, parse_card

    me = obs.player
    if me is None:
        raise ValueError("determinize a seat's observation, not the omniscient view")
    game = game_for(
        obs.game,
        {
            "players": obs.players,
            "grand_prix": obs.grand_prix,
            **({"races": obs.races} if obs.grand_prix else {}),
            **options,
        },
    )
    n = obs.players
    full = counts_of(new_deck())
    unseen: list[list[int]] = []
    for seat in obs.seats:
        rest = [full[r] - seat.played[r] for r in range(14)]
        if seat.seat == me:
            for symbol in (*(seat.hand or ()), *(seat.pitched or ())):
                rest[parse_card(symbol)] -= 1
        unseen.append([r for r in range(14) for _ in range(rest[r])])
    own_hand = counts_of([parse_card(c) for c in obs.seats[me].hand or ()])
    own_pitched = [parse_card(c) for c in obs.seats[me].pitched or ()]
    dealt = [tuple(full)] * n
    in_trick = sum(1 for v in obs.seats if not v.out and not v.passed)
    alone = obs.to_beat is not None and (in_trick == 1 and not obs.pitching or in_trick == 0 and obs.pitching)
    log = list(obs.log)

    def sample(rng: random.Random) -> Any:
        hands, decks = [], []
        for seat in obs.seats:
            cards = unseen[seat.seat].copy()
            rng.shuffle(cards)
            if seat.seat == me:
                hands.append(own_hand.copy())
                decks.append(cards + own_pitched)
            else:
                hands.append(counts_of(cards[: seat.hand_count]))
                decks.append(cards[seat.hand_count :])
        state = rb.RaceState(game, fresh_world_seed(rng), None)
        state.race = obs.race - 1
        state.hands, state.decks = hands, decks
        state.nhand = [v.hand_count for v in obs.seats]
        state.known = [len(own_pitched) if s == me else 0 for s in range(n)]  # others' pitches: unknown here
        state.played = [list(v.played) for v in obs.seats]
        state.dealt = list(dealt)
        state.out = [v.out for v in obs.seats]
        state.order = list(obs.order)
        state.passed = [v.passed for v in obs.seats]
        state.top, state.top_seat = obs.to_beat, obs.to_beat_seat
        state.trick = list(obs.trick)
        state.leader, state.turn = obs.leader, obs.current_player
        state.pitching, state.pitched = obs.pitching, obs.pitched_now
        state.alone = alone
        state.points = [v.points for v in obs.seats]
        state.results = list(obs.results)
        state.over = obs.is_over
        state.events = log.copy()
        return state

    return sample


def race_rollout(state: Any, rng: random.Random) -> None:
    """Rollout policy: play a random meld when there is one, pass otherwise, pitch nothing."""
    from ..games.race_to_the_bottom import DONE, PASS

    if state.pitching:
        state.apply_unchecked(DONE)
        return
    moves = state.legal_moves()
    plays = [m for m in moves if m is not PASS]
    state.apply_unchecked(plays[rng.randrange(len(plays))] if plays else PASS)


def race_pitching(obs: Any) -> bool:
    return bool(obs.pitching)


RACE_ROLLOUT_DEPTH = 60
"""Rollout moves (tree moves included) before a race position is scored by the cards left."""


def race_depth(state: Any) -> Hashable:
    return (state.race, len(state.history) // RACE_ROLLOUT_DEPTH)


def race_value(state: Any) -> tuple[float, ...]:
    """Win chances from points so far and cards left to shed: fewer left is better."""
    scores = [
        2.0 * p - state.remaining(s) / 6.0 - (0.0 if not state.out[s] else -3.0) for s, p in enumerate(state.points)
    ]
    top = max(scores)
    weights = [math.exp(s - top) for s in scores]
    total = sum(weights)
    return tuple(w / total for w in weights)


# --- registry ---------------------------------------------------------------------


def _too_sloth_spec() -> SearchSpec:
    return SearchSpec(prepare_too_sloth, horizon=too_sloth_round, value=too_sloth_value, iterations=150)


SPECS: dict[str, Callable[[], SearchSpec]] = {
    "too-sloth-to-win": _too_sloth_spec,
    "surplus-of-sloths": lambda: SearchSpec(prepare_surplus, iterations=200),
    "race-to-the-bottom": lambda: SearchSpec(
        prepare_race,
        rollout=race_rollout,
        horizon=race_depth,
        value=race_value,
        iterations=60,
        delegate=race_pitching,
    ),
}


@lru_cache(maxsize=None)
def search_spec(game_name: str) -> SearchSpec:
    if game_name not in SPECS:
        raise ValueError(f"no determinizer for {game_name!r} yet")
    return SPECS[game_name]()


def determinize(obs: Any, rng: random.Random, options: dict[str, Any] | None = None) -> Any:
    """A world consistent with `obs`, for any game with a determinizer."""
    return search_spec(obs.game).prepare(obs, options or {})(rng)
