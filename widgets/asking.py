"""Ask why on a play board: who may ask about whom, and the engine's answer.

Watching, anyone may ask about any seat, with every hand open (``state.ask``); in a live game,
only the seat on screen about itself, with what that seat may know (``state.ask_as``); behind the
hot-seat cover, nobody (the widget itself is :class:`sloth_widgets.ask.AskWhy`)."""

from __future__ import annotations

from sloth_widgets.session import Session

from sloth_kernel import Explanation

ASK_COVERED = "Ask why answers the player whose hand is shown: show your hand first."


def ask_viewer(session: Session) -> int | None:
    """Whose live question the board may put: the seat on screen, with their hand shown (None: nobody)."""
    return None if session.covered or session.mode == "watch" else session.viewer


def ask_seats(session: Session) -> list[int]:
    """The seats a question may be about now."""
    viewer = ask_viewer(session)
    return list(range(session.game.num_players)) if session.mode == "watch" else [] if viewer is None else [viewer]


def ask_question(session: Session, seat: int, move: str) -> Explanation | str:
    """The answer to "why (not) `move` for `seat`?", from what the one asking may know."""
    state = session.state
    answer: Explanation
    if session.mode == "watch":
        answer = state.ask(seat, move)
        return answer
    viewer = ask_viewer(session)
    if viewer is None:  # the controls are off then; this answers a question sent anyway
        return ASK_COVERED
    answer = state.ask_as(viewer, move, viewer)  # a live player asks about their own seat only
    return answer


def where_asked(session: Session) -> str:
    """When a question was put, so that its answer stays true while the game goes on."""
    state = session.state
    moves = len(state.to_record()["moves"])
    return "After the last move" if state.is_over else "At the deal" if moves == 0 else f"Before move {moves + 1}"
