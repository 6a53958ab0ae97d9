"""The board shell every game shares: :class:`GameBoard`, a VBox of private child widgets with one
idempotent :meth:`GameBoard.render` that redraws everything from the session
(:class:`sloth_widgets.session.Session`, the logic), which it observes. Each game subclasses it
and fills in the hooks (picture, hand, controls, how a selection becomes move text)."""

from __future__ import annotations

import contextlib
import functools
import html
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import ipywidgets as widgets
import traitlets
from sloth_widgets.ask import AskWhy
from sloth_widgets.asking import ASK_COVERED, ask_question, ask_seats, ask_viewer, where_asked
from sloth_widgets.disclosure import Disclosure
from sloth_widgets.guard import guarded, read_widget_message, server_log
from sloth_widgets.hand import CardHand
from sloth_widgets.hooks import BoardHooks, ObsT
from sloth_widgets.log import LogView
from sloth_widgets.markup import BOARD_STYLE, explanation_html, rule_markup, rule_text
from sloth_widgets.resume import ResumeError, ResumeStore
from sloth_widgets.reveal import Reveal, RevealSteps
from sloth_widgets.seats import SeatSetup
from sloth_widgets.session import Session, address_seed, parse_seed
from sloth_widgets.status import (
    cover_html,
    deal_line_html,
    explanation_panel_html,
    seat_box_html,
    seats_html,
    turn_line_html,
)
from sloth_widgets.tree import one_update_each, widget_family

from sloth_kernel import Explanation, SlothKernelError
from sloth_kernel.core import seat_name
from sloth_kernel.registry import game_spec
from sloth_kernel.render import kit

SPEEDS: tuple[tuple[str, int], ...] = (("slow", 1600), ("normal", 900), ("fast", 350), ("instant", 60))
RELOAD_LOSES = "A reload of this page starts a new game."
RELOAD_KEEPS = "This game survives a reload of this tab."


class GameBoard(widgets.VBox, BoardHooks[ObsT]):
    """The GUI shell every game shares. A game's board fills in the hooks
    (:class:`sloth_widgets.hooks.BoardHooks`) and uses the public methods below; it overrides
    nothing of the shell and writes none of its private widgets.

    Without a `seed` the board deals from a fresh secret seed (see :mod:`sloth_widgets.session`).
    """

    # The page's address parameters, sent by the play apps' front end once the board is up
    # (widgets/frontend: ``?seed=123`` chooses the deal). Nothing the kernel knows goes out in it.
    _page_params = traitlets.Dict().tag(sync=True)
    # The resume token of the game on the board (sloth_widgets.resume), for the light front end to keep
    # in the tab's session storage; empty until the front end says it can keep one. Never the seed.
    _resume_token = traitlets.Unicode("").tag(sync=True)

    def __init__(
        self,
        seed: int | None = None,
        seats: Sequence[str] | None = None,
        *,
        autoplay: bool = True,
        deal: dict[str, Any] | None = None,
        session: Session | None = None,
        **options: Any,
    ) -> None:
        """A board dealing its own games (a fresh, secret deal; a chosen `seed`; an explicit `deal`),
        or, given a `session` made elsewhere (a shared table's page), drawing that one."""
        super().__init__()
        self.add_class("sk-board")
        self.autoplay = autoplay
        self._acting = 0  # >0 while the board itself is changing the session
        self._shielded: set[int] = set()  # widgets whose page messages go through _read_message
        self.last_error = ""
        self._verdict: Explanation | None = None
        self._note = ""
        self._note_ply: int | None = None  # the position (moves made) a "Your move" note was written at
        self._address_seed: int | None = None  # the seed the page's address chose, once dealt
        self._replay_open = False
        self._stepper: tuple[Session, widgets.Widget] | None = None  # the replay shown, and of which game
        self._reveals = RevealSteps(game_spec(self.game_name).reveal_kinds)  # the steps a move stages
        self._build_felt()
        self._build_bot_bar()
        self._build_panels()
        self._setup = SeatSetup(self.game_name, self._on_new_game)
        self._setup_box = Disclosure("New game / seats", self._setup)
        self._setup_box.add_class("sk-setup-box")
        self._ask = AskWhy()  # "Ask why": see _configure_ask for who may ask about whom
        self._ask_key: tuple[Any, ...] | None = None  # whose question the shown answer was
        self._ask_position = 0  # the log's length when it was asked (a new event: a new position)
        self._ask_box = Disclosure("Ask why", self._ask, layout=widgets.Layout(width="auto", max_width="100%"))
        self._ask_box.add_class("sk-ask-box")
        self._build_game_parts()
        # A game of the board's own (not a shared table's, not an explicit deal) can be kept on the
        # server to survive a reload, once the light front end says it keeps the token.
        self._resumable = session is None and deal is None
        self._keeper: ResumeStore | None = None
        self._kept: tuple[int, int] | None = None  # (the session, the bot speed) the kept game is of
        self._kept_moves = 0
        self._reload_note = widgets.HTML(f'<div class="sk-reload-note">{RELOAD_LOSES}</div>')
        self._reload_note.add_class("sk-reload-stock")  # the light template hides it until it keeps the game
        if not self._resumable:
            self._reload_note.layout.display = "none"
        if session is None:
            session = self._new_session(self._first_seed(seed, deal), seats, options, deal)
        else:
            session.observe(self._on_session_change, "version")
        self.session = session
        self._setup.load(self.session)
        options = self.setup_options()
        if options:
            self._setup.add_options(options)
        self._lay_out()
        self.render()
        self._maybe_autoplay()

    # -- the widgets, built once (private: a game's board fills in the hooks below) ----------

    def _build_felt(self) -> None:
        """The turn line, the error line, the hot-seat cover, the picture, the seats and the hand."""
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
        self._hand_label.add_class("sk-hand-title")
        self._hand = CardHand(single=self.single_card)
        self._hand.observe(self._on_select, "selected")
        self._hint = widgets.ToggleButton(
            description="Hints",
            value=False,
            tooltip="highlight the cards that can be part of a legal play",
        )
        self._hint.add_class("sk-hint-toggle")
        self._hint.observe(self._on_hint, "value")
        if not self.offers_hints:
            self._hint.layout.display = "none"
        self._explain = widgets.HTML()
        self._explain.add_class("sk-explain")

    def _build_bot_bar(self) -> None:
        """The bots' pacing: Pause / Go on, the next move, the clock, the speed and Bots to my turn."""
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

    def _build_panels(self) -> None:
        """The standings and the log beside it, and the game-over box (Play again, the replay)."""
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

    def _build_game_parts(self) -> None:
        """The game's own widgets (its hooks :meth:`build_table` and :meth:`build_controls`)."""
        self._table_area = widgets.VBox(self.build_table())
        self._table_area.add_class("sk-table-area")
        self._controls = widgets.HBox(self.build_controls())
        self._controls.add_class("sk-actions")
        self._panels = widgets.HBox([self._standings, self._log_box])
        self._panels.add_class("sk-panels")

    def _first_seed(self, seed: int | None, deal: dict[str, Any] | None) -> int | None:
        """The first game's seed: the one given, else the one the page's address chose (a kernel
        Voila started for a page with ``?seed=…``), else None (a fresh, secret deal)."""
        chosen_by_address = address_seed() if seed is None and deal is None else None
        if chosen_by_address is not None:
            try:
                seed = self._address_seed = parse_seed(chosen_by_address)
            except ValueError as err:
                self._note = f"The page's address chose no deal ({err}): this is a fresh deal."
        return seed

    def _lay_out(self) -> None:
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
        # the play column: the turn line, the table and your controls (on a phone, board.css
        # brings your hand and controls up to the first screen)
        self._main = widgets.VBox(
            [self._status, self._error, self._over, self._felt, self._controls, self._explain, self._botbar]
        )
        self._main.add_class("sk-main")
        # the side column: the log and standings, then the folding sections
        self._side = widgets.VBox([self._panels, self._ask_box, self._setup_box, self._reload_note])
        self._side.add_class("sk-side")
        self.children = [self._style, self._main, self._side]
        self.add_class("sk-two-col")

    @property
    def hand(self) -> CardHand:
        """The selectable hand (read it; drive it through its buttons)."""
        return self._hand

    @property
    def state(self) -> Any:
        """The engine state on the board right now."""
        return self.session.state

    @property
    def hints_toggle(self) -> widgets.ToggleButton:
        """The Hints toggle, for a board to place among its controls (:meth:`build_controls`) and read."""
        return self._hint

    # -- what a board may do (besides filling in the hooks) ---------------------------------

    def choice_changed(self) -> None:
        """A control of the game's own changed the choice: drop the last verdict, show the new preview."""
        self._verdict = None
        self._refresh_explanation()

    def show_preview(self, move: str) -> None:
        """Show the engine's verdict on `move` under the controls (on the viewer's turn only)."""
        self._verdict = None
        self._explain.value = (
            explanation_html(self.session.state.explain(move), rules=self.session.game.rules)
            if self.session.my_turn
            else ""
        )

    def refuse(self, move: str, reason: str) -> None:
        """Refuse an action of the game's own controls with a sentence (nothing changes)."""
        self._verdict = Explanation(move, False, reason)
        self.render()

    # -- the staged steps (one mechanism for every game: sloth_widgets.reveal) ---------------

    def revealed(self, obs: ObsT) -> Reveal:
        """Where the board is in the steps the newest move stages (the engine's ``reveal_kinds``)."""
        return self._reveals.look(self.session, obs.log)

    def held_back(self, obs: ObsT) -> int:
        """How many of the newest log events the steps not shown yet hold back (0: none)."""
        return self.revealed(obs).held_back(len(obs.log))

    def show_next_step(self) -> bool:
        """Show the next staged step (a round's results, a type of a reveal, a card turned); False if none."""
        return self._to_step(self._reveals.next, forward=True)

    def show_previous_step(self) -> bool:
        """Show the step before the one on view again (nothing already seen is hidden); False if none."""
        return self._to_step(self._reveals.back, forward=False)

    def show_every_step(self) -> bool:
        """Show every staged step at once; False if there was none to show."""
        return self._to_step(self._reveals.finish, forward=True)

    def _to_step(self, go: Callable[[], Reveal], *, forward: bool) -> bool:
        reveal = self.revealed(self.session.observation())
        if reveal.at >= reveal.steps if forward else reveal.at <= 0:
            return False
        reveal = go()
        self.moved_on(" ".join(e.text for e in reveal.step_events(self.session.observation().log, reveal.at)))
        return True

    def _waits_for_person(self) -> bool:  # the bots wait for the person to step on
        return self.person_steps_reveals and self.revealed(self.session.observation()).pending

    def _pass_reveal(self) -> None:  # a move sent, or the bots asked to play on, moves past the steps
        if self.revealed(self.session.observation()).pending:
            self._reveals.finish()

    def moved_on(self, note: str = "") -> None:
        """The board showed its next step: drop the last verdict, say `note`, redraw, and let the bots go on."""
        self._verdict = None
        self._note = note
        self.render()
        self._maybe_autoplay()

    # -- the single render ---------------------------------------------------------------

    def render(self) -> None:
        """Redraw everything from the session (idempotent). Each widget sends what changed as one
        update (:func:`one_update_each`)."""
        with self.session.drawing(), one_update_each(self):
            self._render()
        self._keep_game()

    def _render(self) -> None:
        session = self.session
        state = session.state
        obs: ObsT = session.observation()
        private = session.mode == "watch" or not session.covered
        my_turn = session.my_turn
        reveal = self.revealed(obs)
        if self._note_ply is not None and self._note_ply != len(state.history):  # moves came after it
            self._note, self._note_ply = "", None
        if reveal.pending and self._verdict is None:  # the last move's words would give the step away
            shown = reveal.shown_events(obs.log)
            self._note = self.staged_note(obs) or (shown[-1].text if shown else "")
        held = reveal.held_back(len(obs.log))
        over = bool(state.is_over) and not held
        self._status.value = turn_line_html(session, self.title, lambda: self.turn_hint(obs), held)
        ended = bool(state.is_over) or held > 0  # nobody to move while a staged step waits
        self._seats_top.value, self._my_seat.value = seats_html(session, lambda seat: self._seat_box(obs, seat, ended))
        self._my_seat.layout.display = "" if self._my_seat.value else "none"
        self._picture.value = rule_markup(session.game.rules, self.picture(obs, private))  # ids open their words
        covered = session.covered and not state.is_over
        self._cover.layout.display = "" if covered else "none"
        if covered:
            who = seat_name(session.to_move)
            self._cover_text.value = cover_html(who)
            self._reveal_button.description = f"I am {who}: show my hand"
        has_hand = session.viewer is not None and not covered and session.mode != "watch" and self.shows_hand
        has_hand = has_hand and not (state.is_over and session.mode == "hot-seat")  # nobody's hand after the end
        cards = self.hand_cards(obs) if has_hand else []
        hints = self.hinted_keys(obs) if (self._hint.value and my_turn) else set()
        if cards and hints >= {c.key for c in cards}:  # every card lights (e.g. a lead): the shapes say it
            hints = set()
        self._hand.show(cards, hinted=[c.key in hints for c in cards], enabled=self.hand_enabled(obs, my_turn))
        self._hand.layout.display = "" if has_hand else "none"
        self._hand_label.value = (
            f'<div class="sk-hand-label">{rule_text(session.game.rules, self.hand_heading(obs, my_turn))} '
            f"({html.escape(seat_name(session.viewer))})</div>"
            if has_hand and session.viewer is not None  # has_hand implies a viewer; said again for mypy
            else ""
        )
        self._hand_label.layout.display = "" if has_hand else "none"
        self._controls.layout.display = "" if has_hand and not state.is_over else "none"
        self.update_controls(obs, my_turn)
        self._refresh_explanation()
        bots_pending = session.bot_to_move and not (self.person_steps_reveals and reveal.pending)  # steps first
        self._next.disabled = not bots_pending
        self._skip.disabled = not bots_pending or session.mode == "watch"
        self._skip.layout.display = "none" if session.mode == "watch" else ""
        self._botbar.layout.display = "none" if not session.bots else ""
        self._pause.disabled = bool(state.is_over)  # nothing left to pause once the game is over
        self._standings.value = rule_markup(session.game.rules, self.standings(obs))
        lines = [e.text for e in obs.log]
        if private:
            self._log.show(lines[: len(lines) - held] if held else lines, rules=session.game.rules)
        else:
            self._log.show_html(['<div class="sk-empty">hidden while the device changes hands</div>'])
        deal = deal_line_html(session, self.game_name) if over else ""
        self._over_text.value = f'<div class="sk-game-over-box">{self.summary(obs)}{deal}</div>' if over else ""
        self._over.layout.display = "" if over else "none"
        if session.new_game_refusal() is not None:  # e.g. a shared table's page: the table's game only
            self._again.layout.display = self._setup_box.layout.display = "none"
        if not session.replay_offered:
            self._replay_button.layout.display = "none"
        self._show_replay()
        self._configure_ask(obs)
        self._error.value = (
            f'<div class="sk-error-box" role="alert">{html.escape(self.last_error)}</div>' if self.last_error else ""
        )
        self._shield_messages()

    def _configure_ask(self, obs: ObsT) -> None:
        """Ask why (who may ask about whom: :mod:`sloth_widgets.asking`). An answer is forgotten when
        the one who asked leaves the screen."""
        session = self.session
        viewer = ask_viewer(session)
        key = (id(session), session.mode == "watch", viewer)
        position = len(obs.log)
        if key != self._ask_key:  # another asker at the screen: forget the answer and the typed move
            self._ask_key = key
            self._ask_position = position
            self._ask.forget()
        elif position != self._ask_position:  # the answer belonged to the position it was asked in
            self._ask_position = position
            self._ask.clear()
        seats = ask_seats(session)
        # an example from the moves the screen may show (the viewer's own, or any when watching), none behind the cover
        shown = list(obs.legal_moves) if seats else []
        example = session.game.type_move(shown[0]) if shown else None  # None: the box keeps its example
        live = self.asks_from_selection and viewer is not None and session.mode != "watch"
        choices = (
            [(self.move_words(obs, m) or session.game.say_move(m), str(m)) for m in shown]
            if live and session.my_turn
            else []
        )
        self._ask.configure(
            self._ask_question,
            seats,
            example=example,
            where=self._where_asked,
            note=ASK_COVERED,
            rules=session.game.rules,
            selection=self.preview_move if live and self.shows_hand else None,
            choices=choices,
        )

    def _ask_question(self, seat: int, move: str) -> Explanation | str:
        return ask_question(self.session, seat, move)

    def _where_asked(self) -> str:
        return where_asked(self.session)

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
        """How the table names a seat (:meth:`Session.seat_label`)."""
        return self.session.seat_label(seat)

    def _seat_box(self, obs: ObsT, seat: int, over: bool) -> str:
        name, role = self.seat_label(seat)
        to_move = not over and seat == self.session.to_move
        return seat_box_html(name, role, self.seat_facts(obs, seat), self.seat_status(obs, seat), to_move)

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
        self._explain.value = explanation_panel_html(
            self.session,
            self._verdict,
            self._note,
            self.prompt,
            bool(self._hint.value),
            self.preview_move,
            lambda: self.hint_shapes(self.session.observation()),
        )

    # -- actions -----------------------------------------------------------------------------

    def submit(self, move: str | None) -> Explanation | None:
        """Send `move` for the seat on screen; the engine re-validates. Returns its verdict."""
        self._pass_reveal()
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
        self._pass_reveal()
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
            self._note_ply = len(history)  # the note belongs to this position: a later move drops it
            self._hand.clear()
            self.reset_controls()
        else:
            self._verdict = verdict
        self.render()

    def step(self) -> bool:
        """One step of the bots' pacing (the Next button, the clock): a staged step to show first
        (unless the person steps through them: then the bots wait), else one bot move; False if
        nothing moved."""
        if self._waits_for_person():
            self._timer.playing = False
            return False
        if self.revealed(self.session.observation()).pending:
            return self.show_next_step()
        with self._own_action():
            moved = self.session.step()
        if moved:
            self._verdict = None
            self._note = self.session.state.log[-1].text if self.session.state.log else ""
            self.render()
        return moved

    def run_bots(self, limit: int = 10_000) -> int:
        """Let bots move until a human is to move or the game ends, past the steps still to show (when
        the person steps through them, up to the next one); returns the count."""
        self._pass_reveal()
        count = 0
        with self._own_action():
            while count < limit and not self._waits_for_person() and self.session.step():
                count += 1
        if count:
            self._verdict = None
            self._note = ""
            self.render()
        return count

    def _maybe_autoplay(self) -> None:
        """Start the front-end timer when bots are to move (it does nothing without a front end), not
        while a staged step waits to be shown (the bots' pacing shows a bot's move's steps itself)."""
        waits = self.revealed(self.session.observation()).pending
        if self.autoplay and self.session.bot_to_move and not self._pause.value and not waits:
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
        self._keep_game()

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
        """The page's address parameters arrived from the front end (:meth:`take_page_params`)."""
        self.take_page_params(change["new"])

    def take_page_params(self, params: Any) -> None:
        """The page's parameters: ``resume`` (only the light front end sends it: the tab's resume token
        after a reload, else empty) resumes the kept game, else ``seed`` deals that seed."""
        if not isinstance(params, dict):
            return
        resume = params.get("resume")
        resumed = False
        if isinstance(resume, str) and self._resumable:
            self._enable_resume()
            if resume:
                resumed = self.resume_game(resume)
        text = params.get("seed")
        if resumed:
            if text is not None:
                with contextlib.suppress(ValueError):  # the resumed game stands: the address's seed is dealt already
                    self._address_seed = parse_seed(text)
        elif text is not None:
            self.deal_address_seed(text)
        self._keep_game()

    # -- games that survive a reload (sloth_widgets.resume) ---------------------------------------

    def _enable_resume(self) -> None:
        """The light front end keeps a token: keep this board's games in the server's store from now on."""
        if self._keeper is not None:
            return
        try:
            self._keeper = ResumeStore()
        except SlothKernelError as err:
            self._resume_failed(err)
            return
        except Exception as err:  # noqa: BLE001 - a person never sees a traceback
            server_log(err)
            self._resume_failed(None)
            return
        self._reload_note.remove_class("sk-reload-stock")
        self._reload_note.value = f'<div class="sk-reload-note">{RELOAD_KEEPS}</div>'

    def _resume_failed(self, err: SlothKernelError | None) -> None:
        self._keeper = None
        self._kept = None
        self._resume_token = ""
        why = f" ({getattr(err, 'public', None) or err})" if err is not None else ""
        self._reload_note.remove_class("sk-reload-stock")
        self._reload_note.value = (
            f'<div class="sk-reload-note">This game will not survive a reload{html.escape(why)}.</div>'
        )

    def _keep_game(self) -> None:
        """Save the game on the board in the store after every change (a move, a new game, the seats, the
        speed): a new game (or speed) is kept afresh under a new token, a move is added to the kept game."""
        keeper = self._keeper
        if keeper is None or not self._resumable:
            return
        session = self.session
        key = (id(session), int(self._speed.value))
        fresh = key != self._kept or not self._resume_token
        if not fresh and len(session.state.history) <= self._kept_moves:
            return  # nothing new to keep (every render ends here)
        moves = [str(move) for move in session.state.history]
        try:
            if fresh:
                old = self._resume_token
                token = keeper.keep(
                    self.game_name,
                    dict(session.game.config.changes()),
                    session.seats,
                    session.seed,
                    chosen=session.chosen,
                    pace=key[1],
                    moves=moves,
                )
                self._kept, self._kept_moves = key, len(moves)
                self._resume_token = token
                if old:
                    keeper.forget(old)
            else:
                keeper.add_moves(self._resume_token, moves)
                self._kept_moves = len(moves)
        except SlothKernelError as err:
            self._resume_failed(err)
        except Exception as err:  # noqa: BLE001 - a person never sees a traceback
            server_log(err)
            self._resume_failed(None)

    def resume_game(self, token: object) -> bool:
        """Resume the kept game `token` names (its seats, speed and moves; a hot-seat game behind its
        cover). A token that names none changes nothing and says why on the board. True when resumed."""
        keeper = self._keeper
        if keeper is None:
            return False
        try:
            kept = keeper.load(token)
            if kept.game != self.game_name:
                raise ResumeError("the page's saved game is of another game")
            session = Session(self.game_name, seed=kept.seed, seats=list(kept.seats), **kept.options)
            state = session.state
            for move in kept.moves:
                state = state.play(move)
        except SlothKernelError as err:
            self._verdict = None
            self._note = f"This tab's game could not be resumed ({err}): this is a fresh deal."
            self.render()
            return False
        except Exception as err:  # noqa: BLE001 - a stored game this installation cannot replay
            server_log(err)
            self._verdict = None
            self._note = "This tab's game could not be resumed: this is a fresh deal."
            self.render()
            return False
        session.state = state
        session.chosen = kept.chosen
        session.covered = len(session.humans) > 1 and not state.is_over  # hot-seat: behind the cover
        session.observe(self._on_session_change, "version")
        self._kept, self._kept_moves = (id(session), kept.pace), len(kept.moves)
        self._resume_token = str(token)
        if kept.pace in dict(SPEEDS).values():
            self._speed.value = kept.pace
        self._seat_session(session, "Your game, as it was before the reload.")
        return True

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
        refused = self.session.new_game_refusal()
        if refused is not None:  # Play again and New game are not offered then; a click sent anyway gets this
            self._verdict = Explanation("new game", False, refused)
            self.render()
            return
        self._timer.playing = False  # stopped before the new deal is made, as ever
        self._replay_open = False
        self._seat_session(self._new_session(seed, seats, options), "New game.")

    def _seat_session(self, session: Session, note: str) -> None:
        """Put `session` on the board (a new game, or a resumed one) and draw it, saying `note`."""
        self._timer.playing = False
        self._replay_open = False
        self.session = session
        self._setup.load(session)
        self.last_error = ""
        self._verdict = None
        self._note = note
        self._hand.clear()
        self.reset_controls()
        self.render()
        self._maybe_autoplay()
