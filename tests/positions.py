"""Positions for tests: a game played some random legal moves from a seeded deal."""

from __future__ import annotations

import random
from typing import Any

from sloth_kernel import load_game
from sloth_kernel.core import GameState


def reached(name: str, seed: int, steps: int) -> GameState[Any, Any]:
    """The position after `steps` random legal moves (fewer if the game ends) from the deal of `seed`."""
    state = load_game(name).new_state(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state = state.play(rng.choice(state.legal_moves()))
    return state
