"""High Card: a toy trick game that the tests install as a plugin (rules HC-1..HC-6).

Each player is dealt a few cards from a deck numbered 1 to N. A trick: the leader plays
any card face up, then each other player in turn plays any card; the highest card wins
the trick and its player leads the next one. Whoever wins the most tricks wins.

The hands are hidden and a few cards stay undealt, so a seat's observation does not
fix the deal: a bot must guess, which is what ISMCTS's world sampler is for.
Everything else -- checked play, explanations, records and replay -- comes from
``sloth_kernel.core``; this module only states the rules.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sloth_kernel.core import (
    NO_PLAYER,
    Event,
    Explanation,
    Game,
    GameConfig,
    GameState,
    Move,
    seat_name,
    seeded_rng,
)
from sloth_kernel.errors import ConfigError, InvalidMoveError

RULES: dict[str, str] = {
    "HC-1": "The deck holds the cards 1 to N (the 'cards' option), one of each.",
    "HC-2": "Shuffle and deal each player the same number of cards (the 'hand_size' option), face down; "
    "the cards left over stay face down, unseen by everyone.",
    "HC-3": "Player 1 leads the first trick.",
    "HC-4": "In a trick the leader plays any card from their hand face up, then each other player in turn "
    "plays any card from their hand face up. There is no suit to follow.",
    "HC-5": "The highest card wins the trick; its player leads the next trick.",
    "HC-6": "When the hands are empty, whoever won the most tricks wins; players tied for the most share the win.",
}
_HC4, _HC5, _HC6 = ("HC-4",), ("HC-4", "HC-5"), ("HC-6",)
TRICK_WON = "trick-won"
"""``Event.kind`` of the line that says who won a trick (HC-5): a board shows the full trick first, then
who takes it as a step of its own (the spec's ``reveal_kinds``); the observation's ``last_trick`` holds it."""


@dataclass(frozen=True)
class HighCardConfig(GameConfig):
    """Options: seats, the size of the deck (HC-1) and of each hand (HC-2)."""

    players: int = 2
    cards: int = 30
    hand_size: int = 7


# --- moves ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Play(Move):
    """Play one card from the hand (HC-4). Notation: ``play 7``."""

    card: int

    def __str__(self) -> str:
        return f"play {self.card}"


# re.ASCII: without it \d matches any script's digits ("٣" would read as 3)
_PLAY_TEXT = re.compile(r"^\s*(?:play\s+)?(\d{1,3})\s*$", re.IGNORECASE | re.ASCII)


# --- the game -----------------------------------------------------------------------------------


class HighCard(Game[HighCardConfig, "HighCardState"]):
    """High Card on the shared protocol.

    ``from_deal(deal)`` takes a JSON-able deal: ``{"hands": [[3, 9, 14], [1, 7, 16]]}``,
    one list of distinct cards per seat, ``hand_size`` cards each (HC-2).
    """

    name = "toy-high-card"
    title = "High Card"
    config_class = HighCardConfig
    rules = RULES

    def __init__(self, config: GameConfig) -> None:
        super().__init__(config)
        cfg: HighCardConfig = config  # type: ignore[assignment]
        self.cfg = cfg

    @property
    def num_players(self) -> int:
        return self.cfg.players

    def _new_state(self, seed: int) -> HighCardState:
        deck = list(range(1, self.cfg.cards + 1))
        seeded_rng(seed, "deal").shuffle(deck)
        size = self.cfg.hand_size
        hands = [deck[seat * size : (seat + 1) * size] for seat in range(self.cfg.players)]
        return HighCardState(self, seed, None, hands)

    def _from_deal(self, deal: Mapping[str, Any], seed: int) -> HighCardState:
        cfg = self.cfg
        hands = deal["hands"]
        if not isinstance(hands, (list, tuple)) or len(hands) != cfg.players:
            raise ConfigError(f"hands must be a list of {cfg.players} hands, one per seat")
        clean: list[list[int]] = []
        for seat, hand in enumerate(hands):
            if not isinstance(hand, (list, tuple)) or len(hand) != cfg.hand_size:
                raise ConfigError(f"hand {seat + 1} must be a list of {cfg.hand_size} cards (HC-2)")
            if any(type(card) is not int or not 1 <= card <= cfg.cards for card in hand):
                raise ConfigError(f"hand {seat + 1} holds a card that is not 1 to {cfg.cards} (HC-1)")
            clean.append(list(hand))
        dealt = [card for hand in clean for card in hand]
        if len(set(dealt)) != len(dealt):
            raise ConfigError("a card is dealt twice; the deck holds one of each (HC-1)")
        return HighCardState(self, seed, {"hands": [list(h) for h in clean]}, clean)

    def all_moves(self) -> list[Move]:
        return [Play(card) for card in range(1, self.cfg.cards + 1)]

    def parse_move(self, text: str) -> Play:
        match = _PLAY_TEXT.match(text) if isinstance(text, str) else None
        if match is None:
            raise InvalidMoveError(text, "write a move as 'play N' with N a card number", game=self.name)
        return Play(int(match.group(1)))


# --- the state -------------------------------------------------------------------------------------


class HighCardState(GameState[Play, "HighCardObservation"]):
    """A position: the hands, the trick on the table and the tricks won so far."""

    game: HighCard

    def __init__(self, game: HighCard, seed: int, deal: Mapping[str, Any] | None, hands: list[list[int]]) -> None:
        super().__init__(game, seed, deal)  # game, seed, deal, and the empty history and log
        self.hands = [sorted(hand) for hand in hands]
        self.trick: list[tuple[int, int]] = []  # (seat, card) on the table, in play order
        self.last_trick: tuple[tuple[int, int], ...] = ()
        self.plays: list[tuple[int, int]] = []  # every card played, (seat, card): all public
        self.tricks = [0] * game.cfg.players
        self.turn = 0  # HC-3
        self.over = False
        self.events.append(Event(f"Each player is dealt {game.cfg.hand_size} cards.", rules=("HC-2", "HC-3")))

    # -- protocol --

    @property
    def current_player(self) -> int:
        return NO_PLAYER if self.over else self.turn

    @property
    def is_over(self) -> bool:
        return self.over

    def legal_moves(self) -> list[Play]:
        return [] if self.over else [Play(card) for card in self.hands[self.turn]]

    def winners(self) -> tuple[int, ...]:
        """The seats with the most tricks (HC-6); empty until the game is over."""
        if not self.over:
            return ()
        best = max(self.tricks)
        return tuple(seat for seat, won in enumerate(self.tricks) if won == best)

    def returns(self) -> tuple[float, ...]:
        winners = self.winners()
        return tuple(1.0 / len(winners) if seat in winners else 0.0 for seat in range(self.game.cfg.players))

    def clone(self) -> HighCardState:
        other = object.__new__(HighCardState)
        other.__dict__.update(self.__dict__)
        other.history = list(self.history)
        other.events = list(self.events)
        other.hands = [list(hand) for hand in self.hands]
        other.trick = list(self.trick)
        other.plays = list(self.plays)
        other.tricks = list(self.tricks)
        return other

    def _apply(self, move: Play) -> None:
        seat, card = self.turn, move.card
        self.hands[seat].remove(card)
        verb = "leads" if not self.trick else "plays"
        self.trick.append((seat, card))
        self.plays.append((seat, card))
        self.events.append(Event(f"{seat_name(seat)} {verb} {card}.", seat, str(move), _HC4))
        players = self.game.cfg.players
        if len(self.trick) < players:
            self.turn = (seat + 1) % players
            return
        winner, top = max(self.trick, key=lambda play: play[1])
        self.tricks[winner] += 1
        self.last_trick = tuple(self.trick)
        self.trick = []
        self.turn = winner
        self.events.append(
            Event(f"{seat_name(winner)} wins the trick with {top}.", winner, rules=("HC-5",), kind=TRICK_WON)
        )
        if not self.hands[winner]:
            self.over = True
            names = " and ".join(seat_name(s) for s in self.winners())
            self.events.append(Event(f"The hands are empty: {names} won the most tricks.", rules=_HC6))

    def _judge(self, move: Play, legal: bool) -> Explanation:
        card, text = move.card, str(move)
        if not legal:
            if not 1 <= card <= self.game.cfg.cards:
                return Explanation(
                    text, False, f"there is no card {card}: the deck is 1 to {self.game.cfg.cards}", ("HC-1",)
                )
            return Explanation(text, False, f"you do not hold the {card}", _HC4)
        if not self.trick:
            return Explanation(text, True, f"you lead the {card}; any card may lead", _HC4)
        top = max(c for _, c in self.trick)
        if card > top:
            return Explanation(text, True, f"the {card} beats the {top} on the table", _HC5)
        return Explanation(text, True, f"the {card} does not beat the {top}, but any card may be played", _HC5)

    def _observation(self, player: int) -> HighCardObservation:
        return self._observe(player)

    def view(self) -> HighCardObservation:
        return self._observe(None)

    def public_observation(self) -> HighCardObservation:
        return self._observe(NO_PLAYER)  # nobody's seat: no hand at all

    def _observe(self, player: int | None) -> HighCardObservation:
        to_move = self.current_player
        omniscient = player is None
        return HighCardObservation(
            game=self.game.name,
            player=player,
            current_player=to_move,
            is_over=self.over,
            legal_moves=tuple(self.legal_moves()) if omniscient or player == to_move else (),
            log=tuple(self.events),
            config=self.game.cfg,
            hand=None if player is None or player == NO_PLAYER else tuple(self.hands[player]),
            hand_counts=tuple(len(hand) for hand in self.hands),
            trick=tuple(self.trick),
            last_trick=self.last_trick,
            plays=tuple(self.plays),
            tricks=tuple(self.tricks),
            winners=self.winners(),
            hands=tuple(tuple(hand) for hand in self.hands) if omniscient else None,
        )


@dataclass(frozen=True)
class HighCardObservation:
    """What a seat knows: its own hand and everything played. ``view()`` fills ``hands``."""

    game: str
    player: int | None
    current_player: int
    is_over: bool
    legal_moves: tuple[Play, ...]
    log: tuple[Event, ...]
    config: HighCardConfig
    hand: tuple[int, ...] | None  # the viewer's hand (None in view())
    hand_counts: tuple[int, ...]
    trick: tuple[tuple[int, int], ...]  # (seat, card) on the table now
    last_trick: tuple[tuple[int, int], ...]  # the last complete trick
    plays: tuple[tuple[int, int], ...]  # every card played so far, in order
    tricks: tuple[int, ...]  # tricks won per seat
    winners: tuple[int, ...]  # set once the game is over (HC-6)
    hands: tuple[tuple[int, ...], ...] | None = None  # view() only
