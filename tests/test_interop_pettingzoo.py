"""Every game passes PettingZoo's API and seed tests (skipped without the interop extra)."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test  # noqa: E402

from sloth_kernel import available_games, game_spec  # noqa: E402
from sloth_kernel.interop.pettingzoo import env  # noqa: E402

PLAYERS = {"too-sloth-to-win": 3, "surplus-of-sloths": 2, "race-to-the-bottom": 2, "sprint": 2}
"""Small tables for the bundled games; every other registered game (a plugin) at its default."""
CASES = [(name, PLAYERS.get(name, game_spec(name).default_players)) for name in available_games()]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name,players", CASES)
def test_api(name: str, players: int) -> None:
    api_test(env(name, players=players), num_cycles=300)


@pytest.mark.parametrize("name,players", CASES)
def test_seed(name: str, players: int) -> None:
    seed_test(lambda: env(name, players=players), num_cycles=300)


def test_action_mask_matches_legal_moves() -> None:
    aec = env("surplus-of-sloths", players=2)
    aec.reset(seed=3)
    observation = aec.observe(aec.agent_selection)
    legal = aec.state.legal_moves()
    assert observation["action_mask"].sum() == len(legal)
    assert all(observation["action_mask"][aec.actions.of(m)] for m in legal)
