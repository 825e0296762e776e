# boneyard -- `make help` lists the targets.
SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
MAKEFLAGS += --no-builtin-rules

VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000

# First interpreter that is Python >= 3.12 (pyenv + .python-version makes python3 fit).
PY_OK = $(shell "$(1)" -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1 && echo "$(1)")
PYTHON ?= $(firstword \
	$(call PY_OK,python3) \
	$(call PY_OK,python3.13) \
	$(call PY_OK,python3.12) \
	$(foreach p,$(wildcard $(HOME)/.pyenv/versions/3.12*/bin/python3),$(call PY_OK,$(p))))

.PHONY: help run serve test test-deep bench load lint fmt clean distclean messages catalogues

help: ## Show this help
	@grep -hE '^[a-z][a-z-]*:.*## ' $(MAKEFILE_LIST) | \
		awk 'BEGIN {FS = ":.*## "}; {printf "  make %-10s %s\n", $$1, $$2}'

$(BIN)/python:
	@if [[ -z "$(PYTHON)" ]]; then \
		echo "error: need Python >= 3.12 (python3, python3.13, python3.12 or ~/.pyenv/versions/3.12*)" >&2; \
		exit 1; \
	fi
	"$(PYTHON)" -m venv $(VENV)

# Stamps: reinstall whenever pyproject.toml changes. --no-compile: pip would byte-compile
# every module of every package (7 of a fresh install's 19 s); Python writes the bytecode of
# the modules a process really imports, once, as it imports them.
$(VENV)/.installed-run: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q --no-compile --config-settings editable_mode=compat -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q --no-compile --config-settings editable_mode=compat -e ".[test]"
	touch $@

# The translation catalogues (locale/*/LC_MESSAGES/django.po) compiled for Django; needs
# GNU gettext's msgfmt (Debian: apt-get install gettext).
catalogues: $(VENV)/.installed-run ## Compile the translation catalogues (locale/)
	$(BIN)/python manage.py compilemessages --ignore=.venv --ignore=staticfiles -v 0

messages: $(VENV)/.installed-run ## Gather every word to translate into locale/*/LC_MESSAGES/django.po
	$(BIN)/python manage.py makemessages --all --add-location=file --no-obsolete \
		--ignore=.venv --ignore=staticfiles --ignore=tests --ignore=bench --ignore=scripts

# Both serve with gunicorn's own asyncio worker (config.asgi): the pages as before, and each
# open table's live stream (docs/live.md). run reloads on code changes; serve is production's.
run: $(VENV)/.installed-run catalogues ## Migrate, print the phone URL, serve on 0.0.0.0:8000 (reloads on changes)
	$(BIN)/python manage.py migrate --noinput
	@ip=$$(hostname -I 2>/dev/null | awk '{print $$1}'); \
		echo; echo "Open http://$${ip:-127.0.0.1}:$(PORT)/ on a phone on the same network"; echo
	$(BIN)/gunicorn config.asgi -k asgi -b 0.0.0.0:$(PORT) -w 1 --reload --no-control-socket

serve: $(VENV)/.installed-run catalogues ## Production: DEBUG off, a kept secret, migrate, collectstatic, gunicorn (pages and live streams) on 0.0.0.0:8000
	BIN=$(BIN) PORT=$(PORT) scripts/serve.sh

test: $(VENV)/.installed-test ## Lint, import contracts, SQLite + PostgreSQL + browser tests (Hypothesis quick)
	scripts/test.sh

test-deep: $(VENV)/.installed-test ## The Hypothesis tests at 8x make test's examples, SQLite + PostgreSQL
	scripts/test.sh --deep

bench: $(VENV)/.installed-test ## Time requests against a bare view, a worker's memory under attack, the live table's push, an 800-player event's pages on PostgreSQL; writes bench/results.json
	$(BIN)/python bench/run.py
	$(BIN)/python bench/memory.py
	$(BIN)/python bench/live.py
	$(BIN)/python bench/event_pages.py

load: $(VENV)/.installed-test ## 50 tables of 4 phones polling, then holding streams on 2 servers and PostgreSQL, then a 100-table event with 50 TV pages; adds to bench/results.json
	$(BIN)/python bench/load.py

lint: $(VENV)/.installed-test ## ruff check, ruff format --check, lint-imports
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

fmt: $(VENV)/.installed-test ## Format and autofix with ruff
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean: ## Remove caches, collected static files and build leftovers
	rm -rf staticfiles .pytest_cache .hypothesis .ruff_cache *.egg-info build
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +

distclean: clean ## clean, and also delete the venv
	rm -rf $(VENV)
