"""Scripted deals for the too-sloth-to-win lessons (replayed through the public protocol by the tests)."""

from typing import Any

from sloth_kernel.checker import scenario
from sloth_kernel.lessons import Html, Lesson, board, lesson, log_list, plain_list, replay_sentence, sentences, table
from sloth_kernel.registry import load_game

LESSONS: tuple[Lesson, ...] = (
    Lesson(
        "ts-passing",
        "too-sloth-to-win",
        "Passing weakens the table: each pass takes an end card (TS-6) until a Single is left, "
        "and passing on a Single eliminates you (TS-7).",
        {"hands": ["4 5 6 1", "2 2 8 6", "6 7 3", "1 1 1 8"]},
        ("4-5-6", "pass 6", "6-7", "pass 7", "pass", "2-2"),
        {"players": 4, "rounds": 1},
    ),
    Lesson(
        "ts-drink",
        "too-sloth-to-win",
        "The Suspicious Drink is declared inside a Jump or Run (TS-4); left alone on the table it is a Single 9.",
        {"hands": ["4 6 D 2", "8 1 1", "5 5 3", "7 7 2"]},
        ("4-D5-6", "pass 4", "pass 6", "7-7"),
        {"players": 4, "rounds": 1},
    ),
    Lesson(
        "ts-round",
        "too-sloth-to-win",
        "A whole round: Jumps climb, drinks are declared, passes weaken the table down to a lone drink "
        "(a Single 9), the first finisher's Trophy (TS-10), drug possession, and the race for second (TS-11).",
        {"hands": ["2 2 2 5 6 6 8 8 D", "1 3 3 3 4 5 6 7 D", "1 1 1 4 4 7 7 7 D", "2 3 3 4 5 7 8 8 D"]},
        (
            "2-2-2",
            "3-3-3",
            "7-7-7",
            "8-8-D8",
            "pass 8",
            "pass 8",
            "1-1-1",
            "pass 1",
            "6-6-D6",
            "pass 6",
            "4-4-D4",
            "pass 4",
            "8-8-8",
        ),
        {"players": 4, "rounds": 1},
    ),
)


# --- the lesson notebook's views (sentences, tables, pictures: never Python values) ------------

GAME = "too-sloth-to-win"


def deal(players: int = 4, seed: int = 7) -> Html:
    """A seeded deal; shown, it is the teacher's view with every hand open."""
    return board(load_game(GAME, players=players).new_state(seed=seed))


def seat_view(players: int = 4, seed: int = 7) -> Html:
    """What the player to move knows at the start of a seeded deal (TS-15)."""
    from sloth_kernel.games.too_sloth_to_win.combos import hand_words

    state = load_game(GAME, players=players).new_state(seed=seed)
    me = state.current_player
    obs = state.observation(me)
    rows = [
        [
            f"Player {seat + 1}",
            obs.hand_sizes[seat],
            obs.drinks_held[seat],
            hand_words(obs.hands[seat]) if obs.hands[seat] is not None else "hidden",
        ]
        for seat in range(players)
    ]
    words = sentences(
        f"Player {me + 1} is to move. They see their own hand and, for everyone, how many cards "
        "they hold and whether they still hold a drink (TS-15); the other hands are hidden."
    )
    return words + table(
        ["Player", "Cards in hand", "Drinks held", f"Hand, as Player {me + 1} sees it"],
        rows,
    )


def standings(state: Any) -> Html:
    """Trophies and Cash Chips per player, and the winner once the game is over (TS-14)."""
    view = state.view()
    rows = [[f"Player {s + 1}", view.trophies[s], view.chips[s]] for s in range(len(view.chips))]
    result = table(["Player", "Trophies", "Cash Chips"], rows)
    if state.is_over:
        result = result + sentences(
            f"Player {state.winner() + 1} wins: most Cash Chips, then most Trophies, then the most recent "
            "Cash Chip decide (TS-14)."
        )
    return result


def lesson_standings(name: str = "ts-round") -> Html:
    """Trophies and Cash Chips after a scripted deal."""
    return standings(lesson(name).state())


def which_moves(seed: int = 7) -> Html:
    """How many moves the first player has, a few of them, and the engine's answer to some tries."""
    state = load_game(GAME, players=4).new_state(seed=seed)
    legal = state.legal_moves()
    moves = [m.words for m in legal]  # in words: a drink is "a drink as the 2", not "D2"
    strongest = str(legal[-1])  # the Move column is what a player types: the notation
    after = state.play(strongest)
    intro = sentences(
        f"Player {state.current_player + 1} leads and has {len(moves)} legal moves, for example "
        f"{plain_list(moves[:6])}. The engine explains any try:"
    )
    rows = [
        ["Player 1, empty table", strongest, *_answer(state, strongest)],
        ["Player 1, empty table", "D5", *_answer(state, "D5")],
        [f"Player 2, after {moves[-1]}", "1", *_answer(after, "1")],
    ]
    return intro + table(["Position", "Move", "Legal?", "Why", "Rules"], rows)


def _answer(state: Any, move: str) -> list[Any]:
    explanation = state.explain(move)
    return [explanation.legal, explanation.reason, ", ".join(explanation.rules)]


def bot_game(seed: int = 7, players: int = 4) -> Any:
    """Heuristic bots play a whole seeded game (three rounds); they only receive observations."""
    from sloth_kernel.bots import make_bot, play_out

    game = load_game(GAME, players=players)
    bots = [make_bot(game.name, "heuristic", seed=seat) for seat in range(players)]
    return play_out(game.new_state(seed=seed), bots)


def narrate(state: Any, head: int = 25, tail: int = 6) -> Html:
    """The game's log, the middle folded away."""
    return log_list(state.log, head=head, tail=tail)


def question(name: str) -> tuple[str, tuple[str, ...], str, str]:
    """A self-check question whose answer and reason come from the engine and the rulings."""
    game = load_game(GAME, players=4)
    if name == "single":
        single, _ = scenario(GAME, "6", "pass")
        return (
            "A Single 6 is on the table and you cannot beat it. You pass. What happens?",
            ("I take the 6", "I am eliminated from the round", "Nothing: the next player goes"),
            "I am eliminated from the round",
            f"{single.explain('pass').reason} (TS-7)",
        )
    if name == "drink":
        return (
            "Someone crosses the finish line first while you still hold your drink. What happens to you?",
            ("Nothing", "I am eliminated: drug possession", "I must play it at once"),
            "I am eliminated: drug possession",
            f"{game.rules['TS-10']} (TS-10)",
        )
    raise KeyError(f"no question {name!r}")


def replay(state: Any) -> Html:
    """Whether the game's record replays to the same game."""
    return replay_sentence(state)
