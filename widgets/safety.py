"""No traceback from a kernel that Voila started reaches a page (README "Web apps").

ipykernel forwards everything written to the kernel's stderr to every connected page as stream
messages: Python's ``sys.stderr`` (warnings, logging, a dying thread's traceback, the comm layer's
"Exception in comm_msg") and, with file descriptor 2 captured, anything written to the descriptor
itself (``sys.__stderr__``, C code). IPython's ``showtraceback``, which ipywidgets calls when a
widget's callback fails, sends the traceback to the page as an iopub ``error`` message.

:func:`protect` closes both for the whole kernel, once:

- file descriptor 2 is the kernel's own stderr again (the server's console or log), and
  ``sys.stderr`` and the logging handlers that wrote to the forwarded stream write there;
- the shell's ``_showtraceback`` writes the traceback there and sends the page an error whose
  only text is :data:`SENTENCE` (Voila puts its own notice in place of a failing cell's error).

The kernel's stdout stays as it is: what a notebook prints is its output.

It runs as the kernel starts when Voila starts kernels through
:class:`sloth_kernel.voila_setup.SlothKernelSpecManager` (``voila.json``: this module is an IPython
extension), and when ``sloth_widgets`` is imported in any kernel that Voila started (Voila sets
``VOILA_PREHEAT`` in the environment of every kernel it starts, as a server of its own and as a
Jupyter server extension, as on Binder). A JupyterLab kernel keeps Jupyter's behaviour, where a notebook's
author sees their own errors; the boards' own errors go to :func:`operator_stream` there too.
"""

from __future__ import annotations

import io
import logging
import os
import sys
import threading
import traceback
from typing import Any, TextIO

SENTENCE = "Something went wrong in this page's kernel; the details are in the server's log."

_lock = threading.Lock()
_stream: TextIO | None = None
_protected = False


class Error(Exception):
    """What a page is told when something fails in the kernel: only :data:`SENTENCE`."""


def served_by_voila() -> bool:
    """True in a kernel that Voila started (it sets VOILA_PREHEAT for every kernel, pooled or not)."""
    return "VOILA_PREHEAT" in os.environ


def operator_stream() -> TextIO | None:
    """The kernel's own stderr, which no page receives: the server's console or log.

    ipykernel keeps a copy of the real descriptor 2 when it captures it; without the capture the
    descriptor is still the real one."""
    global _stream
    with _lock:
        if _stream is None:
            copy = getattr(sys.stderr, "_original_stdstream_copy", None)
            if isinstance(copy, int):
                _stream = io.TextIOWrapper(
                    io.FileIO(os.dup(copy), "w"), encoding="utf-8", errors="backslashreplace", line_buffering=True
                )
            else:
                _stream = sys.__stderr__
        return _stream


def log_error(heading: str, err: BaseException) -> None:
    """Write `heading` and the error's whole traceback to the server's log, never to a page."""
    stream = operator_stream()
    if stream is None:
        return
    try:
        stream.write(f"{heading}\n{''.join(traceback.format_exception(err))}")
        stream.flush()
    except (OSError, ValueError):  # the log is gone (a closed descriptor): nothing else can take it
        pass


def _stop_forwarding_fd(forwarded: Any) -> None:
    """Give descriptor 2 back to the kernel's own stderr, as ipykernel's OutStream.close does, and
    leave that stream's watcher stopped (so closing it later does nothing more)."""
    if not getattr(forwarded, "_should_watch", False):
        return
    forwarded._should_watch = False
    fd, copy = forwarded._original_stdstream_fd, forwarded._original_stdstream_copy
    os.write(fd, b"\0")  # wakes the watcher, which then sees it should stop (the byte goes nowhere)
    forwarded.watch_fd_thread.join(timeout=10)
    os.dup2(copy, fd)


def protect(shell: Any = None) -> bool:
    """Stop this kernel from sending tracebacks or stderr to pages (see the module docs). Returns
    True once the kernel is protected; does nothing outside an IPython kernel."""
    global _protected
    if _protected:
        return True
    if shell is None:
        try:
            from IPython import get_ipython
        except ImportError:
            return False
        shell = get_ipython()
    if shell is None or not hasattr(shell, "_showtraceback"):
        return False
    own = operator_stream()  # over a copy of the real descriptor 2, made before it is given back
    forwarded = sys.stderr
    try:
        if forwarded is not None:
            forwarded.flush()
        _stop_forwarding_fd(forwarded)
    except (AttributeError, OSError, ValueError):  # another ipykernel: its stream is replaced below all the same
        pass
    if own is not None and forwarded is not own:
        sys.stderr = own
        for logger in [logging.getLogger(), *logging.Logger.manager.loggerDict.values()]:
            for handler in getattr(logger, "handlers", ()):
                if isinstance(handler, logging.StreamHandler) and handler.stream is forwarded:
                    handler.setStream(own)
    send = shell._showtraceback

    def showtraceback(etype: Any, evalue: Any, stb: Any) -> None:
        if isinstance(evalue, BaseException):
            log_error("sloth-kernel: an error in the kernel (the page is told only that something went wrong):", evalue)
        send(Error, Error(SENTENCE), [SENTENCE])

    shell._showtraceback = showtraceback
    _protected = True
    return True


def protect_if_served() -> bool:
    """:func:`protect` in a kernel that Voila started; nothing elsewhere."""
    return protect() if served_by_voila() else False


def load_ipython_extension(ipython: Any) -> None:
    """``--IPKernelApp.extensions=sloth_widgets.safety``: protect the kernel from its start."""
    protect(ipython)
