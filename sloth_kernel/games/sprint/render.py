"""Sprint! as HTML: the track, the Objective card, the piles and the last reveal (pure).

Board size, carrot squares, Race card faces and Objective numbers are stated
assumptions (SP-1..SP-3): the board and the assumptions panel say so.
"""

from __future__ import annotations

from sloth_kernel.core import counted, seat_name
from sloth_kernel.games.sprint.engine import RACE_KINDS, SprintObservation, TurnReport, short_words
from sloth_kernel.render import kit

TORTOISE_COLOUR = "#2a8a3a"
HARE_COLOUR = "#8a5a2b"
OBJECTIVE_COLOUR = "#b8860b"
RACE_COLOUR = "#2b4a7a"
CELL = 24  # px per square
ROW_CELLS = 37  # squares per row of the drawn track

RACE_FACES: dict[str, kit.CardFace] = {
    "move 1": kit.CardFace("+1", RACE_COLOUR, "runner", "hare"),
    "move 2": kit.CardFace("+2", RACE_COLOUR, "runner", "hare"),
    "move 3": kit.CardFace("+3", RACE_COLOUR, "runner", "hare"),
    "move 4": kit.CardFace("+4", RACE_COLOUR, "runner", "hare"),
    "join": kit.CardFace("join", "#7b3fb5", "spiral"),
    "rest": kit.CardFace("rest", "#555555", "moon"),
    "copy": kit.CardFace("copy", "#c0392b", "wave"),
    "carrot": kit.CardFace("carrot", "#d35400", "leaf"),
}


def race_card(kind: str, width: int = kit.CARD_W) -> str:
    """A Race card's face (SP-2: faces assumed, the pictures are lost)."""
    return kit.card_svg(RACE_FACES[kind], width=width, title=f"Race card: {kind}", data=kind)


def objective_card(number: int) -> str:
    face = kit.CardFace(str(number), OBJECTIVE_COLOUR, "star", "goal")
    return kit.card_svg(face, title=f"Objective {number}", data=str(number))


def track(obs: SprintObservation, columns: int = ROW_CELLS, *, hare: int | None = None) -> str:
    """Squares 0..finish as SVG: start, carrots, finish flag, the Tortoise and the Hare (icons); `hare`
    puts the Hare elsewhere (where it stood while its card is face down), else it is on ``obs.hare``."""
    finish = obs.finish
    cols = min(finish + 1, columns)
    rows = finish // cols + 1
    width, height = cols * CELL + 8, rows * (CELL + 22) + 4
    carrots = set(obs.carrots)
    parts = []
    for square in range(finish + 1):
        x, y = 4 + (square % cols) * CELL, 4 + (square // cols) * (CELL + 22)
        tile = (square - 1) // 6 % 2 if square else 2
        fill = ("#efe6c8", "#e4d8b0", "#d8ecd8")[tile]
        if square == finish:
            parts.append(
                f'<rect x="{x}" y="{y}" width="{CELL - 2}" height="{CELL - 2}" rx="3" fill="#fff" stroke="#222"/>'
                f'<path d="M{x} {y}h{(CELL - 2) / 2}v{(CELL - 2) / 2}h{(CELL - 2) / 2}v{(CELL - 2) / 2}'
                f'h-{(CELL - 2) / 2}v-{(CELL - 2) / 2}h-{(CELL - 2) / 2}z" fill="#222"/>'
            )
        else:
            parts.append(
                f'<rect x="{x}" y="{y}" width="{CELL - 2}" height="{CELL - 2}" rx="3" fill="{fill}" stroke="#b9b29a"/>'
            )
        if square in carrots:
            cx = x + (CELL - 2) / 2
            parts.append(
                f'<path class="sk-sprint-carrot" d="M{cx - 4} {y + 6} L{cx + 4} {y + 6} L{cx} {y + 19} Z" '
                f'fill="#e67e22"><title>carrot (square {square})</title></path>'
                f'<path d="M{cx} {y + 6} l-3 -4 M{cx} {y + 6} l3 -4" stroke="#2a9d3a" stroke-width="1.5"/>'
            )
        label = "S" if square == 0 else "F" if square == finish else str(square) if square % 6 == 0 else ""
        if label:
            parts.append(
                f'<text x="{x + (CELL - 2) / 2}" y="{y + CELL + 9}" font-size="9" text-anchor="middle" '
                f'fill="#777">{label}</text>'
            )
    for name, square, colour, dy in (
        ("Tortoise", obs.tortoise, TORTOISE_COLOUR, 14),
        ("Hare", obs.hare if hare is None else hare, HARE_COLOUR, CELL + 16),
    ):
        square = min(square, finish)
        cx, cy = 4 + (square % cols) * CELL + (CELL - 2) / 2, 4 + (square // cols) * (CELL + 22) + dy - 6
        mark = kit.icon(name.lower(), size=12, at=(cx - 6, cy - 6))
        parts.append(
            f'<g class="sk-sprint-{name.lower()}"><circle cx="{cx}" cy="{cy}" r="7" fill="{colour}" '
            f'stroke="#fff" stroke-width="1.5"/><g color="#fff">{mark}</g><title>{name}: square {square}</title></g>'
        )
    svg = (
        f'<svg class="sk-sprint-board" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'role="img" aria-label="Sprint track">{"".join(parts)}</svg>'
    )

    def where(square: int) -> str:
        return "finished" if square >= finish else f"square {square}"

    note = kit.badge(f"Tortoise {where(obs.tortoise)}", css="sk-good") + kit.badge(
        f"Hare {where(obs.hare)}", css="sk-warn"
    )
    return f'<div class="sk-sprint-track">{svg}<div>{note} {kit.badge(f"finish {finish}")}</div></div>'


def reveal(last: TurnReport | None, finish: int) -> str:
    """The last lift and the Hare's card."""
    if last is None:
        return '<span class="sk-empty">no lift yet</span>'
    gap = short_words(last.objective, last.lift)
    text = (
        f"{kit.esc(seat_name(last.seat))} lifted <b>{last.lift}</b> on Objective {last.objective} "
        f"({gap}): Tortoise +{last.tortoise_move}."
    )
    if last.hare_card is None:
        card = kit.card_svg(kit.CardFace("", RACE_COLOUR, kind="back"), title="not drawn: the Tortoise finished")
        text += " The Tortoise finished first: no Hare card (SP-6)."
    else:
        card = race_card(last.hare_card)
        where = "the finish" if last.hare_to >= finish else f"square {last.hare_to}"
        text += f" Hare card <b>{kit.esc(last.hare_card)}</b>: {last.hare_from} &rarr; {where}."
    return kit.card_row([objective_card(last.objective), card]) + f"<div>{text}</div>"


def render(obs: SprintObservation) -> str:
    """HTML for a Sprint! observation (player view or omniscient view)."""
    if obs.winner == "tortoise":
        status = kit.badge("The Tortoise won: everyone wins!", css="sk-good")
    elif obs.winner == "hare":
        status = kit.badge("The Hare won: everyone loses", css="sk-bad")
    else:
        status = f"Turn {obs.turn + 1}: {kit.esc(seat_name(obs.current_player))} to lift" + (
            kit.badge("you", css="sk-warn") if obs.player == obs.current_player else ""
        )
    objective = (
        objective_card(obs.objective) if obs.objective is not None else '<span class="sk-empty">game over</span>'
    )
    piles = kit.card_row(
        [
            kit.card_svg(
                kit.CardFace("", OBJECTIVE_COLOUR, kind="back"),
                title=f"Objective deck: {counted(obs.objectives_left, 'card')}",
            ),
            kit.card_svg(
                kit.CardFace("", RACE_COLOUR, kind="back"), title=f"Race pile: {counted(obs.pile_size, 'card')}"
            ),
        ]
    )
    piles += (
        f"<div>Objective deck {obs.objectives_left} left {kit.badge('order hidden')} &middot; "
        f"Race pile {counted(obs.pile_size, 'card')} {kit.badge('order hidden')}</div>"
    )
    if obs.race_pile is not None:  # omniscient view only
        piles += kit.panel(
            "Race pile, top first (teacher view)",
            kit.card_row([race_card(k, width=30) for k in obs.race_pile], css="sk-sprint-pile-order"),
        )
    if obs.objective_deck is not None:
        piles += f"<div>Next Objectives (teacher view): {kit.esc(', '.join(map(str, obs.objective_deck)))}</div>"
    variants = [
        name
        for name, on in (("Small Track", obs.config.small_track), ("Young Tortoise", obs.config.young_tortoise))
        if on
    ]
    assumed = stand_in_note(obs)
    body = (
        f'<div class="sk-sprint-status">{status}'
        f"{''.join(kit.badge(v) for v in variants)}</div>"
        + kit.panel("Track", assumed + track(obs), css="sk-sprint-board-panel")
        + '<div style="display:flex;gap:10px;flex-wrap:wrap">'
        + kit.panel("Objective", objective, css="sk-sprint-objective")
        + kit.panel("Last reveal", reveal(obs.last, obs.finish), css="sk-sprint-reveal")
        + kit.panel("Piles", piles, css="sk-sprint-piles")
        + "</div>"
        + kit.panel("Assumptions (the rulebook's pictures are lost)", assumed, css="sk-sprint-assumptions")
        + kit.panel("Log", kit.log_html([str(e) for e in obs.log]), css="sk-sprint-log")
    )
    return kit.page("Sprint!", f'<div class="sk-sprint">{body}</div>')


__all__ = ["RACE_FACES", "RACE_KINDS", "race_card", "render", "reveal", "track"]


def stand_in_note(obs: SprintObservation) -> str:
    """The stand-in layout (SP-1, SP-2, SP-3: the rulebook's pictures are lost) as a short marker that
    opens an "About these rules" note; a <details> element opens by mouse, touch and keyboard alike."""
    lines = "".join(f"<li>{kit.esc(line)}</li>" for line in obs.config.assumptions())
    return (
        '<details class="sk-assume"><summary>Stand-in layout</summary>'
        "<div><b>About these rules</b>: the rulebook's pictures of the track and the decks are lost, "
        f"so these boards use a stand-in.<ul>{lines}</ul></div></details>"
    )
