"""The Too Sloth To Win play board: track, table, hand, drink declaration, passing with a take.

Round ends (TS-10..TS-12, TS-16): the engine deals the next round in the same step as the play
that ends a round, so its observation already shows the new round. The board therefore shows a
round's end in two steps the player presses through, and holds the bots meanwhile:

1. the play (or pass) that ended the round, on the table and the track, with the figures as they
   were before the awards;
2. the round's results (who took a Trophy or a Cash Chip, and why), then the next deal.

The last round needs no such steps: the engine deals nothing after it, so its last play stays on
the table and the track beside the game-over panel.

Until a step is shown, the log, the seats, the standings and the game-over panel hold back what
it would tell (see :meth:`TooSlothBoard.held_back`).
"""

from __future__ import annotations

import dataclasses
import html
from typing import Any, cast

import ipywidgets as widgets
from sloth_widgets.board import GameBoard
from sloth_widgets.guard import guarded
from sloth_widgets.hand import HandCard
from sloth_widgets.markup import face_css

from sloth_kernel.core import seat_name
from sloth_kernel.errors import counted
from sloth_kernel.games.too_sloth_to_win.combos import DRINK, DRINK_BASE, card_value, combo_name
from sloth_kernel.games.too_sloth_to_win.engine import (
    ROUND_START,
    SEAT_COLOURS,
    Play,
    RoundResult,
    TooSlothConfig,
    TooSlothObservation,
)
from sloth_kernel.games.too_sloth_to_win.render import DRINK_COLOUR, card_face, hand_faces, hands
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


def names(seats: list[int] | tuple[int, ...]) -> str:
    """'Player 1', 'Player 1 and Player 3', 'Player 1, Player 2 and Player 4'."""
    words = [seat_name(s) for s in seats]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def result_words(result: RoundResult) -> str:
    """How a round ended and who took what, in words (TS-10..TS-12, TS-16)."""
    first, second, note = result.first, result.second, result.note
    if first is None:
        return "Nobody could lead (every hand held only drinks): no Trophy and no Cash Chip (TS-16)."
    if note == "lone survivor":
        return f"{seat_name(first)} was the last one left in the race: first, with a Trophy and a Cash Chip (TS-12)."
    text = f"{seat_name(first)} finished first and took a Trophy"
    if note == "suspicious organizers":
        return (
            text + "; someone had been eliminated before, so the organizers grew suspicious: a Cash Chip too (TS-10)."
        )
    if note == "everyone else eliminated":
        return text + "; everyone else still held a drink and was eliminated, so a Cash Chip too (TS-10)."
    if second is not None:
        how = "as the only one left" if note == "last player standing" else "next"
        return text + f"; {seat_name(second)} finished second ({how}) and took the Cash Chip (TS-11)."
    chips = names(result.chip) if result.chip else "nobody"
    return text + f"; Cash Chip: {chips}."


@dataclasses.dataclass(frozen=True)
class RoundEnd:
    """A round's end as the log tells it: indices into the log, and the round's result."""

    index: int  # which round result (0-based)
    result: RoundResult
    move_event: int  # the log index of the play or pass that ended the round
    next_start: int  # the log index of the next round's deal (len(log) after the last round)


def round_ends(obs: TooSlothObservation) -> list[RoundEnd]:
    """Every finished round's end, found in the public log (a round ends on its last move)."""
    log = obs.log
    starts = [i for i, e in enumerate(log) if e.kind == ROUND_START]
    ends = []
    for index, result in enumerate(obs.results):
        stop = starts[index + 1] if index + 1 < len(starts) else len(log)
        moves = [i for i in range(stop) if log[i].move is not None]
        if not moves:
            break
        ends.append(RoundEnd(index, result, moves[-1], stop))
    return ends


class TooSlothBoard(GameBoard[TooSlothObservation]):
    """``TooSlothBoard()``: you against three heuristic bots; a fresh, secret deal unless ``seed=…`` chooses one.

    See :class:`GameBoard`.
    """

    game_name = "too-sloth-to-win"
    title = "Too Sloth To Win"

    def __init__(self, seed: int | None = None, seats: list[str] | None = None, **options: Any) -> None:
        self._rounds_shown = 0  # round ends the player has stepped through
        self._stage = 0  # of the round end under way: 0 its last play shown, 1 its results shown
        self._revealed_session: Any = None
        self._scene_cache: dict[tuple[int, int, int | None], Any] = {}
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
        obs = self._scene(obs) or obs
        hand = obs.hands[self.session.viewer] if self.session.viewer is not None else None
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
        return my_turn and self._pending(obs) is None

    def hinted_keys(self, obs: TooSlothObservation) -> set[str]:
        keys: set[str] = set()
        for move in obs.legal_moves:
            text = str(move)
            if not text.startswith("pass"):
                keys.update(move_keys(text))
        return keys

    def seat_facts(self, obs: TooSlothObservation, seat: int) -> list[str]:
        obs = self._scene(obs) or obs
        facts = []
        if not obs.no_board:
            space = min(obs.positions[seat], obs.finish)
            facts.append("at the finish" if space == obs.finish else f"space {space}")
        facts.append(counted(obs.hand_sizes[seat] - obs.drinks_held[seat], "card"))  # running cards; drinks next
        facts.append(counted(obs.drinks_held[seat], "drink") if obs.drinks_held[seat] else "no drink")
        facts.append(counted(obs.trophies[seat], "Trophy", "Trophies"))
        facts.append(counted(obs.chips[seat], "Cash Chip"))
        return facts

    def seat_status(self, obs: TooSlothObservation, seat: int) -> str:
        obs = self._scene(obs) or obs
        status = str(obs.status[seat])
        if status in ("1st", "2nd"):
            return f"finished {status}"
        if status.startswith("out"):
            return "out: " + status.split(": ", 1)[1] if ": " in status else "out"
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
            return "lead any combination: a Single, a Jump or a Run (TS-5)"
        beat = f"beat the {combo_name(obs.table)}"
        if len(obs.table) == 1:
            return f"{beat}, or pass and be eliminated from the round (TS-7)"
        return f"{beat}, or pass and take a card from one end of it (TS-6)"

    def held_back(self, obs: TooSlothObservation) -> int:
        end = self._pending(obs)
        if end is None:
            return 0
        shown = end.move_event + 1 if self._stage == 0 else end.next_start
        return max(0, len(obs.log) - shown)

    def picture(self, obs: TooSlothObservation, private: bool) -> str:
        end = self._pending(obs)
        scene = self._scene(obs)
        if end is not None and scene is not None:
            return self._round_end_picture(obs, scene, end, private)
        parts = [f'<div class="sk-ts-head">{html.escape(self._head(obs))}</div>']
        if obs.suspicious and not obs.is_over:
            parts.append(
                '<div class="sk-ts-banner">Someone is out, so the organizers are suspicious: whoever finishes '
                "first also takes a Cash Chip and ends the round (TS-10).</div>"
            )
        parts.append(self._board_parts(obs, private))
        return "".join(parts)

    def standings(self, obs: TooSlothObservation) -> str:
        shown = self._results_shown(obs)
        if not shown:
            return ""
        items = "".join(f"<li><b>Round {r.round + 1}:</b> {html.escape(result_words(r))}</li>" for r in shown)
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
            "<div>The winner has the most Cash Chips; on a tie, the most Trophies; on a tie again, the Cash "
            "Chip gained most recently (TS-14).</div>"
            f'<ul class="sk-ts-figures" aria-label="Each player\'s figures">{figures}</ul>'
        )

    def update_controls(self, obs: TooSlothObservation, my_turn: bool) -> None:
        my_turn = my_turn and self._pending(obs) is None
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
            self._pass_button.description = "Pass (you are eliminated, TS-7)"
        elif len(passes) == 1 and obs.table:
            self._pass_button.description = f"Pass and {take_label(passes[0])}"
        else:
            self._pass_button.description = "Pass"
        self._pass_button.tooltip = "; ".join(take_label(p) for p in passes) or "pass (not possible now)"
        self._show_declare()
        pending = self._pending(obs)
        self._continue.layout.display = "" if pending is not None else "none"
        if pending is not None:
            number = pending.result.round + 1
            self._continue.description = (
                f"Show the results of round {number}" if self._stage == 0 else f"Deal round {number + 1}"
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

    def staged_note(self, obs: TooSlothObservation) -> str | None:
        """While a round's end is shown: no words (the last move's would repeat the newest log
        line, which may be the next deal)."""
        return "" if self._pending(obs) is not None else None

    def bots_wait(self, obs: TooSlothObservation) -> bool:
        """The bots wait while the player steps through a round's end."""
        return self._pending(obs) is not None

    def pacing_step(self) -> bool | None:
        """No bot moves while the player is still looking at a round's end."""
        return False if self._pending(self.session.observation()) is not None else None

    def before_bots_run(self) -> None:
        """Asked while a round's end is shown, the bots move on past it (an explicit request)."""
        self._skip_round_end()

    def bots_may_go_on(self) -> bool:
        """Bots stop at a round's end: it is shown first."""
        return self._pending(self.session.observation()) is None

    def before_own_move(self) -> None:
        """The controls are off while a round's end is shown; a move sent anyway moves on."""
        self._skip_round_end()

    def _skip_round_end(self) -> None:
        end = self._pending(self.session.observation())
        if end is not None:
            self._rounds_shown, self._stage = end.index + 1, 0

    def _head(self, obs: TooSlothObservation) -> str:
        mode = "No-Board variant: empty your hand to finish" if obs.no_board else f"finish at space {obs.finish}"
        return f"Round {min(obs.round + 1, obs.rounds)} of {obs.rounds} · {mode}"

    def _board_parts(self, obs: TooSlothObservation, private: bool, *, ended: bool = False) -> str:
        if obs.table:
            owner = seat_name(obs.table_owner)
            caption = f"<b>{html.escape(combo_name(obs.table))}</b> by {html.escape(owner)}"
            if not obs.is_over and not ended:
                caption += " — beat it or pass" + (
                    " (passing on a Single eliminates you, TS-7)" if len(obs.table) == 1 else ""
                )
            table = (
                kit.card_row([kit.card_svg(card_face(c), width=60, title=card_title(c)) for c in obs.table])
                + f"<div>{caption}</div>"
            )
        else:
            table = '<div class="sk-empty">Empty table: the leader plays any combination (TS-5).</div>'
        parts = []
        if not obs.no_board:
            parts.append(kit.panel("Track", self._track(obs)))
        parts.append(kit.panel("On the table", table, css="sk-ts-table"))
        if self.session.mode == "watch" and private:
            parts.append(kit.panel("Hands (teacher's view)", hands(obs)))
        return "".join(parts)

    def _track(self, obs: TooSlothObservation) -> str:
        """Spaces 0 to the finish with a meeple per player; never past the finish (TS-16)."""
        cells = []
        for space in range(obs.finish + 1):
            here = [s for s in range(obs.players) if min(obs.positions[s], obs.finish) == space]
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

    def _round_end_picture(self, obs: TooSlothObservation, scene: Any, end: RoundEnd, private: bool) -> str:
        number = end.result.round + 1
        log = obs.log
        if self._stage == 0:
            banner = (
                f"<b>Round {number} is over.</b> This ended it: {html.escape(log[end.move_event].text)} "
                "The results come next."
            )
        else:
            banner = f"<b>Round {number} results.</b> {html.escape(result_words(end.result))}"
        head = f"Round {number} of {obs.rounds} · " + (
            "No-Board variant: empty your hand to finish" if obs.no_board else f"finish at space {obs.finish}"
        )
        return (
            f'<div class="sk-ts-head">{html.escape(head)}</div>'
            f'<div class="sk-ts-banner sk-ts-round-end" role="status">{banner}</div>'
            + self._board_parts(scene, private, ended=True)
        )

    # -- round ends --

    def _sync_session(self) -> None:
        if self._revealed_session is not self.session:
            self._revealed_session = self.session
            self._rounds_shown = 0
            self._stage = 0
            self._scene_cache.clear()

    def _pending(self, obs: TooSlothObservation) -> RoundEnd | None:
        """The round end the player has not stepped through yet, if any."""
        if not hasattr(self, "_continue"):
            return None
        self._sync_session()
        ends = round_ends(obs)
        while self._rounds_shown < len(ends):
            end = ends[self._rounds_shown]
            if obs.is_over and end.index == len(obs.results) - 1:
                return None  # the last round: its last play stays on the table beside the game-over panel
            later = any(e.move is not None for e in obs.log[end.next_start :])
            if not later:  # nobody has moved since: show this end step by step
                return end
            self._rounds_shown += 1  # play went on (e.g. from code): nothing left to reveal there
            self._stage = 0
        return None

    def _results_shown(self, obs: TooSlothObservation) -> tuple[RoundResult, ...]:
        end = self._pending(obs)
        if end is None:
            return tuple(obs.results)
        return tuple(obs.results[: end.index + (1 if self._stage else 0)])

    def _scene(self, obs: TooSlothObservation) -> TooSlothObservation | None:
        """During a round end: the table as the player sees it at that step (else None)."""
        end = self._pending(obs)
        if end is None:
            return None
        key = (end.index, self._stage, obs.player)
        if key not in self._scene_cache:
            self._scene_cache[key] = self._build_scene(obs, end)
        return cast(TooSlothObservation, self._scene_cache[key])

    def _build_scene(self, obs: TooSlothObservation, end: RoundEnd) -> TooSlothObservation:
        """The end of a round: the state before its last move (replayed), with that move made."""
        state = self.session.state
        moves_before = sum(1 for e in obs.log[: end.move_event] if e.move is not None)
        record = state.to_record()
        record["moves"] = record["moves"][:moves_before]
        before_state = state.game.replay(record)
        before: TooSlothObservation = (
            before_state.view() if obs.player is None else before_state.observation(obs.player)
        )
        move = state.history[moves_before]
        mover = obs.log[end.move_event].player
        positions, sizes, drinks = list(before.positions), list(before.hand_sizes), list(before.drinks_held)
        hand_list = list(before.hands)
        table, owner = before.table, before.table_owner
        if isinstance(move, Play) and mover is not None:
            table, owner = move.cards, mover
            positions[mover] += len(move.cards)
            sizes[mover] -= len(move.cards)
            used = sum(1 for c in move.cards if c > DRINK_BASE)
            drinks[mover] -= used
            hand = hand_list[mover]
            if hand is not None:
                counts = list(hand)
                for c in move.cards:
                    counts[DRINK if c > DRINK_BASE else c] -= 1
                hand_list[mover] = tuple(counts)
        scene = dataclasses.replace(
            before,
            is_over=False,
            legal_moves=(),
            table=table,
            table_owner=owner,
            positions=tuple(positions),
            hand_sizes=tuple(sizes),
            drinks_held=tuple(drinks),
            hands=tuple(hand_list),
            results=before.results,
        )
        if self._stage == 0:
            return scene
        status = list(scene.status)
        for e in obs.log[end.move_event : end.next_start]:
            if e.player is not None and "eliminated from the round" in e.text:
                status[e.player] = "out: " + e.text.split(": ", 1)[-1].rstrip(".")
        result = end.result
        if result.first is not None:
            status[result.first] = "1st"
        if result.second is not None:
            status[result.second] = "2nd"
        return dataclasses.replace(
            scene,
            status=tuple(status),
            chips=obs.chips,
            trophies=obs.trophies,
            results=tuple(obs.results[: end.index + 1]),
        )

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
        obs = self.session.observation()
        end = self._pending(obs)
        if end is None:
            return
        if self._stage == 0:
            self._stage = 1
        else:
            self._rounds_shown = end.index + 1
            self._stage = 0
        self.moved_on()

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
