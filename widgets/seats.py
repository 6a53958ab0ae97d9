"""The seat setup: players, seat kinds, game options and a chosen seed (:class:`SeatSetup`)."""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets
from sloth_widgets.session import HUMAN, Session, level_choice, parse_seed, player_counts

from sloth_kernel.bots import bot_levels
from sloth_kernel.core import seat_name
from sloth_kernel.errors import ConfigError


class SeatSetup(widgets.VBox):
    """Number of players, human or bot level per seat and game options; then New game (a fresh,
    secret deal), or, on purpose, a chosen seed: type it and press Deal this seed."""

    MAX_SEATS = 5
    # the Box's children trait (a tuple), declared for mypy: ipywidgets is untyped
    children: tuple[Any, ...]

    def __init__(self, game_name: str, on_new: Callable[[int | None, list[str], dict[str, Any]], None]) -> None:
        super().__init__()
        self.add_class("sk-setup")
        self.game_name = game_name
        self._on_new = on_new
        counts = [c for c in (player_counts(game_name) if game_name else [1]) if c <= self.MAX_SEATS]
        kinds: list[Any] = [("a person at this screen", HUMAN)] + [
            (level_choice(game_name, level), level) for level in (bot_levels(game_name) if game_name else [])
        ]
        self.players = widgets.Dropdown(
            options=counts, value=counts[0], description="Players", layout=widgets.Layout(width="180px")
        )
        self.players.observe(lambda change: self._show_seats(), "value")
        self.seat_kinds = [
            widgets.Dropdown(options=kinds, value=HUMAN, description=seat_name(s), layout=widgets.Layout(width="220px"))
            for s in range(self.MAX_SEATS)
        ]
        self.option_widgets: dict[str, widgets.ValueWidget] = {}
        self.start = widgets.Button(description="New game", button_style="primary")
        self.start.add_class("sk-new")
        self.start.on_click(self._start)
        # Text, not a number box: a seed has 128 bits, a JS number only 53.
        self.chosen_seed = widgets.Text(
            value="", placeholder="a whole number", description="Seed", layout=widgets.Layout(width="300px")
        )
        self.chosen_seed.add_class("sk-seed-input")
        self.deal_seed = widgets.Button(
            description="Deal this seed",
            tooltip="deal the seed typed here: everyone who deals it gets the same cards",
            layout=widgets.Layout(width="auto"),
        )
        self.deal_seed.add_class("sk-deal-seed")
        self.deal_seed.on_click(self._deal_chosen)
        self.seed_note = widgets.HTML()
        self.seed_note.add_class("sk-seed-note")
        self._say_seed("")
        self.children = (
            widgets.HBox([self.players]),
            widgets.GridBox(self.seat_kinds, layout=widgets.Layout(grid_template_columns="repeat(auto-fill, 230px)")),
            widgets.HBox([]),
            self.start,
            widgets.HBox([self.chosen_seed, self.deal_seed], layout=widgets.Layout(align_items="center")),
            self.seed_note,
        )

    def add_options(self, options: dict[str, widgets.ValueWidget]) -> None:
        """Game options as widgets, keyed by the engine's option name."""
        self.option_widgets = dict(options)
        self.children = self.children[:2] + (widgets.HBox(list(options.values())),) + self.children[3:]

    def load(self, session: Session) -> None:
        """Show the session's current setup (ConfigError for more seats than a board shows)."""
        if len(session.seats) > self.MAX_SEATS:
            raise ConfigError(
                f"a play board seats at most {self.MAX_SEATS} players, not {len(session.seats)}",
                value=str(len(session.seats)),
            )
        self.players.value = len(session.seats)
        for s, kind in enumerate(session.seats):
            self.seat_kinds[s].value = kind
        if session.chosen:  # a secret seed never goes into the page; a chosen one may
            self.chosen_seed.value = str(session.seed)
        for name, widget in self.option_widgets.items():
            value = getattr(session.game.config, name, None)
            if value is not None:
                widget.value = value
        self._show_seats()

    def _show_seats(self) -> None:
        for s, dropdown in enumerate(self.seat_kinds):
            dropdown.layout.display = "" if s < self.players.value else "none"

    def chosen(self) -> tuple[list[str], dict[str, Any]]:
        """The seats and options set up here."""
        seats = [d.value for d in self.seat_kinds[: self.players.value]]
        options = {name: w.value for name, w in self.option_widgets.items()}
        if len(player_counts(self.game_name)) > 1:
            options["players"] = self.players.value
        return seats, options

    def _say_seed(self, error: str) -> None:
        help_text = (
            "<i>New game</i> deals a fresh, secret deal (its seed is shown when the game is over). "
            "To deal a chosen seed on purpose, for a class that should all get the same cards, type it and "
            "press <i>Deal this seed</i> (or open the page with <code>?seed=…</code> in its address)."
        )
        error_html = f'<div class="sk-seed-error"><b>Not dealt:</b> {html.escape(error)}</div>' if error else ""
        self.seed_note.value = f'<div class="sk-explain sk-note">{error_html}{help_text}</div>'

    def _start(self, button: widgets.Button) -> None:
        seats, options = self.chosen()
        self._say_seed("")
        self._on_new(None, seats, options)

    def _deal_chosen(self, button: widgets.Button) -> None:
        try:
            seed = parse_seed(self.chosen_seed.value)
        except ValueError as err:
            self._say_seed(str(err))
            return
        seats, options = self.chosen()
        self._say_seed("")
        self._on_new(seed, seats, options)
