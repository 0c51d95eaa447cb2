# The README's two commands. Each builds its own virtual environment on first use
# (and again whenever pyproject.toml changes), then runs.
#
#   make run    run the bot (needs DISCORD_TOKEN in .env or the environment)
#   make test   lint, type-check and run every test
#   make play   the terminal game against the AI (no Discord needed)
#
# And the AI's published figures (docs/ai.md, "Reproducing the figures"):
#
#   make bench-ai       the README's table of hard's win rates (hours of CPU)
#   make bench-ladder   the Elo ladders, from those games and the other players' round robins

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run play test lint typecheck pytest bench-ai bench-ladder clean

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

# Every game is appended to bench/results/ (not tracked); each deal and seed is fixed, so
# the figures are the published ones. PROCESSES=1 on a busy machine.
PROCESSES ?= 2
BENCH_OUT := bench/results

bench-ai: $(VENV)/.installed-run
	mkdir -p $(BENCH_OUT)
	$(BIN)/python bench/ai.py --readme-table --processes $(PROCESSES) --out $(BENCH_OUT)/readme-table.jsonl

bench-ladder: $(VENV)/.installed-run
	@test -s $(BENCH_OUT)/readme-table.jsonl || { echo "make bench-ai first: the ladders need hard's games"; exit 1; }
	$(BIN)/python bench/ai.py --ladder --players random,easy,medium,medium-old,greedy,sniper,probability --configs st \
		--games 100 --first-seed 2000 --processes $(PROCESSES) --out $(BENCH_OUT)/ladder.jsonl
	$(BIN)/python bench/ai.py --ladder --players random,easy,medium,medium-old,greedy,sniper,probability --configs st+t,bl,bl+t \
		--games 50 --first-seed 2000 --processes $(PROCESSES) --out $(BENCH_OUT)/ladder.jsonl
	$(BIN)/python bench/ai.py --report $(BENCH_OUT)/readme-table.jsonl $(BENCH_OUT)/ladder.jsonl

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
