"""Surplus of Sloths bots. They read only a SurplusObservation."""

from __future__ import annotations

import random
from collections.abc import Sequence

from sloth_kernel.games.surplus_of_sloths.cards import BABY, CARD_IDS, RUNS, points, profiles
from sloth_kernel.games.surplus_of_sloths.engine import Keep, NetCard, Pick, SurplusMove, SurplusObservation, Take

FUTURE_NET = 4.0  # points a type's Net is still expected to gain from leftovers
RIVAL_HIDDEN_BONUS = 0.5  # a rival's two hidden kept cards may lengthen their run a little


class HeuristicBot:
    """Greedy on an estimate of the reveal, from public cards and its own hand.

    For every type it compares its best run with the best run a rival shows in
    their drafted cards (SS-11), turns the lead into a chance of taking that
    type's Net (SS-7, SS-8), and weighs it by what the Net holds (SS-9). Each
    legal move is scored by how it changes that estimate:

    - pick (SS-3) / Baby net (SS-6): the card leaves the hand and feeds the Net,
      so it puts a weak card into a type the bot expects to win;
    - take (SS-4): the card joins the hand, so it lengthens its most valuable run;
    - keep (SS-6) leaves everything as it is.

    Ties are broken by the seeded generator.
    """

    name = "heuristic"
    title = "Harriet"
    blurb = "drafts for the types whose Net it expects to win, judged from the cards on show and its hand"

    def __init__(self, seed: int | None = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, obs: SurplusObservation) -> SurplusMove:
        moves = obs.legal_moves
        if not moves:
            raise ValueError("the observation offers no legal moves (not this seat's turn?)")
        me = obs.player if obs.player is not None else obs.current_player
        hand = [CARD_IDS[c.upper()] for c in (obs.kept[me] or ()) + obs.drafted[me]]
        net = [CARD_IDS[c.upper()] for pile in obs.net for c in pile]
        rivals = [[CARD_IDS[c.upper()] for c in obs.drafted[s]] for s in range(obs.players) if s != me]
        num_types = len(obs.types)
        rival_keys = [self._rival_best(rivals, t, num_types) for t in range(num_types)]

        def value(move: SurplusMove) -> float:
            mine, pool = hand, net
            if isinstance(move, (Pick, NetCard)):
                card = CARD_IDS[move.card.upper()]
                mine = list(hand)
                mine.remove(card)
                pool = net + [card]
            elif isinstance(move, Take):
                mine = hand + [CARD_IDS[move.card.upper()]]
            elif not isinstance(move, Keep):
                return 0.0
            return self._estimate(mine, pool, rival_keys, num_types, obs.players)

        scored = [(value(m), m) for m in moves]
        best = max(v for v, _ in scored)
        options = [m for v, m in scored if v >= best - 1e-9]
        return options[self.rng.randrange(len(options))]

    @staticmethod
    def _rival_best(rivals: Sequence[Sequence[int]], t: int, num_types: int) -> tuple[int, int]:
        keys = [RUNS[profiles(cards, num_types)[t]].key for cards in rivals]
        return max(keys, default=(0, 0))

    @staticmethod
    def _estimate(
        hand: list[int], net: list[int], rival_keys: list[tuple[int, int]], num_types: int, players: int
    ) -> float:
        mine = profiles(hand, num_types)
        total = 0.0
        for t in range(num_types):
            in_net = [c for c in net if c != BABY and c >> 3 == t]
            worth = points(in_net)[0] + FUTURE_NET
            length, top = RUNS[mine[t]].key
            rival_length, rival_top = rival_keys[t]
            lead = length - rival_length - RIVAL_HIDDEN_BONUS + (0.3 if top > rival_top else 0.0)
            chance = min(0.95, max(0.02, 0.5 + 0.3 * lead))
            # my expected gain minus what an average rival expects from the same Net
            total += worth * (chance - (1.0 - chance) / max(1, players - 1))
            total += 0.2 * length  # a long run keeps options open for later Net cards
        return total


BOTS = {"heuristic": HeuristicBot}
