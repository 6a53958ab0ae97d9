# The README's two commands: `make play` and `make test`. Both set up .venv if needed.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
HOST   ?= 127.0.0.1
PORT   ?= 8866

.PHONY: play test setup bench bench-browser clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# Reinstall whenever the project metadata or the pinned constraints change.
$(VENV)/.installed: $(PY) pyproject.toml constraints.txt
	$(PY) -m pip install --quiet -c constraints.txt -e '.[test,interop]'
	touch $@

setup: $(VENV)/.installed

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

clean:
	rm -rf $(VENV) .pytest_cache
