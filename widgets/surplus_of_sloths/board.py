"""The Surplus of Sloths play board: secret pick, River rows, the Net, Baby prompt, stepped reveal."""

from __future__ import annotations

import html
from typing import Any, cast

import ipywidgets as widgets
from sloth_widgets.common import CardHand, GameBoard, HandCard, face_css, guarded

from sloth_kernel.core import seat_name
from sloth_kernel.games.surplus_of_sloths.cards import BABY_CODE, CARD_IDS, SLOTH_TYPES, points
from sloth_kernel.games.surplus_of_sloths.engine import SurplusConfig
from sloth_kernel.games.surplus_of_sloths.render import card, card_title, face
from sloth_kernel.render import kit

FACE_PREFIX = "sk-f-ss-"
SMALL = 40
TYPE_ORDER = {t.letter: i for i, t in enumerate(SLOTH_TYPES)}
ALL_CODES = [t.letter + v for t in SLOTH_TYPES for v in ("1", "2", "3", "4", "5", "6", "7", "X")] + [BABY_CODE]


def face_class(code: str) -> str:
    return FACE_PREFIX + code


def card_order(code: str) -> tuple[int, int]:
    """Hand order: by type in the rulebook's order, numbers then X; Babies last."""
    if code == BABY_CODE:
        return (len(SLOTH_TYPES), 0)
    return (TYPE_ORDER[code[0]], 8 if code[1] == "X" else int(code[1]))


def cards_html(codes: Any, *, width: int = SMALL, empty: str = "(none)") -> str:
    return kit.card_row([card(c, width=width) for c in codes], empty=empty)


def pile_value(codes: tuple[str, ...]) -> str:
    """The numbers, the X count and what the pile is worth (the engine's SS-9 arithmetic)."""
    numbers = [c[1] for c in codes if c[1] != "X"]
    xs = sum(1 for c in codes if c[1] == "X")
    _, arithmetic = points([CARD_IDS[c.upper()] for c in codes])
    return f"numbers {' + '.join(numbers) or '–'} · {xs} X · worth {arithmetic}" if codes else ""


class SurplusBoard(GameBoard):
    """``SurplusBoard()``: draft against two bots; a fresh, secret deal unless ``seed=…`` chooses one.

    See :class:`GameBoard`.
    """

    game_name = "surplus-of-sloths"
    title = "Surplus of Sloths"

    def __init__(self, seed: int | None = None, seats: list[str] | None = None, **options: Any) -> None:
        self._reveal_step = 0
        self._reveal_key: tuple[int, int] = (0, 0)
        super().__init__(seed, seats, **options)
        config = cast(SurplusConfig, self.session.game.config)
        self._setup.add_options(
            {
                "babies": widgets.Checkbox(description="Baby Sloths (SS-2)", value=config.babies),
                "super_surplus": widgets.Checkbox(
                    description="Super Surplus match (SS-10)", value=config.super_surplus
                ),
            }
        )

    # -- building --

    def face_styles(self) -> str:
        return face_css({face_class(code): face(code) for code in ALL_CODES})

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
        self._reveal_prev = widgets.Button(description="Previous type", icon="chevron-left")
        self._reveal_prev.add_class("sk-reveal-prev")
        self._reveal_prev.on_click(lambda b: self._step_reveal(-1))
        self._reveal_next = widgets.Button(description="Next type", icon="chevron-right", button_style="info")
        self._reveal_next.add_class("sk-reveal-next")
        self._reveal_next.on_click(lambda b: self._step_reveal(+1))
        self._reveal_all = widgets.Button(description="Show all")
        self._reveal_all.add_class("sk-reveal-all")
        self._reveal_all.on_click(lambda b: self._step_reveal(100))
        self._reveal_box = widgets.VBox(
            [self._reveal_html, widgets.HBox([self._reveal_prev, self._reveal_next, self._reveal_all])]
        )
        self._reveal_box.add_class("sk-reveal-steps")
        return [*rows, self._reveal_box]

    def build_controls(self) -> list[widgets.Widget]:
        self._play_button = widgets.Button(
            description="Take selected", button_style="success", icon="play", layout=widgets.Layout(width="auto")
        )
        self._play_button.add_class("sk-play")
        self._play_button.on_click(self._on_play)
        self._keep_button = widgets.Button(description="Keep my hand", button_style="warning", icon="hand-paper-o")
        self._keep_button.add_class("sk-keep")
        self._keep_button.on_click(self._on_keep)
        return [self._play_button, self._keep_button, self._hint]

    # -- hooks --

    def hand_cards(self, obs: Any) -> list[HandCard]:
        viewer = self.session.viewer
        if viewer is None:
            return []
        kept = list(obs.kept[viewer] or ())
        marked = [(c, "kept from the deal, private") for c in kept]
        marked += [(c, "drafted, public") for c in obs.drafted[viewer]]
        marked.sort(key=lambda item: card_order(item[0]))
        shown = []
        for index, (code, where) in enumerate(marked):
            new_group = index > 0 and card_order(marked[index - 1][0])[0] != card_order(code)[0]
            shown.append(HandCard(code, face_class(code), f"{card_title(code)} — {where}", group_start=new_group))
        return shown

    def hand_enabled(self, obs: Any, my_turn: bool) -> bool:
        return my_turn and obs.phase in ("pick", "baby")

    def hand_heading(self, obs: Any, my_turn: bool) -> str:
        if my_turn and obs.phase == "pick":
            return "Your opening cards: pick one to put face down into the Net (SS-3)"
        if my_turn and obs.phase == "baby":
            return "Baby! Choose a card to put into the Net, or keep your hand (SS-6)"
        return "Your hand, grouped by type"

    def hinted_keys(self, obs: Any) -> set[str]:
        return {str(m).split()[1] for m in obs.legal_moves if str(m).split()[0] in ("pick", "net")}

    def picture(self, obs: Any, private: bool) -> str:
        phase = {
            "pick": "Opening: everyone secretly picks one card for the Net (SS-3)",
            "draft": "Drafting (SS-4)",
            "baby": "A Baby was drafted (SS-6)",
            "over": "Game over",
        }[obs.phase]
        bits = [phase]
        if obs.phase in ("draft", "baby"):
            bits.append(f"Active Player: {seat_name(obs.active_player)}")
            if obs.row:
                bits.append(f"everyone takes from row {obs.row} this round")
        bits.append(f"deck: {obs.deck_count} cards")
        if obs.super_surplus:
            bits.append(
                f"Super Surplus game {obs.game_number} · wins: "
                + ", ".join(f"{seat_name(s)} {w}" for s, w in enumerate(obs.wins))
            )
        parts = [f"<div>{html.escape(' · '.join(bits))}</div>"]
        if obs.phase == "baby" and obs.current_player >= 0:
            parts.append(
                '<div class="sk-ss-baby" style="background:#fbe3ef;border:1px solid #c2407f;border-radius:8px;'
                f'padding:6px 10px;margin:4px 0">👶 {html.escape(seat_name(obs.current_player))} drafted a '
                "Baby Sloth and may put one card from their hand into the Net, or keep their hand (SS-6).</div>"
            )
        parts.append(kit.panel("Surplus Net", self._net(obs), css="sk-ss-net"))
        return "".join(parts)

    def _net(self, obs: Any) -> str:
        piles = []
        for letter, codes in zip(obs.types, obs.net, strict=False):
            kind = SLOTH_TYPES[TYPE_ORDER[letter]]
            piles.append(
                f'<div class="sk-surplus-pile" style="border:1px dashed #bbb;border-radius:6px;padding:2px 6px">'
                f'<div style="font-size:12px;color:{kind.color};font-weight:700">{html.escape(kind.name)} '
                f"({html.escape(kind.icon_words)})</div>{cards_html(codes, width=34, empty='empty')}"
                f'<div style="font-size:11px;color:#555">{html.escape(pile_value(codes))}</div></div>'
            )
        if obs.net_babies:
            piles.append(
                f'<div class="sk-surplus-pile"><div style="font-size:12px">Babies (score 0)</div>'
                f"{cards_html([BABY_CODE] * obs.net_babies, width=34)}</div>"
            )
        return f'<div style="display:flex;flex-wrap:wrap;gap:8px">{"".join(piles)}</div>'

    def standings(self, obs: Any) -> str:
        blocks = []
        watch = self.session.mode == "watch"
        for s in range(obs.players):
            flags = []
            if obs.phase in ("draft", "baby") and s == obs.active_player:
                flags.append(kit.badge("Active", css="sk-good"))
            if s == obs.current_player:
                flags.append(kit.badge("to move", css="sk-warn"))
            if obs.reveal or obs.is_over:
                flags.append(kit.badge(f"{obs.scores[s]} points"))
            if obs.super_surplus:
                flags.append(kit.badge(f"{obs.wins[s]} win(s)"))
            kept = obs.kept[s] if watch and obs.kept[s] is not None else [None] * obs.kept_counts[s]
            body = [
                f'<div style="font-size:11px;color:#666">Kept from the deal ({"open: teacher view" if watch else "hidden"})</div>',
                cards_html(kept, width=30),
                '<div style="font-size:11px;color:#666">Drafted (public)</div>',
                cards_html(sorted(obs.drafted[s], key=card_order), width=30),
            ]
            if obs.phase == "pick":
                body.append(
                    f'<div style="font-size:11px;color:#666">Opening pick: '
                    f"{'face down' if obs.picked[s] else 'not yet'}</div>"
                )
            if obs.claimed[s]:
                body += [
                    '<div style="font-size:11px;color:#666">Won from the Net</div>',
                    cards_html(obs.claimed[s], width=30),
                ]
            mine = s == self.session.viewer and not watch and not self.session.covered
            blocks.append(
                kit.panel(
                    seat_name(s) + (" (you)" if mine else ""),
                    "".join(flags) + "".join(body),
                    css=f"sk-ss-seat sk-ss-seat-{s}",
                )
            )
        return (
            '<div style="display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));gap:6px;'
            f'min-width:520px">{"".join(blocks)}</div>'
        )

    def summary(self, obs: Any) -> str:
        if not obs.games:
            return "Game over."
        last = obs.games[-1]
        scores = ", ".join(f"{seat_name(s)} {p}" for s, p in enumerate(last.scores))
        names = " and ".join(seat_name(s) for s in last.winners)
        verdict = f"{names} win{'s' if len(last.winners) == 1 else ' (a shared win)'}"
        if obs.super_surplus:
            champion = max(range(obs.players), key=lambda s: obs.wins[s])
            verdict = f"{seat_name(champion)} wins the Super Surplus with {obs.wins[champion]} wins (SS-10)"
        return f"<div>🦥 Game over: <b>{html.escape(verdict)}</b>. Final scores: {html.escape(scores)} (SS-9).</div>"

    def update_controls(self, obs: Any, my_turn: bool) -> None:
        legal = {str(m) for m in obs.legal_moves} if my_turn else set()
        drafting = my_turn and obs.phase == "draft"
        for index, (river, label) in enumerate(zip(self._rivers, self._river_labels, strict=False), start=1):
            codes = obs.rivers[index - 1]
            takes = [f"take {c} from row {index}" in legal for c in codes]
            hints = takes if self._hint.value else []
            faded = [obs.row is not None and obs.row != index] * len(codes)
            river.show(
                [HandCard(c, face_class(c), card_title(c)) for c in codes],
                hinted=hints,
                enabled=drafting and any(takes),
                faded=faded,
            )  # the engine's legal takes decide
            note = " — everyone takes from this row this round" if obs.row == index else ""
            empty = " (dealt after the opening picks)" if obs.phase == "pick" else " (empty)" if not codes else ""
            label.value = f'<div class="sk-hand-label">River row {index}{html.escape(note + empty)}</div>'
            river.layout.display = "" if codes else "none"
            label.layout.display = "none" if obs.is_over else ""
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
        keys = self._hand.selected_keys
        if not keys:
            return None
        verb = "pick" if obs.phase == "pick" else "net"
        return " ".join([verb, keys[-1]])

    def reset_controls(self) -> None:
        for river in self._rivers:
            river.clear()

    # -- the stepped reveal --

    def _show_reveal(self, obs: Any) -> None:
        if not obs.reveal:
            self._reveal_box.layout.display = "none"
            return
        key = (obs.game_number, len(obs.games))
        if key != self._reveal_key:
            self._reveal_key, self._reveal_step = key, 0
        self._reveal_box.layout.display = ""
        total = len(obs.reveal)
        step = min(self._reveal_step, total)
        finished = obs.games[-1]
        parts = [f"<b>Reveal of game {finished.number}</b>, type by type (SS-7, SS-8, SS-9): {step} of {total} shown."]
        parts += [self._type_html(obs, result) for result in obs.reveal[:step]]
        if step >= total:
            scores = ", ".join(f"{seat_name(s)} {p}" for s, p in enumerate(finished.scores))
            names = " and ".join(seat_name(s) for s in finished.winners)
            parts.append(
                f'<div class="sk-ss-final"><b>Final scores:</b> {html.escape(scores)} — '
                f"<b>{html.escape(names)}</b> win{'s' if len(finished.winners) == 1 else ' (shared)'}.</div>"
            )
        self._reveal_html.value = kit.panel("The reveal", "".join(parts), css="sk-surplus-reveal")
        self._reveal_prev.disabled = step <= 0
        self._reveal_next.disabled = self._reveal_all.disabled = step >= total

    def _type_html(self, obs: Any, result: Any) -> str:
        kind = SLOTH_TYPES[result.type_index]
        rows = []
        for run in result.runs:
            won = run.player == result.winner
            words = ", ".join(run.run) if run.run else "no run"
            rows.append(
                [
                    kit.esc(seat_name(run.player)) + (kit.badge("takes the Net", css="sk-good") if won else ""),
                    cards_html(run.cards, width=26, empty="none"),
                    kit.esc(words)
                    + f"<br><small>{run.length} long"
                    + (f", top {run.top}" if run.top else "")
                    + "</small>",
                ]
            )
        claim = (
            f"{seat_name(result.winner)} scores {result.arithmetic}"
            if result.winner is not None
            else "nobody takes them (a tie or no run): they stay in the Net"
        )
        return (
            f'<div class="sk-ss-type" style="border-left:6px solid {kind.color};padding:4px 8px;margin:6px 0">'
            f'<b style="color:{kind.color}">{html.escape(kind.label)}</b> — Net: {cards_html(result.net_cards, width=26)}'
            + kit.table(["Seat", "Cards of the type", "Best run"], rows)
            + f"<div><b>{html.escape(claim)}</b></div></div>"
        )

    # -- handlers --

    @guarded
    def _step_reveal(self, delta: int) -> None:
        obs = self.session.observation()
        self._reveal_step = max(0, min(len(obs.reveal), self._reveal_step + delta))
        self._show_reveal(obs)

    @guarded
    def _on_river(self, row: int, change: dict[str, Any]) -> None:
        if change["new"]:
            self._rivers[2 - row].clear()  # one River card at a time
        self._verdict = None
        self._refresh_explanation()

    @guarded
    def _on_play(self, button: widgets.Button) -> None:
        self.submit(self.preview_move())

    @guarded
    def _on_keep(self, button: widgets.Button) -> None:
        self.submit("keep")
