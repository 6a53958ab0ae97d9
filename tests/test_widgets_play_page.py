"""The play page of a game with a board but no play notebook of its own (the toy plugin here): the
gallery links it as ``play.ipynb?game=NAME`` and the page opens that game's board, from the address the
front end sends or the query Voila gives a kernel it starts; any other name gets a sentence."""

from __future__ import annotations

import html
import re

import pytest
from outside_games import STICKS
from plugin_dist import TOY, installed
from sloth_widgets.play import WAITING, PlayPage, playable
from toy_high_card.board import HighCardBoard

from sloth_kernel import game_spec
from sloth_kernel.gallery import game_card


def shown(page: PlayPage) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", page._message.value))


def test_the_gallery_links_a_plugin_with_a_board_to_the_play_page() -> None:
    card = game_card(game_spec(TOY))
    assert 'class="sk-play-link" href="play.ipynb?game=toy-high-card"' in card
    for name in ("too-sloth-to-win", "sprint"):  # a game with its own play notebook keeps it
        assert f'href="{game_spec(name).play_notebook}"' in game_card(game_spec(name))


def test_the_address_the_front_end_sends_opens_the_game_and_deals_its_seed() -> None:
    page = PlayPage(environ={})
    assert page.board is None and shown(page) == WAITING
    page._page_params = {"game": TOY, "seed": "5"}
    assert isinstance(page.board, HighCardBoard) and page.children == (page.board,)
    assert page.board.session.state.seed == 5
    first = page.board
    page._page_params = {"game": "too-sloth-to-win"}
    assert page.board is first, "a page opens its game once"


def test_the_query_voila_gives_a_kernel_it_starts_opens_the_game() -> None:
    page = PlayPage(environ={"QUERY_STRING": "game=toy-high-card&seed=3"})
    assert isinstance(page.board, HighCardBoard) and page.board.session.state.seed == 3


@pytest.mark.parametrize("params", [{}, {"game": "chess"}, {"game": ""}, {"game": 7}, {"game": "x" * 500}, ["game"]])
def test_any_other_address_gets_a_sentence_naming_the_games_here(params: object) -> None:
    page = PlayPage(environ={})
    page.open_game(params)
    assert page.board is None
    text = shown(page)
    assert text.startswith("This page cannot open the game") and "it is not a game here" in text
    assert "High Card" in text and "Too Sloth To Win" in text and len(text) < 400


def test_a_game_without_a_board_is_not_offered() -> None:
    with installed("sticks_dist", {"sticks": "sticks_game:SPEC"}, modules={"sticks_game": STICKS}):
        assert "sticks" not in playable() and TOY in playable()
        assert "sk-play-link" not in game_card(game_spec("sticks"))
        page = PlayPage(environ={})
        page.open_game({"game": "sticks"})
        assert page.board is None and "cannot open the game 'sticks'" in shown(page)


def test_a_forged_address_from_the_page_gets_a_sentence_not_a_traceback() -> None:
    from pages_forge import forge_update

    page = PlayPage(environ={})
    forge_update(page, _page_params="not a dict")
    assert page.board is None and "could not be read" in shown(page)
