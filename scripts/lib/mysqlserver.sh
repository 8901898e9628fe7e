#!/usr/bin/env bash
# Throwaway MariaDB server for tests: `source` this file, then call mysql_start / mysql_stop.
# Each run gets its own data directory under /tmp and the first free TCP port from 53306 on
# 127.0.0.1, so it never touches the system service (mariadb.service is never started) and
# parallel runs do not collide. mysql_start exports OUTBOX_TEST_MYSQL_URL.
# MYSQL_EXTRA_CONF, if set, holds more [mariadbd] lines (benchmarks size the buffer pool).
# MYSQL_FIRST_PORT (default 53306) is where the search for a free port starts.
#
# Like pgserver.sh, no `set -euo pipefail` here: the file is sourced, and every step is
# checked explicitly instead.

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  echo "mysqlserver.sh: source this file, then call mysql_start / mysql_stop" >&2
  exit 2
fi

_OUTBOX_MYSQL_DIR=""
_OUTBOX_MYSQL_PID=""

_mysql_port_in_use() {
  if command -v ss >/dev/null 2>&1; then
    [ -n "$(ss -Hltn "sport = :$1" 2>/dev/null)" ]
  else
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
  fi
}

_mysql_free_port() {
  local port="$1" limit=$(( $1 + 1000 ))
  while [ "$port" -lt "$limit" ]; do
    if ! _mysql_port_in_use "$port"; then
      echo "$port"
      return 0
    fi
    port=$((port + 1))
  done
  return 1
}

# The server's client, as root over the private socket.
mysql_client() {
  mariadb --no-defaults --socket="$_OUTBOX_MYSQL_DIR/sock" -uroot "$@"
}

# Starts the server once more on the same data directory and port (after a test stopped it).
_mysql_launch() {
  local dir="$1" port="$2"
  local user=()
  [ "$(id -u)" -eq 0 ] && user=(--user=mysql)
  /usr/sbin/mariadbd --defaults-file="$dir/my.cnf" "${user[@]}" --port="$port" \
    >>"$dir/server.log" 2>&1 &
  _OUTBOX_MYSQL_PID=$!
  local i
  for i in $(seq 1 120); do
    if mariadb-admin --no-defaults --socket="$dir/sock" -uroot ping >/dev/null 2>&1; then
      return 0
    fi
    if ! kill -0 "$_OUTBOX_MYSQL_PID" 2>/dev/null; then
      return 1
    fi
    sleep 0.5
  done
  return 1
}

mysql_start() {
  if [ -n "$_OUTBOX_MYSQL_DIR" ]; then
    echo "mysql_start: already running (data dir $_OUTBOX_MYSQL_DIR)" >&2
    return 1
  fi
  if [ ! -x /usr/sbin/mariadbd ] || ! command -v mariadb-install-db >/dev/null 2>&1; then
    echo "mysql_start: no MariaDB server (/usr/sbin/mariadbd; run scripts/bootstrap)" >&2
    return 1
  fi
  local dir
  if ! dir="$(mktemp -d /tmp/outbox-health-mysql.XXXXXX)"; then
    echo "mysql_start: mktemp failed" >&2
    return 1
  fi
  _OUTBOX_MYSQL_DIR="$dir"
  chmod 755 "$dir"
  local owner=()
  if [ "$(id -u)" -eq 0 ]; then
    if ! id mysql >/dev/null 2>&1; then
      echo "mysql_start: running as root but no 'mysql' system user exists (install mariadb-server)" >&2
      mysql_stop
      return 1
    fi
    owner=(--user=mysql)
    chown mysql: "$dir"
  fi
  # Durability is pointless for a throwaway server: no binary log, no flush at commit.
  cat >"$dir/my.cnf" <<EOF
[mariadbd]
datadir=$dir/data
socket=$dir/sock
pid-file=$dir/mariadbd.pid
log-error=$dir/error.log
bind-address=127.0.0.1
skip-name-resolve
skip-log-bin
innodb-flush-log-at-trx-commit=0
innodb-buffer-pool-size=256M
innodb-log-file-size=128M
max-connections=300
character-set-server=utf8mb4
collation-server=utf8mb4_general_ci
${MYSQL_EXTRA_CONF:-}
EOF
  local out
  if ! out="$(mariadb-install-db --defaults-file="$dir/my.cnf" "${owner[@]}" \
                --auth-root-authentication-method=normal --skip-test-db 2>&1)"; then
    echo "mysql_start: mariadb-install-db failed:" >&2
    printf '%s\n' "$out" | tail -n 30 >&2
    mysql_stop
    return 1
  fi
  [ "$(id -u)" -eq 0 ] && chown -R mysql: "$dir"

  local port="" start="${MYSQL_FIRST_PORT:-53306}"
  for _ in 1 2 3 4 5; do
    if ! port="$(_mysql_free_port "$start")"; then
      echo "mysql_start: no free TCP port found from $start" >&2
      mysql_stop
      return 1
    fi
    if _mysql_launch "$dir" "$port"; then
      # The tests connect over TCP as root@127.0.0.1 (no password: a private server).
      if ! mysql_client -e "CREATE USER IF NOT EXISTS 'root'@'127.0.0.1';
          GRANT ALL ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;" >>"$dir/server.log" 2>&1; then
        echo "mysql_start: cannot create the test user; see $dir/error.log" >&2
        mysql_stop
        return 1
      fi
      export MYSQL_PORT="$port" MYSQL_DATADIR="$dir"
      export OUTBOX_TEST_MYSQL_URL="mysql://root@127.0.0.1:$port/mysql"
      echo "mysql_start: MariaDB $(mysql_client -N -e 'SELECT VERSION()' 2>/dev/null) on 127.0.0.1:$port (data $dir)"
      return 0
    fi
    if grep -q 'already in use' "$dir/error.log" 2>/dev/null; then
      start=$((port + 1))
      continue
    fi
    break
  done
  echo "mysql_start: server failed to start; last lines of $dir/error.log:" >&2
  tail -n 30 "$dir/error.log" >&2 2>/dev/null || echo "(no log written)" >&2
  mysql_stop
  return 1
}

# Stops the server (if any) and deletes its data directory. Always returns 0, so it is safe in
# an EXIT trap, when mysql_start never ran, or when called twice.
mysql_stop() {
  local dir="$_OUTBOX_MYSQL_DIR"
  if [ -n "$dir" ] && [ -d "$dir" ]; then
    local pid=""
    [ -f "$dir/mariadbd.pid" ] && pid="$(cat "$dir/mariadbd.pid" 2>/dev/null)"
    [ -z "$pid" ] && pid="$_OUTBOX_MYSQL_PID"
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid" 2>/dev/null
      local i
      for i in $(seq 1 120); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.5
      done
      kill -KILL "$pid" 2>/dev/null || true
    fi
    case "$dir" in
      /tmp/outbox-health-mysql.*) rm -rf -- "$dir" ;;
    esac
  fi
  _OUTBOX_MYSQL_DIR=""
  _OUTBOX_MYSQL_PID=""
  unset OUTBOX_TEST_MYSQL_URL MYSQL_PORT MYSQL_DATADIR
  return 0
}
