"""Surplus of Sloths as HTML: River rows, the Surplus Net, every seat's cards and the reveal.

``render(observation)`` is pure: the same observation always gives the same
string. Hidden cards (other seats' kept cards, opening picks before the reveal)
are drawn as card backs. Stable CSS classes for the widgets: ``sk-surplus-river``,
``sk-surplus-row-1``/``-2``, ``sk-surplus-net``, ``sk-surplus-hand``,
``sk-surplus-seat-N``, ``sk-surplus-reveal``, ``sk-surplus-log``. A card the viewer
may take carries ``data-card`` with the move text (e.g. ``take L5 from row 1``).
"""

from __future__ import annotations

from collections.abc import Sequence

from sloth_kernel.core import counted, seat_name
from sloth_kernel.games.surplus_of_sloths.cards import BABY_CODE, SLOTH_TYPES, TypeResult
from sloth_kernel.games.surplus_of_sloths.engine import SurplusObservation
from sloth_kernel.render.kit import CARD_W, CardFace, badge, card_row, card_svg, esc, log_html, page, panel, table

BABY_COLOR = "#c2407f"
BACK_COLOR = "#5b4a3a"
SMALL = 40
CSS = """
<style>
.sk-surplus-rows{display:flex;flex-direction:column;gap:4px}
.sk-surplus-rowlabel{font-size:12px;color:#555;margin-right:6px;min-width:54px;display:inline-block}
.sk-surplus-row{display:flex;align-items:center}
.sk-surplus-row.sk-surplus-drafting{background:#fff6d8;border-radius:6px}
.sk-surplus-piles{display:flex;flex-wrap:wrap;gap:10px}
.sk-surplus-pile{border:1px dashed #ccc;border-radius:6px;padding:2px 6px}
.sk-surplus-pilename{font-size:11px;color:#555}
.sk-surplus-seats{display:grid;grid-template-columns:repeat(auto-fill,minmax(300px,1fr));gap:6px}
.sk-surplus-part{font-size:11px;color:#666;margin-top:2px}
.sk-surplus-me{border-color:#e0a000}
</style>
"""


def face(code: str) -> CardFace:
    """How a card code looks: type colour and icon, the number or X; a Baby is pink."""
    if code == BABY_CODE:
        return CardFace("Baby", BABY_COLOR, "baby", tag="0, any type", kind="baby")
    kind = next(t for t in SLOTH_TYPES if t.letter == code[0])
    if code[1] == "X":
        return CardFace("X", kind.color, kind.icon, tag="any 1-7", kind="wild")
    return CardFace(code[1], kind.color, kind.icon)


def card_title(code: str) -> str:
    if code == BABY_CODE:
        return "Baby Sloth: 0 in a run of any type; scores 0"
    kind = next(t for t in SLOTH_TYPES if t.letter == code[0])
    value = "X (any number 1-7)" if code[1] == "X" else code[1]
    return f"{kind.name} ({kind.icon_words}) {value}"


def card(code: str | None, *, width: int | None = None, hint: bool = False, dim: bool = False, data: str = "") -> str:
    """One card; None is a face-down card."""
    size = width or CARD_W
    if code is None:
        return card_svg(CardFace("?", BACK_COLOR, kind="back"), title="hidden card", width=size)
    return card_svg(face(code), hint=hint, dim=dim, data=data, title=card_title(code), width=size)


def cards(codes: Sequence[str | None], *, css: str = "", empty: str = "(none)", width: int | None = None) -> str:
    return card_row([card(c, width=width) for c in codes], css=css, empty=empty)


def render(observation: SurplusObservation) -> str:
    obs = observation
    parts = [CSS, _status(obs)]
    parts.append(_river(obs))
    parts.append(_net(obs))
    parts.append(f'<div class="sk-surplus-seats">{"".join(_seat(obs, s) for s in range(obs.players))}</div>')
    if obs.reveal:
        parts.append(_reveal(obs))
    if obs.super_surplus and obs.games:
        parts.append(_match(obs))
    lines = [str(event) for event in obs.log]
    parts.append(panel("Log", log_html(lines, last=14), css="sk-surplus-log"))
    title = "Surplus of Sloths"
    if obs.super_surplus:
        title += f" — Super Surplus, game {obs.game_number}"
    return page(title, "".join(parts))


def _status(obs: SurplusObservation) -> str:
    words = {
        "pick": "Opening: secret picks for the Net (SS-3)",
        "draft": "Drafting (SS-4)",
        "baby": "Baby decision (SS-6)",
        "over": "Game over",
    }
    bits = [badge(words[obs.phase])]
    if not obs.is_over:
        mine = obs.player is not None and obs.player == obs.current_player
        bits.append(badge(f"{seat_name(obs.current_player)} to move" + (" (you)" if mine else ""), css="sk-warn"))
        if obs.phase != "pick":
            bits.append(badge(f"Active Player: {seat_name(obs.active_player)}"))
    bits.append(badge(f"Deck: {counted(obs.deck_count, 'card')}"))
    if obs.super_surplus:
        bits.append(badge("Wins: " + ", ".join(f"{seat_name(s)} {w}" for s, w in enumerate(obs.wins))))
    viewer = "omniscient view" if obs.player is None else f"seen by {seat_name(obs.player)}"
    bits.append(badge(viewer))
    return f'<div class="sk-surplus-status">{"".join(bits)}</div>'


def _river(obs: SurplusObservation) -> str:
    legal = {str(m) for m in obs.legal_moves}
    rows = []
    for index, row in enumerate(obs.rivers, start=1):
        drafting = obs.row == index
        shown = []
        for code in row:
            move = f"take {code} from row {index}"
            can = move in legal
            shown.append(card(code, hint=can, dim=obs.row is not None and not drafting, data=move if can else ""))
        label = f'<span class="sk-surplus-rowlabel">Row {index}</span>'
        css = f"sk-surplus-row sk-surplus-row-{index}" + (" sk-surplus-drafting" if drafting else "")
        empty = "(dealt after the opening picks)" if obs.phase == "pick" else "(empty)"
        rows.append(f'<div class="{css}">{label}{card_row(shown, empty=empty)}</div>')
    return panel("River", f'<div class="sk-surplus-rows">{"".join(rows)}</div>', css="sk-surplus-river")


def _net(obs: SurplusObservation) -> str:
    piles = []
    for letter, codes in zip(obs.types, obs.net, strict=False):
        kind = next(t for t in SLOTH_TYPES if t.letter == letter)
        name = f'<div class="sk-surplus-pilename">{esc(kind.name)} ({esc(kind.icon_words)})</div>'
        piles.append(
            f'<div class="sk-surplus-pile sk-surplus-net-{letter}">{name}{cards(codes, width=SMALL, empty="empty")}</div>'
        )
    if obs.net_babies:
        name = '<div class="sk-surplus-pilename">Babies (score 0)</div>'
        piles.append(f'<div class="sk-surplus-pile">{name}{cards([BABY_CODE] * obs.net_babies, width=SMALL)}</div>')
    return panel("Surplus Net", f'<div class="sk-surplus-piles">{"".join(piles)}</div>', css="sk-surplus-net")


def _seat(obs: SurplusObservation, seat: int) -> str:
    flags = []
    if obs.phase != "pick" and seat == obs.active_player and not obs.is_over:
        flags.append(badge("Active", css="sk-good"))
    if seat == obs.current_player:
        flags.append(badge("to move", css="sk-warn"))
    if obs.phase == "over":
        flags.append(badge(counted(obs.scores[seat], "point")))
    if obs.super_surplus:
        flags.append(badge(f"{obs.wins[seat]} win{'s' if obs.wins[seat] != 1 else ''}"))
    kept = obs.kept[seat]
    hidden = kept is None
    kept_cards: list[str | None] = [None] * obs.kept_counts[seat] if kept is None else list(kept)
    body = [
        f'<div class="sk-surplus-part">Kept from the deal ({"hidden" if hidden else "private"})</div>',
        cards(kept_cards, width=SMALL),
        '<div class="sk-surplus-part">Drafted (public)</div>',
        cards(obs.drafted[seat], width=SMALL),
    ]
    if obs.phase == "pick":
        pick = obs.picks[seat]
        body.append('<div class="sk-surplus-part">Opening pick</div>')
        body.append(
            cards([pick] if pick is not None else [None], width=SMALL)
            if obs.picked[seat]
            else cards([], empty="not yet")
        )
    if obs.claimed[seat] or obs.discards[seat]:
        body.append('<div class="sk-surplus-part">Won from the Net</div>')
        body.append(cards(obs.claimed[seat], width=SMALL, css="sk-surplus-claimed"))
        body.append('<div class="sk-surplus-part">Discarded at the reveal</div>')
        body.append(cards(obs.discards[seat], width=SMALL))
    me = " sk-surplus-me" if obs.player == seat else ""
    title = seat_name(seat) + (" (you)" if obs.player == seat else "")
    return panel(title, "".join(flags) + "".join(body), css=f"sk-surplus-hand sk-surplus-seat-{seat}{me}")


def taken_by(result: TypeResult) -> str:
    """Who takes a type's Net cards, in words: a player, nobody on a tie, or nobody with a run (SS-8)."""
    if result.winner is not None:
        return seat_name(result.winner)
    if all(run.length == 0 for run in result.runs):
        return f"nobody has a {result.type_name} run"
    return "nobody: a tie"


def _reveal(obs: SurplusObservation) -> str:
    headers = ["Type", "Net"] + [seat_name(s) for s in range(obs.players)] + ["Taken by", "Points"]
    rows = []
    for result in obs.reveal:
        row = [f"{esc(result.type_name)} ({esc(result.type_letter)})", esc(", ".join(result.net_cards))]
        for run in result.runs:
            words = esc(", ".join(run.run)) if run.run else "—"
            cell = f"{words}<br><small>{run.length} long" + (f", top {run.top}" if run.top else "") + "</small>"
            row.append(f"<b>{cell}</b>" if run.player == result.winner else cell)
        row.append(esc(taken_by(result)))
        row.append(esc(result.arithmetic) if result.winner is not None else "0")
        rows.append(row)
    finished = obs.games[-1] if obs.games else None
    heading = f"Reveal of game {finished.number}" if finished else "Reveal"
    return panel(heading, table(headers, rows), css="sk-surplus-reveal")


def _match(obs: SurplusObservation) -> str:
    """Super Surplus: every finished game's scores and winner (a tie is no win, SS-10)."""
    headers = ["Game"] + [seat_name(s) for s in range(obs.players)] + ["Won by"]
    rows = []
    for result in obs.games:
        won = seat_name(result.winners[0]) if len(result.winners) == 1 else "tie: no win"
        rows.append([str(result.number)] + [str(score) for score in result.scores] + [esc(won)])
    return panel("Super Surplus: first to two wins", table(headers, rows), css="sk-surplus-match")
