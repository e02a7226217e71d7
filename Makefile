# Two entry points, both from a fresh clone with nothing but Python 3.11+:
#   make run    set up .venv and open the companion (the kiosk)
#   make test   set up .venv (with the development tools) and run the tests
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# The translations: each .po compiled to its .mo (not in git; see docs/i18n.md): the core's
# catalogue (companion/kiosk/locale), each game's (companion/<game>/locale) and the test
# game's (tests/thirdgame).
PO := $(wildcard companion/*/locale/*/LC_MESSAGES/*.po tests/thirdgame/*/locale/*/LC_MESSAGES/*.po)
MO := $(PO:.po=.mo)

.PHONY: run test lint bench screenshots clean catalogues

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.run-installed: pyproject.toml | $(BIN)/activate
	$(BIN)/python -m pip install --quiet -e '.[kiosk,panel,vision]'
	touch $@

# The tests also install a third game from outside the project (tests/thirdgame: its own
# distribution, found through its entry point), so the suite runs with three games.
$(VENV)/.dev-installed: pyproject.toml tests/thirdgame/pyproject.toml | $(BIN)/activate
	$(BIN)/python -m pip install --quiet -e '.[dev,kiosk,panel,vision]'
	$(BIN)/python -m pip install --quiet -e tests/thirdgame
	touch $@

$(BIN)/pybabel: | $(BIN)/activate
	$(BIN)/python -m pip install --quiet -e .

# The language is the folder above LC_MESSAGES.
%.mo: %.po | $(BIN)/pybabel
	$(BIN)/pybabel compile --statistics -l $(notdir $(patsubst %/LC_MESSAGES/,%,$(dir $<))) -i $< -o $@

catalogues: $(MO)

run: $(VENV)/.run-installed $(MO)
	$(BIN)/companion

test: $(VENV)/.dev-installed $(MO)
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
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache $(MO)
