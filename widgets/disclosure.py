"""A folding section that every front end opens by keyboard (:class:`Disclosure`)."""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets


class Disclosure(widgets.VBox):
    """A folding section ("Ask why", "New game / seats") that every front end opens by keyboard:
    a toggle button with the section's title (Tab reaches it, Enter or Space opens and closes
    it), then the content, shown only while open. (ipywidgets' Accordion opens on a click only:
    its title takes no focus, in Voila's stock template and in JupyterLab.) The light template
    also tells screen readers whether it is open (``aria-expanded``)."""

    def __init__(self, title: str, content: widgets.Widget, **kwargs: Any) -> None:
        self.title = title
        self.toggle = widgets.ToggleButton(value=False, description=title, icon="caret-right", tooltip="")
        self.toggle.add_class("sk-disclosure-toggle")
        self.content = content
        self.content.layout.display = "none"
        super().__init__([self.toggle, content], **kwargs)
        self.add_class("sk-disclosure")
        self.toggle.observe(self._on_toggle, "value")

    @property
    def opened(self) -> bool:
        return bool(self.toggle.value)

    def _on_toggle(self, change: dict[str, Any]) -> None:
        opened = bool(change["new"])
        self.toggle.icon = "caret-down" if opened else "caret-right"
        self.content.layout.display = "" if opened else "none"
