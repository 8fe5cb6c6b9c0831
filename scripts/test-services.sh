#!/usr/bin/env bash
# The services the test suite needs (Redis, PostgreSQL with a password role, Debian's Chromium):
# installed and started when missing, stopped afterwards only if this script started them.
#
#   scripts/test-services.sh up          bring up what is missing; remember what was started
#   scripts/test-services.sh down        stop what `up` started (nothing else)
#   scripts/test-services.sh with CMD..  up, run CMD, down (also on failure or Ctrl-C); CMD's status
#
# Needs root on a bare Debian machine (apt-get, runuser); on a machine where everything already
# runs it only makes sure the test role and databases exist (and that pgvector is installed).
set -euo pipefail
cd "$(dirname "$0")/.."

PG_ROLE=${PROTOMEM_TEST_DB_USER:-protomem}
PG_PASSWORD=${PROTOMEM_TEST_DB_PASSWORD:-protomem-test}
PG_DATABASE=${PROTOMEM_TEST_DB_NAME:-protomem}
REDIS_PORT=6379
PG_PORT=5432
STATE=${PROTOMEM_SERVICES_STATE:-instance/test-services.started}
WAIT_STEPS=150 # x 0.2 s: a cold PostgreSQL start on a loaded two-core machine

log() { echo "test-services: $*" >&2; }

apt_updated=0
apt_install() {
  if [ "$apt_updated" = 0 ]; then
    apt-get update -qq
    apt_updated=1
  fi
  # No service starts from package scripts: what runs is started below, and so is known to us.
  local made_policy=0
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
    chmod +x /usr/sbin/policy-rc.d
    made_policy=1
  fi
  log "installing $*"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
  if [ "$made_policy" = 1 ]; then rm -f /usr/sbin/policy-rc.d; fi
}

# Poll a readiness probe, bounded; fails loudly instead of hanging.
wait_for() {
  local what=$1
  shift
  for _ in $(seq "$WAIT_STEPS"); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.2
  done
  log "$what did not come up"
  return 1
}

redis_up() { command -v redis-cli >/dev/null && redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping | grep -q PONG; }
pg_up() { command -v pg_isready >/dev/null && pg_isready -h 127.0.0.1 -p "$PG_PORT" -q; }
pg_version() { ls /etc/postgresql 2>/dev/null | sort -V | tail -1; }

start_redis() {
  redis_up && return 0
  command -v redis-server >/dev/null || apt_install redis-server
  if ! redis_up; then
    mkdir -p /var/lib/redis /var/log/redis
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port "$REDIS_PORT" --save "" --appendonly no \
      --dir /var/lib/redis --logfile /var/log/redis/ci.log
  fi
  wait_for redis redis_up
  echo redis >>"$STATE"
  log "started redis"
}

start_postgres() {
  if ! pg_up; then
    command -v pg_ctlcluster >/dev/null || apt_install postgresql
    local version
    version=$(pg_version)
    if [ -z "$version" ] || [ ! -d "/etc/postgresql/$version/main" ]; then
      version=${version:-$(ls /usr/lib/postgresql | sort -V | tail -1)}
      pg_createcluster "$version" main >/dev/null
    fi
    pg_ctlcluster --skip-systemctl-redirect "$version" main start
    wait_for postgresql pg_up
    echo "postgresql $version" >>"$STATE"
    log "started postgresql $version"
  fi
  ensure_role
}

# The suite logs in over TCP with a password, so it works whatever pg_hba.conf trusts.
ensure_role() {
  local sql
  sql="DO \$\$ BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$PG_ROLE') THEN
      CREATE ROLE \"$PG_ROLE\" LOGIN CREATEDB PASSWORD '$PG_PASSWORD';
    ELSE
      ALTER ROLE \"$PG_ROLE\" LOGIN CREATEDB PASSWORD '$PG_PASSWORD';
    END IF;
  END \$\$;"
  runuser -u postgres -- psql -q -v ON_ERROR_STOP=1 -d postgres -c "$sql" >/dev/null
  for db in "$PG_DATABASE" "${PG_DATABASE}_injections"; do
    if [ -z "$(runuser -u postgres -- psql -Atq -d postgres -c "SELECT 1 FROM pg_database WHERE datname = '$db'")" ]; then
      runuser -u postgres -- createdb -O "$PG_ROLE" "$db"
      log "created database $db"
    fi
  done
}

# pgvector: the distribution's package where it has one (postgresql-NN-pgvector), else built from
# the vendored release (../shared/vendor/README.md). OPTFLAGS="": portable code, since the test
# machines' CPUs differ from session to session (a -march=native build can die on the next one).
PGVECTOR_TARBALL=${PROTOMEM_PGVECTOR_TARBALL:-../shared/vendor/pgvector-0.8.6.tar.gz}
pgvector_installed() {
  local sharedir
  sharedir=$(pg_config --sharedir 2>/dev/null) || return 1
  [ -f "$sharedir/extension/vector.control" ]
}
ensure_pgvector() {
  local version
  version=$(pg_version)
  [ -n "$version" ] || version=$(ls /usr/lib/postgresql | sort -V | tail -1)
  export PATH="/usr/lib/postgresql/$version/bin:$PATH" # pg_config of the running server
  pgvector_installed && return 0
  if apt-cache show "postgresql-$version-pgvector" >/dev/null 2>&1; then
    apt_install "postgresql-$version-pgvector"
  fi
  pgvector_installed && return 0
  if [ ! -f "$PGVECTOR_TARBALL" ]; then
    log "pgvector is missing and $PGVECTOR_TARBALL is absent: the pgvector tests will fail"
    return 1
  fi
  command -v make >/dev/null && command -v gcc >/dev/null || apt_install make gcc
  [ -f "/usr/include/postgresql/$version/server/postgres.h" ] || apt_install "postgresql-server-dev-$version"
  local build
  build=$(mktemp -d)
  tar xzf "$PGVECTOR_TARBALL" -C "$build"
  log "building pgvector from $PGVECTOR_TARBALL"
  (cd "$build"/pgvector-* && make -s OPTFLAGS="" >/dev/null && make -s install >/dev/null)
  rm -rf "$build"
  pgvector_installed
}

# The test role may not create an untrusted extension: create it here, as the superuser, in
# template1 (so the suite's test databases, copied from it, start with it) and the test databases.
create_pgvector() {
  local db
  for db in template1 "$PG_DATABASE" "${PG_DATABASE}_injections"; do
    runuser -u postgres -- psql -q -v ON_ERROR_STOP=1 -d "$db" -c "CREATE EXTENSION IF NOT EXISTS vector" >/dev/null
  done
}

ensure_chromium() {
  [ -x /usr/bin/chromium ] || apt_install chromium
}

up() {
  mkdir -p "$(dirname "$STATE")"
  touch "$STATE" # appends: a second `up` keeps what the first one started
  start_redis
  start_postgres
  ensure_pgvector && create_pgvector
  ensure_chromium
}

# Stops only what the state file says `up` started; installed packages stay installed.
down() {
  [ -f "$STATE" ] || return 0
  local what version
  while read -r what version; do
    case "$what" in
      redis)
        redis-cli -h 127.0.0.1 -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
        log "stopped redis"
        ;;
      postgresql)
        pg_ctlcluster --skip-systemctl-redirect "$version" main stop -m fast || true
        log "stopped postgresql $version"
        ;;
    esac
  done <"$STATE"
  rm -f "$STATE"
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  with)
    shift
    trap down EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    up
    status=0
    "$@" || status=$?
    exit "$status"
    ;;
  *)
    echo "usage: $0 up|down|with COMMAND..." >&2
    exit 2
    ;;
esac
