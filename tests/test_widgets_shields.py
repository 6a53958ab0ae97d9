"""The table pages' own widgets read the page's messages themselves (``shield_messages``): a
forged or malformed message to any widget of the watch panel, the teacher's panel, the gallery's
new-table form or the table page's message box and its heartbeat (their layouts and styles too) goes through the real comm path with a
real IPython shell, whose ``showtraceback`` is what sends a traceback to the page. It is never
called; the panel says one sentence, and the traceback is in the server's log (descriptor 2 here).

The browser side, every page kind in a real Voila: tests/e2e/test_no_tracebacks.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sloth_widgets.table import NewTableForm, TableBoard, TeacherPanel, WatchPanel
from sloth_widgets.tree import widget_family

from sloth_kernel.tables import Tables, open_store

FORGED: list[Any] = [
    {"method": "update", "state": {"value": {"x": [1, None]}, "index": "junk"}, "buffer_paths": []},
    {"method": "update", "state": {"_page_params": "junk", "layout": 42}, "buffer_paths": []},
    {"method": "update", "state": "not a mapping"},
    {"method": "update", "state": {"value": 1}, "buffer_paths": [["value", 0, "deep"]]},
    {"method": "custom", "content": {"event": "click"}},  # a button refuses a forged click only if it fails
    {"method": "no-such-method", "state": 42},
    "not even a mapping",
]


@pytest.fixture
def shown() -> Iterator[list[object]]:
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    calls: list[object] = []
    original = shell.showtraceback
    shell.showtraceback = lambda *a, **k: calls.append(a)  # type: ignore[method-assign]
    try:
        yield calls
    finally:
        shell.showtraceback = original  # type: ignore[method-assign]


def send_all(root: Any, skip: tuple[Any, ...] = ()) -> int:
    sent = 0
    for widget in widget_family(root):
        if widget in skip or getattr(widget, "comm", None) is None:
            continue
        for data in FORGED:
            message = {"content": {"comm_id": "x", "data": data}, "buffers": [], "header": {}, "parent_header": {}}
            widget.comm.handle_msg(message)
            sent += 1
    return sent


def test_the_watch_panel(tmp_path: Path, shown: list[object], capfd: pytest.CaptureFixture[str]) -> None:
    url = str(tmp_path / "tables.db")
    tables = Tables(open_store(url))
    made = tables.create("too-sloth-to-win", ["human", "human", "bot"])
    panel = WatchPanel(TableBoard(url=url), tables, made.table)
    assert send_all(panel) > 20
    assert shown == []
    assert "could not use; nothing changed" in panel._said.value
    assert "Traceback (most recent call last)" in capfd.readouterr().err


def test_the_new_table_form(shown: list[object], capfd: pytest.CaptureFixture[str]) -> None:
    form = NewTableForm(base_url="http://class.example:8866")
    assert send_all(form, skip=(form.create,)) > 50  # a click on Create would make a table
    form.count.value = max(value for _, value in form.count.options)  # new seat choices: shielded too
    form.result.value = ""
    send_all(form.seat_kinds[-1])
    assert shown == []
    assert "could not use what the page sent; no table was created" in form.result.value
    assert "Traceback (most recent call last)" in capfd.readouterr().err


def test_the_table_pages_message_box(tmp_path: Path, shown: list[object], capfd: pytest.CaptureFixture[str]) -> None:
    page = TableBoard(url=str(tmp_path / "tables.db"))
    assert send_all(page) > 20
    assert shown == []
    assert page.role == "" and "This page cannot open the table" in page._message.value
    assert "Traceback (most recent call last)" in capfd.readouterr().err


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=12,
)
page_data = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {"method": st.sampled_from(["update", "custom", "request_state", "echo_update", "junk"])},
        optional={
            "state": st.dictionaries(
                st.sampled_from(["value", "index", "options", "label", "layout", "x"]), json_values
            ),
            "buffer_paths": json_values,
            "content": json_values | st.just({"event": "click"}),
        },
    ),
)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # traitlets on a junk layout made from a mapping
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(messages=st.lists(st.tuples(st.integers(min_value=0), page_data), min_size=1, max_size=6))
def test_any_page_message_to_the_new_table_form_shows_no_traceback(
    messages: list[tuple[int, Any]], tmp_path: Path, shown: list[object], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SLOTH_TABLES", str(tmp_path / "tables.db"))  # a forged Create writes here
    form = NewTableForm(base_url="http://class.example:8866")
    family = [widget for widget in widget_family(form) if getattr(widget, "comm", None) is not None]
    for at, data in messages:
        widget = family[at % len(family)]
        widget.comm.handle_msg({"content": {"comm_id": "x", "data": data}, "buffers": [], "header": {}})
    assert shown == []
    assert "Traceback" not in form.result.value


def teacher_page(path: Path) -> tuple[TableBoard, TeacherPanel]:
    with open_store(str(path)) as store:
        made = Tables(store).create("too-sloth-to-win", ["human", "human", "bot"])
    page = TableBoard(url=str(path))
    page._page_params = {"table": made.table, "#": {"teacher": made.teacher.split("#teacher=", 1)[1]}}
    return page, next(child for child in page.children if isinstance(child, TeacherPanel))


def test_the_teacher_panel(tmp_path: Path, shown: list[object], capfd: pytest.CaptureFixture[str]) -> None:
    page, panel = teacher_page(tmp_path / "tables.db")
    notes: list[str] = []
    panel.note.observe(lambda change: notes.append(change["new"]), "value")
    try:
        assert send_all(panel) > 20  # forged clicks on pause, resume and the step-through too
        assert shown == []
        assert any("could not use; nothing changed" in note for note in notes)
        assert not any("Traceback" in note for note in notes)
        assert "Traceback (most recent call last)" in capfd.readouterr().err
    finally:
        page.close()


def test_the_step_through_on_a_failed_store_is_a_sentence(tmp_path: Path, shown: list[object]) -> None:
    path = tmp_path / "tables.db"
    page, panel = teacher_page(path)
    try:
        path.unlink()
        panel.replay.click()
        assert shown == []
        assert "The moves cannot be read now: the table store was deleted or replaced" in panel.note.value
        assert str(tmp_path) not in panel.note.value
        assert panel.area.children == ()
    finally:
        page.close()


def test_a_seat_pages_beats_on_a_failed_store_show_no_traceback(
    tmp_path: Path, shown: list[object], capfd: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "tables.db"
    with open_store(str(path)) as store:
        made = Tables(store).create("too-sloth-to-win", ["human", "human", "bot"])
    page = TableBoard(url=str(path))
    try:
        page._page_params = {"table": made.table, "#": {"seat": (made.seats[0].url or "").split("#seat=", 1)[1]}}
        assert page.role == "seat"
        path.unlink()
        for beat in (1, 2, "junk", None, 10**30, 3):
            data = {"method": "update", "state": {"_page_beat": beat}, "buffer_paths": []}
            page.comm.handle_msg({"content": {"comm_id": "x", "data": data}, "buffers": [], "header": {}})
        assert shown == []
        assert page.board in page.children  # the page carries on; its follower says when the store fails
        assert "Traceback (most recent call last)" in capfd.readouterr().err  # in the server's log
    finally:
        page.close()
