"""Options are declared once, in the spec, and enforced from there for every game and plugin (issue 23).

Every range a spec declares (``players``, ``option_ranges``, each item's for a list option,
``seat_options``) is accepted inside and refused outside with a ConfigError that names the option and
its range, for the four games and the toy plugin, and refusing one changes nothing. Bot options are
declared beside each bot class and refused the same way by ``make_bot`` and by the class itself. The
architecture tests fail if an engine re-checks a declared range itself, or a second move-text or seat
limit appears; each first proves that it can fail.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sloth_kernel import ConfigError, load_game
from sloth_kernel.bots import bot_classes, make_bot
from sloth_kernel.core import Game, GameConfig, GameState
from sloth_kernel.errors import PluginError
from sloth_kernel.registry import available_games, from_record, game_spec
from sloth_kernel.spec import GameSpec

GAMES = available_games()
TOY = "toy-high-card"
ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
README = " ".join(" ".join(page.read_text().split()) for page in PAGES)  # the README's and the docs' words
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def declared(name: str) -> list[tuple[str, float, float, bool, dict[str, Any]]]:
    """(option, low, high, each item?, what it needs beside it) for every range the game's spec declares."""
    spec = game_spec(name)
    found = []
    for option in spec.options():
        needs = spec.option_needs.get(option.name, {})
        if option.low is not None and option.high is not None:
            found.append((option.name, option.low, option.high, False, needs))
        elif option.items is not None:
            found.append((option.name, option.items[0], option.items[1], True, needs))
    return found


RANGES = [(name, *entry) for name in GAMES for entry in declared(name)]


def test_the_toy_plugin_and_every_bundled_game_declare_ranges() -> None:
    assert {TOY, "sprint", "too-sloth-to-win", "race-to-the-bottom", "surplus-of-sloths"} <= {r[0] for r in RANGES}
    assert ("sprint", "race_deck", 0, 128, True, {}) in RANGES  # a list option: each item's range


def value_for(name: str, option: str, number: float, each: bool) -> Any:
    if not each:
        return number
    default = list(getattr(load_game(name).config, option))
    return tuple([number, *default[1:]])


def whole(name: str, option: str) -> bool:
    hint = next(o.type for o in game_spec(name).options() if o.name == option)
    return "int" in hint


def numbers(name: str, option: str, low: float, high: float, inside: bool) -> st.SearchStrategy[float]:
    if whole(name, option):
        low, high = int(low), int(high)
        if inside:
            return st.integers(low, high)
        return st.integers(high + 1, 10**6) | st.integers(-(10**6), low - 1)
    if inside:
        return st.floats(low, high, allow_nan=False)
    return st.floats(high, 10**6, exclude_min=True) | st.floats(-(10**6), low, exclude_max=True)


@pytest.mark.parametrize(("name", "option", "low", "high", "each", "needs"), RANGES)
def test_every_declared_range_is_enforced_inside_and_outside(
    name: str, option: str, low: float, high: float, each: bool, needs: dict[str, Any]
) -> None:
    state = load_game(name).new_state(seed=3)
    before = json.dumps(state.to_record())

    @SETTINGS
    @given(number=numbers(name, option, low, high, inside=True))
    def accepted(number: float) -> None:
        options = {**needs, option: value_for(name, option, number, each)}
        if name == "sprint" and option == "race_deck":  # the deck's total is a rule of its own (SP-2)
            options[option] = (number, 2, 0, 0, 0, 0, 0, 0)
        try:
            config = load_game(name, **options).config
        except ConfigError as err:  # only a rule that ties options together may refuse a value in range
            assert f"{option} must be" not in str(err) and f"{option} holds" not in str(err), err
        else:
            assert getattr(config, option) == options[option]

    @SETTINGS
    @given(number=numbers(name, option, low, high, inside=False))
    def refused(number: float) -> None:
        with pytest.raises(ConfigError) as caught:
            load_game(name, **needs, **{option: value_for(name, option, number, each)})
        message = str(caught.value)
        spoken = (f"{low:g}", f"{high:g}")
        assert option in message and f"{spoken[0]} to {spoken[1]}" in message, message
        assert len(message) < 400 and "Traceback" not in message

    accepted()
    refused()
    assert json.dumps(state.to_record()) == before  # nothing refused touched a game already dealt


SEATS = [(name, option) for name in GAMES for option in game_spec(name).seat_options]


@pytest.mark.parametrize(("name", "option"), SEATS)
@SETTINGS
@given(data=st.data())
def test_every_seat_option_takes_a_seat_of_the_players_and_nothing_else(name: str, option: str, data: Any) -> None:
    low, high = game_spec(name).players
    players = data.draw(st.integers(low, high))
    seat = data.draw(st.integers(0, players - 1))
    assert getattr(load_game(name, players=players, **{option: seat}).config, option) == seat
    wrong = data.draw(st.integers(players, 10**6) | st.integers(-(10**6), -1))
    with pytest.raises(ConfigError) as caught:
        load_game(name, players=players, **{option: wrong})
    assert f"{option} must be a seat from 0 to {players - 1}" in str(caught.value)


def test_a_plugins_declared_range_is_enforced_without_a_validate_of_its_own() -> None:
    """The README's promise: a plugin declares its ranges in the spec, and load_game refuses beyond them."""
    config_class = game_spec(TOY).game_class().config_class
    assert "validate" not in config_class.__dict__
    with pytest.raises(ConfigError, match=r"cards must be a whole number from 2 to 30 \(HC-1\), not 5000"):
        load_game(TOY, cards=5000)
    with pytest.raises(ConfigError, match="hand_size must deal no more than the 30 cards"):
        load_game(TOY, players=4, hand_size=8)  # its options_together: the hands come out of the deck
    with pytest.raises(ConfigError, match="cards must be"):  # built directly, the same check
        config_class(cards=5000).validate()


def test_a_record_of_the_largest_list_options_replays() -> None:
    """The record schema said 64 items per list option, where load_game takes 256: a 127-Objective game's
    record was refused. The engine's limits are the only ones now."""
    game = load_game("sprint", race_deck=(16,) * 8, objectives=tuple(range(1, 128)))
    state = game.new_state(seed=1)
    assert from_record(state.to_record()).view() == state.view()


# --- declarations that do not fit their config: the author hears it at once ----------------------


@dataclasses.dataclass(frozen=True)
class StonesConfig(GameConfig):
    players: int = 2
    stones: int = dataclasses.field(default=10, metadata={"range": (1, 50)})


class Stones(Game[StonesConfig, GameState[Any, Any]]):
    name = "test-stones"
    title = "Stones"
    config_class = StonesConfig
    rules: dict[str, str] = {}

    @property
    def num_players(self) -> int:
        return self.config.players

    def _new_state(self, seed: int) -> GameState[Any, Any]:
        raise NotImplementedError

    def _from_deal(self, deal: Any, seed: int) -> GameState[Any, Any]:
        raise NotImplementedError

    def parse_move(self, text: str) -> Any:
        raise NotImplementedError


def stones_spec(**fields: Any) -> GameSpec:
    return GameSpec(
        name="test-stones", title="Stones", players=(2, 2), default_players=2, kind="test",
        engine=f"{__name__}:Stones", option_docs={"players": "x", "stones": "y"}, **fields,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"option_ranges": {"stones": (1, 50)}}, "metadata; ranges are declared in the spec's option_ranges"),
        ({"option_ranges": {"pebbles": (1, 50)}}, "option_ranges names pebbles"),
        ({"seat_options": ("dealer",)}, "seat_options names dealer"),
    ],
)
def test_a_spec_whose_declarations_do_not_fit_its_config_is_a_plugin_error(fields: dict[str, Any], words: str) -> None:
    with pytest.raises(PluginError, match=words):
        stones_spec(**fields).check_declarations()


@dataclasses.dataclass(frozen=True)
class PlainConfig(GameConfig):
    players: int = 2
    stones: int = 10


class PlainStones(Stones):
    name = "test-plain-stones"
    config_class = PlainConfig  # type: ignore[assignment]


def test_a_range_that_misses_its_default_is_a_plugin_error() -> None:
    spec = dataclasses.replace(stones_spec(option_ranges={"stones": (20, 50)}), engine=f"{__name__}:PlainStones")
    with pytest.raises(PluginError, match="stones's default 10 is outside its range"):
        spec.check_declarations()
    fits = dataclasses.replace(spec, option_ranges={"stones": (1, 50)})
    fits.check_declarations()
    fits.check_option(PlainConfig(), "stones", 50, whole=True)
    with pytest.raises(ConfigError, match=r"stones must be a whole number from 1 to 50, not 5000"):
        fits.check_option(PlainConfig(), "stones", 5000, whole=True)


# --- bot options ---------------------------------------------------------------------------------

BOT_RANGES = [
    (name, level, option, low, high)
    for name in GAMES
    for level, cls in bot_classes(name).items()
    for option, (low, high) in getattr(cls, "option_ranges", {}).items()
]


@pytest.mark.parametrize(("name", "level", "option", "low", "high"), BOT_RANGES)
@SETTINGS
@given(data=st.data())
def test_every_bot_options_range_is_enforced_by_make_bot_and_by_the_class(
    name: str, level: str, option: str, low: float, high: float, data: Any
) -> None:
    integral = type(low) is int and type(high) is int
    inside = st.integers(int(low), int(high)) if integral else st.floats(low, high)
    make_bot(name, level, seed=1, **{option: data.draw(inside)})
    outside: st.SearchStrategy[Any] = (
        st.integers(int(high) + 1, 10**9) | st.integers(-(10**9), int(low) - 1)
        if integral
        else st.floats(high, 1e9, exclude_min=True) | st.floats(-1e9, low, exclude_max=True)
    )
    value = data.draw(outside | st.sampled_from(["many", True, [1], math.nan]))
    cls = bot_classes(name)[level]
    for build in (lambda: make_bot(name, level, seed=1, **{option: value}), lambda: cls(seed=1, **{option: value})):
        with pytest.raises(ConfigError) as caught:
            build()
        message = str(caught.value)
        assert message.startswith(f"{option} must be") and f"from {low:g} to {high:g}" in message, message


def test_a_bot_option_it_does_not_take_names_the_ones_it_does() -> None:
    with pytest.raises(ConfigError, match="its options: iterations, seconds, exploration"):
        make_bot("too-sloth-to-win", "ismcts", iterations_=5)
    with pytest.raises(ConfigError, match="error must be one of relative, absolute, two-ended"):
        make_bot("sprint", "expert", error="wild")


def test_the_readme_states_the_declared_bot_ranges() -> None:
    """The README's bot-options table says what the classes declare (the one source)."""
    ismcts = bot_classes("too-sloth-to-win")["ismcts"].option_ranges
    lifter = bot_classes("sprint")["heuristic"].option_ranges
    for option, (low, high) in ismcts.items():
        assert f"| `ismcts` | `{option}`" in README and f"{low:g} to {high:g}" in README, option
    assert f"{lifter['sigma'][0]:g} to {lifter['sigma'][1]:g}, 0.15 by default" in README
    assert f"{lifter['offset'][0]:g} to +{lifter['offset'][1]:g}" in README


def test_the_readme_states_the_declared_track_length() -> None:
    low, high, *_ = game_spec("sprint").option_ranges["track_length"]
    assert f"Sprint!'s `track_length` {low} to {high} squares" in README
    assert f"Sprint!'s `track_length` is {low} to {high} squares" in README


# --- architecture: ranges are checked in one place ---------------------------------------------------

RANGE_CHECKERS = {"whole_number", "seat_number", "check_seat", "_number", "_real"}


def rechecks(source: str, options: set[str]) -> list[str]:
    """Where `source` checks one of `options` itself: a config class's own ``validate``, an ordering
    comparison of ``self.<option>`` inside a config class, or a range-checking call naming the option."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef) and any(getattr(b, "id", "") == "GameConfig" for b in node.bases):
            for item in ast.walk(node):
                if isinstance(item, ast.FunctionDef) and item.name == "validate":
                    found.append(f"line {item.lineno}: {node.name} defines its own validate")
                if isinstance(item, ast.Compare) and any(
                    isinstance(op, (ast.Lt, ast.LtE, ast.Gt, ast.GtE)) for op in item.ops
                ):
                    found += [
                        f"line {item.lineno}: {node.name} compares {side.attr}"
                        for side in (item.left, *item.comparators)
                        if isinstance(side, ast.Attribute) and side.attr in options
                    ]
    for node in ast.walk(ast.parse(source)):
        in_config = isinstance(node, ast.ClassDef) and any(getattr(b, "id", "") == "GameConfig" for b in node.bases)
        if not (in_config or (isinstance(node, ast.FunctionDef) and "validate" in node.name)):
            continue  # a deal's or an argument's seat is no option: the engine checks it with check_seat
        for call in ast.walk(node):
            if not isinstance(call, ast.Call):
                continue
            called = getattr(call.func, "id", getattr(call.func, "attr", ""))
            named = [a.value for a in (*call.args, *(k.value for k in call.keywords)) if isinstance(a, ast.Constant)]
            if called in RANGE_CHECKERS and any(isinstance(n, str) and n in options for n in named):
                found.append(f"line {call.lineno}: {called} checks {', '.join(str(n) for n in named)}")
    return list(dict.fromkeys(found))  # a call inside a config's validate is found once


OLD_VALIDATE = """
@dataclass(frozen=True)
class RaceConfig(GameConfig):
    players: int = 3
    races: int = 3

    def validate(self) -> None:
        if type(self.players) is not int or not 2 <= self.players <= 4:
            raise ConfigError("Race to the Bottom takes 2-4 players")
        whole_number("races", self.races, 1, 9, "RB-10")
"""
OLD_HELPER = """
@dataclass(frozen=True)
class SprintConfig(GameConfig):
    track_length: int | None = None

    def check(self) -> None:
        if self.track_length is not None and self.track_length > 60:
            raise ConfigError("too long")
"""


def test_the_recheck_scan_can_fail() -> None:
    assert len(rechecks(OLD_VALIDATE, {"players", "races"})) == 3
    assert rechecks(OLD_HELPER, {"track_length"}) == ["line 7: SprintConfig compares track_length"]
    assert rechecks(OLD_HELPER, {"players"}) == []


@pytest.mark.parametrize("name", GAMES)
def test_no_engine_rechecks_a_range_its_spec_declares(name: str) -> None:
    spec = game_spec(name)
    options = {"players", *spec.option_ranges, *spec.seat_options}
    module = inspect.getmodule(spec.game_class())
    assert module is not None
    found = rechecks(inspect.getsource(module), options)
    assert not found, f"{name}'s engine checks declared options itself:\n" + "\n".join(found)


def bot_rechecks(source: str, options: set[str]) -> list[str]:
    """A bot's ``__init__`` checking a declared option itself: an ordering comparison of its parameter, or a
    call (other than check_bot_options) that names it."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.FunctionDef) and node.name == "__init__"):
            continue
        for item in ast.walk(node):
            if isinstance(item, ast.Compare) and any(
                isinstance(op, (ast.Lt, ast.LtE, ast.Gt, ast.GtE)) for op in item.ops
            ):
                names = {getattr(side, "id", None) for side in (item.left, *item.comparators)}
                found += [f"line {item.lineno}: __init__ compares {n}" for n in sorted(names & options)]  # type: ignore[type-var]
            if isinstance(item, ast.Call) and getattr(item.func, "id", "") != "check_bot_options":
                named = {a.value for a in item.args if isinstance(a, ast.Constant) and isinstance(a.value, str)}
                found += [f"line {item.lineno}: __init__ checks {n} by a call" for n in sorted(named & options)]
    return found


def test_no_bot_rechecks_its_declared_ranges() -> None:
    assert bot_rechecks(
        "class B:\n    def __init__(self, sigma=0.1):\n        if not 0 <= sigma <= 2: pass\n", {"sigma"}
    )
    for name in GAMES:
        for level, cls in bot_classes(name).items():
            options = set(getattr(cls, "option_ranges", {}))
            found = bot_rechecks(inspect.getsource(inspect.getmodule(cls)), options)  # type: ignore[arg-type]
            assert not found, f"{name} {level}:\n" + "\n".join(found)


def limit_definitions(sources: dict[str, str]) -> dict[str, list[str]]:
    """Where each module-level move-text or seat limit is assigned, and where a function checks a seat
    with a chained ``0 <= seat < players`` comparison (the one seat check does; nothing else may)."""
    found: dict[str, list[str]] = {"move text": [], "seat check": []}
    for path, source in sources.items():
        tree = ast.parse(source)
        for node in tree.body:
            targets = (
                node.targets
                if isinstance(node, ast.Assign)
                else [node.target]
                if isinstance(node, ast.AnnAssign)
                else []
            )
            for target in targets:
                if isinstance(target, ast.Name) and "MOVE_TEXT" in target.id:
                    found["move text"].append(f"{path}: {target.id}")
        for node in ast.walk(tree):
            raises = isinstance(node, ast.FunctionDef) and any(isinstance(n, ast.Raise) for n in ast.walk(node))
            if raises and "seat" in node.name.lower():  # a check refuses; a label's index guard does not
                for item in ast.walk(node):
                    if (
                        isinstance(item, ast.Compare)
                        and isinstance(item.left, ast.Constant)
                        and item.left.value == 0
                        and [type(op) for op in item.ops] == [ast.LtE, ast.Lt]
                    ):
                        found["seat check"].append(f"{path}: {node.name}")
                        break
    return found


def test_the_limit_scan_can_fail() -> None:
    old = {
        "notation.py": "MAX_MOVE_TEXT = 100\n",
        "store.py": "MAX_MOVE_TEXT = 1000\ndef check_seat_number(seat, top):\n    if not 0 <= seat < top:\n        raise E\n",
    }
    assert limit_definitions(old) == {
        "move text": ["notation.py: MAX_MOVE_TEXT", "store.py: MAX_MOVE_TEXT"],
        "seat check": ["store.py: check_seat_number"],
    }


def test_one_move_text_limit_and_one_seat_check() -> None:
    sources = {
        path.relative_to(ROOT).as_posix(): path.read_text()
        for folder in ("sloth_kernel", "widgets")
        for path in (ROOT / folder).rglob("*.py")
    }
    found = limit_definitions(sources)
    assert found["move text"] == ["sloth_kernel/untrusted.py: MAX_MOVE_TEXT"], found
    assert found["seat check"] == ["sloth_kernel/notation.py: check_seat"], found
    schema = (ROOT / "sloth_kernel" / "schemas" / "record-v1.schema.json").read_text()
    assert '"maxItems": 64' not in schema and '"maxLength": 200' not in schema  # the engine's limits alone


@pytest.mark.parametrize(
    ("name", "options", "words"),
    [
        ("race-to-the-bottom", {"races": 5}, "races only applies to the Grand Prix: set grand_prix=True (RB-10)"),
        ("sprint", {"track_length": 10, "carrots": (4, 10)}, "carrots must be distinct increasing squares"),
        ("sprint", {"race_deck": (0, 0, 0, 0, 0, 0, 1, 1), "carrots": ()}, "carrot cards but the track has no carrot"),
        ("sprint", {"race_deck": (16,) * 8 + (1,)}, "race_deck must be 8 card counts"),
        (TOY, {"players": 4, "hand_size": 8}, "hand_size must deal no more than the 30 cards"),
    ],
)
def test_the_rules_that_tie_options_together_live_beside_the_spec(
    name: str, options: dict[str, Any], words: str
) -> None:
    spec = game_spec(name)
    assert spec.options_together is not None and spec.options_together.startswith(spec.engine.split(".engine")[0])
    with pytest.raises(ConfigError) as caught:
        load_game(name, **options)
    assert words in str(caught.value)
    both = {key: value for key, value in options.items() if key != "carrots"} | spec.option_needs.get("races", {})
    if name == "race-to-the-bottom":
        assert load_game(name, **both).config.races == 5  # with what it needs beside it, accepted


@pytest.mark.parametrize("name", GAMES)
def test_the_words_for_people_never_restate_a_declared_range(name: str) -> None:
    """A range stated in an option's words would be a second copy; OptionSpec.limits says it from the spec."""
    for option in game_spec(name).options():
        bounds = (option.low, option.high) if option.low is not None else option.items
        if bounds is None or option.name == "players":
            continue
        low, high = (f"{b:g}" for b in bounds)
        assert f"{low} to {high}" not in option.doc and f"at most {high}" not in option.doc, (option.name, option.doc)
        assert option.limits.endswith(f"{low} to {high}")
    sprint = {option.name: option.limits for option in game_spec("sprint").options()}
    assert (sprint["track_length"], sprint["race_deck"], sprint["players"]) == ("5 to 60", "each 0 to 128", "1 to 20")
