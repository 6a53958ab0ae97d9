"""'Does it beat?': pick the combination on the table and a candidate; the engine answers.

The checker never decides a rule. For each question it builds a real engine
position with ``game.from_deal`` -- one seat holds the table combination and
plays it, the next seat to move holds exactly the candidate's cards -- and
reports ``state.explain(candidate)``: yes or no, the reason in plain words, and
the rule ids with their words from ``game.rules``.

Too Sloth To Win (4 players): the lone drink (``D9`` on the table, a Single 9
by TS-4) is set up the way it happens in play: ``8-D9`` is played and the next
player passes, taking the 8 (TS-6).

Race to the Bottom (2 players, private decks): each seat also gets a few
filler cards in its deck, so that playing the meld does not end the race.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

import ipywidgets as widgets
import traitlets

from sloth_kernel import ConfigError, Explanation, GameState, InvalidMoveError, load_game
from sloth_kernel.render import kit

TOO_SLOTH = "too-sloth-to-win"
RACE = "race-to-the-bottom"
CLIMBING_GAMES: dict[str, str] = {TOO_SLOTH: "Too Sloth To Win", RACE: "Race to the Bottom"}

EXAMPLES: dict[str, tuple[str, ...]] = {
    TOO_SLOTH: (
        "2",
        "5",
        "8",
        "D9",
        "2-2",
        "7-7",
        "4-4-4",
        "4-5",
        "6-7",
        "3-4-5",
        "4-D5-6",
        "5-D5",
        "7-D7-7",
        "6-7-8",
        "3-4",
    ),
    RACE: (
        "7",
        "A",
        "7 7",
        "Q Q",
        "A A",
        "*A *A",
        "5 6 7",
        "Q K A",
        "A 2 3",
        "4 4 4",
        "3 3 4 4",
        "3 3 3 4 4 4",
        "9 9 9 9",
        "2 2 2 2",
        "5 5 5 *5 *5",
        "T J Q K A",
    ),
}
RACE_FILLER = "2345678"  # filler deck cards (any ranks do; suits never matter, RB-1)
TS_PLAYERS, RACE_PLAYERS = 4, 2


@dataclass(frozen=True)
class Verdict:
    """The engine's answer to 'does `candidate` beat `table`?'."""

    game: str
    table: str
    candidate: str
    table_name: str  # the engine's name for what lies on the table, e.g. 'Run 4-5-6'
    explanation: Explanation | None  # None when the question could not be set up
    problem: str = ""  # why not, in the engine's words
    rules: tuple[tuple[str, str], ...] = ()  # (rule id, plain words)

    @property
    def beats(self) -> bool | None:
        return None if self.explanation is None else self.explanation.legal

    def __str__(self) -> str:
        if self.explanation is None:
            return f"Cannot set this up: {self.problem}"
        answer = "Yes" if self.explanation.legal else "No"
        cite = f" [{', '.join(r for r, _ in self.rules)}]" if self.rules else ""
        return f"{answer}: {self.explanation.reason}{cite}"


def does_it_beat(game_name: str, table: str, candidate: str) -> Verdict:
    """Ask the engine whether `candidate` may be played on `table` (both in table notation)."""
    if game_name not in CLIMBING_GAMES:
        raise ConfigError(f"the checker knows the climbing games: {', '.join(CLIMBING_GAMES)}")
    try:
        state, table_name = scenario(game_name, table, candidate)
    except (ConfigError, InvalidMoveError) as err:
        return Verdict(game_name, table, candidate, "", None, _words(err))
    explanation = state.explain(candidate)
    rules = tuple((r, state.game.rules.get(r, "")) for r in explanation.rules)
    return Verdict(game_name, table, candidate, table_name, explanation, rules=rules)


def scenario(game_name: str, table: str, candidate: str) -> tuple[GameState[Any], str]:
    """A real position where the seat to move faces `table` holding the candidate's cards.

    Returns the state and the engine's name for the table. Raises ConfigError
    (in the engine's words) when the table cannot be put there.
    """
    if game_name == TOO_SLOTH:
        return _too_sloth_scenario(table, candidate)
    return _race_scenario(table, candidate)


# --- Too Sloth To Win ---------------------------------------------------------------------


def _too_sloth_scenario(table: str, candidate: str) -> tuple[GameState[Any], str]:
    from sloth_kernel.games.too_sloth_to_win import DRINK_BASE, Play, combo_name

    game = load_game(TOO_SLOTH, players=TS_PLAYERS, rounds=1)
    put = game.parse_move(table)
    if not isinstance(put, Play):
        raise ConfigError("the table holds a combination such as 5, 7-7 or 4-5-6, not a pass")
    lone_drink = len(put.cards) == 1 and put.cards[0] > DRINK_BASE
    table_plays = ["8-D9", "pass 8"] if lone_drink else [str(put)]
    table_cards = "8 D" if lone_drink else _ts_hand(put.cards, DRINK_BASE)
    wanted = _ts_candidate_hand(game, candidate, DRINK_BASE)
    hands = [table_cards, "", wanted, ""] if lone_drink else [table_cards, wanted, "", ""]
    state = game.from_deal({"hands": hands, "pacemaker": 0})
    for move in table_plays:
        verdict = state.explain(move)
        if not verdict.legal:
            raise ConfigError(f"{table} cannot be on the table: {verdict.reason}")
        state = state.play(move)
    return state, combo_name(state.view().table)


def _ts_hand(cards: tuple[int, ...], drink_base: int) -> str:
    return " ".join("D" if c > drink_base else str(c) for c in cards)


def _ts_candidate_hand(game: Any, candidate: str, drink_base: int) -> str:
    try:
        move = game.parse_move(candidate)
    except InvalidMoveError:
        return ""  # explain() will say why it is not a move
    cards = getattr(move, "cards", ())
    return _ts_hand(cards, drink_base)


# --- Race to the Bottom -------------------------------------------------------------------


def _race_scenario(table: str, candidate: str) -> tuple[GameState[Any], str]:
    game = load_game(RACE, players=RACE_PLAYERS)
    put = game.parse_move(table)
    if not hasattr(put, "need"):
        raise ConfigError("the table holds a meld such as 7 7, Q K A or 9 9 9 9, not a pass")
    try:
        wanted = _race_cards(game.parse_move(candidate))
    except InvalidMoveError:
        wanted = []  # explain() will say why it is not a move
    table_cards = _race_cards(put)
    deal = {
        "hands": [table_cards, wanted],
        "decks": [_filler(table_cards), _filler(wanted)],
        "leader": 0,
    }
    state = game.from_deal(deal)
    verdict = state.explain(str(put))
    if not verdict.legal:
        raise ConfigError(f"{table} cannot be on the table: {verdict.reason}")
    state = state.play(put)
    return state, state.view().to_beat.describe()


def _race_cards(move: Any) -> list[str]:
    """The hand cards a meld uses: its naturals, and a '*' per Joker (RB-3)."""
    from sloth_kernel.games.race_to_the_bottom_melds import CARD_SYMBOLS

    if not hasattr(move, "need"):
        return []
    cards = [CARD_SYMBOLS[rank] for rank, count in move.need for _ in range(count)]
    return cards + ["*"] * move.jokers


def _filler(hand: list[str]) -> list[str]:
    """Three deck cards of ranks the hand barely uses, so the seat is not about to shed out."""
    return [rank for rank in RACE_FILLER if hand.count(rank) < 3][:3]


def _words(err: Exception) -> str:
    return getattr(err, "reason", None) or str(err)


# --- the widget -------------------------------------------------------------------------


def verdict_html(verdict: Verdict) -> str:
    """A big yes/no, the engine's reason, and the rules it cites in plain words."""
    if verdict.explanation is None:
        body = (
            f'<div class="sk-verdict-answer sk-warn">Can\'t set that up</div><div>{html.escape(verdict.problem)}</div>'
        )
        return kit.panel("Does it beat?", body, css="sk-verdict")
    legal = verdict.explanation.legal
    answer = "Yes, it beats." if legal else "No."
    css = "sk-legal" if legal else "sk-illegal"
    rules = "".join(
        f'<div class="sk-rule-line"><b>{html.escape(r)}</b> {html.escape(words)}</div>' for r, words in verdict.rules
    )
    body = (
        f'<div class="sk-explain {css}"><span class="sk-verdict-answer" style="font-size:18px;font-weight:700">'
        f"{answer}</span> On the table: <b>{html.escape(verdict.table_name)}</b>; you try "
        f"<code>{html.escape(verdict.candidate)}</code>.<br>{html.escape(verdict.explanation.reason)}</div>{rules}"
    )
    return kit.panel("Does it beat?", body, css="sk-verdict")


class BeatChecker(widgets.VBox):
    """Choose a game, the table and a candidate; the verdict updates as you type.

    ``game``, ``table`` and ``candidate`` are traits, settable from code;
    ``verdict`` holds the latest :class:`Verdict`.
    """

    game = traitlets.Unicode(TOO_SLOTH)
    table = traitlets.Unicode("4-5")
    candidate = traitlets.Unicode("3-4-5")

    def __init__(self, game: str = TOO_SLOTH, table: str | None = None, candidate: str | None = None) -> None:
        super().__init__()
        self.add_class("sk-checker")
        self.verdict: Verdict | None = None
        self.game_picker = widgets.ToggleButtons(options=[(v, k) for k, v in CLIMBING_GAMES.items()], value=game)
        self.game_picker.add_class("sk-checker-game")
        self.table_box = widgets.Combobox(
            description="On the table", ensure_option=False, style={"description_width": "90px"}
        )
        self.table_box.add_class("sk-checker-table")
        self.candidate_box = widgets.Combobox(
            description="You play", ensure_option=False, style={"description_width": "90px"}
        )
        self.candidate_box.add_class("sk-checker-candidate")
        self.check_button = widgets.Button(description="Does it beat?", button_style="primary")
        self.check_button.add_class("sk-check")
        self.answer = widgets.HTML()
        self.answer.add_class("sk-verdict-box")
        self.help = widgets.HTML()
        widgets.link((self.game_picker, "value"), (self, "game"))
        widgets.link((self.table_box, "value"), (self, "table"))
        widgets.link((self.candidate_box, "value"), (self, "candidate"))
        self.check_button.on_click(lambda _: self.render())
        self.children = [
            self.game_picker,
            self.help,
            widgets.HBox([self.table_box, self.candidate_box, self.check_button]),
            self.answer,
        ]
        with self.hold_trait_notifications():
            self.game = game
            self.table = table if table is not None else ("4-5" if game == TOO_SLOTH else "7 7")
            self.candidate = candidate if candidate is not None else ("3-4-5" if game == TOO_SLOTH else "Q Q")
        self.render()

    @traitlets.observe("game")
    def _on_game(self, change: dict[str, Any]) -> None:
        if change["old"] != change["new"] and change["old"]:
            with self.hold_trait_notifications():  # a fresh, sensible pair for the other game
                self.table, self.candidate = ("4-5", "3-4-5") if change["new"] == TOO_SLOTH else ("7 7", "Q Q")
        self.render()

    @traitlets.observe("table", "candidate")
    def _on_question(self, change: dict[str, Any]) -> None:
        self.render()

    def render(self) -> None:
        """Ask the engine and redraw; idempotent."""
        self.table_box.options = EXAMPLES[self.game]
        self.candidate_box.options = EXAMPLES[self.game]
        notation = (
            "Notation: 5 (Single), 7-7 (Jump), 4-5-6 (Run), D5 = the drink declared as 5; "
            "D9 on the table = a lone drink (a Single 9, TS-4)."
            if self.game == TOO_SLOTH
            else "Notation: ranks 2-9, T, J, Q, K, A separated by spaces; a Joker is * plus the rank it "
            "stands for (*7, *A). Suits never matter (RB-1)."
        )
        self.help.value = (
            f'<div class="sk-checker-help" style="font-size:12px;color:#555">{html.escape(notation)}</div>'
        )
        self.verdict = does_it_beat(self.game, self.table.strip(), self.candidate.strip())
        self.answer.value = kit.STYLE + verdict_html(self.verdict)


# --- who beats whom --------------------------------------------------------------------


def beat_matrix(game_name: str, combinations: list[str] | tuple[str, ...]) -> list[list[bool | None]]:
    """matrix[i][j]: may combinations[j] be played on combinations[i]? (the engine's verdicts)"""
    return [[does_it_beat(game_name, table, candidate).beats for candidate in combinations] for table in combinations]


def plot_beat_matrix(game_name: str, combinations: list[str] | tuple[str, ...], ax: Any = None) -> Any:
    """A grid: rows are on the table, columns are played on top; green = it beats."""
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap

    matrix = beat_matrix(game_name, combinations)
    codes = [[2 if cell else 0 if cell is False else 1 for cell in row] for row in matrix]
    if ax is None:
        _, ax = plt.subplots(figsize=(5.6, 5))
    ax.imshow(codes, cmap=ListedColormap(["#f4c7c3", "#dddddd", "#b7e1c1"]), vmin=0, vmax=2)
    ax.set_xticks(range(len(combinations)), combinations, rotation=60, ha="right", fontsize=8)
    ax.set_yticks(range(len(combinations)), combinations, fontsize=8)
    ax.set_xlabel("played on top")
    ax.set_ylabel("on the table")
    for i, row in enumerate(matrix):
        for j, cell in enumerate(row):
            ax.text(j, i, "✓" if cell else "·" if cell is False else "?", ha="center", va="center", fontsize=9)
    ax.set_title(CLIMBING_GAMES[game_name], fontsize=11)
    if any(cell is None for row in matrix for cell in row):
        ax.text(
            0.0,
            -0.32,
            "? = cannot happen: the deck lacks the cards for both",
            transform=ax.transAxes,
            fontsize=8,
            color="#555",
        )
    return ax.figure


# --- self-check questions ------------------------------------------------------------------


class SelfCheck(widgets.VBox):
    """A question with a few answers; clicking one says right or wrong, and why, at once.

    ``chosen`` (a trait) holds the clicked answer; :meth:`choose` clicks from code.
    """

    chosen = traitlets.Unicode("")

    def __init__(self, question: str, options: list[str] | tuple[str, ...], answer: str, why: str) -> None:
        super().__init__()
        if answer not in options:
            raise ValueError(f"the answer {answer!r} is not among the options")
        self.add_class("sk-quiz")
        self.question, self.options, self.answer, self.why = question, tuple(options), answer, why
        self.prompt = widgets.HTML(f'<b class="sk-quiz-question">{html.escape(question)}</b>')
        self.buttons = [widgets.Button(description=option, layout=widgets.Layout(width="auto")) for option in options]
        for button in self.buttons:
            button.add_class("sk-quiz-option")
            button.on_click(lambda b: self.choose(b.description))
        self.feedback = widgets.HTML()
        self.feedback.add_class("sk-quiz-feedback")
        self.children = [self.prompt, widgets.HBox(self.buttons), self.feedback]
        self.render()

    @property
    def correct(self) -> bool | None:
        return None if not self.chosen else self.chosen == self.answer

    def choose(self, option: str) -> None:
        self.chosen = option

    @traitlets.observe("chosen")
    def _on_chosen(self, change: dict[str, Any]) -> None:
        self.render()

    def render(self) -> None:
        for button in self.buttons:
            button.button_style = (
                ("success" if button.description == self.answer else "danger")
                if self.chosen and button.description in (self.chosen, self.answer)
                else ""
            )
        if not self.chosen:
            self.feedback.value = '<span style="color:#777">Pick an answer.</span>'
            return
        verdict = "Right!" if self.correct else f"Not quite: the answer is “{self.answer}”."
        css = "sk-legal" if self.correct else "sk-illegal"
        self.feedback.value = (
            f'{kit.STYLE}<div class="sk-explain {css}"><b>{html.escape(verdict)}</b> {html.escape(self.why)}</div>'
        )


def beat_question(game_name: str, table: str, candidate: str) -> SelfCheck:
    """'Does X beat Y?' with the engine's verdict as the answer and its reason as the why."""
    verdict = does_it_beat(game_name, table, candidate)
    if verdict.explanation is None:
        raise ConfigError(f"cannot ask about {table!r} / {candidate!r}: {verdict.problem}")
    what = verdict.table_name or table
    question = f"The table shows {what}. May you play {candidate} on it?"
    cite = f" ({', '.join(r for r, _ in verdict.rules)})" if verdict.rules else ""
    return SelfCheck(question, ("Yes", "No"), "Yes" if verdict.beats else "No", verdict.explanation.reason + cite)


__all__ = [
    "BeatChecker",
    "SelfCheck",
    "beat_matrix",
    "beat_question",
    "plot_beat_matrix",
    "CLIMBING_GAMES",
    "EXAMPLES",
    "Verdict",
    "does_it_beat",
    "scenario",
]
