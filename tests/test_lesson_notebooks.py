"""The lessons read as prose in Voila, where no code shows: no code names in their Markdown,
and nothing they display is a printed Python value.

Checked on the notebooks as committed (executed, with their outputs and widget states): every
Markdown cell, every output a cell displays (the text people see of its richest form) and the
text of every widget the page builds (labels, options, HTML values).
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
LESSONS = sorted(
    [
        *NOTEBOOKS.glob("learn_*.ipynb"),
        NOTEBOOKS / "climbing_games_101.ipynb",
        *NOTEBOOKS.glob("analysis_*.ipynb"),
        NOTEBOOKS / "variant_lab.ipynb",
    ]
)

# Names from code: a backticked span, a call, a dotted or snake_case identifier, a constant,
# a class name glued from words, a bot level named as in code.
CODE_NAMES = [
    (re.compile(r"`[^`]+`"), "a backticked code span"),
    (re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\((?:[^()]{0,40})\)"), "a function call"),
    (re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"), "a snake_case name"),
    (re.compile(r"\b[a-z_]+\.[a-z_]+\.[a-z_]+\b"), "a dotted module name"),
    (re.compile(r"\b[A-Z][A-Z0-9]+_[A-Z0-9_]+\b"), "a constant's name"),
    (re.compile(r"\b(?:[A-Z][a-z]+){2,}(?:Bot|Lifter|State|Check|Through|Odds)\b"), "a class name"),
    (re.compile(r"\bsloth_(?:kernel|widgets)\b"), "a package name"),
]
# What a printed Python value looks like.
RAW_VALUES = [
    (re.compile(r"\[\s*'[^']*'\s*,"), "a list of strings"),
    (re.compile(r"\[\s*-?\d+(?:\.\d+)?\s*,\s*-?\d"), "a list of numbers"),
    # numbers only, up to the closing bracket: a list of cards in words, "(5, 5, 5, Joker as a 5)", is no tuple
    (re.compile(r"\(\s*-?\d+(?:\.\d+)?(?:\s*,\s*-?\d+(?:\.\d+)?)+\s*,?\s*\)"), "a tuple of numbers"),
    (re.compile(r"\{\s*'[^']*'\s*:"), "a dict"),
    (re.compile(r"\b(?:True|False|None)\b"), "True, False or None"),
    (re.compile(r"\barray\(|\[\s*0\.\s+\d|\[\s*\d+\.\d+\s+\d"), "a numpy array"),
    (re.compile(r"<[a-zA-Z_.]+ object at 0x"), "an object's repr"),
    (re.compile(r"\b[A-Z][A-Za-z]+\((?:[a-z_]+=)"), "a dataclass repr"),
]
WIDGET_TEXT_KEYS = ("value", "description", "_options_labels", "tooltip", "placeholder")


def lesson_id(path: Path) -> str:
    return path.stem


def visible_text(markup: str) -> str:
    """The text a reader sees of some HTML (styles, scripts and tags dropped, entities read)."""
    markup = re.sub(r"<(style|script)\b.*?</\1>", " ", markup, flags=re.S | re.I)
    markup = re.sub(r'<img\b[^>]*\balt="([^"]*)"[^>]*>', r" \1 ", markup)
    return html.unescape(re.sub(r"<[^>]+>", " ", markup))


def problems(text: str, patterns: list[tuple[re.Pattern[str], str]]) -> list[str]:
    return [f"{what}: {match.group(0)!r}" for pattern, what in patterns for match in pattern.finditer(text)]


def shown_texts(notebook: dict[str, Any]) -> list[tuple[str, str]]:
    """(where, text) for everything the page shows: Markdown, outputs, widgets."""
    found: list[tuple[str, str]] = []
    for index, cell in enumerate(notebook["cells"]):
        where = f"cell {index}"
        if cell["cell_type"] == "markdown":
            found.append((f"{where} (Markdown)", "".join(cell["source"])))
            continue
        for output in cell.get("outputs", []):
            kind = output["output_type"]
            if kind == "stream":
                found.append((f"{where} (printed)", "PRINTED: " + "".join(output["text"])))
            elif kind == "error":
                found.append((f"{where} (error)", f"ERROR: {output.get('ename')}"))
            else:
                data = output.get("data", {})
                if "application/vnd.jupyter.widget-view+json" in data or "image/png" in data:
                    continue  # widgets are read from their states below; a picture has no text
                if "text/html" in data:
                    found.append((f"{where} (HTML)", visible_text("".join(data["text/html"]))))
                elif "".join(data.get("text/plain", "")).strip():
                    found.append((f"{where} (a bare value)", "BARE VALUE: " + "".join(data["text/plain"])))
    states = notebook["metadata"].get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {})
    for model_id, model in states.get("state", {}).items():
        for key in WIDGET_TEXT_KEYS:
            value = model.get("state", {}).get(key)
            texts = value if isinstance(value, list) else [value]
            where = f"widget {model['model_name']} {model_id[:6]} {key}"
            found.extend((where, visible_text(text)) for text in texts if isinstance(text, str) and text)
    return found


@pytest.mark.parametrize("path", LESSONS, ids=lesson_id)
def test_a_lesson_shows_no_code_names_and_no_python_values(path: Path) -> None:
    notebook = json.loads(path.read_text())
    found = []
    for where, text in shown_texts(notebook):
        if text.startswith(("PRINTED: ", "ERROR: ", "BARE VALUE: ")):
            found.append(f"{where}: {text[:120]!r}")
            continue
        found.extend(f"{where}: {problem}" for problem in problems(text, CODE_NAMES + RAW_VALUES))
    assert not found, "\n".join(found)


@pytest.mark.parametrize("path", LESSONS, ids=lesson_id)
def test_a_lesson_is_served_with_the_light_template_and_its_cells_are_short(path: Path) -> None:
    notebook = json.loads(path.read_text())
    assert notebook["metadata"].get("voila", {}).get("template") == "sloth"
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] == "code":
            lines = [line for line in "".join(cell["source"]).splitlines() if line.strip() and not line.startswith("#")]
            assert 1 <= len(lines) <= 2, f"cell {index} has {len(lines)} lines of code"


@pytest.mark.parametrize(
    "text",
    [
        "print the `legal_moves()` here",
        "state.observation(seat)",
        "RACE_GAMES",
        "DrinkTimingBot",
        "['Player 2', 'Player 3']",
        "(30, 0, 1)",
        "returns: True",
        "[0.   0.15 0.71]",
        "{'win chance': [0.91, 0.96]}",
    ],
)
def test_the_scan_finds_what_it_looks_for(text: str) -> None:
    assert problems(text, CODE_NAMES + RAW_VALUES)


def test_the_scan_leaves_plain_prose_alone() -> None:
    prose = (
        "Player 1 leads a Pair of 7s (RB-2). The Net holds L5 and LX; skill 0.15 wins 77.5% (77.2% to 77.9%). "
        "Run 4-5-6, Jump 7-7, D5, pass 6, 7 7 *7. Round 1 of 3: 8 cards and 1 drink dealt to each player. "
        "An Oil Slick of 5s (5, 5, 5, Joker as a 5, Joker as a 5)."
    )
    assert problems(prose, CODE_NAMES + RAW_VALUES) == []
