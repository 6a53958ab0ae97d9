"""The Surplus of Sloths play board: secret pick, River rows, the Net, Baby prompt, stepped reveal.

The table: the other seats at the top and yours below, each with public counts only (cards
drafted, Babies, hidden kept cards as a count, points once the reveal has shown them); the
middle of the table is the Net and the two River rows you draft from.

No spoilers: when a game ends the engine has already compared every type (SS-7, SS-8, SS-9),
but it marks each type's lines as a staged step (``REVEAL_TYPE``), so the board shows the reveal
type by type (:mod:`sloth_widgets.reveal`). Until the last type is shown the log holds back the
reveal's lines, the seats and the Net show only the types revealed so far (from the observation's
``reveal``), and the game-over panel (the scores and how each came about) waits.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any, cast

import ipywidgets as widgets
from sloth_widgets.board import GameBoard
from sloth_widgets.guard import guarded
from sloth_widgets.hand import CardHand, HandCard
from sloth_widgets.markup import card_image, face_css

from sloth_kernel.core import seat_name
from sloth_kernel.errors import counted
from sloth_kernel.games.surplus_of_sloths.cards import BABY_CODE, CARD_IDS, SLOTH_TYPES, points
from sloth_kernel.games.surplus_of_sloths.engine import SurplusConfig, SurplusObservation
from sloth_kernel.games.surplus_of_sloths.render import card, card_title, face
from sloth_kernel.render import kit

FACE_PREFIX = "sk-f-ss-"
SMALL = 40
TYPE_ORDER = {t.letter: i for i, t in enumerate(SLOTH_TYPES)}
ALL_CODES = [t.letter + v for t in SLOTH_TYPES for v in ("1", "2", "3", "4", "5", "6", "7", "X")] + [BABY_CODE]

STYLE = """
<style>
.sk-ss-phase{font-weight:700;margin:2px 0}
.sk-ss-sub{font-size:13px;color:#3a3a3a;margin-bottom:4px}
.sk-ss-piles{display:flex;flex-wrap:wrap;gap:8px}
.sk-surplus-pile{border:1px dashed #b9b9b0;border-radius:6px;padding:2px 6px;min-width:0;max-width:100%}
.sk-ss-pile-name{font-size:12px;font-weight:700}
.sk-ss-pile-note{font-size:12px;color:#444}
.sk-ss-pile-taken{background:#eef7ee}
.sk-ss-baby{background:#fbe3ef;border:1px solid #c2407f;border-radius:8px;padding:6px 10px;margin:4px 0;
  display:flex;gap:8px;align-items:center}
.sk-ss-type{padding:4px 8px;margin:6px 0;border-left:6px solid #999;background:#fffffb}
.sk-ss-runs{margin:4px 0;padding:0;list-style:none}
.sk-ss-runs li{display:flex;flex-wrap:wrap;gap:4px 8px;align-items:center;padding:2px 0;border-bottom:1px solid #eee}
.sk-ss-who{font-weight:700;min-width:5.5em}
.sk-ss-drafted{margin:0;padding:0;list-style:none}
.sk-ss-drafted li{display:flex;flex-wrap:wrap;gap:2px 8px;align-items:center;padding:2px 0}
.sk-ss-games{margin:4px 0 0 0;padding-left:1.2em}
.sk-surplus-reveal{overflow-wrap:anywhere}
.sk-ss-final{margin-top:6px}
.sk-ss-sums{margin:4px 0 0 0;padding-left:1.2em}
</style>
"""


def face_class(code: str) -> str:
    return FACE_PREFIX + code


def card_order(code: str) -> tuple[int, int]:
    """Hand order: by type in the rulebook's order, numbers then X; Babies last."""
    if code == BABY_CODE:
        return (len(SLOTH_TYPES), 0)
    return (TYPE_ORDER[code[0]], 8 if code[1] == "X" else int(code[1]))


def cards_html(codes: Any, *, width: int = SMALL, empty: str = "(none)") -> str:
    """A row of small cards, drawn by their face classes (the board's style holds the pictures)."""
    return kit.card_row(
        [card(c, width=width) if c is None else card_image(face_class(c), card_title(c), width) for c in codes],
        empty=empty,
    )


def baby_icon() -> str:
    """A small Baby Sloth picture (SVG, decorative: the words beside it say what it is)."""
    return (
        '<svg width="22" height="22" viewBox="-10 -10 20 20" aria-hidden="true" focusable="false">'
        f'<g fill="#c2407f" stroke="#c2407f">{kit.ICONS["baby"]}</g></svg>'
    )


def pile_value(codes: tuple[str, ...]) -> str:
    """The numbers, the X count and what the pile is worth (the engine's SS-9 arithmetic)."""
    numbers = [c[1] for c in codes if c[1] != "X"]
    xs = sum(1 for c in codes if c[1] == "X")
    _, arithmetic = points([CARD_IDS[c.upper()] for c in codes])
    return f"numbers {' + '.join(numbers) or '–'} · {xs} X · worth {arithmetic}" if codes else ""


def names(seats: Any) -> str:
    return " and ".join(seat_name(s) for s in seats)


class SurplusBoard(GameBoard[SurplusObservation]):
    """``SurplusBoard()``: draft against two bots; a fresh, secret deal unless ``seed=…`` chooses one.

    See :class:`GameBoard`.
    """

    game_name = "surplus-of-sloths"
    title = "Surplus of Sloths"

    def __init__(self, seed: int | None = None, seats: list[str] | None = None, **options: Any) -> None:
        super().__init__(seed, seats, **options)

    # -- building --

    def face_styles(self) -> str:
        return STYLE + face_css({face_class(code): face(code) for code in ALL_CODES})

    def build_table(self) -> list[widgets.Widget]:
        self._rivers = [CardHand(single=True), CardHand(single=True)]
        self._river_labels = []
        rows = []
        for index, river in enumerate(self._rivers, start=1):
            river.add_class("sk-river")
            river.add_class(f"sk-river-{index}")
            river.observe(lambda change, row=index: self._on_river(row, change), "selected")
            label = widgets.HTML()
            self._river_labels.append(label)
            rows.append(widgets.VBox([label, river]))
        self._reveal_html = widgets.HTML()
        self._reveal_prev = widgets.Button(description="Previous type", tooltip="hide the last type shown")
        self._reveal_prev.add_class("sk-reveal-prev")
        self._reveal_prev.on_click(lambda b: self._step_reveal(self.show_previous_step))
        self._reveal_next = widgets.Button(
            description="Next type", button_style="info", tooltip="show how the next type is won"
        )
        self._reveal_next.add_class("sk-reveal-next")
        self._reveal_next.on_click(lambda b: self._step_reveal(self.show_next_step))
        self._reveal_all = widgets.Button(description="Show all", tooltip="show every type and the final scores")
        self._reveal_all.add_class("sk-reveal-all")
        self._reveal_all.on_click(lambda b: self._step_reveal(self.show_every_step))
        buttons = widgets.HBox([self._reveal_prev, self._reveal_next, self._reveal_all])
        buttons.add_class("sk-actions")
        self._reveal_box = widgets.VBox([self._reveal_html, buttons])
        self._reveal_box.add_class("sk-reveal-steps")
        return [*rows, self._reveal_box]

    def build_controls(self) -> list[widgets.Widget]:
        self._play_button = widgets.Button(
            description="Take selected", button_style="success", layout=widgets.Layout(width="auto")
        )
        self._play_button.add_class("sk-play")
        self._play_button.on_click(self._on_play)
        self._keep_button = widgets.Button(
            description="Keep my hand", button_style="warning", layout=widgets.Layout(width="auto")
        )
        self._keep_button.add_class("sk-keep")
        self._keep_button.on_click(self._on_keep)
        return [self._play_button, self._keep_button, self.hints_toggle]

    # -- the stepped reveal: what has been shown so far --

    def _reveal_results(self, obs: SurplusObservation) -> tuple[Any, ...]:
        """The last finished game's reveal, one result per type with Net cards (empty if none)."""
        return tuple(obs.reveal) if obs.games else ()

    def _shown(self, obs: SurplusObservation) -> int:
        """How many types of the last finished game's reveal have been shown: all of them unless its
        staged steps are under way (stepping back to read a type again hides nothing shown)."""
        reveal = self.revealed(obs)
        return reveal.seen if reveal.pending else len(self._reveal_results(obs))

    def _on_view(self, obs: SurplusObservation) -> int:
        """How many types the reveal box shows now (Previous type steps back)."""
        reveal = self.revealed(obs)
        return reveal.at if reveal.steps else len(self._reveal_results(obs))

    def revealing(self, obs: SurplusObservation) -> bool:
        """Is a finished game's reveal still being stepped through?"""
        return self.revealed(obs).pending

    def _revealed_points(self, obs: SurplusObservation) -> list[int]:
        """Each seat's points from the types shown so far (all of them once the reveal is done)."""
        totals = [0] * obs.players
        for result in self._reveal_results(obs)[: self._shown(obs)]:
            if result.winner is not None:
                totals[result.winner] += result.points
        return totals

    def _shown_wins(self, obs: SurplusObservation) -> list[int]:
        """Super Surplus wins as far as the reveal has shown: the last game's win waits for its end."""
        wins = list(obs.wins)
        if self.revealing(obs):
            last = obs.games[-1]
            if len(last.winners) == 1 and wins[last.winners[0]] > 0:  # a tied game gave no win (SS-10)
                wins[last.winners[0]] -= 1
        return wins

    # -- hooks --

    def setup_options(self) -> dict[str, widgets.ValueWidget]:
        config = cast(SurplusConfig, self.session.game.config)
        return {
            "babies": widgets.Checkbox(description="Baby Sloths (SS-2)", value=config.babies),
            "super_surplus": widgets.Checkbox(description="Super Surplus match (SS-10)", value=config.super_surplus),
        }

    def seat_facts(self, obs: SurplusObservation, seat: int) -> list[str]:
        facts = []
        revealing = self.revealing(obs)
        if revealing or obs.phase == "over":
            facts.append(counted(self._revealed_points(obs)[seat], "point"))
            if not revealing and obs.claimed[seat]:
                facts.append(f"won {counted(len(obs.claimed[seat]), 'card')} from the Net")
        else:
            facts.append(_drafted_words(obs.drafted[seat]))
            facts.append(f"{counted(obs.kept_counts[seat], 'hidden card')} kept")
        if obs.super_surplus:
            facts.append(counted(self._shown_wins(obs)[seat], "win"))
        return facts

    def seat_status(self, obs: SurplusObservation, seat: int) -> str:
        if self.revealing(obs):
            return ""
        if obs.is_over:
            last = obs.games[-1]
            if obs.super_surplus:
                return "wins the match" if obs.wins[seat] == max(obs.wins) else ""
            if seat in last.winners:
                return "winner" if len(last.winners) == 1 else "shared win"
            return ""
        if obs.phase == "pick":
            return "picked a card face down" if obs.picked[seat] else "picking"
        status = []
        if seat == obs.active_player:
            status.append("Active Player")
        if obs.row is not None and seat not in obs.to_draft and seat != obs.current_player:
            status.append("took a card this round")
        return ", ".join(status)

    def turn_hint(self, obs: SurplusObservation) -> str:
        if obs.phase == "pick":
            return "pick one of your cards to put face down into the Net"
        if obs.phase == "baby":
            return "put a card from your hand into the Net, or keep your hand"
        if obs.phase == "draft":
            if obs.row is None:
                return "take a card from either River row"
            return f"take a card from River row {obs.row}"
        return ""

    def hand_cards(self, obs: SurplusObservation) -> list[HandCard]:
        viewer = self.session.viewer
        if viewer is None:
            return []
        kept = list(obs.kept[viewer] or ())
        marked = [(c, "kept from the deal, private") for c in kept]
        marked += [(c, "drafted, public") for c in obs.drafted[viewer]]
        if obs.phase == "over":  # the game's end: the types revealed were set aside, still yours to see (SS-7)
            marked += [(c, "shown at the reveal") for c in obs.discards[viewer]]
        marked.sort(key=lambda item: card_order(item[0]))
        shown = []
        for index, (code, where) in enumerate(marked):
            new_group = index > 0 and card_order(marked[index - 1][0])[0] != card_order(code)[0]
            shown.append(HandCard(code, face_class(code), f"{card_title(code)} — {where}", group_start=new_group))
        return shown

    def hand_enabled(self, obs: SurplusObservation, my_turn: bool) -> bool:
        return my_turn and obs.phase in ("pick", "baby") and not self.revealing(obs)

    def hand_heading(self, obs: SurplusObservation, my_turn: bool) -> str:
        if self.revealing(obs) and not obs.is_over:
            return f"Your cards for game {obs.game_number}: first step through the reveal"
        if my_turn and obs.phase == "pick":
            return "Your opening cards: pick one to put face down into the Net (SS-3)"
        if my_turn and obs.phase == "baby":
            return "Baby! Choose a card to put into the Net, or keep your hand (SS-6)"
        return "Your hand, grouped by type"

    def hinted_keys(self, obs: SurplusObservation) -> set[str]:
        return {str(m).split()[1] for m in obs.legal_moves if str(m).split()[0] in ("pick", "net")}

    def picture(self, obs: SurplusObservation, private: bool) -> str:
        if self.revealing(obs) or obs.phase == "over":
            return self._reveal_picture(obs)
        phase = {
            "pick": "Opening: everyone secretly picks one card for the Net (SS-3)",
            "draft": "Drafting (SS-4)",
            "baby": "A Baby was drafted (SS-6)",
        }[obs.phase]
        bits = []
        if obs.super_surplus:
            bits.append(f"Super Surplus game {obs.game_number}")
        if obs.phase in ("draft", "baby"):
            bits.append(f"Active Player: {seat_name(obs.active_player)}")
            if obs.row:
                bits.append(f"everyone takes from row {obs.row} this round")
        bits.append(f"deck: {counted(obs.deck_count, 'card')}")
        parts = [
            f'<div class="sk-ss-phase">{html.escape(phase)}</div>',
            f'<div class="sk-ss-sub">{html.escape(" · ".join(bits))}</div>',
        ]
        if obs.phase == "baby" and obs.current_player >= 0:
            parts.append(
                f'<div class="sk-ss-baby">{baby_icon()}<div>{html.escape(seat_name(obs.current_player))} drafted a '
                "Baby Sloth and may put one card from their hand into the Net, or keep their hand (SS-6).</div></div>"
            )
        parts.append(kit.panel("Surplus Net", self._net(obs), css="sk-ss-net"))
        return "".join(parts)

    def _net(self, obs: SurplusObservation) -> str:
        piles = []
        for letter, codes in zip(obs.types, obs.net, strict=False):
            kind = SLOTH_TYPES[TYPE_ORDER[letter]]
            piles.append(
                f'<div class="sk-surplus-pile"><div class="sk-ss-pile-name" style="color:{kind.color}">'
                f"{html.escape(kind.name)} ({html.escape(kind.icon_words)})</div>"
                f"{cards_html(codes, width=34, empty='empty')}"
                f'<div class="sk-ss-pile-note">{html.escape(pile_value(codes))}</div></div>'
            )
        if obs.net_babies:
            piles.append(
                '<div class="sk-surplus-pile"><div class="sk-ss-pile-name">Babies (score 0)</div>'
                f"{cards_html([BABY_CODE] * obs.net_babies, width=34)}</div>"
            )
        return f'<div class="sk-ss-piles">{"".join(piles)}</div>'

    def _reveal_picture(self, obs: SurplusObservation) -> str:
        """The finished game's Net as it was, type by type: taken, left, or not shown yet."""
        results = self._reveal_results(obs)
        shown = self._shown(obs)
        number = obs.games[-1].number if obs.games else obs.game_number
        head = f"Game {number} is over: the reveal" if self.revealing(obs) else f"Game {number}: the Net, revealed"
        piles = []
        for index, result in enumerate(results):
            kind = SLOTH_TYPES[result.type_index]
            if index >= shown:
                note, css = "not revealed yet", ""
            elif result.winner is not None:
                note = f"{seat_name(result.winner)} takes them: {result.arithmetic} points"
                css = " sk-ss-pile-taken"
            else:
                note, css = "nobody takes them: they stay in the Net (SS-8)", ""
            piles.append(
                f'<div class="sk-surplus-pile{css}"><div class="sk-ss-pile-name" style="color:{kind.color}">'
                f"{html.escape(kind.name)} ({html.escape(kind.icon_words)})</div>"
                f"{cards_html(result.net_cards, width=34, empty='empty')}"
                f'<div class="sk-ss-pile-note">{html.escape(note)}</div></div>'
            )
        if obs.net_babies:
            piles.append(
                '<div class="sk-surplus-pile"><div class="sk-ss-pile-name">Babies (score 0, stay in the Net)</div>'
                f"{cards_html([BABY_CODE] * obs.net_babies, width=34)}</div>"
            )
        sub = (
            f"{shown} of {len(results)} types shown: use Next type below"
            if self.revealing(obs)
            else "every type with cards in the Net, in the rulebook's order (SS-7, SS-8, SS-9)"
        )
        return (
            f'<div class="sk-ss-phase">{html.escape(head)}</div><div class="sk-ss-sub">{html.escape(sub)}</div>'
            + kit.panel("Surplus Net at the end", f'<div class="sk-ss-piles">{"".join(piles)}</div>', css="sk-ss-net")
        )

    def standings(self, obs: SurplusObservation) -> str:
        """What each seat drafted (public, SS-11) and, in a match, the games so far."""
        watch = self.session.mode == "watch"
        parts = []
        if not self.revealing(obs) and obs.phase != "over":
            rows = []
            for s in range(obs.players):
                kept, hidden = "", obs.kept[s]
                if watch and hidden is not None:
                    kept = " · kept (teacher view): " + cards_html(sorted(hidden, key=card_order), width=26)
                drafted = cards_html(sorted(obs.drafted[s], key=card_order), width=26, empty="nothing yet")
                rows.append(f'<li><span class="sk-ss-who">{html.escape(seat_name(s))}</span>{drafted}{kept}</li>')
            parts.append(kit.panel("Drafted cards (open to all)", f'<ul class="sk-ss-drafted">{"".join(rows)}</ul>'))
        if obs.super_surplus:
            games = obs.games[:-1] if self.revealing(obs) else obs.games
            items = [f"<li>{html.escape(self._game_line(game))}</li>" for game in games]
            wins = self._shown_wins(obs)
            tally = ", ".join(f"{seat_name(s)} {w}" for s, w in enumerate(wins))
            body = (f'<ol class="sk-ss-games">{"".join(items)}</ol>' if items else "") + (
                f"<div>Wins: {html.escape(tally)} (first to 2 wins takes the match, SS-10).</div>"
            )
            parts.append(kit.panel("Super Surplus", body, css="sk-ss-match"))
        return "".join(parts)

    @staticmethod
    def _game_line(game: Any) -> str:
        scores = ", ".join(f"{seat_name(s)} {counted(p, 'point')}" for s, p in enumerate(game.scores))
        if len(game.winners) == 1:
            return f"Game {game.number}: {scores}. {seat_name(game.winners[0])} wins."
        return f"Game {game.number}: {scores}. {names(game.winners)} tie: no win (SS-10)."

    def summary(self, obs: SurplusObservation) -> str:
        """The results and how each score came about (SS-7, SS-8, SS-9; SS-10 for a match)."""
        if not obs.games:
            return "<div><b>Game over.</b></div>"
        last = obs.games[-1]
        if obs.super_surplus:
            champion = max(range(obs.players), key=lambda s: obs.wins[s])
            verdict = f"{seat_name(champion)} wins the Super Surplus with {counted(obs.wins[champion], 'win')} (SS-10)"
        elif len(last.winners) == 1:
            verdict = f"{seat_name(last.winners[0])} wins with {counted(last.scores[last.winners[0]], 'point')}"
        else:
            verdict = f"{names(last.winners)} share the win with {counted(last.scores[last.winners[0]], 'point')}"
        parts = [f"<div><b>Game over.</b> <b>{html.escape(verdict)}.</b></div>"]
        title = f"How game {last.number} was scored" if obs.super_surplus else "How the scores came about"
        parts.append(
            f"<div>{html.escape(title)} (SS-9: each type taken scores the sum of its numbers, once "
            "more for every X):</div>"
        )
        parts.append(
            f'<ul class="sk-ss-sums">{"".join(f"<li>{html.escape(line)}</li>" for line in self.arithmetic(last))}</ul>'
        )
        if obs.super_surplus:
            items = "".join(f"<li>{html.escape(self._game_line(game))}</li>" for game in obs.games)
            parts.append(f'<div>The match:</div><ol class="sk-ss-games">{items}</ol>')
        return "".join(parts)

    @staticmethod
    def arithmetic(game: Any) -> list[str]:
        """One sentence per seat: the types they took, each type's sum, and the total; then the types nobody took."""
        lines = []
        for s, total in enumerate(game.scores):
            taken = [r for r in game.reveal if r.winner == s]
            if not taken:
                lines.append(f"{seat_name(s)}: took no Net cards, so 0 points.")
                continue
            each = "; ".join(f"{SLOTH_TYPES[r.type_index].name} {r.arithmetic}" for r in taken)
            sum_words = "" if len(taken) == 1 else f"; in all {' + '.join(str(r.points) for r in taken)} = {total}"
            lines.append(f"{seat_name(s)}: {each}{sum_words}, so {counted(total, 'point')}.")
        left = [SLOTH_TYPES[r.type_index].name for r in game.reveal if r.winner is None]
        if left:
            lines.append(
                f"Nobody took the {' and '.join(left)} cards: a tie or no run, so they stayed in the Net (SS-8)."
            )
        return lines

    def update_controls(self, obs: SurplusObservation, my_turn: bool) -> None:
        revealing = self.revealing(obs)
        legal = {str(m) for m in obs.legal_moves} if my_turn and not revealing else set()
        drafting = bool(legal) and obs.phase == "draft"
        for index, (river, label) in enumerate(zip(self._rivers, self._river_labels, strict=False), start=1):
            codes = obs.rivers[index - 1]
            takes = [f"take {c} from row {index}" in legal for c in codes]
            hints = takes if self.hints_toggle.value else []
            faded = [obs.row is not None and obs.row != index] * len(codes)
            river.show(
                [HandCard(c, face_class(c), card_title(c)) for c in codes],
                hinted=hints,
                enabled=drafting and any(takes),
                faded=faded,
            )  # the engine's legal takes decide
            note = " — everyone takes from this row this round" if obs.row == index else ""
            empty = " (empty)" if not codes else ""
            title = f"River row {index}{note}{empty}"
            if obs.phase == "pick":
                title = "River rows: dealt after the opening picks" if index == 1 else ""
            label.value = f'<div class="sk-hand-label">{html.escape(title)}</div>' if title else ""
            river.layout.display = "" if codes else "none"
            label.layout.display = "none" if obs.is_over or revealing or not title else ""
        self._play_button.description = {"pick": "Put face down into the Net", "baby": "Put selected into the Net"}.get(
            obs.phase, "Take selected"
        )
        self._play_button.disabled = not legal or ("keep" in legal and len(legal) == 1)
        self._keep_button.layout.display = "" if obs.phase == "baby" else "none"
        self._keep_button.disabled = "keep" not in legal
        self._show_reveal(obs)

    def preview_move(self) -> str | None:
        obs = self.session.observation()
        if obs.phase == "draft":
            for row, river in enumerate(self._rivers, start=1):
                if river.selected_keys:
                    return f"take {river.selected_keys[0]} from row {row}"
            return None
        keys = self.hand.selected_keys
        if not keys:
            return None
        verb = "pick" if obs.phase == "pick" else "net"
        return " ".join([verb, keys[-1]])

    def reset_controls(self) -> None:
        for river in self._rivers:
            river.clear()

    # -- the stepped reveal --

    def _show_reveal(self, obs: SurplusObservation) -> None:
        results = self._reveal_results(obs)
        # shown from the game's end until the next game's drafting starts (or for good at the end)
        if not results or obs.phase in ("draft", "baby"):
            self._reveal_box.layout.display = "none"
            return
        self._reveal_box.layout.display = ""
        total = len(results)
        step = min(self._on_view(obs), total)
        finished = obs.games[-1]
        parts = [
            f"<div><b>Reveal of game {finished.number}</b>, type by type (SS-7, SS-8, SS-9): "
            f"{step} of {total} shown.</div>"
        ]
        parts += [self._type_html(result) for result in results[:step]]
        if step >= total:
            scores = ", ".join(f"{seat_name(s)} {p}" for s, p in enumerate(finished.scores))
            if len(finished.winners) == 1:
                verdict = f"{seat_name(finished.winners[0])} wins"
            else:
                verdict = f"{names(finished.winners)} share the win"
            parts.append(
                f'<div class="sk-ss-final"><b>Final scores:</b> {html.escape(scores)} — '
                f"<b>{html.escape(verdict)}</b>.</div>"
            )
        self._reveal_html.value = kit.panel("The reveal", "".join(parts), css="sk-surplus-reveal")
        self._reveal_prev.disabled = step <= 0
        self._reveal_next.disabled = self._reveal_all.disabled = step >= total

    def _type_html(self, result: Any) -> str:
        kind = SLOTH_TYPES[result.type_index]
        rows = []
        for run in result.runs:
            won = run.player == result.winner
            if run.run:
                top = f", highest number {run.top}" if run.top else ", no natural number"
                words = f"best run {', '.join(run.run)} ({run.length} long{top})"
            elif BABY_CODE in run.cards:
                words = "no run: a Baby alone makes no run (SS-8)"
            else:
                words = "no run: no cards of this type"
            rows.append(
                f'<li><span class="sk-ss-who">{kit.esc(seat_name(run.player))}</span>'
                + cards_html(run.cards, width=26, empty="no cards")
                + f"<span>{kit.esc(words)}</span>"
                + (kit.badge("takes the Net cards", css="sk-good") if won else "")
                + "</li>"
            )
        claim = result.lines[-1]  # the engine's words: who takes them (or why nobody does) and the points
        return (
            f'<div class="sk-ss-type" style="border-left-color:{kind.color}">'
            f'<b style="color:{kind.color}">{html.escape(kind.label)}</b> — in the Net: '
            f"{cards_html(result.net_cards, width=26)}"
            f'<ul class="sk-ss-runs">{"".join(rows)}</ul>'
            f"<div><b>{html.escape(claim)}</b></div></div>"
        )

    # -- handlers --

    @guarded
    def _step_reveal(self, go: Callable[[], bool]) -> None:
        go()  # the shell's staged steps: the log, the seats and the game-over panel follow

    @guarded
    def _on_river(self, row: int, change: dict[str, Any]) -> None:
        if change["new"]:
            self._rivers[2 - row].clear()  # one River card at a time
        self.choice_changed()

    @guarded
    def _on_play(self, button: widgets.Button) -> None:
        self.submit(self.preview_move())

    @guarded
    def _on_keep(self, button: widgets.Button) -> None:
        self.submit("keep")


def _drafted_words(drafted: Sequence[str]) -> str:
    """What a seat has drafted, Babies among them: "3 cards drafted", "1 card drafted: a Baby",
    "4 cards drafted, including 1 Baby", "2 cards drafted, both Babies"."""
    total = len(drafted)
    babies = sum(1 for c in drafted if c == BABY_CODE)
    said = f"{counted(total, 'card')} drafted"
    if not babies:
        return said
    if babies == total:
        return f"{said}: a Baby" if total == 1 else f"{said}, {'both' if total == 2 else 'all'} Babies"
    return f"{said}, including {counted(babies, 'Baby', 'Babies')}"
