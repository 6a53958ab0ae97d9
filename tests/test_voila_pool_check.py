"""The check a preheated kernel passes before Voila gives it to a visitor
(``SlothKernelManager._answers``), on real IPython kernels.

- Checked again and again while the kernel runs a notebook (as Voila's pool kernel does while a
  visitor takes it), the notebook still runs to its end with every output. The first version
  of the check sent a ``kernel_info_request`` on the control channel; one such request in the
  middle of a notebook left the notebook's run waiting for ever, and pages that arrived while
  their pool kernel still ran its notebook never came up (the CI run of 2026-12-01).
- A live kernel passes; a stopped (SIGSTOP) one and a killed one do not, and the stopped one
  is judged within the timeout.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from typing import Any

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
voila_setup = pytest.importorskip("sloth_kernel.voila_setup")

LINES = 6  # each cell prints this many lines, a little apart
CELLS = 8


def notebook() -> Any:
    source = f"import time\nfor line in range({LINES}):\n    print(line, flush=True)\n    time.sleep(0.03)"
    return nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for _ in range(CELLS)])


async def started(manager: Any) -> str:
    kernel_id: str = await manager.start_kernel(kernel_name="python3")
    return kernel_id


async def until_stopped(pid: int) -> None:
    """Wait (bounded) until the process is in the stopped state: a signal is delivered a moment
    after kill() returns."""
    for _ in range(200):
        with open(f"/proc/{pid}/stat") as stat:
            if stat.read().rsplit(")", 1)[1].split()[0] == "T":
                return
        await asyncio.sleep(0.01)
    raise AssertionError(f"process {pid} did not stop")


def run(coroutine: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, 120))


def test_checking_a_kernel_while_it_runs_its_notebook_does_not_disturb_the_run() -> None:
    async def scenario() -> tuple[Any, list[bool]]:
        manager = voila_setup.SlothKernelManager()
        kernel_id = await started(manager)
        checks: list[bool] = []
        try:
            book = notebook()
            client = nbclient.NotebookClient(book, km=manager.get_kernel(kernel_id), timeout=30)

            async def check_all_along() -> None:
                while True:
                    checks.append(await manager._answers(kernel_id))
                    await asyncio.sleep(0.05)

            checking = asyncio.ensure_future(check_all_along())
            try:
                await client.async_execute()
            finally:
                checking.cancel()
            return book, checks
        finally:
            await manager.shutdown_kernel(kernel_id, now=True)

    book, checks = run(scenario())
    assert len(checks) >= 10, checks  # the check ran all along the notebook's run
    assert all(checks), checks
    for cell in book.cells:
        text = "".join(output.get("text", "") for output in cell.outputs)
        assert text.split() == [str(line) for line in range(LINES)], cell.outputs


def test_a_live_kernel_passes_a_stopped_or_killed_one_does_not() -> None:
    timeout = 2.0

    async def scenario() -> dict[str, Any]:
        manager = voila_setup.SlothKernelManager(pool_answer_timeout=timeout)
        live, stopped, killed = [await started(manager) for _ in range(3)]
        pids = {name: manager.get_kernel(name).provisioner.pid for name in (stopped, killed)}
        try:
            answers: dict[str, Any] = {"live": await manager._answers(live)}
            answers["all_up"] = [await manager._answers(name) for name in (stopped, killed)]
            os.kill(pids[stopped], signal.SIGSTOP)
            await until_stopped(pids[stopped])
            began = time.monotonic()
            answers["stopped"] = await manager._answers(stopped)
            answers["stopped_s"] = time.monotonic() - began
            os.kill(pids[killed], signal.SIGKILL)
            for _ in range(100):  # until the process is reaped (a bounded wait)
                if not await manager.get_kernel(killed).is_alive():
                    break
                await asyncio.sleep(0.05)
            answers["killed"] = await manager._answers(killed)
            answers["unknown"] = await manager._answers("no-such-kernel")
            return answers
        finally:
            os.kill(pids[stopped], signal.SIGKILL)
            for kernel_id in (live, stopped, killed):
                await manager.shutdown_kernel(kernel_id, now=True)

    answers = run(scenario())
    assert answers["live"] is True and answers["all_up"] == [True, True], answers
    assert answers["stopped"] is False
    assert timeout * 0.9 <= answers["stopped_s"] < timeout + 5, answers
    assert answers["killed"] is False
    assert answers["unknown"] is False


def test_the_heartbeat_address_is_made_as_jupyter_client_makes_it() -> None:
    assert voila_setup.heartbeat_url({"transport": "tcp", "ip": "127.0.0.1", "hb_port": 5555}) == "tcp://127.0.0.1:5555"
    assert voila_setup.heartbeat_url({"transport": "ipc", "ip": "/tmp/kernel", "hb_port": 3}) == "ipc:///tmp/kernel-3"
