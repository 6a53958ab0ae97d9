"""The pages of a shared table (README "Shared tables"): a seat's, the watch page, the teacher's.

One notebook (``notebooks/table.ipynb``) shows a :class:`TableBoard`. Voila may preheat its
kernel, so the board learns which table and which seat only when the page's front end sends the
address's parameters and the part after ``#`` (``?table=ID#seat=TOKEN``; the token never goes to
the server in a request). Then it opens the table:

- a seat's page draws that game's own play board (``board_class``) on a :class:`TableSession`:
  the seat's observation only, every move committed to the store at the version the page saw
  (a page that was too late says so and shows the table as it is now);
- the watch page draws the game's own board from the public observation (``public_observation()``:
  what everyone at the table knows), under a line of whose turn it is and the seats; no hand;
- the teacher's page draws the board with every hand open, pauses and resumes the table, and
  steps back through the moves so far.

Each page runs a :class:`~sloth_kernel.tables.Follower`: the bot seats (under their lease) and a
redraw after every change at the table. A seat's heartbeat is renewed when the page's front end
beats (every second while the page is open), so a closed tab's lingering kernel does not keep its
seat seated.
"""

from __future__ import annotations

import contextlib
import html
import re
import secrets
import threading
from collections.abc import Sequence
from typing import Any, cast

import ipywidgets as widgets
import traitlets
from sloth_widgets import board_class
from sloth_widgets.board import GameBoard
from sloth_widgets.guard import server_log, shield_messages
from sloth_widgets.log import log_lines_html
from sloth_widgets.markup import BOARD_STYLE
from sloth_widgets.session import HUMAN, Session, bot_words, default_bot_level, level_choice, sequence_refusal
from sloth_widgets.tree import widget_family

from sloth_kernel import Explanation, InvalidMoveError
from sloth_kernel.bots import bot_levels
from sloth_kernel.core import seat_name
from sloth_kernel.errors import SlothKernelError, counted
from sloth_kernel.tables import (
    Follower,
    SeatTokenError,
    StoreError,
    TableClosedError,
    TableError,
    TableMovedOnError,
    TableMoveError,
    Tables,
    open_store,
)

WAITING = (
    "Opening the table… If this sentence stays, open the table's link exactly as it was given, "
    "in an ordinary browser window: this page needs its own page style to learn which seat is yours."
)


class TableSession(Session):
    """A :class:`Session` backed by a table in the store: one seat's view (``seat``), or the
    teacher's (``seat`` None: every hand). Moves go to the store at the version this page saw;
    bots are not played here (the page's Follower plays them under their lease)."""

    def __init__(self, tables: Tables, table: str, *, seat: int | None, public: bool = False) -> None:
        traitlets.HasTraits.__init__(self)
        self.public = public and seat is None  # the watch page: what everyone may know, no hand
        self.tables = tables
        self.table = table
        self.lock = threading.RLock()
        row, state = tables.state(table)
        self.game = state.game
        self.options = dict(row.options)
        self.seats = tuple(
            HUMAN if info.kind == "human" else (info.level or default_bot_level(row.game)) for info in row.seats
        )
        self.chosen = False
        self.state = state
        self.seed = state.seed
        self.token = secrets.token_hex(6)
        self.bots = {}  # the page's Follower plays the bot seats
        self.viewer = seat
        self.covered = False
        self.at = row.version
        self.status = row.status

    @property
    def mode(self) -> str:
        # the watch page is a live table seen from nobody's seat (no hand, nobody to ask about), not the
        # teacher's "watch" with every hand open
        return "watch" if self.viewer is None and not self.public else "bots"

    @property
    def bot_to_move(self) -> bool:
        return False  # never played by this board: the Follower does it

    @property
    def my_turn(self) -> bool:
        return self.status == "open" and super().my_turn

    def observation(self) -> Any:
        if self.viewer is not None:
            return self.state.observation(self.viewer)
        return self.state.public_observation() if self.public else self.state.view()

    def refusal(self, seat: object) -> str | None:
        """As :meth:`Session.refusal`, and a table that is paused or closed takes no moves."""
        if self.viewer is None or type(seat) is not int or seat != self.viewer:
            return "nobody at this screen may move for that seat"
        if self.status != "open" and not self.state.is_over:
            return f"the table is {self.status}: it takes no moves now"
        return super().refusal(seat)

    @property
    def replay_seat(self) -> int | None:
        return self.viewer  # a seat's page replays that seat's own view; the teacher's, every hand

    # -- how a table's page differs from a play app's (the board asks; see Session) --

    def seat_label(self, seat: int) -> tuple[str, str]:
        if seat == self.viewer:
            return "You", seat_name(seat)
        kind = self.seats[seat] if 0 <= seat < len(self.seats) else HUMAN
        return seat_name(seat), ("at the table" if kind == HUMAN else bot_words(self.game.name, kind))

    @property
    def mode_words(self) -> str:
        if self.public:
            return "watching"
        return "teacher's view" if self.viewer is None else "shared table"

    @property
    def status_note(self) -> str:
        return "" if self.status == "open" else f"the table is {self.status}"

    @property
    def record_shown(self) -> bool:
        return self.viewer is None and not self.public  # the seed stays with the table (the teacher's record has it)

    @property
    def replay_offered(self) -> bool:
        return self.viewer is not None  # the teacher steps through in the teacher's panel

    def new_game_refusal(self) -> str | None:
        return "a table plays its own game: the teacher makes a new table"

    def drawing(self) -> contextlib.AbstractContextManager[Any]:
        return self.lock

    def refresh(self, tables: Tables | None = None) -> bool:
        """Read the table again (with `tables`, e.g. a follower thread's own); True if it changed."""
        with self.lock:
            row, state = (tables or self.tables).state(self.table)
            if row.version == self.at and row.status == self.status:
                return False
            self.state, self.at, self.status = state, row.version, row.status
            self.version += 1
            return True

    def play(self, move: Any, seat: int | None) -> Explanation:
        return self.play_sequence([move], seat)

    def play_sequence(self, moves: Sequence[Any], seat: int | None) -> Explanation:
        """Several moves of this seat as one action: all are checked by the game first, then each is
        committed at the version this page saw. Only another page moving in between (the table moved
        on) can stop the action part-way; the page then shows the table as it is."""
        text = " / ".join(str(move) for move in moves)
        verdict = Explanation(text, False, "nothing to do")
        with self.lock:
            why_not = self.refusal(seat)  # off turn: this sentence, and nothing judged
            if why_not is not None:
                return Explanation(text, False, why_not)
            assert type(seat) is int
            state = self.state
            for move in moves:
                past = sequence_refusal(state, seat)
                if past is not None:
                    return Explanation(str(move), False, past)
                try:
                    verdict = cast(Explanation, state.explain(move))
                    if verdict.legal:
                        state = state.play(move, player=seat)
                except InvalidMoveError as err:
                    return Explanation(str(move), False, f"that is not a move: {err.reason}")
                except SlothKernelError as err:  # refused by the game: its own words
                    return Explanation(str(move), False, str(err))
                if not verdict.legal:
                    return verdict
            for move in moves:
                try:
                    self.tables.play(self.table, seat, move, at=self.at)
                except (TableMovedOnError, TableClosedError) as err:
                    self.refresh()
                    return Explanation(str(move), False, f"{err}; the table is shown as it is now")
                except TableMoveError as err:
                    refused: Explanation = err.explanation or Explanation(str(move), False, str(err))
                    return refused
                except StoreError as err:  # the store is away: nothing was written; the page says so
                    return Explanation(str(move), False, f"the move was not made: {err.public}")
                self.refresh()
        return verdict if len(moves) == 1 else Explanation(text, True, verdict.reason)

    def step(self) -> bool:
        return False

    def reveal(self) -> None:
        return None


def table_game_board(session: TableSession) -> GameBoard[Any]:
    """The game's own play board, drawing `session` (one seat's view, or every hand): the session
    says how a table's page differs (its seats' names, no new deal, the seed kept for the teacher)."""
    board: GameBoard[Any] = board_class(session.game.name)(autoplay=False, session=session)
    return board


def sentence_html(text: str) -> str:
    return f'<div class="sk-table-sentence" role="status" style="font-size:17px;padding:10px 4px">{html.escape(text)}</div>'


def page_title(game: str, role: str, seat: int | None) -> str:
    """A table page's title: the game, then whose page it is (the game's title, then "· Player 2 (you)")."""
    from sloth_kernel.registry import game_specs

    spec = game_specs().get(game)
    title = spec.title if spec is not None else "A shared table"
    if role == "seat" and seat is not None:
        return f"{title} · Player {seat + 1} (you)"
    return f"{title} · {'the teacher' if role == 'teacher' else 'watching'}"


class TableBoard(widgets.VBox):
    """A table's page: which one comes from the page's address (see the module docs)."""

    # The page's address parameters, and those after '#' as a dict under "#", sent by the front end once it is up.
    _page_params = traitlets.Dict().tag(sync=True)
    # A count the front end raises every second while the page is open: a seat's heartbeat.
    _page_beat = traitlets.Int(0).tag(sync=True)
    # The page's title once a table is open (the game's title, then "· Player 2 (you)"); the light front
    # end sets the browser tab's title from it (the stock template keeps the notebook's title).
    _page_title = traitlets.Unicode("").tag(sync=True)

    def __init__(self, url: str | None = None) -> None:
        super().__init__()
        self.add_class("sk-table-page")
        self.url = url
        self.role = ""
        self.session: TableSession | None = None
        self.board: GameBoard[Any] | None = None
        self.follower: Follower | None = None
        self._follower_tables: Tables | None = None
        self._message = widgets.HTML(sentence_html(WAITING))
        self._message.add_class("sk-table-message")
        self._trouble = widgets.HTML()  # shown above the page while the store fails
        self._trouble.add_class("sk-table-trouble")
        self.children: tuple[Any, ...] = (self._message,)
        # the page's messages to this widget and its message box are read here: a forged one gets a
        # sentence, never a traceback (the game board, added later, reads its own)
        shield_messages(widget_family(self), self._refused)

    def _refused(self) -> None:
        if not self.role:
            self.say("This page cannot open the table: its address could not be read.")

    @traitlets.observe("_page_params")
    def _on_page_params(self, change: dict[str, Any]) -> None:
        if self.role:
            return  # a page opens its table once
        try:
            self.open_table(change["new"])
        except SeatTokenError as err:
            self.say(f"This page cannot open the table: {err}.")
        except StoreError as err:  # its address or path stays on the server
            self.say(f"This page cannot open the table: {err.public}. Reload the page to try again.")
        except TableError as err:
            self.say(f"This page cannot open the table: {err}.")
        except Exception as err:  # noqa: BLE001 - a person never sees a traceback
            server_log(err)
            self.say("Something went wrong while opening the table; reload the page to try again.")

    @traitlets.observe("_page_beat")
    def _on_page_beat(self, change: dict[str, Any]) -> None:
        """The page is open: renew its seat's heartbeat (a lingering kernel of a closed tab sends none)."""
        if self.role == "seat" and self.session is not None and self.session.viewer is not None:
            try:
                self.session.tables.store.heartbeat(self.session.table, self.session.viewer)
            except Exception as err:  # noqa: BLE001 - the store is away for now: the next beat tries again
                server_log(err)

    def say(self, text: str) -> None:
        self._message.value = sentence_html(text)
        self.children = (self._message,)

    def open_table(self, params: Any) -> None:
        """Open the table the parameters name: ``table`` from the address's query, and one of
        ``seat``, ``teacher`` or none (watch) from the part after ``#`` (the front end sends it as
        the dict under ``"#"``). A token in the query has been sent to the server with the
        request, so it opens nothing: the link was changed, and must be opened as it was given."""
        if not isinstance(params, dict):
            raise TableError("the page's address could not be read")
        if "seat" in params or "teacher" in params:
            raise TableError(
                "a seat's or the teacher's token belongs after '#' in its link, never after '?' "
                "(the link was changed); open the link exactly as it was given"
            )
        after_hash = params.get("#", {})
        if not isinstance(after_hash, dict):
            raise TableError("the page's address could not be read")
        table = params.get("table")
        if not isinstance(table, str) or not table:
            raise TableError("its address names no table: ask for the table's links again")
        tables = Tables(open_store(self.url))
        if "seat" in after_hash:
            seat = tables.sit(table, after_hash["seat"]).seat
            self.role = "seat"
            self.session = TableSession(tables, table, seat=seat)
            self.board = table_game_board(self.session)
            self.children = (self.board,)
            tables.store.heartbeat(table, seat)  # the page just spoke: it is open
        elif "teacher" in after_hash:
            handle = tables.teacher(table, after_hash["teacher"])
            self.role = "teacher"
            self.session = TableSession(tables, table, seat=None)
            self.board = table_game_board(self.session)
            self.children = (TeacherPanel(self, handle), self.board)
        else:
            self.role = "watch"
            # the game's own board, drawn from the public observation: what everyone at the table may know
            self.session = TableSession(tables, table, seat=None, public=True)
            self.board = table_game_board(self.session)
            self.board._ask_box.layout.display = "none"  # nobody watching may ask (it asks about no seat)
            self.children = (WatchPanel(self, tables, table, board=self.board),)
        viewer = self.session.viewer if self.role == "seat" and self.session is not None else None
        self._page_title = page_title(tables.state(table)[0].game, self.role, viewer)
        # the seat's heartbeat comes from the page's beats (_page_beat), not from this kernel
        self.follower = Follower(table, self._on_change, seat=None, url=self.url, on_trouble=self._on_trouble)
        self.follower.start()

    def _on_change(self, version: int, status: str) -> None:
        """From the follower's thread: read the table with this thread's own store, and redraw."""
        if self._follower_tables is None:
            self._follower_tables = Tables(open_store(self.url))
        if self.session is not None:
            self.session.refresh(self._follower_tables)
        for child in self.children:
            if isinstance(child, (WatchPanel, TeacherPanel)):
                child.refresh(self._follower_tables)

    def _on_trouble(self, err: TableError | None) -> None:
        """From the follower's thread: the store failed (a sentence above the page), or is back (None)."""
        rest = tuple(child for child in self.children if child is not self._trouble)
        if err is None:
            self.children = rest
            return
        said = err.public if isinstance(err, StoreError) else str(err)
        self._trouble.value = sentence_html(
            f"{said[:1].upper()}{said[1:]}. This page keeps trying and shows the table again when the store answers."
        )
        self.children = (self._trouble, *rest)

    def close(self) -> None:
        follower = getattr(self, "follower", None)
        if follower is not None:
            follower.stop()
        super().close()


class WatchPanel(widgets.VBox):
    """What everyone at the table knows: the game, whose turn, the seats and the public log."""

    def __init__(self, page: TableBoard, tables: Tables, table: str, board: GameBoard[Any] | None = None) -> None:
        super().__init__()
        self.add_class("sk-watch")
        self.add_class("sk-board")
        self.table = table
        self.lock = threading.Lock()
        self._status = widgets.HTML()
        self._status.add_class("sk-status")
        self._log = widgets.HTML()
        self._log.add_class("sk-log")
        note = widgets.HTML(
            sentence_html("You are watching: this page shows what everyone at the table knows, and nobody's hand.")
        )
        self._said = widgets.HTML()  # a sentence when the page sent a message this panel could not use
        # with the board (drawn from the public observation), its log is the page's; else this panel's own
        # (the board has its own turn line and seats, so the panel's status line is then left out)
        parts: tuple[widgets.Widget, ...] = (self._status, note, self._log) if board is None else (note, board)
        self.children = (widgets.HTML(BOARD_STYLE), *parts, self._said)
        shield_messages(widget_family(self), self._refused)
        self.refresh(tables)

    def _refused(self) -> None:
        self._said.value = sentence_html("The page sent a message this page could not use; nothing changed.")

    def refresh(self, tables: Tables) -> None:
        with self.lock:
            row, state = tables.state(self.table)
            summary = tables.show(self.table)
            # the protocol's log holds public events only; any seat's observation carries the same log
            lines = [event.text for event in state.observation(0).log]
            if summary.over:
                turn = "Game over."
            else:
                assert summary.current_player is not None
                turn = f"{seat_name(summary.current_player)} is to move."
            seats = ", ".join(
                f"{seat_name(seat)} ({'a person' if info.kind == 'human' else 'a bot'})"
                for seat, info in enumerate(row.seats)
            )
            self._status.value = (
                f'<div class="sk-turn" role="status"><div><div class="sk-turn-what">{html.escape(turn)}</div>'
                f'<div class="sk-turn-more">{html.escape(summary.title)} · {counted(summary.ply, "move")} · '
                f"the table is {html.escape(row.status)} · {html.escape(seats)}</div></div></div>"
            )
            self._log.value = log_lines_html(lines, rules=state.game.rules)


class TeacherPanel(widgets.VBox):
    """Pause or resume the table, and step back through its moves so far (every hand open)."""

    def __init__(self, page: TableBoard, handle: Any) -> None:
        super().__init__()
        self.add_class("sk-teacher")
        self.page = page
        self.handle = handle
        self.pause = widgets.Button(description="Pause the table", tooltip="no moves until you resume")
        self.pause.add_class("sk-table-pause")
        self.pause.on_click(self._on_pause)
        self.resume = widgets.Button(description="Resume the table", tooltip="the players may move again")
        self.resume.add_class("sk-table-resume")
        self.resume.on_click(self._on_resume)
        self.replay = widgets.Button(description="Step through the moves so far")
        self.replay.add_class("sk-table-replay")
        self.replay.on_click(self._on_replay)
        self.note = widgets.HTML()
        self.area = widgets.VBox()
        self.children = (widgets.HBox([self.pause, self.resume, self.replay]), self.note, self.area)
        # a forged message to the panel's widgets gets a sentence in its note line, never a traceback
        # (the step-through, added later, reads its own)
        shield_messages(widget_family(self), self._refused)
        self._show()

    def _refused(self) -> None:
        self.note.value = sentence_html("The page sent a message this page could not use; nothing changed.")

    def _show(self) -> None:
        session = self.page.session
        status = session.status if session is not None else "open"
        self.pause.disabled = status != "open"
        self.resume.disabled = status != "paused"

    def refresh(self, tables: Tables) -> None:
        self._show()

    def _act(self, action: Any, said: str) -> None:
        try:
            action()
            self.note.value = sentence_html(said)
        except SlothKernelError as err:  # a failed store's sentence without its path
            self.note.value = sentence_html(err.public if isinstance(err, StoreError) else str(err))
        if self.page.session is not None:
            with contextlib.suppress(StoreError):  # the note says so; the follower reads it again later
                self.page.session.refresh()
        self._show()

    def _on_pause(self, button: widgets.Button) -> None:
        self._act(self.handle.pause, "The table is paused: nobody can move until you resume it.")

    def _on_resume(self, button: widgets.Button) -> None:
        self._act(self.handle.resume, "The table is open again.")

    def _on_replay(self, button: widgets.Button) -> None:
        from sloth_widgets.stepper import StepThrough

        try:
            state = self.handle.state()
        except SlothKernelError as err:  # a failed store's sentence without its path
            said = err.public if isinstance(err, StoreError) else str(err)
            self.note.value = sentence_html(f"The moves cannot be read now: {said}. Try again in a moment.")
            return
        stepper = StepThrough(state.to_record(), step=len(state.history))
        self.area.children = (stepper,)


NEW_TABLE_MAX_SEATS = 8  # the form offers up to this many seats (a game may allow fewer)


class NewTableForm(widgets.VBox):
    """The gallery's "new table" form: a game, each seat a person or a bot, and Create; the table
    goes to the configured store (``SLOTH_TABLES``) and the form shows the seat, watch and teacher
    links to copy. Bad input gets a sentence; nothing is written then.

    The server address starts as the address the gallery was opened from: the light front end
    sends it (``_page_origin``) once the page is up. The stock template and JupyterLab send
    nothing, so there it stays at ``base_url`` or the default, http://127.0.0.1:8866."""

    # The address the page was opened from (origin and base URL), sent by the light front end.
    _page_origin = traitlets.Unicode("").tag(sync=True)

    def __init__(self, base_url: str | None = None) -> None:
        from sloth_kernel.registry import game_specs
        from sloth_kernel.tables.table import DEFAULT_BASE_URL

        super().__init__(layout=widgets.Layout(max_width="640px", width="100%"))
        self.add_class("sk-new-table")
        self.specs = game_specs()
        wide = widgets.Layout(width="100%", max_width="360px")
        self.game = widgets.Dropdown(
            options=[(spec.title, name) for name, spec in self.specs.items()], description="Game", layout=wide
        )
        self.game.add_class("sk-new-table-game")
        self.count = widgets.Dropdown(description="Players", layout=wide)
        self.count.add_class("sk-new-table-count")
        self.seat_box = widgets.VBox()
        self._base_url = base_url
        self._default_address = base_url or DEFAULT_BASE_URL
        self.address = widgets.Text(
            value=self._default_address,
            description="Server",
            tooltip="the address people open the links at (this Voila server)",
            layout=wide,
        )
        self.address.add_class("sk-new-table-address")
        self.create = widgets.Button(description="Create the table", button_style="success")
        self.create.add_class("sk-new-table-create")
        self.create.on_click(self._on_create)
        self.result = widgets.HTML()
        self.result.add_class("sk-new-table-result")
        self.seat_kinds: list[widgets.Dropdown] = []
        self.game.observe(self._on_game, "value")
        self.count.observe(self._on_count, "value")
        self._on_game(None)
        # A control 100% wide plus ipywidgets' 2 px margins on each side would scroll sideways on a phone.
        heading = widgets.HTML(
            "<style>.sk-new-table .jupyter-widgets:not(.sk-new-table){max-width:calc(100% - 4px) !important}</style>"
            '<h3 style="margin:6px 0">Start a shared table</h3>'
        )
        note = widgets.HTML(
            '<p style="font-size:13px;margin:2px 0 8px 0">Each person plays from their own browser: '
            "choose the game and who sits at each seat, then send every person their seat's link.</p>"
        )
        self.children = (heading, note, self.game, self.count, self.seat_box, self.address, self.create, self.result)
        shield_messages(widget_family(self), self._refused)

    def _refused(self) -> None:
        self.result.value = sentence_html("The form could not use what the page sent; no table was created.")

    @traitlets.observe("_page_origin")
    def _on_page_origin(self, change: dict[str, Any]) -> None:
        """The page's own address becomes the default, unless the person already typed another."""
        origin = change["new"]
        if self._base_url is None and self.address.value == self._default_address and _http_address(origin):
            self.address.value = self._default_address = origin

    def _on_game(self, change: Any) -> None:
        low, high = self.specs[self.game.value].players
        choices = list(range(max(low, 1), min(high, NEW_TABLE_MAX_SEATS) + 1))
        keep = self.count.value if self.count.value in choices else choices[0]
        self.count.options = [(str(n), n) for n in choices]
        self.count.value = keep
        self._on_count(None)

    def _on_count(self, change: Any) -> None:
        count = self.count.value or 0
        old = [kind.value for kind in self.seat_kinds]
        self.seat_kinds = []
        game = self.game.value if isinstance(self.game.value, str) and self.game.value in self.specs else None
        choices: list[tuple[str, str]] = [("a person", "human")]
        if game is not None:  # the levels by name: "bot" is the game's default level, "bot:LEVEL" another
            default = default_bot_level(game)
            choices += [
                (level_choice(game, level), "bot" if level == default else f"bot:{level}") for level in bot_levels(game)
            ]
        else:
            choices.append(("a bot", "bot"))
        values = [value for _, value in choices]
        for seat in range(count):
            kind = widgets.Dropdown(
                options=choices,
                value=old[seat] if seat < len(old) and old[seat] in values else ("human" if seat < 2 else "bot"),
                description=seat_name(seat),
                layout=widgets.Layout(width="100%", max_width="360px"),
            )
            kind.add_class("sk-new-table-seat")
            self.seat_kinds.append(kind)
        self.seat_box.children = tuple(self.seat_kinds)
        shield_messages([part for kind in self.seat_kinds for part in widget_family(kind)], self._refused)

    def make(self) -> str:
        """Create the table from the form's values; returns the links' HTML (or a sentence)."""
        seats = [kind.value for kind in self.seat_kinds]
        try:
            if not isinstance(self.game.value, str) or self.game.value not in self.specs:
                raise TableError("choose a game first")
            made = Tables(open_store()).create(self.game.value, seats, base_url=self.address.value.strip())
        except StoreError as err:  # the store's path or address stays on the server
            return sentence_html(f"The table was not created: {err.public}.")
        except SlothKernelError as err:
            return sentence_html(f"The table was not created: {err}.")
        except Exception as err:  # noqa: BLE001 - a person never sees a traceback
            server_log(err)
            return sentence_html("The table was not created: the table store could not be reached.")
        return created_links_html(made, self.specs[made.game].title)

    def _on_create(self, button: widgets.Button) -> None:
        self.result.value = self.make()


def _http_address(text: object) -> bool:
    """An http or https address of a server, with nothing after its path (what a page's origin is)."""
    return (
        isinstance(text, str) and re.fullmatch(r"https?://[A-Za-z0-9.\-\[\]:]+(/[A-Za-z0-9._~/\-]*)?", text) is not None
    )


def created_links_html(made: Any, title: str) -> str:
    """A new table's links, as links and as text a teacher can copy."""

    def link(url: str, label: str) -> str:
        safe = html.escape(url)
        return (
            f'<a href="{safe}" target="_blank" rel="noopener" aria-label="{html.escape(label)}" '
            f'style="word-break:break-all">{safe}</a>'
        )

    rows = []
    for seat in made.seats:
        name = seat_name(seat.seat)
        if seat.url is None:
            rows.append(f"<li><b>{name}</b>: a bot (no link)</li>")
        else:
            rows.append(f"<li><b>{name}</b>'s seat: {link(seat.url, f'{name} seat link')}</li>")
    rows.append(f"<li><b>Watch</b> (no hands shown): {link(made.watch, 'watch link')}</li>")
    rows.append(f"<li><b>Teacher</b> (every hand; keep it to yourself): {link(made.teacher, 'teacher link')}</li>")
    return (
        f'<div class="sk-new-table-links" role="status" style="font-size:14px;overflow-wrap:anywhere">'
        f"<p>A table of {html.escape(title)} is ready. Send each person their own seat's link: "
        f"a seat's link is its key, so anyone who has it plays that seat.</p><ul>{''.join(rows)}</ul></div>"
    )
