"""The hook by which a Voila started from the repository finds the play apps' template.

``voila.json`` names :class:`SlothKernelSpecManager` as Voila's kernel spec manager
(``VoilaConfiguration.kernel_spec_manager_class``). Voila reads that file from its working
directory and creates the manager once, at start-up, before serving anything; creating it runs
:func:`sloth_kernel.serve.link_template`, so that ``voila notebooks/`` works straight after an
editable install (``pip install -e '.[play]'``), which cannot install the template itself.
Finding and starting kernels is left exactly as jupyter_client does it.

Voila as a Jupyter server extension (Binder) uses the server's kernel spec manager instead; there
the project is installed from a wheel, which carries the template. Needs the ``play`` extra.
"""

from __future__ import annotations

from typing import Any

from jupyter_client.kernelspec import KernelSpecManager

from sloth_kernel.serve import link_template


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
