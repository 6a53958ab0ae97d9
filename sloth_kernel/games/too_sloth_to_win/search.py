"""Too Sloth To Win for ISMCTS: a world sampler consistent with one seat's observation, rollouts and values."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, Hashable

from sloth_kernel.bots.determinize import Sampler, SearchSpec, fresh_world_seed, game_for


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
    from sloth_kernel.games.too_sloth_to_win.engine import DRINK, DRINK_BASE, Pass, Play

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
    from sloth_kernel.games.too_sloth_to_win.engine import HAND_SIZE

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
    from sloth_kernel.games.too_sloth_to_win import engine as ts

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


def search_spec() -> SearchSpec:
    return SearchSpec(prepare_too_sloth, horizon=too_sloth_round, value=too_sloth_value, iterations=150)
