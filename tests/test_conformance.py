"""The game authors' kit: ``check_game`` and ``check_board`` pass on every registered game (the four and
the toy plugin), and each of their checks can fail: a deliberately broken toy makes them raise, naming
the failure.

The broken toys are the real toy plugin with one method replaced for the test (monkeypatch), so that
every other part of it (spec, bots, board) stays as an author would ship it.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from outside_games import STICKS
from plugin_dist import TOY, installed
from toy_high_card.engine import TRICK_WON, HighCard, HighCardState, Play

from sloth_kernel import available_games, game_spec
from sloth_kernel.core import NO_PLAYER, Explanation, seeded_rng
from sloth_kernel.errors import ConformanceError, SlothKernelError
from sloth_kernel.testing import CHECKS, CheckReport, check_game

GAMES = available_games()


@pytest.mark.parametrize("name", GAMES)
def test_check_game_passes_on_every_registered_game(name: str) -> None:
    report = check_game(name)
    assert isinstance(report, CheckReport) and report.game == name
    low, high = game_spec(name).players
    assert report.player_counts[0] == low and report.player_counts[-1] == high
    assert report.games == len(report.player_counts) * len(report.seeds)
    assert report.worlds + report.redeals > 0, "every game here has worlds to check its observations against"
    assert "every check passed" in str(report)


@pytest.mark.parametrize("name", [name for name in GAMES if game_spec(name).board is not None])
def test_check_board_passes_on_every_board(name: str) -> None:
    from sloth_widgets.testing import check_board

    check_board(name)


def test_a_game_of_one_move_a_seat_passes() -> None:
    """No assumption that a game lasts more than 12 moves: High Card with one card each is 2 moves."""
    report = check_game(TOY, options={"hand_size": 1}, players=[2])
    assert report.moves == 2 * len(report.seeds)


def test_a_small_outside_game_passes_and_is_told_what_was_not_checked() -> None:
    """The kind of game today's suite failed on: a few moves long, no pictures at all, nothing but the engine."""
    with installed("sticks_dist", {"sticks": "sticks_game:SPEC"}, modules={"sticks_game": STICKS}):
        report = check_game("sticks")
    assert report.games == 4 and report.moves < 4 * 4
    assert report.worlds == 0 and any("checked against the open view" in note for note in report.notes)


def test_a_game_declared_open_that_hides_something_fails_the_declarations_check() -> None:
    """Sticks declaring hidden_information=False while it shows the sticks left only to the seat to move."""
    hiding = STICKS.replace(
        "moves, tuple(self.events), self.left)",
        "moves, tuple(self.events), self.left if player in (None, self.current_player) else -1)",
    )
    assert hiding != STICKS
    sticks = installed("sticks_dist", {"sticks": "sticks_game:SPEC"}, modules={"sticks_game": hiding})
    with sticks, pytest.raises(ConformanceError) as caught:
        check_game("sticks")
    found = [failure for failure in caught.value.failures if failure.check == "declarations"]
    assert found and "hidden_information=False" in found[0].detail and "left" in found[0].detail
    # at the end nobody is to move, so this Sticks shows the count to its public observation (player -1) but
    # to no seat: that public observation is not what every seat sees, which the hidden check says too
    assert {failure.check for failure in caught.value.failures} <= {"declarations", "hidden"}


def test_a_game_declared_without_later_chance_that_draws_from_the_seed_fails_the_declarations_check() -> None:
    """Sticks declaring chance_after_deal=False while a take sometimes drops one more stick, drawn from the seed."""
    drawing = STICKS.replace(
        "        self.left -= move.count\n",
        "        self.left -= move.count\n"
        "        import random\n"
        "        if self.left > 1 and random.Random(f'{self.seed}/{len(self.history)}').random() < 0.5:\n"
        "            self.left -= 1\n",
    )
    assert drawing != STICKS
    sticks = installed("sticks_dist", {"sticks": "sticks_game:SPEC"}, modules={"sticks_game": drawing})
    with sticks, pytest.raises(ConformanceError) as caught:
        check_game("sticks", seeds=range(6))
    found = [failure for failure in caught.value.failures if failure.check == "declarations"]
    assert found and all("chance_after_deal=False" in failure.detail for failure in found)


def failures(**kwargs: Any) -> list[Any]:
    with pytest.raises(ConformanceError) as caught:
        check_game(TOY, **kwargs)
    err = caught.value
    assert isinstance(err, SlothKernelError) and err.game == TOY
    assert all(failure.check in CHECKS for failure in err.failures)
    assert all(str(failure) in str(err) for failure in err.failures), "the message names every failure"
    return list(err.failures)


def leaky_observation(self: HighCardState, player: int) -> Any:
    """Every hand, in every seat's observation: a leak of hidden cards."""
    import dataclasses

    return dataclasses.replace(self._observe(player), hands=tuple(tuple(hand) for hand in self.hands))


def test_an_observation_that_leaks_the_hands_fails_the_hidden_check(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(HighCardState, "_observation", leaky_observation)
    found = failures()
    hidden = [failure for failure in found if failure.check == "hidden"]
    assert hidden and all("hands" in failure.detail for failure in hidden)
    assert {failure.seed for failure in hidden} <= {0, 1} and {failure.players for failure in hidden} <= {2, 4}
    assert "seed 0, 2 players, after 0 moves" in str(hidden[0])


def test_the_re_deal_through_from_deal_finds_the_leak_too(monkeypatch: pytest.MonkeyPatch) -> None:
    deal = {"hands": [[1, 2, 3], [4, 5, 6], [7, 8, 9]]}
    assert check_game(TOY, players=[3], options={"players": 3, "hand_size": 3}, deals=[deal]).redeals > 0
    monkeypatch.setattr(HighCardState, "_observation", leaky_observation)
    found = failures(players=[3], options={"players": 3, "hand_size": 3}, deals=[deal])
    redealt = [
        failure for failure in found if failure.check == "hidden" and "re-dealt through from_deal" in failure.detail
    ]
    assert redealt and "hands" in redealt[0].detail


def leaky_public(self: HighCardState) -> Any:
    """Every hand in the spectator's view: what the seats hide, shown to a watcher."""
    import dataclasses

    return dataclasses.replace(self._observe(NO_PLAYER), hands=tuple(tuple(hand) for hand in self.hands))


def test_a_public_observation_that_shows_the_hands_fails_the_hidden_check(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(HighCardState, "public_observation", leaky_public)
    hidden = [failure for failure in failures() if failure.check == "hidden"]
    assert hidden and any("another public observation, in hands" in failure.detail for failure in hidden)


def test_the_re_deal_finds_a_public_observation_that_shows_a_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    deal = {"hands": [[1, 2, 3], [4, 5, 6], [7, 8, 9]]}
    monkeypatch.setattr(HighCardState, "public_observation", leaky_public)
    found = failures(players=[3], options={"players": 3, "hand_size": 3}, deals=[deal])
    assert any("the public observation differs: hands" in failure.detail for failure in found)


def test_a_seats_observation_as_the_public_one_fails_the_hidden_check(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(HighCardState, "public_observation", lambda self: self._observe(0))
    hidden = [failure for failure in failures() if failure.check == "hidden"]
    assert any("not for nobody's seat" in failure.detail for failure in hidden)
    assert any("another public observation, in" in failure.detail for failure in hidden)  # seat 0's hand


def test_a_public_observation_that_hides_the_counts_fails_the_hidden_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """It must hold what every seat sees (a watcher is told the table), not merely hide what seats hide."""
    import dataclasses

    monkeypatch.setattr(
        HighCardState, "public_observation", lambda self: dataclasses.replace(self._observe(NO_PLAYER), hand_counts=())
    )
    hidden = [failure for failure in failures() if failure.check == "hidden"]
    assert hidden and all("hand_counts from what every seat's observation agrees on" in f.detail for f in hidden)


def test_an_explain_that_disagrees_with_legal_moves_fails_the_explain_check(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(HighCardState, "_judge", lambda self, move, legal: Explanation(str(move), True, "any card"))
    found = failures()
    assert {failure.check for failure in found} == {"explain"}
    assert "says legal, yet legal_moves() does not offer it" in found[0].detail


def test_a_record_that_does_not_round_trip_fails_the_record_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """A deal drawn from something the record does not keep (a counter of deals): replay deals another game."""
    counter = itertools.count()
    original = HighCard._new_state

    def drifting(self: HighCard, seed: int) -> HighCardState:
        return original(self, seeded_rng(seed, "drift", next(counter)).getrandbits(64))

    monkeypatch.setattr(HighCard, "_new_state", drifting)
    found = failures()
    assert "record" in {failure.check for failure in found}
    assert any("the game's own record does not replay" in failure.detail for failure in found)


def test_a_state_from_a_deal_that_forgets_its_deal_fails_the_record_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy's lesson starts from a deal: a state that keeps no deal records a seeded game instead."""
    original = HighCard._from_deal
    monkeypatch.setattr(HighCard, "_from_deal", lambda self, deal, seed: _forget(original(self, deal, seed)))
    found = failures()
    assert any(failure.check == "record" and "does not keep it" in failure.detail for failure in found)


def _forget(state: HighCardState) -> HighCardState:
    state.deal = None
    return state


def test_a_refusal_that_changes_the_state_fails_the_bad_input_check(monkeypatch: pytest.MonkeyPatch) -> None:
    original = HighCardState._judge

    def scribbling(self: HighCardState, move: Play, legal: bool) -> Explanation:
        if not legal:
            self.tricks[0] += 1  # judging a refused move wins a trick: the state changed
        return original(self, move, legal)

    monkeypatch.setattr(HighCardState, "_judge", scribbling)
    found = failures()
    assert any(failure.check == "bad input" and "changed" in failure.detail for failure in found)


def test_a_move_that_raises_ends_the_playout_with_a_playout_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    original = HighCardState._apply

    def breaking(self: HighCardState, move: Play) -> None:
        if move.card == 30:
            raise KeyError(move.card)
        original(self, move)

    monkeypatch.setattr(HighCardState, "_apply", breaking)
    found = failures()
    assert any(failure.check == "playout" and "'play 30' raised KeyError" in failure.detail for failure in found)


def test_a_board_whose_clicks_play_nothing_fails_check_board(monkeypatch: pytest.MonkeyPatch) -> None:
    from sloth_widgets.testing import check_board
    from toy_high_card.board import HighCardBoard

    monkeypatch.setattr(HighCardBoard, "preview_move", lambda self: None)  # the Play button sends nothing
    with pytest.raises(ConformanceError) as caught:
        check_board(TOY)
    checks = {failure.check for failure in caught.value.failures}
    assert "board clicks" in checks
    assert "no click on the board's cards and buttons played a move" in str(caught.value)


def test_a_board_that_breaks_at_the_end_fails_check_board(monkeypatch: pytest.MonkeyPatch) -> None:
    from sloth_widgets.testing import check_board
    from toy_high_card.board import HighCardBoard

    def broken_summary(self: HighCardBoard, obs: Any) -> str:
        raise RuntimeError("no words for the end")

    monkeypatch.setattr(HighCardBoard, "summary", broken_summary)
    with pytest.raises(ConformanceError) as caught:
        check_board(TOY)
    assert [failure.check for failure in caught.value.failures] == ["board ends"]
    assert "RuntimeError: no words for the end" in str(caught.value)


@pytest.mark.parametrize(
    ("shared", "said"),
    [("hands", "changed the state it was called on"), ("tricks", "clone() shares parts with the original")],
)
def test_a_clone_that_shares_a_list_fails_the_playout_check(
    monkeypatch: pytest.MonkeyPatch, shared: str, said: str
) -> None:
    """Sharing the hands shows at the next move; sharing the tricks won only when a copy finishes a trick."""
    original = HighCardState.clone

    def shallow(self: HighCardState) -> HighCardState:
        other = original(self)
        setattr(other, shared, getattr(self, shared))  # the copy writes into the original's list
        return other

    monkeypatch.setattr(HighCardState, "clone", shallow)
    found = failures()
    assert any(failure.check == "playout" and said in failure.detail for failure in found), found


def test_a_bot_that_picks_an_illegal_move_fails_the_bots_check(monkeypatch: pytest.MonkeyPatch) -> None:
    from toy_high_card.bots import HeuristicBot

    monkeypatch.setattr(HeuristicBot, "choose", lambda self, obs: Play(99))
    found = failures()
    assert [failure.check for failure in found] == ["bots"]
    assert "the heuristic bot chose" in found[0].detail


def test_a_log_that_shows_a_move_as_code_fails_the_playout_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """The scratch game's slip: ``Event(f"debug: {move!r}")`` reads "debug: Play(card=3)" to a player."""
    from sloth_kernel.core import Event

    original = HighCardState._apply

    def narrating_code(self: HighCardState, move: Play) -> None:
        original(self, move)
        self.events.append(Event(f"debug: {move!r}", None))

    monkeypatch.setattr(HighCardState, "_apply", narrating_code)
    found = failures()
    assert {failure.check for failure in found} == {"playout"}
    assert "the log shows the move as code (Play(card=" in found[0].detail


def test_a_staged_event_that_is_a_move_fails_the_reveals_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kind the spec stages put on the move's own line: a board could never show the move before it."""
    original = HighCardState._apply

    def marking(self: HighCardState, move: Play) -> None:
        original(self, move)
        self.events[:] = [e._replace(kind=TRICK_WON) if e.move is not None else e for e in self.events]

    monkeypatch.setattr(HighCardState, "_apply", marking)
    found = failures()
    assert {failure.check for failure in found} == {"reveals"}
    assert "event 1 of kind 'trick-won' is a move ('play " in found[0].detail


def test_the_reveals_check_notes_a_kind_no_playout_reached(monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses

    import toy_high_card

    spec = dataclasses.replace(toy_high_card.SPEC, reveal_kinds=("trick-won", "never-said"))
    monkeypatch.setattr("sloth_kernel.testing.game_spec", lambda name: spec)
    report = check_game(TOY, players=[2])
    assert "reveals: no playout reached an event of kind 'never-said'" in report.notes


def test_the_toy_stages_who_takes_a_trick() -> None:
    """The toy plugin implements the per-game part "reveal kinds": a full trick stays on the table until
    the person asks who takes it; meanwhile the log holds that line back and the tricks won wait."""
    from sloth_widgets.testing import find, visible_text
    from toy_high_card.board import HighCardBoard

    board = HighCardBoard(seed=1, autoplay=False)
    while not board.revealed(board.session.observation()).pending:
        if board.session.my_turn:
            board.submit(str(board.state.legal_moves()[0]))
        else:
            board.step()
    obs = board.session.observation()
    said = next(e.text for e in reversed(obs.log) if e.kind == TRICK_WON)
    assert said not in visible_text(board) and find(board, "sk-standings").value == ""
    assert find(board, "sk-hc-take").layout.display != "none"
    find(board, "sk-hc-take").click()
    assert said in visible_text(find(board, "sk-log")) and "Tricks won" in find(board, "sk-standings").value
    assert find(board, "sk-hc-take").layout.display == "none"


def test_a_board_that_shows_a_staged_step_early_fails_check_board(monkeypatch: pytest.MonkeyPatch) -> None:
    from sloth_widgets.testing import check_board
    from toy_high_card.board import HighCardBoard

    original = HighCardBoard.picture

    def telling(self: HighCardBoard, obs: Any, private: bool) -> str:  # the newest line, staged or not
        return original(self, obs, private) + (f"<p>{obs.log[-1].text}</p>" if obs.log else "")

    monkeypatch.setattr(HighCardBoard, "picture", telling)
    with pytest.raises(ConformanceError) as caught:
        check_board(TOY)
    assert [failure.check for failure in caught.value.failures] == ["board reveals"]
    assert "a staged step not shown yet is on the board already" in str(caught.value)
