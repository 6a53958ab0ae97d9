"""The play apps' light Voila template and its committed front-end bundle.

The bundle (widgets/voila_template/sloth/static/) is built from widgets/frontend/ by
`make frontend`, which needs Node; these checks need none. They catch a source edited without
rebuilding, a file the wheel would leave out, a play app that fell back to Voila's stock
front end, and anything in the bundle that would reach outside the server.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
FRONTEND = REPO / "widgets" / "frontend"
TEMPLATE = REPO / "widgets" / "voila_template" / "sloth"
STATIC = TEMPLATE / "static"
PLAY_NOTEBOOKS = sorted((REPO / "notebooks").glob("play_*.ipynb"))
# What build.mjs records the bundle was built against (npm packages, widget model modules).
BUILT_AGAINST = STATIC / "BUILT_AGAINST.json"


def inputs_hash() -> str:
    """The same hash as build.mjs's inputsHash(): name, NUL, bytes, NUL for each input."""
    files = ["build.mjs", "package-lock.json", *(f"src/{p.name}" for p in sorted((FRONTEND / "src").iterdir()))]
    digest = hashlib.sha256()
    for name in files:
        digest.update(name.encode() + b"\0" + (FRONTEND / name).read_bytes() + b"\0")
    return digest.hexdigest()


def test_the_committed_bundle_was_built_from_the_committed_sources() -> None:
    expected = inputs_hash()
    recorded = (STATIC / "INPUTS.sha256").read_text().strip()
    assert recorded == expected, "widgets/frontend changed: run `make frontend` and commit the bundle"
    for name in ("sloth-voila.js", "sloth-voila-early.js", "sloth-voila.css"):
        first_line = (STATIC / name).read_text().split("\n", 1)[0]
        assert first_line == f"/* sloth-voila inputs sha256:{expected} */", name


def test_npm_dependencies_are_pinned_exactly_and_locked() -> None:
    package = json.loads((FRONTEND / "package.json").read_text())
    lock = json.loads((FRONTEND / "package-lock.json").read_text())
    for section in ("dependencies", "devDependencies"):
        for name, version in package[section].items():
            assert re.fullmatch(r"\d+\.\d+\.\d+", version), f"{name} {version} is a range"
            assert lock["packages"][f"node_modules/{name}"]["version"] == version, name


def built_against() -> dict:
    return json.loads(BUILT_AGAINST.read_text())


def test_the_recorded_versions_belong_to_the_committed_bundle() -> None:
    assert built_against()["inputs_sha256"] == inputs_hash(), "run `make frontend` and commit the bundle"


def test_the_bundle_was_built_against_the_locked_npm_packages() -> None:
    package = json.loads((FRONTEND / "package.json").read_text())
    lock = json.loads((FRONTEND / "package-lock.json").read_text())
    recorded = built_against()["npm"]
    assert set(recorded) == {name for name in package["dependencies"] if name.startswith("@jupyter-widgets/")}
    for name, version in recorded.items():
        assert version == lock["packages"][f"node_modules/{name}"]["version"], name


def test_the_bundle_registers_the_widget_model_modules_of_the_installed_ipywidgets() -> None:
    """ipywidgets sends these versions with every model (_model_module_version); the bundle's
    widget manager serves only its own major versions (main.js, loadClass)."""
    import ipywidgets
    from ipywidgets import _version

    recorded = built_against()
    assert recorded["widget_modules"] == {
        "@jupyter-widgets/base": _version.__jupyter_widgets_base_version__,
        "@jupyter-widgets/controls": _version.__jupyter_widgets_controls_version__,
    }
    assert recorded["widget_protocol"] == _version.__protocol_version__
    for widget in (ipywidgets.Button, ipywidgets.HTML, ipywidgets.Layout, ipywidgets.ButtonStyle):
        traits = widget.class_traits()
        module = traits["_model_module"].default_value
        assert traits["_model_module_version"].default_value == recorded["widget_modules"][module], widget
    main = (FRONTEND / "src" / "main.js").read_text()
    assert "version: base.JUPYTER_WIDGETS_VERSION" in main and "version: controls.JUPYTER_CONTROLS_VERSION" in main


def caret_allows(spec: str, version: str) -> bool:
    """npm's `^X.Y.Z` for X >= 1: the same major version, at least X.Y.Z."""
    assert re.fullmatch(r"\^[1-9]\d*\.\d+\.\d+", spec), spec
    low = tuple(int(part) for part in spec[1:].split("."))
    have = tuple(int(part) for part in version.split("."))
    return have[0] == low[0] and have >= low


def test_the_bundle_matches_the_widget_manager_jupyterlab_widgets_ships() -> None:
    """Voila's stock front end (the fallback) uses jupyterlab_widgets' manager: the bundle's
    @jupyter-widgets/* packages must be in the ranges that manager was built with."""
    from jupyter_core.paths import jupyter_path

    manifests = [
        Path(p, "package.json")
        for p in jupyter_path("labextensions", "@jupyter-widgets", "jupyterlab-manager")
        if Path(p, "package.json").is_file()
    ]
    assert manifests, "jupyterlab_widgets' labextension is not installed"
    wanted = json.loads(manifests[0].read_text())["dependencies"]
    for name, version in built_against()["npm"].items():
        assert caret_allows(wanted[name], version), f"{name} {version} is outside jupyterlab_widgets' {wanted[name]}"


def test_the_bundle_reaches_nothing_outside_the_server() -> None:
    css = (STATIC / "sloth-voila.css").read_text()
    urls = [u.strip("\"'") for u in re.findall(r"url\(([^)]*)\)", css) if not u.strip("\"'").startswith("data:")]
    assert urls, "the Font Awesome faces should point at bundled fonts"
    for url in urls:
        assert url.startswith("./fonts/") and url.endswith(".woff2"), url
        assert (STATIC / url).is_file(), url
    script = (STATIC / "sloth-voila.js").read_text()
    assert not re.search(r"""(?:src|href)\s*=\s*["']https?://""", script)
    assert "cdn.jsdelivr" not in script + css and "unpkg.com" not in script + css


def test_the_wheel_installs_every_template_file_where_voila_looks() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    data_files = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["data-files"]
    installed = {}
    for target, patterns in data_files.items():
        assert target.startswith("share/jupyter/voila/templates/sloth"), target
        for pattern in patterns:
            for path in REPO.glob(pattern):
                installed[path.relative_to(TEMPLATE).as_posix()] = f"{target}/{path.name}"
    shipped = {p.relative_to(TEMPLATE).as_posix() for p in TEMPLATE.rglob("*") if p.is_file()}
    assert set(installed) == shipped
    for relative, target in installed.items():
        assert target == f"share/jupyter/voila/templates/sloth/{relative}"


def test_voila_finds_the_template_in_this_environment() -> None:
    from jupyter_core.paths import jupyter_path

    found = [Path(p) for p in jupyter_path("voila", "templates", "sloth") if Path(p, "index.html.j2").exists()]
    assert found, f"no sloth template on Jupyter's path for {sys.prefix} (run `make setup`)"
    assert Path(found[0], "static", "sloth-voila.js").is_file()
    assert json.loads((TEMPLATE / "conf.json").read_text())["base_template"] == "lab"


def test_there_are_four_play_apps() -> None:
    assert [p.stem for p in PLAY_NOTEBOOKS] == [
        "play_race_to_the_bottom",
        "play_sprint",
        "play_surplus_of_sloths",
        "play_too_sloth_to_win",
    ]


@pytest.mark.parametrize("notebook", PLAY_NOTEBOOKS, ids=lambda p: p.stem)
def test_every_play_app_asks_for_the_light_template(notebook: Path) -> None:
    metadata = json.loads(notebook.read_text())["metadata"]
    assert metadata.get("voila", {}).get("template") == "sloth"


def test_the_template_starts_the_early_script_after_every_cell_has_run() -> None:
    text = (TEMPLATE / "index.html.j2").read_text()
    loop_end = text.index("{%- endfor -%}")
    snapshot = text.index('id="sloth-widget-state"')
    scripts = [(m.start(), m.group(0)) for m in re.finditer(r"<script src=[^>]*>", text)]
    assert [tag for _, tag in scripts] == [
        "<script src=\"{{ static_url('sloth-voila-early.js') }}\" data-main=\"{{ static_url('sloth-voila.js') }}\">"
    ]
    # the cells have run and the snapshot is in the page before the early script runs
    assert loop_end < snapshot < scripts[0][0]
    assert "cdn." not in text and "https://" not in text
    early = (FRONTEND / "src" / "early.js").read_text()
    assert "request_states" in early and "dataset.main" in early


def test_the_template_arms_the_stock_fallback_before_the_early_script() -> None:
    """The fallback (tests/e2e/test_stock_fallback.py) must be listening before either script loads."""
    text = (TEMPLATE / "index.html.j2").read_text()
    fallback = text.index("window.slothPage = ")
    assert fallback < text.index("<script src=\"{{ static_url('sloth-voila-early.js') }}\"")
    assert "url.searchParams.set('template', 'lab')" in text
    assert "page.started = true" in (FRONTEND / "src" / "main.js").read_text()
