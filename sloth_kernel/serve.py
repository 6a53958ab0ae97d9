"""Serving the play apps: ``sloth-kernel play``, and where Voila finds the `sloth` template.

The gallery and the play apps ask for the project's own Voila template, ``sloth``
(``widgets/voila_template/sloth``). Voila looks for templates only on Jupyter's data path
(``jupyter --paths``: ``$JUPYTER_PATH``, the user's data directory, ``<prefix>/share/jupyter``,
then the system's), so the template lives in the data directory of the environment that runs
Voila, ``<prefix>/share/jupyter/voila/templates/sloth``, in every way of installing:

- a wheel (``pip install .``, ``pip install 'sloth-kernel[play]'``, Binder's ``postBuild``)
  copies it there: ``[tool.setuptools.data-files]`` in pyproject.toml;
- an editable install (``pip install -e .``, ``make``) cannot: setuptools installs no data
  files in editable mode. :func:`link_template` links the checkout's template there instead,
  live with the repository. It runs whenever Voila starts from a checkout: the repository's
  ``voila.json``, which Voila reads from its working directory, names
  :class:`sloth_kernel.voila_setup.SlothKernelSpecManager`, created at start-up, which calls it
  (so plain ``voila notebooks/`` works); ``sloth-kernel play`` and ``make`` call it too.

``sloth-kernel play`` serves the gallery from the apps' *site*, a folder holding ``voila.json``
and ``notebooks/``: the repository root for a checkout, or ``sloth_kernel/`` itself in a wheel
(which carries ``sloth_kernel/voila.json`` and ``sloth_kernel/notebooks/``). It needs the
``play`` extra; the engine alone imports none of this.
"""

from __future__ import annotations

import argparse
import errno
import importlib.util
import os
import socket
import sys
from pathlib import Path

from sloth_kernel.cli import Parser, UsageError, program, require_extra
from sloth_kernel.errors import shorten

TEMPLATE = "sloth"
GALLERY = "index.ipynb"
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8866


def template_target(prefix: Path | None = None) -> Path:
    """Where Voila looks for the template in the environment at `prefix` (this one by default)."""
    return Path(sys.prefix if prefix is None else prefix, "share", "jupyter", "voila", "templates", TEMPLATE)


def template_source() -> Path | None:
    """The template inside the installed ``sloth_widgets`` (a checkout's widgets/ for an editable
    install), or None if that package has none (a wheel, whose copy is in the data directory)."""
    spec = importlib.util.find_spec("sloth_widgets")  # finds, without importing ipywidgets
    for folder in (spec.submodule_search_locations or []) if spec is not None else []:
        source = Path(folder, "voila_template", TEMPLATE)
        if (source / "index.html.j2").is_file():
            return source
    return None


def link_template(prefix: Path | None = None) -> Path:
    """Make sure Voila finds the `sloth` template in the environment at `prefix`; return its place.

    A copy already there (a wheel's) is left alone. Otherwise the place becomes a symbolic link
    to the checkout's template, replacing a link that points elsewhere (a moved checkout). Raises
    FileNotFoundError if neither exists.
    """
    target = template_target(prefix)
    source = template_source()
    if target.is_symlink():
        if source is not None and target.resolve() == source.resolve():
            return target
    elif (target / "index.html.j2").is_file():
        return target  # installed with a wheel
    if source is None:
        raise FileNotFoundError(
            f"the {TEMPLATE!r} Voila template is neither installed at {target} nor part of an editable checkout"
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(f".{TEMPLATE}-{os.getpid()}")
    temporary.unlink(missing_ok=True)
    temporary.symlink_to(source, target_is_directory=True)
    os.replace(temporary, target)  # atomic: a server starting at the same time sees old or new
    return target


def is_site(folder: Path) -> bool:
    return (folder / "voila.json").is_file() and (folder / "notebooks" / GALLERY).is_file()


def site() -> Path:
    """The folder with ``voila.json`` and ``notebooks/``: in a wheel, this package's folder; for an
    editable install, the checkout it was installed from."""
    package = Path(__file__).resolve().parent
    for folder in (package, package.parent):
        if is_site(folder):
            return folder
    raise FileNotFoundError(
        f"no notebooks to serve: neither {package} nor {package.parent} holds voila.json and notebooks/"
    )


def gallery_url(host: str, port: int) -> str:
    return f"http://{host}:{port}/voila/render/{GALLERY}"


def voila_command(host: str, port: int, extra: list[str]) -> list[str]:
    """Voila serving notebooks/ of the site (run in the site, so it reads voila.json there)."""
    return [
        sys.executable,
        "-m",
        "voila",
        "notebooks",
        "--no-browser",
        f"--Voila.ip={host}",
        f"--Voila.port={port}",
        "--Voila.port_retries=0",
        *extra,
    ]


def port_number(text: str) -> int:
    """A TCP port for ``--port``: a whole number from 1 to 65535 (argparse shows the refusal as a usage error)."""
    try:
        port = int(text.strip())
    except ValueError:
        port = 0
    if not 1 <= port <= 65535 or not text.strip().isascii():
        raise argparse.ArgumentTypeError(f"a port is a whole number from 1 to 65535, not {shorten(text)}")
    return port


def host_name(text: str) -> str:
    """An address for ``--host``: a host name or an IP address (letters, digits and ``.-:``)."""
    host = text.strip()
    allowed = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:")
    if not host or len(host) > 253 or not set(host) <= allowed:
        raise argparse.ArgumentTypeError(f"a host is a name or an IP address such as 127.0.0.1, not {shorten(text)}")
    return host


def check_free(host: str, port: int) -> None:
    """UsageError unless this machine can listen on `host`:`port` now (Voila would only log that it cannot)."""
    try:
        family, kind, protocol, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except (OSError, UnicodeError):
        raise UsageError(f"--host {shorten(host)} is not an address this machine can listen on") from None
    with socket.socket(family, kind, protocol) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server will
        try:
            probe.bind(address)
        except OSError as err:
            why = "something else is listening there" if err.errno == errno.EADDRINUSE else err.strerror
            raise UsageError(
                f"cannot serve on {host} port {port}: {why}; choose another with --port (or --host)"
            ) from None


def parser() -> Parser:
    """``sloth-kernel play``'s own options (the others go to Voila)."""
    parser = Parser(
        prog=f"{program()} play",
        description="Serve the gallery and the play apps with Voila (needs the play extra).",
        epilog="Other --Class.trait=value options go to Voila as they are.",
    )
    parser.add_argument("--host", type=host_name, default=DEFAULT_HOST, help="address to listen on")
    parser.add_argument("--port", type=port_number, default=DEFAULT_PORT, help="port to listen on")
    return parser


def main(argv: list[str] | None = None) -> int:
    options = parser()
    args, extra = options.parse_known_args(argv)
    unknown = [option for option in extra if not (option.startswith("--") and "." in option.split("=", 1)[0])]
    if unknown:
        options.error(f"unrecognized arguments: {' '.join(unknown)}")
    require_extra("play", "play", ("voila", "ipywidgets"))
    check_free(args.host, args.port)
    try:
        folder = site()
        link_template()
    except (FileNotFoundError, OSError) as error:
        print(f"sloth-kernel play: {error}", file=sys.stderr)
        return 1
    print(f"Gallery: {gallery_url(args.host, args.port)}  (Ctrl-C stops)", flush=True)
    os.chdir(folder)
    command = voila_command(args.host, args.port, extra)
    os.execv(command[0], command)  # Voila takes over this process: signals reach it directly


if __name__ == "__main__":
    sys.exit(main())
