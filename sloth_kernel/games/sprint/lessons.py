"""Scripted deals for the sprint lessons (replayed through the public protocol by the tests)."""

from typing import Any

from sloth_kernel.lessons import Html, Lesson, board, log_list, picture, replay_sentence, sentences, table
from sloth_kernel.registry import load_game

LESSONS: tuple[Lesson, ...] = (
    Lesson(
        "sp-game",
        "sprint",
        "A whole game for 3 (dealt from seed 7): lifts too many and too few (SP-4), every kind of Hare "
        "card (SP-5), a reshuffled Objective deck (SP-3) and the Tortoise's win (SP-6).",
        None,
        (
            "lift 24",
            "lift 7",
            "lift 21",
            "lift 6",
            "lift 15",
            "lift 7",
            "lift 19",
            "lift 4",
            "lift 14",
            "lift 8",
            "lift 9",
            "lift 14",
            "lift 16",
            "lift 7",
            "lift 17",
            "lift 11",
            "lift 12",
            "lift 15",
            "lift 7",
        ),
        {"players": 3},
        seed=7,
    ),
)


# --- the lesson notebook's views (sentences, tables, pictures: never Python values) ------------

GAME = "sprint"


def deal(players: int = 3, seed: int = 7) -> Html:
    """A seeded deal; shown, it is the teacher's view (the Race pile's order shown)."""
    return board(load_game(GAME, players=players).new_state(seed=seed))


def seat_view(players: int = 3, seed: int = 7) -> Html:
    """What the table knows at the start, and the engine's answer to two lifts."""
    state = load_game(GAME, players=players).new_state(seed=seed)
    obs = state.observation(0)
    words = sentences(
        f"The table sees Objective {obs.objective} and a Race pile of {obs.pile_size} cards. The order of the "
        "pile, and of the Objective deck, is hidden from everyone. The engine explains any lift:"
    )
    rows = []
    for move in ("lift 14", "lift 40"):
        answer = state.explain(move)
        rows.append([move, answer.legal, answer.reason, ", ".join(answer.rules)])
    return words + table(["Move", "Legal?", "Why", "Rules"], rows)


def simulated_game(seed: int = 7, players: int = 3, sigma: float = 0.15) -> Any:
    """Simulated players (aiming one card low, relative Gaussian miss `sigma`) play a seeded game."""
    from sloth_kernel.bots import make_bot, play_out

    bots = [make_bot(GAME, "heuristic", seed=seat, sigma=sigma) for seat in range(players)]
    return play_out(load_game(GAME, players=players).new_state(seed=seed), bots)


def narrate(state: Any, head: int = 12, tail: int = 6) -> Html:
    """The game's log, the middle folded away."""
    return log_list(state.log, head=head, tail=tail)


def game_result(state: Any) -> Html:
    """Who won, in how many turns, and the replay check."""
    view = state.view()
    if view.winner == "tortoise":
        verdict = f"The Tortoise finishes first after {len(state.history)} turns: everyone at the table wins (SP-6)."
    else:
        verdict = f"The Hare finishes first after {len(state.history)} turns: the whole table loses (SP-6)."
    return sentences(verdict) + replay_sentence(state)


def _models() -> list[tuple[str, Any]]:
    from sloth_kernel.games.sprint.skill import BlindLifter, GaussianLifter

    return [
        ("skill 0.15, aiming one card low", GaussianLifter(0.15, -1)),
        ("skill 0.15, aiming at the Objective", GaussianLifter(0.15, 0)),
        ("lifting blindly (any number of cards)", BlindLifter()),
    ]


def exact_vs_simulated(games: int = 50_000, seed: int = 1) -> Html:
    """The exact chain's win chance beside a simulation of the real rules, with the simulation's
    95% interval, and whether each exact figure falls inside it."""
    from sloth_kernel.games.sprint.odds import win_probability
    from sloth_kernel.games.sprint.vector import simulate

    rows = []
    inside = 0
    for label, model in _models():
        exact = win_probability(model)
        batch = simulate(model, games, seed=seed)
        low, high = batch.interval
        agrees = low <= exact <= high
        inside += agrees
        rows.append([label, f"{exact:.1%}", f"{batch.win_rate:.1%}", f"{low:.1%} to {high:.1%}", agrees])
    verdict = (
        "Every exact figure lies inside its simulation's 95% interval."
        if inside == len(rows)
        else f"{inside} of {len(rows)} exact figures lie inside their simulation's 95% interval; "
        "the others show what the approximation costs."
    )
    header = ["Table", "Exact", f"Simulated ({games:,} games)", "95% interval", "Exact inside?"]
    return table(header, rows) + sentences(verdict)


def aim_picture(sigmas: int = 17) -> Html:
    """The exact win chance against skill for three aims."""
    import matplotlib.pyplot as plt
    import numpy as np

    from sloth_kernel.games.sprint.odds import win_probability
    from sloth_kernel.games.sprint.skill import GaussianLifter

    grid = np.linspace(0.0, 0.4, sigmas)
    fig, ax = plt.subplots(figsize=(7, 4))
    for offset, colour, words in (
        (0, "tab:red", "at the Objective"),
        (-1, "tab:green", "one card low"),
        (-2, "tab:blue", "two cards low"),
    ):
        ax.plot(grid, [win_probability(GaussianLifter(s, offset)) for s in grid], color=colour, label=f"aiming {words}")
    ax.set_xlabel("skill: typical miss, as a share of the aim")
    ax.set_ylabel("chance the table wins (exact)")
    ax.set_title("Sprint!: the table's win chance against skill")
    ax.legend()
    ax.grid(alpha=0.3)
    return picture(fig, "Win chance falls as the typical miss grows; aiming one card low is best for most skills.")


def best_aims(sigmas: tuple[float, ...] = (0.05, 0.15, 0.3)) -> Html:
    """The best single aim per skill, and the per-position policy's win chance."""
    from sloth_kernel.games.sprint.odds import optimal_offset, optimal_policy

    rows = []
    for sigma in sigmas:
        offset, best = optimal_offset(sigma)
        policy = optimal_policy(sigma)
        rows.append([f"{sigma:g}", f"{-offset:.2f} cards low", f"{best:.1%}", f"{policy.win:.1%}"])
    header = ["Skill", "Best single aim", "Wins with it", "Wins aiming per position"]
    return table(header, rows)


def question(name: str) -> tuple[str, tuple[str, ...], str, str]:
    """A self-check question whose answer comes from the game's own rule."""
    from sloth_kernel.games.sprint.engine import tortoise_move

    if name == "over":
        return (
            "The Objective is 12. You lift 13 cards. How far does the Tortoise move?",
            ("0", "3", "4"),
            str(tortoise_move(12, 13)),
            "any lift over the Objective moves the Tortoise 0 (SP-4)",
        )
    if name == "short":
        return (
            "The Objective is 12. You lift 10 cards. How far does the Tortoise move?",
            ("1", "2", "3"),
            str(tortoise_move(12, 10)),
            "two short moves it 2 (SP-4)",
        )
    if name == "join":
        return (
            "The Hare is ahead and the Race card says 'join'. Where does the Hare go?",
            ("It stays", "Back to the Tortoise's square", "Forward 1"),
            "Back to the Tortoise's square",
            f"{load_game(GAME).rules['SP-5']} (SP-5)",
        )
    raise KeyError(f"no question {name!r}")
