"""Race to the Bottom as HTML: the race standings, the trick, hands, decks and pitches (pure)."""

from __future__ import annotations

from sloth_kernel.core import counted, ordinal, seat_name
from sloth_kernel.games.race_to_the_bottom.engine import HAND_SIZE, Play, RaceObservation
from sloth_kernel.games.race_to_the_bottom.melds import card_word, cards_spoken
from sloth_kernel.render import kit

CARD_COLOUR = "#1d3f72"
JOKER_COLOUR = "#b4441b"
BACK_COLOUR = "#7a2b2b"
RANK_WORDS = {"J": "Jack", "Q": "Queen", "K": "King", "A": "Ace", "T": "10"}


def card_face(token: str) -> kit.CardFace:
    """A card from its notation: ``7``, ``T`` (printed ``10``); a Joker ``*`` (in hand) or ``*7`` (declared 7)."""
    if token.startswith("*"):
        return kit.CardFace(card_word(token[1:]), JOKER_COLOUR, "star", "Joker", kind="wild")
    return kit.CardFace(card_word(token), CARD_COLOUR, "runner")


def card_title(token: str) -> str:
    """A card's tooltip in words: ``10``, ``Queen``, ``Joker``, ``Joker as a 7``."""
    if token.startswith("*"):
        declared = token[1:]
        return (
            f"Joker as {'an' if declared in ('A', '8') else 'a'} {RANK_WORDS.get(declared, declared)}"
            if declared
            else "Joker"
        )
    return RANK_WORDS.get(token, token)


def back(width: int = 30) -> str:
    return kit.card_svg(kit.CardFace("", BACK_COLOUR, kind="back"), width=width, title="hidden card")


def cards(tokens: tuple[str, ...] | list[str], width: int = 44, *, empty: str = "(none)", css: str = "") -> str:
    return kit.card_row(
        [kit.card_svg(card_face(t), width=width, title=card_title(t), data=t) for t in tokens], empty=empty, css=css
    )


def standings(obs: RaceObservation) -> str:
    rows = []
    for seat in obs.seats:
        name = kit.esc(seat_name(seat.seat))
        if seat.seat == obs.current_player:
            name += kit.badge("to move", css="sk-warn")
        if seat.seat == obs.player:
            name += kit.badge("you")
        if seat.out:
            status = kit.badge(f"finished #{obs.order.index(seat.seat) + 1}", css="sk-good")
        elif seat.passed:
            status = kit.badge("passed", css="sk-bad")
        else:
            status = kit.badge("in the trick")
        bar = (
            f'<div style="background:#eee;width:110px;height:8px;border-radius:4px">'
            f'<div style="background:#2a9d3a;height:8px;border-radius:4px;width:{110 * seat.remaining // 54}px">'
            f"</div></div>"
        )
        row = [name, f"<b>{seat.remaining}</b>{bar}", str(seat.hand_count), str(seat.deck_count), status]
        if obs.grand_prix:
            row.append(str(seat.points))
        rows.append(row)
    headers = ["Player", "Cards left", "Hand", "Deck", "This trick"] + (["Points"] if obs.grand_prix else [])
    return kit.table(headers, rows, css="sk-rb-standings")


def trick(obs: RaceObservation) -> str:
    if not obs.trick:
        who = seat_name(obs.current_player) if obs.current_player >= 0 else "nobody"
        return f'<div class="sk-empty">An open trick: {kit.esc(who)} leads any meld.</div>'
    plays = []
    for index, (seat, meld) in enumerate(obs.trick):
        last = index == len(obs.trick) - 1
        label = f"{seat_name(seat)}: {meld.describe()}"
        size = 44 if last else 30
        plays.append(
            f'<div class="sk-rb-meld{" sk-rb-top" if last else ""}" title="{kit.esc(label)}">'
            f'<div style="font-size:12px">{kit.esc(label)}</div>{cards(meld.cards, size)}</div>'
        )
    top: Play | None = obs.to_beat
    note = kit.badge("only Cheats may follow (RB-6)", css="sk-bad") if top is not None and top.cheat else ""
    return f'<div class="sk-cards" style="gap:12px">{"".join(plays)}</div>{note}'


def seat_cards(obs: RaceObservation) -> str:
    blocks = []
    for seat in obs.seats:
        if seat.hand is None:
            hand = kit.card_row([back()] * seat.hand_count, empty="empty hand")
        else:
            hand = cards(seat.hand, empty="empty hand", css="sk-rb-hand-cards")
        deck = kit.card_row([back(36)] if seat.deck_count else [], empty="no deck")
        deck += f'<div style="font-size:12px">{seat.deck_count} in deck</div>'
        if seat.pitched:
            deck += (
                '<div class="sk-rb-pitched"><div style="font-size:12px">pitched under the deck '
                f"(top → bottom)</div>{cards(seat.pitched, 28)}</div>"
            )
        if seat.deck is not None:
            order = cards_spoken(seat.deck) or "(empty)"
            deck += f'<div class="sk-rb-deck-order" style="font-size:11px;color:#666">deck top→bottom: {kit.esc(order)}</div>'
        blocks.append(
            f'<div class="sk-rb-hand" data-seat="{seat.seat}" style="display:flex;gap:14px;align-items:flex-start">'
            f'<div style="min-width:90px"><b>{kit.esc(seat_name(seat.seat))}</b></div>'
            f'<div style="flex:1">{hand}</div><div class="sk-rb-deck">{deck}</div></div>'
        )
    return "".join(blocks)


def results(obs: RaceObservation) -> str:
    rows = []
    for result in obs.results:
        order = ", ".join(
            f"{seat_name(s)} {ordinal(result.places[s])}"
            + (f" ({counted(result.left[s], 'card')} left)" if result.left[s] else "")
            for s in result.order
        )
        rows.append([str(result.race + 1), kit.esc(order), kit.esc(" / ".join(map(str, result.points)))])
    return kit.table(["Race", "Places", "Points, Player 1 first"], rows, css="sk-rb-results")


def render(obs: RaceObservation) -> str:
    mode = f"Grand Prix, race {obs.race} of {obs.races}" if obs.grand_prix else "A single race"
    if obs.is_over:
        best = max(obs.returns)
        winners = [seat_name(s) for s in range(obs.players) if obs.returns[s] == best]
        head = f"{mode} · over: {' and '.join(winners)} win{'s' * (len(winners) == 1)}"
    elif obs.pitching:
        head = f"{mode} · {seat_name(obs.current_player)} passed and is pitching ({obs.pitched_now} of at most 6)"
    else:
        head = f"{mode} · {seat_name(obs.current_player)} to move"
    body = (
        f"<div>{kit.esc(head)} · shed all 54 cards (hand of {HAND_SIZE} + deck) to win</div>"
        + kit.panel("Race", standings(obs))
        + kit.panel("The trick", trick(obs), css="sk-rb-table")
        + kit.panel("Hands and decks", seat_cards(obs), css="sk-rb-hands")
        + (kit.panel("Results", results(obs)) if obs.results else "")
        + kit.panel("Log", kit.log_html([e.text for e in obs.log]), css="sk-rb-log")
    )
    return kit.page("Race to the Bottom", body)
