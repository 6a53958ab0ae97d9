"""Small HTML helpers for the widgets (card pictures, a progress bar, a verdict) and the boards'
stylesheet, ``board.css``, shipped beside this module as package data of ``sloth_widgets``."""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Mapping, Sequence
from importlib import resources

from sloth_kernel import Explanation
from sloth_kernel.render import kit

# The stylesheet every board (and the puzzle and table pages) sends as its first widget, on
# every front end (the light template, the stock template, JupyterLab).
BOARD_CSS = resources.files("sloth_widgets").joinpath("board.css").read_text(encoding="utf-8")


RULE_ID = re.compile(r"(?<![\w-])[A-Z]{2,3}-\d+(?![\w-])")
"""The shape of a rule id in a sentence (two or three capitals, a dash, a number); only ids that are keys of a game's rule table
become a :func:`rule_control`."""

RULE_STYLE = """<style>
.sk-rule{display:inline-block;position:relative}
.sk-rule[open]{display:inline}
.sk-rule:not([open])>.sk-rule-words{display:none}
.sk-rule>summary{display:inline-block;list-style:none;cursor:pointer;box-sizing:border-box;min-width:24px;
min-height:24px;padding:0 7px;margin:-4px 1px;border:1px solid #7d97bd;border-radius:12px;background:#eef3fb;
color:#1f3f6e;font:inherit;font-size:.86em;font-weight:700;line-height:22px;vertical-align:middle;
white-space:nowrap;text-align:center}
.sk-rule>summary::-webkit-details-marker{display:none}
.sk-rule>summary::marker{content:""}
.sk-rule>summary:hover{background:#dbe6f7}
.sk-rule>summary:focus-visible{outline:2px solid #1f3f6e;outline-offset:2px}
.sk-rule[open]>summary{background:#1f3f6e;border-color:#1f3f6e;color:#fff}
.sk-rule>.sk-rule-words{display:block;margin:4px 0 6px 0;padding:6px 10px;max-width:44em;border-left:3px solid #1f3f6e;
border-radius:0 6px 6px 0;background:#f4f7fc;color:#1b1b1b;font-size:13px;font-weight:400;line-height:1.45;
white-space:normal;text-align:left;text-transform:none;letter-spacing:normal}
</style>
"""
"""The rule control's look (sent once with :data:`BOARD_STYLE`, and by :func:`rule_text`'s users that
stand alone): a small chip that opens its rule's words below the line, by click, touch or keyboard."""
BOARD_STYLE = "\n<style>\n" + BOARD_CSS + "</style>\n" + RULE_STYLE


def rule_control(rule: str, words: str) -> str:
    """One rule id as a control that shows its rule's words: a ``<details>`` whose summary is the id
    (a chip a click, a tap, Enter or Space opens; its tooltip holds the words for a mouse too). A
    ``<details>`` is flow content: inside a ``<p>`` the parser would close the paragraph, so text that
    may cite a rule sits in a ``<div>`` or ``<span>``."""
    rule_id, said = html.escape(rule, quote=True), html.escape(words, quote=True)
    return (
        f'<details class="sk-rule"><summary aria-label="Rule {rule_id}" title="{said}">{rule_id}</summary>'
        f'<span class="sk-rule-words"><b>{rule_id}</b> {said}</span></details>'
    )


def rule_text(rules: Mapping[str, str], sentence: str) -> str:
    """`sentence` as HTML: escaped, with each rule id it cites that is a key of `rules` (a game's
    ``Game.rules``) made a :func:`rule_control`. Ids that are not keys stay plain text. Every id is
    treated alike: this is display, never a decision."""
    parts: list[str] = []
    last = 0
    for found in RULE_ID.finditer(sentence):
        words = rules.get(found.group(), "")
        if words:
            parts += [html.escape(sentence[last : found.start()]), rule_control(found.group(), words)]
            last = found.end()
    parts.append(html.escape(sentence[last:]))
    return "".join(parts)


_TAG = re.compile(r"(<[^>]*>)")
_NO_CONTROL = frozenset({"svg", "style", "script", "title", "summary", "button", "a", "textarea", "option", "select"})
"""Elements whose text never holds a control (a picture's text, a label, a link, a control already)."""


def rule_markup(rules: Mapping[str, str], markup: str) -> str:
    """HTML already made (a board's picture) with each rule id of its text that is a key of `rules` made
    a :func:`rule_control`, as :func:`rule_text` does for a sentence. Tags, attributes and the text of
    pictures, labels, links and controls are left as they are."""
    parts = _TAG.split(markup)
    inside: list[str] = []
    for index, part in enumerate(parts):
        if index % 2:  # a tag
            name = re.match(r"</?\s*([A-Za-z][\w-]*)", part)
            tag = name.group(1).lower() if name else ""
            if tag in _NO_CONTROL and not part.endswith("/>"):
                if part.startswith("</"):
                    if tag in inside:
                        del inside[len(inside) - 1 - inside[::-1].index(tag)]
                else:
                    inside.append(tag)
        elif part and not inside:  # text: escaped already, and an id holds nothing to escape
            parts[index] = RULE_ID.sub(lambda found: _control_or_text(rules, found.group()), part)
    return "".join(parts)


def _control_or_text(rules: Mapping[str, str], rule: str) -> str:
    words = rules.get(rule, "")
    return rule_control(rule, words) if words else rule


def cited(ids: Sequence[str]) -> str:
    """Rule ids that come from data, as the citation after a sentence (" (A, B)" for two ids), or "" for none."""
    return f" ({', '.join(ids)})" if ids else ""


def svg_data_uri(svg: str) -> str:
    """An inline SVG as a CSS url(); adds the namespace that standalone SVG needs."""
    if "xmlns=" not in svg:
        svg = svg.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1)
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()


def face_css(faces: dict[str, kit.CardFace]) -> str:
    """CSS giving each card class its picture (class name -> face): the hand's card buttons, and
    the small card pictures of :func:`card_image`."""
    rules = []
    for css_class, face in faces.items():
        uri = svg_data_uri(kit.card_svg(face, width=kit.CARD_W))
        rules.append(f".sk-handcard.{css_class},.sk-cardimg.{css_class}{{background-image:url({uri})}}")
    return "<style>" + "".join(rules) + "</style>"


def card_image(css_class: str, title: str, width: int) -> str:
    """A card's picture drawn by its face class (:func:`face_css`, sent once with the board's
    style): a few dozen bytes instead of the card's whole SVG each time a panel changes. A named
    image (role img), with its name as the mouse's tooltip too."""
    name = html.escape(title, quote=True)
    height = round(width * kit.CARD_H / kit.CARD_W)
    return (
        f'<span class="sk-cardimg {css_class}" role="img" aria-label="{name}" title="{name}" '
        f'style="width:{width}px;height:{height}px"></span>'
    )


def explanation_html(verdict: Explanation | None, note: str = "", rules: Mapping[str, str] | None = None) -> str:
    """A verdict (or a note) as the boards show it, its rule ids as controls when the game's `rules` are given."""
    said = rules or {}
    if verdict is None:
        return f'<div class="sk-explain sk-note">{rule_text(said, note)}</div>' if note else ""
    css = "sk-explain sk-legal" if verdict.legal else "sk-explain sk-illegal"
    return f'<div class="{css}">{rule_text(said, str(verdict))}</div>'  # as Explanation._repr_html_, with controls


def progress_bar(value: int, total: int, *, colour: str = "#2a9d3a", label: str = "") -> str:
    share = 0 if total <= 0 else max(0, min(100, round(100 * value / total)))
    text = html.escape(label or f"{value}/{total}")
    return (
        f'<div class="sk-bar" title="{text}"><div class="sk-bar-fill" style="width:{share}%;'
        f'background:{colour}"></div><span class="sk-bar-text">{text}</span></div>'
    )
