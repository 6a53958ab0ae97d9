"""Three hooks that ``voila.json`` gives Voila: how it finds the play apps' template, a kernel
WebSocket that sends each message at once (:class:`NoDelayKernelConnection`), and a kernel
manager with a public server's limits (:class:`SlothKernelManager`: a cap, a short life for
kernels whose page never connects, preheated kernels checked to answer before a visitor gets one).

``voila.json`` names :class:`SlothKernelSpecManager` as Voila's kernel spec manager
(``VoilaConfiguration.kernel_spec_manager_class``). Voila reads that file from its working
directory and creates the manager once, at start-up, before serving anything; creating it runs
:func:`sloth_kernel.serve.link_template`, so that ``voila notebooks/`` works straight after an
editable install (``pip install -e '.[play]'``), which cannot install the template itself.
Finding kernels is left as jupyter_client does it; an IPython kernel starts with the
``sloth_widgets.safety`` extension loaded (no traceback to a page).

Voila as a Jupyter server extension (Binder) uses the server's kernel spec manager instead; there
the project is installed from a wheel, which carries the template. Needs the ``play`` extra.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Mapping
from typing import Any

import zmq
import zmq.asyncio
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_core.utils import ensure_async
from jupyter_server._tz import utcnow
from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado.ioloop import PeriodicCallback
from tornado.web import HTTPError
from traitlets import Float, Integer

from sloth_kernel.serve import link_template

SAFETY = "--IPKernelApp.extensions=sloth_widgets.safety"  # an IPython extension (needs the play extra)


class SlothKernelSpecManager(KernelSpecManager):
    """jupyter_client's kernel spec manager, which first makes sure Voila finds the template."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        try:
            place = link_template()
        except OSError as error:  # a read-only environment without the template: pages will say so
            self.log.warning("the play apps' Voila template is not available: %s", error)
        else:
            self.log.debug("the play apps' Voila template: %s", place)

    def get_kernel_spec(self, kernel_name: str, *args: Any, **kwargs: Any) -> Any:
        """The kernel spec, with IPython kernels started with ``sloth_widgets.safety`` loaded, so
        that from its start no Voila kernel sends a page a traceback or its stderr, whatever its
        notebook imports (the traceback goes to Voila's log instead)."""
        spec = super().get_kernel_spec(kernel_name, *args, **kwargs)
        if any("ipykernel" in part for part in spec.argv) and SAFETY not in spec.argv:
            spec.argv = [*spec.argv, SAFETY]
        return spec


class NoDelayKernelConnection(ZMQChannelsWebsocketConnection):
    """jupyter_server's kernel WebSocket connection, with Nagle's algorithm turned off.

    Tornado leaves a WebSocket's TCP socket with Nagle's algorithm on, and jupyter_server does
    not turn it off. A move answers with a burst of small widget messages (about 600 bytes
    each); with Nagle on, once one of them is unacknowledged the next ones wait for the
    browser's delayed acknowledgement, about 40 ms on Linux, so the board's last parts reach the
    page late. Turning it off sends each message as it is written.
    """

    def connect(self) -> Any:
        self.websocket_handler.set_nodelay(True)
        return super().connect()


# --- the kernel manager: a cap, a short life for pages that never connect, live pool kernels ----

# Voila's kernel environment variable that marks a preheated kernel (voila.utils.ENV_VARIABLE).
_PREHEAT = "VOILA_PREHEAT"


def server_full_sentence(cap: int) -> str:
    """What a visitor reads when the server already runs `cap` pages' kernels (ASCII: it is also
    the HTTP status line's reason)."""
    pages = "one page" if cap == 1 else f"{cap} pages"
    return (
        f"This server is full: it already runs {pages}, as many as it allows at once. "
        "Try again in a few minutes, or ask whoever runs it to allow more."
    )


NO_KERNEL_SENTENCE = (
    "This server could not start a game for this page just now (it may be very busy). "
    "Reload the page in a minute to try again."
)


def heartbeat_url(info: Mapping[str, Any]) -> str:
    """The address of a kernel's heartbeat socket, from its connection info (as jupyter_client
    makes it: ``tcp://IP:PORT``, or ``ipc://PATH-PORT``)."""
    if info.get("transport", "tcp") == "tcp":
        return f"tcp://{info['ip']}:{info['hb_port']}"
    return f"{info['transport']}://{info['ip']}-{info['hb_port']}"


async def heartbeat_answers(info: Mapping[str, Any], timeout: float) -> bool:
    """Whether the kernel's heartbeat echoes a ping within `timeout` seconds.

    The heartbeat is the kernel's own echo socket, served by a thread of its own, so it answers
    while a cell runs and says nothing while the process is stopped or gone. Unlike a request
    on the kernel's control channel, a ping is not a message to the kernel: a kernel still
    running its notebook for Voila is not disturbed (ipykernel may publish the idle status of a
    control request that arrives mid-notebook with the wrong parent, and the notebook's run
    then waits for ever).
    """
    socket = zmq.asyncio.Context.instance().socket(zmq.REQ)
    socket.linger = 0
    try:
        socket.connect(heartbeat_url(info))
        await socket.send(b"sloth-kernel: are you there?")
        if await socket.poll(int(timeout * 1000)):  # POLLIN
            await socket.recv()
            return True
        return False
    finally:
        socket.close(linger=0)


class SlothKernelManager(AsyncMappingKernelManager):
    """jupyter_server's kernel manager with three limits for a public server.

    ``voila.json`` names it as ``VoilaConfiguration.multi_kernel_manager_class``; with
    ``preheat_kernel`` on, Voila builds its pooling kernel manager (``VoilaKernelManager``) as a
    subclass of this one, so the ``SlothKernelManager``, ``VoilaKernelManager`` and
    ``MappingKernelManager`` settings in ``voila.json`` all apply to the one object.

    - **A cap** (:attr:`max_page_kernels`): at most that many kernels serve pages at once (the
      preheated ones waiting in the pools are not counted). A visitor beyond it gets a page
      with a sentence (HTTP 503), and no kernel.
    - **Pages that never connect** (:attr:`unconnected_timeout`): a kernel given to a page (a
      request, or a preheated kernel taken from its pool) whose page has not opened its kernel
      WebSocket, and that has been idle that long since its page was sent (and is not starting
      or running a cell), is shut down: a plain GET costs a kernel for about a minute, not for the idle culler's 15. jupyter_server's culler cannot
      tell "never connected" from "disconnected", so until its page connects a kernel is this
      limit's alone (:meth:`cull_kernel_if_idle`); a page that connected and went away keeps
      ``MappingKernelManager.cull_idle_timeout``. Preheated kernels in a pool are never culled.
    - **Live pool kernels** (:attr:`pool_answer_timeout`): before a preheated kernel is given to
      a visitor its heartbeat must answer within that time (:func:`heartbeat_answers`), and must not have died or restarted since it ran its notebook (a restarted kernel
      has none of the page's widgets). Otherwise it is shut down and the next one is taken
      (Voila starts a fresh one as each is taken), up to :attr:`pool_attempts` times; then the
      visitor gets a sentence (HTTP 503) rather than a page that never comes up.
    """

    max_page_kernels = Integer(
        40,
        config=True,
        help="The most kernels that serve pages at once (preheated kernels waiting in a pool not "
        "counted). A visitor beyond it gets a page saying the server is full. 0: no cap.",
    )
    unconnected_timeout = Integer(
        60,
        config=True,
        help="Seconds after which a kernel given to a page whose page never opened its kernel "
        "WebSocket, idle that long, is shut down. 0: never (the idle culler alone).",
    )
    pool_answer_timeout = Float(
        10.0,
        config=True,
        help="Seconds a preheated kernel has to answer before it is given to a visitor; one that "
        "does not is shut down and the next one is taken.",
    )
    pool_attempts = Integer(3, config=True, help="How many preheated kernels a request tries before it gives up.")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)  # type: ignore[no-untyped-call]
        self._page_kernels: set[str] = set()  # kernels given to pages (live or not)
        self._unconnected: dict[str, float] = {}  # kernel given to a page, not connected yet -> when given
        self._restarted: set[str] = set()  # kernels that died and were restarted by jupyter_client
        self._starting_pages = 0  # page kernels being started or taken right now
        self._unconnected_callback: PeriodicCallback | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Voila's pooling kernel manager (a subclass, see above) hands out a preheated kernel in
        ``get_rendered_notebook``, which calls nothing of ours: wrap it where it is defined."""
        super().__init_subclass__(**kwargs)
        take = cls.__dict__.get("get_rendered_notebook")
        if take is not None:

            async def get_rendered_notebook(self: SlothKernelManager, notebook_name: str, *args: Any, **kw: Any) -> Any:
                return await self._take_from_pool(take, notebook_name, *args, **kw)

            cls.get_rendered_notebook = get_rendered_notebook  # type: ignore[attr-defined]
        start = cls.__dict__.get("_initialize")
        if start is not None:

            async def _initialize(self: SlothKernelManager, notebook_path: str, *args: Any, **kw: Any) -> Any:
                content = await start(self, notebook_path, *args, **kw)
                self._log_when_run(content, notebook_path)
                return content

            cls._initialize = _initialize  # type: ignore[attr-defined]

    def _log_when_run(self, content: Any, notebook_path: str) -> None:
        """Say in the log when a preheated kernel has run its notebook (Voila says only when it
        started): from then on a visitor gets its page at once."""
        task, kernel_id = content["task"], content["kernel_id"]

        def done(finished: Any) -> None:
            if not finished.cancelled() and finished.exception() is None:
                self.log.info("Preheated kernel %s has run %s", kernel_id, notebook_path)

        task.add_done_callback(done)

    # -- counting pages --------------------------------------------------------------------------

    def page_kernel_count(self) -> int:
        """Kernels serving pages now, with those being started or taken for one."""
        self._page_kernels &= set(self._kernels)
        return len(self._page_kernels) + self._starting_pages

    def _refuse_if_full(self) -> None:
        cap = self.max_page_kernels
        if cap > 0 and self.page_kernel_count() >= cap:
            self.log.warning("Refused a page: %s page kernels run, the cap (max_page_kernels)", cap)
            raise HTTPError(503, reason=server_full_sentence(cap))

    def _given_to_page(self, kernel_id: str, sent: bool = True) -> None:
        """Count the kernel as a page's; its "never connected" clock starts now, or (`sent` False)
        once its page has been sent (:meth:`_clock_after`)."""
        self._page_kernels.add(kernel_id)
        if self.unconnected_timeout > 0 and not self._kernel_connections.get(kernel_id):
            self._unconnected[kernel_id] = time.monotonic() if sent else math.inf

    def _start_clock(self, kernel_id: str) -> None:
        if kernel_id in self._unconnected:
            self._unconnected[kernel_id] = time.monotonic()

    def _clock_after(self, render_task: Any, kernel_id: str) -> Any:
        """Voila's render task for a preheated kernel, whose rest of the page (the generator the
        handler streams after it) starts the kernel's "never connected" clock once it is sent: a
        pool kernel taken while it still runs its notebook (a busy machine) is not culled before
        its page could connect."""

        async def rest(generator: Any) -> Any:
            try:
                async for item in generator:
                    yield item
            finally:
                self._start_clock(kernel_id)

        async def rendered() -> Any:
            try:
                cells, generator = await render_task
            except BaseException:
                self._start_clock(kernel_id)
                raise
            return cells, rest(generator)

        return asyncio.ensure_future(rendered())

    # -- starting, connecting, shutting down -------------------------------------------------------

    async def start_kernel(self, **kwargs: Any) -> str:  # type: ignore[override]
        env = kwargs.get("env") or {}
        for_page = env.get(_PREHEAT) != "True"  # Voila's pools start theirs with VOILA_PREHEAT=True
        if for_page:
            self._refuse_if_full()
            self._starting_pages += 1
        try:
            kernel_id: str = await super().start_kernel(**kwargs)
        finally:
            if for_page:
                self._starting_pages -= 1
        self.add_restart_callback(kernel_id, lambda: self._restarted.add(kernel_id), "restart")
        if for_page:
            self._given_to_page(kernel_id)
        return kernel_id

    def notify_connect(self, kernel_id: str) -> None:
        super().notify_connect(kernel_id)  # type: ignore[no-untyped-call]
        self._unconnected.pop(kernel_id, None)

    async def shutdown_kernel(self, kernel_id: str, *args: Any, **kwargs: Any) -> None:  # type: ignore[override]
        self._unconnected.pop(kernel_id, None)
        self._page_kernels.discard(kernel_id)
        self._restarted.discard(kernel_id)
        await super().shutdown_kernel(kernel_id, *args, **kwargs)  # type: ignore[no-untyped-call]

    # -- culling pages that never connected -----------------------------------------------------

    def initialize_culler(self) -> None:
        super().initialize_culler()  # type: ignore[no-untyped-call]
        if self._unconnected_callback is None and self.unconnected_timeout > 0:
            every = max(1.0, min(10.0, self.unconnected_timeout / 6))
            self._unconnected_callback = PeriodicCallback(self.cull_unconnected, 1000 * every)
            self._unconnected_callback.start()
            self.log.info(
                "Shutting down kernels whose page never connected, idle > %s seconds, every %.0f seconds",
                self.unconnected_timeout,
                every,
            )

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        """jupyter_server's idle culler, for every kernel but one whose page has not connected yet
        (unless it died): that one is :meth:`cull_unconnected`'s, whose clock starts once its page
        is sent. The idle culler's clock is the kernel's last message, which for a preheated kernel
        is when it ran its notebook, long before its page came."""
        kernel = self._kernels.get(kernel_id)
        if kernel_id in self._unconnected and getattr(kernel, "execution_state", None) != "dead":
            return
        await super().cull_kernel_if_idle(kernel_id)  # type: ignore[no-untyped-call]

    async def cull_unconnected(self) -> None:
        """Shut down each kernel given to a page whose page never opened its WebSocket, once it is
        idle and was given at least :attr:`unconnected_timeout` seconds ago."""
        now = time.monotonic()
        for kernel_id, given in list(self._unconnected.items()):
            kernel = self._kernels.get(kernel_id)
            if kernel is None:
                self._unconnected.pop(kernel_id, None)
                continue
            if self._kernel_connections.get(kernel_id):
                self._unconnected.pop(kernel_id, None)
                continue
            last = getattr(kernel, "last_activity", None)
            idle = (utcnow() - last).total_seconds() if last is not None else now - given
            if now - given < self.unconnected_timeout or idle < self.unconnected_timeout:
                continue
            if getattr(kernel, "execution_state", None) in ("busy", "starting"):
                continue  # still running a cell, or not up yet (a busy machine): its page is not sent yet
            self.log.warning(
                "Shutting down kernel %s: its page never connected (%d seconds idle)", kernel_id, int(idle)
            )
            try:
                await self.shutdown_kernel(kernel_id)
            except Exception as error:  # noqa: BLE001 - the next round tries again
                self.log.warning("Could not shut down kernel %s: %s", kernel_id, error)

    # -- handing out preheated kernels ------------------------------------------------------------

    async def _answers(self, kernel_id: str) -> bool:
        """Whether the kernel is alive, has not been restarted, and its heartbeat echoes a ping
        within pool_answer_timeout (:func:`heartbeat_answers`)."""
        if kernel_id not in self or kernel_id in self._restarted:
            return False
        manager = self.get_kernel(kernel_id)
        if not await ensure_async(manager.is_alive()):
            return False
        return await heartbeat_answers(manager.get_connection_info(), self.pool_answer_timeout)

    async def _take_from_pool(self, take: Any, notebook_name: str, *args: Any, **kwargs: Any) -> Any:
        """Voila's ``get_rendered_notebook`` (`take`), for a kernel known to answer, within the cap."""
        self._refuse_if_full()
        self._starting_pages += 1
        try:
            for attempt in range(max(1, self.pool_attempts)):
                try:
                    render_task, rendered, kernel_id = await take(self, notebook_name, *args, **kwargs)
                except Exception as error:  # noqa: BLE001 - a pool kernel that failed to start
                    self.log.warning("A preheated kernel for %s failed to start: %s", notebook_name, error)
                    self.fill_if_needed(delay=0, notebook_name=notebook_name)  # type: ignore[attr-defined]
                    continue
                failed = render_task.done() and not render_task.cancelled() and render_task.exception() is not None
                if not failed and await self._answers(kernel_id):
                    self._given_to_page(kernel_id, sent=False)
                    return self._clock_after(render_task, kernel_id), rendered, kernel_id
                self.log.warning(
                    "Preheated kernel %s for %s is dead, stopped or restarted (try %d): shutting it down",
                    kernel_id,
                    notebook_name,
                    attempt + 1,
                )
                if not render_task.done():
                    render_task.cancel()
                if kernel_id in self:
                    try:
                        await self.shutdown_kernel(kernel_id, now=True)
                    except Exception as error:  # noqa: BLE001 - it is gone either way
                        self.log.warning("Could not shut down kernel %s: %s", kernel_id, error)
        finally:
            self._starting_pages -= 1
        raise HTTPError(503, reason=NO_KERNEL_SENTENCE)
