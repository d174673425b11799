#!/usr/bin/env bash
# npm test's own set-up, then the command it is given (the test steps).
# It needs Debian's Chromium (the e2e suite), PostgreSQL (the database tests run on a real server as well
# as the embedded one) and redis-server (the Redis suites and the scale-out test start their own).
# On a Debian machine where it may (root), it installs what is missing from Debian's packages and starts
# PostgreSQL on loopback, as a CI machine needs; elsewhere it says in one message what to install.
# TEST_DATABASE_URL set by the caller is used as it is (no PostgreSQL is started then).
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
if [ -z "${TEST_DATABASE_URL:-}" ] && ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then missing+=(postgresql); fi

can_install=false
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then can_install=true; fi

if [ ${#missing[@]} -gt 0 ]; then
  if ! $can_install; then
    echo "npm test needs ${missing[*]}, which this machine lacks. On Debian: sudo apt-get install -y ${missing[*]}" >&2
    echo "(or set TEST_DATABASE_URL to a PostgreSQL database the tests may create schemas in, instead of installing postgresql)" >&2
    exit 1
  fi
  echo "npm test: installing ${missing[*]} from Debian's packages"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

started_pg=""
if [ -z "${TEST_DATABASE_URL:-}" ]; then
  if ! $can_install; then
    echo "npm test needs a PostgreSQL database: set TEST_DATABASE_URL (e.g. postgres://user:pass@127.0.0.1:5432/db), or run as root on Debian so it can start one" >&2
    exit 1
  fi
  pg_version=$(ls /usr/lib/postgresql | sort -V | tail -1)
  pg_lsclusters -h | grep -q "^${pg_version} main" || pg_createcluster "$pg_version" main >/dev/null
  if ! pg_lsclusters -h | grep -q "^${pg_version} main .* online"; then
    pg_ctlcluster "$pg_version" main start
    started_pg="$pg_version"
  fi
  port=$(pg_lsclusters -h | awk -v v="$pg_version" '$1 == v && $2 == "main" { print $3 }')
  for _ in $(seq 1 30); do su postgres -c "pg_isready -q -h 127.0.0.1 -p $port" && break; sleep 1; done
  su postgres -c "psql -p $port -qtAc \"SELECT 1 FROM pg_roles WHERE rolname='brokerdesk_ci'\"" | grep -q 1 ||
    su postgres -c "psql -p $port -qc \"CREATE ROLE brokerdesk_ci LOGIN PASSWORD 'brokerdesk_ci' SUPERUSER\""
  su postgres -c "psql -p $port -qtAc \"SELECT 1 FROM pg_database WHERE datname='brokerdesk_ci'\"" | grep -q 1 ||
    su postgres -c "createdb -p $port -O brokerdesk_ci brokerdesk_ci"
  export TEST_DATABASE_URL="postgres://brokerdesk_ci:brokerdesk_ci@127.0.0.1:${port}/brokerdesk_ci"
  echo "npm test: PostgreSQL ${pg_version} on 127.0.0.1:${port} (TEST_DATABASE_URL)"
fi

status=0
"$@" || status=$?
# Leave the machine as it was: a cluster this run started is stopped again.
if [ -n "$started_pg" ]; then pg_ctlcluster "$started_pg" main stop 2>/dev/null || true; fi
exit $status
