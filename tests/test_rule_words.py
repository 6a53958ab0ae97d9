"""Each game's rule table (``Game.rules``) says the rules in our own words.

The table is what a player reads when they open a rule id (the boards, Ask why, the step-through),
so it must not copy the rulebooks or the rulings: no run of :data:`RUN` consecutive words of an
entry may also stand in ``../shared/rules/*.txt`` or ``../shared/RULINGS.md`` (case, punctuation and
dashes aside). The sources sit beside the repository only in a working checkout; a clone without
them (CI's) skips the check and says why; ``SLOTH_SHARED=/path/to/shared`` points it at them from
another work tree.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from sloth_kernel import load_game

GAMES = ("too-sloth-to-win", "surplus-of-sloths", "race-to-the-bottom", "sprint")
SHARED = Path(os.environ.get("SLOTH_SHARED") or Path(__file__).parents[2] / "shared")
"""The rulebooks and the rulings: beside the repository (``../shared``) when checked out with them, or
where ``SLOTH_SHARED`` names (a second work tree of the repository sits elsewhere)."""
RUN = 8
"""The fewest consecutive words that count as copied."""


def words(text: str) -> list[str]:
    """Lower-case words and numbers, punctuation and dashes dropped ("1-8" is "1 8")."""
    return re.findall(r"[a-z0-9]+", text.lower().replace("'", ""))


def runs(text: str, size: int = RUN) -> set[tuple[str, ...]]:
    said = words(text)
    return {tuple(said[k : k + size]) for k in range(len(said) - size + 1)}


def sources() -> set[tuple[str, ...]]:
    files = [SHARED / "RULINGS.md", *sorted((SHARED / "rules").glob("*.txt"))]
    found: set[tuple[str, ...]] = set()
    for path in files:
        found |= runs(path.read_text(encoding="utf-8"))
    return found


def test_runs_find_a_copied_phrase_whatever_its_case_and_punctuation() -> None:
    source = runs("The passer takes one card from either end of the current combination.")
    assert runs("THE PASSER takes one card, from either end of the current combination!") & source
    assert not runs("Whoever passes takes a card off one end of what is on the table.") & source


@pytest.mark.parametrize("name", GAMES)
def test_no_rule_entry_copies_the_rulebook_or_the_rulings(name: str) -> None:
    if not (SHARED / "RULINGS.md").is_file() or not (SHARED / "rules").is_dir():
        pytest.skip(f"the rulebooks and rulings are not checked out beside the repository ({SHARED} is missing)")
    copied = sources()
    found = [
        f"{rule}: {' '.join(run)!r}"
        for rule, text in load_game(name).rules.items()
        for run in sorted(runs(text) & copied)
    ]
    assert not found, "rule entries that copy ../shared (say it in our own words):\n" + "\n".join(found)


# --- the rule control: every cited id of a game's table opens its words ----------------------------

RULES = {"AB-1": "Play one card <or> pass & wait.", "AB-12": "Say it twice."}


def test_a_sentence_is_escaped_and_its_ids_become_controls() -> None:
    from sloth_widgets.markup import rule_text

    shown = rule_text(RULES, "Player 1 plays <b>7</b> & waits (AB-1, AB-12).")
    assert shown.startswith("Player 1 plays &lt;b&gt;7&lt;/b&gt; &amp; waits (")
    assert shown.count('<details class="sk-rule">') == 2 and shown.endswith("</details>).")
    assert "<b>" not in shown.split("(")[0]


def test_each_control_holds_its_own_rules_words_escaped() -> None:
    from sloth_widgets.markup import rule_text

    shown = rule_text(RULES, "AB-12 then AB-1")
    first, second = shown.split("</details>")[:2]
    assert "<summary" in first and ">AB-12</summary>" in first and "Say it twice." in first
    assert ">AB-1</summary>" in second and "Play one card &lt;or&gt; pass &amp; wait." in second
    assert "Say it twice" not in second and 'title="Play one card &lt;or&gt; pass &amp; wait."' in second


def test_ids_that_are_not_keys_or_are_part_of_a_word_stay_text() -> None:
    from sloth_widgets.markup import rule_text

    said = "AB-2, XAB-1, AB-1x, AB-123 and AB-1-2 are not ids of the table"
    assert rule_text(RULES, said) == said
    assert rule_text({}, "a <tag> (AB-1)") == "a &lt;tag&gt; (AB-1)"
    assert rule_text(RULES, "") == ""


def test_every_id_of_a_games_table_becomes_a_control_alike() -> None:
    from sloth_widgets.markup import rule_text
    from sloth_widgets.testing import shut_rules

    for name in GAMES:
        rules = load_game(name).rules
        for rule, words in rules.items():
            if not re.fullmatch(r"[A-Z]{2}-\d+", rule):
                assert "<details" not in rule_text(rules, f"({rule})")  # a named entry is no cited id
                continue
            shown = rule_text(rules, f"It holds ({rule}).")
            assert f">{rule}</summary>" in shown and html_words(words) in shown, rule
            assert shut_rules(shown) == f"It holds ({rule}).", rule


def html_words(text: str) -> str:
    import html

    return html.escape(text, quote=True)


def test_made_html_gets_controls_in_its_text_only() -> None:
    from sloth_widgets.markup import rule_markup

    made = (
        '<div title="AB-1"><b>Empty table (AB-1)</b><svg><text>AB-1</text></svg>'
        "<button>AB-12</button><br/>AB-12 and AB-3</div>"
    )
    shown = rule_markup(RULES, made)
    assert shown.startswith('<div title="AB-1"><b>Empty table (<details class="sk-rule">')
    assert "<svg><text>AB-1</text></svg><button>AB-12</button><br/>" in shown
    assert shown.count("<details") == 2 and shown.endswith("</details> and AB-3</div>")
