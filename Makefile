# The README's two commands. Each builds its own virtual environment on first use
# (and again whenever pyproject.toml or the lock files change), then runs.
#
#   make run    run the bot (needs DISCORD_TOKEN in .env or the environment)
#   make test   lint, type-check and run every test
#   make play   the terminal game against the AI (no Discord needed)
#
# The dependencies are installed from the lock files requirements/run.txt and
# requirements/test.txt (exact versions with their hashes), made from pyproject.toml's
# ranges by uv:
#
#   make lock              re-lock after a change of pyproject.toml (keeps the other pins)
#   make lock UPGRADE=1    move every pin to the newest version the ranges allow
#
# And the AI's published figures (docs/ai.md, "Reproducing the figures"):
#
#   make bench-ai       the README's table of hard's win rates (hours of CPU)
#   make bench-ladder   the Elo ladders, from those games and the other players' round robins
#   make train-ai       the learned evaluation's weights from self-play (about 15 minutes)

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run play test lint typecheck pytest lock bench-ai bench-ladder train-ai clean

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

# Self-play games from fixed seeds (to bench/results/train-ai.jsonl), the fit, its
# held-out figures, and rules/ai/weights/learned.json (docs/ai.md, "The learned evaluation").
train-ai: $(VENV)/.installed-run
	mkdir -p $(BENCH_OUT)
	$(BIN)/python bench/train_ai.py --data $(BENCH_OUT)/train-ai.jsonl

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
# First the locked dependencies, each checked against its hash, then the project itself
# without dependencies (so nothing unlocked comes in through it).
$(VENV)/.installed-run: pyproject.toml requirements/run.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements/run.txt
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml requirements/test.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements/test.txt
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $@ $(VENV)/.installed-run

# The lock files, for Python 3.11 and newer on every platform (--universal: markers
# where a dependency differs), each pin with the hashes of all its files on PyPI.
# test.txt keeps run.txt's versions (-c), so tests run what `make run` runs.
UV_VERSION := 0.13.8
LOCK := $(BIN)/uv pip compile pyproject.toml --quiet --universal --python-version 3.11 \
	--generate-hashes --custom-compile-command "make lock" $(if $(UPGRADE),--upgrade)

lock: | $(BIN)/python
	$(BIN)/python -m pip install --quiet "uv==$(UV_VERSION)"
	$(LOCK) -o requirements/run.txt
	$(LOCK) --extra test -c requirements/run.txt -o requirements/test.txt

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
