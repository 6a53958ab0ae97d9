"""A conformance check for game authors: ``check_game(name)``, as OpenSpiel authors run ``random_sim_test``.

It plays the game the way the shared layers will (random playouts to the end, from fixed seeds, with
several player counts its spec allows) and checks the protocol at every step and at a sample of the
positions reached::

    from sloth_kernel.testing import check_game

    check_game("my-game")  # returns a CheckReport; raises ConformanceError naming every failure

The checks, each named in a failure:

- ``playout``: until the end, legal moves are there and are distinct, hashable moves whose notation reads
  back, and the log never shows a move as code (its ``repr``); the seat to move is a seat and its
  observation offers exactly those moves (the others none);
  playing a legal move never raises, leaves the old state as it was, adds the move to the history and
  narrates it; the game ends within its spec's ``max_length``; at the end no move is legal, nobody is
  to move and ``returns()`` gives one number from 0 to 1 per seat (adding up to 1, or all the same in a
  cooperative game); observations are frozen plain data starting with ``OBSERVATION_FIELDS``.
- ``record``: a record (through JSON text) replays to the same view, record, log and observations, by
  ``replay`` and ``from_record``; a record handed out is a fresh copy.
- ``explain``: every legal move explains as legal (as a move and as text), a sample of the game's other
  moves as refused with a reason, the same reason ``play`` refuses it with.
- ``hidden``: observations hold no hidden state. Worlds consistent with a seat's observation (the game's
  ``world_sampler``, else its ``hypothetical_worlds``, else its search's ``prepare``) must give that seat
  the same observation; and where deals are known (the spec's lessons, or ``deals=``), re-dealing cards
  between two other seats' hands through ``from_deal`` must not change what a seat sees. The public
  observation (``public_observation()``, a spectator's) is the game's own observation type for nobody's seat
  (``player=NO_PLAYER``, no moves), agrees with every part all the seats' observations agree on, and is the
  same in every one of those worlds: it shows nothing any seat hides.
- ``declarations``: what the spec declares about the game holds. ``hidden_information=False``: every seat's
  observation is the open view (``view()``) but for its viewer and its moves. ``chance_after_deal=False``:
  each playout, replayed from the same deal with another seed, stays the same game move by move.
- ``bad input``: malformed move text and non-moves, look-alike seats and seeds, unknown and out-of-range
  options, tampered records and malformed deals each raise a ``SlothKernelError`` of the documented kind
  and leave the state as it was; ``explain`` answers them without raising.
- ``render``: the renderer gives text for an observation and the omniscient view (no ``<svg>`` needed).
- ``bots``: every bot level (``random``, the spec's, ``ismcts`` with a small budget) picks a legal move.
- ``reveals``: the spec's ``reveal_kinds`` (the moments a board shows as steps of their own) are distinct,
  non-empty names; an event of one of them is never a move itself (a board stages those that follow a
  move; before the first move they stage nothing) and is in every seat's log as in the omniscient view (what a step shows is public, or the seat's own:
  the ``hidden`` check covers the observation fields that carry it). A declared kind no playout
  reached is a note.

``playout`` also checks that a copy is independent (``clone()``, and ``play`` leaving its state as it was)
and that ``view()`` is frozen plain data too.

It needs nothing but the engine (no pytest, no Hypothesis): every choice comes from ``random.Random``
with fixed seeds, so a run repeats exactly. It assumes nothing about a game's length.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sloth_kernel.core import NO_PLAYER, OBSERVATION_FIELDS, Game, GameState, Move
from sloth_kernel.errors import (
    ConfigError,
    ConformanceError,
    DealError,
    IllegalMoveError,
    InvalidMoveError,
    RecordError,
    SeatError,
    SlothKernelError,
    shorten,
)
from sloth_kernel.registry import from_record, game_class, game_spec, load_game
from sloth_kernel.spec import GameSpec

State = GameState[Any, Any]

CHECKS = ("playout", "record", "explain", "hidden", "declarations", "bad input", "render", "bots", "reveals")
"""The checks ``check_game`` runs, by the names its failures carry."""

BAD_TEXT = ("", "   ", "\x00", "?!", "zz top", "not a move at all", "٣", "9" * 120, "x" * 1200)
"""Text no game reads as a move (other scripts' digits included: moves are ASCII)."""
NOT_MOVES: tuple[Any, ...] = (None, 12, 1.5, True, object(), ["play"], b"pass")
LOOK_ALIKE_SEATS: tuple[Any, ...] = (-1, True, False, 1.0, "0", None, [0], 2**70)
LOOK_ALIKE_SEEDS: tuple[Any, ...] = (-1, True, 1.5, 3.0, "3", [1], 2**256)


@dataclass(frozen=True)
class Failure:
    """One failed check: which check, in which playout (seed, players), after how many moves, and what differed."""

    check: str
    detail: str
    seed: int | None = None
    players: int | None = None
    moves: int | None = None

    def __str__(self) -> str:
        where = []
        if self.seed is not None:
            where.append(f"seed {self.seed}")
        if self.players is not None:
            where.append(f"{self.players} players")
        if self.moves is not None:
            where.append(f"after {self.moves} {'move' if self.moves == 1 else 'moves'}")
        return f"{self.check}{' (' + ', '.join(where) + ')' if where else ''}: {self.detail}"


@dataclass(frozen=True)
class CheckReport:
    """What ``check_game`` did: playouts, moves, positions checked in depth, and what it could not check."""

    game: str
    player_counts: tuple[int, ...]
    seeds: tuple[int, ...]
    games: int
    moves: int
    positions: int
    worlds: int = 0
    """Seats' observations checked against worlds consistent with them (world sampler, hypothetical worlds, search)."""
    redeals: int = 0
    """Deals re-dealt through ``from_deal`` (cards swapped between two other seats' hands) and checked."""
    notes: tuple[str, ...] = ()

    def __str__(self) -> str:
        counts = ", ".join(map(str, self.player_counts))
        text = (
            f"{self.game}: {self.games} {'game' if self.games == 1 else 'games'} played to the end "
            f"({counts} players), {self.moves} moves, {self.positions} positions checked in depth, "
            f"{self.worlds} observations against other worlds, {self.redeals} re-deals; every check passed"
        )
        return text + "".join(f"\n- {note}" for note in self.notes)


def _cut(err: BaseException, limit: int = 240) -> str:
    """An error's message on one line, cut to `limit` characters."""
    text = " ".join(str(err).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class _Run:
    """The failures found so far, each (check, detail) once, and where the check stands now."""

    def __init__(self) -> None:
        self.failures: list[Failure] = []
        self._seen: set[tuple[str, str]] = set()
        self.at_seed: int | None = None
        self.at_players: int | None = None
        self.at_moves: int | None = None
        self.worlds = 0  # positions checked against worlds consistent with an observation
        self.redealt = 0  # deals checked against a re-deal
        self.varied = 0  # worlds that differ from the real position (else the twin check proves nothing)

    def fail(self, check: str, detail: str) -> None:
        if (check, detail) in self._seen or len(self.failures) >= 200:
            return
        self._seen.add((check, detail))
        self.failures.append(Failure(check, detail, self.at_seed, self.at_players, self.at_moves))

    def guard(self, check: str, call: Callable[[], None]) -> None:
        """Run one check; an exception it did not expect is a failure of that check, named by its type."""
        try:
            call()
        except Exception as err:  # an engine bug: a failure to report, never a crash of the checker
            self.fail(check, f"raised {type(err).__name__}: {_cut(err)}")


def check_game(
    name: str,
    *,
    seeds: Sequence[int] = (0, 1),
    players: Sequence[int] | None = None,
    deals: Iterable[Mapping[str, Any]] = (),
    options: Mapping[str, Any] | None = None,
) -> CheckReport:
    """Check that the registered game `name` keeps the protocol (see the module docs for every check).

    `seeds` are the deals played out for each player count; `players` the counts (default: the
    fewest, the default and the most the spec allows); `deals` more deals in ``from_deal``'s format for
    the re-deal check (with `options`, and the default player count unless `options` names one);
    `options` other options for every game.
    Returns a :class:`CheckReport`; raises :class:`ConformanceError` listing every failure (each a
    :class:`Failure` in ``.failures``).
    """
    spec = game_spec(name)
    cls = game_class(name)
    run = _Run()
    base = dict(options or {})
    has_players = "players" in {f.name for f in dataclasses.fields(cls.config_class)}
    if players is None:
        low, high = spec.players
        counts = sorted({low, spec.default_players, high}) if has_players else [spec.default_players]
    else:
        counts = list(players)
    notes: list[str] = []
    games = moves = positions = 0
    reached: set[str] = set()  # the reveal kinds the playouts' logs held
    for count in counts:
        run.at_players, run.at_seed, run.at_moves = count, None, None
        try:
            game = load_game(name, **({**base, "players": count} if has_players else base))
        except SlothKernelError as err:
            run.fail("playout", f"load_game refused {count} players, which the spec allows: {err}")
            continue
        pool: list[str] = []  # moves seen in this game's playouts: candidates for illegal moves elsewhere
        for index, seed in enumerate(seeds):
            run.at_seed, run.at_moves = seed, 0
            played = _play_out(run, spec, game, seed, pool, render=index == 0)
            if played is None:
                continue
            final, sampled = played
            games += 1
            moves += len(final.history)
            for state in sampled:
                run.at_moves = len(state.history)
                positions += 1
                run.guard("playout", functools.partial(_check_position, run, spec, game, state, pool, notes))
            middle = sampled[len(sampled) // 2]
            run.at_moves = len(middle.history)
            huge = index == 0 and count == counts[0]  # a record over max_length: costly to read, read once
            run.guard("bad input", functools.partial(_check_bad_records, run, spec, game, middle, huge=huge))
            if index == 0:
                run.guard("bots", functools.partial(_check_bots, run, game, sampled))
            run.at_moves = len(final.history)
            run.guard("record", functools.partial(_check_record, run, game, final))
            if not spec.chance_after_deal:
                run.guard("declarations", functools.partial(_check_no_later_chance, run, game, seed, final))
            run.guard("reveals", functools.partial(_check_reveals, run, spec, game, final, reached))
    run.at_players, run.at_seed, run.at_moves = None, None, None
    run.guard("bad input", lambda: _check_options(run, spec, cls))
    lesson_deals: list[tuple[dict[str, Any], Mapping[str, Any]]] = []
    try:
        lessons = spec.load(spec.lessons) or ()
    except Exception as err:  # a broken lessons module: said, and the rest still checked
        run.fail("record", f"the spec's lessons do not load: {type(err).__name__}: {_cut(err)}")
        lessons = ()
    lesson_deals += [(dict(lesson.options or {}), lesson.deal) for lesson in lessons if lesson.deal]
    options_of = {"players": spec.default_players, **base} if has_players else base
    given = [(options_of, deal) for deal in deals]
    for extra, deal in lesson_deals + given:  # a lesson is a game of its own options
        run.guard("hidden", functools.partial(_check_redeal, run, name, extra, deal))
        run.guard("record", functools.partial(_check_deal_record, run, name, extra, deal))
    if run.worlds and not run.varied:
        notes.append(
            "hidden: every world consistent with an observation was the real position itself, so the twin-world "
            "check could not find a leak"
        )
    if not spec.hidden_information:
        notes.append(
            "hidden: the spec declares no hidden information, so every observation was checked against the open view"
        )
    elif not run.worlds and not run.redealt:
        notes.append(
            "hidden: no world sampler, hypothetical_worlds or search, and no deal of 3 or more hands to re-deal "
            "(give some with deals=): observations were not checked for hidden state"
        )
    unseen = [kind for kind in spec.reveal_kinds if kind not in reached]
    if unseen and games:
        notes.append(f"reveals: no playout reached an event of kind {', '.join(map(repr, unseen))}")
    if run.failures:
        raise ConformanceError(name, run.failures)
    found = tuple(dict.fromkeys(notes))
    return CheckReport(name, tuple(counts), tuple(seeds), games, moves, positions, run.worlds, run.redealt, found)


# --- playouts -------------------------------------------------------------------------------------


def _sample_steps() -> Iterator[int]:
    """The move numbers checked in depth: every one of the first few, then ever further apart."""
    step = 0
    while True:
        yield step
        step = step + 1 if step < 4 else int(step * 1.6)


def _play_out(
    run: _Run, spec: GameSpec, game: Game[Any, Any], seed: int, pool: list[str], *, render: bool
) -> tuple[State, list[State]] | None:
    """A random playout from `seed`, checking every step; the final state and the positions to check in depth."""
    try:
        state = game.new_state(seed)
    except Exception as err:
        run.fail("playout", f"new_state({seed}) raised {type(err).__name__}: {_cut(err)}")
        return None
    rng = random.Random(f"check_game/{game.name}/{game.num_players}/{seed}")
    steps = _sample_steps()
    due = next(steps)
    sampled: list[State] = []
    limit = spec.max_length
    if render:
        run.guard("render", lambda: _check_render(run, state))
    while True:
        run.at_moves = len(state.history)
        try:
            moves = _check_step(run, game, state)
        except Exception as err:
            run.fail("playout", f"a protocol call raised {type(err).__name__}: {_cut(err)}")
            return None
        if len(state.history) == due:
            sampled.append(state)
            due = next(steps)
        if moves is None:
            break
        if len(state.history) >= limit:
            run.fail("playout", f"the game did not end within {limit:,} moves, the spec's max_length")
            return None
        move = rng.choice(moves)
        pool.append(str(move))
        seat = state.current_player
        before = (len(state.history), len(state.events))
        try:
            child = state.play(move, player=seat)
        except Exception as err:
            run.fail("playout", f"playing the legal move {str(move)!r} raised {type(err).__name__}: {_cut(err)}")
            return None
        if (len(state.history), len(state.events)) != before or set(state.legal_moves()) != set(moves):
            run.fail("playout", f"play({str(move)!r}) changed the state it was called on (does clone() copy it all?)")
            return None
        if child is state or len(child.history) != before[0] + 1 or child.history[-1] != move:
            run.fail("playout", f"play({str(move)!r}) did not return a new state with the move added to its history")
            return None
        narrated = child.log[len(state.log) :]
        if not narrated:
            run.fail("playout", f"the move {str(move)!r} left no event in the log")
        if any(event.player == seat and event.move not in (None, str(move)) for event in narrated):
            run.fail("playout", f"the move {str(move)!r} is narrated as another move of the same seat")
        if not isinstance(move.words, str) or not move.words:
            run.fail("playout", f"the move {str(move)!r} has no words for people (move.words)")
        code = repr(move)
        if code != str(move) and any(code in event.text for event in narrated):
            run.fail("playout", f"the log shows the move as code ({code}), not in words people read")
        state = child
    if not sampled or sampled[-1] is not state:
        sampled.append(state)
    if render:
        run.guard("render", lambda: _check_render(run, state))
    run.guard("playout", lambda: _check_end(run, spec, game, state))
    return state, sampled


def _check_step(run: _Run, game: Game[Any, Any], state: State) -> list[Move] | None:
    """The invariants of one position; its legal moves (None once the game is over)."""
    seats = game.num_players
    mover = state.current_player
    moves = state.legal_moves()
    if state.is_over:
        if moves:
            run.fail("playout", f"the game is over but legal_moves() offers {len(moves)}")
        if mover != NO_PLAYER:
            run.fail("playout", f"the game is over but current_player is {mover!r}, not NO_PLAYER ({NO_PLAYER})")
        return None
    if not moves:
        run.fail("playout", "the game is not over but legal_moves() is empty")
        return None
    if type(mover) is not int or not 0 <= mover < seats:
        run.fail("playout", f"current_player is {shorten(mover)}, not a seat from 0 to {seats - 1}")
        return None
    if not all(isinstance(move, Move) for move in moves):
        run.fail("playout", "legal_moves() holds something that is not a Move")
        return None
    if len(set(moves)) != len(moves):
        run.fail("playout", "legal_moves() offers a move twice")
    obs = state.observation(mover)
    if obs.game != game.name or obs.player != mover or obs.current_player != mover or obs.is_over:
        run.fail("playout", "the mover's observation does not say its game, its seat, that it is to move and not over")
    if set(obs.legal_moves) != set(moves):
        run.fail("playout", "the mover's observation does not offer exactly legal_moves()")
    return moves


def _check_end(run: _Run, spec: GameSpec, game: Game[Any, Any], state: State) -> None:
    seats = game.num_players
    returns = tuple(state.returns())
    if len(returns) != seats or not all(isinstance(r, (int, float)) and math.isfinite(r) for r in returns):
        run.fail("playout", f"returns() is {shorten(returns)}: not one number per seat")
        return
    if not all(0.0 <= r <= 1.0 for r in returns):
        run.fail("playout", f"returns() is {shorten(returns)}: each is from 0 to 1")
    if spec.cooperative and len(set(returns)) != 1:
        run.fail(
            "playout", f"returns() is {shorten(returns)}: in a cooperative game every seat gets the table's result"
        )
    if not spec.cooperative and abs(sum(returns) - 1.0) > 1e-9:
        run.fail("playout", f"returns() is {shorten(returns)}: in a competitive game they add up to 1")
    for seat in range(seats):
        obs = state.observation(seat)
        if not obs.is_over or obs.legal_moves or obs.current_player != NO_PLAYER:
            run.fail("playout", f"after the end, the observation of seat {seat} is not over or still offers moves")
    if not state.view().is_over:
        run.fail("playout", "after the end, view() says the game is not over")
    first = game.new_state(0).legal_moves()[0]
    try:
        state.play(first)
        run.fail("playout", f"after the end, play({str(first)!r}) was accepted")
    except IllegalMoveError:
        pass
    if state.explain(first).legal:
        run.fail("playout", f"after the end, explain({str(first)!r}) says legal")


def _check_reveals(run: _Run, spec: GameSpec, game: Game[Any, Any], state: State, reached: set[str]) -> None:
    """The staged moments of a finished playout's log (see the module docs, ``reveals``)."""
    kinds = spec.reveal_kinds
    if not all(isinstance(kind, str) and kind for kind in kinds) or len(set(kinds)) != len(kinds):
        run.fail("reveals", f"reveal_kinds {shorten(kinds)} must be distinct, non-empty names")
        return
    log = state.view().log
    for index, event in enumerate(log):
        if event.kind in kinds:
            reached.add(event.kind)
            if event.move is not None:
                run.fail("reveals", f"event {index} of kind {event.kind!r} is a move ({shorten(event.move)})")
                return
    staged = [(index, event.kind) for index, event in enumerate(log) if event.kind in kinds]
    for seat in range(game.num_players):
        seen = [(index, event.kind) for index, event in enumerate(state.observation(seat).log) if event.kind in kinds]
        if seen != staged:
            run.fail("reveals", f"seat {seat}'s log stages other steps than the omniscient view's")
            return


# --- positions in depth ---------------------------------------------------------------------------


def _snapshot(state: State) -> tuple[Any, ...]:
    """Everything a refusal must leave as it was."""
    seats = state.game.num_players
    return json.dumps(state.to_record()), state.view(), tuple(state.observation(s) for s in range(seats))


def _check_bots(run: _Run, game: Game[Any, Any], sampled: list[State]) -> None:
    """Every bot level of the game, built as the boards and the arena build it, picks a legal move from a
    seat's observation (the search level with a small budget, at two positions)."""
    from sloth_kernel.bots import bot_levels, make_bot  # the bots layer, for a check of the game's own bots

    live = [state for state in sampled if not state.is_over]
    for level in bot_levels(game.name):
        small = {"iterations": 8} if level == "ismcts" else {}
        for state in live[:2] if small else live[::2]:
            run.at_moves = len(state.history)
            seat = state.current_player
            try:
                bot = make_bot(game.name, level, seed=1, **small)
                move = bot.choose(state.observation(seat))
            except Exception as err:
                run.fail("bots", f"the {level} bot raised {type(err).__name__}: {_cut(err)}")
                break
            if move not in state.legal_moves():
                run.fail("bots", f"the {level} bot chose {shorten(move)}, which legal_moves() does not offer")
                break


def _check_clone(run: _Run, state: State) -> None:
    """A copy is independent: moves played on it change nothing in the original."""
    if state.is_over:
        return
    before = _snapshot(state)
    child = state.clone()
    for _ in range(3):
        if child.is_over:
            break
        child.apply_unchecked(child.legal_moves()[-1])
    if _snapshot(state) != before:
        run.fail("playout", "clone() shares parts with the original: moves played on the copy changed it")


def _check_position(
    run: _Run, spec: GameSpec, game: Game[Any, Any], state: State, pool: list[str], notes: list[str]
) -> None:
    before = _snapshot(state)
    run.guard("playout", lambda: _check_clone(run, state))
    run.guard("playout", lambda: _check_observations(run, game, state))
    run.guard("explain", lambda: _check_explain(run, game, state, pool))
    run.guard("hidden", lambda: _check_public(run, game, state))
    run.guard("hidden", lambda: _check_worlds(run, spec, game, state, notes))
    if not spec.hidden_information:
        run.guard("declarations", lambda: _check_open(run, game, state))
    run.guard("bad input", lambda: _check_bad_input(run, game, state))
    if _snapshot(state) != before:
        run.fail("bad input", "checking this position (explanations, refusals) changed it")


def _check_open(run: _Run, game: Game[Any, Any], state: State) -> None:
    """``hidden_information=False``: each seat's observation is the open view, but for its viewer and its moves."""
    view: Any = state.view()
    for seat in range(game.num_players):
        obs: Any = state.observation(seat)
        if not dataclasses.is_dataclass(obs) or not dataclasses.is_dataclass(view):
            continue  # said by the playout check
        open_view = {f.name: getattr(view, f.name, None) for f in dataclasses.fields(view)}
        hidden = [
            f.name
            for f in dataclasses.fields(obs)
            if f.name not in ("player", "legal_moves") and getattr(obs, f.name) != open_view.get(f.name)
        ]
        if hidden or len(open_view) != len(dataclasses.fields(obs)):
            run.fail(
                "declarations",
                f"the spec declares hidden_information=False, yet observation({seat}) differs from the open view "
                f"(view()) in {', '.join(hidden) or 'its fields'}",
            )


def _check_no_later_chance(run: _Run, game: Game[Any, Any], seed: int, final: State) -> None:
    """``chance_after_deal=False``: the same deal under another seed, given the same moves, stays the same game."""
    real = game.new_state(seed)
    other = real.reseeded((seed + 1) % 2**256)  # what the engine draws from after the deal, if it draws at all
    for done, move in enumerate(final.history):
        run.at_moves = done
        if move not in other.legal_moves():
            run.fail(
                "declarations",
                f"the spec declares chance_after_deal=False, yet with another seed after the deal, {move} is not legal",
            )
            return
        real.apply_unchecked(move)
        other.apply_unchecked(move)
        if other.view() != real.view():
            run.fail(
                "declarations",
                "the spec declares chance_after_deal=False, yet with another seed after the deal the game differs "
                f"after {done + 1} {'move' if done == 0 else 'moves'} (it draws from the seed after the deal)",
            )
            return


def _plain(value: Any, seen: set[int]) -> str | None:
    """What in an observation is not frozen plain data (None: all of it is)."""
    if id(value) in seen:
        return None
    seen.add(id(value))
    if isinstance(value, (GameState, list, dict, set)):
        return f"a {type(value).__name__}"
    if dataclasses.is_dataclass(value):
        for field in dataclasses.fields(value):
            found = _plain(getattr(value, field.name), seen)
            if found:
                return f"{field.name}: {found}"
    elif isinstance(value, (tuple, frozenset)):
        for item in value:
            found = _plain(item, seen)
            if found:
                return found
    return None


def _check_observations(run: _Run, game: Game[Any, Any], state: State) -> None:
    view = state.view()
    found = _plain(view, set()) if dataclasses.is_dataclass(view) else "no dataclass"
    if found:
        run.fail("playout", f"view() holds {found}: the omniscient view is frozen plain data too")
    if view.player is not None or view.current_player != state.current_player:
        run.fail("playout", "view() is not the omniscient observation (player None, the seat to move)")
    for seat in range(game.num_players):
        obs: Any = state.observation(seat)
        if seat != state.current_player and obs.legal_moves:
            run.fail("playout", f"observation({seat}) offers moves to a seat that is not to move")
        if tuple(obs.log) != state.log:
            run.fail("playout", f"observation({seat}).log is not the state's log")
        if not dataclasses.is_dataclass(obs):
            run.fail("playout", f"observation({seat}) is not a dataclass")
            continue
        names = tuple(f.name for f in dataclasses.fields(obs))
        if names[: len(OBSERVATION_FIELDS)] != OBSERVATION_FIELDS:
            run.fail("playout", f"the observation's first fields are {names[:6]}, not {OBSERVATION_FIELDS}")
        found = _plain(obs, set())
        if found:
            run.fail("playout", f"observation({seat}) holds {found}: observations are frozen plain data")
        try:
            hash(obs)
        except TypeError:
            run.fail("playout", f"observation({seat}) cannot be hashed")


def _check_explain(run: _Run, game: Game[Any, Any], state: State, pool: list[str]) -> None:
    if state.is_over:
        return
    rng = random.Random(f"explain/{len(state.history)}")
    legal = state.legal_moves()
    shown = rng.sample(legal, min(30, len(legal)))
    for move in shown:
        text = str(move)
        if game.parse_move(text) != move:
            run.fail("explain", f"the notation of {text!r} does not read back to the same move")
        for asked in (move, text):
            answer = state.explain(asked)
            if not answer.legal or not isinstance(answer.reason, str) or not answer.reason:
                run.fail("explain", f"explain({asked!r}) does not say legal with a reason, yet legal_moves() offers it")
    if shown and not state.ask(state.current_player, shown[0]).legal:
        run.fail("explain", f"ask(the mover, {str(shown[0])!r}) does not say legal, yet legal_moves() offers it")
    try:
        candidates = [str(move) for move in game.all_moves()]
    except NotImplementedError:
        candidates = []
    candidates = list(dict.fromkeys(candidates + pool))
    offered = {str(move) for move in legal}
    illegal = [text for text in candidates if text not in offered]
    for text in rng.sample(illegal, min(12, len(illegal))):
        try:
            move = game.parse_move(text)
        except InvalidMoveError:
            continue
        if move in legal:
            continue
        answer = state.explain(move)
        if answer.legal:
            run.fail("explain", f"explain({text!r}) says legal, yet legal_moves() does not offer it")
            continue
        if not isinstance(answer.reason, str) or not answer.reason:
            run.fail("explain", f"explain({text!r}) refuses it with no reason")
        try:
            state.play(move)
            run.fail("explain", f"play({text!r}) was accepted, yet legal_moves() does not offer it")
        except IllegalMoveError as err:
            if err.explanation.reason != answer.reason:
                run.fail(
                    "explain",
                    f"play({text!r}) refuses it for another reason ({err.explanation.reason!r}) than "
                    f"explain ({answer.reason!r})",
                )


def _world_source(spec: GameSpec, cls: type[Game[Any, Any]], game: Game[Any, Any], obs: Any) -> tuple[str, Any] | None:
    """Worlds consistent with one seat's observation, and whose they are (None: the game has none)."""
    try:
        return "the world sampler's", cls.world_sampler(obs, game.config.to_dict())
    except NotImplementedError:
        pass
    try:
        return "hypothetical_worlds'", cls.hypothetical_worlds(obs)
    except NotImplementedError:
        pass
    if spec.search is not None:
        from sloth_kernel.bots.determinize import search_spec  # the search layer, only for a game that has one

        return "the search's", search_spec(spec.name).prepare(obs, {})
    return None


def _differs(one: Any, other: Any) -> str:
    """The fields in which two observations differ, named."""
    if dataclasses.is_dataclass(one) and type(one) is type(other):
        names = [f.name for f in dataclasses.fields(one) if getattr(one, f.name) != getattr(other, f.name)]
        return ", ".join(names) or "no field (yet they are not equal)"
    return "its type"


def _check_worlds(run: _Run, spec: GameSpec, game: Game[Any, Any], state: State, notes: list[str]) -> None:
    cls = type(game)
    rng = random.Random(f"worlds/{len(state.history)}")
    for seat in range(game.num_players):
        obs = state.observation(seat)
        found = _world_source(spec, cls, game, obs)
        if found is None:
            return
        whose, sample = found
        run.worlds += 1
        for _ in range(2):
            world = sample(rng)
            run.varied += world.view() != state.view()
            if world.public_observation() != state.public_observation():
                run.fail(
                    "hidden",
                    f"a world consistent with seat {seat}'s observation ({whose}) gives another public observation, in "
                    f"{_differs(state.public_observation(), world.public_observation())}: it shows what a seat hides",
                )
                break
            twin = world.observation(seat)
            if twin != obs:
                run.fail(
                    "hidden",
                    f"a world consistent with seat {seat}'s observation ({whose}) gives that seat another "
                    f"observation, in {_differs(obs, twin)}: the observation holds hidden state, or the worlds are wrong",
                )
                break


_UNSHARED = object()
"""In what the seats' observations agree on: a part they do not all see the same (someone's hidden part)."""


def _shared(values: Sequence[Any]) -> Any:
    """What `values` (one field, or a part of it, as each seat sees it) agree on, part by part."""
    first = values[0]
    if all(value == first for value in values):
        return first
    if all(type(value) is tuple and len(value) == len(first) for value in values):
        return tuple(_shared([value[i] for value in values]) for i in range(len(first)))
    if dataclasses.is_dataclass(first) and all(type(value) is type(first) for value in values):
        return {f.name: _shared([getattr(value, f.name) for value in values]) for f in dataclasses.fields(first)}
    return _UNSHARED


def _disagrees(public: Any, shared: Any, where: str) -> str | None:
    """Where `public` is not what every seat agrees on (`shared`, from :func:`_shared`); None: nowhere."""
    if shared is _UNSHARED or public is None:
        # a seat's hidden part (the worlds check that the public observation does not show it), or a part
        # the public observation leaves empty: a viewer's own part ("your hand") the seats may happen to agree on
        return None
    if isinstance(shared, dict):
        if not dataclasses.is_dataclass(public):
            return where
        for name, part in shared.items():
            found = _disagrees(getattr(public, name, _UNSHARED), part, f"{where}.{name}")
            if found:
                return found
        return None
    if type(shared) is tuple and shared != public:
        if type(public) is not tuple or len(public) != len(shared):
            return where
        for i, part in enumerate(shared):
            found = _disagrees(public[i], part, f"{where}[{i}]")
            if found:
                return found
        return None
    return None if public == shared else where


def _check_public(run: _Run, game: Game[Any, Any], state: State) -> None:
    """``public_observation()``: the game's observation for no seat, and what every seat's agrees on."""
    public: Any = state.public_observation()
    view: Any = state.view()
    if type(public) is not type(view):
        run.fail("hidden", "public_observation() is not the game's own observation type (the type view() has)")
        return
    found = _plain(public, set())
    if found:
        run.fail("hidden", f"public_observation() holds {found}: it is frozen plain data too")
    if public.player != NO_PLAYER or public.legal_moves or public.current_player != state.current_player:
        run.fail(
            "hidden", "public_observation() is not for nobody's seat (player NO_PLAYER, no moves, the seat to move)"
        )
    if tuple(public.log) != state.log:
        run.fail("hidden", "public_observation().log is not the state's log")
    seats: list[Any] = [state.observation(seat) for seat in range(game.num_players)]
    for field in dataclasses.fields(public):
        if field.name in ("player", "legal_moves"):
            continue
        where = _disagrees(
            getattr(public, field.name), _shared([getattr(obs, field.name) for obs in seats]), field.name
        )
        if where:
            run.fail(
                "hidden",
                f"public_observation() differs in {where} from what every seat's observation agrees on",
            )
            return


def _check_deal_record(run: _Run, name: str, options: dict[str, Any], deal: Mapping[str, Any]) -> None:
    """A game started from a deal (and played a few random moves) records its deal and replays."""
    game = load_game(name, **options)
    given = json.loads(json.dumps(deal))
    state = game.from_deal(given)
    kept = state.deal
    given.clear()  # the caller's deal, scribbled over: the state keeps its own copy
    if kept is None or state.deal != kept:
        run.fail("record", "a state from a deal does not keep it (state.deal is None, or follows the caller's copy)")
    rng = random.Random(f"deal/{name}")
    for _ in range(rng.randrange(12)):
        if state.is_over:
            break
        state = state.play(rng.choice(state.legal_moves()))
    _check_record(run, game, state)


def _check_redeal(run: _Run, name: str, options: dict[str, Any], deal: Mapping[str, Any]) -> None:
    """Two deals that differ only in cards swapped between two other seats' hands give a seat the same view."""
    game = load_game(name, **options)
    seats = game.num_players
    state = game.from_deal(deal)
    per_seat = [
        key
        for key, value in deal.items()
        if isinstance(value, list) and len(value) == seats and all(isinstance(item, (list, str)) for item in value)
    ]
    if seats < 3 or not per_seat or not game.seat_secrets:
        return
    for seat in range(seats):
        others = [s for s in range(seats) if s != seat]
        for key in per_seat:
            one, two = others[0], others[1]
            swapped = json.loads(json.dumps(deal))
            hands = swapped[key]
            cards = [hand.split() if isinstance(hand, str) else hand for hand in (hands[one], hands[two])]
            if not cards[0] or not cards[1] or cards[0][0] == cards[1][0]:
                continue
            cards[0][0], cards[1][0] = cards[1][0], cards[0][0]
            for where, hand, new in ((one, hands[one], cards[0]), (two, hands[two], cards[1])):
                hands[where] = " ".join(new) if isinstance(hand, str) else new
            try:
                twin = game.from_deal(swapped)
            except DealError:
                continue
            run.redealt += 1
            if twin.observation(seat) != state.observation(seat):
                run.fail(
                    "hidden",
                    f"re-dealt through from_deal with a card of {key} swapped between seats {one} and {two}, "
                    f"seat {seat}'s observation differs: {_differs(state.observation(seat), twin.observation(seat))}",
                )
            if twin.public_observation() != state.public_observation():
                run.fail(
                    "hidden",
                    f"re-dealt through from_deal with a card of {key} swapped between seats {one} and {two}, the "
                    f"public observation differs: {_differs(state.public_observation(), twin.public_observation())}",
                )


def _check_bad_input(run: _Run, game: Game[Any, Any], state: State) -> None:
    for text in BAD_TEXT:
        answer = state.explain(text)
        try:
            state.play(text)
        except (InvalidMoveError, IllegalMoveError):
            if answer.legal:
                run.fail("bad input", f"explain({shorten(text)}) says legal, yet play refuses it")
        except SlothKernelError as err:
            run.fail("bad input", f"play({shorten(text)}) raised {type(err).__name__}, not InvalidMoveError")
        else:
            if not answer.legal:
                run.fail("bad input", f"play({shorten(text)}) was accepted, yet explain refuses it")
    for thing in NOT_MOVES:
        if state.explain(thing).legal:
            run.fail("bad input", f"explain({shorten(thing)}) says legal")
        try:
            state.play(thing)
            run.fail("bad input", f"play({shorten(thing)}) was accepted")
        except InvalidMoveError:
            pass
    seats = game.num_players
    for seat in (*LOOK_ALIKE_SEATS, seats):
        try:
            state.observation(seat)
            run.fail("bad input", f"observation({shorten(seat)}) was accepted: a seat is an int from 0 to {seats - 1}")
        except SeatError:
            pass
    if not state.is_over:
        move = state.legal_moves()[0]
        for seat in (-1, seats, True):
            try:
                state.play(move, player=seat)
                run.fail("bad input", f"play(..., player={shorten(seat)}) was accepted")
            except SeatError:
                pass
        if seats > 1:
            other = (state.current_player + 1) % seats
            try:
                state.play(move, player=other)
                run.fail("bad input", f"play(..., player={other}) was accepted out of turn")
            except IllegalMoveError:
                pass
    for seed in LOOK_ALIKE_SEEDS:
        try:
            game.new_state(seed)
            run.fail(
                "bad input", f"new_state({shorten(seed)}) was accepted: a seed is a whole number from 0 to 2**256 - 1"
            )
        except ConfigError:
            pass
    bad_deals: tuple[Any, ...] = ("a deal", 42, [], {"surely not a key of any deal": 1})
    for deal in bad_deals:
        try:
            game.from_deal(deal)
            run.fail("bad input", f"from_deal({shorten(deal)}) was accepted")
        except DealError:
            pass


def _check_bad_records(run: _Run, spec: GameSpec, game: Game[Any, Any], state: State, *, huge: bool) -> None:
    """Tampered records of `state` raise RecordError; `huge`: a record longer than max_length too (a costly read)."""
    before = _snapshot(state)
    record = state.to_record()
    moves = record["moves"]
    other = "toy-game-that-is-not-installed"
    broken: list[tuple[str, Any]] = [
        ("JSON text that is no JSON", "not json {"),
        ("a number", 42),
        ("another format", {**record, "format": "other"}),
        ("another game", {**record, "game": other}),
        ("a move that does not parse", {**record, "moves": [*moves, "zz top"]}),
        ("an unknown option", {**record, "options": {**record["options"], "surely_no_option": 1}}),
        ("a seed that is text", {**record, "seed": "eleven"}),
        ("no moves", {key: value for key, value in record.items() if key != "moves"}),
        ("an unknown key", {**record, "extra": 1}),
        ("an edition of the rules from the future", {**record, "rules": game.rules_version + 1}),
    ]
    if huge:
        broken.append(
            ("more moves than max_length", {**record, "moves": (moves[:1] or ["zz top"]) * (spec.max_length + 1)})
        )
    for what, bad in broken:
        for reader in (game.replay, from_record)[: 1 if what == "more moves than max_length" else 2]:
            try:
                reader(bad)
            except RecordError:
                continue
            run.fail("bad input", f"a record with {what} was accepted by {getattr(reader, '__name__', 'replay')}")
    if _snapshot(state) != before:
        run.fail("bad input", "reading tampered records of this position changed it")


def _check_options(run: _Run, spec: GameSpec, cls: type[Game[Any, Any]]) -> None:
    """Unknown options, wrong types and numbers outside the ranges the spec reports (``spec.options()``) are refused."""
    name = spec.name
    refused: list[tuple[str, dict[str, Any]]] = [("an unknown option", {"surely_no_option": 1})]
    needs: Mapping[str, Mapping[str, Any]] = getattr(spec, "option_needs", {})
    for option in spec.options():
        context = dict(needs.get(option.name, {}))
        if option.type == "int":
            refused += [(f"{option.name}=True", {**context, option.name: True})]
            refused += [(f"{option.name} as text", {**context, option.name: "four"})]
        if option.low is not None and option.high is not None:
            for value in (option.low - 1, option.high + 1):
                refused.append((f"{option.name}={value}", {**context, option.name: value}))
    for what, options in refused:
        try:
            load_game(name, **options)
            run.fail("bad input", f"load_game with {what} was accepted")
        except ConfigError:
            pass


# --- records and pictures -------------------------------------------------------------------------


def _check_record(run: _Run, game: Game[Any, Any], state: State) -> None:
    record = state.to_record()
    text = json.dumps(record)
    seats = game.num_players
    replayed: list[tuple[str, State]] = []
    for how, read in (("replay", game.replay), ("from_record", from_record)):
        try:
            replayed.append((how, read(text)))
        except RecordError as err:
            run.fail("record", f"the game's own record does not {how.replace('_', ' ')}: {_cut(err)}")
    for how, again in replayed:
        if again.view() != state.view():
            run.fail("record", f"the record's {how} gives another view: {_differs(state.view(), again.view())}")
        if again.to_record() != record:
            run.fail("record", f"the record's {how} gives another record")
        if [str(e) for e in again.log] != [str(e) for e in state.log]:
            run.fail("record", f"the record's {how} gives another log")
        for seat in range(seats):
            if again.observation(seat) != state.observation(seat):
                mine, theirs = state.observation(seat), again.observation(seat)
                run.fail(
                    "record", f"the record's {how} gives seat {seat} another observation: {_differs(mine, theirs)}"
                )
    record["moves"].append("zz top")
    record["options"]["surely_no_option"] = 1
    if state.to_record() == record:
        run.fail("record", "to_record() handed out the state's own record: editing it changed the state")


def _check_render(run: _Run, state: State) -> None:
    from sloth_kernel.render import render_observation  # the render layer: it names the game's renderer

    for what, obs in (("view()", state.view()), ("observation(0)", state.observation(0))):
        html = render_observation(obs)
        if not isinstance(html, str) or not html.strip():
            run.fail("render", f"the renderer gives no text for {what}")
    shown = state._repr_html_()
    if shown is not None and not isinstance(shown, str):
        run.fail("render", "_repr_html_() gives neither text nor None")
