"""Race to the Bottom: a climbing race from private decks (rules/race-to-the-bottom.txt, RB-1..RB-13).

Hands are count vectors (index 0-12 for ranks 2..A, 13 for Jokers); each
player's deck is a list of ranks, top first, never reshuffled after the deal
(RB-1). Melds are interned :class:`Play` moves from precomputed tables
(``race_to_the_bottom_melds``).

Notation: a meld lists its cards, a Joker as ``*`` plus its declared rank:
``Q K A``, ``7 7 *7``, ``*A *A``. A pass is a short series of small moves:
``pass``, then up to six ``pitch 7`` / ``pitch *`` (each to the bottom of your
own deck, in the order pitched), then ``done`` (refill to 12). ``parse_move``
reads any card order and case (``*7 7 7`` is ``7 7 *7``); ``str`` is canonical.

Move counts: over 3,000 random races (1,000 each for 2, 3 and 4 players, 1.44
million decisions) the largest ``legal_moves()`` list was 416: a lead from a
run-rich hand holding both Jokers. Most lists are far shorter (a reply is
``pass`` plus a few matches). Every meld is one of 1,073 interned moves, so no
list can ever exceed 1,074.

Engine notes: when a player sheds out mid-trick in a Grand Prix while others
are still in, their meld stays on the table and the trick goes on, as if they
had passed (RB-12). A leader whose hand is empty (deck not yet empty) passes,
pitches nothing, refills, and the next player still in on the left leads
(RB-13). Returns: a single race pays the winner 1; a Grand Prix pays the most
points, ties sharing.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from sloth_kernel.core import (
    NO_PLAYER,
    Event,
    Explanation,
    Game,
    GameConfig,
    GameState,
    Move,
    check_seat,
    counted,
    ordinal,
    seat_name,
    seeded_rng,
)
from sloth_kernel.errors import ConfigError
from sloth_kernel.games.race_to_the_bottom.melds import (
    CARD_SYMBOLS,
    JOKER,
    MAX_MELD,
    RANK_NAMES,
    MeldTables,
    card_word,
    cards_spoken,
    cards_text,
    counts_of,
    follows,
    meld_problem,
    melds_from,
    new_deck,
    parse_card,
    play_key,
    plural,
    rank_masks,
    read_cards,
)
from sloth_kernel.notation import (
    NotationProblem,
    move_words,
    read_notation,
    same_value,
    shown,
)

# --- constants ---------------------------------------------------------------

HAND_SIZE = 12
MAX_PITCH = 6
POINTS = {2: (1, 0), 3: (2, 1, 0), 4: (4, 2, 1, 0)}  # Grand Prix points by place (RB-10)

RULES: dict[str, str] = {
    "RB-1": "Every player races through a deck of their own, 52 cards and 2 Jokers, shuffled alone and never "
    "mixed with another; 2 to 4 players. Suits play no part, only ranks.",
    "RB-2": "The melds are Single, Pair, Run of 2 to 6, Triplet, Leap of 4 or 6 and Bound of 6; two of one rank "
    "make a Pair, two neighbouring ranks make a Run. To follow, play the same meld with as many cards at an equal "
    "or higher rank. Four or more of one rank can only be played as a Cheat, which may also lead.",
    "RB-3": "Jokers are wild: when you play one, you say which rank it stands for, an Ace included.",
    "RB-4": "Sets of Aces (Single, Pair, Triplet, Cheat) may follow any set of their kind and size, and any such "
    "set may follow them.",
    "RB-5": "In a Run, Leap or Bound an Ace may sit above the King (Q-K-A) or below the 2 (A-2-3), but a sequence"
    " never wraps round (no K-A-2). A sequence holding an Ace may follow, and be followed by, any "
    "sequence of its kind and length; other sequences compare by their top rank, and a tie is enough.",
    "RB-6": "Cheats (Smokescreen: 4 of a rank, Oil Slick: 5, Caltrops: 6) beat every normal meld, and once one is"
    " down only Cheats may follow in that trick. A larger Cheat beats a smaller; one of the same size "
    "needs an equal or higher rank, Aces as in RB-4.",
    "RB-7": "Whoever leads a trick has to play unless their hand is empty. Passing takes you out of the trick for"
    " good: put 0 to 6 cards from your hand under your own deck in the order you choose, then draw back "
    "up to 12.",
    "RB-8": "Once all the others have passed, the one player left in the trick may go on playing, each meld "
    "beating their own last one, until they pass; then they pitch, draw up and lead the next trick. If "
    "that player sheds out instead, the next racer on their left leads.",
    "RB-9": "Empty your hand and your deck and you win on the spot, even in the middle of a trick. Everyone else "
    "is placed by how few cards they have left, hand and deck together.",
    "RB-10": "Grand Prix: three races, each lasting until only one player has not shed out. Places score 1/0 with "
    "2 players, 2/1/0 with 3 and 4/2/1/0 with 4; the winner of a race leads the next, and the highest "
    "total wins, ties sharing.",
    "RB-11": "All played cards, and the size of every hand and deck, are public. You also know your own hand and "
    "the order of the cards you pitched; nobody sees another player's hand, pitches or deck.",
    "RB-12": "Grand Prix: if someone sheds out mid-trick while others still race, their last meld stays on the "
    "table and the trick continues; those still in must beat it or pass, just as if its owner had passed.",
    "RB-13": "A leader with an empty hand but cards left in their deck passes without pitching, draws up, and the "
    "lead goes to the next racer on their left.",
}

# --- config ------------------------------------------------------------------


@dataclass(frozen=True)
class RaceConfig(GameConfig):
    """Options: seats, who leads the first trick, and the Grand Prix match (RB-10)."""

    players: int = 3
    leader: int = 0
    grand_prix: bool = False
    races: int = 3


# --- moves -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Play(Move):
    """Play a meld. `cards` in table order; a Joker is ``*`` + its declared rank (RB-3).

    Only `cards` takes part in equality; the rest is derived once, at import, by
    the meld tables (every possible meld is one interned Play).
    """

    cards: tuple[str, ...]
    kind: str = field(compare=False)  # Single, Pair, Triplet, Run, Leap, Bound, or a Cheat's name
    rank: int = field(compare=False)  # sets: the rank; sequences: ladder position of the top card
    ace: bool = field(compare=False)  # holds an Ace: the RB-4/RB-5 reset
    cheat: int = field(compare=False)  # 0, or the Cheat's size 4-6 (RB-6)
    sequence: bool = field(compare=False)  # Run, Leap or Bound
    need: tuple[tuple[int, int], ...] = field(compare=False)  # (rank, naturals) taken from the hand
    jokers: int = field(compare=False)
    declared: tuple[int, ...] = field(compare=False)  # the ranks the Jokers stand for
    shape: int = field(compare=False)  # index into TABLES.shapes

    def __eq__(self, other: object) -> bool:
        # Two interned melds never share their cards, so equal cards mean one Play was built by hand:
        # it is the same move only if every field is the same, of the same type (not True for 1).
        if type(other) is not Play:
            return NotImplemented
        if self is other:
            return True
        return self.cards == other.cards and all(
            same_value(getattr(self, name), getattr(other, name)) for name in PLAY_FIELDS
        )

    def __str__(self) -> str:
        try:
            return " ".join(self.cards)
        except TypeError:  # built by hand with odd cards: its repr, never a crash
            return shown(self)

    @property
    def length(self) -> int:
        return len(self.cards)

    @property
    def words(self) -> str:
        """The cards as people read them: ``10`` for a ten, ``Joker as an A`` (``str`` keeps ``T`` and ``*A``)."""
        return cards_spoken(self.cards)

    @property
    def label(self) -> str:
        """The meld type as the rules name it: 'Pair', 'Run of 3', 'Leap of 4'."""
        return f"{self.kind} of {len(self.cards)}" if self.kind in ("Run", "Leap") else self.kind

    def describe(self) -> str:
        """Plain words: 'a Pair of 7s', 'a Single Queen', 'a Run of 3 (Q K A)', 'a Run of 2 (10 J)'."""
        if self.sequence:
            return f"a {self.label} ({self.words})"
        article = "an" if self.kind == "Oil Slick" else "a"
        rank = RANK_NAMES[self.rank]
        name = f"{self.kind} {rank}" if self.kind == "Single" else f"{self.kind} of {plural(self.rank)}"
        return f"{article} {name}" + (f" ({self.words})" if self.jokers else "")


@dataclass(frozen=True, slots=True)
class Pass(Move):
    """Pass: out of this trick; next pitch and refill (RB-7)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Pitch(Move):
    """After a pass, put one card of `rank` (13 = a Joker) under your own deck (RB-7)."""

    rank: int

    def __eq__(self, other: object) -> bool:
        if type(other) is not Pitch:
            return NotImplemented
        return self.rank == other.rank and self.rank.__class__ is other.rank.__class__

    def __str__(self) -> str:
        rank = self.rank
        if type(rank) is int and 0 <= rank <= JOKER:
            return f"pitch {CARD_SYMBOLS[rank]}"
        return shown(self)  # built by hand with an odd rank: its repr, never a crash

    @property
    def words(self) -> str:
        """The move as people read it: ``pitch 10`` for a ten, ``pitch a Joker`` (``str`` keeps ``pitch T``, ``pitch *``)."""
        return "pitch a Joker" if self.rank == JOKER and type(self.rank) is int else card_word(str(self))


@dataclass(frozen=True, slots=True)
class Done(Move):
    """End the pitch and refill the hand to 12 from the top of the deck (RB-7)."""

    def __str__(self) -> str:
        return "done"


RaceMove = Play | Pass | Pitch | Done
PLAY_FIELDS = tuple(f.name for f in fields(Play))
PASS, DONE = Pass(), Done()
PITCHES = tuple(Pitch(r) for r in range(14))
TABLES = MeldTables(Play)  # all 1,073 melds, interned
EVERY_MOVE: tuple[RaceMove, ...] = (*TABLES.all_plays, PASS, *PITCHES, DONE)
BY_TEXT: dict[str, RaceMove] = {str(m): m for m in EVERY_MOVE}
"""Every move by its canonical text (``str``): parse_move's shortcut for records and replays."""
JOKER_WORDS = re.compile(r"\bjoker as an? (\w+)", re.IGNORECASE | re.ASCII)
PITCH_JOKER = re.compile(r"\bpitch an? joker\b", re.IGNORECASE | re.ASCII)
MOVE_HELP = "write a meld as 'Q K A', '7 7 *7' or '*A *A', or 'pass', 'pitch 7', 'pitch *', 'done'"
CARDS_ARE = "2-9, 10 (or T), J, Q, K, A, and * for a Joker (*7 in a meld)"
PITCH_HELP = "write 'pitch 7', 'pitch 10' (or 'pitch T') or 'pitch *' for a Joker"
JOKER_HELP = "write a Joker standing for a 7 as '*7', for an Ace as '*A'"


# --- the game ----------------------------------------------------------------


class RaceToTheBottom(Game[RaceConfig, "RaceState"]):
    """Race to the Bottom for 2-4 players, one race or a Grand Prix.

    Explicit deals, for scenarios and tests: ``game.from_deal(deal, seed)`` with
    ``deal = {"decks": [["7", "Q", ...], ...], "hands": [...], "leader": 0}``.
    `decks` (required) lists each seat's deck top first; cards are ``2``-``9``,
    ``T``, ``J``, ``Q``, ``K``, ``A`` and ``*`` (a Joker); a space-separated
    string works too. `hands` (optional) gives each seat's hand; without it each
    seat draws 12 from the top of its deck. A seat's hand and deck together must
    fit in one 54-card deck (cards not listed count as already shed). `leader`
    (optional) leads the first trick. Later Grand Prix races are dealt from `seed`.
    """

    name = "race-to-the-bottom"
    title = "Race to the Bottom"
    config_class = RaceConfig
    rules = RULES

    def __init__(self, config: RaceConfig) -> None:
        super().__init__(config)
        self.cfg = config

    @property
    def num_players(self) -> int:
        return self.cfg.players

    def _new_state(self, seed: int) -> RaceState:
        state = RaceState(self, seed, None)
        state.start_race(0, self.cfg.leader)
        return state

    def _from_deal(self, deal: Mapping[str, Any], seed: int) -> RaceState:
        n = self.cfg.players
        if not isinstance(deal, Mapping) or not isinstance(deal.get("decks"), (list, tuple)):
            raise ConfigError("a deal is an object whose 'decks' lists each seat's deck, top first")
        decks = [read_cards(d, f"deck {i + 1}") for i, d in enumerate(deal["decks"])]
        hand_lists = deal.get("hands")
        if hand_lists is not None and not isinstance(hand_lists, (list, tuple)):
            raise ConfigError("the deal's 'hands' must list each seat's hand")
        if hand_lists is None:
            hands = [counts_of(d[:HAND_SIZE]) for d in decks]
            decks = [d[HAND_SIZE:] for d in decks]
        else:
            hands = [counts_of(read_cards(h, f"hand {i + 1}")) for i, h in enumerate(hand_lists)]
        if len(decks) != n or len(hands) != n:
            raise ConfigError(f"the deal needs a deck and a hand for each of {n} players")
        full = counts_of(new_deck())
        for seat, (hand, deck) in enumerate(zip(hands, decks, strict=False)):
            owned = counts_of(deck)
            if sum(hand) > HAND_SIZE:
                raise ConfigError(f"{seat_name(seat)}'s hand holds more than {HAND_SIZE} cards (RB-7)")
            if any(hand[r] + owned[r] > full[r] for r in range(14)):
                raise ConfigError(f"{seat_name(seat)} holds more cards of a rank than one 54-card deck has (RB-1)")
            if not sum(hand) + len(deck):
                raise ConfigError(f"{seat_name(seat)} has no cards: they would already have won (RB-9)")
        leader = check_seat(deal.get("leader", self.cfg.leader), n, what="leader")
        state = RaceState(self, seed, dict(deal))
        state.start_race(0, leader, hands=hands, decks=decks)
        return state

    def all_moves(self) -> list[Move]:
        """Every move this game can offer, in a fixed order (the interop action index)."""
        return [*TABLES.all_plays, PASS, *PITCHES, DONE]

    def type_move(self, move: Move) -> str:
        """The move as people type it: ``10`` for a ten, a Joker as ``*A`` (the notation reads both)."""
        if isinstance(move, Play):
            return " ".join(card_word(card) for card in move.cards)
        return card_word(str(move)) if isinstance(move, Pitch) else str(move)

    @classmethod
    def world_sampler(
        cls, observation: Any, options: Mapping[str, Any] | None = None
    ) -> Callable[[random.Random], RaceState]:
        """Worlds consistent with one seat's observation (RB-11).

        Each deck is private and never mixed (RB-1), so a seat's hidden cards are
        its 54 minus what it has played this race (public); they are split between
        its hand and its deck by the public counts. The viewer's own hand and the
        pitched cards under its own deck stay where it knows them to be.
        """
        if not isinstance(observation, RaceObservation) or observation.player is None:
            what = (
                "the omniscient view"
                if isinstance(observation, RaceObservation)
                else f"an object of type {type(observation).__name__}"
            )
            raise ConfigError(f"sample worlds from one seat's observation of this game (RaceObservation), not {what}")
        obs = observation
        visible = {
            "players": obs.players,
            "grand_prix": obs.grand_prix,
            **({"races": obs.races} if obs.grand_prix else {}),
        }
        return _world_sampler(cls.shared(**{**visible, **(options or {})}), obs)

    def parse_move(self, text: str) -> RaceMove:
        """Table notation: a meld ``Q K A``, ``7 7 *7``, ``*A *A`` (any order and case; ``10`` for a ten),
        or ``pass``, ``pitch 7`` / ``pitch *``, ``done``.

        ASCII only, at most ``MAX_MOVE_TEXT`` characters (see :mod:`sloth_kernel.notation`);
        anything else is an InvalidMoveError. ``str(move)`` is canonical (``T`` for a ten).
        """
        return read_notation(text, BY_TEXT, self._read_move, game=self.name)

    def _read_move(self, text: object) -> RaceMove:
        if isinstance(text, str):  # the words a move is shown in read back: "A, Joker as an A", "pitch a Joker"
            text = JOKER_WORDS.sub(r"*\1", PITCH_JOKER.sub("pitch *", text)).replace(",", " ")
        words = move_words(text, example=MOVE_HELP)
        lowered = [w.lower() for w in words]
        if lowered in (["pass"], ["done"]):
            return PASS if lowered[0] == "pass" else DONE
        if lowered[0] == "pitch":
            if len(words) != 2:
                raise NotationProblem("a pitch puts one card under your deck (RB-7)", PITCH_HELP)
            card = parse_card(words[1])
            if card < 0:
                raise NotationProblem(f"{words[1]!r} is not a card: {CARDS_ARE}", PITCH_HELP)
            return PITCHES[card]
        if len(words) > MAX_MELD:
            raise NotationProblem(f"a meld is at most {MAX_MELD} cards, not {len(words)} (RB-2)", MOVE_HELP)
        naturals: list[int] = []
        declared: list[int] = []
        for word in words:
            joker = word.startswith("*")
            rank = parse_card(word[1:] if joker else word)
            if joker and (rank < 0 or rank == JOKER):
                raise NotationProblem(f"{word!r} is a Joker without the rank it stands for (RB-3)", JOKER_HELP)
            if rank < 0 or rank == JOKER:
                raise NotationProblem(f"{word!r} is not a card: {CARDS_ARE}", MOVE_HELP)
            (declared if joker else naturals).append(rank)
        play = TABLES.by_key.get(play_key(naturals, declared))
        if play is None:
            raise NotationProblem(meld_problem(naturals, declared), MOVE_HELP)
        return play


# --- the state -----------------------------------------------------------------


def race_summary(order: tuple[int, ...], finished: list[int], places: list[int], left: tuple[int, ...]) -> str:
    """The end of a race in words, naming every player in order: finishers by the order they shed
    out, then the rest by fewest cards left (RB-9), e.g. "Race over: Player 2 wins, Player 4 is
    second; then by fewest cards left: Player 1 third (3 cards left), Player 3 fourth (9 cards left)."
    """
    out = [f"{seat_name(s)} {'wins' if index == 0 else f'is {ordinal(places[s])}'}" for index, s in enumerate(finished)]
    if not out:  # never: a race ends when someone sheds out; kept so the words never fail
        out = [f"{seat_name(order[0])} wins"]
    shared = {place for place in places if places.count(place) > 1}
    rest = [
        f"{seat_name(s)} {'equal ' if places[s] in shared else ''}{ordinal(places[s])} ({counted(left[s], 'card')} left)"
        for s in order[len(out) :]
    ]
    return f"Race over: {', '.join(out)}" + (f"; then by fewest cards left: {', '.join(rest)}." if rest else ".")


@dataclass(frozen=True)
class RaceResult:
    """One finished race (RB-9, RB-10): finishing order, and per seat the cards left,
    the place (1 = winner; equal cards left share a place) and the points scored."""

    race: int
    order: tuple[int, ...]
    left: tuple[int, ...]
    places: tuple[int, ...]
    points: tuple[int, ...]


class RaceState(GameState[RaceMove, "RaceObservation"]):
    """A position: private hands and decks, the trick, and the race standings."""

    game: RaceToTheBottom

    def __init__(self, game: RaceToTheBottom, seed: int, deal: Mapping[str, Any] | None) -> None:
        n = game.cfg.players
        self.game = game
        self.seed = seed
        self.deal = deal
        self.history: list[RaceMove] = []
        self.events: list[Event] = []
        self.n = n
        self.race = 0
        self.hands: list[list[int]] = []
        self.nhand: list[int] = []  # cards in each hand
        self.decks: list[list[int]] = []  # top first
        self.known: list[int] = []  # own pitched cards still at the bottom of each deck
        self.played: list[list[int]] = []  # cards each seat has played this race, by rank
        self.dealt: list[tuple[int, ...]] = []  # each seat's cards at the start of the race
        self.out: list[bool] = []
        self.order: list[int] = []  # seats that have shed out this race, in order
        self.passed: list[bool] = []
        self.top: Play | None = None  # the meld to beat; None: an open trick
        self.top_seat = NO_PLAYER
        self.trick: list[tuple[int, Play]] = []
        self.leader = NO_PLAYER
        self.turn = NO_PLAYER
        self.pitching = False
        self.pitched = 0  # cards pitched in the current pass
        self.alone = False  # the last player in has been announced (RB-8)
        self.points = [0] * n
        self.results: list[RaceResult] = []
        self.over = False

    # -- protocol --

    @property
    def current_player(self) -> int:
        return NO_PLAYER if self.over else self.turn

    @property
    def is_over(self) -> bool:
        return self.over

    def legal_moves(self) -> list[RaceMove]:
        if self.over:
            return []
        hand = self.hands[self.turn]
        if self.pitching:
            if self.pitched >= MAX_PITCH:
                return [DONE]
            moves: list[RaceMove] = [PITCHES[r] for r in range(14) if hand[r]]
            moves.append(DONE)
            return moves
        if not self.nhand[self.turn]:
            return [PASS]
        top, moves, masks = self.top, [], rank_masks(hand)
        if top is None:
            melds_from(hand, masks, TABLES.all_group, moves)
            return moves
        moves.append(PASS)
        normal, cheats = TABLES.followers[top.shape]
        melds_from(hand, masks, normal, moves)
        if masks[4 - hand[JOKER]]:  # some rank reaches four with the Jokers
            melds_from(hand, masks, cheats, moves)
        return moves

    def returns(self) -> tuple[float, ...]:
        if not self.over:
            return (0.0,) * self.n
        best = max(self.points)
        winners = [s for s in range(self.n) if self.points[s] == best]
        return tuple(1.0 / len(winners) if s in winners else 0.0 for s in range(self.n))

    def clone(self) -> RaceState:
        twin = object.__new__(RaceState)
        twin.__dict__.update(self.__dict__)
        twin.history = self.history.copy()
        twin.events = self.events.copy()
        twin.hands = [h.copy() for h in self.hands]
        twin.decks = [d.copy() for d in self.decks]
        twin.played = [p.copy() for p in self.played]
        for name in ("nhand", "known", "out", "order", "passed", "trick", "points", "results"):
            setattr(twin, name, getattr(self, name).copy())
        return twin

    def remaining(self, seat: int) -> int:
        """Cards left to shed: hand + deck (the number the race is about). ConfigError if `seat` is no seat."""
        seat = check_seat(seat, self.n)
        return self.nhand[seat] + len(self.decks[seat])

    def _left(self, seat: int) -> int:
        """``remaining`` for the engine's own, known seats (no check: the play path)."""
        return self.nhand[seat] + len(self.decks[seat])

    # -- races and tricks --

    def start_race(
        self, number: int, leader: int, *, hands: list[list[int]] | None = None, decks: list[list[int]] | None = None
    ) -> None:
        """Deal race `number` from the seed (or the given cards) and let `leader` lead (RB-1)."""
        n = self.n
        if decks is None or hands is None:
            rng = seeded_rng(self.seed, "deal", number)
            decks = []
            for _ in range(n):
                deck = new_deck()
                rng.shuffle(deck)
                decks.append(deck)
            hands = [counts_of(d[:HAND_SIZE]) for d in decks]
            decks = [d[HAND_SIZE:] for d in decks]
        self.race = number
        self.hands, self.decks = hands, decks
        self.nhand = [sum(h) for h in hands]
        self.known = [0] * n
        self.played = [[0] * 14 for _ in range(n)]
        self.dealt = [
            tuple(a + b for a, b in zip(h, counts_of(d), strict=False)) for h, d in zip(hands, decks, strict=False)
        ]
        self.out, self.order = [False] * n, []
        gp = self.game.cfg.grand_prix
        title = f"Race {number + 1} of {self.game.cfg.races}" if gp else "The race"
        self._say(
            f"{title} starts: each player holds {HAND_SIZE} cards from their own 54-card deck; "
            f"{seat_name(leader)} leads.",
            rules=("RB-1", "RB-10") if number else ("RB-1",),
        )
        self._new_trick(leader)

    def _new_trick(self, leader: int) -> None:
        self.passed = [False] * self.n
        self.top, self.top_seat, self.trick = None, NO_PLAYER, []
        self.leader = self.turn = leader
        self.pitching, self.alone = False, False

    def _next_in(self, seat: int) -> int:
        """The next seat on `seat`'s left still in this trick (`seat` itself last); NO_PLAYER if none."""
        n, out, passed = self.n, self.out, self.passed
        for step in range(1, n + 1):
            other = (seat + step) % n
            if not out[other] and not passed[other]:
                return other
        return NO_PLAYER

    def _next_racing(self, seat: int) -> int:
        return next(s for s in ((seat + k) % self.n for k in range(1, self.n + 1)) if not self.out[s])

    def _say(
        self, text: str, *, player: int | None = None, move: RaceMove | None = None, rules: tuple[str, ...] = ()
    ) -> None:
        self.events.append(Event(text, player, None if move is None else str(move), rules))

    # -- applying moves --

    def _apply(self, move: RaceMove) -> None:
        seat = self.turn
        if type(move) is Play:
            self._play(seat, move)
        elif type(move) is Pitch:
            rank = move.rank
            self.hands[seat][rank] -= 1
            self.nhand[seat] -= 1
            self.decks[seat].append(rank)
            self.known[seat] += 1
            self.pitched += 1
            self._say(f"{seat_name(seat)} pitches a card face down under their deck.", player=seat, rules=("RB-7",))
        elif type(move) is Pass:
            self.passed[seat] = True
            self.pitching, self.pitched = True, 0
            if self.top is None and not self.nhand[seat]:
                self._say(
                    f"{seat_name(seat)} leads with an empty hand, so passes: nothing to pitch, a refill, "
                    "and the next player on the left leads.",
                    player=seat,
                    move=move,
                    rules=("RB-13",),
                )
            else:
                self._say(
                    f"{seat_name(seat)} passes and is out of this trick.", player=seat, move=move, rules=("RB-7",)
                )
        else:
            self._refill(seat)

    def _play(self, seat: int, move: Play) -> None:
        hand, played = self.hands[seat], self.played[seat]
        for rank, count in move.need:
            hand[rank] -= count
            played[rank] += count
        hand[JOKER] -= move.jokers
        played[JOKER] += move.jokers
        self.nhand[seat] -= len(move.cards)
        verb = "leads" if self.top is None else "plays"
        self.top, self.top_seat = move, seat
        self.trick.append((seat, move))
        left = self._left(seat)
        self._say(
            f"{seat_name(seat)} {verb} {move.describe()}: {left} card{'s' * (left != 1)} left.",
            player=seat,
            move=move,
            rules=("RB-6",) if move.cheat else ("RB-2",),
        )
        if not left:
            self._shed_out(seat)
            return
        self._give_turn(self._next_in(seat))

    def _refill(self, seat: int) -> None:
        hand, deck = self.hands[seat], self.decks[seat]
        drawn = deck[: HAND_SIZE - self.nhand[seat]]
        del deck[: len(drawn)]
        for rank in drawn:
            hand[rank] += 1
        self.nhand[seat] += len(drawn)
        self.known[seat] = min(self.known[seat], len(deck))
        self.pitching = False
        pitched = f"pitched {counted(self.pitched, 'card')}" if self.pitched else "pitched nothing"
        drew = f"draws {len(drawn)}" if drawn else "draws none"
        self._say(
            f"{seat_name(seat)} {pitched} and {drew}: {self.nhand[seat]} in hand, {len(deck)} in the deck.",
            player=seat,
            rules=("RB-7",),
        )
        nxt = self._next_in(seat)
        if nxt == NO_PLAYER:
            self._say(f"The trick is over: {seat_name(seat)} leads the next one.", player=seat, rules=("RB-8",))
            self._new_trick(seat)
        else:
            if self.top is None:
                self._say(f"{seat_name(nxt)}, next on the left, leads.", player=nxt, rules=("RB-13",))
            self._give_turn(nxt)

    def _shed_out(self, seat: int) -> None:
        self.out[seat] = True
        self.order.append(seat)
        place = len(self.order)
        self._say(
            f"{seat_name(seat)} has emptied hand and deck and crosses the finish line {ordinal(place)}!",
            player=seat,
            rules=("RB-9",),
        )
        racing = [s for s in range(self.n) if not self.out[s]]
        if not self.game.cfg.grand_prix or len(racing) == 1:
            self._end_race()
            return
        nxt = self._next_in(seat)
        if nxt == NO_PLAYER:
            nxt = self._next_racing(seat)
            self._say(f"The trick is over: {seat_name(nxt)}, next on the left, leads.", rules=("RB-8",))
            self._new_trick(nxt)
        else:
            top = self.top
            assert top is not None
            meld = top.describe()
            self._say(
                f"{meld[0].upper() + meld[1:]} stays on the table and the trick goes on: the players still in "
                f"must beat it or pass, starting with {seat_name(nxt)}.",
                rules=("RB-12",),
            )
            self._give_turn(nxt)

    def _give_turn(self, seat: int) -> None:
        """Hand the turn on; announce once when `seat` is the last player in (RB-8)."""
        self.turn = seat
        if not self.alone and self._next_in(seat) == seat and self.top is not None:
            self.alone = True
            self._say(
                f"Everyone else has passed: {seat_name(seat)} is the last player in and may keep "
                "playing over the meld on the table, even their own.",
                player=seat,
                rules=("RB-8",),
            )

    def _end_race(self) -> None:
        cfg = self.game.cfg
        rest = sorted((s for s in range(self.n) if not self.out[s]), key=lambda s: (self._left(s), s))
        order = tuple(self.order + rest)
        left = tuple(self._left(s) for s in range(self.n))
        table = POINTS[self.n] if cfg.grand_prix else (1,) + (0,) * (self.n - 1)
        gained = [0] * self.n
        for place, seat in enumerate(order):
            gained[seat] = table[place]
            self.points[seat] += table[place]
        places = [0] * self.n
        for index, seat in enumerate(order):
            tied = index > len(self.order) and left[seat] == left[order[index - 1]]
            places[seat] = places[order[index - 1]] if tied else index + 1
        self.results.append(RaceResult(self.race, order, left, tuple(places), tuple(gained)))
        self._say(race_summary(order, self.order, places, left), rules=("RB-9",))
        if cfg.grand_prix:
            score = ", ".join(f"{seat_name(s)} {self.points[s]}" for s in range(self.n))
            self._say(f"Grand Prix points: {score}.", rules=("RB-10",))
            if self.race + 1 < cfg.races:
                self.start_race(self.race + 1, order[0])
                return
        self.over = True
        self.turn = NO_PLAYER
        best = max(self.points)
        winners = [seat_name(s) for s in range(self.n) if self.points[s] == best]
        if cfg.grand_prix:
            self._say(
                f"Grand Prix over: {' and '.join(winners)} win{'s' * (len(winners) == 1)} "
                f"with {counted(best, 'point')}{' (a shared victory)' * (len(winners) > 1)}.",
                rules=("RB-10",),
            )

    # -- explanations --

    def _turn_of(self, seat: int) -> RaceState | tuple[str, tuple[str, ...]]:
        """For "if it were their turn": this position with `seat` to play in the trick, unless they are out of it."""
        if self.out[seat]:
            return f"{seat_name(seat)} has shed out and left the race", ("RB-9",)
        if self.passed[seat]:
            return f"{seat_name(seat)} has passed and is out of this trick", ("RB-7",)
        twin = self.clone()
        twin.turn, twin.pitching, twin.pitched = seat, False, 0
        return twin

    def _judge(self, move: RaceMove, legal: bool) -> Explanation:
        text = str(move)
        if legal:
            return Explanation(text, True, *self.why(move))
        found = self.why_not(move)
        reason, rules = found if found else ("that move is not available right now", ())
        return Explanation(text, False, reason, rules)

    def why_not(self, move: RaceMove) -> tuple[str, tuple[str, ...]] | None:
        """Why `move` is illegal here, or None if no rule forbids it (checked against legal_moves)."""
        seat, hand = self.turn, self.hands[self.turn]
        if self.pitching:
            if type(move) is Pitch:
                if self.pitched >= MAX_PITCH:
                    return f"you have pitched {MAX_PITCH} cards, the most a pass allows: say done", ("RB-7",)
                if not hand[move.rank]:
                    return f"you hold no {self._card_name(move.rank, True)} to pitch", ("RB-7",)
                return None
            if type(move) is Done:
                return None
            return "you have passed this trick: pitch up to 6 cards, then say done to refill", ("RB-7",)
        if type(move) is Pitch or type(move) is Done:
            words = move.words if type(move) is Pitch else str(move)
            return f"'{words}' only comes after a pass: first pass, then pitch, then done", ("RB-7",)
        if type(move) is Pass:
            if self.top is None and self.nhand[seat]:
                return "the leader must play: only a player with an empty hand may pass an open trick", ("RB-7",)
            return None
        assert isinstance(move, Play)
        if not self.nhand[seat]:
            return "your hand is empty, so you must pass", ("RB-7",)
        for rank, count in move.need:
            if hand[rank] < count:
                return (
                    f"{move.words} needs {count} natural {self._card_name(rank, count > 1)}; you hold {hand[rank]}",
                    ("RB-1",),
                )
        if move.jokers > hand[JOKER]:
            return f"{move.words} needs {counted(move.jokers, 'Joker')}; you hold {hand[JOKER]}", ("RB-3",)
        top = self.top
        if top is None or follows(move, top):
            return None
        if top.cheat:
            if not move.cheat:
                return f"only Cheats may follow a Cheat ({top.describe()} is on the table)", ("RB-6",)
            if move.cheat < top.cheat:
                return f"{move.describe()} cannot beat {top.describe()}, a bigger Cheat", ("RB-6",)
            return (
                f"{move.describe()} is lower than {top.describe()}: a Cheat of the same size needs equal or higher rank",
                ("RB-6", "RB-4"),
            )
        if move.label != top.label:
            return f"a {top.label} cannot be answered by a {move.label}: match the type and length, or play a Cheat", (
                "RB-2",
            )
        rules: tuple[str, ...] = ("RB-2", "RB-5") if move.sequence else ("RB-2",)
        if self._left_by_shed_out():
            rules += ("RB-12",)
        return f"{move.describe()} is lower than {top.describe()}: a match needs equal or higher rank", rules

    def why(self, move: RaceMove) -> tuple[str, tuple[str, ...]]:
        """Plain words for a legal move."""
        if type(move) is Pass:
            if not self.nhand[self.turn]:
                if self.top is None:
                    return (
                        "you lead with an empty hand, so you pass, pitch nothing and refill; then the next "
                        "player still racing on your left leads"
                    ), ("RB-13",)
                return "your hand is empty, so you pass; then say done to refill", ("RB-7",)
            said: tuple[str, ...] = ("RB-7",)
            words = "you pass and are out of this trick; then pitch up to 6 cards and say done"
            if self._left_by_shed_out():
                words += f" (the meld on the table stays though {seat_name(self.top_seat)} has shed out)"
                said += ("RB-12",)
            return words, said
        if type(move) is Pitch:
            return (
                "the card goes face down to the bottom of your own deck, after any pitched before "
                f"({self.pitched + 1} of at most {MAX_PITCH})"
            ), ("RB-7", "RB-11")
        if type(move) is Done:
            if self.top is None:
                return (
                    f"you refill your hand to {HAND_SIZE} from the top of your deck; the next player still "
                    "racing on your left leads"
                ), ("RB-7", "RB-13")
            return f"you refill your hand to {HAND_SIZE} from the top of your deck", ("RB-7",)
        assert isinstance(move, Play)
        top, rules = self.top, ["RB-2"]
        if top is None:
            words = f"you lead, so any meld goes: {move.describe()}"
        elif move.cheat and not top.cheat:
            words, rules = f"{move.describe()} is a Cheat: it beats any normal meld", ["RB-6"]
        elif move.cheat and move.cheat > top.cheat:
            words, rules = f"{move.describe()} is a bigger Cheat than {top.describe()}", ["RB-6"]
        elif move.ace or top.ace:
            rules = ["RB-5" if move.sequence else "RB-4"]
            kind = "sequence" if move.sequence else "set"
            words = f"{move.describe()} on {top.describe()}: an Ace {kind} resets the climb"
        else:
            words = f"{move.describe()} matches {top.describe()}: equal or higher rank is enough"
            rules += ["RB-6"] if move.cheat else []
        if top is not None and self.top_seat == self.turn:
            words += ", played over your own meld as the last player in"
            rules.append("RB-8")
        if self._left_by_shed_out():
            words += f"; the meld stays on the table though {seat_name(self.top_seat)} has shed out"
            rules.append("RB-12")
        if move.jokers:
            declared = " and ".join(RANK_NAMES[r] for r in move.declared)
            words += f"; Joker{'s' * (move.jokers > 1)} declared as {declared}"
            rules.append("RB-3")
        if len(move.cards) == self._left(self.turn):
            words += "; it empties your hand and deck, so you cross the finish line"
            rules.append("RB-9")
        return words, tuple(rules)

    def _left_by_shed_out(self) -> bool:
        """RB-12: the meld to beat belongs to a player who has shed out mid-trick."""
        return self.top is not None and self.top_seat != NO_PLAYER and self.out[self.top_seat]

    @staticmethod
    def _card_name(rank: int, many: bool) -> str:
        if rank == JOKER:
            return "Jokers" if many else "Joker"
        return plural(rank) if many else RANK_NAMES[rank]

    # -- what players may know (RB-11) --

    def _observation(self, player: int) -> RaceObservation:
        return self._observe(player)

    def view(self) -> RaceObservation:
        return self._observe(None)

    def public_observation(self) -> RaceObservation:
        return self._observe(NO_PLAYER)  # no seat: every hidden part empty

    def _observe(self, viewer: int | None) -> RaceObservation:
        cfg = self.game.cfg
        to_move = self.current_player
        seats = []
        for s in range(self.n):
            mine = viewer is None or viewer == s
            deck = self.decks[s]
            seats.append(
                SeatView(
                    seat=s,
                    hand_count=self.nhand[s],
                    deck_count=len(deck),
                    remaining=self._left(s),
                    passed=self.passed[s],
                    out=self.out[s],
                    points=self.points[s],
                    played=tuple(self.played[s]),
                    hand=cards_text(self.hands[s]) if mine else None,
                    pitched=tuple(CARD_SYMBOLS[c] for c in deck[len(deck) - self.known[s] :]) if mine else None,
                    deck=tuple(CARD_SYMBOLS[c] for c in deck) if viewer is None else None,
                )
            )
        show = not self.over and (viewer is None or viewer == to_move)
        return RaceObservation(
            game=self.game.name,
            player=viewer,
            current_player=to_move,
            is_over=self.over,
            legal_moves=tuple(self.legal_moves()) if show else (),
            log=tuple(self.events),
            players=self.n,
            seats=tuple(seats),
            race=self.race + 1,
            races=cfg.races if cfg.grand_prix else 1,
            grand_prix=cfg.grand_prix,
            leader=self.leader,
            trick=tuple(self.trick),
            to_beat=self.top,
            to_beat_seat=self.top_seat,
            pitching=self.pitching,
            pitched_now=self.pitched,
            order=tuple(self.order),
            results=tuple(self.results),
            returns=self.returns(),
        )


# --- worlds consistent with an observation (for search) ------------------------------


def _world_sampler(game: RaceToTheBottom, obs: RaceObservation) -> Callable[[random.Random], RaceState]:
    me = obs.player
    assert me is not None
    n = obs.players
    full = counts_of(new_deck())
    unseen: list[list[int]] = []
    for view in obs.seats:
        rest = [full[r] - view.played[r] for r in range(14)]
        if view.seat == me:
            for symbol in (*(view.hand or ()), *(view.pitched or ())):
                rest[parse_card(symbol)] -= 1
        unseen.append([r for r in range(14) for _ in range(rest[r])])
    own_hand = counts_of([parse_card(c) for c in obs.seats[me].hand or ()])
    own_pitched = [parse_card(c) for c in obs.seats[me].pitched or ()]
    hand_counts = [view.hand_count for view in obs.seats]
    deck_counts = [view.deck_count for view in obs.seats]  # public (RB-11); a dealt scenario may hold fewer than 54
    in_trick = sum(1 for v in obs.seats if not v.out and not v.passed)
    # everything else about the world is public: set once, copied per world
    template = RaceState(game, 0, None)
    template.race = obs.race - 1
    template.hands, template.decks = [], []  # dealt per world
    template.nhand = list(hand_counts)
    template.known = [len(own_pitched) if s == me else 0 for s in range(n)]  # others' pitches: unknown here
    template.played = [list(v.played) for v in obs.seats]
    template.dealt = [tuple(full)] * n
    template.out = [v.out for v in obs.seats]
    template.order = list(obs.order)
    template.passed = [v.passed for v in obs.seats]
    template.top, template.top_seat = obs.to_beat, obs.to_beat_seat
    template.trick = list(obs.trick)
    template.leader, template.turn = obs.leader, obs.current_player
    template.pitching, template.pitched = obs.pitching, obs.pitched_now
    template.alone = obs.to_beat is not None and (in_trick == 1 and not obs.pitching or in_trick == 0 and obs.pitching)
    template.points = [v.points for v in obs.seats]
    template.results = list(obs.results)
    template.over = obs.is_over
    template.events = list(obs.log)

    def sample(rng: random.Random) -> RaceState:
        hands, decks = [], []
        for seat in range(n):
            cards = unseen[seat].copy()
            rng.shuffle(cards)
            if seat == me:
                hands.append(own_hand.copy())
                decks.append(cards[: deck_counts[seat] - len(own_pitched)] + own_pitched)
            else:
                count = hand_counts[seat]
                hands.append(counts_of(cards[:count]))
                decks.append(cards[count : count + deck_counts[seat]])
        world = template.clone()
        world.seed = rng.getrandbits(32)
        world.hands, world.decks = hands, decks
        return world

    return sample


@dataclass(frozen=True)
class SeatView:
    """One seat as a viewer sees it. `hand`, `pitched` and `deck` are None when hidden (RB-11)."""

    seat: int
    hand_count: int
    deck_count: int
    remaining: int
    passed: bool
    out: bool
    points: int
    played: tuple[int, ...]  # cards played this race, count per rank (index 13: Jokers)
    hand: tuple[str, ...] | None
    pitched: tuple[str, ...] | None  # own pitched cards under the deck, top to bottom
    deck: tuple[str, ...] | None  # the whole deck, top first: the omniscient view only


@dataclass(frozen=True)
class RaceObservation:
    """What one seat may know (RB-11); ``player=None`` is the omniscient view."""

    game: str
    player: int | None
    current_player: int
    is_over: bool
    legal_moves: tuple[RaceMove, ...]
    log: tuple[Event, ...]
    players: int
    seats: tuple[SeatView, ...]
    race: int  # 1-based
    races: int
    grand_prix: bool
    leader: int
    trick: tuple[tuple[int, Play], ...]  # (seat, meld) in play order, this trick
    to_beat: Play | None  # None: an open trick, the player to move leads
    to_beat_seat: int
    pitching: bool
    pitched_now: int
    order: tuple[int, ...]  # seats that have shed out this race
    results: tuple[RaceResult, ...]
    returns: tuple[float, ...]
