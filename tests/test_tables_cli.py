"""``python -m sloth_kernel table ...``: the exact JSON contract, people's lines, one-line refusals.

Run as a user would (a subprocess), against SQLite, Redis and PostgreSQL through SLOTH_TABLES.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

from sloth_kernel.tables import Tables, open_store


def table(store_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, SLOTH_TABLES=store_url)
    return subprocess.run(
        [sys.executable, "-m", "sloth_kernel", "table", *args], env=env, capture_output=True, text=True, timeout=120
    )


def one_object(done: subprocess.CompletedProcess[str]) -> Any:
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("\n") == 1  # one JSON object, one line
    return json.loads(done.stdout)


def test_create_show_list_close_print_the_contract(store_url: str) -> None:
    made = one_object(
        table(
            store_url,
            "create",
            "--game",
            "too-sloth-to-win",
            "--seats",
            "human,human,bot",
            "--base-url",
            "http://h:1",
            "--json",
        )
    )
    assert list(made) == ["table", "seats", "watch", "teacher"]
    assert made["seats"][:2] == [
        {"seat": 0, "kind": "human", "url": made["seats"][0]["url"]},
        {"seat": 1, "kind": "human", "url": made["seats"][1]["url"]},
    ]
    assert made["seats"][2] == {"seat": 2, "kind": "bot"}  # a bot seat carries no URL
    assert all(
        seat["url"].startswith(f"http://h:1/voila/render/table.ipynb?table={made['table']}#seat=")
        for seat in made["seats"][:2]
    )
    assert made["watch"] == f"http://h:1/voila/render/table.ipynb?table={made['table']}"
    assert made["teacher"].startswith(made["watch"] + "#teacher=")

    shown = one_object(table(store_url, "show", made["table"], "--json"))
    assert shown == {
        "table": made["table"],
        "game": "too-sloth-to-win",
        "ply": 0,
        "current_player": 0,
        "over": False,
        "seated": [],
    }
    assert list(shown) == ["table", "game", "ply", "current_player", "over", "seated"]

    with open_store(store_url) as store:  # a page opens seat 1 and moves for seat 0
        tables = Tables(store)
        seat = tables.sit(made["table"], made["seats"][0]["url"].partition("#seat=")[2])
        seat.play(seat.snapshot().observation.legal_moves[0], at=0)
        tables.sit(made["table"], made["seats"][1]["url"].partition("#seat=")[2]).heartbeat()
    shown = one_object(table(store_url, "show", made["table"], "--json"))
    assert (shown["ply"], shown["current_player"], shown["seated"]) == (1, 1, [1])

    # seat 1's page beats again (a heartbeat lasts HEARTBEAT_SECONDS; two command starts on a busy
    # machine took longer)
    with open_store(store_url) as store:
        Tables(store).sit(made["table"], made["seats"][1]["url"].partition("#seat=")[2]).heartbeat()
    listed = one_object(table(store_url, "list", "--json"))
    assert listed == {"tables": [shown]}
    assert one_object(table(store_url, "close", made["table"], "--json")) == {
        "table": made["table"],
        "status": "closed",
    }


def test_people_read_sentences_not_json(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 't.sqlite3'}"
    missing = table(url, "list")  # a mistyped path is refused, never made into a new store
    assert missing.returncode == 2 and missing.stdout == "" and not (tmp_path / "t.sqlite3").exists()
    assert missing.stderr == (
        f"python -m sloth_kernel table: error: there is no table store at {tmp_path / 't.sqlite3'}: "
        "check the path (only creating a table makes a new store)\n"
    )
    made = table(url, "create", "--game", "sprint", "--seats", "human,bot")
    assert made.returncode == 0, made.stderr
    lines = made.stdout.splitlines()
    assert lines[0].startswith("Table ") and "Sprint!" in lines[0]
    assert lines[1].startswith("  Player 1 (human): http://127.0.0.1:8866/voila/render/table.ipynb?table=")
    assert lines[2] == "  Player 2 (bot): played by the computer"
    assert lines[3].startswith("  Watch: ") and lines[4].startswith("  Teacher: ")
    table_id = lines[0].split()[1]
    assert table(url, "show", table_id).stdout == (
        f"{table_id}: Sprint!, 0 moves, Player 1 to move; seated: nobody (of 1 person); open\n"
    )
    assert table(url, "close", table_id).stdout == f"Table {table_id} closed.\n"
    assert "closed" in table(url, "list").stdout


@pytest.mark.parametrize(
    "args",
    [
        ["show", "nosuchtable"],
        ["show", "bad id!"],
        ["close", "nosuchtable"],
        ["create", "--game", "too-sloth-to-win", "--seats", "human,human"],
        ["create", "--game", "too-sloth-to-win", "--seats", "human,human,robot"],
        ["create", "--game", "too-sloth-to-win", "--seats", "human,human,human", "--options", "{"],
        ["create", "--game", "too-sloth-to-win", "--seats", "human,human,human", "--options", "[1]"],
        ["create", "--game", "too-sloth-to-win", "--seats", "human,human,human", "--base-url", "nowhere"],
        ["create", "--game", "chess", "--seats", "human,human"],
        ["frobnicate"],
        [],
    ],
)
def test_a_refusal_is_one_line_and_status_2(tmp_path: Any, args: list[str]) -> None:
    done = table(f"sqlite:///{tmp_path / 't.sqlite3'}", *args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("python -m sloth_kernel table: error: ")


def test_a_bad_store_address_is_one_line() -> None:
    done = table("mysql://user:secret@host/db", "list")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "secret" not in done.stderr  # a password in the address is never printed


def test_bench_tables_measures_each_store_it_is_given(store_url: str) -> None:
    """A benchmark, run briefly: it reports p50 and p95 for SQLite and the store given (no timing asserted)."""
    env = dict(os.environ, SLOTH_TABLES="")
    done = subprocess.run(
        [sys.executable, "-m", "sloth_kernel", "bench", "--tables", "--commits", "5", "--store", store_url],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("table store propagation: a commit in one process to its arrival in another")
    names = [line.split()[0] for line in lines[1:]]
    assert names == ["sqlite", store_url.partition("://")[0]]  # a fresh SQLite file, then the store given
    assert all("p50" in line and "p95" in line and "(5 of 5 arrived)" in line for line in lines[1:])
    refused = subprocess.run(
        [sys.executable, "-m", "sloth_kernel", "bench", "--tables", "--commits", "1"], capture_output=True, text=True
    )
    assert refused.returncode == 2 and "--commits" in refused.stderr
