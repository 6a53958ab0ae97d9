"""Our games as OpenSpiel Python games (``pip install sloth-kernel[interop]``).

``register_all()`` registers every game found (see ``sloth_kernel.registry``) as
``sloth_<name>``, with the name's dashes as underscores; then
``pyspiel.load_game("sloth_<name>", {"players": 2})`` works as usual. Every option
of the game whose default is a number, a truth value or text is a parameter too
(e.g. ``{"players": 3, "target": 7}``), checked against the game's spec as
``load_game`` checks it.

Chance: the whole deal (and every later shuffle) comes from one seed, so the
game starts with one chance node choosing a seed among ``NUM_DEALS`` equally
likely ones. A game whose spec declares ``hidden_information=False`` is
registered as perfect-information; if it also declares ``chance_after_deal=False``,
it has no chance node at all: its ``seed`` parameter (default 0) picks the deal. Actions are the fixed global index of ``interop.actions``. Each
game has its own observer: the seat's observation as text (plus the public log
for an information state) and a fixed-size tensor of one-hot viewer seat,
legal-action mask and hashed observation features.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from sloth_kernel.core import Game, GameState, seat_name
from sloth_kernel.interop.actions import FEATURE_SIZE, MAX_SEATS, ActionIndex, features, observation_text
from sloth_kernel.registry import available_games, game_spec, load_game

NUM_DEALS = 4096
"""Chance outcomes of the opening node: the seed of the deal."""


def short_name(game_name: str) -> str:
    return "sloth_" + game_name.replace("-", "_")


PARAMETER_TYPES = (bool, int, float, str)
"""The values an OpenSpiel game parameter can hold; options with other defaults (lists, None) are not parameters."""


def deterministic(game_name: str) -> bool:
    """No chance node: the spec declares no hidden information and no chance after the deal."""
    spec = game_spec(game_name)
    return not spec.hidden_information and not spec.chance_after_deal


def parameters(game_name: str) -> dict[str, Any]:
    """The game's parameters and their defaults: ``players`` and every option OpenSpiel can carry
    (plus ``seed``, the deal, for a game with no chance node)."""
    spec = game_spec(game_name)
    found: dict[str, Any] = {"players": spec.default_players}
    for option in spec.options():
        if option.name != "players" and type(option.default) in PARAMETER_TYPES:
            found[option.name] = option.default
    if deterministic(game_name):
        found["seed"] = 0
    return found


def game_type(game_name: str) -> pyspiel.GameType:
    spec = game_spec(game_name)
    low, high = spec.players
    cooperative = spec.cooperative
    return pyspiel.GameType(
        short_name=short_name(game_name),
        long_name=f"sloth-kernel {game_name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC
        if deterministic(game_name)
        else pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION
        if spec.hidden_information
        else pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.IDENTICAL if cooperative else pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters(game_name),
    )


class SlothGame(pyspiel.Game):
    """One of our games behind the pyspiel.Game interface."""

    game_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        spec = game_spec(self.game_name)
        params = {**parameters(self.game_name), **dict(params or {})}
        seed = params.pop("seed", None)
        ours = load_game(self.game_name, **params)
        actions = ActionIndex(ours)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(actions),
            max_chance_outcomes=0 if seed is not None else NUM_DEALS,
            num_players=ours.num_players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None if spec.cooperative else 1.0,
            max_game_length=spec.max_length,
        )
        super().__init__(game_type(self.game_name), info, {**params, **({} if seed is None else {"seed": seed})})
        self.ours = ours
        self.actions = actions
        self.seed: int | None = seed
        """The deal of a game with no chance node (None: a chance node deals)."""

    def new_initial_state(self) -> SlothState:
        return SlothState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> SlothObserver:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return SlothObserver(self, perfect_recall)


class Holder:
    """Our game, its action index and our state; OpenSpiel clones states with
    ``copy.deepcopy``, and this makes that a cheap ``state.clone()``."""

    def __init__(self, game: Game[Any, Any], actions: ActionIndex, state: GameState[Any, Any] | None) -> None:
        self.game = game
        self.actions = actions
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> Holder:
        return Holder(self.game, self.actions, None if self.state is None else self.state.clone())


class SlothState(pyspiel.State):
    """Before the deal: a chance node; then our state, advanced with the fast path."""

    def __init__(self, game: SlothGame) -> None:
        super().__init__(game)
        self.holder = Holder(game.ours, game.actions, None if game.seed is None else game.ours.new_state(game.seed))

    @property
    def ours(self) -> GameState[Any, Any] | None:
        return self.holder.state

    def current_player(self) -> int:
        if self.ours is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.ours.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.ours.current_player

    def _legal_actions(self, player: int) -> list[int]:
        assert self.ours is not None
        return self.holder.actions.legal(self.ours.legal_moves())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self.ours is None
        return [(seed, 1.0 / NUM_DEALS) for seed in range(NUM_DEALS)]

    def _apply_action(self, action: int) -> None:
        if self.ours is None:
            self.holder.state = self.holder.game.new_state(seed=action)
        else:
            self.ours.apply_unchecked(self.holder.actions.moves[action])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal #{action}"
        return str(self.holder.actions.moves[action])

    def is_terminal(self) -> bool:
        return self.ours is not None and self.ours.is_over

    def returns(self) -> list[float]:
        if self.ours is None or not self.ours.is_over:
            return [0.0] * self.holder.game.num_players
        return list(self.ours.returns())

    def __str__(self) -> str:
        if self.ours is None:
            return "(deal pending)"
        return observation_text(self.ours.view())


class SlothObserver:
    """PyObserver: what one seat knows, as text and as a fixed-size tensor."""

    def __init__(self, game: SlothGame, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        actions = len(game.actions)
        self.tensor = np.zeros(MAX_SEATS + actions + FEATURE_SIZE, np.float32)
        self.dict = {
            "seat": self.tensor[:MAX_SEATS],
            "legal": self.tensor[MAX_SEATS : MAX_SEATS + actions],
            "features": self.tensor[MAX_SEATS + actions :],
        }
        self.actions = game.actions

    def set_from(self, state: SlothState, player: int) -> None:
        self.tensor.fill(0)
        self.dict["seat"][player] = 1
        if state.ours is None:
            return
        observation = state.ours.observation(player)
        for index in self.actions.legal(observation.legal_moves):
            self.dict["legal"][index] = 1
        features(observation, self.dict["features"])

    def string_from(self, state: SlothState, player: int) -> str:
        if state.ours is None:
            return f"{seat_name(player)}: the deal is pending"
        observation = state.ours.observation(player)
        text = observation_text(observation)
        if self.perfect_recall:
            text += " | log: " + " / ".join(event.text for event in observation.log)
        return text


def _game_class(game_name: str) -> type[SlothGame]:
    return type(f"Sloth_{short_name(game_name)}", (SlothGame,), {"game_name": game_name})


_registered: set[str] = set()


def register_all() -> list[str]:
    """Register every game with pyspiel (idempotent); returns the short names."""
    names = []
    for game_name in available_games():
        name = short_name(game_name)
        if name not in _registered and name not in pyspiel.registered_names():
            pyspiel.register_game(game_type(game_name), _game_class(game_name))
        _registered.add(name)
        names.append(name)
    return names


register_all()
