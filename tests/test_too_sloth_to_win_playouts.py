"""Seeded random playouts of Too Sloth To Win, checked against invariants and a brute-force rule oracle."""

from __future__ import annotations

import itertools
import random

import pytest

from sloth_kernel import load_game
from sloth_kernel.games.too_sloth_to_win.engine import DRINK, DRINK_BASE, LONE_DRINK, Pass, Play, TooSlothState


def oracle_kind(values: list[int]) -> str | None:
    if len(values) == 1:
        return "single"
    if len(set(values)) == 1:
        return "jump"
    ordered = sorted(values)
    if all(b - a == 1 for a, b in zip(ordered, ordered[1:], strict=False)):
        return "run"
    return None


def oracle_beats(new: list[int], old: list[int]) -> bool:
    """TS-3 restated independently from the engine."""
    if not old:
        return True
    new_kind, old_kind = oracle_kind(new), oracle_kind(old)
    if old_kind == "single":
        return new_kind in ("jump", "run") or max(new) > max(old)
    if new_kind != old_kind:
        return False
    if len(new) != len(old):
        return len(new) > len(old)
    return max(new) > max(old)


def oracle_moves(hand: list[int], table: tuple[int, ...]) -> set[str]:
    """Every legal move by brute force over the hand's cards and every drink declaration."""
    cards = [n for n in range(1, 9) for _ in range(hand[n])] + ["D"] * hand[DRINK]
    found: set[str] = set()
    for size in (1, 2, 3):
        for chosen in set(itertools.combinations(cards, size)):
            naturals = [c for c in chosen if c != "D"]
            drinks = size - len(naturals)
            if drinks > 1 or (drinks and size == 1):
                continue
            for declared in range(1, 10) if drinks else [None]:
                values = naturals + ([declared] if declared else [])
                if oracle_kind(values) is None:  # type: ignore[arg-type]
                    continue
                old = [c - DRINK_BASE if c > DRINK_BASE else c for c in table]
                if oracle_beats(values, old):  # type: ignore[arg-type]
                    labels = sorted(
                        [(n, 0, str(n)) for n in naturals] + ([(declared, 1, f"D{declared}")] if declared else [])
                    )
                    found.add("-".join(label for _, _, label in labels))
    if not table:
        return found or {"pass"}
    if len(table) == 1:
        return found | {"pass"}
    values = [c - DRINK_BASE if c > DRINK_BASE else c for c in table]
    ends = [table[0], table[-1]] if oracle_kind(values) == "run" else list(table)
    return found | {"pass D" if c > DRINK_BASE else f"pass {c}" for c in ends}


def cards_in_play(state: TooSlothState) -> int:
    return sum(sum(h) for h in state.hands) + len(state.table) + state.discarded + sum(state.undealt)


def check_invariants(state: TooSlothState, deck_size: int, drinks: int) -> None:
    players = len(state.hands)
    assert cards_in_play(state) == deck_size + players * drinks, "cards are conserved"
    assert all(min(h) >= 0 for h in state.hands)
    assert sum(state.chips) == sum(len(r.chip) for r in state.results)
    trophy_pending = 1 if state.finishers and len(state.results) == state.round else 0
    assert sum(state.trophies) == sum(len(r.trophy) for r in state.results) + trophy_pending
    assert all(len(r.chip) <= 1 and len(r.trophy) <= 1 for r in state.results)
    if state.table == (LONE_DRINK,) or any(c > DRINK_BASE for c in state.table):
        assert sum(c > DRINK_BASE for c in state.table) == 1


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_playouts_keep_every_invariant(players: int) -> None:
    game = load_game("too-sloth-to-win", players=players)
    deck_size = len(game.deck())  # type: ignore[attr-defined]
    rng = random.Random(players)
    for seed in range(700):
        state: TooSlothState = game.new_state(seed=seed)  # type: ignore[assignment]
        round_moves = 0
        while not state.is_over:
            check_invariants(state, deck_size, 1)
            seat = state.current_player
            moves = state.legal_moves()
            if seed < 60:
                assert {str(m) for m in moves} == oracle_moves(state.hands[seat], state.table)
            obs = state.observation(seat)
            assert all(obs.hands[s] is None for s in range(players) if s != seat)
            assert set(obs.legal_moves) == set(moves)
            before_round, before_positions = state.round, list(state.positions)
            move = moves[rng.randrange(len(moves))]
            state.apply_unchecked(move)
            if state.round == before_round and not state.is_over:
                assert all(a <= b for a, b in zip(before_positions, state.positions, strict=False)), (
                    "positions never go down"
                )
                round_moves += 1
            else:
                round_moves = 0
            assert round_moves < 400, "every round ends"
        check_invariants(state, deck_size, 1)
        assert len(state.results) == 3
        assert sum(state.returns()) == 1.0
        assert sum(state.chips) <= 3 and sum(state.trophies) <= 3


def test_checked_play_agrees_with_the_fast_path() -> None:
    game = load_game("too-sloth-to-win")
    rng = random.Random(9)
    for seed in range(40):
        slow = fast = game.new_state(seed=seed)
        fast = fast.clone()
        while not slow.is_over:
            move = rng.choice(slow.legal_moves())
            slow = slow.play(move)
            fast.apply_unchecked(move)
        assert slow.view() == fast.view()


def test_no_board_variant_finishes_on_an_empty_hand() -> None:
    game = load_game("too-sloth-to-win", no_board=True)
    rng = random.Random(1)
    for seed in range(100):
        state: TooSlothState = game.new_state(seed=seed)  # type: ignore[assignment]
        while not state.is_over:
            round_before = state.round
            move = rng.choice(state.legal_moves())
            seat = state.current_player
            state.apply_unchecked(move)
            if isinstance(move, Play) and state.round == round_before and state.status[seat] == 1:
                assert sum(state.hands[seat]) == 0
        assert sum(state.returns()) == 1.0


def test_passes_are_offered_exactly_when_the_rules_allow() -> None:
    state: TooSlothState = load_game("too-sloth-to-win").new_state(seed=0)  # type: ignore[assignment]
    assert all(isinstance(m, Play) for m in state.legal_moves())
    assert Pass(None) not in state.legal_moves()
