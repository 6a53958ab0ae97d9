"""'Find the play' puzzles, proved by exhaustive search over the engine.

A puzzle is a position from a real seeded game (options, seed and the moves that reach it,
replayed with checked ``play``), a goal for the player to move, and the one play that meets
it. Nothing here knows a game: each game that has puzzles names a :class:`PuzzleBook` in its
spec (``puzzles``), holding its :class:`PuzzleKit` (what a trick, a finish and a turn are in
that game, read from the omniscient ``view()``) and its list of puzzles.

The proof (:func:`prove`) is a depth-limited AND-OR search with three values: the player to
move (the solver) picks any legal move, every other player answers with any legal move (all
hands are open, the deal is the seed's, so the game is deterministic). A line that reaches the
depth limit, or a position the kit calls unsettled (see :meth:`PuzzleKit.unsettled`), is
UNKNOWN, never a failure: a puzzle is proved only when its answer is WIN and every other legal
play is LOSE. So the limit can make a proof fail, never make a wrong one pass.

``python -m sloth_kernel.puzzles find <game> --seeds 0-40`` mines seeded games (played by the
game's bots) for positions with exactly one winning play, and prints them as puzzle entries.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from sloth_kernel.core import GameState, Move, seat_name
from sloth_kernel.errors import ConfigError, counted

WIN, LOSE, UNKNOWN = "win", "lose", "unknown"


class PuzzleKit(Protocol):
    """What the puzzle machinery needs to know about one game. Every method reads the omniscient
    ``view()`` of a state (or its public protocol); none changes the state."""

    episode_word: str
    """What the game calls the part a goal lives in: "round", "race"."""

    def episode(self, view: Any) -> int:
        """How many rounds (or races) have ended: a goal never looks past the one it starts in."""

    def trick_winner(self, view: Any) -> int | None:
        """The seat certain to lead the next trick once the current one is decided, else None.

        Asked only after at least one move from the puzzle's position."""

    def in_trick(self, view: Any, seat: int) -> bool:
        """Whether `seat` can still play in the current trick (it has not passed out of it, finished
        or been eliminated)."""

    def racing(self, view: Any, seat: int) -> bool:
        """Whether `seat` is still in the round (or race): not finished, not eliminated."""

    def finished(self, view: Any, seat: int, episode: int) -> bool:
        """Whether `seat` has crossed the finish line in round (or race) `episode`."""

    def turn_starts(self, view: Any) -> bool:
        """Whether the move about to be made starts a new turn of the player to move (a follow-up
        step of the same turn, such as tidying cards after a pass, does not)."""

    def unsettled(self, view: Any) -> bool:
        """A position whose outcome the rules leave open or a pending ruling may change: a proof
        may not pass through it (the search counts it as UNKNOWN)."""

    def aside(self, state: GameState[Any, Any]) -> Move | None:
        """When the player to move is out of the current trick and only arranging their own cards,
        one move that stands for all their choices (they cannot change who wins the trick);
        else None."""

    def hand_cards(self, view: Any, seat: int) -> list[tuple[str, Any, str]]:
        """(key, card face for the render kit, label in words) of each card in `seat`'s hand."""

    def move_keys(self, move: Move) -> tuple[str, ...]:
        """The hand keys (as in :meth:`hand_cards`) a move takes from the hand; () for a pass."""

    def move_words(self, move: Move) -> str:
        """A move as people write it ("10 10", "pass 6")."""


# --- goals ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Goal:
    """What the solver must achieve. `check` says WIN, LOSE, UNKNOWN (a line the goal cannot
    judge) or None (not decided yet) at a position reached after at least one move; `words`
    states it to the student."""

    def words(self) -> str:
        raise NotImplementedError

    def check(self, kit: PuzzleKit, view: Any, hero: int, episode: int, turns: int) -> str | None:
        raise NotImplementedError

    def why_lost(self, kit: PuzzleKit, view: Any, hero: int, episode: int, turns: int) -> str:
        raise NotImplementedError

    def why_won(self, hero: int) -> str:
        raise NotImplementedError

    def trick_goal(self) -> bool:
        """Whether only the current trick matters (so a player out of it may be skipped, ``aside``)."""
        return False


@dataclass(frozen=True)
class LeadNext(Goal):
    """Win the current trick: be the one who leads the next one."""

    def words(self) -> str:
        return "win this trick and lead the next one"

    def trick_goal(self) -> bool:
        return True

    def why_won(self, hero: int) -> str:
        return f"{seat_name(hero)} wins the trick and leads the next one"

    def check(self, kit: PuzzleKit, view: Any, hero: int, episode: int, turns: int) -> str | None:
        if kit.finished(view, hero, episode):
            return UNKNOWN  # crossing the line beats leading: a line that finishes proves nothing either way
        if kit.episode(view) != episode:
            return LOSE
        winner = kit.trick_winner(view)
        if winner is not None:
            return WIN if winner == hero else LOSE
        return None if kit.in_trick(view, hero) else LOSE

    def why_lost(self, kit: PuzzleKit, view: Any, hero: int, episode: int, turns: int) -> str:
        if kit.episode(view) != episode:
            return f"the {kit.episode_word} ends before the trick is won"
        winner = kit.trick_winner(view)
        if winner is not None and winner != hero:
            return f"{seat_name(winner)} wins the trick and leads the next one"
        return f"{seat_name(hero)} is out of the trick"


@dataclass(frozen=True)
class Finish(Goal):
    """Cross the finish line within `turns` of the solver's turns (this one included)."""

    turns: int = 1

    def words(self) -> str:
        if self.turns == 1:
            return "cross the finish line with this play"
        return f"cross the finish line within {self.turns} of your turns (this one included), whatever the others do"

    def why_won(self, hero: int) -> str:
        return f"{seat_name(hero)} crosses the finish line in time"

    def check(self, kit: PuzzleKit, view: Any, hero: int, episode: int, turns: int) -> str | None:
        if kit.finished(view, hero, episode):
            return WIN
        if kit.episode(view) != episode:
            return LOSE
        if view.current_player == hero and kit.turn_starts(view) and turns >= self.turns:
            return LOSE
        if not kit.racing(view, hero):
            return LOSE
        return None

    def why_lost(self, kit: PuzzleKit, view: Any, hero: int, episode: int, turns: int) -> str:
        if kit.episode(view) != episode:
            return f"the {kit.episode_word} ends first"
        if not kit.racing(view, hero):
            return f"{seat_name(hero)} is out of the {kit.episode_word}"
        return f"{seat_name(hero)} has used {counted(turns, 'turn')} and is still short of the finish"


# --- puzzles --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Puzzle:
    """A position from a seeded game, its goal and its one answer (in the engine's notation)."""

    game: str
    options: dict[str, Any]
    seed: int
    moves: tuple[str, ...]
    """The record's moves that reach the position, in order: the position is ply ``len(moves)``."""
    goal: Goal
    answer: str
    depth: int = 24
    """Plies the proof may look ahead."""

    @property
    def ply(self) -> int:
        return len(self.moves)

    def position(self) -> GameState[Any, Any]:
        """The position: the game's record (options, seed, these moves) replayed, every move checked
        (a move the rules refuse raises RecordError naming it)."""
        from sloth_kernel.registry import load_game

        game = load_game(self.game, **self.options)
        record = game.new_state(self.seed).to_record()
        record["moves"] = list(self.moves)
        state: GameState[Any, Any] = game.replay(record)
        return state

    @property
    def hero(self) -> int:
        return self.position().current_player

    def statement(self) -> str:
        """The puzzle as a sentence: 'Player 2 to play: win this trick and lead the next one.'"""
        return f"{seat_name(self.hero)} to play: {self.goal.words()}."


@dataclass(frozen=True)
class PuzzleBook:
    """One game's puzzles and the kit that reads its positions (a spec's ``puzzles``)."""

    kit: PuzzleKit
    puzzles: tuple[Puzzle, ...]


def puzzle_book(game_name: str) -> PuzzleBook:
    """The puzzle book a game's spec names; ConfigError for a game without puzzles."""
    from sloth_kernel.registry import game_spec

    spec = game_spec(game_name)
    book: PuzzleBook | None = spec.load(spec.puzzles)
    if book is None:
        raise ConfigError(f"{spec.title} has no puzzles; these games do: {', '.join(puzzle_games().values())}")
    return book


def puzzle_games() -> dict[str, str]:
    """Name -> title of every registered game with puzzles."""
    from sloth_kernel.registry import game_specs

    return {name: spec.title for name, spec in game_specs().items() if spec.puzzles is not None}


# --- the search -----------------------------------------------------------------------------


class _Budget(Exception):
    """The search ran out of nodes."""


@dataclass
class _Search:
    kit: PuzzleKit
    goal: Goal
    hero: int
    episode: int
    depth: int
    budget: int = 200_000
    nodes: int = 0
    limit_hit: bool = False

    def value(self, state: GameState[Any, Any], plies: int, turns: int) -> tuple[str, list[Move]]:
        """(WIN/LOSE/UNKNOWN, a line): for WIN the solver's winning line, for LOSE a refutation."""
        self.nodes += 1
        if self.nodes > self.budget:
            raise _Budget
        view = state.view()
        if plies:
            verdict = self.goal.check(self.kit, view, self.hero, self.episode, turns)
            if verdict is not None:
                return verdict, []
        if state.is_over:
            return LOSE, []
        if self.kit.unsettled(view):
            return UNKNOWN, []
        if plies >= self.depth:
            self.limit_hit = True
            return UNKNOWN, []
        mover = state.current_player
        starts = mover == self.hero and self.kit.turn_starts(view)
        moves: Sequence[Move] = state.legal_moves()
        if mover != self.hero and self.goal.trick_goal():
            stand_in = self.kit.aside(state)
            if stand_in is not None:
                moves = [stand_in]
        solver = mover == self.hero
        unknown: tuple[str, list[Move]] | None = None
        longest: list[Move] | None = None
        for move in moves:
            child = state.clone()
            child.apply_unchecked(move)
            result, line = self.value(child, plies + 1, turns + starts)
            if result == (WIN if solver else LOSE):
                return result, [move, *line]
            if result == UNKNOWN and unknown is None:
                unknown = (UNKNOWN, [move, *line])
            if longest is None or len(line) + 1 > len(longest):
                longest = [move, *line]
        if unknown is not None:
            return unknown
        # every move gives the other side the point: show the one that holds out longest
        return (LOSE if solver else WIN), longest or []


@dataclass(frozen=True)
class Proof:
    """Every legal play at the puzzle's position, judged against its goal."""

    values: dict[str, str]
    """Move notation -> WIN, LOSE or UNKNOWN."""
    lines: dict[str, tuple[str, ...]]
    """Move notation -> the line that shows it (the solver's win, or the others' refutation)."""
    nodes: int
    limit_hit: bool

    @property
    def winners(self) -> list[str]:
        return [move for move, value in self.values.items() if value == WIN]

    def proves(self, answer: str) -> bool:
        """The answer is the only play that meets the goal, and every other play provably fails."""
        return self.winners == [answer] and all(v == LOSE for m, v in self.values.items() if m != answer)


def prove(kit: PuzzleKit, state: GameState[Any, Any], goal: Goal, *, depth: int = 24, budget: int = 200_000) -> Proof:
    """Judge every legal play of the player to move in `state` (see the module's docs).

    Raises ConfigError when the search needs more than `budget` positions."""
    hero = state.current_player
    search = _Search(kit, goal, hero, kit.episode(state.view()), depth, budget)
    values: dict[str, str] = {}
    lines: dict[str, tuple[str, ...]] = {}
    starts = kit.turn_starts(state.view())
    try:
        for move in state.legal_moves():
            child = state.clone()
            child.apply_unchecked(move)
            result, line = search.value(child, 1, int(starts))
            values[str(move)] = result
            lines[str(move)] = tuple(str(m) for m in line)
    except _Budget:
        raise ConfigError(f"the proof needs more than {budget:,} positions") from None
    return Proof(values, lines, search.nodes, search.limit_hit)


def prove_puzzle(puzzle: Puzzle, kit: PuzzleKit, *, budget: int = 200_000) -> Proof:
    return prove(kit, puzzle.position(), puzzle.goal, depth=puzzle.depth, budget=budget)


# --- what a student is told -------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """The answer to one try: right or not, and why, in sentences."""

    move: str
    legal: bool
    right: bool
    text: str


def narrate(state: GameState[Any, Any], line: Sequence[str], kit: PuzzleKit | None = None) -> list[str]:
    """The engine's own log sentences for `line` played from `state` (each move checked).

    With a kit, the story stops where the round (or race) ends: the next deal's announcement,
    the last sentence of the move that ends it, is left out. So are the moves of a player out of
    the trick tidying their own cards (``PuzzleKit.aside``): the search tried only one of them."""
    sentences: list[str] = []
    for text in line:
        before = len(state.log)
        episode = kit.episode(state.view()) if kit is not None else 0
        aside = kit is not None and kit.aside(state) is not None
        state = state.play(text)
        said = [] if aside else [event.text for event in state.log[before:]]
        if kit is not None and kit.episode(state.view()) != episode:
            return sentences + (said if state.is_over else said[:-1])
        sentences += said
    return sentences


def judge_try(puzzle: Puzzle, kit: PuzzleKit, text: Any, proof: Proof | None = None) -> Verdict:
    """Judge a student's try at `puzzle`: any text at all (it never raises).

    Not a legal play: the engine's ``explain`` sentence. The answer: why it works (the line
    that meets the goal). Any other legal play: the line of replies that refutes it."""
    state = puzzle.position()
    if isinstance(text, str) and not text.strip():
        return Verdict("", False, False, "Type a play, or click its cards.")
    explained = state.explain(text)
    shown = kit.move_words(state.game.coerce_move(text)) if explained.legal else explained.move
    if not explained.legal:
        rules = f" ({', '.join(explained.rules)})" if explained.rules else ""
        return Verdict(shown, False, False, f"{shown} cannot be played here: {explained.reason}{rules}.")
    move = str(state.game.coerce_move(text))
    proof = proof or prove_puzzle(puzzle, kit)
    line = proof.lines.get(move, ())
    hero = state.current_player
    episode = kit.episode(state.view())
    story = narrate(state, (move, *line), kit)
    end = state
    for step in (move, *line):
        end = end.play(step)
    turns = _turns_used(kit, state, (move, *line))
    if move == puzzle.answer:
        text_out = (
            f"Right: {shown} is the only play that meets the goal, whatever the others answer. "
            f"Their longest resistance: {' '.join(story)} So {puzzle.goal.why_won(hero)}."
        )
        return Verdict(shown, True, True, text_out)
    value = proof.values.get(move, UNKNOWN)
    if value == LOSE:
        why = puzzle.goal.why_lost(kit, end.view(), hero, episode, turns)
        again = _solver_moves(state.play(move), line, hero)
        lead = f"after {shown}, the others have an answer to every play you try; one line: " if again else ""
        text_out = f"Not this one: {lead}{' '.join(story)} So {why}."
        return Verdict(shown, True, False, text_out)
    return Verdict(
        shown, True, False, f"Not this one: {shown} is legal, but it is not the play that surely meets the goal."
    )


def _solver_moves(state: GameState[Any, Any], line: Sequence[str], hero: int) -> bool:
    """Whether the solver moves again in `line` (its choices there lose too)."""
    return any(seat == hero for seat in _movers(state, line))


def _movers(state: GameState[Any, Any], line: Sequence[str]) -> Iterator[int]:
    for text in line:
        yield state.current_player
        state = state.play(text)


def _turns_used(kit: PuzzleKit, state: GameState[Any, Any], line: Sequence[str]) -> int:
    hero, turns = state.current_player, 0
    for text in line:
        if state.current_player == hero and kit.turn_starts(state.view()):
            turns += 1
        state = state.play(text)
    return turns


def answer_words(puzzle: Puzzle, kit: PuzzleKit) -> str:
    """The answer as people write it, with the line that shows it works."""
    return judge_try(puzzle, kit, puzzle.answer).text.replace("Right: ", "The answer: ", 1)


# --- mining seeded games ------------------------------------------------------------------------


@dataclass
class Found:
    puzzle: Puzzle
    legal: int
    nodes: int
    notes: list[str] = field(default_factory=list)


def positions(game_name: str, options: dict[str, Any], seed: int, bot: str) -> Iterator[GameState[Any, Any]]:
    """Every position of one seeded game played by the game's `bot` level (seeded too)."""
    from sloth_kernel.bots import make_bot
    from sloth_kernel.registry import load_game

    game = load_game(game_name, **options)
    state = game.new_state(seed)
    players = [make_bot(game_name, bot, seed=seed * 10 + seat) for seat in range(game.num_players)]
    while not state.is_over:
        yield state
        seat = state.current_player
        move = players[seat].choose(state.observation(seat))
        state = state.play(move)


def mine(
    game_name: str,
    options: dict[str, Any],
    seeds: Sequence[int],
    goals: Sequence[Goal],
    *,
    bot: str = "random",
    depth: int = 24,
    budget: int = 20_000,
    min_choices: int = 3,
    every: int = 1,
    stop_after: int = 10**9,
    per_seed: int = 10**9,
) -> Iterator[Found]:
    """Positions of seeded games where exactly one play meets a goal and every other fails."""
    book = puzzle_book(game_name)
    kit = book.kit
    found = 0
    for seed in seeds:
        here = 0
        for index, state in enumerate(positions(game_name, options, seed, bot)):
            if here >= per_seed:
                break
            if index % every or kit.unsettled(state.view()) or not kit.turn_starts(state.view()):
                continue
            moves = state.legal_moves()
            if len(moves) < min_choices:
                continue
            for goal in goals:
                try:
                    proof = prove(kit, state, goal, depth=depth, budget=budget)
                except ConfigError:
                    continue
                winners = proof.winners
                if len(winners) == 1 and proof.proves(winners[0]):
                    puzzle = Puzzle(
                        game_name,
                        dict(options),
                        seed,
                        tuple(str(m) for m in state.history),
                        goal,
                        winners[0],
                        depth=depth,
                    )
                    found += 1
                    here += 1
                    yield Found(puzzle, len(moves), proof.nodes)
                    break
            if found >= stop_after:
                return


def _seeds(text: str) -> list[int]:
    low, _, high = text.partition("-")
    return list(range(int(low), int(high or low) + 1))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sloth_kernel.puzzles", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    find = sub.add_parser("find", help="mine seeded games for puzzles")
    find.add_argument("game")
    find.add_argument("--seeds", default="0-20")
    find.add_argument("--players", type=int, default=None)
    find.add_argument("--goal", default="lead", help="lead, or finish-N (cross the finish within N turns)")
    find.add_argument("--bot", default="random")
    find.add_argument("--depth", type=int, default=24)
    find.add_argument("--budget", type=int, default=20_000)
    find.add_argument("--min-choices", type=int, default=3)
    find.add_argument("--stop-after", type=int, default=20)
    find.add_argument("--per-seed", type=int, default=10**9)
    check = sub.add_parser("check", help="re-run the proof of every puzzle of a game")
    check.add_argument("game")
    args = parser.parse_args(argv)
    if args.command == "check":
        book = puzzle_book(args.game)
        bad = 0
        for number, puzzle in enumerate(book.puzzles, 1):
            started = time.perf_counter()
            proof = prove_puzzle(puzzle, book.kit)
            ok = proof.proves(puzzle.answer)
            bad += not ok
            took = time.perf_counter() - started
            print(f"{number:3} {'proved' if ok else 'FAILED'} {puzzle.answer!r} {proof.nodes} nodes {took:.2f} s")
        return 1 if bad else 0
    options = {} if args.players is None else {"players": args.players}
    goal: Goal = LeadNext() if args.goal == "lead" else Finish(int(args.goal.partition("-")[2] or 1))
    for item in mine(
        args.game,
        options,
        _seeds(args.seeds),
        [goal],
        bot=args.bot,
        depth=args.depth,
        budget=args.budget,
        min_choices=args.min_choices,
        stop_after=args.stop_after,
        per_seed=args.per_seed,
    ):
        p = item.puzzle
        print(
            f"    # {item.legal} legal plays, {item.nodes} positions searched\n"
            f"    _puzzle({p.options!r}, {p.seed}, {', '.join(p.moves)!r}, {p.goal!r}, {p.answer!r}),",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
