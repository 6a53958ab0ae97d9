"""A real ipykernel, started as Voila starts one (``VOILA_PREHEAT`` in its environment, no
``PYTEST_CURRENT_TEST``, so ipykernel captures and forwards descriptor 2 as it does in a
deployment): once ``sloth_widgets`` is imported, no iopub message carries a traceback, a server
path or anything written to stderr, and the kernel's own stderr (the server's log) holds every
traceback. ``server_log`` never reaches a page, in JupyterLab's kernels either.

A kernel started through the kernel spec manager that ``voila.json`` names is protected from its
start, without ``VOILA_PREHEAT``. A control kernel started the same way without ``VOILA_PREHEAT`` (as JupyterLab starts one) shows
that the same code does send those messages there, so the checks here can see a leak.
"""

from __future__ import annotations

import os
import queue
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ipykernel")
from jupyter_client.manager import KernelManager  # noqa: E402

SECRET = "/root/very/secret/place"
END = "fd-one-end-marker"

# Every way the kernel's code can fail on the way to a page, then a write to descriptor 1 (still
# forwarded, through the same kind of watcher as descriptor 2) that ends the reading.
CELLS = [
    "import sloth_widgets",
    "from sloth_widgets.guard import server_log\n"
    f"try:\n    raise ValueError({SECRET!r})\nexcept ValueError as err:\n    server_log(err)",
    f"raise RuntimeError({SECRET!r})",
    "import threading\nt = threading.Thread(target=lambda: 1 / 0)\nt.start(); t.join()",
    f"import os\nos.write(2, b'written to fd two {SECRET}\\n')",
    f"import sys\nprint('printed to stderr {SECRET}', file=sys.stderr)",
    "import logging\ntry:\n    1 / 0\nexcept ZeroDivisionError:\n    logging.getLogger('Comm').error('Exception in comm_msg', exc_info=True)",
    f"import warnings\nwarnings.warn('a warning {SECRET}')",
    "import ipywidgets\nb = ipywidgets.Button()\nb.on_click(lambda _: 1 / 0)\nb.click()",
    f"import os\nos.write(1, b'{END}\\n')",
]
MARKS = ("Traceback", 'File "', SECRET, "ZeroDivisionError", "site-packages")


@pytest.fixture
def kernel(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[Any, Path]]:
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_CURRENT_TEST"}
    if request.param == "voila":
        env["VOILA_PREHEAT"] = "False"
    else:
        env.pop("VOILA_PREHEAT", None)
    log = tmp_path / "kernel-stderr.log"
    manager = KernelManager(kernel_name="python3")
    if request.param == "voila.json":  # the kernel spec manager voila.json names, whatever the environment
        from sloth_kernel.voila_setup import SlothKernelSpecManager

        manager = KernelManager(kernel_name="python3", kernel_spec_manager=SlothKernelSpecManager())
    with open(log, "wb") as stderr:
        manager.start_kernel(env=env, stderr=stderr, stdout=stderr)
    client = manager.client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=120)
        yield client, log
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def run_cells(client: Any) -> list[dict[str, Any]]:
    """Run CELLS; every iopub message until the end marker is read and every cell answered."""
    asked = [client.execute(cell, stop_on_error=False) for cell in CELLS]
    idle: set[str] = set()
    seen_end = False
    messages: list[dict[str, Any]] = []
    deadline = time.monotonic() + 120
    while not (seen_end and idle >= set(asked)):
        assert time.monotonic() < deadline, f"the kernel did not answer every cell: {messages[-5:]}"
        try:
            msg = client.get_iopub_msg(timeout=1)
        except queue.Empty:
            continue
        messages.append(msg)
        content = msg["content"]
        if msg["msg_type"] == "status" and content.get("execution_state") == "idle":
            idle.add(msg["parent_header"].get("msg_id", ""))
        if msg["msg_type"] == "stream" and END in content.get("text", ""):
            seen_end = True
    return messages


def leaks(messages: list[dict[str, Any]]) -> list[str]:
    found = []
    for msg in messages:
        if msg["msg_type"] == "execute_input":  # the cell's own code, echoed
            continue
        text = repr(msg["content"])
        if msg["msg_type"] == "stream" and msg["content"]["name"] == "stderr":
            found.append(f"stderr stream: {text[:300]}")
        elif any(mark in text for mark in MARKS):
            found.append(f"{msg['msg_type']}: {text[:300]}")
    return found


@pytest.mark.parametrize("kernel", ["voila", "voila.json"], indirect=True)
def test_a_voila_kernel_sends_no_traceback_and_logs_every_one(kernel: tuple[Any, Path]) -> None:
    client, log = kernel
    messages = run_cells(client)
    assert leaks(messages) == []
    errors = [m["content"] for m in messages if m["msg_type"] == "error"]
    assert len(errors) == 2  # the cell that raised and the button's handler: a sentence each
    for error in errors:
        assert error["traceback"] == [
            "Something went wrong in this page's kernel; the details are in the server's log."
        ]
    written = log.read_text(errors="replace")
    assert written.count("Traceback (most recent call last)") >= 5, written[-3000:]
    for what in ("ValueError: " + SECRET, "RuntimeError: " + SECRET, "written to fd two", "printed to stderr"):
        assert what in written, (what, written[-3000:])
    assert "ZeroDivisionError" in written and "a warning" in written


@pytest.mark.parametrize("kernel", ["jupyterlab"], indirect=True)
def test_a_jupyterlab_kernel_forwards_as_jupyter_does_but_never_server_log(kernel: tuple[Any, Path]) -> None:
    client, log = kernel
    messages = run_cells(client)
    found = leaks(messages)
    assert any("written to fd two" in line for line in found), found  # the control: leaks are seen
    assert any(m["msg_type"] == "error" and SECRET in repr(m["content"]) for m in messages)
    assert not any("board error" in repr(m["content"]) for m in messages), "server_log reached the page"
    assert "ValueError: " + SECRET in log.read_text(errors="replace")
