"""Outside games for the kit's tests, as source an author would write (installed with ``plugin_dist.installed``).

``STICKS``: a take-away game with nothing hidden and no chance, which declares both in its spec.
"""

STICKS = '''
"""Sticks, a small outside game: no renderer, no bots, no lessons, no search, no all_moves, games of a few moves."""
from dataclasses import dataclass
from sloth_kernel.core import NO_PLAYER, Event, Explanation, Game, GameConfig, GameState, Move, seat_name
from sloth_kernel.errors import InvalidMoveError
from sloth_kernel.spec import GameSpec

SPEC = GameSpec(name="sticks", title="Sticks", players=(2, 3), default_players=2, kind="take-away",
                engine="sticks_game:Sticks", option_docs={"players": "How many play.", "sticks": "Sticks at the start."},
                option_ranges={"sticks": (1, 9)}, max_length=20,
                hidden_information=False, chance_after_deal=False)

@dataclass(frozen=True)
class SticksConfig(GameConfig):
    players: int = 2
    sticks: int = 4

@dataclass(frozen=True)
class Take(Move):
    count: int
    def __str__(self):
        return f"take {self.count}"

class Sticks(Game[SticksConfig, "SticksState"]):
    name, title, config_class = "sticks", "Sticks", SticksConfig
    rules = {"ST-1": "Take 1 to 3 sticks; whoever takes the last one wins."}
    @property
    def num_players(self):
        return self.config.players
    def _new_state(self, seed):
        return SticksState(self, seed, None, self.config.sticks)
    def _from_deal(self, deal, seed):
        return SticksState(self, seed, deal, int(deal["sticks"]))
    def parse_move(self, text):
        words = text.split()
        if len(words) == 2 and words[0] == "take" and words[1] in ("1", "2", "3"):
            return Take(int(words[1]))
        raise InvalidMoveError(text, "write 'take 1', 'take 2' or 'take 3'", game=self.name)

class SticksState(GameState[Take, "SticksObservation"]):
    def __init__(self, game, seed, deal, sticks):
        super().__init__(game, seed, deal)
        self.left, self.turn, self.winner = sticks, 0, -1
    @property
    def current_player(self):
        return NO_PLAYER if self.is_over else self.turn
    @property
    def is_over(self):
        return self.left == 0
    def legal_moves(self):
        return [Take(n) for n in (1, 2, 3) if n <= self.left]
    def returns(self):
        return tuple(1.0 if s == self.winner else 0.0 for s in range(self.game.num_players))
    def clone(self):
        other = object.__new__(SticksState)
        other.__dict__.update(self.__dict__)
        other.history, other.events = list(self.history), list(self.events)
        return other
    def _apply(self, move):
        self.left -= move.count
        self.events.append(Event(f"{seat_name(self.turn)} takes {move.count}.", self.turn, str(move), ("ST-1",)))
        self.winner = self.turn if self.left == 0 else -1
        self.turn = (self.turn + 1) % self.game.num_players
    def _judge(self, move, legal):
        return Explanation(str(move), legal, "there are enough" if legal else f"only {self.left} left", ("ST-1",))
    def _observation(self, player):
        return self._observe(player)
    def view(self):
        return self._observe(None)
    def public_observation(self):
        return self._observe(-1)
    def _observe(self, player):
        moves = tuple(self.legal_moves()) if player in (None, self.current_player) else ()
        return SticksObservation(self.game.name, player, self.current_player, self.is_over, moves, tuple(self.events), self.left)

@dataclass(frozen=True)
class SticksObservation:
    game: str
    player: object
    current_player: int
    is_over: bool
    legal_moves: tuple
    log: tuple
    left: int
'''

STICKS_WITH_ACTIONS = STICKS.replace(
    "    def parse_move(self, text):\n",
    "    def all_moves(self):\n        return [Take(n) for n in (1, 2, 3)]\n    def parse_move(self, text):\n",
)
"""Sticks with ``all_moves``, the global action index the OpenSpiel bridge numbers actions by."""
assert STICKS_WITH_ACTIONS != STICKS
