"""Pure HTML/SVG building blocks shared by every game's renderer and the widgets.

Everything here returns strings; nothing touches a game state.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sloth_kernel.errors import counted

CARD_W = 52
CARD_H = 74

# Icons drawn in a 20x20 box centred on (0, 0).
ICONS: dict[str, str] = {
    "dot": '<circle r="7"/>',
    "spiral": '<path d="M0 0 a2 2 0 0 1 4 0 a4 4 0 0 1 -8 0 a6 6 0 0 1 12 0 a8 8 0 0 1 -16 0" fill="none" stroke-width="2.2"/>',
    "leaf": '<path d="M-8 8 C-8 -4 0 -9 9 -9 C9 0 4 8 -8 8 Z M-8 8 L3 -3" stroke-width="1.2"/>',
    "drop": '<path d="M0 -9 C5 -2 8 2 8 4 A8 8 0 0 1 -8 4 C-8 2 -5 -2 0 -9 Z"/>',
    "wave": '<path d="M-9 -2 q4.5 -6 9 0 t9 0 v6 q-4.5 -6 -9 0 t-9 0 Z"/>',
    "moon": '<path d="M4 -9 A9 9 0 1 0 4 9 A7 7 0 1 1 4 -9 Z"/>',
    "star": '<path d="M0 -9 L2.6 -3 L9 -2.8 L4 1.4 L5.6 8 L0 4.4 L-5.6 8 L-4 1.4 L-9 -2.8 L-2.6 -3 Z"/>',
    "glass": '<path d="M-7 -8 H7 L1 0 V6 H4 V8 H-4 V6 H-1 V0 Z"/>',
    "baby": '<circle r="6"/><circle cx="-5" cy="-6" r="2.5"/><circle cx="5" cy="-6" r="2.5"/>',
    "runner": '<path d="M-8 6 L-2 0 L-4 -6 L3 -8 L6 -2 L9 0 M-2 0 L4 3 L2 9" fill="none" stroke-width="2.4" stroke-linecap="round"/>',
    "spade": '<path d="M0 -9 C6 -3 9 0 6 4 C4 6 1 5 1 3 L3 9 H-3 L-1 3 C-1 5 -4 6 -6 4 C-9 0 -6 -3 0 -9 Z"/>',
}


# Interface icons, drawn on a 24x24 grid as outlines in the text colour (currentColor); shapes
# that read better solid say fill="currentColor" themselves. No ids, so any number may share a page.
ICON_SHAPES: dict[str, str] = {
    "trophy": (
        '<path d="M7 4h10v5a5 5 0 0 1-10 0Z"/><path d="M7 6H4v1a3 3 0 0 0 3 3M17 6h3v1a3 3 0 0 1-3 3"/>'
        '<path d="M12 14v4M8 20h8"/>'
    ),
    "chip": '<circle cx="12" cy="12" r="9"/><circle cx="12" cy="12" r="4.5"/><path d="M12 3v3M12 18v3M3 12h3M18 12h3"/>',
    "drink": '<path d="M6 8h12l-1.6 12H7.6Z"/><path d="M7 12.5h10"/><path d="M13 8l1.8-5H18"/>',
    "flag": '<path d="M5 21V3"/><path d="M5 4h13l-3 4.5 3 4.5H5" fill="currentColor"/>',
    "tortoise": (
        '<path d="M2.5 17a8 8 0 0 1 16 0Z"/><path d="M6.5 12l4 5 4-5"/>'
        '<circle cx="21" cy="14" r="2"/><path d="M5.5 17v3M15.5 17v3"/>'
    ),
    "hare": (
        '<ellipse cx="10" cy="16" rx="6.5" ry="4"/><circle cx="17" cy="11.5" r="3"/>'
        '<path d="M15.5 9 14 2.5M18.5 9l1.5-6.5"/><circle cx="3" cy="15" r="1.3" fill="currentColor"/>'
        '<path d="M9 20h3"/>'
    ),
    "eye": '<path d="M2 12s3.6-6.5 10-6.5S22 12 22 12s-3.6 6.5-10 6.5S2 12 2 12Z"/><circle cx="12" cy="12" r="3"/>',
    "warning": '<path d="M12 3 22 20H2Z"/><path d="M12 9.5v4.5M12 17v.1"/>',
    "baby": (
        '<circle cx="12" cy="13" r="8"/><path d="M12 5c0-2 2.5-2.6 3.2-1.2"/>'
        '<path d="M9 12v.1M15 12v.1"/><path d="M9.5 16q2.5 2 5 0"/>'
    ),
    "sloth": (
        '<circle cx="12" cy="12" r="9.5"/><path d="M5.5 12.5q2-4 5.5-1.5-2 3.5-5.5 1.5ZM18.5 12.5q-2-4-5.5-1.5 2 3.5 '
        '5.5 1.5Z" fill="currentColor"/><path d="M11 14.5h2M9.5 17q2.5 1.5 5 0"/>'
    ),
    "star": (
        '<path d="M12 2.5l2.9 6.1 6.6.7-4.9 4.5 1.4 6.6L12 17l-6 3.4 1.4-6.6-4.9-4.5 6.6-.7Z" fill="currentColor"/>'
    ),
    "play": '<path d="M8 5v14l11-7Z" fill="currentColor"/>',
    "pass": (
        '<path d="M8 12V5.5a1.5 1.5 0 0 1 3 0V11M11 10.5V4a1.5 1.5 0 0 1 3 0v7M14 11V5.5a1.5 1.5 0 0 1 3 0V14'
        'a7 7 0 0 1-7 7h-.5A5.5 5.5 0 0 1 5 15.5V10a1.5 1.5 0 0 1 3 0v2"/>'
    ),
    "lift": '<path d="M12 20V5M6 11l6-6 6 6"/>',
    "replay": (
        '<rect x="3" y="4" width="18" height="16" rx="2"/><path d="M7 4v16M17 4v16M3 8h4M3 12h4M3 16h4M17 8h4'
        'M17 12h4M17 16h4"/><path d="M10.5 9.5v5l3.5-2.5Z" fill="currentColor"/>'
    ),
    "dice": (
        '<rect x="3.5" y="3.5" width="17" height="17" rx="3"/><g fill="currentColor" stroke="none">'
        '<circle cx="8.5" cy="8.5" r="1.5"/><circle cx="12" cy="12" r="1.5"/><circle cx="15.5" cy="15.5" r="1.5"/></g>'
    ),
    "refresh": '<path d="M20 12a8 8 0 1 1-2.4-5.7"/><path d="M20 4v5h-5"/>',
    "download": '<path d="M12 4v11M7 10l5 5 5-5M5 20h14"/>',
    "keyboard": (
        '<rect x="2" y="6" width="20" height="12" rx="2"/>'
        '<path d="M6 10h.1M10 10h.1M14 10h.1M18 10h.1M6 14h.1M18 14h.1M9 14h6"/>'
    ),
    "clock": '<circle cx="12" cy="12" r="9"/><path d="M12 7v5l3.5 2"/>',
}
ICON_ALIASES: dict[str, str] = {
    "coin": "chip",
    "glass": "drink",
    "finish": "flag",
    "hidden": "eye",
    "hand": "pass",
    "up": "lift",
    "film": "replay",
    "step": "replay",
    "new-deal": "refresh",
}


def icon_names() -> tuple[str, ...]:
    """Every name :func:`icon` draws: the icons, then their aliases."""
    return (*ICON_SHAPES, *ICON_ALIASES)


def icon(name: str, label: str | None = None, size: int = 16, *, at: tuple[float, float] | None = None) -> str:
    """A small interface icon as inline SVG in the text colour, `size` pixels square.

    With a `label` it is an image people are told about (``role="img"``, ``aria-label`` and a
    ``<title>`` tooltip); without one it is decoration beside words that say the same
    (``aria-hidden="true"``). `at` places it inside an enclosing SVG (its x and y there).
    An unknown name is a ValueError.
    """
    shape = ICON_SHAPES.get(ICON_ALIASES.get(name, name))
    if shape is None:
        raise ValueError(f"no icon named {name!r}; the icons are {', '.join(icon_names())}")
    if type(size) is not int or not 1 <= size <= 512:
        raise ValueError(f"an icon's size is a whole number of pixels from 1 to 512, not {size!r}")
    where = f' x="{at[0]:g}" y="{at[1]:g}"' if at is not None else ""
    if label:
        said = html.escape(label)
        access, tip = f'role="img" aria-label="{said}"', f"<title>{said}</title>"
    else:
        access, tip = 'aria-hidden="true" focusable="false"', ""
    return (
        f'<svg class="sk-icon sk-icon-{ICON_ALIASES.get(name, name)}"{where} width="{size}" height="{size}" '
        f'viewBox="0 0 24 24" {access} fill="none" stroke="currentColor" stroke-width="2" '
        f'stroke-linecap="round" stroke-linejoin="round" style="vertical-align:-0.15em">{tip}{shape}</svg>'
    )


def icon_count(name: str, count: int, noun: str, nouns: str = "", *, most: int = 5) -> str:
    """`count` copies of an icon (at most `most`, then the number) told as words: "2 Trophies"; "–" for none."""
    words = html.escape(counted(count, noun, nouns))
    if count <= 0:
        return f'<span class="sk-icons" title="{words}" aria-label="{words}" role="img">–</span>'
    shown = icon(name) * count if count <= most else f"{icon(name)}×{count}"
    return f'<span class="sk-icons" title="{words}" aria-label="{words}" role="img">{shown}</span>'


@dataclass(frozen=True)
class CardFace:
    """What one card shows. `tag` is a short word under the value (e.g. "=5")."""

    value: str
    color: str = "#2b4a7a"
    icon: str = "runner"
    tag: str = ""
    kind: str = "plain"  # plain | wild | baby | back


def card_svg(
    face: CardFace,
    *,
    selected: bool = False,
    dim: bool = False,
    hint: bool = False,
    width: int = CARD_W,
    title: str = "",
    data: str = "",
) -> str:
    """One card as inline SVG: rounded white card, coloured frame, corner indices."""
    h = round(width * CARD_H / CARD_W)
    classes = ["sk-card", f"sk-card-{face.kind}"]
    if selected:
        classes.append("sk-selected")
    if dim:
        classes.append("sk-dim")
    if hint:
        classes.append("sk-hint")
    tip = f"<title>{html.escape(title)}</title>" if title else ""
    attrs = f' data-card="{html.escape(data)}"' if data else ""
    if face.kind == "back":
        body = (
            f'<rect x="4" y="4" width="{CARD_W - 8}" height="{CARD_H - 8}" rx="4" fill="{face.color}"/>'
            f'<path d="M4 14 L{CARD_W - 4} {CARD_H - 14} M{CARD_W - 4} 14 L4 {CARD_H - 14}" '
            'stroke="#ffffff55" stroke-width="6"/>'
        )
    else:
        fill = "#fff7e6" if face.kind == "wild" else "#ffffff"
        icon = ICONS.get(face.icon, ICONS["dot"])
        value = html.escape(face.value)
        tag = html.escape(face.tag)
        big = 26 if len(face.value) <= 2 else 15
        # a tag sits between the value and the bottom corner's index, never over it: the value moves up
        value_y, big = (49, min(big, 22)) if tag else (56, big)
        body = (
            f'<rect x="3.5" y="3.5" width="{CARD_W - 7}" height="{CARD_H - 7}" rx="4" fill="{fill}" '
            f'stroke="{face.color}" stroke-width="2.5"/>'
            f'<g fill="{face.color}" stroke="{face.color}" transform="translate({CARD_W / 2} 22) scale(0.85)">{icon}</g>'
            f'<text x="{CARD_W / 2}" y="{value_y}" text-anchor="middle" font-size="{big}" font-weight="700" '
            f'fill="{face.color}">{value}</text>'
            f'<text x="7" y="14" font-size="10" font-weight="700" fill="{face.color}">{value[:2]}</text>'
            f'<text x="{CARD_W - 7}" y="{CARD_H - 7}" font-size="10" font-weight="700" text-anchor="start" '
            f'fill="{face.color}" transform="rotate(180 {CARD_W - 7} {CARD_H - 10})">{value[:2]}</text>'
        )
        if tag:  # above the bottom corner's index (which reaches up to about 13 units from the bottom edge)
            fit = f' textLength="{CARD_W - 14}" lengthAdjust="spacingAndGlyphs"' if len(face.tag) > 7 else ""
            body += (
                f'<text x="{CARD_W / 2}" y="{CARD_H - 15}" text-anchor="middle" font-size="8" fill="#333"{fit}>'
                f"{tag}</text>"
            )
    return (
        f'<svg class="{" ".join(classes)}"{attrs} width="{width}" height="{h}" '
        f'viewBox="0 0 {CARD_W} {CARD_H}" role="img" aria-label="{html.escape(title or face.value)}">'
        f'{tip}<rect x="1" y="1" width="{CARD_W - 2}" height="{CARD_H - 2}" rx="6" fill="#fff" '
        f'stroke="#888" stroke-width="1"/>{body}</svg>'
    )


def card_row(cards: Iterable[str], *, css: str = "", empty: str = "(none)") -> str:
    items = list(cards)
    inner = "".join(items) if items else f'<span class="sk-empty">{html.escape(empty)}</span>'
    return f'<div class="sk-cards {css}">{inner}</div>'


def panel(title: str, body: str, *, css: str = "") -> str:
    return f'<div class="sk-panel {css}"><div class="sk-panel-title">{html.escape(title)}</div>{body}</div>'


def table(headers: Sequence[str], rows: Sequence[Sequence[str]], *, css: str = "") -> str:
    """A small HTML table; cells are already-escaped HTML."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f'<table class="sk-table {css}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def log_html(lines: Sequence[str], *, last: int = 12) -> str:
    shown = lines[-last:]
    items = "".join(f"<li>{html.escape(line)}</li>" for line in shown)
    more = f'<div class="sk-more">… {len(lines) - len(shown)} earlier events</div>' if len(lines) > len(shown) else ""
    # room for the widest entry number ("123.") however long the game runs
    room = f"{len(str(max(len(lines), 1))) + 2.4:.1f}ch"
    return (
        f'<div class="sk-log">{more}<ol start="{len(lines) - len(shown) + 1}" style="padding-left:{room}">'
        f"{items}</ol></div>"
    )


def badge(text: str, *, css: str = "") -> str:
    return f'<span class="sk-badge {css}">{html.escape(text)}</span>'


def esc(text: object) -> str:
    return html.escape(str(text))


STYLE = """
<style>
.sk-root{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;font-size:14px;color:#222;max-width:980px}
.sk-root h3{margin:4px 0 8px 0;font-size:16px}
.sk-panel{border:1px solid #d8d8d8;border-radius:8px;padding:6px 10px;margin:6px 0;background:#fbfbf8}
.sk-panel-title{font-weight:700;font-size:12px;text-transform:uppercase;letter-spacing:.04em;color:#666;margin-bottom:4px}
.sk-cards{display:flex;flex-wrap:wrap;gap:4px;align-items:flex-end;min-height:20px}
.sk-card{filter:drop-shadow(1px 2px 1px #0002);transition:transform .08s}
.sk-card.sk-selected{transform:translateY(-8px)}
.sk-card.sk-selected>rect:first-of-type{stroke:#e0a000;stroke-width:3}
.sk-card.sk-dim{opacity:.45}
.sk-card.sk-hint>rect:first-of-type{stroke:#2a9d3a;stroke-width:3}
.sk-empty{color:#999;font-style:italic}
.sk-table{border-collapse:collapse;font-size:13px}
.sk-table th,.sk-table td{border-bottom:1px solid #e4e4e4;padding:3px 8px;text-align:left}
.sk-table th{background:#f0f0ea}
.sk-log ol{margin:0;padding-left:28px;max-height:220px;overflow:auto;font-size:13px}
.sk-more{color:#888;font-size:12px}
.sk-badge{display:inline-block;border-radius:9px;padding:0 7px;font-size:12px;background:#eee;margin-left:4px}
.sk-badge.sk-good{background:#d8f3dc}.sk-badge.sk-bad{background:#fde2e1}.sk-badge.sk-warn{background:#fff1c2}
.sk-explain{padding:6px 10px;border-radius:6px;margin:4px 0}
.sk-legal{background:#e6f6e9;border:1px solid #9fd4a8}.sk-illegal{background:#fdecec;border:1px solid #f0a8a8}
.sk-icon{flex:none}.sk-icons{white-space:nowrap}
.sk-assume{font-size:12px;color:#8a5a00;background:#fff6dd;border-radius:4px;padding:2px 6px}
</style>
"""


def page(title: str, body: str) -> str:
    """Wrap a game's body in the shared root div and stylesheet."""
    return f'{STYLE}<div class="sk-root"><h3>{html.escape(title)}</h3>{body}</div>'
