"""The Surplus of Sloths board, driven through its widgets."""

from __future__ import annotations

import html
import re

from sloth_widgets import Board, SurplusBoard
from sloth_widgets.testing import find, hand_buttons, select_cards, shut_rules, visible_text

from sloth_kernel.bots import make_bot

LOG_LINE = re.compile(r'<li class="sk-log-line"><span class="sk-log-n">\d+\.</span><span>(.*?)</span></li>')


def said(board: SurplusBoard) -> str:
    return visible_text(find(board, "sk-explain"))


def river_cards(board: SurplusBoard, row: int) -> list[str]:
    return [c.key for c in find(board, f"sk-river-{row}").cards]


def take_from_river(board: SurplusBoard, code: str, row: int) -> None:
    river = find(board, f"sk-river-{row}")
    index = [c.key for c in river.cards].index(code)
    river.buttons[index].value = True


def play_as_person(board: SurplusBoard, move: str) -> None:
    words = move.split()
    if words[0] == "keep":
        find(board, "sk-keep").click()
        return
    if words[0] == "take":
        take_from_river(board, words[1], int(words[-1]))
    else:  # pick or net: a card from the hand
        select_cards(board, [words[1]])
    find(board, "sk-play").click()


def play_until_the_end(board: SurplusBoard, *, babies: bool = False) -> int:
    """Play the person's seat with a bot's choices through the widgets; bots move with Next. Returns Babies met."""
    me = make_bot("surplus-of-sloths", "heuristic", seed=9)
    met = 0
    for _ in range(500):
        if board.state.is_over:
            return met
        if board.session.my_turn:
            move = str(me.choose(board.state.observation(0)))
            if move == "keep" or move.startswith("net"):
                assert "drafted a Baby" in visible_text(board)  # the Baby prompt
                assert find(board, "sk-keep").layout.display != "none"
                met += 1
            play_as_person(board, move)
            assert str(board.state.history[-1]) == move, said(board)
        else:
            find(board, "sk-next").click()
    raise AssertionError("no game over")


def log_lines(board: SurplusBoard) -> list[str]:
    """The log lines on screen, one string each."""
    return [html.unescape(line) for line in LOG_LINE.findall(shut_rules(find(board, "sk-log").value))]


def seat_text(board: SurplusBoard) -> str:
    return visible_text(find(board, "sk-seats-top")) + " " + visible_text(find(board, "sk-my-seat"))


def test_full_game_with_babies_and_the_stepped_reveal() -> None:
    # seed 1: the person's seat drafts a Baby (seed 4 did before SS-8's lone-Baby ruling changed the bots' choices)
    board = SurplusBoard(seed=1, babies=True, autoplay=False)
    assert play_until_the_end(board, babies=True) >= 1
    assert board.state.is_over and board.last_error == ""
    obs = board.state.observation(0)
    reveal, final = obs.reveal, obs.games[-1]
    steps = find(board, "sk-reveal-steps")
    assert steps.layout.display != "none"
    assert f"0 of {len(reveal)} shown" in visible_text(steps)
    for shown in range(1, len(reveal) + 1):
        find(board, "sk-reveal-next").click()
        text = visible_text(steps)
        assert f"{shown} of {len(reveal)} shown" in text
        assert reveal[shown - 1].type_name in text
        if reveal[shown - 1].winner is not None:
            assert reveal[shown - 1].arithmetic in text
    assert find(board, "sk-reveal-next").disabled and "Final scores" in visible_text(steps)
    over = visible_text(find(board, "sk-game-over"))
    assert "Game over" in over and "Game over" in visible_text(find(board, "sk-status"))
    for s, score in enumerate(final.scores):
        assert f"Player {s + 1}: " in over and f"{score} point" in over
    find(board, "sk-reveal-prev").click()  # reading a type again hides nothing already shown
    assert "Final scores" not in visible_text(steps)
    assert "Game over" in visible_text(find(board, "sk-game-over"))


def test_no_spoilers_while_the_reveal_steps_type_by_type() -> None:
    """The issue: the game-over box and the seats' points showed the result at "0 of 4 shown"."""
    board = SurplusBoard(seed=11, autoplay=False)
    play_until_the_end(board)
    obs = board.state.observation(0)
    reveal, final = obs.reveal, obs.games[-1]
    everything = [e.text for e in obs.log]
    reveal_lines = [line for result in reveal for line in result.lines]
    assert len(reveal) >= 2 and max(final.scores) > 0
    # at "0 of N shown": no result anywhere
    assert f"0 of {len(reveal)} shown" in visible_text(find(board, "sk-reveal-steps"))
    assert find(board, "sk-game-over").layout.display == "none"
    assert "Game over" not in visible_text(find(board, "sk-status"))
    assert "Revealing" in visible_text(find(board, "sk-status"))
    lines = log_lines(board)
    assert not any("Final scores" in line for line in lines)
    assert not any(line in " ".join(lines) for line in reveal_lines)
    assert board.held_back(obs) == len(everything) - len(lines)
    seats = seat_text(board)
    assert all(f"{p} point" not in seats for p in final.scores if p)  # every seat shows 0 points
    assert seats.count("0 points") == obs.players
    assert "not revealed yet" in visible_text(find(board, "sk-picture"))
    assert "Final scores" not in visible_text(board) and "wins" not in said(board)
    # step by step: the log shows the shown types' lines and no later ones; points follow
    for shown in range(1, len(reveal) + 1):
        find(board, "sk-reveal-next").click()
        text = " ".join(log_lines(board))
        for line in reveal[shown - 1].lines:
            assert line in text
        for later in reveal[shown:]:
            assert later.lines[0] not in text
        expected = [sum(r.points for r in reveal[:shown] if r.winner == s) for s in range(obs.players)]
        assert [board.seat_facts(obs, s)[0] for s in range(obs.players)] == [
            f"{p} point{'s' if p != 1 else ''}" for p in expected
        ]
        if shown < len(reveal):
            assert find(board, "sk-game-over").layout.display == "none"
            assert "Final scores" not in text
    assert log_lines(board)[-1] == everything[-1]  # the whole log once the reveal is done
    assert find(board, "sk-game-over").layout.display != "none"


def test_show_all_jumps_to_the_end() -> None:
    board = SurplusBoard(seed=11, autoplay=False)
    play_until_the_end(board)
    assert find(board, "sk-game-over").layout.display == "none"
    find(board, "sk-reveal-all").click()
    obs = board.state.observation(0)
    assert f"{len(obs.reveal)} of {len(obs.reveal)} shown" in visible_text(find(board, "sk-reveal-steps"))
    assert board.held_back(obs) == 0 and find(board, "sk-game-over").layout.display != "none"
    assert find(board, "sk-reveal-all").disabled and find(board, "sk-reveal-next").disabled


def test_the_summary_shows_how_each_score_came_about() -> None:
    board = SurplusBoard(seed=11, autoplay=False)
    play_until_the_end(board)
    find(board, "sk-reveal-all").click()
    final = board.state.observation(0).games[-1]
    lines = SurplusBoard.arithmetic(final)
    for s, score in enumerate(final.scores):
        (line,) = [x for x in lines if x.startswith(f"Player {s + 1}: ")]
        assert line.endswith(f"{score} point{'s' if score != 1 else ''}.")
        taken = [r for r in final.reveal if r.winner == s]
        for result in taken:
            assert result.arithmetic in line  # e.g. "(2+5) + 7 + 7 = 21"
        if len(taken) > 1:
            assert " + ".join(str(r.points) for r in taken) + f" = {score}" in line
        if not taken:
            assert "took no Net cards" in line and score == 0
        assert sum(r.points for r in taken) == score  # the words add up to the engine's score
    over = visible_text(find(board, "sk-game-over"))
    assert all(line in over for line in lines)


def test_seats_show_public_counts_and_no_points_before_the_reveal() -> None:
    board = SurplusBoard(seed=2, babies=True, autoplay=False)
    select_cards(board, [board.hand.cards[0].key])
    find(board, "sk-play").click()
    board.run_bots()
    take_from_river(board, river_cards(board, 1)[0], 1)
    find(board, "sk-play").click()
    obs = board.state.observation(0)
    for s in range(obs.players):
        facts = board.seat_facts(obs, s)
        drafted = [c for c in obs.drafted[s] if c != "Baby"]
        assert f"{len(drafted)} card{'s' if len(drafted) != 1 else ''} drafted" in facts
        assert any(f.endswith("kept") and f.startswith(str(obs.kept_counts[s])) for f in facts)
        assert not any("point" in f for f in facts)
    text = seat_text(board)
    assert "(s)" not in text and "2 hidden cards kept" in text
    assert "You" in visible_text(find(board, "sk-my-seat"))


def test_the_turn_hint_says_what_to_do() -> None:
    board = SurplusBoard(seed=2, autoplay=False)
    assert "pick one of your cards" in visible_text(find(board, "sk-status"))
    select_cards(board, [board.hand.cards[0].key])
    find(board, "sk-play").click()
    board.run_bots()
    assert "take a card from either River row" in visible_text(find(board, "sk-status"))


def baby_deal() -> dict[str, object]:
    """Two players, three types: a Baby heads each River row, so Player 1 (active) can draft one."""
    rest = [t + v for t in "RSL" for v in "1234567XXX"]
    hands = [["R1", "R2", "R3"], ["S1", "S2", "S3"]]
    rows = ["Baby", "R4", "R5", "Baby", "S4", "S5"]
    for code in sum(hands, []) + rows:
        if code != "Baby":
            rest.remove(code)
    return {"hands": hands, "deck": rows + rest + ["Baby", "Baby"]}


def board_at_the_baby_prompt() -> SurplusBoard:
    board = SurplusBoard(seed=1, seats=["human", "random"], babies=True, deal=baby_deal(), autoplay=False)
    select_cards(board, ["R1"])
    find(board, "sk-play").click()
    board.run_bots()
    take_from_river(board, "Baby", 1)
    find(board, "sk-play").click()
    assert board.state.observation(0).phase == "baby" and board.session.my_turn
    return board


def test_the_baby_prompt_nets_a_card_or_keeps_the_hand() -> None:
    board = board_at_the_baby_prompt()
    assert "drafted a Baby" in visible_text(board) and find(board, "sk-keep").layout.display != "none"
    find(board, "sk-play").click()  # nothing selected yet
    assert board.state.observation(0).phase == "baby" and "choose something first" in said(board)
    select_cards(board, ["R2"])
    assert "Legal" in said(board) and "SS-6" in said(board)  # live preview from the engine
    find(board, "sk-play").click()
    assert str(board.state.history[-1]) == "net R2" and "R2" in board.state.observation(0).net[0]
    board = board_at_the_baby_prompt()
    find(board, "sk-keep").click()
    assert str(board.state.history[-1]) == "keep" and find(board, "sk-keep").layout.display == "none"


def test_illegal_take_from_the_other_row_changes_nothing() -> None:
    board = SurplusBoard(seed=2, autoplay=False)
    select_cards(board, [board.hand.cards[0].key])
    find(board, "sk-play").click()
    board.run_bots()  # bots pick; drafting starts with Player 1 active
    assert board.state.observation(0).phase == "draft" and board.session.my_turn
    take_from_river(board, river_cards(board, 1)[0], 1)
    find(board, "sk-play").click()
    board.run_bots()
    assert board.session.my_turn and board.state.observation(0).row is not None
    row = board.state.observation(0).row
    other = 3 - row
    before = board.state
    take_from_river(board, river_cards(board, other)[0], other)  # forged: that row's buttons are disabled
    assert all(b.disabled for b in find(board, f"sk-river-{other}").buttons)
    find(board, "sk-play").click()
    assert board.state is before
    assert "Not legal" in said(board) and f"from row {row}" in said(board) and "SS-4" in said(board)


def test_forged_clicks_change_nothing() -> None:
    board = SurplusBoard(seed=2, autoplay=False)
    keep = find(board, "sk-keep")
    keep.click()  # no Baby: hidden and disabled
    assert keep.disabled and not board.state.history and "Not legal" in said(board)
    find(board, "sk-play").click()  # nothing selected
    assert not board.state.history and "choose something first" in said(board)
    select_cards(board, [board.hand.cards[1].key])
    find(board, "sk-play").click()
    assert len(board.state.history) == 1 and board.session.bot_to_move
    assert all(b.disabled for b in hand_buttons(board))
    select_cards(board, [board.hand.cards[0].key])  # forged on a bot's turn
    find(board, "sk-play").click()
    assert len(board.state.history) == 1 and "not Player 1's turn" in said(board)


def test_hot_seat_keeps_the_opening_pick_secret() -> None:
    board = Board("surplus-of-sloths", seed=3, seats=["human", "human", "random"], autoplay=False)
    assert board.session.covered and hand_buttons(board) == []
    find(board, "sk-reveal").click()
    first = [c.key for c in board.hand.cards]
    assert len(first) == 3 and "kept from the deal, private" in visible_text(board)
    select_cards(board, [first[0]])
    find(board, "sk-play").click()
    assert board.session.covered and hand_buttons(board) == []
    assert "kept from the deal, private" not in visible_text(board)
    assert f"pick {first[0]}" not in visible_text(board)  # not even in the last words of the move
    find(board, "sk-reveal").click()
    second = [c.key for c in board.hand.cards]
    assert sorted(second) == sorted(board.state.observation(1).kept[1]) and second != first
    text = visible_text(board)
    assert text.count("kept from the deal, private") == 3  # only Player 2's own cards
    assert "picked a card face down" in visible_text(find(board, "sk-seats-top"))
    assert board.state.observation(1).picks[0] is None  # the engine agrees: still secret


def test_watch_mode_super_surplus_setup_and_standings_in_every_game() -> None:
    """The issue: in Super Surplus's second game the standings showed stale scores ("0 points … 1 win(s)")."""
    board = SurplusBoard(seed=5, seats=["random", "random"], autoplay=False)
    assert board.session.mode == "watch"
    setup = find(board, "sk-setup")
    setup.option_widgets["super_surplus"].value = True
    find(board, "sk-new").click()
    assert board.state.game.config.super_surplus
    checked_second_game = False
    for _ in range(2000):
        if board.state.is_over and not board.revealing(board.session.observation()):
            break
        obs = board.session.observation()
        standings = visible_text(find(board, "sk-standings"))
        assert "(s)" not in standings and "(s)" not in seat_text(board)
        if board.revealing(obs):
            # the finished game's win waits for the end of its reveal
            last = obs.games[-1]
            shown_games = obs.games[:-1]
            assert f"Game {last.number}:" not in standings
            wins = [sum(1 for g in shown_games if g.winners == (s,)) for s in range(obs.players)]
        else:
            shown_games = obs.games
            wins = list(obs.wins)
        for game in shown_games:
            scores = ", ".join(f"Player {s + 1} {p} point{'s' if p != 1 else ''}" for s, p in enumerate(game.scores))
            assert f"Game {game.number}: {scores}." in standings
        tally = ", ".join(f"Player {s + 1} {w}" for s, w in enumerate(wins))
        assert f"Wins: {tally}" in standings
        if obs.game_number >= 2 and obs.phase == "draft":
            checked_second_game = True
            assert "0 points" not in seat_text(board)  # no stale scores while a new game is drafted
        find(board, "sk-next").click()  # a bot's move, or the next type of a reveal
    assert checked_second_game
    assert board.state.is_over
    over = visible_text(find(board, "sk-game-over"))
    assert "wins the Super Surplus" in over
    assert max(board.state.observation(0).wins) == 2


def test_net_piles_show_numbers_x_count_and_worth() -> None:
    from sloth_widgets.surplus_of_sloths.board import pile_value

    assert pile_value(("R4", "RX")) == "numbers 4 · 1 X · worth 4 + 4 = 8"
    assert pile_value(("L2", "L5", "LX", "LX")).endswith("(2+5) + 7 + 7 = 21")


def test_a_match_waits_for_the_reveal_before_the_next_game() -> None:
    board = SurplusBoard(seed=3, super_surplus=True, autoplay=False)
    me = make_bot("surplus-of-sloths", "heuristic", seed=9)
    for _ in range(500):
        obs = board.session.observation()
        if obs.games:
            break
        if board.session.my_turn:
            play_as_person(board, str(me.choose(board.state.observation(0))))
        else:
            board.run_bots()
    obs = board.session.observation()
    assert obs.games and not obs.is_over and obs.phase == "pick" and board.session.my_turn
    # game 2 is dealt, but game 1's reveal comes first: no result, and no playing on yet
    assert board.revealing(obs)
    assert "Revealing" in visible_text(find(board, "sk-status"))
    assert all(b.disabled for b in hand_buttons(board)) and find(board, "sk-play").disabled
    assert not any("Final scores" in line or "Wins:" in line for line in log_lines(board))
    assert "Game 1:" not in visible_text(find(board, "sk-standings"))
    assert "1 win" not in seat_text(board)
    find(board, "sk-reveal-all").click()
    assert not board.revealing(board.session.observation())
    assert "Your turn" in visible_text(find(board, "sk-status"))
    assert not any(b.disabled for b in hand_buttons(board))
    assert "Game 1:" in visible_text(find(board, "sk-standings"))
    assert any(line.startswith("Wins:") for line in log_lines(board))


def test_your_hand_stays_in_view_throughout_the_reveal() -> None:
    board = SurplusBoard(seed=2, seats=["human", "heuristic", "heuristic"], autoplay=False)
    play_until_the_end(board)
    obs = board.session.observation()
    assert board.revealing(obs)  # the reveal is still to step through
    mine = sorted(obs.discards[0] + (obs.kept[0] or ()) + obs.drafted[0])
    assert mine and sorted(c.key for c in board.hand.cards) == mine
    assert board.hand.layout.display != "none"
    board.show_every_step()
    assert sorted(c.key for c in board.hand.cards) == mine


def test_a_seat_says_what_it_drafted_babies_among_it() -> None:
    """Right after drafting a Baby, the seat reads "1 card drafted: a Baby", never "0 cards drafted · 1 Baby"."""
    board = board_at_the_baby_prompt()
    facts = board.seat_facts(board.state.observation(0), 0)
    assert "1 card drafted: a Baby" in facts and not any(fact.startswith("0 cards") for fact in facts)
    from sloth_widgets.surplus_of_sloths.board import _drafted_words

    assert _drafted_words([]) == "0 cards drafted"
    assert _drafted_words(["R1", "Baby", "S3", "S4"]) == "4 cards drafted, including 1 Baby"
    assert _drafted_words(["Baby", "Baby"]) == "2 cards drafted, both Babies"
    assert _drafted_words(["Baby", "Baby", "Baby"]) == "3 cards drafted, all Babies"
    assert _drafted_words(["R1", "Baby", "Baby"]) == "3 cards drafted, including 2 Babies"
