"""High Card's renderer: observation (or omniscient view) -> HTML, from the shared render kit only."""

from __future__ import annotations

from typing import Any

from sloth_kernel.core import seat_name
from sloth_kernel.render import kit

BACK = kit.CardFace("", "#6b4f2a", kind="back")


def card_face(card: int) -> kit.CardFace:
    """Low cards cool, high cards warm."""
    return kit.CardFace(str(card), "#c0392b" if card > 15 else "#2b4a7a", "star" if card > 15 else "dot")


def card(card_number: int, *, width: int = 44, title: str = "") -> str:
    return kit.card_svg(card_face(card_number), width=width, title=title or f"card {card_number}")


def played(plays: tuple[tuple[int, int], ...], empty: str) -> str:
    """Cards on the table, each titled with who played it."""
    return kit.card_row([card(c, title=f"{seat_name(s)}: {c}") for s, c in plays], empty=empty)


def hands(obs: Any) -> str:
    """Each seat's hand: open for the viewer (or everyone in the omniscient view), backs otherwise."""
    rows = []
    for seat, count in enumerate(obs.hand_counts):
        if obs.hands is not None:
            cards = [card(c) for c in obs.hands[seat]]
        elif seat == obs.player and obs.hand is not None:
            cards = [card(c) for c in obs.hand]
        else:
            cards = [kit.card_svg(BACK, width=30, title="a hidden card") for _ in range(count)]
        rows.append([kit.esc(seat_name(seat)), kit.card_row(cards, empty="(empty)"), str(obs.tricks[seat])])
    return kit.table(["Seat", "Hand", "Tricks"], rows, css="sk-hc-hands")


def render(obs: Any) -> str:
    """The table, the last trick, the hands and the log."""
    if obs.is_over:
        names = " and ".join(seat_name(s) for s in obs.winners)
        head = f"Game over: {names} won the most tricks (HC-6)."
    else:
        head = f"{seat_name(obs.current_player)} to play · deck 1-{obs.config.cards}."
    body = (
        f"<div>{kit.esc(head)}</div>"
        + kit.panel("On the table", played(obs.trick, "the leader plays any card (HC-4)"), css="sk-hc-trick")
        + kit.panel("Last trick", played(obs.last_trick, "no trick yet"))
        + kit.panel("Hands", hands(obs))
        + kit.panel("Log", kit.log_html([event.text for event in obs.log]))
    )
    return kit.page("High Card", body)
