#!/usr/bin/env bash
# Throwaway PostgreSQL server for tests: `source` this file, then call
# pg_start / pg_stop. Each run gets its own data directory and TCP port, so it
# never touches a system cluster and parallel runs do not collide.
# PG_EXTRA_CONF, if set, holds more postgresql.conf lines (benchmarks load
# pg_stat_statements this way). The server runs with wal_level = logical and room for 20
# replication slots and WAL senders (the CDC tests' relays); initdb's pg_hba.conf already
# trusts replication connections from 127.0.0.1. PG_FIRST_PORT (default 55432) is where the search for a free
# port starts (tests/support/with-private-servers gives each test its own).
#
# Deliberately no `set -euo pipefail` here: this file is sourced, and changing
# the caller's shell options (e.g. killing an interactive shell on the first
# failing command) is not ours to do. The scripts that source it set them, and
# the functions below check every step explicitly instead of relying on -e.

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  echo "pgserver.sh: source this file, then call pg_start / pg_stop" >&2
  exit 2
fi

# Private state, so pg_stop only ever removes a directory pg_start created.
_OUTBOX_PG_DIR=""
_OUTBOX_PG_RUNAS=""

# Run a PostgreSQL server binary as the right user: PostgreSQL refuses to run
# as root, so as root we use the `postgres` system user from the Debian package.
_pg_run() {
  if [ -n "$_OUTBOX_PG_RUNAS" ]; then
    runuser -u "$_OUTBOX_PG_RUNAS" -- "$@"
  else
    "$@"
  fi
}

# Prefer PostgreSQL 15 (Debian 12's version), else the highest installed.
# A caller-provided PG_BINDIR containing pg_ctl wins.
_pg_find_bindir() {
  if [ -n "${PG_BINDIR:-}" ] && [ -x "$PG_BINDIR/pg_ctl" ]; then
    echo "$PG_BINDIR"
    return 0
  fi
  if [ -x /usr/lib/postgresql/15/bin/pg_ctl ]; then
    echo /usr/lib/postgresql/15/bin
    return 0
  fi
  local best
  best="$(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
  if [ -x "$best/pg_ctl" ]; then
    echo "$best"
    return 0
  fi
  return 1
}

# True if something already listens on TCP port $1 (any address, since
# a 0.0.0.0 or :: listener also blocks binding 127.0.0.1).
_pg_port_in_use() {
  if command -v ss >/dev/null 2>&1; then
    [ -n "$(ss -Hltn "sport = :$1" 2>/dev/null)" ]
  else
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
  fi
}

# First free port at or above $1.
_pg_free_port() {
  local port="$1" limit=$(( $1 + 1000 ))
  while [ "$port" -lt "$limit" ]; do
    if ! _pg_port_in_use "$port"; then
      echo "$port"
      return 0
    fi
    port=$((port + 1))
  done
  return 1
}

pg_start() {
  if [ -n "$_OUTBOX_PG_DIR" ]; then
    echo "pg_start: already running (data dir $_OUTBOX_PG_DIR)" >&2
    return 1
  fi

  local bindir
  if ! bindir="$(_pg_find_bindir)"; then
    echo "pg_start: no PostgreSQL binaries in /usr/lib/postgresql/*/bin (run scripts/bootstrap)" >&2
    return 1
  fi

  _OUTBOX_PG_RUNAS=""
  if [ "$(id -u)" -eq 0 ]; then
    if ! id postgres >/dev/null 2>&1; then
      echo "pg_start: running as root but no 'postgres' system user exists (install the postgresql package)" >&2
      return 1
    fi
    _OUTBOX_PG_RUNAS=postgres
  fi

  # Fixed /tmp (not $TMPDIR): the postgres user must be able to reach it, and
  # the unix socket path must stay under the ~107-byte limit.
  local dir
  if ! dir="$(mktemp -d /tmp/outbox-health-pg.XXXXXX)"; then
    echo "pg_start: mktemp failed" >&2
    return 1
  fi
  _OUTBOX_PG_DIR="$dir"
  if [ -n "$_OUTBOX_PG_RUNAS" ] && ! chown "$_OUTBOX_PG_RUNAS:" "$dir"; then
    echo "pg_start: cannot chown $dir to $_OUTBOX_PG_RUNAS" >&2
    pg_stop
    return 1
  fi

  # initdb needs an empty directory, so its output is kept in memory and only
  # shown on failure; the server log is created inside the data dir afterwards.
  local out
  if ! out="$(_pg_run "$bindir/initdb" -D "$dir" --auth=trust -U postgres \
                --encoding=UTF8 --locale=C 2>&1)"; then
    echo "pg_start: initdb failed:" >&2
    printf '%s\n' "$out" | tail -n 30 >&2
    pg_stop
    return 1
  fi

  # Settings go into postgresql.conf (appending keeps the file's owner) rather
  # than on the pg_ctl command line, to avoid quoting trouble. Durability is
  # pointless for a throwaway test cluster, so it is switched off for speed.
  if ! cat >>"$dir/postgresql.conf" <<EOF

# --- outbox-health test server ---
listen_addresses = '127.0.0.1'
unix_socket_directories = '$dir'
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 200
shared_buffers = 256MB
# Logical decoding, so that tests can run a change-data-capture relay (pg_recvlogical) on a
# replication slot (tests/support/cdcconsumer.h, docs/cdc.md).
wal_level = logical
max_replication_slots = 20
max_wal_senders = 20
${PG_EXTRA_CONF:-}
EOF
  then
    echo "pg_start: cannot write $dir/postgresql.conf" >&2
    pg_stop
    return 1
  fi

  local log="$dir/server.log" port="" start="${PG_FIRST_PORT:-55432}"
  # The port can be taken between the check and the bind, so retry a few times.
  for _ in 1 2 3 4 5; do
    if ! port="$(_pg_free_port "$start")"; then
      echo "pg_start: no free TCP port found from $start" >&2
      pg_stop
      return 1
    fi
    [ -f "$log" ] && : >"$log"   # only the latest attempt matters
    if out="$(_pg_run "$bindir/pg_ctl" -D "$dir" -l "$log" -w -t 60 \
                -o "-p $port" start 2>&1)"; then
      export PG_PORT="$port" PG_DATADIR="$dir" PG_BINDIR="$bindir"
      export OUTBOX_TEST_PG_URL="postgresql://postgres@127.0.0.1:$port/postgres"
      echo "pg_start: PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on 127.0.0.1:$port (data $dir)"
      return 0
    fi
    if [ -f "$log" ] && grep -q 'Address already in use' "$log"; then
      start=$((port + 1))
      continue
    fi
    break
  done

  printf '%s\n' "$out" >&2
  echo "pg_start: server failed to start; last lines of $log:" >&2
  tail -n 30 "$log" >&2 2>/dev/null || echo "(no log written)" >&2
  pg_stop
  return 1
}

# Stop the server (if any) and delete its data dir. Always returns 0 so it is
# safe in an EXIT trap, when pg_start never ran, or when called twice.
pg_stop() {
  local dir="$_OUTBOX_PG_DIR"
  if [ -n "$dir" ] && [ -d "$dir" ]; then
    if [ -f "$dir/postmaster.pid" ]; then
      local bindir="${PG_BINDIR:-}"
      [ -x "$bindir/pg_ctl" ] || bindir="$(_pg_find_bindir)" || bindir=""
      if [ -n "$bindir" ]; then
        if ! _pg_run "$bindir/pg_ctl" -D "$dir" -m fast -w -t 60 stop >/dev/null 2>&1; then
          echo "pg_stop: pg_ctl stop failed for $dir; stopping it immediately" >&2
          _pg_run "$bindir/pg_ctl" -D "$dir" -m immediate -w -t 30 stop >/dev/null 2>&1 || true
        fi
      fi
      # Never leave a server running on a deleted data directory: the postmaster's PID is the
      # first line of postmaster.pid, and it is ours only while that process still has the
      # directory as its data directory.
      local pid
      pid="$(head -n 1 "$dir/postmaster.pid" 2>/dev/null || true)"
      if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null \
        && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "$dir"; then
        echo "pg_stop: postmaster $pid still running; killing it" >&2
        kill -9 "$pid" 2>/dev/null || true
      fi
    fi
    # Guard against ever deleting anything that is not one of our temp dirs.
    case "$dir" in
      /tmp/outbox-health-pg.*) rm -rf -- "$dir" ;;
    esac
  fi
  _OUTBOX_PG_DIR=""
  _OUTBOX_PG_RUNAS=""
  unset OUTBOX_TEST_PG_URL PG_PORT PG_DATADIR
  return 0
}
