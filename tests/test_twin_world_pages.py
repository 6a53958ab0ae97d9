"""Twin worlds: a page shows nothing that its seat may not know, whatever the page sends.

For every game with a board and every page kind (a seat's table page on a real SQLite store, the
watch page, hot-seat behind the cover and on a bot's turn, the play app on a bot's turn), two
worlds are built that differ only in what the page's seat may not see: the real deal, and a full
state drawn from that seat's observation (``Game.world_sampler``, or ``hypothetical_worlds``),
which agrees with it in everything the seat sees. A page is opened on each, and every forged
selection, click and message (tests/pages_forge.py) is sent to both, off turn (and, on the seat's
own turn, every selection, choice and question with its live preview); after each one the
state of every widget under the page is compared. Pages have randomness of their own (model ids,
a session's token, Sprint!'s pile frame), so the same world is opened twice as a control: only a
difference the control does not show is hidden information reaching the page.

A later page kind (the tutorial, the coach, the student page, the dashboard) joins this test
with one more entry in ``KINDS``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import pytest
from pages_forge import Flat, Wire, forge_update, forged_inputs, leaks, page_states, same_page_luck
from sloth_widgets import Board
from sloth_widgets.reveal import staged_starts
from sloth_widgets.table import TableBoard

import sloth_kernel.tables.table as table_module
from sloth_kernel import load_game
from sloth_kernel.registry import game_specs
from sloth_kernel.tables import Tables, open_store

GAMES = [name for name, spec in game_specs().items() if spec.board is not None]
PLAYERS = 3
SEED = 11
# Controls that move the game on by design are not forged: a bot's move, or a new deal, changes
# the world for real (a bot plays what its own hand allows), which no twin can match.
MOVES_ON = {"sk-next", "sk-skip", "sk-autoplay", "sk-again", "sk-setup-start", "sk-setup-deal", "sk-reveal"}


def sampler(state: Any, seat: int) -> Callable[[random.Random], Any]:
    cls = type(state.game)
    try:
        return cls.world_sampler(state.observation(seat))
    except NotImplementedError:
        return cls.hypothetical_worlds(state.observation(seat))


def twin_of(state: Any, seat: int) -> Any:
    """A world `seat` cannot tell from `state`, that differs from it in what `seat` may not see."""
    try:
        draw = sampler(state, seat)
    except NotImplementedError as err:
        pytest.skip(f"no twin world: {err}")
    rng = random.Random(SEED)
    for _ in range(20):
        twin = draw(rng)
        twin.history = list(state.history)  # a drawn world has no past moves; a page only counts them
        assert twin.observation(seat) == state.observation(seat)
        if twin.view() != state.view():
            return twin
    raise AssertionError(f"no world that {seat} cannot tell apart from {state!r} differs from it")


def skip(widget: Any) -> bool:
    return bool(MOVES_ON & set(widget._dom_classes))


def moves_to_ask(state: Any, asker: int) -> list[str]:
    """Move texts to type (Ask why): the mover's legal moves here and a pass."""
    return [str(move) for move in state.legal_moves()[:4]] + ["pass"]


def selects_only(widget: Any) -> bool:
    """On one's own turn a move is the seat's to make (and then the worlds go on differently): only
    selections, choices and questions are sent, with their previews, and no button but Ask."""
    return skip(widget) or (isinstance(widget, widgets.Button) and "sk-ask" not in widget._dom_classes)


def run_page(root: Any, board: Any, state: Any, asker: int) -> list[Flat]:
    """Every forged input to the page: what the page holds before, what the kernel sends it after
    each input (every update and new widget), and what it holds at the end."""
    tokens = (board.session.token,) if board is not None else ()
    shots = [page_states(root, tokens)]
    left_alone = selects_only if state.current_player == asker else skip
    with Wire(tokens) as wire:
        shots.extend(wire.take() for _ in forged_inputs(root, skip=left_alone, moves=moves_to_ask(state, asker)))
    shots.append(page_states(root, tokens))
    return shots


# --- the page kinds: each opens a page on a given world and returns (page, its board) ------------------


real_state = table_module._state


@contextlib.contextmanager
def table_world(world: Any) -> Iterator[None]:
    """Every table read in this block replays to `world` (the store, the page and its follower all
    see it), as a table whose seed dealt that world would."""
    table_module._state = lambda row: world
    try:
        yield
    finally:
        table_module._state = real_state


class TableKind:
    """A page of a shared table: three people, Player 1 to move."""

    def __init__(self, tmp: Path, game: str, role: str) -> None:
        self.url = str(tmp / "tables.db")
        self.tables = Tables(open_store(self.url))
        self.made = self.tables.create(game, ["human"] * PLAYERS)
        self.role = role
        row = self.tables.store.load(self.made.table)
        self.state = real_state(dataclasses.replace(row, seed=SEED))  # the table's deal, seeded for the test
        mover = self.state.current_player
        # a seat whose turn it is not; or, on its own turn, the mover (who then only selects and asks)
        self.asker = mover if role == "seat-own-turn" else (mover + 1) % PLAYERS

    def open(self, world: Any) -> tuple[Any, Any]:
        params: dict[str, Any] = {"table": self.made.table}  # what the front end sends: the hash's under "#"
        if self.role.startswith("seat"):
            url = self.made.seats[self.asker].url or ""
            params["#"] = {"seat": url.split("#seat=", 1)[1]}
        with table_world(world):
            page = TableBoard(url=self.url)
            page._page_params = params
            assert page.role == ("seat" if self.role.startswith("seat") else "watch"), "the page did not open"
            assert page.follower is not None
            page.follower.stop()  # nothing moves at this table: no redraws from its thread
        return page, page.board


STAGED_OPTIONS = {"surplus-of-sloths": {"super_surplus": True}}  # a reveal with the match going on


def staged_state(game: str, seats: int) -> Any:
    """A game played at random up to a move that stages steps (the spec's reveal_kinds), not over yet."""
    kinds = game_specs()[game].reveal_kinds
    if not kinds:
        pytest.skip(f"{game} stages no steps")
    state = load_game(game, players=seats, **STAGED_OPTIONS.get(game, {})).new_state(SEED)
    rng = random.Random(SEED)
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
        if staged_starts(state.view().log, kinds) and not state.is_over:
            return state
    pytest.skip(f"{game}: no staged step before the end from seed {SEED}")


class PlayKind:
    """A play board: against bots on a bot's turn, or hot-seat (behind the cover, or on a bot's turn),
    or ("staged") against bots just after a move that stages steps, its steps not shown yet: what each
    step shows comes from the observation (a round's end, a reveal's types, where the Hare stood)."""

    def __init__(self, game: str, role: str) -> None:
        self.game, self.role = game, role
        if role in ("bots", "staged"):
            self.seats = ["random", "human", "random"]  # Player 1, a bot, is to move
        else:
            self.seats = ["human", "human", "random"]
        self.staged = staged_state(game, len(self.seats)) if role == "staged" else None
        board = self.build()
        self.state, self.asker = board.session.state, self.asker_of(board)
        board.close()

    def build(self) -> Any:
        board = Board(self.game, seed=SEED, seats=self.seats, autoplay=False, **STAGED_OPTIONS.get(self.game, {}))
        session = board.session
        if self.staged is not None:
            session.state = self.staged
            session.version += 1
            assert board.held_back(session.observation()) > 0, "the board shows the staged steps one at a time"
        elif self.role != "bots":  # the people move until the cover is down, or until the bot is to move
            for _ in range(40):
                session.reveal()
                session.play(session.observation().legal_moves[0], session.viewer)
                if session.covered if self.role == "hot-seat-covered" else session.bot_to_move:
                    break
        board.render()
        return board

    def asker_of(self, board: Any) -> int:
        viewer: int = board.session.viewer  # who last had the device
        return 1 if self.role == "bots" else viewer

    def open(self, world: Any) -> tuple[Any, Any]:
        board = self.build()
        board.session.state = world
        board.session.version += 1  # the glue redraws, as after any change of the session
        return board, board


KINDS = ["seat", "watch", "bots", "hot-seat-covered", "hot-seat-bot-turn", "seat-own-turn", "staged"]


def kind_for(kind: str, tmp: Path, game: str) -> Any:
    if kind in ("seat", "watch", "seat-own-turn"):
        return TableKind(tmp, game, kind)
    return PlayKind(game, {"bots": "bots"}.get(kind, kind))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("game", GAMES)
def test_a_page_shows_the_same_in_worlds_its_seat_cannot_tell_apart(tmp_path: Path, game: str, kind: str) -> None:
    setup = kind_for(kind, tmp_path, game)
    state, asker = setup.state, setup.asker
    assert not state.is_over and (kind == "staged" or (state.current_player == asker) == (kind == "seat-own-turn"))
    if kind == "hot-seat-covered":
        assert setup.build().session.covered
    seats = range(PLAYERS) if kind == "watch" else [asker]  # the watch page knows less than any seat
    for seat in seats:
        twin = twin_of(state, seat)
        shots = {}
        for name, world in (("real", state), ("control", state.clone()), ("twin", twin)):
            with same_page_luck(SEED):
                page, board = setup.open(world)
                try:
                    shots[name] = run_page(page, board, state, asker)
                finally:
                    page.close()
        found = leaks(shots["real"], shots["control"], shots["twin"])
        assert not found, f"{len(found)} differences only hidden cards can make, e.g.:\n" + "\n".join(found[:6])


def test_the_twins_differ_and_the_comparison_sees_a_difference(tmp_path: Path) -> None:
    """The comparison can fail: a page that shows a hidden hand (the teacher's view, opened on each
    world) differs between the twins where its control does not."""
    game = GAMES[0]
    setup = TableKind(tmp_path, game, "seat")
    twin = twin_of(setup.state, setup.asker)
    shots = {}
    for name, world in (("real", setup.state), ("control", setup.state.clone()), ("twin", twin)):
        board = Board(game, seed=SEED, seats=["random"] * PLAYERS, autoplay=False)  # watching: every hand
        board.session.state = world
        board.session.version += 1
        shots[name] = [page_states(board, (board.session.token,))]
        board.close()
    assert leaks(shots["real"], shots["control"], shots["twin"])


def test_a_forged_update_reaches_the_board_as_a_page_message_would(tmp_path: Path) -> None:
    """The forging helper drives the board's own message reader: a forged selection selects."""
    board = Board(GAMES[0], seed=SEED, autoplay=False)
    card = board.hand.buttons[0]
    forge_update(card, value=True)
    assert board.hand.selected == (0,)
    forge_update(card, value="not a bool")  # a malformed message: a sentence, no change, no traceback
    assert board.hand.selected == (0,) and "could not use" in board.last_error
    board.close()
    assert load_game(GAMES[0]).num_players >= 1
