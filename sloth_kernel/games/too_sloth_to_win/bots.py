"""Too Sloth To Win bots. They read only a TooSlothObservation."""

from __future__ import annotations

import random

from sloth_kernel.games.too_sloth_to_win.engine import DRINK, DRINK_BASE, Pass, Play, TooSlothObservation, card_value


class HeuristicBot:
    """Greedy: move as far as possible now, keep high cards, and never get caught with a drink.

    - Play the combination with the most cards; among equals, the lowest one.
    - Spend the drink as soon as anyone (itself included) is within reach of the
      finish, because holding it at the first finish eliminates you (TS-10).
    - When passing, take the end card that best joins the hand; take a drink
      only while nobody is close to finishing.
    """

    name = "heuristic"
    title = "Hazel"
    blurb = "plays its biggest combination, keeps high cards and spends a drink before anyone can finish"

    def __init__(self, seed: int | None = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, obs: TooSlothObservation) -> Play | Pass:
        moves = obs.legal_moves
        if not moves:
            raise ValueError("the observation offers no legal moves (not this seat's turn?)")
        me = obs.player if obs.player is not None else obs.current_player
        hand = obs.hands[me] or (0,) * 9
        danger = self._finish_is_near(obs)
        plays = [m for m in moves if isinstance(m, Play)]
        if plays:

            def score(play: Play) -> tuple[int, int, int, float]:
                drinks = sum(c > DRINK_BASE for c in play.cards)
                drink_pref = drinks if danger else -drinks
                return (len(play.cards), drink_pref, -max(card_value(c) for c in play.cards), self.rng.random())

            return max(plays, key=score)
        takes = [m for m in moves if isinstance(m, Pass) and m.take is not None]
        if not takes:
            return moves[0]

        def fit(move: Pass) -> tuple[float, float]:
            if move.take == DRINK:
                return (-5.0 if danger or hand[DRINK] else 2.5, self.rng.random())
            n = move.take or 0
            near = sum(hand[k] for k in (n - 1, n + 1) if 1 <= k <= 8)
            return (2 * hand[n] + near + n / 10, self.rng.random())

        return max(takes, key=fit)

    def _finish_is_near(self, obs: TooSlothObservation) -> bool:
        """Is anyone close enough to the finish that the drink should go now? (Subclasses move the line.)"""
        if obs.no_board:
            return min(obs.hand_sizes[s] for s in range(obs.players) if obs.status[s] == "active") <= 4
        return max(obs.positions[s] for s in range(obs.players) if obs.status[s] == "active") >= obs.finish - 4


BOTS = {"heuristic": HeuristicBot}
