"""The whole test session runs with a fifth game installed as a plugin: the toy in tests/plugins/.

It is installed the way any plugin is found (a dist-info folder with a ``sloth_kernel.games``
entry point on ``sys.path``, see tests/plugins/plugin_dist.py), before any test module is
collected, so every test that iterates over the registered games (``available_games()``,
``game_specs()``) covers it as well. Nothing outside tests/ names it.

Every record a test produces is checked against the record and deal schemas (tests/record_check.py).
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

import pytest

sys.path.append(str(Path(__file__).resolve().parent / "plugins"))
from plugin_dist import install_toy  # noqa: E402
from record_check import check_every_record  # noqa: E402

_session = contextlib.ExitStack()


def pytest_configure(config: pytest.Config) -> None:
    _session.enter_context(install_toy())
    _session.enter_context(check_every_record())  # every record a test produces fits the schemas


def pytest_unconfigure(config: pytest.Config) -> None:
    _session.close()
