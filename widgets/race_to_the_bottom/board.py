"""The Race to the Bottom play board: seats with their counts, the trick in the middle, a hand
grouped by rank, Jokers, and pitching after a pass."""

from __future__ import annotations

import html
from typing import Any, cast

import ipywidgets as widgets
from sloth_widgets.board import GameBoard
from sloth_widgets.guard import guarded
from sloth_widgets.hand import HandCard
from sloth_widgets.markup import face_css, progress_bar

from sloth_kernel.errors import counted
from sloth_kernel.games.race_to_the_bottom.engine import RaceConfig, RaceObservation
from sloth_kernel.games.race_to_the_bottom.melds import CARD_SYMBOLS, RANK_NAMES, RANKS, new_deck
from sloth_kernel.games.race_to_the_bottom.render import card_face
from sloth_kernel.render import kit

FACE_PREFIX = "sk-f-rb-"
DECK_SIZE = len(new_deck())  # 54: 52 cards and 2 Jokers (RB-1)
HAND_SIZE = 12  # a hand is refilled to 12 from the deck (RB-7)
MAX_PITCH = 6  # at most six cards go under the deck after a pass (RB-7)
RANK_CHOICES = [(RANK_NAMES[r], CARD_SYMBOLS[r]) for r in range(13)]
MAX_JOKERS = 2
FACE_WORDS = {"T": "10"}  # how a rank symbol is printed (the notation's T is a 10)
ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}

RB_STYLE = """
<style>
.rb-mid{display:flex;flex-direction:column;gap:6px;padding:4px 0}
.rb-mode{font-size:13px;color:#333}
.rb-cheat{background:#7a1020;color:#fff;border-radius:8px;padding:5px 10px;font-weight:700}
.rb-pitching{background:#fff1c2;border:1px solid #b38600;border-radius:8px;padding:5px 10px;font-size:14px}
.rb-trick{display:flex;flex-wrap:wrap;gap:8px;align-items:flex-end;list-style:none;margin:0;padding:0}
.rb-meld{display:flex;flex-direction:column;gap:2px;padding:4px 6px;border-radius:8px;background:#ecebe2;opacity:.8;min-width:0}
.rb-meld.rb-top{opacity:1;background:#fff;border:3px solid #f2b600;box-shadow:0 0 0 3px #f2b60044;padding:6px 10px}
.rb-who{font-size:12px;font-weight:700;color:#333}
.rb-top .rb-who{font-size:14px}
.rb-what{font-size:12px;color:#333;overflow-wrap:anywhere}
.rb-top .rb-what{font-size:14px;font-weight:600}
.rb-tag{display:inline-block;margin-left:6px;border-radius:8px;padding:0 7px;background:#f2b600;color:#1d1d1d;font-size:12px}
.rb-cards{display:flex;flex-wrap:wrap;gap:3px}
.rb-c{display:inline-flex;flex-direction:column;align-items:center;justify-content:center;width:30px;height:42px;
  border:2px solid #1d3f72;border-radius:5px;background:#fff;color:#1d3f72;font-weight:700;font-size:15px;line-height:1}
.rb-top .rb-c{width:44px;height:62px;font-size:22px}
.rb-c.rb-j{border-color:#b4441b;color:#b4441b;background:#fff7e6}
.rb-c small{font-size:8px;font-weight:600;margin-top:2px}
.rb-top .rb-c small{font-size:10px}
.rb-open{font-size:15px;color:#333;padding:10px 4px}
.rb-under{font-size:13px;color:#333}
.rb-under .rb-c{width:24px;height:34px;font-size:12px}
.rb-track{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:4px;font-size:13px}
.rb-track li{display:flex;flex-wrap:wrap;gap:4px 8px;align-items:center}
.rb-track .rb-name{min-width:5.5em;font-weight:600}
.rb-sums{margin:4px 0 0 0;padding-left:18px;font-size:13px}
.rb-sums li{margin:2px 0;overflow-wrap:anywhere}
.rb-over p{margin:4px 0}
.rb-teacher{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:6px;font-size:13px}
.rb-teacher .rb-c{width:24px;height:34px;font-size:12px}
.rb-deck{font-size:12px;color:#444;overflow-wrap:anywhere}
.sk-board .jupyter-button.sk-play{background:#1f7a35;color:#fff}
.sk-board .jupyter-button.sk-pass{background:#8a4b00;color:#fff}
.sk-board .jupyter-button.sk-pitch{background:#00697a;color:#fff}
</style>
"""


def face_class(token: str) -> str:
    return FACE_PREFIX + ("joker" if token == "*" else token)


def play_tokens(move_text: str) -> tuple[list[str], list[str]]:
    """(naturals, declared Joker ranks) of a meld's notation: '7 7 *7' -> (['7', '7'], ['7'])."""
    words = move_text.split()
    return [w for w in words if not w.startswith("*")], [w[1:] for w in words if w.startswith("*")]


def is_play(move_text: str) -> bool:
    return move_text not in ("pass", "done") and not move_text.startswith("pitch")


def face_word(symbol: str) -> str:
    """A rank symbol as printed on a card: 2-10, J, Q, K, A."""
    return FACE_WORDS.get(symbol, symbol)


def card_word(token: str) -> str:
    """A card in words: '10', 'Queen', 'Joker', 'Joker as a 7'."""
    if token == "*":
        return "Joker"
    if token.startswith("*"):
        name = RANK_NAMES[CARD_SYMBOLS.index(token[1:])]
        return f"Joker as {'an' if name[0] in 'A8' else 'a'} {name}"
    return RANK_NAMES[CARD_SYMBOLS.index(token)]


def mini_card(token: str) -> str:
    """A small card drawn in CSS (cheap to send): its rank, and "Joker" on a Joker."""
    label = html.escape(card_word(token))
    if token.startswith("*"):
        shown = face_word(token[1:]) or "J"
        return f'<span class="rb-c rb-j" role="img" aria-label="{label}" title="{label}">{shown}<small>Joker</small></span>'
    return f'<span class="rb-c" role="img" aria-label="{label}" title="{label}">{face_word(token)}</span>'


def mini_cards(tokens: tuple[str, ...] | list[str]) -> str:
    return '<span class="rb-cards">' + "".join(mini_card(t) for t in tokens) + "</span>"


def meld_words(play: Any) -> str:
    """A meld in plain words, tens as 10: 'a Pair of 7s', 'a Run of 3 (9 10 J)', 'a Single Queen'."""
    if play.sequence:
        shown = " ".join(face_word(t.lstrip("*")) for t in play.cards)
        return f"a {play.label} ({shown})" + (f" with {counted(play.jokers, 'Joker')}" if play.jokers else "")
    article = "an" if play.kind == "Oil Slick" else "a"
    rank = RANK_NAMES[play.rank]
    name = f"{play.kind} {rank}" if play.kind == "Single" else f"{play.kind} of {rank}s"
    return f"{article} {name}" + (f" with {counted(play.jokers, 'Joker')}" if play.jokers else "")


def ordinal(place: int) -> str:
    return ORDINALS.get(place, f"{place}th")


def or_list(words: list[str]) -> str:
    """'4', '4 or 7', '4, 7 or Queen'."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


class RaceBoard(GameBoard[RaceObservation]):
    """``RaceBoard()``: race your 54 cards against two bots; a fresh, secret deal unless ``seed=…`` chooses one.

    See :class:`GameBoard`.
    """

    game_name = "race-to-the-bottom"
    title = "Race to the Bottom"

    def __init__(self, seed: int | None = None, seats: list[str] | None = None, **options: Any) -> None:
        self._pitching_now = False  # set by each render (update_controls)
        super().__init__(seed, seats, **options)

    # -- hooks --

    def setup_options(self) -> dict[str, widgets.ValueWidget]:
        config = cast(RaceConfig, self.session.game.config)
        return {"grand_prix": widgets.Checkbox(description="Grand Prix (3 races)", value=config.grand_prix)}

    def face_styles(self) -> str:
        return face_css({face_class(t): card_face(t) for t in CARD_SYMBOLS}) + RB_STYLE

    def build_controls(self) -> list[widgets.Widget]:
        self._play_button = widgets.Button(
            description="Play selected", button_style="success", tooltip="play the selected cards as one meld"
        )
        self._play_button.add_class("sk-play")
        self._play_button.on_click(self._on_play)
        self._jokers = [
            widgets.Dropdown(
                options=RANK_CHOICES, value=None, description=f"Joker {i + 1} as", layout=widgets.Layout(width="190px")
            )
            for i in range(MAX_JOKERS)
        ]
        for dropdown in self._jokers:
            dropdown.add_class("sk-joker-rank")
            dropdown.observe(self._on_joker, "value")
        self._pass_button = widgets.Button(
            description="Pass",
            button_style="warning",
            tooltip="out of this trick; then put up to 6 cards under your deck and refill to 12 (RB-7)",
        )
        self._pass_button.add_class("sk-pass")
        self._pass_button.on_click(self._on_pass)
        self._pitch_order = widgets.HTML()
        self._pitch_order.add_class("sk-pitch-order")
        self._pitch_button = widgets.Button(
            description="Refill without pitching", button_style="info", layout=widgets.Layout(width="auto")
        )
        self._pitch_button.add_class("sk-pitch")
        self._pitch_button.on_click(self._on_pitch)
        return [
            self._play_button,
            *self._jokers,
            self._pass_button,
            self._pitch_order,
            self._pitch_button,
            self.hints_toggle,
        ]

    def hand_cards(self, obs: RaceObservation) -> list[HandCard]:
        viewer = self.session.viewer
        hand = obs.seats[viewer].hand if viewer is not None else None
        if not hand:
            return []
        shown = []
        for index, token in enumerate(hand):
            name = "Joker (wild: you declare its rank when you play it)" if token == "*" else card_word(token)
            shown.append(HandCard(token, face_class(token), name, group_start=index > 0 and hand[index - 1] != token))
        return shown

    def hint_shapes(self, obs: RaceObservation) -> list[str]:
        """'Singles: 4, 7 or Queen', 'Pairs: 4s or 7s', 'Runs of 3, ending at Jack or Queen' (a Joker as the rank it stands for)."""
        groups: dict[tuple[str, int, bool], list[int]] = {}
        for move in obs.legal_moves:
            kind, cards = getattr(move, "kind", None), getattr(move, "cards", ())
            if not kind or not cards:
                continue
            sequence = bool(getattr(move, "sequence", False))
            top = RANKS.index(cards[-1].lstrip("*")) if sequence else max(RANKS.index(c.lstrip("*")) for c in cards)
            ranks = groups.setdefault((kind, len(cards) if sequence else 0, sequence), [])
            if top not in ranks:
                ranks.append(top)
        said = []
        for (kind, size, sequence), ranks in groups.items():
            words = [RANK_NAMES[r] for r in sorted(ranks)]
            if sequence:
                said.append(f"{kind}s of {size}, ending at {or_list(words)}")
            elif kind == "Single":
                said.append(f"Singles: {or_list(words)}")
            else:
                said.append(f"{kind}s: {or_list([w + 's' for w in words])}")
        return said

    def hinted_keys(self, obs: RaceObservation) -> set[str]:
        keys: set[str] = set()
        for move in obs.legal_moves:
            text = str(move)
            if obs.pitching and text.startswith("pitch"):
                keys.add(text.split()[1])
            elif is_play(text):
                naturals, declared = play_tokens(text)
                keys.update(naturals)
                if declared:
                    keys.add("*")
        return keys

    def _name(self, seat: int) -> str:
        return self.seat_label(seat)[0]

    def picture(self, obs: RaceObservation, private: bool) -> str:
        mode = f"Grand Prix, race {obs.race} of {obs.races}" if obs.grand_prix else "A single race"
        parts = [
            f'<div class="rb-mode">{html.escape(mode)}: the first to shed all {DECK_SIZE} cards, '
            "hand and deck, wins (RB-9).</div>"
        ]
        top = obs.to_beat
        if top is not None and top.cheat:
            parts.append(
                f'<div class="rb-cheat">Cheat on the table: {html.escape(meld_words(top))}. '
                "Only a Cheat may follow in this trick (RB-6).</div>"
            )
        if obs.pitching and obs.current_player >= 0 and not obs.is_over:
            who = obs.current_player
            done = counted(obs.pitched_now, "card")
            if private and self.session.my_turn:
                text = (
                    f"You passed. Now put up to {MAX_PITCH} cards from your hand under your deck, in the order "
                    f"you click them, then refill your hand to {HAND_SIZE} from the top of your deck (RB-7)."
                )
            else:
                text = (
                    f"{self._name(who)} passed and is putting cards under their deck ({done} so far, at most "
                    f"{MAX_PITCH}), then refills to {HAND_SIZE} (RB-7)."
                )
            parts.append(f'<div class="rb-pitching">{html.escape(text)}</div>')
        parts.append(self._trick_html(obs))
        if private and self.session.viewer is not None and self.session.mode != "watch":
            mine = obs.seats[self.session.viewer].pitched
            if mine:
                parts.append(
                    f'<div class="rb-under">Your cards under your deck ({counted(len(mine), "card")}; '
                    f"they come back in this order): {mini_cards(mine)}</div>"
                )
        if self.session.mode == "watch":
            parts.append(kit.panel("Hands and decks (teacher's view)", self._teacher_html(obs), css="sk-rb-hands"))
        return '<div class="rb-mid">' + "".join(parts) + "</div>"

    def _trick_html(self, obs: RaceObservation) -> str:
        if obs.is_over:
            return f'<div class="rb-open">The {"Grand Prix" if obs.grand_prix else "race"} is over.</div>'
        if not obs.trick:
            leader = obs.current_player
            who = "You lead" if self._name(leader) == "You" else f"{self._name(leader)} leads"
            return f'<div class="rb-open sk-rb-table">A new trick: {html.escape(who)} any meld.</div>'
        items = []
        last = len(obs.trick) - 1
        for index, (seat, meld) in enumerate(obs.trick):
            name = html.escape(self._name(seat))
            what = html.escape(meld_words(meld))
            if index == last:
                items.append(
                    f'<li class="rb-meld rb-top" aria-label="To beat: {name} played {what}">'
                    f'<div class="rb-who">{name}<span class="rb-tag">to beat</span></div>'
                    f'{mini_cards(meld.cards)}<div class="rb-what">{what}</div></li>'
                )
            else:
                items.append(
                    f'<li class="rb-meld" aria-label="{name} played {what}"><div class="rb-who">{name}</div>'
                    f'{mini_cards(meld.cards)}<div class="rb-what">{what}</div></li>'
                )
        count = counted(len(obs.trick), "meld")
        return f'<ol class="rb-trick sk-rb-table" aria-label="This trick, {count}, oldest first">{"".join(items)}</ol>'

    def _teacher_html(self, obs: RaceObservation) -> str:
        """Watching bots: every hand in small cards and every deck in order, top first (cheap to send)."""
        rows = []
        for view in obs.seats:
            deck = " ".join("Joker" if t == "*" else face_word(t) for t in view.deck or ()) or "empty"
            rows.append(
                f"<li><b>{html.escape(self._name(view.seat))}</b>: "
                f"{mini_cards(view.hand or ()) if view.hand else 'empty hand'}"
                f'<div class="rb-deck">Deck, top first: {html.escape(deck)}</div></li>'
            )
        return f'<ul class="rb-teacher">{"".join(rows)}</ul>'

    def seat_facts(self, obs: RaceObservation, seat: int) -> list[str]:
        view = obs.seats[seat]
        facts = [
            f"{counted(view.hand_count, 'card')} in hand",
            f"{view.deck_count} in deck",
            f"{view.remaining} of {DECK_SIZE} left",
        ]
        if obs.grand_prix:
            facts.append(counted(view.points, "point"))
        return facts

    def seat_status(self, obs: RaceObservation, seat: int) -> str:
        view = obs.seats[seat]
        if obs.is_over:
            if not obs.results:
                return ""
            last = obs.results[-1]
            return (
                f"{ordinal(last.places[seat])} in the last race"
                if obs.grand_prix
                else f"{ordinal(last.places[seat])} place"
            )
        if view.out:
            return f"finished {ordinal(obs.order.index(seat) + 1)}"
        if obs.pitching and seat == obs.current_player:
            return "passed, pitching"
        if view.passed:
            return "passed"
        if not obs.trick:
            return "leads" if seat == obs.current_player else ""
        return "in the trick"

    def turn_hint(self, obs: RaceObservation) -> str:
        me = obs.current_player
        if obs.pitching:
            if not obs.seats[me].hand_count:
                return f"refill your hand to {HAND_SIZE} from your deck"
            return (
                f"put up to {MAX_PITCH - obs.pitched_now} cards under your deck (click them in order), "
                f"then refill to {HAND_SIZE}"
            )
        if not obs.seats[me].hand_count:
            return "your hand is empty: pass and refill from your deck (RB-13)"
        top = obs.to_beat
        if top is None:
            return "lead any meld"
        owner = "your own" if obs.to_beat_seat == me else f"{self._name(obs.to_beat_seat)}'s"
        if top.cheat:
            return f"beat {owner} Cheat, {meld_words(top)}, with a Cheat, or pass"
        return f"beat {owner} meld, {meld_words(top)}, or pass"

    def standings(self, obs: RaceObservation) -> str:
        rows = [
            f'<li><span class="rb-name">{html.escape(self._name(seat.seat))}</span>'
            + progress_bar(
                seat.remaining,
                DECK_SIZE,
                colour="#f0b27a" if seat.remaining > DECK_SIZE // 2 else "#8fd19e",
                label=f"{seat.remaining} of {DECK_SIZE} left",
            )
            + "</li>"
            for seat in obs.seats
        ]
        body = f'<ul class="rb-track" aria-label="Cards left of {DECK_SIZE}">{"".join(rows)}</ul>'
        if obs.grand_prix and obs.results and not obs.is_over:  # at the end the summary has the sums
            body += '<div class="rb-mode">Grand Prix points so far (RB-10):</div>' + self._sums_html(obs)
        return kit.panel(f"The race: cards left of {DECK_SIZE}", body)

    def _sums_html(self, obs: RaceObservation) -> str:
        """Each seat's Grand Prix points, race by race, and their sum (most points first)."""
        totals = [sum(r.points[s] for r in obs.results) for s in range(obs.players)]
        lines = []
        for seat in sorted(range(obs.players), key=lambda s: (-totals[s], s)):
            parts = [f"{r.points[seat]} ({ordinal(r.places[seat])} in race {r.race + 1})" for r in obs.results]
            sum_text = " + ".join(parts) + (f" = {counted(totals[seat], 'point')}" if len(parts) > 1 else "")
            if len(parts) == 1:
                sum_text = f"{counted(totals[seat], 'point')} ({ordinal(obs.results[0].places[seat])} in race 1)"
            lines.append(f"<li><b>{html.escape(self._name(seat))}</b>: {html.escape(sum_text)}</li>")
        return f'<ul class="rb-sums">{"".join(lines)}</ul>'

    def summary(self, obs: RaceObservation) -> str:
        parts = []
        for result in obs.results:
            places = "; ".join(
                f"{ordinal(result.places[s])} {self._name(s)}"
                + (f" ({counted(result.left[s], 'card')} left)" if result.left[s] else " (no cards left)")
                for s in result.order
            )
            head = f"Race {result.race + 1}" if obs.grand_prix else "Places"
            parts.append(f"<p><b>{head}:</b> {html.escape(places)}.</p>")
        winners = [s for s in range(obs.players) if obs.returns[s] == max(obs.returns)]
        names = " and ".join(self._name(s) for s in winners)
        verb = "win" if len(winners) > 1 or names == "You" else "wins"
        if obs.grand_prix:
            table = obs.results[0].points if obs.results else ()
            scale = ", ".join(
                f"{ordinal(i + 1)} place {counted(table[s], 'point')}" for i, s in enumerate(obs.results[0].order)
            )
            best = max(seat.points for seat in obs.seats)
            head = (
                f"<p><b>Grand Prix over: {html.escape(names)} {verb} with {counted(best, 'point')}"
                + (", a shared victory" if len(winners) > 1 else "")
                + ".</b></p>"
                f"<p>Each race scores its places ({html.escape(scale)}); the most points after "
                f"{counted(len(obs.results), 'race')} wins, and a tie shares the victory (RB-10).</p>"
            )
            return f'<div class="rb-over">{head}{"".join(parts)}<p><b>Totals:</b></p>{self._sums_html(obs)}</div>'
        head = (
            f"<p><b>Race over: {html.escape(names)} {verb}</b>, the first to shed all {DECK_SIZE} cards. "
            "The others place by fewest cards left, hand and deck together (RB-9).</p>"
        )
        return f'<div class="rb-over">{head}{"".join(parts)}</div>'

    def update_controls(self, obs: RaceObservation, my_turn: bool) -> None:
        moves = [str(m) for m in obs.legal_moves] if my_turn else []
        pitching = self._pitching_now = bool(obs.pitching) and my_turn
        self._play_button.layout.display = "none" if pitching else ""
        self._pass_button.layout.display = "none" if pitching else ""
        self._pitch_button.layout.display = "" if pitching else "none"
        self._pitch_order.layout.display = "" if pitching else "none"
        self._play_button.disabled = not any(is_play(m) for m in moves)
        self._pass_button.disabled = "pass" not in moves
        self._pitch_button.disabled = not pitching
        self._show_pitch_order(pitching)
        self._show_jokers(pitching)

    def hand_heading(self, obs: RaceObservation, my_turn: bool) -> str:
        if my_turn and obs.pitching:
            return "Click cards in the order they go under your deck"
        return "Your hand, grouped by rank"

    def preview_move(self) -> str | None:
        keys = self.hand.selected_keys
        if not keys or self._pitching():
            return None
        naturals = [k for k in keys if k != "*"]
        jokers = [
            "*" + (self._jokers[i].value or "") if i < MAX_JOKERS else "*" for i in range(len(keys) - len(naturals))
        ]
        return " ".join(naturals + jokers)

    def reset_controls(self) -> None:
        for dropdown in self._jokers:
            dropdown.value = None

    def on_selection(self) -> None:
        self._suggest_jokers()
        pitching = self._pitching()
        self._show_jokers(pitching)
        self._show_pitch_order(pitching)

    # -- details --

    def _pitching(self) -> bool:
        """Is the seat on screen pitching now? (As the last render saw it: every change renders.)"""
        return self._pitching_now

    def _show_jokers(self, pitching: bool) -> None:
        count = 0 if pitching else self.hand.selected_keys.count("*")
        for index, dropdown in enumerate(self._jokers):
            dropdown.layout.display = "" if index < count else "none"

    def _show_pitch_order(self, pitching: bool) -> None:
        if not pitching:
            return  # hidden: keep the widgets as they are (nothing to send)
        keys = self.hand.selected_keys
        order = (
            " → ".join("Joker" if k == "*" else card_word(k) for k in keys)
            or "nothing yet (you may refill without pitching)"
        )
        self._pitch_order.value = f"<b>Under your deck, first to last:</b> {html.escape(order)}"
        self._pitch_button.description = (
            f"Put {counted(len(keys), 'card')} under my deck and refill" if keys else "Refill without pitching"
        )

    def _suggest_jokers(self) -> None:
        """If the selection with Jokers matches exactly one legal meld, preselect its declarations."""
        keys = self.hand.selected_keys
        if "*" not in keys or not self.session.my_turn:
            return
        naturals = sorted(k for k in keys if k != "*")
        jokers = len(keys) - len(naturals)
        options = {
            tuple(declared)
            for m in self.session.observation().legal_moves
            for naturals_m, declared in [play_tokens(str(m))]
            if is_play(str(m)) and sorted(naturals_m) == naturals and len(declared) == jokers
        }
        if len(options) == 1:
            for dropdown, rank in zip(self._jokers, options.pop(), strict=False):
                dropdown.value = rank

    # -- handlers --

    @guarded
    def _on_play(self, button: widgets.Button) -> None:
        self.submit(self.preview_move())

    @guarded
    def _on_pass(self, button: widgets.Button) -> None:
        self.submit("pass")

    @guarded
    def _on_pitch(self, button: widgets.Button) -> None:
        moves = [f"pitch {key}" for key in self.hand.selected_keys] + ["done"]
        self.submit_sequence(moves)

    @guarded
    def _on_joker(self, change: dict[str, Any]) -> None:
        self.choice_changed()
