# One venv for everything; `make run` and `make test` create it on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install run web worker test lint fmt check migrate

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

test: $(STAMP)
	$(PY) -m ruff check .
	$(PY) manage.py makemigrations --check --dry-run
	$(PY) -m pytest $(PYTEST_ARGS)

lint: $(STAMP)
	$(PY) -m ruff check .

fmt: $(STAMP)
	$(PY) -m ruff check --fix .
