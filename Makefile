# Cluster Companion — build, run and test entry points.
# Works on a fresh machine with only Python 3.11 (pip, venv) installed.

# Interpreter used to create the virtualenv; override with `make PYTHON=/path/to/python`.
PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3 || echo python3)

VENV  := .venv
BIN   := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: all venv run test bench lint format clean panel-test-deps chromium

all: test

venv: $(STAMP)

# Reinstall whenever pyproject.toml or the pins change (the stamp is older than either).
# constraints.txt holds every package at the version the tests and figures were made with.
$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade --constraint constraints.txt pip
	$(BIN)/python -m pip install --constraint constraints.txt -e '.[test]'
	touch $@

# The web companion with a demo table on port 8000 (prints the addresses to open).
run: venv
	$(BIN)/companion serve --demo --port 8000

# pytest-xdist runs a worker on every core; OpenCV's and the BLAS's own thread pools inside
# each worker then only contend for the same cores (docs/dependencies.md, pytest-xdist).
ONE_THREAD_EACH := OPENCV_FOR_THREADS_NUM=1 OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1

test: venv panel-test-deps chromium
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(ONE_THREAD_EACH) $(BIN)/python -m pytest -n auto

# Panels (issue 6): real MicroPython for the firmware check (npm ci in firmware/check, with
# Debian's nodejs/npm if node is missing), shellcheck and systemd-analyze for deploy/.
FIRMWARE_CHECK := firmware/check
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)
APT_INSTALL := $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq

panel-test-deps: $(FIRMWARE_CHECK)/node_modules/.package-lock.json
	@command -v shellcheck >/dev/null || ($(APT_INSTALL) shellcheck)
	@command -v systemd-analyze >/dev/null || ($(APT_INSTALL) systemd)

$(FIRMWARE_CHECK)/node_modules/.package-lock.json: $(FIRMWARE_CHECK)/package-lock.json
	@command -v npm >/dev/null || ($(APT_INSTALL) nodejs npm)
	cd $(FIRMWARE_CHECK) && npm ci --no-audit --no-fund --loglevel=error

# The browser tests drive Debian's Chromium (never `playwright install`): installed with apt
# when missing.
chromium:
	@test -x /usr/bin/chromium || ($(APT_INSTALL) --no-install-recommends chromium)

bench: venv
	$(BIN)/python -m benchmarks

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: venv
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(FIRMWARE_CHECK)/node_modules
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .ruff_cache .mypy_cache .hypothesis test-artifacts
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
