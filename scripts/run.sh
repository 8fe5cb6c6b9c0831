#!/usr/bin/env bash
# Runs the web server and a Celery worker (with beat) together; Ctrl-C stops both.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
HOST=${PROTOMEM_HOST:-127.0.0.1}
PORT=${PROTOMEM_PORT:-8000}
trap 'kill 0' EXIT INT TERM
$PY -m celery -A protomem worker --beat --concurrency=2 -l info &
if [ "${DJANGO_DEBUG:-}" = "1" ] || [ "${DJANGO_DEBUG:-}" = "true" ]; then
  $PY manage.py runserver "$HOST:$PORT"
else
  $PY manage.py collectstatic --noinput -v 0
  $PY -m gunicorn protomem.wsgi --bind "$HOST:$PORT" --workers 2 --access-logfile - &
  wait
fi
