"""Two hooks that ``voila.json`` gives Voila: how it finds the play apps' template, and a kernel
WebSocket that sends each message at once (:class:`NoDelayKernelConnection`).

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

from typing import Any

from jupyter_client.kernelspec import KernelSpecManager
from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection

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
