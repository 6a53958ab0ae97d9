"""Too Sloth To Win: a climbing race (rules/too-sloth-to-win.txt, rulings TS-1..TS-16).

Cards are ints (see too_sloth_to_win_combos for the encoding and TS-3 strength).

TS-16 Deadlock: when the lead falls on an empty table and every active player holds
only drinks, nobody can ever lead again, so the round ends at once (no pass needed)
with no Trophy and no Cash Chip, and the pacemaker stays. While some active player
can still lead, a leader holding only drinks passes the lead left (TS-5). A
finisher's meeple stops on the finish square: positions never go past it.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
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
    check_seat,
    counted,
    seat_name,
    seeded_rng,
)
from sloth_kernel.errors import ConfigError

# The cards. Each ``name as name`` import is re-exported: renderers, bots, search, widgets and notebooks
# read the card vocabulary through the engine.
from sloth_kernel.games.too_sloth_to_win.combos import DRINK as DRINK
from sloth_kernel.games.too_sloth_to_win.combos import DRINK_BASE as DRINK_BASE
from sloth_kernel.games.too_sloth_to_win.combos import (
    LONE_DRINK,
    Candidates,
    all_combinations,
    beats,
    by_lowest_pair,
    canonical,
    card_text,
    combo_kind,
    strength,
)
from sloth_kernel.games.too_sloth_to_win.combos import card_value as card_value
from sloth_kernel.games.too_sloth_to_win.combos import combo_name as combo_name
from sloth_kernel.games.too_sloth_to_win.combos import hand_bits as hand_bits
from sloth_kernel.games.too_sloth_to_win.combos import hand_text as hand_text
from sloth_kernel.games.too_sloth_to_win.combos import needs as needs
from sloth_kernel.notation import (
    NotationProblem,
    ascii_int,
    is_ascii_number,
    move_text,
    move_words,
    read_notation,
    same_value,
    shown,
)

# --- constants ---------------------------------------------------------------

HAND_SIZE = 8
COPIES = 5
ACTIVE, FINISHED, ELIMINATED = 0, 1, 2
SEAT_COLOURS = ("#d64545", "#2f6fd0", "#2a9d3a", "#d9a400", "#8a4fc7")
SEAT_COLOUR_NAMES = ("Red", "Blue", "Green", "Yellow", "Purple")
SEAT_NAMES = tuple(seat_name(s) for s in range(5))
ROUND_START = "round-start"
"""``Event.kind`` of the narration that deals a round (TS-2, TS-13)."""
LEAD_PASS = "lead-pass"
"""``Event.kind`` of a leader's pass with only drinks in hand (TS-5)."""
ROUND_RESULTS = "round-results"
"""``Event.kind`` of the first line of a round's results (who took a Trophy or a Cash Chip) when another
round follows: a board shows the results as a step of their own, then the next deal (``ROUND_START``).
The last round's results are the game's end, shown with it."""

RULES: dict[str, str] = {
    "TS-1": "The running cards are the numbers 1 to 8, five of each, 40 in all; a game of three players takes "
    "every 7 and 8 out first. The game seats 3 to 5.",
    "TS-2": "Everyone gets 8 running cards plus one Suspicious Drink. Cards left undealt sit out the round, face "
    "down and unseen.",
    "TS-3": "Every Jump and every Run outranks a Single. A Jump only beats a Jump and a Run only a Run: more "
    "cards wins, and with as many cards the higher number wins (a Run counts its top card). A tie never "
    "beats.",
    "TS-4": "You give a drink its number, 1 to 9, when it goes into a Jump or Run of 2 or 3 cards; one drink at "
    "most per play, and never on its own. If it is ever left by itself on the table, it counts as a "
    "Single 9.",
    "TS-5": "Leading onto an empty table is compulsory. If your drink is all you hold, you cannot lead, so the "
    "lead moves on to the next active player on your left.",
    "TS-6": "To pass, you pick up a card from one end of the play on the table (a drink too). The cards left "
    "behind count as a play of their own, and the next player has to beat that.",
    "TS-7": "You cannot pass on a Single: doing so knocks you out of the round, you pick up nothing, and the "
    "Single stays where it is.",
    "TS-8": "Once all the other active players have passed or dropped out since someone last played, the table is"
    " swept and that player leads; if they are out themselves, the next active player on their left "
    "leads.",
    "TS-9": "Each card you play moves your meeple one space, and reaching space 9 finishes you. Without the board"
    " (No-Board), emptying your hand finishes you.",
    "TS-10": "Whoever finishes first wins a Trophy, and anyone else still holding a drink is knocked out for drug "
    "possession. If somebody was already out before that finish, or nobody is left, the finisher wins a "
    "Cash Chip too and the round is over.",
    "TS-11": "If not, play carries on from the finisher's left, against the finisher's last play, in a race for "
    "second; whoever finishes next, or is the only one left standing, wins a Cash Chip and the round is "
    "over.",
    "TS-12": "If everyone but one player is knocked out before anybody finishes, that player counts as first and "
    "wins both a Trophy and a Cash Chip.",
    "TS-13": "The pacemaker leads: in round 1 a seat chosen in the options, in every later round whoever finished "
    "first in the round before.",
    "TS-14": "A game lasts three rounds, with a fresh shuffle each time. The winner holds the most Cash Chips; a "
    "tie goes to the most Trophies, then to whoever won a Cash Chip last.",
    "TS-15": "Everyone sees each play, each pick-up and each knock-out, so everyone knows who still has a drink. "
    "Hands, undealt cards and the order of the deck stay secret.",
    "TS-16": "If nobody still in can lead because every hand is nothing but drinks, the round stops there: no "
    "Trophy, no Cash Chip, and the pacemaker does not change. A meeple that finishes stays on the finish "
    "square.",
}


# --- the rules in the words a table shows beside the play (each citing its rule, as events do) ------

LEAD_ANY = Event("lead any combination: a Single, a Jump or a Run (TS-5)", rules=("TS-5",))
"""What the leader may do on an empty table (a turn hint)."""
OR_ELIMINATED = Event("or pass and be eliminated from the round (TS-7)", rules=("TS-7",))
"""The other choice against a Single (a turn hint, after "beat the …")."""
OR_TAKE = Event("or pass and take a card from one end of it (TS-6)", rules=("TS-6",))
"""The other choice against a Jump or a Run (a turn hint, after "beat the …")."""
SINGLE_PASS = Event("passing on a Single eliminates you, TS-7", rules=("TS-7",))
"""Said beside a Single on the table."""
ELIMINATING_PASS = Event("you are eliminated, TS-7", rules=("TS-7",))
"""Said on the Pass button when passing is elimination."""
EMPTY_TABLE = Event("Empty table: the leader plays any combination (TS-5).", rules=("TS-5",))
SUSPICIOUS = Event(
    "Someone is out, so the organizers are suspicious: whoever finishes first also takes a Cash Chip and ends "
    "the round (TS-10).",
    rules=("TS-10",),
)
"""Said while someone is out before anyone has finished."""
WINNER_RULE = Event(
    "The winner has the most Cash Chips; on a tie, the most Trophies; on a tie again, the Cash Chip gained most "
    "recently (TS-14).",
    rules=("TS-14",),
)
"""How the game's winner is found, said at the end."""

# --- config ------------------------------------------------------------------


@dataclass(frozen=True)
class TooSlothConfig(GameConfig):
    """Options. `finish` and `drinks` exist for the variant lab; defaults are the rulebook's."""

    players: int = 4
    pacemaker: int = 0
    no_board: bool = False
    finish: int = 9
    rounds: int = 3
    drinks: int = 1

    @property
    def top_number(self) -> int:
        return 6 if self.players == 3 else 8


# --- moves -------------------------------------------------------------------


_PLAY_TEXT: dict[tuple[int, ...], str] = {}


@dataclass(frozen=True, slots=True)
class Play(Move):
    """Play a combination; `cards` sorted by value, a drink as DRINK_BASE + declared."""

    cards: tuple[int, ...]

    def __eq__(self, other: object) -> bool:
        # strict: a Play built by hand with (4.0, 5.0) or (True,) is no move of the game
        if type(other) is not Play:
            return NotImplemented
        return self.cards == other.cards and same_value(self.cards, other.cards)

    def __str__(self) -> str:
        cards = self.cards
        try:
            text = _PLAY_TEXT.get(cards)
        except TypeError:  # built by hand with unhashable cards
            return shown(self)
        if text is None:
            if not (type(cards) is tuple and cards_readable(cards)):
                return shown(self)  # built by hand with odd cards: its repr, never a crash
            text = _PLAY_TEXT[cards] = "-".join(card_text(c) for c in cards)
        return text

    @property
    def words(self) -> str:
        """The play as people read it: 'Run 4-5-6 (a drink as the 5)' (its notation is '4-D5-6')."""
        cards = self.cards
        if not (type(cards) is tuple and cards_readable(cards)):
            return str(self)
        return combo_name(cards)


@dataclass(frozen=True, slots=True)
class Pass(Move):
    """Pass, taking an end card (a number, or DRINK), or nothing (TS-5, TS-7)."""

    take: int | None = None

    def __eq__(self, other: object) -> bool:
        if type(other) is not Pass:
            return NotImplemented
        return self.take == other.take and self.take.__class__ is other.take.__class__

    def __str__(self) -> str:
        try:
            return _PASS_TEXT[self.take]
        except (KeyError, TypeError):  # built by hand with an odd card: its repr, never a crash
            return shown(self)

    @property
    def words(self) -> str:
        """'pass', 'pass and take the 6', 'pass and take the drink' (its notation is 'pass 6', 'pass D')."""
        take = self.take
        if take is None or type(take) is not int or take not in _PASS_TEXT:  # 'pass', or one built by hand
            return str(self)
        return "pass and take the drink" if take == DRINK else f"pass and take the {take}"


def cards_readable(cards: tuple[object, ...]) -> bool:
    """1 to 3 cards, each 1-8 or a drink declared 1-9: what the notation can write."""
    return 0 < len(cards) <= 3 and all(type(c) is int and (1 <= c <= 8 or DRINK_BASE < c <= LONE_DRINK) for c in cards)


COUNT_WORDS = ("no", "only one", "only two", "only three")


def holding_words(kind: int, held: int) -> str:
    """How many of a card a hand holds, truthfully: 'no 8s', 'only one 8', 'no drink', 'only two drinks'."""
    many = "drinks" if held > 1 else "drink"
    noun = many if kind == DRINK else str(kind) if held == 1 else f"{kind}s"
    return f"{COUNT_WORDS[held] if held < len(COUNT_WORDS) else f'only {held}'} {noun}"


_PLAYED: dict[tuple[int, ...], str] = {}
_TAKEN: dict[tuple[tuple[int, ...], int], tuple[tuple[int, ...], str]] = {}


def played_phrase(cards: tuple[int, ...]) -> str:
    """' plays Run 4-5-6 and moves 3 to ' (cached; the narration of a play)."""
    phrase = _PLAYED.get(cards)
    if phrase is None:
        phrase = _PLAYED[cards] = f" plays {combo_name(cards)} and moves {len(cards)} to "
    return phrase


def taken_from(table: tuple[int, ...], kind: int) -> tuple[tuple[int, ...], str]:
    """TS-6: the table left after taking `kind` from an end, and the narration's tail (cached)."""
    key = (table, kind)
    found = _TAKEN.get(key)
    if found is None:
        cards = list(table)
        index = next(i for i in (0, len(cards) - 1) if (DRINK if cards[i] > DRINK_BASE else cards[i]) == kind)
        cards.pop(index)
        rest = (LONE_DRINK,) if len(cards) == 1 and cards[0] > DRINK_BASE else tuple(cards)
        taken = "the drink" if kind == DRINK else f"the {kind}"
        found = _TAKEN[key] = (rest, f" passes and takes {taken}; the table now shows {combo_name(rest)}.")
    return found


WRITE_A_RUN = "write a Run as '4-5-6', a Jump as '5-5', a drink inside one as '4-D5-6', or 'pass 6'"
WRITE_A_PASS = "write 'pass', 'pass 6' (take the 6) or 'pass D' (take the drink)"
WRITE_A_DRINK = "write 'D5' for a drink declared as 5, inside a Jump or Run: '4-D5-6'"
_PASS_TEXT: dict[int | None, str] = {None: "pass", DRINK: "pass D", **{n: f"pass {n}" for n in range(1, 10)}}
TooSlothMove = Play | Pass
Answers = tuple[Candidates, list[Pass], dict[int, tuple[Play, ...]]]


# --- the game ----------------------------------------------------------------


class TooSlothToWin(Game[TooSlothConfig, "TooSlothState"]):
    """Too Sloth To Win for 3-5 players.

    Explicit deals, for scenarios and tests: ``game.from_deal(deal, seed)`` with
    ``deal = {"hands": ["1 2 2 5 6 7 8 8 D", ...], "positions": [0, 3, ...],
    "pacemaker": 0}``. `hands` (required) lists each seat's cards for round 1 (a
    drink is ``D``); `positions` (optional) sets the meeples for a mid-round
    scenario; later rounds are dealt from `seed`.
    """

    name = "too-sloth-to-win"
    title = "Too Sloth To Win"
    config_class = TooSlothConfig
    rules = RULES
    rules_version = 2
    rules_changes = {2: "TS-16, a round where nobody can lead ends at once, before any leader passes"}

    def __init__(self, config: TooSlothConfig) -> None:
        super().__init__(config)
        self.cfg = cfg = config
        self.combinations = [Play(c) for c in all_combinations(cfg.top_number)]
        self.pass_moves = {t: Pass(t) for t in (None, DRINK, *range(1, 10))}
        every: list[TooSlothMove] = [*self.combinations, *self.pass_moves.values()]
        self._by_text = {str(m): m for m in every}
        self._answers: dict[tuple[int, ...], Answers] = {}

    @property
    def num_players(self) -> int:
        return self.cfg.players

    def deck(self) -> list[int]:
        return [n for n in range(1, self.cfg.top_number + 1) for _ in range(COPIES)]

    def _new_state(self, seed: int) -> TooSlothState:
        state = TooSlothState(self, seed, None)
        state.start_round(0, self.cfg.pacemaker)
        return state

    def _from_deal(self, deal: Mapping[str, Any], seed: int) -> TooSlothState:
        hands = [self.parse_hand(text) for text in deal["hands"]]
        if len(hands) != self.cfg.players:
            raise ConfigError(f"the deal has {len(hands)} hands for {self.cfg.players} players")
        pool = needs(())
        for n in range(1, 9):
            pool[n] = COPIES if n <= self.cfg.top_number else 0
        for n in range(1, 9):
            if sum(h[n] for h in hands) > pool[n]:
                raise ConfigError(f"the deal holds more than {pool[n]} cards numbered {n} (TS-1)")
        if sum(h[DRINK] for h in hands) > self.cfg.players * max(self.cfg.drinks, 1):
            raise ConfigError("the deal holds more drinks than the game has (TS-2)")
        positions = list(deal.get("positions", [0] * self.cfg.players))
        if len(positions) != self.cfg.players or not all(
            isinstance(p, int) and 0 <= p < self.cfg.finish for p in positions
        ):
            raise ConfigError(f"positions must be {self.cfg.players} spaces before the finish")
        pacemaker = check_seat(deal.get("pacemaker", self.cfg.pacemaker), self.cfg.players, what="pacemaker")
        state = TooSlothState(self, seed, dict(deal))
        state.start_round(0, pacemaker, hands=hands, positions=positions)
        return state

    def parse_hand(self, text: str) -> list[int]:
        """A hand written as ``"1 2 2 5 6 7 8 8 D"`` (commas work too) as counts; ConfigError if unreadable."""
        if not isinstance(text, str):
            raise ConfigError(f"a hand is written as text like '1 2 2 5 6 7 8 8 D', not {shown(text)}")
        hand = [0] * 9
        for token in text.replace(",", " ").split():
            if token in ("D", "d"):
                hand[DRINK] += 1
            elif is_ascii_number(token) and 1 <= int(token) <= self.cfg.top_number:
                hand[int(token)] += 1
            else:
                raise ConfigError(f"{shown(token)} is not a card in this game (1-{self.cfg.top_number} or D)")
        return hand

    def all_moves(self) -> list[Move]:
        """Every move this game can offer, in a fixed order (the interop action index)."""
        return [*self.combinations, *self.pass_moves.values()]

    @classmethod
    def world_sampler(
        cls, observation: Any, options: Mapping[str, Any] | None = None
    ) -> Callable[[random.Random], TooSlothState]:
        """Worlds consistent with one seat's observation (TS-15: hands, undealt cards and deck order are hidden).

        What is public comes from the observation and its log (:func:`public_facts`): cards
        a seat took and has not played since stay in its hand, who holds a drink is known.
        The other naturals of the round are shuffled over the hidden hands and the undealt pile.
        """
        if not isinstance(observation, TooSlothObservation) or observation.player is None:
            what = (
                "the omniscient view"
                if isinstance(observation, TooSlothObservation)
                else f"an object of type {type(observation).__name__}"
            )
            raise ConfigError(
                f"sample worlds from one seat's observation of this game (TooSlothObservation), not {what}"
            )
        obs = observation
        facts = public_facts(obs)
        game = cls.shared(**{**observed_options(obs, facts), **(options or {})})
        return _world_sampler(game, obs, facts)

    def parse_move(self, text: str) -> TooSlothMove:
        """Table notation: ``4-5-6``, ``5-5-D5`` (a drink declared 5), ``7``, ``pass``, ``pass 6``, ``pass D``.

        Any case; an en dash works as a dash. ASCII only, at most ``MAX_MOVE_TEXT`` characters
        (see :mod:`sloth_kernel.notation`); anything else is an InvalidMoveError.
        """
        return read_notation(text, self._by_text, self._read_move, game=self.name)

    def _read_move(self, text: object) -> TooSlothMove:
        words = move_words(move_text(text, example=WRITE_A_RUN).replace("–", "-"), example=WRITE_A_RUN)
        if words[0].lower() == "pass":
            return self._read_pass(words[1:])
        if len(words) != 1:
            raise NotationProblem("a combination is one word, its cards joined by dashes", WRITE_A_RUN)
        tokens = words[0].split("-")
        if len(tokens) > 3:
            raise NotationProblem(f"a combination has 1 to 3 cards, not {len(tokens)} (TS-3)", WRITE_A_RUN)
        cards = canonical(tuple(self._read_card(t) for t in tokens))
        known = self._by_text.get(str(Play(cards)))
        return known if known is not None else Play(cards)

    def _read_pass(self, rest: list[str]) -> Pass:
        if rest and rest[0].lower() == "take":
            rest = rest[1:]
        if not rest:
            return self.pass_moves[None]
        if len(rest) == 1:
            word = rest[0].upper()
            if word == "D":
                return self.pass_moves[DRINK]
            if word.isdigit():
                return self.pass_moves[
                    ascii_int(word, low=1, high=9, what="the card a pass takes", example=WRITE_A_PASS)
                ]
        raise NotationProblem("a pass takes nothing, a number 1 to 9, or D (the drink)", WRITE_A_PASS)

    def _read_card(self, written: str) -> int:
        token = written.upper()
        if token.startswith("D"):
            if len(token) == 1:
                raise NotationProblem(
                    "declare the drink's number: a drink plays as the number it is declared (TS-4)", WRITE_A_DRINK
                )
            return DRINK_BASE + ascii_int(
                token[1:], low=1, high=9, what="a drink's declared number", example=WRITE_A_DRINK
            )
        if is_ascii_number(token) and 1 <= int(token) <= 8:
            return int(token)
        shown_token = repr(written) if written else "an empty card"  # as the player wrote it
        raise NotationProblem(
            f"{shown_token} is not a card: the cards are 1 to 8, and D1 to D9 for a drink", WRITE_A_RUN
        )

    def legal_for(self, hand: list[int], bits: int, table: tuple[int, ...]) -> list[TooSlothMove]:
        """Legal moves for a hand, given as its ``hand_bits``, facing `table` (TS-3..TS-7).

        Plays are grouped by the pair {2g+1, 2g+2} holding their lowest running
        card; a group only depends on the hand's numbers 2g+1..2g+4 and whether it
        holds a drink, so each group's answer is cached under those few bits.
        """
        answer = self._answers.get(table)
        if answer is None:
            answer = self._answers[table] = self._answers_to(table)
        groups, passes, cache = answer
        drink = bits & 1
        plays: list[TooSlothMove] = []
        for pair, group in groups:
            shift = 6 * pair + 3
            if bits >> shift & 0b1001:
                key = (bits >> shift & 0xFFF) << 4 | pair << 1 | drink
                found = cache.get(key)
                if found is None:
                    missing = ~bits
                    found = cache[key] = tuple(m for m, need in group if not need & missing)
                plays += found
        if not table and not plays:
            return [self.pass_moves[None]]
        return plays + passes

    def _answers_to(self, table: tuple[int, ...]) -> Answers:
        """Combinations that beat `table`, grouped with their needs as bits, and the passes."""
        groups = by_lowest_pair([(m, hand_bits(needs(m.cards))) for m in self.combinations if beats(m.cards, table)])
        if not table:
            return groups, [], {}
        if len(table) == 1:
            return groups, [self.pass_moves[None]], {}
        ends = {table[0], table[-1]} if combo_kind(table) == "run" else set(table)
        takes = sorted({DRINK if c > DRINK_BASE else c for c in ends})
        return groups, [self.pass_moves[t] for t in takes], {}


# --- the state ----------------------------------------------------------------


@dataclass(frozen=True)
class RoundResult:
    """How a round ended: who finished first and second, who took a Trophy or a Cash Chip; `text` says
    it in words, citing `rules` (TS-10..TS-12, TS-16)."""

    round: int
    first: int | None
    second: int | None
    trophy: tuple[int, ...]
    chip: tuple[int, ...]
    note: str
    text: str = ""
    rules: tuple[str, ...] = ()


def _names(seats: Sequence[int]) -> str:
    """'Player 1', 'Player 1 and Player 3', 'Player 1, Player 2 and Player 4'."""
    words = [seat_name(s) for s in seats]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def result_words(first: int | None, second: int | None, chip: Sequence[int], note: str) -> tuple[str, tuple[str, ...]]:
    """How a round ended and who took what, in words, and the rules that say so (TS-10..TS-12, TS-16)."""
    if first is None:
        return "Nobody could lead (every hand held only drinks): no Trophy and no Cash Chip (TS-16).", ("TS-16",)
    if note == "lone survivor":
        return (
            f"{seat_name(first)} was the last one left in the race: first, with a Trophy and a Cash Chip (TS-12).",
            ("TS-12",),
        )
    text = f"{seat_name(first)} finished first and took a Trophy"
    if note == "suspicious organizers":
        return (
            text + "; someone had been eliminated before, so the organizers grew suspicious: a Cash Chip too (TS-10).",
            ("TS-10",),
        )
    if note == "everyone else eliminated":
        return text + "; everyone else still held a drink and was eliminated, so a Cash Chip too (TS-10).", ("TS-10",)
    if second is not None:
        how = ", the only one left," if note == "last player standing" else ""
        return text + f"; {seat_name(second)} finished second{how} and took the Cash Chip (TS-11).", ("TS-11",)
    return text + f"; Cash Chip: {_names(chip) if chip else 'nobody'}.", ("TS-10",)


@dataclass(frozen=True)
class RoundEnd:
    """The newest finished round's end as a board shows it in steps, before the next deal: the table and
    the track after the play that ended it, the figures before and after its results. Public, but for
    `hands`, which holds the seat's own hand only (every hand in the omniscient view)."""

    result: RoundResult
    table: tuple[int, ...]
    table_owner: int
    positions: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    drinks_held: tuple[int, ...]
    hands: tuple[tuple[int, ...] | None, ...]
    status_before: tuple[str, ...]  # before the results: whoever the last move placed not placed yet
    status: tuple[str, ...]  # with the results
    trophies_before: tuple[int, ...]
    chips_before: tuple[int, ...]
    trophies: tuple[int, ...]
    chips: tuple[int, ...]

    def seen_by(self, viewer: int | None) -> RoundEnd:
        """This round end as `viewer` may know it (their own hand only; None: every hand)."""
        if viewer is None:
            return self
        hands = tuple(hand if seat == viewer else None for seat, hand in enumerate(self.hands))
        return dataclasses.replace(self, hands=hands)


class TooSlothState(GameState[TooSlothMove, "TooSlothObservation"]):
    """A position: hands, meeples, the table and the awards so far."""

    game: TooSlothToWin

    def __init__(self, game: TooSlothToWin, seed: int, deal: Mapping[str, Any] | None) -> None:
        n = game.cfg.players
        self.game = game
        self.cfg = game.cfg
        self.seed = seed
        self.deal = deal
        self.history: list[TooSlothMove] = []
        self.events: list[Event] = []
        self.round = 0
        self.hands: list[list[int]] = [[0] * 9 for _ in range(n)]
        self.bits = [0] * n  # hand_bits of each hand, kept in step with it
        self.undealt: list[int] = [0] * 9
        self.discarded = 0
        self.positions = [0] * n
        self.status = [ACTIVE] * n
        self.why_out: list[str] = [""] * n
        self.table: tuple[int, ...] = ()
        self.owner = NO_PLAYER
        self.passed = 0  # bitmask of seats that passed since the last play
        self.lead_passes = 0
        self.turn = 0
        self.pacemaker = 0
        self.finishers: list[int] = []
        self.suspicious = False
        self.trophies = [0] * n
        self.chips = [0] * n
        self.last_chip = [-1] * n
        self.results: list[RoundResult] = []
        self.round_end: RoundEnd | None = None  # the newest round's end, staged before the next deal
        self.over = False

    # -- protocol --

    @property
    def current_player(self) -> int:
        return NO_PLAYER if self.over else self.turn

    @property
    def is_over(self) -> bool:
        return self.over

    def legal_moves(self) -> list[TooSlothMove]:
        if self.over:
            return []
        seat = self.turn
        return self.game.legal_for(self.hands[seat], self.bits[seat], self.table)

    def returns(self) -> tuple[float, ...]:
        n = len(self.chips)
        if not self.over:
            return (0.0,) * n
        winner = self.winner()
        return tuple(1.0 if s == winner else 0.0 for s in range(n))

    def clone(self) -> TooSlothState:
        twin = object.__new__(TooSlothState)
        twin.__dict__.update(self.__dict__)
        twin.history = self.history.copy()
        twin.events = self.events.copy()
        twin.hands = [h.copy() for h in self.hands]
        for name in (
            "bits",
            "positions",
            "status",
            "why_out",
            "finishers",
            "trophies",
            "chips",
            "last_chip",
            "results",
        ):
            setattr(twin, name, getattr(self, name).copy())
        return twin

    # -- rounds --

    def start_round(
        self,
        number: int,
        pacemaker: int,
        *,
        hands: list[list[int]] | None = None,
        positions: list[int] | None = None,
    ) -> None:
        cfg = self.cfg
        n = cfg.players
        deck = self.game.deck()
        if hands is None:
            seeded_rng(self.seed, "deal", number).shuffle(deck)
            hands = []
            for seat in range(n):
                hand = [0] * 9
                hand[DRINK] = cfg.drinks
                for card in deck[seat * HAND_SIZE : (seat + 1) * HAND_SIZE]:
                    hand[card] += 1
                hands.append(hand)
            rest = deck[n * HAND_SIZE :]
        else:
            rest = deck
            for hand in hands:
                for value in range(1, 9):
                    for _ in range(hand[value]):
                        rest.remove(value)
        self.round = number
        self.hands = hands
        self.bits = [hand_bits(h) for h in hands]
        self.undealt = needs(tuple(rest))
        self.discarded = 0
        self.positions = positions or [0] * n
        self.status = [ACTIVE] * n
        self.why_out = [""] * n
        self.table, self.owner, self.passed, self.lead_passes = (), NO_PLAYER, 0, 0
        self.finishers = []
        self.suspicious = False
        self.pacemaker = self.turn = pacemaker
        self._say(
            f"Round {number + 1} of {cfg.rounds}: {HAND_SIZE} cards and {counted(cfg.drinks, 'drink')} dealt to each "
            f"player; {seat_name(pacemaker)} is the pacemaker and leads.",
            rules=("TS-2", "TS-13"),
            kind=ROUND_START,
        )
        self._check_deadlock()  # only a dealt scenario can start so (TS-16)

    def _end_round(self, note: str, second: int | None = None) -> None:
        cfg = self.cfg
        first = self.finishers[0] if self.finishers else None
        trophy = tuple(s for s in range(cfg.players) if s == first)
        chip = tuple(s for s in range(cfg.players) if self.last_chip[s] == self.round)
        text, rules = result_words(first, second, chip, note)
        result = RoundResult(self.round, first, second, trophy, chip, note, text, rules)
        self.results.append(result)
        if self.round + 1 < cfg.rounds:
            self._keep_round_end(result)
            self.start_round(self.round + 1, first if first is not None else self.pacemaker)
            return
        self.over = True
        winner = self.winner()
        self._say(
            f"Game over. {seat_name(winner)} wins with {counted(self.chips[winner], 'Cash Chip')} and "
            f"{counted(self.trophies[winner], 'Trophy', 'Trophies')} (TS-14: chips, then trophies, then the most recent chip).",
            rules=("TS-14",),
        )

    def _keep_round_end(self, result: RoundResult) -> None:
        """Keep the round's end for the board's steps, and mark the first line of its results
        (the first line after the move that ended it) as ``ROUND_RESULTS``."""
        events = self.events
        last_move = max((i for i, e in enumerate(events) if e.move is not None), default=-1)
        if 0 <= last_move < len(events) - 1 and events[last_move + 1].kind is None:
            events[last_move + 1] = events[last_move + 1]._replace(kind=ROUND_RESULTS)
        status = self._status_words()
        # placed by the move that ended the round: the second finisher, or else the first (who, when a
        # second finished, had finished earlier in the round and has held the Trophy since)
        placed = result.second if result.second is not None else result.first
        before = tuple("active" if s == placed else word for s, word in enumerate(status))
        trophies, chips = tuple(self.trophies), tuple(self.chips)
        trophy_now = result.trophy if result.second is None else ()
        self.round_end = RoundEnd(
            result=result,
            table=self.table,
            table_owner=self.owner,
            positions=tuple(self.positions),
            hand_sizes=tuple(sum(h) for h in self.hands),
            drinks_held=tuple(h[DRINK] for h in self.hands),
            hands=tuple(tuple(h) for h in self.hands),
            status_before=before,
            status=status,
            trophies_before=tuple(t - (s in trophy_now) for s, t in enumerate(trophies)),
            chips_before=tuple(c - (s in result.chip) for s, c in enumerate(chips)),
            trophies=trophies,
            chips=chips,
        )

    def _status_words(self) -> tuple[str, ...]:
        """Each seat's state in this round, as the observation says it."""
        return tuple(
            "active"
            if st == ACTIVE
            else ("1st" if self.finishers and self.finishers[0] == s else "2nd")
            if st == FINISHED
            else f"out: {self.why_out[s]}"
            for s, st in enumerate(self.status)
        )

    def winner(self) -> int:
        """TS-14: most Cash Chips, then most Trophies, then the latest Cash Chip."""
        seats = range(len(self.chips))
        return max(seats, key=lambda s: (self.chips[s], self.trophies[s], self.last_chip[s], -s))

    def _award(self, seat: int, trophy: bool, chip: bool) -> None:
        if trophy:
            self.trophies[seat] += 1
        if chip:
            self.chips[seat] += 1
            self.last_chip[seat] = self.round

    def _active(self) -> list[int]:
        return [s for s, st in enumerate(self.status) if st == ACTIVE]

    def _next_active(self, seat: int) -> int:
        n = len(self.status)
        for step in range(1, n + 1):
            candidate = (seat + step) % n
            if self.status[candidate] == ACTIVE:
                return candidate
        return NO_PLAYER

    def _say(
        self,
        text: str,
        *,
        player: int | None = None,
        move: Move | None = None,
        rules: tuple[str, ...] = (),
        kind: str | None = None,
    ) -> None:
        self.events.append(Event(text, player, None if move is None else str(move), rules, kind))

    # -- applying moves --

    def _apply(self, move: TooSlothMove) -> None:
        seat = self.turn
        if isinstance(move, Play):
            self._play(seat, move)
        else:
            self._pass(seat, move)

    def _play(self, seat: int, move: Play) -> None:
        hand = self.hands[seat]
        bits = self.bits[seat]
        for card in move.cards:
            kind = DRINK if card > DRINK_BASE else card
            hand[kind] -= 1
            if hand[kind] < 3:
                bits &= ~(1 << 3 * kind + hand[kind])
        self.bits[seat] = bits
        self.discarded += len(self.table)
        self.table, self.owner, self.passed, self.lead_passes = move.cards, seat, 0, 0
        cfg = self.cfg
        reached = self.positions[seat] + len(move.cards)
        if reached >= cfg.finish and not cfg.no_board:
            self.positions[seat] = cfg.finish  # TS-16: the meeple stops on the finish square
            rules: tuple[str, ...] = ("TS-3", "TS-9", "TS-16") if reached > cfg.finish else ("TS-3", "TS-9")
            where = "the finish."
        else:
            self.positions[seat] = reached
            rules = ("TS-3", "TS-9")
            where = "the finish." if reached >= cfg.finish else f"space {reached}."
        self.events.append(Event(SEAT_NAMES[seat] + played_phrase(move.cards) + where, seat, str(move), rules))
        done = not any(hand) if cfg.no_board else self.positions[seat] >= cfg.finish
        if done:
            self._finish(seat)
        else:
            self.turn = self._next_active(seat)

    def _finish(self, seat: int) -> None:
        self.status[seat] = FINISHED
        self.finishers.append(seat)
        if len(self.finishers) == 2:
            self._award(seat, False, True)
            self._say(
                f"{seat_name(seat)} finishes second, fixes the race and takes a Cash Chip.",
                player=seat,
                rules=("TS-11",),
            )
            self._end_round("second finisher", second=seat)
            return
        self._award(seat, True, False)
        self._say(f"{seat_name(seat)} crosses the finish line first and takes a Trophy.", player=seat, rules=("TS-10",))
        if self.suspicious:
            self._award(seat, False, True)
            self._say(
                "Someone was eliminated earlier, so the organizers grow suspicious: "
                f"{seat_name(seat)} also takes a Cash Chip and the round ends.",
                player=seat,
                rules=("TS-10",),
            )
            self._end_round("suspicious organizers")
            return
        for other in self._active():
            if self.hands[other][DRINK]:
                self._eliminate(other, "drug possession (still holding a drink)", "TS-10")
        survivors = self._active()
        if not survivors:
            self._award(seat, False, True)
            self._say(
                f"Nobody is left to race for second: {seat_name(seat)} also takes a Cash Chip.",
                player=seat,
                rules=("TS-10",),
            )
            self._end_round("everyone else eliminated")
        elif len(survivors) == 1:
            self._second_by_default(survivors[0])
        else:
            self.passed = 0
            self.turn = self._next_active(seat)
            self._say(
                f"The race for second begins: beat {combo_name(self.table)}, starting with {seat_name(self.turn)}.",
                rules=("TS-11",),
            )

    def _second_by_default(self, seat: int) -> None:
        self.status[seat] = FINISHED
        self.finishers.append(seat)
        self._award(seat, False, True)
        self._say(
            f"{seat_name(seat)} is the only one left, counts as second and takes a Cash Chip.",
            player=seat,
            rules=("TS-11",),
        )
        self._end_round("last player standing", second=seat)

    def _eliminate(self, seat: int, reason: str, rule: str) -> None:
        self.status[seat] = ELIMINATED
        self.why_out[seat] = reason
        if not self.finishers:
            self.suspicious = True
        self._say(f"{seat_name(seat)} is eliminated from the round: {reason}.", player=seat, rules=(rule,))

    def _pass(self, seat: int, move: Pass) -> None:
        if not self.table:
            self._lead_pass(seat, move)
            return
        if move.take is None:
            self._say(f"{seat_name(seat)} passes on {combo_name(self.table)}.", player=seat, move=move, rules=("TS-7",))
            self._eliminate(seat, "couldn't beat a Single", "TS-7")
            survivors = self._active()
            if len(survivors) == 1:
                if self.finishers:
                    self._second_by_default(survivors[0])
                else:
                    lone = survivors[0]
                    self.status[lone] = FINISHED
                    self.finishers.append(lone)
                    self._award(lone, True, True)
                    self._say(
                        f"{seat_name(lone)} is the lone survivor: first, with a Trophy and a Cash Chip.",
                        player=lone,
                        rules=("TS-12",),
                    )
                    self._end_round("lone survivor")
                return
        else:
            self._take(seat, move, move.take)
        self.passed |= 1 << seat
        self._after_pass(seat)

    def _take(self, seat: int, move: Pass, kind: int) -> None:
        """TS-6: `seat` passes taking the card `kind` (``move.take``) from an end of the table."""
        hand = self.hands[seat]
        if hand[kind] < 3:
            self.bits[seat] |= 1 << 3 * kind + hand[kind]
        hand[kind] += 1
        self.table, phrase = taken_from(self.table, kind)
        self.events.append(Event(SEAT_NAMES[seat] + phrase, seat, str(move), ("TS-6",)))

    def _after_pass(self, seat: int) -> None:
        status, passed, owner = self.status, self.passed, self.owner
        waiting = any(st == ACTIVE and s != owner and not passed >> s & 1 for s, st in enumerate(status))
        if waiting:
            self.turn = self._next_active(seat)
            return
        self.discarded += len(self.table)
        self.table, self.passed = (), 0
        leader = owner if status[owner] == ACTIVE else self._next_active(owner)
        self.turn = leader
        self._say(f"Everyone else has passed: the table clears and {seat_name(leader)} leads.", rules=("TS-8",))
        self._check_deadlock()

    def _deadlocked(self) -> bool:
        """TS-16: nobody active can lead: every active hand holds only drinks (no running card)."""
        hands = self.hands
        return all(not any(hands[s][1:]) for s, st in enumerate(self.status) if st == ACTIVE)

    def _check_deadlock(self) -> bool:
        """TS-16: with the lead on an empty table and nobody able to lead, end the round at once."""
        if self.table or not self._deadlocked():
            return False
        self._say(
            "Nobody can lead: every active player holds only drinks. The round ends at once with no Trophy "
            "and no Cash Chip.",
            rules=("TS-16",),
        )
        self._end_round("nobody could lead")
        return True

    def _lead_pass(self, seat: int, move: Pass) -> None:
        self.lead_passes += 1
        self._say(
            f"{seat_name(seat)} holds only drinks and cannot lead; the lead passes left.",
            player=seat,
            move=move,
            rules=("TS-5",),
            kind=LEAD_PASS,
        )
        self.turn = self._next_active(seat)

    # -- explanations --

    def _turn_of(self, seat: int) -> TooSlothState | tuple[str, tuple[str, ...]]:
        """For "if it were their turn": this position with `seat` to move, unless they are out of the round."""
        if self.status[seat] == FINISHED:
            return f"{seat_name(seat)} has already finished this round", ("TS-9",)
        if self.status[seat] == ELIMINATED:
            rule = "TS-10" if "drink" in self.why_out[seat] else "TS-7"
            return f"{seat_name(seat)} is out of this round: {self.why_out[seat]}", (rule,)
        twin = self.clone()
        twin.turn = seat
        return twin

    def _judge(self, move: TooSlothMove, legal: bool) -> Explanation:
        text = str(move)
        table = combo_name(self.table) if self.table else "an empty table"
        if isinstance(move, Pass):
            return self._judge_pass(move, legal, text, table)
        assert isinstance(move, Play)
        cards = move.cards
        drinks = sum(c > DRINK_BASE for c in cards)
        if drinks and len(cards) == 1:
            return Explanation(
                text, False, "a drink is never played as a Single; use it inside a 2-3 card Jump or Run", ("TS-4",)
            )
        if drinks > 1:
            return Explanation(text, False, "at most one drink per combination (overdosing can be fatal)", ("TS-4",))
        kind = combo_kind(cards)
        if kind is None:
            return Explanation(
                text,
                False,
                f"{text} is neither a Jump (same numbers) nor a Run (consecutive numbers)",
                ("TS-3",),
            )
        top = self.cfg.top_number
        absent = sorted({c for c in cards if top < c <= 8})
        if absent:
            numbers = " or ".join(f"{n}s" for n in range(top + 1, 9))
            return Explanation(
                text,
                False,
                f"there are no {numbers} with {self.cfg.players} players: they are taken out of the deck",
                ("TS-1",),
            )
        hand = self.hands[self.turn]
        need = needs(cards)
        short = [holding_words(i, hand[i]) for i in range(9) if hand[i] < need[i]]
        if short:
            return Explanation(text, False, f"{seat_name(self.turn)} holds {' and '.join(short)}", ("TS-2",))
        if not legal:
            return Explanation(text, False, self._why_not_stronger(cards, kind), ("TS-3",))
        spaces = len(cards)
        reason = (
            f"{combo_name(cards)} leads on an empty table"
            if not self.table
            else f"{combo_name(cards)} beats {table}: {self._why_stronger(cards)}"
        )
        reached = self.positions[self.turn] + spaces
        if not self.cfg.no_board and reached > self.cfg.finish:
            return Explanation(
                text,
                True,
                f"{reason}; the meeple moves {counted(spaces, 'space')} but stops on the finish square "
                f"(space {self.cfg.finish})",
                ("TS-3", "TS-9", "TS-16"),
            )
        return Explanation(text, True, f"{reason}; the meeple moves {counted(spaces, 'space')}", ("TS-3", "TS-9"))

    def _why_stronger(self, cards: tuple[int, ...]) -> str:
        new_kind, new_size, new_top = strength(cards)
        old_kind, old_size, old_top = strength(self.table)
        if old_kind == "single" and new_kind != "single":
            return "every Jump and Run beats a Single"
        if new_size > old_size:
            return "more cards wins"
        return f"same number of cards and a higher number ({new_top} > {old_top})"

    def _why_not_stronger(self, cards: tuple[int, ...], kind: str) -> str:
        new_kind, new_size, new_top = strength(cards)
        old_kind, old_size, old_top = strength(self.table)
        table = combo_name(self.table)
        if old_kind != "single" and new_kind != old_kind:
            if new_kind == "single":
                return f"a Single never beats a {old_kind.capitalize()} ({table} is on the table)"
            return (
                f"a {new_kind.capitalize()} cannot beat a {old_kind.capitalize()}: Jumps only beat Jumps "
                f"and Runs only beat Runs ({table} is on the table)"
            )
        if (new_size, new_top) == (old_size, old_top):
            return f"{combo_name(cards)} only equals {table}; equal is not stronger"
        if new_size < old_size:
            return f"{combo_name(cards)} has fewer cards than {table}"
        return f"{combo_name(cards)} is lower than {table} ({new_top} < {old_top})"

    def _judge_pass(self, move: Pass, legal: bool, text: str, table: str) -> Explanation:
        found = self._judge_pass_alone(move, legal, text, table)
        if legal and self._ends_in_deadlock(move):
            return Explanation(
                text,
                True,
                f"{found.reason}; then nobody can lead (every active hand holds only drinks), so the round ends "
                "at once with no Trophy and no Cash Chip",
                (*found.rules, "TS-16"),
            )
        return found

    def _ends_in_deadlock(self, move: Pass) -> bool:
        """Whether this legal pass leads to the TS-16 deadlock: read from a clone that plays it."""
        child = self.clone()
        child.apply_unchecked(move)
        return any("TS-16" in event.rules for event in child.events[len(self.events) :])

    def _judge_pass_alone(self, move: Pass, legal: bool, text: str, table: str) -> Explanation:
        if not self.table:
            if legal:
                return Explanation(text, True, "your hand holds only drinks, so the lead passes to the left", ("TS-5",))
            return Explanation(text, False, "the leader must play on an empty table", ("TS-5",))
        if len(self.table) == 1:
            if move.take is not None:
                return Explanation(
                    text,
                    False,
                    f"a Single cannot be weakened: passing on {table} eliminates you, taking nothing",
                    ("TS-7",),
                )
            return Explanation(
                text, True, f"passing on {table} eliminates you from the round: you couldn't beat a Single", ("TS-7",)
            )
        if move.take is None:
            return Explanation(text, False, f"a pass must take an end card of {table}", ("TS-6",))
        if not legal:
            ends = sorted({DRINK if c > DRINK_BASE else c for c in (self.table[0], self.table[-1])})
            choices = " or ".join("the drink" if c == DRINK else f"the {c}" for c in ends)
            return Explanation(text, False, f"a pass takes a card from either end of {table}: {choices}", ("TS-6",))
        what = "the drink" if move.take == DRINK else f"the {move.take}"
        return Explanation(
            text, True, f"you pass and take {what} from {table}; the weaker rest stays on the table", ("TS-6",)
        )

    # -- what players may know --

    def _observation(self, player: int) -> TooSlothObservation:
        return self._observe(player)

    def view(self) -> TooSlothObservation:
        return self._observe(None)

    def public_observation(self) -> TooSlothObservation:
        return self._observe(NO_PLAYER)  # no seat: every hidden part empty

    def _observe(self, viewer: int | None) -> TooSlothObservation:
        cfg = self.cfg
        to_move = self.current_player
        show_moves = not self.over and (viewer is None or viewer == to_move)
        hands = tuple(tuple(self.hands[s]) if viewer is None or viewer == s else None for s in range(cfg.players))
        status = self._status_words()
        return TooSlothObservation(
            game=self.game.name,
            player=viewer,
            current_player=to_move,
            is_over=self.over,
            legal_moves=tuple(self.legal_moves()) if show_moves else (),
            log=tuple(self.events),
            players=cfg.players,
            round=self.round,
            rounds=cfg.rounds,
            finish=cfg.finish,
            no_board=cfg.no_board,
            pacemaker=self.pacemaker,
            hands=hands,
            hand_sizes=tuple(sum(h) for h in self.hands),
            drinks_held=tuple(h[DRINK] for h in self.hands),
            positions=tuple(self.positions),
            status=status,
            table=self.table,
            table_owner=self.owner,
            passed=tuple(bool(self.passed >> s & 1) for s in range(cfg.players)),
            suspicious=self.suspicious,
            trophies=tuple(self.trophies),
            chips=tuple(self.chips),
            results=tuple(self.results),
            winner=self.winner() if self.over else None,
            round_end=None if self.round_end is None else self.round_end.seen_by(viewer),
        )


# --- worlds consistent with an observation (for search) ------------------------------


@dataclass
class PublicFacts:
    """Public facts of the current round, read from an observation's log (TS-15)."""

    known: list[list[int]]
    """Per seat: cards of each kind it must still hold (taken from the table, not played since)."""
    played: list[int]
    """Naturals played this round, by kind."""
    taken: list[int]
    """Naturals taken back from the table this round, by kind."""
    cards_played: int
    """All cards played this round (drinks included)."""
    cards_taken: int
    net_size_change: list[int]
    """Per seat: cards taken minus cards played this round."""
    lead_passes: int
    """Leaders in a row who passed the lead (TS-5), since the last play."""


def public_facts(obs: TooSlothObservation) -> PublicFacts:
    """What the log of this round tells everyone about the hands (TS-15)."""
    game = TooSlothToWin.shared(**observed_options(obs))
    n = obs.players
    facts = _no_facts(n)
    for event in obs.log:
        if event.kind == ROUND_START:
            facts = _no_facts(n)
            continue
        if event.move is None or event.player is None:
            continue
        seat = event.player
        move = game.parse_move(event.move)
        if isinstance(move, Play):
            facts.lead_passes = 0
            facts.cards_played += len(move.cards)
            facts.net_size_change[seat] -= len(move.cards)
            known = facts.known[seat]
            for card in move.cards:
                kind = DRINK if card > DRINK_BASE else card
                facts.played[kind] += 1
                known[kind] = max(0, known[kind] - 1)
        elif isinstance(move, Pass):
            if move.take is not None:
                facts.cards_taken += 1
                facts.net_size_change[seat] += 1
                facts.taken[move.take] += 1
                facts.known[seat][move.take] += 1
            elif event.kind == LEAD_PASS:
                facts.lead_passes += 1
    return facts


def _no_facts(players: int) -> PublicFacts:
    return PublicFacts([[0] * 9 for _ in range(players)], [0] * 9, [0] * 9, 0, 0, [0] * players, 0)


def observed_options(obs: TooSlothObservation, facts: PublicFacts | None = None) -> dict[str, Any]:
    """The config options an observation shows; with `facts`, the drinks dealt (from the viewer's hand size)."""
    options: dict[str, Any] = {
        "players": obs.players,
        "finish": obs.finish,
        "no_board": obs.no_board,
        "rounds": obs.rounds,
    }
    if facts is not None and obs.player is not None:
        dealt = obs.hand_sizes[obs.player] - facts.net_size_change[obs.player]
        options["drinks"] = max(0, min(2, dealt - HAND_SIZE))
    return options


def _world_sampler(
    game: TooSlothToWin, obs: TooSlothObservation, facts: PublicFacts
) -> Callable[[random.Random], TooSlothState]:
    me = obs.player
    assert me is not None
    own_hand = obs.hands[me]
    assert own_hand is not None
    own = list(own_hand)
    top = game.cfg.top_number
    # unseen naturals: the round's deck minus own hand, minus cards played and not taken back
    # (on the table or discarded), minus cards publicly known to sit in another hand
    unseen = [0] * 9
    for kind in range(1, 9):
        unseen[kind] = (COPIES if kind <= top else 0) - own[kind] - (facts.played[kind] - facts.taken[kind])
        unseen[kind] -= sum(facts.known[seat][kind] for seat in range(obs.players) if seat != me)
    unseen_cards = [kind for kind in range(1, 9) for _ in range(unseen[kind])]
    # each other hand: its public cards and drinks, then `missing[seat]` cards from the shuffled pool
    public_hands: list[list[int]] = []
    missing: list[int] = []
    for seat in range(obs.players):
        hand = own.copy() if seat == me else list(facts.known[seat])
        if seat != me:
            hand[DRINK] = obs.drinks_held[seat]
        public_hands.append(hand)
        missing.append(0 if seat == me else obs.hand_sizes[seat] - sum(hand))
    # everything else about the world is public: set once, copied per world
    template = TooSlothState(game, 0, None)
    template.round = obs.round
    template.hands, template.bits = [], []  # dealt per world
    template.discarded = facts.cards_played - facts.cards_taken - len(obs.table)
    template.positions = list(obs.positions)
    template.status = [
        ACTIVE if st == "active" else FINISHED if st in ("1st", "2nd") else ELIMINATED for st in obs.status
    ]
    template.why_out = [st[len("out: ") :] if st.startswith("out: ") else "" for st in obs.status]
    template.table = obs.table
    template.owner = obs.table_owner
    template.passed = sum(1 << s for s, p in enumerate(obs.passed) if p)
    template.lead_passes = facts.lead_passes
    template.turn = obs.current_player
    template.pacemaker = obs.pacemaker
    template.finishers = [s for tag in ("1st", "2nd") for s, st in enumerate(obs.status) if st == tag]
    template.suspicious = obs.suspicious
    template.trophies = list(obs.trophies)
    template.chips = list(obs.chips)
    template.last_chip = [max((r.round for r in obs.results if s in r.chip), default=-1) for s in range(obs.players)]
    template.results = list(obs.results)
    # the round's end as the seat knew it: the others' hands at that moment are not the seat's to know
    template.round_end = None if obs.round_end is None else obs.round_end.seen_by(obs.player)
    template.over = obs.is_over
    template.events = list(obs.log)
    seats = range(obs.players)

    def sample(rng: random.Random) -> TooSlothState:
        pool = unseen_cards.copy()
        rng.shuffle(pool)
        hands = []
        for seat in seats:
            hand = public_hands[seat].copy()
            for _ in range(missing[seat]):
                hand[pool.pop()] += 1
            hands.append(hand)
        world = template.clone()
        world.seed = rng.getrandbits(32)
        world.hands = hands
        world.bits = [hand_bits(h) for h in hands]
        world.undealt = needs(tuple(pool))
        return world

    return sample


@dataclass(frozen=True)
class TooSlothObservation:
    """What one seat may know (TS-15); ``player=None`` is the omniscient view."""

    game: str
    player: int | None
    current_player: int
    is_over: bool
    legal_moves: tuple[TooSlothMove, ...]
    log: tuple[Event, ...]
    players: int
    round: int
    rounds: int
    finish: int
    no_board: bool
    pacemaker: int
    hands: tuple[tuple[int, ...] | None, ...]
    hand_sizes: tuple[int, ...]
    drinks_held: tuple[int, ...]
    positions: tuple[int, ...]
    status: tuple[str, ...]
    table: tuple[int, ...]
    table_owner: int
    passed: tuple[bool, ...]
    suspicious: bool
    trophies: tuple[int, ...]
    chips: tuple[int, ...]
    results: tuple[RoundResult, ...]
    winner: int | None
    round_end: RoundEnd | None = None
    """The newest round's end before the next deal, for a board's steps (``ROUND_RESULTS``)."""
