"""Pure renderers: observation -> HTML. Shared by ``_repr_html_`` and the widgets."""

from __future__ import annotations

import html

from sloth_kernel.core import Observation, install_html_renderer
from sloth_kernel.render.kit import CardFace, card_row, card_svg, log_html, page, panel


def render_observation(observation: Observation) -> str:
    """HTML for any game's observation (or omniscient view), by the renderer its spec names."""
    from sloth_kernel.registry import game_spec

    spec = game_spec(observation.game)
    renderer = spec.load(spec.renderer)
    if renderer is None:
        return page(html.escape(spec.title), panel("Log", log_html([str(event) for event in observation.log])))
    html_text: str = renderer(observation)
    return html_text


install_html_renderer(render_observation)

__all__ = ["CardFace", "card_row", "card_svg", "page", "panel", "render_observation"]
