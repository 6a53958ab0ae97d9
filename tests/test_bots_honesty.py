"""Bots never peek: they get observations only, equal observations give equal decisions,
and the ISMCTS resampler only builds worlds consistent with what the bot may know.

Small budgets and few seeds keep this quick; strength and speed live in the arena.
"""

from __future__ import annotations

import dataclasses
import pickle
import random
from collections import Counter
from typing import Any

import pytest

from sloth_kernel import load_game
from sloth_kernel.bots import bot_levels, make_bot
from sloth_kernel.bots.determinize import determinize

SEARCH_GAMES = {
    "too-sloth-to-win": [
        {"players": 3, "drinks": 2, "finish": 12, "rounds": 2},
        {"players": 4},
        {"players": 5, "no_board": True},
    ],
    "surplus-of-sloths": [{"players": 2}, {"players": 3, "babies": True}, {"players": 2, "super_surplus": True}],
    "race-to-the-bottom": [{"players": 2}, {"players": 3, "grand_prix": True}],
}
SMALL = {"ismcts": {"iterations": 25}}


def normalized(observation: Any) -> Any:
    """The observation with its legal moves as a set (worlds may list them in another order)."""
    return dataclasses.replace(observation, legal_moves=tuple(sorted(observation.legal_moves, key=str)))


def positions(name: str, options: dict[str, Any], seed: int, every: int) -> list[Any]:
    """Every `every`-th decision point of a seeded heuristic game."""
    game = load_game(name, **options)
    state = game.new_state(seed)
    bots = [make_bot(name, "heuristic", seed=seed * 10 + s) for s in range(game.num_players)]
    found = []
    while not state.is_over:
        seat = state.current_player
        if len(state.history) % every == 0:
            found.append(state)
        state = state.play(bots[seat].choose(state.observation(seat)), player=seat)
    return found


def cards_of_world(name: str, world: Any) -> Counter[Any]:
    """Where every card of the current deal sits, pooled: must equal the full deck."""
    if name == "too-sloth-to-win":
        counts: Counter[Any] = Counter()
        for hand in world.hands:
            counts.update({k: hand[k] for k in range(1, 9)})
        counts.update({k: world.undealt[k] for k in range(1, 9)})
        return counts
    if name == "surplus-of-sloths":
        cards = list(world.deck) + list(world.net) + [c for r in world.rivers for c in r]
        for s in range(world.cfg.players):
            cards += world.kept[s] + world.drafted[s]
        if world.phase == 0:  # picks are not in the Net yet
            cards += [p for p in world.picks if p >= 0]
        return Counter(cards)
    counts = Counter()
    for s in range(world.n):
        counts.update({(s, r): world.hands[s][r] + world.played[s][r] for r in range(14)})
        counts.update((s, r) for r in world.decks[s])
    return counts


@pytest.mark.parametrize("name", sorted(SEARCH_GAMES))
def test_levels_registered(name: str) -> None:
    assert {"random", "heuristic", "ismcts"} <= set(bot_levels(name))


@pytest.mark.parametrize("name", sorted(SEARCH_GAMES))
def test_resampled_worlds_match_the_observation(name: str) -> None:
    """A world sampled from seat s's observation shows seat s exactly that observation."""
    rng = random.Random(1)
    differing = 0
    every = 9 if name == "race-to-the-bottom" else 2
    for options in SEARCH_GAMES[name]:
        for seed in (0, 1):
            for state in positions(name, options, seed, every):
                seat = state.current_player
                obs = state.observation(seat)
                truth = cards_of_world(name, state)
                for _ in range(3):
                    world = determinize(obs, rng)
                    assert normalized(world.observation(seat)) == normalized(obs), (options, seed, len(state.history))
                    assert cards_of_world(name, world) == truth, "the world must hold exactly the round's cards"
                    assert world.game.config == state.game.config, "the rules in force are read from the observation"
                    assert world.seed != state.seed or world.seed == 0, "future shuffles are hidden too"
                    differing += world.view() != state.view()
    assert differing > 0, "the resampler must actually vary the hidden cards"


def test_too_sloth_public_takes_stay_in_hands() -> None:
    """TS-15: a card a player took from the table (and has not played since) is in every world's hand."""
    from sloth_kernel.games.too_sloth_to_win.engine import public_facts

    rng = random.Random(3)
    checked = 0
    for seed in range(6):
        for state in positions("too-sloth-to-win", {"players": 4}, seed, 1):
            seat = state.current_player
            obs = state.observation(seat)
            facts = public_facts(obs)
            world = determinize(obs, rng)
            for other in range(4):
                for kind in range(1, 9):
                    assert world.hands[other][kind] >= facts.known[other][kind]
                    checked += facts.known[other][kind]
                assert world.hands[other][0] == state.hands[other][0], "who holds a drink is public"
    assert checked > 0


def too_sloth_pair() -> tuple[Any, Any]:
    """Two deals that differ only in the opponents' hands (and the seed of later rounds)."""
    game = load_game("too-sloth-to-win", players=4)
    mine = "1 2 3 3 4 5 6 8 D"
    first = {"hands": [mine, "1 1 2 2 4 4 5 5 D", "6 6 7 7 8 8 3 3 D", "1 2 5 6 7 7 8 4 D"], "pacemaker": 0}
    second = {"hands": [mine, "6 6 7 7 8 8 3 3 D", "1 1 2 2 4 4 5 5 D", "1 4 5 6 7 7 8 2 D"], "pacemaker": 0}
    return game.from_deal(first, seed=1), game.from_deal(second, seed=2)


@pytest.mark.parametrize("level", ["random", "heuristic", "ismcts"])
def test_same_observation_same_decision_too_sloth(level: str) -> None:
    one, two = too_sloth_pair()
    assert one.view() != two.view()
    assert one.observation(0) == two.observation(0)
    options = SMALL.get(level, {})
    for seed in range(3):
        a = make_bot("too-sloth-to-win", level, seed=seed, **options).choose(one.observation(0))
        b = make_bot("too-sloth-to-win", level, seed=seed, **options).choose(two.observation(0))
        assert a == b


@pytest.mark.parametrize("name", sorted(SEARCH_GAMES))
def test_same_observation_same_decision_resampled(name: str) -> None:
    """A resampled world is a state that differs only in hidden cards: every bot decides alike."""
    rng = random.Random(5)
    options = SEARCH_GAMES[name][0]
    for state in positions(name, options, 2, 7)[:4]:
        seat = state.current_player
        twin = determinize(state.observation(seat), rng)
        for level in ("random", "heuristic", "ismcts"):
            extra = SMALL.get(level, {})
            a = make_bot(name, level, seed=11, **extra).choose(state.observation(seat))
            b = make_bot(name, level, seed=11, **extra).choose(twin.observation(seat))
            assert a == b, (level, len(state.history))


@pytest.mark.parametrize("name", sorted(SEARCH_GAMES))
def test_ismcts_needs_only_a_detached_observation(name: str) -> None:
    """The bot works from a pickled copy of the observation: no path back to the state."""
    state = positions(name, SEARCH_GAMES[name][0], 4, 5)[1]
    seat = state.current_player
    observation = state.observation(seat)
    copy = pickle.loads(pickle.dumps(observation))
    a = make_bot(name, "ismcts", seed=3, iterations=20).choose(observation)
    b = make_bot(name, "ismcts", seed=3, iterations=20).choose(copy)
    assert a == b and a in observation.legal_moves


@pytest.mark.parametrize("name", sorted(SEARCH_GAMES))
def test_ismcts_plays_whole_games(name: str) -> None:
    from sloth_kernel.bots import play_out

    game = load_game(name, **SEARCH_GAMES[name][0])
    bots = [make_bot(name, "ismcts", seed=s, iterations=8) for s in range(game.num_players)]
    final = play_out(game.new_state(9), bots)
    assert final.is_over and abs(sum(final.returns()) - 1.0) < 1e-9


def test_sprint_expert_level() -> None:
    game = load_game("sprint")
    bot = make_bot("sprint", "expert", seed=0)
    state = game.new_state(0)
    seat = state.current_player
    assert bot.choose(state.observation(seat)) in state.observation(seat).legal_moves
