# Troef: `make run` serves a demo on http://127.0.0.1:8000, `make test` runs the test suite.
# Both create .venv and install the project into it when needed; both are idempotent.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=
# Test processes (pytest-xdist): one per core by default; TEST_WORKERS=0 runs the suite in one.
TEST_WORKERS ?= auto
# Engine tests are plain pytest functions; everything else, tests of the web side included, is typed.
MYPY_PATHS ?= manage.py config engine tournaments documents ratings api bench tests/conftest.py tests/test_*.py tests/tournaments tests/documents tests/browser tests/reliability tests/api tests/ratings

.PHONY: run test lint bench install migrate demo worker beat clean messages lock

# constraints.txt pins every package, direct or not, to the versions the tests ran with; the
# Docker image installs from the same file. `make lock` writes it again from pyproject.toml.
CONSTRAINTS := constraints.txt

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -c $(CONSTRAINTS) pip setuptools

$(STAMP): pyproject.toml $(CONSTRAINTS) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -c $(CONSTRAINTS) -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

migrate: install
	$(BIN)/python manage.py migrate --noinput

demo: migrate
	$(BIN)/python manage.py demo

# Local demo: SQLite under var/, Celery tasks run in-process, no services needed.
run: demo
	@echo "Serving Troef on http://$(HOST):$(PORT)/ (Ctrl+C to stop)"
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

# Compiled test modules are kept (PYTHONDONTWRITEBYTECODE set empty): each worker rewrites the
# asserts of every test module it collects, which otherwise costs seconds at every run. Work
# stealing hands each worker a run of whole modules (their shared fixtures are made once there)
# and, when one runs out, half of what another has left.
test: install
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy $(MYPY_PATHS)
	$(BIN)/lint-imports --no-cache

bench: install
	@for b in bench/bench_*.py; do \
		echo "== $$b"; \
		$(BIN)/python -m bench.$$(basename $$b .py) || exit 1; \
	done

worker: install
	$(BIN)/celery -A config worker --loglevel=info

# The periodic catch-up (stale standings, stalled report jobs); one per site, beside the workers.
beat: install
	$(BIN)/celery -A config beat --loglevel=info --schedule=var/celerybeat-schedule

# Extract new messages into the Dutch and French catalogs (locale/ for the site, documents/locale/
# for the printed documents), then compile them; translate the new entries in between and run it
# again.
MAKEMESSAGES_IGNORE := --ignore=.venv --ignore=var --ignore=tests --ignore=bench --ignore=engine \
	--ignore=build --ignore=dist
messages: install
	$(BIN)/python manage.py makemessages -l nl -l fr --no-obsolete $(MAKEMESSAGES_IGNORE)
	$(BIN)/python manage.py compilemessages --ignore=.venv --ignore=build

# After a change to the dependencies in pyproject.toml, or to take newer releases: review the diff.
lock: install
	$(BIN)/pip-compile --quiet --upgrade --strip-extras --allow-unsafe --extra dev --extra deploy \
		--no-emit-index-url --no-emit-find-links -o $(CONSTRAINTS) pyproject.toml

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
