"""Don't Bust's play board: the pile, your hand, a Play button. The shell (seats, bots, hot-seat cover,
log, explanations, new game) is ``GameBoard``'s; this class fills in its hooks and nothing else."""

from __future__ import annotations

import html

import ipywidgets as widgets
from sloth_widgets.board import GameBoard
from sloth_widgets.guard import guarded
from sloth_widgets.hand import HandCard
from sloth_widgets.markup import face_css

from dont_bust import SPEC
from dont_bust.engine import DontBustObservation
from sloth_kernel.core import seat_name
from sloth_kernel.render import kit


def face(card: int) -> kit.CardFace:
    return kit.CardFace(str(card), "#c0392b" if card > 6 else "#2b4a7a", "star" if card > 6 else "dot")


class DontBustBoard(GameBoard[DontBustObservation]):
    """``DontBustBoard(seed=1)``: you against the heuristic bot (``seats=["human", "random"]`` to choose)."""

    game_name = "dont-bust"
    title = "Don't Bust"
    prompt = "Select a card, then press Play."
    single_card = True  # a move is one card: the latest click wins

    def face_styles(self) -> str:
        """CSS for every card a hand can show (the faces are CSS classes of the hand's buttons)."""
        return face_css({f"sk-f-db-{n}": face(n) for n in range(1, int(SPEC.option_ranges["cards"][1]) + 1)})

    def build_controls(self) -> list[widgets.Widget]:
        self._play = widgets.Button(description="Play", button_style="success", icon="play")
        self._play.on_click(self._on_play)
        return [self._play, self.hints_toggle]

    def hand_cards(self, obs: DontBustObservation) -> list[HandCard]:
        return [HandCard(str(card), f"sk-f-db-{card}", f"card {card}") for card in obs.hand or ()]

    def hinted_keys(self, obs: DontBustObservation) -> set[str]:
        return {str(move.card) for move in obs.legal_moves if obs.total + move.card <= obs.config.limit}

    def picture(self, obs: DontBustObservation, private: bool) -> str:
        """Only what everyone sees: the pile and its total."""
        cards = [kit.card_svg(face(card), width=44, title=f"{seat_name(seat)}: {card}") for seat, card in obs.pile]
        row = kit.card_row(cards, empty="no card yet")
        return kit.panel(f"The pile: {obs.total} of {obs.config.limit}", row)

    def seat_facts(self, obs: DontBustObservation, seat: int) -> list[str]:
        count = obs.hand_counts[seat]
        return [f"{count} {'card' if count == 1 else 'cards'}"]

    def turn_hint(self, obs: DontBustObservation) -> str:
        return f"play a card; over {obs.config.limit} busts"

    def summary(self, obs: DontBustObservation) -> str:
        said = "nobody bust" if obs.bust is None else f"{seat_name(obs.bust)} bust"
        return f"<div>Game over: {html.escape(said)}, with the pile at {obs.total}.</div>"

    def update_controls(self, obs: DontBustObservation, my_turn: bool) -> None:
        self._play.disabled = not my_turn

    def preview_move(self) -> str | None:
        keys = self.hand.selected_keys
        return f"play {keys[0]}" if keys else None

    @guarded
    def _on_play(self, button: widgets.Button) -> None:
        self.submit(self.preview_move())
