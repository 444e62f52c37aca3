#!/usr/bin/env bash
# Starts a throwaway PostgreSQL for supervisor/pgstore's tests and prints the
# line that points them at it:
#
#   eval "$(bash .ci/postgres.sh)"    # sets BUILDSTATION_TEST_PG
#
# It also exports BUILDSTATION_TEST_PG_BIN (the server's bin folder) and,
# as root, BUILDSTATION_TEST_PG_USER (who the server must run as): the
# chaos suite (e2e/team) makes its own cluster with them, since it stops
# and restarts its server, which must not pull the others' from under them.
#
# (`make pg` runs it and prints that line; `make check` uses
# .ci/with-postgres.sh, which also stops the server afterwards.)
#
# It installs Debian's postgresql when missing (as root), makes a cluster in
# a temporary directory owned by the postgres user (the server refuses to run
# as root), starts it on a free port on loopback and its own socket
# directory, so it never meets a system cluster, and creates the database
# bstest. Durability is off (fsync, full_page_writes): the data is thrown
# away, and the tests create and drop a database each.
#
# Everything else it says goes to stderr; stdout is only the export line.
# The server stays up; `pg_ctl -D <dir> stop` (printed on stderr) ends it.
set -euo pipefail

log() { echo "postgres.sh: $*" >&2; }

if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  log "installing postgresql"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends postgresql >&2
fi
bin=$(dirname "$(ls -d /usr/lib/postgresql/*/bin/initdb | sort -V | tail -n 1)")

# The server must not run as root; Debian's package made this user.
run=()
if [ "$(id -u)" = 0 ]; then
  run=(runuser -u postgres --)
fi

dir=$(mktemp -d /tmp/bs-pg.XXXXXX)
chmod 0755 "$dir"
if [ "$(id -u)" = 0 ]; then
  chown postgres:postgres "$dir"
fi
data=$dir/data
log=$dir/server.log

# A free port: ask the kernel for one, then give it to the server; without
# python3, try random ones until nothing answers there.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null) || {
  for _ in $(seq 50); do
    port=$((20000 + RANDOM % 20000))
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || break
  done
}

"${run[@]}" "$bin/initdb" -D "$data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 ||
  { cat "$dir/initdb.log" >&2; exit 1; }
"${run[@]}" "$bin/pg_ctl" -D "$data" -l "$log" -w -t 60 \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off -c full_page_writes=off -c synchronous_commit=off" \
  start >&2 || { cat "$log" >&2; exit 1; }

"${run[@]}" "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -d postgres -qAt -v ON_ERROR_STOP=1 \
  -c "CREATE DATABASE bstest" >&2

log "server up on 127.0.0.1:$port, data in $data; stop it with: ${run[*]} $bin/pg_ctl -D $data stop"
echo "export BUILDSTATION_TEST_PG='postgres://postgres@127.0.0.1:$port/bstest?sslmode=disable'"
echo "export BUILDSTATION_TEST_PG_BIN='$bin'"
if [ "$(id -u)" = 0 ]; then
  echo "export BUILDSTATION_TEST_PG_USER=postgres"
fi
# Where the cluster is, so .ci/with-postgres.sh can stop and remove it.
echo "export BUILDSTATION_TEST_PG_DIR='$dir'"
