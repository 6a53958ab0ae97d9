"""Search reaches a game only through its public API.

A game's engine module alone builds its states (``Game.world_sampler``): no other module
assigns a State's attributes. Search and bot code never keys on rule ids; moments are
recognised from ``Event.kind``, so rule citations can change without breaking search.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import random
import re
from pathlib import Path
from typing import Any

import pytest

import sloth_kernel
from sloth_kernel import load_game
from sloth_kernel.bots.determinize import search_spec
from sloth_kernel.registry import game_specs

ROOT = Path(sloth_kernel.__file__).resolve().parent
WIDGETS = ROOT.parent / "widgets"
SPECS = game_specs()
SEARCHABLE = sorted(name for name, spec in SPECS.items() if spec.search is not None)
RULE_ID = re.compile(r"[A-Z]{2}-\d+")


def module_path(reference: str) -> Path:
    """The file of the module a spec reference (``module:attr``) names."""
    module = importlib.import_module(reference.split(":")[0])
    assert module.__file__ is not None
    return Path(module.__file__).resolve()


ENGINES = {module_path(spec.engine) for spec in SPECS.values()}
"""The module that defines each game's Game class (``games/<game>/engine.py`` for the bundled games)."""
PACKAGES = {path.parent for path in ENGINES}
BUNDLED = sorted(name for name in SEARCHABLE if module_path(SPECS[name].engine).is_relative_to(ROOT))


def state_fields() -> set[str]:
    """Every attribute a State of any game holds, seen at run time over a short random game."""
    fields: set[str] = set()
    for name in SPECS:
        state = load_game(name).new_state(3)
        rng = random.Random(3)
        for _ in range(40):
            fields |= set(vars(state))
            fields |= {n for cls in type(state).__mro__ for n in getattr(cls, "__annotations__", {})}
            if state.is_over:
                break
            state = state.play(rng.choice(state.legal_moves()))
    return fields


FIELDS = state_fields()


def _is_self(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id in ("self", "cls")


def _is_css(node: ast.expr) -> bool:
    """A widget's ``.layout`` or ``.style`` (CSS traits such as ``top`` or ``order``), never a state."""
    return isinstance(node, ast.Attribute) and node.attr in ("layout", "style")


def _targets(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, ast.Assign):
        found = list(node.targets)
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        found = [node.target]
    else:
        return []
    flat: list[ast.expr] = []
    while found:
        target = found.pop()
        if isinstance(target, (ast.Tuple, ast.List)):
            found += target.elts
        elif isinstance(target, ast.Starred):
            found.append(target.value)
        else:
            flat.append(target)
    return flat


def state_writes(source: str) -> list[str]:
    """Lines of `source` that assign (or assign into) a State attribute of another object, or setattr it."""
    hits = []
    for node in ast.walk(ast.parse(source)):
        for target in _targets(node):
            while isinstance(target, ast.Subscript):  # world.hands[1][3] = ... mutates the state too
                target = target.value
            if (
                isinstance(target, ast.Attribute)
                and target.attr in FIELDS
                and not _is_self(target.value)
                and not _is_css(target.value)
            ):
                hits.append(f"line {node.lineno}: {ast.unparse(node)[:80]}")
        if isinstance(node, ast.Call) and node.args and not _is_self(node.args[0]):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name in ("setattr", "__setattr__"):
                hits.append(f"line {node.lineno}: {ast.unparse(node)[:80]}")
        if isinstance(node, ast.Attribute) and node.attr == "__dict__" and not _is_self(node.value):
            hits.append(f"line {node.lineno}: {ast.unparse(node)[:80]}")
    return hits


def test_the_scanner_sees_state_writes() -> None:
    """The scan below would have caught the old samplers, which wrote engine internals from search.py."""
    old = "state = TooSlothState(game, seed, None)\nstate.hands = hands\nstate.top, state.top_seat = x, y\n"
    assert len(state_writes(old)) == 3
    assert state_writes("world.hands[1][3] += 1")
    assert state_writes("setattr(world, 'turn', 2)")
    assert state_writes("world.__dict__.update(other)")
    assert not state_writes("self.hands = []\nnode.visits += 1\nhands = world.hands\nbox.layout.order = '2'\n")
    assert {"hands", "bits", "undealt", "kept", "deck", "decks", "nhand", "events"} <= FIELDS


def test_only_a_games_engine_module_assigns_state_attributes() -> None:
    """The shared layers, the widgets and every game's package (plugins included)."""
    files = sorted({p.resolve() for root in (ROOT, WIDGETS, *PACKAGES) for p in root.rglob("*.py")})
    assert len(ENGINES) == len(SPECS) and ENGINES.issubset(files)
    found = {}
    for path in files:
        if path in ENGINES:
            continue
        hits = state_writes(path.read_text())
        if hits:
            found[str(path.relative_to(ROOT.parent))] = hits
    assert not found, f"state attributes assigned outside the engine modules: {found}"


def search_code() -> list[Path]:
    """The shared bots and search, and each game's search and bots modules."""
    searches = {module_path(spec.search) for spec in SPECS.values() if spec.search is not None}
    bots = {module_path(spec.bots) for spec in SPECS.values() if spec.bots is not None}
    assert len(searches) == len(SEARCHABLE) and (ROOT / "games" / "too_sloth_to_win" / "search.py") in searches
    return sorted((ROOT / "bots").rglob("*.py")) + sorted(searches | bots)


def rule_keys(source: str) -> list[str]:
    """Rule-id string literals outside docstrings, and reads of an event's ``rules``."""
    tree = ast.parse(source)
    docstrings = {
        id(body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and (body := node.body)
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
    }
    hits = []
    for node in ast.walk(tree):
        literal = isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
        if literal and RULE_ID.search(node.value):
            hits.append(f"line {node.lineno}: {node.value!r}")
        if isinstance(node, ast.Attribute) and node.attr == "rules":
            hits.append(f"line {node.lineno}: {ast.unparse(node)}")
    return hits


def test_the_rule_id_scanner_sees_rule_keys() -> None:
    old = 'def f(event):\n    """A lead pass (TS-5)."""\n    return event.rules == ("TS-2", "TS-13")\n'
    assert sorted(rule_keys(old)) == ["line 3: 'TS-13'", "line 3: 'TS-2'", "line 3: event.rules"]
    assert rule_keys('x = "SS-11" in text') and not rule_keys('"""Hidden cards (RB-11)."""\nkind = "lead-pass"\n')


def test_search_and_bot_code_never_keys_on_rule_ids() -> None:
    found = {str(p.relative_to(ROOT)): hits for p in search_code() if (hits := rule_keys(p.read_text()))}
    assert not found, f"search code keys on rule ids (use Event.kind or the observation): {found}"


# --- the public method ------------------------------------------------------------------


def observations(name: str, seeds: tuple[int, ...] = (0, 1)) -> list[Any]:
    """Every 4th observation of the seat to move over whole random games (default options)."""
    found = []
    for seed in seeds:
        state = load_game(name).new_state(seed)
        rng = random.Random(seed)
        while not state.is_over:
            if len(state.history) % 4 == 0:
                found.append(state.observation(state.current_player))
            state = state.play(rng.choice(state.legal_moves()))
    return found


def without_log(world: Any) -> Any:
    return dataclasses.replace(world.view(), log=())


def test_the_bundled_games_search_through_their_engines() -> None:
    assert len(BUNDLED) == 3
    for name in BUNDLED:
        assert "world_sampler" in vars(SPECS[name].game_class()), f"{name}: the engine's Game defines world_sampler"


@pytest.mark.parametrize("name", BUNDLED)
def test_search_samples_through_the_games_public_method(name: str) -> None:
    """The search spec's worlds are exactly those of the engine's ``Game.world_sampler``."""
    cls = SPECS[name].game_class()
    prepare = search_spec(name).prepare
    for obs in observations(name, (2,))[::3]:
        ours, theirs = random.Random(4), random.Random(4)
        public, searched = cls.world_sampler(obs), prepare(obs, {})
        for _ in range(3):
            assert public(ours).view() == searched(theirs).view()


def test_the_default_world_sampler_refuses() -> None:
    """A game that does not define a sampler says so (here: the games without a search spec)."""
    for name, spec in SPECS.items():
        if spec.search is None:
            state = load_game(name).new_state(0)
            with pytest.raises(NotImplementedError):
                spec.game_class().world_sampler(state.observation(state.current_player))


@pytest.mark.parametrize("name", SEARCHABLE)
def test_worlds_do_not_depend_on_rule_citations(name: str) -> None:
    """Renumbering every citation in the log changes no sampled world: moments are read from Event.kind."""
    prepare = search_spec(name).prepare
    checked = 0
    for obs in observations(name):
        cited = dataclasses.replace(obs, log=tuple(e._replace(rules=("ZZ-99",)) for e in obs.log))
        ours, theirs = prepare(obs, {}), prepare(cited, {})
        rng_a, rng_b = random.Random(7), random.Random(7)
        for _ in range(2):
            a, b = ours(rng_a), theirs(rng_b)
            assert without_log(a) == without_log(b)
            assert a.observation(obs.player) == obs
            checked += 1
    assert checked >= 10


def test_too_sloth_marks_the_moments_its_sampler_reads() -> None:
    """Each round's deal is a "round-start" event; a leader holding only drinks makes a "lead-pass"."""
    game = load_game("too-sloth-to-win", players=3, rounds=2)
    state = game.new_state(5)
    rng = random.Random(5)
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
    starts = [e for e in state.log if e.kind == "round-start"]
    assert len(starts) == 2 and all(e.player is None for e in starts)
    deal = {"hands": ["D", "1 2 3 4", "5 6 D"], "pacemaker": 0}
    state = game.from_deal(deal, seed=1)
    state = state.play("pass")
    assert state.log[-1].kind == "lead-pass" and state.log[-1].player == 0
