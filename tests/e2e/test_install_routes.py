"""Every way of installing serves the play apps: each route is built the way a user would build it,
from a fresh copy of the repository (the files git would clone, uncommitted changes included), in
a fresh environment, and then served on a free loopback port:

- ``make play``: the Makefile's play environment (.venv-play, the `play` extra only), then Voila;
- ``pip install -e '.[play]'`` into a fresh venv, then plain ``voila notebooks/`` (an editable
  install puts no template where Voila looks: voila.json's kernel spec manager links it);
- a wheel (``pip wheel --no-deps .``) installed with the `play` extra into a fresh venv, then
  ``sloth-kernel play`` from an unrelated folder (the notebooks and voila.json come in the wheel);
  and the same wheel without extras is the engine alone.

Binder, the fourth route, is tests/e2e/test_binder.py. Each served route must answer the gallery
and a play app with HTTP 200 from the project's `sloth` template (the page loads
sloth-voila.js), and one play app must come up in chromium with that light front end (not the
stock-template fallback). All marked ``install``: ``pytest tests/e2e -m install`` runs them alone.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from harness import (
    BOARD_READY,
    GALLERY,
    NOTEBOOKS,
    OUTPUT,
    PLAY_APPS,
    REPO,
    PageWatch,
    VoilaServer,
    render_path,
    screenshot_path,
    stop_leaving_no_kernels,
)

pytestmark = pytest.mark.install

TEMPLATE = REPO / "widgets" / "voila_template" / "sloth"
TEMPLATE_IN_PREFIX = Path("share", "jupyter", "voila", "templates", "sloth")
# The `play` environment must stay small: Voila, ipywidgets, ipykernel, numpy and matplotlib come
# to about 390 MB; anything much beyond means something heavy (JupyterLab, say) came along.
PLAY_ENV_LIMIT_MB = 400
NOT_IN_THE_ENGINE = ("ipywidgets", "voila", "ipykernel", "matplotlib", "jupyterlab", "notebook")
REPORT = OUTPUT / "install-routes.txt"


def report(line: str) -> None:
    """Figures worth reading (sizes, seconds) go to test-output/install-routes.txt and stdout."""
    OUTPUT.mkdir(exist_ok=True)
    with open(REPORT, "a") as out:
        out.write(line + "\n")
    print(line)


def user_env(home: Path) -> dict[str, str]:
    """This machine's environment as a user's shell would have it: no virtual environment of
    the test run active, and Jupyter's per-user folders empty (so nothing found there can make
    a route pass that would fail for a user)."""
    env = dict(os.environ, PIP_NO_INPUT="1", PYTHONUNBUFFERED="1")
    for name in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "JUPYTER_PATH", "JUPYTER_CONFIG_PATH"):
        env.pop(name, None)
    env["PATH"] = os.pathsep.join(
        entry for entry in env.get("PATH", "").split(os.pathsep) if entry and REPO not in Path(entry).parents
    )
    env["JUPYTER_DATA_DIR"] = str(home / "jupyter-data")
    env["JUPYTER_CONFIG_DIR"] = str(home / "jupyter-config")
    return env


def run(command: list[str], *, cwd: Path, env: dict[str, str], log: Path, timeout: float = 1200) -> None:
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "a") as out:
        out.write(f"$ {' '.join(command)}\n")
        out.flush()
        done = subprocess.run(command, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(command)} failed; see {log}"


def fresh_clone(target: Path) -> Path:
    """The files a `git clone` would bring (plus any not yet committed), never .venv or output."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = REPO / name
        if source.is_file():  # listed but deleted in the working tree: not in a clone either
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


def new_venv(path: Path, *, env: dict[str, str], log: Path) -> Path:
    run([sys.executable, "-m", "venv", str(path)], cwd=path.parent, env=env, log=log)
    return path


def folder_mb(path: Path) -> float:
    """Disk use as `du -sk` counts it (links not followed)."""
    done = subprocess.run(["du", "-sk", str(path)], capture_output=True, text=True, check=True)
    return int(done.stdout.split()[0]) / 1024


@dataclass
class CommandServer(VoilaServer):
    """A server started by the command a user types (`make play`, `voila`, `sloth-kernel play`)."""

    argv: Callable[[int], list[str]] = field(default=lambda port: [])

    def command(self) -> list[str]:
        return self.argv(self.port)


def fetch(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=300) as response:
        return response.status, response.read().decode()


def check_served(server: VoilaServer, app: str) -> None:
    """The gallery and one play app answer 200 from the `sloth` template."""
    for notebook, marker in ((GALLERY, "sk-gallery"), (app, "sk-board")):
        status, html = fetch(server.url(render_path(notebook)))
        assert status == 200, notebook
        assert "sloth-voila.js" in html, f"{notebook} is not served with the sloth template"
        assert marker in html, notebook


def open_in_chromium(server: VoilaServer, browser: Any, game: str, name: str) -> None:
    """One play app in chromium: its board comes up through the light front end."""
    context = browser.new_context(viewport={"width": 1200, "height": 1000})
    context.set_default_timeout(180_000)
    watch = PageWatch(context)
    try:
        page = watch.new_page()
        page.goto(server.app_url(PLAY_APPS[game]), wait_until="commit")
        page.locator(BOARD_READY).wait_for()
        assert parse_qs(urlsplit(page.url).query).get("template") is None  # not the stock fallback
        assert page.evaluate("() => Boolean(window.slothPage && window.slothPage.up)") is True
        page.locator(".sk-board").screenshot(path=screenshot_path(f"install-{name}"))
        assert page.locator(".sk-error-box").count() == 0
        assert watch.problems() == []
    finally:
        context.close()


def template_found(python: Path, env: dict[str, str]) -> bool:
    """Whether Voila in that environment would find the `sloth` template (Jupyter's data path)."""
    probe = (
        "import os; from jupyter_core.paths import jupyter_path; "
        "print(any(os.path.isfile(os.path.join(p, 'index.html.j2')) "
        "for p in jupyter_path('voila', 'templates', 'sloth')))"
    )
    done = subprocess.run([str(python), "-c", probe], env=env, capture_output=True, text=True, check=True)
    return done.stdout.strip() == "True"


@pytest.fixture
def serving() -> Iterator[list[VoilaServer]]:
    """Servers a test starts; all stopped at its end, leaving no kernels."""
    servers: list[VoilaServer] = []
    yield servers
    for server in servers:
        stop_leaving_no_kernels(server)


# --- make play ------------------------------------------------------------------------------


def test_make_play_in_a_fresh_clone(tmp_path: Path, serving: list[VoilaServer], browser: Any, chromium: None) -> None:
    """Also the README's figures: seconds from a fresh clone to the gallery answering, and the
    play environment's size."""
    env = user_env(tmp_path)
    started = time.monotonic()
    clone = fresh_clone(tmp_path / "sloth-kernel")
    server = CommandServer(
        root=clone / "notebooks",
        cwd=clone,
        env=env,
        argv=lambda port: ["make", "play", f"PORT={port}"],
        log_path=OUTPUT / "install-make-play.log",
        startup_timeout=1500,
    )
    serving.append(server.start())
    status, _ = fetch(server.url(render_path(GALLERY)))
    answered = time.monotonic() - started
    assert status == 200
    size = folder_mb(clone / ".venv-play")
    report(f"make play: fresh clone to the gallery answering 200 in {answered:.0f} s")
    report(f"make play: .venv-play is {size:.0f} MB (du -sk)")
    assert size <= PLAY_ENV_LIMIT_MB, f".venv-play is {size:.0f} MB"
    assert not (clone / ".venv-play" / "bin" / "jupyter-lab").exists()  # the `play` extra brings no JupyterLab
    check_served(server, PLAY_APPS["race-to-the-bottom"])
    open_in_chromium(server, browser, "race-to-the-bottom", "make-play")


# --- pip install -e '.[play]', then voila notebooks/ ------------------------------------------


def test_pip_install_editable_then_plain_voila(
    tmp_path: Path, serving: list[VoilaServer], browser: Any, chromium: None
) -> None:
    env = user_env(tmp_path)
    log = OUTPUT / "install-editable.log"
    clone = fresh_clone(tmp_path / "sloth-kernel")
    venv = new_venv(tmp_path / "venv", env=env, log=log)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-c", "constraints.txt"]
    run([*pip, "-e", ".[play]"], cwd=clone, env=env, log=log)
    # An editable install copies no data files: nothing on Jupyter's path yet...
    assert not template_found(venv / "bin" / "python", env)
    server = CommandServer(
        root=clone / "notebooks",
        cwd=clone,
        env=env,
        argv=lambda port: [
            str(venv / "bin" / "voila"),
            "notebooks/",
            "--no-browser",
            "--Voila.ip=127.0.0.1",
            f"--Voila.port={port}",
            "--Voila.port_retries=0",
        ],
        log_path=OUTPUT / "install-editable-voila.log",
    )
    serving.append(server.start())
    # ...until Voila, reading ./voila.json, created its kernel spec manager: the checkout's template, linked.
    linked = venv / TEMPLATE_IN_PREFIX
    assert linked.is_symlink() and linked.resolve() == (clone / "widgets" / "voila_template" / "sloth").resolve()
    check_served(server, PLAY_APPS["surplus-of-sloths"])
    open_in_chromium(server, browser, "surplus-of-sloths", "editable")


# --- a wheel ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's wheel, built once from a fresh clone (no stale build/ folder)."""
    home = tmp_path_factory.mktemp("wheel")
    env = user_env(home)
    clone = fresh_clone(home / "sloth-kernel")
    dist = home / "dist"
    run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(dist), "."],
        cwd=clone,
        env=env,
        log=OUTPUT / "install-wheel-build.log",
    )
    (built,) = dist.glob("sloth_kernel-*.whl")
    return built


@pytest.fixture(scope="module")
def wheel_env(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the wheel and its `play` extra (pinned as constraints.txt); built once."""
    home = tmp_path_factory.mktemp("wheel-env")
    log = OUTPUT / "install-wheel-env.log"
    venv = new_venv(home / "venv", env=user_env(home), log=log)
    python = str(venv / "bin" / "python")
    pip = [python, "-m", "pip", "install", "-c", str(REPO / "constraints.txt")]
    run([*pip, f"{wheel}[play]"], cwd=home, env=user_env(home), log=log)
    return venv


def test_the_wheel_carries_both_packages_the_notebooks_and_the_template_and_no_widgets_folder(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        dist_info = next(name.split("/")[0] for name in names if name.endswith(".dist-info/METADATA"))
        voila_json = json.loads(archive.read("sloth_kernel/voila.json"))
        entry_points = archive.read(f"{dist_info}/entry_points.txt").decode()
        metadata = archive.read(f"{dist_info}/METADATA").decode()
    data = dist_info.replace(".dist-info", ".data")
    assert {name.split("/")[0] for name in names} == {"sloth_kernel", "sloth_widgets", dist_info, data}
    assert not any(name.startswith("widgets/") for name in names)
    assert "sloth_widgets/__init__.py" in names
    assert {"sloth_kernel/py.typed", "sloth_widgets/py.typed"} <= names  # PEP 561: both packages are typed
    assert "sloth_widgets/board.css" in names  # the boards' stylesheet (package data)
    shipped = {name.rsplit("/", 1)[1] for name in names if name.startswith("sloth_kernel/notebooks/")}
    assert shipped == {path.name for path in NOTEBOOKS.glob("*.ipynb")}
    assert voila_json == json.loads((REPO / "voila.json").read_text())
    schemas = {path.relative_to(REPO).as_posix() for path in (REPO / "sloth_kernel").rglob("*.schema.json")}
    assert schemas and schemas <= names  # records and deals are checked against them at the boundary
    template = {
        f"{data}/data/{TEMPLATE_IN_PREFIX.as_posix()}/{path.relative_to(TEMPLATE).as_posix()}"
        for path in TEMPLATE.rglob("*")
        if path.is_file()
    }
    assert template <= names
    assert "sloth-kernel = sloth_kernel.__main__:main" in entry_points
    assert "[sloth_kernel.games]" in entry_points
    assert 'Requires-Dist: ipywidgets<8.2,>=8.1.9; extra == "play"' in metadata
    assert "Requires-Python: >=3.11" in metadata


def test_a_wheel_serves_the_gallery_with_sloth_kernel_play(
    wheel_env: Path, tmp_path: Path, serving: list[VoilaServer], browser: Any, chromium: None
) -> None:
    elsewhere = tmp_path / "somewhere-else"  # nothing of the repository around
    elsewhere.mkdir()
    copied = wheel_env / TEMPLATE_IN_PREFIX
    assert copied.is_dir() and not copied.is_symlink()  # the wheel's data files
    server = CommandServer(
        root=elsewhere,
        cwd=elsewhere,
        env=user_env(tmp_path),
        argv=lambda port: [str(wheel_env / "bin" / "sloth-kernel"), "play", "--host", "127.0.0.1", "--port", str(port)],
        log_path=OUTPUT / "install-wheel-play.log",
    )
    serving.append(server.start())
    assert "Gallery: http://127.0.0.1:" in server.log_text()
    check_served(server, PLAY_APPS["too-sloth-to-win"])
    open_in_chromium(server, browser, "too-sloth-to-win", "wheel")


def test_the_wheel_without_extras_is_the_engine_alone(wheel: Path, tmp_path: Path) -> None:
    env = user_env(tmp_path)
    log = OUTPUT / "install-engine-alone.log"
    venv = new_venv(tmp_path / "venv", env=env, log=log)
    python = str(venv / "bin" / "python")
    run(
        [python, "-m", "pip", "install", "-c", str(REPO / "constraints.txt"), str(wheel)],
        cwd=tmp_path,
        env=env,
        log=log,
    )
    listed = subprocess.run(
        [python, "-m", "pip", "list", "--format", "json"], env=env, capture_output=True, text=True, check=True
    )
    installed = {entry["name"].lower() for entry in json.loads(listed.stdout)}
    assert {"sloth-kernel", "numpy", "tqdm"} <= installed
    assert installed.isdisjoint(NOT_IN_THE_ENGINE), sorted(installed & set(NOT_IN_THE_ENGINE))
    report(f"engine alone: {folder_mb(venv):.0f} MB (du -sk of a venv with the wheel, no extras)")
    play = (
        "import sloth_kernel as s, random; g = s.load_game('sprint'); st = g.new_state(seed=3); r = random.Random(3)\n"
    )
    play += "while not st.is_over: st = st.play(r.choice(st.legal_moves()))\nprint(len(st._repr_html_()) > 0)"
    done = subprocess.run([python, "-c", play], env=env, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "True"
    hint = subprocess.run(
        [str(venv / "bin" / "sloth-kernel"), "play"], env=env, capture_output=True, text=True, timeout=120
    )
    assert hint.returncode == 2 and "pip install 'sloth-kernel[play]'" in hint.stderr
