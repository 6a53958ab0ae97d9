"""What pyproject.toml promises: ranges the exact pins satisfy, an engine without the notebook stack,
and the play apps' template where Voila looks, whichever way the project was installed.

The install routes themselves (make play, pip install -e, a wheel, Binder) are built and served
in tests/e2e/test_install_routes.py and tests/e2e/test_binder.py.
"""

from __future__ import annotations

import contextlib
import json
import re
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

from sloth_kernel import serve

REPO = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
TEMPLATE = REPO / "widgets" / "voila_template" / "sloth"


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name.lower())


def pins(path: Path) -> dict[str, str]:
    found = {}
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f"{path.name}: {line!r} is not pinned with =="
            found[canonical(name)] = version
    return found


def requirements(extra: str | None = None) -> list[Requirement]:
    texts = PROJECT["dependencies"] if extra is None else PROJECT["optional-dependencies"][extra]
    return [Requirement(text) for text in texts]


def test_the_extras_are_play_lab_interop_tables_test_and_docs() -> None:
    assert set(PROJECT["optional-dependencies"]) == {"play", "lab", "interop", "tables", "test", "docs"}
    # the development environment (make setup) has them all
    (line,) = [line for line in (REPO / "Makefile").read_text().splitlines() if line.startswith("DEV_EXTRAS")]
    assert set(line.partition("=")[2].strip().split(",")) == set(PROJECT["optional-dependencies"])


def test_the_tables_extra_is_the_two_store_clients() -> None:
    assert {canonical(req.name) for req in requirements("tables")} == {"redis", "psycopg"}


def test_the_engine_alone_brings_no_notebook_stack() -> None:
    names = {canonical(req.name) for req in requirements()}
    assert names == {"numpy", "tqdm", "fastjsonschema"}  # fastjsonschema: pure Python, checks records
    play = {canonical(req.name) for req in requirements("play")}
    assert {"ipywidgets", "voila", "ipykernel", "matplotlib"} <= play
    assert "jupyterlab" not in play  # the apps need Voila only; JupyterLab is the `lab` extra
    assert "jupyterlab" in {canonical(req.name) for req in requirements("lab")}


def test_requirements_are_ranges_and_constraints_pin_each_inside_its_range() -> None:
    constraints = pins(REPO / "constraints.txt")
    for extra in (None, "play", "lab", "interop", "tables", "test", "docs"):
        for req in requirements(extra):
            if canonical(req.name) == "sloth-kernel":
                assert req.extras == {"play"}, req  # lab = play + JupyterLab
                continue
            assert not any(spec.operator == "==" for spec in req.specifier), f"{req}: pin in constraints.txt"
            assert canonical(req.name) in constraints, f"{req.name} has no pin in constraints.txt"
            assert constraints[canonical(req.name)] in req.specifier, (
                f"{req} excludes the pinned {constraints[canonical(req.name)]}"
            )


@pytest.mark.parametrize(
    ("name", "upper"),
    [("ipywidgets", "8.2"), ("jupyterlab_widgets", "3.1"), ("voila", "0.6")],
)
def test_what_the_light_front_end_was_built_against_is_bounded(name: str, upper: str) -> None:
    (req,) = [req for req in requirements("play") if canonical(req.name) == canonical(name)]
    assert upper not in req.specifier and f"{upper}.0" not in req.specifier
    assert any(spec.operator == "<" and spec.version == upper for spec in req.specifier), req


def test_requires_python_is_what_ci_runs() -> None:
    assert PROJECT["requires-python"] == ">=3.11"
    assert "3.10" not in SpecifierSet(PROJECT["requires-python"])
    assert f"{sys.version_info.major}.{sys.version_info.minor}" in SpecifierSet(PROJECT["requires-python"])


def test_the_console_script_is_the_command_line() -> None:
    assert PROJECT["scripts"] == {"sloth-kernel": "sloth_kernel.__main__:main"}
    from sloth_kernel.__main__ import main

    with pytest.raises(SystemExit) as exit_:
        main(["play", "--help"])
    assert exit_.value.code == 0
    assert main(["play", "--colour", "green"]) == 2  # neither ours nor a --Class.trait=value for Voila


@pytest.mark.parametrize("port", ["99999999", "0", "-1", "65536", "http", "\u0663"])
def test_play_refuses_a_port_outside_1_to_65535(port: str, capsys: pytest.CaptureFixture[str]) -> None:
    from sloth_kernel.__main__ import main

    assert main(["play", "--port", port]) == 2
    error = capsys.readouterr().err
    assert "argument --port: a port is a whole number from 1 to 65535" in error and "Traceback" not in error
    assert error.count("\n") == 1  # one sentence, no usage block
    assert serve.port_number("1") == 1 and serve.port_number("65535") == 65535


def test_voila_json_names_the_kernel_spec_manager_that_links_the_template() -> None:
    from jupyter_client.kernelspec import KernelSpecManager
    from traitlets.utils.importstring import import_item

    config = json.loads((REPO / "voila.json").read_text())
    manager = import_item(config["VoilaConfiguration"]["kernel_spec_manager_class"])
    assert issubclass(manager, KernelSpecManager)


def test_a_checkout_serves_its_own_notebooks() -> None:
    assert serve.site() == REPO  # the editable install of this checkout
    assert serve.template_source() == TEMPLATE


def test_link_template_links_the_checkout_template_into_an_empty_environment(tmp_path: Path) -> None:
    place = serve.link_template(tmp_path)
    assert place == tmp_path / "share" / "jupyter" / "voila" / "templates" / "sloth"
    assert place.is_symlink() and place.resolve() == TEMPLATE.resolve()
    assert (place / "static" / "sloth-voila.js").is_file()
    assert serve.link_template(tmp_path) == place and place.resolve() == TEMPLATE.resolve()  # idempotent


def test_link_template_replaces_a_link_to_a_moved_checkout(tmp_path: Path) -> None:
    place = serve.template_target(tmp_path)
    place.parent.mkdir(parents=True)
    place.symlink_to(tmp_path / "gone", target_is_directory=True)
    serve.link_template(tmp_path)
    assert place.resolve() == TEMPLATE.resolve()
    assert [p.name for p in place.parent.iterdir()] == ["sloth"]  # no temporary link left behind


def test_link_template_leaves_a_wheels_copy_alone(tmp_path: Path) -> None:
    place = serve.template_target(tmp_path)
    place.mkdir(parents=True)
    (place / "index.html.j2").write_text("a wheel's copy")
    assert serve.link_template(tmp_path) == place
    assert not place.is_symlink() and (place / "index.html.j2").read_text() == "a wheel's copy"


def test_voila_json_names_a_kernel_connection_that_sends_each_message_at_once() -> None:
    """Tornado leaves Nagle's algorithm on for a WebSocket; the connection voila.json names turns
    it off on the real socket of a real WebSocket, before it connects to the kernel (which is not
    there in this test: the kernel half fails, after the socket is set)."""
    import asyncio
    import socket

    from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
    from jupyter_server.services.kernels.websocket import KernelWebsocketHandler
    from tornado.httpserver import HTTPServer
    from tornado.testing import bind_unused_port
    from tornado.web import Application
    from tornado.websocket import WebSocketHandler, websocket_connect
    from traitlets.utils.importstring import import_item

    config = json.loads((REPO / "voila.json").read_text())
    connection_class = import_item(config["Voila"]["kernel_websocket_connection_class"])
    assert issubclass(connection_class, ZMQChannelsWebsocketConnection)

    class Handler(KernelWebsocketHandler):  # jupyter_server's kernel socket, without its login and kernel checks
        async def prepare(self, *, _redirect_to_login: Any = True) -> None:
            pass

        async def get(self, *args: Any, **kwargs: Any) -> None:
            await WebSocketHandler.get(self, *args, **kwargs)

        def set_default_headers(self) -> None:
            pass

        def select_subprotocol(self, subprotocols: Any) -> None:
            return None

        def on_close(self) -> None:
            pass

        def get_current_user(self) -> str:
            return "tester"

        def open(self) -> None:  # type: ignore[override]
            def nodelay() -> int:
                stream: Any = self.ws_connection.stream  # type: ignore[union-attr]
                return int(stream.socket.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))

            before = nodelay()
            connection = connection_class(websocket_handler=self)
            with contextlib.suppress(Exception):  # no kernel manager here
                connection.connect()
            self.write_message(json.dumps([before, nodelay()]))

    async def run() -> list[int]:
        sock, port = bind_unused_port()
        server = HTTPServer(Application([("/ws", Handler)]))
        server.add_sockets([sock])
        try:
            client = await websocket_connect(f"ws://127.0.0.1:{port}/ws")
            answer = await client.read_message()
            client.close()
            assert isinstance(answer, str)
            return [int(flag) for flag in json.loads(answer)]
        finally:
            server.stop()

    assert asyncio.run(run()) == [0, 1]


def test_both_packages_ship_the_py_typed_marker() -> None:
    """PEP 561: without the marker, mypy in a project that imports sloth_kernel treats it as untyped.
    The wheel's file list is checked in tests/e2e/test_install_routes.py."""
    setuptools = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    data = setuptools["package-data"]
    for package, folder in (("sloth_kernel", REPO / "sloth_kernel"), ("sloth_widgets", REPO / "widgets")):
        assert "py.typed" in data[package] and (folder / "py.typed").is_file(), package


def test_every_data_file_of_the_widgets_package_is_package_data() -> None:
    """widgets/ ships as sloth_widgets with only the package data pyproject.toml names
    (include-package-data is off): each stylesheet there must be named, or a wheel's boards
    would fail to import (sloth_widgets.markup reads board.css)."""
    tool = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    named = tool["package-data"].get("sloth_widgets", [])
    data = sorted(path.name for path in (REPO / "widgets").glob("*.css"))
    assert data == ["board.css"]
    assert all(any(Path(name).match(pattern) for pattern in named) for name in data), (data, named)


def test_the_sdist_carries_the_docs_and_the_example_plugin(tmp_path: Path) -> None:
    """The sdist (built from a copy of the checkout, as `python -m build --sdist` would) holds docs/:
    the pages, the Sphinx configuration and the worked example plugin that docs/add-a-game.md includes,
    and none of a build's leftovers."""
    import shutil
    import subprocess
    import tarfile

    source = tmp_path / "source"
    leftovers = ("*.egg-info", "__pycache__", ".venv*", ".git", "build", "test-output", "node_modules", "*.pyc")
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(*leftovers), symlinks=True)
    (source / "docs" / "example_plugin" / "build").mkdir()  # what `pip install docs/example_plugin` leaves
    (source / "docs" / "example_plugin" / "build" / "junk.py").write_text("")
    out = tmp_path / "dist"
    build = "import sys; from setuptools.build_meta import build_sdist; print(build_sdist(sys.argv[1]))"
    done = subprocess.run(
        [sys.executable, "-c", build, str(out)], cwd=source, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    with tarfile.open(out / done.stdout.strip().splitlines()[-1]) as sdist:
        names = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    docs = {path.relative_to(REPO).as_posix() for path in (REPO / "docs").rglob("*") if path.is_file()}
    docs = {name for name in docs if "__pycache__" not in name and ".egg-info" not in name and "/build/" not in name}
    assert {"docs/conf.py", "docs/add-a-game.md", "docs/example_plugin/pyproject.toml"} <= docs
    assert docs <= names, sorted(docs - names)
    assert not any("/build/" in name or name.endswith(".pyc") for name in names if name.startswith("docs/"))
    assert {"README.md", "pyproject.toml", "sloth_kernel/core.py", "widgets/board.py"} <= names
