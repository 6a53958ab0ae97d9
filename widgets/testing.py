"""Helpers for driving boards without a browser (used by tests/test_widgets_*.py), and ``check_board``.

They look widgets up by their stable CSS classes, the same handles browser tests use.
``check_board(name)`` is the board half of ``sloth_kernel.testing.check_game``: a game author runs it
on their own board (the engine never imports the widgets, so it lives here).
"""

from __future__ import annotations

import html
import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import ipywidgets as widgets

from sloth_kernel.errors import ConformanceError, SlothKernelError, shorten
from sloth_kernel.registry import game_spec, load_game


def walk(widget: widgets.Widget, *, visible_only: bool = False) -> Iterator[widgets.Widget]:
    """Every widget under `widget` (itself included), skipping hidden boxes if asked."""
    layout = getattr(widget, "layout", None)
    if visible_only and layout is not None and layout.display == "none":
        return
    yield widget
    for child in getattr(widget, "children", ()):
        yield from walk(child, visible_only=visible_only)


def find_all(board: widgets.Widget, css: str) -> list[widgets.Widget]:
    return [w for w in walk(board) if css in getattr(w, "_dom_classes", ())]


def find(board: widgets.Widget, css: str) -> Any:
    """The one widget carrying CSS class `css`."""
    found = find_all(board, css)
    if len(found) != 1:
        raise LookupError(f"{len(found)} widgets carry class {css!r}")
    return found[0]


RULE_CONTROL = re.compile(r'<details class="sk-rule"><summary[^>]*>([^<]*)</summary>.*?</details>', re.S)


def shut_rules(markup: str) -> str:
    """`markup` with each rule control closed, as a page first shows it: the id alone, in its brackets, its
    words one click away."""
    return RULE_CONTROL.sub(r"\1", markup)


def visible_text(board: widgets.Widget) -> str:
    """What a person could read: visible HTML as text, plus visible buttons' labels and tooltips."""
    parts = []
    for w in walk(board, visible_only=True):
        if isinstance(w, widgets.HTML):
            body = re.sub(r"<style>.*?</style>", " ", w.value, flags=re.S)
            body = shut_rules(body)
            body = re.sub(r"<title>(.*?)</title>", r" \1 ", body)
            body = re.sub(r'<span[^>]*role="img"[^>]*aria-label="([^"]*)"[^>]*>', r" \1 ", body)  # a named picture
            parts.append(html.unescape(re.sub(r"<[^>]+>", " ", body)))
        elif isinstance(w, (widgets.Button, widgets.ToggleButton)):
            parts.append(f"{w.description} {w.tooltip or ''}")
    return re.sub(r"\s+", " ", " ".join(parts))


def hand_buttons(board: Any) -> list[widgets.ToggleButton]:
    """The card buttons of the player's hand, in hand order ([] when the hand is not on screen)."""
    on_screen = any(w is board.hand for w in walk(board, visible_only=True))
    return list(board.hand.buttons) if on_screen else []


def select_cards(board: Any, keys: list[str]) -> None:
    """Toggle on one hand card per key (a key is the card's notation), in this order."""
    cards = board.hand.cards
    taken: set[int] = set()
    buttons = hand_buttons(board)
    for key in keys:
        index = next(i for i, c in enumerate(cards) if c.key == key and i not in taken and not buttons[i].value)
        taken.add(index)
        buttons[index].value = True


# --- the board's conformance check ---------------------------------------------------------------------

SHELL_BUTTONS = frozenset({"sk-next", "sk-skip", "sk-again", "sk-replay-open", "sk-reveal", "sk-new"})
"""The shell's own buttons (bots, a new game, the replay, the hot-seat cover): no move of the game."""


def _one_line(err: BaseException, limit: int = 240) -> str:
    text = " ".join(str(err).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _said(text: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(text)).strip()


def _shown(board: Any, css: str) -> str:
    """The visible text of the one widget with class `css` ('' when it is hidden or missing)."""
    found = find_all(board, css)
    return visible_text(found[0]) if len(found) == 1 else ""


def _controls(board: Any) -> tuple[list[widgets.ToggleButton], list[widgets.Button]]:
    """The cards a person may select now (any hand or row of cards) and the buttons of the game's own controls."""
    cards, buttons = [], []
    for widget in walk(board, visible_only=True):
        classes = set(getattr(widget, "_dom_classes", ()))
        if isinstance(widget, widgets.ToggleButton) and "sk-card" in classes and not widget.disabled:
            cards.append(widget)
        elif type(widget) is widgets.Button and not widget.disabled and not classes & SHELL_BUTTONS:
            buttons.append(widget)
    return cards, buttons


def _to_my_turn(board: Any, limit: int) -> bool:
    """Let the bots (and any reveal the board stages) go until the seat on screen is to move."""
    for _ in range(limit):
        if board.state.is_over:
            return False
        if board.session.my_turn:
            return True
        if not board.run_bots() and not board.step():
            return False
    return False


def click_a_legal_move(board: Any) -> str | None:
    """Play a move by clicks as a person would: nothing selected or one card selected, then each of the
    game's buttons in turn, until a click plays a move. Returns the move played (None: no click played one)."""
    before = board.state
    cards, _ = _controls(board)
    for index in (None, *range(len(cards))):
        if index is not None:
            _controls(board)[0][index].value = True
        for button in _controls(board)[1]:
            button.click()
            if board.state is not before:
                return str(board.state.history[-1])
        for card in _controls(board)[0]:
            card.value = False
    return None


def check_board(name: str, *, seed: int = 3, players: int | None = None) -> None:
    """Check the play board of the registered game `name`: it builds for the game, shows a position,
    answers a click on a legal move, refuses an illegal move (and a move off turn) with a sentence and
    leaves the game as it was, and plays to the end of a game, showing how it ended. All along, while a
    staged step (the spec's ``reveal_kinds``) waits, none of the log it holds back is on the board and
    the game-over panel waits too (``board reveals``).

    One person plays against random bots, from `seed`, with `players` seats (default: the spec's
    default). Raises :class:`~sloth_kernel.errors.ConformanceError` naming every failure (each a
    ``sloth_kernel.testing.Failure``); returns None when the board passes.
    """
    from sloth_widgets import Board

    from sloth_kernel.testing import Failure

    spec = game_spec(name)
    count = players or spec.default_players
    failures: list[Failure] = []

    def fail(check: str, detail: str) -> None:
        failures.append(Failure(check, detail, seed, count, len(board.state.history) if board is not None else None))

    board: Any = None
    try:
        board = Board(name, seed=seed, seats=["human"] + ["random"] * (count - 1), autoplay=False)
    except Exception as err:
        fail("board builds", f"Board({name!r}, ...) raised {type(err).__name__}: {_one_line(err)}")
        raise ConformanceError(name, failures) from err
    steps: list[tuple[str, Callable[[], None]]] = []

    def shows() -> None:
        if board.last_error:
            fail("board shows", f"a fresh board shows an error: {board.last_error}")
        if not _shown(board, "sk-status"):
            fail("board shows", "the turn line (sk-status) shows nothing")
        log = _shown(board, "sk-log")
        first = _said(board.state.log[0].text) if board.state.log else ""
        if first and first not in log:
            fail("board shows", f"the log does not show the game's first line ({shorten(first)})")
        if not visible_text(board).strip():
            fail("board shows", "the board shows no text")

    def refuses() -> None:
        if not _to_my_turn(board, 50):
            fail("board refuses", "the person's turn never came")
            return
        game, state = (
            load_game(name, players=count) if "players" in _option_names(name) else load_game(name),
            board.state,
        )
        legal = {str(move) for move in state.legal_moves()}
        try:
            known = [str(move) for move in game.all_moves()]
        except NotImplementedError:
            known = [str(move) for seed_ in range(8) for move in game.new_state(seed_).legal_moves()]
        illegal = [text for text in known if text not in legal][:1] + ["zz top"]
        for text in illegal:
            verdict = board.submit(text)
            if verdict is None or verdict.legal:
                fail("board refuses", f"the board took the illegal move {text!r}")
                return
            if board.state is not state:
                fail("board refuses", f"refusing {text!r} changed the game")
            said = _shown(board, "sk-explain")
            if _said(verdict.reason) not in said:
                fail("board refuses", f"refusing {text!r}, the board does not show the reason ({verdict.reason!r})")
            if board.last_error:
                fail("board refuses", f"refusing {text!r}, the board shows an error: {board.last_error}")

    def clicks() -> None:
        if not _to_my_turn(board, 50):
            fail("board clicks", "the person's turn never came")
            return
        before = len(board.state.history)
        played = click_a_legal_move(board)
        if played is None:
            fail("board clicks", "no click on the board's cards and buttons played a move")
            return
        if board.last_error:
            fail("board clicks", f"after the click the board shows an error: {board.last_error}")
        moved = board.state.history[before:]
        if not moved or len(board.state.log) <= 0:
            fail("board clicks", "the click left no move in the game")
        if not _shown(board, "sk-log"):
            fail("board clicks", "after the click the log shows nothing")
        if board.session.bot_to_move:  # off turn: a move sent now is refused with a sentence, nothing changes
            state = board.state
            text = str(state.legal_moves()[0])
            verdict = board.submit(text)
            if verdict is None or verdict.legal or board.state is not state:
                fail("board clicks", f"a move sent off turn ({text!r}) was taken")
            elif _said(verdict.reason) not in _shown(board, "sk-explain"):
                fail("board clicks", f"a move sent off turn is refused without showing why ({verdict.reason!r})")

    def no_spoiler() -> None:
        """While a staged step waits, nothing it would show is on the board yet."""
        obs = board.session.observation()
        held = board.held_back(obs)
        if not held:
            return
        shown, cut = visible_text(board), len(obs.log) - held
        before = {_said(event.text) for event in obs.log[:cut]}  # a sentence said earlier may be on view
        early = [e.text for e in obs.log[cut:] if _said(e.text) not in before and _said(e.text) in shown]
        if early:
            fail("board reveals", f"a staged step not shown yet is on the board already: {shorten(early[0])}")
        if any(w.layout.display != "none" for w in find_all(board, "sk-game-over")):
            fail("board reveals", "the game-over panel shows while a staged step waits")

    def ends() -> None:
        rng = random.Random(f"check_board/{name}/{seed}")
        for _ in range(2 * spec.max_length + 100):
            no_spoiler()
            if any(f.check == "board reveals" for f in failures):
                return
            if board.state.is_over:
                break
            if board.session.my_turn:
                move = str(rng.choice(board.state.legal_moves()))
                verdict = board.submit(move)
                if verdict is None or not verdict.legal:
                    fail("board ends", f"the board refused the legal move {move!r}: {verdict}")
                    return
            elif not board.run_bots() and not board.step():
                fail("board ends", "the game stopped: nobody may move and the board has nothing to show")
                return
        else:
            fail("board ends", "the game did not end")
            return
        board.show_every_step()  # the staged steps of the last move (the spec's reveal_kinds), shown to their end
        over = find_all(board, "sk-game-over")
        if len(over) != 1 or over[0].layout.display == "none" or not visible_text(over[0]).strip():
            fail("board ends", "the game is over but the board shows no game-over panel")
        if board.last_error:
            fail("board ends", f"at the end the board shows an error: {board.last_error}")

    steps = [("board shows", shows), ("board refuses", refuses), ("board clicks", clicks), ("board ends", ends)]
    # "board reveals" (no staged step shows early) is checked at every step of "board ends"
    for check, step in steps:
        try:
            step()
        except (SlothKernelError, LookupError) as err:
            fail(check, f"{type(err).__name__}: {_one_line(err)}")
        except Exception as err:  # a bug of the board: reported, never a crash of the checker
            fail(check, f"raised {type(err).__name__}: {_one_line(err)}")
    if failures:
        raise ConformanceError(name, failures)


def _option_names(name: str) -> set[str]:
    return {option.name for option in game_spec(name).options()}
