# Two entry points, both from a fresh clone with nothing but Python 3.11+:
#   make run    set up .venv and open the companion (the kiosk)
#   make test   set up .venv (with the development tools) and run the tests
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint bench screenshots clean

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.run-installed: pyproject.toml | $(BIN)/activate
	$(BIN)/python -m pip install --quiet -e '.[kiosk,panel,vision]'
	touch $@

$(VENV)/.dev-installed: pyproject.toml | $(BIN)/activate
	$(BIN)/python -m pip install --quiet -e '.[dev,kiosk,panel,vision]'
	touch $@

run: $(VENV)/.run-installed
	$(BIN)/companion

test: $(VENV)/.dev-installed
	$(BIN)/python -m pytest

lint: $(VENV)/.dev-installed
	$(BIN)/ruff check companion tests bench
	$(BIN)/mypy

bench: $(VENV)/.dev-installed
	$(BIN)/python bench/bench_engine.py
	$(BIN)/python bench/bench_journal.py
	$(BIN)/python bench/bench_kiosk.py
	$(BIN)/python bench/bench_vision.py

screenshots: $(VENV)/.dev-installed
	$(BIN)/companion screenshots screenshots

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
