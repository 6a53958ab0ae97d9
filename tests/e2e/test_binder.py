"""Binder: the hosted demo must build from binder/ alone and open the gallery like mybinder does.

The quick checks compare binder/ with the project's pins. The slow one (marked ``binder``)
does what repo2docker does with this repository, minus Docker: a fresh virtual environment,
``pip install -r binder/requirements.txt``, then ``binder/postBuild`` from the repository
root; then it starts a Jupyter server from that environment (as Binder does) and opens the
README badge's ``urlpath`` in chromium and one play app from the gallery. A dependency
missing from binder/requirements.txt fails here before it fails for Binder users.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import pytest
from drivers import DRIVERS
from harness import OUTPUT, PLAY_APPS, REPO, PageWatch, VoilaServer, screenshot_path, stop_leaving_no_kernels
from packaging.requirements import Requirement

BINDER = REPO / "binder"
BADGE_URLPATH = "voila/render/notebooks/index.ipynb"
# Only in this (Binder) mode: Voila as a Jupyter server extension points its pages at MathJax
# on cdnjs (voila/utils.py, get_page_config's default; standalone `make play` sets none). Binder
# has the internet; here it is blocked like everything else and the app renders without it.
BINDER_MATHJAX = "https://cdnjs.cloudflare.com/ajax/libs/mathjax/"


def pins(path: Path) -> dict[str, str]:
    found = {}
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f"{path.name}: {line!r} is not pinned with =="
            found[re.sub(r"[-_.]+", "-", name.lower())] = version
    return found


def test_binder_requirements_are_pinned_like_constraints_and_cover_the_project() -> None:
    """binder/requirements.txt is the `play` runtime: pinned as constraints.txt, and each of the
    project's requirements and of its `play` extra pinned inside its declared range."""
    binder, constraints = pins(BINDER / "requirements.txt"), pins(REPO / "constraints.txt")
    assert {name: (v, constraints.get(name)) for name, v in binder.items() if constraints.get(name) != v} == {}
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    needed = [Requirement(text) for text in project["dependencies"] + project["optional-dependencies"]["play"]]
    assert {req.name for req in needed} >= {"numpy", "ipywidgets", "voila", "ipykernel"}
    for req in needed:
        name = re.sub(r"[-_.]+", "-", req.name.lower())
        assert name in binder, f"{req} is missing from binder/requirements.txt"
        assert binder[name] in req.specifier, f"binder pins {name}=={binder[name]}, outside {req}"
    assert "jupyterlab" not in binder  # the apps need Voila, not JupyterLab (the `lab` extra)


def test_postbuild_fails_fast_and_installs_the_project() -> None:
    script = (BINDER / "postBuild").read_text()
    assert script.startswith("#!/bin/bash")
    assert re.search(r"^set -e", script, re.M)
    assert re.search(r"pip install .*--no-deps \.$", script, re.M)
    assert os.access(BINDER / "postBuild", os.X_OK)


def test_readme_badge_launches_the_gallery() -> None:
    """The badge opens the gallery; every other Binder link opens one notebook in Voila the same
    way (tests/test_gallery.py checks that each names a notebook that exists)."""
    readme = (REPO / "README.md").read_text()
    links = re.findall(r"\((https://mybinder\.org/v2/[^)\s]+)\)", readme)
    assert links, "README has no Binder badge"
    paths = [unquote(parse_qs(urlsplit(link).query)["urlpath"][0]) for link in links]
    assert paths[0] == BADGE_URLPATH  # the badge comes first; no leading slash
    for path in paths:
        assert re.fullmatch(r"voila/render/notebooks/[a-z0-9_]+\.ipynb", path), path


def copy_of_repository(target: Path) -> Path:
    """The files Binder would get: what git tracks (plus any not-yet-committed notebook/widget
    files in a working tree), never .venv or build output."""
    ignore = shutil.ignore_patterns(
        ".git", ".venv", "test-output", "build", "*.egg-info", "__pycache__", ".pytest_cache", ".ipynb_checkpoints"
    )
    shutil.copytree(REPO, target, ignore=ignore)
    return target


@pytest.fixture(scope="module")
def binder_env(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the repository with a venv built the repo2docker way; returns the copy."""
    repo = copy_of_repository(tmp_path_factory.mktemp("binder") / "repo")
    venv = repo.parent / "venv"
    log = OUTPUT / "binder-build.log"
    OUTPUT.mkdir(exist_ok=True)
    env = dict(os.environ, PATH=f"{venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}", PIP_NO_INPUT="1")
    env.pop("PYTHONPATH", None)
    env.pop("VIRTUAL_ENV", None)
    steps = [
        [sys.executable, "-m", "venv", str(venv)],
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--no-compile", "-r", "binder/requirements.txt"],
        ["bash", "binder/postBuild"],
    ]
    with open(log, "w") as out:
        for step in steps:
            out.write(f"$ {' '.join(step)}\n")
            out.flush()
            done = subprocess.run(step, cwd=repo, env=env, stdout=out, stderr=subprocess.STDOUT, timeout=1200)
            assert done.returncode == 0, f"{' '.join(step)} failed; see {log}"
    return repo


class JupyterServer(VoilaServer):
    """A Jupyter server from the Binder venv with Voila as its server extension (as on Binder)."""

    ready_path = "/api"

    def command(self) -> list[str]:
        return [
            self.python,
            "-m",
            "jupyter_server",
            "--no-browser",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={self.port}",
            "--ServerApp.port_retries=0",
            "--IdentityProvider.token=",
            "--ServerApp.allow_root=True",  # CI runs as root; Binder does not
            f"--ServerApp.root_dir={self.root}",
        ]


@pytest.fixture(scope="module")
def binder_server(binder_env: Path, chromium: None) -> Iterator[JupyterServer]:
    venv_bin = binder_env.parent / "venv" / "bin"
    env = dict(os.environ, PATH=f"{venv_bin}{os.pathsep}{os.environ.get('PATH', '')}")
    env.pop("PYTHONPATH", None)
    server = JupyterServer(
        root=binder_env, cwd=binder_env, python=str(venv_bin / "python"), env=env, log_path=OUTPUT / "binder-server.log"
    ).start()
    yield server
    stop_leaving_no_kernels(server)


@pytest.mark.binder
def test_binder_server_uses_the_kernel_socket_that_sends_each_message_at_once(binder_env: Path) -> None:
    """Voila inside the Jupyter server does not read voila.json: postBuild gives the server the
    same kernel WebSocket (Nagle's algorithm off) through its environment's config file."""
    python = binder_env.parent / "venv" / "bin" / "python"
    code = (
        "from jupyter_server.serverapp import ServerApp\n"
        "app = ServerApp()\n"
        "app.initialize(argv=[], find_extensions=False, new_httpserver=False)\n"
        "print(app.kernel_websocket_connection_class.__module__, app.kernel_websocket_connection_class.__name__)"
    )
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    env.pop("JUPYTER_CONFIG_DIR", None)
    done = subprocess.run(
        [str(python), "-c", code], cwd=binder_env, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["sloth_kernel.voila_setup", "NoDelayKernelConnection"]


@pytest.mark.binder
def test_binder_env_serves_the_gallery_and_an_app(binder_server: JupyterServer, browser: Any) -> None:
    game = "too-sloth-to-win"
    context = browser.new_context(viewport={"width": 1200, "height": 1000})
    context.set_default_timeout(180_000)
    watch = PageWatch(context, also_expected=(BINDER_MATHJAX,))
    try:
        page = watch.new_page()
        page.goto(binder_server.url("/" + BADGE_URLPATH), wait_until="commit")  # what the badge opens
        page.locator(".sk-gallery").wait_for()
        link = page.locator('.sk-game-card[data-game="too-sloth-to-win"] a.sk-play-link')
        with context.expect_page() as opened:
            link.click()
        app = opened.value
        app.wait_for_url(f"**/voila/render/notebooks/{PLAY_APPS[game]}", wait_until="commit")
        driver = DRIVERS[game](app)
        driver.wait_for_board()
        driver.prepare()
        assert driver.wait_turn_or_over(None) == "turn"
        before = driver.log_text()
        driver.take_turn()
        driver.wait_after_action(before)
        app.locator(".sk-board").screenshot(path=screenshot_path("binder-too-sloth-to-win"))
        assert watch.problems() == []
        assert app.locator(".sk-error-box").count() == 0
    finally:
        context.close()
