"""`pip install sloth-kernel` is the engine alone: loading and playing a game never imports the
notebook stack (ipywidgets, matplotlib, IPython, Voila...), which only the `play` extra installs.

Each game is played in a fresh interpreter, so nothing an earlier test imported can hide an
import; the child sees the same registered games as this session (plugins included).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from sloth_kernel import available_games

# Installed by the extras only; tqdm (progress bars) and numpy are the engine's own dependencies.
NOT_THE_ENGINE = ("ipywidgets", "matplotlib", "IPython", "traitlets", "voila", "jupyter_client", "sloth_widgets")

PLAY_TO_THE_END = """
import json, random, sys
import sloth_kernel

game = sloth_kernel.load_game(sys.argv[1])
state = game.new_state(seed=11)
rng = random.Random(11)
moves = 0
while not state.is_over:
    state = state.play(rng.choice(state.legal_moves()))
    moves += 1
html = state._repr_html_()
loaded = sorted(name for name in json.loads(sys.argv[2]) if name in sys.modules)
print(json.dumps({"moves": moves, "html": len(html), "loaded": loaded, "returns": list(state.returns())}))
"""


@pytest.mark.parametrize("game", available_games())
def test_playing_a_game_to_the_end_imports_no_notebook_stack(game: str) -> None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(entry for entry in sys.path if entry))
    done = subprocess.run(
        [sys.executable, "-c", PLAY_TO_THE_END, game, json.dumps(NOT_THE_ENGINE)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["moves"] > 0 and result["html"] > 0 and len(result["returns"]) > 0
    assert result["loaded"] == [], f"playing {game} imported {result['loaded']}"
