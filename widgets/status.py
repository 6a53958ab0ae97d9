"""The board's words about the game as a whole, drawn from a :class:`~sloth_widgets.session.Session`:
the turn line (whose turn it is, or the game's end), the seat boxes around the table, and, after
the game, the deal line (the seed and the record to download); the hot-seat cover's words and the
explanation under the controls."""

from __future__ import annotations

import base64
import html
import json
from collections.abc import Callable, Sequence

from sloth_widgets.markup import explanation_html, rule_text
from sloth_widgets.session import Session, bot_words

from sloth_kernel import Explanation
from sloth_kernel.core import seat_name
from sloth_kernel.render import kit


def turn_line_html(session: Session, title: str, turn_hint: Callable[[], str], held: int = 0) -> str:
    """The turn line: whose turn it is, unmistakably (yours in green), or the game's end.
    `turn_hint` says what the player to move may do (asked only on their turn); while a reveal
    holds back `held` events, the game is not over yet on screen."""
    state = session.state
    mode = session.mode_words
    css = ""
    more = ""
    if state.is_over and not held:
        what, css = "Game over.", " sk-over"
        more = "The results are below the turn line."
    elif held:
        what, more = "Revealing…", "Show the next step to see what happened."
    elif session.my_turn:
        what, css = (
            "Your turn." if session.mode == "bots" else f"Your turn, {seat_name(session.to_move)}.",
            " sk-yours",
        )
        more = turn_hint()
    elif session.covered:
        what = f"{seat_name(session.to_move)} is next: pass the device."
    elif session.bot_to_move:
        what = (
            f"{seat_name(session.to_move)} ({bot_words(session.game.name, session.seats[session.to_move])}) is playing…"
        )
    else:
        what = f"{seat_name(session.to_move)} is to move."
    seed = ""
    if state.is_over and not held and session.record_shown:  # a secret seed only once the game is over and shown
        seed = f" · seed {session.seed} "
    elif session.chosen and not state.is_over:  # a chosen seed may be shown any time
        seed = f" · seed {session.seed} (chosen)"
    return (
        f'<div class="sk-turn{css}" role="status"><span class="sk-turn-dot" aria-hidden="true"></span><div>'
        f'<div class="sk-turn-what">{html.escape(what)}</div>'
        f'<div class="sk-turn-more">{html.escape(title)} · {html.escape(mode)}{html.escape(seed)}'
        + (f" · {rule_text(session.game.rules, more)}" if more else "")
        + (f" · {rule_text(session.game.rules, session.status_note)}" if session.status_note else "")
        + "</div></div></div>"
    )


def seat_box_html(name: str, role: str, facts: Sequence[str], status: str, to_move: bool) -> str:
    """One seat at the table: its name and role, its public counts and state, and whether it is to move."""
    classes = "sk-seat" + (" sk-to-move" if to_move else "") + (" sk-you" if name == "You" else "")
    spans = "".join(f"<span>{html.escape(f)}</span>" for f in facts)
    turn = '<span class="sk-seat-turn">to move</span>' if to_move else ""
    current = ' aria-current="true"' if to_move else ""
    return (
        f'<div class="{classes}" role="listitem"{current}>'
        f'<div class="sk-seat-name">{html.escape(name)} <span class="sk-seat-role">{html.escape(role)}</span>'
        f"{turn}</div>"
        + (f'<div class="sk-seat-facts">{spans}</div>' if spans else "")
        + (f'<span class="sk-seat-status">{html.escape(status)}</span>' if status else "")
        + "</div>"
    )


def deal_line_html(session: Session, game_name: str) -> str:
    """After the game: the seed (as text) and the record to download (options, seed, deal, moves)."""
    if not session.state.is_over or not session.record_shown:
        return ""  # never before the end: the seed and the record are the whole deal
    record = json.dumps(session.state.to_record())
    data = base64.b64encode(record.encode()).decode()
    name = f"{game_name}-{session.token}.json"
    return (
        f'<div class="sk-deal-line">Seed of this deal: <code class="sk-seed">{session.seed}</code> '
        "(<i>Deal this seed</i> under <i>New game / seats</i> deals it again).</div>"
        f'<div class="sk-deal-line"><a class="sk-record-link" download="{html.escape(name)}" '
        f'href="data:application/json;base64,{data}">Download the game record</a> '
        "(the options, the seed, the deal and every move, as JSON: it replays the game exactly), "
        "or step through it with <i>Replay this game</i>.</div>"
    )


def cover_html(who: str) -> str:
    """The hot-seat cover's words: pass the device to `who` (nothing private is shown)."""
    return (
        f"<div>{kit.icon('eye', size=22)} Pass the device to <b>{html.escape(who)}</b>.</div>"
        "<div style='font-size:13px'>Nothing private is shown until they press the button.</div>"
    )


def explanation_panel_html(
    session: Session,
    verdict: Explanation | None,
    note: str,
    prompt: str,
    hints: bool,
    preview_move: Callable[[], str | None],
    shapes: Callable[[], Sequence[str]] = lambda: (),
) -> str:
    """The words under the controls: the last verdict, else a live preview of the selection
    (`preview_move`, asked only on the viewer's turn), else the note or prompt, with the shapes
    of the plays the viewer can make (`shapes`, in words) when `hints` are on. Rule ids they cite
    open the game's words for them."""
    rules = session.game.rules
    if session.covered and not session.state.is_over:
        # the last words may name a secret move (e.g. an opening pick): none behind the cover,
        # only the verdict on something tried under it ("the hand is covered")
        return explanation_html(verdict, "Waiting for the next player.", rules)
    if verdict is not None:
        return explanation_html(verdict, rules=rules)
    if not session.my_turn:
        return explanation_html(None, note, rules)
    move = preview_move()
    if move is not None:
        return explanation_html(session.state.explain(move), rules=rules)
    text = note or prompt
    said = list(shapes()) if hints else []
    if said:
        items = "".join(f"<li>{html.escape(shape)}</li>" for shape in said)
        return (
            f'<div class="sk-explain sk-note">{rule_text(rules, text)}<div class="sk-hint-shapes">'
            f'You can play: <ul class="sk-shapes">{items}</ul></div></div>'
        )
    return explanation_html(None, text, rules)


def seats_html(session: Session, box: Callable[[int], str]) -> tuple[str, str]:
    """The seats around the table, each drawn by `box`: the others in play order after yours, then yours."""
    count = len(session.seats)
    me = session.viewer if session.mode == "bots" else None
    order = [(me + k) % count for k in range(1, count)] if me is not None else list(range(count))
    mine = box(me) if me is not None else ""
    return f'<div class="sk-seats" role="list" aria-label="Seats">{"".join(box(seat) for seat in order)}</div>', (
        f'<div class="sk-seats" role="list" aria-label="Your seat">{mine}</div>' if mine else ""
    )
