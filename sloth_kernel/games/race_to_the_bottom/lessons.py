"""Scripted deals for the race-to-the-bottom lessons (replayed through the public protocol by the tests)."""

from typing import Any

from sloth_kernel.lessons import Html, Lesson, board, log_list, plain_list, replay_sentence, sentences, table
from sloth_kernel.registry import load_game

LESSONS: tuple[Lesson, ...] = (
    Lesson(
        "rb-passing",
        "race-to-the-bottom",
        "Matching pairs climb (RB-2), Aces reset (RB-4); a pass is permanent: pitch, refill to 12 (RB-7); "
        "the last player in plays on over their own meld (RB-8).",
        {
            "hands": ["7 7 9 9 Q Q 3 4 5 K K K", "5 5 6 6 2 3 8 J J A * T"],
            "decks": ["2 2 5 8 6 6 T", "4 4 7 8 9 9 J Q"],
        },
        ("7 7", "J J", "K K", "A *A", "9 9", "pass", "pitch 2", "pitch 3", "done", "Q Q", "pass", "done"),
        {"players": 2},
    ),
    Lesson(
        "rb-cheats",
        "race-to-the-bottom",
        "A Cheat beats any normal meld; after a Cheat only bigger or equal Cheats follow (RB-6); "
        "Jokers make the bigger ones (RB-3).",
        {"hands": ["7 7 7 8 8 8 9 9 9 * * 2", "4 4 4 4 5 6 7 8 9 T J Q"], "decks": ["3 3 5", "2 2 3"]},
        ("7 7 7 8 8 8", "4 4 4 4", "9 9 9 *9 *9", "pass", "done"),
        {"players": 2},
    ),
)


# --- the lesson notebook's views (sentences, tables, pictures: never Python values) ------------

GAME = "race-to-the-bottom"
PLACES = ("first", "second", "third", "fourth")


def deal(players: int = 3, seed: int = 7) -> Html:
    """A seeded deal; shown, it is the teacher's view with every hand open."""
    return board(load_game(GAME, players=players).new_state(seed=seed))


def seat_view(players: int = 3, seed: int = 7, seat: int = 0) -> Html:
    """What one player may know at the start (RB-11): their own hand, every count, every played card."""

    state = load_game(GAME, players=players).new_state(seed=seed)
    return board(state, seat)


def _answer(state: Any, move: str) -> list[Any]:
    explanation = state.explain(move)
    return [explanation.legal, explanation.reason, ", ".join(explanation.rules)]


def which_moves(players: int = 3, seed: int = 7) -> Html:
    """How many ways the leader has to lead, a few of them, and the engine's answer to two tries."""
    state = load_game(GAME, players=players).new_state(seed=seed)
    moves = [m.describe() if hasattr(m, "describe") else m.words for m in state.legal_moves()]  # in words: "10", Jokers
    intro = sentences(
        f"Player {state.current_player + 1} leads and has {len(moves)} ways to do it, for example "
        f"{plain_list(moves[-6:])}. The engine explains any try:"
    )
    rows = [[move, *_answer(state, move)] for move in ("pass", "K A 2")]
    return intro + table(["Move", "Legal?", "Why", "Rules"], rows)


def rulebook_example() -> Html:
    """The rulebook's own climb, from an explicit deal: Queens, then Aces (a reset), then 4s, then a Cheat."""
    demo = load_game(GAME, players=3).from_deal(
        {"hands": ["Q Q 7 8 9", "A A 6 6 *", "4 4 3 4 5 5 5 5"], "decks": ["2 3", "2 3", "2 3"]}
    )
    rows: list[list[Any]] = []
    demo = demo.play("Q Q")
    for plan in (("6 6", "6 *6", "A A"), ("4 4", "3 4", "5 5 5 5"), ("7 8 9",)):
        player = f"Player {demo.current_player + 1}"
        rows.extend([player, move, *_answer(demo, move)] for move in plan)
        if len(plan) > 1:
            demo = demo.play(plan[-1])
    intro = sentences("Player 1 leads a Pair of Queens. Each row asks the engine about one answer:")
    return intro + table(["Player", "Tries", "Legal?", "Why", "Rules"], rows)


def bot_race(seed: int = 7, players: int = 3, **options: Any) -> Any:
    """Heuristic bots race (or run a Grand Prix); they only receive observations."""
    from sloth_kernel.bots import make_bot, play_out

    game = load_game(GAME, players=players, **options)
    bots = [make_bot(game.name, "heuristic", seed=seat) for seat in range(players)]
    return play_out(game.new_state(seed=seed), bots)


def narrate(state: Any, head: int = 24, tail: int = 6) -> Html:
    """The race's log, the middle folded away."""
    return log_list(state.log, head=head, tail=tail)


def race_result(state: Any) -> Html:
    """The finishing order, each player with their own cards left, and the replay check."""
    result = state.results[-1]
    rows = [
        [PLACES[place].capitalize(), f"Player {seat + 1}", result.left[seat]] for place, seat in enumerate(result.order)
    ]
    winner = result.order[0]
    words = sentences(
        f"Player {winner + 1} sheds all 54 cards first and wins the race (RB-9) after {len(state.history)} moves; "
        "the others are placed by the cards they still hold."
    )
    return words + table(["Place", "Player", "Cards left"], rows) + replay_sentence(state)


def grand_prix_result(state: Any) -> Html:
    """Each race's order and points, then the totals and who wins the Grand Prix (RB-10)."""
    players = len(state.points)
    header = ["Race", *(PLACES[p].capitalize() for p in range(players))]
    rows = [[f"Race {r.race + 1}", *(f"Player {s + 1}" for s in r.order)] for r in state.results]
    points_header = ["Player", *(f"Race {r.race + 1}" for r in state.results), "Total"]
    points_rows = [[f"Player {s + 1}", *(r.points[s] for r in state.results), state.points[s]] for s in range(players)]
    best = max(state.points)
    winners = [f"Player {s + 1}" for s in range(players) if state.points[s] == best]
    verdict = (
        f"{winners[0]} wins the Grand Prix with {best} points."
        if len(winners) == 1
        else f"{plain_list(winners)} tie on {best} points and share the win."
    )
    return table(header, rows) + table(points_header, points_rows) + sentences(verdict + " (RB-10)")


def question(name: str) -> tuple[str, tuple[str, ...], str, str]:
    """A self-check question with the ruling that answers it."""
    game = load_game(GAME)
    if name == "pass":
        return (
            "You passed. The trick goes on. When may you play again?",
            ("As soon as my turn comes round", "Only in the next trick"),
            "Only in the next trick",
            f"{game.rules['RB-7']} (RB-7)",
        )
    if name == "empty hand":
        return (
            "Your hand is empty but your deck still holds 5 cards. Have you won?",
            ("Yes", "No: hand and deck must both be empty"),
            "No: hand and deck must both be empty",
            f"{game.rules['RB-9']} (RB-9)",
        )
    raise KeyError(f"no question {name!r}")
