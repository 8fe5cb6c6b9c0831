# One venv for everything; `make run` and `make test` create it on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install run web worker test test-sqlite test-postgres lint fmt check migrate

$(STAMP): requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements.txt
	touch $(STAMP)

install: $(STAMP)

migrate: $(STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py migrate --noinput --database injections

# Web server + one Celery worker with embedded beat, on embedded defaults (SQLite, filesystem broker).
run: migrate
	bash scripts/run.sh

# The whole suite twice: on SQLite (embedded default) and on PostgreSQL (TEST_DATABASE_URL).
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/protomem

test: $(STAMP)
	$(PY) -m ruff check .
	$(VENV)/bin/lint-imports
	$(PY) manage.py makemigrations --check --dry-run
	env -u DATABASE_URL $(PY) -m pytest $(PYTEST_ARGS)
	DATABASE_URL=$(TEST_DATABASE_URL) $(PY) -m pytest $(PYTEST_ARGS)

test-sqlite: $(STAMP)
	env -u DATABASE_URL $(PY) -m pytest $(PYTEST_ARGS)

test-postgres: $(STAMP)
	DATABASE_URL=$(TEST_DATABASE_URL) $(PY) -m pytest $(PYTEST_ARGS)

lint: $(STAMP)
	$(PY) -m ruff check .

fmt: $(STAMP)
	$(PY) -m ruff check --fix .
