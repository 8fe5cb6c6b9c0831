#!/usr/bin/env bash
# Runs the web server and a Celery worker (with embedded beat) together.
#
# One SIGINT (Ctrl-C) or SIGTERM stops both: each gets SIGTERM once, whatever is still running
# after STOP_TIMEOUT_S is killed with its process group, and the script exits 0. If either child
# exits on its own, the other is stopped the same way and the script exits 1.
#
# Each child runs in a session of its own, so a Ctrl-C at the terminal reaches only this script
# (which then stops them once, in order) and never the children directly.
set -uo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
HOST=${PROTOMEM_HOST:-127.0.0.1}
PORT=${PROTOMEM_PORT:-8000}
STOP_TIMEOUT_S=${PROTOMEM_STOP_TIMEOUT_S:-6}
INSTANCE_DIR=${PROTOMEM_INSTANCE_DIR:-instance}
RUN_DIR=$INSTANCE_DIR/run # pid file and control socket, per instance rather than per user
mkdir -p "$RUN_DIR"
# Gunicorn's workers and Celery's prefork children each count alone; with this directory every
# process writes its samples there and GET /metrics sums them all (protomem/metrics.py). Cleared
# at each start: the files are the counters of processes that are gone.
export PROMETHEUS_MULTIPROC_DIR=${PROMETHEUS_MULTIPROC_DIR:-$RUN_DIR/prometheus}
mkdir -p "$PROMETHEUS_MULTIPROC_DIR"
rm -f "$PROMETHEUS_MULTIPROC_DIR"/*.db

children=()
stopping=0

start() {
  setsid "$@" &
  children+=("$!")
}

alive() { kill -0 "$1" 2>/dev/null; }

any_alive() {
  local pid
  for pid in "${children[@]}"; do alive "$pid" && return 0; done
  return 1
}

stop_children() {
  trap '' INT TERM # one stop: later signals change nothing
  local pid now deadline
  for pid in "${children[@]}"; do alive "$pid" && kill -TERM "$pid" 2>/dev/null; done
  # Microseconds from EPOCHREALTIME (SECONDS counts whole seconds); no $(...) in this loop:
  # bash 5.2 has been seen to crash in a command substitution while its children exit.
  now=${EPOCHREALTIME/[.,]/}
  deadline=$((now + STOP_TIMEOUT_S * 1000000))
  while any_alive && [ "$now" -lt "$deadline" ]; do
    sleep 0.1 # bounded poll for the children's exit
    now=${EPOCHREALTIME/[.,]/}
  done
  for pid in "${children[@]}"; do
    alive "$pid" && echo "run.sh: $pid did not stop within ${STOP_TIMEOUT_S}s; killing it" >&2
    # The whole group: prefork children, gunicorn workers and beat go with their parent.
    kill -KILL -- "-$pid" 2>/dev/null
  done
  wait 2>/dev/null
}

trap 'stopping=1' INT TERM

start "$PY" -m celery -A protomem worker --beat --concurrency=2 -l info
if [ "${DJANGO_DEBUG:-}" = "1" ] || [ "${DJANGO_DEBUG:-}" = "true" ]; then
  start "$PY" manage.py runserver "$HOST:$PORT"
else
  "$PY" manage.py collectstatic --noinput -v 0
  # Worker class, threads and access log come from gunicorn.conf.py (PROTOMEM_ACCESS_LOG=- for one).
  start "$PY" -m gunicorn protomem.wsgi --bind "$HOST:$PORT" --workers 2 \
    --graceful-timeout 5 --pid "$RUN_DIR/gunicorn.pid" --control-socket "$RUN_DIR/gunicorn.ctl"
fi

# Returns when a child exits, or at once when a trapped signal arrives.
[ "$stopping" = 1 ] || wait -n
if [ "$stopping" = 0 ]; then
  echo "run.sh: a process exited by itself; stopping the rest" >&2
  stop_children
  exit 1
fi
stop_children
exit 0
