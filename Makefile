# Cluster Companion — build, run and test entry points.
# Works on a fresh machine with only Python 3.11 (pip, venv) installed.

# Interpreter used to create the virtualenv; override with `make PYTHON=/path/to/python`.
PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3 || echo python3)

VENV  := .venv
BIN   := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: all venv run test bench lint format clean chromium

all: test

venv: $(STAMP)

# Reinstall whenever pyproject.toml changes (the stamp is older than it).
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/python -m pip install -e '.[test]'
	touch $@

# The web companion with a demo table on port 8000 (prints the addresses to open).
run: venv
	$(BIN)/companion serve --demo --port 8000

test: venv chromium
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/python -m pytest

# The browser tests drive Debian's Chromium (never `playwright install`): install it when
# missing, with sudo only when not root.
chromium:
	@test -x /usr/bin/chromium || { \
		SUDO=$$(test "$$(id -u)" = 0 || echo sudo); \
		$$SUDO apt-get update && $$SUDO apt-get install -y --no-install-recommends chromium; }

bench: venv
	$(BIN)/python -m benchmarks

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: venv
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .ruff_cache .mypy_cache .hypothesis test-artifacts
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
