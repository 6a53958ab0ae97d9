"""The answer to "is this move legal here, and why?", shared by the core and its errors."""

from __future__ import annotations

import html
from dataclasses import dataclass

SAID_MOVE = 40
"""The most characters of the asked move a sentence repeats (a long text is cut, ending "...")."""


@dataclass(frozen=True)
class Explanation:
    """Whether a move is legal here and why, in plain words, citing rule ids.

    ``state.explain(move)`` fills the first four fields. A hypothetical (``state.ask`` and
    ``state.ask_as``, see docs/protocol.md) fills the rest too:

    - ``seat``: the seat asked about (0-based; people read "Player 1").
    - ``their_turn``: False when that seat is not to move; ``legal`` and ``reason`` then say what
      the rules would say if it were their turn (``reason`` starts by saying whose turn it is).
    - ``effect``: for a legal move, what it would do, read from the log of a copy of the position
      that plays it (so it never disagrees with the engine); empty otherwise.
    - ``known``: False when the asker may not know the answer (a live game's question about
      another seat's hidden cards); ``legal`` is then False and ``reason`` says why it is unknown.
    """

    move: str
    legal: bool
    reason: str
    rules: tuple[str, ...] = ()
    effect: str = ""
    seat: int | None = None
    their_turn: bool = True
    known: bool = True

    def __str__(self) -> str:
        verdict = "Legal" if self.legal else "Not legal"
        cite = f" ({', '.join(self.rules)})" if self.rules else ""  # rule ids as the log cites them
        return f"{verdict}: {self.reason}{cite}"

    def __bool__(self) -> bool:
        return self.legal

    def verdict(self) -> str:
        """The answer's first words: "7-7: legal for Player 3 on their turn", "4-4-4: not legal for Player 1"."""
        who = f" for Player {self.seat + 1}" if self.seat is not None else ""
        move = self.move if len(self.move) <= SAID_MOVE else self.move[: SAID_MOVE - 3] + "..."
        if not self.known:
            return f"{move}: unknown{who}"
        if self.legal:
            return f"{move}: legal{who}" + ("" if self.their_turn else " on their turn")
        return f"{move}: not legal{who}"

    def because(self) -> str:
        """Why, with the rule ids, and what it would do: the sentences after the verdict."""
        reason = self.reason.rstrip(".")
        reason = reason[:1].upper() + reason[1:]
        cite = f" ({', '.join(self.rules)})" if self.rules else ""
        text = f"{reason}{cite}." if reason else ""
        if self.effect:
            text += f" What it would do: {self.effect}"
        return text.strip()

    def sentence(self) -> str:
        """The whole answer as sentences people read: the verdict, why (with rule ids), and the effect.

        E.g. "7-7: legal for Player 3 on their turn. It is not Player 3's turn: ... (rule ids).
        What it would do: ..." (the log lines of the move).
        """
        return f"{self.verdict()}. {self.because()}".strip()

    def _repr_html_(self) -> str:
        css = "sk-explain sk-legal" if self.legal else "sk-explain sk-illegal"
        return f'<div class="{css}">{html.escape(str(self))}</div>'
