"""High Card for ISMCTS: a world sampler built from the public protocol only.

A world is dealt with ``game._from_deal`` (``from_deal`` without the checks of the public
boundary: the sampler builds its deals itself, and search must not pay for validation) -- the
viewer's own cards where it knows them, every other seat's played cards plus a random draw of
the cards it has not seen -- and then the public moves of the observation are replayed on it. Nothing writes an engine's
internals, so the sampler works with whatever the engine keeps inside; it needs nothing
from the search layer but ``SearchSpec``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from sloth_kernel.bots.determinize import SearchSpec
from sloth_kernel.registry import load_game


def prepare(obs: Any, options: dict[str, Any]) -> Callable[[random.Random], Any]:
    """Sampler of worlds consistent with `obs`: the hidden cards dealt at random, the rest as seen."""
    me = obs.player
    if me is None:
        raise ValueError("determinize a seat's observation, not the omniscient view")
    game = load_game(obs.game, **{**obs.config.to_dict(), **options})
    seats = range(obs.config.players)
    played = [[card for seat, card in obs.plays if seat == s] for s in seats]
    seen = set(obs.hand) | {card for _, card in obs.plays}
    unseen = [card for card in range(1, obs.config.cards + 1) if card not in seen]
    moves = [game.parse_move(f"play {card}") for _, card in obs.plays]

    def sample(rng: random.Random) -> Any:
        pool = unseen.copy()
        rng.shuffle(pool)
        hands = [
            played[s] + (list(obs.hand) if s == me else [pool.pop() for _ in range(obs.hand_counts[s])]) for s in seats
        ]
        world = game._from_deal({"hands": hands}, seed=rng.getrandbits(32))  # later chance unknown too
        for move in moves:
            world.apply_unchecked(move)
        return world

    return sample


def search_spec() -> SearchSpec:
    return SearchSpec(prepare)
