# The README's two commands: `make play` and `make test`. Both set up .venv if needed.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
HOST   ?= 127.0.0.1
PORT   ?= 8866

.PHONY: play test setup bench bench-browser frontend clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# The play apps' Voila template. A wheel (Binder's `pip install .`) copies it into
# <prefix>/share/jupyter/voila/templates/sloth; an editable install copies no data files,
# so link it there instead, live with the repository.
TEMPLATE_DIR := $(VENV)/share/jupyter/voila/templates/sloth

# Reinstall whenever the project metadata or the pinned constraints change.
$(VENV)/.installed: $(PY) pyproject.toml constraints.txt
	$(PY) -m pip install --quiet -c constraints.txt -e '.[test,interop]'
	touch $@

$(TEMPLATE_DIR): | $(VENV)/.installed
	mkdir -p $(dir $(TEMPLATE_DIR))
	ln -sfn $(CURDIR)/widgets/voila_template/sloth $(TEMPLATE_DIR)

setup: $(VENV)/.installed $(TEMPLATE_DIR)

# Run from the repository root so Voila reads ./voila.json (preheated play apps, culling, no tracebacks).
play: setup
	@echo "Gallery: http://$(HOST):$(PORT)/voila/render/index.ipynb  (all notebooks: http://$(HOST):$(PORT)/ ; Ctrl-C stops)"
	$(VENV)/bin/voila notebooks --no-browser --Voila.ip=$(HOST) --Voila.port=$(PORT) --Voila.port_retries=0

test: setup
	$(PY) -m pytest tests
	$(PY) -m pytest --nbval-lax -p no:cacheprovider --nbval-sanitize-with notebooks/nbval_sanitize.cfg notebooks

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
	rm -rf $(VENV) .pytest_cache widgets/frontend/node_modules
