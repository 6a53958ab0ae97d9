"""Which culler a page's kernel answers to (``SlothKernelManager``), on real IPython kernels.

A kernel given to a page whose page has not opened its WebSocket yet is left to the "never
connected" culler (its clock starts once the page is sent); jupyter_server's idle culler, whose
clock is the kernel's last message, takes it only once its page has connected and gone away, or
when it died. Without the "never connected" culler (``unconnected_timeout=0``) the idle culler
takes every kernel, as jupyter_server's does.
"""

from __future__ import annotations

import asyncio
import datetime
from typing import Any

import pytest

voila_setup = pytest.importorskip("sloth_kernel.voila_setup")


def long_idle(manager: Any, kernel_id: str) -> None:
    """As if the kernel's last message came an hour ago (a preheated kernel's notebook run)."""
    manager.get_kernel(kernel_id).last_activity = datetime.datetime.now(datetime.UTC) - datetime.timedelta(hours=1)


async def culled(manager: Any, kernel_id: str) -> bool:
    long_idle(manager, kernel_id)
    await manager.cull_kernel_if_idle(kernel_id)
    return kernel_id not in manager


def run(coroutine: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, 120))


def test_the_idle_culler_leaves_a_page_that_has_not_connected_to_the_never_connected_culler() -> None:
    async def scenario() -> dict[str, bool]:
        manager = voila_setup.SlothKernelManager(cull_idle_timeout=60, unconnected_timeout=60)
        waiting: str = await manager.start_kernel(kernel_name="python3")  # a page's: not connected yet
        try:
            seen = {"waiting": await culled(manager, waiting)}
            if seen["waiting"]:
                return seen
            manager.notify_connect(waiting)
            seen["connected"] = await culled(manager, waiting)
            manager.notify_disconnect(waiting)
            seen["gone away"] = await culled(manager, waiting)
            return seen
        finally:
            if waiting in manager:
                await manager.shutdown_kernel(waiting, now=True)

    assert run(scenario()) == {"waiting": False, "connected": False, "gone away": True}


def test_without_the_never_connected_culler_the_idle_culler_takes_every_kernel() -> None:
    async def scenario() -> bool:
        manager = voila_setup.SlothKernelManager(cull_idle_timeout=60, unconnected_timeout=0)
        kernel_id: str = await manager.start_kernel(kernel_name="python3")
        try:
            return await culled(manager, kernel_id)
        finally:
            if kernel_id in manager:
                await manager.shutdown_kernel(kernel_id, now=True)

    assert run(scenario()) is True


def test_a_dead_kernel_is_culled_even_before_its_page_connects() -> None:
    async def scenario() -> bool:
        manager = voila_setup.SlothKernelManager(cull_idle_timeout=60, unconnected_timeout=60)
        kernel_id: str = await manager.start_kernel(kernel_name="python3")
        try:
            manager.get_kernel(kernel_id).execution_state = "dead"
            await manager.cull_kernel_if_idle(kernel_id)
            return kernel_id not in manager
        finally:
            if kernel_id in manager:
                await manager.shutdown_kernel(kernel_id, now=True)

    assert run(scenario()) is True
