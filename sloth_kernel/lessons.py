"""Scripted deals for the teaching notebooks: a deal, the moves, and what they show.

Each :class:`Lesson` is replayed through the public protocol (``from_deal`` and
checked ``play``), so a lesson that stops matching the rules fails loudly in the
tests rather than teaching something false. The step-through widget takes
``lesson.record()``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sloth_kernel.core import GameState
from sloth_kernel.registry import load_game


@dataclass(frozen=True)
class Lesson:
    name: str
    game: str
    about: str
    deal: Mapping[str, Any] | None  # None: dealt from `seed`
    moves: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0

    def start(self) -> GameState[Any, Any]:
        game = load_game(self.game, **self.options)
        state: GameState[Any, Any] = (
            game.from_deal(self.deal, seed=self.seed) if self.deal else game.new_state(self.seed)
        )
        return state

    def state(self, upto: int | None = None) -> GameState[Any, Any]:
        """The position after the first `upto` moves (all of them by default)."""
        state = self.start()
        for move in self.moves[:upto]:
            state = state.play(move)
        return state

    def record(self) -> dict[str, Any]:
        return self.state().to_record()


def all_lessons() -> dict[str, Lesson]:
    """Every registered game's lessons, by name."""
    from sloth_kernel.registry import game_specs

    found: dict[str, Lesson] = {}
    for spec in game_specs().values():
        for item in spec.load(spec.lessons) or ():
            found[item.name] = item
    return found


def lesson(name: str) -> Lesson:
    lessons = all_lessons()
    if name not in lessons:
        raise KeyError(f"no lesson {name!r}; choose one of {', '.join(lessons)}")
    return lessons[name]


# --- what the lessons show ------------------------------------------------------------------
# A lesson is read in Voila, where no code shows: every value a lesson cell displays is a
# sentence, an HTML table or a picture, never a Python value. The helpers below build those.

LESSON_STYLE = """<style>
.sk-lesson{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;font-size:14px;color:#222;max-width:980px}
.sk-lesson table{border-collapse:collapse;margin:6px 0;max-width:100%;display:block;overflow-x:auto}
.sk-lesson th,.sk-lesson td{border:1px solid #d8d8d8;padding:3px 8px;text-align:left;vertical-align:top}
.sk-lesson th{background:#f0f0ea}
.sk-lesson td.sk-nw{white-space:nowrap}
.sk-lesson td.sk-num{text-align:right;font-variant-numeric:tabular-nums}
.sk-lesson .sk-yes{color:#1e6b2a;font-weight:700}.sk-lesson .sk-no{color:#a4262c;font-weight:700}
.sk-lesson .sk-figure{overflow-x:auto;max-width:100%}
.sk-lesson .sk-figure img{height:auto;display:block}
.sk-lesson .sk-wide,.sk-stepper .sk-board{overflow-x:auto;max-width:100%}
.sk-stepper .sk-scrub{max-width:100%}
.sk-lesson .sk-caption{color:#555;font-size:13px;margin:8px 0 2px 0}
@media (max-width:600px){.sk-lesson table{font-size:12.5px}.sk-lesson th,.sk-lesson td{padding:3px 5px}}
.sk-lesson ol.sk-log{margin:4px 0;padding-left:28px;line-height:1.45}
.sk-lesson details summary{cursor:pointer;color:#213f6b;margin:4px 0}
.sk-lesson p{margin:6px 0;line-height:1.45}
</style>"""


class Html:
    """Some HTML that a notebook shows as it is, and the same content as plain text (what a
    console, and the notebook tests' output check, read)."""

    def __init__(self, body: str, text: str = "") -> None:
        self.body = body
        self.text = text

    def _repr_html_(self) -> str:
        return f'{LESSON_STYLE}<div class="sk-lesson">{self.body}</div>'

    def __repr__(self) -> str:
        return self.text

    def __add__(self, other: Html) -> Html:
        return Html(self.body + other.body, "\n".join(t for t in (self.text, other.text) if t))


def cell(value: Any) -> str:
    """One table cell's HTML: numbers right-aligned, text escaped, HTML (an ``Html``) as it is."""
    import html as _html

    if isinstance(value, Html):
        return f"<td>{value.body}</td>"
    if isinstance(value, bool):
        return f'<td class="{"sk-yes" if value else "sk-no"}">{"yes" if value else "no"}</td>'
    if isinstance(value, int | float):
        return f'<td class="sk-num">{value:g}</td>' if isinstance(value, float) else f'<td class="sk-num">{value}</td>'
    text = str(value)
    short = len(text) <= 14  # a move or a number: kept on one line
    return f'<td class="sk-nw">{_html.escape(text)}</td>' if short else f"<td>{_html.escape(text)}</td>"


def table(header: Sequence[str], rows: Sequence[Sequence[Any]], caption: str = "") -> Html:
    """An HTML table: a header row and one row per entry (text, numbers, yes/no or ``Html``)."""
    import html as _html

    head = "".join(f"<th>{_html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(cell(v) for v in row) + "</tr>" for row in rows)
    cap = f'<p class="sk-caption">{_html.escape(caption)}</p>' if caption else ""
    lines = [" | ".join(header), *(" | ".join(plain(v) for v in row) for row in rows)]
    return Html(f"{cap}<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>", "\n".join(lines))


def plain(value: Any) -> str:
    """A table cell's value as text."""
    if isinstance(value, Html):
        return value.text
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def sentences(*lines: str) -> Html:
    """Plain sentences, one paragraph each (escaped)."""
    import html as _html

    return Html("".join(f"<p>{_html.escape(line)}</p>" for line in lines), "\n".join(lines))


def picture(figure: Any, alt: str) -> Html:
    """A matplotlib figure as an inline PNG that fits any screen width (the figure is closed)."""
    import base64
    import html as _html
    import io

    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
    try:
        import matplotlib.pyplot as plt

        plt.close(figure)
    except ImportError:  # pragma: no cover - matplotlib made the figure, so it is there
        pass
    png = buffer.getvalue()
    width = int.from_bytes(png[16:20], "big")  # the PNG header's width, in pixels
    data = base64.b64encode(png).decode("ascii")
    # As wide as the page allows, never wider than drawn; on a phone it keeps a readable width
    # (at most 560 px) and scrolls sideways rather than shrinking its labels away.
    style = f"width:100%;max-width:{width}px;min-width:{min(width, 560)}px"
    return Html(
        f'<div class="sk-figure"><img src="data:image/png;base64,{data}" alt="{_html.escape(alt)}" style="{style}"></div>',
        f"(picture: {alt})",
    )


def board(state: GameState[Any, Any], seat: int | None = None) -> Html:
    """A game's board: the teacher's view (every hand open), or what `seat` may know. A board
    wider than the screen scrolls sideways on its own rather than widening the page."""
    from sloth_kernel.render import render_observation

    if seat is None:
        markup = state._repr_html_() or ""
        who = "the teacher's view"
    else:
        markup = render_observation(state.observation(seat))
        who = f"what Player {seat + 1} sees"
    return Html(f'<div class="sk-wide">{markup}</div>', f"(the board: {who})")


def plain_list(items: Iterable[Any], conjunction: str = "and") -> str:
    """'A', 'A and B', 'A, B and C'."""
    words = [str(item) for item in items]
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {conjunction} {words[-1]}"


def explain_table(state: GameState[Any, Any], moves: Iterable[str], who: str | None = None) -> Html:
    """Each move, whether it is legal here, and the engine's reason with the rules it cites."""
    rows = []
    for move in moves:
        answer = state.explain(str(move))
        rows.append([str(move), answer.legal, answer.reason, ", ".join(answer.rules)])
    mover = who or f"Player {state.current_player + 1}"
    return table(["Move", "Legal?", "Why", "Rules"], rows, caption=f"{mover} to move")


def log_list(events: Sequence[Any], head: int | None = None, tail: int = 0) -> Html:
    """Log lines as a numbered list; with `head`, the lines between the first `head` and the last
    `tail` fold away under a "show" line."""
    import html as _html

    def items(chunk: Sequence[Any], start: int) -> str:
        return (
            f'<ol class="sk-log" start="{start}">'
            + "".join(f"<li>{_html.escape(str(e))}</li>" for e in chunk)
            + "</ol>"
        )

    text = "\n".join(str(e) for e in events)
    if head is None or head + tail >= len(events):
        return Html(items(events, 1), text)
    middle = events[head : len(events) - tail]
    folded = f"<details><summary>Show the {len(middle)} lines in between</summary>{items(middle, head + 1)}</details>"
    last = items(events[len(events) - tail :], len(events) - tail + 1) if tail else ""
    return Html(items(events[:head], 1) + folded + last, text)


def replay_sentence(state: GameState[Any, Any]) -> Html:
    """Whether the game's record (options, seed and moves, plain JSON) replays to the same game."""
    record = state.to_record()
    same = state.game.replay(record).view() == state.view()
    moves = len(record["moves"])
    verdict = "replays to exactly the same game" if same else "does NOT replay to the same game"
    return sentences(f"The record of this game (its options, seed and {moves} moves) {verdict}.")
