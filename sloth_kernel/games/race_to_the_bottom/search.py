"""Race to the Bottom for ISMCTS: a world sampler consistent with one seat's observation, rollouts and values."""

from __future__ import annotations

import math
import random
from typing import Any, Hashable

from sloth_kernel.bots.determinize import Sampler, SearchSpec, fresh_world_seed, game_for


def prepare_race(obs: Any, options: dict[str, Any]) -> Sampler:
    """Sampler of Race to the Bottom worlds consistent with `obs` (RB-11).

    Each deck is private and never mixed (RB-1), so a seat's hidden cards are
    its 54 minus what it has played this race (public); they are split between
    its hand and its deck by the public counts. The viewer's own hand and the
    pitched cards under its own deck stay where it knows them to be.
    """
    from sloth_kernel.games.race_to_the_bottom import engine as rb
    from sloth_kernel.games.race_to_the_bottom.melds import counts_of, new_deck, parse_card

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
    from sloth_kernel.games.race_to_the_bottom.engine import DONE, PASS

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


def search_spec() -> SearchSpec:
    return SearchSpec(
        prepare_race, rollout=race_rollout, horizon=race_depth, value=race_value, iterations=60, delegate=race_pitching
    )
