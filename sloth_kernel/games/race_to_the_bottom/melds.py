"""Race to the Bottom meld tables, built once at import (RB-2..RB-6).

Ranks are ints 0-12 for 2..A; ``JOKER`` (13) indexes the Joker count in a hand.
Sequences live on a 14-step ladder: position 0 is a low Ace, 1-12 are 2..K and
13 is a high Ace, so Q-K-A and A-2-3 exist and K-A-2 (no wrap) does not.

A *shape* is a meld with its declared ranks (type, length, rank pattern); its
*variants* are the ways to pay for it with naturals and at most two Jokers.
Every variant is one interned ``Play`` move (the class lives in the game module
and is passed to :class:`MeldTables`), so legal-move generation is a walk over
precomputed tuples with a count-vector check.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import Any, Generic, Protocol, TypeVar

from sloth_kernel.errors import ConfigError

RANKS = "23456789TJQKA"
ACE = 12
JOKER = 13
JOKERS_PER_DECK = 2
COPIES = 4
CARD_SYMBOLS = RANKS + "*"  # index -> symbol in hands and deals; '*' is a Joker
MAX_MELD = 6
RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King", "Ace")
SET_KINDS = {1: "Single", 2: "Pair", 3: "Triplet", 4: "Smokescreen", 5: "Oil Slick", 6: "Caltrops"}
SEQUENCES = (("Run", 1, (2, 3, 4, 5, 6)), ("Leap", 2, (2, 3)), ("Bound", 3, (2,)))


def plural(rank: int) -> str:
    return RANK_NAMES[rank] + "s"


def card_word(token: str) -> str:
    """A card token as people read it: the rulebook's ``10`` for the notation's ``T`` (``*T`` reads ``*10``)."""
    return token[:-1] + "10" if token.endswith("T") else token


def card_spoken(token: str) -> str:
    """A card token in words: ``10`` for ``T``; a Joker as ``Joker as an A`` (``*A``), or ``Joker`` bare (``*``)."""
    if not token.startswith("*"):
        return card_word(token)
    rank = card_word(token[1:])
    if not rank:
        return "Joker"
    return f"Joker as {'an' if rank in ('A', '8') else 'a'} {rank}"


def cards_spoken(tokens: Iterable[str]) -> str:
    """Cards in words: ``Q K A``; with a Joker, comma-separated: ``A, Joker as an A, 2, 2``."""
    words = [card_spoken(token) for token in tokens]
    return (", " if any(word.startswith("Joker") for word in words) else " ").join(words)


def card_token(rank: int, joker: bool = False) -> str:
    """A card as written in moves: ``7``, ``T``, ``A``; a Joker as ``*`` + declared rank."""
    return ("*" if joker else "") + RANKS[rank]


class Climbing(Protocol):
    """What decides whether one meld may follow another (:func:`follows`): a Shape, or a Play."""

    @property
    def kind(self) -> str: ...
    @property
    def length(self) -> int: ...
    @property
    def rank(self) -> int: ...
    @property
    def ace(self) -> bool: ...
    @property
    def cheat(self) -> int: ...


class Meld(Climbing, Protocol):
    """What the tables need of the game's ``Play`` move: a variant of a shape, paid for from a hand."""

    @property
    def need(self) -> tuple[tuple[int, int], ...]: ...
    @property
    def jokers(self) -> int: ...
    @property
    def declared(self) -> tuple[int, ...]: ...


P = TypeVar("P", bound=Meld)
"""The game's ``Play`` class (it lives in the game module, which builds the tables)."""


@dataclass(frozen=True)
class Shape(Generic[P]):
    """One meld with declared ranks; `variants` sorted by Jokers used."""

    index: int
    kind: str
    length: int
    rank: int
    ace: bool
    cheat: int
    sequence: bool
    pattern: tuple[tuple[int, int], ...]  # (rank, count) in table order
    variants: tuple[P, ...]  # Play moves
    plain: P | None  # the all-natural variant, if a deck can hold it, else None


MakePlay = Callable[..., P]
"""``Play(cards, kind, rank, ace, cheat, sequence, need, jokers, declared, shape)``."""


def _variants(
    make_play: MakePlay[P],
    index: int,
    kind: str,
    rank: int,
    ace: bool,
    cheat: int,
    sequence: bool,
    pattern: tuple[tuple[int, int], ...],
) -> list[P]:
    """Every way to pay for a shape with at most two Jokers, one Play each, canonical order."""
    slots = [r for r, c in pattern for _ in range(c)]
    found: list[P] = []
    for jokers in range(JOKERS_PER_DECK + 1):
        for declared in sorted(set(combinations_with_replacement(sorted(set(slots)), jokers))):
            if any(declared.count(r) > slots.count(r) for r in declared):
                continue
            need = tuple((r, c - declared.count(r)) for r, c in pattern if c - declared.count(r) > 0)
            if any(c > COPIES for _, c in need):
                continue
            cards = tuple(
                tok
                for r, c in pattern
                for tok in [card_token(r)] * (c - declared.count(r)) + [card_token(r, True)] * declared.count(r)
            )
            found.append(make_play(cards, kind, rank, ace, cheat, sequence, need, jokers, declared, index))
    return found


def build_shapes(make_play: MakePlay[P]) -> tuple[Shape[P], ...]:
    """Every meld shape: sets of 1-6 of a rank, then Runs, Leaps and Bounds on the ladder."""
    specs: list[tuple[str, int, int, bool, int, bool, tuple[tuple[int, int], ...]]] = []
    for rank in range(13):
        for size, kind in SET_KINDS.items():
            specs.append((kind, size, rank, rank == ACE, size if size >= 4 else 0, False, ((rank, size),)))
    for kind, width, spans in SEQUENCES:
        for span in spans:
            for low in range(0, 15 - span):
                top = low + span - 1
                pattern = tuple(((pos - 1) % 13, width) for pos in range(low, top + 1))
                specs.append((kind, width * span, top, low == 0 or top == 13, 0, True, pattern))
    shapes = []
    for index, (kind, length, rank, ace, cheat, sequence, pattern) in enumerate(specs):
        variants = _variants(make_play, index, kind, rank, ace, cheat, sequence, pattern)
        plain = variants[0] if variants[0].jokers == 0 else None
        shapes.append(Shape(index, kind, length, rank, ace, cheat, sequence, pattern, tuple(variants), plain))
    return tuple(shapes)


def follows(new: Climbing, old: Climbing) -> bool:
    """May `new` be played on `old`? Matching (RB-2, RB-4, RB-5) and Cheats (RB-6)."""
    if old.cheat:
        if new.cheat != old.cheat:
            return new.cheat > old.cheat
        return new.rank >= old.rank or new.ace or old.ace
    if new.cheat:
        return True
    if new.kind != old.kind or new.length != old.length:
        return False
    return new.rank >= old.rank or new.ace or old.ace


Group = tuple[tuple[int, int, Shape[P]], ...]  # (rank bitmask, cards per rank, shape)


def group(shapes: tuple[Shape[P], ...] | list[Shape[P]]) -> Group[P]:
    """Shapes ready for :func:`melds_from`: each with the bitmask of the ranks it uses."""
    return tuple((sum(1 << r for r, _ in s.pattern), s.pattern[0][1], s) for s in shapes)


def play_key(naturals: list[int], declared: list[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Order-free identity of a meld: sorted natural ranks and sorted Joker declarations."""
    return tuple(sorted(naturals)), tuple(sorted(declared))


class MeldTables(Generic[P]):
    """Every meld as an interned move, and which shapes may follow which (built once)."""

    def __init__(self, make_play: MakePlay[P]) -> None:
        self.shapes = build_shapes(make_play)
        self.all_plays = tuple(v for s in self.shapes for v in s.variants)
        self.by_key = {play_key([r for r, c in p.need for _ in range(c)], list(p.declared)): p for p in self.all_plays}
        assert len(self.by_key) == len(self.all_plays), "two melds share the same cards"
        normal = [s for s in self.shapes if not s.cheat]
        cheats = [s for s in self.shapes if s.cheat]
        self.all_group = group(self.shapes)
        # For each shape on the table: the normal and the Cheat shapes that may follow it.
        self.followers: tuple[tuple[Group[P], Group[P]], ...] = tuple(
            (group([s for s in normal if follows(s, old)]), group([s for s in cheats if follows(s, old)]))
            for old in self.shapes
        )


def rank_masks(hand: list[int]) -> tuple[int, ...]:
    """masks[t]: bitmask of the ranks held at least t times as naturals (t = 0..6)."""
    m1 = m2 = m3 = m4 = 0
    for rank in range(13):
        held = hand[rank]
        if held:
            bit = 1 << rank
            m1 |= bit
            if held > 1:
                m2 |= bit
                if held > 2:
                    m3 |= bit
                    if held > 3:
                        m4 |= bit
    return (8191, m1, m2, m3, m4, 0, 0)


def melds_from(hand: list[int], masks: tuple[int, ...], shapes: Group[P], out: list[Any]) -> None:
    """Append to `out` every variant of `shapes` that `hand` (a 14-count vector) can pay for.

    `masks` is ``rank_masks(hand)``.
    Every shape uses the same count of each of its ranks, so "enough naturals"
    is one mask test; the Jokers' shortfall is a sum of popcounts.

    `out` is the caller's list of moves (of any move type that includes the Plays). Without
    Jokers only ``shape.plain`` is offered: it is None only for shapes of 5-6 of a rank,
    which ``masks[5]`` and ``masks[6]`` (always 0) never let through.
    """
    jokers = hand[JOKER]
    if not jokers:
        out.extend([s.plain for bits, count, s in shapes if masks[count] & bits == bits])
        return
    for bits, count, shape in shapes:
        short = 0
        if masks[count] & bits != bits:
            for level in range(1, count + 1):
                short += (bits & ~masks[level]).bit_count()
            if short > jokers:
                continue
        for play in shape.variants:
            used = play.jokers
            if used > jokers:
                break
            if used >= short and all(hand[r] >= c for r, c in play.need):
                out.append(play)


# --- cards as text ------------------------------------------------------------


def parse_card(token: str) -> int:
    """'7', 't', '10', 'A' -> rank index; '*' -> JOKER; else -1 (also for anything not ASCII).

    ``T`` is the canonical ten (``str`` of moves, records, deals); ``10`` is read as a ten too.
    """
    if len(token) > 2 or not token.isascii():  # ASCII first: upper() maps some other letters onto ASCII ones
        return -1
    word = token.upper()
    word = "T" if word == "10" else word
    return CARD_SYMBOLS.index(word) if len(word) == 1 and word in CARD_SYMBOLS else -1


def new_deck() -> list[int]:
    return [r for r in range(13) for _ in range(COPIES)] + [JOKER] * JOKERS_PER_DECK


def counts_of(cards: list[int]) -> list[int]:
    counts = [0] * 14
    for card in cards:
        counts[card] += 1
    return counts


def cards_text(counts: list[int] | tuple[int, ...]) -> tuple[str, ...]:
    """A count vector as sorted card symbols, Jokers last."""
    return tuple(CARD_SYMBOLS[r] for r in range(14) for _ in range(counts[r]))


def meld_problem(naturals: list[int], declared: list[int]) -> str:
    """Why these natural and declared Joker ranks are no meld (for InvalidMoveError)."""
    ranks = naturals + declared
    if len(ranks) > MAX_MELD:
        return "a meld is at most 6 cards (RB-2)"
    if len(declared) > JOKERS_PER_DECK:
        return "each deck has only 2 Jokers (RB-1)"
    if any(naturals.count(r) > COPIES for r in naturals):
        return "each deck has only four cards of a rank; use Jokers for a fifth or sixth (RB-1)"
    if {ACE, 0, 11} <= set(ranks):
        return "no wrap-around: K-A-2 is not a sequence; an Ace is high (Q-K-A) or low (A-2-3) (RB-5)"
    return (
        "these cards form no meld: a Single, Pair, Run of 2-6, Triplet, Leap of 4 or 6, "
        "Bound of 6, or a Cheat of 4-6 of one rank (RB-2)"
    )


def read_cards(value: Any, what: str) -> list[int]:
    """Cards of a deal (a list of symbols or one string) as ranks; ConfigError if unreadable."""
    tokens = value.split() if isinstance(value, str) else value
    if not isinstance(tokens, (list, tuple)):
        raise ConfigError(f"{what} must be a list of cards or a string like '7 7 Q *'")
    cards = [parse_card(t) if isinstance(t, str) else -1 for t in tokens]
    if -1 in cards:
        bad = tokens[cards.index(-1)]
        raise ConfigError(f"{what}: {bad!r} is not a card (2-9, 10 or T, J, Q, K, A, or * for a Joker)")
    return cards
