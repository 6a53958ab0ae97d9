"""The Sprint! play board: track, Objective card, and a lift control that does not let you count (SP-7).

The Race pile is drawn as one block: no numbers, no card edges, and its height,
colour and texture change from game to game, so a pixel position does not give a
count away. You drag the cut point; only then does the board turn the cut into the
engine move ``lift N`` (N = the share of the pile above the cut).
"""

from __future__ import annotations

import html
import random
import re
from typing import Any, cast

import ipywidgets as widgets
from sloth_widgets.common import GameBoard, guarded

from sloth_kernel.core import seat_name
from sloth_kernel.games.sprint.engine import SprintConfig
from sloth_kernel.games.sprint.render import objective_card, reveal, track
from sloth_kernel.render import kit


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


def pile_svg(look: dict[str, Any], cut: float | None) -> str:
    """The pile as a textured block; `cut` (0 top .. 1 bottom) draws the chosen cut, lifted part raised."""
    w, h, uid = look["width"], look["height"], look["id"]
    blots = "".join(
        f'<ellipse cx="{x * w:.1f}" cy="{y * h:.1f}" rx="{r:.1f}" ry="{r * 0.6:.1f}" fill="#fff" opacity="{o:.2f}"/>'
        for x, y, r, o in look["blots"]
    )
    grad = (
        f'<defs><linearGradient id="{uid}g" gradientTransform="rotate({look["angle"]})">'
        f'<stop offset="0" stop-color="{look["base"]}"/><stop offset=".5" stop-color="{look["light"]}"/>'
        f'<stop offset="1" stop-color="{look["base"]}"/></linearGradient>'
        f'<clipPath id="{uid}c"><rect x="10" y="10" width="{w}" height="{h}" rx="10"/></clipPath></defs>'
    )
    body = (
        f'<g clip-path="url(#{uid}c)"><rect x="10" y="10" width="{w}" height="{h}" fill="url(#{uid}g)"/>'
        f'<g transform="translate(10 10)">{blots}</g></g>'
        f'<rect x="10" y="10" width="{w}" height="{h}" rx="10" fill="none" stroke="#3338" stroke-width="2"/>'
    )
    marker = ""
    if cut is not None:
        y = 10 + cut * h
        marker = (
            f'<rect x="10" y="10" width="{w}" height="{max(0.0, y - 10):.1f}" fill="#fff" opacity=".35"/>'
            f'<line x1="2" x2="{w + 18}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ffcf33" stroke-width="4" '
            'stroke-dasharray="8 4"/>'
            f'<path d="M{w + 18} {y - 7:.1f} l-10 7 l10 7 z" fill="#e0a000"/>'
        )
    return (
        f'<svg class="sk-sprint-pile" width="{w + 26}" height="{h + 20}" viewBox="0 0 {w + 26} {h + 20}" '
        f'role="img" aria-label="the Race pile (no counting: SP-7)">{grad}{body}{marker}</svg>'
    )


class SprintBoard(GameBoard):
    """``SprintBoard()``: you and a simulated lifter against the Hare; a fresh, secret deal unless ``seed=…`` chooses one.

    See :class:`GameBoard`.
    """

    game_name = "sprint"
    title = "Sprint!"
    shows_hand = False
    prompt = "Drag the cut point on the pile, then press Lift here."

    def __init__(self, seed: int | None = None, seats: list[str] | None = None, **options: Any) -> None:
        super().__init__(seed, seats, **options)
        config = cast(SprintConfig, self.session.game.config)
        self._setup.add_options(
            {
                "small_track": widgets.Checkbox(description="Small Track", value=config.small_track),
                "young_tortoise": widgets.Checkbox(description="Young Tortoise", value=config.young_tortoise),
            }
        )
        self._hint.layout.display = "none"  # a hint would have to count for you (SP-7)

    # -- building --

    def build_table(self) -> list[widgets.Widget]:
        self._pile = widgets.HTML()
        self._pile.add_class("sk-pile")
        self._cut = widgets.FloatSlider(
            value=0.5,
            min=0.0,
            max=1.0,
            step=0.001,
            readout=False,
            orientation="vertical",
            continuous_update=False,
            tooltip="drag to where you cut the pile",
        )
        self._cut.add_class("sk-lift-cut")
        self._cut.observe(self._on_cut, "value")
        self._lift_button = widgets.Button(description="Lift here", button_style="success", icon="hand-rock-o")
        self._lift_button.add_class("sk-lift")
        self._lift_button.on_click(self._on_lift)
        self._lift_help = widgets.HTML(
            "<div style='max-width:300px'><b>Lift the Race pile.</b> Drag the handle to where you would cut "
            "the pile with one hand, then press <i>Lift here</i>. No counting (SP-7): the pile shows no "
            "card edges and looks different every game.</div>"
        )
        self._lift_box = widgets.HBox([self._pile, self._cut, widgets.VBox([self._lift_help, self._lift_button])])
        self._lift_box.add_class("sk-lift-box")
        self._turn_key: tuple[str, int] = ("", -1)
        return [self._lift_box]

    # -- hooks --

    def hand_heading(self, obs: Any, my_turn: bool) -> str:
        return "Race pile"

    def picture(self, obs: Any, private: bool) -> str:
        variants = [
            n
            for n, on in (("Small Track", obs.config.small_track), ("Young Tortoise", obs.config.young_tortoise))
            if on
        ]
        head = f"Co-operative: the table's Tortoise against the Hare · turn {obs.turn + 1}" + (
            f" · variants: {', '.join(variants)}" if variants else ""
        )
        if obs.objective is not None:
            rule = self.session.game.rules.get("SP-4", "")  # the engine's own words for the scoring
            goal = (
                f'<div style="display:flex;gap:10px;align-items:center"><div style="flex:none">'
                f"{objective_card(obs.objective)}</div>"
                f"<div><b>{html.escape(seat_name(obs.current_player))} must lift exactly this many Race "
                f"cards</b>, by eye. {html.escape(rule)} (SP-4)</div></div>"
            )
        else:
            goal = '<span class="sk-empty">game over</span>'
        return (
            f"<div>{html.escape(head)}</div>"
            + kit.panel("Track (layout assumed, SP-1)", track(obs))
            + '<div style="display:flex;gap:10px;flex-wrap:wrap">'
            + kit.panel("Objective card", goal, css="sk-sprint-objective")
            + kit.panel("Last lift and Hare card", reveal(obs.last, obs.finish), css="sk-sprint-reveal")
            + "</div>"
        )

    def standings(self, obs: Any) -> str:
        flipped = ", ".join(map(str, obs.objectives_flipped)) or "–"
        gap = obs.tortoise - obs.hare
        lead = f"Tortoise leads by {gap}" if gap > 0 else f"Hare leads by {-gap}" if gap < 0 else "side by side"
        rows = [
            ["Tortoise", f"square {min(obs.tortoise, obs.finish)} of {obs.finish}"],
            ["Hare", f"square {min(obs.hare, obs.finish)} of {obs.finish}"],
            ["Race", kit.esc(lead)],
            ["Objectives flipped", kit.esc(flipped) + f" ({obs.objectives_left} left)"],
        ]
        assumed = "".join(f'<div class="sk-assume">Assumed: {kit.esc(line)}</div>' for line in obs.config.assumptions())
        body = "".join(f"<tr><th>{name}</th><td>{value}</td></tr>" for name, value in rows)
        return kit.panel("The table", f'<table class="sk-table">{body}</table>' + assumed)

    def summary(self, obs: Any) -> str:
        if obs.winner == "tortoise":
            return "<div>🐢 The Tortoise reached the finish first: <b>everyone wins!</b> (SP-6)</div>"
        return "<div>🐇 The Hare reached the finish first: <b>everyone loses</b> (SP-6).</div>"

    def update_controls(self, obs: Any, my_turn: bool) -> None:
        session = self.session
        show = not session.covered and not session.state.is_over and session.mode != "watch"
        self._lift_box.layout.display = "" if show else "none"
        self._lift_button.disabled = not my_turn
        self._cut.disabled = not my_turn
        key = (session.token, obs.turn)
        if key != self._turn_key:  # a new turn: a fresh, random-looking starting cut (not from the seed)
            self._turn_key = key
            self._cut.value = random.Random(f"{session.token}/cut/{obs.turn}").uniform(0.3, 0.7)
        self._draw_pile()

    def preview_move(self) -> str | None:
        return None  # previewing would count for you (SP-7)

    # -- the lift --

    def lift_count(self) -> int:
        """The cut turned into a number of cards (only when the lift is made)."""
        size: int = self.session.state.observation(self.session.to_move if self.session.to_move >= 0 else 0).pile_size
        cut: float = self._cut.value  # a FloatSlider's value (ipywidgets is untyped)
        return round((1.0 - cut) * size)

    def _draw_pile(self) -> None:
        look = pile_look(self.session.token)
        self._cut.layout.height = f"{look['height'] + 20}px"
        self._pile.value = pile_svg(look, 1.0 - self._cut.value)

    @guarded
    def _on_cut(self, change: dict[str, Any]) -> None:
        self._draw_pile()

    @guarded
    def _on_lift(self, button: widgets.Button) -> None:
        verdict = self.submit(f"lift {self.lift_count()}")
        if verdict is not None and verdict.legal and self.session.state.log:
            last = self.session.state.observation(0).last
            if last is not None:
                self._note = f"You lifted {last.lift} for Objective {last.objective}. " + " ".join(
                    e.text for e in self.session.state.log[-3:]
                )
                self.render()
