"""Surplus of Sloths: a drafting game (rules/surplus-of-sloths.txt, rulings SS-1..SS-11).

Cards are small ints inside the engine (see ``surplus_of_sloths_cards``); moves
and observations use short codes: type letter + number or X (``"L5"``, ``"LX"``)
or ``"Baby"``. The letters follow the rulebook's icons: R red dot (Pygmy),
S brown spiral (Maned), L green leaf (Linnaeus Two-Toed), Y yellow drop (Pale
Throated), B blue wave (Brown Throated), C crescent moon (Pygmy Three-Toed).

A game: secret opening picks in seat order (SS-3), rounds of drafting (SS-4,
SS-6) until no River card is left (SS-5), then the reveal type by type (SS-7,
SS-8, SS-9), narrated and kept as data in ``reveal``. With ``super_surplus`` the
state deals game after game until a player has two wins (SS-10).

Engine notes: the rulebook's "player who most recently pet a sloth" is the
``first_active`` seat; in Super Surplus each new game's first Active Player
moves one seat left (option ``match_first_active``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from sloth_kernel.core import (
    NO_PLAYER,
    Event,
    Explanation,
    Game,
    GameConfig,
    GameState,
    Move,
    counted,
    seat_name,
    seeded_rng,
    sequence_of,
)
from sloth_kernel.errors import ConfigError
from sloth_kernel.games.surplus_of_sloths.cards import (
    BABIES,
    BABY,
    BABY_CODE,
    CARD_CODES,
    CARD_IDS,
    REVEAL_TYPE,
    SLOTH_TYPES,
    GameResult,
    TypeResult,
    card_name,
    card_names,
    card_type,
    codes,
    parse_card,
    recount,
    reveal_game,
    shuffled,
    sort_cards,
    type_deck,
)
from sloth_kernel.notation import NotationProblem, check_seat, move_words, read_notation, shown

# --- constants ---------------------------------------------------------------

OPENING_HAND = 3
PICK, DRAFT, BABY_CHOICE, OVER = 0, 1, 2, 3
PHASES = ("pick", "draft", "baby", "over")
WINS_NEEDED = 2
CODE_IDS: dict[str, int] = {code: card for card, code in CARD_CODES.items()}

RULES: dict[str, str] = {
    "SS-1": "With 2 to 4 players, use one sloth type more than there are players, taken in the rulebook's list "
    "order (Pygmy first, then Maned, and so on). Every type has the numbers 1 to 7 and three X cards.",
    "SS-2": "A variant, off unless chosen: once the opening cards are dealt, 4 Baby Sloths are shuffled into the deck.",
    "SS-3": "Everyone gets 3 cards and secretly puts one of them in the Net; the picks are shown once all have "
    "chosen. Then two River rows are laid face up, each with one card more than there are players.",
    "SS-4": "The Active Player drafts a card from either River row, and then each other player in turn drafts "
    "from that same row. The last card of the row goes into the Net, where a Baby is worth 0 and has no "
    "type.",
    "SS-5": "The row that was emptied is dealt again from the deck; if the deck runs dry partway, those cards "
    "go to the Net instead. With no deck left, rounds go on with whatever is left of the River until it is "
    "empty, which ends the game. Each round the next seat to the left is the Active Player.",
    "SS-6": "Drafting a Baby lets you drop any one card of your hand, the Baby too, straight into the Net; you "
    "may also keep everything.",
    "SS-7": "A run is one type's cards in an unbroken sequence of numbers; an X fills any missing 1 to 7, and "
    "one Baby can stand for a 0. Your best run is the longest, then the one with the highest real number (X "
    "and Babies do not count). Once a type is settled everyone discards their cards of it; Babies serve every "
    "type and are kept.",
    "SS-8": "Each type with cards in the Net goes to the player with the best run of that type, who takes all of "
    "them; if the best runs tie on length and top number, nobody does. A Baby can extend a run but is "
    "never a run by itself, so holding only a Baby in a type is no run there.",
    "SS-9": "A type you take scores the total of its numbers multiplied by one plus its count of X cards. The "
    "highest score wins, and a tie shares the win.",
    "SS-10": "Super Surplus: keep playing games until someone has won two; a tied game is nobody's win.",
    "SS-11": "What you draft is seen by all, so only the two cards you kept from the opening deal are secret. The "
    "River and the Net lie open; the order of the deck does not.",
}

# --- config ------------------------------------------------------------------


@dataclass(frozen=True)
class SurplusConfig(GameConfig):
    """Options; the defaults are the rulebook's game for 3 players."""

    players: int = 3
    babies: bool = False  # SS-2
    baby_nets_itself: bool = True  # SS-6: the Baby itself may be the card put into the Net
    super_surplus: bool = False  # SS-10
    first_active: int = 0  # the rulebook's "most recently pet a sloth"
    match_first_active: Literal["rotate", "same"] = "rotate"  # Super Surplus: next game's first Active Player

    @property
    def num_types(self) -> int:
        return self.players + 1

    @property
    def row_size(self) -> int:
        return self.players + 1


# --- moves -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Pick(Move):
    """SS-3: put one opening card face down for the Net."""

    card: str

    def __eq__(self, other: object) -> bool:
        if type(other) is not Pick:
            return NotImplemented
        return self.card == other.card and self.card.__class__ is other.card.__class__

    def __str__(self) -> str:
        return f"pick {self.card}"

    @property
    def words(self) -> str:
        return f"pick {card_name(self.card)}"


@dataclass(frozen=True, slots=True)
class Take(Move):
    """SS-4: draft `card` from River row `row` (1 or 2)."""

    card: str
    row: int

    def __eq__(self, other: object) -> bool:
        if type(other) is not Take:
            return NotImplemented
        mine, theirs = self.row, other.row
        return (
            self.card == other.card
            and mine == theirs
            and self.card.__class__ is other.card.__class__
            and mine.__class__ is theirs.__class__
        )

    def __str__(self) -> str:
        return f"take {self.card} from row {self.row}"

    @property
    def words(self) -> str:
        return f"take {card_name(self.card)} from row {self.row}"


@dataclass(frozen=True, slots=True)
class NetCard(Move):
    """SS-6: after drafting a Baby, put one card from hand into the Net."""

    card: str

    def __eq__(self, other: object) -> bool:
        if type(other) is not NetCard:
            return NotImplemented
        return self.card == other.card and self.card.__class__ is other.card.__class__

    def __str__(self) -> str:
        return f"net {self.card}"

    @property
    def words(self) -> str:
        return f"net {card_name(self.card)}"


@dataclass(frozen=True, slots=True)
class Keep(Move):
    """SS-6: decline the Baby's offer."""

    def __str__(self) -> str:
        return "keep"


SurplusMove = Pick | Take | NetCard | Keep

# Interned moves: legal_moves hands out these objects (fast path, no allocation).
PICKS = {card: Pick(code) for card, code in CARD_CODES.items()}
TAKES = tuple({card: Take(code, row + 1) for card, code in CARD_CODES.items()} for row in (0, 1))
NETS = {card: NetCard(code) for card, code in CARD_CODES.items()}
KEEP = Keep()
MOVE_HELP = "write 'pick L5', 'take L5 from row 1', 'net LX' (after a Baby) or 'keep'"
TAKE_HELP = "write 'take L5 from row 1' or 'take L5 from row 2'"


# --- the game ----------------------------------------------------------------


class SurplusOfSloths(Game[SurplusConfig, "SurplusState"]):
    """Surplus of Sloths for 2-4 players (one game, or a Super Surplus match).

    Explicit deals, for scenarios and tests: ``game.from_deal(deal, seed)`` with
    ``deal = {"hands": [["R1", "LX", "S4"], ...], "deck": ["Y2", "B7", ...]}``.
    `hands` gives each seat's 3 opening cards; `deck` lists the rest top first:
    the first 2 x (players + 1) cards become River rows 1 and 2 after the
    picks, the others refill rows in order. Together they must be exactly the
    game's cards (SS-1), with the 4 Babies in `deck` when ``babies`` is on
    (SS-2). A hand may also be one string, ``"R1 LX S4"``. Later games of a
    Super Surplus are dealt from `seed`.
    """

    name = "surplus-of-sloths"
    title = "Surplus of Sloths"
    config_class = SurplusConfig
    rules = RULES
    rules_version = 2
    rules_changes = {2: "SS-8, a Baby alone makes no run"}

    def __init__(self, config: SurplusConfig) -> None:
        super().__init__(config)
        self.cfg = cfg = config
        self.type_cards = type_deck(cfg.num_types)
        moves: list[SurplusMove] = [*PICKS.values(), *TAKES[0].values(), *TAKES[1].values(), *NETS.values(), KEEP]
        self._by_text = {str(m): m for m in moves if isinstance(m, Keep) or self._card(m.card) is not None}
        """This config's moves by their canonical text (``str``): parse_move's shortcut for records and replays."""

    @property
    def num_players(self) -> int:
        return self.cfg.players

    def cards(self) -> list[int]:
        """Every card of the game (SS-1, SS-2)."""
        return type_deck(self.cfg.num_types) + [BABY] * (BABIES if self.cfg.babies else 0)

    def shuffled_deal(self, seed: int, number: int) -> tuple[list[list[int]], list[int]]:
        """Deal game `number`: 3 cards each, then Babies shuffled into the rest (SS-2, SS-3)."""
        rng = seeded_rng(seed, "game", number)
        deck = shuffled(self.type_cards, rng)
        n = self.cfg.players
        hands = [deck[seat * OPENING_HAND : (seat + 1) * OPENING_HAND] for seat in range(n)]
        rest = deck[n * OPENING_HAND :]
        if self.cfg.babies:
            rest = shuffled(rest + [BABY] * BABIES, rng)
        return hands, rest

    def _new_state(self, seed: int) -> SurplusState:
        state = SurplusState(self, seed, None)
        state.start_game(0, *self.shuffled_deal(seed, 0))
        return state

    def _from_deal(self, deal: Mapping[str, Any], seed: int) -> SurplusState:
        n = self.cfg.players
        hands = [self._parse_cards(hand) for hand in deal["hands"]]
        deck = self._parse_cards(deal["deck"])
        if len(hands) != n or any(len(hand) != OPENING_HAND for hand in hands):
            raise ConfigError(f"the deal needs {n} hands of {OPENING_HAND} cards (SS-3)")
        if any(BABY in hand for hand in hands):
            raise ConfigError("Babies are shuffled in after the opening deal, never dealt in a hand (SS-2)")
        if sorted(sum(hands, []) + deck) != sorted(self.cards()):
            raise ConfigError(f"hands and deck must hold exactly the game's {len(self.cards())} cards (SS-1, SS-2)")
        state = SurplusState(self, seed, dict(deal))
        state.start_game(0, hands, deck)
        return state

    def _parse_cards(self, cards: Any) -> list[int]:
        if isinstance(cards, str):
            items: list[Any] = cards.replace(",", " ").split()
        elif isinstance(cards, (list, tuple)):
            items = list(cards)
        else:
            raise ConfigError(f"cards are a list of codes like ['R1', 'LX'] or text like 'R1 LX', not {shown(cards)}")
        found = []
        for item in items:
            card = self._card(item) if isinstance(item, str) else None
            if card is None:
                raise ConfigError(f"{shown(item)} is not a card of this game")
            found.append(card)
        return found

    def _card(self, code: str) -> int | None:
        card = parse_card(code)
        if card is None or card_type(card) >= self.cfg.num_types or (card == BABY and not self.cfg.babies):
            return None
        return card

    def all_moves(self) -> list[Move]:
        """Every move this game can offer, in a fixed order (the interop action index)."""
        return [*PICKS.values(), *TAKES[0].values(), *TAKES[1].values(), *NETS.values(), KEEP]

    @classmethod
    def world_sampler(
        cls, observation: Any, options: Mapping[str, Any] | None = None
    ) -> Callable[[random.Random], SurplusState]:
        """Worlds consistent with one seat's observation (SS-11).

        Hidden: the other seats' kept opening cards, their unrevealed picks and the
        deck order. Drafted cards, River and Net are public. Babies only ever come
        from the deck (SS-2), so hidden opening cards are never Babies.
        """
        if not isinstance(observation, SurplusObservation) or observation.player is None:
            what = (
                "the omniscient view"
                if isinstance(observation, SurplusObservation)
                else f"an object of type {type(observation).__name__}"
            )
            raise ConfigError(
                f"sample worlds from one seat's observation of this game (SurplusObservation), not {what}"
            )
        obs = observation
        visible = {"players": obs.players, "babies": obs.babies, "super_surplus": obs.super_surplus}
        return _world_sampler(cls.shared(**{**visible, **(options or {})}), obs)

    def parse_move(self, text: str) -> SurplusMove:
        """Table notation: ``pick L5``, ``take L5 from row 1`` (or ``take L5 row 1``), ``net LX``, ``keep``;
        a card may be named instead of coded (``take Linnaeus 5 from row 1``, ``pick Pygmy 3``).

        Any case. ASCII only, at most ``MAX_MOVE_TEXT`` characters (see :mod:`sloth_kernel.notation`);
        anything else is an InvalidMoveError.
        """
        return read_notation(text, self._by_text, self._read_move, game=self.name)

    def _read_move(self, text: object) -> SurplusMove:
        given = move_words(text, example=MOVE_HELP)
        words = [w.lower() for w in given]
        if words == ["keep"]:
            return KEEP
        # a card is its code ("L5") or its name ("Linnaeus 5", "Pygmy Three-Toed X"), so it may be several words
        if len(words) in (2, 3, 4) and words[0] in ("pick", "net"):
            card = self._move_card(" ".join(given[1:]))
            return PICKS[card] if words[0] == "pick" else NETS[card]
        if 4 <= len(words) <= 7 and words[0] == "take" and words[-2] == "row":
            named = given[1:-3] if words[-3] == "from" else given[1:-2]
            if named and words[-1] not in ("1", "2"):
                raise NotationProblem(f"there are two River rows, 1 and 2, not {given[-1]!r} (SS-3)", TAKE_HELP)
            if named:
                return TAKES[int(words[-1]) - 1][self._move_card(" ".join(named))]
        raise NotationProblem("a move picks, takes or nets one card, or keeps", MOVE_HELP)

    def _move_card(self, word: str) -> int:
        card = self._card(word)
        if card is None:
            letters = ", ".join(t.letter for t in SLOTH_TYPES[: self.cfg.num_types])
            baby = ", or Baby" if self.cfg.babies else ""
            raise NotationProblem(
                f"{word!r} is not a card here: a card is a type letter ({letters}) and 1-7 or X{baby} (SS-1)",
                "write 'take L5 from row 1' or 'pick SX', or name the card: 'take Linnaeus 5 from row 1'",
            )
        return card


def netted_words(card: str) -> str:
    """The card a Baby puts into the Net, in words: "Pygmy 5", or 'the Baby itself' (SS-6)."""
    return "the Baby itself" if card == BABY_CODE else card_name(card)


def _take_event(seat: int, move: Take, first: bool) -> Event:
    """The narration of a draft. Events are immutable, so each one is made once (see _TAKE_EVENTS)."""
    baby = move.card == BABY_CODE
    text = f"{seat_name(seat)} takes {'a Baby' if baby else card_name(move.card)} from row {move.row}"
    if first:
        text += f"; everyone drafts from row {move.row} this round"
    if baby:
        text += ", so they may put one card from their hand into the Net (SS-4, SS-6)."
        return Event(text, seat, str(move), ("SS-4", "SS-6"))
    return Event(text + " (SS-4).", seat, str(move), ("SS-4",))


_TAKE_EVENTS: dict[tuple[int, int, int, bool], Event] = {}
_PICK_EVENTS = [
    Event(f"{seat_name(s)} puts one card face down for the Net (SS-3).", s, None, ("SS-3",)) for s in range(4)
]
_START_EVENTS: dict[tuple[int, bool], tuple[Event, Event]] = {}


# --- the state ----------------------------------------------------------------


class SurplusState(GameState[SurplusMove, "SurplusObservation"]):
    """A position: opening picks, the two River rows, the Net, hands and (in a match) wins."""

    game: SurplusOfSloths

    is_over: bool = False  # a plain attribute, not a property: read before every decision of a playout

    def __init__(self, game: SurplusOfSloths, seed: int, deal: Mapping[str, Any] | None) -> None:
        """The match-wide fields; ``start_game`` sets up each game's."""
        self.game = game
        self.cfg = game.cfg
        self.seed = seed
        self.deal = deal
        self.history: list[SurplusMove] = []
        self.events: list[Event] = []
        self.reveal: tuple[TypeResult, ...] = ()  # the last finished game's reveal
        self.games: list[GameResult] = []
        self.wins = [0] * game.cfg.players  # Super Surplus wins (SS-10)
        self.is_over = False

    # -- protocol --

    @property
    def current_player(self) -> int:
        return NO_PLAYER if self.is_over else self.turn

    def legal_moves(self) -> list[SurplusMove]:
        phase = self.phase
        if phase == DRAFT:
            if self.row >= 0:
                return list(map(TAKES[self.row].__getitem__, dict.fromkeys(self.rivers[self.row])))
            return [TAKES[r][c] for r in (0, 1) for c in dict.fromkeys(self.rivers[r])]
        if phase == PICK:
            return [PICKS[c] for c in dict.fromkeys(self.kept[self.turn])]
        if phase == BABY_CHOICE:
            hand = sort_cards(set(self.kept[self.turn] + self.drafted[self.turn]))
            return [KEEP, *[NETS[c] for c in hand if c != BABY or self.cfg.baby_nets_itself]]
        return []

    def returns(self) -> tuple[float, ...]:
        n = self.cfg.players
        if not self.is_over:
            return (0.0,) * n
        if self.cfg.super_surplus:
            return tuple(1.0 if wins >= WINS_NEEDED else 0.0 for wins in self.wins)
        winners = self.games[-1].winners
        return tuple(1.0 / len(winners) if s in winners else 0.0 for s in range(n))

    def clone(self) -> SurplusState:
        twin = object.__new__(SurplusState)
        twin.__dict__.update(self.__dict__)
        for name in ("history", "events", "deck", "picks", "net", "scores", "games", "wins"):
            setattr(twin, name, getattr(self, name).copy())
        for name in ("rivers", "kept", "drafted", "claimed", "discards"):
            setattr(twin, name, [cards.copy() for cards in getattr(self, name)])
        return twin

    def hand(self, seat: int) -> list[int]:
        """All cards in a seat's hand: kept from the deal (private) and drafted (public)."""
        seat = check_seat(seat, self.cfg.players)
        return self.kept[seat] + self.drafted[seat]

    def reveal_lines(self) -> list[str]:
        """The narrated reveal of the last finished game, one line per step (SS-7, SS-8, SS-9)."""
        return [line for result in self.reveal for line in result.lines]

    # -- dealing and rounds --

    def start_game(self, number: int, hands: list[list[int]], deck: list[int]) -> None:
        n = self.cfg.players
        self.number = number  # game number within a Super Surplus, 0-based
        self.phase, self.turn = PICK, 0
        self.row = -1  # the River row drafted this round (0/1); -1 until the Active Player takes
        self.left = 0  # players still to take a card this round
        step = number if self.cfg.match_first_active == "rotate" else 0
        self.active = (self.cfg.first_active + step) % n
        self.kept: list[list[int]] = [list(hand) for hand in hands]  # private: kept from the opening deal
        self.drafted: list[list[int]] = [[] for _ in range(n)]  # public (SS-11)
        self.picks = [-1] * n
        self.deck = deck[::-1]  # the next card is deck[-1]
        self.rivers: list[list[int]] = [[], []]
        self.net: list[int] = []
        self.claimed: list[list[int]] = [[] for _ in range(n)]
        self.discards: list[list[int]] = [[] for _ in range(n)]
        self.scores = [0] * n
        key = (number if self.cfg.super_surplus else -1, self.cfg.babies)
        if key not in _START_EVENTS:
            title = f"Super Surplus game {number + 1}" if self.cfg.super_surplus else "New game"
            babies = f"; {BABIES} Baby Sloths are shuffled into the deck (SS-2)" if self.cfg.babies else ""
            _START_EVENTS[key] = (
                Event(
                    f"{title}: {OPENING_HAND} cards dealt to each player{babies}.", None, None, ("SS-1", "SS-2", "SS-3")
                ),
                Event("Each player secretly picks one card for the Net, in seat order (SS-3).", None, None, ("SS-3",)),
            )
        self.events += _START_EVENTS[key]

    def _say(
        self, text: str, *, player: int | None = None, move: SurplusMove | None = None, rules: tuple[str, ...] = ()
    ) -> None:
        self.events.append(Event(text, player, None if move is None else str(move), rules))

    def _deal_row(self, row: int) -> None:
        self.rivers[row] = [self.deck.pop() for _ in range(self.cfg.row_size)]

    def _start_round(self, said: str) -> None:
        """Narrate `said` (what ended the last round) with who is the Active Player now (SS-4, SS-5)."""
        self.phase, self.turn, self.row, self.left = DRAFT, self.active, -1, self.cfg.players
        self.events.append(
            Event(
                f"{said} {seat_name(self.active)} is the Active Player and takes first (SS-4, SS-5).",
                self.active,
                None,
                ("SS-4", "SS-5"),
            )
        )

    def _next_drafter(self) -> None:
        if self.left:
            self.turn = (self.turn + 1) % self.cfg.players
            self.phase = DRAFT
        else:
            self._end_round()

    def _end_round(self) -> None:
        row = self.row
        leftover = self.rivers[row]
        self.net += leftover
        said = f"The leftover {card_name(CARD_CODES[leftover[0]])} falls into the Net (SS-4)."
        size = self.cfg.row_size
        deck = self.deck
        if len(deck) >= size:
            refill = self.rivers[row] = deck[-1 : -size - 1 : -1]
            del deck[-size:]
            cards = ", ".join(card_name(CARD_CODES[c]) for c in refill)
            said += f" Row {row + 1} is refilled: {cards}; {counted(len(deck), 'card')} left in the deck (SS-5)."
        else:
            self.rivers[row] = []
            if deck:
                partial = deck[::-1]
                self.deck = []
                self.net += partial
                said += f" The deck runs out part-way: the partial row {card_names(codes(partial))} goes into the Net (SS-5)."
        if not self.rivers[0] and not self.rivers[1]:
            said += " No River card is left: the game ends. The reveal goes one type at a time (SS-5, SS-7)."
            self.events.append(Event(said, None, None, ("SS-4", "SS-5", "SS-7")))
            self._end_game()
            return
        self.active = (self.active + 1) % self.cfg.players
        self._start_round(said)

    # -- applying moves --

    def _apply(self, move: SurplusMove) -> None:
        if type(move) is Take:
            self._take(move)
        elif type(move) is Pick:
            self._pick(move)
        elif type(move) is NetCard:
            self._net_from_hand(move)
        else:
            self._say(f"{seat_name(self.turn)} keeps their hand (SS-6).", player=self.turn, move=move, rules=("SS-6",))
            self._next_drafter()

    def _pick(self, move: Pick) -> None:
        seat = self.turn
        card = CODE_IDS[move.card]
        self.kept[seat].remove(card)
        self.picks[seat] = card
        # A secret move: neither the text nor the event's move names the card until all have picked (SS-3).
        self.events.append(_PICK_EVENTS[seat])
        if -1 in self.picks:  # seats pick in order, so this is seat + 1 (a hypothetical may ask a later seat first)
            self.turn = self.picks.index(-1)
            return
        self.net.extend(self.picks)
        shown = sequence_of([f"{seat_name(s)} {card_name(CARD_CODES[c])}" for s, c in enumerate(self.picks)])
        self._say(f"The picks are revealed and go into the Net: {shown} (SS-3).", rules=("SS-3",))
        self._deal_row(0)
        self._deal_row(1)
        rows = [", ".join([card_name(CARD_CODES[c]) for c in r]) for r in self.rivers]
        self._start_round(f"River row 1: {rows[0]}. River row 2: {rows[1]} (SS-3).")

    def _take(self, move: Take) -> None:
        seat = self.turn
        row = move.row - 1
        card = CODE_IDS[move.card]
        self.rivers[row].remove(card)
        self.drafted[seat].append(card)
        self.left -= 1
        first = self.row < 0
        if first:
            self.row = row
        event = _TAKE_EVENTS.get((seat, row, card, first))
        if event is None:
            event = _TAKE_EVENTS[seat, row, card, first] = _take_event(seat, move, first)
        self.events.append(event)
        if card == BABY:
            self.phase = BABY_CHOICE
        elif self.left:
            self.turn = (seat + 1) % self.cfg.players
        else:
            self._end_round()

    def _net_from_hand(self, move: NetCard) -> None:
        seat = self.turn
        card = CODE_IDS[move.card]
        # From the public drafted cards first, so the private kept cards stay as secret as they can.
        (self.drafted[seat] if card in self.drafted[seat] else self.kept[seat]).remove(card)
        self.net.append(card)
        text = f"{seat_name(seat)} uses the Baby to put {netted_words(move.card)} from their hand into the Net (SS-6)."
        self._say(text, player=seat, move=move, rules=("SS-6",))
        self._next_drafter()

    # -- the reveal --

    def _end_game(self) -> None:
        n = self.cfg.players
        self.phase = OVER
        reveal = reveal_game([self.kept[s] + self.drafted[s] for s in range(n)], self.net, self.cfg.num_types)
        opens = set(reveal.starts)
        self.events += [
            Event(text, seat, None, rules, REVEAL_TYPE if index in opens else None)
            for index, (text, seat, rules) in enumerate(reveal.lines)
        ]
        self.reveal, self.scores, self.net = reveal.results, list(reveal.scores), list(reveal.net_left)
        self.claimed = [list(cards) for cards in reveal.claimed]
        revealed = {r.type_index for r in reveal.results}
        for s in range(n):  # SS-7: each revealed type is discarded after its comparison; Babies stay
            hand = self.kept[s] + self.drafted[s]
            self.discards[s] = [c for c in hand if c != BABY and c >> 3 in revealed]
            self.kept[s] = [c for c in self.kept[s] if c == BABY or c >> 3 not in revealed]
            self.drafted[s] = [c for c in self.drafted[s] if c == BABY or c >> 3 not in revealed]
        best = max(self.scores)
        winners = tuple(s for s in range(n) if self.scores[s] == best)
        self.games.append(GameResult(self.number + 1, reveal.scores, winners, self.reveal))
        totals = ", ".join(f"{seat_name(s)} {self.scores[s]}" for s in range(n))
        verdict = (
            f"{seat_name(winners[0])} wins"
            if len(winners) == 1
            else f"{sequence_of([seat_name(s) for s in winners])} tie on {best}: a shared win"
        )
        self._say(f"Final scores: {totals}. {verdict} (SS-9).", rules=("SS-9",))
        if not self.cfg.super_surplus:
            self.is_over = True
            return
        if len(winners) > 1:
            self._say("A tied game counts as no win in the Super Surplus (SS-10).", rules=("SS-10",))
        else:
            self.wins[winners[0]] += 1
        tally = ", ".join(f"{seat_name(s)} {self.wins[s]}" for s in range(n))
        if max(self.wins) >= WINS_NEEDED:
            self.is_over = True
            champion = self.wins.index(max(self.wins))
            self._say(
                f"Wins: {tally}. {seat_name(champion)} wins the Super Surplus (SS-10)!",
                player=champion,
                rules=("SS-10",),
            )
            return
        self._say(f"Wins: {tally}. First to {WINS_NEEDED} wins takes the Super Surplus (SS-10).", rules=("SS-10",))
        self.start_game(self.number + 1, *self.game.shuffled_deal(self.seed, self.number + 1))

    # -- explanations --

    def _turn_of(self, seat: int) -> SurplusState | tuple[str, tuple[str, ...]]:
        """For "if it were their turn": this position with `seat` to pick or draft next, if they still do."""
        n = self.cfg.players
        if self.phase == PICK:
            if seat < self.turn:
                return f"{seat_name(seat)} has already made their opening pick", ("SS-3",)
            twin = self.clone()
            twin.turn = seat
            return twin
        after = 0 if self.phase == DRAFT else 1  # during a Baby choice the chooser has drafted already
        to_draft = [(self.turn + after + i) % n for i in range(self.left)]
        if seat not in to_draft:
            return f"{seat_name(seat)} has already drafted this round", ("SS-4",)
        if self.row < 0:
            return (
                f"the Active Player, {seat_name(self.active)}, takes first and so chooses the row everyone drafts from",
                ("SS-4",),
            )
        twin = self.clone()
        twin.phase, twin.turn, twin.left = DRAFT, seat, self.left - to_draft.index(seat)
        return twin

    def _judge(self, move: SurplusMove, legal: bool) -> Explanation:
        text = str(move)
        if isinstance(move, Pick):
            reason, rules = self._judge_pick(move, legal)
        elif isinstance(move, Take):
            reason, rules = self._judge_take(move, legal)
        else:
            reason, rules = self._judge_baby(move, legal)
        if not legal and not reason:
            reason = "that move is not possible here"
        return Explanation(text, legal, reason, rules)

    def _judge_pick(self, move: Pick, legal: bool) -> tuple[str, tuple[str, ...]]:
        if legal:
            return (
                f"{card_name(move.card)} goes face down into the Net; nobody sees it until everyone has picked, "
                "and you keep your other two cards",
                ("SS-3",),
            )
        if self.phase != PICK:
            return "the opening picks are over; each player picks once, before the River is dealt", ("SS-3",)
        return f"{card_name(move.card)} is not among the cards you were dealt", ("SS-3",)

    def _judge_take(self, move: Take, legal: bool) -> tuple[str, tuple[str, ...]]:
        row = move.row - 1
        if self.phase == PICK:
            return "drafting starts once everyone has made their opening pick", ("SS-3", "SS-4")
        if self.phase == BABY_CHOICE:
            return "first answer your Baby: 'keep', or 'net <card>' to put a card from your hand into the Net", (
                "SS-6",
            )
        if not self.rivers[row]:
            return f"row {move.row} is empty: the deck ran out, so it was not refilled", ("SS-5",)
        if self.row >= 0 and row != self.row:
            return (
                f"this round everyone drafts from row {self.row + 1}, the row the Active Player "
                f"({seat_name(self.active)}) took from",
                ("SS-4",),
            )
        if not legal:
            held = card_names([CARD_CODES[c] for c in self.rivers[row]])
            return f"{card_name(move.card)} is not in row {move.row} (it holds {held})", ("SS-4",)
        if self.row < 0:
            reason = f"as the Active Player you may take any River card; the others then take from row {move.row} too"
        else:
            reason = f"{card_name(move.card)} is in row {move.row}, the row everyone drafts from this round"
        if move.card == BABY_CODE:
            return (
                reason + "; a Baby also lets you put one card from your hand into the Net, and at the end it "
                "lengthens a run that reaches 1 but never makes a run alone",
                ("SS-4", "SS-6", "SS-8"),
            )
        return reason + self._last_words(), ("SS-4",)

    def _last_words(self) -> str:
        """For the move that ends the game: what happens next (SS-5, SS-7, SS-8, SS-9)."""
        drafters_left = 1 if self.phase == DRAFT else 0  # a Baby decision comes after its draft
        if self.deck or sum(1 for r in self.rivers if r) > 1 or self.left != drafters_left:
            return ""
        return (
            "; it is the last draft: the leftover falls into the Net, no River card is left, and the reveal "
            "follows, type by type: best runs (SS-7), who takes the Net cards (SS-8) and the points (SS-9)"
        )

    def _judge_baby(self, move: NetCard | Keep, legal: bool) -> tuple[str, tuple[str, ...]]:
        if self.phase != BABY_CHOICE:
            return "only a player who has just drafted a Baby may 'keep' or 'net' a card", ("SS-6",)
        if isinstance(move, Keep):
            return "you decline the Baby's offer and keep your whole hand" + self._last_words(), ("SS-6",)
        card = move.card
        if legal:
            kind = card_type(CODE_IDS[card])
            who = (
                "it scores 0 there and belongs to no type"
                if kind < 0
                else f"whoever has the best {SLOTH_TYPES[kind].card_word} run at the end takes it"
            )
            return (
                f"your Baby lets you put {netted_words(card)} from your hand into the Net; {who}{self._last_words()}",
                (
                    "SS-6",
                    "SS-8",
                ),
            )
        if card == BABY_CODE and CODE_IDS[card] in self.hand(self.turn):
            return "in this game a Baby never nets itself: put another card into the Net, or keep", ("SS-6",)
        return f"{card_name(card)} is not in your hand", ("SS-6",)

    # -- what players may know (SS-11) --

    def _observation(self, player: int) -> SurplusObservation:
        return self._observe(player)

    def view(self) -> SurplusObservation:
        return self._observe(None)

    def public_observation(self) -> SurplusObservation:
        return self._observe(NO_PLAYER)  # no seat: every hidden part empty

    def _observe(self, viewer: int | None) -> SurplusObservation:
        n = self.cfg.players
        to_move = self.current_player
        show_moves = not self.is_over and (viewer is None or viewer == to_move)
        picks_open = self.phase != PICK
        row_1, row_2 = self.rivers
        if self.phase == DRAFT:
            to_draft = tuple((self.turn + i) % n for i in range(self.left))
        elif self.phase == BABY_CHOICE:
            to_draft = tuple((self.turn + 1 + i) % n for i in range(self.left))
        else:
            to_draft = ()
        return SurplusObservation(
            game=self.game.name,
            player=viewer,
            current_player=to_move,
            is_over=self.is_over,
            legal_moves=tuple(self.legal_moves()) if show_moves else (),
            log=tuple(self.events),
            players=n,
            types=tuple(t.letter for t in SLOTH_TYPES[: self.cfg.num_types]),
            babies=self.cfg.babies,
            super_surplus=self.cfg.super_surplus,
            game_number=self.number + 1,
            phase=PHASES[self.phase],
            active_player=self.active,
            row=self.row + 1 if self.row >= 0 and self.phase in (DRAFT, BABY_CHOICE) else None,
            to_draft=to_draft,
            rivers=(tuple(CARD_CODES[c] for c in row_1), tuple(CARD_CODES[c] for c in row_2)),
            deck_count=len(self.deck),
            net=tuple(codes(c for c in self.net if c != BABY and c >> 3 == t) for t in range(self.cfg.num_types)),
            net_babies=self.net.count(BABY),
            kept=tuple(codes(self.kept[s]) if viewer is None or viewer == s else None for s in range(n)),
            kept_counts=tuple(len(k) for k in self.kept),
            drafted=tuple(codes(d) for d in self.drafted),
            picked=tuple(p >= 0 for p in self.picks),
            picks=tuple(
                CARD_CODES[p] if p >= 0 and (picks_open or viewer is None or viewer == s) else None
                for s, p in enumerate(self.picks)
            ),
            claimed=tuple(codes(c) for c in self.claimed),
            discards=tuple(codes(d) for d in self.discards),
            scores=tuple(self.scores),
            reveal=self.reveal,
            games=tuple(self.games),
            wins=tuple(self.wins),
        )


# --- worlds consistent with an observation (for search) ------------------------------


def _world_sampler(game: SurplusOfSloths, obs: SurplusObservation) -> Callable[[random.Random], SurplusState]:
    me = obs.player
    assert me is not None
    n = obs.players

    def ids(cards: tuple[str, ...] | None) -> list[int]:
        return [CARD_IDS[c.upper()] for c in cards or ()]

    own_kept = ids(obs.kept[me])
    pick_order = [CARD_IDS[m.card.upper()] for m in obs.legal_moves if isinstance(m, Pick)]
    if pick_order:  # keep the deal order the engine lists the picks in
        own_kept.sort(key=lambda c: pick_order.index(c) if c in pick_order else len(pick_order))
    drafted = [ids(d) for d in obs.drafted]
    rivers = [ids(r) for r in obs.rivers]
    net = [c for cards in obs.net for c in ids(cards)] + [BABY] * obs.net_babies
    known_picks = [CARD_IDS[p.upper()] if p is not None else -1 for p in obs.picks]
    picks_in_net = obs.phase != "pick"
    seen = own_kept + [c for d in drafted for c in d] + [c for r in rivers for c in r] + net
    seen += [c for cards in (*obs.claimed, *obs.discards) for c in ids(cards)]  # the reveal's cards: public
    if not picks_in_net and known_picks[me] >= 0:
        seen.append(known_picks[me])
    unseen = game.cards()
    for card in seen:
        unseen.remove(card)
    unseen_naturals = [c for c in unseen if c != BABY]
    unseen_babies = [c for c in unseen if c == BABY]
    hidden_picks = [s for s in range(n) if s != me and obs.picked[s] and known_picks[s] < 0]
    kept_counts = obs.kept_counts
    # everything else about the world is public: set once, copied per world
    template = SurplusState(game, 0, None)
    template.number = obs.game_number - 1
    template.phase, template.turn, template.active = PHASES.index(obs.phase), obs.current_player, obs.active_player
    template.row = obs.row - 1 if obs.row is not None else -1
    template.left = len(obs.to_draft)
    template.deck, template.kept, template.picks = [], [], []  # dealt per world
    template.rivers = rivers
    template.drafted = drafted
    template.net = net
    template.claimed = [ids(c) for c in obs.claimed]
    template.discards = [ids(d) for d in obs.discards]
    template.scores = list(obs.scores)
    template.reveal = obs.reveal
    template.games = list(obs.games)
    template.wins = list(obs.wins)
    template.is_over = obs.is_over
    template.events = list(obs.log)

    def sample(rng: random.Random) -> SurplusState:
        cards = unseen_naturals.copy()
        rng.shuffle(cards)
        kept = [own_kept.copy() if s == me else [cards.pop() for _ in range(kept_counts[s])] for s in range(n)]
        picks = known_picks.copy()
        for s in hidden_picks:
            picks[s] = cards.pop()
        deck = cards + unseen_babies
        rng.shuffle(deck)
        world = template.clone()
        world.seed = rng.getrandbits(32)
        world.kept, world.picks, world.deck = kept, picks, deck
        return world

    return sample


@dataclass(frozen=True)
class SurplusObservation:
    """What one seat may know (SS-11); ``player=None`` is the omniscient view.

    Cards are codes ("L5", "LX", "Baby"). `kept` holds the private cards kept
    from the opening deal (None for other seats); `picks` are None until all
    have picked (except the viewer's own). `net` is per type in SS-1 order.
    `reveal` is the last finished game's reveal, one TypeResult per type.
    """

    game: str
    player: int | None
    current_player: int
    is_over: bool
    legal_moves: tuple[SurplusMove, ...]
    log: tuple[Event, ...]
    players: int
    types: tuple[str, ...]
    babies: bool
    super_surplus: bool
    game_number: int
    phase: str  # pick | draft | baby | over
    active_player: int
    row: int | None  # the River row (1/2) drafted this round, once chosen
    to_draft: tuple[int, ...]  # seats still to take a card this round, in order
    rivers: tuple[tuple[str, ...], tuple[str, ...]]
    deck_count: int
    net: tuple[tuple[str, ...], ...]
    net_babies: int
    kept: tuple[tuple[str, ...] | None, ...]
    kept_counts: tuple[int, ...]
    drafted: tuple[tuple[str, ...], ...]
    picked: tuple[bool, ...]
    picks: tuple[str | None, ...]
    claimed: tuple[tuple[str, ...], ...]
    discards: tuple[tuple[str, ...], ...]
    scores: tuple[int, ...]
    reveal: tuple[TypeResult, ...]
    games: tuple[GameResult, ...]
    wins: tuple[int, ...]


__all__ = [
    "GameResult",
    "Keep",
    "NetCard",
    "Pick",
    "RULES",
    "SurplusConfig",
    "SurplusMove",
    "SurplusObservation",
    "SurplusOfSloths",
    "SurplusState",
    "Take",
    "recount",
]
