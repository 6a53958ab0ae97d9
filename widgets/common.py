"""Shared pieces of every play board: the session logic, the card hand, the board shell.

Separation of concerns (the ipywidgets pattern):

- :class:`Session` is the logic: the engine state, who sits in each seat, the mode,
  and whose eyes are on the screen. It never decides a rule; it asks the engine.
- :class:`GameBoard` is the GUI: a VBox with private child widgets and one
  idempotent :meth:`GameBoard.render` that redraws everything from the session.
- Glue: the board observes the session's ``version`` trait and re-renders.

Each game subclasses :class:`GameBoard` and fills in a few hooks (picture, hand,
controls, how a selection becomes move text).

Secret deals: a seed is the whole deal, so every game a board starts on its own (the first,
"Play again", "New game") is dealt from a fresh 128-bit seed (``core.fresh_seed``), and until
the game is over neither the seed nor anything derived from it reaches the page (the widget
states, element ids, the log). After the game the board shows the seed and offers the record
and a step-through. Choosing a seed is explicit: ``Board(seed=…)`` in code, *Deal this seed* in
the setup panel, or the page's address (``?seed=123``, see :meth:`GameBoard.deal_address_seed`);
a chosen seed may be shown.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import html
import json
import os
import re
import secrets
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Concatenate, ParamSpec, TypeVar
from urllib.parse import parse_qs

import ipywidgets as widgets
import traitlets
from ipywidgets.widgets.widget import _put_buffers
from ipywidgets.widgets.widget_bool import ToggleButtonStyle
from ipywidgets.widgets.widget_selection import _Selection
from sloth_widgets import safety
from sloth_widgets.ask import AskWhy

from sloth_kernel import ConfigError, Explanation, IllegalMoveError, InvalidMoveError, SlothKernelError, load_game
from sloth_kernel.bots import bot_levels, make_bot
from sloth_kernel.core import fresh_seed, seat_name
from sloth_kernel.render import kit

HUMAN = "human"
ASK_COVERED = "Ask why answers the player whose hand is shown: show your hand first."
MODES = ("bots", "hot-seat", "watch")
SPEEDS: tuple[tuple[str, int], ...] = (("slow", 1600), ("normal", 900), ("fast", 350), ("instant", 60))
SEED_PATTERN = re.compile(r"[0-9]{1,60}")  # a chosen seed as typed: a whole number (128 bits take 39 digits)


def parse_seed(text: object) -> int:
    """A chosen seed, typed by a person or given in the page's address: a whole number."""
    if isinstance(text, int) and not isinstance(text, bool) and text >= 0:
        return text
    if isinstance(text, str) and SEED_PATTERN.fullmatch(text.strip()):
        return int(text.strip())
    shown = str(text)
    shown = shown if len(shown) <= 24 else shown[:24] + "…"
    raise ValueError(f"{shown!r} is not a seed: a seed is a whole number, digits only")


def address_seed(environ: Mapping[str, str] | None = None) -> str | None:
    """The ``seed`` parameter of the page's address, when Voila started this kernel for the page.

    Voila puts the query string in a kernel's environment (QUERY_STRING) only when it starts the
    kernel for a request; a preheated kernel has none, and the play apps' front end sends the
    page's parameters instead (:attr:`GameBoard._page_params`).
    """
    query = (os.environ if environ is None else environ).get("QUERY_STRING", "")
    values = parse_qs(query).get("seed")
    return values[-1] if values else None


# --- the logic ---------------------------------------------------------------------------


class Session(traitlets.HasTraits):
    """Engine state + seats + mode. ``version`` bumps after every change (the glue)."""

    version = traitlets.Int(0)

    def __init__(
        self,
        game_name: str,
        *,
        seed: int | None = None,
        seats: Sequence[str] | None = None,
        deal: dict[str, Any] | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if seats is not None and "players" not in options and _has_option(game_name, "players"):
            options["players"] = len(seats)
        self.game = load_game(game_name, **options)
        self.options = dict(options)
        players = self.game.num_players
        if seats is None:
            seats = [HUMAN] + [default_bot_level(game_name)] * (players - 1)
        seats = list(seats)
        if len(seats) != players:
            raise ConfigError(f"{len(seats)} seats given for {players} players")
        levels = bot_levels(game_name)
        for seat in seats:
            if seat != HUMAN and seat not in levels:
                raise ConfigError(f"seat kind {seat!r}: choose 'human' or a bot level ({', '.join(levels)})")
        self.seats: tuple[str, ...] = tuple(seats)
        # The seed is the whole deal: secret until the game is over, unless it was chosen on purpose
        # (by code, the setup panel or the page's address); only a chosen seed may be shown before.
        self.chosen = seed is not None
        if seed is None:
            seed = fresh_seed()
        # an explicit deal (the engine's from_deal format) sets up a scenario; else deal from the seed
        self.state = self.game.from_deal(deal, seed=seed) if deal else self.game.new_state(seed=seed)
        self.seed: int = self.state.seed
        # Names this game in the page (element ids, a look that changes from game to game):
        # random, and unrelated to the seed.
        self.token = secrets.token_hex(6)
        self.bots = {
            s: make_bot(game_name, kind, seed=self.seed * 31 + s) for s, kind in enumerate(self.seats) if kind != HUMAN
        }
        humans = self.humans
        self.viewer: int | None = humans[0] if len(humans) == 1 else None
        self.covered = len(humans) > 1  # hot-seat starts behind the cover

    # -- who is who --

    @property
    def seed_shown(self) -> bool:
        """May the page show the seed? After the game, or when someone chose it."""
        return self.chosen or bool(self.state.is_over)

    @property
    def humans(self) -> list[int]:
        return [s for s, kind in enumerate(self.seats) if kind == HUMAN]

    @property
    def mode(self) -> str:
        count = len(self.humans)
        return "watch" if count == 0 else "bots" if count == 1 else "hot-seat"

    @property
    def to_move(self) -> int:
        player: int = self.state.current_player
        return player

    def is_human(self, seat: int) -> bool:
        return 0 <= seat < len(self.seats) and self.seats[seat] == HUMAN

    @property
    def bot_to_move(self) -> bool:
        return not self.state.is_over and not self.is_human(self.to_move)

    @property
    def my_turn(self) -> bool:
        """The seat on screen may act now (its hand is shown and it is to move)."""
        return not self.state.is_over and not self.covered and self.viewer is not None and self.viewer == self.to_move

    def observation(self) -> Any:
        """What the screen may show: the viewer's observation, or the teacher's view when watching.

        Behind the hot-seat cover this is the incoming player's observation; boards must
        then draw public parts only.
        """
        if self.mode == "watch":
            return self.state.view()
        seat = self.viewer
        if seat is None or self.covered:
            seat = self.to_move if self.is_human(self.to_move) else self.humans[0]
        return self.state.observation(seat)

    # -- actions: every one re-validated by the engine --

    def refusal(self, seat: object) -> str | None:
        """Why `seat` may not act at this screen now, or None when it may.

        Every move a page submits is checked here first, before the engine judges anything: a
        seat that may not act (not at this screen, behind the hot-seat cover, not to move, after
        the game) gets a sentence of public facts only, never a verdict worked out on the full
        state (which would read the mover's hidden hand). Subclasses add their own reasons (a
        paused table).
        """
        if self.covered:
            return "the hand is covered: reveal it first"
        if type(seat) is not int or not self.is_human(seat) or seat != self.viewer:  # a forged event may carry anything
            return "nobody at this screen may move for that seat"
        if self.state.is_over:
            return "the game is over; no more moves"
        if seat != self.to_move:
            return f"it is not {seat_name(seat)}'s turn; {seat_name(self.to_move)} is to move"
        return None

    def play(self, move: Any, seat: int | None) -> Explanation:
        """Play `move` for `seat`; an illegal move changes nothing and says why (off turn: only that)."""
        text = str(move)
        refused = self.refusal(seat)
        if refused is not None:
            return Explanation(text, False, refused)
        assert seat is not None  # refusal() passes only a seat at this screen
        try:
            verdict: Explanation = self.state.explain(move)
            self.state = self.state.play(move, player=seat)
        except IllegalMoveError as err:
            return err.explanation
        except InvalidMoveError as err:
            return Explanation(text, False, f"that is not a move: {err.reason}")
        self._after_move()
        return verdict

    def play_sequence(self, moves: Sequence[str], seat: int | None) -> Explanation:
        """Several moves of one seat as one action (e.g. pitches then done): all or nothing.

        Each move is judged only while it is still this seat's turn: a move past the seat's turn
        is refused with that sentence, never judged for the seat that moves next."""
        text = " / ".join(str(move) for move in moves)
        refused = self.refusal(seat)
        if refused is not None:
            return Explanation(text, False, refused)
        assert seat is not None
        state = self.state
        reasons = []
        try:
            for move in moves:
                past = sequence_refusal(state, seat)
                if past is not None:
                    return Explanation(str(move), False, past)
                reasons.append(state.explain(move).reason)
                state = state.play(move, player=seat)
        except IllegalMoveError as err:
            return Explanation(str(err.move), False, err.explanation.reason, err.explanation.rules)
        except InvalidMoveError as err:
            return Explanation(text, False, f"that is not a move: {err.reason}")
        self.state = state
        self._after_move()
        return Explanation(text, True, reasons[-1] if reasons else "nothing to do")

    @property
    def replay_seat(self) -> int | None:
        """Whose view the finished game's replay shows: None, every hand (the play apps, where
        every hand may be shown after the game); a seat's page replays that seat's view only."""
        return None

    def step(self) -> bool:
        """One bot move (if a bot is to move); True when something happened."""
        if not self.bot_to_move:
            return False
        seat = self.to_move
        move = self.bots[seat].choose(self.state.observation(seat))
        self.state = self.state.play(move, player=seat)
        self._after_move()
        return True

    def reveal(self) -> None:
        """Hot-seat: the player to move has the device; lift the cover."""
        if self.covered and self.is_human(self.to_move):
            self.viewer = self.to_move
            self.covered = False
            self.version += 1

    def _after_move(self) -> None:
        humans = self.humans
        if len(humans) > 1 and not self.state.is_over:
            nxt = self.to_move
            if self.is_human(nxt) and nxt != self.viewer:
                self.covered = True
        self.version += 1


def sequence_refusal(state: Any, seat: int) -> str | None:
    """Within one action of several moves: why the next move is not `seat`'s to make (None: it is)."""
    if state.is_over:
        return "the game is over after the moves before it; no more moves"
    if state.current_player != seat:
        return f"that is more than this turn's moves: {seat_name(state.current_player)} is to move then"
    return None


def _has_option(game_name: str, name: str) -> bool:
    return hasattr(load_game(game_name).config, name)


def default_bot_level(game_name: str) -> str:
    levels = bot_levels(game_name)
    return "heuristic" if "heuristic" in levels else levels[0]


def player_counts(game_name: str) -> list[int]:
    """The player counts the engine accepts (asked, not assumed)."""
    counts = []
    for n in range(1, 9):
        try:
            load_game(game_name, players=n)
        except ConfigError:
            continue
        counts.append(n)
    return counts


# --- small HTML helpers for the widgets --------------------------------------------------


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


LOG_CHUNK = 40  # log lines per chunk widget: a new line re-sends its chunk, never the whole log


def log_lines_html(lines: Sequence[str], first: int = 1, label: bool = True) -> str:
    """Log lines numbered from `first`; the panel scrolls and stays pinned to the newest (CSS only)."""
    if not lines:
        return '<div class="sk-empty">Nothing has happened yet.</div>'
    items = "".join(
        f'<li class="sk-log-line"><span class="sk-log-n">{n}.</span><span>{html.escape(line)}</span></li>'
        for n, line in enumerate(lines, first)
    )
    name = ' aria-label="Game log"' if label else ""
    return f'<ol class="sk-log-lines"{name}>{items}</ol>'


class LogView(widgets.VBox):
    """The game log: a scrolling panel (class ``sk-log``) of fixed chunks of lines, so a new line
    re-sends only the last chunk (a long game's log is tens of kilobytes). ``value`` reads the
    whole log's HTML; :meth:`show` sets it from lines."""

    def __init__(self) -> None:
        self._inner = widgets.VBox()
        self._inner.add_class("sk-log-inner")
        self._chunks: list[widgets.HTML] = []
        # The panel scrolls, so the keyboard must reach it; a box cannot take the focus itself
        # (ipywidgets gives boxes no tab stop), so its last line, which never changes, can: Tab
        # lands on the newest end and the arrow keys scroll the panel (whose outline shows it).
        self._end = widgets.HTML(
            '<div class="sk-log-end" tabindex="0" role="note" '
            'aria-label="Game log: the newest line is last; the arrow keys scroll it"></div>'
        )
        self._end.add_class("sk-log-end-box")
        super().__init__([self._inner])
        self.add_class("sk-log")

    @property
    def value(self) -> str:
        return "".join(chunk.value for chunk in self._inner.children if chunk is not self._end)

    def show_html(self, parts: Sequence[str]) -> None:
        """One chunk widget per part: only a part that changed is sent to the page."""
        while len(self._chunks) < len(parts):
            chunk = widgets.HTML()
            chunk.add_class("sk-log-chunk")
            self._chunks.append(chunk)
        for chunk, part in zip(self._chunks, parts, strict=False):
            chunk.value = part
        shown = (*self._chunks[: len(parts)], self._end)
        if self._inner.children != shown:
            self._inner.children = shown

    def show(self, lines: Sequence[str]) -> None:
        if not lines:
            self.show_html([log_lines_html(lines)])
            return
        self.show_html(
            [
                log_lines_html(lines[start : start + LOG_CHUNK], start + 1, label=start == 0)
                for start in range(0, len(lines), LOG_CHUNK)
            ]
        )


BOARD_STYLE = """
<style>
.sk-board{max-width:1000px;box-sizing:border-box;font-family:system-ui,-apple-system,'Segoe UI',sans-serif;color:#1d1d1d}
.sk-board *{box-sizing:border-box}
.sk-board .widget-html-content{line-height:1.35}
.sk-board svg{max-width:100%;height:auto}
.sk-board .widget-html,.sk-board .widget-html-content{max-width:100%;min-width:0}
.sk-cardimg{display:inline-block;flex:none;vertical-align:middle;background-size:100% 100%;background-repeat:no-repeat}
.sk-turn{display:flex;gap:10px;align-items:center;font-size:17px;padding:8px 12px;border-radius:10px;border:2px solid #c9d8f0;
  background:#eef3fb;overflow-wrap:anywhere}
.sk-turn.sk-yours{background:#dff5e3;border-color:#1f7a35;box-shadow:0 0 0 3px #1f7a3533}
.sk-turn.sk-over{background:#fff4cc;border-color:#b38600}
.sk-turn-what{font-weight:700}
.sk-turn-more{font-size:13px;color:#3a3a3a}
.sk-turn-dot{flex:none;width:14px;height:14px;border-radius:50%;background:#7d8da6}
.sk-turn.sk-yours .sk-turn-dot{background:#1f7a35;animation:sk-pulse 1.4s ease-in-out infinite}
.sk-turn.sk-over .sk-turn-dot{background:#b38600}
@keyframes sk-pulse{50%{transform:scale(1.35)}}
@media (prefers-reduced-motion:reduce){.sk-turn.sk-yours .sk-turn-dot{animation:none}}
.sk-deal-line{margin-top:4px;overflow-wrap:anywhere}
.sk-deal-line .sk-seed{font-weight:700;word-break:break-all}
.sk-felt{background:#2c5a3c;border-radius:14px;padding:8px;gap:8px;margin:6px 0}
.sk-seats{display:flex;flex-wrap:wrap;gap:8px}
.sk-seat{flex:1 1 150px;min-width:0;background:#fdfdf8;border:2px solid #c8c8bc;border-radius:10px;padding:6px 9px;font-size:13px}
.sk-seat.sk-to-move{border-color:#f2b600;box-shadow:0 0 0 3px #f2b60066;background:#fffbe6}
.sk-seat.sk-you{background:#f2fbf4}
.sk-seat-name{font-weight:700;font-size:14px;display:flex;gap:6px;align-items:center;flex-wrap:wrap}
.sk-seat-role{font-weight:400;color:#555;font-size:12px}
.sk-seat-facts{display:flex;flex-wrap:wrap;gap:2px 10px;margin-top:2px;color:#2b2b2b}
.sk-seat-status{display:inline-block;margin-top:3px;font-size:12px;border-radius:8px;padding:0 6px;background:#ececec}
.sk-seat-turn{display:inline-block;border-radius:8px;padding:0 7px;background:#f2b600;color:#1d1d1d;font-size:12px;font-weight:700}
.sk-center{background:#f7f6ef;border-radius:10px;padding:4px 8px;min-width:0}
.sk-center .sk-panel{background:#fffffb}
.sk-error-box{background:#fdecec;border:1px solid #c0392b;border-radius:6px;padding:6px 10px;font-size:14px}
.sk-cover-box{background:repeating-linear-gradient(45deg,#5b4636 0 14px,#6b5444 14px 28px);border-radius:12px;padding:28px;
  color:#fff;text-align:center;font-size:18px;margin:6px 0}
.sk-hand-box{min-height:96px;padding:14px 6px 4px 6px;border-radius:10px;background:#234a30;flex-wrap:wrap;gap:4px;align-items:flex-end}
.sk-hand-label{color:#fff;font-size:13px;font-weight:700;text-transform:uppercase;letter-spacing:.04em;margin:2px 4px 0 4px}
.sk-board .sk-handcard.jupyter-button{width:56px;height:80px;min-width:56px;padding:0;margin:0 2px;border:none;
  background-color:transparent !important;background-size:100% 100%;background-repeat:no-repeat;
  box-shadow:none !important;transition:transform .08s;border-radius:7px}
.sk-board .sk-handcard.jupyter-button:focus-visible{outline:3px solid #fff;outline-offset:2px}
.sk-board .sk-handcard.jupyter-button.mod-active{transform:translateY(-12px);box-shadow:0 0 0 3px #ffc400 !important}
.sk-board .sk-handcard.jupyter-button.sk-hint{box-shadow:0 0 0 3px #7dff8e !important}
.sk-board .sk-handcard.jupyter-button.sk-hint.mod-active{box-shadow:0 0 0 3px #ffc400,0 0 0 6px #7dff8e !important}
.sk-board .sk-handcard.jupyter-button:disabled{opacity:1;cursor:default}
.sk-board .sk-handcard.jupyter-button.sk-faded{opacity:.55}
.sk-board .sk-handcard.jupyter-button.sk-group-start{margin-left:14px}
.sk-board .jupyter-button:focus-visible,.sk-board input:focus-visible,.sk-board select:focus-visible,
.sk-board .sk-log:focus-visible{outline:3px solid #1c5bd8;outline-offset:2px}
.sk-board select:focus-visible,.sk-board input:focus-visible{outline-style:solid !important}
.sk-board .sk-disclosure{margin:4px 0;max-width:100%}
.sk-board .sk-disclosure-toggle.jupyter-button{align-self:flex-start;background:#f3f1ea;color:#2b2b2b;
  border:1px solid #c9c4b5;border-radius:6px;font-weight:600}
.sk-board .sk-disclosure-toggle.jupyter-button.mod-active{background:#e6e1d2;box-shadow:none}
.sk-board .sk-disclosure>.jupyter-widgets:last-child{border:1px solid #c9c4b5;border-radius:6px;padding:6px;margin-top:4px}
.sk-board .jupyter-button{min-height:32px}
.sk-actions{gap:6px;align-items:center;flex-wrap:wrap;margin:6px 0}
.sk-board .sk-play{font-weight:700}
.sk-bar{position:relative;width:140px;max-width:100%;height:16px;background:#e9e9e2;border-radius:8px;overflow:hidden;display:inline-block;vertical-align:middle}
.sk-bar-fill{height:100%}
.sk-bar-text{position:absolute;left:0;right:0;top:0;font-size:11px;text-align:center;line-height:16px;color:#1d1d1d}
.sk-game-over-box{background:#fff7d6;border:2px solid #b38600;border-radius:10px;padding:8px 12px;margin:6px 0;overflow-wrap:anywhere}
.sk-game-over-box .sk-table{max-width:100%}
.sk-note{background:#f4f4ef;border:1px solid #ddd}
.sk-botbar{gap:6px;align-items:center;flex-wrap:wrap}
.sk-panels{gap:12px;flex-flow:row wrap}
.sk-panels>.widget-html{flex:1 1 300px;min-width:0}
.sk-log-box{border:1px solid #d8d8d8;border-radius:8px;padding:6px 4px 6px 10px;margin:6px 0;background:#fbfbf8;flex:1 1 320px;min-width:0}
.sk-log-title{font-weight:700;font-size:12px;text-transform:uppercase;letter-spacing:.04em;color:#555}
.sk-board .sk-log{max-height:260px;overflow-y:auto;overflow-x:hidden;display:flex;flex-direction:column-reverse}
.sk-board .sk-log .widget-html-content{display:block;width:100%}
.sk-board .sk-log ol.sk-log-lines{max-height:none;overflow:visible}
.sk-log-lines{margin:0;padding:0 6px 4px 0;list-style:none;font-size:13px}
.sk-log-line{display:flex;gap:6px;padding:2px 0;border-bottom:1px solid #eeeee8;overflow-wrap:anywhere}
.sk-log-line:last-child{border-bottom:none}
.sk-board .sk-log-inner{display:flex;flex-direction:column;width:100%;flex:none}
.sk-log-chunk:nth-last-child(2) .sk-log-line:last-child{font-weight:600}
.sk-log-chunk:not(:nth-last-child(2)) .sk-log-line:last-child{border-bottom:1px solid #eeeee8}
.sk-log-end{height:2px}
.sk-log-end:focus{outline:none}
.sk-board .sk-log:focus-within{outline:3px solid #1c5bd8;outline-offset:2px}
.sk-log-n{flex:none;color:#6b6b6b;min-width:2.6em;text-align:right}
.sk-legal-list{font-family:monospace;font-size:12px;color:#245}
.sk-board .sk-empty{color:#595959}
.sk-board .jupyter-button.mod-success{background-color:#2e7d32}
.sk-sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
</style>
"""

# --- the selectable hand ----------------------------------------------------------------


@dataclass(frozen=True)
class HandCard:
    """One card in the hand: `key` is its notation, `face` the CSS class drawing it."""

    key: str
    face: str
    label: str
    group_start: bool = False  # first card of a group (a little gap before it)


class CardHand(widgets.HBox):
    """A hand of ToggleButtons drawn as cards. ``selected`` holds indices in click order.

    A button keeps the card it shows while that card stays in the hand: when cards leave or
    arrive, the buttons are only reordered (one message to the page), not redrawn one by one.
    """

    selected = traitlets.Tuple()
    # the Box's children trait (a tuple), declared for mypy: ipywidgets is untyped
    children: tuple[Any, ...]

    def __init__(self, *, single: bool = False) -> None:
        super().__init__()
        self.add_class("sk-hand-box")
        self.single = single  # at most one card selected (the latest click wins)
        self._cards: tuple[HandCard, ...] = ()
        self._pool: list[widgets.ToggleButton] = []
        self._showing: list[HandCard | None] = []  # per pool button: the card it shows
        self._order: list[int] = []  # per card of the hand: the pool button showing it
        self._syncing = False
        # one size and one style for every card (a new card's button is one message, not three)
        self._card_layout = widgets.Layout(width="56px", height="80px")
        self._card_style = ToggleButtonStyle()

    @traitlets.validate("selected")
    def _valid_selection(self, proposal: dict[str, Any]) -> tuple[int, ...]:
        """Drop indices that no longer name a card (a stale or forged selection)."""
        seen: list[int] = []
        for index in proposal["value"]:
            if isinstance(index, int) and 0 <= index < len(self._cards) and index not in seen:
                seen.append(index)
        return tuple(seen)

    @property
    def cards(self) -> tuple[HandCard, ...]:
        return self._cards

    @property
    def selected_keys(self) -> list[str]:
        return [self._cards[i].key for i in self.selected if 0 <= i < len(self._cards)]

    @property
    def buttons(self) -> list[widgets.ToggleButton]:
        """The buttons of the hand's cards, in hand order."""
        return [self._pool[b] for b in self._order]

    def _assign(self, cards: tuple[HandCard, ...]) -> list[int]:
        """A pool button per card: the one already showing that card where there is one."""
        free: dict[tuple[str, str, str], list[int]] = {}
        for b, shown in enumerate(self._showing):
            if shown is not None:
                free.setdefault((shown.key, shown.face, shown.label), []).append(b)
        order: list[int | None] = []
        for card in cards:
            same = free.get((card.key, card.face, card.label))
            order.append(same.pop(0) if same else None)
        taken = {b for b in order if b is not None}
        spare = iter(b for b in range(len(self._pool)) if b not in taken)
        result: list[int] = []
        for kept in order:
            b = kept if kept is not None else next(spare, len(self._pool))
            if b == len(self._pool):  # a new button
                button = widgets.ToggleButton(layout=self._card_layout, style=self._card_style)
                button.observe(functools.partial(self._on_toggle, b), "value")
                self._pool.append(button)
                self._showing.append(None)
            result.append(b)
        return result

    def show(
        self,
        cards: Sequence[HandCard],
        *,
        hinted: Sequence[bool] = (),
        enabled: bool = True,
        faded: Sequence[bool] = (),
    ) -> None:
        cards = tuple(cards)
        if cards != self._cards:
            self._cards = cards
            self.selected = ()
            self._order = self._assign(cards)
        self._syncing = True
        try:
            with contextlib.ExitStack() as held:  # a button's changes go to the page as one update
                for button in self._pool:
                    held.enter_context(button.hold_sync())
                self._show_buttons(cards, hinted, enabled, faded)
        finally:
            self._syncing = False
        children = tuple(self._pool[b] for b in self._order)
        if self.children != children:
            self.children = children

    def _show_buttons(
        self, cards: tuple[HandCard, ...], hinted: Sequence[bool], enabled: bool, faded: Sequence[bool]
    ) -> None:
        """Each card's button: its face, hint, name and state (the pool's spare buttons forget theirs)."""
        in_hand = set(self._order)
        for b, button in enumerate(self._pool):
            if b not in in_hand and self._showing[b] is not None:  # unused: forget its card (no peeking)
                button.value = False
                button.tooltip = ""
                button._dom_classes = ("sk-card", "sk-handcard")
                self._showing[b] = None
        for index, (card, b) in enumerate(zip(cards, self._order, strict=True)):
            button = self._pool[b]
            self._showing[b] = card
            classes = ["sk-card", "sk-handcard", card.face]
            if index < len(hinted) and hinted[index]:
                classes.append("sk-hint")
            if card.group_start and index:
                classes.append("sk-group-start")
            if index < len(faded) and faded[index]:
                classes.append("sk-faded")
            if list(button._dom_classes) != classes:
                button._dom_classes = tuple(classes)
            button.tooltip = card.label
            button.description = ""
            button.disabled = not enabled
            button.value = index in self.selected

    def clear(self) -> None:
        self.selected = ()
        self._syncing = True
        try:
            for button in self._pool:
                if button.value:
                    button.value = False
        finally:
            self._syncing = False

    def _on_toggle(self, button_index: int, change: dict[str, Any]) -> None:
        if self._syncing or button_index not in self._order:
            return
        index = self._order.index(button_index)
        chosen = [i for i in self.selected if i != index]
        if change["new"]:
            chosen = [index] if self.single else chosen + [index]
        self.selected = tuple(chosen)
        if self.single:
            self._syncing = True
            try:
                for position, b in enumerate(self._order):
                    button = self._pool[b]
                    if button.value != (position in self.selected):
                        button.value = position in self.selected
            finally:
                self._syncing = False


# --- the board shell --------------------------------------------------------------------

B = TypeVar("B", bound="GameBoard")
P = ParamSpec("P")
R = TypeVar("R")


def guarded(handler: Callable[Concatenate[B, P], R]) -> Callable[Concatenate[B, P], R | None]:
    """Run a callback so that any error shows up in the board instead of being lost (it then returns None)."""

    @functools.wraps(handler)
    def run(self: B, /, *args: P.args, **kwargs: P.kwargs) -> R | None:
        try:
            return handler(self, *args, **kwargs)
        except Exception as err:  # noqa: BLE001 - shown to the user, never swallowed silently
            self._show_error(err)
            return None

    return run


class GameBoard(widgets.VBox):
    """The GUI shell every game shares. Subclasses fill in the hooks below.

    Without a `seed` the board deals from a fresh secret seed (see the module docs).
    """

    # The page's address parameters, sent by the play apps' front end once the board is up
    # (widgets/frontend: ``?seed=123`` chooses the deal). Nothing the kernel knows goes out in it.
    _page_params = traitlets.Dict().tag(sync=True)

    game_name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    hand_title: ClassVar[str] = "Your hand"
    shows_hand: ClassVar[bool] = True  # False for games without a hand of cards
    prompt: ClassVar[str] = "Select cards, then press a button."

    def __init__(
        self,
        seed: int | None = None,
        seats: Sequence[str] | None = None,
        *,
        autoplay: bool = True,
        deal: dict[str, Any] | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self.add_class("sk-board")
        self.autoplay = autoplay
        self._acting = 0  # >0 while the board itself is changing the session
        self._shielded: set[int] = set()  # widgets whose page messages go through _read_message
        self.last_error = ""
        self._verdict: Explanation | None = None
        self._note = ""
        self._address_seed: int | None = None  # the seed the page's address chose, once dealt
        self._replay_open = False
        self._stepper: tuple[Session, widgets.Widget] | None = None  # the replay shown, and of which game
        # private children
        self._style = widgets.HTML(BOARD_STYLE + kit.STYLE + self.face_styles())
        self._status = widgets.HTML()
        self._status.add_class("sk-status")
        self._error = widgets.HTML()
        self._error.add_class("sk-error")
        self._cover_text = widgets.HTML()
        self._reveal_button = widgets.Button(
            description="Show my hand",
            button_style="warning",
            layout=widgets.Layout(width="auto", align_self="center"),
        )
        self._reveal_button.add_class("sk-reveal")
        self._reveal_button.on_click(self._on_reveal)
        self._cover = widgets.VBox([self._cover_text, self._reveal_button])
        self._cover.add_class("sk-cover")
        self._cover.add_class("sk-cover-box")
        self._picture = widgets.HTML()
        self._picture.add_class("sk-picture")
        self._picture.add_class("sk-center")
        self._seats_top = widgets.HTML()  # the other seats, in play order after yours
        self._seats_top.add_class("sk-seats-top")
        self._my_seat = widgets.HTML()  # your seat, below the middle of the table
        self._my_seat.add_class("sk-my-seat")
        self._hand_label = widgets.HTML()
        self._hand = CardHand()
        self._hand.observe(self._on_select, "selected")
        self._hint = widgets.ToggleButton(
            description="Hints",
            value=False,
            tooltip="highlight the cards that can be part of a legal play",
        )
        self._hint.add_class("sk-hint-toggle")
        self._hint.observe(self._on_hint, "value")
        self._explain = widgets.HTML()
        self._explain.add_class("sk-explain")
        self._next = widgets.Button(description="Next bot move", tooltip="let the next bot move now")
        self._next.add_class("sk-next")
        self._next.on_click(self._on_next)
        self._skip = widgets.Button(description="Bots to my turn", tooltip="let the bots play until it is your turn")
        self._skip.add_class("sk-skip")
        self._skip.on_click(self._on_skip)
        self._timer = widgets.Play(
            value=0,
            min=0,
            max=10**9,
            step=1,
            interval=900,
            show_repeat=False,
            description="bots",
            tooltip="play bot turns one at a time",
            layout=widgets.Layout(display="none"),  # the pacing clock: runs in the page, shown as Pause / Go on
        )
        self._timer.add_class("sk-autoplay")
        self._timer.observe(self._on_tick, "value")
        self._pause = widgets.ToggleButton(
            value=False, description="Pause the bots", tooltip="stop or go on with bot turns"
        )
        self._pause.add_class("sk-pause")
        self._pause.observe(self._on_pause, "value")
        self._speed = widgets.Dropdown(
            options=list(SPEEDS), value=900, description="Bot speed", layout=widgets.Layout(width="200px")
        )
        self._speed.add_class("sk-speed")
        self._speed.observe(self._on_speed, "value")
        self._botbar = widgets.HBox([self._pause, self._next, self._timer, self._speed, self._skip])
        self._botbar.add_class("sk-botbar")
        self._standings = widgets.HTML()
        self._standings.add_class("sk-standings")
        self._log = LogView()
        self._log_box = widgets.VBox([widgets.HTML('<div class="sk-log-title">Log</div>'), self._log])
        self._log_box.add_class("sk-log-box")
        self._over_text = widgets.HTML()
        self._again = widgets.Button(
            description="Play again (a new deal)",
            button_style="primary",
            layout=widgets.Layout(width="auto"),
        )
        self._again.add_class("sk-again")
        self._again.on_click(self._on_again)
        self._replay_button = widgets.Button(description="Replay this game", layout=widgets.Layout(width="auto"))
        self._replay_button.add_class("sk-replay-open")
        self._replay_button.on_click(self._on_replay)
        self._replay_area = widgets.VBox()
        self._replay_area.add_class("sk-replay-area")
        self._over_buttons = widgets.HBox([self._again, self._replay_button])
        self._over_buttons.add_class("sk-actions")
        self._over = widgets.VBox([self._over_text, self._over_buttons, self._replay_area])
        self._over.add_class("sk-game-over")
        self._setup = SeatSetup(self.game_name, self._on_new_game)
        self._setup_box = Disclosure("New game / seats", self._setup)
        self._setup_box.add_class("sk-setup-box")
        self._ask = AskWhy()  # "Ask why": see _configure_ask for who may ask about whom
        self._ask_key: tuple[Any, ...] | None = None  # whose question the shown answer was
        self._ask_box = Disclosure("Ask why", self._ask, layout=widgets.Layout(width="auto", max_width="100%"))
        self._ask_box.add_class("sk-ask-box")
        self._table_area = widgets.VBox(self.build_table())
        self._table_area.add_class("sk-table-area")
        self._controls = widgets.HBox(self.build_controls())
        self._controls.add_class("sk-actions")
        self._panels = widgets.HBox([self._standings, self._log_box])
        self._panels.add_class("sk-panels")
        chosen_by_address = address_seed() if seed is None and deal is None else None
        if chosen_by_address is not None:  # a kernel Voila started for a page with ?seed=…
            try:
                seed = self._address_seed = parse_seed(chosen_by_address)
            except ValueError as err:
                self._note = f"The page's address chose no deal ({err}): this is a fresh deal."
        self.session = self._new_session(seed, seats, options, deal)
        self._setup.load(self.session)
        # the card table: the other seats at the top, the trick in the middle, you and your hand below
        self._felt = widgets.VBox(
            [
                self._seats_top,
                self._picture,
                self._table_area,
                self._my_seat,
                self._cover,
                self._hand_label,
                self._hand,
            ]
        )
        self._felt.add_class("sk-felt")
        self.children = [
            self._style,
            self._status,
            self._error,
            self._over,
            self._felt,
            self._controls,
            self._explain,
            self._botbar,
            self._panels,
            self._ask_box,
            self._setup_box,
        ]
        self.render()
        self._maybe_autoplay()

    @property
    def hand(self) -> CardHand:
        """The selectable hand (read it; drive it through its buttons)."""
        return self._hand

    @property
    def state(self) -> Any:
        """The engine state on the board right now."""
        return self.session.state

    # -- hooks for each game ----------------------------------------------------------------

    def face_styles(self) -> str:
        """CSS for every card face a hand of this game can show."""
        return ""

    def build_controls(self) -> list[widgets.Widget]:
        """The game's action bar widgets (built once)."""
        return []

    def build_table(self) -> list[widgets.Widget]:
        """Interactive widgets shown under the picture (e.g. River rows), built once."""
        return []

    def hand_cards(self, obs: Any) -> list[HandCard]:
        """The viewer's hand as cards (empty if none)."""
        return []

    def hinted_keys(self, obs: Any) -> set[str]:
        """Card keys that take part in some legal move (engine's legal_moves)."""
        return set()

    def picture(self, obs: Any, private: bool) -> str:
        """The board picture; `private` False means public parts only (hot-seat cover)."""
        return ""

    def standings(self, obs: Any) -> str:
        """A panel beside the log with the game's figures in full (a table); may be empty."""
        return ""

    def seat_facts(self, obs: Any, seat: int) -> list[str]:
        """A seat's public counts, each a short phrase people read ("12 cards", "3 points")."""
        return []

    def seat_status(self, obs: Any, seat: int) -> str:
        """A seat's public state in a word or two ("passed", "out", "finished 1st"); empty if none."""
        return ""

    def turn_hint(self, obs: Any) -> str:
        """What the player to move may do now, in a few words ("beat the Pair or pass")."""
        return ""

    def held_back(self, obs: Any) -> int:
        """How many of the newest log events a step-by-step reveal still hides (0: none).

        While a reveal is under way the log, the turn line and the game-over panel hold back
        what it has not shown yet; the board's own picture and figures must do the same.
        """
        return 0

    def hand_heading(self, obs: Any, my_turn: bool) -> str:
        return self.hand_title

    def hand_enabled(self, obs: Any, my_turn: bool) -> bool:
        """May the hand's cards be selected now?"""
        return my_turn

    def summary(self, obs: Any) -> str:
        """Game-over text (winner, scores)."""
        return ""

    def update_controls(self, obs: Any, my_turn: bool) -> None:
        """Enable, label and fill the action bar from the observation."""

    def preview_move(self) -> str | None:
        """The move the current selection would make, as text (None: nothing chosen)."""
        return None

    def reset_controls(self) -> None:
        """Clear game-specific choices after the state changed."""

    # -- the single render ---------------------------------------------------------------

    def render(self) -> None:
        """Redraw everything from the session (idempotent). Each widget sends what changed as one
        update (:func:`one_update_each`)."""
        with one_update_each(self):
            self._render()

    def _render(self) -> None:
        session = self.session
        state = session.state
        obs = session.observation()
        private = session.mode == "watch" or not session.covered
        my_turn = session.my_turn
        held = max(0, self.held_back(obs))
        over = bool(state.is_over) and not held
        self._status.value = self._status_html(obs, held)
        self._seats_top.value, self._my_seat.value = self._seats_html(obs)
        self._my_seat.layout.display = "" if self._my_seat.value else "none"
        self._picture.value = self.picture(obs, private)
        covered = session.covered and not state.is_over
        self._cover.layout.display = "" if covered else "none"
        if covered:
            who = seat_name(session.to_move)
            self._cover_text.value = (
                f"<div>{kit.icon('eye', size=22)} Pass the device to <b>{html.escape(who)}</b>.</div>"
                "<div style='font-size:13px'>Nothing private is shown until they press the button.</div>"
            )
            self._reveal_button.description = f"I am {who}: show my hand"
        has_hand = session.viewer is not None and not covered and session.mode != "watch" and self.shows_hand
        has_hand = has_hand and not (state.is_over and session.mode == "hot-seat")  # nobody's hand after the end
        cards = self.hand_cards(obs) if has_hand else []
        hints = self.hinted_keys(obs) if (self._hint.value and my_turn) else set()
        self._hand.show(cards, hinted=[c.key in hints for c in cards], enabled=self.hand_enabled(obs, my_turn))
        self._hand.layout.display = "" if has_hand else "none"
        self._hand_label.value = (
            f'<div class="sk-hand-label">{html.escape(self.hand_heading(obs, my_turn))} '
            f"({html.escape(seat_name(session.viewer))})</div>"
            if has_hand and session.viewer is not None  # has_hand implies a viewer; said again for mypy
            else ""
        )
        self._hand_label.layout.display = "" if has_hand else "none"
        self._controls.layout.display = "" if has_hand and not state.is_over else "none"
        self.update_controls(obs, my_turn)
        self._refresh_explanation()
        bots_pending = session.bot_to_move
        self._next.disabled = not bots_pending
        self._skip.disabled = not bots_pending or session.mode == "watch"
        self._skip.layout.display = "none" if session.mode == "watch" else ""
        self._botbar.layout.display = "none" if not session.bots else ""
        self._standings.value = self.standings(obs)
        lines = [e.text for e in obs.log]
        if private:
            self._log.show(lines[: len(lines) - held] if held else lines)
        else:
            self._log.show_html(['<div class="sk-empty">hidden while the device changes hands</div>'])
        self._over_text.value = (
            f'<div class="sk-game-over-box">{self.summary(obs)}{self._deal_html()}</div>' if over else ""
        )
        self._over.layout.display = "" if over else "none"
        self._show_replay()
        self._configure_ask(obs)
        self._error.value = (
            f'<div class="sk-error-box" role="alert">{html.escape(self.last_error)}</div>' if self.last_error else ""
        )
        self._shield_messages()

    def _ask_viewer(self) -> int | None:
        """Whose live question the board may put: the seat on screen, with their hand shown (None: nobody)."""
        session = self.session
        return None if session.covered or session.mode == "watch" else session.viewer

    def _configure_ask(self, obs: Any) -> None:
        """Ask why: watching, about any seat with every hand open (``state.ask``); in a live game, only
        about the seat on screen, with what that seat may know (``state.ask_as``); behind the hot-seat
        cover, nothing. An answer is forgotten when the one who asked leaves the screen."""
        session = self.session
        watch = session.mode == "watch"
        viewer = self._ask_viewer()
        key = (id(session), watch, viewer)
        if key != self._ask_key:
            self._ask_key = key
            self._ask.clear()
        seats = list(range(session.game.num_players)) if watch else [] if viewer is None else [viewer]
        # an example from the moves the screen may show (the viewer's own, or any when watching), none behind the cover
        shown = list(obs.legal_moves) if seats else []
        example = session.game.say_move(shown[0]) if shown else None  # None: the box keeps its example
        self._ask.configure(
            self._ask_question,
            seats,
            example=example,
            where=self._where_asked,
            note=ASK_COVERED,
        )

    def _ask_question(self, seat: int, move: str) -> Explanation | str:
        state = self.session.state
        answer: Explanation
        if self.session.mode == "watch":
            answer = state.ask(seat, move)
            return answer
        viewer = self._ask_viewer()
        if viewer is None:  # the controls are off then; this answers a question sent anyway
            return ASK_COVERED
        answer = state.ask_as(viewer, move, viewer)  # a live player asks about their own seat only
        return answer

    def _where_asked(self) -> str:
        """When a question was put, so that its answer stays true while the game goes on."""
        state = self.session.state
        moves = len(state.to_record()["moves"])
        return "After the last move" if state.is_over else "At the deal" if moves == 0 else f"Before move {moves + 1}"

    def _shield_messages(self) -> None:
        """Every widget of the board (with its layout and style) reads the page's messages through
        :meth:`_read_message`: a malformed or forged one is refused with a short sentence, never a
        traceback in the page."""
        for widget in widget_family(self):
            comm = getattr(widget, "comm", None)
            if comm is not None and id(widget) not in self._shielded:
                self._shielded.add(id(widget))
                comm.on_msg(functools.partial(self._read_message, widget))

    def _read_message(self, widget: Any, msg: Any) -> None:
        """A message from the page to ``widget``, read as ipywidgets reads it but with every failure
        ours to handle: ipywidgets' own reader and its callback lists show a failure's traceback
        in the page (an iopub error), so neither runs here."""
        try:
            read_widget_message(widget, msg)
        except Exception as err:  # noqa: BLE001 - a page's message must never break the board
            server_log(err)
            self._timer.playing = False
            self.last_error = "The page sent a message the board could not use; nothing changed."
            with contextlib.suppress(Exception):
                self.render()

    def seat_label(self, seat: int) -> tuple[str, str]:
        """How the table names a seat: ("You", "Player 1") for the seat on screen, else
        ("Player 2", "heuristic bot") and the like."""
        session = self.session
        if 0 <= seat < len(session.seats) and seat == session.viewer and session.mode == "bots":
            return "You", seat_name(seat)
        kind = session.seats[seat] if 0 <= seat < len(session.seats) else HUMAN
        return seat_name(seat), ("at this screen" if kind == HUMAN else f"{kind} bot")

    def _seats_html(self, obs: Any) -> tuple[str, str]:
        """The seats around the table: the others in play order after yours, then yours."""
        session = self.session
        count = len(session.seats)
        me = session.viewer if session.mode == "bots" else None
        order = [(me + k) % count for k in range(1, count)] if me is not None else list(range(count))
        over = bool(session.state.is_over) or self.held_back(obs) > 0  # nobody to move while a reveal runs
        boxes = [self._seat_box(obs, seat, over) for seat in order]
        mine = self._seat_box(obs, me, over) if me is not None else ""
        return f'<div class="sk-seats" role="list" aria-label="Seats">{"".join(boxes)}</div>', (
            f'<div class="sk-seats" role="list" aria-label="Your seat">{mine}</div>' if mine else ""
        )

    def _seat_box(self, obs: Any, seat: int, over: bool) -> str:
        name, role = self.seat_label(seat)
        to_move = not over and seat == self.session.to_move
        classes = "sk-seat" + (" sk-to-move" if to_move else "") + (" sk-you" if name == "You" else "")
        facts = "".join(f"<span>{html.escape(f)}</span>" for f in self.seat_facts(obs, seat))
        status = self.seat_status(obs, seat)
        turn = '<span class="sk-seat-turn">to move</span>' if to_move else ""
        current = ' aria-current="true"' if to_move else ""
        return (
            f'<div class="{classes}" role="listitem"{current}>'
            f'<div class="sk-seat-name">{html.escape(name)} <span class="sk-seat-role">{html.escape(role)}</span>'
            f"{turn}</div>"
            + (f'<div class="sk-seat-facts">{facts}</div>' if facts else "")
            + (f'<span class="sk-seat-status">{html.escape(status)}</span>' if status else "")
            + "</div>"
        )

    def _status_html(self, obs: Any, held: int = 0) -> str:
        """The turn line: whose turn it is, unmistakably (yours in green), or the game's end."""
        session = self.session
        state = session.state
        mode = {"bots": "you against bots", "hot-seat": "hot-seat", "watch": "watching bots"}[session.mode]
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
            more = self.turn_hint(obs)
        elif session.covered:
            what = f"{seat_name(session.to_move)} is next: pass the device."
        elif session.bot_to_move:
            what = f"{seat_name(session.to_move)} ({session.seats[session.to_move]} bot) is playing…"
        else:
            what = f"{seat_name(session.to_move)} is to move."
        seed = ""
        if state.is_over and not held:  # a secret seed only once the game is over and shown
            seed = f" · seed {session.seed} "
        elif session.chosen and not state.is_over:  # a chosen seed may be shown any time
            seed = f" · seed {session.seed} (chosen)"
        return (
            f'<div class="sk-turn{css}" role="status"><span class="sk-turn-dot" aria-hidden="true"></span><div>'
            f'<div class="sk-turn-what">{html.escape(what)}</div>'
            f'<div class="sk-turn-more">{html.escape(self.title)} · {html.escape(mode)}{html.escape(seed)}'
            + (f" · {html.escape(more)}" if more else "")
            + "</div></div></div>"
        )

    def _deal_html(self) -> str:
        """After the game: the seed (as text) and the record to download (options, seed, deal, moves)."""
        session = self.session
        if not session.state.is_over:
            return ""  # never before the end: the seed and the record are the whole deal
        record = json.dumps(session.state.to_record())
        data = base64.b64encode(record.encode()).decode()
        name = f"{self.game_name}-{session.token}.json"
        return (
            f'<div class="sk-deal-line">Seed of this deal: <code class="sk-seed">{session.seed}</code> '
            "(<i>Deal this seed</i> under <i>New game / seats</i> deals it again).</div>"
            f'<div class="sk-deal-line"><a class="sk-record-link" download="{html.escape(name)}" '
            f'href="data:application/json;base64,{data}">Download the game record</a> '
            "(the options, the seed, the deal and every move, as JSON: it replays the game exactly), "
            "or step through it with <i>Replay this game</i>.</div>"
        )

    def _show_replay(self) -> None:
        """The step-through of the finished game, when asked for (built once per game)."""
        session = self.session
        open_ = self._replay_open and bool(session.state.is_over)
        if open_ and (self._stepper is None or self._stepper[0] is not session):
            from sloth_widgets.stepper import StepThrough  # the step-through imports nothing of the boards

            seat = session.replay_seat  # a seat's page: that seat's own view only, never every hand
            replay = StepThrough(session.state.to_record(), seat=seat, seat_only=seat is not None)
            self._stepper = (session, replay)
        children = (self._stepper[1],) if open_ and self._stepper is not None else ()
        if self._replay_area.children != children:
            self._replay_area.children = children
        self._replay_area.layout.display = "" if open_ else "none"
        self._replay_button.description = "Close the replay" if open_ else "Replay this game"

    def _refresh_explanation(self) -> None:
        """Show the last verdict, else a live preview of the selection, else a hint list."""
        if self.session.covered and not self.session.state.is_over:
            # the last words may name a secret move (e.g. an opening pick): none behind the cover,
            # only the verdict on something tried under it ("the hand is covered")
            self._explain.value = explanation_html(self._verdict, "Waiting for the next player.")
            return
        if self._verdict is not None:
            self._explain.value = explanation_html(self._verdict)
            return
        session = self.session
        if not session.my_turn:
            self._explain.value = explanation_html(None, self._note)
            return
        move = self.preview_move()
        if move is not None:
            self._explain.value = explanation_html(session.state.explain(move))
            return
        text = self._note or self.prompt
        if self._hint.value:
            moves = [str(m) for m in session.observation().legal_moves]
            shown = ", ".join(moves[:40]) + (" …" if len(moves) > 40 else "")
            text_html = (
                f'<div class="sk-explain sk-note">{html.escape(text)}<div class="sk-legal-list">'
                f"Legal now: {html.escape(shown)}</div></div>"
            )
            self._explain.value = text_html
            return
        self._explain.value = explanation_html(None, text)

    # -- actions -----------------------------------------------------------------------------

    def submit(self, move: str | None) -> Explanation | None:
        """Send `move` for the seat on screen; the engine re-validates. Returns its verdict."""
        if move is None:
            self._verdict = Explanation("", False, "choose something first")
            self.render()
            return self._verdict
        with self._own_action():
            verdict = self.session.play(move, self.session.viewer)
        self._after_action(verdict)
        return verdict

    def submit_sequence(self, moves: list[str]) -> Explanation:
        """Several moves of the seat on screen as one action, all or nothing (engine-checked)."""
        with self._own_action():
            verdict = self.session.play_sequence(moves, self.session.viewer)
        self._after_action(verdict)
        return verdict

    def _after_action(self, verdict: Explanation) -> None:
        with one_update_each(self):
            self._show_verdict(verdict)
        if verdict.legal:
            self._maybe_autoplay()

    def _show_verdict(self, verdict: Explanation) -> None:
        if verdict.legal:
            self._verdict = None
            self.last_error = ""  # the board works again: drop an old error report
            last = self.session.state.log[-1].text if self.session.state.log else ""
            history = self.session.state.history
            self._note = f"Your move: {history[-1].words if history else verdict.move}. {last}"
            self._hand.clear()
            self.reset_controls()
        else:
            self._verdict = verdict
        self.render()

    def step(self) -> bool:
        """One bot move (the Next button); False if no bot is to move."""
        with self._own_action():
            moved = self.session.step()
        if moved:
            self._verdict = None
            self._note = self.session.state.log[-1].text if self.session.state.log else ""
            self.render()
        return moved

    def before_bots_run(self) -> None:
        """Hook: called when the player asks the bots to play on (a board may move past a reveal)."""

    def bots_may_go_on(self) -> bool:
        """Hook: may the bots keep moving in one run? (A board stops them at a reveal to show.)"""
        return True

    def run_bots(self, limit: int = 10_000) -> int:
        """Let bots move until a human is to move, the game ends or the board has something to
        show first (:meth:`bots_may_go_on`); returns the count."""
        self.before_bots_run()
        count = 0
        with self._own_action():
            while count < limit and self.bots_may_go_on() and self.session.step():
                count += 1
        if count:
            self._verdict = None
            self._note = ""
            self.render()
        return count

    def _maybe_autoplay(self) -> None:
        """Start the front-end timer when bots are to move (it does nothing without a front end)."""
        if self.autoplay and self.session.bot_to_move and not self._pause.value:
            self._timer.playing = True

    def _show_error(self, err: BaseException) -> None:
        self._timer.playing = False  # a failing bot must not fail again on every tick
        if isinstance(err, SlothKernelError):  # refused input (e.g. a forged event): one sentence, no traceback
            self.last_error = " ".join(str(err).split())
        else:  # a person never sees a traceback: a short message here, the detail in the server's log
            self.last_error = "Something went wrong, so that action was not taken; the game is unchanged."
            server_log(err)
        try:
            self.render()
        except Exception:  # noqa: BLE001 - rendering itself failed: show the raw text
            self._error.value = f'<div class="sk-error-box">{html.escape(self.last_error)}</div>'

    def _new_session(
        self, seed: int | None, seats: Sequence[str] | None, options: dict[str, Any], deal: dict[str, Any] | None = None
    ) -> Session:
        session = Session(self.game_name, seed=seed, seats=seats, deal=deal, **options)
        session.observe(self._on_session_change, "version")
        return session

    @contextlib.contextmanager
    def _own_action(self) -> Iterator[None]:
        """The board re-renders itself after its own actions; skip the glue's render meanwhile."""
        self._acting += 1
        try:
            yield
        finally:
            self._acting -= 1

    @guarded
    def _on_session_change(self, change: dict[str, Any]) -> None:
        """Glue: someone changed the session (e.g. code in a notebook cell): redraw."""
        if not self._acting:
            self.render()

    # -- handlers (all guarded) -----------------------------------------------------------------

    @guarded
    def _on_select(self, change: dict[str, Any]) -> None:
        self._verdict = None
        self._refresh_explanation()
        self.on_selection()

    def on_selection(self) -> None:
        """Hook: the hand selection changed (e.g. show a drink chooser)."""

    @guarded
    def _on_hint(self, change: dict[str, Any]) -> None:
        self.render()

    @guarded
    def _on_reveal(self, button: widgets.Button) -> None:
        self._verdict = None
        self._note = ""
        with self._own_action():
            self.session.reveal()
        self.render()

    @guarded
    def _on_next(self, button: widgets.Button) -> None:
        if not self.step():
            self._verdict = Explanation("next", False, "no bot is to move now")
            self.render()

    @guarded
    def _on_skip(self, button: widgets.Button) -> None:
        if not self.run_bots():
            self._verdict = Explanation("bots", False, "no bot is to move now")
            self.render()

    @guarded
    def _on_tick(self, change: dict[str, Any]) -> None:
        if not self.session.bot_to_move:
            self._timer.playing = False
            return
        self.step()
        if not self.session.bot_to_move:
            self._timer.playing = False

    @guarded
    def _on_pause(self, change: dict[str, Any]) -> None:
        """Pause the bots (the clock stops) or let them go on at the chosen speed."""
        self._pause.description = "Let the bots go on" if change["new"] else "Pause the bots"
        if change["new"]:
            self._timer.playing = False
        else:
            self._maybe_autoplay()

    @guarded
    def _on_speed(self, change: dict[str, Any]) -> None:
        self._timer.interval = int(change["new"])

    @guarded
    def _on_again(self, button: widgets.Button) -> None:
        """The same seats and options, a fresh secret deal."""
        session = self.session
        options = dict(session.game.config.changes())
        self._on_new_game(None, list(session.seats), options)

    @guarded
    def _on_replay(self, button: widgets.Button) -> None:
        """Open (or close) the step-through of the finished game."""
        self._replay_open = not self._replay_open and bool(self.session.state.is_over)
        self.render()

    @traitlets.observe("_page_params")
    @guarded
    def _on_page_params(self, change: dict[str, Any]) -> None:
        """The page's address parameters arrived from the front end: ``seed`` deals that seed."""
        text = change["new"].get("seed")
        if text is not None:
            self.deal_address_seed(text)

    def deal_address_seed(self, text: object) -> bool:
        """Deal the seed the page's address chose (the same seats and options); once per board.

        An unreadable seed changes nothing and says why. True when a new deal was dealt.
        """
        try:
            seed = parse_seed(text)
        except ValueError as err:
            self._verdict = None
            self._note = f"The page's address chose no deal ({err}): this is a fresh deal."
            self.render()
            return False
        if seed == self._address_seed:
            return False  # already dealt (Voila gave this kernel the address when it started it)
        self._address_seed = seed
        session = self.session
        self._on_new_game(seed, list(session.seats), dict(session.game.config.changes()))
        return True

    @guarded
    def _on_new_game(self, seed: int | None, seats: list[str], options: dict[str, Any]) -> None:
        self._timer.playing = False
        self._replay_open = False
        self.session = self._new_session(seed, seats, options)
        self._setup.load(self.session)
        self.last_error = ""
        self._verdict = None
        self._note = "New game."
        self._hand.clear()
        self.reset_controls()
        self.render()
        self._maybe_autoplay()


def widget_family(root: widgets.Widget) -> list[Any]:
    """`root` and every widget under it, each followed by its layout and style, in page order."""
    family: list[Any] = []
    stack: list[Any] = [root]
    seen: set[int] = set()
    while stack:
        widget = stack.pop()
        if id(widget) in seen:
            continue
        seen.add(id(widget))
        family.append(widget)
        parts = [getattr(widget, "layout", None), getattr(widget, "style", None)]
        stack.extend(reversed([*(getattr(widget, "children", ()) or ()), *(p for p in parts if p is not None)]))
    return family


@contextlib.contextmanager
def one_update_each(root: widgets.Widget) -> Iterator[None]:
    """Inside this block, each widget under `root` (with its layout and style) keeps its changes
    and sends them as one update when the block ends, in page order, instead of one message per
    changed property: a move's redraw reaches the page in fewer, whole pieces. (A widget created
    inside the block is sent whole when created, before any update that shows it.) Inside an
    outer block for the same root (a render within an action), nothing more is walked or held."""
    if root._holding_sync:
        yield
        return
    with contextlib.ExitStack() as stack:
        for widget in reversed(widget_family(root)):  # the last entered is the first to send
            stack.enter_context(widget.hold_sync())
        yield


class Disclosure(widgets.VBox):
    """A folding section ("Ask why", "New game / seats") that every front end opens by keyboard:
    a toggle button with the section's title (Tab reaches it, Enter or Space opens and closes
    it), then the content, shown only while open. (ipywidgets' Accordion opens on a click only:
    its title takes no focus, in Voila's stock template and in JupyterLab.) The light template
    also tells screen readers whether it is open (``aria-expanded``)."""

    def __init__(self, title: str, content: widgets.Widget, **kwargs: Any) -> None:
        self.title = title
        self.toggle = widgets.ToggleButton(value=False, description=title, icon="caret-right")
        self.toggle.add_class("sk-disclosure-toggle")
        self.content = content
        self.content.layout.display = "none"
        super().__init__([self.toggle, content], **kwargs)
        self.add_class("sk-disclosure")
        self.toggle.observe(self._on_toggle, "value")

    @property
    def opened(self) -> bool:
        return bool(self.toggle.value)

    def _on_toggle(self, change: dict[str, Any]) -> None:
        opened = bool(change["new"])
        self.toggle.icon = "caret-down" if opened else "caret-right"
        self.content.layout.display = "" if opened else "none"


def read_widget_message(widget: Any, msg: Any) -> None:
    """Apply a page's message to ``widget`` as ipywidgets does (an update of its state, a request
    for it, or a custom message such as a button's click), letting every error rise.

    ipywidgets' ``Widget._handle_msg`` and its callback dispatchers catch an error and send its
    traceback to the page; this reads the same message shapes and calls the same callbacks, so the
    caller decides what a failure shows (a short sentence) and where its traceback goes (the log).
    """
    data = msg["content"]["data"]
    if not isinstance(data, dict):
        raise TypeError(f"a widget message's data must be a mapping, not {type(data).__name__}")
    method = data.get("method")
    if method == "update":
        if "state" in data:
            state = data["state"]
            if not isinstance(state, dict):
                raise TypeError(f"a widget update's state must be a mapping, not {type(state).__name__}")
            if "buffer_paths" in data:
                _put_buffers(state, data["buffer_paths"], msg.get("buffers") or [])
            if (
                isinstance(widget, _Selection)
                and "index" in state
                and state["index"] is None
                and widget.index is not None
            ):
                raise ValueError("a page may choose another of a list's options, but not empty the choice")
            widget.set_state(state)
    elif method == "request_state":
        widget.send_state()
    elif method == "custom":
        if "content" in data:
            content, buffers = data["content"], msg.get("buffers") or []
            for callback in list(widget._msg_callbacks.callbacks):
                if getattr(callback, "__func__", None) is widgets.Button._handle_button_msg:
                    if isinstance(content, dict) and content.get("event") == "click":
                        for handler in list(widget._click_handlers.callbacks):
                            handler(widget)
                else:
                    callback(widget, content, buffers)
    else:
        raise ValueError(f"unknown widget message method {method!r}")


def shield_messages(family: Sequence[Any], refused: Callable[[], None]) -> None:
    """Each widget of `family` (say, :func:`widget_family` of a panel) reads the page's messages
    with :func:`read_widget_message`: a message that fails is written to the server's log and
    `refused` says so in a sentence; ipywidgets' own reader, which sends the traceback to the page,
    never runs for them. Calling it again for the same widget changes nothing."""

    def reader(widget: Any, msg: Any) -> None:
        try:
            read_widget_message(widget, msg)
        except Exception as err:  # noqa: BLE001 - a page's message must never show a traceback
            server_log(err)
            with contextlib.suppress(Exception):
                refused()

    for widget in family:
        comm = getattr(widget, "comm", None)
        if comm is not None:
            comm.on_msg(functools.partial(reader, widget))


def server_log(err: BaseException) -> None:
    """Write an error's traceback to the server's log (the kernel's own stderr, which ipykernel does
    not forward to pages: :func:`sloth_widgets.safety.operator_stream`), never to the page."""
    safety.log_error("sloth-kernel board error:", err)


# --- seat setup -------------------------------------------------------------------------------


class SeatSetup(widgets.VBox):
    """Number of players, human or bot level per seat and game options; then New game (a fresh,
    secret deal), or, on purpose, a chosen seed: type it and press Deal this seed."""

    MAX_SEATS = 5
    # the Box's children trait (a tuple), declared for mypy: ipywidgets is untyped
    children: tuple[Any, ...]

    def __init__(self, game_name: str, on_new: Callable[[int | None, list[str], dict[str, Any]], None]) -> None:
        super().__init__()
        self.add_class("sk-setup")
        self.game_name = game_name
        self._on_new = on_new
        counts = [c for c in (player_counts(game_name) if game_name else [1]) if c <= self.MAX_SEATS]
        kinds = [HUMAN] + (bot_levels(game_name) if game_name else [])
        self.players = widgets.Dropdown(
            options=counts, value=counts[0], description="Players", layout=widgets.Layout(width="180px")
        )
        self.players.observe(lambda change: self._show_seats(), "value")
        self.seat_kinds = [
            widgets.Dropdown(options=kinds, value=HUMAN, description=seat_name(s), layout=widgets.Layout(width="220px"))
            for s in range(self.MAX_SEATS)
        ]
        self.option_widgets: dict[str, widgets.ValueWidget] = {}
        self.start = widgets.Button(description="New game", button_style="primary")
        self.start.add_class("sk-new")
        self.start.on_click(self._start)
        # Text, not a number box: a seed has 128 bits, a JS number only 53.
        self.chosen_seed = widgets.Text(
            value="", placeholder="a whole number", description="Seed", layout=widgets.Layout(width="300px")
        )
        self.chosen_seed.add_class("sk-seed-input")
        self.deal_seed = widgets.Button(
            description="Deal this seed",
            tooltip="deal the seed typed here: everyone who deals it gets the same cards",
            layout=widgets.Layout(width="auto"),
        )
        self.deal_seed.add_class("sk-deal-seed")
        self.deal_seed.on_click(self._deal_chosen)
        self.seed_note = widgets.HTML()
        self.seed_note.add_class("sk-seed-note")
        self._say_seed("")
        self.children = (
            widgets.HBox([self.players]),
            widgets.GridBox(self.seat_kinds, layout=widgets.Layout(grid_template_columns="repeat(auto-fill, 230px)")),
            widgets.HBox([]),
            self.start,
            widgets.HBox([self.chosen_seed, self.deal_seed], layout=widgets.Layout(align_items="center")),
            self.seed_note,
        )

    def add_options(self, options: dict[str, widgets.ValueWidget]) -> None:
        """Game options as widgets, keyed by the engine's option name."""
        self.option_widgets = dict(options)
        self.children = self.children[:2] + (widgets.HBox(list(options.values())),) + self.children[3:]

    def load(self, session: Session) -> None:
        """Show the session's current setup."""
        self.players.value = len(session.seats)
        for s, kind in enumerate(session.seats):
            self.seat_kinds[s].value = kind
        if session.chosen:  # a secret seed never goes into the page; a chosen one may
            self.chosen_seed.value = str(session.seed)
        for name, widget in self.option_widgets.items():
            value = getattr(session.game.config, name, None)
            if value is not None:
                widget.value = value
        self._show_seats()

    def _show_seats(self) -> None:
        for s, dropdown in enumerate(self.seat_kinds):
            dropdown.layout.display = "" if s < self.players.value else "none"

    def chosen(self) -> tuple[list[str], dict[str, Any]]:
        """The seats and options set up here."""
        seats = [d.value for d in self.seat_kinds[: self.players.value]]
        options = {name: w.value for name, w in self.option_widgets.items()}
        if len(player_counts(self.game_name)) > 1:
            options["players"] = self.players.value
        return seats, options

    def _say_seed(self, error: str) -> None:
        help_text = (
            "<i>New game</i> deals a fresh, secret deal (its seed is shown when the game is over). "
            "To deal a chosen seed on purpose, for a class that should all get the same cards, type it and "
            "press <i>Deal this seed</i> (or open the page with <code>?seed=…</code> in its address)."
        )
        error_html = f'<div class="sk-seed-error"><b>Not dealt:</b> {html.escape(error)}</div>' if error else ""
        self.seed_note.value = f'<div class="sk-explain sk-note">{error_html}{help_text}</div>'

    def _start(self, button: widgets.Button) -> None:
        seats, options = self.chosen()
        self._say_seed("")
        self._on_new(None, seats, options)

    def _deal_chosen(self, button: widgets.Button) -> None:
        try:
            seed = parse_seed(self.chosen_seed.value)
        except ValueError as err:
            self._say_seed(str(err))
            return
        seats, options = self.chosen()
        self._say_seed("")
        self._on_new(seed, seats, options)
