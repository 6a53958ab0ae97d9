"""The Race to the Bottom play board: the trick, a hand grouped by rank, Jokers, pitching."""

from __future__ import annotations

import html
from typing import Any, cast

import ipywidgets as widgets
from sloth_widgets.common import GameBoard, HandCard, face_css, guarded, progress_bar

from sloth_kernel.core import seat_name
from sloth_kernel.games.race_to_the_bottom.engine import RaceConfig
from sloth_kernel.games.race_to_the_bottom.melds import CARD_SYMBOLS, RANK_NAMES, new_deck
from sloth_kernel.games.race_to_the_bottom.render import card_face, cards, results, seat_cards, trick
from sloth_kernel.render import kit

FACE_PREFIX = "sk-f-rb-"
DECK_SIZE = len(new_deck())  # 54: 52 cards and 2 Jokers (RB-1)
RANK_CHOICES = [(RANK_NAMES[r], CARD_SYMBOLS[r]) for r in range(13)]
MAX_JOKERS = 2


def face_class(token: str) -> str:
    return FACE_PREFIX + ("joker" if token == "*" else token)


def play_tokens(move_text: str) -> tuple[list[str], list[str]]:
    """(naturals, declared Joker ranks) of a meld's notation: '7 7 *7' -> (['7', '7'], ['7'])."""
    words = move_text.split()
    return [w for w in words if not w.startswith("*")], [w[1:] for w in words if w.startswith("*")]


def is_play(move_text: str) -> bool:
    return move_text not in ("pass", "done") and not move_text.startswith("pitch")


class RaceBoard(GameBoard):
    """``RaceBoard()``: race your 54 cards against two bots; a fresh, secret deal unless ``seed=…`` chooses one.

    See :class:`GameBoard`.
    """

    game_name = "race-to-the-bottom"
    title = "Race to the Bottom"

    def __init__(self, seed: int | None = None, seats: list[str] | None = None, **options: Any) -> None:
        super().__init__(seed, seats, **options)
        config = cast(RaceConfig, self.session.game.config)
        self._setup.add_options(
            {"grand_prix": widgets.Checkbox(description="Grand Prix (3 races)", value=config.grand_prix)}
        )

    # -- hooks --

    def face_styles(self) -> str:
        return face_css({face_class(t): card_face(t) for t in CARD_SYMBOLS})

    def build_controls(self) -> list[widgets.Widget]:
        self._play_button = widgets.Button(description="Play selected", button_style="success", icon="play")
        self._play_button.add_class("sk-play")
        self._play_button.on_click(self._on_play)
        self._jokers = [
            widgets.Dropdown(
                options=RANK_CHOICES, value=None, description=f"Joker {i + 1} as", layout=widgets.Layout(width="190px")
            )
            for i in range(MAX_JOKERS)
        ]
        for dropdown in self._jokers:
            dropdown.add_class("sk-joker-rank")
            dropdown.observe(self._on_joker, "value")
        self._pass_button = widgets.Button(
            description="Pass",
            button_style="warning",
            icon="hand-paper-o",
            tooltip="out of this trick; then pitch and refill (RB-7)",
        )
        self._pass_button.add_class("sk-pass")
        self._pass_button.on_click(self._on_pass)
        self._pitch_order = widgets.HTML()
        self._pitch_order.add_class("sk-pitch-order")
        self._pitch_button = widgets.Button(
            description="Pitch & refill", button_style="info", icon="level-down", layout=widgets.Layout(width="auto")
        )
        self._pitch_button.add_class("sk-pitch")
        self._pitch_button.on_click(self._on_pitch)
        return [self._play_button, *self._jokers, self._pass_button, self._pitch_order, self._pitch_button, self._hint]

    def hand_cards(self, obs: Any) -> list[HandCard]:
        viewer = self.session.viewer
        hand = obs.seats[viewer].hand if viewer is not None else None
        if not hand:
            return []
        shown = []
        for index, token in enumerate(hand):
            name = "Joker (wild: declare its rank, RB-3)" if token == "*" else RANK_NAMES[CARD_SYMBOLS.index(token)]
            shown.append(HandCard(token, face_class(token), name, group_start=index > 0 and hand[index - 1] != token))
        return shown

    def hinted_keys(self, obs: Any) -> set[str]:
        keys: set[str] = set()
        for move in obs.legal_moves:
            text = str(move)
            if obs.pitching and text.startswith("pitch"):
                keys.add(text.split()[1])
            elif is_play(text):
                naturals, declared = play_tokens(text)
                keys.update(naturals)
                if declared:
                    keys.add("*")
        return keys

    def picture(self, obs: Any, private: bool) -> str:
        mode = f"Grand Prix, race {obs.race} of {obs.races}" if obs.grand_prix else "A single race"
        parts = [f"<div>{html.escape(mode)} · shed all {DECK_SIZE} cards (hand + deck) to win (RB-9)</div>"]
        top = obs.to_beat
        if top is not None and top.cheat:
            parts.append(
                '<div class="sk-rb-cheat" style="background:#7a1020;color:#fff;border-radius:8px;'
                'padding:6px 10px;margin:4px 0;font-weight:700">⚠ CHEAT on the table: '
                f"{html.escape(top.describe())} — only Cheats may follow this trick (RB-6)</div>"
            )
        if obs.pitching and obs.current_player >= 0:
            parts.append(
                f'<div class="sk-explain sk-note">{html.escape(seat_name(obs.current_player))} passed and is '
                f"pitching ({obs.pitched_now} so far, at most 6), then refills to 12 (RB-7).</div>"
            )
        parts.append(kit.panel("The trick", trick(obs), css="sk-rb-table"))
        if private and self.session.viewer is not None and self.session.mode != "watch":
            mine = obs.seats[self.session.viewer]
            if mine.pitched:
                parts.append(kit.panel("Under your deck (you pitched, top → bottom)", cards(mine.pitched, 30)))
        if self.session.mode == "watch":
            parts.append(kit.panel("Hands and decks (teacher's view)", seat_cards(obs), css="sk-rb-hands"))
        if obs.results:
            parts.append(kit.panel("Results", results(obs)))
        return "".join(parts)

    def _progress(self, obs: Any) -> str:
        rows = []
        for seat in obs.seats:
            status = "finished" if seat.out else "passed" if seat.passed else "in the trick"
            rows.append(
                [
                    kit.esc(seat_name(seat.seat))
                    + (kit.badge("to move", css="sk-warn") if seat.seat == obs.current_player else ""),
                    str(seat.hand_count),
                    str(seat.deck_count),
                    progress_bar(
                        seat.remaining,
                        DECK_SIZE,
                        colour="#f0b27a" if seat.remaining > 27 else "#8fd19e",
                        label=f"{seat.remaining} of {DECK_SIZE} left",
                    ),
                    kit.esc(status),
                ]
                + ([str(seat.points)] if obs.grand_prix else [])
            )
        headers = ["Seat", "Hand", "Deck", "Remaining", "This trick"] + (["Points"] if obs.grand_prix else [])
        return kit.table(headers, rows, css="sk-rb-progress")

    def standings(self, obs: Any) -> str:
        body = self._progress(obs)
        if obs.grand_prix:
            ranking = sorted(range(obs.players), key=lambda s: -obs.seats[s].points)
            body += (
                "<div>Grand Prix: "
                + ", ".join(f"{seat_name(s)} {obs.seats[s].points} pt" for s in ranking)
                + " (RB-10)</div>"
            )
        if obs.order:
            body += (
                "<div>Finished this race: "
                + ", ".join(f"{i + 1}. {seat_name(s)}" for i, s in enumerate(obs.order))
                + "</div>"
            )
        return kit.panel(f"Race: cards left of {DECK_SIZE}", body)

    def summary(self, obs: Any) -> str:
        best = max(obs.returns)
        winners = [seat_name(s) for s in range(obs.players) if obs.returns[s] == best]
        what = "Grand Prix" if obs.grand_prix else "Race"
        return (
            f"<div>🏁 {what} over: <b>{html.escape(' and '.join(winners))}</b> "
            f"win{'s' * (len(winners) == 1)}.</div>" + results(obs)
        )

    def update_controls(self, obs: Any, my_turn: bool) -> None:
        moves = [str(m) for m in obs.legal_moves] if my_turn else []
        pitching = bool(obs.pitching) and my_turn
        self._play_button.layout.display = "none" if pitching else ""
        self._pass_button.layout.display = "none" if pitching else ""
        self._pitch_button.layout.display = "" if pitching else "none"
        self._pitch_order.layout.display = "" if pitching else "none"
        self._play_button.disabled = not any(is_play(m) for m in moves)
        self._pass_button.disabled = "pass" not in moves
        self._pitch_button.disabled = not pitching
        self._show_pitch_order(pitching)
        self._show_jokers(pitching)

    def hand_heading(self, obs: Any, my_turn: bool) -> str:
        if my_turn and obs.pitching:
            return "Pitch: click cards in the order they go under your deck"
        return "Your hand, grouped by rank"

    def preview_move(self) -> str | None:
        keys = self._hand.selected_keys
        if not keys or self._pitching():
            return None
        naturals = [k for k in keys if k != "*"]
        jokers = [
            "*" + (self._jokers[i].value or "") if i < MAX_JOKERS else "*" for i in range(len(keys) - len(naturals))
        ]
        return " ".join(naturals + jokers)

    def reset_controls(self) -> None:
        for dropdown in self._jokers:
            dropdown.value = None

    def on_selection(self) -> None:
        self._suggest_jokers()
        pitching = self._pitching()
        self._show_jokers(pitching)
        self._show_pitch_order(pitching)

    # -- details --

    def _pitching(self) -> bool:
        return self.session.my_turn and bool(self.session.state.observation(self.session.viewer).pitching)

    def _show_jokers(self, pitching: bool) -> None:
        count = 0 if pitching else self._hand.selected_keys.count("*")
        for index, dropdown in enumerate(self._jokers):
            dropdown.layout.display = "" if index < count else "none"

    def _show_pitch_order(self, pitching: bool) -> None:
        keys = self._hand.selected_keys
        order = " → ".join("Joker" if k == "*" else k for k in keys) or "nothing (just refill)"
        self._pitch_order.value = f"<b>Under your deck, in this order:</b> {html.escape(order)}"
        self._pitch_button.description = f"Pitch {len(keys)} & refill" if keys else "Refill without pitching"

    def _suggest_jokers(self) -> None:
        """If the selection with Jokers matches exactly one legal meld, preselect its declarations."""
        keys = self._hand.selected_keys
        if "*" not in keys or not self.session.my_turn:
            return
        naturals = sorted(k for k in keys if k != "*")
        jokers = len(keys) - len(naturals)
        options = {
            tuple(declared)
            for m in self.session.observation().legal_moves
            for naturals_m, declared in [play_tokens(str(m))]
            if is_play(str(m)) and sorted(naturals_m) == naturals and len(declared) == jokers
        }
        if len(options) == 1:
            for dropdown, rank in zip(self._jokers, options.pop(), strict=False):
                dropdown.value = rank

    # -- handlers --

    @guarded
    def _on_play(self, button: widgets.Button) -> None:
        self.submit(self.preview_move())

    @guarded
    def _on_pass(self, button: widgets.Button) -> None:
        self.submit("pass")

    @guarded
    def _on_pitch(self, button: widgets.Button) -> None:
        moves = [f"pitch {key}" for key in self._hand.selected_keys] + ["done"]
        self.submit_sequence(moves)

    @guarded
    def _on_joker(self, change: dict[str, Any]) -> None:
        self._verdict = None
        self._refresh_explanation()
