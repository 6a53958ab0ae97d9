"""The words people read, and the icons beside them (engine and render layers).

- Cards are named as the rulebooks name them: a ten reads ``10`` in every log line, explanation,
  card face and tooltip; ``T`` stays the table notation, and ``10`` is read wherever ``T`` is.
- Players are ``Player 1``..``Player N``, never ``seat 0``; plurals are real words, never ``(s)``.
- Icons are inline SVG from :func:`sloth_kernel.render.kit.icon`; no emoji anywhere in
  ``sloth_kernel`` (its source and its HTML).
"""

from __future__ import annotations

import functools
import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from positions import reached

import sloth_kernel
from sloth_kernel import available_games, game_spec, load_game
from sloth_kernel.errors import counted, plural
from sloth_kernel.games.race_to_the_bottom.engine import EVERY_MOVE, Pitch, Play
from sloth_kernel.games.race_to_the_bottom.melds import card_word, read_cards
from sloth_kernel.render import kit, render_observation

RACE = "race-to-the-bottom"
OWN_GAMES = [name for name in available_games() if game_spec(name).engine.startswith("sloth_kernel.")]
TENS = [move for move in EVERY_MOVE if "T" in str(move).split() or "*T" in str(move).split() or str(move) == "pitch T"]

# --- finding what must not be read ------------------------------------------------------------------

TEN_AS_T = re.compile(r"(?<![A-Za-z0-9_'\-])\*?T(?![A-Za-z0-9_'\-])")
"""A card token ``T`` (or a Joker's ``*T``) standing alone in prose: "(9 T J)", "a T"."""
SEAT_NUMBER = re.compile(r"\bseat\s+\d", re.IGNORECASE)
EMOJI = re.compile("[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\ufe0f]")
READ_ATTRIBUTES = {"title", "aria-label", "alt", "placeholder", "label"}


class _Readable(HTMLParser):
    """The text of an HTML fragment a person reads: text nodes and the attributes that are spoken or shown."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.in_style = tag == "style"
        self.parts.extend(value for name, value in attrs if name in READ_ATTRIBUTES and value)

    def handle_endtag(self, tag: str) -> None:
        self.in_style = False

    def handle_data(self, data: str) -> None:
        if not self.in_style:
            self.parts.append(data)


def readable(html_text: str) -> list[str]:
    parser = _Readable()
    parser.feed(html_text)
    parser.close()
    return parser.parts


def problems(text: str) -> list[str]:
    """What is wrong with one piece of text people read (empty when nothing is)."""
    found = [f"a ten written T: {m.group()!r} in {text!r}" for m in TEN_AS_T.finditer(text)]
    found += [f"a 0-based seat in {text!r}" for _ in SEAT_NUMBER.finditer(text)]
    found += [f"'(s)' in {text!r}"] if "(s)" in text else []
    found += [f"an emoji in {text!r}" for _ in EMOJI.finditer(text)]
    return found


def test_the_checks_can_fail() -> None:
    assert problems("Player 1 plays a Run of 2 (T J): 33 cards left.")
    assert problems("a Run of 4 (8 9 *T J)")
    assert problems("seat 0: the deal is pending")
    assert problems("1 Joker(s)")
    assert problems("\U0001f3c6")
    assert readable('<svg aria-label="T"><title>T</title></svg>') == ["T", "T"]
    assert not problems("Player 1 plays a Run of 2 (10 J): 1 card left. Tortoise +3, T-shirt, it's Tim's")
    assert readable('<div data-card="T" class="T"><style>.T{}</style>10</div>') == ["10"]


def _playouts(name: str, seeds: range, *, explain_every: int) -> Iterator[tuple[str, str]]:
    """(where, text) for every log line, some explanations and the final render, over random games."""
    game = load_game(name)
    for seed in seeds:
        state = game.new_state(seed)
        rng = random.Random(seed)
        step = 0
        while not state.is_over:
            moves = state.legal_moves()
            if step % explain_every == 0:
                for move in moves[:60]:
                    yield f"{name} seed {seed} explain {move}", state.explain(move).reason
                for move in rng.sample(game.all_moves(), min(30, len(game.all_moves()))):
                    yield f"{name} seed {seed} explain {move}", state.explain(move).reason
            if step % (explain_every * 4) == 0:
                for seat in range(game.num_players):
                    for part in readable(render_observation(state.observation(seat))):
                        yield f"{name} seed {seed} step {step} render for seat {seat}", part
            state = state.play(rng.choice(moves))
            step += 1
        for event in state.log:
            yield f"{name} seed {seed} log", str(event)
        for seat in [*range(game.num_players), None]:
            observation = state.view() if seat is None else state.observation(seat)
            for part in readable(render_observation(observation)):
                yield f"{name} seed {seed} final render for {seat}", part


@functools.cache
def played_out(name: str) -> tuple[tuple[str, str], ...]:
    """The (where, text) of six random games of `name` (:func:`_playouts`), played once per test
    process and read by both tests below (``make test-unit`` runs a file's tests in one worker)."""
    return tuple(_playouts(name, range(6), explain_every=3))


@pytest.mark.parametrize("name", OWN_GAMES)
def test_log_explanations_and_renders_read_as_words(name: str) -> None:
    """No ten written T, no 0-based seat, no '(s)' and no emoji in what people read, over random games."""
    found = [f"{where}: {problem}" for where, text in played_out(name) for problem in problems(text)]
    assert not found, "\n".join(found[:20])


def test_race_playouts_do_show_tens() -> None:
    """The playouts above meet tens (so the check of their words means something), shown as 10."""
    texts = [text for _, text in played_out(RACE)]
    assert any(re.search(r"(?<![0-9])\*?10(?![0-9])", text) and ("Run" in text or "10s" in text) for text in texts)


# --- a ten: 10 for people, T in the notation, both read -------------------------------------------


@given(st.sampled_from(TENS), st.data())
def test_ten_written_10_is_the_same_move_as_t(move: Play | Pitch, data: st.DataObject) -> None:
    game = load_game(RACE)
    words = str(move).split()
    written = [
        data.draw(st.sampled_from([word.replace("T", ten) for ten in ("T", "t", "10")])) if "T" in word else word
        for word in words
    ]
    assert game.parse_move(" ".join(written)) is move
    assert game.parse_move(str(move).replace("T", "10")) is game.parse_move(str(move))


@given(st.sampled_from(EVERY_MOVE))
def test_race_moves_read_back_from_their_words(move: object) -> None:
    """What people are shown (a meld's words, ``pitch 10``) is itself a move that reads back."""
    shown = move.words if isinstance(move, (Play, Pitch)) else str(move)
    assert "T" not in shown.split() and "*T" not in shown.split()
    assert load_game(RACE).parse_move(shown) is move


def test_ten_describes_as_10() -> None:
    game = load_game(RACE)
    run = game.parse_move("9 T J")
    assert isinstance(run, Play)
    assert str(run) == "9 T J" and run.words == "9 10 J"
    assert run.describe() == "a Run of 3 (9 10 J)"
    assert game.parse_move("T *T").describe() == "a Pair of 10s (10, Joker as a 10)"
    assert game.parse_move("pitch 10") is game.parse_move("pitch T")
    assert card_word("T") == "10" and card_word("*T") == "*10" and card_word("Q") == "Q"


def test_deals_read_10_as_a_ten() -> None:
    assert read_cards("10 T t J", "deck") == read_cards(["T", "T", "T", "J"], "deck")


def test_a_ten_card_shows_10() -> None:
    game = load_game(RACE, players=2)
    deal = {"hands": [["T", "10", "9"], ["2"]], "decks": [["3"], ["4"]], "leader": 0}
    state = game.from_deal(deal)
    html_text = render_observation(state.observation(0))
    assert 'aria-label="10"' in html_text and 'data-card="T"' in html_text
    state = state.play("10 10")
    assert "Pair of 10s" in state.log[-1].text
    assert not [p for text in readable(render_observation(state.view())) for p in problems(text)]


# --- plurals ------------------------------------------------------------------------------------


@given(st.integers(min_value=0, max_value=10**6))
def test_counted_is_a_real_plural(count: int) -> None:
    words = counted(count, "Trophy", "Trophies")
    assert words == (f"{count} Trophy" if count == 1 else f"{count} Trophies")
    assert counted(count, "card") == f"{count} {'card' if count == 1 else 'cards'}"
    assert plural(count, "key") in ("key", "keys") and "(" not in words


def test_unknown_options_are_named_in_the_singular_or_the_plural() -> None:
    with pytest.raises(sloth_kernel.SlothKernelError, match=r"unknown option 'colour';"):
        load_game(RACE, colour=1)
    with pytest.raises(sloth_kernel.SlothKernelError, match=r"unknown options 'a', 'b';"):
        load_game(RACE, a=1, b=2)


# --- icons --------------------------------------------------------------------------------------

REQUIRED_ICONS = [
    "trophy",
    "chip",
    "drink",
    "flag",
    "tortoise",
    "hare",
    "eye",
    "warning",
    "baby",
    "sloth",
    "star",
    "play",
    "pass",
    "lift",
    "replay",
    "dice",
    "refresh",
    "download",
    "keyboard",
    "clock",
]
SVG = "{http://www.w3.org/2000/svg}"


def _svg(text: str) -> ET.Element:
    """An icon parsed as XML (with the SVG namespace the browser gives inline SVG)."""
    return ET.fromstring(text.replace("<svg ", f'<svg xmlns="{SVG[1:-1]}" ', 1))


def test_the_icon_set_has_every_name_asked_for() -> None:
    assert set(REQUIRED_ICONS) <= set(kit.icon_names())
    for alias in ("coin", "glass", "finish", "hidden", "hand", "up", "film", "new-deal"):
        assert alias in kit.icon_names()


@pytest.mark.parametrize("name", kit.icon_names())
def test_each_icon_is_well_formed_svg_without_ids(name: str) -> None:
    decorative = _svg(kit.icon(name))
    assert decorative.get("aria-hidden") == "true" and decorative.get("role") is None
    assert decorative.find(f"{SVG}title") is None
    labelled = _svg(kit.icon(name, "Trophy", 24))
    assert labelled.get("role") == "img" and labelled.get("aria-label") == "Trophy"
    assert labelled.get("width") == labelled.get("height") == "24"
    assert labelled.findtext(f"{SVG}title") == "Trophy"
    assert labelled.get("stroke") == "currentColor"
    assert all(element.get("id") is None for element in labelled.iter())
    assert len(list(labelled)) >= 2  # a title and at least one shape


@given(st.text(max_size=40), st.sampled_from(kit.icon_names()), st.integers(1, 512))
def test_icon_labels_are_escaped(label: str, name: str, size: int) -> None:
    label = "".join(c for c in label if c.isprintable())  # XML 1.0 cannot hold control characters
    element = _svg(kit.icon(name, label, size))
    if label:
        assert element.get("aria-label") == label and element.findtext(f"{SVG}title") == label
    else:
        assert element.get("aria-hidden") == "true"


def test_icon_refuses_unknown_names_and_sizes() -> None:
    with pytest.raises(ValueError, match="no icon named"):
        kit.icon("unicorn")
    for size in (0, -3, 10_000, 1.5, True):
        with pytest.raises(ValueError, match="size"):
            kit.icon("star", size=size)  # type: ignore[arg-type]


def test_icon_count_tells_its_count_in_words() -> None:
    three = kit.icon_count("trophy", 3, "Trophy", "Trophies")
    assert three.count("sk-icon-trophy") == 3 and 'aria-label="3 Trophies"' in three
    assert 'aria-label="1 Cash Chip"' in kit.icon_count("chip", 1, "Cash Chip")
    none = kit.icon_count("drink", 0, "Suspicious Drink")
    assert "<svg" not in none and 'aria-label="0 Suspicious Drinks"' in none
    many = kit.icon_count("chip", 12, "Cash Chip")
    assert many.count("<svg") == 1 and "×12" in many


# --- no emoji ---------------------------------------------------------------------------------


def test_no_emoji_in_sloth_kernel_source() -> None:
    """Every file of the package (lessons' text is kept by its own issue) is free of emoji."""
    root = Path(sloth_kernel.__file__).parent
    found = []
    for path in sorted(root.rglob("*")):
        if not path.is_file() or path.name == "lessons.py" or path.suffix not in (".py", ".json", ".md", ".html"):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if EMOJI.search(line):
                found.append(f"{path.relative_to(root)}:{number}: {line.strip()[:80]}")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("name", OWN_GAMES)
def test_no_emoji_in_any_render(name: str) -> None:
    """The whole HTML (markup, styles, attributes) of a few positions of each game, every viewer."""
    for seed, steps in ((1, 0), (2, 7), (3, 40), (4, 400)):
        state = reached(name, seed, steps)
        for seat in [*range(state.game.num_players), None]:
            html_text = render_observation(state.view() if seat is None else state.observation(seat))
            assert not EMOJI.search(html_text), (name, seed, steps, seat, EMOJI.findall(html_text))
