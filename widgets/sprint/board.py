"""The Sprint! play board: the track, the Objective card, and a lift control that does not let you count (SP-7).

The Race pile is drawn as one block: no numbers, no card edges, and its height, colour and
texture change from game to game, so a pixel position does not give a count away. You drag
the cut point down the pile (further down lifts more) with two buttons, or with a slider beside
the pile on the light template (the only page that names its handle); the slider reads no count
either: the pile sits at another height in the slider's frame every turn, so the slider's
own position (which a screen reader may announce) says nothing about the cards. Only when
you lift does the engine turn the cut into the move ``lift N``, hand noise included
(:meth:`SprintState.lift_from_cut`, SP-7).

Every lift is shown in two steps: first the lifted count and what it did for the Tortoise,
then, after *Turn the Hare card*, the Hare's card and where the Hare went: the engine marks the
Hare card's line as a staged step (``HARE_CARD``, :mod:`sloth_widgets.reveal`), and meanwhile the
Hare stands where the lift's report (``TurnReport.hare_from``) says it stood.
"""

from __future__ import annotations

import html
import random
import re
import secrets
from typing import Any, cast

import ipywidgets as widgets
from sloth_widgets.board import GameBoard
from sloth_widgets.guard import guarded
from sloth_widgets.markup import cited, rule_markup, rule_text

from sloth_kernel.core import counted
from sloth_kernel.games.sprint.engine import (
    HARE_CARD,
    HARE_WON,
    RULES,
    SCORING,
    TORTOISE_WON,
    SprintConfig,
    SprintObservation,
    TurnReport,
    short_words,
)
from sloth_kernel.games.sprint.render import RACE_COLOUR, objective_card, race_card, stand_in_note, track
from sloth_kernel.render import kit

WIDE_ROW = 13  # squares per row of the track beside the pile (a track that wraps: squares of 24 px and more)
NARROW_ROW = 10  # squares per row of the track on a phone-wide board
SLIDER_INSET = 12  # px: where the slider's track starts and ends inside its box (half the 28 px handle, less 2)
CUT_STEP = 0.03  # of the slider's frame: what Cut higher or Cut lower moves (three arrow presses on the handle)
_STEP_LAYOUT = widgets.Layout(width="auto", min_width="110px")
HAND_NOISES: tuple[tuple[str, float], ...] = (
    ("none: a cut is exact", 0.0),
    ("about one card", 1.0),
    ("about two cards", 2.0),
    ("about four cards", 4.0),
)


def pile_look(token: str) -> dict[str, Any]:
    """This game's look of the Race pile (height, colours, texture), from the game's token: stable in
    a game, different from game to game, and nothing to do with the (secret) seed of the deal."""
    rng = random.Random(f"{token}/sprint-pile-look")
    hue = rng.randrange(360)
    return {
        "height": rng.randrange(170, 300),
        "width": rng.randrange(90, 130),
        "base": f"hsl({hue},45%,42%)",
        "light": f"hsl({(hue + 25) % 360},50%,58%)",
        "angle": rng.randrange(15, 75),
        "id": f"skp{re.sub(r'[^0-9a-z]', '', token.lower())[:16]}",  # SVG ids: unique in the page, not secret
        "blots": [(rng.random(), rng.random(), rng.uniform(6, 22), rng.uniform(0.08, 0.22)) for _ in range(14)],
    }


def pile_svg(look: dict[str, Any], cut: float | None, top: int = 10, bottom: int = 10) -> str:
    """The pile as a textured block, `top` and `bottom` px of room above and below it; `cut`
    (0 top .. 1 bottom) draws the chosen cut, the part above it lighter (the cards you lift)."""
    w, h, uid = look["width"], look["height"], look["id"]
    blots = "".join(
        f'<ellipse cx="{x * w:.1f}" cy="{y * h:.1f}" rx="{r:.1f}" ry="{r * 0.6:.1f}" fill="#fff" opacity="{o:.2f}"/>'
        for x, y, r, o in look["blots"]
    )
    grad = (
        f'<defs><linearGradient id="{uid}g" gradientTransform="rotate({look["angle"]})">'
        f'<stop offset="0" stop-color="{look["base"]}"/><stop offset=".5" stop-color="{look["light"]}"/>'
        f'<stop offset="1" stop-color="{look["base"]}"/></linearGradient>'
        f'<clipPath id="{uid}c"><rect x="10" y="{top}" width="{w}" height="{h}" rx="10"/></clipPath></defs>'
    )
    body = (
        f'<g clip-path="url(#{uid}c)"><rect class="sk-pile-body" x="10" y="{top}" width="{w}" height="{h}" '
        f'fill="url(#{uid}g)"/><g transform="translate(10 {top})">{blots}</g></g>'
        f'<rect x="10" y="{top}" width="{w}" height="{h}" rx="10" fill="none" stroke="#3338" stroke-width="2"/>'
    )
    marker = ""
    if cut is not None:
        y = top + cut * h
        marker = (
            f'<rect x="10" y="{top}" width="{w}" height="{max(0.0, y - top):.1f}" fill="#fff" opacity=".35"/>'
            f'<line x1="2" x2="{w + 18}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ffcf33" stroke-width="4" '
            'stroke-dasharray="8 4"/>'
            f'<path d="M{w + 18} {y - 7:.1f} l-10 7 l10 7 z" fill="#e0a000"/>'
        )
    total = top + h + bottom
    return (
        f'<svg class="sk-sprint-pile" width="{w + 26}" height="{total}" viewBox="0 0 {w + 26} {total}" '
        'role="img" aria-label="The Race pile, face down, with your cut across it: the lighter part above '
        f'the cut is what you lift">{grad}{body}{marker}</svg>'
    )


def lift_line(who: str, report: TurnReport, finish: int) -> str:
    """The lift and what it did, in words: the count is known once the cards are lifted."""
    cards = counted(report.lift, "card")
    said = f"{who} lifted {cards}; the Objective was {report.objective} ({short_words(report.objective, report.lift)})"
    moved, to = report.tortoise_move, report.tortoise_from + report.tortoise_move
    if not moved:
        return f"{said}: the Tortoise stays on square {report.tortoise_from}."
    where = "the finish" if to >= finish else f"square {to}"
    return f"{said}: the Tortoise moves {counted(moved, 'square')}, to {where}."


def race_so_far(report_list: list[TurnReport], finish: int) -> str:
    """How the Tortoise's squares came about: lifts grouped by how far they moved it."""
    by_move: dict[int, int] = {}
    for report in report_list:
        by_move[report.tortoise_move] = by_move.get(report.tortoise_move, 0) + 1
    parts = [f"{counted(n, 'lift')} × {move}" for move, n in sorted(by_move.items(), reverse=True)]
    total = sum(r.tortoise_move for r in report_list)
    return f"{' + '.join(parts)} = {counted(total, 'square')}"


class SprintBoard(GameBoard[SprintObservation]):
    """``SprintBoard()``: you and a simulated lifter against the Hare; a fresh, secret deal unless ``seed=…`` chooses one.

    See :class:`GameBoard`.
    """

    game_name = "sprint"
    title = "Sprint!"
    shows_hand = False
    offers_hints = False  # a hint would have to count for you (SP-7)
    asks_from_selection = False  # no selection, and a preview or a list of lifts would count for you (SP-7)
    prompt = "Drag the cut point down the pile (further down lifts more), then press Lift here."

    def __init__(self, seed: int | None = None, seats: list[str] | None = None, **options: Any) -> None:
        self._frame: tuple[int, int] = (10, 10)  # this turn's room above and below the pile
        self._turn_key: tuple[str, int] = ("", -1)
        super().__init__(seed, seats, **options)

    # -- building --

    def build_table(self) -> list[widgets.Widget]:
        self._pile = widgets.HTML()
        self._pile.add_class("sk-pile")
        self._cut = widgets.FloatSlider(
            value=0.5,
            min=0.0,
            max=1.0,
            step=0.01,  # an arrow key moves the cut a little (about a third of a card), Page Up/Down more
            readout=False,
            orientation="vertical",
            continuous_update=False,
            description="Cut",
            tooltip="drag down to lift more cards, up to lift fewer",
            layout=widgets.Layout(width="64px"),
        )
        self._cut.add_class("sk-lift-cut")
        self._cut.add_class("sk-coarse-slider")  # the front end says its place in words, never a number (SP-7)
        self._cut.observe(self._on_cut, "value")
        self._ends = widgets.VBox(
            [
                widgets.HTML('<div class="sk-cut-end">Top: lift a few</div>'),
                widgets.HTML('<div class="sk-cut-end">Bottom: lift most</div>'),
            ],
            layout=widgets.Layout(justify_content="space-between", width="90px"),
        )
        self._ends.add_class("sk-cut-ends")
        # Two buttons move the cut as a few arrow presses on the slider do. They work on every page;
        # the slider shows only on the light template, whose front end gives its handle a name (the
        # stock template and JupyterLab leave a slider's handle unnamed for screen readers).
        self._cut_up = widgets.Button(
            description="Cut higher", tooltip="move the cut up the pile: lift fewer cards", layout=_STEP_LAYOUT
        )
        self._cut_up.add_class("sk-cut-up")
        self._cut_up.on_click(self._on_cut_up)
        self._cut_down = widgets.Button(
            description="Cut lower", tooltip="move the cut down the pile: lift more cards", layout=_STEP_LAYOUT
        )
        self._cut_down.add_class("sk-cut-down")
        self._cut_down.on_click(self._on_cut_down)
        self._cut_steps = widgets.HBox([self._cut_up, self._cut_down], layout=widgets.Layout(flex_flow="row wrap"))
        self._cut_steps.add_class("sk-cut-steps")
        self._lift_button = widgets.Button(description="Lift here", button_style="success")
        self._lift_button.add_class("sk-lift")
        self._lift_button.on_click(self._on_lift)
        self._lift_help = widgets.HTML(
            rule_markup(
                RULES,  # the game's rule words (Game.rules)
                "<div class='sk-lift-help'><b>Lift the Race pile.</b> Move the cut to where you would cut the pile "
                "with one hand (<i>Cut higher</i> and <i>Cut lower</i>, or drag the handle beside the pile where there "
                "is one): down lifts more, up lifts fewer. Then press <i>Lift here</i>. "
                "No counting (SP-7): the pile shows no card edges, looks different every game, and your hand may "
                "slip by about a card.</div>",
            )
        )
        self._lift_box = widgets.HBox(
            [
                widgets.HBox([self._pile, self._cut, self._ends], layout=widgets.Layout(flex="0 0 auto")),
                widgets.VBox(
                    [self._lift_help, self._cut_steps, self._lift_button], layout=widgets.Layout(flex="1 1 200px")
                ),
            ],
            layout=widgets.Layout(flex_flow="row wrap", grid_gap="8px"),
        )
        self._lift_box.add_class("sk-lift-box")
        self._turn_hare = widgets.Button(
            description="Turn the Hare card",
            button_style="warning",
            tooltip="turn the Race card under the lift: it moves the Hare",
            layout=widgets.Layout(width="auto", min_width="240px", align_self="center"),
        )
        self._turn_hare.add_class("sk-hare-turn")
        self._turn_hare.on_click(self._on_turn_hare)
        style = widgets.HTML(
            "<style>.sk-lift-box{background:#fffdf2;border-radius:10px;padding:6px;align-items:flex-start}"
            ".sk-lift-help{max-width:340px;font-size:14px}.sk-cut-end{font-size:12px;color:#333}"
            ".sk-board .sk-hare-turn.jupyter-button{min-height:36px;font-weight:700}"
            ".sk-sprint-lift{display:flex;gap:10px;align-items:center;flex-wrap:wrap}"
            ".sk-sprint-lift>div:last-child{flex:1 1 180px;min-width:0}"
            ".sk-track-narrow{display:none}.sk-track-wide svg{width:360px;max-width:100%}"
            ".sk-track-narrow svg{width:100%}"  # squares of 24 px and more: the track wraps
            # beside the picture where the width allows: the pile and its controls
            "@media (min-width:701px){.sk-two-col .sk-felt:has(.sk-lift-box){grid-template-columns:minmax(0,1fr) auto;"
            'grid-template-areas:"top top" "pic tab" "cover cover" "label me" "hand me"}'
            "}.sk-two-col .sk-lift-box{flex-flow:column !important;max-width:330px}"
            ".sk-two-col .sk-lift-box>*,.sk-two-col .sk-lift-box>.widget-vbox>*{flex:none !important}"
            ".sk-two-col .sk-lift-box>.widget-vbox{display:contents}.sk-two-col .sk-lift-box .sk-cut-steps{order:-2}"
            ".sk-two-col .sk-lift-box .sk-lift{order:-1}.sk-two-col .sk-lift-box>.widget-vbox>:first-child{order:1}"
            # the lift's buttons above the pile (whose height changes every game), and on a phone the lift first
            "@media (max-width:700px){.sk-two-col .sk-felt>.sk-table-area:has(.sk-lift-box){order:1}}"
            ".sk-board .sk-lift-cut{--jp-widgets-slider-handle-size:28px;display:none !important}"  # 24 px at least
            ".sk-page .sk-board .sk-lift-cut{display:flex !important}"  # the light template names its handle
            ".sk-cut-steps{gap:6px;margin:4px 0}"
            ".sk-board .sk-lift-cut .noUi-handle:focus-visible{outline:3px solid #1c5bd8;outline-offset:2px}"
            "@media (max-width:600px){.sk-track-wide{display:none}.sk-track-narrow{display:block}}</style>"
        )
        return [style, self._lift_box, self._turn_hare]

    # -- the hidden Hare card (a staged step) --

    @property
    def hare_face_down(self) -> bool:
        """Is the newest lift's Hare card still face down?"""
        return self.revealed(self.session.observation()).pending

    def _face_down(self, obs: SprintObservation) -> bool:
        return self.revealed(obs).pending

    def _hare(self, obs: SprintObservation) -> int:
        """Where the table sees the Hare: on its old square while its card is face down."""
        return obs.last.hare_from if self._face_down(obs) and obs.last is not None else obs.hare

    def _who(self, seat: int) -> str:
        name, _ = self.seat_label(seat)
        return name

    def _lift_words(self, obs: SprintObservation) -> str:
        """The newest lift in words, and the Hare card once it is turned."""
        last = obs.last
        if last is None:
            return ""
        text = lift_line(self._who(last.seat), last, obs.finish)
        if self._face_down(obs):
            return text + " The Hare card is face down: turn it to see where the Hare goes."
        lift = max(i for i, event in enumerate(obs.log) if event.move is not None)
        after = [e.text for e in obs.log[lift + 1 :] if last.hare_card is None or e.kind == HARE_CARD][:1]
        return " ".join([text, *after])  # the engine's words for the Hare card, or for the Tortoise's win

    # -- hooks --

    def setup_options(self) -> dict[str, widgets.ValueWidget]:
        config = cast(SprintConfig, self.session.game.config)
        noises = list(HAND_NOISES)
        if config.hand_noise not in [v for _, v in noises]:  # a board made in code with another value
            noises.append((f"about {config.hand_noise:g} cards", config.hand_noise))
        return {
            "small_track": widgets.Checkbox(description="Small Track", value=config.small_track),
            "young_tortoise": widgets.Checkbox(description="Young Tortoise", value=config.young_tortoise),
            "hand_noise": widgets.Dropdown(
                options=noises,
                value=config.hand_noise,
                description="Hand noise",
                tooltip="how far a person's cut may land from where it was aimed (SP-7)",
                layout=widgets.Layout(width="280px"),
            ),
        }

    def staged_note(self, obs: SprintObservation) -> str | None:
        """While a Hare card is face down, the words under the table say only the lift."""
        return self._lift_words(obs)

    def picture(self, obs: SprintObservation, private: bool) -> str:
        face_down = self._face_down(obs)
        variants = [
            n
            for n, on in (("Small Track", obs.config.small_track), ("Young Tortoise", obs.config.young_tortoise))
            if on
        ]
        head = "Co-operative: all the players move the Tortoise together, against the Hare." + (
            f" Variants: {', '.join(variants)}." if variants else ""
        )
        if obs.objective is not None and not face_down:
            who = self._who(obs.current_player)
            goal = (
                f'<div class="sk-sprint-lift"><div style="flex:none">{objective_card(obs.objective)}</div>'
                f"<div><b>The Objective is {obs.objective}: "
                f"{'you lift' if who == 'You' else html.escape(who) + ' lifts'} next</b>, by eye. "
                f"{rule_text(self.session.game.rules, SCORING.text + cited(SCORING.rules))}</div></div>"  # the engine's words
            )
        elif face_down:
            goal = '<span class="sk-empty">The next Objective is flipped after the Hare card is turned.</span>'
        else:
            goal = '<span class="sk-empty">The race is over.</span>'
        return (
            f"<div>{html.escape(head)}</div>"
            + kit.panel(
                "Track",  # the stand-in layout (SP-1) is named by the marker in the race panel
                f'<div class="sk-track-wide">{track(obs, WIDE_ROW, hare=self._hare(obs))}</div>'
                f'<div class="sk-track-narrow">{track(obs, NARROW_ROW, hare=self._hare(obs))}</div>',  # on a phone
            )
            + '<div style="display:flex;gap:10px;flex-wrap:wrap">'
            + kit.panel("Objective card", goal, css="sk-sprint-objective")
            + kit.panel("The last lift and the Hare card", self._last_lift_html(obs), css="sk-sprint-reveal")
            + "</div>"
        )

    def _last_lift_html(self, obs: SprintObservation) -> str:
        last = obs.last
        if last is None:
            return '<span class="sk-empty">No lift yet.</span>'
        if last.hare_card is None:
            card = kit.card_svg(kit.CardFace("", RACE_COLOUR, kind="back"), title="no Hare card: the Tortoise finished")
        elif self._face_down(obs):
            card = kit.card_svg(kit.CardFace("", RACE_COLOUR, kind="back"), title="the Hare card, face down")
        else:
            card = race_card(last.hare_card)
        return (
            f'<div class="sk-sprint-lift"><div style="flex:none">{kit.card_row([objective_card(last.objective), card])}'
            f"</div><div>{html.escape(self._lift_words(obs))}</div></div>"
        )

    def seat_facts(self, obs: SprintObservation, seat: int) -> list[str]:
        lifts = [e.move for e in obs.log if e.move is not None and e.player == seat]
        if not lifts:
            return ["no lift yet"]
        return [counted(len(lifts), "lift"), f"last lifted {counted(int(lifts[-1].split()[-1]), 'card')}"]

    def turn_hint(self, obs: SprintObservation) -> str:
        if obs.objective is None:
            return ""
        return f"the Objective is {obs.objective}: cut the pile by eye, then press Lift here"

    def standings(self, obs: SprintObservation) -> str:
        finish, hare = obs.finish, self._hare(obs)
        gap = obs.tortoise - hare
        lead = (
            f"the Tortoise leads by {counted(gap, 'square')}"
            if gap > 0
            else f"the Hare leads by {counted(-gap, 'square')}"
            if gap < 0
            else "they are side by side"
        )

        def where(square: int) -> str:
            return "the finish" if square >= finish else f"square {square} of {finish}"

        rows = [
            ["Tortoise", f"on {where(obs.tortoise)}"],
            ["Hare", f"on {where(hare)}"],
            ["Race", lead],
            ["Lifts", str(sum(1 for e in obs.log if e.move is not None))],
        ]
        assumed = stand_in_note(obs)
        body = "".join(f"<tr><th>{name}</th><td>{kit.esc(value)}</td></tr>" for name, value in rows)
        return kit.panel("The race", f'<table class="sk-table">{body}</table>' + assumed)

    def turn_reports(self) -> list[TurnReport]:
        """Every turn of the finished game, replayed from its record (the seed is public by then)."""
        state = self.session.state
        record = state.to_record()
        step = self.session.game.replay({**record, "moves": []})
        reports = []
        for move in record["moves"]:
            step = step.play(move)
            if step.last is not None:
                reports.append(step.last)
        return reports

    def summary(self, obs: SprintObservation) -> str:
        reports = self.turn_reports()
        finish = obs.finish
        won = obs.winner == "tortoise"
        headline = f"<b>{html.escape((TORTOISE_WON if won else HARE_WON).text)}</b>"
        icon = kit.icon("tortoise" if won else "hare", size=20)
        turns = counted(len(reports), "turn")
        objectives = ", ".join(str(r.objective) for r in reports)
        exact = sum(1 for r in reports if r.lift == r.objective)
        tortoise = min(obs.tortoise, finish)
        hare = min(obs.hare, finish)
        lines = [
            f"The race took {turns}; the Objectives flipped were {objectives}.",
            f"Exact lifts: {exact} of {len(reports)}.",
            f"The Tortoise's moves: {race_so_far(reports, finish)}; "
            + ("it reached the finish." if won else f"it stopped on square {tortoise} of {finish}."),
            "The Hare " + ("reached the finish." if not won else f"was on square {hare} of {finish}."),
        ]
        steps = "".join(
            f"<li>Turn {n}: {html.escape(lift_line(self._who(r.seat), r, finish))}"
            + (
                f" Hare card '{html.escape(r.hare_card)}': the Hare "
                + (
                    f"goes from square {r.hare_from} to {'the finish' if r.hare_to >= finish else f'square {r.hare_to}'}."
                    if r.hare_to != r.hare_from
                    else f"stays on square {r.hare_from}."
                )
                if r.hare_card is not None
                else ""
            )
            + "</li>"
            for n, r in enumerate(reports, 1)
        )
        return (
            f'<div class="sk-sprint-summary"><div style="font-size:16px">{icon} {headline}</div>'
            + "".join(f"<div>{html.escape(line)}</div>" for line in lines)
            + f"<details><summary>Turn by turn</summary><ol style='padding-left:1.4em;margin:4px 0'>{steps}</ol>"
            "</details></div>"
        )

    def update_controls(self, obs: SprintObservation, my_turn: bool) -> None:
        session = self.session
        held = self._face_down(obs)
        show = not session.covered and not session.state.is_over and session.mode != "watch" and not held
        self._lift_box.layout.display = "" if show else "none"
        self._lift_button.disabled = not my_turn or held
        self._cut.disabled = not my_turn or held
        self._cut_up.disabled = self._cut_down.disabled = not my_turn or held
        self._turn_hare.layout.display = "" if held and not session.covered else "none"
        key = (session.token, obs.turn)
        if key != self._turn_key:  # a new turn: the pile sits elsewhere in the slider's frame, a fresh start cut
            self._turn_key = key
            rng = random.Random(secrets.randbits(64))  # not from the seed, and nothing the page can rebuild
            self._frame = (rng.randrange(12, 60), rng.randrange(12, 60))
            self._cut.value = round(self.value_for_share(rng.uniform(0.3, 0.7)), 2)  # on a slider step
        self._draw_pile()

    def preview_move(self) -> str | None:
        return None  # previewing would count for you (SP-7)

    # -- the lift --

    def _frame_height(self) -> int:
        top, bottom = self._frame
        return top + int(pile_look(self.session.token)["height"]) + bottom

    def cut_share(self) -> float:
        """Where the cut is, as the share of the pile above it (0 the top, 1 the bottom)."""
        top, _ = self._frame
        height: int = pile_look(self.session.token)["height"]
        value: float = self._cut.value  # a FloatSlider's value (ipywidgets is untyped)
        y = SLIDER_INSET + (1.0 - value) * (self._frame_height() - 2 * SLIDER_INSET)
        return min(1.0, max(0.0, (y - top) / height))

    def value_for_share(self, share: float) -> float:
        """The slider value that puts the cut `share` of the way down the pile (what a steady hand aims at)."""
        top, _ = self._frame
        height: int = pile_look(self.session.token)["height"]
        y = top + share * height
        return min(1.0, max(0.0, 1.0 - (y - SLIDER_INSET) / (self._frame_height() - 2 * SLIDER_INSET)))

    def _draw_pile(self) -> None:
        look = pile_look(self.session.token)
        top, bottom = self._frame
        self._cut.layout.height = f"{self._frame_height()}px"
        self._ends.layout.height = f"{self._frame_height()}px"
        self._pile.value = pile_svg(look, self.cut_share(), top, bottom)

    @guarded
    def _on_cut(self, change: dict[str, Any]) -> None:
        self._draw_pile()

    def nudge_cut(self, way: int) -> None:
        """Move the cut up (`way` -1) or down (+1) the pile by CUT_STEP of the slider's frame, as
        that many arrow presses on its handle do; never past the frame's ends."""
        value: float = self._cut.value
        self._cut.value = round(min(1.0, max(0.0, value - way * CUT_STEP)), 2)

    @guarded
    def _on_cut_up(self, button: widgets.Button) -> None:
        self.nudge_cut(-1)

    @guarded
    def _on_cut_down(self, button: widgets.Button) -> None:
        self.nudge_cut(+1)

    @guarded
    def _on_lift(self, button: widgets.Button) -> None:
        if self.hare_face_down:  # a forged click: the Hare card must be seen first
            self.refuse("lift", "turn the Hare card first")
            return
        refused = self.session.refusal(self.session.viewer)
        if refused is not None:  # off turn: the lift is never worked out (the slip comes from the seed)
            self.refuse("lift", refused)
            return
        move = self.session.state.lift_from_cut(self.cut_share())  # SP-7: the hand's slip included
        self.submit(str(move))

    @guarded
    def _on_turn_hare(self, button: widgets.Button) -> None:
        self.turn_hare_card()

    def turn_hare_card(self) -> bool:
        """The staged step: show the face-down Hare card (and what follows it). False if none is down.
        (The bots' pacing turns a bot's; the person turns their own.)"""
        return self.show_next_step()
