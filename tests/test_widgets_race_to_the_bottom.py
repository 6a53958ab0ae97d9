"""The Race to the Bottom board, driven through its widgets."""

from __future__ import annotations

from sloth_widgets import Board, RaceBoard
from sloth_widgets.race_to_the_bottom.board import play_tokens
from sloth_widgets.testing import find, find_all, hand_buttons, select_cards, visible_text

from sloth_kernel.bots import make_bot


def said(board: RaceBoard) -> str:
    return visible_text(find(board, "sk-explain"))


def pitch_plan(board: RaceBoard, bot: object, seat: int) -> list[str]:
    """The pitches a bot would make after its pass (simulated on copies of the state)."""
    state, cards = board.state, []
    while True:
        move = str(bot.choose(state.observation(seat)))  # type: ignore[attr-defined]
        if move == "done":
            return cards
        cards.append(move.split()[1])
        state = state.play(move, player=seat)


def play_as_person(board: RaceBoard, bot: object, seat: int) -> None:
    obs = board.state.observation(seat)
    if obs.pitching:
        select_cards(board, pitch_plan(board, bot, seat))
        find(board, "sk-pitch").click()
        return
    move = str(bot.choose(obs))  # type: ignore[attr-defined]
    if move == "pass":
        find(board, "sk-pass").click()
        return
    naturals, declared = play_tokens(move)
    select_cards(board, naturals + ["*"] * len(declared))
    for dropdown, rank in zip(find_all(board, "sk-joker-rank"), declared, strict=False):
        dropdown.value = rank
    find(board, "sk-play").click()


def test_full_race_from_the_widgets() -> None:
    board = RaceBoard(seed=4, seats=["human", "heuristic"], autoplay=False)
    me = make_bot("race-to-the-bottom", "heuristic", seed=3)
    for _ in range(5000):
        if board.state.is_over:
            break
        if board.session.my_turn:
            before = len(board.state.history)
            play_as_person(board, me, 0)
            assert len(board.state.history) > before, said(board)
        else:
            find(board, "sk-next").click()
    assert board.state.is_over and board.last_error == ""
    assert "wins" in visible_text(find(board, "sk-game-over"))
    assert "Places" in visible_text(find(board, "sk-game-over"))
    assert board.state.game.replay(board.state.to_record()).view() == board.state.view()


def test_illegal_selection_and_joker_declaration() -> None:
    board = RaceBoard(seed=1, autoplay=False)
    assert [c.key for c in board.hand.cards] == ["4", "4", "7", "7", "9", "T", "J", "Q", "Q", "Q", "K", "A"]
    select_cards(board, ["4", "9"])
    find(board, "sk-play").click()
    assert not board.state.history
    assert "Not legal" in said(board)
    # grouping by rank: a gap before each new rank
    starts = [
        c.key for c, b in zip(board.hand.cards, hand_buttons(board), strict=False) if "sk-group-start" in b._dom_classes
    ]
    assert starts == ["7", "9", "T", "J", "Q", "K", "A"]


def test_jokers_are_declared_with_the_rank_chooser() -> None:
    board = RaceBoard(seed=3, seats=["human", "random"], autoplay=False)
    keys = [c.key for c in board.hand.cards]
    assert "*" in keys and keys.count("7") == 2
    select_cards(board, ["7", "7", "*"])
    jokers = find_all(board, "sk-joker-rank")
    assert jokers[0].layout.display != "none" and jokers[1].layout.display == "none"
    assert jokers[0].value == "7"  # the only legal reading, offered by the engine's legal moves
    jokers[0].value = "8"
    find(board, "sk-play").click()
    assert not board.state.history and "Not legal" in said(board)
    jokers[0].value = "7"
    find(board, "sk-play").click()
    assert [str(m) for m in board.state.history] == ["7 7 *7"]


def test_pass_then_pitch_in_order_and_forged_clicks() -> None:
    board = RaceBoard(seed=1, seats=["human", "random"], autoplay=False)
    find(board, "sk-pass").click()  # forged: the leader must play (the button is disabled)
    assert find(board, "sk-pass").disabled and not board.state.history
    assert "leader must play" in said(board)
    select_cards(board, ["4"])
    find(board, "sk-play").click()
    while not board.session.my_turn:
        find(board, "sk-next").click()
    assert str(board.state.observation(0).to_beat) == "4"  # the bot answered with a 4
    find(board, "sk-pass").click()
    assert board.state.observation(0).pitching and find(board, "sk-pitch").layout.display != "none"
    find(board, "sk-play").click()  # forged: play during the pitch
    assert str(board.state.history[-1]) == "pass" and "Not legal" in said(board)
    before = len(board.state.history)
    select_cards(board, ["Q", "7"])
    assert "Queen → 7" in visible_text(find(board, "sk-pitch-order"))
    find(board, "sk-pitch").click()
    assert [str(m) for m in board.state.history[before:]] == ["pitch Q", "pitch 7", "done"]
    assert board.state.observation(0).seats[0].pitched[-2:] == ("Q", "7")


def test_a_refused_pitch_sequence_changes_nothing() -> None:
    board = RaceBoard(seed=1, seats=["human", "random"], autoplay=False)
    select_cards(board, ["4"])
    find(board, "sk-play").click()
    while not board.session.my_turn:
        find(board, "sk-next").click()
    assert board.state.observation(0).to_beat is not None
    find(board, "sk-pass").click()
    before = board.state
    select_cards(board, [c.key for c in board.hand.cards][:7])  # seven pitches: the engine allows six
    find(board, "sk-pitch").click()
    assert board.state is before and "Not legal" in said(board) and "RB-7" in said(board)


def test_hot_seat_cover_and_grand_prix_setup() -> None:
    board = Board("race-to-the-bottom", seed=2, seats=["human", "human"], autoplay=False)
    assert board.session.covered and hand_buttons(board) == []
    assert "Pass the device to Player 1" in visible_text(board)
    find(board, "sk-reveal").click()
    mine = [c.key for c in board.hand.cards]
    assert mine == list(board.state.observation(0).seats[0].hand)
    select_cards(board, [mine[0]])
    find(board, "sk-play").click()
    assert board.session.covered and hand_buttons(board) == []
    text = visible_text(board)
    assert "Pass the device to Player 2" in text and "grouped by rank" not in text
    setup = find(board, "sk-setup")
    setup.players.value = 3
    for dropdown in setup.seat_kinds[:3]:
        dropdown.value = "random"
    setup.option_widgets["grand_prix"].value = True
    find(board, "sk-new").click()
    assert board.state.game.config.grand_prix and board.session.mode == "watch"
    assert "Grand Prix, race 1 of 3" in find(board, "sk-picture").value
    assert "teacher" in find(board, "sk-picture").value
