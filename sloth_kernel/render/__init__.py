"""Pure renderers: observation -> HTML. Shared by ``_repr_html_`` and the widgets."""

from __future__ import annotations

import importlib
from typing import Any

from .kit import CardFace, card_row, card_svg, page, panel

RENDERERS: dict[str, str] = {
    "too-sloth-to-win": "sloth_kernel.render.too_sloth_to_win",
    "surplus-of-sloths": "sloth_kernel.render.surplus_of_sloths",
    "race-to-the-bottom": "sloth_kernel.render.race_to_the_bottom",
    "sprint": "sloth_kernel.render.sprint",
}


def render_observation(observation: Any) -> str:
    """HTML for any game's observation (or omniscient view)."""
    module = importlib.import_module(RENDERERS[observation.game])
    return module.render(observation)


__all__ = ["CardFace", "card_row", "card_svg", "page", "panel", "render_observation"]
