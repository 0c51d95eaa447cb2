# The README's two commands. Each builds its own virtual environment on first use
# (and again whenever pyproject.toml changes), then runs.
#
#   make run    run the bot (needs DISCORD_TOKEN in .env or the environment)
#   make test   lint, type-check and run every test
#   make play   the terminal game against the AI (no Discord needed)

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run play test lint typecheck pytest clean

run: $(VENV)/.installed-run
	$(BIN)/python -m bot

# The terminal game: no token, no network. Options: make play ARGS="--level hard --tactics"
play: $(VENV)/.installed-run
	$(BIN)/python -m bot.cli.terminal $(ARGS)

test: lint typecheck pytest

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

typecheck: $(VENV)/.installed-test
	$(BIN)/mypy

pytest: $(VENV)/.installed-test
	$(BIN)/python -m pytest

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11) and "Python 3.11 or newer is needed: make PYTHON=python3.12 ...")'
	$(PYTHON) -m venv $(VENV)

# The stamps record what was installed: `make test` installs the test tools as well.
$(VENV)/.installed-run: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $@ $(VENV)/.installed-run

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
