#!/usr/bin/env bash
# schemathesis (PyPI) with every check (`--checks all`) against a real parchis-server, once on SQLite and
# once on PostgreSQL when one answers at 127.0.0.1:5432 (a database of its own, made and dropped here):
# the OpenAPI document must say what the server does, and the server must refuse what the document does
# not allow. Real ids and tokens first (fixtures.py), a fixed seed and a bounded number of examples per
# operation (SCHEMATHESIS_EXAMPLES, default 25; SCHEMATHESIS_SEED, default 1). Exits non-zero on any
# finding. Uses target/debug/parchis-server, built first (PARCHIS_SERVER to use another binary as it is),
# and a virtual environment in target/schemathesis-venv (PyPI's schemathesis installed there).
set -euo pipefail
cd "$(dirname "$0")/../.."
here=tests/schemathesis
examples=${SCHEMATHESIS_EXAMPLES:-25}
seed=${SCHEMATHESIS_SEED:-1}
server=${PARCHIS_SERVER:-}
venv=target/schemathesis-venv
# Pinned: a fixed seed draws the same cases only with the same version.
version=4.32.5

if ! "$venv/bin/st" --version 2>/dev/null | grep -q "$version"; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "schemathesis==$version"
fi
if [ -z "$server" ]; then
  cargo build -q -p parchis-server --bin parchis-server
  server=target/debug/parchis-server
fi

work=$(mktemp -d)
pid=
stop_server() {
  if [ -n "$pid" ]; then
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    pid=
  fi
}
cleanup() {
  stop_server
  if [ -n "${pg_db:-}" ]; then
    psql -q -h 127.0.0.1 -U postgres -d test -c "DROP DATABASE IF EXISTS $pg_db WITH (FORCE)" >/dev/null || true
  fi
  if [ -n "${SCHEMATHESIS_KEEP:-}" ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

# One run against a fresh server on `$1` (a DATABASE_URL) named `$2`.
fuzz() {
  local database_url=$1 name=$2 port base
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  base="http://127.0.0.1:$port"
  export PARCHIS_ADMIN_TOKEN
  PARCHIS_ADMIN_TOKEN=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
  # No per-address write or lookup limits: with them most cases would only see `429 rate_limited`.
  BIND=127.0.0.1 PORT=$port DATABASE_URL=$database_url HTTP_WRITES_PER_MINUTE=0 \
    ADMIN_TOKEN=$PARCHIS_ADMIN_TOKEN RUST_LOG=warn "$server" >"$work/$name.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 100); do
    curl -fs "$base/readyz" >/dev/null 2>&1 && break
    sleep 0.1
  done
  eval "$(python3 "$here/fixtures.py" "$base")"
  printf '\n== schemathesis on %s (seed %s, %s examples per operation)\n' "$name" "$seed" "$examples"
  local status=0
  "$venv/bin/st" --config-file "$here/schemathesis.toml" run "$base/api-docs/openapi.json" \
    --checks all --max-examples "$examples" --seed "$seed" --workers 2 --no-color \
    --generation-database none >"$work/$name.out" 2>&1 || status=$?
  # The summary (and each finding, when there is one), not the progress lines.
  sed -n '/^=\+ \(FAILURES\|SUMMARY\|ERRORS\)/,$p' "$work/$name.out"
  stop_server
  if [ "$status" -ne 0 ]; then
    echo "schemathesis found something on $name (exit $status); the server's log:" >&2
    tail -n 30 "$work/$name.log" >&2
    return "$status"
  fi
}

fuzz "sqlite://$work/fuzz.db?mode=rwc" sqlite
if psql -q -h 127.0.0.1 -U postgres -d test -c 'select 1' >/dev/null 2>&1; then
  pg_db="schemathesis_$$"
  psql -q -h 127.0.0.1 -U postgres -d test -c "CREATE DATABASE $pg_db" >/dev/null
  fuzz "postgres://postgres@127.0.0.1:5432/$pg_db" postgresql
else
  echo "no PostgreSQL at 127.0.0.1:5432: SQLite only"
fi
