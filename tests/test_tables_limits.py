"""The tables layer's limits: a bot's decision within its lease, the cap on open tables, and the
inputs that used to escape untyped (a lone-surrogate token, 10**5000 seconds, options nested
5,000 deep, a base URL that is not a URL). Real stores (tests/tables_servers.py), no mocks.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sloth_kernel.games.too_sloth_to_win import bots as game_bots
from sloth_kernel.tables import (
    Follower,
    SeatTokenError,
    StoreFullError,
    TableError,
    Tables,
    TableStore,
    open_store,
)
from sloth_kernel.tables.table import check_base_url

GAME = "too-sloth-to-win"
ROOT = Path(__file__).resolve().parent.parent


def eventually(check: Any, seconds: float = 30) -> bool:
    """Whether `check()` comes true within `seconds` (a bound for a hung test, not a speed figure)."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


# -- a bot's decision never outlives its lease --


class SlowBot:
    """A real bot of the game (random) that thinks for `THINK` seconds, counting its decisions."""

    name = "slow"
    THINK = 1.5
    decisions: list[str] = []
    during: Any = None
    """Called while it thinks (a test's hook: e.g. another page takes the lease)."""

    def __init__(self, seed: int | None = 0) -> None:
        from sloth_kernel.bots import RandomBot

        self.inner = RandomBot(seed)

    def choose(self, observation: Any) -> Any:
        SlowBot.decisions.append(threading.current_thread().name)
        if SlowBot.during is not None:
            SlowBot.during()
        time.sleep(SlowBot.THINK)
        return self.inner.choose(observation)


@pytest.fixture
def slow_bot(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[SlowBot]]:
    monkeypatch.setitem(game_bots.BOTS, "slow", SlowBot)  # a bot level of the game, for this test
    SlowBot.decisions = []
    SlowBot.during = None
    yield SlowBot
    SlowBot.during = None


def test_two_pages_share_a_slow_bot_one_decides_and_the_move_is_committed_once(
    store_url: str, store: TableStore, slow_bot: type[SlowBot]
) -> None:
    """The bot thinks three times as long as its lease: the holder renews it meanwhile, so the other
    page never takes the seat over and computes the same decision."""
    tables = Tables(store)
    table = tables.create(GAME, ["bot:slow", "human", "human"]).table
    changes: list[int] = []
    followers = [
        Follower(
            table,
            lambda version, _: changes.append(version),
            url=store_url,
            holder=f"page-{n}",
            lease_seconds=0.5,
            beat_seconds=0.1,
        )
        for n in range(2)
    ]
    for follower in followers:
        follower.start()
    try:
        assert eventually(lambda: store.version(table) >= 1)
        time.sleep(0.6)  # longer than a lease: a page that had not renewed would have lost it by now
        assert len(slow_bot.decisions) == 1  # one page computed the decision
        assert store.version(table) == 1 and len(store.load(table).moves) == 1  # committed once
        assert tables.show(table).current_player == 1
    finally:
        for follower in followers:
            follower.stop()
    assert all(follower.last_error is None for follower in followers)


def test_a_page_whose_lease_was_taken_while_its_bot_thought_commits_nothing(
    store: TableStore, slow_bot: type[SlowBot]
) -> None:
    tables = Tables(store)
    table = tables.create(GAME, ["bot:slow", "human", "human"]).table

    def taken() -> None:  # another page takes the seat over (as after a lapse)
        store.release_lease(table, 0, "page-1")
        assert store.acquire_lease(table, 0, "page-2", 60)

    slow_bot.THINK = 0.5
    slow_bot.during = taken
    try:
        assert tables.play_bots(table, "page-1", lease_seconds=0.3) == 0
    finally:
        slow_bot.THINK = 1.5
    assert store.version(table) == 0  # its renewal failed: it made no move
    assert tables.play_bots(table, "page-1", lease_seconds=0.3) == 0  # and page 2 holds the seat


# -- a cap on open tables per store --


def test_a_store_keeps_at_most_its_cap_of_open_tables(store: TableStore) -> None:
    tables = Tables(store)
    store.max_open_tables = 2
    first = tables.create(GAME, ["human", "human", "bot"]).table
    tables.create(GAME, ["human", "human", "bot"])
    with pytest.raises(StoreFullError) as full:
        tables.create(GAME, ["human", "human", "bot"])
    assert str(full.value) == (
        "the table store already has 2 open tables, the most it keeps: close finished ones with "
        "python -m sloth_kernel table close ID, or raise SLOTH_TABLES_MAX_OPEN (now 2)"
    )
    assert len(store.table_ids()) == 2  # nothing written
    store.set_status(first, "paused")  # a paused table still counts: it is not closed
    with pytest.raises(StoreFullError):
        tables.create(GAME, ["human", "human", "bot"])
    tables.close(first)
    tables.create(GAME, ["human", "human", "bot"])
    assert len(store.table_ids()) == 3


def test_the_cap_comes_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url = str(tmp_path / "t.sqlite3")
    with open_store(url) as store:
        assert store.max_open_tables == 500
    monkeypatch.setenv("SLOTH_TABLES_MAX_OPEN", "1")
    with open_store(url) as store:
        assert store.max_open_tables == 1
        Tables(store).create(GAME, ["human", "human", "bot"])
        with pytest.raises(StoreFullError):
            Tables(store).create(GAME, ["human", "human", "bot"])
    for bad in ("0", "-3", "many", "1e3", "9" * 20):
        monkeypatch.setenv("SLOTH_TABLES_MAX_OPEN", bad)
        with pytest.raises(TableError, match="SLOTH_TABLES_MAX_OPEN is how many tables a store keeps open"):
            open_store(url)


# -- inputs that used to escape untyped --


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(token=st.one_of(st.text(st.characters(blacklist_categories=())), st.binary(), st.integers(), st.none()))
@example(token="\ud800")
@example(token="A" * 31 + "\udfff")
def test_any_token_opens_its_seat_or_is_refused_with_a_typed_error(
    sqlite_tables: tuple[Tables, str], token: Any
) -> None:
    tables, table = sqlite_tables
    with pytest.raises(SeatTokenError):
        tables.sit(table, token)
    with pytest.raises(SeatTokenError):
        tables.teacher(table, token)


@pytest.fixture
def sqlite_tables(tmp_path: Path) -> tuple[Tables, str]:
    tables = Tables(open_store(str(tmp_path / "t.sqlite3")))
    return tables, tables.create(GAME, ["human", "human", "bot"]).table


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    seconds=st.one_of(
        st.integers(),
        st.floats(),
        st.sampled_from([10**5000, -(10**5000), 2**1024, float("inf"), float("nan"), True, "1", None]),
    )
)
@example(seconds=10**5000)
def test_any_number_of_seconds_is_taken_or_refused_with_a_typed_error(
    sqlite_tables: tuple[Tables, str], seconds: Any
) -> None:
    tables, table = sqlite_tables
    store = tables.store
    for call, top in (
        (lambda: store.wait(table, 0, seconds), 600),
        (lambda: store.acquire_lease(table, 2, "me", seconds), 3600),
    ):
        if type(seconds) in (int, float) and 0 <= seconds <= top:
            if seconds <= 0.05:  # in range: taken (a longer wait is not waited out here)
                call()
        else:
            with pytest.raises(TableError, match="is a number of seconds from 0 to"):
                call()


def test_a_lone_surrogate_in_a_move_is_a_typed_error(sqlite_tables: tuple[Tables, str]) -> None:
    tables, table = sqlite_tables
    with pytest.raises(TableError, match="a move is text"):
        tables.store.commit(table, 0, "\ud800")
    assert tables.store.version(table) == 0


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_options_nested_5000_deep_are_refused_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable, "-m", "sloth_kernel", "table", "--store", str(tmp_path / "t.sqlite3"),
            "create", "--game", GAME, "--seats", "human,human,bot", "--options", nested(5000),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (
        "python -m sloth_kernel table: error: --options is nested too deeply (keep it to a few levels)\n"
    )
    assert not (tmp_path / "t.sqlite3").exists()
    deep: dict[str, Any] = {}
    inner = deep
    for _ in range(5000):
        inner["a"] = {}
        inner = inner["a"]
    with open_store(str(tmp_path / "t.sqlite3")) as store, pytest.raises(TableError, match="nested too deeply"):
        Tables(store).create(GAME, ["human", "human", "bot"], options={"x": deep})
    assert json.loads(nested(3)) == [[[]]] and not (tmp_path / "t.sqlite3").exists()


# -- base URLs --

URL_CHARACTERS = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=%")


@pytest.mark.parametrize(
    "url",
    [
        'http://x"><img src=x onerror=alert(1)>',
        "http://x/<script>",
        "http://x y",
        "http://x\\y",
        "http:///path",
        "http://:8866",
        "http://x:99999",
        "http://x:port",
        "http://x/%zz",
        "javascript:alert(1)",
        "ftp://x",
        "http://x/?a=1",
        "http://x/#seat=1",
        "//x",
        "http://x\u00e9.example",
        "",
    ],
)
def test_a_base_url_that_is_not_an_http_url_is_refused_with_a_sentence(url: str) -> None:
    with pytest.raises(TableError, match="the base URL is the Voila server's http:// or https:// address"):
        check_base_url(url)


@pytest.mark.parametrize(
    "url", ["http://127.0.0.1:8866", "https://class.example/voila/", "http://[::1]:8866", "http://x/a%20b"]
)
def test_a_base_url_of_a_server_is_taken(url: str) -> None:
    assert check_base_url(url) == url.rstrip("/")


@settings(max_examples=200)
@given(
    url=st.one_of(
        st.text(),
        st.builds(
            lambda scheme, rest: scheme + rest, st.sampled_from(["http://", "https://", "http:", "HTTP://"]), st.text()
        ),
    )
)
def test_any_base_url_is_a_url_or_refused_with_a_typed_error(url: str) -> None:
    try:
        taken = check_base_url(url)
    except TableError:
        return
    assert set(taken) <= URL_CHARACTERS and taken.lower().startswith(("http://", "https://"))
    assert len(taken) > len("https://") - 1 and "?" not in taken and "#" not in taken


def test_the_gallery_form_says_when_the_store_is_full(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from sloth_widgets.table import NewTableForm

    monkeypatch.setenv("SLOTH_TABLES", str(tmp_path / "form.sqlite3"))
    monkeypatch.setenv("SLOTH_TABLES_MAX_OPEN", "1")
    form = NewTableForm(base_url="http://class.example:8866")
    form.game.value = GAME
    form.create.click()
    assert "#teacher=" in form.result.value
    form.create.click()
    assert form.result.value == (
        '<div class="sk-table-sentence" role="status" style="font-size:17px;padding:10px 4px">'
        "The table was not created: the table store already has 1 open table, the most it keeps: close "
        "finished ones with python -m sloth_kernel table close ID, or raise SLOTH_TABLES_MAX_OPEN (now 1).</div>"
    )
    with open_store(str(tmp_path / "form.sqlite3")) as store:
        assert len(store.table_ids()) == 1
