"""The Surplus of Sloths board, driven through its widgets."""

from __future__ import annotations

from sloth_widgets import Board, SurplusBoard
from sloth_widgets.testing import find, hand_buttons, select_cards, visible_text

from sloth_kernel.bots import make_bot


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


def test_full_game_with_babies_and_the_stepped_reveal() -> None:
    board = SurplusBoard(seed=4, babies=True, autoplay=False)
    me = make_bot("surplus-of-sloths", "heuristic", seed=9)
    made: list[str] = []
    babies = 0
    for _ in range(500):
        if board.state.is_over:
            break
        if board.session.my_turn:
            move = str(me.choose(board.state.observation(0)))
            if move == "keep" or move.startswith("net"):
                assert "drafted a Baby" in visible_text(board)  # the Baby prompt
                assert find(board, "sk-keep").layout.display != "none"
                babies += 1
            play_as_person(board, move)
            assert str(board.state.history[-1]) == move, said(board)
            made.append(move)
        else:
            find(board, "sk-next").click()
    assert board.state.is_over and board.last_error == ""
    assert made and babies >= 1
    reveal = board.state.observation(0).reveal
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
    find(board, "sk-reveal-prev").click()
    assert "Final scores" not in visible_text(steps)
    assert "Game over" in visible_text(find(board, "sk-game-over"))


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
    assert "Opening pick: face down" in text
    assert board.state.observation(1).picks[0] is None  # the engine agrees: still secret


def test_watch_mode_super_surplus_setup() -> None:
    board = SurplusBoard(seed=5, seats=["random", "random"], autoplay=False)
    assert board.session.mode == "watch"
    setup = find(board, "sk-setup")
    setup.option_widgets["super_surplus"].value = True
    find(board, "sk-new").click()
    assert board.state.game.config.super_surplus
    while not board.state.is_over:
        find(board, "sk-next").click()
    assert "Super Surplus" in visible_text(find(board, "sk-game-over"))
    assert max(board.state.observation(0).wins) == 2


def test_net_piles_show_numbers_x_count_and_worth() -> None:
    from sloth_widgets.surplus_of_sloths.board import pile_value

    assert pile_value(("R4", "RX")) == "numbers 4 · 1 X · worth 4 + 4 = 8"
    assert pile_value(("L2", "L5", "LX", "LX")).endswith("(2+5) + 7 + 7 = 21")
