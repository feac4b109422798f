# The two commands of a fresh machine: `make run` (install, then serve the point counter and the
# play table on http://127.0.0.1:8000 with an embedded SQLite database) and `make test` (every
# check CI runs: scripts/test.sh: ruff, mypy --strict, import-linter, the test suite).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test lint bench install mutation

# setup.py and the Cython sources: a change rebuilds the compiled modules (editable install).
# Each step says what it does: the first install is silent pip work for about a minute.
$(VENV)/.installed: pyproject.toml setup.py $(wildcard src/rebelote/*/*.pyx src/rebelote/*/*.pxd)
	@echo "== make: the virtual environment $(VENV) (python -m venv)"
	$(PYTHON) -m venv $(VENV)
	@echo "== make: pip itself, then rebelote and its dependencies into $(VENV), the Cython"
	@echo "   modules compiled (a minute or two the first time; nothing is printed meanwhile)"
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e ".[test]"
	@echo "== make: installed"
	touch $@

install: $(VENV)/.installed

run: $(VENV)/.installed
	@echo "== make: serving the counter and the play table on http://127.0.0.1:8000 (Ctrl-C stops)"
	$(BIN)/rebelote serve

test: $(VENV)/.installed
	bash scripts/test.sh

lint: $(VENV)/.installed
	$(BIN)/ruff check src tests bench scripts
	$(BIN)/mypy
	$(BIN)/lint-imports

# Mutation testing of the core modules (docs/mutation.md): tens of minutes, not part of `make test`.
$(VENV)/.mutation: $(VENV)/.installed pyproject.toml
	$(BIN)/python -m pip install -q -e ".[test,mutation]"
	touch $@

mutation: $(VENV)/.mutation
	bash scripts/mutation.sh
