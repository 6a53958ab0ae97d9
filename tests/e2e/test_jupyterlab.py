"""JupyterLab, the first use on the design card: each game's play notebook and learn notebook,
run in real chromium the way a person runs them (open, clear the outputs, Run All).

One JupyterLab server serves every test here, on a free loopback port, with a fresh
configuration: its config, data (user part), runtime, settings and workspaces folders, and the
kernel's IPython folder, are new temporary folders, and it serves a temporary copy of
notebooks/, so the outputs it saves never touch the repository. Its settings switch off what
would otherwise get in the way: JupyterLab 4 attaches only the cells in view (``windowingMode``
"none" attaches all of them), and news and update checks would ask the user and dial out
(requests that leave 127.0.0.1 are blocked and reported anyway, harness.PageWatch). The
notebooks name the kernel ``python3``; the server runs this environment's Python, so its
ipykernel is that kernel and no kernel dialog appears.

Each notebook opens in a fresh JupyterLab page (``/lab/tree/<notebook>?reset``, one browser
context for the module), through JupyterLab's own objects (``window.jupyterapp``): its outputs
are cleared, Run All runs it, and the test waits until the kernel is idle and every code cell
has run. No cell may give an error output (or write a traceback to stderr). A play notebook
must show its board, and one move made by clicking as the human seat (tests/e2e/drivers.py;
harness.PageWatch's kernel tracker follows JupyterLab's kernel socket as it does Voila's) must
change the board's log. A learn notebook must show its widgets, where it has any, and none may
fail to show. Between notebooks the page is closed and the kernels are shut down. Screenshots
at 1280x800 go to test-output/jupyterlab-<notebook>.png.

Marked ``jupyterlab``: ``pytest tests/e2e -m "not jupyterlab"`` skips this module; ``make test``
runs it.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from drivers import DRIVERS
from harness import (
    NOTEBOOKS,
    OUTPUT,
    PLAY_APPS,
    PageWatch,
    VoilaServer,
    screenshot_path,
    stop_leaving_no_kernels,
    wait_until,
)

pytestmark = pytest.mark.jupyterlab

# Each game's lesson: learn_<game>.ipynb beside play_<game>.ipynb.
LEARN_NOTEBOOKS = {game: "learn_" + play.removeprefix("play_") for game, play in PLAY_APPS.items()}

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
# jupyterlab_widgets' words when a widget output cannot be shown
WIDGET_ERRORS = ("Error displaying widget", "Error rendering widget")

# User settings of the fresh JupyterLab (JUPYTERLAB_SETTINGS_DIR): plugin id -> values.
LAB_SETTINGS = {
    # Attach every cell to the page: by default JupyterLab 4 leaves cells out of view unrendered.
    "@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"},
    # No news feed or update check: each would make a request to a website, and the news
    # would first ask the user in a notification.
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
}

# Functions defined in the JupyterLab page (window.__skLab), built on JupyterLab's own objects
# (window.jupyterapp: LabApp.expose_app_in_browser).
LAB_HELPERS_JS = r"""
() => {
  if (window.__skLab) return;
  const panelOf = (path) => {
    const app = window.jupyterapp;
    if (!app) return null;
    for (const widget of app.shell.widgets('main')) {
      if (widget.context && widget.context.path === path && widget.content && widget.content.model) return widget;
    }
    return null;
  };
  const kernelOf = (panel) => {
    const session = panel.sessionContext.session;
    return session ? session.kernel : null;
  };
  const codeCells = (panel) => {
    const cells = [];
    const list = panel.content.model.cells;
    for (let i = 0; i < list.length; i++) {
      const cell = list.get(i);
      if (cell.type === 'code') cells.push({ index: i, cell });
    }
    return cells;
  };
  window.__skLab = {
    panelOf,
    // The notebook is open, its kernel has started, and nothing asks the user anything.
    opened: (path) => {
      if (document.querySelector('.jp-Dialog')) return 'dialog';
      const panel = panelOf(path);
      if (!panel || !panel.context.isReady || !panel.sessionContext.isReady) return false;
      const kernel = kernelOf(panel);
      return kernel && kernel.status === 'idle' ? kernel.name : false;
    },
    // Clear every output, then Run All (the menu's commands, on this notebook).
    runAll: async (path) => {
      const app = window.jupyterapp;
      const panel = panelOf(path);
      app.shell.collapseLeft();  // the file browser: more room for the notebook
      app.shell.activateById(panel.id);
      await app.commands.execute('notebook:clear-all-cell-outputs');
      const cells = codeCells(panel);
      // cleared: no cell counts as run before Run All runs it
      const stale = cells.filter(({ cell }) => cell.executionCount !== null || cell.outputs.length).length;
      window.__skLabRun = app.commands.execute('notebook:run-all-cells');
      return { cells: cells.length, stale };
    },
    // The kernel is idle and every code cell has run, or a cell failed (Run All stops there).
    finished: (path) => {
      const panel = panelOf(path);
      const kernel = panel && kernelOf(panel);
      if (!kernel || kernel.status !== 'idle') return false;
      const cells = codeCells(panel);
      const failed = cells.some(({ cell }) => cell.outputs.toJSON().some((o) => o.output_type === 'error'));
      const ran = cells.filter(({ cell }) => cell.executionCount !== null).length;
      return failed || ran === cells.length ? { ran, cells: cells.length, failed } : false;
    },
    // What the notebook's model holds: each code cell's source, execution count and outputs
    // (their types, an error's name and value, a widget view's model id, stderr text).
    cells: (path) => codeCells(panelOf(path)).map(({ index, cell }) => ({
      index,
      source: cell.sharedModel.getSource(),
      executionCount: cell.executionCount,
      outputs: cell.outputs.toJSON().map((o) => ({
        type: o.output_type,
        ename: o.ename, evalue: o.evalue,
        widget: o.data && o.data[WIDGET_VIEW] ? o.data[WIDGET_VIEW].model_id : undefined,
        stderr: o.output_type === 'stream' && o.name === 'stderr' ? String(o.text) : undefined,
      })),
    })),
    // The widget views shown in the notebook, and any widget that failed to show.
    widgets: (path) => {
      const node = panelOf(path).node;
      const shown = Array.from(node.querySelectorAll('.jp-OutputArea-output .jupyter-widgets'))
        .filter((el) => el.offsetParent !== null && !/^Error (displaying|rendering) widget/.test(el.textContent));
      const failed = Array.from(node.querySelectorAll('.jp-OutputArea-output'))
        .map((el) => el.textContent.trim())
        .filter((text) => /^Error (displaying|rendering) widget/.test(text));
      return { shown: shown.length, sk: node.querySelectorAll('[class*="sk-"]').length, failed };
    },
  };
}
""".replace("WIDGET_VIEW", json.dumps(WIDGET_VIEW))


@dataclass
class JupyterLabServer(VoilaServer):
    """``python -m jupyterlab`` on 127.0.0.1 (VoilaServer's start, log, kernel count and stop;
    only the command and the address that answers once it is up differ)."""

    ready_path = "/api"

    def command(self) -> list[str]:
        return [
            self.python,
            "-m",
            "jupyterlab",
            "--no-browser",
            "--allow-root",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={self.port}",
            "--ServerApp.port_retries=0",
            f"--ServerApp.root_dir={self.root}",
            *self.args,
        ]

    def api(self, path: str, method: str = "GET") -> Any:
        request = urllib.request.Request(self.url(path), method=method)
        with urllib.request.urlopen(request, timeout=30) as response:
            body = response.read()
        return json.loads(body) if body else None

    def shut_down_sessions(self) -> None:
        """Close every notebook's session and so its kernel, as the Running panel would."""
        for session in self.api("/api/sessions"):
            self.api(f"/api/sessions/{session['id']}", method="DELETE")
        wait_until(lambda: not self.api("/api/kernels") and self.kernel_count() == 0, 60, "the kernels to shut down")


@pytest.fixture(scope="module")
def jupyterlab(chromium: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[JupyterLabServer]:
    """JupyterLab with a fresh configuration, serving a temporary copy of notebooks/."""
    home = tmp_path_factory.mktemp("jupyterlab")
    root = home / "notebooks"
    shutil.copytree(NOTEBOOKS, root, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    folders = {name: home / name for name in ("config", "data", "runtime", "settings", "workspaces", "ipython")}
    for folder in folders.values():
        folder.mkdir()
    for plugin, values in LAB_SETTINGS.items():
        package, name = plugin.split(":")
        target = folders["settings"] / package / f"{name}.jupyterlab-settings"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(values))
    env = {k: v for k, v in os.environ.items() if k not in ("JUPYTER_PATH", "JUPYTER_CONFIG_PATH")}
    env.update(
        JUPYTER_CONFIG_DIR=str(folders["config"]),
        JUPYTER_DATA_DIR=str(folders["data"]),
        JUPYTER_RUNTIME_DIR=str(folders["runtime"]),
        JUPYTERLAB_SETTINGS_DIR=str(folders["settings"]),
        JUPYTERLAB_WORKSPACES_DIR=str(folders["workspaces"]),
        IPYTHONDIR=str(folders["ipython"]),  # the kernel's IPython profile (no user startup files)
    )
    OUTPUT.mkdir(exist_ok=True)
    server = JupyterLabServer(
        root=root,
        cwd=home,
        python=sys.executable,
        env=env,
        log_path=OUTPUT / "jupyterlab-e2e.log",
        args=[
            "--IdentityProvider.token=",  # no token and no password: loopback only, a throwaway server
            "--PasswordIdentityProvider.hashed_password=",
            "--ServerApp.disable_check_xsrf=True",
            "--LabApp.expose_app_in_browser=True",
            "--LabApp.extension_manager=readonly",
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.handlers.announcements.NeverCheckForUpdate",
        ],
    )
    if server.log_path is not None and server.log_path.exists():
        server.log_path.unlink()
    server.start()
    yield server
    stop_leaving_no_kernels(server)


@pytest.fixture(scope="module")
def lab_context(browser: Any, jupyterlab: JupyterLabServer) -> Iterator[tuple[Any, PageWatch]]:
    """One 1280x800 browser context for the module (JupyterLab's scripts are cached after the
    first page); outside requests blocked, errors collected."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(180_000)  # generous: two busy cores
    watch = PageWatch(context)
    yield context, watch
    context.close()


@pytest.fixture
def lab_page(lab_context: tuple[Any, PageWatch], jupyterlab: JupyterLabServer) -> Iterator[tuple[Any, PageWatch]]:
    """A fresh page of the module's context; afterwards the page is closed and every kernel
    shut down, so each notebook starts from nothing and memory stays low."""
    context, watch = lab_context
    watch.blocked.clear()
    watch.console_errors.clear()
    watch.page_errors.clear()
    watch.failed_requests.clear()
    page = watch.new_page()
    yield page, watch
    page.close()
    jupyterlab.shut_down_sessions()


def run_notebook(page: Any, server: JupyterLabServer, notebook: str) -> list[dict[str, Any]]:
    """Open `notebook` in a fresh JupyterLab page, clear its outputs and Run All; return its code
    cells once every one has run (or one failed)."""
    page.goto(server.url(f"/lab/tree/{notebook}?reset"), wait_until="commit")
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell")
    page.evaluate("() => window.jupyterapp.restored")
    page.evaluate(LAB_HELPERS_JS)
    kernel = page.wait_for_function("(path) => window.__skLab.opened(path)", arg=notebook).json_value()
    if kernel == "dialog":
        shot = screenshot_path(f"jupyterlab-dialog-{notebook}")
        page.screenshot(path=shot)
        pytest.fail(f"{notebook}: JupyterLab asked something: {page.locator('.jp-Dialog').inner_text()} ({shot})")
    assert kernel == "python3", f"{notebook} started the kernel {kernel!r}"
    kernels = server.kernel_processes()
    assert [p.cmdline()[0] for p in kernels] == [sys.executable], "the kernel is not this environment's Python"
    started = page.evaluate("(path) => window.__skLab.runAll(path)", notebook)
    assert started["cells"] > 0 and started["stale"] == 0, f"{notebook}: outputs not cleared before Run All: {started}"
    page.wait_for_function("(path) => window.__skLab.finished(path)", arg=notebook, timeout=240_000, polling=250)
    return page.evaluate("(path) => window.__skLab.cells(path)", notebook)


def error_outputs(cells: list[dict[str, Any]]) -> list[str]:
    """Every error output (with its cell's source), and stderr that reports an error."""
    found = []
    for cell in cells:
        for output in cell["outputs"]:
            if output["type"] == "error":
                found.append(f"cell {cell['index']} raised {output['ename']}: {output['evalue']}\n{cell['source']}")
            elif output["stderr"] and ("Traceback" in output["stderr"] or "Error" in output["stderr"]):
                found.append(f"cell {cell['index']} wrote to stderr: {output['stderr']}\n{cell['source']}")
    not_run = [cell["index"] for cell in cells if cell["executionCount"] is None]
    if not_run and not found:
        found.append(f"cells {not_run} did not run")
    return found


def page_problems(page: Any, watch: PageWatch) -> list[str]:
    return watch.problems() + [
        f"error box on the board: {text}" for text in page.locator(".sk-error-box").all_inner_texts()
    ]


def screenshot(page: Any, notebook: str, target: str) -> Path:
    """A 1280x800 screenshot with `target` (a selector) scrolled into view, if it is there."""
    found = page.locator(target)
    if found.count():
        found.first.scroll_into_view_if_needed()
    path = screenshot_path(f"jupyterlab-{notebook.removesuffix('.ipynb')}")
    page.screenshot(path=path)
    return path


@pytest.mark.parametrize("game", list(PLAY_APPS))
def test_play_notebook_runs_and_its_board_answers_a_click(
    game: str, jupyterlab: JupyterLabServer, lab_page: tuple[Any, PageWatch]
) -> None:
    page, watch = lab_page
    notebook = PLAY_APPS[game]
    cells = run_notebook(page, jupyterlab, notebook)
    errors = error_outputs(cells)
    assert not errors, f"{notebook} in JupyterLab:\n" + "\n\n".join(errors)
    page.locator(".sk-board").first.wait_for(state="visible")
    assert page.evaluate("(path) => window.__skLab.widgets(path)", notebook)["failed"] == []

    driver = DRIVERS[game](page)
    driver.wait_for_board()
    driver.prepare()
    assert driver.wait_turn_or_over(None) == "turn", f"{game}: the human seat never got a turn"
    before = driver.log_text()
    driver.take_turn()
    driver.wait_after_action(before)
    assert driver.log_text() != before, f"{game}: a move by clicking left the log unchanged"

    screenshot(page, notebook, ".sk-board")
    errors = error_outputs(page.evaluate("(path) => window.__skLab.cells(path)", notebook))
    assert not errors, f"{notebook} in JupyterLab, after the move:\n" + "\n\n".join(errors)
    assert page_problems(page, watch) == []


@pytest.mark.parametrize("game", list(LEARN_NOTEBOOKS))
def test_learn_notebook_runs_without_error_and_shows_its_widgets(
    game: str, jupyterlab: JupyterLabServer, lab_page: tuple[Any, PageWatch]
) -> None:
    page, watch = lab_page
    notebook = LEARN_NOTEBOOKS[game]
    cells = run_notebook(page, jupyterlab, notebook)
    errors = error_outputs(cells)
    assert not errors, f"{notebook} in JupyterLab:\n" + "\n\n".join(errors)
    views = [output["widget"] for cell in cells for output in cell["outputs"] if output["widget"]]
    if views:  # the lesson shows widgets: they render (a closed one, e.g. a progress bar, hides)
        page.wait_for_function("(path) => window.__skLab.widgets(path).shown > 0", arg=notebook)
    widgets = page.evaluate("(path) => window.__skLab.widgets(path)", notebook)
    assert widgets["failed"] == [], f"{notebook}: widgets that did not show: {widgets['failed']}"

    screenshot(page, notebook, ".jp-OutputArea-output .jupyter-widgets")
    assert page_problems(page, watch) == []
