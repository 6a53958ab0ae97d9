"""The packages' import graph has no cycles, and the engine never imports the widgets.

Every ``import`` and ``from ... import`` is read from the source (function-level ones too), so
a lazy import cannot hide a cycle. Layers: core protocol, then games, then the shared layers
that read specs (bots, render, analysis), then widgets, then notebooks.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {"sloth_kernel": ROOT / "sloth_kernel", "sloth_widgets": ROOT / "widgets"}


def module_name(package: str, path: Path) -> str:
    parts = [package, *path.relative_to(PACKAGES[package]).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    found = {}
    for package, folder in PACKAGES.items():
        for path in folder.rglob("*.py"):
            if "node_modules" not in path.parts:
                found[module_name(package, path)] = path
    return found


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """Modules of ours that `name` imports anywhere in its source (resolved to known modules)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            targets.add(base)
            targets.update(f"{base}.{alias.name}" for alias in node.names)
    resolved = set()
    for target in targets:
        while target and target not in known:
            target = target.rpartition(".")[0]
        if target and target != name:
            resolved.add(target)
    return resolved


def graph() -> dict[str, set[str]]:
    found = modules()
    return {name: imports_of(name, path, set(found)) for name, path in found.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def packages_of(module: str) -> set[str]:
    """A module and the packages above it: importing it runs their __init__ too."""
    parts = module.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts) + 1)}


def test_no_import_cycles() -> None:
    edges = graph()
    # importing a.b.c runs a/__init__ and a/b/__init__ first: that is an edge too
    for name in list(edges):
        for target in list(edges[name]):
            edges[name] |= {p for p in packages_of(target) if p in edges and p != name and not name.startswith(p + ".")}
    assert cycles(edges) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_engine_never_imports_the_widgets() -> None:
    offenders = [
        name
        for name, targets in graph().items()
        if name.startswith("sloth_kernel") and any(t.startswith("sloth_widgets") for t in targets)
    ]
    assert offenders == []


def test_the_core_imports_no_layer_above_it() -> None:
    # notation (the move-text and seat checks every game and the core share) imports only errors
    # and untrusted: it belongs to the core layer
    core = {
        "sloth_kernel.core",
        "sloth_kernel.errors",
        "sloth_kernel.explanation",
        "sloth_kernel.notation",
        "sloth_kernel.untrusted",
    }
    edges = graph()
    for name in core:
        assert edges[name] <= core | {"sloth_kernel"}, (name, edges[name] - core)


# The board shell, in layers: each module imports of the widget package only modules of a layer
# below its own (a board's game parts, the table pages and the notebooks sit above the shell).
SHELL_LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"markup"}),  # the shared HTML helpers (card pictures, rule controls): below every widget
    frozenset({"safety", "ask", "session", "log", "hand", "tree", "disclosure", "reveal", "resume"}),
    frozenset({"guard", "seats", "status", "asking", "stepper", "hooks"}),
    frozenset({"board"}),
)


def shell_offences(edges: dict[str, set[str]], layers: tuple[frozenset[str], ...] = SHELL_LAYERS) -> list[str]:
    """Imports between the shell's modules that do not go down a layer."""
    level = {f"sloth_widgets.{name}": k for k, layer in enumerate(layers) for name in layer}
    return sorted(
        f"{name} -> {target}"
        for name, k in level.items()
        for target in edges.get(name, set())
        if target.startswith("sloth_widgets.") and level.get(target, len(layers)) >= k
    )


def test_the_board_shell_is_in_layers() -> None:
    edges = graph()
    assert {f"sloth_widgets.{name}" for layer in SHELL_LAYERS for name in layer} <= set(edges)
    assert shell_offences(edges) == []
    assert "sloth_widgets.common" not in edges  # split by responsibility: no catch-all module


def test_the_shell_layer_check_finds_an_import_upwards() -> None:
    planted = {"sloth_widgets.session": {"sloth_widgets.board"}, "sloth_widgets.board": {"sloth_widgets.session"}}
    assert shell_offences(planted) == ["sloth_widgets.session -> sloth_widgets.board"]
    sideways = {"sloth_widgets.guard": {"sloth_widgets.status"}, "sloth_widgets.hand": {"sloth_widgets.table"}}
    assert shell_offences(sideways) == [
        "sloth_widgets.guard -> sloth_widgets.status",
        "sloth_widgets.hand -> sloth_widgets.table",
    ]
