"""High Card's play board: the trick on the table, your hand, a Play button; the shell is ``GameBoard``."""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as widgets
from sloth_widgets.board import GameBoard
from sloth_widgets.guard import guarded
from sloth_widgets.hand import HandCard
from sloth_widgets.markup import face_css

from sloth_kernel.core import seat_name
from sloth_kernel.render import kit
from toy_high_card import SPEC
from toy_high_card.engine import HighCardObservation
from toy_high_card.render import card_face, hands, played

FACE_PREFIX = "sk-f-hc-"


class HighCardBoard(GameBoard[HighCardObservation]):
    """``HighCardBoard(seed=1)``: you against a heuristic bot; see :class:`GameBoard`."""

    game_name = "toy-high-card"
    title = "High Card"
    prompt = "Select a card, then press Play."

    single_card = True  # one card per move

    def __init__(self, seed: int | None = 1, seats: list[str] | None = None, **options: Any) -> None:
        super().__init__(seed, seats, **options)

    # -- hooks --

    def face_styles(self) -> str:
        return face_css({f"{FACE_PREFIX}{n}": card_face(n) for n in range(1, int(SPEC.option_ranges["cards"][1]) + 1)})

    def build_controls(self) -> list[widgets.Widget]:
        self._play_button = widgets.Button(description="Play", button_style="success", icon="play")
        self._play_button.add_class("sk-play")
        self._play_button.on_click(self._on_play)
        return [self._play_button, self.hints_toggle]

    def build_table(self) -> list[widgets.Widget]:
        # the staged step (the spec's reveal_kinds): who takes the trick, after the full trick is seen
        self._take_button = widgets.Button(description="Who takes the trick?", button_style="info")
        self._take_button.add_class("sk-hc-take")
        self._take_button.on_click(self._on_take)
        return [self._take_button]

    def hand_cards(self, obs: HighCardObservation) -> list[HandCard]:
        return [HandCard(str(c), f"{FACE_PREFIX}{c}", f"card {c}") for c in obs.hand or ()]

    def hinted_keys(self, obs: HighCardObservation) -> set[str]:
        return {str(move.card) for move in obs.legal_moves}

    def picture(self, obs: HighCardObservation, private: bool) -> str:
        """Public parts only (the trick, the last trick); every hand only in the teacher's view."""
        if self.revealed(obs).pending:  # a full trick, its winner not shown yet: the trick stays on the table
            return kit.panel("On the table", played(obs.last_trick, ""), css="sk-hc-trick")
        parts = [
            kit.panel("On the table", played(obs.trick, "the leader plays any card (HC-4)"), css="sk-hc-trick"),
            kit.panel("Last trick", played(obs.last_trick, "no trick yet")),
        ]
        if self.session.mode == "watch":
            parts.append(kit.panel("Hands (teacher's view)", hands(obs)))
        return "".join(parts)

    def standings(self, obs: HighCardObservation) -> str:
        if self.revealed(obs).pending:  # the tricks won would tell who takes this one
            return ""
        rows = [
            [kit.esc(seat_name(seat)), str(obs.tricks[seat]), str(obs.hand_counts[seat])]
            for seat in range(len(obs.tricks))
        ]
        return kit.panel("Tricks", kit.table(["Seat", "Tricks won", "Cards left"], rows))

    def summary(self, obs: HighCardObservation) -> str:
        names = " and ".join(seat_name(s) for s in obs.winners)
        return f"<div>🏁 Game over: <b>{html.escape(names)}</b> won the most tricks (HC-6).</div>"

    def update_controls(self, obs: HighCardObservation, my_turn: bool) -> None:
        self._play_button.disabled = not my_turn
        self._take_button.layout.display = "" if self.revealed(obs).pending else "none"

    def preview_move(self) -> str | None:
        keys = self.hand.selected_keys
        return f"play {keys[0]}" if keys else None

    # -- handlers --

    @guarded
    def _on_play(self, button: widgets.Button) -> None:
        self.submit(self.preview_move())

    @guarded
    def _on_take(self, button: widgets.Button) -> None:
        self.show_next_step()
