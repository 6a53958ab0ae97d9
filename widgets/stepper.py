"""Step through any game record, one move at a time, with the rule each move applied.

Two layers:

- :class:`Timeline` is the logic: the states of a record, rebuilt with the
  public protocol (``game.replay`` for the deal, ``state.play`` for each move),
  and what each step says (narration, the engine's explanation, rule words).
- :class:`StepThrough` is the widget: Back / Play / Next and a scrubber around
  one idempotent :meth:`StepThrough.render`. ``record``, ``step`` and ``seat``
  are traits, so a notebook can jump to "the interesting moment" from code::

      stepper = StepThrough(final_state)          # a state, a record dict or its JSON
      stepper.step = stepper.find("eliminated")   # first step whose narration says so

Step 0 is the deal; step k is the position after the k-th move of the record.
``StepThrough(record, seat=s, seat_only=True)`` is seat `s`'s own replay (a seat's page after the
game): only ``observation(s)`` at each step reaches its widgets, and no other view can be chosen.
The widget never decides a rule: every word about legality comes from the engine.

"Ask why" puts a student's question to the engine at the moment a step shows (the position
where its move was chosen): "why can't Player 3 play 7-7 here?", "what would 4-4-4 have
done?" In the teacher's view it asks ``state.ask`` (every hand open); as a seat sees it, it
asks ``state.ask_as`` and the answer holds only what that seat may know.
"""

from __future__ import annotations

import dataclasses
import html
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

import ipywidgets as widgets
import traitlets
from sloth_widgets.ask import AskWhy
from sloth_widgets.markup import RULE_STYLE, rule_text

from sloth_kernel import Event, Explanation, GameState, load_game
from sloth_kernel.core import seat_name
from sloth_kernel.errors import ConfigError, RecordError
from sloth_kernel.render import kit, render_observation

CHECKPOINT_EVERY = 32  # keep every 32nd state; others are replayed from the nearest one
PLAY_INTERVAL_MS = 1100
TEACHER = -1  # the View dropdown's value for the teacher's view (a dropdown shows a None value as blank)

Record = Mapping[str, Any]
# A state of any game, spelled once: the stepper replays every game alike. A string, so that it is
# never evaluated at run time; only mypy reads it.
AnyGameState: TypeAlias = "GameState[Any, Any]"


# --- the logic ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """What one step of a replay shows."""

    index: int  # 0 = the deal, k = after move k
    total: int  # number of moves in the record
    move: str | None  # the k-th move's notation (None at the deal)
    player: int | None  # the seat that made it
    events: tuple[Event, ...]  # the log lines this move added (the narration)
    explanation: Explanation | None  # the engine's words on why the move was legal
    rules: tuple[tuple[str, str], ...]  # (rule id, plain words) the move applied
    state: AnyGameState


def as_record(source: AnyGameState | Record | str) -> dict[str, Any]:
    """A record from a state, a record mapping or its JSON text."""
    if isinstance(source, GameState):
        return source.to_record()
    if isinstance(source, str):
        try:
            source = json.loads(source)
        except json.JSONDecodeError as err:
            raise RecordError(f"record is not JSON: {err}") from err
    if not isinstance(source, Mapping) or not isinstance(source.get("moves"), list):
        raise RecordError("a record is a mapping with 'game', 'options', 'seed', 'deal' and 'moves'")
    return dict(source)


class Timeline:
    """The states of one record. Built once (every move is checked), then read at any step."""

    def __init__(self, record: AnyGameState | Record | str) -> None:
        self.record = as_record(record)
        game = load_game(str(self.record.get("game")))
        start = game.replay({**self.record, "moves": []})  # the deal, options and seed checked
        self.game = start.game
        self.moves: tuple[str, ...] = tuple(self.record["moves"])
        self._checkpoints: dict[int, AnyGameState] = {0: start}
        state = start
        for index, text in enumerate(self.moves):
            try:
                state = state.play(text)
            except ValueError as err:
                raise RecordError(f"move #{index + 1} {text!r} does not replay: {err}") from err
            if (index + 1) % CHECKPOINT_EVERY == 0:
                self._checkpoints[index + 1] = state
        self._last: tuple[int, AnyGameState] = (len(self.moves), state)

    def __len__(self) -> int:
        """Number of steps: the deal plus one per move."""
        return len(self.moves) + 1

    @property
    def last(self) -> int:
        return len(self.moves)

    def state(self, index: int) -> AnyGameState:
        """The position after `index` moves (replayed from the nearest earlier checkpoint)."""
        if not 0 <= index <= self.last:
            raise IndexError(f"step {index} is outside 0..{self.last}")
        base = max(k for k in self._checkpoints if k <= index)
        cached, cached_state = self._last
        if base <= cached <= index:
            base, state = cached, cached_state
        else:
            state = self._checkpoints[base]
        for text in self.moves[base:index]:
            state = state.play(text)
        self._last = (index, state)
        return state

    def step(self, index: int) -> Step:
        """Narration, explanation and rules of step `index`."""
        if index == 0:
            state = self.state(0)
            events = state.log
            return Step(0, self.last, None, None, events, None, self._rule_words(events, None), state)
        before = self.state(index - 1)
        text = self.moves[index - 1]
        player = before.current_player
        explanation = before.explain(text)
        state = before.play(text)
        self._last = (index, state)
        events = state.log[len(before.log) :]
        return Step(index, self.last, text, player, events, explanation, self._rule_words(events, explanation), state)

    def _rule_words(self, events: Sequence[Event], explanation: Explanation | None) -> tuple[tuple[str, str], ...]:
        ids: list[str] = list(explanation.rules) if explanation else []
        for event in events:
            ids += [r for r in event.rules if r not in ids]
        seen: dict[str, str] = {}
        for rule in ids:
            seen.setdefault(rule, self.game.rules.get(rule, ""))
        return tuple(seen.items())

    def ask(self, index: int, seat: int, move: str, viewer: int | None = None) -> Explanation:
        """Could `seat` play `move` at step `index`, and what would it do? Asked where that step's move was
        chosen (before it; at the deal, the start). `viewer` None: the teacher's question (``state.ask``);
        a seat: the live question that seat may ask (``state.ask_as``), which reveals no hidden card."""
        state = self.state(max(index - 1, 0))
        return state.ask(seat, move) if viewer is None else state.ask_as(viewer, move, seat)

    def find(self, what: str | Callable[[Step], bool], start: int = 0) -> int | None:
        """First step from `start` whose narration or move contains `what` (any case), or
        for which `what(step)` is true; None if there is none. Rule ids match too (e.g. a ruling id)."""
        match: Callable[[Step], bool]
        if isinstance(what, str):
            needle = what.lower()

            def contains(step: Step) -> bool:
                words = [e.text for e in step.events] + [step.move or ""] + [r for r, _ in step.rules]
                return any(needle in w.lower() for w in words)

            match = contains
        else:
            match = what
        for index in range(max(start, 0), self.last + 1):
            if match(self.step(index)):
                return index
        return None


PRIVATE_MOVE = "(a private move)"


def as_seen_by(step: Step, seat: int | None) -> Step:
    """The step as `seat` may read it: their log, and another seat's move only if the public log names it.

    Secret moves (a hidden pick, a pitch under a private deck) keep their card hidden, and so does
    the engine's explanation of them, which would name the card.
    """
    if seat is None:
        return step
    log = step.state.observation(seat).log
    events = tuple(log[len(log) - len(step.events) :]) if step.events else ()
    if step.move is None or step.player == seat:
        return dataclasses.replace(step, events=events)
    named = [e.move for e in events if e.move and e.player == step.player]
    if step.move in named:
        return dataclasses.replace(step, events=events)
    shown = named[0] if named else PRIVATE_MOVE
    return dataclasses.replace(step, move=shown, events=events, explanation=None)


def board_html(state: AnyGameState, seat: int | None = None) -> str:
    """The board as the game's renderer draws it (teacher's view, or one seat's view)."""
    observation = state.view() if seat is None else state.observation(seat)
    try:
        return render_observation(observation)
    except (ImportError, KeyError, AttributeError):  # a renderer not written yet
        lines = [state.describe()] + [e.text for e in observation.log[-8:]]
        return kit.page(state.game.title, "<pre>" + html.escape("\n".join(lines)) + "</pre>")


STEPPER_STYLE = """
<style>
.sk-stepper .sk-narration{font-size:14px;line-height:1.45}
.sk-stepper .sk-narration .sk-move{font-family:ui-monospace,monospace;background:#f0f0ea;border-radius:4px;padding:0 5px}
.sk-stepper .sk-narration ul{margin:4px 0 0 0;padding-left:22px}
.sk-stepper .sk-rule-id{display:inline-block;min-width:46px;font-weight:700;color:#2b4a7a}
.sk-stepper .sk-rule-line{margin:2px 0}
.sk-stepper .sk-why{margin:2px 0 6px 0}
</style>
"""


def narration_html(step: Step) -> str:
    """'Move k of N: Player p plays X' and the log lines the move added."""
    if step.move is None:
        head = f"<b>The deal</b> (step 0 of {step.total})"
    else:
        who = seat_name(step.player) if step.player is not None and step.player >= 0 else "The table"
        head = (
            f"<b>Move {step.index} of {step.total}</b> · {html.escape(who)}: "
            f'<span class="sk-move">{html.escape(step.move)}</span>'
        )
    rules = step.state.game.rules
    lines = "".join(f"<li>{rule_text(rules, e.text)}</li>" for e in step.events)  # ids open their words
    return f'{STEPPER_STYLE}{RULE_STYLE}<div class="sk-narration">{head}<ul>{lines}</ul></div>'


def rules_html(step: Step) -> str:
    """Why the move was legal (the engine's explanation) and the rules it applied, in plain words."""
    why = ""
    if step.explanation is not None:
        why = f'<div class="sk-why">Why it is legal: {rule_text(step.state.game.rules, step.explanation.reason)}</div>'
    rules = (
        "".join(
            f'<div class="sk-rule-line"><span class="sk-rule-id">{html.escape(rule)}</span> {html.escape(words)}</div>'
            for rule, words in step.rules
        )
        or '<div class="sk-rule-line"><i>no rule cited</i></div>'
    )
    return kit.panel("The rule", why + rules, css="sk-rules")


def where_asked(step: int) -> str:
    """Where a step's question is put, in words: before its move, or at the deal."""
    return "At the deal" if step == 0 else f"Before move {step}"


class Moment:
    """A still of one step, for reading top to bottom: narration, the rule, and the board folded away."""

    def __init__(self, step: Step, seat: int | None = None) -> None:
        self.step = step
        self.seat = seat

    def _repr_html_(self) -> str:
        board = board_html(self.step.state, self.seat)
        return (
            f'<div class="sk-stepper sk-moment">{narration_html(self.step)}{rules_html(self.step)}'
            f"<details><summary>Show the board at this moment</summary>{board}</details></div>"
        )


# --- the widget -------------------------------------------------------------------------


class StepThrough(widgets.VBox):
    """Replay a game record with Back / Play / Next and a scrubber; see the module docs."""

    record = traitlets.Dict()
    step = traitlets.Int(0)
    seat = traitlets.Int(None, allow_none=True)  # None: teacher's view (all hands open)

    def __init__(
        self,
        record: AnyGameState | Record | str,
        *,
        step: int = 0,
        seat: int | None = None,
        seat_only: bool = False,
        interval: int = PLAY_INTERVAL_MS,
    ) -> None:
        if seat_only and seat is None:
            raise ConfigError("a replay kept to one seat's view needs that seat")
        self._only: int | None = seat if seat_only else None
        super().__init__()
        self.add_class("sk-stepper")
        self.timeline: Timeline | None = None
        self.title = _html("sk-stepper-title")
        self.back_button = _button("◀ Back", "sk-back", "Previous move")
        self.next_button = _button("Next ▶", "sk-next", "Next move")
        self.player = widgets.Play(value=0, min=0, max=0, step=1, interval=interval, description="Play")
        self.player.add_class("sk-play")
        self.slider = widgets.IntSlider(
            value=0, min=0, max=0, description="Step", continuous_update=True, layout=widgets.Layout(width="420px")
        )
        self.slider.add_class("sk-scrub")
        self.viewer = widgets.Dropdown(
            description="View", layout=widgets.Layout(width="230px"), style={"description_width": "40px"}
        )
        self.viewer.add_class("sk-seat")
        self.narration = _html("sk-narration-box")
        self.rules = _html("sk-rule")
        self.board = _html("sk-board")
        self.ask = AskWhy()  # the question row, shared with the boards
        self.ask_seat, self.ask_move, self.ask_button = self.ask.ask_seat, self.ask.ask_move, self.ask.ask_button
        self.ask_answer = self.ask.ask_answer
        widgets.link((self.player, "value"), (self.slider, "value"))
        widgets.link((self.slider, "value"), (self, "step"))
        self.back_button.on_click(lambda _: self.back())
        self.next_button.on_click(lambda _: self.next())
        controls = widgets.HBox(
            [self.back_button, self.player, self.next_button, self.slider, self.viewer],
            layout=widgets.Layout(flex_flow="row wrap", align_items="center"),
        )
        controls.add_class("sk-controls")
        self.children = [self.title, controls, self.narration, self.rules, self.ask, self.board]
        with self.hold_trait_notifications():
            self.seat = seat
            self.record = as_record(record)
        if self._only is None:  # one seat's own replay has no other view: its View drives nothing
            widgets.link(
                (self.viewer, "value"),
                (self, "seat"),
                transform=(lambda v: None if v == TEACHER else v, lambda s: TEACHER if s is None else s),
            )
        self.step = step
        self.render()

    # -- actions --

    def next(self) -> None:
        self.player.playing = False  # a click takes over from the Play button
        self.step = min(self.step + 1, self.last)

    def back(self) -> None:
        self.player.playing = False
        self.step = max(self.step - 1, 0)

    def ask_why(self) -> Explanation | None:
        """Put the Ask-why question (seat and move from the controls) to the engine and show the answer.

        Bad input shows a sentence, never a traceback; the answer is also returned (None: nothing asked).
        """
        return self.ask.ask_why()

    def _question(self, seat: int, move: str) -> Explanation:
        assert self.timeline is not None
        return self.timeline.ask(self.step, seat, move, self.seat)

    def find(self, what: str | Callable[[Step], bool], start: int = 0) -> int | None:
        """See :meth:`Timeline.find`; ``stepper.step = stepper.find(rule_id)`` jumps there."""
        return self.timeline.find(what, start) if self.timeline else None

    def moment(self, what: str | Callable[[Step], bool] | int, start: int = 0) -> Moment:
        """A still of the first step matching `what` (or step number `what`); the widget does not move."""
        assert self.timeline is not None
        index = what if isinstance(what, int) else self.timeline.find(what, start)
        if index is None:
            raise LookupError(f"no step matches {what!r}")
        return Moment(as_seen_by(self.timeline.step(index), self.seat), self.seat)

    @property
    def last(self) -> int:
        return self.timeline.last if self.timeline else 0

    @property
    def state(self) -> AnyGameState:
        assert self.timeline is not None
        return self.timeline.state(self.step)

    @property
    def current(self) -> Step:
        assert self.timeline is not None
        return self.timeline.step(self.step)

    # -- traits --

    @traitlets.validate("step")
    def _clamp_step(self, proposal: dict[str, Any]) -> int:
        return min(max(int(proposal["value"]), 0), self.last)

    @traitlets.observe("record")
    def _on_record(self, change: dict[str, Any]) -> None:
        self.timeline = Timeline(change["new"])
        for control in (self.player, self.slider):
            control.max = self.timeline.last
        seats = [(f"as {seat_name(s)} sees it", s) for s in range(self.timeline.game.num_players)]
        self._configure_ask()
        if self._only is not None:  # one seat's own replay: no other view is offered, or can be chosen
            self.viewer.options = [seat for seat in seats if seat[1] == self._only]
        else:
            self.viewer.options = [("teacher: all open", TEACHER), *seats]
        if self.seat is not None and self.seat >= self.timeline.game.num_players:
            self.seat = None
        self.viewer.value = TEACHER if self.seat is None else self.seat
        if self.step > self.last:
            self.step = self.last
        self.render()

    @traitlets.observe("step", "seat")
    def _on_step(self, change: dict[str, Any]) -> None:
        if change["name"] == "seat" and self._only is not None and change["new"] != self._only:
            self.seat = self._only  # one seat's own replay stays in its view (traitlets validates no None)
            return
        self.ask.clear()  # an answer belongs to the moment and the view it was asked in
        if change["name"] == "seat":
            self._configure_ask()
        self.render()

    def _configure_ask(self) -> None:
        """Ask why about any seat; its example move is one the view may show at the deal (a seat's
        view: only that seat's own moves, so the example never names another seat's card)."""
        if self.timeline is None:
            return
        first = self.timeline.state(0)
        shown = list((first.view() if self.seat is None else first.observation(self.seat)).legal_moves)
        self.ask.configure(
            self._question,
            range(self.timeline.game.num_players),
            example=first.game.type_move(shown[0]) if shown else "pass",
            where=lambda: where_asked(self.step),
            rules=self.timeline.game.rules,
        )

    # -- the one render --

    def render(self) -> None:
        """Redraw everything from (record, step, seat); calling it twice changes nothing."""
        if self.timeline is None:
            return
        step = as_seen_by(self.timeline.step(self.step), self.seat)
        view = "teacher's view: all hands open" if self.seat is None else f"as {seat_name(self.seat)} sees it"
        self.title.value = (
            f"<b>{html.escape(self.timeline.game.title)}</b> · step {step.index} of {step.total} · {html.escape(view)}"
        )
        self.slider.value = step.index
        self.player.value = step.index
        self.back_button.disabled = step.index == 0
        self.next_button.disabled = step.index == step.total
        self.narration.value = narration_html(step)
        self.rules.value = rules_html(step)
        self.board.value = board_html(step.state, self.seat)


def _html(css: str) -> widgets.HTML:
    box = widgets.HTML()
    box.add_class(css)
    return box


def _button(label: str, css: str, tooltip: str) -> widgets.Button:
    button = widgets.Button(description=label, tooltip=tooltip, layout=widgets.Layout(width="90px"))
    button.add_class(css)
    return button
