"""The landing page's gallery: one card per game with a pitch and links (pure HTML)."""

from __future__ import annotations

import html
from dataclasses import dataclass

from .render import kit


@dataclass(frozen=True)
class Pitch:
    slug: str  # notebook suffix: play_<slug>.ipynb, learn_<slug>.ipynb
    title: str
    players: str
    pitch: str
    faces: tuple[kit.CardFace, ...]


PITCHES: tuple[Pitch, ...] = (
    Pitch(
        "too_sloth_to_win",
        "Too Sloth To Win",
        "3-5 players, climbing race",
        "Beat the table with a stronger Single, Jump or Run and your sloth runs one space per card. "
        "Finish first for a shiny Trophy, or fix the race and finish second for the Cash Chip that "
        "actually wins. Spend your Suspicious Drink before anyone crosses the line!",
        (
            kit.CardFace("4", "#1f6b52", "runner"),
            kit.CardFace("5", "#7b3fb5", "glass", "drink", "wild"),
            kit.CardFace("6", "#1f6b52", "runner"),
        ),
    ),
    Pitch(
        "race_to_the_bottom",
        "Race to the Bottom",
        "2-4 players, climbing with private decks",
        "Everyone plays from their own 54-card deck. Match the meld on the table with equal or higher "
        "ranks, reset with Aces, bomb with Cheats, and stack the bottom of your deck when you pass. "
        "First to shed all 54 cards wins.",
        (
            kit.CardFace("Q", "#222", "spade"),
            kit.CardFace("K", "#222", "spade"),
            kit.CardFace("A", "#b00020", "star", "joker", "wild"),
        ),
    ),
    Pitch(
        "surplus_of_sloths",
        "Surplus of Sloths",
        "2-4 players, drafting",
        "Draft sloths from the River; every leftover drops into the Net. At the end, the longest run "
        "of each type takes that type's Net, and every X card in it multiplies the points.",
        (
            kit.CardFace("5", "#2a9d3a", "leaf"),
            kit.CardFace("6", "#2a9d3a", "leaf"),
            kit.CardFace("X", "#2a9d3a", "leaf", "wild", "wild"),
        ),
    ),
    Pitch(
        "sprint",
        "Sprint!",
        "1+ players, co-operative",
        "The whole table is the Tortoise. Lift exactly as many cards as the Objective says, without "
        "counting; the closer you get, the further the Tortoise runs. The Hare runs on the next card.",
        (
            kit.CardFace("14", "#2b4a7a", "star"),
            kit.CardFace("4", "#2a9d3a", "runner", "move"),
        ),
    ),
)

EXTRAS: tuple[tuple[str, str, str], ...] = (
    (
        "climbing_games_101.ipynb",
        "Climbing games 101",
        "Too Sloth To Win and Race to the Bottom side by side, with the 'Does it beat?' checker.",
    ),
    ("variant_lab.ipynb", "Variant lab", "Turn a rule knob and watch the balance move."),
    ("analysis_sprint.ipynb", "Sprint! in numbers", "Win chance against lifting skill; why aiming low pays."),
    ("analysis_race_to_the_bottom.ipynb", "Race to the Bottom in numbers", "What a 12-card hand holds, exactly."),
    ("analysis_too_sloth_to_win.ipynb", "Too Sloth To Win in numbers", "Pacemaker advantage; when to drink."),
    ("analysis_surplus_of_sloths.ipynb", "Surplus of Sloths in numbers", "How runs and X cards become points."),
)

GALLERY_STYLE = """
<style>
.sk-gallery{display:grid;grid-template-columns:repeat(auto-fill,minmax(420px,1fr));gap:14px;max-width:980px}
.sk-game-card{border:1px solid #d8d8d8;border-radius:10px;padding:12px 14px;background:#fbfbf8}
.sk-game-card h4{margin:0 0 2px 0;font-size:17px}
.sk-game-card .sk-players{color:#777;font-size:12px;margin-bottom:6px}
.sk-game-card p{font-size:13px;line-height:1.4;margin:6px 0 10px 0}
.sk-links a{display:inline-block;margin-right:8px;padding:4px 12px;border-radius:14px;text-decoration:none;
  font-weight:600;font-size:13px}
.sk-links a.sk-play-link{background:#2a9d3a;color:#fff}.sk-links a.sk-learn-link{background:#e8eef8;color:#2b4a7a}
.sk-extras li{margin:3px 0}
</style>
"""


# Links open a new tab and leave the gallery (and its kernel) where it is.
NEW_TAB = 'target="_blank" rel="noopener"'


def gallery_html() -> str:
    """Cards for the four games (pitch, pictures, Play and Learn links) and the deeper notebooks."""
    cards = []
    for game in PITCHES:
        faces = kit.card_row([kit.card_svg(face, width=40) for face in game.faces])
        cards.append(
            f'<div class="sk-game-card" data-game="{game.slug}"><h4>{html.escape(game.title)}</h4>'
            f'<div class="sk-players">{html.escape(game.players)}</div>{faces}<p>{html.escape(game.pitch)}</p>'
            f'<div class="sk-links"><a class="sk-play-link" href="play_{game.slug}.ipynb" {NEW_TAB}>▶ Play</a>'
            f'<a class="sk-learn-link" href="learn_{game.slug}.ipynb" {NEW_TAB}>Learn the rules</a></div></div>'
        )
    extras = "".join(
        f'<li><a href="{href}" {NEW_TAB}><b>{html.escape(title)}</b></a> · {html.escape(words)}</li>'
        for href, title, words in EXTRAS
    )
    return (
        f'{kit.STYLE}{GALLERY_STYLE}<div class="sk-root"><div class="sk-gallery">{"".join(cards)}</div>'
        f'<h3>Go deeper</h3><ul class="sk-extras">{extras}</ul></div>'
    )


def gallery() -> object:
    """The gallery as a displayable object (IPython HTML)."""
    from IPython.display import HTML

    return HTML(gallery_html())
