"""The whole test session runs with a fifth game installed as a plugin: the toy in tests/plugins/.

It is installed the way any plugin is found (a dist-info folder with a ``sloth_kernel.games``
entry point on ``sys.path``, see tests/plugins/plugin_dist.py), before any test module is
collected, so every test that iterates over the registered games (``available_games()``,
``game_specs()``) covers it as well. Nothing outside tests/ names it.

Every record a test produces is checked against the record and deal schemas (tests/record_check.py).
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

import pytest

sys.path.append(str(Path(__file__).resolve().parent / "plugins"))
from plugin_dist import install_toy  # noqa: E402
from record_check import check_every_record  # noqa: E402
from tables_servers import postgres_server, redis_server, store, store_url  # noqa: E402,F401  (fixtures)

_session = contextlib.ExitStack()

# Hypothesis profiles for tests/test_properties.py. "ci" (the default) is reproducible
# (derandomized, no example database) and untimed (no deadline: speed is a benchmark's business),
# with few enough examples for CI; HYPOTHESIS_PROFILE=dev or =thorough runs many more locally.
with contextlib.suppress(ImportError):
    from hypothesis import HealthCheck, settings

    _SLOW = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]
    settings.register_profile(
        "ci", max_examples=40, deadline=None, derandomize=True, database=None, suppress_health_check=_SLOW
    )
    settings.register_profile("dev", max_examples=400, deadline=None, suppress_health_check=_SLOW)
    settings.register_profile("thorough", max_examples=4000, deadline=None, suppress_health_check=_SLOW)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_configure(config: pytest.Config) -> None:
    _session.enter_context(install_toy())
    _session.enter_context(check_every_record())  # every record a test produces fits the schemas


def pytest_unconfigure(config: pytest.Config) -> None:
    _session.close()
