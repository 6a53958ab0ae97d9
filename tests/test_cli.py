"""The command line as a person meets it: the listing, every option's default, and no traceback for
any input (a bad value or a missing extra is one sentence and status 2; Ctrl-C is status 130).

The listing, the missing extras and Ctrl-C run as real subprocesses; the rest calls ``main``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sloth_kernel import __main__ as command_line
from sloth_kernel import arena, bench, serve
from sloth_kernel.tables import cli as table_cli

PYTHON = sys.executable
SCRIPT = Path(sys.executable).with_name("sloth-kernel")


def run(*argv: str, prelude: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``python -m sloth_kernel ARGV`` in a fresh interpreter; `prelude` runs first (to hide an extra)."""
    if prelude:
        code = f"{prelude}\nimport runpy, sys\nsys.argv = ['-c', *sys.argv[1:]]\nrunpy.run_module('sloth_kernel', run_name='__main__')"
        command = [PYTHON, "-c", code, *argv]
    else:
        command = [PYTHON, "-m", "sloth_kernel", *argv]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)


# --- the listing -----------------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["module", "script"])
def test_help_lists_every_command_with_a_line_each_and_exits_0(how: str) -> None:
    if how == "script":
        assert SCRIPT.exists(), "the console script is installed with the project"
        done = subprocess.run([str(SCRIPT), "--help"], capture_output=True, text=True, timeout=120)
    else:
        done = run("--help")
    assert done.returncode == 0 and done.stderr == ""
    lines = done.stdout.splitlines()
    assert lines[0] == f"usage: {'python -m sloth_kernel' if how == 'module' else 'sloth-kernel'} COMMAND [options]"
    for name, (_, line) in command_line.COMMANDS.items():
        assert sum(1 for shown in lines if shown.split()[:1] == [name]) == 1, name
        assert any(shown.split(None, 1) == [name, line] for shown in lines), name
    assert set(command_line.COMMANDS) == {"bench", "arena", "play", "table"}
    if how == "script":  # a refusal names the command as it was typed
        refused = subprocess.run([str(SCRIPT), "arena", "--game", "x"], capture_output=True, text=True, timeout=120)
        assert refused.returncode == 2 and refused.stderr.startswith("sloth-kernel arena: error: argument --game")


def test_no_command_prints_the_listing_on_stderr_and_exits_2() -> None:
    done = run()
    assert done.returncode == 2 and done.stdout == ""
    assert all(name in done.stderr for name in command_line.COMMANDS) and "usage:" in done.stderr


@pytest.mark.parametrize(
    "argv",
    [
        ["bench", "--help"],
        ["arena", "--help"],
        ["play", "--help"],
        ["table", "--help"],
        ["table", "create", "--help"],
        ["table", "show", "--help"],
        ["table", "list", "--help"],
        ["table", "close", "--help"],
    ],
)
def test_each_command_has_help_that_exits_0(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        command_line.main(argv)
    assert exit_.value.code == 0
    shown = capsys.readouterr()
    assert shown.out.startswith(f"usage: python -m sloth_kernel {' '.join(argv[:-1])}") and shown.err == ""


def parsers() -> dict[str, argparse.ArgumentParser]:
    found: dict[str, argparse.ArgumentParser] = {
        "bench": bench.parser(),
        "arena": arena.parser(),
        "play": serve.parser(),
        "table": table_cli.parser(),
    }
    for action in found["table"]._actions:
        if isinstance(action, argparse._SubParsersAction):
            found.update({f"table {name}": sub for name, sub in action.choices.items()})
    return found


@pytest.mark.parametrize(
    "name", ["bench", "arena", "play", "table", "table create", "table show", "table list", "table close"]
)
def test_every_option_shows_its_default(name: str) -> None:
    parser = parsers()[name]
    text = parser.format_help()
    for action in parser._actions:
        if not action.option_strings or isinstance(action, argparse._HelpAction):
            continue
        if action.required:
            assert "(required)" in (action.help or ""), (name, action.dest)
        elif isinstance(action, argparse._StoreTrueAction):
            assert action.default is False, (name, action.dest)  # a flag is off unless given
        else:
            helped = parser._get_formatter()._expand_help(action)  # what --help prints for it
            assert "default" in helped, (name, action.dest, helped)
            if action.default not in (None, [], ""):
                shown = ", ".join(map(str, action.default)) if isinstance(action.default, list) else str(action.default)
                assert shown in helped or "default:" in helped, (name, action.dest, helped)
    assert "(default: None)" not in text and "(default: False)" not in text and "%(" not in text


# --- no traceback, whatever the input ------------------------------------------------------------


REFUSED = [
    ["arena"],
    ["arena", "--game", "chess"],
    ["arena", "--game", "sprint", "--games", "0"],
    ["arena", "--game", "sprint", "--option", "players=99"],
    ["arena", "--game", "sprint", "--option", "players"],
    ["arena", "--game", "too-sloth-to-win", "--bots", "random,wizard"],
    ["arena", "--game", "too-sloth-to-win", "--bot-option", "ismcts=3"],
    ["arena", "--game", "sprint", "--seed", "-1"],
    ["bench", "--seconds", "-1"],
    ["bench", "--repeats", "0"],
    ["arena", "--game", "too-sloth-to-win", "--bot-option", "ismcts.iterations=many"],
    ["arena", "--game", "too-sloth-to-win", "--bot-option", "ismcts.iterations=1e400"],
    ["arena", "--game", "too-sloth-to-win", "--bot-option", "ismcts.speed=3"],
    ["arena", "--game", "sprint", "--bot-option", "expert.sigma=nan"],
    ["arena", "--game", "sprint", "--bot-option", "expert.error=weird"],
    ["arena", "--game", "sprint", "--games", "x"],
    ["arena", "--game", "sprint", "--games", "\u0663"],
    ["arena", "--game", "sprint", "--games", "10000000000"],
    ["arena", "--game", "sprint", "--workers", "100000"],
    ["arena", "--game", "sprint", "--seed", "9" * 90],
    ["arena", "--game", "sprint", "--option", "track_length=nan"],
    ["arena", "--game", "sprint", "--json", "/nonexistent-folder/report.json"],
    ["arena", "--game", "sprint", "--json", "/"],
    ["arena", "--game", "sprint", "--bots", ",,,"],
    ["arena", "--game", "sprint", "--bots", "ismcts"],
    ["bench", "--seconds", "nan"],
    ["bench", "--seconds", "0x"],
    ["bench", "--repeats", "-3"],
    ["bench", "--games", "chess"],
    ["bench", "--edges", "--levels", "wizard"],
    ["bench", "--tables", "--store", "ftp://nowhere", "--commits", "2"],
    ["table", "--store", "/nonexistent-folder/tables.sqlite3", "list"],
    ["table"],
    ["play", "--port", "http"],
    ["play", "--host", "a b"],
    ["play", "extra"],
    ["nope"],
    ["--nope"],
]


@pytest.mark.parametrize("argv", REFUSED, ids=" ".join)
def test_a_bad_value_is_one_sentence_and_status_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert command_line.main(argv) == 2
    shown = capsys.readouterr()
    assert shown.err.count("\n") == 1 and "error: " in shown.err, shown.err
    assert "Traceback" not in shown.err and "usage:" not in shown.err


def test_a_bad_bot_option_names_the_option_and_its_range(capsys: pytest.CaptureFixture[str]) -> None:
    assert command_line.main(["arena", "--game", "too-sloth-to-win", "--bot-option", "ismcts.iterations=many"]) == 2
    assert capsys.readouterr().err == (
        "python -m sloth_kernel arena: error: iterations must be a whole number from 1 to 600 (worlds searched per "
        "decision), not 'many'\n"
    )


def test_play_on_a_port_in_use_is_one_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    """Voila would only log that it found no port and stop; the command says so before it starts."""
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert command_line.main(["play", "--port", str(port)]) == 2
    assert capsys.readouterr().err == (
        f"python -m sloth_kernel play: error: cannot serve on 127.0.0.1 port {port}: something else is "
        "listening there; choose another with --port (or --host)\n"
    )
    assert command_line.main(["play", "--host", "no-such-host.invalid"]) == 2
    assert "is not an address this machine can listen on" in capsys.readouterr().err


def test_a_refused_choice_lists_the_choices_as_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert command_line.main(["table", "frob"]) == 2
    assert capsys.readouterr().err == (
        "python -m sloth_kernel table: error: argument command: 'frob' is not one of create, show, list, close\n"
    )


def test_arena_defaults_to_the_games_own_levels(capsys: pytest.CaptureFixture[str]) -> None:
    """Sprint! has no ismcts: with no --bots its own levels play, strongest first."""
    assert command_line.main(["arena", "--game", "sprint", "--games", "1", "--workers", "1", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert [line.split()[0] for line in out.splitlines()[1:5]] == ["master", "expert", "heuristic", "random"]


def test_a_bug_is_one_sentence_and_status_1(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    def broken(argv: list[str]) -> int:
        raise KeyError("oops")  # what a bug would raise

    monkeypatch.setattr(arena, "main", broken)
    monkeypatch.delenv("SLOTH_KERNEL_TRACEBACK", raising=False)
    assert command_line.main(["arena"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a bug in sloth-kernel" in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("argv", "hidden", "extra"),
    [
        (["bench", "--vs-openspiel", "--games", "sprint", "--seconds", "0.01", "--repeats", "1"], "pyspiel", "interop"),
        (["play", "--port", "9"], "voila", "play"),
    ],
)
def test_a_missing_extra_is_one_sentence_naming_it(argv: list[str], hidden: str, extra: str) -> None:
    done = run(*argv, prelude=f"import sys; sys.modules[{hidden!r}] = None  # as if it were not installed")
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert f"needs the {extra} extra: pip install 'sloth-kernel[{extra}]'" in done.stderr
    assert done.stdout == ""  # refused before any work, not after a minute of timing


def test_an_import_error_of_an_extra_names_it(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    def needs_redis(argv: list[str]) -> int:
        raise ModuleNotFoundError("No module named 'redis'", name="redis")

    monkeypatch.setattr(table_cli, "main", needs_redis)
    assert command_line.main(["table", "list"]) == 2
    assert capsys.readouterr().err == (
        "python -m sloth_kernel table: error: this needs the tables extra: pip install 'sloth-kernel[tables]'\n"
    )


# --- Ctrl-C ----------------------------------------------------------------------------------------


LONG = [
    # a tournament in a pool of worker processes, with its progress bar on stderr
    (["arena", "--game", "too-sloth-to-win", "--bots", "ismcts,random", "--games", "5000", "--workers", "2"], "game"),
    # the edge benchmark, each case in a forked child
    (["bench", "--edges", "--games", "surplus-of-sloths", "--levels", "ismcts"], "surplus-of-sloths"),
]


@pytest.mark.parametrize(("argv", "started"), LONG, ids=lambda v: v[0] if isinstance(v, list) else "")
def test_ctrl_c_stops_quietly_with_130(argv: list[str], started: str) -> None:
    """Ctrl-C in a terminal sends SIGINT to the whole foreground process group: so does this test."""
    process = subprocess.Popen(
        [PYTHON, "-m", "sloth_kernel", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        start_new_session=True,  # its own process group, as a shell's foreground job
    )
    seen: dict[str, list[str]] = {"out": [], "err": []}

    def read(name: str, stream: Any) -> None:
        for line in iter(stream.readline, ""):
            seen[name].append(line)

    readers = [
        threading.Thread(target=read, args=("out", process.stdout), daemon=True),
        threading.Thread(target=read, args=("err", process.stderr), daemon=True),
    ]
    for reader in readers:
        reader.start()
    try:
        deadline = time.monotonic() + 180
        while started not in "".join(seen["out"] + seen["err"]):  # it is running: the work has begun
            assert process.poll() is None, "".join(seen["err"])
            assert time.monotonic() < deadline, "the command never started its work"
            time.sleep(0.1)
        os.killpg(process.pid, signal.SIGINT)
        code = process.wait(timeout=120)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    for reader in readers:
        reader.join(timeout=30)
    err = "".join(seen["err"])
    assert code == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err and "Error" not in err
    deadline = time.monotonic() + 60
    while left_in_group(process.pid):  # no worker is left running in its group
        assert time.monotonic() < deadline, left_in_group(process.pid)
        time.sleep(0.1)


def left_in_group(group: int) -> list[int]:
    """The live processes (zombies aside) of a process group."""
    import psutil

    alive = []
    for found in psutil.process_iter():
        try:
            if os.getpgid(found.pid) == group and found.status() != psutil.STATUS_ZOMBIE:
                alive.append(found.pid)
        except (OSError, psutil.Error):
            continue
    return alive


# --- whatever the values: a run or one sentence ----------------------------------------------------

odd_text = st.one_of(
    st.text(max_size=12),
    st.sampled_from(
        ["nan", "inf", "-1", "0", "1e400", "9" * 80, "\u0663", "true", "[1]", "{}", "x=y", "=", ".", "a.b=c"]
    ),
)


@settings(max_examples=40, deadline=None)
@given(
    flag=st.sampled_from(["--seed", "--players", "--option", "--bot-option", "--games", "--workers", "--bots"]),
    value=odd_text,
)
def test_any_arena_value_runs_or_is_one_sentence(flag: str, value: str) -> None:
    cheap = ["--game", "too-sloth-to-win", "--bots", "random,heuristic", "--games", "1", "--workers", "1"]
    argv = ["arena", *cheap, "--no-progress", flag, value]
    if flag == "--games" and value.strip().isdigit() and int(value) > 2:
        argv[argv.index(flag) + 1] = "2"  # a valid count: keep the run short
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = command_line.main(argv)
    assert "Traceback" not in err.getvalue()
    if code == 0:
        assert "wall time" in out.getvalue()
    else:
        assert code == 2 and err.getvalue().count("\n") == 1 and "error: " in err.getvalue(), err.getvalue()


@settings(max_examples=30, deadline=None)
@given(seats=odd_text, options=odd_text, base=odd_text)
def test_any_table_value_runs_or_is_one_sentence(tmp_path_factory: Any, seats: str, options: str, base: str) -> None:
    store = str(tmp_path_factory.mktemp("tables") / "tables.sqlite3")
    argv = ["table", "--store", store, "create", "--game", "sprint", "--seats", seats, "--options", options]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = command_line.main([*argv, "--base-url", base, "--json"])
    assert "Traceback" not in err.getvalue()
    if code == 0:
        assert "table" in json.loads(out.getvalue())
    else:
        assert code == 2 and err.getvalue().count("\n") == 1 and "error: " in err.getvalue(), err.getvalue()


def test_a_game_installed_but_broken_is_named_with_why(capsys: pytest.CaptureFixture[str]) -> None:
    """Not "is not one of": the plugin's own failure, as load_game gives it."""
    from plugin_dist import installed

    missing = "import a_package_nobody_installed  # a plugin whose dependency is missing\n"
    with installed("broken_dist", {"broken-game": "broken_game:SPEC"}, modules={"broken_game": missing}):
        assert command_line.main(["arena", "--game", "broken-game"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "the game broken-game is installed but does not load:" in err
    assert "ModuleNotFoundError" in err and "a_package_nobody_installed" in err and "Traceback" not in err


@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["bench", "--help"], ["table", "--help"]], ids=" ".join)
def test_output_into_a_closed_pipe_stops_quietly(argv: list[str]) -> None:
    """``sloth-kernel --help | head -1``: the reader has gone; no traceback, on any path that prints."""
    read, write = os.pipe()
    os.close(read)  # every write now fails with a broken pipe
    try:
        done = subprocess.run(
            [PYTHON, "-m", "sloth_kernel", *argv], stdout=write, stderr=subprocess.PIPE, text=True, timeout=120
        )
    finally:
        os.close(write)
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr, done.stderr
    assert done.returncode in (0, 1)  # argparse itself drops a failed write of its help; the listing stops with 1
