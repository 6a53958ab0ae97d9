"""The logic of a play board: :class:`Session` holds the engine state, who sits in each seat,
the mode, and whose eyes are on the screen. It never decides a rule; it asks the engine. The
board (:class:`sloth_widgets.board.GameBoard`) observes its ``version`` trait and re-renders.

Secret deals: a seed is the whole deal, so every game a board starts on its own (the first,
"Play again", "New game") is dealt from a fresh 128-bit seed (``core.fresh_seed``), and until
the game is over neither the seed nor anything derived from it reaches the page (the widget
states, element ids, the log). After the game the board shows the seed and offers the record
and a step-through. Choosing a seed is explicit: ``Board(seed=…)`` in code, *Deal this seed* in
the setup panel, or the page's address (``?seed=123``, see
:meth:`sloth_widgets.board.GameBoard.deal_address_seed`); a chosen seed may be shown.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import parse_qs

import traitlets

from sloth_kernel import ConfigError, Explanation, IllegalMoveError, InvalidMoveError, load_game
from sloth_kernel.bots import bot_levels, level_blurb, level_title, make_bot
from sloth_kernel.core import fresh_seed, seat_name

HUMAN = "human"
MODES = ("bots", "hot-seat", "watch")
SEED_PATTERN = re.compile(r"[0-9]{1,60}")  # a chosen seed as typed: a whole number (128 bits take 39 digits)


def parse_seed(text: object) -> int:
    """A chosen seed, typed by a person or given in the page's address: a whole number."""
    if isinstance(text, int) and not isinstance(text, bool) and text >= 0:
        return text
    if isinstance(text, str) and SEED_PATTERN.fullmatch(text.strip()):
        return int(text.strip())
    shown = str(text)
    shown = shown if len(shown) <= 24 else shown[:24] + "…"
    raise ValueError(f"{shown!r} is not a seed: a seed is a whole number, digits only")


def address_seed(environ: Mapping[str, str] | None = None) -> str | None:
    """The ``seed`` parameter of the page's address, when Voila started this kernel for the page.

    Voila puts the query string in a kernel's environment (QUERY_STRING) only when it starts the
    kernel for a request; a preheated kernel has none, and the play apps' front end sends the
    page's parameters instead (:attr:`GameBoard._page_params`).
    """
    query = (os.environ if environ is None else environ).get("QUERY_STRING", "")
    values = parse_qs(query).get("seed")
    return values[-1] if values else None


class Session(traitlets.HasTraits):
    """Engine state + seats + mode. ``version`` bumps after every change (the glue)."""

    version = traitlets.Int(0)

    def __init__(
        self,
        game_name: str,
        *,
        seed: int | None = None,
        seats: Sequence[str] | None = None,
        deal: dict[str, Any] | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if seats is not None and "players" not in options and _has_option(game_name, "players"):
            options["players"] = len(seats)
        self.game = load_game(game_name, **options)
        self.options = dict(options)
        players = self.game.num_players
        if seats is None:
            seats = [HUMAN] + [default_bot_level(game_name)] * (players - 1)
        seats = list(seats)
        if len(seats) != players:
            raise ConfigError(f"{len(seats)} seats given for {players} players")
        levels = bot_levels(game_name)
        for seat in seats:
            if seat != HUMAN and seat not in levels:
                raise ConfigError(f"seat kind {seat!r}: choose 'human' or a bot level ({', '.join(levels)})")
        self.seats: tuple[str, ...] = tuple(seats)
        # The seed is the whole deal: secret until the game is over, unless it was chosen on purpose
        # (by code, the setup panel or the page's address); only a chosen seed may be shown before.
        self.chosen = seed is not None
        if seed is None:
            seed = fresh_seed()
        # an explicit deal (the engine's from_deal format) sets up a scenario; else deal from the seed
        self.state = self.game.from_deal(deal, seed=seed) if deal else self.game.new_state(seed=seed)
        self.seed: int = self.state.seed
        # Names this game in the page (element ids, a look that changes from game to game):
        # random, and unrelated to the seed.
        self.token = secrets.token_hex(6)
        self.bots = {
            s: make_bot(game_name, kind, seed=self.seed * 31 + s) for s, kind in enumerate(self.seats) if kind != HUMAN
        }
        humans = self.humans
        self.viewer: int | None = humans[0] if len(humans) == 1 else None
        self.covered = len(humans) > 1  # hot-seat starts behind the cover

    # -- who is who --

    @property
    def seed_shown(self) -> bool:
        """May the page show the seed? After the game, or when someone chose it."""
        return self.chosen or bool(self.state.is_over)

    @property
    def humans(self) -> list[int]:
        return [s for s, kind in enumerate(self.seats) if kind == HUMAN]

    @property
    def mode(self) -> str:
        count = len(self.humans)
        return "watch" if count == 0 else "bots" if count == 1 else "hot-seat"

    @property
    def to_move(self) -> int:
        player: int = self.state.current_player
        return player

    def is_human(self, seat: int) -> bool:
        return 0 <= seat < len(self.seats) and self.seats[seat] == HUMAN

    @property
    def bot_to_move(self) -> bool:
        return not self.state.is_over and not self.is_human(self.to_move)

    @property
    def my_turn(self) -> bool:
        """The seat on screen may act now (its hand is shown and it is to move)."""
        return not self.state.is_over and not self.covered and self.viewer is not None and self.viewer == self.to_move

    def observation(self) -> Any:
        """What the screen may show: the viewer's observation, or the teacher's view when watching.

        Behind the hot-seat cover this is the incoming player's observation; boards must
        then draw public parts only.
        """
        if self.mode == "watch":
            return self.state.view()
        seat = self.viewer
        if seat is None or self.covered:
            seat = self.to_move if self.is_human(self.to_move) else self.humans[0]
        return self.state.observation(seat)

    # -- actions: every one re-validated by the engine --

    def refusal(self, seat: object) -> str | None:
        """Why `seat` may not act at this screen now, or None when it may.

        Every move a page submits is checked here first, before the engine judges anything: a
        seat that may not act (not at this screen, behind the hot-seat cover, not to move, after
        the game) gets a sentence of public facts only, never a verdict worked out on the full
        state (which would read the mover's hidden hand). Subclasses add their own reasons (a
        paused table).
        """
        if self.covered:
            return "the hand is covered: reveal it first"
        if type(seat) is not int or not self.is_human(seat) or seat != self.viewer:  # a forged event may carry anything
            return "nobody at this screen may move for that seat"
        if self.state.is_over:
            return "the game is over; no more moves"
        if seat != self.to_move:
            return f"it is not {seat_name(seat)}'s turn; {seat_name(self.to_move)} is to move"
        return None

    def play(self, move: Any, seat: int | None) -> Explanation:
        """Play `move` for `seat`; an illegal move changes nothing and says why (off turn: only that)."""
        text = str(move)
        refused = self.refusal(seat)
        if refused is not None:
            return Explanation(text, False, refused)
        assert seat is not None  # refusal() passes only a seat at this screen
        try:
            verdict: Explanation = self.state.explain(move)
            self.state = self.state.play(move, player=seat)
        except IllegalMoveError as err:
            return err.explanation
        except InvalidMoveError as err:
            return Explanation(text, False, f"that is not a move: {err.reason}")
        self._after_move()
        return verdict

    def play_sequence(self, moves: Sequence[str], seat: int | None) -> Explanation:
        """Several moves of one seat as one action (e.g. pitches then done): all or nothing.

        Each move is judged only while it is still this seat's turn: a move past the seat's turn
        is refused with that sentence, never judged for the seat that moves next."""
        text = " / ".join(str(move) for move in moves)
        refused = self.refusal(seat)
        if refused is not None:
            return Explanation(text, False, refused)
        assert seat is not None
        state = self.state
        reasons = []
        try:
            for move in moves:
                past = sequence_refusal(state, seat)
                if past is not None:
                    return Explanation(str(move), False, past)
                reasons.append(state.explain(move).reason)
                state = state.play(move, player=seat)
        except IllegalMoveError as err:
            return Explanation(str(err.move), False, err.explanation.reason, err.explanation.rules)
        except InvalidMoveError as err:
            return Explanation(text, False, f"that is not a move: {err.reason}")
        self.state = state
        self._after_move()
        return Explanation(text, True, reasons[-1] if reasons else "nothing to do")

    @property
    def replay_seat(self) -> int | None:
        """Whose view the finished game's replay shows: None, every hand (the play apps, where
        every hand may be shown after the game); a seat's page replays that seat's view only."""
        return None

    # -- where the board stands: a play app's own screen, or a page of a shared table (a subclass) --

    def seat_label(self, seat: int) -> tuple[str, str]:
        """How the table names a seat: ("You", "Player 1") for the seat on screen, else
        ("Player 2", "Hazel, a bot") and the like."""
        if 0 <= seat < len(self.seats) and seat == self.viewer and self.mode == "bots":
            return "You", seat_name(seat)
        kind = self.seats[seat] if 0 <= seat < len(self.seats) else HUMAN
        return seat_name(seat), ("at this screen" if kind == HUMAN else bot_words(self.game.name, kind))

    @property
    def mode_words(self) -> str:
        """The mode as the turn line names it."""
        return {"bots": "you against bots", "hot-seat": "hot-seat", "watch": "watching bots"}[self.mode]

    @property
    def status_note(self) -> str:
        """A few more words for the turn line (empty: none)."""
        return ""

    @property
    def record_shown(self) -> bool:
        """May this screen show the seed and the record once the game is over?"""
        return True

    @property
    def replay_offered(self) -> bool:
        """Does the game-over box offer the step-through of the finished game?"""
        return True

    def new_game_refusal(self) -> str | None:
        """Why the board may not deal a new game (None: it may; Play again and New game are offered)."""
        return None

    def drawing(self) -> contextlib.AbstractContextManager[Any]:
        """Held while the board draws the session (a shared table's page: its lock)."""
        return contextlib.nullcontext()

    def step(self) -> bool:
        """One bot move (if a bot is to move); True when something happened."""
        if not self.bot_to_move:
            return False
        seat = self.to_move
        move = self.bots[seat].choose(self.state.observation(seat))
        self.state = self.state.play(move, player=seat)
        self._after_move()
        return True

    def reveal(self) -> None:
        """Hot-seat: the player to move has the device; lift the cover."""
        if self.covered and self.is_human(self.to_move):
            self.viewer = self.to_move
            self.covered = False
            self.version += 1

    def _after_move(self) -> None:
        humans = self.humans
        if len(humans) > 1 and not self.state.is_over:
            nxt = self.to_move
            if self.is_human(nxt) and nxt != self.viewer:
                self.covered = True
        self.version += 1


def sequence_refusal(state: Any, seat: int) -> str | None:
    """Within one action of several moves: why the next move is not `seat`'s to make (None: it is)."""
    if state.is_over:
        return "the game is over after the moves before it; no more moves"
    if state.current_player != seat:
        return f"that is more than this turn's moves: {seat_name(state.current_player)} is to move then"
    return None


def _has_option(game_name: str, name: str) -> bool:
    return hasattr(load_game(game_name).config, name)


def bot_words(game_name: str, level: str) -> str:
    """A bot seat as a person reads it: its level's name, e.g. "Hazel, a bot" (the code name stays in the API)."""
    return f"{level_title(game_name, level)}, a bot"


def level_choice(game_name: str, level: str) -> str:
    """A level as a setup offers it: its name and how it plays."""
    blurb = level_blurb(game_name, level)
    return f"{level_title(game_name, level)} (bot)" + (f": {blurb}" if blurb else "")


def default_bot_level(game_name: str) -> str:
    levels = bot_levels(game_name)
    return "heuristic" if "heuristic" in levels else levels[0]


def player_counts(game_name: str) -> list[int]:
    """The player counts the engine accepts (asked, not assumed)."""
    counts = []
    for n in range(1, 9):
        try:
            load_game(game_name, players=n)
        except ConfigError:
            continue
        counts.append(n)
    return counts
