"""The game log: numbered lines in a scrolling panel of fixed chunks (:class:`LogView`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import ipywidgets as widgets
from sloth_widgets.markup import rule_text

LOG_CHUNK = 40  # log lines per chunk widget: a new line re-sends its chunk, never the whole log


def log_lines_html(
    lines: Sequence[str], first: int = 1, label: bool = True, rules: Mapping[str, str] | None = None
) -> str:
    """Log lines numbered from `first`; the panel scrolls and stays pinned to the newest (CSS only).
    The rule ids a line cites that are keys of `rules` (the game's ``Game.rules``) open their words."""
    said = rules or {}
    if not lines:
        return '<div class="sk-empty">Nothing has happened yet.</div>'
    items = "".join(
        f'<li class="sk-log-line"><span class="sk-log-n">{n}.</span><span>{rule_text(said, line)}</span></li>'
        for n, line in enumerate(lines, first)
    )
    name = ' aria-label="Game log"' if label else ""
    return f'<ol class="sk-log-lines"{name}>{items}</ol>'


class LogView(widgets.VBox):
    """The game log: a scrolling panel (class ``sk-log``) of fixed chunks of lines, so a new line
    re-sends only the last chunk (a long game's log is tens of kilobytes). ``value`` reads the
    whole log's HTML; :meth:`show` sets it from lines."""

    def __init__(self) -> None:
        self._inner = widgets.VBox()
        self._inner.add_class("sk-log-inner")
        self._chunks: list[widgets.HTML] = []
        # The panel scrolls, so the keyboard must reach it; a box cannot take the focus itself
        # (ipywidgets gives boxes no tab stop), so its last line, which never changes, can: Tab
        # lands on the newest end and the arrow keys scroll the panel (whose outline shows it).
        self._end = widgets.HTML(
            '<div class="sk-log-end" tabindex="0" role="note" '
            'aria-label="Game log: the newest line is last; the arrow keys scroll it"></div>'
        )
        self._end.add_class("sk-log-end-box")
        super().__init__([self._inner])
        self.add_class("sk-log")

    @property
    def value(self) -> str:
        return "".join(chunk.value for chunk in self._inner.children if chunk is not self._end)

    def show_html(self, parts: Sequence[str]) -> None:
        """One chunk widget per part: only a part that changed is sent to the page."""
        while len(self._chunks) < len(parts):
            chunk = widgets.HTML()
            chunk.add_class("sk-log-chunk")
            self._chunks.append(chunk)
        for chunk, part in zip(self._chunks, parts, strict=False):
            chunk.value = part
        shown = (*self._chunks[: len(parts)], self._end)
        if self._inner.children != shown:
            self._inner.children = shown

    def show(self, lines: Sequence[str], rules: Mapping[str, str] | None = None) -> None:
        """Show the lines, each rule id they cite from `rules` (the game's ``Game.rules``) a control."""
        if not lines:
            self.show_html([log_lines_html(lines)])
            return
        self.show_html(
            [
                log_lines_html(lines[start : start + LOG_CHUNK], start + 1, label=start == 0, rules=rules)
                for start in range(0, len(lines), LOG_CHUNK)
            ]
        )
