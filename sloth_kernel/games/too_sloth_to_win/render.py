"""Too Sloth To Win as HTML: the track, the table, the hands and the awards (pure)."""

from __future__ import annotations

from collections.abc import Sequence

from sloth_kernel.core import seat_name
from sloth_kernel.games.too_sloth_to_win.engine import (
    DRINK,
    DRINK_BASE,
    SEAT_COLOURS,
    TooSlothObservation,
    card_value,
    combo_name,
)
from sloth_kernel.render import kit

RUNNER_COLOUR = "#1f6b52"
DRINK_COLOUR = "#7b3fb5"


def card_face(card: int) -> kit.CardFace:
    """A table card: a running number, or a drink showing its declared number."""
    if card > DRINK_BASE:
        return kit.CardFace(str(card_value(card)), DRINK_COLOUR, "glass", "drink", kind="wild")
    return kit.CardFace(str(card), RUNNER_COLOUR, "runner")


def card_title(card: int) -> str:
    """A table card's tooltip in words: ``5``, or ``Suspicious Drink as a 5``."""
    if card > DRINK_BASE:
        value = card_value(card)
        return f"Suspicious Drink as {'an' if value == 8 else 'a'} {value}"
    return str(card)


def hand_title(key: str) -> str:
    """A hand card's tooltip from its notation key: ``5``, or ``Suspicious Drink`` for ``D``."""
    return "Suspicious Drink" if key == "D" else key


def hand_faces(hand: Sequence[int]) -> list[tuple[str, kit.CardFace]]:
    """(key, face) for every card of a hand, lowest first, drinks last; key is its notation."""
    faces = [(str(n), card_face(n)) for n in range(1, 9) for _ in range(hand[n])]
    faces += [("D", kit.CardFace("D", DRINK_COLOUR, "glass", "drink", kind="wild"))] * hand[DRINK]
    return faces


def track(obs: TooSlothObservation) -> str:
    """Spaces 0..finish with a meeple per seat; the last cell is the finish line."""
    cells = []
    for space in range(obs.finish + 1):
        here = [s for s in range(obs.players) if min(obs.positions[s], obs.finish) == space]
        meeples = "".join(
            f'<span class="sk-meeple" style="background:{SEAT_COLOURS[s]}" title="{kit.esc(seat_name(s))}">{s + 1}</span>'
            for s in here
        )
        label = "FINISH" if space == obs.finish else str(space)
        css = "sk-space sk-finish" if space == obs.finish else "sk-space"
        cells.append(f'<div class="{css}"><div class="sk-space-n">{label}</div>{meeples}</div>')
    style = (
        "<style>.sk-track{display:flex;gap:3px}.sk-space{width:54px;min-height:54px;border:1px solid #b9b9a8;"
        "border-radius:6px;background:#f3efe0;text-align:center}.sk-finish{background:repeating-linear-gradient("
        "45deg,#222 0 6px,#fff 6px 12px);color:#fff}.sk-finish .sk-space-n{background:#222;border-radius:4px}"
        ".sk-space-n{font-size:11px;color:#777}.sk-meeple{display:inline-block;width:18px;height:18px;"
        "border-radius:9px 9px 3px 3px;color:#fff;font-size:11px;font-weight:700;margin:1px;line-height:18px}</style>"
    )
    return style + f'<div class="sk-track sk-ts-track">{"".join(cells)}</div>'


def standings(obs: TooSlothObservation) -> str:
    rows = []
    for s in range(obs.players):
        name = f'<span style="color:{SEAT_COLOURS[s]};font-weight:700">●</span> {kit.esc(seat_name(s))}'
        if s == obs.current_player:
            name += kit.badge("to move", css="sk-warn")
        status = obs.status[s]
        css = "sk-bad" if status.startswith("out") else "sk-good" if status in ("1st", "2nd") else ""
        rows.append(
            [
                name,
                str(min(obs.positions[s], obs.finish)),  # never past the finish square (TS-16)
                kit.badge(status, css=css),
                str(obs.hand_sizes[s]),
                kit.icon_count("drink", obs.drinks_held[s], "Suspicious Drink"),
                kit.icon_count("trophy", obs.trophies[s], "Trophy", "Trophies"),
                kit.icon_count("chip", obs.chips[s], "Cash Chip"),
            ]
        )
    return kit.table(
        ["Player", "Space", "Status", "Cards", "Drinks", "Trophies", "Cash Chips"], rows, css="sk-ts-standings"
    )


def hands(obs: TooSlothObservation) -> str:
    return hand_blocks(obs.hands, obs.hand_sizes)


def hand_blocks(shown: Sequence[Sequence[int] | None], sizes: Sequence[int]) -> str:
    """Every seat's hand: its cards where `shown` holds them, else as many card backs as it holds."""
    blocks = []
    for s, size in enumerate(sizes):
        hand = shown[s]
        if hand is None:
            cards = [kit.card_svg(kit.CardFace("", "#6b4f2a", kind="back"), width=34, title="hidden card")] * size
        else:
            cards = [kit.card_svg(face, width=42, title=hand_title(key)) for key, face in hand_faces(hand)]
        blocks.append(
            f'<div class="sk-ts-hand" data-seat="{s}"><b>{kit.esc(seat_name(s))}</b>{kit.card_row(cards, empty="empty hand")}</div>'
        )
    return "".join(blocks)


def render(obs: TooSlothObservation) -> str:
    mode = "No-Board variant: empty your hand to finish" if obs.no_board else f"Finish at space {obs.finish}"
    head = f"Round {min(obs.round + 1, obs.rounds)} of {obs.rounds} · {mode}"
    if obs.is_over and obs.winner is not None:
        head += f" · Game over: {seat_name(obs.winner)} wins"
    table = kit.card_row(
        [kit.card_svg(card_face(c), title=card_title(c)) for c in obs.table],
        empty="empty table: the leader may play anything",
    ) + (f"<div>{kit.esc(combo_name(obs.table))} by {kit.esc(seat_name(obs.table_owner))}</div>" if obs.table else "")
    body = (
        f"<div>{kit.esc(head)}</div>"
        + ("" if obs.no_board else kit.panel("Track", track(obs)))
        + kit.panel("On the table", table, css="sk-ts-table")
        + kit.panel("Players", standings(obs))
        + kit.panel("Hands", hands(obs))
        + kit.panel("Log", kit.log_html([e.text for e in obs.log]))
    )
    return kit.page("Too Sloth To Win", body)
