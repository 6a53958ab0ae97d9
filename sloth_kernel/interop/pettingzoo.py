"""Our games as PettingZoo AEC environments with action masks (``pip install sloth-kernel[interop]``).

``env(game_name, players=3)`` returns an AEC environment; agents are
``player_0``.. and actions the fixed global index of ``interop.actions``. Each
observation is ``{"observation": hashed features of the seat's observation,
"action_mask": 1 for the legal actions}`` (the mask is all zeros when it is not
that agent's turn). Rewards are the game's returns, paid when the game ends.
``reset(seed=s)`` deals from a generator seeded with `s`; later resets without
a seed keep drawing from it.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from sloth_kernel.interop.actions import FEATURE_SIZE, ActionIndex, features, observation_text
from sloth_kernel.registry import load_game


class SlothEnv(AECEnv):
    """One of our games as an AEC environment."""

    metadata = {"render_modes": ["ansi"], "name": "sloth_v0", "is_parallelizable": False}

    def __init__(self, game_name: str, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        self.game = load_game(game_name, **options)
        self.actions = ActionIndex(self.game)
        self.metadata = {**SlothEnv.metadata, "name": f"sloth_{game_name.replace('-', '_')}_v0"}
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(self.game.num_players)]
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (FEATURE_SIZE,), np.float32),
                    "action_mask": spaces.Box(0, 1, (len(self.actions),), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(len(self.actions)) for agent in self.possible_agents}
        self.rng = random.Random()
        self.state: Any = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.rng = random.Random(seed)
        self.state = self.game.new_state(self.rng.getrandbits(32))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        observation = self.state.observation(seat)
        return {"observation": features(observation), "action_mask": self.actions.mask(observation.legal_moves)}

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        move = self.actions.moves[int(action)]
        if move not in self.state.legal_moves():
            raise ValueError(f"illegal action {action} ({move}) for {agent}; use the action mask")
        self._cumulative_rewards[agent] = 0.0
        self.state.apply_unchecked(move)
        if self.state.is_over:
            self.rewards = {a: float(r) for a, r in zip(self.possible_agents, self.state.returns(), strict=False)}
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self.possible_agents[self.state.current_player]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode == "ansi" and self.state is not None:
            return observation_text(self.state.view())
        return None

    def close(self) -> None:
        pass


def env(game_name: str, render_mode: str | None = None, **options: Any) -> SlothEnv:
    """An AEC environment for `game_name` (options as for ``load_game``)."""
    return SlothEnv(game_name, render_mode=render_mode, **options)
