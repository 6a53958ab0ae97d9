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
import textwrap
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


# --- widget code: showing rule ids is fine, keying on them is not ----------------------------

SEARCHING = frozenset({"get", "pop", "setdefault", "index", "count", "find", "rfind", "startswith", "endswith"})
"""Methods that look a key up or search a text: called with a rule id, on ``.rules`` or on an event's text, they key on it."""
SPLITTING = frozenset({"split", "rsplit", "partition", "rpartition", "removeprefix", "removesuffix"})


def _has(node: ast.AST, what: str) -> bool:
    """Does the expression hold a rule-id literal (`what` "id"), a read of ``.rules`` ("rules") or of ``.text`` ("text")?"""
    for sub in ast.walk(node):
        if what == "id" and isinstance(sub, ast.Constant) and isinstance(sub.value, str) and RULE_ID.search(sub.value):
            return True
        if what == "rules" and isinstance(sub, ast.Attribute) and sub.attr == "rules":
            return True
        if what == "text" and isinstance(sub, ast.Attribute) and sub.attr == "text":
            return True
    return False


def keying(source: str) -> list[str]:
    """Widget code that keys on a rule id or on log text: a comparison or membership test, a branch's
    test, a lookup (subscript, ``.get``...) or a text search that holds a rule-id literal or reads
    ``.rules`` (an event's or an explanation's), or that compares or searches an event's ``.text``.

    Display is not keying: ids inside text the code shows (a literal, or ``", ".join(event.rules)``
    from data), the words of a rule looked up by an id that came from data (``game.rules.get(rule)``),
    docstrings and comments.
    """
    hits: list[str] = []

    def hit(node: ast.AST, why: str) -> None:
        hits.append(f"line {getattr(node, 'lineno', 0)}: {why}: {ast.unparse(node)}")

    tree = ast.parse(textwrap.dedent(source))
    texts = {  # names bound to words read from ``.text`` (e.g. ``texts = [e.text for e in log]``)
        target.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and _has(node.value, "text")
        for target in node.targets
        if isinstance(target, ast.Name)
    }

    def words(part: ast.AST) -> bool:
        return _has(part, "text") or any(isinstance(n, ast.Name) and n.id in texts for n in ast.walk(part))

    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            parts = [node.left, *node.comparators]
            if any(_has(part, "id") or _has(part, "rules") for part in parts):
                hit(node, "compares a rule id")
            elif any(words(part) for part in parts):
                hit(node, "compares log text")
        tests = []
        if isinstance(node, ast.If | ast.While | ast.IfExp | ast.Assert):
            tests.append(node.test)
        elif isinstance(node, ast.comprehension):
            tests += node.ifs
        elif isinstance(node, ast.match_case):
            tests.append(node.pattern)
        for test in tests:
            if not isinstance(test, ast.Compare) and (_has(test, "rules") or _has(test, "id")):
                hit(test, "branches on a rule id")
        if isinstance(node, ast.Subscript) and _has(node.slice, "id"):
            hit(node, "looks up a rule id")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            method, owner = node.func.attr, node.func.value
            if method in SEARCHING and any(_has(arg, "id") for arg in node.args):
                hit(node, "looks up a rule id")
            elif method in SEARCHING | SPLITTING and isinstance(owner, ast.Attribute) and owner.attr == "text":
                hit(node, "searches log text")
    return hits


OLD_KEYING = {
    # the boards' lines before issue 23 (copied as they were): each must be flagged
    "sprint": '        rule = self.session.game.rules.get("SP-4", "")  # the engine\'s own words for the scoring\n',
    "surplus, SS-5": (
        "        if start < 0:\n"
        '            return len(log) - next((i + 1 for i in range(len(log) - 1, -1, -1) if "SS-5" in log[i].rules), 0)\n'
    ),
    "surplus, SS-8": (
        "        for _ in range(results[0].type_index):\n"
        '            if start > 0 and log[start - 1].rules == ("SS-8",):\n'
        "                start -= 1\n"
    ),
    "surplus, log text": (
        "        texts = [event.text for event in log]\n"
        "        first = results[0].lines[0]\n"
        "        start = max((i for i, text in enumerate(texts) if text == first), default=-1)\n"
        "        if shown:\n"
        "            last_line = results[shown - 1].lines[-1]\n"
        "            cut = next((i + 1 for i in range(start, len(texts)) if texts[i] == last_line), start)\n"
    ),
    "too sloth, log text": (
        "        for e in obs.log[end.move_event : end.next_start]:\n"
        '            if e.player is not None and "eliminated from the round" in e.text:\n'
        '                status[e.player] = "out: " + e.text.split(": ", 1)[-1].rstrip(".")\n'
    ),
}

DISPLAY_ONLY = (
    'def f(obs):\n    """The Net at the end (SS-7, SS-8, SS-9)."""\n    return "a Cash Chip too (TS-10)."  # TS-10\n',
    'cite = cited(SCORING.rules)\nwords = [self.game.rules.get(rule, "") for rule in event.rules]\n',
    "line = f\"{html.escape(SCORING.text)} ({', '.join(event.rules)})\"\n",
    'note = "Pass (you are eliminated, TS-7)" if passes == ["pass"] else "Pass"\n',
    'starts = [i for i, e in enumerate(log) if e.kind in kinds]\nsaid = " ".join(e.text for e in shown)\n',
)


@pytest.mark.parametrize("name", sorted(OLD_KEYING))
def test_the_widget_scan_flags_the_old_keying(name: str) -> None:
    """The scan can fail: the lines the boards held before issue 23 are flagged."""
    assert keying(OLD_KEYING[name]), name


def test_the_widget_scan_lets_display_pass() -> None:
    assert [hits for source in DISPLAY_ONLY if (hits := keying(source))] == []
    # the loop over lines of text the old Surplus board held is flagged at its comparison, not its listing
    assert all("log text" in hit for hit in keying(OLD_KEYING["surplus, log text"]))


def test_widget_code_never_keys_on_rule_ids_or_log_text() -> None:
    """Widgets show rule ids that come from data; they never compare, look up or branch on one, on
    ``Event.rules`` or ``Explanation.rules``, nor match the log's words (moments are ``Event.kind``)."""
    # widgets/testing.py is exempt: the board checker compares what a board shows with the engine's log,
    # which is its check, not a board keying on the log
    files = [p for p in sorted(WIDGETS.rglob("*.py")) if p != WIDGETS / "testing.py"]
    files += sorted((ROOT.parent / "tests" / "plugins").glob("*/board.py"))  # the plugins' boards, as models
    files += sorted((ROOT.parent / "docs" / "example_plugin").glob("*/board.py"))
    assert len(files) > 20
    found = {str(p.relative_to(ROOT.parent)): hits for p in files if (hits := keying(p.read_text()))}
    assert not found, f"widget code keys on rule ids or log text: {found}"


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
