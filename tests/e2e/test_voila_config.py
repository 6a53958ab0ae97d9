"""voila.json: the serving defaults the README explains, and names that still match notebooks/."""

from __future__ import annotations

import json

from harness import GALLERY, LESSONS, NOTEBOOKS, PLAY_APPS, REPO, preheated_kernels

CONFIG = json.loads((REPO / "voila.json").read_text())


def test_what_first_visits_open_is_preheated_and_nothing_else_is() -> None:
    """The gallery, the four play apps and the shared tables' page: what a first visit opens. The
    lessons start a kernel on request (each pool is a kernel that has run its notebook, waiting in
    memory, and refilling sixteen of them at once slowed the first boards on 2 cores)."""
    assert CONFIG["VoilaConfiguration"]["preheat_kernel"] is True
    pools = CONFIG["VoilaKernelManager"]["kernel_pools_config"]
    assert pools["default"]["pool_size"] == 0
    expected = {GALLERY: 1, **{notebook: 1 for notebook in PLAY_APPS.values()}, "table.ipynb": 1}
    assert {name: pools[name]["pool_size"] for name in pools if name != "default"} == expected
    for notebook in expected:  # a renamed notebook would silently lose its pool
        assert (NOTEBOOKS / notebook).exists(), notebook
    assert preheated_kernels() == 6
    assert not set(LESSONS) & set(pools)


def test_tracebacks_hidden_and_idle_kernels_culled() -> None:
    assert CONFIG["VoilaConfiguration"]["show_tracebacks"] is False
    culling = CONFIG["MappingKernelManager"]
    assert culling["cull_interval"] > 0
    assert culling["cull_idle_timeout"] >= 5 * 60  # long past any page load, so only abandoned kernels go
    assert CONFIG["VoilaExecutor"]["iopub_timeout"] >= 60  # 30 s ran out at a load average of 16
    # our kernel manager: a cap, a short life for kernels whose page never connects, live pool kernels
    assert CONFIG["VoilaConfiguration"]["multi_kernel_manager_class"] == "sloth_kernel.voila_setup.SlothKernelManager"
    limits = CONFIG["SlothKernelManager"]
    assert 0 < limits["max_page_kernels"] <= 64  # about 60 MiB each
    assert 30 <= limits["unconnected_timeout"] <= 120  # "about a minute"
    assert limits["unconnected_timeout"] < culling["cull_idle_timeout"]
    assert 0 < limits["pool_answer_timeout"] <= 30
    from sloth_kernel.voila_setup import SlothKernelManager

    for name in limits:  # every setting names a real trait (a typo would be silently ignored)
        assert SlothKernelManager.class_traits(config=True).get(name) is not None, name


def test_make_play_serves_from_the_repository_root_and_prints_the_gallery_url() -> None:
    makefile = (REPO / "Makefile").read_text()
    play = makefile.split("\nplay:", 1)[1].split("\n\n", 1)[0]
    assert "/voila/render/index.ipynb" in play
    assert "--Voila.port_retries=0" in play and "--Voila.ip=$(HOST)" in play
    assert "cd " not in play  # make runs in the repository root, where voila.json lives
