"""The play page of a game that has a board but no play notebook of its own (a plugin's game).

The gallery links such a game to ``play.ipynb?game=NAME``; this page builds that game's board once it
knows the name: from the page's address, which the play apps' front end sends (``_page_params``, as
the play boards and the table pages receive theirs), or from the query Voila gives a kernel it starts
for the request (``QUERY_STRING``). ``seed`` in the address deals that seed, as on any play board.
Only a registered game with a board opens; any other name gets a sentence naming the games there are.
"""

from __future__ import annotations

import html
import os
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qs

import ipywidgets as widgets
import traitlets
from sloth_widgets import Board
from sloth_widgets.guard import server_log, shield_messages
from sloth_widgets.tree import widget_family

from sloth_kernel import game_specs
from sloth_kernel.errors import SlothKernelError, shorten

WAITING = (
    "Opening the game… If this sentence stays, open the game from the gallery, in an ordinary browser "
    "window: this page learns which game to show from its address."
)


def playable() -> dict[str, str]:
    """The games this page can open: name -> title, for every registered game with a board."""
    return {name: spec.title for name, spec in game_specs().items() if spec.board is not None}


def _sentence(text: str) -> str:
    return (
        f'<div class="sk-play-sentence" role="status" style="font-size:17px;padding:10px 4px">{html.escape(text)}</div>'
    )


class PlayPage(widgets.VBox):
    """A game's play board, the game named by the page's address (see the module docs)."""

    # The page's address parameters, sent by the front end once it is up.
    _page_params = traitlets.Dict().tag(sync=True)

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        super().__init__()
        self.add_class("sk-play-page")
        self.board: Any = None
        self._message = widgets.HTML(_sentence(WAITING))
        self.children: tuple[Any, ...] = (self._message,)
        shield_messages(widget_family(self), self._refused)
        query = parse_qs((os.environ if environ is None else environ).get("QUERY_STRING", ""))
        if "game" in query:  # Voila started this kernel for the request: the address is here already
            self.open_game({key: values[-1] for key, values in query.items()})

    def _refused(self) -> None:
        if self.board is None:
            self.say("This page cannot open a game: its address could not be read.")

    @traitlets.observe("_page_params")
    def _on_page_params(self, change: dict[str, Any]) -> None:
        if self.board is None:
            self.open_game(change["new"])
        elif isinstance(change["new"], dict) and "seed" in change["new"]:
            self.board.deal_address_seed(change["new"]["seed"])

    def open_game(self, params: Any) -> None:
        """Build the board of the game ``params["game"]`` names (once), dealing ``params["seed"]`` if given."""
        if self.board is not None:
            return
        games = playable()
        name = params.get("game") if isinstance(params, dict) else None
        if not isinstance(name, str) or name not in games:
            shown = f" {shorten(name)}" if isinstance(name, str) and name else ""
            listed = ", ".join(sorted(games.values()))
            self.say(f"This page cannot open the game{shown}: it is not a game here. The games here: {listed}.")
            return
        try:
            board = Board(name)
        except SlothKernelError as err:
            self.say(f"This page cannot open {games[name]}: {err}.")
            return
        except Exception as err:  # noqa: BLE001 - a person never sees a traceback
            server_log(err)
            self.say(f"Something went wrong while opening {games[name]}; reload the page to try again.")
            return
        self.board = board
        self.children = (board,)
        if "seed" in params:
            board.deal_address_seed(params["seed"])

    def say(self, text: str) -> None:
        self._message.value = _sentence(text)
        self.children = (self._message,)
