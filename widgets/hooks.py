"""What a game's board fills in: the hooks of the board shell (:class:`sloth_widgets.board.GameBoard`).

A board subclasses ``GameBoard[ObsT]``, typed by its game's observation, and overrides the hooks
below (and nothing of the shell: tests/test_board_hooks.py holds every board to that). Each hook
has a default that suits a game without that part.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Generic, Protocol, TypeVar

import ipywidgets as widgets
from sloth_widgets.hand import HandCard

from sloth_kernel.core import Event


class Observation(Protocol):
    """What the shell itself reads of every game's observation (a game's board reads the rest)."""

    @property
    def legal_moves(self) -> Sequence[Any]: ...

    @property
    def log(self) -> Sequence[Event]: ...


ObsT = TypeVar("ObsT", bound=Observation)


class BoardHooks(Generic[ObsT]):
    """The hooks a game's board fills in; `ObsT` is the game's observation type."""

    game_name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    hand_title: ClassVar[str] = "Your hand"
    shows_hand: ClassVar[bool] = True  # False for games without a hand of cards
    single_card: ClassVar[bool] = False  # True: one card of the hand at a time (the latest click wins)
    offers_hints: ClassVar[bool] = True  # False: no Hints toggle (a hint would give away what the player must judge)
    asks_from_selection: ClassVar[bool] = True
    """Ask why offers the selected cards (:meth:`preview_move`) and a pick list of the asker's legal
    moves, besides typing; False where a preview would give away what the player must judge."""
    prompt: ClassVar[str] = "Select cards, then press a button."
    person_steps_reveals: ClassVar[bool] = False
    """Staged steps (the spec's ``reveal_kinds``, :mod:`sloth_widgets.reveal`): True, the bots wait
    while one waits, for the person to step on (Next and Bots to my turn are off); False, the bots'
    pacing (Next, the clock) shows the next step itself. Either way a move sent moves past them."""

    # -- built once --

    def face_styles(self) -> str:
        """CSS for every card face a hand of this game can show."""
        return ""

    def build_controls(self) -> list[widgets.Widget]:
        """The game's action bar widgets (built once)."""
        return []

    def build_table(self) -> list[widgets.Widget]:
        """Interactive widgets shown under the picture (e.g. River rows), built once."""
        return []

    def setup_options(self) -> dict[str, widgets.ValueWidget]:
        """The game's options in the New game panel, keyed by the engine's option name (built once)."""
        return {}

    # -- drawn from the observation at every render --

    def hand_cards(self, obs: ObsT) -> list[HandCard]:
        """The viewer's hand as cards (empty if none)."""
        return []

    def hinted_keys(self, obs: ObsT) -> set[str]:
        """Card keys that take part in some legal move (engine's legal_moves)."""
        return set()

    def hint_shapes(self, obs: ObsT) -> list[str]:
        """The shapes of the plays the viewer can make, each a short phrase people read
        ("Singles: 2, 4 or 8", "Runs of 3, ending at 5 or 6"), for Hints; empty if none."""
        return []

    def picture(self, obs: ObsT, private: bool) -> str:
        """The board picture; `private` False means public parts only (hot-seat cover)."""
        return ""

    def standings(self, obs: ObsT) -> str:
        """A panel beside the log with the game's figures in full (a table); may be empty."""
        return ""

    def seat_facts(self, obs: ObsT, seat: int) -> list[str]:
        """A seat's public counts, each a short phrase people read ("12 cards", "3 points")."""
        return []

    def seat_status(self, obs: ObsT, seat: int) -> str:
        """A seat's public state in a word or two ("passed", "out", "finished 1st"); empty if none."""
        return ""

    def turn_hint(self, obs: ObsT) -> str:
        """What the player to move may do now, in a few words ("beat the Pair or pass")."""
        return ""

    def staged_note(self, obs: ObsT) -> str | None:
        """The words under the controls while a staged step waits (:mod:`sloth_widgets.reveal`), in
        place of the last move's words; None (or ""): the newest log line shown."""
        return None

    def hand_heading(self, obs: ObsT, my_turn: bool) -> str:
        return self.hand_title

    def hand_enabled(self, obs: ObsT, my_turn: bool) -> bool:
        """May the hand's cards be selected now?"""
        return my_turn

    def summary(self, obs: ObsT) -> str:
        """Game-over text (winner, scores)."""
        return ""

    def update_controls(self, obs: ObsT, my_turn: bool) -> None:
        """Enable, label and fill the action bar (and the board's own widgets) from the observation."""

    # -- the selection and the moves --

    def preview_move(self) -> str | None:
        """The move the current selection would make, as text (None: nothing chosen)."""
        return None

    def move_words(self, obs: ObsT, move: Any) -> str | None:
        """A legal move as Ask why's pick list names it, in players' words (None: the game's
        ``say_move``)."""
        return None

    def reset_controls(self) -> None:
        """Clear game-specific choices after the state changed."""

    def on_selection(self) -> None:
        """The hand selection changed (e.g. show a drink chooser)."""
