"""Shared board pieces: the card hand, card pictures, the Board factory."""

from __future__ import annotations

import pytest
from sloth_widgets import Board, board_class
from sloth_widgets.hand import CardHand, HandCard
from sloth_widgets.markup import svg_data_uri
from sloth_widgets.session import player_counts

from sloth_kernel import ConfigError
from sloth_kernel.render import kit


def test_card_picture_becomes_a_data_uri_with_its_rotated_corner_inside() -> None:
    svg = kit.card_svg(kit.CardFace("7", "#123456", "runner"))
    # the upside-down corner index is anchored at its start, so once rotated it stays in the frame
    assert 'text-anchor="start"' in svg and 'text-anchor="end"' not in svg
    uri = svg_data_uri(svg)
    assert uri.startswith("data:image/svg+xml;base64,")


def test_card_hand_keeps_click_order_and_single_mode() -> None:
    hand = CardHand()
    hand.show([HandCard(k, "f", k) for k in "ABCD"])
    hand.buttons[2].value = True
    hand.buttons[0].value = True
    assert hand.selected_keys == ["C", "A"]
    hand.buttons[2].value = False
    assert hand.selected_keys == ["A"]
    single = CardHand(single=True)
    single.show([HandCard(k, "f", k) for k in "ABC"])
    single.buttons[0].value = True
    single.buttons[1].value = True
    assert single.selected_keys == ["B"] and not single.buttons[0].value
    single.show([HandCard(k, "f", k) for k in "XY"])  # new cards: the old selection is dropped
    assert single.selected == () and len(single.children) == 2


def test_board_factory_and_seat_checks() -> None:
    assert board_class("sprint").__name__ == "SprintBoard"
    with pytest.raises(ConfigError):
        Board("chess")
    with pytest.raises(ConfigError, match="seat kind"):
        Board("too-sloth-to-win", seats=["human", "grandmaster", "random"])
    assert player_counts("too-sloth-to-win") == [3, 4, 5]
    with pytest.raises(ConfigError, match="a play board seats at most 5 players, not 6"):
        Board("sprint", seats=["human"] + ["expert"] * 5)  # the engine takes 20 together; a board shows 5
    board = Board("race-to-the-bottom", seed=2, seats=["human", "random", "random", "random"], autoplay=False)
    assert board.state.game.config.players == 4  # players follows the seats


def test_bot_turns_come_one_at_a_time_from_the_timer() -> None:
    from sloth_widgets.testing import find, select_cards

    board = Board("too-sloth-to-win", seed=1)  # autoplay on
    timer = find(board, "sk-autoplay")
    assert not timer.playing  # the human leads: nothing to play yet
    select_cards(board, ["2"])
    find(board, "sk-play").click()
    assert timer.playing and board.session.bot_to_move  # the front end would now tick
    for expected in (2, 3, 4):
        timer.value += 1  # one front-end tick
        assert len(board.state.history) == expected
    assert board.session.my_turn and not timer.playing  # stopped at the human's turn
    timer.value += 1  # a late tick changes nothing
    assert len(board.state.history) == 4
    find(board, "sk-speed").value = 350
    assert timer.interval == 350


def test_the_board_follows_session_changes_made_from_code() -> None:
    from sloth_widgets.testing import find

    board = Board("sprint", seed=1, seats=["random", "random"], autoplay=False)
    board.session.step()  # e.g. from a notebook cell
    assert "lifts" in find(board, "sk-log").value


def test_a_hidden_hand_leaves_nothing_in_its_button_models() -> None:
    from sloth_widgets.testing import find, select_cards

    board = Board("too-sloth-to-win", seed=1, seats=["human", "human", "random"], autoplay=False)
    find(board, "sk-reveal").click()
    first = [c.key for c in board.hand.cards]
    select_cards(board, [first[0]])
    find(board, "sk-play").click()
    assert board.session.covered
    pool = board.hand._pool
    assert pool and all(b.tooltip == "" and not b.value for b in pool)
    assert all(b._dom_classes == ("sk-card", "sk-handcard") for b in pool)


def test_the_log_leaves_room_for_long_entry_numbers() -> None:
    from sloth_kernel.render.kit import log_html

    short, long = log_html([f"event {i}" for i in range(9)]), log_html([f"event {i}" for i in range(150)])
    assert 'start="1"' in short and "padding-left:3.4ch" in short
    assert 'start="139"' in long and "padding-left:5.4ch" in long  # "150." needs a column more than "9."


def _page_message(widget: object, data: object, buffers: list[bytes] | None = None) -> dict[str, object]:
    """A comm message as the kernel hands it to a widget's comm (content.data is what the page sent)."""
    return {"content": {"comm_id": "x", "data": data}, "buffers": buffers or [], "header": {}, "parent_header": {}}


REFUSED = "The page sent a message the board could not use; nothing changed."
FORGED = [
    {"method": "update", "state": {"_page_params": "junk"}, "buffer_paths": []},
    {"method": "update", "state": {"_page_params": {"seed": {"x": [1, None]}}}, "buffer_paths": []},
    {"method": "update", "state": "not a mapping"},
    {"method": "update", "state": {"value": 1}, "buffer_paths": [["value", 0, "deep"]]},
    {"method": "no-such-method", "state": 42},
    {"no": "method"},
    "not even a mapping",
]


@pytest.mark.parametrize("data", FORGED, ids=[str(i) for i in range(len(FORGED))])
def test_a_forged_page_message_is_refused_in_a_sentence_with_no_traceback_to_the_page(
    data: object, capsys: pytest.CaptureFixture[str]
) -> None:
    """Through the real comm path, with a real IPython shell (whose showtraceback is what sends an
    iopub error to the page): nothing is shown, the board says one short sentence, and the
    traceback goes to the server's log (the process's real stderr) only."""
    from IPython.core.interactiveshell import InteractiveShell
    from sloth_widgets.testing import find, visible_text

    shell = InteractiveShell.instance()
    shown: list[object] = []
    original = shell.showtraceback
    shell.showtraceback = lambda *a, **k: shown.append(a)  # type: ignore[method-assign]
    try:
        board = Board("race-to-the-bottom", seed=2, seats=["human", "random", "random", "random"], autoplay=False)
        before = board.state.to_record()
        card = board.hand.buttons[0]
        unreadable = not isinstance(data, dict) or data.get("method") not in ("update", "custom", "request_state")
        unreadable = unreadable or (isinstance(data, dict) and not isinstance(data.get("state", {}), dict))
        for widget in (board, card, card.layout, find(board, "sk-play")):
            widget.comm.handle_msg(_page_message(widget, data, [b"x"]))
            assert shown == [], f"ipywidgets showed a traceback for {data!r} sent to {type(widget).__name__}"
            assert board.state.to_record() == before
            if unreadable or widget is board:  # no widget reads it, or the board refuses it in words
                said = board.last_error == REFUSED or "The page's address chose no deal" in visible_text(board)
                assert said, (data, type(widget).__name__)
            assert board.last_error in ("", REFUSED)  # a key a widget lacks is ignored, as ipywidgets does
            board.last_error = ""
    finally:
        shell.showtraceback = original  # type: ignore[method-assign]
    assert "Traceback" not in capsys.readouterr().out


def test_a_page_click_still_reaches_the_board_through_the_guard() -> None:
    """The guard reads a real click message as ipywidgets would: the play happens."""
    from sloth_widgets.testing import find, select_cards

    board = Board("too-sloth-to-win", seed=1, autoplay=False)
    select_cards(board, ["2"])
    play = find(board, "sk-play")
    play.comm.handle_msg(_page_message(play, {"method": "custom", "content": {"event": "click"}}))
    assert len(board.state.history) == 1 and board.last_error == ""
    card = board.hand.buttons[0]
    card.comm.handle_msg(_page_message(card, {"method": "update", "state": {"value": True}, "buffer_paths": []}))
    assert card.value is True and board.last_error == ""


def test_the_log_sends_only_its_last_chunk_when_a_line_comes() -> None:
    """A long game's log is split into fixed chunks: a new line changes (and sends) one chunk."""
    from sloth_widgets.log import LOG_CHUNK, LogView

    log = LogView()
    lines = [f"event {i}" for i in range(1, 2 * LOG_CHUNK + 6)]
    log.show(lines)
    chunks = list(log._inner.children)[:-1]  # the last child is the panel's keyboard stop
    assert 'tabindex="0"' in log._inner.children[-1].value and "tabindex" not in log.value
    assert len(chunks) == 3 and 'aria-label="Game log"' in chunks[0].value
    assert all("aria-label" not in c.value for c in chunks[1:])  # one labelled list
    changed: list[object] = []
    for chunk in chunks:
        chunk.observe(lambda change: changed.append(change["owner"]), "value")
    log.show([*lines, "the newest"])
    assert changed == [chunks[2]] and list(log._inner.children)[:3] == chunks
    assert f'<span class="sk-log-n">{len(lines) + 1}.</span><span>the newest</span>' in log.value
    assert log.value.count('class="sk-log-line"') == len(lines) + 1  # every line, once, in order
    assert log.value.index("event 1<") < log.value.index(f"event {LOG_CHUNK + 1}<") < log.value.index("the newest")
    log.show(["a new game"])  # fewer chunks: the rest leave the page
    assert len(log._inner.children) == 2 and "a new game" in log.value and "event" not in log.value


def test_a_card_that_stays_keeps_its_button_so_a_play_only_reorders_the_hand() -> None:
    """Cards leaving the hand change nothing on the buttons of the cards that stay (one children
    message to the page, not a redraw of every card after the gap); a freed button forgets its card."""
    hand = CardHand()
    hand.show([HandCard(k, f"f-{k}", k) for k in "ABCDE"])
    before = dict(zip("ABCDE", hand.buttons, strict=True))
    changes: list[str] = []
    for button in before.values():
        button.observe(lambda change: changes.append(change["name"]), ["_dom_classes", "tooltip"])
    hand.show([HandCard(k, f"f-{k}", k) for k in "ADE"])  # B and C were played
    assert hand.buttons == [before["A"], before["D"], before["E"]]
    assert sorted(changes) == ["_dom_classes", "_dom_classes", "tooltip", "tooltip"]  # only B's and C's, cleared
    assert before["B"].tooltip == "" and before["B"]._dom_classes == ("sk-card", "sk-handcard")
    hand.buttons[1].value = True  # D, now second: the selection is by position in the hand
    assert hand.selected_keys == ["D"]
    hand.show([HandCard(k, f"f-{k}", k) for k in "ADEF"])  # a new card takes a free button
    assert hand.buttons[:3] == [before["A"], before["D"], before["E"]] and hand.buttons[3].tooltip == "F"
    assert hand.selected == ()  # a new hand drops the selection


@pytest.mark.parametrize("game", ["too-sloth-to-win", "race-to-the-bottom", "surplus-of-sloths", "sprint"])
def test_a_move_sends_each_widget_at_most_one_update(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A move's redraw reaches the page as one update per widget that changed (its properties
    together), so the page gets the board in fewer, whole pieces; the hand's cards share one
    size and one style, so a new card's button is a single widget to open."""
    import ipywidgets

    from sloth_kernel.bots import make_bot

    sent: list[tuple[int, str]] = []
    original = ipywidgets.Widget._send

    def recording(self: ipywidgets.Widget, msg: dict[str, object], buffers: object = None) -> None:
        sent.append((id(self), str(msg.get("method"))))
        original(self, msg, buffers)

    monkeypatch.setattr(ipywidgets.Widget, "_send", recording)
    board = Board(game, seed=3, autoplay=False)
    moves = 0
    for step in range(400):
        state = board.state
        if state.is_over or moves == 12:
            break
        if not board.session.my_turn:
            if not board.session.step():  # the bots' moves (a board may hold them at a round's end)
                break
            continue
        move = make_bot(game, "heuristic", seed=step).choose(state.observation(state.current_player))
        sent.clear()
        assert board.submit(str(move)) is not None and board.last_error == ""
        updates = [widget for widget, method in sent if method == "update"]
        assert updates, "a move changes the board"
        assert len(updates) == len(set(updates)), f"a widget sent two updates for one move ({game})"
        moves += 1
    assert moves >= 6
    buttons = board.hand.buttons
    if buttons:
        assert len({id(b.layout) for b in buttons}) == 1 and len({id(b.style) for b in buttons}) == 1


@pytest.mark.parametrize("name", ["too-sloth-to-win", "sprint"])
def test_every_board_sends_the_stylesheet_file_as_its_first_widget(name: str) -> None:
    """The boards' CSS is a file of the package (board.css), read once and sent as a <style> by
    each board: the same on every front end (the light and stock Voila templates, JupyterLab)."""
    from importlib import resources

    css = resources.files("sloth_widgets").joinpath("board.css").read_text(encoding="utf-8")
    assert css.startswith(".sk-board{") and "<style>" not in css and "\n.sk-sr{" in css
    first = Board(name, seed=1).children[0].value
    assert first.startswith("\n<style>\n" + css + "</style>\n")


def test_pause_the_bots_is_off_once_the_game_is_over() -> None:
    board_over = Board("race-to-the-bottom", seed=3, seats=["heuristic"] * 3, autoplay=False)
    assert not board_over._pause.disabled  # bots are still to play
    board_over.run_bots()
    assert board_over.state.is_over and board_over._pause.disabled


def test_a_cards_tag_never_prints_over_its_corner_index_or_its_value() -> None:
    """ "any 1-7" and "0, any type" on Surplus cards, "goal" on Sprint!'s Objective: the tag's line sits
    between the value's baseline and the top of the bottom corner's index (turned half round about
    y = CARD_H - 10, its glyphs, 10 units tall, reach up to about CARD_H - 13), and a long tag is squeezed
    to the card's width inside the frame."""
    import re

    from sloth_kernel.render import kit

    for tag in ("goal", "any 1-7", "0, any type"):
        svg = kit.card_svg(kit.CardFace("X", tag=tag, kind="wild"))
        texts = re.findall(r'<text x="([\d.]+)" y="([\d.]+)"[^>]*font-size="(\d+)"[^>]*>([^<]*)</text>', svg)
        value_y = next(float(y) for x, y, size, words in texts if words == "X" and float(x) == kit.CARD_W / 2)
        tag_y, tag_size = next((float(y), int(size)) for x, y, size, words in texts if words == tag)
        assert value_y <= tag_y - tag_size  # the tag's letters start below the value's baseline
        assert tag_y + 2 <= kit.CARD_H - 13  # and end (descenders too) above the corner index
        if len(tag) > 7:
            assert f'textLength="{kit.CARD_W - 14}"' in svg
