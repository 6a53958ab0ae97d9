"""The answer to "is this move legal here, and why?", shared by the core and its errors."""

from __future__ import annotations

import html
from dataclasses import dataclass


@dataclass(frozen=True)
class Explanation:
    """Whether a move is legal here and why, in plain words, citing rule ids."""

    move: str
    legal: bool
    reason: str
    rules: tuple[str, ...] = ()

    def __str__(self) -> str:
        verdict = "Legal" if self.legal else "Not legal"
        cite = f" ({', '.join(self.rules)})" if self.rules else ""  # rule ids as the log cites them
        return f"{verdict}: {self.reason}{cite}"

    def __bool__(self) -> bool:
        return self.legal

    def _repr_html_(self) -> str:
        css = "sk-explain sk-legal" if self.legal else "sk-explain sk-illegal"
        return f'<div class="{css}">{html.escape(str(self))}</div>'
