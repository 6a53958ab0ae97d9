"""Information-set Monte-Carlo tree search (SO-ISMCTS, Cowling, Powley & Whitehouse 2012).

The bot sees only its observation. Each iteration it samples one world
consistent with that observation (a *determinization*, see ``determinize.py``),
walks a single tree shared by all worlds -- keyed by moves, so a node means
"this sequence of moves" whatever the hidden cards -- and plays the world out
with the fast path (``apply_unchecked``). Children are compared with UCB1 over
the number of iterations in which they were *available* (legal), which is what
makes the statistics fair when different worlds allow different moves.

Rollouts stop at a game-specific horizon (e.g. the end of the current round)
and are scored by a game-specific value estimate, so that one second of search
is spent where the decision matters.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable
from typing import Any, ClassVar

from sloth_kernel.bots.determinize import SearchSpec, search_spec
from sloth_kernel.bots.options import check_bot_options
from sloth_kernel.core import GameState
from sloth_kernel.errors import ConfigError
from sloth_kernel.notation import shown

MAX_ITERATIONS = 600
"""The most iterations one decision may take: the worst decision of every game at 600 is within about a
second (``python -m sloth_kernel bench --edges``; at 1000 a Super Surplus decision took 1.4 s)."""
DEFAULT_ITERATIONS = MAX_ITERATIONS
"""The budget of a game whose search spec names none (the bundled games name 60 to 200)."""
DEFAULT_EXPLORATION = 0.7


class Node:
    """One move sequence in the shared tree; statistics from the mover's point of view."""

    __slots__ = ("move", "mover", "children", "visits", "reward", "available")

    def __init__(self, move: Any, mover: int) -> None:
        self.move = move
        self.mover = mover
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.available = 0

    def ucb_child(self, legal: list[Any], exploration: float) -> Node:
        """Best available child by UCB1 over availability counts; bumps their availability."""
        best: Node | None = None
        best_score = -math.inf
        for move in legal:
            child = self.children[move]
            child.available += 1
            score = child.reward / child.visits + exploration * math.sqrt(math.log(child.available) / child.visits)
            if score > best_score:
                best, best_score = child, score
        assert best is not None
        return best


class ISMCTSBot:
    """Single-observer ISMCTS over determinized worlds.

    `iterations` is the default budget (seeded and reproducible); `seconds`,
    when given, caps the search by CPU time instead (not reproducible).
    `game_options` fills config options the observation does not carry.
    """

    name = "ismcts"
    title = "Iris"
    blurb = "imagines many deals that fit what it has seen and plays what wins most of them"
    option_ranges: ClassVar[dict[str, tuple[float, float]]] = {
        "iterations": (1, MAX_ITERATIONS),
        "seconds": (0.001, 1.0),  # the longest CPU time one decision may be given
        "exploration": (0.0, 10.0),
    }
    """The one declaration of the bot's option ranges (``make_bot`` and ``__init__`` check them)."""
    option_help: ClassVar[dict[str, str]] = {
        "iterations": "worlds searched per decision",
        "seconds": "CPU seconds per decision, instead of iterations",
        "exploration": "the UCB1 constant; 0.7 by default",
    }

    def __init__(
        self,
        seed: int | None = 0,
        iterations: int | None = None,
        seconds: float | None = None,
        exploration: float = DEFAULT_EXPLORATION,
        game_options: dict[str, Any] | None = None,
        spec: SearchSpec | None = None,
    ) -> None:
        given = {"iterations": iterations, "seconds": seconds}  # None: not set
        check_bot_options(ISMCTSBot, exploration=exploration, **{k: v for k, v in given.items() if v is not None})
        if game_options is not None and not isinstance(game_options, dict):
            raise ConfigError(f"game_options must be a dict of the game's options, not {shown(game_options)}")
        if spec is not None and not isinstance(spec, SearchSpec):
            raise ConfigError(f"spec must be a SearchSpec, not {shown(spec)}")
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.game_options = dict(game_options or {})
        self.spec = spec
        self.last_iterations = 0
        self.helper: Any = None

    def _helper(self, game_name: str) -> Any:
        """The game's heuristic bot, for the decisions the spec delegates (seeded from this bot)."""
        if self.helper is None:
            from sloth_kernel.registry import game_spec

            spec = game_spec(game_name)
            levels: dict[str, Any] = spec.load(spec.bots) or {}
            self.helper = levels["heuristic"](seed=self.rng.getrandbits(32))
        return self.helper

    def choose(self, observation: Any) -> Any:
        legal = list(observation.legal_moves)
        if not legal:
            raise ValueError("the observation offers no legal moves (not this seat's turn?)")
        if len(legal) == 1:
            return legal[0]
        spec = self.spec or search_spec(observation.game)
        if spec.delegate is not None and spec.delegate(observation):
            return self._helper(observation.game).choose(observation)
        budget = self.iterations or spec.iterations or DEFAULT_ITERATIONS
        root = Node(None, -1)
        deadline = None if self.seconds is None else time.process_time() + self.seconds
        sample = spec.prepare(observation, self.game_options)
        done = 0
        while done < budget if deadline is None else time.process_time() < deadline:
            world = sample(self.rng)
            self._iterate(root, world, spec)
            done += 1
        self.last_iterations = done
        visited = [root.children[m] for m in legal if m in root.children]
        if not visited:
            return legal[self.rng.randrange(len(legal))]
        return max(visited, key=lambda c: (c.visits, c.reward)).move

    def _iterate(self, root: Node, world: GameState[Any, Any], spec: SearchSpec) -> None:
        rng = self.rng
        horizon: Hashable = spec.horizon(world)
        node = root
        path = [root]
        # selection and expansion
        while not world.is_over:
            legal = world.legal_moves()
            untried = [m for m in legal if m not in node.children]
            mover = world.current_player
            if untried:
                for move in legal:
                    if move in node.children:
                        node.children[move].available += 1
                move = untried[rng.randrange(len(untried))]
                child = node.children[move] = Node(move, mover)
                child.available = 1
                world.apply_unchecked(move)
                path.append(child)
                break
            node = node.ucb_child(legal, self.exploration)
            world.apply_unchecked(node.move)
            path.append(node)
        # rollout to the end or the horizon
        rollout: Callable[[Any, random.Random], None] = spec.rollout
        while not world.is_over and spec.horizon(world) == horizon:
            rollout(world, rng)
        values = world.returns() if world.is_over else spec.value(world)
        for visited in path[1:]:
            visited.visits += 1
            visited.reward += values[visited.mover]


BOTS = {"ismcts": ISMCTSBot}
