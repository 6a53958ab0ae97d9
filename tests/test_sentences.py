"""Every sentence a player reads, gathered from many seeded games and checked against the house rules.

The walk plays random legal games of each game under several option sets (Grand Prix, Super
Surplus, Babies, the Young Tortoise, 3 to 5 players) and gathers what people read:

- ``explain`` for every legal move, a sample of illegal ones and some bad notation;
- the refusals ``play`` raises (bad notation, an illegal move, out of turn, after the end, a bad seat);
- every log event's text;
- the renderers' HTML, as the text a person reads (tags stripped);
- the boards' words (turn line, seat facts, standings) as a bot game is played on them.

Each sentence must have no ``(s)``, no ``seat N``, no ``T`` for a ten, no Python names or reprs,
correct articles ("an 8"), ordinals rather than "in place 2", players numbered within 1..players,
and cite only rule ids that exist (in ``RULINGS.md`` or the game's rule table).
"""

from __future__ import annotations

import functools
import html
import random
import re
import tokenize
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sloth_widgets import Board
from sloth_widgets.testing import visible_text

from sloth_kernel import load_game
from sloth_kernel.errors import SlothKernelError
from sloth_kernel.render import render_observation

# --- the rule ids that exist --------------------------------------------------------------------

RULE_ID = re.compile(r"\b(?:TS|SS|RB|SP)-\d+\b")
"""A rule id as sentences cite it (the four games' prefixes)."""
ID_SHAPE = re.compile(r"^[A-Z]{2}-\d+$")
RULINGS = Path(__file__).parents[2] / "shared" / "RULINGS.md"
"""The rulings, beside the repository when it is checked out with them (``../shared/RULINGS.md``)."""


def known_ids() -> set[str]:
    """Every rule id of the rulings file (when it is at hand) and of the four games' rule tables."""
    ids: set[str] = set()
    if RULINGS.is_file():
        ids |= set(re.findall(r"^- \*\*([A-Z]{2}-\d+)\b", RULINGS.read_text(encoding="utf-8"), re.M))
    for name in GAMES:
        ids |= {key for key in load_game(name).rules if ID_SHAPE.match(key)}
    return ids


# --- what must not be read ----------------------------------------------------------------------

CHECKS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("a '(s)' plural", re.compile(r"\w\((?:s|es|ies)\)")),
    ("a 0-based seat", re.compile(r"\bseat\s+\d", re.I)),
    ("a ten written T", re.compile(r"(?<![A-Za-z0-9_'\-*])(?<!\(or )\*?T(?![A-Za-z0-9_'\-])")),
    ("a Python name", re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b")),
    ("a Python value", re.compile(r"\b(?:None|True|False)\b|[\[\]{}]|<[a-z_.]+ object")),
    (
        "a tuple's repr",
        re.compile(r"\((?:\s*(?:-?\d+|'[^']*'|\"[^\"]*\")\s*,)+\s*(?:-?\d+|'[^']*'|\"[^\"]*\")?\s*\)"),
    ),
    ("'a' before a vowel sound", re.compile(r"\ba (?:8\d*|11|18|[AEFHILMNORSX])(?![\w-])")),
    ("'an' before a consonant sound", re.compile(r"\ban (?:[1-79]|1[02-79]|[2-79]\d)(?![\w-])")),
    ("two articles", re.compile(r"\b(?:the|a|an) (?:\w+ )?(?:a|an) (?=[A-Z0-9])")),
    (
        "a singular count with a plural noun",
        re.compile(
            r"(?<![\d.,-])(?<!Player )\b1 (?:cards|spaces|points|squares|Jokers|"
            r"Trophies|Cash Chips|drinks|wins|rounds|races|games)\b"
        ),
    ),
    ("a place as a number", re.compile(r"\bin place \d")),
    ("a numbered player", re.compile(r"\bPlayer 0\b")),
)


def problems(text: str, *, players: int, ids: set[str], cited: tuple[str, ...] = ()) -> list[str]:
    """What is wrong with one text people read (empty when nothing is)."""
    found = [f"{what}: {m.group()!r}" for what, pattern in CHECKS for m in pattern.finditer(text)]
    found += [
        f"Player {number} in a game of {players}"
        for number in re.findall(r"\bPlayers? (\d+)\b", text)
        if not 1 <= int(number) <= players
    ]
    for rule in [*RULE_ID.findall(text), *cited]:
        if not ID_SHAPE.match(rule):
            found.append(f"{rule!r} cited as a rule id")
        elif rule not in ids:
            found.append(f"{rule} is no rule id")
    return found


# --- the walk -----------------------------------------------------------------------------------

GAMES = ("too-sloth-to-win", "surplus-of-sloths", "race-to-the-bottom", "sprint")
CONFIGS: dict[str, list[dict[str, Any]]] = {
    "too-sloth-to-win": [{"players": 3}, {"players": 4}, {"players": 5}, {"players": 4, "no_board": True}],
    "surplus-of-sloths": [
        {"players": 2},
        {"players": 3, "babies": True},
        {"players": 4, "babies": True, "baby_nets_itself": False},
        {"players": 3, "super_surplus": True},
    ],
    "race-to-the-bottom": [{"players": 2}, {"players": 3}, {"players": 4, "grand_prix": True}],
    "sprint": [{"players": 1}, {"players": 3, "young_tortoise": True}, {"players": 5, "small_track": True}],
}
BAD_TEXT = ("", "xyz", "2-x", "99", "pass 9", "8-8", "7-7", "10", "T", "pitch Q", "lift 40", "net X9", "1-2-3-4-5")
SEEDS = range(2)
EXPLAIN_EVERY = 4
RENDER_EVERY = 16


def strip_tags(markup: str) -> str:
    body = re.sub(r"<(style|script)\b.*?</\1>", " ", markup, flags=re.S)
    body = re.sub(r'\b(?:title|aria-label|alt)="([^"]*)"', r"> \1 <", body)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


Said = tuple[str, str, tuple[str, ...]]
"""(where, text, rule ids cited beside it)."""


def refusal(call: Callable[..., Any], *args: Any, **kwargs: Any) -> str:
    """The message of the typed error `call(*args, **kwargs)` raises (empty if it raises none)."""
    try:
        call(*args, **kwargs)
    except SlothKernelError as err:
        return str(err)
    return ""


def sentences(name: str, options: dict[str, Any], seed: int) -> Iterator[Said]:
    """Everything people read over one random game: explanations, refusals, the log and the renders."""
    game = load_game(name, **options)
    players = game.num_players
    every = game.all_moves()
    state = game.new_state(seed)
    rng = random.Random(seed)
    step = 0
    while not state.is_over:
        moves = state.legal_moves()
        here = f"{name} {options} seed {seed} step {step}"
        if step % EXPLAIN_EVERY == 0:
            asked = [*moves[:40], *rng.sample(every, min(25, len(every))), *BAD_TEXT]
            for move in asked:
                verdict = state.explain(move)
                yield f"{here} explain {str(move)!r}", str(verdict), verdict.rules  # as a board shows it
            for text in BAD_TEXT:
                yield f"{here} play {text!r}", refusal(state.play, text), ()
            other = (state.current_player + 1) % players
            if players > 1:
                yield f"{here} out of turn", refusal(state.play, moves[0], player=other), ()
            yield f"{here} bad seat", refusal(state.observation, players), ()
        if step % RENDER_EVERY == 0:
            for seat in range(players):
                yield (
                    f"{here} render for Player {seat + 1}",
                    strip_tags(render_observation(state.observation(seat))),
                    (),
                )
        state = state.play(rng.choice(moves))
        step += 1
    here = f"{name} {options} seed {seed} end"
    for event in state.log:
        yield f"{here} log", event.text, event.rules
    yield f"{here} render", strip_tags(render_observation(state.view())), ()
    for seat in range(players):
        yield f"{here} render for Player {seat + 1}", strip_tags(render_observation(state.observation(seat))), ()
    yield f"{here} explain after the end", state.explain(str(state.history[-1])).reason, ()
    yield f"{here} play after the end", refusal(state.play, str(state.history[-1])), ()


def board_words(name: str, options: dict[str, Any], seed: int) -> Iterator[Said]:
    """What a board shows while bots play a whole game on it (sampled every few moves)."""
    players = load_game(name, **options).num_players
    board = Board(name, seed=seed, seats=["random"] * players, **options)
    for step in range(2000):
        if step % 6 == 0 or board.state.is_over:
            yield f"{name} {options} seed {seed} board step {step}", visible_text(board), ()
        if board.state.is_over or not board.step():
            break


def walk(name: str) -> Iterator[tuple[int, Said]]:
    for options in CONFIGS[name]:
        players = load_game(name, **options).num_players
        for seed in SEEDS:
            for said in sentences(name, options, seed):
                yield players, said
        for said in board_words(name, options, 1):
            yield players, said


KINDS = ("explain", "play", "out of turn", "bad seat", "log", "render", "board")


@pytest.mark.parametrize("name", GAMES)
def test_every_sentence_reads_as_words(name: str) -> None:
    ids = known_ids()

    @functools.cache  # the walk reads many texts more than once (the same refusal, the same verdict)
    def faults(text: str, players: int, cited: tuple[str, ...]) -> list[str]:
        return problems(text, players=players, ids=ids, cited=cited)

    found: list[str] = []
    kinds: set[str] = set()
    for players, (where, text, cited) in walk(name):
        kinds |= {kind for kind in KINDS if f" {kind}" in where and text}
        found += [f"{where}: {problem} in {text!r}" for problem in faults(text, players, cited)]
    shown = sorted(set(found), key=found.index)
    assert not shown, f"{len(shown)} faults; the first:\n" + "\n".join(shown[:25])
    assert kinds == set(KINDS), f"the walk read no {set(KINDS) - kinds}"


# --- the checker finds what it is meant to find ---------------------------------------------------


@pytest.mark.parametrize(
    "bad",
    [
        "Player 1 plays 3 space(s)",
        "2 Joker(s) and 1 Trophy(ies)",
        "it is not seat 1's turn; seat 0 is to move",
        "a Run of 3 (9 T J)",
        "Player 2 does not hold a 8",
        "a 11 in the Net",
        "Nobody has a R run",
        "the option baby_nets_itself is on",
        "the winners are [0, 2]",
        "winner: None",
        "Player 1 took (3, 4)",
        "cannot beat the bigger an Oil Slick",
        "Player 2 has 1 cards left",
        "Player 3 crosses the finish line in place 2!",
        "Player 5 moves",
        "Player 0 moves",
        "a drink is never a Single (TS-99)",
        "an 7 is not there",
    ],
)
def test_the_checker_finds_each_kind_of_fault(bad: str) -> None:
    assert problems(bad, players=4, ids=known_ids())


def test_every_rule_id_of_the_rule_tables_is_a_ruling() -> None:
    if not RULINGS.is_file():
        pytest.skip("the rulings are not checked out beside the repository")
    rulings = set(re.findall(r"^- \*\*([A-Z]{2}-\d+)\b", RULINGS.read_text(encoding="utf-8"), re.M))
    tables = {key for name in GAMES for key in load_game(name).rules if ID_SHAPE.match(key)}
    assert tables <= rulings and len(rulings) > 40


def test_the_checker_refuses_a_rule_name_cited_as_an_id() -> None:
    ids = known_ids()
    assert problems("lifting 5 over", players=1, ids=ids, cited=("SP-4", "Young Tortoise"))
    assert not problems("lifting 5 over", players=1, ids=ids, cited=("SP-4",))


@pytest.mark.parametrize(
    "good",
    [
        "Player 1 plays a Run of 3 (9 10 J): 1 card left.",
        "Player 2 holds only one 8 (TS-2)",
        "an 8, an 11, an 18, a 7, a 10, a Single 9",
        "Player 4 finishes second; T-shirt, it's Tim's",
        "not a move in this game: 'pitch T' — 'Z' is not a card, e.g. write 'pass 6'",
        "nobody holds R (SS-8)",
    ],
)
def test_the_checker_passes_good_words(good: str) -> None:
    assert not problems(good, players=4, ids=known_ids())


def test_every_game_has_a_config_with_the_most_players() -> None:
    assert {load_game(name, **options).num_players for name in ("too-sloth-to-win",) for options in CONFIGS[name]} == {
        3,
        4,
        5,
    }
    assert any(options.get("grand_prix") for options in CONFIGS["race-to-the-bottom"])
    assert any(options.get("super_surplus") for options in CONFIGS["surplus-of-sloths"])


# --- the word defects of issue 16, one test each ------------------------------------------------------

TS, SS, RB, SP = GAMES
FILLER = "2 3 4 5 6 7 8 9 T J Q K A"


def ts_deal(hands: list[str], **options: Any) -> Any:
    return load_game(TS, players=len(hands), **options).from_deal({"hands": hands, "pacemaker": 0})


def rb_deal(hands: list[str]) -> Any:
    decks = [" ".join(c for c in FILLER.split() if hand.split().count(c) < 4) for hand in hands]
    return load_game(RB, players=len(hands)).from_deal({"hands": hands, "decks": decks, "leader": 0})


def string_literals(path: Path) -> Iterator[tuple[int, str]]:
    """(line, text) of every string literal of a Python file, an f-string's {fields} left out."""
    with path.open("rb") as source:
        for token in tokenize.tokenize(source.readline):
            if token.type == tokenize.STRING or token.type == getattr(tokenize, "FSTRING_MIDDLE", -1):
                text = token.string
                while re.search(r"\{[^{}]*\}", text):
                    text = re.sub(r"\{[^{}]*\}", "", text)
                yield token.start[0], text


def test_no_plural_in_parentheses_is_left_in_any_string_of_the_source() -> None:
    """'space(s)', 'Joker(s)', 'Trophy(ies)': none in any string of the engines, renderers or boards."""
    root = Path(__file__).parents[1]
    found = [
        f"{path.relative_to(root)}:{line}: {text}"
        for folder in ("sloth_kernel", "widgets")
        for path in sorted((root / folder).rglob("*.py"))
        for line, text in string_literals(path)
        if re.search(r"\w\((?:s|es|ies)\)", text) and "never" not in text
    ]
    assert not found, "\n".join(found)


def test_players_are_named_from_1_when_out_of_turn() -> None:
    state = load_game(TS, players=4).new_state(3)
    mover = state.current_player
    other = (mover + 1) % 4
    with pytest.raises(SlothKernelError) as caught:
        state.play(state.legal_moves()[0], player=other)
    assert f"it is not Player {other + 1}'s turn; Player {mover + 1} is to move" in str(caught.value)
    assert not problems(str(caught.value), players=4, ids=known_ids())


def test_holding_one_8_and_trying_8_8_says_so() -> None:
    state = ts_deal(["1 2 3 4 5 6 8 D", "1 2 3 4 5 6 7 D", "1 2 3 4 5 6 7 D", "1 2 3 4 5 6 7 D"])
    verdict = state.explain("8-8")
    assert not verdict.legal and verdict.reason == "Player 1 holds only one 8" and verdict.rules == ("TS-2",)
    assert state.explain("7-7").reason == "Player 1 holds no 7s"
    assert state.explain("6-D6-D6").reason.startswith("at most one drink")
    assert state.explain("8-D8").legal


def test_a_7_or_an_8_with_3_players_cites_ts_1() -> None:
    state = load_game(TS, players=3).new_state(0)
    for move in ("7", "8-8", "6-7-8"):
        verdict = state.explain(move)
        assert not verdict.legal and verdict.rules == ("TS-1",), verdict
        assert verdict.reason == "there are no 7s or 8s with 3 players: they are taken out of the deck"


def test_a_pass_taking_a_middle_card_names_the_ends() -> None:
    state = ts_deal(["4 5 6 1 1 1 1 D", "2 3 7 8 D", "2 3 7 8 D", "2 3 7 8 D"]).play("4-5-6")
    verdict = state.explain("pass 5")
    assert not verdict.legal and verdict.reason == "a pass takes a card from either end of Run 4-5-6: the 4 or the 6"
    assert "any card of" not in verdict.reason


def test_a_drink_on_the_table_reads_as_words_not_its_inner_number() -> None:
    state = ts_deal(["5 1 1 2 2 3 3 D", "2 3 7 8 D", "2 3 7 8 D", "2 3 7 8 D"]).play("5-D6")
    shown = strip_tags(render_observation(state.view()))
    assert "Suspicious Drink as a 6" in shown and not re.search(r"\b1[1-9]\b", shown.split("Log")[0])
    assert "Suspicious Drink as an 8" in strip_tags(
        render_observation(ts_deal(["7 1 1 2 2 3 3 D", "2 3 6 8 D", "2 3 6 8 D", "2 3 6 8 D"]).play("7-D8").view())
    )


def test_a_smaller_cheat_names_the_bigger_one_with_its_own_article() -> None:
    state = rb_deal(["5 5 5 5 * 2 3", "9 9 9 9 2 3 4"]).play("5 5 5 5 *5")
    verdict = state.explain("9 9 9 9")
    assert not verdict.legal and verdict.rules == ("RB-6",)
    assert (
        verdict.reason
        == "a Smokescreen of 9s cannot beat an Oil Slick of 5s (5, 5, 5, 5, Joker as a 5), a bigger Cheat"
    )
    assert "the bigger an" not in verdict.reason


def test_pitches_count_cards_and_finishers_are_ordinals() -> None:
    """Grand Prix games: 'pitched 6 cards', 'second', and a race summary naming every player."""
    game = load_game(RB, players=4, grand_prix=True)
    state, rng = game.new_state(0), random.Random(0)
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
    texts = [event.text for event in state.log]
    pitches = [text for text in texts if " pitched " in text]
    assert pitches and all(re.search(r"pitched (nothing|1 card|[2-6] cards) and draws", text) for text in pitches)
    assert any("pitched 1 card " in text for text in pitches) and any(" cards and draws" in text for text in pitches)
    finishes = [text for text in texts if "crosses the finish line" in text]
    assert {text.rsplit(" ", 1)[-1] for text in finishes} == {"first!", "second!", "third!"}
    summaries = [text for text in texts if text.startswith("Race over")]
    assert len(summaries) == 3
    for summary in summaries:
        assert all(f"Player {n}" in summary for n in range(1, 5)), summary
        assert re.search(
            r"Player \d wins, Player \d is second, Player \d is third; then by fewest cards left: "
            r"Player \d fourth \(\d+ cards? left\)\.$",
            summary,
        ), summary


def test_the_race_summary_names_ties_and_every_place() -> None:
    from sloth_kernel.games.race_to_the_bottom.engine import race_summary

    words = race_summary((2, 3, 0, 1), [2], [3, 3, 1, 2], (5, 5, 0, 1))
    assert words == (
        "Race over: Player 3 wins; then by fewest cards left: Player 4 second (1 card left), "
        "Player 1 equal third (5 cards left), Player 2 equal third (5 cards left)."
    )
    assert race_summary((1, 0), [1, 0], [2, 1], (0, 0)) == "Race over: Player 2 wins, Player 1 is second."


def test_nobody_with_a_run_is_said_with_the_types_name() -> None:
    from sloth_kernel.games.surplus_of_sloths.cards import SLOTH_TYPES, profiles, reveal_type
    from sloth_kernel.games.surplus_of_sloths.engine import CODE_IDS
    from sloth_kernel.games.surplus_of_sloths.render import taken_by

    def reveal(letter: str, hands: list[str], net: str) -> Any:
        t = next(i for i, kind in enumerate(SLOTH_TYPES) if kind.letter == letter)
        ids = [[CODE_IDS[c] for c in hand.split()] for hand in hands]
        return reveal_type(t, [profiles(h, 6)[t] for h in ids], profiles([CODE_IDS[c] for c in net.split()], 6)[t])

    nobody = reveal("R", ["S1 S2", "L3"], "R4")
    assert "Nobody has a Pygmy run, so the R cards stay in the Net (SS-8)." in nobody.lines[1]
    assert taken_by(nobody) == "nobody has a Pygmy run"
    tie = reveal("R", ["R1 R2", "R1 R2"], "R4")
    assert tie.winner is None and taken_by(tie) == "nobody: a tie"
    assert taken_by(reveal("R", ["R1 R2", "R3"], "R4")) == "Player 1"


def test_the_baby_refusal_names_no_option() -> None:
    game = load_game(SS, players=3, babies=True, baby_nets_itself=False)
    for seed in range(40):
        state, rng = game.new_state(seed), random.Random(seed)
        while not state.is_over:
            if "keep" in [str(m) for m in state.legal_moves()] and "Baby" in str(state.explain("net Baby")):
                verdict = state.explain("net Baby")
                if not verdict.legal and "Baby is not in your hand" not in verdict.reason:
                    assert verdict.reason == (
                        "in this game a Baby never nets itself: put another card into the Net, or keep"
                    )
                    assert not problems(verdict.reason, players=3, ids=known_ids())
                    return
            state = state.play(rng.choice(state.legal_moves()))
    pytest.fail("no seed reached a drafted Baby")


def test_the_young_tortoise_is_named_in_words_and_cites_sp_4() -> None:
    state = load_game(SP, players=2, young_tortoise=True).new_state(0)
    objective = state.view().objective
    verdict = state.explain(f"lift {objective + 1}")
    assert verdict.rules == ("SP-4",) and "the Young Tortoise variant of SP-4" in verdict.reason


REFUSED_AS = {
    TS: ("1-9-9", "8-8-8-8"),
    SS: ("pick Z9", "take R1 from row 1"),
    RB: ("K A 2", "2 2 2 2 2 2 2 2"),
    SP: ("lift ninety", "lift 40"),
}


@pytest.mark.parametrize("name", GAMES)
def test_one_style_for_every_refusal(name: str) -> None:
    """'<verdict>: <input> — <why>' for bad notation, an illegal move, out of turn, after the end, a bad seat."""
    game = load_game(name)
    state = game.new_state(1)
    unreadable, _ = REFUSED_AS[name]
    messages = {"notation": refusal(state.play, unreadable), "seat": refusal(state.observation, 9)}
    messages["object"] = refusal(state.play, 3)
    illegal = next((move for move in game.all_moves() if not state.explain(move).legal), None)
    if illegal is not None:  # every lift is legal in Sprint!
        messages["illegal"] = refusal(state.play, illegal)
    if game.num_players > 1:
        messages["turn"] = refusal(state.play, state.legal_moves()[0], player=(state.current_player + 1) % 2)
    over, rng = state, random.Random(1)
    while not over.is_over:
        over = over.play(rng.choice(over.legal_moves()))
    messages["over"] = refusal(over.play, str(over.history[-1]))
    style = re.compile(r"^(not a move in this game|not legal here|not a seat of this game): \S.* — \S.*[^.]$")
    for kind, message in messages.items():
        assert style.match(message), (kind, message)
        assert not problems(message, players=game.num_players, ids=known_ids()), (kind, message)
    assert messages["notation"].startswith(f"not a move in this game: {unreadable!r} — ")
    assert messages["object"] == "not a move in this game: 3 — a move is text or one of the game's moves, not an int"
    assert messages["over"].endswith("— the game is over; no more moves")
    assert messages["seat"].startswith("not a seat of this game: 9 — a seat is a whole number from 0 to ")
    if illegal is None:
        return
    verdict = state.explain(illegal)
    assert messages["illegal"] == f"not legal here: {illegal.words!r} — {verdict.reason}" + (
        f" ({', '.join(verdict.rules)})" if verdict.rules else ""
    )


def test_a_ten_typed_as_10_is_refused_and_shown_as_10() -> None:
    state = rb_deal(["2 3 4", "5 6 7"])
    message = refusal(state.play, "10 10")
    assert message.startswith("not legal here: '10 10' — ") and "T" not in message.split("—")[0], message


def test_a_drafted_baby_is_said_with_its_article() -> None:
    from sloth_kernel.games.surplus_of_sloths.engine import Take, _take_event, netted_words

    assert netted_words("Baby") == "the Baby itself" and netted_words("R5") == "Pygmy 5"
    event = _take_event(0, Take("Baby", 1), True)
    assert event.text.startswith("Player 1 takes a Baby from row 1; everyone drafts from row 1 this round, so they")


def test_an_explanation_reads_as_the_log_cites_rules() -> None:
    verdict = ts_deal(["1 2 3 4 5 6 8 D", "1 2 3 4 5 6 7 D", "1 2 3 4 5 6 7 D", "1 2 3 4 5 6 7 D"]).explain("8-8")
    assert str(verdict) == "Not legal: Player 1 holds only one 8 (TS-2)"


def test_a_refused_cut_is_in_the_one_style() -> None:
    state = load_game(SP).new_state(0)
    message = refusal(state.lift_from_cut, 1.5)
    assert message == (
        "not a move in this game: 1.5 — a cut point is a number from 0, the top of the Race pile, to 1, its bottom (SP-7)"
    )


# --- every entry of a rule table is cited somewhere a person reads it ---------------------------------

PACKAGES = {
    "too-sloth-to-win": "too_sloth_to_win",
    "surplus-of-sloths": "surplus_of_sloths",
    "race-to-the-bottom": "race_to_the_bottom",
    "sprint": "sprint",
}


def cited_in_source(path: Path) -> set[str]:
    """Rule ids in a module's strings that are neither docstrings nor the rule table itself: the events'
    ``rules``, refusals, option help and lesson sentences it writes."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                skipped.add(id(first.value))
        if isinstance(node, ast.AnnAssign | ast.Assign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "RULES" for t in targets) and node.value is not None:
                skipped |= {id(sub) for sub in ast.walk(node.value)}
    return {
        rule
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skipped
        for rule in RULE_ID.findall(node.value)
    }


def test_the_citation_scan_skips_docstrings_and_the_table(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text('"""About TS-1."""\nRULES = {"TS-2": "see TS-3"}\nEvent("x", rules=("TS-4",))\n')
    assert cited_in_source(module) == {"TS-4"}


@pytest.mark.parametrize("name", GAMES)
def test_every_rule_table_entry_is_cited(name: str) -> None:
    """No entry of ``Game.rules`` is unused: each id is cited by an event, an explanation, a refusal or a
    lesson (the walk's sentences, every scripted lesson replayed, and the game's own modules' sentences,
    for the cases a random walk seldom meets)."""
    from sloth_kernel.lessons import all_lessons

    cited: set[str] = set()
    for _, (_, text, ids) in walk(name):
        cited |= set(RULE_ID.findall(text)) | set(ids)
    for lesson in all_lessons().values():
        if lesson.game != name:
            continue
        state = lesson.start()
        cited |= set(RULE_ID.findall(lesson.about))
        for move in lesson.moves:
            cited |= set(state.explain(move).rules)
            state = state.play(move)
        cited |= {rule for event in state.log for rule in (*event.rules, *RULE_ID.findall(event.text))}
    package = Path(__file__).parents[1] / "sloth_kernel" / "games" / PACKAGES[name]
    for path in sorted(package.glob("*.py")):
        cited |= cited_in_source(path)
    table = {rule for rule in load_game(name).rules if ID_SHAPE.match(rule)}
    assert table and not table - cited, f"rule entries nothing cites: {sorted(table - cited)}"


@pytest.mark.parametrize("name", GAMES)
def test_every_rule_table_entry_reads_as_words(name: str) -> None:
    """A rule's words open from its id on every board: they pass the same checks as every sentence."""
    game = load_game(name)
    found = {
        rule: faults for rule, words in game.rules.items() if (faults := problems(words, players=5, ids=known_ids()))
    }
    assert not found, found
