"""The shared table's pages in the kernel (widgets/table.py), on a real SQLite store: what each
page's widgets hold, moves at a version, a page that was too late, wrong links.

The browser side (three pages, clicks, propagation) is tests/e2e/test_tables_browser.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sloth_widgets.table import WAITING, TableBoard, TableSession, WatchPanel

from sloth_kernel.tables import Tables, open_store

GAME = "too-sloth-to-win"


@pytest.fixture
def store_url(tmp_path: Path) -> str:
    return str(tmp_path / "tables.db")


def token(url: str) -> str:
    return url.split("#", 1)[1].split("=", 1)[1]


def widget_states(root: Any) -> list[dict[str, Any]]:
    """The state of `root` and every widget under it, as the page would receive it."""
    states, stack, seen = [], [root], set()
    while stack:
        widget = stack.pop()
        if id(widget) in seen or not isinstance(widget, widgets.Widget):
            continue
        seen.add(id(widget))
        states.append(widget.get_state())
        stack.extend(getattr(widget, "children", ()) or ())
    return states


def hand_tooltips(root: Any) -> list[str]:
    return sorted(
        state["tooltip"]
        for state in widget_states(root)
        if "sk-handcard" in state.get("_dom_classes", ()) and state.get("tooltip")
    )


def open_page(store_url: str, params: dict[str, str]) -> TableBoard:
    """A table page given `params` as the link ``?table=ID#seat=TOKEN`` has them: the front end sends
    the query flat and the part after '#' (seat, teacher) as a dict under "#"."""
    page = TableBoard(url=store_url)
    hashed = {name: params[name] for name in ("seat", "teacher") if name in params}
    sent: dict[str, Any] = {name: value for name, value in params.items() if name not in hashed}
    page._page_params = {**sent, "#": hashed} if hashed else sent  # what the front end sends once the page is up
    return page


def test_each_seat_page_holds_its_own_hand_and_the_watch_page_none(store_url: str) -> None:
    tables = Tables(open_store(store_url))
    made = tables.create(GAME, ["human", "human", "bot"])
    pages = [open_page(store_url, {"table": made.table, "seat": token(made.seats[s].url or "")}) for s in (0, 1)]
    watch = open_page(store_url, {"table": made.table})
    try:
        _, state = tables.state(made.table)
        for seat, page in enumerate(pages):
            assert page.session is not None and page.session.viewer == seat
            assert page.board is not None
            assert hand_tooltips(page) == sorted(b.tooltip for b in page.board.hand.buttons)
            assert len(hand_tooltips(page)) == sum(state.observation(seat).hands[seat] or ())
        assert hand_tooltips(pages[0]) != hand_tooltips(pages[1])
        assert hand_tooltips(watch) == []
        assert isinstance(watch.children[0], WatchPanel)
        # the watch page draws the game's own board from the public observation: the seats, the table, the log
        assert watch.board is not None and watch.board in watch.children[0].children
        assert watch.session is not None and watch.session.observation() == state.public_observation()
        assert watch.board._picture.value and watch.board._seats_top.value
        dumped = json.dumps(widget_states(watch))
        assert "Your hand" not in dumped and "Hands (teacher" not in dumped
        assert state.log[-1].text in dumped  # the newest log line
        for page in pages:
            assert "Hands (teacher" not in json.dumps(widget_states(page))
        teacher = open_page(store_url, {"table": made.table, "teacher": token(made.teacher)})
        assert "Hands (teacher" in json.dumps(widget_states(teacher)) and hand_tooltips(teacher) == []
        teacher.close()
    finally:
        for page in (*pages, watch):
            page.close()


def test_a_move_is_stored_at_the_version_the_page_saw_and_a_late_page_is_told(store_url: str) -> None:
    tables = Tables(open_store(store_url))
    made = tables.create(GAME, ["human", "human", "human"])
    seat = tables.sit(made.table, token(made.seats[0].url or ""))
    mine = TableSession(Tables(open_store(store_url)), made.table, seat=0)
    first, second = seat.snapshot().observation.legal_moves[:2]
    assert not mine.play(first, 1).legal  # a forged seat: refused, nothing stored
    assert tables.show(made.table).ply == 0
    seat.play(first, at=0)  # another page (this seat's, in another tab) moved first
    late = mine.play(second, 0)
    assert not late.legal and "moved on" in late.reason
    assert mine.at == 1 and tables.show(made.table).ply == 1  # the page now shows the table as it is
    assert not mine.my_turn and mine.state.current_player == 1  # Player 2 is to move now


@pytest.mark.parametrize(
    ("params", "said"),
    [
        ({"seat": "x" * 32}, "this seat's link is not right"),
        ({"teacher": "x" * 32}, "this teacher's link is not right"),
        ({"seat": ""}, "no seat token"),
        ({}, "no table"),
    ],
)
def test_a_wrong_link_gets_a_sentence(store_url: str, params: dict[str, str], said: str) -> None:
    tables = Tables(open_store(store_url))
    made = tables.create(GAME, ["human", "human", "bot"])
    page = open_page(store_url, {"table": made.table, **params} if params else {"other": "1"})
    text = page._message.value
    assert said in text.replace("&#x27;", "'") and "Traceback" not in text
    assert page.follower is None


def test_a_page_waits_for_its_address_before_opening_anything(store_url: str) -> None:
    page = TableBoard(url=store_url)
    assert WAITING[:20] in page._message.value and page.role == ""


FORGED = [
    {"method": "update", "state": {"_page_params": "junk"}, "buffer_paths": []},
    {"method": "update", "state": {"_page_params": {"table": {"x": [1, None]}}}, "buffer_paths": []},
    {"method": "update", "state": "not a mapping"},
    {"method": "no-such-method"},
    "not even a mapping",
]


@pytest.mark.parametrize("data", FORGED, ids=[str(i) for i in range(len(FORGED))])
def test_a_forged_page_message_gets_a_sentence_and_no_traceback_in_the_page(store_url: str, data: object) -> None:
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shown: list[object] = []
    original = shell.showtraceback
    shell.showtraceback = lambda *a, **k: shown.append(a)  # type: ignore[method-assign]
    try:
        page = TableBoard(url=store_url)
        message = {"content": {"comm_id": "x", "data": data}, "buffers": [], "header": {}, "parent_header": {}}
        page.comm.handle_msg(message)
    finally:
        shell.showtraceback = original  # type: ignore[method-assign]
    assert shown == []
    assert page.role == "" and page.follower is None
    assert "This page cannot open the table" in page._message.value or WAITING[:20] in page._message.value


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    params=st.dictionaries(
        st.sampled_from(["table", "seat", "teacher", "watch", "x"]), st.text(max_size=40), min_size=1
    )
)
def test_any_address_opens_its_table_or_says_why_in_a_sentence(store_url: str, params: dict[str, str]) -> None:
    page = open_page(store_url, params)
    try:
        if page.role:  # only a real table could open; none exists in this store
            raise AssertionError(f"{params!r} opened a page")
        text = page._message.value
        assert "This page cannot open the table" in text and "Traceback" not in text
    finally:
        page.close()


def test_a_seat_is_seated_while_its_page_beats_not_while_its_kernel_lingers(store_url: str) -> None:
    """A closed tab's kernel lingers (its Follower still runs); only the page's beats keep the seat seated."""
    import time

    tables = Tables(open_store(store_url))
    tables.store.heartbeat_seconds = 1.0  # this test's reading of "seated"; the pages write as usual
    made = tables.create(GAME, ["human", "human", "bot"])
    page = open_page(store_url, {"table": made.table, "seat": token(made.seats[1].url or "")})
    try:
        assert tables.show(made.table).seated == (1,)  # opening the page is a sign of life
        deadline = time.monotonic() + 30
        while tables.show(made.table).seated and time.monotonic() < deadline:
            time.sleep(0.05)  # polling interval of a bounded wait
        assert tables.show(made.table).seated == ()  # no beat: the kernel alone does not keep it seated
        page._page_beat += 1  # what the open page's front end sends every second
        assert tables.show(made.table).seated == (1,)
    finally:
        page.close()


def test_a_sequence_of_moves_is_checked_whole_before_any_is_stored(store_url: str) -> None:
    tables = Tables(open_store(store_url))
    made = tables.create(GAME, ["human", "human", "human"])
    mine = TableSession(Tables(open_store(store_url)), made.table, seat=0)
    first = mine.observation().legal_moves[0]
    verdict = mine.play_sequence([first, first], 0)  # the second is not Player 1's to make
    assert not verdict.legal and tables.show(made.table).ply == 0 and mine.at == 0
    assert mine.play_sequence([first], 0).legal and tables.show(made.table).ply == 1


def test_the_gallery_form_creates_a_table_and_shows_its_links(tmp_path: Any, monkeypatch: Any) -> None:
    """The gallery's "new table" form: a game, a person or a bot per seat, Create; the table is in
    the configured store and the form shows every person's seat link, the watch and teacher links."""
    from sloth_widgets.table import NewTableForm

    url = str(tmp_path / "form.db")
    monkeypatch.setenv("SLOTH_TABLES", url)
    form = NewTableForm(base_url="http://class.example:8866")
    form.game.value = "too-sloth-to-win"
    assert [kind.description for kind in form.seat_kinds] == ["Player 1", "Player 2", "Player 3"]
    form.seat_kinds[2].value = "bot"
    form.create.click()
    listed = Tables(open_store(url)).list()
    assert len(listed) == 1 and listed[0].game == "too-sloth-to-win"
    row, _ = Tables(open_store(url)).state(listed[0].table)
    assert [seat.kind for seat in row.seats] == ["human", "human", "bot"]
    shown = form.result.value
    assert shown.count("#seat=") == 2 * 2 and shown.count("#teacher=") == 2  # each as a link and its text
    assert f"table.ipynb?table={listed[0].table}" in shown and "http://class.example:8866/voila/render/" in shown
    assert "Player 3</b>: a bot" in shown and "Traceback" not in shown


def test_the_gallery_form_says_why_on_bad_input_and_creates_nothing(tmp_path: Any, monkeypatch: Any) -> None:
    from sloth_widgets.table import NewTableForm

    url = str(tmp_path / "form.db")
    monkeypatch.setenv("SLOTH_TABLES", url)
    form = NewTableForm()
    form.address.value = "not an address"
    form.create.click()
    assert "The table was not created: the base URL" in form.result.value
    form.address.value = "http://127.0.0.1:8866"
    form.game.value = "sprint"
    assert [value for _, value in form.count.options] == list(range(1, 9))  # Sprint!: 1 to 20, the form offers 8
    form.count.value = 1
    form.count.value = 3  # seats added: people for Players 1 and 2, then bots
    assert [kind.value for kind in form.seat_kinds] == ["human", "human", "bot"]
    monkeypatch.setenv("SLOTH_TABLES", "redis://127.0.0.1:1/0")  # nothing listens there
    form.create.click()
    assert form.result.value.startswith('<div class="sk-table-sentence"') and "Traceback" not in form.result.value
    assert not Path(url).exists()  # nothing was created: not even an empty store


def test_each_table_page_is_titled_with_the_game_and_whose_page_it_is(store_url: str) -> None:
    tables = Tables(open_store(store_url))
    made = tables.create(GAME, ["human", "human", "bot"])
    seat2 = open_page(store_url, {"table": made.table, "seat": token(made.seats[1].url or "")})
    watch = open_page(store_url, {"table": made.table})
    teacher = open_page(store_url, {"table": made.table, "teacher": token(made.teacher)})
    waiting = TableBoard(url=store_url)
    try:
        assert seat2._page_title == "Too Sloth To Win · Player 2 (you)"
        assert watch._page_title == "Too Sloth To Win · watching"
        assert teacher._page_title == "Too Sloth To Win · the teacher"
        assert waiting._page_title == ""  # no table yet: the page keeps its own title
    finally:
        for page in (seat2, watch, teacher, waiting):
            page.close()


def test_the_gallery_form_defaults_its_server_to_the_address_the_page_was_opened_from() -> None:
    from sloth_widgets.table import NewTableForm

    form = NewTableForm()
    assert form.address.value == "http://127.0.0.1:8866"  # the stock template sends nothing: the default stays
    form._page_origin = "http://school.example:9000/voila"  # what the light front end sends
    assert form.address.value == "http://school.example:9000/voila"
    form._page_origin = "javascript:alert(1)"  # not a server's address: ignored
    assert form.address.value == "http://school.example:9000/voila"
    typed = NewTableForm()
    typed.address.value = "http://mine.example:8866"  # the person's own choice stays
    typed._page_origin = "http://127.0.0.1:9999"
    assert typed.address.value == "http://mine.example:8866"
    given = NewTableForm(base_url="http://class.example:8866")  # a form made in code keeps its address
    given._page_origin = "http://127.0.0.1:9999"
    assert given.address.value == "http://class.example:8866"


def test_a_seats_message_line_belongs_to_the_position_it_was_written_in(store_url: str) -> None:
    tables = Tables(open_store(store_url))
    made = tables.create(GAME, ["human", "human", "human"])
    page = open_page(store_url, {"table": made.table, "seat": token(made.seats[0].url or "")})
    try:
        board = page.board
        assert board is not None and page.session is not None
        move = page.session.state.legal_moves()[0]
        assert board.submit(str(move)) is not None and board._note.startswith("Your move:")
        assert "Your move:" in board._explain.value
        others = [tables.sit(made.table, token(made.seats[s].url or "")) for s in (1, 2)]
        for seat in others:  # two later moves, at the other seats' pages
            snap = seat.snapshot()
            seat.play(snap.observation.legal_moves[0], at=snap.version)
            page.session.refresh(tables)
            board.render()
        assert "Your move:" not in board._explain.value  # the note went with the position it was written in
    finally:
        page.close()
