"""Install a game plugin into this process the way pip would, without pip.

``importlib.metadata.entry_points()`` reads every ``<name>-<version>.dist-info`` folder on
``sys.path``; its ``entry_points.txt`` is what a plugin's
``[project.entry-points."sloth_kernel.games"]`` table becomes when installed. So writing
such a folder into a temporary directory and putting that directory on ``sys.path`` (with
the folder that holds the plugin's package) is an installed plugin, as far as
``sloth_kernel.registry`` can tell. Leaving the context undoes it all.
"""

from __future__ import annotations

import contextlib
import importlib
import shutil
import sys
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path

from sloth_kernel import registry

HERE = Path(__file__).resolve().parent
"""tests/plugins: the folder that holds the plugin packages (toy_high_card)."""

TOY = "toy-high-card"
TOY_DIST = "toy_plugin"
TOY_POINTS = {TOY: "toy_high_card:SPEC"}
"""The toy game's distribution: what its pyproject.toml would declare under ``sloth_kernel.games``."""


def write_dist_info(folder: Path, dist: str, points: Mapping[str, str]) -> Path:
    """``<dist>-0.1.dist-info`` with METADATA and the ``sloth_kernel.games`` entry points."""
    info = folder / f"{dist}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n")
    lines = "".join(f"{name} = {value}\n" for name, value in points.items())
    (info / "entry_points.txt").write_text(f"[{registry.GROUP}]\n{lines}")
    return info


@contextlib.contextmanager
def installed(dist: str, points: Mapping[str, str], *, modules: Mapping[str, str] | None = None) -> Iterator[Path]:
    """A plugin distribution `dist` declaring `points` (name -> "module:attr"), installed for the block.

    `modules` adds top-level modules (name -> source) beside the dist-info, e.g. a broken one; a name
    ``"package/__init__"`` makes a package.
    The plugin packages under tests/plugins are importable meanwhile.
    """
    modules = dict(modules or {})
    folder = Path(tempfile.mkdtemp(prefix=f"{dist}-"))
    write_dist_info(folder, dist, points)
    for name, source in modules.items():
        (folder / f"{name}.py").parent.mkdir(parents=True, exist_ok=True)
        (folder / f"{name}.py").write_text(source)
    added = [entry for entry in (str(folder), str(HERE)) if entry not in sys.path]
    sys.path.extend(added)  # after the project's own distribution: an installed game is never shadowed
    importlib.invalidate_caches()
    registry.refresh()
    try:
        yield folder
    finally:
        for entry in added:
            sys.path.remove(entry)
        for name in modules:
            sys.modules.pop(name.removesuffix("/__init__").replace("/", "."), None)
        shutil.rmtree(folder, ignore_errors=True)
        importlib.invalidate_caches()
        registry.refresh()


def install_toy() -> contextlib.AbstractContextManager[Path]:
    """The toy game in tests/plugins/toy_high_card, installed as the distribution ``toy_plugin``."""
    return installed(TOY_DIST, TOY_POINTS)
