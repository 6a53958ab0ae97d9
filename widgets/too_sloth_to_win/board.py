"""The Too Sloth To Win play board: track, table, hand, drink declaration, passing with a take.

Round ends (TS-10..TS-12, TS-16): the engine deals the next round in the same step as the play
that ends a round, and marks the round's results (``ROUND_RESULTS``) and the next deal
(``ROUND_START``) as staged steps (:mod:`sloth_widgets.reveal`). The person presses through them,
and the bots wait meanwhile:

1. the play (or pass) that ended the round, on the table and the track, with the figures as they
   were before the awards;
2. the round's results (who took a Trophy or a Cash Chip, and why), then the next deal.

What each step shows is the observation's ``round_end``, kept by the engine. The last round needs no
such steps: the engine deals nothing after it, so its last play stays on the table and the track
beside the game-over panel.
"""

from __future__ import annotations

import html
from typing import Any, cast

import ipywidgets as widgets
from sloth_widgets.board import GameBoard
from sloth_widgets.guard import guarded
from sloth_widgets.hand import HandCard
from sloth_widgets.markup import face_css

from sloth_kernel.core import seat_name
from sloth_kernel.errors import counted
from sloth_kernel.games.too_sloth_to_win.combos import DRINK_BASE, card_value, combo_kind, combo_name
from sloth_kernel.games.too_sloth_to_win.engine import (
    ELIMINATING_PASS,
    EMPTY_TABLE,
    LEAD_ANY,
    OR_ELIMINATED,
    OR_TAKE,
    SEAT_COLOURS,
    SINGLE_PASS,
    SUSPICIOUS,
    WINNER_RULE,
    RoundEnd,
    RoundResult,
    TooSlothConfig,
    TooSlothObservation,
)
from sloth_kernel.games.too_sloth_to_win.render import DRINK_COLOUR, card_face, hand_blocks, hand_faces
from sloth_kernel.render import kit

FACE_PREFIX = "sk-f-ts-"

BOARD_CSS = """
<style>
.sk-ts-track{display:grid;gap:3px;grid-template-columns:repeat(var(--sk-spaces),minmax(0,1fr));max-width:640px}
.sk-ts-space{min-height:46px;border:1px solid #b9b9a8;border-radius:6px;background:#f3efe0;text-align:center;
  display:flex;flex-direction:column;align-items:center;gap:1px;padding:1px 0;min-width:0}
.sk-ts-space.sk-ts-finish{background:repeating-linear-gradient(45deg,#222 0 6px,#fff 6px 12px)}
.sk-ts-space-n{font-size:11px;color:#555;line-height:14px}
.sk-ts-finish .sk-ts-space-n{background:#222;color:#fff;border-radius:4px;padding:0 3px}
.sk-ts-meeple{display:block;width:18px;height:18px;border-radius:9px 9px 3px 3px;color:#fff;font-size:11px;
  font-weight:700;line-height:18px;text-align:center}
.sk-ts-head{font-weight:600;margin:2px 0 4px 0}
.sk-ts-banner{background:#fff4cc;border:2px solid #b38600;border-radius:8px;padding:6px 10px;margin:4px 0}
.sk-ts-table .sk-cards{display:flex;flex-wrap:wrap;gap:4px}
.sk-ts-results{margin:4px 0;padding-left:1.2em}
.sk-ts-results li{margin:2px 0}
.sk-ts-figures{margin:4px 0;padding-left:1.2em}
.sk-board .sk-declare .widget-toggle-buttons,.sk-board .widget-toggle-buttons.sk-declare,
.sk-board .widget-toggle-buttons.sk-take{flex-wrap:wrap;max-width:100%}
.sk-board .sk-declare .widget-toggle-button,.sk-board .sk-take .widget-toggle-button{min-width:30px;min-height:32px}
.sk-board .sk-declare .widget-label,.sk-board .sk-take .widget-label{width:auto;min-width:0;padding-right:6px}
.sk-board .sk-ts-continue{font-weight:700}
</style>
"""


def drink_face() -> kit.CardFace:
    return kit.CardFace("D", DRINK_COLOUR, "glass", "drink", kind="wild")


def card_title(card: int) -> str:
    """A table card in words: '5', or 'Suspicious Drink counted as 5'."""
    return f"Suspicious Drink counted as {card_value(card)}" if card > DRINK_BASE else str(card)


def move_keys(move_text: str) -> list[str]:
    """Hand keys a play uses, read from its notation ('4-D5-6' -> ['4', 'D', '6'])."""
    return ["D" if token.startswith("D") else token for token in move_text.split("-")]


def take_label(pass_text: str) -> str:
    word = pass_text.split()[1] if " " in pass_text else ""
    return "take nothing" if not word else "take the drink" if word == "D" else f"take the {word}"


def or_list(words: list[str]) -> str:
    """'2', '2 or 4', '2, 4 or 8'."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def names(seats: list[int] | tuple[int, ...]) -> str:
    """'Player 1', 'Player 1 and Player 3', 'Player 1, Player 2 and Player 4'."""
    words = [seat_name(s) for s in seats]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


class TooSlothBoard(GameBoard[TooSlothObservation]):
    """``TooSlothBoard()``: you against three heuristic bots; a fresh, secret deal unless ``seed=…`` chooses one.

    See :class:`GameBoard`.
    """

    game_name = "too-sloth-to-win"
    title = "Too Sloth To Win"
    person_steps_reveals = True  # a round's end waits for the person

    def __init__(self, seed: int | None = None, seats: list[str] | None = None, **options: Any) -> None:
        super().__init__(seed, seats, **options)

    # -- hooks --

    def setup_options(self) -> dict[str, widgets.ValueWidget]:
        config = cast(TooSlothConfig, self.session.game.config)
        return {"no_board": widgets.Checkbox(description="No-Board variant", value=config.no_board)}

    def face_styles(self) -> str:
        faces = {f"{FACE_PREFIX}{n}": card_face(n) for n in range(1, 9)}
        faces[f"{FACE_PREFIX}D"] = drink_face()
        return face_css(faces) + BOARD_CSS

    def build_table(self) -> list[widgets.Widget]:
        self._continue = widgets.Button(
            description="Show the results", button_style="primary", layout=widgets.Layout(width="auto")
        )
        self._continue.add_class("sk-ts-continue")
        self._continue.on_click(self._on_continue)
        self._continue.layout.display = "none"
        return [self._continue]

    def build_controls(self) -> list[widgets.Widget]:
        self._play_button = widgets.Button(description="Play selected", button_style="success")
        self._play_button.add_class("sk-play")
        self._play_button.on_click(self._on_play)
        self._declare = widgets.ToggleButtons(
            options=[str(n) for n in range(1, 10)],
            value=None,
            description="Drink counts as",
            tooltips=[f"the drink counts as {n}" for n in range(1, 10)],
            style={"button_width": "32px", "description_width": "initial"},
        )
        self._declare.add_class("sk-declare")
        self._declare.observe(self._on_declare, "value")
        self._declare_box = widgets.HBox([self._declare], layout=widgets.Layout(flex_flow="row wrap"))
        self._pass_button = widgets.Button(
            description="Pass", button_style="warning", layout=widgets.Layout(width="auto")
        )
        self._pass_button.add_class("sk-pass")
        self._pass_button.on_click(self._on_pass)
        self._take = widgets.ToggleButtons(
            options=[],
            value=None,
            description="When passing",
            style={"button_width": "auto", "description_width": "initial"},
        )
        self._take.add_class("sk-take")
        self._take.observe(self._on_take, "value")
        return [self._play_button, self._declare_box, self._pass_button, self._take, self.hints_toggle]

    def hand_cards(self, obs: TooSlothObservation) -> list[HandCard]:
        scene = self._scene(obs)
        hands = scene.hands if scene is not None else obs.hands
        hand = hands[self.session.viewer] if self.session.viewer is not None else None
        if hand is None:
            return []
        return [
            HandCard(
                key,
                FACE_PREFIX + key,
                "Suspicious Drink (counts as any number from 1 to 9 in a Jump or Run)" if key == "D" else key,
            )
            for key, _ in hand_faces(hand)
        ]

    def hand_enabled(self, obs: TooSlothObservation, my_turn: bool) -> bool:
        return my_turn and self._scene(obs) is None

    def hinted_keys(self, obs: TooSlothObservation) -> set[str]:
        keys: set[str] = set()
        for move in obs.legal_moves:
            text = str(move)
            if not text.startswith("pass"):
                keys.update(move_keys(text))
        return keys

    def hint_shapes(self, obs: TooSlothObservation) -> list[str]:
        """'Singles: 2, 4 or 8', 'Jumps of 2: 4s or 7s', 'Runs of 3, ending at 5 or 6' (drinks counted as declared)."""
        tops: dict[tuple[str, int], set[int]] = {}
        for move in obs.legal_moves:
            cards = getattr(move, "cards", ())
            kind = combo_kind(cards) if cards else None
            if kind is not None:
                tops.setdefault((kind, len(cards)), set()).add(max(card_value(c) for c in cards))
        order = {"single": 0, "jump": 1, "run": 2}
        said = []
        for (kind, size), values in sorted(tops.items(), key=lambda item: (order[item[0][0]], item[0][1])):
            numbers = [str(v) for v in sorted(values)]
            if kind == "single":
                said.append(f"Singles: {or_list(numbers)}")
            elif kind == "jump":
                said.append(f"Jumps of {size}: {or_list([n + 's' for n in numbers])}")
            else:
                said.append(f"Runs of {size}, ending at {or_list(numbers)}")
        return said

    def seat_facts(self, obs: TooSlothObservation, seat: int) -> list[str]:
        scene, results = self._scene(obs), self._results_step(obs)
        now: TooSlothObservation | RoundEnd = scene if scene is not None else obs
        facts = []
        if not obs.no_board:
            space = min(now.positions[seat], obs.finish)
            facts.append("at the finish" if space == obs.finish else f"space {space}")
        facts.append(counted(now.hand_sizes[seat] - now.drinks_held[seat], "card"))  # running cards; drinks next
        facts.append(counted(now.drinks_held[seat], "drink") if now.drinks_held[seat] else "no drink")
        trophies = scene.trophies_before if scene is not None and not results else now.trophies
        chips = scene.chips_before if scene is not None and not results else now.chips
        facts.append(counted(trophies[seat], "Trophy", "Trophies"))
        facts.append(counted(chips[seat], "Cash Chip"))
        return facts

    def seat_status(self, obs: TooSlothObservation, seat: int) -> str:
        scene = self._scene(obs)
        if scene is None:
            status = str(obs.status[seat])
        else:
            status = (scene.status if self._results_step(obs) else scene.status_before)[seat]
        if status in ("1st", "2nd"):
            return f"finished {status}"
        if status.startswith("out"):
            return "out: " + status.split(": ", 1)[1] if ": " in status else "out"
        if scene is not None:
            return "active"
        if obs.is_over:
            return "did not finish"
        parts = ["active"]
        if obs.pacemaker == seat:
            parts.append("pacemaker")
        if obs.table and obs.passed[seat]:
            parts.append("passed")
        return ", ".join(parts)

    def turn_hint(self, obs: TooSlothObservation) -> str:
        if not obs.table:
            return LEAD_ANY.text
        beat = f"beat the {combo_name(obs.table)}"
        if len(obs.table) == 1:
            return f"{beat}, {OR_ELIMINATED.text}"
        return f"{beat}, {OR_TAKE.text}"

    def picture(self, obs: TooSlothObservation, private: bool) -> str:
        scene = self._scene(obs)
        if scene is not None:
            return self._round_end_picture(obs, scene, private)
        parts = [f'<div class="sk-ts-head">{html.escape(self._head(obs))}</div>']
        if obs.suspicious and not obs.is_over:
            parts.append(f'<div class="sk-ts-banner">{html.escape(SUSPICIOUS.text)}</div>')
        parts.append(self._board_parts(obs, obs.table, obs.table_owner, obs.positions, private))
        return "".join(parts)

    def standings(self, obs: TooSlothObservation) -> str:
        shown = self._results_shown(obs)
        if not shown:
            return ""
        items = "".join(f"<li><b>Round {r.round + 1}:</b> {html.escape(r.text)}</li>" for r in shown)
        return kit.panel("Rounds", f'<ol class="sk-ts-results" aria-label="Round results">{items}</ol>')

    def summary(self, obs: TooSlothObservation) -> str:
        winner = obs.winner
        if winner is None:
            return "<div><b>Game over.</b></div>"
        n = obs.players

        def chip_rounds(seat: int) -> list[int]:
            return [r.round + 1 for r in obs.results if seat in r.chip]

        def trophy_rounds(seat: int) -> list[int]:
            return [r.round + 1 for r in obs.results if seat in r.trophy]

        def rounds_words(rounds: list[int]) -> str:
            if not rounds:
                return ""
            return (
                " (round " + ", ".join(str(r) for r in rounds) + ")"
                if len(rounds) == 1
                else (" (rounds " + ", ".join(str(r) for r in rounds[:-1]) + f" and {rounds[-1]})")
            )

        def who(seat: int) -> str:
            name = seat_name(seat)
            return f"{name} (you)" if seat == self.session.viewer and self.session.mode == "bots" else name

        most = max(obs.chips)
        tied = [s for s in range(n) if obs.chips[s] == most]
        if len(tied) == 1:
            why = f"{who(winner)} has the most Cash Chips: {most}."
        else:
            why = f"{names(tied)} have {counted(most, 'Cash Chip')} each"
            best = max(obs.trophies[s] for s in tied)
            still = [s for s in tied if obs.trophies[s] == best]
            if len(still) == 1:
                others = ", ".join(f"{seat_name(s)}: {obs.trophies[s]}" for s in tied if s != winner)
                why += f"; {who(winner)} has more Trophies: {best} ({others})."
            else:
                why += f"; {names(still)} have {counted(best, 'Trophy', 'Trophies')} each"
                last = chip_rounds(winner)
                if last:
                    why += f"; {who(winner)} gained a Cash Chip most recently, in round {last[-1]}."
                else:
                    why += f"; nobody among them ever gained a Cash Chip, and {who(winner)} is the first of them in seat order."
        figures = "".join(
            f"<li>{html.escape(who(s))}: {counted(obs.chips[s], 'Cash Chip')}{rounds_words(chip_rounds(s))}, "
            f"{counted(obs.trophies[s], 'Trophy', 'Trophies')}{rounds_words(trophy_rounds(s))}</li>"
            for s in range(n)
        )
        return (
            f"<div><b>Game over: {html.escape(who(winner))} wins.</b> {html.escape(why)}</div>"
            f"<div>{html.escape(WINNER_RULE.text)}</div>"
            f'<ul class="sk-ts-figures" aria-label="Each player\'s figures">{figures}</ul>'
        )

    def update_controls(self, obs: TooSlothObservation, my_turn: bool) -> None:
        scene = self._scene(obs)
        my_turn = my_turn and scene is None
        passes = [str(m) for m in obs.legal_moves if str(m).startswith("pass")] if my_turn else []
        plays = [m for m in obs.legal_moves if not str(m).startswith("pass")] if my_turn else []
        options = [(take_label(p), p) for p in passes]
        # off turn the choice is hidden and kept as it was: nothing to send until the next turn
        if my_turn and list(self._take.options) != options:
            self._take.options = options
            self._take.tooltips = [f"pass and {label}" for label, _ in options]
            self._take.value = passes[0] if len(passes) == 1 else None
        self._take.layout.display = "" if len(passes) > 1 else "none"
        self._play_button.disabled = not (my_turn and plays)
        self._pass_button.disabled = not (my_turn and passes)
        if passes == ["pass"] and obs.table:
            self._pass_button.description = f"Pass ({ELIMINATING_PASS.text})"
        elif len(passes) == 1 and obs.table:
            self._pass_button.description = f"Pass and {take_label(passes[0])}"
        else:
            self._pass_button.description = "Pass"
        self._pass_button.tooltip = "; ".join(take_label(p) for p in passes) or "pass (not possible now)"
        self._show_declare()
        self._continue.layout.display = "" if scene is not None else "none"
        if scene is not None:
            number = scene.result.round + 1
            self._continue.description = (
                f"Deal round {number + 1}" if self._results_step(obs) else f"Show the results of round {number}"
            )

    def preview_move(self) -> str | None:
        keys = self.hand.selected_keys
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

    # -- the board's own parts --

    def _head(self, obs: TooSlothObservation) -> str:
        mode = "No-Board variant: empty your hand to finish" if obs.no_board else f"finish at space {obs.finish}"
        return f"Round {min(obs.round + 1, obs.rounds)} of {obs.rounds} · {mode}"

    def _board_parts(
        self,
        obs: TooSlothObservation,
        on_table: tuple[int, ...],
        owner: int,
        positions: tuple[int, ...],
        private: bool,
        *,
        scene: RoundEnd | None = None,
    ) -> str:
        """The track and the table: now, or (`scene`) as a round ended."""
        if on_table:
            caption = f"<b>{html.escape(combo_name(on_table))}</b> by {html.escape(seat_name(owner))}"
            if not obs.is_over and scene is None:
                caption += " — beat it or pass" + (f" ({SINGLE_PASS.text})" if len(on_table) == 1 else "")
            table = (
                kit.card_row([kit.card_svg(card_face(c), width=60, title=card_title(c)) for c in on_table])
                + f"<div>{caption}</div>"
            )
        else:
            table = f'<div class="sk-empty">{html.escape(EMPTY_TABLE.text)}</div>'
        parts = []
        if not obs.no_board:
            parts.append(kit.panel("Track", self._track(obs, positions)))
        parts.append(kit.panel("On the table", table, css="sk-ts-table"))
        if self.session.mode == "watch" and private:
            shown = (scene.hands, scene.hand_sizes) if scene is not None else (obs.hands, obs.hand_sizes)
            parts.append(kit.panel("Hands (teacher's view)", hand_blocks(*shown)))
        return "".join(parts)

    def _track(self, obs: TooSlothObservation, positions: tuple[int, ...]) -> str:
        """Spaces 0 to the finish with a meeple per player; never past the finish (TS-16)."""
        cells = []
        for space in range(obs.finish + 1):
            here = [s for s in range(obs.players) if min(positions[s], obs.finish) == space]
            meeples = "".join(
                f'<span class="sk-ts-meeple" style="background:{SEAT_COLOURS[s]}" title="{kit.esc(seat_name(s))}" '
                f'aria-hidden="true">{s + 1}</span>'
                for s in here
            )
            finish = space == obs.finish
            label = str(space)  # the checkered cell is the finish (its name says so; the heading too)
            words = ("the finish" if finish else f"space {space}") + (": " + names(here) if here else ": nobody")
            css = "sk-ts-space sk-ts-finish" if finish else "sk-ts-space"
            cells.append(
                f'<div class="{css}" role="listitem" aria-label="{kit.esc(words)}" title="{kit.esc(words)}">'
                f'<span class="sk-ts-space-n" aria-hidden="true">{label}</span>{meeples}</div>'
            )
        return (
            f'<div class="sk-ts-track" role="list" aria-label="Track" style="--sk-spaces:{obs.finish + 1}">'
            f"{''.join(cells)}</div>"
        )

    def _round_end_picture(self, obs: TooSlothObservation, scene: RoundEnd, private: bool) -> str:
        number = scene.result.round + 1
        if self._results_step(obs):
            banner = f"<b>Round {number} results.</b> {html.escape(scene.result.text)}"
        else:
            reveal = self.revealed(obs)
            ending = [e for e in obs.log[: reveal.starts[0]] if e.move is not None][-1:]  # the move shown
            said = f"This ended it: {html.escape(ending[0].text)} " if ending else ""
            banner = f"<b>Round {number} is over.</b> {said}The results come next."
        head = f"Round {number} of {obs.rounds} · " + (
            "No-Board variant: empty your hand to finish" if obs.no_board else f"finish at space {obs.finish}"
        )
        return (
            f'<div class="sk-ts-head">{html.escape(head)}</div>'
            f'<div class="sk-ts-banner sk-ts-round-end" role="status">{banner}</div>'
            + self._board_parts(obs, scene.table, scene.table_owner, scene.positions, private, scene=scene)
        )

    # -- round ends: the staged steps (the observation's round_end) --

    def _scene(self, obs: TooSlothObservation) -> RoundEnd | None:
        """While a round's end is being stepped through: that round's end, as the engine kept it."""
        return obs.round_end if self.revealed(obs).pending else None

    def _results_step(self, obs: TooSlothObservation) -> bool:
        """Are the results of the round's end under way on view (its second step)?"""
        return self._scene(obs) is not None and self.revealed(obs).at >= 1

    def _results_shown(self, obs: TooSlothObservation) -> tuple[RoundResult, ...]:
        if self._scene(obs) is None or self._results_step(obs):
            return tuple(obs.results)
        return tuple(obs.results[:-1])

    # -- drink declaration --

    def _show_declare(self) -> None:
        self._declare_box.layout.display = "" if "D" in self.hand.selected_keys else "none"

    def _suggest_declaration(self) -> None:
        """If exactly one legal play matches the selection with a drink, preselect its number."""
        keys = self.hand.selected_keys
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
    def _on_continue(self, button: widgets.Button) -> None:
        """The next step of a round's end: its results, then the next deal."""
        self.show_next_step()

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
        self.choice_changed()

    @guarded
    def _on_take(self, change: dict[str, Any]) -> None:
        if change["new"]:
            self.show_preview(change["new"])
