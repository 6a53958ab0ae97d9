"""Race to the Bottom: the HTML renderer and the heuristic bot."""

from __future__ import annotations

import re

from sloth_kernel import load_game
from sloth_kernel.bots import RandomBot, bot_levels, make_bot, play_out
from sloth_kernel.games.race_to_the_bottom.render import render
from sloth_kernel.render import render_observation


def test_renderer_shows_cards_and_hides_other_hands() -> None:
    state = load_game("race-to-the-bottom", players=3).new_state(2)
    state = state.play(state.legal_moves()[0])  # Player 1 leads
    state = state.play("pass").play(f"pitch {state.view().seats[1].hand[0]}")
    html = render(state.observation(1))
    for css in ("sk-rb-standings", "sk-rb-table", "sk-rb-hands", "sk-rb-log", "sk-rb-pitched", "sk-card-back"):
        assert css in html
    faces = re.findall(r'data-card="([^"]+)"', html)
    mine = state.observation(1).seats[1]
    played = [c for _, meld in state.trick for c in meld.cards]
    assert sorted(faces) == sorted(list(mine.hand) + list(mine.pitched) + played)  # nothing of anyone else
    assert "deck top→bottom" not in html  # deck order only in the omniscient view
    assert "deck top→bottom" in render(state.view())
    assert render_observation(state.view()) == state._repr_html_()


def test_renderer_handles_cheats_the_end_and_a_grand_prix() -> None:
    game = load_game("race-to-the-bottom", players=2, grand_prix=True)
    state = game.from_deal({"hands": ["9 9 9 9 5", "2 3"], "decks": ["", "4 5"]})
    state = state.play("9 9 9 9")
    assert "only Cheats may follow" in render(state.view())
    end = play_out(state, [make_bot(game.name, "heuristic", seed=s) for s in range(2)])
    html = render(end.view())
    assert "sk-rb-results" in html and "over:" in html


def test_heuristic_bot_is_listed_and_plays_only_legal_moves() -> None:
    assert {"random", "heuristic"} <= set(bot_levels("race-to-the-bottom"))
    game = load_game("race-to-the-bottom", players=4)
    bots = [make_bot(game.name, "heuristic", seed=s) for s in range(4)]
    end = play_out(game.new_state(1), bots)  # play_out checks every move
    assert end.is_over and sum(end.returns()) == 1.0


def test_heuristic_bot_beats_random_bots() -> None:
    game = load_game("race-to-the-bottom", players=2)
    wins = 0.0
    for seed in range(12):
        hero = seed % 2
        bots = [RandomBot(seed), RandomBot(seed + 100)]
        bots[hero] = make_bot(game.name, "heuristic", seed=seed)
        wins += play_out(game.new_state(seed), bots).returns()[hero]
    assert wins >= 9


def test_heuristic_bot_is_deterministic_per_seed() -> None:
    game = load_game("race-to-the-bottom", players=3)
    runs = [
        play_out(game.new_state(4), [make_bot(game.name, "heuristic", seed=s) for s in range(3)]).to_record()
        for _ in range(2)
    ]
    assert runs[0] == runs[1]
