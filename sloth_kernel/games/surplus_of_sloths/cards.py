"""Cards, runs and the end-of-game reveal of Surplus of Sloths (SS-1, SS-7, SS-8, SS-9).

Pure helpers on small integer card ids, shared by the game module, its
renderer and its bots. A card id is ``type * 8 + value`` with value 1-7 for a
number and 0 for an X; the Baby Sloth is :data:`BABY`. Outside the engine a
card is its short code: type letter + number or X (``"L5"``, ``"LX"``) or
``"Baby"``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sloth_kernel.core import seat_name, sequence_of

if TYPE_CHECKING:
    import random


@dataclass(frozen=True)
class SlothType:
    """One sloth type as the rulebook's Sloth Types key shows it (SS-1)."""

    letter: str
    name: str
    icon_words: str  # how the rulebook names the icon
    icon: str  # render.kit icon
    color: str
    short: str = ""  # how a card of the type is named, when shorter than the type's name ("Linnaeus 5")

    @property
    def card_word(self) -> str:
        return self.short or self.name

    @property
    def label(self) -> str:
        return f"{self.name} ({self.icon_words}, {self.letter})"


# SS-1: the order of the rulebook's Sloth Types list; 2-4 players use the first players + 1.
SLOTH_TYPES: tuple[SlothType, ...] = (
    SlothType("R", "Pygmy", "red dot", "dot", "#c0392b"),
    SlothType("S", "Maned", "brown spiral", "spiral", "#8b5a2b"),
    SlothType("L", "Linnaeus Two-Toed", "green leaf", "leaf", "#1f6b42", "Linnaeus"),
    SlothType("Y", "Pale Throated", "yellow drop", "drop", "#8a6300"),
    SlothType("B", "Brown Throated", "blue wave", "wave", "#2b6cb0"),
    SlothType("C", "Pygmy Three-Toed", "crescent moon", "moon", "#6b4fa0"),
)
X = 0  # the value part of an X card
X_PER_TYPE = 3
BABY = len(SLOTH_TYPES) * 8
BABY_CODE = "Baby"
BABIES = 4
SEAT_NAMES = tuple(seat_name(s) for s in range(4))

CARD_CODES: dict[int, str] = {BABY: BABY_CODE}
for _t, _kind in enumerate(SLOTH_TYPES):
    for _v in range(8):
        CARD_CODES[_t * 8 + _v] = _kind.letter + (str(_v) if _v else "X")
CARD_IDS: dict[str, int] = {code.upper(): card for card, code in CARD_CODES.items()}
CARD_NAMES: dict[str, str] = {BABY_CODE: "Baby"}
"""A card code's name as a person reads it: "R6" is "Pygmy 6", "LX" is "Linnaeus X" (the notation stays for
records and typed input)."""
for _t, _kind in enumerate(SLOTH_TYPES):
    for _v in range(8):
        CARD_NAMES[CARD_CODES[_t * 8 + _v]] = f"{_kind.card_word} {_v or 'X'}"
NAME_IDS: dict[str, int] = {CARD_NAMES[code].upper(): card for card, code in CARD_CODES.items()}
for _kind in SLOTH_TYPES:  # the type's full name is a card's name too ("Linnaeus Two-Toed 5")
    for _v in range(8):
        NAME_IDS[f"{_kind.name} {_v or 'X'}".upper()] = SLOTH_TYPES.index(_kind) * 8 + _v


def card_name(code: str) -> str:
    """A card's name in words, from its code (a code it does not know is returned as it is)."""
    return CARD_NAMES.get(code, code)


def card_names(codes: Iterable[str]) -> str:
    """Cards' names in a list: "Pygmy 6, Maned X and Baby"."""
    return sequence_of([card_name(code) for code in codes])


def card_type(card: int) -> int:
    """Type index of a card; -1 for a Baby (it belongs to no type, SS-4)."""
    return -1 if card == BABY else card >> 3


def card_value(card: int) -> int:
    """The number on a card; 0 for an X or a Baby."""
    return 0 if card == BABY else card & 7


def parse_card(text: str) -> int | None:
    """The card id of a code such as ``"l5"`` or ``"baby"`` (case-insensitive, ASCII only), else None."""
    code = " ".join(text.split())
    if code.isascii() and code.upper() in NAME_IDS:  # a card's name: "Pygmy 3", "linnaeus x"
        return NAME_IDS[code.upper()]
    if len(code) > 4 or not code.isascii():  # ASCII first: upper() maps some other letters onto ASCII ones
        return None
    return CARD_IDS.get(code.upper())


def code_type(code: str) -> int:
    """Type index of a card code; -1 for a Baby."""
    return card_type(CARD_IDS[code.upper()])


def code_value(code: str) -> int:
    return card_value(CARD_IDS[code.upper()])


def type_deck(num_types: int) -> list[int]:
    """SS-1: for each type the numbers 1-7 and three X."""
    return [t * 8 + v for t in range(num_types) for v in (*range(1, 8), X, X, X)]


def sort_cards(cards: Iterable[int]) -> list[int]:
    """Type order, then numbers ascending, X after the numbers, Babies last."""
    return sorted(cards, key=lambda c: (c >> 3, c & 7 or 8))


def codes(cards: Iterable[int]) -> tuple[str, ...]:
    return tuple(CARD_CODES[c] for c in sort_cards(cards))


# --- runs (SS-7) ---------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """A best run: `length` cards, `top` = highest natural number (0: none), numbers lo..hi.

    ``baby`` says a Baby stands in as the 0 below 1; ``rivals`` says other runs of
    the same length exist with a lower highest number (so the choice needed the tie-break).
    """

    length: int
    top: int
    lo: int
    hi: int
    baby: bool
    rivals: bool

    @property
    def key(self) -> tuple[int, int]:
        return (self.length, self.top)


NO_RUN = Run(0, 0, 0, 0, False, False)


def _best_run(mask: int, xs: int, baby: bool) -> Run:
    """Search every window lo..hi of 1-7: missing numbers are filled by X cards.

    A Baby only lengthens a window that starts at 1; alone it makes no run (SS-8).
    """
    found: list[Run] = []
    for lo in range(1, 8):
        for hi in range(lo, 8):
            window = range(lo, hi + 1)
            missing = sum(1 for v in window if not mask >> (v - 1) & 1)
            if missing > xs:
                break
            top = max((v for v in window if mask >> (v - 1) & 1), default=0)
            with_baby = baby and lo == 1
            found.append(Run(hi - lo + 1 + with_baby, top, lo, hi, with_baby, False))
    if not found:
        return NO_RUN
    best = max(found, key=lambda r: r.key)  # first of equals: X cards fill the low end
    rivals = any(r.length == best.length and r.top < best.top for r in found)
    return Run(best.length, best.top, best.lo, best.hi, best.baby, rivals)


# A hand's cards of one type reduce to a profile: (numbers held as a bit mask, X count, Baby or not)
# packed as ``(mask * 4 + xs) * 2 + baby``. Every profile's best run is precomputed.
PROFILES = 128 * (X_PER_TYPE + 1) * 2


def _unpack(profile: int) -> tuple[int, int, bool]:
    return profile >> 3, profile >> 1 & 3, bool(profile & 1)


def run_labels(run: Run, mask: int) -> tuple[str, ...]:
    """The run as played, e.g. ``("Baby as 0", "1", "X as 2", "3")``."""
    if run.length == 0:
        return ()
    labels = ["Baby as 0"] if run.baby else []
    if run.hi:
        labels += [str(v) if mask >> (v - 1) & 1 else f"X as {v}" for v in range(run.lo, run.hi + 1)]
    return tuple(labels)


def run_words(run: Run, labels: Sequence[str], baby: bool = False) -> str:
    """Why this is the player's best run, in plain words (`baby`: the hand holds a Baby)."""
    if run.length == 0:
        if baby:
            return "no run (a Baby alone makes no run, SS-8)"
        return "no run (no cards of this type)"
    top = f"highest number {run.top}" if run.top else "no natural number (X and Baby do not count)"
    why = f"{', '.join(labels)} ({run.length} long, {top}"
    if run.rivals:
        why += f"; of their runs of {run.length} this one has the highest number"
    return why + ")"


RUNS: list[Run] = [_best_run(*_unpack(p)) for p in range(PROFILES)]
RUN_LABELS: list[tuple[str, ...]] = [run_labels(RUNS[p], p >> 3) for p in range(PROFILES)]
RUN_WORDS: list[str] = [run_words(RUNS[p], RUN_LABELS[p], bool(p & 1)) for p in range(PROFILES)]


# What one card adds to its type's profile: a number's bit, or 2 per X; a Baby sets bit 0 of slot 6.
_PROFILE_PART: list[int] = [(8 << (v - 1)) if v else 2 for _t in range(len(SLOTH_TYPES)) for v in range(8)] + [1]


def profiles(cards: Iterable[int], num_types: int) -> list[int]:
    """The profile of each type (see PROFILES) for one hand; a Baby serves every type (SS-7)."""
    packed = [0] * (len(SLOTH_TYPES) + 1)
    for card in cards:
        packed[card >> 3] += _PROFILE_PART[card]  # one card per number and type: adding sets the bit
    baby = 1 if packed[-1] else 0
    return [p | baby for p in packed[:num_types]]


def best_run(cards: Iterable[int], type_index: int) -> Run:
    """The best run (SS-7) of one type from a hand (at most one Baby is used)."""
    return RUNS[profiles(cards, len(SLOTH_TYPES))[type_index]]


# --- scoring (SS-9) --------------------------------------------------------------


def _points(numbers: list[int], xs: int) -> tuple[int, str]:
    total = sum(numbers)
    if not numbers:
        return 0, "0 (no numbers, and X cards only repeat the sum of the numbers)"
    if not xs:
        return total, " + ".join(map(str, numbers)) + f" = {total}"
    base = f"({'+'.join(map(str, numbers))})" if len(numbers) > 1 else str(total)
    return total * (1 + xs), " + ".join([base] + [str(total)] * xs) + f" = {total * (1 + xs)}"


# (points, arithmetic) of a Net pile of one type, by profile without the Baby bit (see PROFILES).
POINTS: list[tuple[int, str]] = [
    _points([v for v in range(1, 8) if p >> 2 & 1 << (v - 1)], p & 3) for p in range(PROFILES // 2)
]


def points(cards: Iterable[int]) -> tuple[int, str]:
    """SS-9: (sum of the numbers) x (1 + number of X), with the arithmetic shown.

    Examples from the rulebook: 2, 5, X, X -> "(2+5) + 7 + 7 = 21"; 2, 3, 5 -> "2 + 3 + 5 = 10".
    Babies score 0 and belong to no type (SS-4). Cards of one type, or Babies.
    """
    numbers = sorted(c & 7 for c in cards if c != BABY and c & 7)
    xs = sum(1 for c in cards if c != BABY and not c & 7)
    return _points(numbers, xs)


def recount(claimed: Iterable[int]) -> int:
    """A player's score from scratch: SS-9 applied to each type they took."""
    by_type: dict[int, list[int]] = {}
    for card in claimed:
        by_type.setdefault(card_type(card), []).append(card)
    return sum(points(cards)[0] for t, cards in by_type.items() if t >= 0)


# --- the reveal (SS-7, SS-8) ---------------------------------------------------------


@dataclass(frozen=True)
class PlayerRun:
    """One player's best run of one type at the reveal."""

    player: int
    cards: tuple[str, ...]  # their cards of the type (and a Baby, if held), shown at the reveal
    run: tuple[str, ...]  # e.g. ("X as 4", "5", "6")
    length: int
    top: int  # highest natural number in the run, 0 if none
    text: str  # e.g. "Player 2 has X as 4, 5, 6 (3 long, highest number 6)"


REVEAL_TYPE = "reveal-type"
"""``Event.kind`` of the line that opens one type's step of the reveal (SS-7, SS-8, SS-9): a board shows
the reveal one type with Net cards at a time, each step from this line to the next one's."""


@dataclass(frozen=True)
class TypeResult:
    """The reveal of one type: runs, claim, points and discards, as data and as words."""

    type_index: int
    type_letter: str
    type_name: str
    net_cards: tuple[str, ...]
    runs: tuple[PlayerRun, ...]
    winner: int | None
    points: int
    arithmetic: str
    lines: tuple[str, ...]  # narration, one log line each
    rules: tuple[str, ...] = ("SS-7", "SS-8", "SS-9")


def _shown(type_index: int, profile: int) -> tuple[str, ...]:
    """The cards a profile stands for, as codes in order (numbers, X cards, Baby)."""
    mask, xs, baby = _unpack(profile)
    letter = SLOTH_TYPES[type_index].letter
    shown = tuple(f"{letter}{v}" for v in range(1, 8) if mask >> (v - 1) & 1)
    return shown + (letter + "X",) * xs + ((BABY_CODE,) if baby else ())


SHOWN: list[list[tuple[str, ...]]] = [[_shown(t, p) for p in range(PROFILES)] for t in range(len(SLOTH_TYPES))]
_PLAYER_RUNS: dict[tuple[int, int, int], PlayerRun] = {}


def player_run(seat: int, type_index: int, profile: int) -> PlayerRun:
    """A seat's best run of one type from its profile (cached: the same hand gives the same words)."""
    key = (seat, type_index, profile)
    found = _PLAYER_RUNS.get(key)
    if found is None:
        run = RUNS[profile]
        said = f"{SEAT_NAMES[seat]} has {RUN_WORDS[profile]}"
        found = PlayerRun(seat, SHOWN[type_index][profile], RUN_LABELS[profile], run.length, run.top, said)
        _PLAYER_RUNS[key] = found
    return found


_NET_WORDS: dict[tuple[int, int], str] = {}


def reveal_type(type_index: int, hand_profiles: Sequence[int], net_profile: int) -> TypeResult:
    """Compare every player's best run of one type and award that type's Net cards (SS-7, SS-8, SS-9).

    `hand_profiles` holds each seat's profile of this type and `net_profile` the Net's
    cards of this type (see :func:`profiles`; Babies in the Net belong to no type).
    Narrated in two lines: the Net and every best run; then the claim, points and discards.
    """
    kind = SLOTH_TYPES[type_index]
    letter = kind.letter
    runs = tuple([player_run(seat, type_index, p) for seat, p in enumerate(hand_profiles)])
    keys = [(r.length, r.top) for r in runs]
    best = max(keys)
    net_codes = SHOWN[type_index][net_profile & ~1]
    net_words = _NET_WORDS.get((type_index, net_profile))
    if net_words is None:
        net_words = _NET_WORDS[type_index, net_profile] = (
            f"{kind.label}: the Net holds {sequence_of(net_codes)}. Best runs: "
        )
    lines = [net_words + "; ".join([r.text for r in runs]) + "."]
    winner: int | None = None
    score, arithmetic = 0, ""
    if best[0] == 0:
        claim = f"Nobody has a {kind.name} run, so the {letter} cards stay in the Net (SS-8)."
    elif keys.count(best) > 1:
        names = sequence_of([SEAT_NAMES[s] for s, key in enumerate(keys) if key == best])
        top = f"highest number {best[1]}" if best[1] else "no natural number"
        claim = f"{names} tie on length {best[0]} and {top}, so nobody takes the {letter} cards; they stay in the Net (SS-8)."
    else:
        winner = keys.index(best)
        score, arithmetic = POINTS[net_profile >> 1]
        claim = f"{_claim_words(letter, winner, keys, len(net_codes))} {SEAT_NAMES[winner]} scores {arithmetic} (SS-9)."
    babies = " (Babies stay in hand)" if any([p & 1 for p in hand_profiles]) else ""
    lines.append(f"{claim} Everyone discards their {letter} cards{babies} (SS-7).")
    return TypeResult(type_index, letter, kind.name, net_codes, runs, winner, score, arithmetic, tuple(lines))


def _claim_words(letter: str, winner: int, keys: Sequence[tuple[int, int]], count: int) -> str:
    """Why `winner` takes the cards: longest run, or the tie-break on the highest number."""
    length, top = keys[winner]
    name = SEAT_NAMES[winner]
    takes = f"{name} takes the {count} {letter} card{'s' if count != 1 else ''}"
    same_length = [s for s, key in enumerate(keys) if key[0] == length and s != winner]
    if not same_length:
        return f"{name}'s run of {length} is the longest, so {takes} (SS-8)."
    beaten = sequence_of([f"{SEAT_NAMES[s]}'s {keys[s][1] or 'none'}" for s in same_length])
    return (
        f"Runs of {length} tie on length; {name}'s highest number {top} beats {beaten} "
        f"(X and Baby do not count), so {takes} (SS-7, SS-8)."
    )


@dataclass(frozen=True)
class GameResult:
    """One finished game: scores, winners (several on a tie) and the reveal."""

    number: int
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    reveal: tuple[TypeResult, ...]


@dataclass(frozen=True)
class Reveal:
    """The whole end-of-game reveal (SS-7, SS-8, SS-9) as a state applies it."""

    results: tuple[TypeResult, ...]
    lines: tuple[tuple[str, int | None, tuple[str, ...]], ...]  # (text, seat, rule ids) per log line
    starts: tuple[int, ...]  # per result: the line that opens its step (the "nothing to win" lines before it first)
    claimed: tuple[tuple[int, ...], ...]  # per seat: the Net cards won
    scores: tuple[int, ...]
    net_left: tuple[int, ...]  # full ties (SS-8) and Babies (SS-4) stay in the Net


def reveal_game(hands: Sequence[Sequence[int]], net: Sequence[int], num_types: int) -> Reveal:
    """Reveal every type in the rulebook's order: runs compared, Net cards claimed, points scored."""
    hand_profiles = [profiles(hand, num_types) for hand in hands]
    net_profiles = profiles([c for c in net if c != BABY], num_types)
    in_net: list[list[int]] = [[] for _ in range(num_types)]
    for card in net:
        if card != BABY:
            in_net[card >> 3].append(card)
    claimed: list[list[int]] = [[] for _ in hands]
    scores = [0] * len(hands)
    results = []
    lines: list[tuple[str, int | None, tuple[str, ...]]] = []
    starts: list[int] = []
    step_start: int | None = None  # the first "nothing to win" line before the next type with Net cards
    for t in range(num_types):
        if not in_net[t]:
            step_start = len(lines) if step_start is None else step_start
            lines.append((f"{SLOTH_TYPES[t].label}: no cards in the Net, so nothing to win (SS-8).", None, ("SS-8",)))
            continue
        starts.append(len(lines) if step_start is None else step_start)
        step_start = None
        result = reveal_type(t, [p[t] for p in hand_profiles], net_profiles[t])
        lines += [(line, result.winner, result.rules) for line in result.lines]
        if result.winner is not None:
            claimed[result.winner] += in_net[t]
            scores[result.winner] += result.points
            in_net[t] = []
        results.append(result)
    net_left = tuple(c for cards in in_net for c in cards) + (BABY,) * net.count(BABY)
    return Reveal(tuple(results), tuple(lines), tuple(starts), tuple(map(tuple, claimed)), tuple(scores), net_left)


# --- dealing ---------------------------------------------------------------------------


def shuffled(cards: list[int], rng: random.Random) -> list[int]:
    """A uniformly random order of `cards`: sorted by independent random keys.

    Cheaper than ``rng.shuffle`` (one C call per card instead of a Python-level
    ``randbelow``), and a playout deals a fresh game every couple of dozen decisions.
    """
    keys = [rng.random() for _ in cards]
    return [cards[i] for i in sorted(range(len(cards)), key=keys.__getitem__)]
