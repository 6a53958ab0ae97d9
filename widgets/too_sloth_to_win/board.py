"""The Too Sloth To Win play board: track, table, hand, drink declaration, passing with a take."""

from __future__ import annotations

import html
from typing import Any, cast

import ipywidgets as widgets
from sloth_widgets.common import GameBoard, HandCard, face_css, guarded

from sloth_kernel.core import seat_name
from sloth_kernel.games.too_sloth_to_win.combos import combo_name
from sloth_kernel.games.too_sloth_to_win.engine import TooSlothConfig
from sloth_kernel.games.too_sloth_to_win.render import DRINK_COLOUR, card_face, hand_faces, hands, standings, track
from sloth_kernel.render import kit

FACE_PREFIX = "sk-f-ts-"


def drink_face() -> kit.CardFace:
    return kit.CardFace("D", DRINK_COLOUR, "glass", "drink", kind="wild")


def move_keys(move_text: str) -> list[str]:
    """Hand keys a play uses, read from its notation ('4-D5-6' -> ['4', 'D', '6'])."""
    return ["D" if token.startswith("D") else token for token in move_text.split("-")]


def take_label(pass_text: str) -> str:
    word = pass_text.split()[1] if " " in pass_text else ""
    return "take nothing" if not word else "take the drink" if word == "D" else f"take the {word}"


class TooSlothBoard(GameBoard):
    """``TooSlothBoard()``: you against three heuristic bots; a fresh, secret deal unless ``seed=…`` chooses one.

    See :class:`GameBoard`.
    """

    game_name = "too-sloth-to-win"
    title = "Too Sloth To Win"

    def __init__(self, seed: int | None = None, seats: list[str] | None = None, **options: Any) -> None:
        super().__init__(seed, seats, **options)
        config = cast(TooSlothConfig, self.session.game.config)
        self._setup.add_options({"no_board": widgets.Checkbox(description="No-Board variant", value=config.no_board)})

    # -- hooks --

    def face_styles(self) -> str:
        faces = {f"{FACE_PREFIX}{n}": card_face(n) for n in range(1, 9)}
        faces[f"{FACE_PREFIX}D"] = drink_face()
        return face_css(faces)

    def build_controls(self) -> list[widgets.Widget]:
        self._play_button = widgets.Button(description="Play selected", button_style="success", icon="play")
        self._play_button.add_class("sk-play")
        self._play_button.on_click(self._on_play)
        self._declare_label = widgets.HTML("<b>Drink counts as</b>")
        self._declare = widgets.ToggleButtons(
            options=[str(n) for n in range(1, 10)], value=None, style={"button_width": "30px"}
        )
        self._declare.add_class("sk-declare")
        self._declare.observe(self._on_declare, "value")
        self._declare_box = widgets.HBox([self._declare_label, self._declare])
        self._pass_button = widgets.Button(
            description="Pass", button_style="warning", icon="hand-paper-o", layout=widgets.Layout(width="auto")
        )
        self._pass_button.add_class("sk-pass")
        self._pass_button.on_click(self._on_pass)
        self._take = widgets.ToggleButtons(options=[], value=None, style={"button_width": "110px"})
        self._take.add_class("sk-take")
        self._take.observe(self._on_take, "value")
        return [self._play_button, self._declare_box, self._pass_button, self._take, self._hint]

    def hand_cards(self, obs: Any) -> list[HandCard]:
        hand = obs.hands[self.session.viewer] if self.session.viewer is not None else None
        if hand is None:
            return []
        return [
            HandCard(
                key,
                FACE_PREFIX + key,
                "Suspicious Drink (wild 1-9 in a Jump or Run)" if key == "D" else f"running card {key}",
            )
            for key, _ in hand_faces(hand)
        ]

    def hinted_keys(self, obs: Any) -> set[str]:
        keys: set[str] = set()
        for move in obs.legal_moves:
            text = str(move)
            if not text.startswith("pass"):
                keys.update(move_keys(text))
        return keys

    def picture(self, obs: Any, private: bool) -> str:
        mode = "No-Board variant: empty your hand to finish" if obs.no_board else f"finish at space {obs.finish}"
        head = f"Round {min(obs.round + 1, obs.rounds)} of {obs.rounds} · {mode}"
        if obs.suspicious and not obs.is_over:
            head += " · someone is out: the organizers are suspicious (TS-10)"
        if obs.table:
            owner = seat_name(obs.table_owner)
            table = (
                kit.card_row([kit.card_svg(card_face(c), width=60, title=str(c)) for c in obs.table])
                + f"<div><b>{html.escape(combo_name(obs.table))}</b> by {html.escape(owner)}"
                + (
                    ""
                    if obs.is_over
                    else " — beat it or pass"
                    + (" (passing on a Single eliminates you, TS-7)" if len(obs.table) == 1 else "")
                )
                + "</div>"
            )
        else:
            table = '<div class="sk-empty">Empty table: the leader plays any combination (TS-5).</div>'
        parts = [f"<div>{html.escape(head)}</div>"]
        if not obs.no_board:
            parts.append(kit.panel("Track", track(obs)))
        parts.append(kit.panel("On the table", table, css="sk-ts-table"))
        if self.session.mode == "watch":
            parts.append(kit.panel("Hands (teacher's view)", hands(obs)))
        if obs.results:
            parts.append(kit.panel("Rounds", self._rounds(obs)))
        return "".join(parts)

    def standings(self, obs: Any) -> str:
        return kit.panel("Players", standings(obs))

    def summary(self, obs: Any) -> str:
        winner = obs.winner
        head = f"🏁 Game over: <b>{html.escape(seat_name(winner))}</b> wins" if winner is not None else "Game over"
        scores = ", ".join(f"{seat_name(s)}: {obs.chips[s]} 💰 {obs.trophies[s]} 🏆" for s in range(obs.players))
        return f"<div>{head} (TS-14: most Cash Chips, then Trophies, then the latest chip).</div><div>{html.escape(scores)}</div>"

    def _rounds(self, obs: Any) -> str:
        rows = []
        for result in obs.results:
            first = seat_name(result.first) if result.first is not None else "–"
            second = seat_name(result.second) if result.second is not None else "–"
            chips = ", ".join(seat_name(s) for s in result.chip) or "–"
            rows.append([str(result.round + 1), kit.esc(first), kit.esc(second), kit.esc(chips), kit.esc(result.note)])
        return kit.table(["Round", "1st (Trophy)", "2nd", "Cash Chip", "How it ended"], rows, css="sk-ts-rounds")

    def update_controls(self, obs: Any, my_turn: bool) -> None:
        passes = [str(m) for m in obs.legal_moves if str(m).startswith("pass")] if my_turn else []
        plays = [m for m in obs.legal_moves if not str(m).startswith("pass")] if my_turn else []
        options = [(take_label(p), p) for p in passes]
        if list(self._take.options) != options:
            self._take.options = options
            self._take.value = passes[0] if len(passes) == 1 else None
        self._take.layout.display = "" if len(passes) > 1 else "none"
        self._play_button.disabled = not (my_turn and plays)
        self._pass_button.disabled = not (my_turn and passes)
        if passes == ["pass"] and obs.table:
            self._pass_button.description = "Pass (you are eliminated, TS-7)"
        elif len(passes) == 1 and obs.table:
            self._pass_button.description = f"Pass and {take_label(passes[0])}"
        else:
            self._pass_button.description = "Pass"
        self._pass_button.tooltip = "; ".join(take_label(p) for p in passes)
        self._show_declare()

    def preview_move(self) -> str | None:
        keys = self._hand.selected_keys
        if not keys:
            return None
        declared = self._declare.value
        tokens = [("D" + declared if declared else "D") if k == "D" else k for k in keys]
        return "-".join(tokens)

    def reset_controls(self) -> None:
        self._declare.value = None
        self._take.value = None

    def on_selection(self) -> None:
        self._suggest_declaration()
        self._show_declare()

    # -- drink declaration --

    def _show_declare(self) -> None:
        self._declare_box.layout.display = "" if "D" in self._hand.selected_keys else "none"

    def _suggest_declaration(self) -> None:
        """If exactly one legal play matches the selection with a drink, preselect its number."""
        keys = self._hand.selected_keys
        if "D" not in keys or not self.session.my_turn:
            return
        wanted = sorted(keys)
        numbers = {
            token[1:]
            for m in self.session.observation().legal_moves
            for token in str(m).split("-")
            if not str(m).startswith("pass") and sorted(move_keys(str(m))) == wanted and token.startswith("D")
        }
        if len(numbers) == 1:
            self._declare.value = numbers.pop()

    # -- handlers --

    @guarded
    def _on_play(self, button: widgets.Button) -> None:
        self.submit(self.preview_move())

    @guarded
    def _on_pass(self, button: widgets.Button) -> None:
        take = self._take.value
        if take is None:
            options = [value for _, value in self._take.options]
            take = options[0] if len(options) == 1 else "pass"
        self.submit(take)

    @guarded
    def _on_declare(self, change: dict[str, Any]) -> None:
        self._verdict = None
        self._refresh_explanation()

    @guarded
    def _on_take(self, change: dict[str, Any]) -> None:
        if change["new"]:
            self._verdict = None
            self._explain.value = (
                self.session.state.explain(change["new"])._repr_html_() if self.session.my_turn else ""
            )
