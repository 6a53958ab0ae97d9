"""'Find the play' puzzles as a widget: the position with every hand open, the goal, and a try.

The puzzles, their proofs and the words of every verdict come from :mod:`sloth_kernel.puzzles`
(each game's puzzle book, named by its spec); the position is drawn by the game's own renderer.
The student picks a play by clicking cards of the hand to move or by typing it, then reads
whether it meets the goal and why.
"""

from __future__ import annotations

import html
import logging
from typing import Any

import ipywidgets as widgets
import traitlets
from sloth_widgets.hand import CardHand, HandCard
from sloth_widgets.markup import BOARD_STYLE, face_css

from sloth_kernel.puzzles import (
    Proof,
    Puzzle,
    Verdict,
    answer_words,
    judge_try,
    prove_puzzle,
    puzzle_book,
    puzzle_games,
)
from sloth_kernel.registry import game_spec
from sloth_kernel.render import kit, render_observation

__all__ = ["PuzzleBoard"]

FACE_PREFIX = "sk-f-pz-"
PUZZLE_STYLE = """
<style>
.sk-puzzle-head{font-size:15px;margin:4px 0}
.sk-puzzle-goal{font-size:17px;font-weight:700;background:#eef3fb;border:2px solid #c9d8f0;border-radius:10px;padding:8px 12px;margin:6px 0}
.sk-puzzle-where{font-size:12px;color:#4a4a4a}
.sk-puzzle .sk-explain{font-size:14px;line-height:1.4}
</style>
"""


def _face_class(key: str) -> str:
    """A CSS class for a hand key ('7', 'D', '*', 'T')."""
    safe = "".join(c if c.isalnum() else f"x{ord(c):x}" for c in key)
    return FACE_PREFIX + safe


class PuzzleBoard(widgets.VBox):
    """One game's puzzles, one at a time: ``PuzzleBoard(name)``; ``number`` (0-based) is a trait.

    ``try_move(text)`` judges a try and shows the verdict (it never raises); ``verdict`` holds
    the latest :class:`~sloth_kernel.puzzles.Verdict`.
    """

    number = traitlets.Int(0)

    def __init__(self, game_name: str | None = None, number: int = 0) -> None:
        super().__init__()
        self.add_class("sk-board")
        self.add_class("sk-puzzle")
        games = puzzle_games()
        game_name = game_name if game_name is not None else next(iter(games))
        book = puzzle_book(game_name)  # refuses a game without puzzles
        self.game_name = game_name
        self.title = game_spec(game_name).title
        self.kit = book.kit
        self.puzzles: tuple[Puzzle, ...] = book.puzzles
        self._proofs: dict[int, Proof] = {}
        self.verdict: Verdict | None = None
        self.style = widgets.HTML(BOARD_STYLE + kit.STYLE + PUZZLE_STYLE)
        self.head = widgets.HTML()
        self.goal = widgets.HTML()
        self.position = widgets.HTML()
        self.hand_label = widgets.HTML()
        self.faces = widgets.HTML()
        self.hand = CardHand()
        self.play_cards = widgets.Button(
            description="Play the chosen cards", button_style="primary", layout=widgets.Layout(width="auto")
        )
        self.play_cards.add_class("sk-play")
        self.typed = widgets.Text(placeholder="or type your play", layout=widgets.Layout(width="260px"))
        self.typed.add_class("sk-puzzle-text")
        self.try_button = widgets.Button(description="Try it", layout=widgets.Layout(width="auto"))
        self.feedback = widgets.HTML()
        self.feedback.add_class("sk-puzzle-feedback")
        auto = widgets.Layout(width="auto")
        self.previous = widgets.Button(description="Previous puzzle", layout=auto)
        self.next = widgets.Button(description="Next puzzle", layout=auto)
        self.show_answer = widgets.Button(description="Show the answer", layout=auto)
        self.play_cards.on_click(lambda _: self.try_cards())
        self.try_button.on_click(lambda _: self.try_move(self.typed.value))
        self.previous.on_click(lambda _: self.go(self.number - 1))
        self.next.on_click(lambda _: self.go(self.number + 1))
        self.show_answer.on_click(lambda _: self.reveal())
        actions = widgets.HBox([self.play_cards, self.typed, self.try_button])
        actions.add_class("sk-actions")
        moves = widgets.HBox([self.previous, self.next, self.show_answer])
        moves.add_class("sk-actions")
        self.children = [
            self.style,
            self.head,
            self.goal,
            self.position,
            self.hand_label,
            self.faces,
            self.hand,
            actions,
            self.feedback,
            moves,
        ]
        self.number = max(0, min(number, len(self.puzzles) - 1))
        self.render()

    # -- the puzzle shown --

    @property
    def puzzle(self) -> Puzzle:
        return self.puzzles[self.number]

    def proof(self) -> Proof:
        """The current puzzle's proof (searched once, then kept)."""
        if self.number not in self._proofs:
            self._proofs[self.number] = prove_puzzle(self.puzzle, self.kit)
        return self._proofs[self.number]

    def go(self, number: int) -> None:
        """Show puzzle `number` (0-based), kept within the book."""
        self.number = max(0, min(number, len(self.puzzles) - 1))

    @traitlets.validate("number")
    def _valid_number(self, proposal: dict[str, Any]) -> int:
        value = proposal["value"]
        return max(0, min(int(value), len(self.puzzles) - 1))

    @traitlets.observe("number")
    def _on_number(self, change: dict[str, Any]) -> None:
        self.verdict = None
        self.typed.value = ""
        self.render()

    def render(self) -> None:
        puzzle = self.puzzle
        state = puzzle.position()
        view = state.view()
        hero = state.current_player
        total = len(self.puzzles)
        self.head.value = (
            f'<div class="sk-puzzle-head"><b>{html.escape(self.title)}: puzzle {self.number + 1} of {total}</b> '
            f'<span class="sk-puzzle-where">(from the game dealt by seed {puzzle.seed}, after '
            f"{puzzle.ply} move{'s' * (puzzle.ply != 1)}; every hand is shown)</span></div>"
        )
        self.goal.value = f'<div class="sk-puzzle-goal">{html.escape(puzzle.statement())}</div>'
        self.position.value = render_observation(view)
        cards = self.kit.hand_cards(view, hero)
        faces = {_face_class(key): face for key, face, _ in cards}
        self.faces.value = face_css(faces)
        self.hand_label.value = f'<div class="sk-hand-label" style="color:#1d1d1d">Player {hero + 1}\'s hand: click the cards of your play</div>'
        self.hand.show([HandCard(key, _face_class(key), label) for key, _, label in cards])
        self.previous.disabled = self.number == 0
        self.next.disabled = self.number >= total - 1
        self.feedback.value = self._verdict_html()

    def _verdict_html(self) -> str:
        verdict = self.verdict
        if verdict is None:
            return '<div class="sk-explain sk-note">Pick your play.</div>'
        css = "sk-legal" if verdict.right else "sk-illegal"
        return f'<div class="sk-explain {css}">{html.escape(verdict.text)}</div>'

    # -- tries --

    def try_move(self, text: Any) -> Verdict:
        """Judge a typed (or built) play and show the verdict. Any text at all: it never raises."""
        try:
            verdict = judge_try(
                self.puzzle, self.kit, text if isinstance(text, str) else str(text), self._proof_or_none()
            )
        except Exception as err:  # noqa: BLE001 - shown to the student in words, never a traceback
            shown = text if isinstance(text, str) else "that"
            verdict = Verdict(
                shown[:40], False, False, "That cannot be judged here; type a play such as the ones above."
            )
            self.log_error(err)
        self.verdict = verdict
        self.feedback.value = self._verdict_html()
        return verdict

    @staticmethod
    def log_error(err: BaseException) -> None:
        """An unexpected error goes to the server's log, never to the page."""
        logging.getLogger(__name__).error("puzzle try failed", exc_info=err)

    def _proof_or_none(self) -> Proof | None:
        return self.proof()

    def try_cards(self) -> Verdict:
        """Try the play made of exactly the chosen cards of the hand."""
        chosen = sorted(self.hand.selected_keys)
        if not chosen:
            return self._say("Click the cards of your play first (or type it).")
        state = self.puzzle.position()
        matches = [move for move in state.legal_moves() if sorted(self.kit.move_keys(move)) == chosen]
        if not matches:
            names = " ".join(_key_word(key) for key in chosen)
            return self._say(f"No play here uses exactly these cards: {names}.")
        if len(matches) > 1:
            ways = ", ".join(self.kit.move_words(move) for move in matches)
            return self._say(f"These cards make {len(matches)} different plays: {ways}. Type the one you mean.")
        return self.try_move(str(matches[0]))

    def _say(self, text: str) -> Verdict:
        verdict = Verdict("", False, False, text)
        self.verdict = verdict
        self.feedback.value = f'<div class="sk-explain sk-note">{html.escape(text)}</div>'
        return verdict

    def reveal(self) -> str:
        """Show the answer and the line that proves it."""
        text = answer_words(self.puzzle, self.kit)
        self.verdict = Verdict(self.puzzle.answer, True, True, text)
        self.feedback.value = self._verdict_html()
        return text


def _key_word(key: str) -> str:
    return "10" if key == "T" else "Joker" if key == "*" else key
