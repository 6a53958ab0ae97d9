"""Sprint!: a co-operative race of the Tortoise against the Hare (rules/sprint.txt).

Each turn the Objective card is flipped (chance), the seat to move lifts some
Race cards (the move: ``lift 14``), the Tortoise moves by how close the lift
came (SP-4) and the next Race card moves the Hare (SP-5). The whole table wins
if the Tortoise reaches the finish first (SP-6).

The rulebook lost its pictures, so the track, the Race card faces and the
Objective numbers are stated assumptions (SP-1..SP-3) and config options.

The Race pile is never shuffled again: lifted cards go to the bottom in order,
then the Hare's card goes to the bottom too (SP-4). So the pile is a fixed
cyclic sequence and only its top offset moves::

    hare_card = pile[(top + lift) % size];  top = (top + lift + 1) % size

Sibling modules: ``sprint_skill`` (simulated lifters), ``sprint_odds`` (exact
win probabilities), ``sprint_vector`` (numpy batch simulator).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import astuple, dataclass
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
from sloth_kernel.errors import ConfigError, IllegalMoveError, InvalidMoveError
from sloth_kernel.games.sprint import MAX_OBJECTIVES as MAX_OBJECTIVES  # re-exported
from sloth_kernel.games.sprint import SPEC
from sloth_kernel.notation import NotationProblem, is_ascii_number, move_words, read_notation

# --- constants -----------------------------------------------------------------

# Race card kinds, in the order of Config.race_deck (SP-2). Indices are used everywhere.
RACE_KINDS: tuple[str, ...] = ("move 1", "move 2", "move 3", "move 4", "join", "rest", "copy", "carrot")
MOVE_1, MOVE_2, MOVE_3, MOVE_4, JOIN, REST, COPY, CARROT = range(8)
DEFAULT_RACE_DECK: tuple[int, ...] = (6, 6, 4, 2, 4, 3, 4, 3)  # SP-2 (assumed), 32 cards
DEFAULT_OBJECTIVES: tuple[int, ...] = tuple(range(5, 23))  # SP-3 (assumed), 18 cards
TILE_SQUARES = 6  # SP-1 (assumed): squares per board tile
CARROT_ON_TILE = 4  # SP-1 (assumed): the carrot is each tile's 4th square
LONG_TILES, SMALL_TILES = 6, 4  # SP-1: red (long) and blue (small) sides
PERFECT_MOVE = 4  # SP-4: an exact lift moves the Tortoise 4
# The option limits are declared once, in the spec (sloth_kernel/games/sprint/__init__.py), and read from it.
MAX_RACE_CARDS = int(SPEC.option_ranges["race_deck"][1])  # the largest race deck, and the most of one kind
DEFAULT_HAND_NOISE = 1.0  # SP-7: a person's cut lands within about one card of its aim
MAX_HAND_NOISE = SPEC.option_ranges["hand_noise"][1]
_SP3, _SP4, _SP5, _SP6 = ("SP-3",), ("SP-4",), ("SP-5",), ("SP-6",)
HARE_CARD = "hare-card"
"""``Event.kind`` of the Hare card's line (SP-4, SP-5): a board shows a lift first, with the Hare card face
down, and the Hare card as a step of its own (``TurnReport.hare_from`` is where the Hare stood meanwhile)."""

RULES: dict[str, str] = {
    "SP-1": "An assumed layout, since the rulebook's pictures are missing: the long track is 6 tiles of 6 squares"
    " (finish on 36), the small one 4 tiles (finish on 24). Both start on 0, and each tile's 4th square "
    "holds a carrot (4, 10, 16 and so on).",
    "SP-2": "An assumed Race deck of 32 cards: six each of move 1 and move 2, four of move 3, two of move 4, four"
    " of join the Tortoise, three of rest, four of copy the Tortoise and three of nearest carrot.",
    "SP-3": "An assumed Objective deck: one card for each number from 5 to 22. One is turned up each turn, and "
    "once none are left they are all shuffled into a fresh deck.",
    "SP-4": "Lift between 1 and 31 cards by eye, without counting. Hitting the Objective exactly moves the "
    "Tortoise 4; 1, 2 or 3 short moves it 3, 2 or 1; four or more short, or any over, leaves it put "
    "(Young Tortoise: 1, 2 or 3 over moves it 3, 2 or 1). The lifted cards go under the pile in order, "
    "and the card then on top is the Hare's; it goes under too.",
    "SP-5": "The Hare's card moves it 1 to 4 squares ahead; join puts it on the Tortoise's square, ahead or "
    "behind; rest leaves it put; copy moves it as far as the Tortoise went this turn (0 if it stayed); "
    "carrot takes it to the closest carrot square, ahead on a tie, or keeps it where it is if already on "
    "one.",
    "SP-6": "The Tortoise moves before the Hare: reaching or passing the finish wins for the whole table at once,"
    " and the Hare stays put. If the Hare gets there first, everyone loses.",
    "SP-7": "You may not count the cards: a person cuts the pile by pointing at a picture of it, and the cut "
    "lands within about a card of the aim (the hand noise option). A bot lifts with an error of its own, "
    "such as a relative Gaussian spread and an aim offset; a lift typed as a number of cards is exact.",
    "Objective": "Co-operative: everyone wins together if the Tortoise finishes before the Hare.",
    "Turn": "Players take turns clockwise: flip an Objective card, lift, move the Tortoise, then the Hare.",
    "Small Track": "Variant: use the 4 blue tiles for a shorter game (finish at 24, SP-1).",
    "Young Tortoise": "Variant: lifting a little too many still moves the Tortoise (see SP-4).",
}

SCORING = Event(RULES["SP-4"], rules=_SP4)
"""The scoring of a lift in the engine's words, citing its rule: what a board shows beside the Objective."""
TORTOISE_WON = Event("The Tortoise reached the finish first: everyone wins! (SP-6)", rules=_SP6)
HARE_WON = Event("The Hare reached the finish first: everyone loses (SP-6).", rules=_SP6)
"""How the race ended, as a table says it at the end."""

# --- config ------------------------------------------------------------------------


@dataclass(frozen=True)
class SprintConfig(GameConfig):
    """Options. SP-1..SP-3 stand in for the lost pictures and are marked as assumptions.

    ``race_deck`` counts the cards of each kind in RACE_KINDS order (SP-2).
    ``track_length`` None means 36, or 24 with ``small_track`` (SP-1); ``carrots``
    None means the 4th square of every 6-square tile before the finish.
    ``hand_noise`` is how far, in cards, a person's cut point may land from where it was
    aimed (SP-7; 0 to 4, 0 makes cuts exact): see :meth:`SprintState.lift_from_cut`.
    """

    players: int = 2
    small_track: bool = False
    young_tortoise: bool = False
    track_length: int | None = None
    carrots: tuple[int, ...] | None = None
    race_deck: tuple[int, ...] = DEFAULT_RACE_DECK
    objectives: tuple[int, ...] = DEFAULT_OBJECTIVES
    hand_noise: float = DEFAULT_HAND_NOISE

    @property
    def finish(self) -> int:
        if self.track_length is not None:
            return self.track_length
        return (SMALL_TILES if self.small_track else LONG_TILES) * TILE_SQUARES

    @property
    def carrot_squares(self) -> tuple[int, ...]:
        if self.carrots is not None:
            return self.carrots
        return tuple(range(CARROT_ON_TILE, self.finish, TILE_SQUARES))

    @property
    def pile_size(self) -> int:
        return sum(self.race_deck)

    @property
    def max_lift(self) -> int:
        """One card must stay on the table for the Hare (SP-4): 31 of 32."""
        return self.pile_size - 1

    def assumptions(self) -> tuple[str, ...]:
        """Plain words for what stands in for the lost pictures (SP-1..SP-3)."""
        deck = ", ".join(f"{kind} x{n}" for kind, n in zip(RACE_KINDS, self.race_deck, strict=False) if n)
        nums = sorted(self.objectives)
        span = f"{nums[0]}-{nums[-1]}" if nums == list(range(nums[0], nums[-1] + 1)) else ", ".join(map(str, nums))
        track = "small" if self.small_track else "long"
        return (
            f"SP-1 track ({track}): finish at square {self.finish}, carrots on "
            f"{', '.join(map(str, self.carrot_squares)) or 'no squares'}",
            f"SP-2 race deck ({self.pile_size} cards): {deck}",
            f"SP-3 objectives ({len(nums)} cards): {span}",
        )


# --- moves -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Lift(Move):
    """Lift `count` Race cards off the pile (SP-4). Notation: ``lift 14``."""

    count: int

    def __eq__(self, other: object) -> bool:
        # strict: Lift(3.0) or Lift(True) built by hand is no move of the game
        if type(other) is not Lift:
            return NotImplemented
        mine, theirs = self.count, other.count
        return mine == theirs and mine.__class__ is theirs.__class__

    def __str__(self) -> str:
        return f"lift {self.count}"


WRITE_A_LIFT = "write 'lift 14' (or just '14') to lift 14 Race cards"
_LIFTS: tuple[Lift, ...] = tuple(Lift(n) for n in range(0, 257))  # interned, for speed


def lift_move(count: int) -> Lift:
    return _LIFTS[count] if 0 <= count < len(_LIFTS) else Lift(count)


# --- rule helpers (shared with sprint_odds and sprint_vector) ---------------------------


def tortoise_move(objective: int, lift: int, young_tortoise: bool = False) -> int:
    """SP-4: squares the Tortoise moves for lifting `lift` cards on `objective`."""
    short = objective - lift
    if short >= 0:
        return max(0, PERFECT_MOVE - short)
    return max(0, PERFECT_MOVE + short) if young_tortoise else 0


def nearest_carrots(finish: int, carrots: Sequence[int]) -> tuple[int, ...]:
    """For every square before the finish, where a carrot card sends the Hare (SP-5)."""
    if not carrots:
        return tuple(range(finish))
    return tuple(
        square if square in carrots else min(carrots, key=lambda c: (abs(c - square), c < square))
        for square in range(finish)
    )


def hare_destination(card: int, hare: int, tortoise: int, moved: int, carrot_of: Sequence[int]) -> int:
    """SP-5: the Hare's square after `card`; `tortoise` is where the Tortoise now is."""
    if card <= MOVE_4:
        return hare + card + 1
    if card == JOIN:
        return tortoise
    if card == COPY:
        return hare + moved
    if card == CARROT:
        return carrot_of[hare]
    return hare  # REST


def race_pile(config: SprintConfig, seed: int) -> tuple[int, ...]:
    """The shuffled Race pile, top first (card kind indices)."""
    cards = [kind for kind, n in enumerate(config.race_deck) for _ in range(n)]
    seeded_rng(seed, "race").shuffle(cards)
    return tuple(cards)


def objective_deck(config: SprintConfig, seed: int, shuffle: int) -> tuple[int, ...]:
    """The Objective deck after its `shuffle`-th shuffle (0 = setup), top first (SP-3)."""
    cards = list(config.objectives)
    seeded_rng(seed, "objectives", shuffle).shuffle(cards)
    return tuple(cards)


def lift_at(cut: float, pile_size: int, slip: float = 0.0) -> int:
    """SP-7: the cards above a cut point, `cut` the share of the pile above it (0 the top, 1 the bottom).

    The cut lands `slip` cards below its aim (above it when negative) and is read to the nearest
    card, halves down the pile; the count is then held to a legal lift, 1 to ``pile_size - 1``
    (SP-4). With no slip it is the aimed count: ``lift_at(0.5, 32) == 16``.
    """
    return min(max(math.floor(cut * pile_size + slip + 0.5), 1), pile_size - 1)


def short_words(objective: int, lift: int) -> str:
    gap = lift - objective
    if gap == 0:
        return "exactly right"
    return f"{abs(gap)} {'short' if gap < 0 else 'over'}"


# --- the game ----------------------------------------------------------------------


class Sprint(Game[SprintConfig, "SprintState"]):
    """Sprint! on the shared protocol.

    ``from_deal(deal)`` takes a JSON-able deal::

        {"race_pile": ["join", "move 2", ...],   # all Race cards, top first (SP-2 composition)
         "objectives": [15, 7, ...],             # the first Objective deck, top first (SP-3)
         "tortoise": 0, "hare": 0}               # optional start squares (puzzles, tests)

    Later Objective reshuffles still come from `seed`.
    """

    name = "sprint"
    title = "Sprint!"
    config_class = SprintConfig
    rules = RULES
    seat_secrets = False  # no hands: every seat sees the same table (only the piles' orders are hidden)

    def __init__(self, config: SprintConfig) -> None:
        super().__init__(config)
        self.cfg = cfg = config
        self.finish = cfg.finish
        self.carrot_of = nearest_carrots(cfg.finish, cfg.carrot_squares)
        self.seat_names = tuple(seat_name(s) for s in range(cfg.players))
        self.legal = (
            list(_LIFTS[1 : cfg.max_lift + 1])
            if cfg.max_lift < len(_LIFTS)
            else [Lift(n) for n in range(1, cfg.max_lift + 1)]
        )
        self._by_text = {str(m): m for m in self.legal}
        """The legal lifts by their canonical text: parse_move's shortcut for records and replays."""

    @property
    def num_players(self) -> int:
        return self.cfg.players

    @classmethod
    def hypothetical_worlds(cls, observation: Any) -> Callable[[random.Random], SprintState]:
        """Positions consistent with one seat's observation, for live questions only.

        Sprint! has no world sampler for search: here the hidden orders (the Race pile, the
        unflipped Objectives) are simply shuffled at random, and a live answer keeps only what every
        such world agrees on, so a Hare's card nobody has seen is never told.
        """
        if not isinstance(observation, SprintObservation) or observation.player is None:
            raise ConfigError("live questions are asked from one seat's observation of Sprint!")
        obs = observation
        game = cls.shared(**obs.config.to_dict())
        cfg = game.cfg
        flipped = list(obs.objectives_flipped)
        unflipped = list(cfg.objectives)
        for card in flipped:
            unflipped.remove(card)

        def sample(rng: random.Random) -> SprintState:
            rest = unflipped.copy()
            rng.shuffle(rest)
            pile = race_pile(cfg, rng.getrandbits(32))
            world = SprintState(game, rng.getrandbits(32), None, pile, (*flipped, *rest), obs.tortoise, obs.hare)
            world.events = list(obs.log)
            world.drawn, world.objective = len(flipped), obs.objective or 0
            world.turn, world.winner = obs.turn, obs.winner
            world._last = astuple(obs.last) if obs.last is not None else None
            return world

        return sample

    def _new_state(self, seed: int) -> SprintState:
        return SprintState(self, seed, None, race_pile(self.cfg, seed), objective_deck(self.cfg, seed, 0), 0, 0)

    def _from_deal(self, deal: Mapping[str, Any], seed: int) -> SprintState:
        cfg = self.cfg
        try:
            pile = tuple(RACE_KINDS.index(str(card).lower()) for card in deal["race_pile"])
        except ValueError as err:
            raise ConfigError(f"race_pile cards must be among {', '.join(RACE_KINDS)}") from err
        if sorted(pile) != sorted(k for k, n in enumerate(cfg.race_deck) for _ in range(n)):
            raise ConfigError("race_pile must hold exactly the Race cards of race_deck (SP-2)")
        objectives = tuple(deal["objectives"])
        if not all(type(n) is int for n in objectives) or sorted(objectives) != sorted(cfg.objectives):
            raise ConfigError("objectives must be the Objective cards in some order (SP-3)")
        tortoise, hare = deal.get("tortoise", 0), deal.get("hare", 0)
        for name, square in (("tortoise", tortoise), ("hare", hare)):
            if type(square) is not int or not 0 <= square < cfg.finish:
                raise ConfigError(f"{name} must start on a square from 0 to {cfg.finish - 1}, not {square!r}")
        clean = {"race_pile": [RACE_KINDS[k] for k in pile], "objectives": list(objectives)}
        if tortoise or hare:
            clean.update(tortoise=tortoise, hare=hare)
        return SprintState(self, seed, clean, pile, objectives, tortoise, hare)

    def all_moves(self) -> list[Move]:
        """Every move this game can offer, in a fixed order (the interop action index)."""
        return list(self.legal)

    def parse_move(self, text: str) -> Lift:
        """Table notation: ``lift 14``, or ``14`` (any case and spacing).

        ASCII only, at most ``MAX_MOVE_TEXT`` characters (see :mod:`sloth_kernel.notation`);
        anything else is an InvalidMoveError. A lift of too many cards reads as a move, which
        ``explain`` calls illegal (SP-4).
        """
        return read_notation(text, self._by_text, self._read_move, game=self.name)

    def _read_move(self, text: object) -> Lift:
        words = move_words(text, example=WRITE_A_LIFT)
        if len(words) == 2 and words[0].lower() == "lift":
            number = words[1]
        elif len(words) == 1 and words[0].lower() != "lift":
            number = words[0]
        else:
            raise NotationProblem("a lift is the word 'lift' and a number of cards", WRITE_A_LIFT)
        if not number.isdigit():
            raise NotationProblem(f"{number!r} is not a number of cards written with the digits 0-9", WRITE_A_LIFT)
        most = self.cfg.max_lift
        if not is_ascii_number(number):
            raise NotationProblem(f"a number of {len(number)} digits: the Race pile has {most + 1} cards", WRITE_A_LIFT)
        return lift_move(int(number))


# --- the state -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TurnReport:
    """What happened on one turn; all public."""

    seat: int
    objective: int
    lift: int
    tortoise_from: int
    tortoise_move: int
    hare_card: str | None  # None when the Tortoise finished first (SP-6)
    hare_from: int
    hare_to: int


class SprintState(GameState[Lift, "SprintObservation"]):
    """A position: the Objective of this turn is already face up."""

    game: Sprint

    def __init__(
        self,
        game: Sprint,
        seed: int,
        deal: Mapping[str, Any] | None,
        pile: tuple[int, ...],
        objectives: tuple[int, ...],
        tortoise: int,
        hare: int,
    ) -> None:
        self.game = game
        self.seed = seed
        self.deal = deal
        self.history: list[Lift] = []
        self.events: list[Event] = []
        self.pile = pile  # fixed cyclic order (SP-4)
        self.top = 0
        self.deck = objectives  # current Objective deck, top first
        self.drawn = 0  # cards of `deck` flipped so far
        self.shuffles = 0
        self.tortoise = tortoise
        self.hare = hare
        self.turn = 0
        self.winner: str | None = None
        self._last: tuple[Any, ...] | None = None  # TurnReport fields, built on demand
        self.objective = 0
        self._flip()

    @property
    def last(self) -> TurnReport | None:
        """What happened on the last turn (None before the first lift)."""
        return TurnReport(*self._last) if self._last else None

    # -- protocol --

    @property
    def current_player(self) -> int:
        return NO_PLAYER if self.winner else self.turn % self.game.cfg.players

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def legal_moves(self) -> list[Lift]:
        return [] if self.winner else list(self.game.legal)

    def lift_from_cut(self, cut: float) -> Lift:
        """SP-7: the move a person's cut point makes, hand noise included; play it with ``play``.

        `cut` is where the person cut the picture of the Race pile, as the share of the pile
        above the cut: 0 the top, 1 the bottom (an int or a float). The aim is ``cut`` times the
        pile's size; the hand lands within ``hand_noise`` cards of it (drawn evenly from
        -hand_noise to +hand_noise, one draw per turn from the game's seed: the same game, turn
        and cut give the same lift, and another cut on the same turn slips by the same amount).
        The count is read to the nearest card and held to the legal lifts, 1 to the pile's
        size - 1 (:func:`lift_at`). With ``hand_noise=0`` the lift is the aimed count.

        The notation ``lift N`` is always exact, and simulated players use their own error
        model: only a cut point passes through the hand. The state is not changed.

        Raises InvalidMoveError for anything but a number from 0 to 1 (NaN, infinities, bools,
        text...) and IllegalMoveError once the game is over.
        """
        if isinstance(cut, bool) or not isinstance(cut, (int, float)) or not 0 <= cut <= 1:
            raise InvalidMoveError(
                cut,
                "a cut point is a number from 0, the top of the Race pile, to 1, its bottom (SP-7)",
                game=self.game.name,
            )
        if self.winner:
            raise IllegalMoveError(
                "a cut", Explanation("a cut", False, "the game is over; no more moves"), position=self.describe()
            )
        noise = self.game.cfg.hand_noise
        slip = seeded_rng(self.seed, "hand", self.turn).uniform(-noise, noise) if noise else 0.0
        return lift_move(lift_at(float(cut), len(self.pile), slip))

    def returns(self) -> tuple[float, ...]:
        won = 1.0 if self.winner == "tortoise" else 0.0
        return (won,) * self.game.cfg.players

    def clone(self) -> SprintState:
        other = object.__new__(SprintState)
        other.__dict__.update(self.__dict__)
        other.history = list(self.history)
        other.events = list(self.events)
        return other

    def _flip(self) -> None:
        """Flip the next Objective card; reshuffle all of them when the deck is empty (SP-3)."""
        if self.drawn == len(self.deck):
            self.shuffles += 1
            self.deck = objective_deck(self.game.cfg, self.seed, self.shuffles)
            self.drawn = 0
            self.events.append(
                Event(
                    f"The Objective deck is empty: all {len(self.deck)} cards are shuffled into a new deck.", rules=_SP3
                )
            )
        self.objective = self.deck[self.drawn]
        self.drawn += 1
        seat = self.turn % self.game.cfg.players
        self.events.append(Event(f"{self.game.seat_names[seat]} flips Objective {self.objective}.", seat, rules=_SP3))

    def _apply(self, move: Lift) -> None:
        game, lift, objective = self.game, move.count, self.objective
        seat = self.turn % game.cfg.players
        moved = tortoise_move(objective, lift, game.cfg.young_tortoise)
        start = self.tortoise
        self.tortoise = tortoise = start + moved
        finish = game.finish
        text = f"{game.seat_names[seat]} lifts {lift} for Objective {objective} ({short_words(objective, lift)}): "
        if moved:
            text += (
                f"the Tortoise moves {moved} to square {tortoise}."
                if tortoise < finish
                else f"the Tortoise moves {moved} to the finish."
            )
        else:
            text += "the Tortoise stays."
        self.events.append(Event(text, seat, str(move), _SP4))
        hare = self.hare
        if tortoise >= finish:  # SP-6: before the Hare moves
            self.winner = "tortoise"
            self._last = (seat, objective, lift, start, moved, None, hare, hare)
            self.events.append(Event("The Tortoise reaches the finish first: everyone wins!", rules=_SP6))
            return
        spot = self.top + lift  # SP-4: lifted cards go under; the next card is the Hare's
        size = len(self.pile)
        if spot >= size:
            spot -= size
        card = self.pile[spot]
        self.top = spot + 1 if spot + 1 < size else 0
        self.hare = to = hare_destination(card, hare, tortoise, moved, game.carrot_of)
        self._last = (seat, objective, lift, start, moved, RACE_KINDS[card], hare, to)
        self.events.append(Event(_hare_words(card, hare, to, finish), rules=_SP5, kind=HARE_CARD))
        if to >= finish:
            self.winner = "hare"
            self.events.append(Event("The Hare reaches the finish first: everyone loses.", rules=_SP6))
            return
        self.turn += 1
        self._flip()

    def _turn_of(self, seat: int) -> SprintState:
        """For "if it were their turn": this position with `seat` lifting (every seat may lift the same counts)."""
        twin = self.clone()
        twin.turn = self.turn + (seat - self.current_player) % self.game.cfg.players
        return twin

    def _judge(self, move: Lift, legal: bool) -> Explanation:
        cfg, lift, objective = self.game.cfg, move.count, self.objective
        if not legal:
            if lift < 1:
                return Explanation(str(move), False, "you must lift at least 1 Race card", ("SP-4",))
            return Explanation(
                str(move),
                False,
                f"the Race pile has {cfg.pile_size} cards and one must stay for the Hare: lift 1 to {cfg.max_lift}",
                ("SP-4",),
            )
        moved = tortoise_move(objective, lift, cfg.young_tortoise)
        gap = short_words(objective, lift)
        rules = ("SP-4",)
        if cfg.young_tortoise and lift > objective:
            gap += " (the Young Tortoise variant of SP-4)"
        if moved and self.tortoise + moved >= self.game.finish:
            why = f"on Objective {objective}, {lift} is {gap}: the Tortoise would move {moved} and finish first"
            return Explanation(str(move), True, why, rules + ("SP-6",))
        if moved:
            why = f"on Objective {objective}, {lift} is {gap}: the Tortoise would move {moved}, then the Hare's card"
        elif lift > objective:
            why = f"on Objective {objective}, {lift} is {gap}" + (
                ": four or more over, so the Tortoise would not move"
                if cfg.young_tortoise
                else ": any lift over the Objective leaves the Tortoise where it is"
            )
        else:
            why = f"on Objective {objective}, {lift} is {gap}: four or more short, so the Tortoise would not move"
        return Explanation(str(move), True, why, rules)

    def _observation(self, player: int) -> SprintObservation:
        return self._observe(player, omniscient=False)

    def view(self) -> SprintObservation:
        return self._observe(None, omniscient=True)

    def public_observation(self) -> SprintObservation:
        return self._observe(NO_PLAYER, omniscient=False)  # no seat: every hidden part empty

    def _observe(self, player: int | None, omniscient: bool) -> SprintObservation:
        cfg = self.game.cfg
        to_move = self.current_player
        legal = tuple(self.legal_moves()) if omniscient or player == to_move else ()
        size = len(self.pile)
        return SprintObservation(
            game=self.game.name,
            player=player,
            current_player=to_move,
            is_over=self.is_over,
            legal_moves=legal,
            log=tuple(self.events),
            config=cfg,
            finish=self.game.finish,
            carrots=cfg.carrot_squares,
            tortoise=self.tortoise,
            hare=self.hare,
            turn=self.turn,
            objective=None if self.winner else self.objective,
            objectives_flipped=self.deck[: self.drawn],
            objectives_left=len(self.deck) - self.drawn,
            pile_size=size,
            last=self.last,
            winner=self.winner,
            race_pile=tuple(RACE_KINDS[self.pile[(self.top + i) % size]] for i in range(size)) if omniscient else None,
            objective_deck=self.deck[self.drawn :] if omniscient else None,
        )

    def describe(self) -> str:
        return (
            f"Sprint!, turn {self.turn + 1}, Tortoise {self.tortoise}, Hare {self.hare}, "
            f"Objective {self.objective}, "
            + ("the game is over" if self.winner else f"{self.game.seat_names[self.current_player]} to move")
        )


def _hare_words(card: int, start: int, end: int, finish: int) -> str:
    kind = RACE_KINDS[card]
    where = f"square {end}" if end < finish else "the finish"
    if card <= MOVE_4:
        return f"Race card '{kind}': the Hare runs {card + 1} to {where}."
    if card == REST:
        return f"Race card 'rest': the Hare rests on square {start}."
    if card == CARROT and start == end:
        return f"Race card 'carrot': the Hare is already on a carrot (square {start}) and stays."
    if card == COPY and start == end:
        return f"Race card 'copy': the Tortoise did not move, so the Hare stays on square {start}."
    if card == JOIN and start == end:
        return f"Race card 'join': the Hare is already with the Tortoise on square {start}."
    if start == end:
        return f"Race card '{kind}': the Hare stays on square {start}."
    way = "forward" if end > start else "back"
    what = {JOIN: "joins the Tortoise", COPY: "copies the Tortoise", CARROT: "goes to the nearest carrot"}[card]
    return f"Race card '{kind}': the Hare {what}, {way} to {where}."


# --- the observation ---------------------------------------------------------------


@dataclass(frozen=True)
class SprintObservation:
    """What a seat knows. The Race pile order and the Objective deck order are hidden;
    the omniscient ``view()`` fills ``race_pile`` and ``objective_deck``."""

    game: str
    player: int | None
    current_player: int
    is_over: bool
    legal_moves: tuple[Lift, ...]
    log: tuple[Event, ...]
    config: SprintConfig
    finish: int
    carrots: tuple[int, ...]
    tortoise: int
    hare: int
    turn: int
    objective: int | None  # the face-up Objective card of this turn
    objectives_flipped: tuple[int, ...]  # face-up since the last shuffle, current last
    objectives_left: int
    pile_size: int
    last: TurnReport | None
    winner: str | None  # "tortoise", "hare" or None
    race_pile: tuple[str, ...] | None = None  # view() only: top first
    objective_deck: tuple[int, ...] | None = None  # view() only: next first
