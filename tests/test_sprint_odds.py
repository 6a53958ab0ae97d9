"""Sprint! analysis: lift models, the exact solver, the numpy simulator and the bots."""

from __future__ import annotations

import random

import numpy as np
import pytest

from sloth_kernel import load_game
from sloth_kernel.bots import make_bot, play_out
from sloth_kernel.games.sprint.bots import best_offset
from sloth_kernel.games.sprint.engine import RACE_KINDS, SprintConfig, lift_move, objective_deck, race_pile
from sloth_kernel.games.sprint.odds import (
    APPROXIMATION_TOLERANCE,
    hare_kernels,
    move_distribution,
    optimal_offset,
    optimal_policy,
    win_probability,
    win_table,
)
from sloth_kernel.games.sprint.skill import BlindLifter, GaussianLifter, draw_lift
from sloth_kernel.games.sprint.vector import VectorDeals, simulate

DEFAULT = SprintConfig()


# --- lift models (SP-7) -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "model",
    [
        GaussianLifter(0.15, -1),
        GaussianLifter(0.4, 0),
        GaussianLifter(2.0, -2, "absolute"),
        GaussianLifter(0.2, -1, "two-ended"),
        BlindLifter(),
    ],
)
def test_SP_7_lift_pmfs_are_distributions_on_1_to_31(model):
    for objective in DEFAULT.objectives:
        pmf = model.pmf(objective, 31)
        assert len(pmf) == 32 and pmf[0] == 0.0
        assert min(pmf) >= 0 and sum(pmf) == pytest.approx(1.0, abs=1e-12)


def test_perfect_lifter_hits_the_aim():
    assert GaussianLifter(0, 0).pmf(15, 31)[15] == 1.0
    assert GaussianLifter(0, -2).pmf(15, 31)[13] == 1.0
    assert GaussianLifter(0, -9).pmf(5, 31)[1] == 1.0  # the aim is never below 1 card
    assert all(GaussianLifter(0, 0).lift(15, 31, u) == 15 for u in (0.0, 0.3, 0.999999))


def test_relative_error_grows_with_the_objective_absolute_does_not():
    def spread(model, objective):
        pmf = np.array(model.pmf(objective, 31))
        mean = (pmf * np.arange(32)).sum()
        return float(np.sqrt((pmf * (np.arange(32) - mean) ** 2).sum()))

    relative, absolute = GaussianLifter(0.1, 0), GaussianLifter(1.5, 0, "absolute")
    assert spread(relative, 20) > 2.5 * spread(relative, 6)
    assert spread(absolute, 20) == pytest.approx(spread(absolute, 8), rel=0.02)
    two_ended = GaussianLifter(0.2, 0, "two-ended")
    assert spread(two_ended, 22) < spread(relative := GaussianLifter(0.2, 0), 22) and relative


def test_draw_lift_follows_the_pmf():
    model, rng = GaussianLifter(0.2, -1), random.Random(1)
    counts = np.bincount([draw_lift(model, 15, 31, rng.random()) for _ in range(20_000)], minlength=32)
    expected = np.array(model.pmf(15, 31)) * 20_000
    assert np.abs(counts - expected).max() < 5 * np.sqrt(expected.max()) + 5


def test_bad_lift_models_are_refused():
    for args in ((-0.1, 0), (float("nan"), 0), (0.1, float("inf"))):
        with pytest.raises(ValueError):
            GaussianLifter(*args)
    with pytest.raises(ValueError):
        GaussianLifter(0.1, 0, "sideways")  # type: ignore[arg-type]


# --- the exact solver -------------------------------------------------------------------------------


def test_perfect_table_always_wins():
    # 4 squares a turn reaches 36 on turn 9; the Hare moves at most 4 a turn, 32 in 8 turns
    assert win_probability(GaussianLifter(0, 0)) == pytest.approx(1.0)


def test_always_over_never_wins():
    assert win_probability(GaussianLifter(0, 12)) == 0.0
    assert move_distribution(GaussianLifter(0, 12))[0] == 1.0


def test_win_table_boundaries():
    table = win_table(GaussianLifter(0.15, -1))
    assert table.shape == (36, 36) and ((table >= 0) & (table <= 1 + 1e-12)).all()
    # closer Tortoise or farther-back Hare never hurts (spot checks)
    assert table[30, 10] > table[10, 10] > table[10, 30]
    kernel = hare_kernels(DEFAULT)
    assert kernel.sum(axis=3).max() <= 1 + 1e-12  # sub-stochastic: the rest is the Hare finishing


def independent_draws_monte_carlo(model, games: int, seed: int) -> float:
    """Simulate the solver's own chain (fresh Objective and Hare card every turn) with numpy."""
    rng = np.random.default_rng(seed)
    values = np.array(sorted(DEFAULT.objectives))
    cdf = np.cumsum([model.pmf(int(v), 31) for v in values], axis=1)
    deck = np.array([k for k, n in enumerate(DEFAULT.race_deck) for _ in range(n)])
    carrots = np.array(DEFAULT.carrot_squares)
    t, h = np.zeros(games, int), np.zeros(games, int)
    result = np.full(games, -1)
    alive = np.arange(games)
    while alive.size:
        o = rng.integers(0, len(values), alive.size)
        lift = (cdf[o] <= rng.random(alive.size)[:, None]).sum(axis=1)
        short = values[o] - lift
        moved = np.where(short >= 0, np.maximum(4 - short, 0), 0)
        t[alive] += moved
        won = t[alive] >= 36
        card = deck[rng.integers(0, 32, alive.size)]
        hh = h[alive]
        dist = np.abs(carrots[None, :] - hh[:, None]) * 2 + (carrots[None, :] < hh[:, None])
        nearest = carrots[dist.argmin(axis=1)]
        new = np.select(
            [card <= 3, card == 4, card == 5, card == 6], [hh + card + 1, t[alive], hh, hh + moved], nearest
        )
        h[alive] = np.where(won, hh, new)
        lost = ~won & (h[alive] >= 36)
        result[alive[won]] = 1
        result[alive[lost]] = 0
        alive = alive[~(won | lost)]
    return float(result.mean())


@pytest.mark.parametrize("sigma, offset", [(0.15, -1.0), (0.3, -2.0)])
def test_solver_matches_a_monte_carlo_of_its_own_chain(sigma, offset):
    # no approximation here: both sides draw independently, so only sampling error remains
    model = GaussianLifter(sigma, offset)
    games = 100_000
    exact = win_probability(model)
    estimate = independent_draws_monte_carlo(model, games, seed=3)
    assert abs(estimate - exact) < 4.5 * np.sqrt(exact * (1 - exact) / games)


@pytest.mark.parametrize(
    "model, options",
    [
        (GaussianLifter(0.15, -1), {}),
        (GaussianLifter(0.3, -2), {}),
        (GaussianLifter(0.2, -1), {"small_track": True}),
        (GaussianLifter(0.2, 0), {"young_tortoise": True}),
        (GaussianLifter(1.5, -1, "absolute"), {}),
    ],
)
def test_exact_agrees_with_faithful_simulation_within_the_stated_tolerance(model, options):
    """The independent-draws approximation against the real cyclic pile and objectives without
    replacement, fixed seed: within APPROXIMATION_TOLERANCE (1 point) plus 4 standard errors."""
    config = SprintConfig(**options)
    exact = win_probability(model, config)
    batch = simulate(model, 100_000, config, seed=2024)
    assert abs(batch.win_rate - exact) <= APPROXIMATION_TOLERANCE + 4 * batch.std_error


def test_optimal_offset_beats_its_neighbours_and_aims_low():
    offset, best = optimal_offset(0.15)
    assert -2.0 < offset < 0.0  # going over scores 0, so aim a little low
    for other in (offset - 0.5, offset + 0.5, 0.0, -2.0):
        assert win_probability(GaussianLifter(0.15, other)) <= best + 1e-12
    assert optimal_offset(0.0)[1] == pytest.approx(1.0)


def test_optimal_offset_goes_lower_as_skill_drops():
    offsets = [optimal_offset(s)[0] for s in (0.05, 0.15, 0.3)]
    assert offsets[0] > offsets[1] > offsets[2]


def test_position_policy_beats_the_best_single_offset_and_evaluates_to_its_value():
    policy = optimal_policy(0.2)
    _, single = optimal_offset(0.2)
    assert policy.win >= single - 1e-9
    assert win_probability(policy) == pytest.approx(policy.win, abs=1e-9)
    # one square from home any lift up to three short finishes: the policy aims well below the Objective
    assert policy.offset(20, 35, 0) <= -2


# --- the numpy simulator ----------------------------------------------------------------------------


def engine_game_with_uniforms(game, seed: int, model, uniforms: np.ndarray):
    state = game.new_state(seed)
    turn = 0
    while not state.is_over:
        lift = draw_lift(model, state.objective, 31, float(uniforms[turn]), state.tortoise, state.hare)
        state = state.play(lift_move(lift))
        turn += 1
    return state


@pytest.mark.parametrize(
    "model, options",
    [
        (GaussianLifter(0.2, -1), {}),
        (GaussianLifter(0.25, 0, "two-ended"), {"small_track": True, "young_tortoise": True}),
    ],
)
def test_vector_replays_engine_games_one_for_one(model, options):
    game = load_game("sprint", **options)
    config = game.config
    seeds = list(range(60))
    turns, shuffles = 200, 12
    rng = np.random.default_rng(9)
    uniforms = rng.random((len(seeds), turns))
    deals = VectorDeals(
        piles=np.array([race_pile(config, s) for s in seeds]),
        objective_decks=np.array([[objective_deck(config, s, r) for r in range(shuffles)] for s in seeds]),
        uniforms=uniforms,
    )
    batch = simulate(model, 0, config, deals=deals)
    for i, seed in enumerate(seeds):
        state = engine_game_with_uniforms(game, seed, model, uniforms[i])
        assert bool(batch.wins[i]) == (state.winner == "tortoise")
        assert int(batch.turns[i]) == len(state.history)
        assert (int(batch.tortoise[i]), int(batch.hare[i])) == (state.tortoise, state.hare)


def test_vector_replays_a_positional_policy_one_for_one():
    game, policy = load_game("sprint"), optimal_policy(0.2)
    uniforms = np.random.default_rng(4).random((20, 200))
    deals = VectorDeals(
        np.array([race_pile(game.config, s) for s in range(20)]),
        np.array([[objective_deck(game.config, s, r) for r in range(12)] for s in range(20)]),
        uniforms,
    )
    batch = simulate(policy, 0, game.config, deals=deals)
    for seed in range(20):
        state = engine_game_with_uniforms(game, seed, policy, uniforms[seed])
        assert int(batch.turns[seed]) == len(state.history)
        assert bool(batch.wins[seed]) == (state.winner == "tortoise")


def test_vector_statistics_match_the_scalar_engine():
    model = GaussianLifter(0.2, -1)
    game = load_game("sprint")
    rng = random.Random(0)
    wins, turns, hares = [], [], []
    for seed in range(2500):
        state = game.new_state(seed)
        while not state.is_over:
            state.apply_unchecked(lift_move(model.lift(state.objective, 31, rng.random())))
        wins.append(state.winner == "tortoise")
        turns.append(len(state.history))
        hares.append(min(state.hare, 36))
    batch = simulate(model, 200_000, seed=11)
    n = len(wins)
    p = batch.win_rate
    assert abs(np.mean(wins) - p) < 4 * np.sqrt(p * (1 - p) / n)
    for scalar, vector in ((turns, batch.turns), (hares, np.minimum(batch.hare, 36))):
        spread = np.std(vector) / np.sqrt(n)
        assert abs(np.mean(scalar) - np.mean(vector)) < 4 * spread


def test_vector_batches_are_seeded_and_chunked_consistently():
    model = GaussianLifter(0.2, -1)
    first, second = simulate(model, 5000, seed=1), simulate(model, 5000, seed=1)
    assert np.array_equal(first.wins, second.wins) and np.array_equal(first.turns, second.turns)
    assert not np.array_equal(first.turns, simulate(model, 5000, seed=2).turns)
    assert first.games == 5000 and 0 < first.win_rate < 1 and first.std_error > 0


def test_vector_blind_lifter_reshuffles_objectives():
    batch = simulate(BlindLifter(), 20_000, seed=5)
    assert batch.turns.max() > 18  # long games go through reshuffled Objective decks
    assert abs(batch.win_rate - win_probability(BlindLifter())) < 0.01


# --- bots --------------------------------------------------------------------------------------


def test_expert_bot_uses_the_solvers_offset():
    bot = make_bot("sprint", "expert", seed=0, sigma=0.2)
    assert bot.model_for(DEFAULT).offset == optimal_offset(0.2)[0]
    assert best_offset(0.2, "relative", DEFAULT) == optimal_offset(0.2)


@pytest.mark.parametrize("level", ["heuristic", "expert", "master"])
def test_bots_play_whole_games(level):
    game = load_game("sprint", players=3)
    bots = [make_bot("sprint", level, seed=s) for s in range(3)]
    state = play_out(game.new_state(5), bots)
    assert state.is_over and state.returns() in ((1.0,) * 3, (0.0,) * 3)


def test_bot_refuses_an_observation_that_is_not_its_turn():
    state = load_game("sprint").new_state(1)
    with pytest.raises(ValueError):
        make_bot("sprint", "heuristic").choose(state.observation(1))


def test_race_kinds_order_matches_the_deck_option():
    assert RACE_KINDS == ("move 1", "move 2", "move 3", "move 4", "join", "rest", "copy", "carrot")
