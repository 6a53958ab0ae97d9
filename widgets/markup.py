"""Small HTML helpers for the widgets (card pictures, a progress bar, a verdict) and the boards'
stylesheet, ``board.css``, shipped beside this module as package data of ``sloth_widgets``."""

from __future__ import annotations

import base64
import html
from collections.abc import Sequence
from importlib import resources

from sloth_kernel import Explanation
from sloth_kernel.render import kit

# The stylesheet every board (and the puzzle and table pages) sends as its first widget, on
# every front end (the light template, the stock template, JupyterLab).
BOARD_CSS = resources.files("sloth_widgets").joinpath("board.css").read_text(encoding="utf-8")
BOARD_STYLE = "\n<style>\n" + BOARD_CSS + "</style>\n"


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


def explanation_html(verdict: Explanation | None, note: str = "") -> str:
    if verdict is None:
        return f'<div class="sk-explain sk-note">{html.escape(note)}</div>' if note else ""
    return verdict._repr_html_()


def progress_bar(value: int, total: int, *, colour: str = "#2a9d3a", label: str = "") -> str:
    share = 0 if total <= 0 else max(0, min(100, round(100 * value / total)))
    text = html.escape(label or f"{value}/{total}")
    return (
        f'<div class="sk-bar" title="{text}"><div class="sk-bar-fill" style="width:{share}%;'
        f'background:{colour}"></div><span class="sk-bar-text">{text}</span></div>'
    )
