#!/usr/bin/env bash
# Runs a command with BUILDSTATION_TEST_PG set, so the PostgreSQL tests run
# instead of skipping: when it is unset, a throwaway server is started
# (.ci/postgres.sh) for the command and stopped and removed after it.
#
#   bash .ci/with-postgres.sh make test
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${BUILDSTATION_TEST_PG:-}" ]; then
  exec "$@"
fi
pgenv=$(bash .ci/postgres.sh) # not eval "$(…)": that would hide a failure from set -e
eval "$pgenv"
stop() {
  local bin run=()
  bin=$(dirname "$(ls -d /usr/lib/postgresql/*/bin/pg_ctl | sort -V | tail -n 1)")
  if [ "$(id -u)" = 0 ]; then run=(runuser -u postgres --); fi
  "${run[@]}" "$bin/pg_ctl" -D "$BUILDSTATION_TEST_PG_DIR/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$BUILDSTATION_TEST_PG_DIR"
}
trap stop EXIT
"$@"
