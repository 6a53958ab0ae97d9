"""The scripted teaching deals still replay under the rules and still show what they promise."""

from __future__ import annotations

import pytest

from sloth_kernel import load_game
from sloth_kernel.lessons import all_lessons, lesson

LESSONS = all_lessons()


@pytest.mark.parametrize("name", list(LESSONS))
def test_lesson_replays_from_its_record(name: str) -> None:
    item = lesson(name)
    final = item.state()
    assert [str(m) for m in final.history] == list(item.moves)
    assert load_game(item.game).replay(item.record()).view() == final.view()


def test_lessons_show_what_they_say() -> None:
    texts = {name: " ".join(e.text for e in item.state().log) for name, item in LESSONS.items()}
    assert "eliminated" in texts["ts-passing"] and "Run 4-5" in texts["ts-passing"]
    assert "Single 9 (a lone drink)" in texts["ts-drink"]
    assert "last player in" in texts["rb-passing"] and "Aces" in texts["rb-passing"]
    assert "Smokescreen" in texts["rb-cheats"] and "Oil Slick" in texts["rb-cheats"]
    assert "drug possession" in texts["ts-round"] and "race for second" in texts["ts-round"]
    assert "tie on length" in texts["ss-game"] and "falls into the Net" in texts["ss-game"]
    assert "join" in texts["sp-game"] and "everyone wins" in texts["sp-game"]
    with pytest.raises(KeyError):
        lesson("nope")
