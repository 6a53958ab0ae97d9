"""Don't Bust: the rules (DB-1 to DB-4) on sloth-kernel's protocol.

Each player is dealt a few cards, face down, from a deck numbered 1 to N. In turn each plays one
card onto a pile; whoever takes the pile's total over the limit busts, and the others share the win.
Checked play, explanations, records and replay come from ``sloth_kernel.core``: this module only
states the rules.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sloth_kernel.core import NO_PLAYER, Event, Explanation, Game, GameConfig, GameState, Move, seat_name, seeded_rng
from sloth_kernel.errors import ConfigError, InvalidMoveError

RULES: dict[str, str] = {
    "DB-1": "The deck holds the cards 1 to N, one of each. Each player is dealt the same number of cards, "
    "face down; the cards left over stay face down, unseen by everyone.",
    "DB-2": "Player 1 starts. On your turn you play one card from your hand face up onto the pile; "
    "the pile's total goes up by the card.",
    "DB-3": "Whoever takes the pile's total over the limit busts: the game ends, and every other player shares the win.",
    "DB-4": "When the hands are empty and nobody has bust, everyone shares the win.",
}


@dataclass(frozen=True)
class DontBustConfig(GameConfig):
    """The options, their types and defaults; their ranges are in the spec (``option_ranges``)."""

    players: int = 2
    cards: int = 12
    hand_size: int = 3
    limit: int = 20


@dataclass(frozen=True, slots=True)
class Play(Move):
    """Play one card from the hand (DB-2). Notation: ``play 7``."""

    card: int

    def __str__(self) -> str:
        return f"play {self.card}"


_PLAY = re.compile(r"^\s*(?:play\s+)?(\d{1,3})\s*$", re.IGNORECASE | re.ASCII)  # ASCII: "٣" is no 3


class DontBust(Game[DontBustConfig, "DontBustState"]):
    """Don't Bust. ``from_deal({"hands": [[3, 9, 1], [2, 7, 5]]})``: one list of cards per seat."""

    name = "dont-bust"
    title = "Don't Bust"
    config_class = DontBustConfig
    rules = RULES

    @property
    def num_players(self) -> int:
        return self.config.players

    def _new_state(self, seed: int) -> DontBustState:
        deck = list(range(1, self.config.cards + 1))
        seeded_rng(seed, "deal").shuffle(deck)  # every shuffle from the seed, never the global random
        size = self.config.hand_size
        return DontBustState(self, seed, None, [deck[s * size : (s + 1) * size] for s in range(self.config.players)])

    def _from_deal(self, deal: Mapping[str, Any], seed: int) -> DontBustState:
        cfg, hands = self.config, deal.get("hands")
        if not isinstance(hands, (list, tuple)) or len(hands) != cfg.players:
            raise ConfigError(f"hands must be a list of {cfg.players} hands, one per seat")
        for seat, hand in enumerate(hands):
            if not isinstance(hand, (list, tuple)) or len(hand) != cfg.hand_size:
                raise ConfigError(f"hand {seat + 1} must be a list of {cfg.hand_size} cards (DB-1)")
            if any(type(card) is not int or not 1 <= card <= cfg.cards for card in hand):
                raise ConfigError(f"hand {seat + 1} holds a card that is not 1 to {cfg.cards} (DB-1)")
        dealt = [card for hand in hands for card in hand]
        if len(set(dealt)) != len(dealt):
            raise ConfigError("a card is dealt twice; the deck holds one of each (DB-1)")
        clean = [list(hand) for hand in hands]
        return DontBustState(self, seed, {"hands": clean}, clean)

    def parse_move(self, text: str) -> Play:
        match = _PLAY.match(text) if isinstance(text, str) else None
        if match is None:
            raise InvalidMoveError(text, "write a move as 'play N' with N a card number", game=self.name)
        return Play(int(match.group(1)))

    def all_moves(self) -> list[Move]:
        return [Play(card) for card in range(1, self.config.cards + 1)]

    @classmethod
    def world_sampler(
        cls, observation: Any, options: Mapping[str, Any] | None = None
    ) -> Callable[[random.Random], DontBustState]:
        """Worlds consistent with one seat's observation: the cards it has not seen dealt at random."""
        obs = observation
        if obs.player is None:
            raise ValueError("sample worlds from a seat's observation, not from view()")
        game = cls.shared(**{**obs.config.to_dict(), **(options or {})})
        seen = set(obs.hand) | {card for _, card in obs.pile}
        unseen = [card for card in range(1, obs.config.cards + 1) if card not in seen]
        played = [[card for seat, card in obs.pile if seat == s] for s in range(obs.config.players)]

        def sample(rng: random.Random) -> DontBustState:
            pool = unseen.copy()
            rng.shuffle(pool)
            hands = [
                played[s] + (list(obs.hand) if s == obs.player else [pool.pop() for _ in range(obs.hand_counts[s])])
                for s in range(obs.config.players)
            ]
            world = game._from_deal({"hands": hands}, seed=rng.getrandbits(64))  # no checks on the search path
            for _, card in obs.pile:
                world.apply_unchecked(Play(card))
            return world

        return sample


class DontBustState(GameState[Play, "DontBustObservation"]):
    """A position: the hands, the pile, whose turn it is and who bust."""

    game: DontBust

    def __init__(self, game: DontBust, seed: int, deal: Mapping[str, Any] | None, hands: list[list[int]]) -> None:
        super().__init__(game, seed, deal)  # game, seed, deal, and the empty history and events
        self.hands = [sorted(hand) for hand in hands]
        self.pile: list[tuple[int, int]] = []  # (seat, card), in play order: all public
        self.turn = 0  # DB-2
        self.bust: int | None = None
        self.events.append(Event(f"Each player is dealt {game.config.hand_size} cards.", rules=("DB-1", "DB-2")))

    @property
    def total(self) -> int:
        return sum(card for _, card in self.pile)

    @property
    def current_player(self) -> int:
        return NO_PLAYER if self.is_over else self.turn

    @property
    def is_over(self) -> bool:
        return self.bust is not None or not any(self.hands)

    def legal_moves(self) -> list[Play]:
        return [] if self.is_over else [Play(card) for card in self.hands[self.turn]]

    def returns(self) -> tuple[float, ...]:
        players = self.game.config.players
        if self.bust is None:
            return (1.0 / players,) * players if self.is_over else (0.0,) * players
        return tuple(0.0 if seat == self.bust else 1.0 / (players - 1) for seat in range(players))

    def clone(self) -> DontBustState:
        other = object.__new__(DontBustState)
        other.__dict__.update(self.__dict__)
        other.history, other.events = list(self.history), list(self.events)  # the core's two lists
        other.hands = [list(hand) for hand in self.hands]
        other.pile = list(self.pile)
        return other

    def _apply(self, move: Play) -> None:
        seat = self.turn
        self.hands[seat].remove(move.card)
        self.pile.append((seat, move.card))
        text = f"{seat_name(seat)} plays {move.card}: the pile is at {self.total}."
        self.events.append(Event(text, seat, str(move), ("DB-2",)))
        if self.total > self.game.config.limit:
            self.bust = seat
            self.events.append(Event(f"{seat_name(seat)} busts, over {self.game.config.limit}.", seat, rules=("DB-3",)))
        elif not any(self.hands):
            self.events.append(Event("The hands are empty and nobody bust: everyone shares the win.", rules=("DB-4",)))
        else:
            self.turn = (seat + 1) % self.game.config.players

    def _judge(self, move: Play, legal: bool) -> Explanation:
        text, card, limit = str(move), move.card, self.game.config.limit
        if not legal:
            if not 1 <= card <= self.game.config.cards:
                return Explanation(
                    text, False, f"there is no card {card}: the deck is 1 to {self.game.config.cards}", ("DB-1",)
                )
            return Explanation(text, False, f"{seat_name(self.turn)} does not hold the {card}", ("DB-2",))
        if self.total + card > limit:
            return Explanation(
                text, True, f"the {card} takes the pile to {self.total + card}, over {limit}: a bust", ("DB-2", "DB-3")
            )
        return Explanation(text, True, f"the {card} takes the pile to {self.total + card}, within {limit}", ("DB-2",))

    def _turn_of(self, seat: int) -> DontBustState | tuple[str, tuple[str, ...]]:
        """For ``ask`` about a seat that is not to move: this position with `seat` to move."""
        if self.is_over:
            return "the game is over", ("DB-3", "DB-4")
        other = self.clone()
        other.turn = seat
        return other

    def _observation(self, player: int) -> DontBustObservation:
        return self._observe(player)

    def view(self) -> DontBustObservation:
        return self._observe(None)

    def public_observation(self) -> DontBustObservation:
        return self._observe(NO_PLAYER)  # nobody's seat: no hand at all

    def _observe(self, player: int | None) -> DontBustObservation:
        return DontBustObservation(
            game=self.game.name,
            player=player,
            current_player=self.current_player,
            is_over=self.is_over,
            legal_moves=tuple(self.legal_moves()) if player in (None, self.current_player) else (),
            log=tuple(self.events),
            config=self.game.config,
            hand=None if player is None or player == NO_PLAYER else tuple(self.hands[player]),
            hand_counts=tuple(len(hand) for hand in self.hands),
            pile=tuple(self.pile),
            total=self.total,
            bust=self.bust,
            hands=tuple(tuple(hand) for hand in self.hands) if player is None else None,
        )


@dataclass(frozen=True)
class DontBustObservation:
    """What a seat knows: its own hand and the pile. ``view()``, the teacher's, fills ``hands`` instead."""

    game: str
    player: int | None
    current_player: int
    is_over: bool
    legal_moves: tuple[Play, ...]
    log: tuple[Event, ...]
    config: DontBustConfig
    hand: tuple[int, ...] | None
    hand_counts: tuple[int, ...]
    pile: tuple[tuple[int, int], ...]
    total: int
    bust: int | None
    hands: tuple[tuple[int, ...], ...] | None = None
