"""Too Sloth To Win cards and combinations: notation, kinds, strength (TS-3, TS-4).

In a hand, ``hand[0]`` counts Suspicious Drinks and ``hand[n]`` counts running
cards numbered n (1-8). On the table a natural card is its number and a drink
declared as d is ``DRINK_BASE + d``; a lone drink reads as Single 9.
"""

from __future__ import annotations

from typing import Any

DRINK = 0
DRINK_BASE = 10
LONE_DRINK = DRINK_BASE + 9


def card_text(card: int) -> str:
    return f"D{card - DRINK_BASE}" if card > DRINK_BASE else str(card)


def hand_text(hand: tuple[int, ...] | list[int]) -> str:
    """A hand as people write it, e.g. '3 4 5 8 8 D'."""
    return " ".join([str(n) for n in range(1, 9) for _ in range(hand[n])] + ["D"] * hand[DRINK])


def hand_words(hand: tuple[int, ...] | list[int]) -> str:
    """A hand in words, e.g. '3 4 5 8 8 and a drink' (``hand_text`` writes the notation's 'D')."""
    numbers = " ".join(str(n) for n in range(1, 9) for _ in range(hand[n]))
    drinks = hand[DRINK]
    said = "a drink" if drinks == 1 else f"{drinks} drinks" if drinks else ""
    return f"{numbers} and {said}" if numbers and said else numbers or said or "no cards"


def card_value(card: int) -> int:
    return card - DRINK_BASE if card > DRINK_BASE else card


def canonical(cards: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted(cards, key=lambda c: (card_value(c), c > DRINK_BASE)))


def combo_kind(cards: tuple[int, ...]) -> str | None:
    """'single', 'jump', 'run' or None when the cards form no combination."""
    if len(cards) == 1:
        return "single"
    values = [card_value(c) for c in cards]
    if len(set(values)) == 1:
        return "jump"
    if all(b == a + 1 for a, b in zip(values, values[1:], strict=False)):
        return "run"
    return None


_NAMES: dict[tuple[int, ...], str] = {}


def combo_name(cards: tuple[int, ...]) -> str:
    """Plain name of a combination, e.g. 'Run 4-5-6 (a drink as the 5)' or 'Single 9 (a lone drink)'."""
    name = _NAMES.get(cards)
    if name is None:
        name = _NAMES[cards] = _combo_name(cards)
    return name


def _combo_name(cards: tuple[int, ...]) -> str:
    kind = combo_kind(cards)
    if kind == "single":
        return f"Single {card_value(cards[0])}" + (" (a lone drink)" if cards[0] > DRINK_BASE else "")
    # the numbers as the rulebook writes them ("4-5-6"), and a drink in words, never as notation
    label = "-".join(str(card_value(c)) for c in cards)
    return f"{(kind or 'mixed cards').capitalize()} {label}{drinks_words(cards, kind)}"


def drinks_words(cards: tuple[int, ...], kind: str | None) -> str:
    """' (a drink as the 5)' in a Run, ' (a drink as a 6)' in a Jump, '' with no drink."""
    declared = [str(card_value(c)) for c in cards if c > DRINK_BASE]
    if not declared:
        return ""
    if len(declared) == 1:
        number = declared[0]
        article = "the" if kind != "jump" else "an" if number == "8" else "a"
        return f" (a drink as {article} {number})"
    return f" ({len(declared)} drinks, as {' and '.join(declared)})"


def strength(cards: tuple[int, ...]) -> tuple[str, int, int]:
    """(kind, size, top value); comparable within a kind (TS-3)."""
    kind = combo_kind(cards) or "none"
    return kind, len(cards), max(card_value(c) for c in cards)


def beats(new: tuple[int, ...], old: tuple[int, ...]) -> bool:
    """TS-3: is `new` strictly stronger than `old` (empty table: anything goes)."""
    if not old:
        return True
    new_kind, new_size, new_top = strength(new)
    old_kind, old_size, old_top = strength(old)
    if old_kind == "single":
        return new_kind != "single" or new_top > old_top
    if new_kind != old_kind:
        return False
    return (new_size, new_top) > (old_size, old_top)


def all_combinations(top: int) -> list[tuple[int, ...]]:
    """Every combination buildable from numbers 1..top and at most one drink (TS-4)."""
    found: set[tuple[int, ...]] = set()
    numbers = range(1, top + 1)
    for n in numbers:
        found.add((n,))
        found.update({(n, n), (n, n, n), (n, DRINK_BASE + n), (n, n, DRINK_BASE + n)})
    for low in range(1, 10):
        for size in (2, 3):
            values = list(range(low, low + size))
            if values[-1] > 9:
                continue
            naturals_ok = all(v <= top for v in values)
            if naturals_ok:
                found.add(tuple(values))
            for i, v in enumerate(values):
                rest = values[:i] + values[i + 1 :]
                if all(r <= top for r in rest):
                    found.add(canonical(tuple(rest) + (DRINK_BASE + v,)))
    return sorted(found, key=lambda c: (len(c), combo_kind(c) or "", card_value(c[-1]), c))


def needs(cards: tuple[int, ...]) -> list[int]:
    """Hand counts a combination uses, indexed like a hand."""
    need = [0] * 9
    for c in cards:
        need[DRINK if c > DRINK_BASE else c] += 1
    return need


Candidates = list[tuple[int, list[tuple[Any, int]]]]
"""(lowest running card, [(play, needed hand bits), ...]) groups."""


def by_lowest_pair(plays: list[tuple[Any, int]]) -> Candidates:
    """Group (play, needed bits) by the pair of numbers {2g+1, 2g+2} holding its lowest running card.

    Plays come ordered by their lowest running card, then in input order.
    """
    groups: dict[int, list[tuple[Any, int]]] = {}
    for play, need in sorted(plays, key=lambda item: min(c for c in item[0].cards if c < DRINK_BASE)):
        lowest = min(c for c in play.cards if c < DRINK_BASE)
        groups.setdefault((lowest - 1) // 2, []).append((play, need))
    return sorted(groups.items())


def hand_bits(hand: list[int]) -> int:
    """Bit 3*i+k is set when the hand holds more than k cards of kind i (k < 3)."""
    bits = 0
    for i, count in enumerate(hand):
        if count:
            bits |= (1 << 3 * i) if count == 1 else (3 << 3 * i) if count == 2 else (7 << 3 * i)
    return bits
