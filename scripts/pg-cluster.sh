#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests' second leg and the benchmarks: initdb under a temporary folder,
# a free port on 127.0.0.1, trust authentication for the `rastro` role, C locale. Needs Debian's postgresql
# package (.ci/run installs it). As root, the server runs as the `postgres` system user.
#   scripts/pg-cluster.sh start        prints RASTRO_PG_DIR=… and RASTRO_PG_URL=… lines (eval-able)
#   scripts/pg-cluster.sh stop DIR     stops it and removes the folder
set -euo pipefail

bindir() {
  if command -v pg_config >/dev/null 2>&1 && [ -x "$(pg_config --bindir)/initdb" ]; then pg_config --bindir; return; fi
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1
}
BIN="$(bindir)"
[ -n "$BIN" ] && [ -x "$BIN/initdb" ] || { echo "PostgreSQL is not installed (apt-get install -y postgresql)" >&2; exit 2; }

as_owner() {
  if [ "$(id -u)" = "0" ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-}" in
  start)
    dir="$(mktemp -d /tmp/rastro-pg-XXXXXX)"
    chmod 755 "$dir"
    [ "$(id -u)" = "0" ] && chown postgres "$dir"
    port="$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
    as_owner "$BIN/initdb" -D "$dir/data" -A trust -U rastro -E UTF8 --locale=C >"$dir/initdb.log" 2>&1
    as_owner "$BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -o \
      "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=400 -c shared_buffers=128MB" start >/dev/null
    echo "RASTRO_PG_DIR=$dir"
    echo "RASTRO_PG_URL=postgres://rastro@127.0.0.1:$port/postgres"
    ;;
  stop)
    dir="${2:?cluster folder}"
    as_owner "$BIN/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
  *)
    echo "usage: $0 start | stop DIR" >&2
    exit 2
    ;;
esac
