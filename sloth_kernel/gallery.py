"""The landing page's gallery: one card per game with a pitch and links (pure HTML)."""

from __future__ import annotations

import html
from urllib.parse import urlencode

from sloth_kernel.registry import game_specs
from sloth_kernel.render import kit
from sloth_kernel.spec import GameSpec, Notebook

SHARED_NOTEBOOKS: tuple[Notebook, ...] = (
    Notebook(
        "climbing_games_101.ipynb",
        "Climbing games 101",
        "The two climbing games side by side, with the 'Does it beat?' checker.",
    ),
    Notebook("variant_lab.ipynb", "Variant lab", "Turn a rule knob and watch the balance move."),
    Notebook(
        "puzzles.ipynb",
        "Find the play",
        "Puzzles from real deals of the climbing games, every hand open: one play meets the goal.",
    ),
)
"""Notebooks about more than one game; each game's own analyses come from its spec."""


def players_text(spec: GameSpec) -> str:
    low, high = spec.players
    count = f"{low} player" if low == high == 1 else f"{low} players" if low == high else f"{low}-{high} players"
    return f"{count}, {spec.kind}"


GALLERY_STYLE = """
<style>
.sk-gallery{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,420px),1fr));gap:14px;max-width:980px}
.sk-game-card{border:1px solid #d8d8d8;border-radius:10px;padding:12px 14px;background:#fbfbf8;min-width:0}
.sk-game-card .sk-row,.sk-game-card svg{max-width:100%}
.sk-game-card h4{margin:0 0 2px 0;font-size:17px}
.sk-game-card .sk-players{color:#555;font-size:12px;margin-bottom:6px}
.sk-game-card p{font-size:13px;line-height:1.4;margin:6px 0 10px 0}
.sk-links{display:flex;flex-wrap:wrap;gap:8px}
.sk-links a{display:inline-flex;align-items:center;gap:6px;min-height:32px;box-sizing:border-box;padding:4px 14px;
  border-radius:16px;text-decoration:none;font-weight:600;font-size:14px}
.sk-links a:focus-visible{outline:3px solid #0b57d0;outline-offset:2px}
.sk-links a.sk-play-link{background:#1e7b2c;color:#fff}.sk-links a.sk-learn-link{background:#e8eef8;color:#213f6b}
.sk-extras li{margin:3px 0}
</style>
"""


# Links open a new tab and leave the gallery (and its kernel) where it is.
NEW_TAB = 'target="_blank" rel="noopener"'
# The Play link's triangle: an SVG (an emoji or symbol glyph needs a font that may be missing).
PLAY_ICON = (
    '<svg aria-hidden="true" focusable="false" width="10" height="12" viewBox="0 0 10 12">'
    '<path d="M0 0L10 6L0 12Z" fill="currentColor"/></svg>'
)


PLAY_PAGE = "play.ipynb"
"""The play page of a game with a board but no play notebook of its own (a plugin's): ``play.ipynb?game=NAME``."""


def game_card(spec: GameSpec) -> str:
    """One game's card: title, players, pictures, pitch, and Play and Learn links where it has them."""
    faces = kit.card_row([kit.card_svg(kit.CardFace(*face), width=40) for face in spec.faces])
    links = []
    play = spec.play_notebook or (f"{PLAY_PAGE}?{urlencode({'game': spec.name})}" if spec.board else None)
    if play:
        links.append(f'<a class="sk-play-link" href="{html.escape(play)}" {NEW_TAB}>{PLAY_ICON}Play</a>')
    if spec.learn_notebook:
        links.append(
            f'<a class="sk-learn-link" href="{html.escape(spec.learn_notebook)}" {NEW_TAB}>Learn the rules</a>'
        )
    return (
        f'<div class="sk-game-card" data-game="{html.escape(spec.name)}"><h4>{html.escape(spec.title)}</h4>'
        f'<div class="sk-players">{html.escape(players_text(spec))}</div>{faces}<p>{html.escape(spec.pitch)}</p>'
        f'<div class="sk-links">{"".join(links)}</div></div>'
    )


def gallery_html() -> str:
    """A card per registered game (pitch, pictures, Play and Learn links) and the deeper notebooks."""
    specs = list(game_specs().values())
    cards = [game_card(spec) for spec in specs]
    deeper = [*SHARED_NOTEBOOKS, *(notebook for spec in specs for notebook in spec.notebooks)]
    extras = "".join(
        f'<li><a href="{html.escape(item.path)}" {NEW_TAB}><b>{html.escape(item.title)}</b></a>'
        f" · {html.escape(item.blurb)}</li>"
        for item in deeper
    )
    return (
        f'{kit.STYLE}{GALLERY_STYLE}<div class="sk-root"><div class="sk-gallery">{"".join(cards)}</div>'
        f'<h3>Go deeper</h3><ul class="sk-extras">{extras}</ul></div>'
    )


def gallery() -> object:
    """The gallery as a displayable object (IPython HTML)."""
    from IPython.display import HTML

    return HTML(gallery_html())
