"""The Race to the Bottom board, driven through its widgets."""

from __future__ import annotations

import re
from typing import Any

from sloth_widgets import Board, RaceBoard
from sloth_widgets.race_to_the_bottom.board import card_word, play_tokens
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


# --- the card table: seats, the trick, the turn line, the results --------------------------

SMALL_DEAL = {"decks": ["T T 5", "3 3 9", "4 8 J"]}  # every card in hand, the decks empty


def test_seats_tell_their_counts_and_trick_status() -> None:
    board = RaceBoard(seed=1, seats=["human", "heuristic", "heuristic"], autoplay=False)
    obs = board.session.observation()
    assert board.seat_facts(obs, 1) == ["12 cards in hand", "42 in deck", "54 of 54 left"]
    assert board.seat_status(obs, 0) == "leads" and board.seat_status(obs, 1) == ""
    assert board.turn_hint(obs) == "lead any meld"
    seats = visible_text(find(board, "sk-seats-top"))
    assert "Player 2" in seats and "Player 3" in seats and "12 cards in hand" in seats
    select_cards(board, ["4"])
    find(board, "sk-play").click()
    obs = board.session.observation()
    assert [board.seat_status(obs, s) for s in range(3)] == ["in the trick"] * 3


def test_one_card_and_points_are_singular() -> None:
    board = RaceBoard(seats=["human", "random", "random"], deal={"decks": ["5", "3 3", "4 8"]}, grand_prix=True)
    obs = board.session.observation()
    assert board.seat_facts(obs, 0) == ["1 card in hand", "0 in deck", "1 of 54 left", "0 points"]


def test_the_trick_names_who_played_what_and_the_meld_to_beat() -> None:
    board = RaceBoard(seed=7, seats=["human", "random", "random"], deal=SMALL_DEAL, autoplay=False)
    assert "You lead any meld" in visible_text(find(board, "sk-picture"))
    select_cards(board, ["T", "T"])
    find(board, "sk-play").click()
    picture = find(board, "sk-picture").value
    assert "To beat: You played a Pair of 10s" in picture
    shown = visible_text(find(board, "sk-picture"))
    assert "10 10" in shown and "a Pair of 10s" in shown
    assert ">T<" not in picture and '"T"' not in picture and " T " not in shown
    while not board.session.my_turn:
        find(board, "sk-next").click()
    obs = board.session.observation()
    assert [board.seat_status(obs, s) for s in range(3)] == ["in the trick", "passed", "passed"]
    assert board.turn_hint(obs) == "beat your own meld, a Pair of 10s, or pass"
    assert "beat your own meld" in visible_text(find(board, "sk-status"))


def pitching_after_a_pass(deal: dict[str, Any]) -> RaceBoard:
    """Player 1 leads a Pair of 10s, the bots answer, and Player 1 passes: now choosing what to pitch."""
    board = RaceBoard(seed=7, seats=["human", "random", "random"], deal=deal, autoplay=False)
    select_cards(board, ["T", "T"])
    find(board, "sk-play").click()
    while not board.session.my_turn:
        find(board, "sk-next").click()
    find(board, "sk-pass").click()
    return board


def test_pitching_after_a_pass_says_what_happens_in_words() -> None:
    board = pitching_after_a_pass(SMALL_DEAL)
    obs = board.session.observation()
    assert board.seat_status(obs, 0) == "passed, pitching"
    assert "put up to 6 cards under your deck" in board.turn_hint(obs)
    assert "You passed. Now put up to 6 cards" in visible_text(find(board, "sk-picture"))
    assert find(board, "sk-play").layout.display == "none" and find(board, "sk-pitch").layout.display != "none"
    select_cards(board, ["5"])
    assert "first to last: 5" in visible_text(find(board, "sk-pitch-order"))
    assert find(board, "sk-pitch").description == "Put 1 card under my deck and refill"


def test_a_race_summary_gives_places_and_cards_left_only_at_the_end() -> None:
    board = RaceBoard(seed=7, seats=["human", "random", "random"], deal=SMALL_DEAL, autoplay=False)
    select_cards(board, ["T", "T"])
    find(board, "sk-play").click()
    while not board.session.my_turn:
        find(board, "sk-next").click()
    find(board, "sk-pass").click()
    find(board, "sk-pitch").click()
    assert find(board, "sk-game-over").layout.display == "none" and "Race over" not in visible_text(board)
    select_cards(board, ["5"])
    find(board, "sk-play").click()
    assert board.state.is_over
    over = visible_text(find(board, "sk-game-over"))
    assert "Race over: You win" in over
    assert "1st You (no cards left); 2nd Player 2 (3 cards left); 2nd Player 3 (3 cards left)" in over
    obs = board.session.observation()
    assert [board.seat_status(obs, s) for s in range(3)] == ["1st place", "2nd place", "2nd place"]


def test_grand_prix_summary_shows_the_sum_of_each_players_points() -> None:
    board = RaceBoard(seed=11, seats=["random"] * 3, grand_prix=True, autoplay=False)
    seen_results = 0
    while board.session.step():  # the board redraws itself on each move of its session
        obs = board.session.observation()
        if not obs.is_over:  # no spoilers: nothing of the end before it comes
            assert find(board, "sk-game-over").layout.display == "none"
            assert "Grand Prix over" not in visible_text(board)
        if len(obs.results) > seen_results and not obs.is_over:  # a race just ended: its points show at once
            seen_results = len(obs.results)
            assert f"in race {seen_results}" in visible_text(find(board, "sk-standings"))
    obs = board.session.observation()
    assert obs.is_over and len(obs.results) == 3
    assert seen_results == 2 and "Grand Prix points so far" not in visible_text(find(board, "sk-standings"))
    assert [board.seat_status(obs, s).endswith(" in the last race") for s in range(3)] == [True] * 3
    over = visible_text(find(board, "sk-game-over"))
    for seat in range(3):
        terms = [
            f"{r.points[seat]} ({ {1: '1st', 2: '2nd', 3: '3rd'}[r.places[seat]] } in race {r.race + 1})"
            for r in obs.results
        ]
        total = obs.seats[seat].points
        assert sum(r.points[seat] for r in obs.results) == total
        assert f"Player {seat + 1} : " + " + ".join(terms) + f" = {total} point" in over, over
    best = max(s.points for s in obs.seats)
    winners = [f"Player {s + 1}" for s in range(3) if obs.seats[s].points == best]
    assert f"Grand Prix over: {' and '.join(winners)} win" in over
    assert "1st place 2 points, 2nd place 1 point, 3rd place 0 points" in over


def test_no_hidden_cards_of_other_seats_in_the_page() -> None:
    board = RaceBoard(seed=5, seats=["human", "heuristic", "heuristic"], autoplay=False)
    pitched_seen = False
    for _ in range(200):
        obs = board.session.observation()
        if not board.session.my_turn:
            if not board.session.step():
                break
        elif obs.pitching:
            select_cards(board, [board.hand.cards[-1].key])
            find(board, "sk-pitch").click()
        elif obs.to_beat is not None:
            find(board, "sk-pass").click()
        else:
            select_cards(board, [board.hand.cards[0].key])
            find(board, "sk-play").click()
        board.render()
        picture = find(board, "sk-picture").value
        assert "teacher" not in picture  # nobody's hand or deck but yours
        mine = board.state.observation(0).seats[0].pitched or ()
        under = picture.split('class="rb-under"', 1)[1] if 'class="rb-under"' in picture else ""
        # your own pitched cards, in order, and no other seat's
        assert re.findall(r'aria-label="([^"]+)"', under) == [card_word(t) for t in mine]
        pitched_seen |= bool(mine)
    assert pitched_seen


def test_board_words_have_no_t_for_ten_and_no_emoji() -> None:
    board = RaceBoard(seed=1, autoplay=False)
    tens = [c for c in board.hand.cards if c.key == "T"]
    assert tens and all(c.label == "10" for c in tens)
    for button in (find(board, "sk-play"), find(board, "sk-pass"), find(board, "sk-pitch")):
        assert button.icon == ""
    assert all(ord(ch) < 0x2190 or 0x2190 <= ord(ch) <= 0x21FF for ch in find(board, "sk-picture").value)


def test_watching_bots_shows_every_hand_and_deck_in_words() -> None:
    board = RaceBoard(seed=3, seats=["random"] * 3, autoplay=False)
    shown = visible_text(find(board, "sk-picture"))
    for view in board.state.view().seats:
        deck = " ".join({"T": "10", "*": "Joker"}.get(t, t) for t in view.deck)
        assert f"Deck, top first: {deck}" in shown
    assert "*" not in shown and " T " not in shown


def test_an_empty_hand_is_told_to_pass_and_refill() -> None:
    deal = {"hands": ["", "3 3", "4 8"], "decks": ["5 6", "9", "J"]}
    board = RaceBoard(seats=["human", "random", "random"], deal=deal, autoplay=False)
    obs = board.session.observation()
    assert board.turn_hint(obs) == "your hand is empty: pass and refill from your deck (RB-13)"
    assert not find(board, "sk-pass").disabled and find(board, "sk-play").disabled
    find(board, "sk-pass").click()
    obs = board.session.observation()
    assert obs.pitching and board.turn_hint(obs) == "refill your hand to 12 from your deck"


def test_a_cheat_on_the_table_is_announced_and_only_cheats_may_follow() -> None:
    deal = {"decks": ["7 7 7 7 T T T T 2", "3 3", "4 8"]}
    board = RaceBoard(seats=["human", "random", "random"], deal=deal, autoplay=False)
    select_cards(board, ["7", "7", "7", "7"])
    find(board, "sk-play").click()
    shown = visible_text(find(board, "sk-picture"))
    assert "Cheat on the table: a Smokescreen of 7s. Only a Cheat may follow in this trick (RB-6)." in shown
    while not board.session.my_turn:
        find(board, "sk-next").click()
    obs = board.session.observation()
    assert board.turn_hint(obs) == "beat your own Cheat, a Smokescreen of 7s, with a Cheat, or pass"
    select_cards(board, ["T", "T", "T", "T"])
    find(board, "sk-play").click()
    assert "a Smokescreen of 10s" in visible_text(find(board, "sk-picture"))


def test_hints_name_the_shapes_in_words_never_a_notation_list() -> None:
    board = RaceBoard(seed=1, autoplay=False)
    find(board, "sk-hint-toggle").value = True
    shown = said(board)
    assert "Pairs: 4s, 7s or Queens" in shown and "Runs of 3, ending at Jack, Queen, King or Ace" in shown
    assert "Legal now" not in shown and "9 T J" not in shown and "Q Q Q" not in shown


def test_the_pitch_order_names_a_joker_in_words() -> None:
    board = pitching_after_a_pass({"decks": ["T T 5 * 7", "3 3 9", "4 8 J"]})
    select_cards(board, ["7", "*", "5"])
    shown = visible_text(find(board, "sk-pitch-order"))
    assert "first to last: 7 → Joker → 5" in shown and "*" not in shown
