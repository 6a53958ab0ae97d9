# The README's two commands, `make play` and `make test`, each with its own environment:
#   .venv-play  the `play` extra only (Voila, ipywidgets, ipykernel, matplotlib): make play
#   .venv       play, lab, interop, tables, test and docs extras (the development environment): make setup, make test
# Both install the project editable with the exact versions of constraints.txt, and are
# rebuilt when pyproject.toml or constraints.txt change.
PYTHON    ?= python3
VENV      ?= .venv
PLAY_VENV ?= .venv-play
PY        := $(VENV)/bin/python
HOST      ?= 127.0.0.1
PORT      ?= 8866
PIP_INSTALL := -m pip install --quiet -c constraints.txt
DEV_EXTRAS  := play,lab,interop,tables,test,docs

.PHONY: play setup setup-play test lint docs test-unit test-notebooks test-browser test-a11y test-install bench bench-browser frontend clean

# $(call environment,FOLDER,EXTRAS): a venv with pip at its pinned version and the project
# installed editable with those extras. An editable install cannot put the play apps' Voila
# template where Voila looks (setuptools installs no data files in editable mode), so link it
# there (sloth_kernel/serve.py; Voila started from here does the same through voila.json).
define environment
	$(PYTHON) -m venv $(1)
	$(1)/bin/python $(PIP_INSTALL) --upgrade pip
	$(1)/bin/python $(PIP_INSTALL) -e '.[$(2)]'
	$(1)/bin/python -c 'from sloth_kernel.serve import link_template; print("Voila template:", link_template())'
	touch $(1)/.installed
endef

$(PLAY_VENV)/.installed: pyproject.toml constraints.txt
	$(call environment,$(PLAY_VENV),play)

$(VENV)/.installed: pyproject.toml constraints.txt
	$(call environment,$(VENV),$(DEV_EXTRAS))

setup-play: $(PLAY_VENV)/.installed

setup: $(VENV)/.installed

# Run from the repository root so Voila reads ./voila.json (preheated play apps, culling, no tracebacks).
play: $(PLAY_VENV)/.installed
	@echo "Gallery: http://$(HOST):$(PORT)/voila/render/index.ipynb  (all notebooks: http://$(HOST):$(PORT)/ ; Ctrl-C stops)"
	$(PLAY_VENV)/bin/voila notebooks --no-browser --Voila.ip=$(HOST) --Voila.port=$(PORT) --Voila.port_retries=0

# The whole suite, one step after another (each can be run alone); stops at the first that fails.
test: setup
	$(MAKE) lint
	$(MAKE) test-unit
	$(MAKE) test-notebooks
	$(MAKE) test-browser

# mypy checks sloth_widgets (the widgets/ folder) through a link named after its import name:
# mypy cannot follow the editable install's package-dir mapping. Then, strictly, the typed use of a
# game's classes (tests/test_typed_games.py) and the docs' example plugin (docs/example_plugin/dont_bust).
lint: setup
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	mkdir -p $(VENV)/mypy-path && ln -sfn $(CURDIR)/widgets $(VENV)/mypy-path/sloth_widgets
	MYPYPATH=$(VENV)/mypy-path $(PY) -m mypy
	$(PY) -m mypy --strict tests/test_typed_games.py
	MYPYPATH=$(VENV)/mypy-path:docs/example_plugin $(PY) -m mypy --strict -p dont_bust

# The documentation (docs/, Sphinx with MyST) as HTML in build/docs, warnings as errors and no
# network; tests/test_docs.py builds it the same way in `make test-unit`.
docs: setup
	$(PY) -m sphinx -W --keep-going -b html -q docs build/docs
	@echo "The docs: build/docs/index.html"

# On every core (pytest-xdist, -n auto: one worker per core). Each worker is its own session: it
# installs the toy plugin in a folder of its own and starts its own Redis and PostgreSQL on free
# ports (tests/tables_servers.py). A file's tests run in one worker (--dist loadfile), so what a
# test module computes once for several tests is computed once. `pytest tests --ignore=tests/e2e`
# (no -n) runs the same tests in one process.
test-unit: setup
	$(PY) -m pytest tests --ignore=tests/e2e -n auto --dist loadfile

test-notebooks: setup
	$(PY) -m pytest --nbval-lax -p no:cacheprovider --nbval-sanitize-with notebooks/nbval_sanitize.cfg notebooks

# Real-browser tests (Voila, and JupyterLab: -m 'not jupyterlab' skips it), the install routes
# (fresh environments built as a user would) and Binder.
test-browser: setup
	$(PY) -m pytest tests/e2e

# Only the accessibility, phone and keyboard checks (axe-core comes with the test extra; the
# screenshots at 1280x800 and 390x844 land in test-output/).
test-a11y: setup
	$(PY) -m pytest tests/e2e/test_accessibility.py

# Only the install routes: make play in a fresh clone, pip install -e, a wheel (and its file list).
test-install: setup
	$(PY) -m pytest tests/e2e -m install

bench: setup
	$(PY) -m sloth_kernel bench

# Browser benchmark (Voila + Debian chromium): time to first board, click latency, kernel RSS.
bench-browser: setup
	$(PY) tests/e2e/bench.py

# Rebuild the play apps' front-end bundle (needs Node.js and npm; the bundle is committed, so
# playing and testing never do).
frontend:
	cd widgets/frontend && npm ci --no-audit --no-fund && node build.mjs

clean:
	rm -rf $(VENV) $(PLAY_VENV) .pytest_cache widgets/frontend/node_modules build
