"""A table page reads a seat's or the teacher's token only from the part of its link after '#'
(which a browser never sends to the server): the front end sends that part as the dict under
"#" of ``_page_params``. A token in the query was sent to the server with the request, so such
a link opens nothing and says to open the link as it was given. On a real SQLite store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sloth_widgets.table import TableBoard

from sloth_kernel.tables import Tables, open_store

GAME = "too-sloth-to-win"
AS_GIVEN = "open the link exactly as it was given"


def token(url: str) -> str:
    return url.split("#", 1)[1].split("=", 1)[1]


def sent(store_url: str, params: Any) -> TableBoard:
    page = TableBoard(url=store_url)
    page._page_params = params  # exactly what the front end sends
    return page


def said(page: TableBoard) -> str:
    return str(page._message.value).replace("&#x27;", "'")


@pytest.fixture
def made(tmp_path: Path) -> tuple[str, Any]:
    url = str(tmp_path / "tables.db")
    return url, Tables(open_store(url)).create(GAME, ["human", "human", "bot"])


def test_tokens_after_the_hash_open_the_seat_and_the_teacher(made: tuple[str, Any]) -> None:
    url, table = made
    seat = sent(url, {"table": table.table, "#": {"seat": token(table.seats[1].url)}})
    teacher = sent(url, {"table": table.table, "#": {"teacher": token(table.teacher)}})
    try:
        assert seat.role == "seat" and seat.session is not None and seat.session.viewer == 1
        assert teacher.role == "teacher"
    finally:
        seat.close()
        teacher.close()


@pytest.mark.parametrize("kind", ["seat", "teacher"])
def test_a_token_in_the_query_opens_nothing_and_says_to_open_the_link_as_given(
    made: tuple[str, Any], kind: str
) -> None:
    url, table = made
    good = token(table.seats[0].url if kind == "seat" else table.teacher)
    for params in (
        {"table": table.table, kind: good},  # ?table=ID&seat=TOKEN
        {"table": table.table, kind: good, "#": {kind: good}},  # in both places: still sent to the server
    ):
        page = sent(url, params)
        assert AS_GIVEN in said(page) and "Traceback" not in said(page)
        assert page.role == "" and page.session is None and page.follower is None
    assert Tables(open_store(url)).show(table.table).seated == ()  # nobody sat down


@pytest.mark.parametrize("after_hash", ["seat=abc", ["seat"], 7, None])
def test_an_unreadable_hash_part_gets_a_sentence(made: tuple[str, Any], after_hash: object) -> None:
    url, table = made
    page = sent(url, {"table": table.table, "#": after_hash})
    assert "could not be read" in said(page) and page.role == "" and page.follower is None


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(["seat", "teacher"]), value=st.text(max_size=60))
def test_any_token_in_the_query_is_refused_before_the_store_is_asked(
    made: tuple[str, Any], name: str, value: str
) -> None:
    url, table = made
    page = sent(url, {"table": table.table, name: value})
    assert AS_GIVEN in said(page) and page.role == "" and page.follower is None
