"""The "Ask why" row: a student's question to the engine, shared by the step-through and the boards.

A seat, a move typed as the table writes it ("7-7", "10 10", "pass") and an *Ask why* button;
the answer is the engine's sentence: "why can't Player 3 play 7-7 here?", "what would 4-4-4 have
done?". The widget never decides a rule. Its owner says, with :meth:`AskWhy.configure`, which
seats may be asked about and which question answers (``state.ask`` in an omniscient view,
``state.ask_as`` in a live one, so the answer holds only what the asker may know). Bad input
gets a sentence, never a traceback.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence

import ipywidgets as widgets
from sloth_widgets.markup import RULE_STYLE, rule_text

from sloth_kernel import Explanation
from sloth_kernel.core import seat_name
from sloth_kernel.errors import SlothKernelError

# (seat, move text) -> the engine's answer, or a sentence saying why nothing may be asked
Question = Callable[[int, str], "Explanation | str"]

ASK_STYLE = """
<style>
.sk-ask-answer{font-size:14px;line-height:1.45;margin:4px 0 8px 0;overflow-wrap:anywhere}
.sk-ask-answer .sk-ask-yes{color:#1d6b35;font-weight:700}
.sk-ask-answer .sk-ask-no{color:#9b1c1c;font-weight:700}
</style>
"""


def answer_html(where: str, answer: Explanation, rules: Mapping[str, str] | None = None) -> str:
    """An answer as a sentence: where it was asked, the verdict, why (rule ids, each opening its words
    from `rules`, the game's ``Game.rules``), what it would do."""
    tone = "sk-ask-yes" if answer.legal else "sk-ask-no"
    head = f"{html.escape(where)}: " if where else ""
    return (
        f'{ASK_STYLE}{RULE_STYLE}<div class="sk-ask-answer">{head}'
        f'<span class="{tone}">{html.escape(answer.verdict())}.</span> {rule_text(rules or {}, answer.because())}</div>'
    )


def notice_html(text: str, rules: Mapping[str, str] | None = None) -> str:
    return f'{ASK_STYLE}{RULE_STYLE}<div class="sk-ask-answer">{rule_text(rules or {}, text)}</div>'


class AskWhy(widgets.VBox):
    """Seat dropdown, move box, *Ask why* button and the answer (see the module docs).

    Nothing can be asked until :meth:`configure` gives it a question and the seats it may be
    asked about; with no seats the controls are disabled and ``note`` says why.
    """

    def __init__(self) -> None:
        super().__init__(layout=widgets.Layout(width="auto", max_width="100%"))
        self.add_class("sk-ask-why")
        self._question: Question | None = None
        self._seats: list[int] = []
        self._where: Callable[[], str] = lambda: ""
        self._rules: Mapping[str, str] = {}  # the game's rule words, for the ids an answer cites
        self.ask_seat = widgets.Dropdown(
            description="Player",
            layout=widgets.Layout(width="170px", max_width="100%"),
            style={"description_width": "50px"},
        )
        self.ask_seat.add_class("sk-ask-seat")
        self.ask_move = widgets.Text(
            placeholder="a move, e.g. pass",
            description="Move",
            layout=widgets.Layout(width="260px", max_width="100%"),
            style={"description_width": "45px"},
        )
        self.ask_move.add_class("sk-ask-move")
        self.ask_button = widgets.Button(
            description="Ask why",
            tooltip="Could that player make this move here, and what would it do?",
            layout=widgets.Layout(width="90px"),
        )
        self.ask_button.add_class("sk-ask")
        self.ask_button.on_click(lambda _: self.ask_why())
        self._selection: Callable[[], str | None] | None = None
        self._picking = False  # True while the pick list is refilled (no question then)
        self.ask_selected = widgets.Button(
            description="Ask about my selection",
            tooltip="Could you play the cards you selected here, and what would it do?",
            layout=widgets.Layout(width="auto", display="none"),
        )
        self.ask_selected.add_class("sk-ask-selected")
        self.ask_selected.on_click(lambda _: self.ask_about_selection())
        self.ask_pick = widgets.Dropdown(
            description="or pick",
            options=[],
            value=None,
            layout=widgets.Layout(width="auto", max_width="100%", display="none"),
            style={"description_width": "50px"},
        )
        self.ask_pick.add_class("sk-ask-pick")
        self.ask_pick.observe(self._on_pick, "value")
        self.ask_answer = widgets.HTML(layout=widgets.Layout(width="auto", max_width="100%"))
        self.ask_answer.add_class("sk-ask-answer-box")
        self.controls = widgets.HBox(
            [self.ask_seat, self.ask_move, self.ask_button, self.ask_selected, self.ask_pick],
            layout=widgets.Layout(flex_flow="row wrap", align_items="center", width="auto", max_width="100%"),
        )
        self.controls.add_class("sk-ask-controls")
        self.children = [self.controls, self.ask_answer]

    def configure(
        self,
        question: Question | None,
        seats: Sequence[int],
        *,
        example: str | None = "pass",
        where: Callable[[], str] | None = None,
        note: str = "",
        rules: Mapping[str, str] | None = None,
        selection: Callable[[], str | None] | None = None,
        choices: Sequence[tuple[str, str]] = (),
    ) -> None:
        """Who may be asked about (`seats`; the first is chosen unless the chosen one is still there),
        the question that answers, an example move for the box (None keeps the one it shows), and
        where the answer is asked ("Before move 3"), and the game's rule words (``Game.rules``: the ids an
        answer cites open them; None keeps the ones given before). No seats or no question: nothing can
        be asked and `note` says why."""
        if rules is not None:
            self._rules = rules
        self._question = question if seats else None
        self._where = where or (lambda: "")
        self._seats = list(seats)
        options = [(seat_name(s), s) for s in seats]
        chosen = self.ask_seat.value
        if list(self.ask_seat.options) != options:
            self.ask_seat.options = options
        if options and self.ask_seat.value not in self._seats:
            self.ask_seat.value = chosen if chosen in self._seats else self._seats[0]
        self.ask_seat.disabled = len(options) < 2  # one seat: fixed, shown for what it is
        self.ask_move.disabled = self.ask_button.disabled = self._question is None
        if example is not None:
            self.ask_move.placeholder = f"a move, e.g. {example}"
        if self._question is None:
            self.ask_answer.value = notice_html(note) if note else ""
        # no typing needed: the cards selected (`selection`, the board's preview) or a move picked from `choices`
        self._selection = selection if self._question is not None else None
        self.ask_selected.layout.display = "" if self._selection is not None else "none"
        picks = list(choices) if self._question is not None else []
        if list(self.ask_pick.options) != picks:
            self._picking = True
            try:
                self.ask_pick.options = picks
                self.ask_pick.value = None
            finally:
                self._picking = False
        self.ask_pick.layout.display = "" if picks else "none"

    def forget(self) -> None:
        """Forget the answer and the typed move (the next one at the screen must not see them)."""
        self.clear()
        self.ask_move.value = ""

    def ask_about_selection(self) -> Explanation | None:
        """Ask about the move the selected cards would make (the board's preview)."""
        if self._selection is None:
            return None
        move = self._selection()
        if move is None:
            self.ask_answer.value = notice_html("Select some cards first, then ask.")
            return None
        return self.ask_about(move)

    def ask_about(self, move: str) -> Explanation | None:
        """Ask about `move` for the chosen seat, as if it had been typed."""
        self.ask_move.value = move
        return self.ask_why()

    def _on_pick(self, change: dict[str, object]) -> None:
        if self._picking or not isinstance(change["new"], str):
            return
        self.ask_about(change["new"])

    def clear(self) -> None:
        """Forget the shown answer (it belonged to another moment or another viewer)."""
        self.ask_answer.value = ""

    def ask_why(self) -> Explanation | None:
        """Put the question (seat and move from the controls) to the engine and show the answer.

        Bad input shows a sentence, never a traceback; the answer is also returned (None: nothing asked).
        """
        if self._question is None:
            return None
        if self.ask_seat.value not in self._seats:  # none chosen (a page may send that): the first, or ask
            if len(self._seats) != 1:
                self.ask_answer.value = notice_html("Choose a player first.")
                return None
            self.ask_seat.value = self._seats[0]
        text = self.ask_move.value.strip()
        if not text:
            example = self.ask_move.placeholder.replace("a move, e.g. ", "")
            self.ask_answer.value = notice_html(f"Type a move first, as the table writes it, e.g. {example}.")
            return None
        try:
            answer = self._question(int(self.ask_seat.value), text)
        except SlothKernelError as err:  # every engine refusal is a sentence
            words = " ".join(str(err).split()).rstrip(".")
            self.ask_answer.value = notice_html(f"That question cannot be asked: {words}.", self._rules)
            return None
        if isinstance(answer, str):
            self.ask_answer.value = notice_html(answer, self._rules)
            return None
        self.ask_answer.value = answer_html(self._where(), answer, self._rules)
        return answer
