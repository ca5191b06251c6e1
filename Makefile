# randbot: `make play` and `make test` each do their own set-up first (`make setup`).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
NPM_CI := npm ci --omit=optional --ignore-scripts --no-audit --no-fund
PLAY_ARGS ?= --battles 20 --opponent heuristic --concurrency 4

.PHONY: setup play test lint format clean

setup: $(VENV)/.installed node_modules/.installed

$(VENV)/.installed: pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "randbot needs Python >= 3.11, found " + sys.version.split()[0])'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV) || { echo "error: could not create $(VENV) (is python3-venv installed?)" >&2; exit 1; }
	@$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev,ray]' || { echo "error: pip install failed (see above)" >&2; exit 1; }
	@touch $@

node_modules/.installed: package.json package-lock.json
	@command -v node >/dev/null || { echo "error: Node.js >= 18 is required and 'node' is not on PATH" >&2; exit 1; }
	@node -e 'process.exit(+process.versions.node.split(".")[0] >= 18 ? 0 : 1)' || { echo "error: Node.js >= 18 is required, found $$(node --version)" >&2; exit 1; }
	@$(NPM_CI) >/dev/null || { echo "error: npm ci failed (see above)" >&2; exit 1; }
	@touch $@

play: setup
	$(BIN)/randbot play $(PLAY_ARGS)

test: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m pytest -q

lint:
	$(BIN)/ruff check . && $(BIN)/ruff format --check .

format:
	$(BIN)/ruff format . && $(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) node_modules
