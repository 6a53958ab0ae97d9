"""Surplus of Sloths for ISMCTS: a world sampler consistent with one seat's observation, rollouts and values."""

from __future__ import annotations

import random
from typing import Any

from sloth_kernel.bots.determinize import Sampler, SearchSpec, fresh_world_seed, game_for


def prepare_surplus(obs: Any, options: dict[str, Any]) -> Sampler:
    """Sampler of Surplus of Sloths worlds consistent with `obs` (SS-11).

    Hidden: the other seats' kept opening cards, their unrevealed picks and the
    deck order. Drafted cards, River and Net are public. Babies only ever come
    from the deck (SS-2), so hidden opening cards are never Babies.
    """
    from sloth_kernel.games.surplus_of_sloths import engine as ss
    from sloth_kernel.games.surplus_of_sloths.cards import BABY, CARD_IDS

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


def search_spec() -> SearchSpec:
    return SearchSpec(prepare_surplus, iterations=200)
