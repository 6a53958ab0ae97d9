"""Scripted deals for the surplus-of-sloths lessons (replayed through the public protocol by the tests)."""

from typing import Any

from sloth_kernel.lessons import Html, Lesson, board, log_list, plain_list, replay_sentence, sentences, table
from sloth_kernel.registry import load_game

LESSONS: tuple[Lesson, ...] = (
    Lesson(
        "ss-game",
        "surplus-of-sloths",
        "A whole game for 3 (dealt from seed 2024): secret picks (SS-3), drafting from one row with the "
        "leftover falling into the Net (SS-4, SS-5), and the reveal with a tie-break and X cards (SS-7..SS-9).",
        None,
        (
            "pick L5",
            "pick S3",
            "pick L3",
            "take LX from row 2",
            "take S2 from row 2",
            "take R2 from row 2",
            "take RX from row 2",
            "take L7 from row 2",
            "take S7 from row 2",
            "take R7 from row 2",
            "take R6 from row 2",
            "take S4 from row 2",
            "take RX from row 1",
            "take Y7 from row 1",
            "take SX from row 1",
            "take L2 from row 2",
            "take S6 from row 2",
            "take Y2 from row 2",
            "take L4 from row 2",
            "take L6 from row 2",
            "take YX from row 2",
            "take LX from row 1",
            "take Y5 from row 1",
            "take RX from row 1",
        ),
        {"players": 3},
        seed=2024,
    ),
)


# --- the lesson notebook's views (sentences, tables, pictures: never Python values) ------------

GAME = "surplus-of-sloths"


def deal(players: int = 3, seed: int = 2024) -> Html:
    """A seeded deal (before the opening picks)."""
    return board(load_game(GAME, players=players).new_state(seed=seed))


def seat_view(players: int = 3, seed: int = 2024, seat: int = 0) -> Html:
    """What one player sees before the opening pick (SS-11)."""
    words = sentences(
        f"Player {seat + 1} sees their own three cards; the others' hands stay hidden. Once drafting starts, "
        "every drafted card is public, so only the two cards kept from this deal stay private (SS-11)."
    )
    return words + board(load_game(GAME, players=players).new_state(seed=seed), seat)


def opening(players: int = 3, seed: int = 2024) -> Html:
    """The opening pick: the choices, the engine's word on one, and the log once everyone has picked."""
    state = load_game(GAME, players=players).new_state(seed=seed)
    moves = [str(m).removeprefix("pick ") for m in state.legal_moves()]
    first = state.explain(state.legal_moves()[0])
    for _ in range(players):
        state = state.play(state.legal_moves()[0])
    words = sentences(
        f"Player 1 may put any one of their cards into the Net: {plain_list(moves, 'or')}. Choosing {moves[0]}: "
        f"{first.reason} ({', '.join(first.rules)}). When everyone has picked, the log reads:"
    )
    return words + log_list(state.log[-5:])


def after_opening(players: int = 3, seed: int = 2024) -> Any:
    """The teacher's view once every opening pick is made and the River rows are dealt."""
    state = load_game(GAME, players=players).new_state(seed=seed)
    for _ in range(players):
        state = state.play(state.legal_moves()[0])
    return state


def which_moves(players: int = 3, seed: int = 2024) -> Html:
    """The engine's answers about drafting: the Active Player's choice binds the others to that row."""
    state = after_opening(players, seed)
    first = state.legal_moves()[0]
    after = state.play(first)
    other_row = 2 if first.row == 1 else 1
    wrong = f"take {after.view().rivers[other_row - 1][0]} from row {other_row}"
    right = str(after.legal_moves()[0])
    rows = []
    for who, position, move in (
        ("Player 1", state, str(first)),
        ("Player 2", after, wrong),
        ("Player 2", after, right),
    ):
        answer = position.explain(move)
        rows.append([who, move, answer.legal, answer.reason, ", ".join(answer.rules)])
    return table(["Player", "Move", "Legal?", "Why", "Rules"], rows)


def scoring_examples(nets: tuple[tuple[str, ...], ...] = (("L2", "L5", "LX", "LX"), ("B2", "B3", "B5"))) -> Html:
    """Points for some Nets, with the arithmetic (SS-9)."""
    from sloth_kernel.games.surplus_of_sloths.cards import CARD_IDS, points

    rows = []
    for net in nets:
        score, arithmetic = points([CARD_IDS[code] for code in net])
        rows.append([" ".join(net), score, arithmetic])
    return table(["The Net holds", "Points", "How"], rows)


def bot_game(seed: int = 2024, players: int = 3, **options: Any) -> Any:
    """Two heuristic bots and a random bot (or all heuristic, for a match) play a seeded game."""
    from sloth_kernel.bots import make_bot, play_out

    game = load_game(GAME, players=players, **options)
    levels = ["heuristic"] * players if options else ["heuristic", "heuristic", *["random"] * (players - 2)]
    bots = [make_bot(game.name, level, seed=seat) for seat, level in enumerate(levels)]
    return play_out(game.new_state(seed=seed), bots)


def narrate(state: Any, head: int = 16) -> Html:
    """The draft, from the first line up to the reveal (the middle folded away)."""
    start = reveal_start(state)
    return log_list(state.log[:start], head=min(head, start), tail=2)


def reveal_start(state: Any) -> int:
    return next(i for i, e in enumerate(state.log) if "the game ends" in e.text)


def reveal(state: Any) -> Html:
    """The reveal's log lines, type by type."""
    return log_list(state.log[reveal_start(state) :])


def reveal_table(state: Any) -> Html:
    """Per type: the Net, who takes it and why nobody does when nobody does, the points; then the scores."""
    rows = []
    for result in state.reveal:
        if result.winner is not None:
            taker = f"Player {result.winner + 1}"
        elif any(run.length for run in result.runs):
            taker = "nobody: the best runs tie (SS-8)"
        else:
            taker = "nobody: no one has a run of this type (SS-8)"
        rows.append([result.type_name, " ".join(result.net_cards), taker, result.arithmetic or "no points"])
    scores = state.view().scores
    best = max(scores)
    winners = [f"Player {s + 1}" for s, score in enumerate(scores) if score == best]
    verdict = (
        f"{winners[0]} wins with {best} points."
        if len(winners) == 1
        else f"{plain_list(winners)} share the win with {best} points."
    )
    score_rows = [[f"Player {s + 1}", score] for s, score in enumerate(scores)]
    return (
        table(["Type", "The Net holds", "Taken by", "Points"], rows)
        + table(["Player", "Score"], score_rows)
        + sentences(verdict + " (SS-9)")
    )


def match_result(state: Any) -> Html:
    """A Super Surplus match: each game's scores and winners, the wins, and the replay check (SS-10)."""
    players = len(state.wins)
    rows = [
        [f"Game {r.number}", *r.scores, plain_list(f"Player {s + 1}" for s in r.winners) or "nobody"]
        for r in state.view().games
    ]
    header = ["Game", *(f"Player {s + 1}" for s in range(players)), "Winner"]
    champion = max(range(players), key=lambda s: state.wins[s])
    return (
        table(header, rows)
        + sentences(f"Player {champion + 1} is first to two wins and takes the match (SS-10).")
        + replay_sentence(state)
    )


def question(name: str) -> tuple[str, tuple[str, ...], str, str]:
    """A self-check question answered by the game's own scoring."""
    from sloth_kernel.games.surplus_of_sloths.cards import CARD_IDS, best_run, points

    if name == "points":
        net = ("L2", "L5", "LX", "LX")
        score, arithmetic = points([CARD_IDS[c] for c in net])
        return (
            f"You take a Net holding {', '.join(net)}. How many points?",
            ("7", "14", "21", "28"),
            str(score),
            f"{arithmetic}: each X adds the sum of the numbers again (SS-9)",
        )
    if name == "run":
        mine = ("L1", "LX", "L3", "L6")
        run = best_run([CARD_IDS[c] for c in mine], 2)
        return (
            f"Your Linnaeus cards are {', '.join(mine)}. How long is your best run?",
            ("2", "3", "4"),
            str(run.length),
            "the X stands in for the missing 2, so 1-X-3 is a run; the 6 is not next to it (SS-7)",
        )
    if name == "tie":
        game = load_game(GAME)
        return (
            "Your run is 4-5-6; a rival's is 1-X-3. Both are 3 long. Who takes the Net?",
            ("I do: my highest number is higher", "Nobody: it is a tie", "The rival: they used an X"),
            "I do: my highest number is higher",
            f"{game.rules['SS-7']} {game.rules['SS-8']} (SS-7, SS-8)",
        )
    raise KeyError(f"no question {name!r}")
