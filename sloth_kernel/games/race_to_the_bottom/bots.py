"""Race to the Bottom bots. They read only a RaceObservation."""

from __future__ import annotations

import random

from sloth_kernel.games.race_to_the_bottom.engine import Done, Pass, Pitch, Play, RaceMove, RaceObservation
from sloth_kernel.games.race_to_the_bottom.melds import ACE, CARD_SYMBOLS, JOKER


class HeuristicBot:
    """Shed as many cards as cheaply as possible; save Jokers, Aces and Cheats for when they count.

    - Leading: the meld with the most cards, then the lowest, without Jokers if it can.
    - Answering: the lowest natural match. Jokers and Cheats only to shed 3+ cards, to
      answer a Cheat, or when someone is close to the finish (RB-6, RB-9).
    - The last player in keeps dumping over their own meld while it costs no Joker (RB-8).
    - Pitching: loose cards (no pair, not in a run of 3) go under the deck, at most 6,
      never Jokers or Aces (RB-7), so the refill brings fresh ones.
    """

    name = "heuristic"
    title = "Hugo"
    blurb = "sheds as many cards as cheaply as it can and saves Jokers, Aces and Cheats for when they count"

    def __init__(self, seed: int | None = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, obs: RaceObservation) -> RaceMove:
        moves = obs.legal_moves
        if not moves:
            raise ValueError("the observation offers no legal moves (not this seat's turn?)")
        me = obs.player if obs.player is not None else obs.current_player
        hand = [0] * 14
        for token in obs.seats[me].hand or ():
            hand[CARD_SYMBOLS.index(token)] += 1
        if any(isinstance(m, (Pitch, Done)) for m in moves):
            return self._pitch(moves, hand)
        plays = [m for m in moves if isinstance(m, Play)]
        if not plays:
            return moves[0]
        top = obs.to_beat
        if top is None:
            return max(plays, key=lambda p: (len(p.cards) - 2 * p.jokers, -p.ace, -p.rank, self.rng.random()))
        close = min(s.remaining for s in obs.seats if not s.out) <= 12
        alone = obs.to_beat_seat == me

        def worth(play: Play) -> bool:
            if play.jokers or play.cheat or play.ace:
                return close or top.cheat > 0 or len(play.cards) >= 3 or (alone and not play.jokers)
            return True

        good = [p for p in plays if worth(p)]
        if not good:
            return next(m for m in moves if isinstance(m, Pass))
        return min(good, key=lambda p: (p.jokers, p.cheat, p.ace, p.rank, self.rng.random()))

    def _pitch(self, moves: tuple[RaceMove, ...], hand: list[int]) -> RaceMove:
        def loose(rank: int) -> bool:
            """A lone card that is not part of a run of 3 (Aces and Jokers are kept)."""
            if rank in (ACE, JOKER) or hand[rank] != 1:
                return False
            held = [0 <= n < 13 and hand[n] > 0 for n in range(rank - 2, rank + 3)]
            return not (held[1] and held[3] or held[0] and held[1] or held[3] and held[4])

        pitches = [m for m in moves if isinstance(m, Pitch) and loose(m.rank)]
        if pitches:
            return max(pitches, key=lambda m: (m.rank, self.rng.random()))
        return next(m for m in moves if isinstance(m, Done))


BOTS = {"heuristic": HeuristicBot}
